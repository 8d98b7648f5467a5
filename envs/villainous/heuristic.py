"""A Villainous heuristic policy that reads only the observation (no hidden state).

It pursues its villain's objective (RULES.md section 17 measures it against random):

- Scar: Allies to the Heroes' locations, Stampede to Mufasa, Vanquish Mufasa first, then
  every Hero it can (each one feeds the Succession pile); Feeding Frenzy once Mufasa is there;
  Long Live the King while Mufasa is out of reach (later: while no Hero can be defeated),
  its Hero where the covered top symbols cost least.
- Yzma: Kronk with the Dagger or an Imperial Guards at one location, Kuzco moved there
  (Move a Hero, Fake Funeral) or they to him, then the Vanquish of Kuzco with Kronk; never
  a Vanquish of Kuzco without Kronk; Right-Hand Man fetches Kronk; Eavesdrop finds Kuzco
  (played at Kronk's location) when Kronk is on the table or in hand.
- Ratigan: Gears first, Buckingham Palace unlocked, Power saved for The Robot Queen, played
  at the Palace (or moved there); once flipped, Basil defeated.

Each turn it moves to the location whose visible symbols are worth most now (a Vanquish it
can make, a card it wants and can afford with the Power gained there, Power itself, then
Fate), takes Power first, then Play, moves, Vanquish, Fate, and discards dead cards while
it still looks for its key card. Against an opponent it picks the Fate card that hurts that
villain's objective most and puts Heroes where they cover the best symbols, away from the
opponent's Allies; it Fates the leading opponent (most Power plus objective progress).
"""

from __future__ import annotations

import numpy as np

from fatezoo.envs.core.jit import njit
from fatezoo.envs.core.kernels import random_legal

from . import state as S
from .encode import (
    EN_C0,
    EN_REALM,
    EN_STEP,
    ENTRY_STEPS,
    FCOPY_SCALE,
    ME,
    O_EKIND,
    O_ENTRY,
    O_FT,
    O_HAND,
    O_HS,
    O_LOCKED,
    O_MOVER,
    O_OBJ,
    O_PHASE,
    O_PILES,
    O_PK,
    O_POWER,
    O_RF,
    O_RV,
    O_SEATS,
    O_SUCC,
    O_VIL,
    OB_FLIP,
    OB_PALACE,
    OB_QUEEN,
    OBJ_PARTS,
    POWER_SCALE,
    STR_SCALE,
    SUCC_SIZE,
    SUCC_STR,
    VCOPY_SCALE,
)


def _vt(villain, name):
    for lt in range(S.NVL):
        t = S.VLOC[villain, lt]
        if t >= 0 and S.VNAME[t] == name:
            return int(t)
    raise KeyError(name)


# card values when played by their owner (before the state adjustments in card_value)
CARD_VALUE = np.zeros(len(S.V_COST), np.float64)
for _v, _name, _val in (
        (S.SCAR, "Hungry Hyena", 4.0), (S.SCAR, "Long Live the King", 0.0),
        (S.SCAR, "Be Prepared", 3.0), (S.SCAR, "Stick with Me", 0.5), (S.SCAR, "Whisper", 0.5),
        (S.SCAR, "Feeding Frenzy", 2.0), (S.SCAR, "Stampede", 5.0), (S.SCAR, "Banzai", 4.0),
        (S.SCAR, "Ed", 3.0), (S.SCAR, "Shenzi", 4.0),
        (S.YZMA, "After Them!", 1.0), (S.YZMA, "Eavesdrop", 0.0), (S.YZMA, "Imperial Guards", 4.0),
        (S.YZMA, "Smash It with a Hammer", 2.0), (S.YZMA, "A Cruel Irony", 0.5),
        (S.YZMA, "Beauty Sleep", 2.5), (S.YZMA, "Fake Funeral", 0.5),
        (S.YZMA, "Finish the Job", 1.0), (S.YZMA, "Right-Hand Man", 2.0),
        (S.YZMA, "The Path That Rocks", 2.0), (S.YZMA, "Dagger", 5.0), (S.YZMA, "Kronk", 8.0),
        (S.RATIGAN, "Gears", 6.0), (S.RATIGAN, "Capture", 1.5), (S.RATIGAN, "Ruffians", 1.5),
        (S.RATIGAN, "Greatest Criminal Mind", 4.0), (S.RATIGAN, "Marvelous Trap", 1.0),
        (S.RATIGAN, "Uniform", 1.0), (S.RATIGAN, "Airship", 1.0), (S.RATIGAN, "Bartholomew", 2.5),
        (S.RATIGAN, "Bell", 0.5), (S.RATIGAN, "Felicia", 1.5), (S.RATIGAN, "Fidget", 3.0),
        (S.RATIGAN, "Fidget's List", 1.0), (S.RATIGAN, "Royal Robes", 0.5),
        (S.RATIGAN, "The Robot Queen", 4.0), (S.RATIGAN, "Tools", 3.0)):
    CARD_VALUE[_vt(_v, _name)] = _val
# cards worth discarding (Discard Cards) while Yzma or Ratigan looks for a key card
DEAD = np.zeros(len(S.V_COST), np.bool_)
for _v, _name in ((S.YZMA, "A Cruel Irony"), (S.YZMA, "After Them!"), (S.YZMA, "Finish the Job"),
                  (S.RATIGAN, "Capture"), (S.RATIGAN, "Uniform"), (S.RATIGAN, "Airship"),
                  (S.RATIGAN, "Bell"), (S.RATIGAN, "Ruffians"), (S.RATIGAN, "Marvelous Trap")):
    DEAD[_vt(_v, _name)] = True
STAMPEDE = _vt(S.SCAR, "Stampede")
FEEDING = _vt(S.SCAR, "Feeding Frenzy")
GEARS = _vt(S.RATIGAN, "Gears")
UNLOCK_LIST = _vt(S.RATIGAN, "Fidget's List")
ROBES = _vt(S.RATIGAN, "Royal Robes")
RIGHT_HAND = _vt(S.YZMA, "Right-Hand Man")
FAKE_FUNERAL = _vt(S.YZMA, "Fake Funeral")
FINISH_JOB = _vt(S.YZMA, "Finish the Job")
AFTER_THEM = _vt(S.YZMA, "After Them!")
MARVELOUS = _vt(S.RATIGAN, "Marvelous Trap")
LONG_LIVE = _vt(S.SCAR, "Long Live the King")
EAVESDROP = _vt(S.YZMA, "Eavesdrop")

# the four vanquish/placement "keys" of Yzma: Kronk and his helpers
L_KRONK = int(S.V_LOCAL[S.KRONK])
L_DAGGER = int(S.V_LOCAL[S.DAGGER])
L_GUARDS = int(S.V_LOCAL[S.GUARDS])
L_QUEEN = int(S.V_LOCAL[S.QUEEN])
L_GEARS = int(S.V_LOCAL[GEARS])
L_MUFASA = int(S.F_LOCAL[S.MUFASA])
L_KUZCO = int(S.F_LOCAL[S.KUZCO])
L_BASIL = int(S.F_LOCAL[S.BASIL])

# symbol order within a turn (higher first): Power pays for the Play; moves set up the
# Vanquish; Fate last but one; Discard (only of dead cards) last
ORDER = np.zeros(10, np.float64)
ORDER[S.S_POWER1:S.S_POWER3 + 1] = 9.0
ORDER[S.S_PLAY] = 8.0
ORDER[S.S_ACTIVATE] = 7.0
ORDER[S.S_MOVE_HERO] = 6.0
ORDER[S.S_MOVE_IA] = 5.5
ORDER[S.S_VANQUISH] = 5.0
ORDER[S.S_FATE] = 4.0
ORDER[S.S_DISCARD] = 3.0


# ---------------------------------------------------------------- reading the observation

@njit(cache=True)
def argmax_block(obs, o, k):
    """Index of the largest of ``obs[o : o + k]``."""
    best, j = -1.0, 0
    for i in range(k):
        if obs[o + i] > best:
            best, j = obs[o + i], i
    return j


@njit(cache=True)
def vil_of(obs, r):
    """Villain of relative seat ``r``."""
    return argmax_block(obs, O_VIL + r * S.NUM_VILLAINS, S.NUM_VILLAINS)


@njit(cache=True)
def n_v(obs, r, loc, lt):
    """Number of villain cards of local type ``lt`` below ``loc`` of relative seat ``r``."""
    return int(obs[O_RV + (r * S.NUM_LOCS + loc) * S.NVL + lt] * VCOPY_SCALE + 0.5)


@njit(cache=True)
def n_f(obs, r, loc, lt):
    """Number of Fate cards of local type ``lt`` above ``loc`` of relative seat ``r``."""
    return int(obs[O_RF + (r * S.NUM_LOCS + loc) * S.NFL + lt] * FCOPY_SCALE + 0.5)


@njit(cache=True)
def n_hand(obs, lt):
    """Number of cards of local type ``lt`` in my hand."""
    return int(obs[O_HAND + lt] * VCOPY_SCALE + 0.5)


@njit(cache=True)
def power_of(obs, r):
    """Power of relative seat ``r`` (20 reads as 20 or more)."""
    return float(int(obs[O_POWER + r] * POWER_SCALE + 0.5))


@njit(cache=True)
def heroes_here(obs, r, v, loc):
    """Number of Heroes at ``loc`` of relative seat ``r`` (villain ``v``)."""
    k = 0
    for lt in range(S.NFL):
        t = S.FLOC[v, lt]
        if t >= 0 and S.F_KIND[t] == S.K_HERO:
            k += n_f(obs, r, loc, lt)
    return k


@njit(cache=True)
def hero_strength(obs, r, loc, lt):
    """Current Strength of the strongest Hero of local type ``lt`` there."""
    return int(obs[O_HS + (r * S.NUM_LOCS + loc) * S.NFL + lt] * STR_SCALE + 0.5)


@njit(cache=True)
def reach(obs, r, v, loc, kronk):
    """Vanquish total of seat ``r``'s Allies at ``loc`` (Kronk only if ``kronk``)."""
    allies = 0
    total = 0
    aura = 0
    minus = 0
    bonus = 0
    for lt in range(S.NFL):
        t = S.FLOC[v, lt]
        if t >= 0 and S.F_KIND[t] == S.K_HERO and S.F_EFF[t] == S.E_HERO_ALLY_MINUS and n_f(
                obs, r, loc, lt) > 0:
            minus += 1
    for lt in range(S.NVL):
        t = S.VLOC[v, lt]
        if t < 0:
            continue
        k = n_v(obs, r, loc, lt)
        if k == 0:
            continue
        if S.V_KIND[t] == S.K_ITEM and S.V_EFF[t] == S.E_STR_BONUS:
            bonus += k * S.V_A[t]
        if S.V_KIND[t] != S.K_ALLY or (t == S.KRONK and not kronk):
            continue
        allies += k
        s = S.V_STR[t]
        if S.V_EFF[t] == S.E_PACK:
            s += S.V_A[t] * (k - 1)
        total += k * s
        if S.V_EFF[t] == S.E_ALLY_AURA:
            aura += S.V_A[t]
    if allies == 0:
        return 0
    total += aura * (allies - 1) - minus * allies + bonus
    return max(total, 0)


@njit(cache=True)
def kronk_ready(obs, v, loc):
    """Yzma's Kronk at ``loc`` with the Dagger or an Imperial Guards."""
    return v == S.YZMA and n_v(obs, ME, loc, L_KRONK) > 0 and (
        n_v(obs, ME, loc, L_DAGGER) > 0 or n_v(obs, ME, loc, L_GUARDS) > 0)


@njit(cache=True)
def mufasa_in(obs, r):
    """Whether Mufasa is in seat ``r``'s Succession pile."""
    return obs[O_SUCC + r * SUCC_SIZE + L_MUFASA] > 0


@njit(cache=True)
def vanquish_value(obs, v, lt):
    """How much defeating my Hero of local type ``lt`` is worth."""
    t = S.FLOC[v, lt]
    # a Hero that does not advance the objective stays: out of the Fate deck (or Yzma's
    # piles) it leaves the objective's Hero likelier to be revealed to an opponent's Fate
    if v == S.SCAR:
        if t == S.MUFASA or mufasa_in(obs, ME):
            return 10.0 + S.F_STR[t]
        return 0.0
    if v == S.YZMA:
        return -5.0 if t == S.KUZCO else 0.0
    if obs[O_OBJ + OB_FLIP] > 0 and t == S.BASIL:
        return 100.0
    return 2.0


@njit(cache=True)
def best_vanquish(obs, v, loc):
    """(value, local Hero type) of the best Vanquish at my ``loc`` (value 0: none)."""
    best, pick = 0.0, -1
    for lt in range(S.NFL):
        t = S.FLOC[v, lt]
        if t < 0 or S.F_KIND[t] != S.K_HERO or n_f(obs, ME, loc, lt) == 0:
            continue
        hs = hero_strength(obs, ME, loc, lt)
        if t == S.KUZCO and v == S.YZMA:
            if kronk_ready(obs, v, loc) and reach(obs, ME, v, loc, True) >= hs:
                val = 100.0
            else:
                continue
        else:
            if reach(obs, ME, v, loc, False) < hs or reach(obs, ME, v, loc, False) == 0:
                continue
            val = vanquish_value(obs, v, lt)
        if val > best:
            best, pick = val, lt
    return best, pick


@njit(cache=True)
def hero_loc_of(obs, r, v, lt):
    """Location of a Hero of local type ``lt`` (-1: not in the Realm)."""
    for loc in range(S.NUM_LOCS):
        if n_f(obs, r, loc, lt) > 0:
            return loc
    return -1


@njit(cache=True)
def vcard_loc_of(obs, r, lt):
    """Location of a villain card of local type ``lt`` (-1: none below a location)."""
    for loc in range(S.NUM_LOCS):
        if n_v(obs, r, loc, lt) > 0:
            return loc
    return -1


@njit(cache=True)
def queen_cost_obs(obs):
    """My Robot Queen's Cost."""
    return float(int(obs[O_OBJ + OB_QUEEN] * S.QUEEN_COST + 0.5))


@njit(cache=True)
def palace_open(obs):
    """Whether my Buckingham Palace is unlocked."""
    return obs[O_LOCKED + S.PALACE] == 0


@njit(cache=True)
def card_value(obs, v, t, power):
    """What playing my villain card ``t`` is worth now (< 0: keep it)."""
    val = CARD_VALUE[t]
    if v == S.SCAR:
        if t == STAMPEDE and hero_loc_of(obs, ME, v, L_MUFASA) >= 0:
            val = 12.0
        elif t == FEEDING and mufasa_in(obs, ME):
            val = 9.0
        elif t == LONG_LIVE:
            val = 5.0 if scar_needs_hero(obs, v) else 0.0
    elif v == S.YZMA:
        has_kronk = vcard_loc_of(obs, ME, L_KRONK) >= 0 or n_hand(obs, L_KRONK) > 0
        kz, ready = yzma_setup(obs, v)
        if t == EAVESDROP:
            # Kuzco to Kronk (on the table, or in my hand to be played next)
            val = 7.0 if kz < 0 and (vcard_loc_of(obs, ME, L_KRONK) >= 0
                                     or n_hand(obs, L_KRONK) > 0) else 0.0
        elif t == RIGHT_HAND or t == FINISH_JOB:
            # once Kronk is found these only clog the hand (kept, they stop the draw)
            if has_kronk:
                val = 0.0
            elif t == RIGHT_HAND:
                val = 6.0
            else:
                val = 2.5
        elif t == FAKE_FUNERAL:
            # kept for Kuzco (junk() never discards it); played once he can meet Kronk
            val = 7.0 if kz >= 0 and vcard_loc_of(obs, ME, L_KRONK) >= 0 and kz != ready \
                else 0.0
        elif t == AFTER_THEM:
            # Kronk and an Imperial Guards to Kuzco's location (Fake Funeral moves him)
            val = 6.0 if kz >= 0 and vcard_loc_of(obs, ME, L_KRONK) >= 0 and ready < 0 \
                and n_hand(obs, int(S.V_LOCAL[FAKE_FUNERAL])) == 0 else 0.5
    elif v == S.RATIGAN:
        if obs[O_OBJ + OB_FLIP] > 0:  # flipped: Basil is the objective
            if t == MARVELOUS:
                val = 8.0
        else:
            if (t == UNLOCK_LIST or t == ROBES) and not palace_open(obs):
                val = 7.0
            if t == S.QUEEN:
                val = 30.0 if palace_open(obs) else 3.0
            # save Power for The Robot Queen once she is in hand
            if t != S.QUEEN and t != GEARS and t != UNLOCK_LIST and t != ROBES and S.V_COST[t] > 0 \
                    and n_hand(obs, L_QUEEN) > 0 and power - S.V_COST[t] < queen_cost_obs(obs):
                val = -1.0
    e = S.V_EFF[t]
    if S.V_KIND[t] == S.K_EFFECT and (e == S.E_DEFEAT_HERO_LE or e == S.E_MOVE_HERO_ANY
                                  or e == S.E_DISCARD_FATE_ITEM):
        heroes = 0
        for loc in range(S.NUM_LOCS):
            heroes += heroes_here(obs, ME, v, loc)
        if heroes == 0:
            val = 0.0
    return val


@njit(cache=True)
def best_play(obs, v, power):
    """Value of the best card of my hand I can pay for with ``power``."""
    best = 0.0
    for lt in range(S.NVL):
        t = S.VLOC[v, lt]
        if t < 0 or n_hand(obs, lt) == 0 or S.V_KIND[t] == S.K_CONDITION:
            continue
        cost = queen_cost_obs(obs) if t == S.QUEEN else S.V_COST[t]
        if cost > power + 1e-6:
            continue
        best = max(best, card_value(obs, v, t, power))
    return best


@njit(cache=True)
def chosen_card(obs, v, power, free):
    """The Ally or Item that step 0 of a Play (``free``: Be Prepared) picked.

    The best one of my hand that I can pay for (-1 if none).
    """
    best, pick = -1e18, -1
    for lt in range(S.NVL):
        t = S.VLOC[v, lt]
        if t < 0 or n_hand(obs, lt) == 0:
            continue
        if free:
            if S.V_KIND[t] != S.K_ALLY:
                continue
        else:
            if S.V_KIND[t] != S.K_ALLY and S.V_KIND[t] != S.K_ITEM:
                continue
            cost = queen_cost_obs(obs) if t == S.QUEEN else S.V_COST[t]
            if cost > power + 1e-6:
                continue
        val = card_value(obs, v, t, power)
        if val > best:
            best, pick = val, t
    return pick


@njit(cache=True)
def looking_for_key(obs, v):
    """Yzma without Kronk, or Ratigan without The Robot Queen (Discard cycles the deck)."""
    if v == S.YZMA:
        return vcard_loc_of(obs, ME, L_KRONK) < 0 and n_hand(obs, L_KRONK) == 0
    if v == S.RATIGAN and obs[O_OBJ + OB_FLIP] == 0:
        return vcard_loc_of(obs, ME, L_QUEEN) < 0 and n_hand(obs, L_QUEEN) == 0
    return False


@njit(cache=True)
def junk(obs, v, t):
    """Whether my hand card ``t`` is worth discarding.

    A dead card while I look for my key card, a Condition, or a card that is worth nothing
    now (its target is missing).
    """
    if S.V_KIND[t] == S.K_CONDITION:
        return True
    if t == FAKE_FUNERAL and n_hand(obs, int(S.V_LOCAL[FAKE_FUNERAL])) == 1:
        return False  # Yzma's one way to bring Kuzco to Kronk: one copy stays
    if (t == LONG_LIVE or t == EAVESDROP) and n_hand(obs, int(S.V_LOCAL[t])) == 1:
        return False  # the objective's Hero into my Realm later: one copy stays
    if DEAD[t] and looking_for_key(obs, v):
        return True
    return card_value(obs, v, t, 20.0) <= 0.5


@njit(cache=True)
def dead_cards(obs, v):
    """Number of cards worth discarding in my hand."""
    k = 0
    for lt in range(S.NVL):
        t = S.VLOC[v, lt]
        if t >= 0 and junk(obs, v, t):
            k += n_hand(obs, lt)
    return k


@njit(cache=True)
def scar_needs_hero(obs, v):
    """Scar wants a Hero from his Fate deck (Long Live the King).

    While Mufasa is neither defeated nor in the Realm; after Mufasa, when no Hero in the
    Realm can be vanquished now.
    """
    if not mufasa_in(obs, ME):
        return hero_loc_of(obs, ME, v, L_MUFASA) < 0
    for loc in range(S.NUM_LOCS):
        val, _ = best_vanquish(obs, v, loc)
        if val > 0.0:
            return False
    return True


@njit(cache=True)
def yzma_setup(obs, v):
    """(Kuzco's location, the location where Kronk is ready): -1 where absent."""
    kz = hero_loc_of(obs, ME, v, L_KUZCO)
    ready = -1
    for loc in range(S.NUM_LOCS):
        if kronk_ready(obs, v, loc):
            ready = loc
    return kz, ready


@njit(cache=True)
def move_hero_value(obs, v):
    """Worth of a Move a Hero action (adjacent).

    Kuzco next to a ready Kronk; any Hero onto Allies that can defeat it.
    """
    if v == S.YZMA:
        kz, ready = yzma_setup(obs, v)
        if kz >= 0 and ready >= 0 and abs(kz - ready) == 1:
            return 30.0
        return 0.0
    best = 0.0
    for loc in range(S.NUM_LOCS):
        for d in (loc - 1, loc + 1):
            if d < 0 or d >= S.NUM_LOCS or obs[O_LOCKED + d] > 0:
                continue
            for lt in range(S.NFL):
                t = S.FLOC[v, lt]
                if t < 0 or S.F_KIND[t] != S.K_HERO or n_f(obs, ME, loc, lt) == 0:
                    continue
                if reach(obs, ME, v, d, False) >= hero_strength(obs, ME, loc, lt) and reach(
                        obs, 0, v, d, False) > 0:
                    best = max(best, 0.5 * vanquish_value(obs, v, lt))
    return best


@njit(cache=True)
def move_ia_value(obs, v):
    """Worth of a Move an Item or Ally action.

    The Robot Queen next to the Palace; Yzma's Kronk or helpers next to Kuzco.
    """
    if v == S.RATIGAN and obs[O_OBJ + OB_FLIP] == 0:
        q = vcard_loc_of(obs, ME, L_QUEEN)
        if q >= 0 and q != S.PALACE and palace_open(obs) and abs(q - S.PALACE) == 1:
            return 40.0
    if v == S.YZMA:
        kz, ready = yzma_setup(obs, v)
        if kz >= 0 and ready < 0:
            for lt in (L_KRONK, L_DAGGER, L_GUARDS):
                q = vcard_loc_of(obs, ME, lt)
                if q >= 0 and q != kz and abs(q - kz) == 1:
                    return 8.0
    return 0.0


@njit(cache=True)
def threat(obs, r):
    """Whether opponent ``r`` is close to its objective (as the observation shows it)."""
    q = vil_of(obs, r)
    if q == S.SCAR:
        return mufasa_in(obs, r)
    if q == S.YZMA:
        return hero_loc_of(obs, r, q, L_KUZCO) >= 0 and vcard_loc_of(obs, r, L_KRONK) >= 0
    o = O_OBJ + r * len(OBJ_PARTS)
    if obs[o + OB_FLIP] > 0:  # flipped: Basil in the Realm
        return hero_loc_of(obs, r, q, L_BASIL) >= 0
    if vcard_loc_of(obs, r, L_QUEEN) >= 0:
        return True
    return obs[o + OB_PALACE] > 0 and power_of(obs, r) + 4.0 >= obs[o + OB_QUEEN] * S.QUEEN_COST


@njit(cache=True)
def any_threat(obs):
    """Whether some opponent in the game is close to its objective."""
    for r in range(1, S.MAX_P):
        if obs[O_SEATS + r] > 0 and threat(obs, r):
            return True
    return False


@njit(cache=True)
def symbol_value(obs, v, sym, power):
    """Worth of taking symbol ``sym``'s action this turn.

    ``power``: my Power after this location's Power actions.
    """
    if sym <= S.S_POWER3:
        w = 1.5 if v == S.RATIGAN else 1.0
        return w * (sym - S.S_POWER1 + 1)
    if sym == S.S_PLAY:
        return best_play(obs, v, power)
    if sym == S.S_VANQUISH:
        best = 0.0
        for loc in range(S.NUM_LOCS):
            val, _ = best_vanquish(obs, v, loc)
            best = max(best, val)
        return best
    if sym == S.S_FATE:
        if v == S.RATIGAN:
            return 1.5
        # Scar and Yzma need the opponents' Fates (Mufasa, Kuzco): every Hero played into
        # an opponent's Realm may cover a FATE symbol there, so they Fate only an opponent
        # close to its objective
        return 3.0 if any_threat(obs) else 0.0
    if sym == S.S_ACTIVATE:
        return 0.5
    if sym == S.S_MOVE_HERO:
        return move_hero_value(obs, v)
    if sym == S.S_MOVE_IA:
        return move_ia_value(obs, v)
    if sym == S.S_DISCARD:
        return 0.7 * dead_cards(obs, v)
    return 0.0


@njit(cache=True)
def location_value(obs, v, loc):
    """Worth of moving to ``loc``: its visible symbols (top ones covered by Heroes)."""
    lo = 2 if heroes_here(obs, ME, v, loc) > 0 else 0
    power = power_of(obs, ME)
    for k in range(lo, 4):
        sym = S.LOC_SYM[v, loc, k]
        if sym <= S.S_POWER3:
            power += sym - S.S_POWER1 + 1
    val = 0.0
    for k in range(lo, 4):
        val += max(0.0, symbol_value(obs, v, S.LOC_SYM[v, loc, k], power))
    return val


# ---------------------------------------------------------------- placing cards

@njit(cache=True)
def place_value(obs, v, t, loc):
    """Worth of putting my Ally or Item ``t`` below my ``loc``."""
    if v == S.RATIGAN:
        if t == S.QUEEN:
            if loc == S.PALACE:
                return 100.0
            return 10.0 - abs(loc - S.PALACE)
        if t == GEARS or S.V_KIND[t] == S.K_ITEM and S.V_EFF[t] != S.E_STR_BONUS:
            return 1.0 if loc != S.PALACE else 0.5
    if v == S.YZMA and (t == S.KRONK or t == S.DAGGER or t == S.GUARDS):
        kz = hero_loc_of(obs, ME, v, L_KUZCO)
        if kz >= 0:
            return 50.0 if loc == kz else 10.0 - abs(loc - kz)
        val = 0.0
        for lt in (L_KRONK, L_DAGGER, L_GUARDS):
            val += 5.0 * n_v(obs, ME, loc, lt)
        return val + (1.0 if loc == 1 else 0.0)
    if v == S.SCAR and t == STAMPEDE:
        m = hero_loc_of(obs, ME, v, L_MUFASA)
        if m >= 0:
            return 50.0 if loc == m else 0.0
    # an Ally (or a Vanquish bonus): where it makes a Vanquish possible, then where Heroes are
    val = 0.0
    if heroes_here(obs, ME, v, loc) > 0:
        add = S.V_STR[t] if S.V_KIND[t] == S.K_ALLY else S.V_A[t]
        if S.V_EFF[t] == S.E_PACK:
            add += n_v(obs, ME, loc, int(S.V_LOCAL[t])) * 2
        base = reach(obs, ME, v, loc, False)
        for lt in range(S.NFL):
            ft = S.FLOC[v, lt]
            if ft < 0 or S.F_KIND[ft] != S.K_HERO or n_f(obs, ME, loc, lt) == 0:
                continue
            if v == S.YZMA and ft == S.KUZCO:
                continue
            if base + add >= hero_strength(obs, ME, loc, lt):
                val = max(val, 5.0 + vanquish_value(obs, v, lt))
            else:
                val = max(val, 2.0)
    val += 0.3 * reach(obs, ME, v, loc, True)
    return val


@njit(cache=True)
def top_value_for(v, loc):
    """How much a Hero at ``loc`` hurts villain ``v`` (the top symbols it covers)."""
    val = 0.0
    for k in range(2):
        sym = S.LOC_SYM[v, loc, k]
        if sym <= S.S_POWER3:
            val += sym - S.S_POWER1 + 1
        elif sym == S.S_PLAY or sym == S.S_VANQUISH:
            val += 2.5
        elif sym == S.S_FATE or sym == S.S_ACTIVATE:
            val += 1.0
        else:
            val += 0.5
    return val


@njit(cache=True)
def hero_place_value(obs, r, q, t, loc):
    """Worth (to me) of putting opponent ``r``'s (villain ``q``) Hero ``t`` at their ``loc``."""
    val = 0.0
    if heroes_here(obs, r, q, loc) == 0:
        val += top_value_for(q, loc)
    val -= 0.5 * reach(obs, r, q, loc, True)
    if q == S.YZMA and t == S.KUZCO:
        for lt in (L_KRONK, L_DAGGER, L_GUARDS):
            val -= 4.0 * n_v(obs, r, loc, lt)
    if q == S.RATIGAN and loc == S.PALACE:
        val += 1.0
    if vil_of(obs, ME) != S.RATIGAN:  # Scar and Yzma want to be Fated: their FATE stays open
        for k in range(2):
            if S.LOC_SYM[q, loc, k] == S.S_FATE:
                val -= 30.0
    return val


@njit(cache=True)
def fate_card_value(obs, r, q, lt):
    """Worth (to me) of playing opponent ``r``'s (villain ``q``) Fate card ``lt``."""
    t = S.FLOC[q, lt]
    k = S.F_KIND[t]
    if k == S.K_HERO:
        val = S.F_STR[t] * 0.5 + 1.0
        if q == S.SCAR:
            val = -8.0 if t == S.MUFASA else (0.5 if mufasa_in(obs, r) else 1.5)
        if q == S.YZMA and t == S.KUZCO:
            val = -8.0
        if q == S.RATIGAN and t == S.BASIL:
            val = -8.0 if obs[O_OBJ + r * len(OBJ_PARTS) + OB_FLIP] > 0 else 4.0
        return val
    if k == S.K_ITEM:
        return 2.5
    eff = S.F_EFF[t]
    if eff == S.E_DISCARD_ITEM:  # Sabotage: The Robot Queen or Gears
        queen = obs[O_OBJ + r * len(OBJ_PARTS) + OB_QUEEN]
        return 6.0 if queen < 1.0 or vcard_loc_of(obs, r, L_QUEEN) >= 0 else 0.5
    if eff == S.E_DISCARD_ALLY_LE:
        return 3.0
    if eff == S.E_FIND_HERO:
        return 1.0
    return 1.0


# ---------------------------------------------------------------- the decisions

@njit(cache=True)
def best_masked(mask, o, k, vals):
    """The action ``o + i`` of largest ``vals[i]`` among the legal ones (-1: none)."""
    best, pick = -1e18, -1
    for i in range(k):
        if mask[o + i] and vals[i] > best:
            best, pick = vals[i], o + i
    return pick


@njit(cache=True)
def entry_realm(obs):
    """Relative seat whose Realm the pending choice is in."""
    return argmax_block(obs, O_ENTRY + EN_REALM, S.MAX_P)


@njit(cache=True)
def entry_c0(obs):
    """The chosen location of the pending choice (-1 if none)."""
    o = O_ENTRY + EN_C0
    for i in range(S.NUM_LOCS):
        if obs[o + i] > 0:
            return i
    return -1


@njit(cache=True)
def entry_step(obs):
    """Step of the pending choice."""
    return argmax_block(obs, O_ENTRY + EN_STEP, ENTRY_STEPS)


@njit(cache=True)
def my_entry(obs, mask, rng, v, kind):
    """A choice in my own Realm."""
    vals = np.zeros(S.NVL, np.float64)
    lvals = np.zeros(4, np.float64)
    fvals = np.zeros(S.NFL, np.float64)
    step = entry_step(obs)
    power = power_of(obs, ME)
    any_loc = mask[S.LOCATION : S.LOCATION + S.NUM_LOCS].any()
    any_v = False
    for i in range(S.NVL):
        if mask[S.VCARD + i]:
            any_v = True
    if kind == S.K_PLAY or kind == S.E_PLAY_ALLY_FREE or kind == S.E_RETURN_ALLY:
        if any_v:
            for lt in range(S.NVL):
                t = S.VLOC[v, lt]
                if t >= 0:
                    vals[lt] = card_value(obs, v, t, power)
            return best_masked(mask, S.VCARD, S.NVL, vals)
        # step 1: where. The chosen card is not in the observation (it is still in my hand):
        # it is the one step 0 picked from this same hand and Power (same values, same ties)
        t = chosen_card(obs, v, power, kind == S.E_PLAY_ALLY_FREE)
        for loc in range(S.NUM_LOCS):
            lvals[loc] = place_value(obs, v, t, loc) if t >= 0 else 0.0
        return best_masked(mask, S.LOCATION, 4, lvals)
    if kind == S.K_VANQ:
        if step == 0:
            for loc in range(S.NUM_LOCS):
                lvals[loc], _ = best_vanquish(obs, v, loc)
            return best_masked(mask, S.LOCATION, 4, lvals)
        if step == 1:
            loc = entry_c0(obs)
            for lt in range(S.NFL):
                fvals[lt] = -1.0
            if loc >= 0:
                _, pick = best_vanquish(obs, v, loc)
                if pick >= 0:
                    fvals[pick] = 1.0
            return best_masked(mask, S.FCARD, S.NFL, fvals)
        if mask[S.PASS]:
            return S.PASS
        loc = entry_c0(obs)
        kuzco = v == S.YZMA and loc >= 0 and n_f(obs, ME, loc, L_KUZCO) > 0 and kronk_ready(
            obs, v, loc)
        if kuzco and mask[S.VCARD + L_KRONK]:
            return S.VCARD + L_KRONK
        for lt in range(S.NVL):  # strongest first (fewer Allies lost); Yzma keeps her keys
            t = S.VLOC[v, lt]
            if t >= 0:
                vals[lt] = S.V_STR[t]
                if v == S.YZMA and not kuzco and (t == S.KRONK or t == S.GUARDS):
                    vals[lt] -= 20.0
        return best_masked(mask, S.VCARD, S.NVL, vals)
    if kind == S.K_DISCARD:
        for lt in range(S.NVL):
            t = S.VLOC[v, lt]
            if t >= 0 and mask[S.VCARD + lt] and junk(obs, v, t):
                return S.VCARD + lt
        return S.PASS
    if kind == S.K_MOVE_H or kind == S.E_MOVE_HERO_ANY or kind == S.E_MOVE_HERO_FROM_HERE \
            or kind == S.E_MOVE_NAMED_HERO:
        if any_loc and step == 0 and kind not in (S.E_MOVE_NAMED_HERO, S.E_MOVE_HERO_FROM_HERE):
            # the source: a Hero I want moved (Kuzco for Yzma), else the one covering most
            for loc in range(S.NUM_LOCS):
                lvals[loc] = top_value_for(v, loc)
                if v == S.YZMA and n_f(obs, ME, loc, L_KUZCO) > 0:
                    lvals[loc] += 50.0
                if v == S.SCAR and n_f(obs, ME, loc, L_MUFASA) > 0:
                    lvals[loc] += 20.0
            return best_masked(mask, S.LOCATION, 4, lvals)
        # a Fate card to move, if one is offered (best_masked skips the illegal ones)
        for lt in range(S.NFL):
            t = S.FLOC[v, lt]
            if t >= 0:
                fvals[lt] = S.F_STR[t] + (50.0 if t == S.KUZCO or t == S.MUFASA else 0.0)
        a = best_masked(mask, S.FCARD, S.NFL, fvals)
        if a >= 0:
            return a
        # the destination: a ready Kronk, else Allies that can defeat it, never a good top
        kz, ready = yzma_setup(obs, v)
        for loc in range(S.NUM_LOCS):
            lvals[loc] = reach(obs, ME, v, loc, True) - 0.5 * top_value_for(v, loc)
            if v == S.YZMA and loc == ready:
                lvals[loc] += 100.0
            if v == S.YZMA and n_v(obs, ME, loc, L_KRONK) > 0:
                lvals[loc] += 20.0
        return best_masked(mask, S.LOCATION, 4, lvals)
    if kind == S.K_MOVE_IA or kind == S.E_MOVE_ALLY_ANY or kind == S.E_MOVE_ALLY_FROM_HERE:
        if step == 0 and kind != S.E_MOVE_ALLY_FROM_HERE:
            for loc in range(S.NUM_LOCS):
                lvals[loc] = 0.0
                if v == S.RATIGAN and n_v(obs, ME, loc, L_QUEEN) > 0:
                    lvals[loc] = 50.0
                if v == S.YZMA:
                    for lt in (L_KRONK, L_DAGGER, L_GUARDS):
                        lvals[loc] += 5.0 * n_v(obs, ME, loc, lt)
                    if n_f(obs, ME, loc, L_KUZCO) > 0:
                        lvals[loc] -= 40.0
                if heroes_here(obs, ME, v, loc) == 0:
                    lvals[loc] += 1.0
            if mask[S.PASS] and kind == S.E_MOVE_ALLY_ANY:
                # a "one or two" move: stop unless something wants moving
                mx = -1e9
                for loc in range(S.NUM_LOCS):
                    if mask[S.LOCATION + loc]:
                        mx = max(mx, lvals[loc])
                if mx < 5.0:
                    return S.PASS
            return best_masked(mask, S.LOCATION, 4, lvals)
        if any_v:
            for lt in range(S.NVL):
                t = S.VLOC[v, lt]
                if t >= 0:
                    vals[lt] = 1.0
                    if t == S.QUEEN:
                        vals[lt] = 100.0
                    if v == S.YZMA and (t == S.KRONK or t == S.DAGGER or t == S.GUARDS):
                        vals[lt] = 12.0 if t == S.KRONK else 10.0
            return best_masked(mask, S.VCARD, S.NVL, vals)
        kz, ready = yzma_setup(obs, v)
        for loc in range(S.NUM_LOCS):
            lvals[loc] = 0.0
            if v == S.RATIGAN and loc == S.PALACE:
                lvals[loc] = 100.0
            if v == S.YZMA and kz >= 0:
                lvals[loc] = 50.0 if loc == kz else -abs(loc - kz)
            if heroes_here(obs, ME, v, loc) > 0 and v != S.YZMA:
                lvals[loc] += 3.0
        return best_masked(mask, S.LOCATION, 4, lvals)
    if (kind == S.K_FHERO or kind == S.E_FIND_HERO) and any_loc:
        # my own Hero (Long Live the King, Eavesdrop): Kuzco to Kronk; else where its
        # covered top symbols cost least, then where my Allies can defeat it
        kz, ready = yzma_setup(obs, v)
        for loc in range(S.NUM_LOCS):
            lvals[loc] = 0.1 * reach(obs, ME, v, loc, True)
            if heroes_here(obs, ME, v, loc) == 0:
                lvals[loc] -= top_value_for(v, loc)
            if v == S.YZMA and kind == S.E_FIND_HERO:
                if loc == ready:
                    lvals[loc] += 100.0
                if n_v(obs, ME, loc, L_KRONK) > 0:
                    lvals[loc] += 50.0
                for lt in (L_DAGGER, L_GUARDS):
                    lvals[loc] += 5.0 * n_v(obs, ME, loc, lt)
        return best_masked(mask, S.LOCATION, 4, lvals)
    if kind == S.E_DEFEAT_HERE_LE or kind == S.E_DEFEAT_NAMED_HERE:
        mask2 = mask.copy()
        mask2[S.PASS] = 0
        for lt in range(S.NFL):
            fvals[lt] = 1.0
            if v == S.YZMA and S.FLOC[v, lt] == S.KUZCO:
                fvals[lt] = -1.0
        a = best_masked(mask2, S.FCARD, S.NFL, fvals)
        if a >= 0 and fvals[a - S.FCARD] > 0:
            return a
        return S.PASS if mask[S.PASS] else random_legal(mask, rng)
    if any_loc:  # a defeat or another choice of location: the best Hero there
        for loc in range(S.NUM_LOCS):
            for lt in range(S.NFL):
                t = S.FLOC[v, lt]
                if t >= 0 and S.F_KIND[t] == S.K_HERO and n_f(obs, ME, loc, lt) > 0:
                    val = vanquish_value(obs, v, lt) + S.F_STR[t]
                    if v == S.YZMA and t == S.KUZCO:
                        val = -10.0
                    lvals[loc] = max(lvals[loc], val)
        return best_masked(mask, S.LOCATION, 4, lvals)
    for lt in range(S.NFL):  # a Fate card, if one is offered
        t = S.FLOC[v, lt]
        if t >= 0:
            fvals[lt] = S.F_STR[t] + vanquish_value(obs, v, lt)
    a = best_masked(mask, S.FCARD, S.NFL, fvals)
    if a >= 0:
        return a
    mask2 = mask.copy()
    mask2[S.PASS] = 0
    a = random_legal(mask2, rng)
    return a if a >= 0 else random_legal(mask, rng)


@njit(cache=True)
def their_entry(obs, mask, rng, r, kind):
    """A choice I make in opponent ``r``'s Realm (a Fate card played against them)."""
    q = vil_of(obs, r)
    lvals = np.zeros(4, np.float64)
    vals = np.zeros(S.NVL, np.float64)
    fvals = np.zeros(S.NFL, np.float64)
    any_loc = mask[S.LOCATION : S.LOCATION + S.NUM_LOCS].any()
    any_v = False
    for i in range(S.NVL):
        if mask[S.VCARD + i]:
            any_v = True
    any_f = False
    for i in range(S.NFL):
        if mask[S.FCARD + i]:
            any_f = True
    if kind == S.K_FHERO or kind == S.E_FIND_HERO or kind == S.E_PLAY_FROM_FATE_DISCARD \
            or kind == S.E_MOVE_HERO_ANY or kind == S.E_MOVE_NAMED_HERO:
        if any_f:  # which Hero: the strongest (Kuzco away from Kronk)
            for lt in range(S.NFL):
                t = S.FLOC[q, lt]
                if t >= 0:
                    fvals[lt] = S.F_STR[t] + (20.0 if t == S.KUZCO else 0.0)
            return best_masked(mask, S.FCARD, S.NFL, fvals)
        if any_loc:
            step = entry_step(obs)
            if kind == S.E_MOVE_HERO_ANY and step == 0:
                for loc in range(S.NUM_LOCS):  # move the Hero most threatened by their Allies
                    lvals[loc] = reach(obs, r, q, loc, True) + 30.0 * n_f(obs, r, loc, L_KUZCO)
                return best_masked(mask, S.LOCATION, 4, lvals)
            for loc in range(S.NUM_LOCS):
                lvals[loc] = hero_place_value(obs, r, q, S.KUZCO if q == S.YZMA else -1, loc)
            return best_masked(mask, S.LOCATION, 4, lvals)
    if kind == S.K_FITEM:
        if any_f:
            for lt in range(S.NFL):
                t = S.FLOC[q, lt]
                if t >= 0:
                    fvals[lt] = S.F_STR[t] + (20.0 if t == S.KUZCO else 0.0)
            return best_masked(mask, S.FCARD, S.NFL, fvals)
        for loc in range(S.NUM_LOCS):
            lvals[loc] = reach(obs, r, q, loc, True) + 20.0 * n_f(obs, r, loc, L_KUZCO)
        return best_masked(mask, S.LOCATION, 4, lvals)
    if any_v:  # a discard of their card: The Robot Queen, Gears, the strongest Ally
        for lt in range(S.NVL):
            t = S.VLOC[q, lt]
            if t >= 0:
                vals[lt] = S.V_STR[t] + S.V_COST[t]
                if t == S.QUEEN:
                    vals[lt] = 100.0
                if t == GEARS:
                    vals[lt] = 20.0
                if t == S.KRONK or t == S.DAGGER or t == S.GUARDS:
                    vals[lt] += 10.0
        return best_masked(mask, S.VCARD, S.NVL, vals)
    if any_loc:
        sign = -1.0 if kind == S.E_MOVE_ALLY_FROM_HERE else 1.0  # Nala: where it is useless
        for loc in range(S.NUM_LOCS):
            lvals[loc] = sign * reach(obs, r, q, loc, True) + 50.0 * n_v(obs, r, loc, L_QUEEN) \
                + 5.0 * n_v(obs, r, loc, L_GEARS)
            for lt in (L_KRONK, L_DAGGER, L_GUARDS):
                if q == S.YZMA:
                    lvals[loc] += 5.0 * n_v(obs, r, loc, lt)
        return best_masked(mask, S.LOCATION, 4, lvals)
    mask2 = mask.copy()
    mask2[S.PASS] = 0
    a = random_legal(mask2, rng)
    return a if a >= 0 else random_legal(mask, rng)


@njit(cache=True)
def act_one(obs, mask, rng):
    """One heuristic decision from an observation and mask."""
    phase = argmax_block(obs, O_PHASE, S.NUM_PHASES)
    v = vil_of(obs, ME)
    if phase == S.PH_MOVE:
        best, pick = -1e9, -1
        for loc in range(S.NUM_LOCS):
            if mask[S.LOCATION + loc]:
                val = location_value(obs, v, loc)
                if val > best:
                    best, pick = val, S.LOCATION + loc
        if pick >= 0:
            return pick
    elif phase == S.PH_ACT:
        loc = argmax_block(obs, O_MOVER, S.NUM_LOCS)
        power = power_of(obs, ME)
        best, pick = 0.0, S.PASS
        for k in range(4):
            if mask[S.SLOT + k]:
                sym = S.LOC_SYM[v, loc, k]
                if symbol_value(obs, v, sym, power) <= 0.0:
                    continue
                if ORDER[sym] > best:
                    best, pick = ORDER[sym], S.SLOT + k
        return pick
    elif phase == S.PH_TARGET:
        best, pick = -1e9, -1
        for r in range(1, S.MAX_P):
            if mask[S.TARGET + r - 1]:
                lead = obs[O_POWER + r] + 2.0 * obs[O_SUCC + r * SUCC_SIZE + SUCC_STR] + 2.0 * (
                    1.0 - obs[O_OBJ + r * len(OBJ_PARTS) + OB_QUEEN]) * (
                    obs[O_VIL + r * S.NUM_VILLAINS + S.RATIGAN] > 0)
                if lead > best:
                    best, pick = lead, S.TARGET + r - 1
        if pick >= 0:
            return pick
    elif phase == S.PH_PILE:  # Yzma's largest pile not known to hold Kuzco
        r = argmax_block(obs, O_FT, S.MAX_P)
        best, pick = -1e9, -1
        for k in range(S.NUM_LOCS):
            if mask[S.LOCATION + k]:
                val = obs[O_PILES + r * S.NUM_LOCS + k] - 2.0 * obs[
                    O_PK + (r * S.NUM_LOCS + k) * S.NFL + L_KUZCO]
                if val > best:
                    best, pick = val, S.LOCATION + k
        if pick >= 0:
            return pick
    elif phase == S.PH_FPICK:
        r = argmax_block(obs, O_FT, S.MAX_P)
        q = vil_of(obs, r)
        fvals = np.zeros(S.NFL, np.float64)
        for lt in range(S.NFL):
            if S.FLOC[q, lt] >= 0:
                fvals[lt] = fate_card_value(obs, r, q, lt)
        a = best_masked(mask, S.FCARD, S.NFL, fvals)
        if a >= 0:
            return a
    elif phase == S.PH_WINDOW:  # every designed Condition helps its owner: play one
        mask2 = mask.copy()
        mask2[S.PASS] = 0
        a = random_legal(mask2, rng)
        if a >= 0:
            return a
    elif phase == S.PH_ENTRY:
        kind = argmax_block(obs, O_EKIND, S.NUM_ENTRY_KINDS)
        r = entry_realm(obs)
        if r == 0:
            a = my_entry(obs, mask, rng, v, kind)
        else:
            a = their_entry(obs, mask, rng, r, kind)
        if a >= 0 and mask[a]:
            return a
    return random_legal(mask, rng)
