"""First use of a game: every entry point run once, compiled ahead, and timed from cold.

A game's kernels are compiled per entry point: the AEC env (which the gym wrapper
shares), the vector env, the heuristic and ISMCTS each link the game into a top-level
kernel of their own. :data:`ENTRIES` runs each once on a small fixed workload and
returns a digest of what it computed, so that

- ``fatezoo compile [GAME|all]`` compiles every entry point ahead of use, one task per
  game and entry point, on every core, with a progress bar (numba's cache is shared by
  the tasks; see ``envs/core/numba_fixes.py`` for why that is safe);
- ``fatezoo bench --compile [GAME|all]`` times them from a fresh private cache in a
  fresh process per game (cold), then in a second process that loads that cache (warm),
  with the peak memory of the cold process;
- the tests compare the digests of a process that uses several games against those of
  processes that each use one game.

Run as a module (``python -m fatezoo.training.firstuse GAME ENTRY...``) it runs the named
entries of one game in this process and prints one JSON line: seconds since start per
entry (cumulative), the digests and the peak RSS.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

ENTRY_NAMES = ("aec", "vector", "gym", "heuristic", "ismcts")
STEPS = 40  # decisions per workload: enough to reach most kernels, cheap once compiled


def _digest(*arrays) -> str:
    h = hashlib.sha1()
    for a in arrays:
        h.update(np.ascontiguousarray(a).tobytes())
    return h.hexdigest()[:16]


def _pick(mask_row, rng) -> int:
    legal = np.flatnonzero(mask_row)
    return int(legal[rng.integers(len(legal))])


def run_aec(game: str) -> str:
    """Seeded random play on the AEC env; digest of every observation and reward."""
    import fatezoo

    env = fatezoo.make(game)
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    seen = []
    for _ in range(STEPS):
        obs, reward, term, trunc, _ = env.last()
        seen += [obs["observation"], np.float32(reward)]
        env.step(None if term or trunc else _pick(obs["action_mask"], rng))
        if not env.agents:
            env.reset(seed=1)
    return _digest(*seen)


def _vec_play(game: str, act, rows: int = 4) -> str:
    import fatezoo

    vec = fatezoo.make_vec(game, num_envs=rows, seed=0)
    obs, mask, player = vec.reset()
    seen = [obs, mask]
    for _ in range(STEPS):
        obs, mask, player, rewards, term, trunc = vec.step(act(vec, obs, mask))
        seen += [obs, mask, rewards]
    return _digest(*seen)


def run_vector(game: str) -> str:
    """Seeded random play on a 4-row vector env."""
    rng = np.random.default_rng(0)
    return _vec_play(game, lambda vec, obs, mask: np.array([_pick(m, rng) for m in mask]))


def run_gym(game: str) -> str:
    """The gymnasium wrapper against the random agent."""
    import gymnasium

    from fatezoo.envs.core.registry import get_spec

    env = gymnasium.make(get_spec(game).gym_id, opponent="random")
    obs, _ = env.reset(seed=0)
    rng = np.random.default_rng(0)
    seen = [obs["observation"]]
    for _ in range(STEPS):
        obs, reward, term, trunc, _ = env.step(_pick(obs["action_mask"], rng))
        seen += [obs["observation"], np.float32(reward)]
        if term or trunc:
            obs, _ = env.reset(seed=1)
    return _digest(*seen)


def run_heuristic(game: str) -> str:
    """The heuristic playing every seat of a 4-row vector env, then one batch of rows.

    A few rows run the heuristic's serial kernel, a batch of ``SERIAL_BELOW`` rows or more
    (an arena's) its threaded one: both are compiled here.
    """
    from fatezoo.agents import make_agent
    from fatezoo.envs.core.kernels import SERIAL_BELOW

    agent = make_agent("heuristic", game, seed=0)
    last = []

    def act(vec, obs, mask):
        last[:] = [obs.copy(), mask.copy()]
        return agent.act_batch(obs, mask)

    played = _vec_play(game, act)
    copies = -(-SERIAL_BELOW // len(last[0]))
    batch = agent.act_batch(*(np.repeat(a, copies, axis=0) for a in last))
    return played + _digest(batch)


def run_ismcts(game: str) -> str:
    """ISMCTS (16 simulations) choosing a few moves of a 2-row vector env."""
    from fatezoo.agents import make_agent

    agent = make_agent("ismcts:sims=16", game, seed=0)
    import fatezoo

    vec = fatezoo.make_vec(game, num_envs=2, seed=0)
    obs, mask, _ = vec.reset()
    chosen = []
    for _ in range(3):
        actions = agent.act_records(vec.states.copy(), mask)
        chosen.append(actions)
        obs, mask, *_ = vec.step(actions)
    return _digest(*chosen, obs)


ENTRIES = {"aec": run_aec, "vector": run_vector, "gym": run_gym, "heuristic": run_heuristic,
           "ismcts": run_ismcts}


def peak_rss_gb() -> float:
    """This process's peak resident memory in GB (Linux: ru_maxrss is in KiB)."""
    import resource

    kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return kib * (1 if sys.platform != "darwin" else 1 / 1024) / 1024**2


def run_entries(game: str, entries, start: float | None = None) -> dict:
    """Run ``entries`` of ``game`` here: cumulative seconds, digests, peak RSS."""
    start = time.perf_counter() if start is None else start
    seconds, digests = {}, {}
    for name in entries:
        digests[name] = ENTRIES[name](game)
        seconds[name] = time.perf_counter() - start
    return {"game": game, "seconds": seconds, "digests": digests, "peak_rss_gb": peak_rss_gb()}


def child(game: str, entries, cache_dir: str | None = None, timeout: float = 3600) -> dict:
    """Run :func:`run_entries` in a fresh Python process (``cache_dir``: its numba cache)."""
    env = dict(os.environ)
    if cache_dir is not None:
        env["NUMBA_CACHE_DIR"] = cache_dir
    env["FATEZOO_QUIET_COMPILE"] = "1"
    out = subprocess.run([sys.executable, "-m", "fatezoo.training.firstuse", game, *entries],
                         env=env, capture_output=True, text=True, timeout=timeout)
    if out.returncode != 0:
        tail = (out.stderr or out.stdout).strip().splitlines()[-1:] or ["(no output)"]
        raise RuntimeError(f"{game}: first-use process exited {out.returncode}: {tail[0]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def bench_compile(game: str, log=None) -> dict:
    """Cold and warm first use of every entry point of ``game`` (fresh private cache).

    Returns per entry the cold seconds to its first use counted from process start
    (import included, cumulative in the order of :data:`BENCH_ORDER`), the cold sum, the
    cold process's peak RSS and the warm seconds of a second process on that cache.
    """
    with tempfile.TemporaryDirectory(prefix="fatezoo-cold-") as cache:
        cold = child(game, BENCH_ORDER, cache)
        if log:
            log(f"{game}: cold {cold['seconds'][BENCH_ORDER[-1]]:.1f} s")
        warm = child(game, BENCH_ORDER, cache)
    times = cold["seconds"]
    steps = {e: times[e] - (times[BENCH_ORDER[i - 1]] if i else 0.0)
             for i, e in enumerate(BENCH_ORDER)}
    return {"game": game, "cold_to": times, "cold_each": steps,
            "cold_total": times[BENCH_ORDER[-1]], "peak_rss_gb": cold["peak_rss_gb"],
            "warm_total": warm["seconds"][BENCH_ORDER[-1]],
            "same_digests": cold["digests"] == warm["digests"]}


BENCH_ORDER = ("aec", "vector", "heuristic", "ismcts")
TARGETS = {"aec": 30.0, "total": 60.0, "warm": 2.0, "rss": 1.0}


def format_compile_bench(reports: list[dict]) -> str:
    """The table of ``fatezoo bench --compile``."""
    head = (f"{'game':15} {'AEC':>6} {'+vector':>8} {'+heur.':>7} {'+ISMCTS':>8} {'sum':>6} "
            f"{'RSS GB':>7} {'warm':>6}")
    lines = ["cold first use from a fresh cache, seconds (import included in AEC); "
             f"targets: AEC <= {TARGETS['aec']:.0f}, sum <= {TARGETS['total']:.0f}, "
             f"warm <= {TARGETS['warm']:.0f}, RSS <= {TARGETS['rss']:.0f} GB", head]
    for r in reports:
        e = r["cold_each"]
        lines.append(f"{r['game']:15} {e['aec']:6.1f} {e['vector']:8.1f} {e['heuristic']:7.1f} "
                     f"{e['ismcts']:8.1f} {r['cold_total']:6.1f} {r['peak_rss_gb']:7.2f} "
                     f"{r['warm_total']:6.2f}")
    return "\n".join(lines)


def misses(report: dict) -> list[str]:
    """The first-use targets ``report`` misses."""
    out = []
    if report["cold_each"]["aec"] > TARGETS["aec"]:
        out.append(f"AEC {report['cold_each']['aec']:.0f} s > {TARGETS['aec']:.0f}")
    if report["cold_total"] > TARGETS["total"]:
        out.append(f"sum {report['cold_total']:.0f} s > {TARGETS['total']:.0f}")
    if report["warm_total"] > TARGETS["warm"]:
        out.append(f"warm {report['warm_total']:.1f} s > {TARGETS['warm']:.0f}")
    if report["peak_rss_gb"] > TARGETS["rss"]:
        out.append(f"RSS {report['peak_rss_gb']:.2f} GB > {TARGETS['rss']:.0f}")
    return out


def compile_games(games, jobs: int | None = None, progress=None) -> list[dict]:
    """Compile every entry point of ``games`` into numba's cache, ``jobs`` tasks at once.

    One task per game and entry point, each in its own process; ``progress(done, total,
    label)`` is called as tasks finish. Returns each task's report.
    """
    from concurrent.futures import ThreadPoolExecutor, as_completed

    tasks = [(g, e) for g in games for e in ENTRY_NAMES]
    jobs = max(1, min(jobs or os.cpu_count() or 1, len(tasks)))
    done, reports = 0, []
    with ThreadPoolExecutor(jobs) as pool:
        futures = {pool.submit(child, g, [e]): (g, e) for g, e in tasks}
        for fut in as_completed(futures):
            reports.append(fut.result())
            done += 1
            if progress:
                g, e = futures[fut]
                progress(done, len(tasks), f"{g} {e}")
    return reports


def main(argv=None) -> int:
    """``python -m fatezoo.training.firstuse GAME ENTRY...``: one JSON line on stdout."""
    start = time.perf_counter()
    argv = sys.argv[1:] if argv is None else argv
    game, entries = argv[0], argv[1:] or list(ENTRY_NAMES)
    import fatezoo  # noqa: F401  (import counted in the first entry's time)

    print(json.dumps(run_entries(game, entries, start)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
