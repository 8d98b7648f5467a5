"""Benchmarks: steps/s of the batched core, the AEC loop, the gym wrapper and references.

Everything is measured on this machine in one run, so the printed ratios compare like
with like:

- ``core``: :meth:`VecEnv.step` at ``envs`` games with uniform random legal actions
  (``batch_random_actions``, chosen outside the timed region); validation, the numba
  step and the observation + mask encoding of every game are inside it. This is the
  default step, which returns copies of the env's buffers.
- ``core_view``: the same with ``step(actions, copy=False)`` (the env's own buffers
  returned as views, no copy).
- ``core_mixed``: the same step on a batch of mixed player counts, each game's count
  drawn uniformly from the game's counts (``num_players={2: 1, 3: 1, ...}``); skipped for
  a game of one count. Games of more seats are longer and encode more, so its ratio to
  ``core`` is what one batch across counts costs beside one at ``num_players``.
- ``kernel``: the raw numba ``batch_step`` on the same batch, without Python checks.
- ``aec``: the PettingZoo AEC loop of the same game; only ``env.last()`` and
  ``env.step(a)`` are timed (actions come from a precomputed random stream).
- ``connect_four``: PettingZoo's ``connect_four_v3`` timed the same way (needs
  ``pip install 'fatezoo[bench]'``).
- ``gym``: ``gymnasium.make(spec.gym_id, opponent="random")``: one learner ``step``
  (the opponent's moves included), actions chosen outside the timed region.
- ``memory_floor``: copying the same observation and mask bytes as one batched step
  (``np.copyto`` of (B, D) float32 and (B, A) int8), the most a step could hope for.
- ``openspiel``: OpenSpiel's Python loop on a card game (observation tensor, legal
  actions, apply), if ``pyspiel`` imports (``pip install 'fatezoo[bench]'``).

Targets (printed PASS, MISS or SKIP), all from the same run:

- the batched core reaches at least 0.25x the memory floor (a step may cost at most
  four copies of its own observation and mask bytes);
- the batched core reaches the game's own floor (``EvalSettings.bench_floor`` steps/s,
  0 = none; set for ``envs`` = 1024);
- the AEC loop costs at most a third of connect_four's per step.

``fatezoo bench`` (or ``bench all``) runs every registered game and prints one table;
``--json`` prints the reports; ``--strict`` exits 1 if any target is missed.
"""

from __future__ import annotations

import os
import platform
import time
from time import perf_counter

import numpy as np

import fatezoo
from fatezoo.envs.core import kernels as K
from fatezoo.envs.core.docs import install_hint
from fatezoo.envs.core.registry import get_spec
from fatezoo.envs.core.rng import rng_rows

from .progress import warm_kernels

TARGET_CORE_VS_MEMORY_FLOOR = 0.25
TARGET_AEC_VS_C4 = 1.0 / 3.0
TARGET_CORE_ENVS = 1024  # the batch size the games' bench_floor values are set for
C4_SKIP = f"skipped: {install_hint('bench')} (pettingzoo[classic])"
SPIEL_SKIP = f"skipped: {install_hint('bench')} (open_spiel)"


def bench_floor(game: str) -> float:
    """The game's own core steps/s floor (``EvalSettings.bench_floor``; 0 = none)."""
    return float(get_spec(game).evaluation.bench_floor)


def _result(steps: int, seconds: float, **extra) -> dict:
    sps = steps / seconds if seconds > 0 else 0.0
    return dict({"steps": int(steps), "seconds": float(seconds), "steps_per_s": sps,
                 "us_per_step": 1e6 / sps if sps else None}, **extra)


def bench_core(game: str, envs: int, seconds: float, num_players: int = 2, seed: int = 0,
               options: dict | None = None, copy: bool | None = None) -> dict:
    """Steps/s of ``VecEnv.step`` (auto-reset on) with random legal actions.

    Action selection happens outside the timed region; the step, its validation and the
    encoding of every next observation and mask are inside.

    Args:
        game: registered game name.
        envs: games in the batch.
        seconds: timed seconds to accumulate.
        num_players: seats.
        seed: seeds the games and the action stream.
        options: further env options.
        copy: None times the default ``step(actions)`` (copies); True/False pass ``copy=``
            (``copy=False``: the env's own buffers, no copy).
    """
    vec = fatezoo.make_vec(game, num_envs=envs, seed=seed, auto_reset=True,
                           num_players=num_players, **(options or {}))
    kw = {} if copy is None else {"copy": bool(copy)}
    _, mask, *_ = vec.reset()
    rng = rng_rows(seed + 1, envs)
    acts = np.empty(envs, np.int64)
    for _ in range(3):  # warm-up: compile and touch every buffer
        K.batch_random_actions(mask, rng, acts)
        _, mask, *_ = vec.step(acts, **kw)
    timed, calls = 0.0, 0
    deadline = perf_counter() + seconds
    while timed < seconds and perf_counter() < deadline + seconds:
        K.batch_random_actions(mask, rng, acts)
        t0 = perf_counter()
        _, mask, *_ = vec.step(acts, **kw)
        timed += perf_counter() - t0
        calls += 1
    return _result(calls * envs, timed, envs=envs, calls=calls,
                   copy="default" if copy is None else bool(copy))


def bench_core_mixed(game: str, envs: int, seconds: float, seed: int = 0,
                     options: dict | None = None) -> dict:
    """:func:`bench_core` on a batch whose player counts are drawn from all the game's."""
    spec = get_spec(game)
    counts = range(spec.min_players, spec.max_players + 1)
    if len(counts) < 2:
        return {"skipped": f"{game} has one player count"}
    res = bench_core(game, envs, seconds, {n: 1.0 for n in counts}, seed, options)
    return dict(res, num_players=f"{counts[0]}-{counts[-1]}, drawn uniformly")


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
    warm_kernels(game, num_players, options)  # compile before anything is timed
    results = {}
    steps = [
        ("core", lambda: bench_core(game, envs, seconds, num_players, seed, options)),
        ("core_view", lambda: bench_core(game, envs, seconds, num_players, seed, options,
                                         copy=False)),
        ("core_mixed", lambda: bench_core_mixed(game, envs, seconds, seed, options)),
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
        "core_view_vs_core": _ratio(sps["core_view"], sps["core"]),
        "core_mixed_vs_core": _ratio(sps["core_mixed"], sps["core"]),
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

    floor = bench_floor(game)
    floor_note = "" if envs == TARGET_CORE_ENVS else f"measured at {envs} envs, the floor " \
                                                     f"is set for {TARGET_CORE_ENVS}"
    targets = {
        "core_vs_memory_floor": check(ratios["core_vs_memory_floor"],
                                      TARGET_CORE_VS_MEMORY_FLOOR, True),
        "core_steps_per_s": (check(sps["core"], floor, True, floor_note) if floor > 0 else
                             {"value": sps["core"], "target": 0.0, "op": ">=",
                              "status": "SKIP", "note": "the game declares no bench_floor"}),
        "aec_us_vs_connect_four_us": check(ratios["aec_us_vs_connect_four_us"],
                                           TARGET_AEC_VS_C4, False,
                                           results["connect_four"].get("skipped", "")),
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
        "status": overall_status(targets),
    }


def overall_status(targets: dict) -> str:
    """MISS if any target is missed, else PASS if any passed, else SKIP."""
    statuses = [t["status"] for t in targets.values()]
    return "MISS" if "MISS" in statuses else "PASS" if "PASS" in statuses else "SKIP"


def _threading_layer():
    try:
        import numba

        return numba.threading_layer()
    except Exception:  # no parallel kernel has run yet
        return None


def _num(x, fmt, unit=""):
    return "-" if x is None else format(x, fmt) + unit


def format_bench(report: dict) -> str:
    """One game's benchmark report as a table, the ratios and PASS/MISS target lines."""
    r = report["results"]
    labels = {
        "core": f"batched core VecEnv.step ({report['envs']} envs)",
        "core_view": "  the same, step(copy=False): views",
        "core_mixed": "  the same, player counts mixed in the batch",
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
              f"  batched core / AEC loop             {_num(q['core_vs_aec'], ',.1f', 'x')}",
              f"  views (copy=False) / default step   {_num(q['core_view_vs_core'], '.2f', 'x')}",
              f"  mixed player counts / one count     {_num(q['core_mixed_vs_core'], '.2f', 'x')}",
              f"  raw kernel / AEC loop               {_num(q['kernel_vs_aec'], ',.1f', 'x')}",
              f"  raw kernel / batched core           {_num(q['kernel_vs_core'], '.2f', 'x')}",
              f"  AEC us/step / connect_four us/step  "
              f"{_num(q['aec_us_vs_connect_four_us'], '.3f')}",
              f"  batched core / memory floor         {_num(q['core_vs_memory_floor'], '.4f')}",
              f"  memory floor / AEC loop             {_num(q['memory_floor_vs_aec'], ',.1f', 'x')}"
              "  (a core that only copied its observation bytes)",
              f"  gym wrapper / AEC loop              {_num(q['gym_vs_aec'], '.3f')}",
              f"  AEC loop / OpenSpiel loop           {_num(q['aec_vs_openspiel'], '.3f')}",
              "", "targets:"]
    t = report["targets"]
    desc = {
        "core_vs_memory_floor": ("batched core / memory floor", ".3f", "x"),
        "core_steps_per_s": ("batched core steps/s (the game's bench_floor)", ",.0f", ""),
        "aec_us_vs_connect_four_us": ("AEC us/step / connect_four us/step", ".3f", ""),
    }
    for key, (text, fmt, unit) in desc.items():
        c = t[key]
        note = f"  ({c['note']})" if c["note"] else ""
        lines.append(f"  {c['status']:<4}  {text} = {_num(c['value'], fmt, unit)} "
                     f"(target {c['op']} {c['target']:{fmt}}{unit}){note}")
    return "\n".join(lines)


TABLE_COLUMNS = ("game", "core steps/s", "view steps/s", "core/memory floor",
                 "AEC us/step", "floor steps/s", "status")


def summary_row(report: dict) -> dict:
    """One game's line of the all-games table (JSON-able)."""
    r, q, t = report["results"], report["ratios"], report["targets"]
    return {"game": report["game"], "core_steps_per_s": r["core"].get("steps_per_s"),
            "core_view_steps_per_s": r["core_view"].get("steps_per_s"),
            "core_vs_memory_floor": q["core_vs_memory_floor"],
            "aec_us_per_step": r["aec"].get("us_per_step"),
            "bench_floor": t["core_steps_per_s"]["target"],
            "status": report["status"],
            "missed": [k for k, v in t.items() if v["status"] == "MISS"]}


def format_table(reports: list[dict]) -> str:
    """Every game's benchmark as one table (rows: games), then the missed targets."""
    rows = [summary_row(rep) for rep in reports]
    cells = [list(TABLE_COLUMNS)]
    for row in rows:
        floor = row["bench_floor"]
        cells.append([row["game"], _num(row["core_steps_per_s"], ",.0f"),
                      _num(row["core_view_steps_per_s"], ",.0f"),
                      _num(row["core_vs_memory_floor"], ".3f"),
                      _num(row["aec_us_per_step"], ".3g"),
                      f"{floor:,.0f}" if floor else "-", row["status"]])
    widths = [max(len(c[i]) for c in cells) for i in range(len(TABLE_COLUMNS))]
    first = reports[0] if reports else {"envs": 0, "seconds": 0.0, "num_players": 0}
    lines = [f"fatezoo bench: {len(reports)} game(s), {first['envs']} envs, "
             f"{first['num_players']} players, {first['seconds']:g}s per measurement; "
             f"targets: core >= {TARGET_CORE_VS_MEMORY_FLOOR}x the memory floor and >= "
             "the game's floor"]
    for c in cells:
        lines.append("  ".join([c[0].ljust(widths[0])] +
                               [v.rjust(w) for v, w in zip(c[1:], widths[1:])]))
    for row in rows:
        if row["missed"]:
            lines.append(f"{row['game']}: missed {', '.join(row['missed'])}")
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
