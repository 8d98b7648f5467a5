"""A Fatefell heuristic policy that reads only the observation (no hidden state).

It keeps low cards, chases Matches it knows of, declares known Matches at once, and
points Fate effects at high cards of its own and low cards of others.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from fatezoo.envs.core.kernels import SERIAL_BELOW, random_legal

from .encode import O_DISCARD, O_EFFECT, O_HAND, O_IDENT, O_PAIRS, O_PHASE, O_SEAT
from .rules import (
    BURY_BLIND,
    BURY_SEEN,
    DRAW,
    FX_PILE,
    FX_SLOT,
    FX_TARGET,
    NEXT_BURIES,
    NEXT_SWAPS,
    PH_DECLARE,
    PH_PILE,
    PLACE,
    SWAP_DISCARD,
    SWAP_OPP,
)
from .state import DECLARE, DISCARD, DRAW_DECK, DRAW_DISCARD, END_TURN, PAIRS, PILE, SLOT, TARGET

UNKNOWN_VALUE = 6.5  # expected value of a card never seen


@njit(cache=True)
def argmax_block(obs, start, size):
    """Index of the largest entry of ``obs[start:start+size]``."""
    best = 0
    for i in range(1, size):
        if obs[start + i] > obs[start + best]:
            best = i
    return best


@njit(cache=True)
def slot_value(obs, seat, x):
    """Value of a slot as the viewer knows it (UNKNOWN_VALUE if unseen)."""
    o = O_SEAT + (seat * 4 + x) * 6
    if obs[o + 1] > 0.5:
        return round(obs[o + 3] * 12.0)
    return UNKNOWN_VALUE


@njit(cache=True)
def own_ident(obs, x):
    """Identity of own slot ``x`` or -1 if unknown."""
    if obs[O_SEAT + x * 6 + 1] < 0.5:
        return -1
    return argmax_block(obs, O_IDENT + x * 24, 24)


@njit(cache=True)
def protected(obs, x):
    """Whether own slot ``x`` is matched or part of a known, undeclared Match."""
    if obs[O_SEAT + x * 6 + 2] > 0.5:
        return True
    for i in range(6):
        if obs[O_PAIRS + i] > 0.5 and (PAIRS[i, 0] == x or PAIRS[i, 1] == x):
            return True
    return False


@njit(cache=True)
def best_slot_for(obs, mask, v, ident):
    """Best own slot to put a card of value ``v`` and identity ``ident``; gain in points."""
    partner = -1
    for x in range(4):
        if not protected(obs, x) and own_ident(obs, x) == ident:
            partner = x
    best, gain = -1, -100.0
    for x in range(4):
        if not mask[SLOT + x] or protected(obs, x) or x == partner:
            continue
        g = slot_value(obs, 0, x) - v
        if partner >= 0:
            g += 12.0  # completing a Match scores 0 for both cards
        if g > gain:
            best, gain = x, g
    return best, gain


@njit(cache=True)
def act_one(obs, mask, rng):
    """One heuristic decision from an observation and mask."""
    phase = argmax_block(obs, O_PHASE, 10)
    effect = argmax_block(obs, O_EFFECT, 14)
    if phase == DRAW:
        best, gain = -1, 1.5
        for a in range(DRAW_DISCARD, DRAW_DISCARD + 6):
            if mask[a]:
                o = O_DISCARD + (a - DRAW_DISCARD) * 28
                v = round(obs[o + 1] * 12.0)
                x, g = best_slot_for(obs, mask, v, argmax_block(obs, o + 4, 24))
                if x >= 0 and g > gain:
                    best, gain = a, g
        if best >= 0:
            return best
        if mask[DRAW_DECK]:
            return DRAW_DECK
    elif phase == PLACE:
        v = round(obs[O_HAND + 1] * 12.0)
        x, gain = best_slot_for(obs, mask, v, argmax_block(obs, O_HAND + 4, 24))
        if x >= 0 and (gain > 1.0 or not mask[DISCARD]):
            return SLOT + x
        if mask[DISCARD]:
            return DISCARD
        worst, wv = -1, -1.0
        for x in range(4):
            if mask[SLOT + x] and slot_value(obs, 0, x) > wv:
                worst, wv = x, slot_value(obs, 0, x)
        return SLOT + worst
    elif phase == PH_DECLARE:
        for i in range(6):
            if obs[O_PAIRS + i] > 0.5 and mask[DECLARE + i]:
                return DECLARE + i
        return END_TURN
    elif phase == PH_PILE or phase == FX_PILE:
        best, bv = -1, 99.0
        for k in range(2):
            if mask[PILE + k]:
                v = round(obs[O_DISCARD + k * 3 * 28 + 1] * 12.0)
                if v < bv:
                    best, bv = k, v
        return PILE + best
    elif phase == FX_SLOT:
        if effect == BURY_SEEN or effect == BURY_BLIND or effect == SWAP_OPP \
                or effect == SWAP_DISCARD or effect == NEXT_SWAPS:
            worst, wv = -1, -1.0
            for x in range(4):
                if mask[SLOT + x] and not protected(obs, x) and slot_value(obs, 0, x) > wv:
                    worst, wv = x, slot_value(obs, 0, x)
            if worst >= 0:
                return SLOT + worst
    elif phase == FX_TARGET:
        if effect == SWAP_OPP or effect == NEXT_SWAPS or effect == NEXT_BURIES:
            best, bv = -1, 99.0
            for a in range(TARGET, TARGET + 12):
                if mask[a]:
                    v = slot_value(obs, 1 + (a - TARGET) // 4, (a - TARGET) % 4)
                    if v < bv:
                        best, bv = a, v
            return best
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
