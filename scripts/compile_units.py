"""What a kernel boundary costs numba's compile: the same pile moves three ways.

    python scripts/compile_units.py [--repeats 3]

One kernel moves cards between two piles eight times (push, pop, insert, take, as
Fatefell's season does). It is written three ways and each is compiled from a fresh cache
in a process of its own, the three alternated ``--repeats`` times:

- ``local``: the moves written out in the kernel (no callee);
- ``kit``: the moves as calls to the kit's ``zone_push``, ``zone_pop``, ``zone_insert`` and
  ``zone_take`` (``envs/core/zones.py``), each its own compile unit, as the games call them;
- ``inlined``: the same four kernels with ``inline="always"`` (numba's IR inliner).

It prints the median first-call seconds of each. ``kit`` minus ``local`` is what moving
pile code into shared kernels costs each caller that first compiles them, which is the
compile time the kit's reuse buys its single definition with.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import textwrap

MOVES = """
    push(cards, counts, 0, 7)
    a = pop(cards, counts, 0)
    insert(cards, counts, 1, 0, a)
    push(cards, counts, 0, a + 1)
    b = take(cards, counts, 1, 0)
    insert(cards, counts, 0, 1, b)
    c = pop(cards, counts, 0)
    push(cards, counts, 1, c)
    return counts[0] * 10 + counts[1]
"""

LOCAL = """
@njit(cache=True)
def season(cards, counts):
    n = counts[0]; cards[0, n] = 7; counts[0] = n + 1
    n = counts[0] - 1; a = cards[0, n]; cards[0, n] = -1; counts[0] = n
    n = counts[1]
    for i in range(n, 0, -1):
        cards[1, i] = cards[1, i - 1]
    cards[1, 0] = a; counts[1] = n + 1
    n = counts[0]; cards[0, n] = a + 1; counts[0] = n + 1
    n = counts[1]; b = cards[1, 0]
    for j in range(0, n - 1):
        cards[1, j] = cards[1, j + 1]
    cards[1, n - 1] = -1; counts[1] = n - 1
    n = counts[0]
    for i in range(n, 1, -1):
        cards[0, i] = cards[0, i - 1]
    cards[0, 1] = b; counts[0] = n + 1
    n = counts[0] - 1; c = cards[0, n]; cards[0, n] = -1; counts[0] = n
    n = counts[1]; cards[1, n] = c; counts[1] = n + 1
    return counts[0] * 10 + counts[1]
"""

KIT = """
from fatezoo.envs.core.zones import zone_insert as insert, zone_pop as pop
from fatezoo.envs.core.zones import zone_push as push, zone_take as take

@njit(cache=True)
def season(cards, counts):
""" + MOVES

INLINED = """
from fatezoo.envs.core import zones

take = njit(inline="always")(zones.zone_take.py_func)
push = njit(inline="always")(zones.zone_push.py_func)
insert = njit(inline="always")(zones.zone_insert.py_func)

@njit(inline="always")
def pop(cards, counts, z):  # zone_pop's body, calling the inlined take
    return take(cards, counts, z, counts[z] - 1)

@njit(cache=True)
def season(cards, counts):
""" + MOVES

RUN = """
import time
import numpy as np
from fatezoo.envs.core.jit import njit
{body}
cards = np.full((2, 16), -1, np.int16); counts = np.array([3, 2], np.int16)
cards[0, :3] = [1, 2, 3]; cards[1, :2] = [4, 5]
t = time.perf_counter(); result = season(cards, counts); seconds = time.perf_counter() - t
print(seconds, result)
"""

WAYS = {"local": LOCAL, "kit": KIT, "inlined": INLINED}


def compile_seconds(way: str) -> tuple[float, int]:
    """First-call seconds and result of ``way``'s kernel, fresh cache, own process."""
    with tempfile.TemporaryDirectory() as cache, tempfile.TemporaryDirectory() as src:
        path = os.path.join(src, f"way_{way}.py")
        with open(path, "w") as f:
            f.write(RUN.format(body=textwrap.dedent(WAYS[way])))
        done = subprocess.run([sys.executable, path], capture_output=True, text=True,
                              env={**os.environ, "NUMBA_CACHE_DIR": cache}, check=True)
        seconds, result = done.stdout.split()
        return float(seconds), int(result)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    times: dict = {way: [] for way in WAYS}
    results = set()
    for _ in range(args.repeats):
        for way in WAYS:
            seconds, result = compile_seconds(way)
            times[way].append(seconds)
            results.add(result)
    if len(results) != 1:
        raise SystemExit(f"the three ways disagree: {sorted(results)}")
    local = statistics.median(times["local"])
    for way, runs in times.items():
        median = statistics.median(runs)
        print(f"{way:8s} {median:6.3f} s  (x{median / local:.2f} of local; runs "
              f"{', '.join(f'{t:.3f}' for t in runs)})")


if __name__ == "__main__":
    main()
