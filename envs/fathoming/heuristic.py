"""A Fathoming heuristic that reads only the observation (offsets from ``encode.OBS``).

It keeps a Warrior on the field, attacks for Loot (kills first, the most valuable Warrior
it can destroy), summons the most expensive Warrior it can afford, plays its other cards
(never returning its own Warriors), and targets the opposing Warrior it can finish off.
Card facts (printed cost, type) come from the public card tables.
"""

from __future__ import annotations

from fatezoo.envs.core.jit import njit
from fatezoo.envs.core.kernels import random_legal

from .cards import COST, CTYPE, KIND_BY_NAME, PERSONAL, SUBTYPE, TERRAIN, WARRIOR
from .encode import (
    D_ACTIVATE_TARGET,
    D_ATTACK_TARGET,
    D_PICK,
    D_PLAY_TARGET,
    GUARD_SCALE,
    ME,
    O_DECISION,
    O_ENERGY,
    O_PSRC,
    O_TERRAINS,
    O_WARRIORS,
    OPP,
    SEAT_STRIDE,
    STAT_SCALE,
    TER_GLOBAL,
    TER_OWN,
    TR_PRESENT,
    TR_SIZE,
    W_ATK,
    W_DMG,
    W_GUARD,
    W_HP,
    W_KIND,
    W_PRESENT,
    W_SIZE,
)
from .state import (
    ACTIVATE_A,
    ATTACK_A,
    CANCEL_A,
    END_A,
    NUM_SOURCES,
    NUM_TARGETS,
    PICK_A,
    PLAY,
    SLOTS,
    TARGET_A,
    TG_OPP_W,
    TG_OWN_W,
)

K = COST.shape[0]
RETREAT = KIND_BY_NAME["Retreat"]


@njit(cache=True)
def _w(obs, seat, k, field):
    return obs[O_WARRIORS + seat * SEAT_STRIDE + k * W_SIZE + field]


@njit(cache=True)
def _kind(obs, seat, k):
    o = O_WARRIORS + seat * SEAT_STRIDE + k * W_SIZE + W_KIND
    for x in range(K):
        if obs[o + x] > 0:
            return x
    return 0


@njit(cache=True)
def _remaining(obs, k, atk):
    """Opposing Warrior k's Health left after an attack of ``atk`` (Guard counted)."""
    hp = _w(obs, OPP, k, W_HP) * STAT_SCALE - _w(obs, OPP, k, W_DMG) * STAT_SCALE
    guard = _w(obs, OPP, k, W_GUARD) * GUARD_SCALE
    return hp - max(0.0, atk - guard)


@njit(cache=True)
def _target(obs, mask, rng):
    atk = 3.0  # an ability's damage when it is not an attack
    if obs[O_DECISION + D_ATTACK_TARGET] > 0:
        for s in range(SLOTS):
            if obs[O_PSRC + s] > 0:
                atk = _w(obs, ME, s, W_ATK) * STAT_SCALE
    best, bv = -1, -1e9
    for t in range(NUM_TARGETS):
        if not mask[TARGET_A + t]:
            continue
        if TG_OPP_W <= t < TG_OPP_W + SLOTS:
            k = t - TG_OPP_W
            rem = _remaining(obs, k, atk)
            v = 100.0 + COST[_kind(obs, OPP, k)] if rem <= 0 else 50.0 - rem
        elif TG_OWN_W <= t < TG_OWN_W + SLOTS:
            k = t - TG_OWN_W
            v = 10.0 + _w(obs, ME, k, W_ATK) * STAT_SCALE + _w(obs, ME, k, W_DMG) * STAT_SCALE
        else:
            v = 1.0
        if v > bv:
            best, bv = t, v
    if best < 0:
        return CANCEL_A
    return TARGET_A + best


@njit(cache=True)
def act_one(obs, mask, rng):
    """One heuristic action for one observation and mask (``rng``: 4 generator words)."""
    if obs[O_DECISION + D_PICK] > 0:  # pick: the most expensive matching card
        best, bv = -1, -1
        for x in range(K):
            if mask[PICK_A + x] and COST[x] > bv:
                best, bv = x, COST[x]
        return PICK_A + best if best >= 0 else random_legal(mask, rng)
    if (obs[O_DECISION + D_PLAY_TARGET] > 0 or obs[O_DECISION + D_ATTACK_TARGET] > 0
            or obs[O_DECISION + D_ACTIVATE_TARGET] > 0):
        return _target(obs, mask, rng)
    mine = 0
    for k in range(SLOTS):
        mine += _w(obs, ME, k, W_PRESENT) > 0
    # 1. attacks that destroy a Warrior
    for k in range(SLOTS):
        if mask[ATTACK_A + k]:
            atk = _w(obs, ME, k, W_ATK) * STAT_SCALE
            for j in range(SLOTS):
                if _w(obs, OPP, j, W_PRESENT) > 0 and _remaining(obs, j, atk) <= 0:
                    return ATTACK_A + k
    # 2. the most expensive Warrior we can summon
    best, bv = -1, -1
    for x in range(K):
        if mask[PLAY + x] and CTYPE[x] == WARRIOR and COST[x] > bv:
            best, bv = x, COST[x]
    if best >= 0:
        return PLAY + best
    # 3. other cards: Terrains only into an empty zone; never Retreat
    own_pt = obs[O_TERRAINS + TER_OWN * TR_SIZE + TR_PRESENT] > 0
    glob = obs[O_TERRAINS + TER_GLOBAL * TR_SIZE + TR_PRESENT] > 0
    for x in range(K):
        if not mask[PLAY + x] or x == RETREAT:
            continue
        if CTYPE[x] == TERRAIN and ((SUBTYPE[x] == PERSONAL and own_pt)
                                    or (SUBTYPE[x] != PERSONAL and glob)):
            continue
        return PLAY + x
    # 4. any other attack, 5. Activate abilities
    for k in range(SLOTS):
        if mask[ATTACK_A + k] and mine > 0:
            return ATTACK_A + k
    for j in range(NUM_SOURCES):
        if mask[ACTIVATE_A + j] and obs[O_ENERGY + ME] * STAT_SCALE >= 3:
            return ACTIVATE_A + j
    return END_A
