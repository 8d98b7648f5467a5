"""A Forgotten City heuristic that reads only the observation (offsets from ``encode.OBS``).

It picks the monuments worth most to build, builds and decodes for VP, digs the colours its
monuments still need, buys the best miracle it can afford, keeps out of a nightmare's
terrain without defensive strength and spends that strength on the nightmare closest to
defeat.
"""

from __future__ import annotations

import numpy as np

from fatezoo.envs.core.decisions import in_block
from fatezoo.envs.core.jit import njit
from fatezoo.envs.core.kernels import random_legal

from .encode import (
    GDISP_S,
    H_HELP,
    H_MTYPE,
    H_OWNER,
    H_TERR,
    HEX_S,
    MIRACLE_SCALE,
    MONUMENT_SCALE,
    N_ATK,
    N_DEAD,
    N_HP,
    N_SHOWN,
    NM_S,
    O_DEC,
    O_GDISP,
    O_HEX,
    O_MIR,
    O_NM,
    O_ROUND,
    O_SEATS,
    O_SLOTS,
    O_SUPPLY,
    O_TRACK,
    O_WDISP,
    S_DEF,
    S_RES,
    SL_PICK,
    SL_ZONE,
    TR_COINS,
    TR_MON,
    TRACK_S,
    WDISP_S,
)
from .state import (
    A_ABANDON,
    A_DAMAGE,
    A_DISCARD,
    A_KEEP,
    A_LEADER,
    A_MIRACLE,
    A_PASS,
    A_PICK,
    A_PLACE,
    A_RES,
    A_REST,
    ACT_BUILD0,
    ACT_DECODE,
    ADJ,
    FX_AMOUNT,
    FX_EFFECT,
    GREY_SHOWN,
    HELPERS,
    MAX_BOXES,
    MAX_P,
    MAX_TRACK,
    MON_BUILD,
    MON_COST,
    MON_DEC_FX,
    MON_DECODE,
    MON_EFFECTS,
    NUM_COLORS,
    NUM_DECS,
    NUM_HEX,
    NUM_MIR_TYPES,
    NUM_MON,
    NUM_NM_POS,
    NUM_PLACE_ACTS,
    NUM_TERRAINS,
    PICK_FIRST,
    PICK_SECOND,
    RES_PER_COLOR,
    ROUNDS,
    T_CENTRAL,
    TRACK_CAP,
    TYPE_FX,
    TYPE_WHITE,
    TYPE_WHITE_NEEDED,
    WHITE_SHOWN,
    ZONE_SLOTS,
    Dec,
    Fx,
)

AREA_AVG = 1.8  # VP of a monument marker space, on average
RES_VALUE = 0.45  # a resource (3 = 1 VP at the end, more as a building material)


@njit(cache=True)
def fx_value(fx, a, left):
    """Rough VP worth of one reward instruction with ``left`` rounds to go."""
    if fx == Fx.GAIN_VP:
        return 1.0 * a
    if fx == Fx.GAIN_INSPIRATION or fx == Fx.GAIN_DEFENSE:
        return 0.35 * a
    if fx == Fx.GAIN_COINS:
        return 0.25 * a
    if fx == Fx.UP_INSPIRATION or fx == Fx.UP_DEFENSE:
        return 0.35 * a * left
    if fx == Fx.UP_INCOME:
        return 0.25 * a * left
    if fx == Fx.ANY_RESOURCES:
        return RES_VALUE * a
    return 0.0


@njit(cache=True)
def build_value(m, left):
    """Rough VP worth of building monument ``m``."""
    v = AREA_AVG + 0.5
    for j in range(MON_EFFECTS):
        v += fx_value(MON_BUILD[m, j, FX_EFFECT], MON_BUILD[m, j, FX_AMOUNT], left)
    return v


@njit(cache=True)
def monument_at(x):
    """Monument type from a (type + 1) / MONUMENT_SCALE observation entry, -1 for none."""
    return int(x * MONUMENT_SCALE + 0.5) - 1


@njit(cache=True)
def my_res(obs, c):
    """My resources of colour ``c``."""
    return int(obs[O_SEATS + S_RES + c] * RES_PER_COLOR + 0.5)


@njit(cache=True)
def shortfall(obs, m):
    """Resources I lack to build monument ``m``."""
    s = 0
    for c in range(NUM_COLORS):
        s += max(0, MON_COST[m, c] - my_res(obs, c))
    return s


@njit(cache=True)
def needs(obs, out):
    """Resources my construction zone still lacks, per colour."""
    for c in range(NUM_COLORS):
        out[c] = -my_res(obs, c)
    for j in range(ZONE_SLOTS):
        m = monument_at(obs[O_SLOTS + SL_ZONE + j])
        if m >= 0:
            for c in range(NUM_COLORS):
                out[c] += MON_COST[m, c]


@njit(cache=True)
def pick_value(obs, m, left):
    """Worth of taking monument ``m`` into my construction zone."""
    return build_value(m, left) - 0.6 * shortfall(obs, m)


@njit(cache=True)
def attacked(obs, c):
    """A revealed, undefeated nightmare attacks colour ``c``."""
    for k in range(NUM_NM_POS):
        o = O_NM + k * NM_S
        if obs[o + N_SHOWN] > 0 and obs[o + N_DEAD] == 0 and obs[o + N_ATK + c] > 0:
            return True
    return False


@njit(cache=True)
def owns(obs, fx):
    """How many of my miracle tiles have effect ``fx``."""
    c = 0.0
    for t in range(NUM_MIR_TYPES):
        if TYPE_FX[t] == fx:
            c += obs[O_MIR + t] * MIRACLE_SCALE
    return c


@njit(cache=True)
def main_value(obs, h, a, need, left, defense):
    """Worth of placing a helper on hex ``h`` for action ``a``."""
    o = O_HEX + h * HEX_S
    terr = -1
    for k in range(NUM_TERRAINS):
        if obs[o + H_TERR + k] > 0:
            terr = k
    occupants = 0.0
    for q in range(MAX_P):
        occupants += obs[o + H_HELP + q] * HELPERS
    v = -0.25 * occupants
    if terr < NUM_COLORS and terr >= 0:
        if attacked(obs, terr):
            v += 0.3 if defense >= 2 else -1.5
    if in_block(a, ACT_BUILD0, ZONE_SLOTS):  # build zone slot a - ACT_BUILD0
        m = monument_at(obs[O_SLOTS + SL_ZONE + a - ACT_BUILD0])
        return v + 2.0 + build_value(m, left)
    if a == ACT_DECODE:
        m = monument_at(obs[o + H_MTYPE])
        val = 0.0
        for j in range(MON_EFFECTS):
            val += fx_value(MON_DEC_FX[m, j, FX_EFFECT], MON_DEC_FX[m, j, FX_AMOUNT], left)
        for c in range(NUM_COLORS):
            val -= MON_DECODE[m, c] * (0.9 if need[c] > 0 else RES_VALUE)
        if obs[o + H_OWNER] == 0:  # another seat owns it: it scores 1 VP
            val -= 0.7
        return v + val
    if terr == T_CENTRAL:
        return v + 0.1
    val = 0.9 if need[terr] > 0 else RES_VALUE
    val += owns(obs, Fx.VP_PER_EXCAVATE)
    return v + val


@njit(cache=True)
def best_colour(mask, score):
    """The legal ``resource`` action with the highest ``score``."""
    best, bv = -1, -1e9
    for c in range(NUM_COLORS):
        if mask[A_RES + c] and score[c] > bv:
            best, bv = A_RES + c, score[c]
    return best


@njit(cache=True)
def miracle_value(obs, t):
    """Worth of miracle type ``t`` to me."""
    if TYPE_WHITE[t]:
        fx = TYPE_FX[t]
        if fx == Fx.VP_PER_EXCAVATE:
            return 2.0
        if fx == Fx.EXCAVATE_BONUS or fx == Fx.DEFENSE_PER_ROUND or fx == Fx.REST_BONUS:
            return 1.5
        return 1.0
    white = 0.0
    for u in range(NUM_MIR_TYPES):
        if TYPE_WHITE[u]:
            white += obs[O_MIR + u] * MIRACLE_SCALE
    return 3.0 if white + 1.5 >= TYPE_WHITE_NEEDED[t] else 0.5


@njit(cache=True)
def act_one(obs, mask, rng):
    """The heuristic's action for one observation and mask."""
    d = 0
    for k in range(NUM_DECS):
        if obs[O_DEC + k] > 0:
            d = k
    rnd = 0
    for k in range(ROUNDS):
        if obs[O_ROUND + k] > 0:
            rnd = k
    left = ROUNDS - 1 - rnd
    need = np.zeros(NUM_COLORS)
    needs(obs, need)
    defense = int(obs[O_SEATS + S_DEF] * TRACK_CAP + 0.5)
    best, bv = -1, -1e9
    if d == Dec.PICK:
        for s in range(MAX_TRACK):
            if mask[A_PICK + s]:
                m = -1
                for t in range(NUM_MON):
                    if obs[O_TRACK + s * TRACK_S + TR_MON + t] > 0:
                        m = t
                v = pick_value(obs, m, left) + obs[O_TRACK + s * TRACK_S + TR_COINS] * 3.0
                if v > bv:
                    best, bv = A_PICK + s, v
        return best
    if d == Dec.KEEP:
        a = monument_at(obs[O_SLOTS + SL_PICK + PICK_FIRST])
        b = monument_at(obs[O_SLOTS + SL_PICK + PICK_SECOND])
        keep = PICK_FIRST if pick_value(obs, a, left) >= pick_value(obs, b, left) else PICK_SECOND
        return A_KEEP + keep
    if d == Dec.DISCARD:  # a zone slot, or (the last action) the new monument: the first pick
        for k in range(ZONE_SLOTS + 1):
            part = SL_ZONE + k if k < ZONE_SLOTS else SL_PICK + PICK_FIRST
            m = monument_at(obs[O_SLOTS + part])
            v = -pick_value(obs, m, left)
            if v > bv:
                best, bv = A_DISCARD + k, v
        return best
    if d == Dec.MAIN or d == Dec.BUY:
        if rnd == ROUNDS - 1:  # last round: an unbuilt monument is worth nothing
            for k in range(ZONE_SLOTS):
                m = monument_at(obs[O_SLOTS + SL_ZONE + k])
                if mask[A_ABANDON + k] and m >= 0 and shortfall(obs, m) > 0:
                    return A_ABANDON + k
    if d == Dec.MAIN:
        for h in range(NUM_HEX):
            for a in range(NUM_PLACE_ACTS):
                if mask[A_PLACE + NUM_PLACE_ACTS * h + a]:
                    v = main_value(obs, h, a, need, left, defense)
                    if v > bv:
                        best, bv = A_PLACE + NUM_PLACE_ACTS * h + a, v
        if bv < 0.5 + 0.25 * owns(obs, Fx.REST_BONUS) * 4:
            return A_REST
        return best
    if d == Dec.EXCH_GIVE:
        return best_colour(mask, -need)
    if d == Dec.EXCH_TAKE or d == Dec.GAIN_RES:
        return best_colour(mask, need)
    if d == Dec.PENALTY:
        have = np.zeros(NUM_COLORS)
        for c in range(NUM_COLORS):
            have[c] = my_res(obs, c) - need[c]
        return best_colour(mask, have)
    if d == Dec.BUY:
        for s in range(WHITE_SHOWN + GREY_SHOWN):
            if mask[A_MIRACLE + s]:
                t = -1
                base = O_WDISP + s * WDISP_S if s < WHITE_SHOWN else \
                    O_GDISP + (s - WHITE_SHOWN) * GDISP_S
                for u in range(NUM_MIR_TYPES):
                    if obs[base + u] > 0:
                        t = u
                v = miracle_value(obs, t)
                if v > bv:
                    best, bv = A_MIRACLE + s, v
        return best if best >= 0 else A_PASS
    if d == Dec.FIGHT:
        for k in range(NUM_NM_POS):
            if mask[A_DAMAGE + k]:
                v = -obs[O_NM + k * NM_S + N_HP] * MAX_BOXES
                if v > bv:
                    best, bv = A_DAMAGE + k, v
        return best if best >= 0 else A_PASS
    if d == Dec.LEADER:
        for h in range(NUM_HEX):
            if mask[A_LEADER + h]:
                v = 0.0
                for j in range(ADJ.shape[1]):
                    y = ADJ[h, j]
                    if y >= 0:
                        o = O_HEX + y * HEX_S
                        for c in range(NUM_COLORS):
                            if obs[o + H_TERR + c] > 0:
                                v += 1.0 if need[c] > 0 else 0.4
                                if attacked(obs, c) and defense < 2:
                                    v -= 0.5
                        if obs[o + H_MTYPE] > 0:
                            v += 0.3
                if v > bv:
                    best, bv = A_LEADER + h, v
        return best
    _ = obs[O_SUPPLY]
    return random_legal(mask, rng)
