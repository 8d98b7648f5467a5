"""Worlds consistent with what one seat has seen: batched belief sampling.

``VecEnv.sample_worlds(viewers, rng)`` and the AEC env's ``sample_world(agent, seed)``
return full game records in which everything the viewer cannot see (other seats' hands,
the order of face-down stacks, the RNG that decides what comes next) is redrawn by the
game's ``determinize`` kernel: the kernel ISMCTS searches with. Everything the viewer can
see is kept, so the viewer's observation, legal mask and text view are byte-identical on
every sample (the contract's ``check_sample_worlds``), and a sample is a whole legal game:
load it into an env (``load_states`` / ``load_state``) and play it on.

Samples draw from generator words, one set of four per sampled record: from an int seed,
record ``j`` depends only on ``(seed, j)`` and its game (as the vector env's seeds do), so
the AEC env's ``sample_world(agent, seed=s)`` is record 0 of ``sample_worlds`` with
``rng=s``; from a ``numpy.random.Generator``, the records draw from it in order.
"""

from __future__ import annotations

import numpy as np

from . import kernels as K
from .rng import check_seed, rng_rows
from .spec import GameSpec


def world_words(name: str, rng, rows: int) -> np.ndarray:
    """(rows, 4) generator words from ``rng`` (a Generator, an int seed or None)."""
    if isinstance(rng, np.random.Generator):
        return rng.integers(1, 2**32, size=(rows, 4), dtype=np.int64)
    if rng is None:
        return rng_rows(int(np.random.SeedSequence().entropy % (2**62)), rows)
    try:
        return rng_rows(check_seed(rng), rows)
    except (TypeError, ValueError):
        raise TypeError(f"{name}: rng must be a numpy Generator, a non-negative int seed or "
                        f"None, got {rng!r}") from None


def check_viewers(name: str, states: np.ndarray, viewers) -> np.ndarray:
    """``viewers`` (one seat, or one per row) as (B,) int64 seats of their rows' games."""
    b = states.shape[0]
    v = np.asarray(viewers)
    if v.ndim == 0:
        v = np.full(b, v[()]) if v.dtype.kind in "iu" else v.reshape(1)
    if v.shape != (b,) or v.dtype.kind not in "iu":
        raise ValueError(f"{name}: viewers must be one seat or ({b},) seats (ints), got "
                         f"{viewers!r}")
    v = v.astype(np.int64)
    n = states["num_players"].astype(np.int64)
    bad = np.flatnonzero((v < 0) | (v >= n))
    if bad.size:
        i = int(bad[0])
        raise ValueError(f"{name}: viewer of game {i} must be a seat in [0, {n[i]}), got {v[i]}")
    return v


def sample_records(spec: GameSpec, states: np.ndarray, viewers, rng,
                   samples: int = 1) -> np.ndarray:
    """Resampled copies of ``states``: ``samples`` per row, as its viewer may believe it is.

    Record ``i * samples + k`` of the result is sample ``k`` of row ``i`` for seat
    ``viewers[i]``, drawn from generator words ``j = i * samples + k`` of ``rng``.
    """
    if not K.has_kernel(spec.state_dtype, "determinize"):
        raise ValueError(f"{spec.name}: registers no determinize kernel to sample worlds with")
    if isinstance(samples, (bool, np.bool_)) or not isinstance(samples, (int, np.integer)) \
            or samples < 1:
        raise ValueError(f"{spec.name}: samples must be an int >= 1, got {samples!r}")
    seats = np.repeat(check_viewers(spec.name, states, viewers), samples)
    worlds = np.repeat(states, samples)
    K.determinize_rows(worlds, seats, world_words(spec.name, rng, worlds.shape[0]))
    return worlds


__all__ = ["check_viewers", "sample_records", "world_words"]
