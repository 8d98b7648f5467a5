"""A Villainous heuristic policy that reads only the observation (no hidden state).

It takes every useful action before ending its turn, most valuable first (Vanquish, Play,
Activate, Fate, Power, moves; never Discard), plays "may" abilities, ends a Vanquish as soon
as it is enough, and Fates the leading opponent (most Power plus public objective progress).
Other choices are uniform among the legal ones.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from fatezoo.envs.core.kernels import SERIAL_BELOW, random_legal

from .encode import O_EKIND, O_MOVER, O_OBJ, O_PHASE, O_POWER, O_SUCC, O_VIL
from .state import (
    K_DISCARD,
    K_VANQ,
    LOC_SYM,
    LOCATION,
    MAX_P,
    NFL,
    NUM_ENTRY_KINDS,
    NUM_PHASES,
    PASS,
    PH_ACT,
    PH_ENTRY,
    PH_MOVE,
    PH_TARGET,
    PH_WINDOW,
    S_ACTIVATE,
    S_DISCARD,
    S_FATE,
    S_MOVE_HERO,
    S_MOVE_IA,
    S_PLAY,
    S_POWER1,
    S_POWER2,
    S_POWER3,
    S_VANQUISH,
    SLOT,
    TARGET,
)

# value of taking each symbol's action (higher first); Discard is never taken
SYMBOL_VALUE = np.zeros(10, np.float64)
SYMBOL_VALUE[S_VANQUISH] = 9.0
SYMBOL_VALUE[S_PLAY] = 8.0
SYMBOL_VALUE[S_ACTIVATE] = 7.0
SYMBOL_VALUE[S_FATE] = 6.0
SYMBOL_VALUE[S_POWER3] = 5.0
SYMBOL_VALUE[S_POWER2] = 4.0
SYMBOL_VALUE[S_POWER1] = 3.0
SYMBOL_VALUE[S_MOVE_HERO] = 2.0
SYMBOL_VALUE[S_MOVE_IA] = 1.0
SYMBOL_VALUE[S_DISCARD] = -1.0


@njit(cache=True)
def argmax_block(obs, o, k):
    """Index of the largest of ``obs[o : o + k]``."""
    best, j = -1.0, 0
    for i in range(k):
        if obs[o + i] > best:
            best, j = obs[o + i], i
    return j


@njit(cache=True)
def location_value(villain, loc):
    """How good a location's symbols are (all four, top ones may be covered)."""
    v = 0.0
    for k in range(4):
        v += max(0.0, SYMBOL_VALUE[LOC_SYM[villain, loc, k]])
    return v


@njit(cache=True)
def act_one(obs, mask, rng):
    """One heuristic decision from an observation and mask."""
    phase = argmax_block(obs, O_PHASE, NUM_PHASES)
    villain = argmax_block(obs, O_VIL, 3)
    if phase == PH_MOVE:
        best, pick = -1.0, -1
        for loc in range(4):
            if mask[LOCATION + loc]:
                v = location_value(villain, loc)
                if v > best:
                    best, pick = v, LOCATION + loc
        if pick >= 0:
            return pick
    elif phase == PH_ACT:
        loc = argmax_block(obs, O_MOVER, 4)
        best, pick = 0.0, PASS
        for k in range(4):
            if mask[SLOT + k]:
                v = SYMBOL_VALUE[LOC_SYM[villain, loc, k]]
                if v > best:
                    best, pick = v, SLOT + k
        return pick
    elif phase == PH_TARGET:
        best, pick = -1.0, -1
        for r in range(1, MAX_P):
            if mask[TARGET + r - 1]:
                lead = obs[O_POWER + r] + 2.0 * obs[O_SUCC + r * (NFL + 1) + NFL] + 2.0 * (
                    1.0 - obs[O_OBJ + r * 4]) * (obs[O_VIL + r * 3 + 2] > 0)
                if lead > best:
                    best, pick = lead, TARGET + r - 1
        if pick >= 0:
            return pick
    elif phase == PH_WINDOW:  # every designed Condition helps its owner: play one
        mask2 = mask.copy()
        mask2[PASS] = 0
        a = random_legal(mask2, rng)
        if a >= 0:
            return a
    elif phase == PH_ENTRY:
        kind = argmax_block(obs, O_EKIND, NUM_ENTRY_KINDS)
        if mask[PASS] and (kind == K_VANQ or kind == K_DISCARD):
            return PASS
        if mask[PASS]:  # a "may": do it (choose uniformly among the other actions)
            mask2 = mask.copy()
            mask2[PASS] = 0
            a = random_legal(mask2, rng)
            if a >= 0:
                return a
    return random_legal(mask, rng)


@njit(cache=True, parallel=True)
def act_batch(obs, masks, rng, out):
    """Heuristic actions for a batch; ``rng`` is (B, 4) generator words (mutated)."""
    for i in prange(obs.shape[0]):
        out[i] = act_one(obs[i], masks[i], rng[i])


@njit(cache=True)
def act_serial(obs, masks, rng, out):
    """:func:`act_batch` without threads (cheaper for a few rows)."""
    for i in range(obs.shape[0]):
        out[i] = act_one(obs[i], masks[i], rng[i])


def heuristic_actions(obs: np.ndarray, masks: np.ndarray, rng: np.ndarray) -> np.ndarray:
    """Heuristic actions for (B, D) observations and (B, A) masks (rng: (B, 4) int64)."""
    out = np.empty(obs.shape[0], np.int64)
    (act_serial if len(obs) < SERIAL_BELOW else act_batch)(obs, masks, rng, out)
    return out
