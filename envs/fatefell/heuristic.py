"""A Fatefell heuristic policy that reads only the observation (no hidden state).

It keeps low cards, chases Matches it knows of, declares known Matches at once, and
points Fate effects at high cards of its own and low cards of others.
"""

from __future__ import annotations

from fatezoo.envs.core.jit import njit
from fatezoo.envs.core.kernels import random_legal

from .encode import (
    C_VALUE,
    CARD,
    DEPTH_STRIDE,
    IDENT_STRIDE,
    O_DISCARD,
    O_EFFECT,
    O_HAND,
    O_IDENT,
    O_PAIRS,
    O_PHASE,
    O_SEAT,
    OBS,
    PILE_STRIDE,
    S_COMPLETED,
    S_KNOWN,
    S_VALUE,
    SEAT_STRIDE,
    SLOT_STRIDE,
)
from .state import (
    DECLARE,
    DISCARD,
    DRAW_DECK,
    DRAW_DEPTH,
    DRAW_DISCARD,
    END_TURN,
    MAX_PILES,
    MAX_VALUE,
    NUM_EFFECTS,
    NUM_IDENTITIES,
    NUM_PAIRS,
    NUM_PHASES,
    NUM_TARGETS,
    PAIR_FIRST,
    PAIR_SECOND,
    PAIRS,
    PILE,
    SLOT,
    SLOTS,
    TARGET,
    Effect,
    Phase,
)

UNKNOWN_VALUE = 6.5  # expected value of a card never seen
MATCH_BONUS = float(MAX_VALUE)  # completing a Match scores 0 for both cards
DISCARD_GAIN = 1.5  # points a discard must save to be drawn instead of the draw pile
KEEP_GAIN = 1.0  # points a drawn card must save to be kept instead of discarded
assert OBS.shape("phase") == (NUM_PHASES,) and OBS.shape("effect") == (NUM_EFFECTS,)
assert OBS.shape("own_identity") == (SLOTS, NUM_IDENTITIES)


@njit(cache=True)
def argmax_block(obs, start, size):
    """Index of the largest entry of ``obs[start:start+size]``."""
    best = 0
    for i in range(1, size):
        if obs[start + i] > obs[start + best]:
            best = i
    return best


@njit(cache=True)
def card_value(obs, o):
    """Printed value of the card encoded at ``obs[o:o+CARD]``."""
    return round(obs[o + C_VALUE] * MAX_VALUE)


@njit(cache=True)
def slot_value(obs, seat, x):
    """Value of a slot as the viewer knows it (UNKNOWN_VALUE if unseen)."""
    o = O_SEAT + seat * SEAT_STRIDE + x * SLOT_STRIDE
    if obs[o + S_KNOWN] > 0.5:
        return round(obs[o + S_VALUE] * MAX_VALUE)
    return UNKNOWN_VALUE


@njit(cache=True)
def own_ident(obs, x):
    """Identity of own slot ``x`` or -1 if unknown."""
    if obs[O_SEAT + x * SLOT_STRIDE + S_KNOWN] < 0.5:
        return -1
    return argmax_block(obs, O_IDENT + x * IDENT_STRIDE, NUM_IDENTITIES)


@njit(cache=True)
def protected(obs, x):
    """Whether own slot ``x`` is matched or part of a known, undeclared Match."""
    if obs[O_SEAT + x * SLOT_STRIDE + S_COMPLETED] > 0.5:
        return True
    for i in range(NUM_PAIRS):
        if obs[O_PAIRS + i] > 0.5 and (PAIRS[i, PAIR_FIRST] == x
                                       or PAIRS[i, PAIR_SECOND] == x):
            return True
    return False


@njit(cache=True)
def best_slot_for(obs, mask, v, ident):
    """Best own slot to put a card of value ``v`` and identity ``ident``; gain in points."""
    partner = -1
    for x in range(SLOTS):
        if not protected(obs, x) and own_ident(obs, x) == ident:
            partner = x
    best, gain = -1, -100.0
    for x in range(SLOTS):
        if not mask[SLOT + x] or protected(obs, x) or x == partner:
            continue
        g = slot_value(obs, 0, x) - v
        if partner >= 0:
            g += MATCH_BONUS
        if g > gain:
            best, gain = x, g
    return best, gain


@njit(cache=True)
def act_one(obs, mask, rng):
    """One heuristic decision from an observation and mask."""
    phase = argmax_block(obs, O_PHASE, NUM_PHASES)
    effect = argmax_block(obs, O_EFFECT, NUM_EFFECTS)
    if phase == Phase.DRAW:
        best, gain = -1, DISCARD_GAIN
        for a in range(DRAW_DISCARD, DRAW_DISCARD + MAX_PILES * DRAW_DEPTH):
            if mask[a]:
                pile, depth = divmod(a - DRAW_DISCARD, DRAW_DEPTH)
                o = O_DISCARD + pile * PILE_STRIDE + depth * DEPTH_STRIDE
                x, g = best_slot_for(obs, mask, card_value(obs, o),
                                     argmax_block(obs, o + CARD, NUM_IDENTITIES))
                if x >= 0 and g > gain:
                    best, gain = a, g
        if best >= 0:
            return best
        if mask[DRAW_DECK]:
            return DRAW_DECK
    elif phase == Phase.PLACE:
        x, gain = best_slot_for(obs, mask, card_value(obs, O_HAND),
                                argmax_block(obs, O_HAND + CARD, NUM_IDENTITIES))
        if x >= 0 and (gain > KEEP_GAIN or not mask[DISCARD]):
            return SLOT + x
        if mask[DISCARD]:
            return DISCARD
        worst, wv = -1, -1.0
        for x in range(SLOTS):
            if mask[SLOT + x] and slot_value(obs, 0, x) > wv:
                worst, wv = x, slot_value(obs, 0, x)
        return SLOT + worst
    elif phase == Phase.DECLARE:
        for i in range(NUM_PAIRS):
            if obs[O_PAIRS + i] > 0.5 and mask[DECLARE + i]:
                return DECLARE + i
        return END_TURN
    elif phase == Phase.PILE or phase == Phase.FX_PILE:
        best, bv = -1, 99.0
        for k in range(MAX_PILES):
            if mask[PILE + k]:
                v = card_value(obs, O_DISCARD + k * PILE_STRIDE)
                if v < bv:
                    best, bv = k, v
        return PILE + best
    elif phase == Phase.FX_SLOT:
        if effect == Effect.BURY_SEEN or effect == Effect.BURY_BLIND \
                or effect == Effect.SWAP_OPP or effect == Effect.SWAP_DISCARD \
                or effect == Effect.NEXT_SWAPS:
            worst, wv = -1, -1.0
            for x in range(SLOTS):
                if mask[SLOT + x] and not protected(obs, x) and slot_value(obs, 0, x) > wv:
                    worst, wv = x, slot_value(obs, 0, x)
            if worst >= 0:
                return SLOT + worst
    elif phase == Phase.FX_TARGET:
        if effect == Effect.SWAP_OPP or effect == Effect.NEXT_SWAPS \
                or effect == Effect.NEXT_BURIES:
            best, bv = -1, 99.0
            for a in range(TARGET, TARGET + NUM_TARGETS):
                if mask[a]:
                    v = slot_value(obs, 1 + (a - TARGET) // SLOTS, (a - TARGET) % SLOTS)
                    if v < bv:
                        best, bv = a, v
            return best
    return random_legal(mask, rng)
