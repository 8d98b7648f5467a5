"""Training throughput: MaskablePPO on the batched self-play env vs the gymnasium wrapper.

Both sides run in the same process, one after the other, with the same hyperparameters
(the game's :class:`~fatezoo.training.options.TrainOptions`: its preset, unless overridden),
the same number of envs, the same opponents and the same torch threads:

- ``core``: :class:`~fatezoo.training.selfplay.SelfPlayVecEnv` (opponents batched inside,
  masks handed to MaskablePPO as one array).
- ``gym``: a ``DummyVecEnv`` of ``gymnasium.make(spec.gym_id, opponent=...)``, each
  wrapped in the observation-vector wrapper and SB3's ``Monitor`` (what a user would
  write; masks through ``env_method("action_masks")``).

What is fair: self-play snapshots exist only on the core side, so both sides play the
fixed opponents of the training mix (``random``/``heuristic`` by their weights, one
kind per gym env). What dominates: the PPO update (``model.train``) costs the same on
both sides, so the ratio of whole ``learn`` throughputs is bounded by it (Amdahl); three
numbers are reported per side:

- ``learn``: timesteps / wall time of ``model.learn`` (rollouts + updates), reported.
- ``rollout``: timesteps / time outside ``model.train`` (env steps, masks, the policy's
  forward pass, the rollout buffer).
- ``env``: the VecEnv alone stepped with random legal actions (no network at all).

Targets (each printed PASS or MISS): core / gym ``env`` >= 4x and ``rollout`` >= 2x. These
are what was measured as reachable on 2 cores (env alone 4.0x, rollouts 2.5x); the whole
``learn`` ratio is capped near the rollout ratio by the PPO update, which costs the same on
both sides (63% of the core side's time there), so it has no target.
"""

from __future__ import annotations

import dataclasses
import os
import time

import numpy as np

from fatezoo.envs.core.registry import get_spec

TARGETS = {"env": 4.0, "rollout": 2.0}  # core / gym ratio each must reach


def _opts(game: str, num_envs, num_players: int, seed: int, options: dict | None,
          overrides: dict, vec: str):
    from .options import TrainOptions

    opts = TrainOptions(game=game, num_players=num_players, seed=seed, vec=vec,
                        w_self=0.0, imitation_steps=0, progress=False, **overrides)
    if num_envs is not None:
        opts.num_envs = int(num_envs)
    options = dict(options or {})
    opts.reward = options.pop("reward", opts.reward)
    opts.max_turns = options.pop("max_turns", opts.max_turns)
    opts.game_options = options
    opts.check()
    return opts


WARMUP_SECONDS = 2.0  # untimed stepping before each measurement


def bench_env_only(env, seconds: float, seed: int = 0) -> dict:
    """Steps/s of an SB3 VecEnv stepped with random legal actions; no network.

    Masks come through sb3-contrib's ``get_action_masks``, as MaskablePPO gets them. The
    env first runs untimed for ``WARMUP_SECONDS`` (games end and are dealt again inside
    it), so code that numba compiles on first use - after an edit, the whole cache - is
    not timed.
    """
    from sb3_contrib.common.maskable.utils import get_action_masks

    rng = np.random.default_rng(seed)
    env.reset()
    warm_until = time.perf_counter() + WARMUP_SECONDS
    for i in range(10**9):
        masks = get_action_masks(env)
        env.step((rng.random(masks.shape) * masks).argmax(1))
        if i >= 3 and time.perf_counter() > warm_until:
            break
    calls, timed = 0, 0.0
    while timed < seconds:
        t0 = time.perf_counter()
        masks = get_action_masks(env)
        acts = (rng.random(masks.shape) * masks).argmax(1)
        env.step(acts)
        timed += time.perf_counter() - t0
        calls += 1
    steps = calls * env.num_envs
    return {"steps": steps, "seconds": timed, "steps_per_s": steps / timed}


def bench_learn(opts, rollouts: int, env_seconds: float) -> dict:
    """Time ``model.learn`` for ``rollouts`` whole rollouts on the VecEnv of ``opts.vec``.

    Returns:
        ``timesteps``, ``seconds`` and ``steps_per_s`` of ``learn``; ``train_seconds``
        (inside ``model.train``), ``rollout_seconds`` and ``rollout_steps_per_s``;
        ``env`` (:func:`bench_env_only`); ``num_envs``.
    """
    import torch
    from stable_baselines3.common.logger import Logger

    from .train_envs import make_env, make_model

    torch.set_num_threads(opts.torch_threads)
    env, _ = make_env(opts)
    try:
        env_only = bench_env_only(env, env_seconds, opts.seed) if env_seconds > 0 else None
        model = make_model(opts, env)
        model.set_logger(Logger(None, []))  # SB3 default: an empty /tmp/SB3-* dir
        train_time = [0.0]
        train = model.train

        def timed_train():
            t0 = time.perf_counter()
            train()
            train_time[0] += time.perf_counter() - t0

        model.learn(opts.n_steps * opts.num_envs)  # untimed: one rollout and update
        model.train = timed_train
        timesteps = rollouts * opts.n_steps * opts.num_envs
        done_before = model.num_timesteps
        t0 = time.perf_counter()
        model.learn(timesteps, reset_num_timesteps=False)
        seconds = time.perf_counter() - t0
    finally:
        env.close()
    rollout = seconds - train_time[0]
    steps = model.num_timesteps - done_before
    return {"num_envs": opts.num_envs, "timesteps": int(steps),
            "seconds": seconds, "steps_per_s": steps / seconds,
            "train_seconds": train_time[0], "rollout_seconds": rollout,
            "rollout_steps_per_s": steps / rollout if rollout > 0 else None,
            "env": env_only}


def bench_training(game: str = "fatefell", rollouts: int = 3, num_envs: int | None = None,
                   num_players: int = 2, seed: int = 0, options: dict | None = None,
                   env_seconds: float = 3.0, gym_vec: str = "gym", log=None,
                   **overrides) -> dict:
    """MaskablePPO throughput on the core self-play env and on the gym wrapper.

    Args:
        game: registered game name.
        rollouts: whole PPO rollouts (``n_steps * num_envs`` timesteps each, then one
            update) timed per side.
        num_envs: envs on both sides (None: the training default).
        num_players: seats per game.
        seed: seeds both sides alike.
        options: env options (``reward``, ``max_turns``, the game's own); the training
            reward (``score``) by default.
        env_seconds: timed seconds of the env-only measurement per side (0: skip).
        gym_vec: ``"gym"`` (DummyVecEnv, the default) or ``"gym-subproc"``.
        log: optional ``callback(str)`` told which measurement starts.
        **overrides: further :class:`TrainOptions` fields (``n_epochs``, ``net_arch``,
            ``torch_threads``...), applied to both sides.

    Returns:
        A JSON-able dict: ``results`` (``core``/``gym`` -> :func:`bench_learn`), ``ratios``
        (``learn``, ``rollout``, ``env``: core / gym), ``targets`` (``env`` and ``rollout``:
        ratio, target and PASS/MISS; ``status``: PASS when both pass), ``hyperparameters``
        and ``machine``.
    """
    get_spec(game)
    if isinstance(rollouts, bool) or not isinstance(rollouts, int) or rollouts < 1:
        raise ValueError(f"rollouts must be a positive int, got {rollouts!r}")
    if gym_vec not in ("gym", "gym-subproc"):
        raise ValueError(f"gym_vec must be 'gym' or 'gym-subproc', got {gym_vec!r}")
    say = log or (lambda s: None)
    results = {}
    opts = None
    for side, vec in (("core", "core"), ("gym", gym_vec)):
        opts = _opts(game, num_envs, num_players, seed, options, overrides, vec)
        say(f"{game}: MaskablePPO on {side} ({opts.num_envs} envs, {rollouts} rollouts)")
        results[side] = bench_learn(opts, rollouts, env_seconds)

    def ratio(key, sub=None):
        a = results["core"][key] if sub is None else (results["core"][key] or {}).get(sub)
        b = results["gym"][key] if sub is None else (results["gym"][key] or {}).get(sub)
        return a / b if a and b else None

    ratios = {"learn": ratio("steps_per_s"), "rollout": ratio("rollout_steps_per_s"),
              "env": ratio("env", "steps_per_s")}
    targets = {k: {"ratio": ratios[k], "target": t,
                   "status": "PASS" if ratios[k] is not None and ratios[k] >= t else "MISS"}
               for k, t in TARGETS.items()}
    status = "PASS" if all(t["status"] == "PASS" for t in targets.values()) else "MISS"
    try:
        import numba
        import torch

        threads = {"numba": numba.get_num_threads(), "torch": torch.get_num_threads()}
    except Exception:  # pragma: no cover
        threads = {}
    hp = {k: v for k, v in dataclasses.asdict(opts).items()
          if k in ("num_envs", "n_steps", "batch_size", "n_epochs", "net_arch",
                   "shared_layers", "learning_rate", "w_random", "w_heuristic", "reward",
                   "torch_threads")}
    return {"game": game, "num_players": int(num_players), "rollouts": int(rollouts),
            "seed": int(seed), "options": dict(options or {}), "gym_vec": gym_vec,
            "hyperparameters": hp, "results": results, "ratios": ratios,
            "targets": dict(targets, status=status),
            "machine": {"cpus": os.cpu_count(), "threads": threads,
                        "omp_wait_policy": os.environ.get("OMP_WAIT_POLICY")}}


def _num(x, fmt):
    return "-" if x is None else format(x, fmt)


def format_training_bench(result: dict) -> str:
    """A :func:`bench_training` result as a table, the ratios and the target line."""
    hp = result["hyperparameters"]
    lines = [f"fatezoo training bench {result['game']}: {result['num_players']} players, "
             f"{hp['num_envs']} envs, n_steps {hp['n_steps']}, batch {hp['batch_size']}, "
             f"{hp['n_epochs']} epochs, net {list(hp['net_arch'])}, "
             f"{result['rollouts']} rollouts per side, {result['machine']['cpus']} cpus, "
             f"threads {result['machine']['threads']}",
             f"{'side':<6} {'learn steps/s':>14} {'rollout steps/s':>16} {'env steps/s':>12} "
             f"{'learn s':>8} {'update s':>9}"]
    for side in ("core", "gym"):
        r = result["results"][side]
        env = (r["env"] or {}).get("steps_per_s")
        lines.append(f"{side:<6} {r['steps_per_s']:>14,.0f} "
                     f"{_num(r['rollout_steps_per_s'], ',.0f'):>16} {_num(env, ',.0f'):>12} "
                     f"{r['seconds']:>8.1f} {r['train_seconds']:>9.1f}")
    q = result["ratios"]
    core = result["results"]["core"]
    share = core["train_seconds"] / core["seconds"] if core["seconds"] else 0.0
    lines += ["", "core / gym (same run):",
              f"  learn (rollouts + PPO updates)   {_num(q['learn'], '.2f')}x",
              f"  rollouts (env + policy forward)  {_num(q['rollout'], '.2f')}x",
              f"  env alone (random legal actions) {_num(q['env'], '.2f')}x",
              f"  (the PPO update, the same on both sides, is {100 * share:.0f}% of the "
              "core side's learn time)",
              "", "targets:"]
    what = {"env": "env alone", "rollout": "rollouts"}
    for key in TARGETS:
        t = result["targets"][key]
        lines.append(f"  {t['status']:<4}  core / gym {what[key]} = {_num(t['ratio'], '.2f')}x "
                     f"(target >= {t['target']:g}x)")
    return "\n".join(lines)


if __name__ == "__main__":  # pragma: no cover - a manual entry point until the CLI has one
    import sys

    print(format_training_bench(bench_training(
        sys.argv[1] if len(sys.argv) > 1 else "fatefell",
        log=lambda s: print(s, file=sys.stderr, flush=True))))
