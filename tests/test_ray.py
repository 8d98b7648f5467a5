"""Ray: the arena on Ray workers equals the local arena; RLlib training (the ``ray`` extra).

Everything but the import test is skipped when ray is not installed. The tests share one
local Ray with 2 CPUs, started here.
"""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from fatezoo.training.arena import run_arena
from fatezoo.training.cli import main
from tests.progress_util import Updates

GAME = "fatefell"
OPTIONS = {"seasons": 1}
# under pytest-xdist (--dist loadgroup) every test here runs in one worker: one local Ray
pytestmark = pytest.mark.xdist_group("ray")


def test_fatezoo_and_its_cli_import_no_ray():
    code = ("import sys, fatezoo, fatezoo.training.cli, fatezoo.training.arena; "
            "fatezoo.training.cli.build_parser('fatefell'); "
            "print(sorted(m for m in sys.modules if m == 'ray' or m.startswith('ray.')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"


@pytest.fixture(scope="module")
def local_ray():
    ray = pytest.importorskip("ray", reason="the ray extra is not installed "
                                            "(pip install 'fatezoo[ray]')")
    ray.init(num_cpus=2, include_dashboard=False, configure_logging=False)
    yield ray
    ray.shutdown()


def without_seconds(result: dict) -> dict:
    return {k: v for k, v in result.items() if k not in ("seconds", "cpu_seconds")}


@pytest.mark.parametrize("num_players,specs", [
    (2, ["random", "heuristic", "ismcts:sims=8"]),
    (3, ["random", "heuristic"]),
])
def test_ray_arena_equals_the_local_arena(local_ray, num_players, specs):
    from fatezoo.training.ray_arena import run_ray_arena

    kwargs = dict(games=60, num_players=num_players, seed=5, batch=16, options=OPTIONS)
    local = without_seconds(run_arena(GAME, specs, **kwargs))
    assert len(set(map(tuple, np.asarray(
        [[local["wins"][a][b] for b in local["agents"] if b != a]
         for a in local["agents"]])))) > 1  # not all alike: the comparison has teeth
    for workers, chunk in ((1, None), (2, None), (2, 7), (3, 1)):
        got = run_ray_arena(GAME, specs, workers=workers, chunk=chunk, **kwargs)
        assert without_seconds(got) == local, f"workers={workers} chunk={chunk} differ"


def test_ray_arena_reruns_the_games_of_a_killed_worker(local_ray, tmp_path):
    from fatezoo.training.ray_arena import run_ray_arena

    kwargs = dict(games=48, seed=11, batch=8, options=OPTIONS)
    local = without_seconds(run_arena(GAME, ["random", "heuristic"], **kwargs))
    marker = tmp_path / "killed"
    got = run_ray_arena(GAME, ["random", "heuristic"], workers=2, chunk=8,
                        kill_once=str(marker), **kwargs)
    assert marker.exists()  # a worker really was killed mid-arena
    assert without_seconds(got) == local


def test_a_ray_arena_saves_each_chunk_and_goes_on_without_ray(local_ray, tmp_path):
    from fatezoo.training.ray_arena import run_ray_arena

    kwargs = dict(games=48, seed=11, batch=8, options=OPTIONS)
    specs = ["random", "heuristic", "ismcts:sims=4"]
    local = without_seconds(run_arena(GAME, specs, **kwargs))
    path = tmp_path / "games.jsonl"
    run_ray_arena(GAME, specs, workers=2, chunk=5, save_games=str(path), **kwargs)
    rows = path.read_text().splitlines()
    assert len(rows) == 1 + 10  # the arena, then its 48 games in chunks of 5
    kept = rows[1::2]  # as if stopped with half the chunks (they come back in any order)
    path.write_text("\n".join(rows[:1] + kept) + "\n")
    went_on = run_arena(GAME, specs, save_games=str(path), **kwargs)
    assert went_on["games_resumed"] == sum(len(json.loads(r)["games"]) for r in kept)
    assert went_on["games_resumed"] >= 23  # five of the chunks: 5 games each but one of 3
    drop = ("save_games", "games_resumed")
    assert ({k: v for k, v in without_seconds(went_on).items() if k not in drop}
            == {k: v for k, v in local.items() if k not in drop})


def test_ray_arena_gives_up_after_the_reruns_with_one_line(local_ray, tmp_path):
    from fatezoo.training.ray_arena import run_ray_arena

    with pytest.raises(RuntimeError, match=r"games 0\.\.7 failed after 0 reruns"):
        run_ray_arena(GAME, ["random", "heuristic"], games=8, batch=8, workers=1, chunk=8,
                      max_retries=0, kill_once=str(tmp_path / "killed"), options=OPTIONS)


def test_ray_runner_redraws_progress_while_no_chunk_comes_back(local_ray, monkeypatch):
    import fatezoo.training.ray_arena as ray_arena
    from fatezoo.training.arena import game_seeds, make_lineups

    monkeypatch.setattr(ray_arena, "HEARTBEAT", 0.0)  # every wait that finds nothing redraws
    games, workers = 64, 2
    lineups = np.asarray(make_lineups(2, 2), np.int64)
    seats = lineups[np.arange(games) % len(lineups)]
    progress = Updates()
    ray_arena.ray_runner(workers)(GAME, ["random", "ismcts:sims=4"], [0, 1], seats,
                                  game_seeds(3, games), 2, OPTIONS, 16, progress)
    assert 0 in progress.calls  # redrawn before a chunk came back
    size = -(-games // (ray_arena.CHUNKS_PER_WORKER * workers))
    assert [n for n in progress.calls if n] == [size] * (games // size)  # chunk by chunk
    # the ETA comes once each worker's first chunk is back, not after a whole batch
    assert ray_arena.ray_runner(workers).eta_after(games, 16) == workers * size
    assert ray_arena.ray_runner(workers, chunk=5).eta_after(8, 16) == 8


def json_line(out: str) -> dict:
    """The CLI's one-line JSON object in ``out``: the shared local Ray may print its own
    lines to this process's stdout at any time (e.g. "(raylet) A worker died ..." after the
    tests above kill workers on purpose)."""
    (line,) = [x for x in out.splitlines() if x.startswith("{")]
    return json.loads(line)


def test_cli_arena_ray_json_equals_the_local_json(local_ray, capsys):
    args = ["arena", GAME, "--agents", "random,heuristic", "--games", "40", "--seed", "2",
            "--seasons", "1", "--json", "--no-progress"]
    assert main(args) == 0
    local = json_line(capsys.readouterr().out)
    assert main(args + ["--ray", "--ray-workers", "2"]) == 0
    out = capsys.readouterr()
    assert without_seconds(json_line(out.out)) == without_seconds(local)


@pytest.mark.parametrize("extra,expected", [
    (["--ray-workers", "2"], "--ray-workers needs --ray"),
    (["--ray", "--ray-workers", "0"], "workers must be a positive int or None, got 0"),
])
def test_cli_arena_ray_bad_flags_are_one_line(capsys, extra, expected):
    if "--ray" in extra:
        pytest.importorskip("ray", reason="the ray extra is not installed")
    rc = main(["arena", GAME, "--agents", "random,heuristic", "--games", "4"] + extra)
    err = capsys.readouterr().err
    assert rc == 2 and err.count("\n") == 1 and expected in err, err


# ---------------------------------------------------------------- RLlib training


def rllib():
    pytest.importorskip("ray.rllib", reason="the ray extra is not installed "
                                            "(pip install 'fatezoo[ray]')")
    from fatezoo.training import rllib_ppo
    return rllib_ppo


def random_play(env, rng, steps):
    """(obs, masks, rewards per seat) of ``steps`` random legal decisions of an RLlib env."""
    obs, _ = env.reset(seed=int(rng.integers(1000)))
    seen_obs, seen_masks = [], []
    totals = np.zeros(len(env.possible_agents))
    for _ in range(steps):
        (agent, o), = obs.items()
        seen_obs.append(o["observations"])
        seen_masks.append(o["action_mask"])
        obs, rew, term, trunc, _ = env.step({agent: int(rng.choice(
            np.flatnonzero(o["action_mask"])))})
        for a, r in rew.items():
            totals[env.possible_agents.index(a)] += r
        if term["__all__"] or trunc["__all__"]:
            obs, _ = env.reset(seed=int(rng.integers(1000)))
    return np.array(seen_obs), np.array(seen_masks), totals


def test_rllib_env_plays_the_aec_game():
    rllib_ppo = rllib()
    config = {"game": GAME, "num_players": 3, "options": dict(OPTIONS, reward="score")}
    env = rllib_ppo.FatezooMultiAgentEnv(config)
    aec = __import__("fatezoo").make(GAME, num_players=3, reward="score", **OPTIONS)
    rng = np.random.default_rng(0)
    for seed in (1, 2):
        obs, _ = env.reset(seed=seed)
        aec.reset(seed=seed)
        totals = dict.fromkeys(aec.possible_agents, 0.0)
        while True:
            (agent, o), = obs.items()
            assert agent == aec.agent_selection
            view = aec.observe(agent)
            assert np.array_equal(o["observations"], view["observation"])
            assert np.array_equal(o["action_mask"], view["action_mask"].astype(np.float32))
            a = int(rng.choice(np.flatnonzero(o["action_mask"])))
            obs, rew, term, trunc, _ = env.step({agent: a})
            aec.step(a)
            for k, r in rew.items():
                totals[k] += r
            if term["__all__"] or trunc["__all__"]:
                break
        # every seat's rewards summed over the game are the game's returns
        returns = aec.unwrapped.record["returns"][:3]
        assert np.allclose([totals[a] for a in aec.possible_agents], returns)
        assert set(obs) == set(aec.possible_agents)  # every seat's last observation
        assert all(m["action_mask"].all() for m in obs.values())


def test_rllib_env_refuses_an_illegal_action():
    rllib_ppo = rllib()
    env = rllib_ppo.FatezooMultiAgentEnv({"game": GAME, "options": OPTIONS})
    obs, _ = env.reset(seed=0)
    (agent, o), = obs.items()
    bad = int(np.flatnonzero(o["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match=f"{agent} played illegal action {bad}"):
        env.step({agent: bad})


def test_masked_module_never_samples_an_illegal_action():
    rllib_ppo = rllib()
    import torch
    from ray.rllib.core.columns import Columns

    env = rllib_ppo.FatezooMultiAgentEnv({"game": GAME, "num_players": 2, "options": OPTIONS})
    space = env.observation_spaces["player_0"]
    module = rllib_ppo.MaskedPPOModule(observation_space=space,
                                       action_space=env.action_spaces["player_0"],
                                       model_config={"fcnet_hiddens": [16]})
    obs, masks, _ = random_play(env, np.random.default_rng(1), 400)
    assert (masks.sum(1) < masks.shape[1]).all() and len(np.unique(masks, axis=0)) > 5
    batch = {Columns.OBS: {"observations": torch.as_tensor(obs),
                           "action_mask": torch.as_tensor(masks)}}
    for forward in (module.forward_exploration, module.forward_inference,
                    module.forward_train):
        logits = forward(dict(batch))[Columns.ACTION_DIST_INPUTS]
        dist = module.get_exploration_action_dist_cls().from_logits(logits)
        probs = torch.softmax(logits, -1).detach().numpy()
        assert (probs[masks == 0] == 0).all()  # exactly zero, not small
        torch.manual_seed(0)
        samples = torch.stack([dist.sample() for _ in range(50)]).numpy()  # (50, B)
        assert masks[np.arange(len(masks))[None, :], samples].all()
        assert torch.isfinite(dist.entropy()).all() and torch.isfinite(
            dist.logp(torch.as_tensor(samples[0]))).all()


def test_opponent_mapping_agrees_within_an_episode():
    rllib_ppo = rllib()

    class Episode:
        def __init__(self, i):
            self.id_ = f"episode-{i}"

    mapping = rllib_ppo.opponent_mapping({"random": 1.0, "heuristic": 1.0, "self": 1.0},
                                         pool_size=2, num_players=3, seed=0)
    seen = set()
    for i in range(200):
        ep = Episode(i)
        seats = [mapping(f"player_{s}", ep) for s in range(3)]
        assert seats == [mapping(f"player_{s}", ep) for s in range(3)]  # stable
        assert "learner" in seats
        others = {m for m in seats if m != "learner"}
        assert len(others) <= 1
        seen.add(others.pop() if others else "learner")
    assert seen == {"random", "heuristic", "past_0", "past_1", "learner"}


def test_rllib_train_saves_loads_and_plays_an_arena(local_ray, tmp_path, capsys):
    rllib()
    from fatezoo.agents import RllibAgent, make_agent
    from fatezoo.training.ray_arena import run_ray_arena

    args = ["train", GAME, "--backend", "rllib", "--num-env-runners", "1",
            "--timesteps", "600", "--envs", "4", "--n-steps", "64", "--batch-size", "64",
            "--n-epochs", "1", "--net-arch", "16", "--w-self", "1", "--pool-size", "2",
            "--snapshot-every", "200", "--eval-every", "0", "--final-eval-games", "8",
            "--seasons", "1", "--out-dir", str(tmp_path), "--run-name", "tiny",
            "--no-progress", "--shared-layers", "16", "--checkpoint-every", "256"]
    assert main(args) == 0, capsys.readouterr().err
    out = capsys.readouterr().out
    run = tmp_path / "tiny"
    result = json.loads((run / "result.json").read_text())
    assert result["timesteps"] >= 600 and result["env_steps"] > result["timesteps"] / 2
    assert set(result["final_eval"]) == {"random", "heuristic"}
    assert "win rate vs random" in out and f"rllib:{run / 'checkpoint'}" in out
    progress = (run / "progress.csv").read_text().splitlines()
    assert int(progress[-1].split(",")[4]) >= 2  # snapshots were taken
    steps = [int(p.rsplit("_", 1)[1]) for p in result["checkpoints"]]
    assert steps and steps == sorted(steps) and 256 <= steps[0] < 600  # periodic checkpoints
    assert all((run / "checkpoints" / f"step_{n}").is_dir() for n in steps)
    agent = make_agent(f"rllib:{run / 'checkpoint'}", GAME, num_players=2)
    assert isinstance(agent, RllibAgent)
    env = __import__("fatezoo").make(GAME, **OPTIONS)
    env.reset(seed=3)
    view = env.observe(env.agent_selection)
    assert view["action_mask"][agent.act(view["observation"], view["action_mask"])]
    specs = ["random", f"rllib:{run / 'checkpoint'}"]
    local = run_arena(GAME, specs, games=8, seed=1, options=OPTIONS)
    assert sum(local["counts"][specs[0]].values()) == 8
    on_ray = run_ray_arena(GAME, specs, games=8, seed=1, options=OPTIONS, workers=2)
    assert without_seconds(on_ray) == without_seconds(local)


@pytest.mark.parametrize("flags, named", [
    (["--lr-schedule", "linear"], "lr_schedule='linear' is an SB3 option"),
    (["--target-kl", "0.02"], "target_kl=0.02 is an SB3 option"),
    (["--imitation-steps", "1000"], "imitation_steps=1000 asks for the imitation warm start"),
])
def test_rllib_refuses_sb3_only_settings_in_one_line(tmp_path, capsys, flags, named):
    rllib()
    rc = main(["train", GAME, "--backend", "rllib", "--timesteps", "100", "--out-dir",
               str(tmp_path), "--no-progress"] + flags)
    err = capsys.readouterr().err
    assert rc == 2 and err.count("\n") == 1 and named in err, err
    assert not any(tmp_path.iterdir())  # refused before any run folder or Ray start


def test_rllib_agent_bad_paths_are_one_line(tmp_path, capsys):
    rc = main(["arena", GAME, "--agents", f"random,rllib:{tmp_path / 'nothing'}", "--games",
               "2"])
    err = capsys.readouterr().err
    assert rc == 2 and err.count("\n") == 1 and "rllib: no checkpoint folder at" in err
    rc = main(["arena", GAME, "--agents", f"random,rllib:{tmp_path}", "--games", "2"])
    err = capsys.readouterr().err
    assert rc == 2 and err.count("\n") == 1 and "is no RLlib checkpoint" in err


def test_rllib_flags_need_the_rllib_backend(capsys):
    rc = main(["train", GAME, "--num-env-runners", "2", "--timesteps", "10"])
    err = capsys.readouterr().err
    assert rc == 2 and err.count("\n") == 1 and "--num-env-runners needs --backend rllib" in err


def test_without_ray_the_ray_commands_say_which_extra(monkeypatch, capsys):
    for name in [m for m in sys.modules if m.startswith("ray.")]:
        monkeypatch.delitem(sys.modules, name)  # put back after the test
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray now raises ImportError
    monkeypatch.delitem(sys.modules, "fatezoo.training.rllib_ppo", raising=False)
    rc = main(["arena", GAME, "--agents", "random,heuristic", "--games", "2", "--ray"])
    err = capsys.readouterr().err
    assert rc == 2 and err.count("\n") == 1 and "pip install 'fatezoo[ray]'" in err, err
    rc = main(["train", GAME, "--backend", "rllib", "--timesteps", "10"])
    err = capsys.readouterr().err
    assert rc == 2 and err.count("\n") == 1 and "--backend rllib needs the ray extra" in err, err
