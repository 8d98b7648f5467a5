"""Counter-free xorshift128 generator whose whole state is four int64 words in a record.

Every value stays below 2**43, so the arithmetic is exact and identical in numba and in
plain Python (``NUMBA_DISABLE_JIT=1``): no overflow, no warnings, no platform dependence.
Seeds come from :class:`numpy.random.SeedSequence` so that game ``j`` of a batch depends
only on ``(seed, j)``.
"""

from __future__ import annotations

import numpy as np

from .jit import njit

M32 = 0xFFFFFFFF


@njit(cache=True)
def next_u32(rng):
    """Advance the generator (mutates ``rng``) and return 32 random bits as an int."""
    x = rng[0]
    t = x ^ ((x << 11) & M32)
    rng[0] = rng[1]
    rng[1] = rng[2]
    rng[2] = rng[3]
    w = rng[3]
    rng[3] = (w ^ (w >> 19)) ^ (t ^ (t >> 8))
    return rng[3]


@njit(cache=True)
def randint(rng, n):
    """Return a uniform integer in ``[0, n)`` (mutates ``rng``); ``n`` <= 2**10."""
    return (next_u32(rng) * n) >> 32


@njit(cache=True)
def shuffle(arr, n, rng):
    """Fisher-Yates shuffle of ``arr[:n]`` in place (mutates ``arr`` and ``rng``)."""
    for i in range(n - 1, 0, -1):
        j = randint(rng, i + 1)
        tmp = arr[i]
        arr[i] = arr[j]
        arr[j] = tmp


@njit(cache=True)
def pick_flagged(flags, rng):
    """A uniform index among the set ``flags`` (-1 if none), with at most one draw of ``rng``.

    The draw is of an index among the flagged items, so a restricted choice never
    redraws; with one flagged item (or none) nothing is drawn.
    """
    count = 0
    for i in range(flags.size):
        count += flags[i]
    if count == 0:
        return -1
    left = randint(rng, count) if count > 1 else 0
    for i in range(flags.size):
        if flags[i]:
            if left == 0:
                return i
            left -= 1
    return -1


def seed_words(seed, index: int = 0) -> np.ndarray:
    """Return the four generator words for game ``index`` of a batch seeded by ``seed``.

    Args:
        seed: a non-negative int, or None for fresh OS entropy.
        index: the game's position in its batch; game ``index`` depends only on
            ``(seed, index)``.
    """
    if seed is not None:
        check_seed(seed)
    seq = np.random.SeedSequence(seed, spawn_key=(int(index),))
    words = seq.generate_state(4, np.uint32).astype(np.int64)
    if not words.any():  # xorshift's one fixed point
        words[0] = 1
    return words


def rng_rows(seed, batch: int, start: int = 0) -> np.ndarray:
    """(batch, 4) generator words for games ``start .. start+batch-1`` of ``seed``."""
    return np.stack([seed_words(seed, start + j) for j in range(batch)])


def check_seed(seed) -> int:
    """Return ``seed`` as an int, or raise naming the value and what was expected."""
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)):
        raise TypeError(f"seed must be a non-negative int or None, got {seed!r}")
    if seed < 0:
        raise ValueError(f"seed must be a non-negative int or None, got {seed!r}")
    return int(seed)
