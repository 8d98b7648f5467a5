"""A Foretold heuristic policy that reads only the observation (offsets from the layout).

It plays every Temple Faithful for gold (they come back at Reinforce), plays its Fate
cards and usable Relics when they help (gold, draws and free buys in the Marketplace,
damage to the weakest opponent, heals when low; in a fight, bonuses, maluses and
removals when they turn it), buys the best
value it can afford (Faithful by combat and gold, passive Relics, Station flips), raids
when its Raiding Party should win the first fight, dispatches just enough to beat the
Defense it sees, walks the Marker toward the Heart, defends the Heart with everything,
and keeps gold makers and defenders in the Temple at Reinforce. A Fate Relic it returns on
changing Fate (R20) covers the pile the opponents would most like to buy.
"""

from __future__ import annotations

import numpy as np

from fatezoo.envs.core.decisions import in_block
from fatezoo.envs.core.jit import njit
from fatezoo.envs.core.kernels import random_legal

from . import cards as C
from . import state as S
from .encode import (
    BONUS_SCALE,
    CB_DICE,
    CELL_SIZE,
    COUNT_SCALE,
    DIE_SCALE,
    F_SPOT_SIZE,
    FT_DEFENDING,
    FT_DISPATCHED,
    G_BONUS,
    G_DOORS,
    G_MARKER,
    G_PRESENT,
    G_STATIONS,
    G_TYPE,
    GOLD_SCALE,
    GR_PARTY,
    GR_POOL,
    GR_TEMPLE,
    LIFE_SCALE,
    M_AFTER_RAID,
    M_BONUS,
    M_MALUS,
    M_WIN_TIES,
    O_COMBAT,
    O_FIGHT,
    O_FROW,
    O_GRID,
    O_MINE,
    O_MODS,
    O_PHASE,
    O_RAID,
    O_RELICS,
    O_RETURN,
    O_RROW,
    O_SEATS,
    P_GOLD,
    P_LIFE,
    R_SPOT_SIZE,
    RD_DEFENDER,
    RD_RAIDER,
    RET_TAKE,
    ROW_TOP,
    SEAT_SIZE,
    TILE_STAT_SCALE,
    TILE_TYPE_SCALE,
)
from .rules import door_steps, neighbour
from .rules import tables as T
from .state import Phase

# values by type (read as constants by numba)
RAID_VALUE = (C.F_RAID + 3.5 * C.F_DICE).astype(np.float64)
DEFEND_VALUE = (C.F_DEFEND + 3.5 * C.F_DICE).astype(np.float64)
GOLD_VALUE = C.F_GOLD.astype(np.float64) + np.where(np.arange(C.NF) == 0, 2.0, 0.0)
BUY_VALUE = np.maximum(C.F_RAID + C.F_DEFEND + 2.0 * (C.F_DICE - 1), 0) + 0.8 * C.F_GOLD
RELIC_VALUE = (2.0 * T.R_RAID_BONUS + 1.5 * T.R_DEFENSE_BONUS).astype(np.float64)
for _r in range(C.NR):
    if RELIC_VALUE[_r] == 0:
        RELIC_VALUE[_r] = 0.5
FLIP_WORTH = np.zeros(C.NT, np.float64)
FLIP_WORTH[:5] = (2.0, 2.5, 0.5, 1.0, 3.0)  # Entrance, Pathway, Treasury, Sanctum, Heart
FLIP_WORTH[5:] = 1.5
FATE_THREAT = 3.0  # a Fate Relic an opponent of its Fate lacks: a step to its R85 win


@njit(cache=True)
def _count(obs, o):
    return int(obs[o] * COUNT_SCALE + 0.5)


@njit(cache=True)
def _first_set(obs, o, n):
    """The first of the ``n`` 0/1 entries from ``obs[o]`` that is set, or -1."""
    for k in range(n):
        if obs[o + k] > 0.5:
            return k
    return -1


@njit(cache=True)
def _phase(obs):
    return _first_set(obs, O_PHASE, S.NUM_PHASES)


@njit(cache=True)
def _my_gold(obs):
    return int(obs[O_SEATS + P_GOLD] * GOLD_SCALE + 0.5)


@njit(cache=True)
def _grid(obs, seat, cell, k):
    return obs[O_GRID + (seat * S.CELLS + cell) * CELL_SIZE + k]


@njit(cache=True)
def _defender_seat(obs):
    for r in range(S.MAX_P):
        for c in range(S.CELLS):
            if _grid(obs, r, c, G_MARKER) > 0.5:
                return r
    return -1


@njit(cache=True)
def _marker(obs, seat):
    for c in range(S.CELLS):
        if _grid(obs, seat, c, G_MARKER) > 0.5:
            return c
    return -1


@njit(cache=True)
def _heart(obs, seat):
    for c in range(S.CELLS):
        t = int(_grid(obs, seat, c, G_TYPE) * TILE_TYPE_SCALE + 0.5) - 1
        if t == C.HEART:
            return c
    return -1


@njit(cache=True)
def _heart_steps(obs, seat, heart):
    """Marker moves from each cell of ``seat``'s Temple to its Heart, as observed."""
    doors = np.zeros(S.CELLS, np.int64)
    for c in range(S.CELLS):
        for d in range(4):
            if _grid(obs, seat, c, G_DOORS + d) > 0.5:
                doors[c] |= 1 << d
    return door_steps(doors, heart)


@njit(cache=True)
def _my_life(obs):
    return int(obs[O_SEATS + P_LIFE] * LIFE_SCALE + 0.5)


@njit(cache=True)
def _play_value(obs, e, a, b):
    """What playing an effect now is worth outside a fight (0: keep the card)."""
    life = _my_life(obs)
    if e == T.E_GAIN_GOLD or e == T.E_GOLD_ALIGNED or e == T.E_STEAL:
        return 2.0 + a
    if e == T.E_DRAW_FATE or e == T.E_FREE_BUY or e == T.E_BUY_ANY or e == T.E_SMASH:
        return 2.0
    if e == T.E_DAMAGE or e == T.E_DAMAGE_ALL:
        return 3.0 + a
    if e == T.E_HEAL:
        return 2.0 + a if life <= S.MAX_LIFE - a or life <= 10 else 0.0
    if e == T.E_HEAL_FULL:
        return 6.0 if life <= 10 else 0.0
    if e == T.E_PREVENT:
        return 1.0 + a if life <= 8 else 0.0
    return 0.0


@njit(cache=True)
def _side(obs):
    """0 if I am the Raider in a Raid, 1 if the Defender, else -1 (relative seats: 0 = me)."""
    if obs[O_RAID + RD_RAIDER] > 0.5:
        return 0
    if obs[O_RAID + RD_DEFENDER] > 0.5:
        return 1
    return -1


@njit(cache=True)
def _side_estimate(obs, s):
    """A side's Combat Roll as the observation shows it (dice, Faithful, bonuses)."""
    total = 0.0
    for i in range(S.MAX_DICE):
        total += obs[O_COMBAT + CB_DICE + s * S.MAX_DICE + i] * DIE_SCALE
    size = 0
    for t in range(C.NF):
        size += _count(obs, O_FIGHT + s * C.NF + t)
    for t in range(C.NF):
        m = _count(obs, O_FIGHT + s * C.NF + t)
        total += m * ((C.F_RAID[t] if s == 0 else C.F_DEFEND[t]) + T.F_ALLY[t] * (size - 1))
    total += (obs[O_MODS + M_BONUS + s] - obs[O_MODS + M_MALUS + s]) * BONUS_SCALE
    if s == 1:  # the raided Tile's Combat Bonus
        seat = _defender_seat(obs)
        c = _marker(obs, seat) if seat >= 0 else -1
        if c >= 0:
            total += _grid(obs, seat, c, G_BONUS) * TILE_STAT_SCALE
    return np.floor(total + 0.5)  # whole points (the observation's scaling is float32)


@njit(cache=True)
def _fight_gain(obs, e, a, b, s, gap):
    """How much an effect helps side ``s`` whose Combat Roll is ``gap`` behind (<= 0 not)."""
    if e == T.E_COMBAT_BONUS or e == T.E_COMBAT_MALUS:
        return float(a)
    if e == T.E_PAY_BONUS:
        return float(b)
    if e == T.E_ADD_DIE:
        return 3.5 * a
    if e == T.E_WIN_TIES:  # the Raider one short: a tie then wins
        return gap if s == 0 and gap <= 1.0 and obs[O_MODS + M_WIN_TIES + s] < 0.5 else 0.0
    if e == T.E_REMOVE or e == T.E_SACRIFICE or e == T.E_CONVERT or e == T.E_PAY_REMOVE:
        return 4.0
    return 0.0


@njit(cache=True)
def _fight_play(obs, mask):
    """In a fight I am a side of, once both sides rolled: the card or Relic that turns it."""
    s = _side(obs)
    if s < 0 or obs[O_MODS + M_AFTER_RAID] < 0.5 or obs[O_COMBAT + CB_DICE] <= 0.0 \
            or obs[O_COMBAT + CB_DICE + S.MAX_DICE] <= 0.0:
        return -1
    mine = _side_estimate(obs, s)
    theirs = _side_estimate(obs, 1 - s)
    # the Raider must beat the Defense (ties go to the Defender but for WIN_TIES)
    ties = obs[O_MODS + M_WIN_TIES] > 0.5  # the Raider's
    gap = theirs - mine + (1.0 if s == 0 and not ties else 0.0)
    if s == 1 and ties:
        gap += 1.0
    if gap <= 0.0:
        return -1
    best, bv = -1, 0.0
    for k in range(C.NC):
        if mask[S.PLAY_FATE + k]:
            v = _fight_gain(obs, C.C_EFFECT[k], C.C_A[k], C.C_B[k], s, gap)
            if v > bv:
                best, bv = S.PLAY_FATE + k, v
    for r in range(C.NR):
        if mask[S.USE_RELIC + r]:
            v = _fight_gain(obs, C.R_EFFECT[r], C.R_A[r], C.R_B[r], s, gap)
            if v > bv:
                best, bv = S.USE_RELIC + r, v
    return best if bv >= gap else -1  # only what turns the fight


@njit(cache=True)
def _fate_play(obs, mask):
    """Outside a fight: the Fate card or usable Relic worth most now, or -1."""
    best, bv = -1, 0.0
    for k in range(C.NC):
        if mask[S.PLAY_FATE + k]:
            v = _play_value(obs, C.C_EFFECT[k], C.C_A[k], C.C_B[k])
            if v > bv:
                best, bv = S.PLAY_FATE + k, v
    for r in range(C.NR):
        if mask[S.USE_RELIC + r]:
            v = _play_value(obs, C.R_EFFECT[r], C.R_A[r], C.R_B[r])
            if v > bv:
                best, bv = S.USE_RELIC + r, v
    return best


@njit(cache=True)
def _market(obs, mask, rng):
    play = _fate_play(obs, mask)
    if play >= 0:
        return play
    for t in range(C.NF):  # every Temple Faithful for gold: they return at Reinforce
        if mask[S.PLAY_GOLD + t]:
            return S.PLAY_GOLD + t
    best, bv = -1, 1.2
    for k in range(S.SPOTS):
        if mask[S.BUY_FAITHFUL + k]:
            o = O_FROW + k * F_SPOT_SIZE + ROW_TOP
            for t in range(C.NF):
                if obs[o + t] > 0.5:
                    v = BUY_VALUE[t] / max(1.0, C.F_COST[t] * 0.5)
                    if v > bv:
                        best, bv = S.BUY_FAITHFUL + k, v
        if mask[S.BUY_RELIC + k]:
            o = O_RROW + k * R_SPOT_SIZE + ROW_TOP
            for r in range(C.NR):
                if obs[o + r] > 0.5:
                    v = RELIC_VALUE[r] / max(1.0, C.R_COST[r] * 0.5)
                    if v > bv:
                        best, bv = S.BUY_RELIC + k, v
    for c in range(S.CELLS):
        if mask[S.FLIP + c]:
            t = int(_grid(obs, 0, c, G_TYPE) * TILE_TYPE_SCALE + 0.5) - 1
            if 0 <= t < C.NT and FLIP_WORTH[t] > bv:
                best, bv = S.FLIP + c, FLIP_WORTH[t]
    if best >= 0:
        return best
    if mask[S.BUY_TILE] and _my_gold(obs) >= 6:
        return S.BUY_TILE
    return S.PASS


@njit(cache=True)
def _party_strength(obs):
    s = 0.0
    for t in range(C.NF):
        s += _count(obs, O_MINE + GR_PARTY * C.NF + t) * RAID_VALUE[t]
    return s


@njit(cache=True)
def _defense_seen(obs, seat):
    """The Defense total as far as the observation shows it (dice, bonuses, the Tile)."""
    total = 0.0
    for i in range(S.MAX_DICE):
        total += obs[O_COMBAT + CB_DICE + S.MAX_DICE + i] * DIE_SCALE
    for t in range(C.NF):
        total += _count(obs, O_FIGHT + FT_DEFENDING * C.NF + t) * C.F_DEFEND[t]
    c = _marker(obs, seat)
    if c >= 0:
        total += _grid(obs, seat, c, G_BONUS) * TILE_STAT_SCALE
    return total + 1.0  # passive Shields, unseen


@njit(cache=True)
def _weakest_target(obs, mask):
    """The TARGET_SEAT action of the offered opponent with the least Life, or -1."""
    best, bl = -1, 99.0
    for k in range(S.TARGET_SEATS):
        if mask[S.TARGET_SEAT + k]:
            life = obs[O_SEATS + (k + 1) * SEAT_SIZE + P_LIFE]
            if life < bl:
                best, bl = S.TARGET_SEAT + k, life
    return best


@njit(cache=True)
def _returning_for(obs):
    """R20: the Relic being acquired while my old Fate's Relics go back, or -1."""
    return _first_set(obs, O_RETURN + RET_TAKE, C.NR)


@njit(cache=True)
def _cover_value(obs, r, fate):
    """What covering a pile topped by Relic ``r`` denies the opponents, less my loss.

    ``fate``: the Fate I am changing to (its Relics I may collect next).
    """
    v = RELIC_VALUE[r]
    if not C.R_IS_FATE[r]:
        return v
    if C.R_FATE[r] == fate:
        return v - FATE_THREAT  # one I may collect next
    for seat in range(1, S.MAX_P):  # an opponent holding that Fate and not this Relic
        o = O_RELICS + seat * C.NR
        if obs[o + r] > 0.0:
            continue
        for x in range(C.NR):
            if C.R_IS_FATE[x] and C.R_FATE[x] == C.R_FATE[r] and obs[o + x] > 0.0:
                return v + FATE_THREAT
    return v


@njit(cache=True)
def _return_cover(obs, mask):
    """R20: cover the pile whose top the opponents would most like to buy."""
    fate = C.R_FATE[_returning_for(obs)]
    best, bv = -1, -1e9
    for k in range(S.SPOTS):
        if mask[S.SPOT + S.SPOTS + k]:
            o = O_RROW + k * R_SPOT_SIZE + ROW_TOP
            for r in range(C.NR):
                if obs[o + r] > 0.5:
                    v = _cover_value(obs, r, fate)
                    if v > bv:
                        best, bv = S.SPOT + S.SPOTS + k, v
    return best


@njit(cache=True)
def act_one(obs, mask, rng):
    """One heuristic decision for the observation ``obs`` with legal ``mask``."""
    ph = _phase(obs)
    if ph == Phase.MARKET:
        return _market(obs, mask, rng)
    if ph == Phase.DRAW:
        for f in range(S.FATE_DECKS):
            if mask[S.FATE_DECK + f]:
                return S.FATE_DECK + f
    if ph == Phase.CYCLE or ph == Phase.SEARCH:
        for r in range(C.NR):
            if mask[S.PICK_RELIC + r]:
                return S.PICK_RELIC + r
        return S.PASS
    if ph == Phase.RAID_TARGET:
        if _party_strength(obs) < 7.0:
            return S.PASS
        best = _weakest_target(obs, mask)
        return best if best >= 0 else S.PASS
    if ph == Phase.DEFEND:
        c = _marker(obs, 0)
        temple = 0
        defending = 0
        for t in range(C.NF):
            temple += _count(obs, O_MINE + GR_TEMPLE * C.NF + t)
            defending += _count(obs, O_FIGHT + FT_DEFENDING * C.NF + t)
        if c == _heart(obs, 0) or (defending == 0 and temple > 2):
            best, bv = -1, -1.0
            for t in range(C.NF):
                if mask[S.PICK_FAITHFUL + t] and DEFEND_VALUE[t] > bv:
                    best, bv = S.PICK_FAITHFUL + t, DEFEND_VALUE[t]
            if best >= 0:
                return best
        return S.PASS
    if ph == Phase.DISPATCH:
        seat = _defender_seat(obs)
        need = _defense_seen(obs, seat) + 1.0
        have = 0.0
        for t in range(C.NF):
            have += _count(obs, O_FIGHT + FT_DISPATCHED * C.NF + t) * RAID_VALUE[t]
        if have >= need and mask[S.PASS]:
            return S.PASS
        total = have + _party_strength(obs)
        if total < need - 2.0 and mask[S.RETREAT]:
            return S.RETREAT
        best, bv = -1, -1.0
        for t in range(C.NF):
            if mask[S.PICK_FAITHFUL + t] and RAID_VALUE[t] > bv:
                best, bv = S.PICK_FAITHFUL + t, RAID_VALUE[t]
        if best >= 0:
            return best
        return S.PASS if mask[S.PASS] else S.RETREAT
    if ph == Phase.RECALL:
        best, bv = -1, -1.0
        for t in range(C.NF):
            if mask[S.PICK_FAITHFUL + t] and RAID_VALUE[t] > bv:
                best, bv = S.PICK_FAITHFUL + t, RAID_VALUE[t]
        return best
    if ph == Phase.ADVANCE:
        seat = _defender_seat(obs)
        c = _marker(obs, seat)
        heart = _heart(obs, seat)
        if seat < 0 or c < 0 or heart < 0:
            return random_legal(mask, rng)
        # the shortest doorway path to the Heart (a straight-line distance walked the
        # Marker back and forth in rearranged Temples until the Raid's move cap)
        steps = _heart_steps(obs, seat, heart)
        best, bd = -1, 99
        for d in range(4):
            o = neighbour(c, d)
            if mask[S.DIRECTION + d] and o >= 0 and steps[o] < bd:
                best, bd = S.DIRECTION + d, steps[o]
        if best >= 0 and _party_strength(obs) > 0.0:
            return best
        return S.RETREAT
    if ph == Phase.TRAP_DISCARD:
        best, bv = -1, 99.0
        for t in range(C.NF):
            if mask[S.PICK_FAITHFUL + t] and RAID_VALUE[t] < bv:
                best, bv = S.PICK_FAITHFUL + t, RAID_VALUE[t]
        return best
    if ph == Phase.REINFORCE:
        pool = 0
        for t in range(C.NF):
            pool += _count(obs, O_MINE + GR_POOL * C.NF + t)
        best, bv = -1, 0.0
        for t in range(C.NF):
            if mask[S.PICK_FAITHFUL + t]:
                v = GOLD_VALUE[t] + 0.5 * DEFEND_VALUE[t] - RAID_VALUE[t] + 2.0
                if v > bv:
                    best, bv = S.PICK_FAITHFUL + t, v
        if best >= 0 and pool > 1:
            return best
        return S.PASS
    if ph == Phase.PLACE_CELL or ph == Phase.PLACE_ROT or ph == Phase.FLIP_ROT \
            or ph == Phase.MOVE_CELL or ph == Phase.MOVE_ROT:
        for a in range(mask.shape[0]):
            if mask[a] and (in_block(a, S.CELL, S.CELLS) or in_block(a, S.ROTATION, S.ROTATIONS)):
                return a
    if ph == Phase.FINALIZE or ph == Phase.RESPOND:
        play = _fight_play(obs, mask)
        if play < 0 and ph == Phase.RESPOND and _my_life(obs) <= 6:
            play = _fate_play(obs, mask)  # heal or shield when about to fall
        return play if play >= 0 else S.PASS
    if ph == Phase.FATE_TARGET:  # the weakest opponent
        best = _weakest_target(obs, mask)
        if best >= 0:
            return best
    if ph == Phase.ASSIGN:  # R50: the lowest die to the die-dependent Faithful
        best, bv = -1, 99.0
        for a in range(S.PICK_DIE_A, S.PICK_DIE_A + 2 * S.MAX_DICE):
            die = obs[O_COMBAT + CB_DICE + a - S.PICK_DIE_A]
            if mask[a] and die < bv:
                best, bv = a, die
        return best
    if ph == Phase.COVER_RELIC and _returning_for(obs) >= 0:
        best = _return_cover(obs, mask)
        if best >= 0:
            return best
    if ph == Phase.COVER_RELIC or ph == Phase.COVER_FAITHFUL:
        for a in range(S.SPOT, S.SPOT + 2 * S.SPOTS):
            if mask[a]:
                return a
    return random_legal(mask, rng)


__all__ = ["act_one", "G_DOORS", "G_PRESENT", "G_STATIONS"]
