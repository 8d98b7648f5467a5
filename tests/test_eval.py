"""fatezoo eval (the score card), the baseline agent and fatezoo export-baseline (issue 29).

The card tests run the real protocol v1 with a tiny ``--games``; the baseline tests build
MaskablePPO policies with random weights (and one trained for a few seconds) and check the
numpy forward pass against torch's on real observations of every game.
"""

import json

import numpy as np
import pytest

from fatezoo.agents import baseline as baseline_mod
from fatezoo.agents import make_agent
from fatezoo.agents.baseline import BaselineAgent, forward, load_network
from fatezoo.envs.core.registry import game_names, get_spec
from fatezoo.training.cli import main
from fatezoo.training.evaluation import (
    PROTOCOLS,
    calibrate_protocol,
    evaluate_agent,
    format_anchors,
    format_card,
    round_games,
    score_field,
)
from fatezoo.training.ratings import ELO_SCALE, fit_outcomes

torch = pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")


def run_cli(capsys, *argv):
    """``fatezoo ARGV``: (exit status, stdout, stderr)."""
    status = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return status, out, err


# ------------------------------------------------------------------ ratings on anchors


def test_an_anchored_fit_holds_the_anchors_and_rates_the_agent_against_them():
    # a beats b 3 times in 4; b held at 1200: a is 400 log10(3) above it, b does not move
    outcomes = {((0,), (1,)): 3, ((1,), (0,)): 1}
    fit = fit_outcomes(["a", "b"], outcomes, prior_games=0, anchors={"b": 1200.0})
    assert fit["b"]["rating"] == 1200.0 and fit["b"]["se"] == 0.0
    assert fit["a"]["rating"] == pytest.approx(1200.0 + ELO_SCALE * np.log(3.0), abs=1e-6)
    assert fit["a"]["ci"][0] < fit["a"]["rating"] < fit["a"]["ci"][1]
    moved = fit_outcomes(["a", "b"], outcomes, prior_games=0, anchors={"b": 1000.0})
    assert moved["a"]["rating"] == pytest.approx(fit["a"]["rating"] - 200.0, abs=1e-6)
    with pytest.raises(ValueError, match="anchor 'c'"):
        fit_outcomes(["a", "b"], outcomes, anchors={"c": 1000.0})


# ------------------------------------------------------------------ baseline: numpy == torch


def random_policy(game: str, shared=(), seed: int = 0):
    """A MaskablePPO policy of ``fatezoo train``'s architecture, with random weights."""
    import gymnasium
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

    from fatezoo.training.options import TrainOptions
    from fatezoo.training.train_envs import policy_kwargs

    spec = get_spec(game)
    torch.manual_seed(seed)
    opts = TrainOptions(game, net_arch=(32, 16), shared_layers=tuple(shared))
    policy = MaskableActorCriticPolicy(
        gymnasium.spaces.Box(-np.inf, np.inf, (spec.obs_size,), np.float32),
        gymnasium.spaces.Discrete(spec.num_actions), lambda _: 3e-4, **policy_kwargs(opts))
    with torch.no_grad():  # larger than the orthogonal init's, so argmax ties are rare
        for p in policy.parameters():
            p.add_(torch.randn_like(p) * 0.1)
    return policy.eval()


def real_observations(game: str, rows: int = 8, steps: int = 6):
    """Observations and masks of ``rows`` games after 0..steps random moves."""
    from fatezoo.training.baseline_export import agreement_sample

    return agreement_sample(game, rows, steps)


@pytest.mark.parametrize("game", game_names())
def test_the_numpy_forward_pass_equals_torchs_logits_on_real_observations(game, tmp_path):
    from fatezoo.agents.policy import policy_actions
    from fatezoo.training.baseline_export import write_baseline

    obs, masks = real_observations(game)
    for shared in ((), (24,)):
        policy = random_policy(game, shared)
        path = tmp_path / f"{game}.npz"
        write_baseline(policy, game, path)
        agent = make_agent(f"baseline:{path}", game)
        with torch.no_grad():
            x = torch.as_tensor(obs)
            logits = policy.action_net(policy.mlp_extractor.forward_actor(
                policy.pi_features_extractor(x))).numpy()
        assert np.allclose(forward(agent.layers, obs), logits, rtol=1e-5, atol=1e-5)
        assert np.array_equal(agent.act_batch(obs, masks),
                              policy_actions(policy, obs, masks, deterministic=True))
        picked = agent.act_batch(obs, masks)
        assert masks[np.arange(len(masks)), picked].all()


def test_a_baseline_file_is_refused_for_another_game_in_one_line(tmp_path):
    from fatezoo.training.baseline_export import write_baseline

    path = tmp_path / "fatefell.npz"
    write_baseline(random_policy("fatefell"), "fatefell", path)
    with pytest.raises(ValueError, match="is for 'fatefell'") as err:
        BaselineAgent("fathoming", str(path))
    assert "\n" not in str(err.value)
    (tmp_path / "junk.npz").write_bytes(b"not a zip")
    with pytest.raises(ValueError, match="not a baseline file"):
        BaselineAgent("fatefell", str(tmp_path / "junk.npz"))


def test_baseline_and_v1_load_the_file_shipped_in_the_package(tmp_path, monkeypatch):
    from fatezoo.training.baseline_export import write_baseline

    monkeypatch.setattr(baseline_mod, "SHIPPED", tmp_path)
    with pytest.raises(ValueError, match="fatezoo export-baseline") as err:
        make_agent("baseline", "fatefell")
    assert "no v1 baseline is shipped for fatefell" in str(err.value)
    assert "\n" not in str(err.value)
    write_baseline(random_policy("fatefell"), "fatefell", tmp_path / "fatefell_v1.npz")
    for spec in ("baseline", "baseline:v1"):
        assert make_agent(spec, "fatefell").path == tmp_path / "fatefell_v1.npz"


def test_every_shipped_baseline_fits_the_size_limit():
    from fatezoo.training.baseline_export import MAX_BYTES

    shipped = sorted(baseline_mod.SHIPPED.glob("*_v1.npz"))
    assert shipped
    for path in shipped:
        assert path.stat().st_size <= MAX_BYTES, path.name
        meta, _ = load_network(path, path.name.removesuffix("_v1.npz"))
        assert meta.get("weights_dtype", "float32") in ("float32", "float16"), path.name


def test_a_network_over_the_limit_is_stored_as_float16_with_its_agreement(tmp_path):
    from fatezoo.training.baseline_export import write_baseline

    policy, path = random_policy("fatefell"), tmp_path / "fatefell.npz"
    assert write_baseline(policy, "fatefell", path)["weights_dtype"] == "float32"
    full_size = path.stat().st_size
    meta = write_baseline(policy, "fatefell", path, max_bytes=full_size - 1)
    assert meta["weights_dtype"] == "float16" and path.stat().st_size < full_size
    assert 0.95 <= meta["float16_agreement"] <= 1.0
    with np.load(path) as data:
        assert data["w0"].dtype == np.float16 and data["b0"].dtype == np.float32
    obs, masks = real_observations("fatefell")
    picked = make_agent(f"baseline:{path}", "fatefell").act_batch(obs, masks)
    assert masks[np.arange(len(masks)), picked].all()
    with pytest.raises(ValueError, match="at most 1,000 bytes") as err:
        write_baseline(policy, "fatefell", path, max_bytes=1000)
    assert "\n" not in str(err.value) and not path.exists()


def test_setup_ships_the_baselines_folder_as_package_data():
    import importlib.util
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    spec = importlib.util.spec_from_file_location("fatezoo_setup", root / "setup.py")
    source = (root / "setup.py").read_text().replace("\nsetup(", "\n_unused = dict(")
    module = importlib.util.module_from_spec(spec)
    exec(compile(source, str(root / "setup.py"), "exec"), module.__dict__)
    assert "baselines/*.npz" in module.PACKAGE_DATA["fatezoo.agents"]
    assert "baselines/*.json" in module.PACKAGE_DATA["fatezoo.agents"]


# ------------------------------------------------------------------ export-baseline from a run


@pytest.fixture(scope="module")
def trained_run(tmp_path_factory):
    """A ``fatezoo train fatefell`` run of the smallest settings (a few seconds)."""
    out = tmp_path_factory.mktemp("runs")
    status = main(["train", "fatefell", "--timesteps", "64", "--envs", "2", "--n-steps", "32",
                   "--batch-size", "32", "--net-arch", "16", "--imitation-steps", "0",
                   "--eval-every", "0", "--final-eval-games", "0", "--checkpoint-every", "0",
                   "--out-dir", str(out), "--run-name", "tiny", "--no-progress"])
    assert status == 0
    return out / "tiny"


def test_export_baseline_plays_the_checkpoints_greedy_policy_without_torch(
        trained_run, tmp_path, capsys):
    from fatezoo.agents.policy import PolicyAgent

    out = tmp_path / "fatefell_v1.npz"
    status, stdout, _ = run_cli(capsys, "export-baseline", trained_run, "--out", out)
    assert status == 0 and f"baseline:{out}" in stdout
    side = json.loads(out.with_suffix(".json").read_text())
    assert side["game"] == "fatefell" and side["layers"] == [[16, get_spec("fatefell").obs_size],
                                                             [get_spec("fatefell").num_actions,
                                                              16]]
    assert side["train_command"].startswith("fatezoo train fatefell --timesteps 64 ")
    assert "--net-arch 16" in side["train_command"] and "--out-dir" not in side["train_command"]
    assert side["timesteps"] == 64 and len(side["sha256"]) == 64
    obs, masks = real_observations("fatefell")
    ppo = PolicyAgent(trained_run / "checkpoints" / "final.zip", "fatefell")
    assert np.array_equal(make_agent(f"baseline:{out}", "fatefell").act_batch(obs, masks),
                          ppo.act_batch(obs, masks))
    # the sidecar's command trains with the run's options again
    from fatezoo.training.cli import build_parser
    from fatezoo.training.options import MACHINE_FIELDS, options_from_args

    words = side["train_command"].split()[1:]
    again = vars(options_from_args(build_parser("fatefell").parse_args(words)))
    for key, value in side["train_options"].items():
        if key not in MACHINE_FIELDS:
            assert again[key] == (tuple(value) if isinstance(value, list) else value), key


def test_a_baseline_plays_without_torch(trained_run, tmp_path):
    import subprocess
    import sys

    from fatezoo.training.baseline_export import export_baseline

    out = tmp_path / "b.npz"
    export_baseline(trained_run, out)
    code = ("import sys; sys.modules['torch'] = None\n"  # any import of torch now fails
            "import numpy as np\nfrom fatezoo.agents import make_agent\n"
            f"agent = make_agent('baseline:{out}', 'fatefell')\n"
            "mask = np.zeros((1, agent.meta['num_actions']), np.int8); mask[0, 3] = 1\n"
            "obs = np.zeros((1, agent.meta['obs_size']), np.float32)\n"
            "assert agent.act_batch(obs, mask).tolist() == [3]\n"
            "assert 'torch' not in sys.modules or sys.modules['torch'] is None\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_a_baseline_plays_in_the_arena_and_as_the_gym_opponent(trained_run, tmp_path, capsys):
    from fatezoo.gym_env import make_env
    from fatezoo.training.baseline_export import export_baseline

    out = tmp_path / "b.npz"
    export_baseline(trained_run, out)
    status, stdout, _ = run_cli(capsys, "arena", "fatefell", "--agents",
                                f"random,baseline:{out}", "--games", "4", "--json",
                                "--no-progress")
    assert status == 0
    assert json.loads(stdout)["counts"][f"baseline:{out}"]["random"] == 4
    env = make_env("fatefell", opponent=f"baseline:{out}")
    obs, _ = env.reset(seed=0)
    assert isinstance(env.opponent, BaselineAgent)
    action = int(np.flatnonzero(obs["action_mask"])[0])
    env.step(action)


def test_export_baseline_errors_are_one_line(tmp_path, capsys):
    status, _, err = run_cli(capsys, "export-baseline", tmp_path)
    assert status == 2 and "neither a checkpoint .zip nor a fatezoo train run folder" in err
    assert err.count("\n") == 1


# ------------------------------------------------------------------ the score card


def strip_time(card: dict) -> dict:
    return {k: v for k, v in card.items() if k not in ("seconds", "cpu_seconds")}


def test_a_declared_game_rates_on_its_declared_anchors():
    card = evaluate_agent("fatefell", "random", games=2)
    (c,) = card["cards"]
    assert c["anchors"]["source"] == "declared by protocol v1"
    assert c["anchors"]["ratings"] == PROTOCOLS["v1"].anchors[("fatefell", 2)]
    short = evaluate_agent("fatefell", "random", games=2, options={"seasons": 1})
    assert "this card's options" in short["cards"][0]["anchors"]["source"]


def test_the_card_is_the_same_for_any_batch_size():
    one = evaluate_agent("fatefell", "random", games=4, batch=1)
    three = evaluate_agent("fatefell", "random", games=4, batch=3)
    assert strip_time(one) == strip_time(three)
    assert json.dumps(one)  # JSON-able


def test_the_card_reports_every_suite_member_rate_margin_and_rating(capsys):
    status, out, _ = run_cli(capsys, "eval", "fatefell", "heuristic", "--games", "4", "--json",
                             "--no-progress")
    assert status == 0
    card = json.loads(out)
    assert card["protocol"] == "v1" and not card["full_protocol"]
    assert card["games_per_opponent"] == 4 and card["protocol_games"] == 1000
    (c,) = card["cards"]
    assert c["num_players"] == 2
    played = [r["opponent"] for r in c["opponents"]]
    skipped = [s["opponent"] for s in c["skipped"]]
    assert sorted(played + skipped) == sorted(PROTOCOLS["v1"].suite)
    assert all("export-baseline" in s["reason"] for s in c["skipped"])
    for r in c["opponents"]:
        assert r["games"] == 4 and r["pairings"] == 4
        assert r["win_rate"] == (r["wins"] + r["ties"] / 2) / 4
        assert r["ci"][0] <= r["win_rate"] <= r["ci"][1]
        if r["win_rate"] == 1.0:  # fatefell: the lowest total wins; the margin is for the agent
            assert r["score_margin"] > 0
        if r["win_rate"] == 0.0:
            assert r["score_margin"] < 0
    assert c["anchors"]["ratings"]["random"] == 1000.0
    assert set(c["anchors"]["ratings"]) == set(played)
    lo, hi = c["rating"]["ci"]
    assert lo < c["rating"]["rating"] < hi
    status, text, _ = run_cli(capsys, "eval", "fatefell", "heuristic", "--games", "4",
                              "--no-progress")
    assert "NOT the protocol's full count" in text and "rating:" in text
    assert "--games 4" in text


def test_the_card_says_when_a_game_keeps_no_score():
    assert score_field("villainous")[0] is None
    assert score_field("fatefell") == ("total", "points", -1)


def test_games_are_rounded_up_to_whole_seatings():
    assert round_games(5, 2) == 6 and round_games(4, 3) == 6 and round_games(6, 3) == 6


@pytest.mark.parametrize("argv, expected", [
    (["eval", "nope", "random"], "unknown game 'nope'"),
    (["eval", "fatefell", "nope"], "unknown agent spec 'nope'"),
    (["eval", "fatefell", "random", "--players", "7"], "--players 7: fatefell takes 2 to 4"),
    (["eval", "fatefell", "random", "--players", "two"], "--players 'two'"),
    (["eval", "fatefell", "random", "--protocol", "v0"], "--protocol 'v0': expected one of"),
    (["eval", "fatefell", "random", "--games", "0"], "--games must be an int >= 1, got 0"),
    (["eval", "fatefell", "human"], "a human cannot play"),
    (["eval", "fatefell"], "name the AGENT"),
    (["eval", "fatefell", "baseline"], "no v1 baseline is shipped for fatefell"),
    (["eval", "fatefell", "random", "--cpu-time-limit", "0"],
     "--cpu-time-limit must be a finite number of seconds > 0, got 0.0"),
    (["eval", "fatefell", "random", "--cpu-time-limit", "nan"],
     "--cpu-time-limit must be a finite number of seconds > 0, got nan"),
    (["eval", "fatefell", "random", "--cpu-time-limit", "60", "--ray"],
     "--ray plays the games in other processes: give one or the other"),
    (["arena", "fatefell", "--cpu-time-limit", "-1"],
     "--cpu-time-limit must be a finite number of seconds > 0, got -1.0"),
    (["arena", "fatefell", "--cpu-time-limit", "60", "--ray"],
     "--ray plays the games in other processes: give one or the other"),
])
def test_eval_errors_are_one_line_naming_the_value(argv, expected, capsys, tmp_path,
                                                    monkeypatch):
    monkeypatch.setattr(baseline_mod, "SHIPPED", tmp_path)  # no game has a shipped file here
    status, _, err = run_cli(capsys, *argv)
    assert status == 2 and expected in err and err.count("\n") == 1, err


class FakeCpuClock:
    """A CPU clock at 0 s that jumps to ``after`` once ``module.name`` (a function) returns:
    by default once the card's first arena is played."""

    def __init__(self, monkeypatch, after: float, module=None, name: str = "run_arena"):
        from fatezoo.training import evaluation, progress

        module = evaluation if module is None else module
        self.now, self.calls, real = 0.0, 0, getattr(module, name)

        def call_then_jump(*args, **kwargs):
            result = real(*args, **kwargs)
            self.now, self.calls = after, self.calls + 1
            return result

        monkeypatch.setattr(progress, "cpu_clock", lambda: self.now)
        monkeypatch.setattr(module, name, call_then_jump)


def test_a_cpu_time_limit_ends_the_card_and_the_card_says_which_games_it_holds(
        monkeypatch, capsys):
    full = evaluate_agent("fatefell", "random", games=4)
    clock = FakeCpuClock(monkeypatch, after=100.0)  # the limit is spent by the first arena
    card = evaluate_agent("fatefell", "random", games=4, cpu_time_limit=50)
    assert card["stopped"] and not card["full_protocol"] and card["cpu_time_limit"] == 50.0
    (c,) = card["cards"]
    (first,) = c["opponents"]  # the first suite member's arena ran whole: the same games
    assert first == full["cards"][0]["opponents"][0] and first["opponent"] == "random"
    reasons = {s["opponent"]: s["reason"] for s in c["skipped"]}
    assert reasons["heuristic"] == reasons["ismcts:sims=200"] == \
        "not played: --cpu-time-limit 50 was spent"
    assert c["anchors"]["ratings"] == {"random": 1000.0}  # declared; rated on what was played
    assert c["rating"] is not None
    text = format_card(card)
    assert "NOT the protocol's full count of 1,000: stopped by --cpu-time-limit 50" in text
    assert "--games 4 --cpu-time-limit 50" in text and "skipped heuristic: not played" in text
    # anchors the card must measure itself are not measured once the limit is spent
    clock.now = 0.0
    undeclared = evaluate_agent("fatefell", "random", games=4, options={"seasons": 1},
                                cpu_time_limit=50)
    (c,) = undeclared["cards"]
    assert c["rating"] is None and c["anchors"]["ratings"] is None
    assert c["anchors"]["source"] == "not measured: --cpu-time-limit 50 was spent"
    assert "rating: none (anchors not measured: --cpu-time-limit 50 was spent)" in \
        format_card(undeclared)


def test_a_calibration_the_cpu_time_limit_cuts_declares_no_anchors(monkeypatch):
    from fatezoo.training import arena

    anchors = calibrate_protocol("fatefell", games=2, cpu_time_limit=50)
    assert list(anchors) == [2] and set(anchors[2]) == set(PROTOCOLS["v1"].suite)
    assert anchors[2]["random"] == 1000.0
    # spent after the first batch: the round robin (24 games) stops at 12, its first
    # whole set of seatings (every ordered pair of the 4 members once)
    clock = FakeCpuClock(monkeypatch, after=100.0, module=arena, name="play_batch")
    cut = calibrate_protocol("fatefell", games=4, batch=2, cpu_time_limit=50)
    assert cut == {2: None} and clock.calls == 6
    assert format_anchors("fatefell", cut) == \
        "    # ('fatefell', 2): not measured, --cpu-time-limit was spent"


def test_eval_plot_writes_a_png(tmp_path, capsys):
    png = tmp_path / "card.png"
    status, _, err = run_cli(capsys, "eval", "fatefell", "random", "--games", "2", "--plot", png,
                             "--no-progress")
    assert status == 0 and png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


# ------------------------------------------------------------------ CI's short form


@pytest.mark.parametrize("game", game_names())
def test_ci_short_eval_of_each_game(game, capsys):
    status, out, _ = run_cli(capsys, "eval", game, "heuristic", "--games", "2", "--json",
                             "--no-progress")
    assert status == 0
    (c,) = json.loads(out)["cards"]
    assert [r["opponent"] for r in c["opponents"]][:3] == ["random", "heuristic",
                                                          "ismcts:sims=200"]
    assert c["rating"] is not None
    assert (c["score"]["field"] is None) == (game == "villainous")


def test_a_stopped_card_goes_on_from_its_saved_games_and_equals_the_unbroken_card(
        monkeypatch, tmp_path):
    run = dict(games=4, options={"seasons": 1})  # anchors measured in the run: saved too
    full = evaluate_agent("fatefell", "random", **run)
    folder = tmp_path / "card"
    clock = FakeCpuClock(monkeypatch, after=100.0)  # spent once the first arena is played
    cut = evaluate_agent("fatefell", "random", cpu_time_limit=50, save_games=str(folder),
                         **run)
    assert cut["stopped"] and cut["games_resumed"] == 0
    assert sorted(p.name for p in folder.iterdir()) == [
        "fatefell-2p-random-vs-random-seasons=1.jsonl"]
    clock.now = 0.0
    monkeypatch.undo()
    went_on = evaluate_agent("fatefell", "random", save_games=str(folder), **run)
    assert went_on["games_resumed"] == 4 and not went_on["stopped"]
    drop = ("seconds", "cpu_seconds", "save_games", "games_resumed")
    assert ({k: v for k, v in went_on.items() if k not in drop}
            == {k: v for k, v in full.items() if k not in drop})
    assert len(list(folder.iterdir())) == 5  # one file per suite member, and the anchors'
    assert "4 games read from" in format_card(went_on)


def test_saved_card_arenas_have_safe_distinct_names(tmp_path, capsys):
    from fatezoo.training.evaluation import saved_games_name

    assert saved_games_name("fatefell", ["heuristic", "random"], 2) == \
        "fatefell-2p-heuristic-vs-random.jsonl"
    odd = saved_games_name("fatefell", ["ppo:../runs/a b/final.zip", "random"], 3)
    assert odd.startswith("fatefell-3p-ppo_.._runs_a_b_final.zip-vs-random-")
    assert "/" not in odd and odd != saved_games_name("fatefell", ["ppo:../runs/a_b/final.zip",
                                                                    "random"], 3)
    assert saved_games_name("fatefell", ["heuristic", "random"], 2, {"seasons": 1,
                                                                      "split": "test"}) == \
        "fatefell-2p-heuristic-vs-random-seasons=1-split=test.jsonl"
    file = tmp_path / "file"
    file.write_text("")
    status, _, err = run_cli(capsys, "eval", "fatefell", "random", "--games", "2",
                             "--save-games", file)
    assert status == 2 and "is a file" in err and len(err.strip().splitlines()) == 1
