"""Benchmarks: steps/s of the batched core, the AEC loop, the gym wrapper and references.

Everything is measured on this machine in one run, so the printed ratios compare like
with like:

- ``core``: :meth:`VecEnv.step` at ``envs`` games with uniform random legal actions
  (``batch_random_actions``, chosen outside the timed region); validation, the numba
  step and the observation + mask encoding of every game are inside it.
- ``kernel``: the raw numba ``batch_step`` on the same batch, without Python checks.
- ``aec``: the PettingZoo AEC loop of the same game; only ``env.last()`` and
  ``env.step(a)`` are timed (actions come from a precomputed random stream).
- ``connect_four``: PettingZoo's ``connect_four_v3`` timed the same way (needs pygame).
- ``gym``: ``gymnasium.make(spec.gym_id, opponent="random")``: one learner ``step``
  (the opponent's moves included), actions chosen outside the timed region.
- ``memory_floor``: copying the same observation and mask bytes as one batched step
  (``np.copyto`` of (B, D) float32 and (B, A) int8), the most a step could hope for.
- ``openspiel``: OpenSpiel's Python loop on a card game (observation tensor, legal
  actions, apply), if ``pyspiel`` imports.

Targets (printed PASS or MISS): core / aec >= 100x; aec us per step <= 1/3 of
connect_four's; core >= 2,000,000 steps/s at 1024 envs. core / memory floor is reported
without a target.
"""

from __future__ import annotations

import os
import platform
import time
from time import perf_counter

import numpy as np

import fatezoo
from fatezoo.envs.core import kernels as K
from fatezoo.envs.core.registry import get_spec
from fatezoo.envs.core.rng import rng_rows

TARGET_CORE_VS_AEC = 100.0
TARGET_AEC_VS_C4 = 1.0 / 3.0
TARGET_CORE_STEPS = 2_000_000
TARGET_CORE_ENVS = 1024
C4_SKIP = "skipped: pip install pettingzoo[classic]"
SPIEL_SKIP = "skipped: pip install open_spiel"


def _result(steps: int, seconds: float, **extra) -> dict:
    sps = steps / seconds if seconds > 0 else 0.0
    return dict({"steps": int(steps), "seconds": float(seconds), "steps_per_s": sps,
                 "us_per_step": 1e6 / sps if sps else None}, **extra)


def bench_core(game: str, envs: int, seconds: float, num_players: int = 2, seed: int = 0,
               options: dict | None = None) -> dict:
    """Steps/s of ``VecEnv.step`` (auto-reset on) with random legal actions.

    Action selection happens outside the timed region; the step, its validation and the
    encoding of every next observation and mask are inside.
    """
    vec = fatezoo.make_vec(game, num_envs=envs, seed=seed, auto_reset=True,
                           num_players=num_players, **(options or {}))
    _, mask, _ = vec.reset()
    rng = rng_rows(seed + 1, envs)
    acts = np.empty(envs, np.int64)
    for _ in range(3):  # warm-up: compile and touch every buffer
        K.batch_random_actions(mask, rng, acts)
        _, mask, *_ = vec.step(acts)
    timed, calls = 0.0, 0
    deadline = perf_counter() + seconds
    while timed < seconds and perf_counter() < deadline + seconds:
        K.batch_random_actions(mask, rng, acts)
        t0 = perf_counter()
        _, mask, *_ = vec.step(acts)
        timed += perf_counter() - t0
        calls += 1
    return _result(calls * envs, timed, envs=envs, calls=calls)


def bench_kernel(game: str, envs: int, seconds: float, num_players: int = 2, seed: int = 0,
                 options: dict | None = None) -> dict:
    """Steps/s of the raw numba ``batch_step`` (no Python validation), auto-reset on."""
    vec = fatezoo.make_vec(game, num_envs=envs, seed=seed, auto_reset=True,
                           num_players=num_players, **(options or {}))
    vec.reset()
    states, masks, obs = vec.states, vec.mask, vec.obs  # the env's own buffers, unvalidated
    rewards, term, trunc = vec._rewards, vec._term, vec._trunc
    rng = rng_rows(seed + 1, envs)
    acts = np.empty(envs, np.int64)
    for _ in range(3):
        K.batch_random_actions(masks, rng, acts)
        K.batch_step(states, acts, masks, obs, rewards, term, trunc, True)
    timed, calls = 0.0, 0
    deadline = perf_counter() + seconds
    while timed < seconds and perf_counter() < deadline + seconds:
        K.batch_random_actions(masks, rng, acts)
        t0 = perf_counter()
        K.batch_step(states, acts, masks, obs, rewards, term, trunc, True)
        timed += perf_counter() - t0
        calls += 1
    return _result(calls * envs, timed, envs=envs, calls=calls)


def bench_aec_env(make_env, seconds: float, seed: int = 0) -> dict:
    """Steps/s of a PettingZoo AEC loop; only ``env.last()`` and ``env.step()`` are timed.

    Args:
        make_env: a no-argument callable returning an AEC env whose observations are
            dicts with an ``action_mask``.
        seconds: timed seconds to accumulate.
        seed: seeds the games and the precomputed random stream.

    Returns:
        steps (``env.step`` calls, including the ``None`` steps of finished agents),
        seconds, steps_per_s, us_per_step and games finished.
    """
    env = make_env()
    stream = np.random.default_rng(seed).random(1 << 16)
    game_seed = seed
    env.reset(seed=game_seed)
    # warm-up game (not timed)
    i = 0
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[int(stream[i & 0xFFFF] * len(legal))]))
        i += 1
    timed, steps, games = 0.0, 0, 0
    wall_end = perf_counter() + 3 * seconds + 1.0
    while timed < seconds and perf_counter() < wall_end:
        game_seed += 1
        env.reset(seed=game_seed)
        games += 1
        while env.agents and timed < seconds:
            t0 = perf_counter()
            obs, _, term, trunc, _ = env.last()
            t1 = perf_counter()
            if term or trunc:
                a = None
            else:
                legal = np.flatnonzero(obs["action_mask"])
                a = int(legal[int(stream[i & 0xFFFF] * len(legal))])
                i += 1
            t2 = perf_counter()
            env.step(a)
            t3 = perf_counter()
            timed += (t1 - t0) + (t3 - t2)
            steps += 1
    return _result(steps, timed, games=games)


def bench_aec(game: str, seconds: float, num_players: int = 2, seed: int = 0,
              options: dict | None = None) -> dict:
    """The AEC loop of ``game`` (see :func:`bench_aec_env`)."""
    return bench_aec_env(lambda: fatezoo.make(game, num_players=num_players,
                                              **(options or {})), seconds, seed)


def bench_connect_four(seconds: float, seed: int = 0) -> dict:
    """PettingZoo's connect_four_v3 AEC loop, or ``{"skipped": reason}``."""
    try:
        from pettingzoo.classic import connect_four_v3
    except Exception:  # ImportError, or pygame missing inside the module
        return {"skipped": C4_SKIP}
    return bench_aec_env(connect_four_v3.env, seconds, seed)


def bench_gym(game: str, seconds: float, num_players: int = 2, seed: int = 0,
              options: dict | None = None) -> dict:
    """Learner steps/s of the gymnasium wrapper against random opponents."""
    import gymnasium

    spec = get_spec(game)
    env = gymnasium.make(spec.gym_id, opponent="random", num_players=num_players,
                         **(options or {}))
    stream = np.random.default_rng(seed).random(1 << 16)
    obs, _ = env.reset(seed=seed)
    i = 0
    for _ in range(200):  # warm-up
        legal = np.flatnonzero(obs["action_mask"])
        obs, _, term, trunc, _ = env.step(int(legal[int(stream[i & 0xFFFF] * len(legal))]))
        i += 1
        if term or trunc:
            obs, _ = env.reset()
    timed, steps, games = 0.0, 0, 0
    wall_end = perf_counter() + 3 * seconds + 1.0
    while timed < seconds and perf_counter() < wall_end:
        legal = np.flatnonzero(obs["action_mask"])
        a = int(legal[int(stream[i & 0xFFFF] * len(legal))])
        i += 1
        t0 = perf_counter()
        obs, _, term, trunc, _ = env.step(a)
        timed += perf_counter() - t0
        steps += 1
        if term or trunc:
            games += 1
            obs, _ = env.reset()
    env.close()
    return _result(steps, timed, games=games)


def bench_memory_floor(game: str, envs: int, seconds: float) -> dict:
    """Steps/s of copying one batched step's observation and mask bytes (np.copyto)."""
    spec = get_spec(game)
    rng = np.random.default_rng(0)
    obs_src = rng.random((envs, spec.obs_size), dtype=np.float32)
    obs_dst = np.empty_like(obs_src)
    mask_src = (rng.random((envs, spec.num_actions)) < 0.3).astype(np.int8)
    mask_dst = np.empty_like(mask_src)
    for _ in range(3):
        np.copyto(obs_dst, obs_src)
        np.copyto(mask_dst, mask_src)
    timed, calls = 0.0, 0
    while timed < seconds:
        t0 = perf_counter()
        np.copyto(obs_dst, obs_src)
        np.copyto(mask_dst, mask_src)
        timed += perf_counter() - t0
        calls += 1
    return _result(calls * envs, timed, envs=envs, calls=calls,
                   bytes_per_step=int(obs_src.nbytes + mask_src.nbytes) // envs)


def bench_openspiel(seconds: float, game: str = "leduc_poker", seed: int = 0) -> dict:
    """OpenSpiel's Python loop on a card game, or ``{"skipped": reason}``.

    A step is one player decision: ``observation_tensor``, ``legal_actions`` and
    ``apply_action`` are timed; chance nodes are resolved inside the timed region too
    (they are part of the environment) but not counted as steps.
    """
    try:
        import pyspiel
    except ImportError:
        return {"skipped": SPIEL_SKIP}
    g = pyspiel.load_game(game)
    stream = np.random.default_rng(seed).random(1 << 16)
    i = 0

    def one_game(timed_budget):
        nonlocal i
        state = g.new_initial_state()
        t, steps = 0.0, 0
        while not state.is_terminal():
            t0 = perf_counter()
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                t1 = perf_counter()
                a = outcomes[int(stream[i & 0xFFFF] * len(outcomes))][0]
            else:
                state.observation_tensor(state.current_player())
                legal = state.legal_actions()
                t1 = perf_counter()
                a = legal[int(stream[i & 0xFFFF] * len(legal))]
                steps += 1
            i += 1
            t2 = perf_counter()
            state.apply_action(a)
            t += (t1 - t0) + (perf_counter() - t2)
            if t >= timed_budget:
                break
        return t, steps

    one_game(1e9)  # warm-up
    timed, steps, games = 0.0, 0, 0
    while timed < seconds:
        t, s = one_game(seconds - timed)
        timed += t
        steps += s
        games += 1
    return _result(steps, timed, games=games, game=game)


def _ratio(a, b):
    return a / b if a and b else None


def run_bench(game: str, envs: int = 1024, seconds: float = 3.0, num_players: int = 2,
              seed: int = 0, options: dict | None = None, openspiel_game: str = "leduc_poker",
              log=None) -> dict:
    """Run every measurement for ``game`` and compute the ratios and target checks.

    Args:
        game: registered game name.
        envs: batch size of the core measurements.
        seconds: timed seconds per measurement.
        num_players: seats.
        seed: seeds the games and action streams.
        options: further env options.
        openspiel_game: the OpenSpiel reference game.
        log: optional ``callback(str)`` told which measurement starts.

    Returns:
        A JSON-able dict: ``results`` (name -> steps, seconds, steps_per_s, us_per_step,
        or skipped), ``ratios`` and ``targets`` (name -> value, target, status PASS/MISS/
        SKIP), and the machine.
    """
    get_spec(game)
    say = log or (lambda s: None)
    results = {}
    steps = [
        ("core", lambda: bench_core(game, envs, seconds, num_players, seed, options)),
        ("kernel", lambda: bench_kernel(game, envs, seconds, num_players, seed, options)),
        ("aec", lambda: bench_aec(game, seconds, num_players, seed, options)),
        ("connect_four", lambda: bench_connect_four(seconds, seed)),
        ("gym", lambda: bench_gym(game, seconds, num_players, seed, options)),
        ("memory_floor", lambda: bench_memory_floor(game, envs, seconds)),
        ("openspiel", lambda: bench_openspiel(seconds, openspiel_game, seed)),
    ]
    for name, fn in steps:
        say(f"{game}: measuring {name}")
        results[name] = fn()
    sps = {k: v.get("steps_per_s") for k, v in results.items()}
    us = {k: v.get("us_per_step") for k, v in results.items()}
    ratios = {
        "core_vs_aec": _ratio(sps["core"], sps["aec"]),
        "kernel_vs_aec": _ratio(sps["kernel"], sps["aec"]),
        "aec_us_vs_connect_four_us": _ratio(us["aec"], us["connect_four"]),
        "core_vs_memory_floor": _ratio(sps["core"], sps["memory_floor"]),
        "kernel_vs_core": _ratio(sps["kernel"], sps["core"]),
        "aec_vs_openspiel": _ratio(sps["aec"], sps["openspiel"]),
        "gym_vs_aec": _ratio(sps["gym"], sps["aec"]),
        # what a core that only copied its observation and mask bytes would score
        "memory_floor_vs_aec": _ratio(sps["memory_floor"], sps["aec"]),
    }

    def check(value, target, higher_better, note=""):
        if value is None:
            status = "SKIP"
        else:
            ok = value >= target if higher_better else value <= target
            status = "PASS" if ok else "MISS"
        return {"value": value, "target": target, "op": ">=" if higher_better else "<=",
                "status": status, "note": note}

    core_note = "" if envs == TARGET_CORE_ENVS else f"measured at {envs} envs, target is " \
                                                    f"for {TARGET_CORE_ENVS}"
    targets = {
        "core_vs_aec": check(ratios["core_vs_aec"], TARGET_CORE_VS_AEC, True),
        "aec_us_vs_connect_four_us": check(ratios["aec_us_vs_connect_four_us"],
                                           TARGET_AEC_VS_C4, False,
                                           results["connect_four"].get("skipped", "")),
        "core_steps_per_s": check(sps["core"], TARGET_CORE_STEPS, True, core_note),
    }
    try:
        import numba
        threads = numba.get_num_threads()
    except Exception:  # pragma: no cover - numba is a dependency
        threads = None
    return {
        "game": game, "envs": int(envs), "seconds": float(seconds),
        "num_players": int(num_players), "seed": int(seed), "options": dict(options or {}),
        "machine": {"cpus": os.cpu_count(), "numba_threads": threads,
                    "numba_threading_layer": _threading_layer(),
                    "omp_wait_policy": os.environ.get("OMP_WAIT_POLICY"),
                    "python": platform.python_version(), "platform": platform.platform(),
                    "numpy": np.__version__},
        "results": results, "ratios": ratios, "targets": targets,
    }


def _threading_layer():
    try:
        import numba

        return numba.threading_layer()
    except Exception:  # no parallel kernel has run yet
        return None


def _num(x, fmt):
    return "-" if x is None else format(x, fmt)


def format_bench(report: dict) -> str:
    """One game's benchmark report as a table, the ratios and PASS/MISS target lines."""
    r = report["results"]
    labels = {
        "core": f"batched core VecEnv.step ({report['envs']} envs)",
        "kernel": f"raw numba batch_step ({report['envs']} envs)",
        "aec": "AEC loop (env.last + env.step)",
        "connect_four": "PettingZoo connect_four_v3 AEC loop",
        "gym": "gymnasium wrapper (vs random)",
        "memory_floor": f"memory floor: copy obs+mask ({report['envs']} envs)",
        "openspiel": f"OpenSpiel Python loop ({r['openspiel'].get('game', 'leduc_poker')})",
    }
    m = report["machine"]
    lines = [f"fatezoo bench {report['game']}: {report['num_players']} players, "
             f"{report['seconds']:g}s per measurement, {m['cpus']} cpus, "
             f"{m['numba_threads']} numba threads ({m['numba_threading_layer']}, "
             f"OMP_WAIT_POLICY={m['omp_wait_policy']})",
             f"{'measurement':<46} {'steps/s':>14} {'us/step':>10}"]
    for key, label in labels.items():
        v = r[key]
        if "skipped" in v:
            lines.append(f"{label:<46} {v['skipped']}")
        else:
            lines.append(f"{label:<46} {v['steps_per_s']:>14,.0f} {v['us_per_step']:>10.4g}")
    q = report["ratios"]
    lines += ["", "ratios (same run):",
              f"  batched core / AEC loop             {_num(q['core_vs_aec'], ',.1f')}x",
              f"  raw kernel / AEC loop               {_num(q['kernel_vs_aec'], ',.1f')}x",
              f"  raw kernel / batched core           {_num(q['kernel_vs_core'], '.2f')}x",
              f"  AEC us/step / connect_four us/step  "
              f"{_num(q['aec_us_vs_connect_four_us'], '.3f')}",
              f"  batched core / memory floor         {_num(q['core_vs_memory_floor'], '.4f')}",
              f"  memory floor / AEC loop             {_num(q['memory_floor_vs_aec'], ',.1f')}x"
              "  (a core that only copied its observation bytes)",
              f"  gym wrapper / AEC loop              {_num(q['gym_vs_aec'], '.3f')}",
              f"  AEC loop / OpenSpiel loop           {_num(q['aec_vs_openspiel'], '.3f')}",
              "", "targets:"]
    t = report["targets"]
    desc = {
        "core_vs_aec": ("batched core / AEC loop", ",.1f", "x"),
        "aec_us_vs_connect_four_us": ("AEC us/step / connect_four us/step", ".3f", ""),
        "core_steps_per_s": (f"batched core steps/s at {TARGET_CORE_ENVS} envs", ",.0f", ""),
    }
    for key, (text, fmt, unit) in desc.items():
        c = t[key]
        target = c["target"]
        tgt = f"{target:.3f}" if key == "aec_us_vs_connect_four_us" else f"{target:{fmt}}"
        note = f"  ({c['note']})" if c["note"] else ""
        lines.append(f"  {c['status']:<4}  {text} = {_num(c['value'], fmt)}{unit} "
                     f"(target {c['op']} {tgt}{unit}){note}")
    return "\n".join(lines)


def bench_games(games: list[str], **kwargs) -> list[dict]:
    """Run :func:`run_bench` for each game in ``games``; a list of reports."""
    out = []
    for g in games:
        start = time.perf_counter()
        rep = run_bench(g, **kwargs)
        rep["wall_seconds"] = time.perf_counter() - start
        out.append(rep)
    return out
