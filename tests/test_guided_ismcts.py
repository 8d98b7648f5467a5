"""ISMCTS guided by a baseline policy network (``ismcts:prior=baseline...``, issue 29).

The networks here are written in the exporter's format (``fatezoo export-baseline``) with
random or hand-set weights, so no torch is needed: the numba forward pass must equal the
numpy one of :mod:`fatezoo.agents.baseline`, a network that favours one action must steer
the search to it, every game must play through the arena with one, a baseline rollout
must play what the baseline plays, and plain ISMCTS must choose what it chose before the
network prior existed.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from fatezoo.agents import ISMCTSAgent, make_agent
from fatezoo.agents import baseline as baseline_mod
from fatezoo.agents.baseline import FORMAT, forward, greedy_actions, load_network
from fatezoo.agents.ismcts import ROLLOUT_CODES, _rollout_action, flat_network, net_forward
from fatezoo.envs.core import kernels as K
from fatezoo.envs.core.registry import game_names, get_spec
from fatezoo.training.arena import run_arena
from fatezoo.training.cli import main

from .test_ismcts import positions

GAMES = game_names()


def write_network(path, game, layers):
    """Write ``[(w (out, in), b (out,), activation), ...]`` as a baseline file of ``game``."""
    spec = get_spec(game)
    meta = {"format": FORMAT, "game": game, "obs_size": spec.obs_size,
            "num_actions": spec.num_actions, "activations": [act for _, _, act in layers],
            "layers": [list(w.shape) for w, _, _ in layers]}
    arrays = {"meta": np.array(json.dumps(meta))}
    for i, (w, b, _) in enumerate(layers):
        arrays[f"w{i}"], arrays[f"b{i}"] = w.astype(np.float32), b.astype(np.float32)
    np.savez_compressed(path, **arrays)
    return path


def random_network(path, game, seed=0):
    """A baseline file of the exporter's shapes for ``game`` (its train preset's net_arch,
    else sb3's 64-64), tanh hidden layers as sb3's default, with random weights."""
    spec = get_spec(game)
    hidden = spec.evaluation.train_preset.get("net_arch", (64, 64))
    sizes = [spec.obs_size, *hidden, spec.num_actions]
    rng = np.random.default_rng(seed)
    layers = [(rng.normal(0, 1 / np.sqrt(i), (o, i)), rng.normal(0, 0.5, o),
               None if k == len(sizes) - 2 else ("relu" if k % 2 else "tanh"))
              for k, (i, o) in enumerate(zip(sizes, sizes[1:]))]
    return write_network(path, game, layers)


def favouring_network(path, game, action, bias=30.0):
    """A one-layer network whose logits are ``bias`` for ``action`` and 0 elsewhere."""
    spec = get_spec(game)
    b = np.zeros(spec.num_actions)
    b[action] = bias
    return write_network(path, game, [(np.zeros((spec.num_actions, spec.obs_size)), b, None)])


@pytest.mark.parametrize("game", GAMES)
def test_numba_forward_equals_the_numpy_baseline_forward(game, tmp_path):
    spec = get_spec(game)
    _, layers = load_network(random_network(tmp_path / "net.npz", game), game)
    weights, shapes = flat_network(layers)
    assert [a for _, _, a in layers][:2] == ["tanh", "relu"] and layers[-1][2] is None
    records, _ = positions(game, 2, 6, seed=2)
    obs = np.zeros((len(records), spec.obs_size), np.float32)
    for i in range(len(records)):
        K.encode_one(records, i, int(records[i]["current_player"]), obs[i])
    assert np.abs(obs).sum(axis=1).min() > 0
    want = forward(layers, obs)
    got = np.stack([net_forward(weights, shapes, o) for o in obs])
    assert got.shape == (len(records), spec.num_actions) and np.ptp(want) > 1.0
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-9)


@pytest.mark.parametrize("game", ["fatefell", "villainous"])
def test_the_root_follows_the_action_the_network_favours(game, tmp_path):
    """The favoured action is expanded first (one simulation plays it) and, with a large
    prior_weight, is the most visited root child; favouring another action moves it."""
    records, masks = positions(game, 2, 8, seed=5)
    tried = 0
    for i in range(len(records)):
        row, mask = records[i:i + 1], masks[i:i + 1]
        legal = np.flatnonzero(mask[0])
        if len(legal) < 3:
            continue
        tried += 1
        sims = len(legal) + 12  # every legal child once, then the prior decides
        plain = ISMCTSAgent(game, sims=sims, prior=0, seed=i).act_records(row, mask)[0]
        for favoured in (legal[legal != plain][0], legal[legal != plain][-1]):
            path = favouring_network(tmp_path / f"{favoured}.npz", game, favoured)
            first = make_agent(f"ismcts:sims=1,prior=baseline:{path}", game, seed=i)
            assert first.act_records(row, mask)[0] == favoured
            assert first.last_visits[0, favoured] == 1 and first.last_visits.sum() == 1
            agent = make_agent(f"ismcts:sims={sims},prior=baseline:{path},prior_weight=1000",
                               game, seed=i)
            assert agent.act_records(row, mask)[0] == favoured
            assert agent.last_visits[0, favoured] == sims - len(legal) + 1
    assert tried >= 3


@pytest.mark.parametrize("game", ["fatefell", "foretold"])
def test_guided_choices_depend_only_on_the_information_set(game, tmp_path):
    """The network reads determinized observations only: a world resampled consistently
    with the viewer's observation gives the same move and the same root visit counts."""
    spec = get_spec(game)
    path = random_network(tmp_path / "net.npz", game, seed=4)
    records, masks = positions(game, 2, 8, seed=8)
    rng = np.random.default_rng(1)
    changed = 0
    for i in range(len(records)):
        truth = records[i:i + 1].copy()
        other = truth.copy()
        spec.determinize(other[0], int(truth[0]["current_player"]), rng)
        changed += truth.tobytes() != other.tobytes()
        a, b = (make_agent(f"ismcts:sims=40,depth=10,seed=3,prior=baseline:{path}", game)
                for _ in range(2))
        assert a.act_records(truth, masks[i:i + 1]) == b.act_records(other, masks[i:i + 1])
        np.testing.assert_array_equal(a.last_visits, b.last_visits)
    assert changed >= len(records) // 2, "the resampled worlds should differ from the truth"


@pytest.mark.parametrize("game", GAMES)
def test_every_game_plays_guided_search_against_random_in_the_arena(game, tmp_path):
    path = random_network(tmp_path / "net.npz", game, seed=1)
    guided = f"ismcts:prior=baseline:{path},sims=8"
    result = run_arena(game, [guided, "random"], games=2, seed=3, progress=False)
    assert result["per_agent"][guided]["games"] == result["per_agent"]["random"]["games"] == 2
    # each game runs to its end (a rules end or the game's own turn limit: foretold's random
    # seat can reach it); every searched action was checked legal by the agent
    assert result["game_length"]["min"] > 10


@pytest.mark.parametrize("game", ["fatefell", "foretold", "villainous"])
def test_a_baseline_rollout_plays_what_the_baseline_agent_plays(game, tmp_path):
    """rollout=baseline's step is the baseline's greedy legal action on the mover's
    observation, and draws nothing from the search's generator words."""
    spec = get_spec(game)
    _, layers = load_network(random_network(tmp_path / "net.npz", game, seed=6), game)
    weights, shapes = flat_network(layers)
    records, masks = positions(game, 2, 12, seed=9)
    obs = np.zeros((len(records), spec.obs_size), np.float32)
    for i in range(len(records)):
        K.encode_one(records, i, int(records[i]["current_player"]), obs[i])
    want = greedy_actions(layers, obs, masks)
    words = np.array([1, 2, 3, 4], np.int64)
    scratch = np.zeros(spec.obs_size, np.float32)
    got = [_rollout_action(records[i], masks[i], scratch, words, ROLLOUT_CODES["baseline"],
                           weights, shapes) for i in range(len(records))]
    assert got == want.tolist() and len(set(got)) > 1
    assert words.tolist() == [1, 2, 3, 4]


@pytest.mark.parametrize("game", ["fatefell", "foretold"])
def test_guided_search_with_baseline_rollouts_plays_the_arena(game, tmp_path):
    path = random_network(tmp_path / "net.npz", game, seed=1)
    guided = f"ismcts:prior=baseline:{path},rollout=baseline,sims=8"
    assert make_agent(guided, game).rollout == "baseline"
    result = run_arena(game, [guided, "random"], games=2, seed=3, progress=False)
    assert result["per_agent"][guided]["games"] == 2 and result["game_length"]["min"] > 10


def test_a_network_prior_with_its_weight(tmp_path):
    plain = make_agent("ismcts:prior=2.5,sims=4", "foretold")
    assert (plain.prior, plain.network, plain.prior_weight) == (2.5, None, None)
    path = random_network(tmp_path / "net.npz", "foretold")
    agent = make_agent(f"ismcts:prior=baseline:{path}", "foretold")
    assert (agent.prior, agent.network, agent.prior_weight) == (0.0, f"baseline:{path}", 1.0)
    heavy = make_agent(f"ismcts:prior_weight=0.5,prior=baseline:{path}", "foretold")
    assert heavy.prior_weight == 0.5 and "prior_weight=0.5" in repr(heavy)


@pytest.mark.parametrize("spec, message", [
    ("ismcts:prior=baseline:/no/such/net.npz",
     "ismcts: prior=baseline:/no/such/net.npz: no file at '/no/such/net.npz' (expected a "
     "baseline .npz written by `fatezoo export-baseline`)"),
    ("ismcts:prior=baseline:{path},prior_weight=0",
     "ismcts: prior_weight must be a finite number > 0, got 0.0"),
    ("ismcts:prior=baseline:{path},prior_weight=-2",
     "ismcts: prior_weight must be a finite number > 0, got -2.0"),
    ("ismcts:prior=baseline:{path},prior_weight=heavy",
     "ismcts: option prior_weight must be float, got 'heavy'"),
    ("ismcts:prior=baseline:{path},prior_weight=nan",
     "ismcts: prior_weight must be a finite number > 0, got nan"),
    ("ismcts:prior=3,prior_weight=2",
     "ismcts: prior_weight=2.0 weighs a network prior; give prior=baseline[:v1|:FILE.npz] too"),
    ("ismcts:prior=netwerk",
     "ismcts: option prior must be a number or baseline[:v1|:FILE.npz], got 'netwerk'"),
    ("ismcts:rollout=baseline",
     "ismcts: rollout=baseline plays the network prior's choices; give "
     "prior=baseline[:v1|:FILE.npz] too, got prior=None"),
    ("ismcts:rollout=greedy",
     "ismcts: rollout must be 'heuristic', 'random' or 'baseline', got 'greedy'"),
])
def test_bad_network_priors_are_one_line_errors(spec, message, tmp_path):
    path = random_network(tmp_path / "net.npz", "fatefell")
    with pytest.raises(ValueError) as err:
        make_agent(spec.format(path=path), "fatefell")
    assert str(err.value) == message


def test_a_network_of_another_game_is_refused(tmp_path):
    path = random_network(tmp_path / "net.npz", "foretold")
    with pytest.raises(ValueError) as err:
        make_agent(f"ismcts:prior=baseline:{path}", "fatefell")
    assert str(err.value) == (f"ismcts: prior=baseline:{path}: baseline: {str(path)!r} is for "
                              "'foretold' (2957 observations, 343 actions); fatefell needs 524 "
                              "and 33")


def test_prior_baseline_without_a_shipped_file_says_how_to_make_one(tmp_path, monkeypatch):
    monkeypatch.setattr(baseline_mod, "SHIPPED", tmp_path)
    for spec, version in (("ismcts:prior=baseline", "v1"), ("ismcts:prior=baseline:v1", "v1")):
        with pytest.raises(ValueError) as err:
            make_agent(spec, "fatefell")
        assert str(err.value) == (
            f"ismcts: prior={spec[13:]}: no {version} baseline is shipped for fatefell; make one "
            "from a `fatezoo train` run with `fatezoo export-baseline RUN --out FILE.npz` and "
            "give prior=baseline:FILE.npz")
    random_network(tmp_path / "fatefell_v1.npz", "fatefell")
    for spec in ("ismcts:prior=baseline", "ismcts:prior=baseline:v1"):
        assert make_agent(spec, "fatefell").network == spec[13:]


@pytest.mark.parametrize("prior, message", [
    ("prior=baseline:/no/net.npz", "ismcts: prior=baseline:/no/net.npz: no file at "
     "'/no/net.npz'"),
    ("prior=baseline:{other}", "ismcts: prior=baseline:{other}: baseline: '{other}' is for "
     "'foretold'"),
    ("prior=baseline:{path},prior_weight=0", "ismcts: prior_weight must be a finite number > 0,"
     " got 0.0"),
    ("prior=baseline:{path},prior_weight=x", "ismcts: option prior_weight must be float, got "
     "'x'"),
    ("prior=baseline", "ismcts: prior=baseline: no v1 baseline is shipped for fatefell; make "
     "one from a `fatezoo train` run with `fatezoo export-baseline RUN --out FILE.npz`"),
])
def test_the_cli_reports_a_bad_network_prior_in_one_line(prior, message, tmp_path, capsys,
                                                          monkeypatch):
    monkeypatch.setattr(baseline_mod, "SHIPPED", tmp_path / "shipped")
    names = {"path": random_network(tmp_path / "net.npz", "fatefell"),
             "other": random_network(tmp_path / "other.npz", "foretold")}
    status = main(["arena", "fatefell", "--agents", f"ismcts:sims=4,{prior.format(**names)},"
                   "random", "--games", "2", "--no-progress"])
    out, err = capsys.readouterr()
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith("fatezoo arena: error: " + message.format(**names))


# Plain ISMCTS (no network) chose these before the network prior existed: recorded with
# main's agents/ismcts.py at 697e627 (positions(game, 2, 4, seed=9); sims=30, depth=10,
# seed=5) with the game's own prior (None) and with prior=0.
PLAIN_ACTIONS = {
    ("fatefell", None): [0, 10, 7, 7], ("fatefell", 0.0): [0, 10, 7, 7],
    ("fathoming", None): [119, 107, 65], ("fathoming", 0.0): [119, 107, 65],
    ("foretold", None): [236, 342, 342, 238], ("foretold", 0.0): [342, 342, 342, 238],
    ("forgotten_city", None): [277, 17], ("forgotten_city", 0.0): [277, 17],
    ("villainous", None): [6, 27, 6, 4], ("villainous", 0.0): [4, 32, 41, 4],
}


@pytest.mark.parametrize("game, prior", sorted(PLAIN_ACTIONS, key=str))
def test_plain_ismcts_chooses_what_it_chose_before(game, prior):
    records, masks = positions(game, 2, 4, seed=9)
    agent = ISMCTSAgent(game, sims=30, depth=10, seed=5, prior=prior)
    assert agent.act_records(records, masks).tolist() == PLAIN_ACTIONS[game, prior]
