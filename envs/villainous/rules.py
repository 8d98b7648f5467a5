"""Villainous rules (RULES.md) as numba kernels over the rule kit's zones and knowledge.

The turn is a small state machine (``phase``); every action and card ability that needs
choices is an *entry* on a short pending stack (``ent``): its kind (an effect code of the
instruction table, or an action kind), parameters, the Realm it acts on, who decides, its
step and choices. The top entry decides; when it completes it is popped and the one below
resumes; when none is left the turn player is back to choosing actions.
"""

from __future__ import annotations

import numpy as np

from fatezoo.envs.core.jit import njit
from fatezoo.envs.core.kernels import split_rewards
from fatezoo.envs.core.knowledge import (
    UNKNOWN,
    determinize_zones,
    draw_seen,
    look_at_zone,
    reveal_all,
    shuffle_known,
)
from fatezoo.envs.core.rng import next_u32, randint
from fatezoo.envs.core.stack import KIND as EV_KIND
from fatezoo.envs.core.stack import next_responder, stack_pop, stack_push
from fatezoo.envs.core.zones import zone_move_card, zone_push, zone_shuffle, zone_take

from .state import (
    BASIL,
    C_A,
    C_ARG,
    C_C0,
    C_C1,
    C_CARD,
    C_FIN,
    C_KIND,
    C_LEFT,
    C_LOC,
    C_REALM,
    C_STEP,
    C_WHO,
    DAGGER,
    DEPTH,
    E_ALLY_AURA,
    E_DEFEAT_HERE_LE,
    E_DEFEAT_HERO_LE,
    E_DEFEAT_NAMED_HERE,
    E_DISCARD_ALLY_HERE,
    E_DISCARD_ALLY_LE,
    E_DISCARD_FATE_ITEM,
    E_DISCARD_ITEM,
    E_DISCARD_ITEM_HERE,
    E_DRAW,
    E_FETCH_NAMED,
    E_FIND_HERO,
    E_GAIN_POWER,
    E_HERO_ALLY_MINUS,
    E_HERO_MINUS,
    E_ITEM_STR,
    E_LOSE_POWER,
    E_MOVE_ALLY_ANY,
    E_MOVE_ALLY_FROM_HERE,
    E_MOVE_HERO_ANY,
    E_MOVE_HERO_FROM_HERE,
    E_MOVE_NAMED_HERO,
    E_PACK,
    E_PLAY_ALLY_FREE,
    E_PLAY_FROM_FATE_DISCARD,
    E_QUEEN_DISCOUNT,
    E_RETURN_ALLY,
    E_REVEAL_UNTIL_HERO,
    E_SACRIFICE_GAIN,
    E_STR_BONUS,
    E_UNLOCK,
    EV_ARG,
    F_A,
    F_ARG,
    F_EFF,
    F_KIND,
    F_LOCAL,
    F_MUST,
    F_STR,
    F_WHEN,
    FCARD,
    FDECK,
    FDISC,
    FIN_FCARD,
    FIN_NONE,
    FIN_VCARD,
    FLIMBO,
    FLOC,
    FT,
    FZ,
    GUARDS,
    HAND,
    HAND_SIZE,
    HERO0,
    K_ACTIVATE,
    K_ALLY,
    K_CONDITION,
    K_DISCARD,
    K_EFFECT,
    K_FHERO,
    K_FITEM,
    K_HERO,
    K_ITEM,
    K_MOVE_H,
    K_MOVE_IA,
    K_PLAY,
    K_VANQ,
    KRONK,
    KUZCO,
    LIMBO,
    LOC0,
    LOC_LOCKED,
    LOC_SYM,
    LOCATION,
    MAX_P,
    MUFASA,
    NF,
    NF_CAP,
    NUM_FZONES,
    NUM_VZONES,
    NV,
    PALACE,
    PASS,
    PH_ACT,
    PH_ENTRY,
    PH_FPICK,
    PH_MOVE,
    PH_OVER,
    PH_PILE,
    PH_TARGET,
    PH_WINDOW,
    PILE0,
    QUEEN,
    QUEEN_COST,
    RATIGAN,
    REVEAL,
    S_ACTIVATE,
    S_FATE,
    S_MOVE_HERO,
    S_MOVE_IA,
    S_PLAY,
    S_POWER1,
    S_POWER3,
    S_VANQUISH,
    SCAR,
    SLOT,
    START_POWER,
    SUCC,
    SUCCESSION_GOAL,
    T_OPP_FATE_YOU,
    T_OPP_PLAY_ALLY,
    T_OPP_POWER,
    T_OPP_VANQUISH,
    TARGET,
    UNUSED,
    V_A,
    V_ACT,
    V_ARG,
    V_COST,
    V_EFF,
    V_KIND,
    V_LOCAL,
    V_STR,
    V_TRIG,
    V_TRIGA,
    V_WHEN,
    VCARD,
    VDECK,
    VDISC,
    VLOC,
    VT,
    VZ,
    W_ACTIVATE,
    W_MOVE,
    W_PLAY,
    YZMA,
)

# ---------------------------------------------------------------- card and zone helpers


@njit(cache=True)
def vtype(rec, c):
    """Global type of villain card ``c``."""
    return VT[rec["villain"][c // NV], c % NV]


@njit(cache=True)
def ftype(rec, c):
    """Global type of Fate card ``c``."""
    return FT[rec["villain"][c // NF_CAP], c % NF_CAP]


@njit(cache=True)
def vzone(s, z):
    return s * VZ + z


@njit(cache=True)
def fzone(s, z):
    return s * FZ + z


@njit(cache=True)
def vcount(rec, s, z):
    return rec["vz_n"][s * VZ + z]


@njit(cache=True)
def fcount(rec, s, z):
    return rec["fz_n"][s * FZ + z]


@njit(cache=True)
def vcard_at(rec, s, z, i):
    return rec["vz"][s * VZ + z, i]


@njit(cache=True)
def fcard_at(rec, s, z, i):
    return rec["fz"][s * FZ + z, i]


@njit(cache=True)
def find_vtype(rec, s, z, t):
    """Lowest id of a villain card of global type ``t`` in zone ``z`` of seat ``s``, or -1."""
    best = -1
    for i in range(vcount(rec, s, z)):
        c = vcard_at(rec, s, z, i)
        if vtype(rec, c) == t and (best < 0 or c < best):
            best = c
    return best


@njit(cache=True)
def count_vtype(rec, s, z, t):
    k = 0
    for i in range(vcount(rec, s, z)):
        if vtype(rec, vcard_at(rec, s, z, i)) == t:
            k += 1
    return k


@njit(cache=True)
def vmove(rec, s, src, c, dst):
    """Move villain card ``c`` of seat ``s`` between two of its zones."""
    zone_move_card(rec["vz"], rec["vz_n"], s * VZ + src, c, s * VZ + dst)


@njit(cache=True)
def fmove_abs(rec, zsrc, c, zdst):
    """Move Fate card ``c`` between absolute Fate zones."""
    zone_move_card(rec["fz"], rec["fz_n"], zsrc, c, zdst)


@njit(cache=True)
def is_hero(rec, c):
    return F_KIND[ftype(rec, c)] == K_HERO


@njit(cache=True)
def unlocked(rec, s, loc):
    return 0 <= loc < 4 and rec["locked"][s, loc] == 0


@njit(cache=True)
def vloc_of(rec, s, c):
    """Location (0-3) of villain card ``c`` in seat ``s``'s Realm, or -1."""
    for loc in range(4):
        z = s * VZ + LOC0 + loc
        for i in range(rec["vz_n"][z]):
            if rec["vz"][z, i] == c:
                return loc
    return -1


@njit(cache=True)
def items_on(rec, h):
    """Number of Fate Items attached to Hero ``h``."""
    k = 0
    for c in range(rec["attach"].shape[0]):
        if rec["attach"][c] == h:
            k += 1
    return k


# ---------------------------------------------------------------- Strength (R25, R26, R22)


@njit(cache=True)
def heroes_at(rec, s, loc):
    """Number of Heroes at a location."""
    z = s * FZ + HERO0 + loc
    k = 0
    for i in range(rec["fz_n"][z]):
        if is_hero(rec, rec["fz"][z, i]):
            k += 1
    return k


@njit(cache=True)
def ally_str(rec, s, c, loc):
    """Current Strength of Ally ``c`` at ``loc`` (R25)."""
    t = vtype(rec, c)
    v = V_STR[t]
    z = s * VZ + LOC0 + loc
    for i in range(rec["vz_n"][z]):
        d = rec["vz"][z, i]
        if d == c:
            continue
        u = vtype(rec, d)
        if V_EFF[t] == E_PACK and u == t:
            v += V_A[t]
        if V_KIND[u] == K_ALLY and V_EFF[u] == E_ALLY_AURA:
            v += V_A[u]
    hz = s * FZ + HERO0 + loc
    for i in range(rec["fz_n"][hz]):
        h = ftype(rec, rec["fz"][hz, i])
        if F_KIND[h] == K_HERO and F_EFF[h] == E_HERO_ALLY_MINUS:
            v -= F_A[h]
    return max(v, 0)


@njit(cache=True)
def hero_str(rec, s, h, loc):
    """Current Strength of Hero ``h`` at ``loc`` (R26)."""
    v = F_STR[ftype(rec, h)]
    for c in range(s * NF_CAP, (s + 1) * NF_CAP):
        if rec["attach"][c] == h:
            t = ftype(rec, c)
            if F_EFF[t] == E_ITEM_STR:
                v += F_A[t]
    z = s * VZ + LOC0 + loc
    for i in range(rec["vz_n"][z]):
        u = vtype(rec, rec["vz"][z, i])
        if V_KIND[u] == K_ALLY and V_EFF[u] == E_HERO_MINUS:
            v -= V_A[u]
    return max(v, 0)


@njit(cache=True)
def str_bonus(rec, s, loc):
    """Vanquish bonus of the Items at ``loc`` (STR_BONUS)."""
    v = 0
    z = s * VZ + LOC0 + loc
    for i in range(rec["vz_n"][z]):
        u = vtype(rec, rec["vz"][z, i])
        if V_KIND[u] == K_ITEM and V_EFF[u] == E_STR_BONUS:
            v += V_A[u]
    return v


@njit(cache=True)
def kronk_may(rec, s, loc, h):
    """Whether Kronk may take part in a Vanquish of Hero ``h`` at ``loc`` (R63)."""
    if ftype(rec, h) != KUZCO:
        return True
    return find_vtype(rec, s, LOC0 + loc, DAGGER) >= 0 or find_vtype(rec, s, LOC0 + loc,
                                                                     GUARDS) >= 0


@njit(cache=True)
def vanquish_reach(rec, s, loc, h):
    """Total a Vanquish of ``h`` could reach with every eligible Ally at ``loc`` (0: none)."""
    z = s * VZ + LOC0 + loc
    total = 0
    allies = 0
    kronk_ok = kronk_may(rec, s, loc, h)
    for i in range(rec["vz_n"][z]):
        c = rec["vz"][z, i]
        t = vtype(rec, c)
        if V_KIND[t] != K_ALLY or (t == KRONK and not kronk_ok):
            continue
        allies += 1
        total += ally_str(rec, s, c, loc)
    if allies == 0:
        return 0
    return total + str_bonus(rec, s, loc)


@njit(cache=True)
def can_vanquish(rec, s, loc, h):
    reach = vanquish_reach(rec, s, loc, h)
    return reach > 0 and reach >= hero_str(rec, s, h, loc)


@njit(cache=True)
def pick_hero(rec, s, loc, t, mode, a):
    """The Hero of type ``t`` at ``loc`` a choice takes (R34): fewest Items, then lowest id.

    mode 0: any; 1: Strength <= a; 2: can be vanquished; 3: carries an Item.
    """
    z = s * FZ + HERO0 + loc
    best = -1
    best_items = 1 << 20
    for i in range(rec["fz_n"][z]):
        h = rec["fz"][z, i]
        if ftype(rec, h) != t:
            continue
        if mode == 1 and hero_str(rec, s, h, loc) > a:
            continue
        if mode == 2 and not can_vanquish(rec, s, loc, h):
            continue
        k = items_on(rec, h)
        if mode == 3 and k == 0:
            continue
        if k < best_items or (k == best_items and h < best):
            best = h
            best_items = k
    return best


@njit(cache=True)
def any_hero(rec, s, loc, mode, a):
    """Whether some Hero at ``loc`` qualifies (``pick_hero`` modes)."""
    z = s * FZ + HERO0 + loc
    for i in range(rec["fz_n"][z]):
        c = rec["fz"][z, i]
        t = ftype(rec, c)
        if F_KIND[t] == K_HERO and pick_hero(rec, s, loc, t, mode, a) >= 0:
            return True
    return False


@njit(cache=True)
def realm_has_hero(rec, s, mode, a):
    for loc in range(4):
        if any_hero(rec, s, loc, mode, a):
            return True
    return False


@njit(cache=True)
def pick_vcard(rec, s, loc, t, mode, a):
    """Lowest id of a villain card of type ``t`` at ``loc`` (mode 1: Strength <= a)."""
    z = s * VZ + LOC0 + loc
    best = -1
    for i in range(rec["vz_n"][z]):
        c = rec["vz"][z, i]
        if vtype(rec, c) != t:
            continue
        if mode == 1 and ally_str(rec, s, c, loc) > a:
            continue
        if best < 0 or c < best:
            best = c
    return best


@njit(cache=True)
def any_vcard(rec, s, loc, kind, mode, a):
    """Whether a villain card of ``kind`` (-1: Ally or Item) at ``loc`` qualifies."""
    z = s * VZ + LOC0 + loc
    for i in range(rec["vz_n"][z]):
        c = rec["vz"][z, i]
        k = V_KIND[vtype(rec, c)]
        if kind >= 0 and k != kind:
            continue
        if mode == 1 and ally_str(rec, s, c, loc) > a:
            continue
        return True
    return False


@njit(cache=True)
def realm_has_vcard(rec, s, kind, mode, a):
    for loc in range(4):
        if any_vcard(rec, s, loc, kind, mode, a):
            return True
    return False


@njit(cache=True)
def adjacent_open(rec, s, loc):
    """Whether ``loc`` has an adjacent unlocked location."""
    return unlocked(rec, s, loc - 1) or unlocked(rec, s, loc + 1)


@njit(cache=True)
def queen_cost(rec, s):
    """The Robot Queen's Cost for seat ``s`` (R65)."""
    disc = 0
    for loc in range(4):
        z = s * VZ + LOC0 + loc
        for i in range(rec["vz_n"][z]):
            t = vtype(rec, rec["vz"][z, i])
            if V_EFF[t] == E_QUEEN_DISCOUNT:
                disc += V_A[t]
    return max(QUEEN_COST - disc, 0)


@njit(cache=True)
def card_cost(rec, s, t):
    if t == QUEEN:
        return queen_cost(rec, s)
    return V_COST[t]


# ---------------------------------------------------------------- moving cards


@njit(cache=True)
def refill_vdeck(rec, s):
    """R13: an empty villain deck takes its shuffled discard pile."""
    src, dst = s * VZ + VDISC, s * VZ + VDECK
    while rec["vz_n"][src] > 0:
        zone_push(rec["vz"], rec["vz_n"], dst, zone_take(rec["vz"], rec["vz_n"], src,
                                                          rec["vz_n"][src] - 1))
    shuffle_known(rec["vz"], rec["vz_n"], rec["vknown"], rec["num_players"], dst, rec["rng"])


@njit(cache=True)
def draw_card(rec, s):
    """Seat ``s`` draws one villain card (seen by them only); False if none is left."""
    if vcount(rec, s, VDECK) == 0:
        refill_vdeck(rec, s)
    if vcount(rec, s, VDECK) == 0:
        return False
    draw_seen(rec["vz"], rec["vz_n"], rec["vknown"], rec["num_players"], s * VZ + VDECK,
              s * VZ + HAND, s)
    return True


@njit(cache=True)
def discard_vcard(rec, s, src, c):
    """A villain card leaves for its owner's discard pile, face up (R28); R67 flip."""
    vmove(rec, s, src, c, VDISC)
    reveal_all(rec["vknown"], c, rec["num_players"])
    if vtype(rec, c) == QUEEN:
        rec["flip"][s] = 1


@njit(cache=True)
def raise_event(rec, kind, arg):
    """R29: the turn player raised a Condition trigger.

    Its window opens once the action (or card) that raised it has fully resolved.
    """
    i = stack_push(rec["cev"], rec["cev_n"], kind, rec["turn_player"])
    rec["cev"][i, EV_ARG] = arg


@njit(cache=True)
def gain_power(rec, s, k):
    rec["power"][s] += k
    if k > 0 and s == rec["turn_player"]:
        raise_event(rec, T_OPP_POWER, min(rec["power"][s], 20))  # thresholds <= 20


@njit(cache=True)
def lose_power(rec, s, k):
    rec["power"][s] = max(0, rec["power"][s] - k)


@njit(cache=True)
def hero_loc(rec, s, h):
    for loc in range(4):
        z = s * FZ + HERO0 + loc
        for i in range(rec["fz_n"][z]):
            if rec["fz"][z, i] == h:
                return loc
    return -1


@njit(cache=True)
def defeat_hero(rec, s, h):
    """R27/R58: Hero ``h`` leaves the Realm, its Items to the Fate discard pile."""
    loc = hero_loc(rec, s, h)
    z = s * FZ + HERO0 + loc
    for c in range(s * NF_CAP, (s + 1) * NF_CAP):
        if rec["attach"][c] == h:
            rec["attach"][c] = -1
            fmove_abs(rec, z, c, s * FZ + FDISC)
    t = ftype(rec, h)
    dst = FDISC
    if rec["villain"][s] == SCAR:
        if t == MUFASA:
            dst = SUCC
        else:
            for i in range(fcount(rec, s, SUCC)):
                if ftype(rec, fcard_at(rec, s, SUCC, i)) == MUFASA:
                    dst = SUCC
    fmove_abs(rec, z, h, s * FZ + dst)
    if rec["villain"][s] == RATIGAN and rec["flip"][s] and t == BASIL:
        rec["goal"][s] = 1
    if s == rec["turn_player"]:
        raise_event(rec, T_OPP_VANQUISH, 0)


@njit(cache=True)
def move_hero(rec, s, h, dst):
    """Move Hero ``h`` with its Items to ``dst``; its move ability triggers (R21, R49)."""
    src = hero_loc(rec, s, h)
    fmove_abs(rec, s * FZ + HERO0 + src, h, s * FZ + HERO0 + dst)
    for c in range(s * NF_CAP, (s + 1) * NF_CAP):
        if rec["attach"][c] == h:
            fmove_abs(rec, s * FZ + HERO0 + src, c, s * FZ + HERO0 + dst)
    t = ftype(rec, h)
    if F_WHEN[t] == W_MOVE and F_EFF[t] == E_LOSE_POWER:
        lose_power(rec, s, F_A[t])


# ---------------------------------------------------------------- the pending entries


@njit(cache=True)
def push_entry(rec, kind, a, arg, realm, who, card, loc, left, fin):
    n = rec["ent_n"]
    if n >= DEPTH:
        raise IndexError("villainous: pending entries full")
    e = rec["ent"][n]
    e[C_KIND] = kind
    e[C_A] = a
    e[C_ARG] = arg
    e[C_REALM] = realm
    e[C_WHO] = who
    e[C_CARD] = card
    e[C_LOC] = loc
    e[C_LEFT] = left
    e[C_STEP] = 0
    e[C_C0] = -1
    e[C_C1] = -1
    e[C_FIN] = fin
    rec["ent_n"] = n + 1


@njit(cache=True)
def fin_entry(rec, e):
    """The card whose ability the entry was goes to its discard pile."""
    s = e[C_REALM]
    c = e[C_CARD]
    if e[C_FIN] == FIN_VCARD:
        vmove(rec, s, LIMBO, c, VDISC)
    elif e[C_FIN] == FIN_FCARD:
        fmove_abs(rec, FLIMBO, c, s * FZ + FDISC)


@njit(cache=True)
def pop_entry(rec):
    rec["ent_n"] -= 1
    fin_entry(rec, rec["ent"][rec["ent_n"]])
    for j in range(rec["ent"].shape[1]):
        rec["ent"][rec["ent_n"], j] = -1


@njit(cache=True)
def findable(rec, s, t):
    """R52/R53: where Hero type ``t`` can be found.

    1 the Realm, 2 the Fate discard, 3 the Fate deck, 4 + k Yzma's pile k (searched in
    location order 0-3), 0 nowhere (Scar's Succession pile is never searched).
    """
    for loc in range(4):
        z = s * FZ + HERO0 + loc
        for i in range(rec["fz_n"][z]):
            if ftype(rec, rec["fz"][z, i]) == t:
                return 1
    for i in range(fcount(rec, s, FDISC)):
        if ftype(rec, fcard_at(rec, s, FDISC, i)) == t:
            return 2
    for i in range(fcount(rec, s, FDECK)):
        if ftype(rec, fcard_at(rec, s, FDECK, i)) == t:
            return 3
    for k in range(4):
        for i in range(fcount(rec, s, PILE0 + k)):
            if ftype(rec, fcard_at(rec, s, PILE0 + k, i)) == t:
                return 4 + k
    return 0


@njit(cache=True)
def fate_hero_left(rec, s):
    """R53a: a Hero is in the Fate deck or the Fate discard (what a reveal can reach)."""
    for z in (FDECK, FDISC):
        for i in range(fcount(rec, s, z)):
            if is_hero(rec, fcard_at(rec, s, z, i)):
                return True
    return False


@njit(cache=True)
def fetchable(rec, s, t):
    return find_vtype(rec, s, VDISC, t) >= 0 or find_vtype(rec, s, VDECK, t) >= 0


@njit(cache=True)
def has_hand_type(rec, s, kind):
    for i in range(vcount(rec, s, HAND)):
        if V_KIND[vtype(rec, vcard_at(rec, s, HAND, i))] == kind:
            return True
    return False


@njit(cache=True)
def has_disc_ally(rec, s):
    for i in range(vcount(rec, s, VDISC)):
        if V_KIND[vtype(rec, vcard_at(rec, s, VDISC, i))] == K_ALLY:
            return True
    return False


@njit(cache=True)
def has_disc_hero(rec, s):
    for i in range(fcount(rec, s, FDISC)):
        if is_hero(rec, fcard_at(rec, s, FDISC, i)):
            return True
    return False


@njit(cache=True)
def effect_ok(rec, eff, a, arg, s, loc):
    """R17: whether an ability that is an action can resolve fully now (villain cards)."""
    if eff == E_DRAW:
        return vcount(rec, s, VDECK) + vcount(rec, s, VDISC) >= a
    if eff == E_PLAY_ALLY_FREE:
        return has_hand_type(rec, s, K_ALLY)
    if eff == E_MOVE_ALLY_ANY:
        return realm_has_vcard(rec, s, K_ALLY, 0, 0)
    if eff == E_MOVE_HERO_ANY:
        return realm_has_hero(rec, s, 0, 0)
    if eff == E_MOVE_NAMED_HERO:
        return findable(rec, s, arg) == 1
    if eff == E_MOVE_HERO_FROM_HERE:
        return any_hero(rec, s, loc, 0, 0)
    if eff == E_DEFEAT_HERO_LE:
        return realm_has_hero(rec, s, 1, a)
    if eff == E_DISCARD_FATE_ITEM:
        return realm_has_hero(rec, s, 3, 0)
    if eff == E_RETURN_ALLY:
        return has_disc_ally(rec, s)
    if eff == E_FETCH_NAMED:
        return fetchable(rec, s, arg)
    if eff == E_UNLOCK:
        return rec["locked"][s, arg] == 1
    if eff == E_DISCARD_ALLY_LE:
        return realm_has_vcard(rec, s, K_ALLY, 1, a)
    if eff == E_DISCARD_ITEM:
        return realm_has_vcard(rec, s, K_ITEM, 0, 0)
    if eff == E_FIND_HERO:
        return findable(rec, s, arg) > 0
    if eff == E_PLAY_FROM_FATE_DISCARD:
        return has_disc_hero(rec, s)
    if eff == E_REVEAL_UNTIL_HERO:
        return fate_hero_left(rec, s)
    return True


@njit(cache=True)
def fetch_named(rec, s, t):
    """FETCH_NAMED: the card from the discard pile, else from the searched and shuffled deck."""
    n = rec["num_players"]
    c = find_vtype(rec, s, VDISC, t)
    if c >= 0:
        vmove(rec, s, VDISC, c, HAND)
    else:
        look_at_zone(rec["vz"], rec["vz_n"], rec["vknown"], s * VZ + VDECK, s)
        c = find_vtype(rec, s, VDECK, t)
        if c < 0:
            return
        vmove(rec, s, VDECK, c, HAND)
        shuffle_known(rec["vz"], rec["vz_n"], rec["vknown"], n, s * VZ + VDECK, rec["rng"])
    reveal_all(rec["vknown"], c, n)


@njit(cache=True)
def start_effect(rec, eff, a, arg, s, who, card, loc, fin):
    """Resolve an ability: at once if it needs no choice, else as a pending entry."""
    if eff == E_GAIN_POWER:
        gain_power(rec, s, a)
    elif eff == E_LOSE_POWER:
        lose_power(rec, s, a)
    elif eff == E_DRAW:
        for _ in range(a):
            draw_card(rec, s)
    elif eff == E_FETCH_NAMED:
        fetch_named(rec, s, arg)
    elif eff == E_UNLOCK:
        rec["locked"][s, arg] = 0
    elif eff == E_SACRIFICE_GAIN:
        discard_vcard(rec, s, LOC0 + loc, card)
        gain_power(rec, s, a)
    elif eff == E_REVEAL_UNTIL_HERO:
        reveal_until_hero(rec, s, who)
    elif eff in (E_PLAY_ALLY_FREE, E_MOVE_ALLY_ANY, E_MOVE_HERO_ANY, E_MOVE_NAMED_HERO,
                 E_MOVE_HERO_FROM_HERE, E_MOVE_ALLY_FROM_HERE, E_DEFEAT_HERO_LE,
                 E_DEFEAT_HERE_LE, E_DEFEAT_NAMED_HERE, E_DISCARD_FATE_ITEM,
                 E_DISCARD_ALLY_LE, E_DISCARD_ALLY_HERE, E_DISCARD_ITEM, E_DISCARD_ITEM_HERE,
                 E_RETURN_ALLY, E_FIND_HERO, E_PLAY_FROM_FATE_DISCARD):
        push_entry(rec, eff, a, arg, s, who, card, loc, a if eff == E_MOVE_ALLY_ANY else 0,
                   fin)
        return
    if fin != FIN_NONE:  # an Effect card with no choice: to its discard pile
        push_entry(rec, 0, 0, -1, s, who, card, loc, 0, fin)
        pop_entry(rec)


@njit(cache=True)
def trigger_vcard(rec, s, c, loc, when):
    """A villain card's ``when=play`` / ``when=move`` ability (R33, R50, R51)."""
    t = vtype(rec, c)
    if V_WHEN[t] == when:
        start_effect(rec, V_EFF[t], V_A[t], V_ARG[t], s, s, c, loc, FIN_NONE)


@njit(cache=True)
def place_hero(rec, s, h, loc, who):
    """A Hero is played to ``loc`` (from FLIMBO, the discard or the deck); on-play (R48)."""
    reveal_all(rec["fknown"], h, rec["num_players"])
    t = ftype(rec, h)
    if F_WHEN[t] == W_PLAY:
        start_effect(rec, F_EFF[t], F_A[t], F_ARG[t], s, who, h, loc, FIN_NONE)


@njit(cache=True)
def entry_has_choice(rec, e):
    """Whether the pending entry ``e`` has anything to decide (else it is done)."""
    k = e[C_KIND]
    s = e[C_REALM]
    loc = e[C_LOC]
    a = e[C_A]
    if k == E_MOVE_ALLY_ANY:
        return e[C_LEFT] > 0 and realm_has_vcard(rec, s, K_ALLY, 0, 0)
    if k == E_MOVE_HERO_ANY:
        return realm_has_hero(rec, s, 0, 0)
    if k == E_MOVE_NAMED_HERO:
        return findable(rec, s, e[C_ARG]) == 1
    if k == E_MOVE_HERO_FROM_HERE:
        return any_hero(rec, s, loc, 0, 0)
    if k == E_MOVE_ALLY_FROM_HERE:
        if e[C_STEP] == 1:
            return True
        for i in range(vcount(rec, s, LOC0 + loc)):
            if V_KIND[vtype(rec, vcard_at(rec, s, LOC0 + loc, i))] == K_ALLY:
                return adjacent_open(rec, s, loc)
        return False
    if k == E_DEFEAT_HERO_LE:
        return realm_has_hero(rec, s, 1, a)
    if k == E_DEFEAT_HERE_LE:
        return any_hero(rec, s, loc, 1, a)
    if k == E_DEFEAT_NAMED_HERE:
        return pick_hero(rec, s, loc, e[C_ARG], 0, 0) >= 0
    if k == E_DISCARD_FATE_ITEM:
        return realm_has_hero(rec, s, 3, 0)
    if k == E_DISCARD_ALLY_LE:
        return realm_has_vcard(rec, s, K_ALLY, 1, a)
    if k == E_DISCARD_ALLY_HERE:
        return any_vcard(rec, s, loc, K_ALLY, 1, a)
    if k == E_DISCARD_ITEM:
        return realm_has_vcard(rec, s, K_ITEM, 0, 0)
    if k == E_DISCARD_ITEM_HERE:
        return any_vcard(rec, s, loc, K_ITEM, 0, 0)
    if k == E_RETURN_ALLY:
        return has_disc_ally(rec, s)
    if k == E_PLAY_ALLY_FREE:
        return e[C_STEP] == 1 or has_hand_type(rec, s, K_ALLY)
    if k == E_FIND_HERO:
        return findable(rec, s, e[C_ARG]) > 0
    if k == E_PLAY_FROM_FATE_DISCARD:
        return e[C_STEP] == 1 or has_disc_hero(rec, s)
    if k == K_FITEM:
        if loc >= 0:
            return heroes_at(rec, s, loc) > 0
        return realm_has_hero(rec, s, 0, 0)
    if k == K_DISCARD:
        return vcount(rec, s, HAND) > 0
    if k >= K_PLAY:
        return True
    return False


@njit(cache=True)
def resume(rec):
    """Pop finished entries; the top one with a choice decides, else back to the actions."""
    while rec["ent_n"] > 0:
        e = rec["ent"][rec["ent_n"] - 1]
        if entry_has_choice(rec, e):
            rec["phase"] = PH_ENTRY
            rec["current_player"] = e[C_WHO]
            return
        pop_entry(rec)
    rec["fate_target"] = -1
    rec["fate_pile"] = -1
    rec["vq_n"] = 0
    if open_window(rec):
        return
    rec["phase"] = PH_ACT
    rec["current_player"] = rec["turn_player"]


# ---------------------------------------------------------------- Conditions (R29, R54)


@njit(cache=True)
def condition_ok(rec, q, t, kind, arg):
    """Whether villain card type ``t`` is a Condition seat ``q`` may play for an event."""
    if V_KIND[t] != K_CONDITION or V_TRIG[t] != kind:
        return False
    if kind == T_OPP_FATE_YOU:
        if arg != q:
            return False
    elif arg < V_TRIGA[t]:  # Power after the gain, or the Ally's printed Strength
        return False
    return effect_ok(rec, V_EFF[t], V_A[t], V_ARG[t], q, -1)  # R17


@njit(cache=True)
def holds_condition(rec, q, kind, arg):
    for i in range(vcount(rec, q, HAND)):
        if condition_ok(rec, q, vtype(rec, vcard_at(rec, q, HAND, i)), kind, arg):
            return True
    return False


@njit(cache=True)
def open_window(rec):
    """R29: ask the next seat holding a playable Condition for the top event.

    Closes the windows of events nobody (left) can answer; True when a seat is asked.
    """
    n = rec["num_players"]
    t = rec["turn_player"]
    while rec["cev_n"][0] > 0:
        i = rec["cev_n"][0] - 1
        kind = rec["cev"][i, EV_KIND]
        arg = rec["cev"][i, EV_ARG]
        eligible = np.zeros(MAX_P, np.int8)
        for q in range(n):
            if q != t and holds_condition(rec, q, kind, arg):
                eligible[q] = 1
        seat = next_responder(rec["cev"], rec["cev_n"], n, eligible)
        if seat >= 0:
            rec["phase"] = PH_WINDOW
            rec["current_player"] = seat
            return True
        stack_pop(rec["cev"], rec["cev_n"])
        for j in range(rec["cev"].shape[1]):
            rec["cev"][i, j] = 0
    return False


@njit(cache=True)
def play_condition(rec, action):
    """The asked seat plays a Condition (``vcard``) in their own Realm, or passes."""
    if action != PASS:
        q = rec["current_player"]
        i = rec["cev_n"][0] - 1
        kind = rec["cev"][i, EV_KIND]
        arg = rec["cev"][i, EV_ARG]
        t = VLOC[rec["villain"][q], action - VCARD]
        c = -1
        for j in range(vcount(rec, q, HAND)):
            d = vcard_at(rec, q, HAND, j)
            if vtype(rec, d) == t and (c < 0 or d < c) and condition_ok(rec, q, t, kind, arg):
                c = d
        vmove(rec, q, HAND, c, LIMBO)
        reveal_all(rec["vknown"], c, rec["num_players"])
        start_effect(rec, V_EFF[t], V_A[t], V_ARG[t], q, q, c, -1, FIN_VCARD)
    resume(rec)


# ---------------------------------------------------------------- setup and the turn


@njit(cache=True)
def reset_game(rec):
    """R1-R6: villains, Realms, shuffled decks, Yzma's piles, Power by seat, four cards."""
    n = rec["num_players"]
    for z in range(NUM_VZONES):
        rec["vz_n"][z] = 0
    for z in range(NUM_FZONES):
        rec["fz_n"][z] = 0
    rec["vknown"][:, :] = UNKNOWN
    rec["fknown"][:, :] = UNKNOWN
    rec["attach"][:] = -1
    rec["ent"][:, :] = -1
    rec["ent_n"] = 0
    rec["cev"][:, :] = 0
    rec["cev_n"][0] = 0
    rec["vq"][:] = -1
    rec["vq_n"] = 0
    for s in range(MAX_P):
        rec["villain"][s] = 0
        rec["power"][s] = 0
        rec["mover"][s] = 0
        rec["flip"][s] = 0
        rec["goal"][s] = 0
        for loc in range(4):
            rec["locked"][s, loc] = 0
    for s in range(n):
        v = rec["villains_opt"][s]
        if v < 0:
            v = randint(rec["rng"], 3)
        rec["villain"][s] = v
        rec["power"][s] = START_POWER[s]
        for loc in range(4):
            rec["locked"][s, loc] = LOC_LOCKED[v, loc]
        dz = s * VZ + VDECK
        for k in range(NV):
            rec["vz"][dz, k] = s * NV + k
        rec["vz_n"][dz] = NV
        zone_shuffle(rec["vz"], rec["vz_n"], dz, rec["rng"])
        fz = s * FZ + FDECK
        m = 0
        for k in range(NF_CAP):
            c = s * NF_CAP + k
            if k < NF[v]:
                rec["fz"][fz, m] = c
                m += 1
            else:
                zone_push(rec["fz"], rec["fz_n"], UNUSED, c)
        rec["fz_n"][fz] = m
        zone_shuffle(rec["fz"], rec["fz_n"], fz, rec["rng"])
        if v == YZMA:
            deal_piles(rec, s)
    for s in range(n, MAX_P):
        rec["villain"][s] = -1
    for _ in range(HAND_SIZE):
        for s in range(n):
            draw_card(rec, s)
    opt = rec["fate_token_opt"]
    rec["token_on"] = 1 if (opt == 1 or (opt == -1 and n >= 5)) else 0
    rec["token"] = -1
    rec["winner"] = -1
    rec["fate_target"] = -1
    rec["fate_pile"] = -1
    rec["turn_player"] = 0
    start_turn(rec)


@njit(cache=True)
def deal_piles(rec, s):
    """R60/R61: Yzma's Fate deck is dealt into four face-down piles 0, 1, 2, 3, 0, ..."""
    fz = s * FZ + FDECK
    k = 0
    n = rec["num_players"]
    while rec["fz_n"][fz] > 0:
        c = zone_take(rec["fz"], rec["fz_n"], fz, rec["fz_n"][fz] - 1)
        for v in range(n):
            rec["fknown"][v, c] = UNKNOWN
        zone_push(rec["fz"], rec["fz_n"], s * FZ + PILE0 + (k % 4), c)
        k += 1


@njit(cache=True)
def objective_met(rec, s):
    """R57-R67: the objective of seat ``s``'s villain holds now."""
    v = rec["villain"][s]
    if v == SCAR:
        total = 0
        for i in range(fcount(rec, s, SUCC)):
            total += F_STR[ftype(rec, fcard_at(rec, s, SUCC, i))]
        return total >= SUCCESSION_GOAL
    if v == YZMA:
        return rec["goal"][s] == 1
    if rec["flip"][s]:
        return rec["goal"][s] == 1
    return find_vtype(rec, s, LOC0 + PALACE, QUEEN) >= 0


@njit(cache=True)
def start_turn(rec):
    """R8: the objective check, then the move decision."""
    t = rec["turn_player"]
    for k in range(4):
        rec["used"][k] = 0
    rec["current_player"] = t
    if objective_met(rec, t):
        rec["winner"] = t
        rec["phase"] = PH_OVER
        scores = np.zeros(rec["num_players"])
        scores[t] = 1.0
        split_rewards(rec, scores, False)
        return
    rec["phase"] = PH_MOVE


@njit(cache=True)
def end_turn(rec):
    """R12: draw up to four; the next seat's turn starts."""
    t = rec["turn_player"]
    while vcount(rec, t, HAND) < HAND_SIZE:
        if not draw_card(rec, t):
            break
    rec["turn"] += 1
    rec["turn_player"] = (t + 1) % rec["num_players"]
    start_turn(rec)


# ---------------------------------------------------------------- slots (R10, R11)


@njit(cache=True)
def can_play_card(rec, s, t):
    k = V_KIND[t]
    if k == K_CONDITION:
        return False
    if card_cost(rec, s, t) > rec["power"][s]:
        return False
    if k == K_EFFECT:
        return effect_ok(rec, V_EFF[t], V_A[t], V_ARG[t], s, -1)
    return True


@njit(cache=True)
def can_activate(rec, s, c, loc):
    t = vtype(rec, c)
    return V_WHEN[t] == W_ACTIVATE and V_ACT[t] <= rec["power"][s] and effect_ok(
        rec, V_EFF[t], V_A[t], V_ARG[t], s, loc)


@njit(cache=True)
def fate_targetable(rec, p, q):
    """R36/R55: an opponent with a card to reveal and without the Fate token."""
    if q == p or (rec["token_on"] and rec["token"] == q):
        return False
    if fcount(rec, q, FDISC) > 0 or fcount(rec, q, FDECK) > 0:
        return True
    if rec["villain"][q] == YZMA:
        for k in range(4):
            if fcount(rec, q, PILE0 + k) > 0:
                return True
    return False


@njit(cache=True)
def symbol_ok(rec, s, sym):
    """Whether the action of symbol ``sym`` can do something now (R10)."""
    if sym <= S_POWER3:
        return True
    if sym == S_PLAY:
        for i in range(vcount(rec, s, HAND)):
            if can_play_card(rec, s, vtype(rec, vcard_at(rec, s, HAND, i))):
                return True
        return False
    if sym == S_ACTIVATE:
        for loc in range(4):
            for i in range(vcount(rec, s, LOC0 + loc)):
                if can_activate(rec, s, vcard_at(rec, s, LOC0 + loc, i), loc):
                    return True
        return False
    if sym == S_FATE:
        for q in range(rec["num_players"]):
            if fate_targetable(rec, s, q):
                return True
        return False
    if sym == S_MOVE_IA:
        for loc in range(4):
            if vcount(rec, s, LOC0 + loc) > 0 and adjacent_open(rec, s, loc):
                return True
        return False
    if sym == S_MOVE_HERO:
        for loc in range(4):
            if unlocked(rec, s, loc) and heroes_at(rec, s, loc) > 0 and adjacent_open(
                    rec, s, loc):
                return True
        return False
    if sym == S_VANQUISH:
        return realm_has_hero(rec, s, 2, 0)
    return vcount(rec, s, HAND) > 0  # S_DISCARD


@njit(cache=True)
def slot_open(rec, s, k):
    """Slot ``k`` of the mover's location: unused, not covered (R11), and useful (R10)."""
    loc = rec["mover"][s]
    if rec["used"][k] or (k < 2 and heroes_at(rec, s, loc) > 0):
        return False
    return symbol_ok(rec, s, LOC_SYM[rec["villain"][s], loc, k])


@njit(cache=True)
def take_slot(rec, k):
    """Begin the action of slot ``k`` (R14-R23)."""
    s = rec["turn_player"]
    rec["used"][k] = 1
    sym = LOC_SYM[rec["villain"][s], rec["mover"][s], k]
    if sym <= S_POWER3:
        gain_power(rec, s, sym - S_POWER1 + 1)
    elif sym == S_FATE:
        rec["phase"] = PH_TARGET
        return
    elif sym == S_PLAY:
        push_entry(rec, K_PLAY, 0, -1, s, s, -1, -1, 0, FIN_NONE)
    elif sym == S_ACTIVATE:
        push_entry(rec, K_ACTIVATE, 0, -1, s, s, -1, -1, 0, FIN_NONE)
    elif sym == S_MOVE_IA:
        push_entry(rec, K_MOVE_IA, 0, -1, s, s, -1, -1, 0, FIN_NONE)
    elif sym == S_MOVE_HERO:
        push_entry(rec, K_MOVE_H, 0, -1, s, s, -1, -1, 0, FIN_NONE)
    elif sym == S_VANQUISH:
        rec["vq_n"] = 0
        push_entry(rec, K_VANQ, 0, -1, s, s, -1, -1, 0, FIN_NONE)
    else:
        push_entry(rec, K_DISCARD, 0, -1, s, s, -1, -1, 0, FIN_NONE)
    resume(rec)


# ---------------------------------------------------------------- the Fate action (section 5)


@njit(cache=True)
def reveal_top(rec, q):
    """Reveal the top Fate card of ``q`` (R36, R13: an empty deck takes its discard)."""
    n = rec["num_players"]
    dz = q * FZ + FDECK
    if rec["fz_n"][dz] == 0 and fcount(rec, q, FDISC) > 0:
        src = q * FZ + FDISC
        while rec["fz_n"][src] > 0:
            zone_push(rec["fz"], rec["fz_n"], dz,
                      zone_take(rec["fz"], rec["fz_n"], src, rec["fz_n"][src] - 1))
        shuffle_known(rec["fz"], rec["fz_n"], rec["fknown"], n, dz, rec["rng"])
    if rec["fz_n"][dz] == 0:
        return
    c = zone_take(rec["fz"], rec["fz_n"], dz, rec["fz_n"][dz] - 1)
    zone_push(rec["fz"], rec["fz_n"], REVEAL, c)
    reveal_all(rec["fknown"], c, n)


@njit(cache=True)
def reveal_until_hero(rec, s, who):
    """R53a (Long Live the King): reveal from the top of the Fate deck until a Hero.

    Each card is revealed to everyone (``reveal_top``: R13, an empty Fate deck takes its
    shuffled discard pile, which does not hold the cards revealed so far); the other
    revealed cards then go face up to the Fate discard pile in the order revealed, and
    ``who`` chooses the Hero's location (the Fate Hero entry, R42).
    """
    h = -1
    while h < 0:
        before = rec["fz_n"][REVEAL]
        reveal_top(rec, s)
        if rec["fz_n"][REVEAL] == before:  # nothing left (R17 rules this out)
            break
        c = rec["fz"][REVEAL, rec["fz_n"][REVEAL] - 1]
        if is_hero(rec, c):
            h = c
    if h >= 0:
        fmove_abs(rec, REVEAL, h, FLIMBO)
    while rec["fz_n"][REVEAL] > 0:
        d = zone_take(rec["fz"], rec["fz_n"], REVEAL, 0)
        zone_push(rec["fz"], rec["fz_n"], s * FZ + FDISC, d)
    if h >= 0:
        push_entry(rec, K_FHERO, 0, -1, s, who, h, -1, 0, FIN_FCARD)


@njit(cache=True)
def fate_playable(rec, q, c, other, pile_loc):
    """R46 (judged after ``other`` is discarded, R40): whether Fate card ``c`` can be played."""
    t = ftype(rec, c)
    k = F_KIND[t]
    if k == K_HERO:
        return True
    if k == K_ITEM:
        if pile_loc >= 0:
            return heroes_at(rec, q, pile_loc) > 0
        return realm_has_hero(rec, q, 0, 0)
    if F_MUST[t]:
        if F_EFF[t] == E_FIND_HERO:
            if other >= 0 and ftype(rec, other) == F_ARG[t]:
                return True
            return findable(rec, q, F_ARG[t]) > 0
        return effect_ok(rec, F_EFF[t], F_A[t], F_ARG[t], q, -1)
    return True


@njit(cache=True)
def revealed_other(rec, c):
    for i in range(rec["fz_n"][REVEAL]):
        d = rec["fz"][REVEAL, i]
        if d != c:
            return d
    return -1


@njit(cache=True)
def fate_card_ok(rec, c):
    """Whether revealed (or pile) card ``c`` may be chosen in the Fate pick."""
    q = rec["fate_target"]
    if rec["fate_pile"] >= 0:
        return fate_playable(rec, q, c, -1, rec["fate_pile"])
    return fate_playable(rec, q, c, revealed_other(rec, c), -1)


@njit(cache=True)
def fate_pick_zone(rec):
    if rec["fate_pile"] >= 0:
        return int(rec["fate_target"]) * FZ + PILE0 + int(rec["fate_pile"])
    return REVEAL


@njit(cache=True)
def any_fate_pick(rec):
    z = fate_pick_zone(rec)
    for i in range(rec["fz_n"][z]):
        if fate_card_ok(rec, rec["fz"][z, i]):
            return True
    return False


@njit(cache=True)
def end_fate_unplayed(rec):
    """R44/R45: nothing playable: the revealed cards are discarded, no redraw."""
    q = rec["fate_target"]
    while rec["fz_n"][REVEAL] > 0:
        c = zone_take(rec["fz"], rec["fz_n"], REVEAL, 0)
        zone_push(rec["fz"], rec["fz_n"], q * FZ + FDISC, c)
    resume(rec)


@njit(cache=True)
def choose_target(rec, q):
    """R36/R55: the target takes the Fate token; reveal two (or choose Yzma's pile)."""
    rec["fate_target"] = q
    if rec["token_on"]:
        rec["token"] = q
    raise_event(rec, T_OPP_FATE_YOU, q)  # its window opens when the action ends (R54)
    if rec["villain"][q] == YZMA:
        empty = True
        for k in range(4):
            if fcount(rec, q, PILE0 + k) > 0:
                empty = False
        if empty:  # R61 reading: the discard is shuffled and dealt again
            src = q * FZ + FDISC
            while rec["fz_n"][src] > 0:
                zone_push(rec["fz"], rec["fz_n"], q * FZ + FDECK,
                          zone_take(rec["fz"], rec["fz_n"], src, rec["fz_n"][src] - 1))
            zone_shuffle(rec["fz"], rec["fz_n"], q * FZ + FDECK, rec["rng"])
            deal_piles(rec, q)
        rec["phase"] = PH_PILE
        return
    rec["fate_pile"] = -1
    reveal_top(rec, q)
    reveal_top(rec, q)
    if any_fate_pick(rec):
        rec["phase"] = PH_FPICK
    else:
        end_fate_unplayed(rec)


@njit(cache=True)
def choose_pile(rec, k):
    """R61: the fater looks at the whole pile."""
    q = rec["fate_target"]
    rec["fate_pile"] = k
    look_at_zone(rec["fz"], rec["fz_n"], rec["fknown"], q * FZ + PILE0 + k,
                 rec["current_player"])
    if any_fate_pick(rec):
        rec["phase"] = PH_FPICK
    else:
        resume(rec)


@njit(cache=True)
def play_fate_card(rec, t_local):
    """R39: the other revealed card to the Fate discard first, then the chosen one is played."""
    q = rec["fate_target"]
    p = rec["current_player"]
    z = fate_pick_zone(rec)
    t = FLOC[rec["villain"][q], t_local]
    c = -1
    for i in range(rec["fz_n"][z]):
        d = rec["fz"][z, i]
        if ftype(rec, d) == t and fate_card_ok(rec, d) and (c < 0 or d < c):
            c = d
    fmove_abs(rec, z, c, FLIMBO)
    reveal_all(rec["fknown"], c, rec["num_players"])
    while rec["fz_n"][REVEAL] > 0:
        d = zone_take(rec["fz"], rec["fz_n"], REVEAL, 0)
        zone_push(rec["fz"], rec["fz_n"], q * FZ + FDISC, d)
    pile = rec["fate_pile"]
    k = F_KIND[t]
    if k == K_HERO:
        if pile >= 0:
            fmove_abs(rec, FLIMBO, c, q * FZ + HERO0 + pile)
            place_hero(rec, q, c, pile, p)
        else:
            push_entry(rec, K_FHERO, 0, -1, q, p, c, -1, 0, FIN_FCARD)
    elif k == K_ITEM:  # an Item with no Hero left to take it is discarded (FIN_FCARD)
        push_entry(rec, K_FITEM, 0, -1, q, p, c, pile, 0, FIN_FCARD)
    else:
        start_effect(rec, F_EFF[t], F_A[t], F_ARG[t], q, p, c, -1, FIN_FCARD)
    resume(rec)


# ---------------------------------------------------------------- entry decisions


@njit(cache=True)
def mask_locations_with_allies(rec, mask, s, kind, mode, a, need_adjacent):
    for loc in range(4):
        if any_vcard(rec, s, loc, kind, mode, a) and (not need_adjacent or adjacent_open(
                rec, s, loc)):
            mask[LOCATION + loc] = 1


@njit(cache=True)
def mask_vtypes_at(rec, mask, s, loc, kind, mode, a):
    z = s * VZ + LOC0 + loc
    for i in range(rec["vz_n"][z]):
        c = rec["vz"][z, i]
        t = vtype(rec, c)
        if kind >= 0 and V_KIND[t] != kind:
            continue
        if mode == 1 and ally_str(rec, s, c, loc) > a:
            continue
        mask[VCARD + V_LOCAL[t]] = 1


@njit(cache=True)
def mask_hero_types_at(rec, mask, s, loc, mode, a):
    z = s * FZ + HERO0 + loc
    for i in range(rec["fz_n"][z]):
        t = ftype(rec, rec["fz"][z, i])
        if F_KIND[t] == K_HERO and pick_hero(rec, s, loc, t, mode, a) >= 0:
            mask[FCARD + F_LOCAL[t]] = 1


@njit(cache=True)
def mask_dest(rec, mask, s, src, adjacent):
    for loc in range(4):
        if loc == src or not unlocked(rec, s, loc):
            continue
        if adjacent and abs(loc - src) != 1:
            continue
        mask[LOCATION + loc] = 1


@njit(cache=True)
def vq_total(rec, s, loc):
    total = 0
    for j in range(rec["vq_n"]):
        total += ally_str(rec, s, rec["vq"][j], loc)
    if rec["vq_n"] > 0:
        total += str_bonus(rec, s, loc)
    return total


@njit(cache=True)
def vq_chosen(rec, c):
    for j in range(rec["vq_n"]):
        if rec["vq"][j] == c:
            return True
    return False


@njit(cache=True)
def entry_mask(rec, mask):
    e = rec["ent"][rec["ent_n"] - 1]
    k = e[C_KIND]
    s = e[C_REALM]
    st = e[C_STEP]
    a = e[C_A]
    loc = e[C_LOC]
    if k == K_PLAY:
        if st == 0:
            for i in range(vcount(rec, s, HAND)):
                t = vtype(rec, vcard_at(rec, s, HAND, i))
                if can_play_card(rec, s, t):
                    mask[VCARD + V_LOCAL[t]] = 1
        else:
            mask_dest(rec, mask, s, -1, False)
    elif k == K_ACTIVATE:
        if st == 0:
            for q in range(4):
                for i in range(vcount(rec, s, LOC0 + q)):
                    if can_activate(rec, s, vcard_at(rec, s, LOC0 + q, i), q):
                        mask[LOCATION + q] = 1
        else:
            q = e[C_C0]
            for i in range(vcount(rec, s, LOC0 + q)):
                c = vcard_at(rec, s, LOC0 + q, i)
                if can_activate(rec, s, c, q):
                    mask[VCARD + V_LOCAL[vtype(rec, c)]] = 1
    elif k == K_MOVE_IA:
        if st == 0:
            mask_locations_with_allies(rec, mask, s, -1, 0, 0, True)
        elif st == 1:
            mask_vtypes_at(rec, mask, s, e[C_C0], -1, 0, 0)
        else:
            mask_dest(rec, mask, s, e[C_C0], True)
    elif k == K_MOVE_H:
        if st == 0:
            for q in range(4):
                if unlocked(rec, s, q) and heroes_at(rec, s, q) > 0 and adjacent_open(rec, s,
                                                                                    q):
                    mask[LOCATION + q] = 1
        elif st == 1:
            mask_hero_types_at(rec, mask, s, e[C_C0], 0, 0)
        else:
            mask_dest(rec, mask, s, e[C_C0], True)
    elif k == K_VANQ:
        if st == 0:
            for q in range(4):
                if any_hero(rec, s, q, 2, 0):
                    mask[LOCATION + q] = 1
        elif st == 1:
            mask_hero_types_at(rec, mask, s, e[C_C0], 2, 0)
        else:
            q = e[C_C0]
            h = e[C_C1]
            z = s * VZ + LOC0 + q
            kronk_ok = kronk_may(rec, s, q, h)
            for i in range(rec["vz_n"][z]):
                c = rec["vz"][z, i]
                t = vtype(rec, c)
                if V_KIND[t] == K_ALLY and not vq_chosen(rec, c) and (t != KRONK or kronk_ok):
                    mask[VCARD + V_LOCAL[t]] = 1
            if rec["vq_n"] > 0 and vq_total(rec, s, q) >= hero_str(rec, s, h, q):
                mask[PASS] = 1
    elif k == K_DISCARD:
        for i in range(vcount(rec, s, HAND)):
            mask[VCARD + V_LOCAL[vtype(rec, vcard_at(rec, s, HAND, i))]] = 1
        mask[PASS] = 1
    elif k == K_FHERO:
        mask_dest(rec, mask, s, -1, False)
    elif k == K_FITEM:
        if st == 0 and loc < 0:
            for q in range(4):
                if heroes_at(rec, s, q) > 0:
                    mask[LOCATION + q] = 1
        else:
            mask_hero_types_at(rec, mask, s, e[C_C0] if loc < 0 else loc, 0, 0)
    elif k == E_PLAY_ALLY_FREE:
        if st == 0:
            for i in range(vcount(rec, s, HAND)):
                t = vtype(rec, vcard_at(rec, s, HAND, i))
                if V_KIND[t] == K_ALLY:
                    mask[VCARD + V_LOCAL[t]] = 1
        else:
            mask_dest(rec, mask, s, -1, False)
    elif k == E_MOVE_ALLY_ANY:
        if st == 0:
            mask_locations_with_allies(rec, mask, s, K_ALLY, 0, 0, False)
            if e[C_LEFT] < a:
                mask[PASS] = 1
        elif st == 1:
            mask_vtypes_at(rec, mask, s, e[C_C0], K_ALLY, 0, 0)
        else:
            mask_dest(rec, mask, s, e[C_C0], False)
    elif k == E_MOVE_HERO_ANY or k == E_DEFEAT_HERO_LE or k == E_DISCARD_FATE_ITEM:
        mode = 0 if k == E_MOVE_HERO_ANY else (1 if k == E_DEFEAT_HERO_LE else 3)
        if st == 0:
            for q in range(4):
                if any_hero(rec, s, q, mode, a):
                    mask[LOCATION + q] = 1
        elif st == 1:
            if k == E_DISCARD_FATE_ITEM:
                z = s * FZ + HERO0 + e[C_C0]
                for i in range(rec["fz_n"][z]):
                    c = rec["fz"][z, i]
                    if rec["attach"][c] >= 0:
                        mask[FCARD + F_LOCAL[ftype(rec, c)]] = 1
            else:
                mask_hero_types_at(rec, mask, s, e[C_C0], mode, a)
        else:
            mask_dest(rec, mask, s, e[C_C0], False)
    elif k == E_MOVE_NAMED_HERO:
        mask_dest(rec, mask, s, hero_loc(rec, s, pick_named(rec, s, e[C_ARG])), False)
    elif k == E_MOVE_HERO_FROM_HERE:
        if st == 0:
            mask_hero_types_at(rec, mask, s, loc, 0, 0)
        else:
            mask_dest(rec, mask, s, loc, False)
    elif k == E_MOVE_ALLY_FROM_HERE:
        if st == 0:
            mask_vtypes_at(rec, mask, s, loc, K_ALLY, 0, 0)
            mask[PASS] = 1
        else:
            mask_dest(rec, mask, s, loc, True)
    elif k == E_DEFEAT_HERE_LE:
        mask_hero_types_at(rec, mask, s, loc, 1, a)
        mask[PASS] = 1
    elif k == E_DEFEAT_NAMED_HERE:
        mask[FCARD + F_LOCAL[e[C_ARG]]] = 1
        mask[PASS] = 1
    elif k == E_DISCARD_ALLY_LE or k == E_DISCARD_ITEM:
        kind = K_ALLY if k == E_DISCARD_ALLY_LE else K_ITEM
        mode = 1 if k == E_DISCARD_ALLY_LE else 0
        if st == 0:
            mask_locations_with_allies(rec, mask, s, kind, mode, a, False)
        else:
            mask_vtypes_at(rec, mask, s, e[C_C0], kind, mode, a)
    elif k == E_DISCARD_ALLY_HERE:
        mask_vtypes_at(rec, mask, s, loc, K_ALLY, 1, a)
        mask[PASS] = 1
    elif k == E_DISCARD_ITEM_HERE:
        mask_vtypes_at(rec, mask, s, loc, K_ITEM, 0, 0)
        mask[PASS] = 1
    elif k == E_RETURN_ALLY:
        for i in range(vcount(rec, s, VDISC)):
            t = vtype(rec, vcard_at(rec, s, VDISC, i))
            if V_KIND[t] == K_ALLY:
                mask[VCARD + V_LOCAL[t]] = 1
    elif k == E_FIND_HERO:
        mask_dest(rec, mask, s, -1, False)
    elif k == E_PLAY_FROM_FATE_DISCARD:
        if st == 0:
            for i in range(fcount(rec, s, FDISC)):
                c = fcard_at(rec, s, FDISC, i)
                if is_hero(rec, c):
                    mask[FCARD + F_LOCAL[ftype(rec, c)]] = 1
        else:
            mask_dest(rec, mask, s, -1, False)


@njit(cache=True)
def pick_named(rec, s, t):
    """The Hero of type ``t`` in the Realm (lowest id), or -1."""
    best = -1
    for loc in range(4):
        h = pick_hero(rec, s, loc, t, 0, 0)
        if h >= 0 and (best < 0 or h < best):
            best = h
    return best


@njit(cache=True)
def play_villain_card(rec, s, c, loc):
    """An Ally or Item goes below ``loc`` (R15, R16); its on-play ability (R33)."""
    vmove(rec, s, HAND, c, LOC0 + loc)
    reveal_all(rec["vknown"], c, rec["num_players"])
    t = vtype(rec, c)
    if V_KIND[t] == K_ALLY and s == rec["turn_player"]:
        raise_event(rec, T_OPP_PLAY_ALLY, V_STR[t])
    trigger_vcard(rec, s, c, loc, W_PLAY)


@njit(cache=True)
def move_vcard(rec, s, c, src, dst):
    vmove(rec, s, LOC0 + src, c, LOC0 + dst)
    trigger_vcard(rec, s, c, dst, W_MOVE)


@njit(cache=True)
def find_and_play(rec, s, t, loc, who):
    """R52/R53: find Hero ``t`` in the Realm, the Fate discard, then the deck or piles.

    Yzma's piles are searched in order 0-3; the deck or pile he was in is shuffled (every
    player forgets its order).
    """
    n = rec["num_players"]
    h = pick_named(rec, s, t)
    dst = s * FZ + HERO0 + loc
    if h >= 0:
        src = hero_loc(rec, s, h)
        fmove_abs(rec, s * FZ + HERO0 + src, h, dst)
        for c in range(s * NF_CAP, (s + 1) * NF_CAP):
            if rec["attach"][c] == h:
                fmove_abs(rec, s * FZ + HERO0 + src, c, dst)
    else:
        z = s * FZ + FDISC
        for i in range(rec["fz_n"][z]):
            if ftype(rec, rec["fz"][z, i]) == t:
                h = rec["fz"][z, i]
                break
        if h >= 0:
            fmove_abs(rec, z, h, dst)
        else:  # the Fate deck, or Yzma's piles in location order (R53)
            where = findable(rec, s, t)
            if where == 3:
                z = s * FZ + FDECK
            else:  # the finder looks through each pile before his, then his
                for k in range(where - 4):
                    look_at_zone(rec["fz"], rec["fz_n"], rec["fknown"], s * FZ + PILE0 + k,
                                 who)
                z = s * FZ + PILE0 + where - 4
            look_at_zone(rec["fz"], rec["fz_n"], rec["fknown"], z, who)
            for i in range(rec["fz_n"][z]):
                if ftype(rec, rec["fz"][z, i]) == t:
                    h = rec["fz"][z, i]
                    break
            fmove_abs(rec, z, h, dst)
            shuffle_known(rec["fz"], rec["fz_n"], rec["fknown"], n, z, rec["rng"])
    place_hero(rec, s, h, loc, who)


@njit(cache=True)
def entry_apply(rec, action):
    i_top = rec["ent_n"] - 1
    e = rec["ent"][i_top]
    k = e[C_KIND]
    s = e[C_REALM]
    st = e[C_STEP]
    a = e[C_A]
    loc = e[C_LOC]
    who = e[C_WHO]
    x_loc = action - LOCATION
    x_v = action - VCARD
    x_f = action - FCARD
    vil = rec["villain"][s]
    if k == K_PLAY:
        if st == 0:
            t = VLOC[vil, x_v]
            c = find_vtype(rec, s, HAND, t)
            if V_KIND[t] == K_EFFECT:
                rec["power"][s] -= card_cost(rec, s, t)
                vmove(rec, s, HAND, c, LIMBO)
                reveal_all(rec["vknown"], c, rec["num_players"])
                pop_entry(rec)
                start_effect(rec, V_EFF[t], V_A[t], V_ARG[t], s, s, c, -1, FIN_VCARD)
            else:  # choosing the card shows it (so no determinization moves it)
                reveal_all(rec["vknown"], c, rec["num_players"])
                e[C_C0] = c
                e[C_STEP] = 1
        else:
            c = e[C_C0]
            rec["power"][s] -= card_cost(rec, s, vtype(rec, c))
            pop_entry(rec)
            play_villain_card(rec, s, c, x_loc)
    elif k == K_ACTIVATE:
        if st == 0:
            e[C_C0] = x_loc
            e[C_STEP] = 1
        else:
            q = e[C_C0]
            t = VLOC[vil, x_v]
            c = -1
            z = s * VZ + LOC0 + q
            for i in range(rec["vz_n"][z]):
                d = rec["vz"][z, i]
                if vtype(rec, d) == t and can_activate(rec, s, d, q) and (c < 0 or d < c):
                    c = d
            rec["power"][s] -= V_ACT[t]
            pop_entry(rec)
            start_effect(rec, V_EFF[t], V_A[t], V_ARG[t], s, s, c, q, FIN_NONE)
    elif k == K_MOVE_IA or k == E_MOVE_ALLY_ANY:
        if st == 0:
            if action == PASS:
                pop_entry(rec)
            else:
                e[C_C0] = x_loc
                e[C_STEP] = 1
        elif st == 1:
            e[C_C1] = pick_vcard(rec, s, e[C_C0], VLOC[vil, x_v], 0, 0)
            e[C_STEP] = 2
        else:
            c, src = e[C_C1], e[C_C0]
            if k == K_MOVE_IA:
                pop_entry(rec)
            else:
                e[C_LEFT] -= 1
                e[C_STEP] = 0
                e[C_C0] = -1
                e[C_C1] = -1
            move_vcard(rec, s, c, src, x_loc)
    elif k == K_MOVE_H or k == E_MOVE_HERO_ANY:
        if st == 0:
            e[C_C0] = x_loc
            e[C_STEP] = 1
        elif st == 1:
            e[C_C1] = pick_hero(rec, s, e[C_C0], FLOC[vil, x_f], 0, 0)
            e[C_STEP] = 2
        else:
            h = e[C_C1]
            pop_entry(rec)
            move_hero(rec, s, h, x_loc)
    elif k == K_VANQ:
        if st == 0:
            e[C_C0] = x_loc
            e[C_STEP] = 1
        elif st == 1:
            e[C_C1] = pick_hero(rec, s, e[C_C0], FLOC[vil, x_f], 2, 0)
            e[C_STEP] = 2
            rec["vq_n"] = 0
        elif action == PASS:
            q, h = e[C_C0], e[C_C1]
            kronk = False
            for j in range(rec["vq_n"]):
                c = rec["vq"][j]
                if vtype(rec, c) == KRONK:
                    kronk = True
                discard_vcard(rec, s, LOC0 + q, c)
                rec["vq"][j] = -1
            rec["vq_n"] = 0
            if kronk and ftype(rec, h) == KUZCO:
                rec["goal"][s] = 1
            pop_entry(rec)
            defeat_hero(rec, s, h)
        else:
            q = e[C_C0]
            t = VLOC[vil, x_v]
            z = s * VZ + LOC0 + q
            c = -1
            for i in range(rec["vz_n"][z]):
                d = rec["vz"][z, i]
                if vtype(rec, d) == t and not vq_chosen(rec, d) and (c < 0 or d < c):
                    c = d
            rec["vq"][rec["vq_n"]] = c
            rec["vq_n"] += 1
    elif k == K_DISCARD:
        if action == PASS:
            pop_entry(rec)
        else:
            discard_vcard(rec, s, HAND, find_vtype(rec, s, HAND, VLOC[vil, x_v]))
    elif k == K_FHERO:
        c = e[C_CARD]
        e[C_FIN] = FIN_NONE
        pop_entry(rec)
        fmove_abs(rec, FLIMBO, c, s * FZ + HERO0 + x_loc)
        place_hero(rec, s, c, x_loc, who)
    elif k == K_FITEM:
        if st == 0 and loc < 0:
            e[C_C0] = x_loc
            e[C_STEP] = 1
        else:
            q = e[C_C0] if loc < 0 else loc
            h = pick_hero(rec, s, q, FLOC[vil, x_f], 0, 0)
            c = e[C_CARD]
            e[C_FIN] = FIN_NONE
            pop_entry(rec)
            fmove_abs(rec, FLIMBO, c, s * FZ + HERO0 + q)
            rec["attach"][c] = h
    elif k == E_PLAY_ALLY_FREE:
        if st == 0:
            e[C_C0] = find_vtype(rec, s, HAND, VLOC[vil, x_v])
            reveal_all(rec["vknown"], e[C_C0], rec["num_players"])
            e[C_STEP] = 1
        else:
            c = e[C_C0]
            pop_entry(rec)
            play_villain_card(rec, s, c, x_loc)
    elif k == E_DEFEAT_HERO_LE or k == E_DISCARD_FATE_ITEM:
        if st == 0:
            e[C_C0] = x_loc
            e[C_STEP] = 1
        else:
            q = e[C_C0]
            if k == E_DEFEAT_HERO_LE:
                h = pick_hero(rec, s, q, FLOC[vil, x_f], 1, a)
                pop_entry(rec)
                defeat_hero(rec, s, h)
            else:
                t = FLOC[vil, x_f]
                z = s * FZ + HERO0 + q
                c = -1
                for i in range(rec["fz_n"][z]):
                    d = rec["fz"][z, i]
                    if ftype(rec, d) == t and rec["attach"][d] >= 0 and (c < 0 or d < c):
                        c = d
                rec["attach"][c] = -1
                pop_entry(rec)
                fmove_abs(rec, z, c, s * FZ + FDISC)
    elif k == E_MOVE_NAMED_HERO:
        h = pick_named(rec, s, e[C_ARG])
        pop_entry(rec)
        move_hero(rec, s, h, x_loc)
    elif k == E_MOVE_HERO_FROM_HERE:
        if st == 0:
            e[C_C1] = pick_hero(rec, s, loc, FLOC[vil, x_f], 0, 0)
            e[C_STEP] = 1
        else:
            h = e[C_C1]
            pop_entry(rec)
            move_hero(rec, s, h, x_loc)
    elif k == E_MOVE_ALLY_FROM_HERE:
        if action == PASS:
            pop_entry(rec)
        elif st == 0:
            e[C_C1] = pick_vcard(rec, s, loc, VLOC[vil, x_v], 0, 0)
            e[C_STEP] = 1
        else:
            c = e[C_C1]
            pop_entry(rec)
            move_vcard(rec, s, c, loc, x_loc)
    elif k == E_DEFEAT_HERE_LE or k == E_DEFEAT_NAMED_HERE:
        if action == PASS:
            pop_entry(rec)
        else:
            h = pick_hero(rec, s, loc, FLOC[vil, x_f], 1 if k == E_DEFEAT_HERE_LE else 0, a)
            pop_entry(rec)
            defeat_hero(rec, s, h)
    elif k == E_DISCARD_ALLY_LE or k == E_DISCARD_ITEM:
        if st == 0:
            e[C_C0] = x_loc
            e[C_STEP] = 1
        else:
            q = e[C_C0]
            c = pick_vcard(rec, s, q, VLOC[vil, x_v], 1 if k == E_DISCARD_ALLY_LE else 0, a)
            pop_entry(rec)
            discard_vcard(rec, s, LOC0 + q, c)
    elif k == E_DISCARD_ALLY_HERE or k == E_DISCARD_ITEM_HERE:
        if action == PASS:
            pop_entry(rec)
        else:
            c = pick_vcard(rec, s, loc, VLOC[vil, x_v], 1 if k == E_DISCARD_ALLY_HERE else 0,
                           a)
            pop_entry(rec)
            discard_vcard(rec, s, LOC0 + loc, c)
    elif k == E_RETURN_ALLY:
        c = find_vtype(rec, s, VDISC, VLOC[vil, x_v])
        pop_entry(rec)
        vmove(rec, s, VDISC, c, HAND)
        reveal_all(rec["vknown"], c, rec["num_players"])
    elif k == E_FIND_HERO:
        t = e[C_ARG]
        pop_entry(rec)
        find_and_play(rec, s, t, x_loc, who)
    elif k == E_PLAY_FROM_FATE_DISCARD:
        if st == 0:
            t = FLOC[vil, x_f]
            z = s * FZ + FDISC
            c = -1
            for i in range(rec["fz_n"][z]):
                d = rec["fz"][z, i]
                if ftype(rec, d) == t and (c < 0 or d < c):
                    c = d
            e[C_C0] = c
            e[C_STEP] = 1
        else:
            c = e[C_C0]
            pop_entry(rec)
            fmove_abs(rec, s * FZ + FDISC, c, s * FZ + HERO0 + x_loc)
            place_hero(rec, s, c, x_loc, who)
    resume(rec)


# ---------------------------------------------------------------- kernels


@njit(cache=True)
def legal_mask(rec, mask):
    """Legal actions of the current player."""
    for a in range(mask.shape[0]):
        mask[a] = 0
    ph = rec["phase"]
    p = rec["current_player"]
    n = rec["num_players"]
    if ph == PH_MOVE:
        mask_dest(rec, mask, p, rec["mover"][p], False)
    elif ph == PH_ACT:
        for k in range(4):
            if slot_open(rec, p, k):
                mask[SLOT + k] = 1
        mask[PASS] = 1
    elif ph == PH_TARGET:
        for r in range(1, n):
            if fate_targetable(rec, p, (p + r) % n):
                mask[TARGET + r - 1] = 1
    elif ph == PH_PILE:
        q = rec["fate_target"]
        for k in range(4):
            if fcount(rec, q, PILE0 + k) > 0:
                mask[LOCATION + k] = 1
    elif ph == PH_FPICK:
        z = fate_pick_zone(rec)
        for i in range(rec["fz_n"][z]):
            c = rec["fz"][z, i]
            if fate_card_ok(rec, c):
                mask[FCARD + F_LOCAL[ftype(rec, c)]] = 1
    elif ph == PH_ENTRY:
        entry_mask(rec, mask)
    elif ph == PH_WINDOW:
        i = rec["cev_n"][0] - 1
        kind = rec["cev"][i, EV_KIND]
        arg = rec["cev"][i, EV_ARG]
        for j in range(vcount(rec, p, HAND)):
            t = vtype(rec, vcard_at(rec, p, HAND, j))
            if condition_ok(rec, p, t, kind, arg):
                mask[VCARD + V_LOCAL[t]] = 1
        mask[PASS] = 1


@njit(cache=True)
def apply_action(rec, action):
    """Apply one legal decision of the current player."""
    ph = rec["phase"]
    p = rec["current_player"]
    n = rec["num_players"]
    if ph == PH_MOVE:
        rec["mover"][p] = action - LOCATION
        rec["phase"] = PH_ACT
    elif ph == PH_ACT:
        if action == PASS:
            end_turn(rec)
        else:
            take_slot(rec, action - SLOT)
    elif ph == PH_TARGET:
        choose_target(rec, (p + 1 + action - TARGET) % n)
    elif ph == PH_PILE:
        choose_pile(rec, action - LOCATION)
    elif ph == PH_FPICK:
        play_fate_card(rec, action - FCARD)
    elif ph == PH_ENTRY:
        entry_apply(rec, action)
    elif ph == PH_WINDOW:
        play_condition(rec, action)


@njit(cache=True)
def determinize_record(rec, player, words):
    """Resample, seat by seat, every card ``player`` does not know; then reseed the RNG."""
    n = rec["num_players"]
    for s in range(n):
        determinize_zones(rec["vz"][s * VZ:(s + 1) * VZ], rec["vz_n"][s * VZ:(s + 1) * VZ],
                          rec["vknown"], n, player, words)
        determinize_zones(rec["fz"][s * FZ:(s + 1) * FZ], rec["fz_n"][s * FZ:(s + 1) * FZ],
                          rec["fknown"], n, player, words)
    for i in range(4):
        rec["rng"][i] = next_u32(words) | (1 if i == 0 else 0)

