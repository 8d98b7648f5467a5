"""The self-play VecEnv, the training loop and the training benchmark.

Rewards are checked against the PettingZoo AEC env by replaying recorded games; the
training smoke tests use tiny budgets and never assert learning or speed.
"""

import csv

import numpy as np
import pytest

import fatezoo
from fatezoo.envs.core.registry import game_names, get_spec
from fatezoo.envs.core.spec import IllegalActionError
from fatezoo.training.selfplay import OpponentPool, SelfPlayVecEnv

GAME = "fatefell"


def random_actions(masks, rng):
    return (rng.random(masks.shape) * masks).argmax(1)


def run_env(env, steps, seed=0):
    """Step ``env`` with random legal actions; per row: rewards and dones of each step."""
    rng = np.random.default_rng(seed)
    rewards, dones, infos = [], [], []
    env.reset()
    for _ in range(steps):
        _, r, d, info = env.step(random_actions(env.action_masks(), rng))
        rewards.append(r.copy())
        dones.append(d.copy())
        infos.append(info)
    return np.array(rewards), np.array(dones), infos


def replay_learner_rewards(game, episode, num_players, options):
    """Replay a recorded game in the AEC env: the learner's reward between its turns.

    Returns the list c where c[0] is what the learner had accumulated at its first
    turn, c[k] what it accumulated between its k-th action and its next turn (or the
    end), and the final (terminated, truncated) flags.
    """
    env = fatezoo.make(game, num_players=num_players, **options)
    env.reset(seed=0)
    env.unwrapped.load_state(episode["start"])
    learner = f"player_{episode['seat']}"
    acc = []
    for seat, action in episode["actions"]:
        agent = env.agent_selection
        assert agent == f"player_{seat}", (agent, seat)
        if agent == learner:
            acc.append(env.last()[1])
        env.step(action)
    final = env._cumulative_rewards[learner]
    assert all(env.terminations.values()) or all(env.truncations.values())
    acc.append(final)
    return acc, bool(env.terminations[learner]), bool(env.truncations[learner])


@pytest.mark.parametrize("num_players", [2, 3])
def test_rewards_match_the_aec_env(num_players):
    options = {"reward": "score", "max_turns": 120}
    pool = OpponentPool(GAME, {"random": 1.0, "heuristic": 1.0}, num_players=num_players,
                        seed=3)
    env = SelfPlayVecEnv(GAME, num_envs=6, num_players=num_players, seed=11, opponents=pool,
                         record=True, **options)
    rewards, dones, infos = run_env(env, 300)
    assert len(env.episodes) >= 6
    checked = 0
    for row in range(env.num_envs):
        episodes = [e for e in env.episodes if e["row"] == row]
        ends = np.flatnonzero(dones[:, row])
        assert len(ends) == len(episodes)
        start = 0
        for ep, end in zip(episodes, ends):
            got = rewards[start:end + 1, row]
            acc, term, trunc = replay_learner_rewards(GAME, ep, num_players, options)
            want = [acc[0] + acc[1]] + acc[2:]
            assert len(got) == len(want) == sum(s == ep["seat"] for s, _ in ep["actions"])
            np.testing.assert_allclose(got, want, atol=1e-5)
            info = infos[end][row]
            assert (info["terminated"], info["truncated"]) == (term, trunc)
            assert info["TimeLimit.truncated"] == (trunc and not term)
            assert info["episode"]["l"] == len(got)
            assert info["episode"]["r"] == pytest.approx(float(np.sum(got)), abs=1e-4)
            assert info["seat"] == ep["seat"]
            checked += 1
            start = end + 1
    assert checked == len(env.episodes)
    # shaping made the rewards non-trivial between the ends of games
    assert np.abs(rewards[~dones]).sum() > 0


def test_seats_rotate_and_infos_on_game_end():
    env = SelfPlayVecEnv(GAME, num_envs=3, seed=2, max_turns=40,
                         opponents=OpponentPool(GAME, {"random": 1.0}, seed=1))
    obs = env.reset()
    assert obs.dtype == np.float32 and obs.shape == (3, get_spec(GAME).obs_size)
    assert env.observation_space.contains(obs[0])
    assert env.seat.tolist() == [0, 1, 0]
    rng = np.random.default_rng(0)
    seats = {i: [0, 1, 0][i:i + 1] for i in range(3)}
    ended = 0
    for _ in range(200):
        masks = env.action_masks()
        assert masks.dtype == bool and masks.shape == (3, get_spec(GAME).num_actions)
        assert masks.any(axis=1).all()
        assert (env.states["current_player"] == env.seat).all()
        old_seat = env.seat.copy()
        obs, _, dones, infos = env.step(random_actions(masks, rng))
        for i in range(3):
            if not dones[i]:
                assert infos[i] == {}
                continue
            ended += 1
            info = infos[i]
            assert info["seat"] == old_seat[i] and info["opponent"] == "random"
            assert info["terminal_observation"].shape == obs[i].shape
            assert info["truncated"] or info["terminated"]
            assert set(info["episode"]) == {"r", "l", "t"}
            seats[i].append(int(env.seat[i]))
    assert ended >= 6
    for i, s in seats.items():
        assert s == [(i + k) % 2 for k in range(len(s))]


def test_terminal_observation_is_the_learners_view_of_the_end():
    opts = {"max_turns": 30}
    env = SelfPlayVecEnv(GAME, num_envs=4, seed=5, record=True,
                         opponents=OpponentPool(GAME, {"heuristic": 1.0}, seed=1), **opts)
    _, dones, infos = run_env(env, 120)
    found = 0
    for t, row in zip(*np.nonzero(dones)):
        ep = [e for e in env.episodes if e["row"] == row][found_index(dones, t, row)]
        aec = fatezoo.make(GAME, **opts)
        aec.reset(seed=0)
        aec.unwrapped.load_state(ep["start"])
        for _, a in ep["actions"]:
            aec.step(a)
        want = aec.observe(f"player_{ep['seat']}")["observation"]
        np.testing.assert_array_equal(infos[t][row]["terminal_observation"], want)
        found += 1
    assert found >= 4


def found_index(dones, t, row):
    return int(dones[:t, row].sum())


def test_illegal_action_names_row_and_action():
    env = SelfPlayVecEnv(GAME, num_envs=4, seed=0,
                         opponents=OpponentPool(GAME, {"random": 1.0}, seed=0))
    env.reset()
    masks = env.action_masks()
    acts = masks.argmax(1)
    bad = int(np.flatnonzero(~masks[2])[0])
    acts[2] = bad
    before = env.states.copy()
    with pytest.raises(IllegalActionError, match=rf"env 2 .*illegal action {bad}\b.*legal"):
        env.step(acts)
    assert env.states.tobytes() == before.tobytes()
    acts[2] = 99
    with pytest.raises(IllegalActionError, match="env 2 .*action 99"):
        env.step(acts)
    with pytest.raises(IllegalActionError, match="integers"):
        env.step(acts.astype(float))
    with pytest.raises(ValueError, match="shape"):
        env.step(acts[:3])


def test_opponent_pool_rule():
    pool = OpponentPool(GAME, {"random": 1.0, "heuristic": 3.0, "self": 4.0}, seed=0)
    assert pool.probabilities() == {"random": 0.25, "heuristic": 0.75}  # no snapshot yet
    ids = pool.draw(4000)
    share = np.mean(ids == pool.fixed["heuristic"])
    assert 0.7 < share < 0.8
    with pytest.raises(ValueError, match="weight of 'random'"):
        OpponentPool(GAME, {"random": -1})
    with pytest.raises(RuntimeError, match="add_snapshot"):
        OpponentPool(GAME, {"self": 1.0}).draw(1)


def test_snapshot_opponents_play_legally_and_are_named():
    import torch
    from sb3_contrib import MaskablePPO

    pool = OpponentPool(GAME, {"self": 1.0}, pool_size=2, seed=0)
    env = SelfPlayVecEnv(GAME, num_envs=4, seed=0, opponents=pool, max_turns=30)
    model = MaskablePPO("MlpPolicy", env, n_steps=8, batch_size=32, seed=0,
                        policy_kwargs={"net_arch": [16]})
    for _ in range(3):
        pool.add_snapshot(model.policy)
    assert len(pool.snapshots) == 2 and pool.snapshots_added == 3
    names = set()
    obs = env.reset()
    for _ in range(60):
        _, _, dones, infos = env.step(random_actions(env.action_masks(),
                                                     np.random.default_rng(0)))
        names |= {infos[i]["opponent"] for i in np.flatnonzero(dones)}
    assert names and names <= {"self#2", "self#3"}
    assert len(pool.agents) <= 3  # the retired snapshot is forgotten once unused
    # snapshots are frozen copies: training the live policy does not move them
    snap = pool.agents[pool.snapshots[-1]]
    before = [p.clone() for p in snap.policy.parameters()]
    with torch.no_grad():
        for p in model.policy.parameters():
            p.add_(1.0)
    assert all(torch.equal(a, b) for a, b in zip(before, snap.policy.parameters()))
    assert obs.shape == (4, get_spec(GAME).obs_size)


def test_maskable_ppo_uses_the_mask_array_directly():
    from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported

    env = SelfPlayVecEnv(GAME, num_envs=5, seed=0,
                         opponents=OpponentPool(GAME, {"random": 1.0}, seed=0))
    env.reset()
    assert is_masking_supported(env)
    masks = get_action_masks(env)
    assert masks.shape == (5, get_spec(GAME).num_actions) and masks.dtype == bool
    np.testing.assert_array_equal(masks, env.action_masks())
    assert env.env_method("action_masks", indices=[1, 3]).shape == (2, masks.shape[1])


def test_subproc_gym_training_never_plays_an_illegal_action():
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.logger import Logger
    from stable_baselines3.common.vec_env import SubprocVecEnv

    from fatezoo.training.train import TrainOptions, make_env

    class Count(BaseCallback):
        illegal = 0
        steps = 0

        def _on_step(self):
            self.steps += 1
            self.illegal += sum(bool(i.get("illegal_action")) for i in self.locals["infos"])
            return True

    opts = TrainOptions(GAME, num_envs=4, vec="gym-subproc", seed=0)
    env, pool = make_env(opts)
    assert pool is None and isinstance(env, SubprocVecEnv)
    try:
        model = MaskablePPO("MlpPolicy", env, n_steps=512, batch_size=512, n_epochs=1,
                            seed=0, policy_kwargs={"net_arch": [32]})
        model.set_logger(Logger(None, []))  # no /tmp/SB3-* folder left behind
        count = Count()
        model.learn(2048, callback=count)
    finally:
        env.close()
    assert count.steps == 512 and count.illegal == 0
    masks = model.rollout_buffer.action_masks
    assert masks.shape[-1] == get_spec(GAME).num_actions
    assert 0 < masks.mean() < 1  # real masks reached the buffer, not all-ones


def test_train_arguments_round_trip():
    import argparse

    from fatezoo.training.options import add_game_options, add_train_arguments, options_from_args

    parser = argparse.ArgumentParser()
    add_train_arguments(parser, GAME)
    add_game_options(parser, GAME)
    args = parser.parse_args([GAME, "--timesteps", "5000", "--net-arch", "32,16", "--envs", "8",
                              "--w-self", "0", "--reward", "win", "--seasons", "2",
                              "--eval-opponents", "random", "--no-progress"])
    opts = options_from_args(args)
    assert (opts.timesteps, opts.net_arch, opts.num_envs, opts.w_self) == (5000, (32, 16), 8, 0)
    # a game with held-out setups trains on its train split unless told otherwise
    assert opts.reward == "win" and opts.game_options == {"seasons": 2, "split": "train"}
    assert opts.eval_opponents == ("random",) and opts.progress is False
    with pytest.raises(ValueError, match="num_envs"):
        options_from_args(parser.parse_args([GAME, "--envs", "0"]))
    # "none" is a value of its own, apart from "not given"
    opts = options_from_args(parser.parse_args([GAME, "--target-kl", "none",
                                                "--imitation-steps", "0"]))
    assert opts.target_kl is None and opts.imitation_steps == 0
    opts = options_from_args(parser.parse_args([GAME, "--cpu-time-limit", "3600"]))
    assert opts.cpu_time_limit == 3600.0 and opts.time_limit is None
    with pytest.raises(ValueError, match=r"cpu_time_limit must be > 0 seconds or None, got -1"):
        options_from_args(parser.parse_args([GAME, "--cpu-time-limit", "-1"]))


def test_cpu_time_limit_stops_training_and_is_reported(tmp_path):
    from fatezoo.training.train import TrainOptions, format_train_result, train

    opts = TrainOptions(GAME, timesteps=10**8, cpu_time_limit=1.0, num_envs=8, n_steps=64,
                        batch_size=128, n_epochs=1, net_arch=(16,), imitation_steps=0,
                        eval_every=0, final_eval_games=0, out_dir=str(tmp_path),
                        progress=False)
    result = train(opts)
    assert result["stopped_by_time"] and 8 <= result["timesteps"] < 10**8  # stopped early
    assert result["cpu_seconds"] >= 1.0
    assert "(stopped by the time limit); the whole run used" in format_train_result(result)


def test_a_warm_start_cut_by_the_time_limit_says_so(tmp_path):
    from fatezoo.training.train import TrainOptions, format_train_result, train

    # a quarter of 1 CPU second is spent after the first rollout of 8 * 64 decisions
    opts = TrainOptions(GAME, timesteps=512, cpu_time_limit=1.0, num_envs=8, n_steps=64,
                        batch_size=128, n_epochs=1, net_arch=(16,), imitation_steps=10**7,
                        eval_every=0, final_eval_games=0, out_dir=str(tmp_path),
                        progress=False)
    result = train(opts)
    warm = result["imitation"]
    assert warm["stopped_by_time"] and warm["asked"] == 10**7 and 512 <= warm["steps"] < 10**7
    assert (f"warm start: imitated {warm['steps']:,} of the 10,000,000 decisions asked (25% of "
            "the time limit is its share)") in format_train_result(result)


def test_train_without_tensorboard_logs_csv_and_says_so(tmp_path, monkeypatch, capsys):
    # an SB3 installed without the train extra: SB3 would fail on a bare AssertionError
    import sys

    from fatezoo.training.train import TrainOptions, train

    monkeypatch.setitem(sys.modules, "tensorboard", None)  # import tensorboard -> ImportError
    opts = TrainOptions(GAME, timesteps=64, num_envs=8, n_steps=8, batch_size=64, n_epochs=1,
                        net_arch=(16,), imitation_steps=0, eval_every=0, final_eval_games=0,
                        out_dir=str(tmp_path), progress=False)
    result = train(opts)
    run = tmp_path / result["run_dir"].split("/")[-1]
    assert "tensorboard is not installed" in capsys.readouterr().err
    header = (run / "tb" / "progress.csv").read_text().splitlines()[0].split(",")
    assert "time/total_timesteps" in header
    assert not [p for p in (run / "tb").iterdir() if "tfevents" in p.name]


@pytest.mark.parametrize("game", game_names())
def test_train_smoke(game, tmp_path, capsys):
    import re

    from fatezoo.agents import make_agent
    from fatezoo.training.train import TrainOptions, train

    spec = get_spec(game)
    # 1100 timesteps run as 3 whole rollouts of 8 * 64: the progress counts to 1536
    opts = TrainOptions(game, timesteps=1100, num_envs=8, n_steps=64, batch_size=128,
                        n_epochs=1, net_arch=(16,), imitation_steps=512, snapshot_every=256,
                        eval_every=512, eval_games=4, final_eval_games=6, checkpoint_every=512,
                        out_dir=str(tmp_path), max_turns=60, progress=True, log_every=1e9)
    result = train(opts)
    run = tmp_path / result["run_dir"].split("/")[-1]
    assert run.name.startswith(f"{game}__ppo__0__")
    assert (run / "checkpoints" / "final.zip").is_file()
    assert (run / "checkpoints" / "step_512.zip").is_file()
    assert not [p for p in (run / "checkpoints").iterdir() if p.suffix != ".zip"]
    assert any((run / "tb").iterdir())
    rows = list(csv.DictReader(open(run / "evals.csv")))
    # the final eval takes the last timestep: no periodic eval beside it (the curve's jump)
    assert [int(r["timesteps"]) for r in rows] == [0, 512, 1024, 1536]
    assert [int(r["games"]) for r in rows] == [4, 4, 4, 6]
    assert 0 <= float(rows[-1]["win_vs_random"]) <= 1
    assert set(result["final_eval"]) == ({"random", "heuristic"} if spec.heuristic
                                         else {"random"})
    assert result["interrupted"] is False and result["timesteps"] == 1536
    agent = make_agent("ppo:" + result["checkpoint"], game)
    env = fatezoo.make(game)
    env.reset(seed=0)
    obs = env.observe(env.agent_selection)
    assert obs["action_mask"][agent.act(obs["observation"], obs["action_mask"])]
    # without a terminal: progress lines at each eval and at the end, never past 100%
    err = capsys.readouterr().err
    counts = [(int(a.replace(",", "")), int(b.replace(",", "")))
              for a, b in re.findall(r"train: ([\d,]+)/([\d,]+) timesteps", err)]
    assert len(counts) >= 4 and all(a <= b == 1536 for a, b in counts)
    assert counts[-1] == (1536, 1536) and "(100%)" in err and "done" in err
    assert "vs random" in err
    if spec.heuristic is not None:
        assert "imitate heuristic: 512/512 decisions (100%)" in err


def test_bench_training_shape():
    from fatezoo.training.bench_training import bench_training, format_training_bench

    result = bench_training(GAME, rollouts=1, num_envs=4, n_steps=32, batch_size=64,
                            n_epochs=1, env_seconds=0.2, options={"max_turns": 60})
    for side in ("core", "gym"):
        r = result["results"][side]
        assert r["timesteps"] == 128 and r["steps_per_s"] > 0 and r["env"]["steps"] > 0
    assert set(result["ratios"]) == {"learn", "rollout", "env"}
    targets = result["targets"]
    assert {k: targets[k]["target"] for k in ("env", "rollout")} == {"env": 4.0, "rollout": 2.0}
    for k in ("env", "rollout"):
        assert targets[k]["ratio"] == result["ratios"][k]
        assert targets[k]["status"] == ("PASS" if targets[k]["ratio"] >= targets[k]["target"]
                                        else "MISS")
    assert targets["status"] == ("PASS" if all(targets[k]["status"] == "PASS"
                                               for k in ("env", "rollout")) else "MISS")
    text = format_training_bench(result)
    assert "core / gym" in text and "env alone" in text and "(target >= 4x)" in text
    assert "(target >= 2x)" in text and "(target >= 5x)" not in text


def test_same_seed_same_games():
    runs = []
    for _ in range(2):
        env = SelfPlayVecEnv(GAME, num_envs=3, seed=7, reward="score")
        runs.append(run_env(env, 80, seed=1)[:2] + (env.states.tobytes(),))
    np.testing.assert_array_equal(runs[0][0], runs[1][0])
    np.testing.assert_array_equal(runs[0][1], runs[1][1])
    assert runs[0][2] == runs[1][2]


@pytest.mark.parametrize("game", game_names())
def test_train_command_smoke(game, tmp_path):
    """``fatezoo train`` as a user runs it (a subprocess), with a tiny budget."""
    import json
    import subprocess
    import sys

    cmd = [sys.executable, "-m", "fatezoo.training.cli", "train", game, "--timesteps", "256",
           "--envs", "4", "--n-steps", "32", "--batch-size", "64", "--n-epochs", "1",
           "--net-arch", "16", "--imitation-steps", "128", "--eval-every", "0",
           "--eval-games", "2", "--final-eval-games", "2", "--checkpoint-every", "0",
           "--out-dir", str(tmp_path), "--max-turns", "40", "--no-progress"]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    assert "checkpoint:" in out.stdout and "win rate vs random" in out.stdout
    (run,) = tmp_path.iterdir()
    result = json.loads((run / "result.json").read_text())
    assert result["timesteps"] >= 256 and (run / "checkpoints" / "final.zip").is_file()
    bad = subprocess.run(cmd[:5] + ["--envs", "0"], capture_output=True, text=True, timeout=600)
    assert bad.returncode == 2 and "num_envs must be an int >= 1, got 0" in bad.stderr


def test_presets_neutral_defaults_and_user_values_win(monkeypatch):
    import argparse
    import types

    from fatezoo.envs.fatefell.presets import TRAIN_PRESET
    from fatezoo.training import options as O

    neutral = O.TrainOptions.neutral_defaults()
    # Fatefell: its preset over the neutral defaults; a value given wins
    ff = O.TrainOptions(GAME)
    assert TRAIN_PRESET and O.train_preset(GAME) == TRAIN_PRESET
    for name, value in neutral.items():
        want = TRAIN_PRESET.get(name, value)
        if name == "game_options":  # the train split unless the options name one
            want = dict(want, split="train")
        assert getattr(ff, name) == want, name
    assert ff.num_envs == TRAIN_PRESET["num_envs"] != neutral["num_envs"]
    assert O.TrainOptions(GAME, num_envs=8, reward="win").num_envs == 8
    assert O.TrainOptions(GAME, reward="win").reward == "win"
    # a game without a preset trains with the neutral defaults; a spec's own preset is used
    fake = types.SimpleNamespace(heuristic=None, min_players=2, max_players=2)
    tuned = types.SimpleNamespace(heuristic=None, evaluation=types.SimpleNamespace(
        train_preset={"n_steps": 7}))
    specs = {"nopreset": fake, "tuned": tuned}
    monkeypatch.setattr(O, "game_names", lambda: (GAME, *specs))
    monkeypatch.setattr(O, "get_spec", lambda g: specs[g] if g in specs else get_spec(g))
    plain = O.TrainOptions("nopreset")
    assert {k: getattr(plain, k) for k in neutral} == neutral
    assert O.TrainOptions("tuned").n_steps == 7 and O.TrainOptions("tuned").num_envs == 64
    assert plain.warm_start_steps() == 0  # no heuristic, no warm start
    monkeypatch.setattr(tuned.evaluation, "train_preset", {"n_step": 7})
    with pytest.raises(ValueError, match="train_preset key 'n_step'"):
        O.TrainOptions("tuned")
    # flags: the preset fills what the user left out; a flag given wins
    parser = argparse.ArgumentParser()
    O.add_train_arguments(parser, GAME)
    O.add_game_options(parser, GAME)
    opts = O.options_from_args(parser.parse_args([GAME, "--n-steps", "16"]))
    assert opts.n_steps == 16 and opts.num_envs == TRAIN_PRESET["num_envs"]
    assert opts.reward == TRAIN_PRESET["reward"]
    assert O.options_from_args(parser.parse_args([GAME, "--reward", "win"])).reward == "win"


def test_warm_start_scales_with_the_budget():
    from fatezoo.training.options import TrainOptions

    assert TrainOptions(GAME).warm_start_steps() == 1_000_000  # preset cap, 12M budget
    assert TrainOptions(GAME, timesteps=20_000).warm_start_steps() == 5_000
    assert TrainOptions(GAME, timesteps=20_000, imitation_steps=300).warm_start_steps() == 300
    assert TrainOptions(GAME, imitation_steps=0).warm_start_steps() == 0
    opts = TrainOptions(GAME, timesteps=1000, num_envs=8, n_steps=64)
    assert opts.planned_timesteps() == 1024


def test_train_help_lists_every_flag_with_meaning_and_preset_default():
    import subprocess
    import sys

    from fatezoo.envs.fatefell.presets import TRAIN_PRESET
    from fatezoo.training.options import TrainOptions

    out = subprocess.run([sys.executable, "-m", "fatezoo.training.cli", "train", GAME,
                          "--help"], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    text = " ".join(out.stdout.split())
    assert "--envs N games played at once (fatefell preset: 256)" in text
    assert "--gamma X discount per learner decision (default: 0.99)" in text
    assert f"(fatefell preset: {TRAIN_PRESET['timesteps']:_})" in text
    for name, doc in TrainOptions.docs().items():
        if name not in ("progress", "reward", "max_turns", "game_options"):
            assert " ".join(doc.split()) in text, name


def test_training_modules_import_without_cycles():
    """No import cycle among training modules, function-level imports included."""
    import ast
    from pathlib import Path

    import fatezoo.training as pkg

    folder = Path(pkg.__file__).parent
    graph = {}
    for path in folder.glob("*.py"):
        deps = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                if node.level == 1:
                    deps |= {node.module} if node.module else {a.name for a in node.names}
                elif (node.module or "").startswith("fatezoo.training."):
                    deps.add(node.module.split(".")[2])
        graph[path.stem] = deps & {p.stem for p in folder.glob("*.py")}
    assert "options" in graph["cli"] and "cli" not in graph["train"]

    def visit(node, stack):
        assert node not in stack, " -> ".join(stack + [node])
        for dep in graph[node]:
            visit(dep, stack + [node])

    for module in graph:
        visit(module, [])


def test_checkpoints_are_written_atomically(tmp_path):
    from fatezoo.training.train_monitor import save_model

    class Model:
        def __init__(self, fail):
            self.fail = fail

        def save(self, f, exclude=()):
            f.write(b"PK" + b"x" * 1000)
            if self.fail:
                raise KeyboardInterrupt  # Ctrl-C halfway through the save

    path = tmp_path / "checkpoints" / "final.zip"
    with pytest.raises(KeyboardInterrupt):
        save_model(Model(fail=True), path)
    assert list(path.parent.iterdir()) == []  # no partial file, no temporary left
    save_model(Model(fail=False), path)
    assert path.read_bytes() == b"PK" + b"x" * 1000
    with pytest.raises(KeyboardInterrupt):
        save_model(Model(fail=True), path)
    assert path.read_bytes() == b"PK" + b"x" * 1000  # the old checkpoint is untouched
    assert [p.name for p in path.parent.iterdir()] == ["final.zip"]


TINY = ["--envs", "4", "--n-steps", "32", "--batch-size", "64", "--n-epochs", "1",
        "--net-arch", "16", "--eval-games", "2", "--checkpoint-every", "0", "--max-turns",
        "40"]


def test_train_command_final_eval_zero(tmp_path):
    import json
    import subprocess
    import sys

    cmd = [sys.executable, "-m", "fatezoo.training.cli", "train", GAME, "--timesteps", "128",
           "--imitation-steps", "0", "--eval-every", "0", "--final-eval-games", "0",
           "--out-dir", str(tmp_path), *TINY]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    assert "no final evaluation" in out.stdout and "win rate" not in out.stdout
    (run,) = tmp_path.iterdir()
    result = json.loads((run / "result.json").read_text())
    assert result["final_eval"] is None and result["final_eval_games"] == 0
    assert (run / "checkpoints" / "final.zip").is_file()
    rows = list(csv.DictReader(open(run / "evals.csv")))
    assert [int(r["timesteps"]) for r in rows] == [0]  # only the start's evaluation
    # without a terminal, progress lines are printed (no --verbose needed)
    assert "timesteps (100%)" in out.stderr


def test_ctrl_c_saves_a_final_checkpoint(tmp_path):
    import json
    import signal
    import subprocess
    import sys
    import time

    from fatezoo.agents import make_agent

    cmd = [sys.executable, "-m", "fatezoo.training.cli", "train", GAME, "--timesteps",
           "100000000", "--imitation-steps", "0", "--eval-every", "0", "--out-dir",
           str(tmp_path), "--no-progress", *TINY]
    # a suite started in the background by a shell (`cmd &`) ignores SIGINT, and a child
    # inherits that: give the child the default, as a terminal would
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        deadline = time.monotonic() + 300
        started = False
        while time.monotonic() < deadline and proc.poll() is None:
            runs = list(tmp_path.iterdir())
            evals = runs[0] / "evals.csv" if runs else None
            if evals and evals.is_file() and len(evals.read_text().splitlines()) >= 2:
                started = True  # the start's evaluation is written: learning has begun
                break
            time.sleep(0.2)
        assert started, proc.communicate()[1] if proc.poll() is not None else "no start"
        time.sleep(1.0)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=300)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("fatezoo train: interrupted at "), err
    (run,) = tmp_path.iterdir()
    final = run / "checkpoints" / "final.zip"
    assert str(final) in lines[0]
    result = json.loads((run / "result.json").read_text())
    assert result["interrupted"] is True and result["final_eval"] is None
    assert 0 < result["timesteps"] < 100000000
    agent = make_agent("ppo:" + str(final), GAME)
    assert agent.model.num_timesteps == result["timesteps"]


def test_selfplay_serial_and_parallel_kernels_agree(monkeypatch):
    """Small batches step on the serial twins, big ones on the thread pool: same games."""
    from fatezoo.envs.core import kernels as K

    def run(parallel_rows):
        monkeypatch.setattr(K, "PARALLEL_ROWS", parallel_rows)
        pool = OpponentPool(GAME, {"random": 0.5, "heuristic": 0.5}, num_players=3, seed=1)
        env = SelfPlayVecEnv(GAME, num_envs=16, num_players=3, seed=4, opponents=pool,
                             seasons=1)
        assert (env._step_some is K.batch_step_some) == (parallel_rows <= 16)
        rng = np.random.default_rng(0)
        out = [env.reset()]
        for _ in range(150):
            m = env.action_masks()
            obs, rewards, dones, _ = env.step((rng.random(m.shape) * m).argmax(1))
            out += [obs, rewards, dones]
        return out

    serial, parallel = run(10**9), run(1)
    assert all(np.array_equal(a, b) for a, b in zip(serial, parallel))


def test_progress_eta_starts_after_the_warm_up_and_respects_the_limit():
    import io

    from fatezoo.training.progress import Progress, ProgressReport

    def last_line(report):
        report.line()
        return report.stream.getvalue().splitlines()[-1]

    report = ProgressReport(100, "x", stream=io.StringIO(), eta_after=10)
    report.update(5)  # a batch's first games end with the rest: no ETA from them
    assert "eta" not in last_line(report)
    report.start -= 1000  # 1000 s of compiling and warm start before PPO
    report.restart()
    report.update(50)
    assert float(last_line(report).rsplit("eta ", 1)[1].rstrip("s")) < 30
    capped = ProgressReport(100, "x", stream=io.StringIO(), time_left=lambda: 3.0)
    capped.start -= 1000
    capped.update(1)  # 99,000 s at this rate, but the time limit ends the run in 3 s
    assert last_line(capped).endswith("eta 3s")
    spent = ProgressReport(100, "x", stream=io.StringIO(), time_left=lambda: -2.0)
    spent.start -= 1000
    spent.update(1)  # the batch in progress still ends: no "eta 0s" while it plays
    assert last_line(spent).endswith(", time limit spent: ending once the work in progress ends")
    drawn = io.StringIO()
    bar = Progress(100, "x", stream=drawn, enabled=True, time_left=lambda: -2.0)
    bar.update(1)
    assert "time limit spent" in drawn.getvalue() and "eta" not in drawn.getvalue()
    unlimited = ProgressReport(100, "x", stream=io.StringIO(), time_left=lambda: None)
    unlimited.start -= 1000  # a CpuBudget without a limit leaves None: no limit, an ETA
    unlimited.update(50)
    assert last_line(unlimited).endswith("eta 1000s") and not unlimited.bar.limit_spent()


def test_a_slow_rate_reads_per_minute_instead_of_zero_a_second():
    import io

    from fatezoo.training.progress import ProgressReport, rate_text

    assert [rate_text(r) for r in (1234.4, 12.4, 2.46, 0.5, 0.004)] == \
        ["1,234/s", "12/s", "2.5/s", "30/min", "0.24/min"]
    report = ProgressReport(1000, "fatefell arena", stream=io.StringIO(), unit="games")
    report.start -= 200  # 100 games in 200 s: the line said "0/s"
    report.update(100)
    report.line()
    assert "100/1,000 games (10%), 200s, 30/min, eta 1800s" in report.stream.getvalue()


def test_arena_eta_waits_for_the_first_batch(monkeypatch):
    from fatezoo.training import arena

    made = []
    real = arena.ProgressReport
    monkeypatch.setattr(arena, "ProgressReport",
                        lambda *a, **k: made.append(k) or real(*a, **k))
    arena.run_arena(GAME, ["random", "random"], games=6, batch=4, progress=False)
    assert made[0]["eta_after"] == 4


def test_time_limit_bounds_the_whole_run_warm_start_included(tmp_path):
    import time

    from fatezoo.training.train import TrainOptions, train

    # Fatefell's preset warm start imitates 1M decisions (minutes): the limit cuts it to a
    # quarter of the budget, and PPO stops early enough for the final evaluation
    limit = 24.0
    opts = TrainOptions(GAME, time_limit=limit, num_envs=64, n_steps=32, batch_size=1024,
                        n_epochs=1, eval_games=40, final_eval_games=80, out_dir=str(tmp_path),
                        progress=False)
    assert opts.warm_start_steps() == 1_000_000
    start = time.perf_counter()
    result = train(opts)
    elapsed = time.perf_counter() - start
    assert elapsed < limit + 8, elapsed
    assert result["stopped_by_time"] and result["imitation"]["stopped_by_time"]
    assert 0 < result["imitation"]["steps"] < 1_000_000
    assert result["imitation"]["seconds"] < 0.25 * limit + 6
    assert result["timesteps"] >= 64 * 32  # a short run still trains: one whole rollout
    assert result["final_eval"] is not None
