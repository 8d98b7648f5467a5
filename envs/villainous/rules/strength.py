"""Strength (R25, R26, R22); which Heroes and villain cards a choice may pick; costs."""

# ruff: noqa: D103  (as for envs/*/rules.py: kernels named after the rule they apply)
from __future__ import annotations

from fatezoo.envs.core.jit import njit

from ..state import (
    DAGGER,
    E_ALLY_AURA,
    E_HERO_ALLY_MINUS,
    E_HERO_MINUS,
    E_ITEM_STR,
    E_PACK,
    E_QUEEN_DISCOUNT,
    E_STR_BONUS,
    F_A,
    F_EFF,
    F_KIND,
    F_STR,
    FZ,
    GUARDS,
    HERO0,
    K_ALLY,
    K_HERO,
    K_ITEM,
    KRONK,
    KUZCO,
    LOC0,
    NF_CAP,
    QUEEN,
    QUEEN_COST,
    V_A,
    V_COST,
    V_EFF,
    V_KIND,
    V_STR,
    VZ,
)
from .cards import find_vtype, ftype, is_hero, items_on, unlocked, vtype


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
