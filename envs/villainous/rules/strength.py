"""Strength (R25, R26, R22); which Heroes and villain cards a choice may pick; costs."""

# ruff: noqa: D103  (as for envs/*/rules.py: kernels named after the rule they apply)
from __future__ import annotations

from fatezoo.envs.core.jit import njit

from .. import state as S
from .cards import find_vtype, ftype, is_hero, items_on, unlocked, vtype


@njit(cache=True)
def heroes_at(rec, s, loc):
    """Number of Heroes at a location."""
    z = s * S.FZ + S.HERO0 + loc
    k = 0
    for i in range(rec["fz_n"][z]):
        if is_hero(rec, rec["fz"][z, i]):
            k += 1
    return k


@njit(cache=True)
def ally_str(rec, s, c, loc):
    """Current Strength of Ally ``c`` at ``loc`` (R25)."""
    t = vtype(rec, c)
    v = S.V_STR[t]
    z = s * S.VZ + S.LOC0 + loc
    for i in range(rec["vz_n"][z]):
        d = rec["vz"][z, i]
        if d == c:
            continue
        u = vtype(rec, d)
        if S.V_EFF[t] == S.E_PACK and u == t:
            v += S.V_A[t]
        if S.V_KIND[u] == S.K_ALLY and S.V_EFF[u] == S.E_ALLY_AURA:
            v += S.V_A[u]
    hz = s * S.FZ + S.HERO0 + loc
    for i in range(rec["fz_n"][hz]):
        h = ftype(rec, rec["fz"][hz, i])
        if S.F_KIND[h] == S.K_HERO and S.F_EFF[h] == S.E_HERO_ALLY_MINUS:
            v -= S.F_A[h]
    return max(v, 0)


@njit(cache=True)
def hero_str(rec, s, h, loc):
    """Current Strength of Hero ``h`` at ``loc`` (R26)."""
    v = S.F_STR[ftype(rec, h)]
    for c in range(s * S.NF_CAP, (s + 1) * S.NF_CAP):
        if rec["attach"][c] == h:
            t = ftype(rec, c)
            if S.F_EFF[t] == S.E_ITEM_STR:
                v += S.F_A[t]
    z = s * S.VZ + S.LOC0 + loc
    for i in range(rec["vz_n"][z]):
        u = vtype(rec, rec["vz"][z, i])
        if S.V_KIND[u] == S.K_ALLY and S.V_EFF[u] == S.E_HERO_MINUS:
            v -= S.V_A[u]
    return max(v, 0)


@njit(cache=True)
def str_bonus(rec, s, loc):
    """Vanquish bonus of the Items at ``loc`` (STR_BONUS)."""
    v = 0
    z = s * S.VZ + S.LOC0 + loc
    for i in range(rec["vz_n"][z]):
        u = vtype(rec, rec["vz"][z, i])
        if S.V_KIND[u] == S.K_ITEM and S.V_EFF[u] == S.E_STR_BONUS:
            v += S.V_A[u]
    return v


@njit(cache=True)
def kronk_may(rec, s, loc, h):
    """Whether Kronk may take part in a Vanquish of Hero ``h`` at ``loc`` (R63)."""
    if ftype(rec, h) != S.KUZCO:
        return True
    return find_vtype(rec, s, S.LOC0 + loc, S.DAGGER) >= 0 or find_vtype(rec, s, S.LOC0 + loc,
                                                                     S.GUARDS) >= 0


@njit(cache=True)
def vanquish_reach(rec, s, loc, h):
    """Total a Vanquish of ``h`` could reach with every eligible Ally at ``loc`` (0: none)."""
    z = s * S.VZ + S.LOC0 + loc
    total = 0
    allies = 0
    kronk_ok = kronk_may(rec, s, loc, h)
    for i in range(rec["vz_n"][z]):
        c = rec["vz"][z, i]
        t = vtype(rec, c)
        if S.V_KIND[t] != S.K_ALLY or (t == S.KRONK and not kronk_ok):
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
    z = s * S.FZ + S.HERO0 + loc
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
    z = s * S.FZ + S.HERO0 + loc
    for i in range(rec["fz_n"][z]):
        c = rec["fz"][z, i]
        t = ftype(rec, c)
        if S.F_KIND[t] == S.K_HERO and pick_hero(rec, s, loc, t, mode, a) >= 0:
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
    z = s * S.VZ + S.LOC0 + loc
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
    z = s * S.VZ + S.LOC0 + loc
    for i in range(rec["vz_n"][z]):
        c = rec["vz"][z, i]
        k = S.V_KIND[vtype(rec, c)]
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
        z = s * S.VZ + S.LOC0 + loc
        for i in range(rec["vz_n"][z]):
            t = vtype(rec, rec["vz"][z, i])
            if S.V_EFF[t] == S.E_QUEEN_DISCOUNT:
                disc += S.V_A[t]
    return max(S.QUEEN_COST - disc, 0)


@njit(cache=True)
def card_cost(rec, s, t):
    if t == S.QUEEN:
        return queen_cost(rec, s)
    return S.V_COST[t]
