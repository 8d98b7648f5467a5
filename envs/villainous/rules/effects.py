"""Abilities and the pending entries ``ent``.

Pushing and popping entries, whether an ability can resolve (R17), resolving it at once
or as an entry, revealing Fate cards until a Hero (R53a), whether an entry has a choice.
"""

# ruff: noqa: D103  (as for envs/*/rules.py: kernels named after the rule they apply)
from __future__ import annotations

from fatezoo.envs.core.jit import njit
from fatezoo.envs.core.knowledge import look_at_zone, reveal_all, shuffle_known
from fatezoo.envs.core.zones import zone_push, zone_take

from .. import state as S
from .cards import (
    fcard_at,
    fcount,
    find_vtype,
    fmove_abs,
    ftype,
    is_hero,
    vcard_at,
    vcount,
    vmove,
    vtype,
)
from .moving import discard_vcard, draw_card, gain_power, lose_power
from .strength import (
    adjacent_open,
    any_hero,
    any_vcard,
    heroes_at,
    pick_hero,
    realm_has_hero,
    realm_has_vcard,
)


@njit(cache=True)
def push_entry(rec, kind, a, arg, realm, who, card, loc, left, fin):
    n = rec["ent_n"]
    if n >= S.DEPTH:
        raise IndexError("villainous: pending entries full")
    e = rec["ent"][n]
    e[S.C_KIND] = kind
    e[S.C_A] = a
    e[S.C_ARG] = arg
    e[S.C_REALM] = realm
    e[S.C_WHO] = who
    e[S.C_CARD] = card
    e[S.C_LOC] = loc
    e[S.C_LEFT] = left
    e[S.C_STEP] = 0
    e[S.C_C0] = -1
    e[S.C_C1] = -1
    e[S.C_FIN] = fin
    rec["ent_n"] = n + 1


@njit(cache=True)
def fin_entry(rec, e):
    """The card whose ability the entry was goes to its discard pile."""
    s = e[S.C_REALM]
    c = e[S.C_CARD]
    if e[S.C_FIN] == S.FIN_VCARD:
        vmove(rec, s, S.LIMBO, c, S.VDISC)
    elif e[S.C_FIN] == S.FIN_FCARD:
        fmove_abs(rec, S.FLIMBO, c, s * S.FZ + S.FDISC)


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
        z = s * S.FZ + S.HERO0 + loc
        for i in range(rec["fz_n"][z]):
            if ftype(rec, rec["fz"][z, i]) == t:
                return 1
    for i in range(fcount(rec, s, S.FDISC)):
        if ftype(rec, fcard_at(rec, s, S.FDISC, i)) == t:
            return 2
    for i in range(fcount(rec, s, S.FDECK)):
        if ftype(rec, fcard_at(rec, s, S.FDECK, i)) == t:
            return 3
    for k in range(4):
        for i in range(fcount(rec, s, S.PILE0 + k)):
            if ftype(rec, fcard_at(rec, s, S.PILE0 + k, i)) == t:
                return 4 + k
    return 0


@njit(cache=True)
def fate_hero_left(rec, s):
    """R53a: a Hero is in the Fate deck or the Fate discard (what a reveal can reach)."""
    for z in (S.FDECK, S.FDISC):
        for i in range(fcount(rec, s, z)):
            if is_hero(rec, fcard_at(rec, s, z, i)):
                return True
    return False


@njit(cache=True)
def fetchable(rec, s, t):
    return find_vtype(rec, s, S.VDISC, t) >= 0 or find_vtype(rec, s, S.VDECK, t) >= 0


@njit(cache=True)
def has_hand_type(rec, s, kind):
    for i in range(vcount(rec, s, S.HAND)):
        if S.V_KIND[vtype(rec, vcard_at(rec, s, S.HAND, i))] == kind:
            return True
    return False


@njit(cache=True)
def has_disc_ally(rec, s):
    for i in range(vcount(rec, s, S.VDISC)):
        if S.V_KIND[vtype(rec, vcard_at(rec, s, S.VDISC, i))] == S.K_ALLY:
            return True
    return False


@njit(cache=True)
def has_disc_hero(rec, s):
    for i in range(fcount(rec, s, S.FDISC)):
        if is_hero(rec, fcard_at(rec, s, S.FDISC, i)):
            return True
    return False


@njit(cache=True)
def effect_ok(rec, eff, a, arg, s, loc):
    """R17: whether an ability that is an action can resolve fully now (villain cards)."""
    if eff == S.E_DRAW:
        return vcount(rec, s, S.VDECK) + vcount(rec, s, S.VDISC) >= a
    if eff == S.E_PLAY_ALLY_FREE:
        return has_hand_type(rec, s, S.K_ALLY)
    if eff == S.E_MOVE_ALLY_ANY:
        return realm_has_vcard(rec, s, S.K_ALLY, 0, 0)
    if eff == S.E_MOVE_HERO_ANY:
        return realm_has_hero(rec, s, 0, 0)
    if eff == S.E_MOVE_NAMED_HERO:
        return findable(rec, s, arg) == 1
    if eff == S.E_MOVE_HERO_FROM_HERE:
        return any_hero(rec, s, loc, 0, 0)
    if eff == S.E_DEFEAT_HERO_LE:
        return realm_has_hero(rec, s, 1, a)
    if eff == S.E_DISCARD_FATE_ITEM:
        return realm_has_hero(rec, s, 3, 0)
    if eff == S.E_RETURN_ALLY:
        return has_disc_ally(rec, s)
    if eff == S.E_FETCH_NAMED:
        return fetchable(rec, s, arg)
    if eff == S.E_UNLOCK:
        return rec["locked"][s, arg] == 1
    if eff == S.E_DISCARD_ALLY_LE:
        return realm_has_vcard(rec, s, S.K_ALLY, 1, a)
    if eff == S.E_DISCARD_ITEM:
        return realm_has_vcard(rec, s, S.K_ITEM, 0, 0)
    if eff == S.E_FIND_HERO:
        return findable(rec, s, arg) > 0
    if eff == S.E_PLAY_FROM_FATE_DISCARD:
        return has_disc_hero(rec, s)
    if eff == S.E_REVEAL_UNTIL_HERO:
        return fate_hero_left(rec, s)
    return True


@njit(cache=True)
def fetch_named(rec, s, t):
    """FETCH_NAMED: the card from the discard pile, else from the searched and shuffled deck."""
    n = rec["num_players"]
    c = find_vtype(rec, s, S.VDISC, t)
    if c >= 0:
        vmove(rec, s, S.VDISC, c, S.HAND)
    else:
        look_at_zone(rec["vz"], rec["vz_n"], rec["vknown"], s * S.VZ + S.VDECK, s)
        c = find_vtype(rec, s, S.VDECK, t)
        if c < 0:
            return
        vmove(rec, s, S.VDECK, c, S.HAND)
        shuffle_known(rec["vz"], rec["vz_n"], rec["vknown"], n, s * S.VZ + S.VDECK, rec["rng"])
    reveal_all(rec["vknown"], c, n)


@njit(cache=True)
def start_effect(rec, eff, a, arg, s, who, card, loc, fin):
    """Resolve an ability: at once if it needs no choice, else as a pending entry."""
    if eff == S.E_GAIN_POWER:
        gain_power(rec, s, a)
    elif eff == S.E_LOSE_POWER:
        lose_power(rec, s, a)
    elif eff == S.E_DRAW:
        for _ in range(a):
            draw_card(rec, s)
    elif eff == S.E_FETCH_NAMED:
        fetch_named(rec, s, arg)
    elif eff == S.E_UNLOCK:
        rec["locked"][s, arg] = 0
    elif eff == S.E_SACRIFICE_GAIN:
        discard_vcard(rec, s, S.LOC0 + loc, card)
        gain_power(rec, s, a)
    elif eff == S.E_REVEAL_UNTIL_HERO:
        reveal_until_hero(rec, s, who)
    elif eff in (S.E_PLAY_ALLY_FREE, S.E_MOVE_ALLY_ANY, S.E_MOVE_HERO_ANY, S.E_MOVE_NAMED_HERO,
                 S.E_MOVE_HERO_FROM_HERE, S.E_MOVE_ALLY_FROM_HERE, S.E_DEFEAT_HERO_LE,
                 S.E_DEFEAT_HERE_LE, S.E_DEFEAT_NAMED_HERE, S.E_DISCARD_FATE_ITEM,
                 S.E_DISCARD_ALLY_LE, S.E_DISCARD_ALLY_HERE, S.E_DISCARD_ITEM,
                 S.E_DISCARD_ITEM_HERE, S.E_RETURN_ALLY, S.E_FIND_HERO, S.E_PLAY_FROM_FATE_DISCARD):
        push_entry(rec, eff, a, arg, s, who, card, loc, a if eff == S.E_MOVE_ALLY_ANY else 0,
                   fin)
        return
    if fin != S.FIN_NONE:  # an Effect card with no choice: to its discard pile
        push_entry(rec, 0, 0, -1, s, who, card, loc, 0, fin)
        pop_entry(rec)


@njit(cache=True)
def trigger_vcard(rec, s, c, loc, when):
    """A villain card's ``when=play`` / ``when=move`` ability (R33, R50, R51)."""
    t = vtype(rec, c)
    if S.V_WHEN[t] == when:
        start_effect(rec, S.V_EFF[t], S.V_A[t], S.V_ARG[t], s, s, c, loc, S.FIN_NONE)


@njit(cache=True)
def place_hero(rec, s, h, loc, who):
    """A Hero is played to ``loc`` (from FLIMBO, the discard or the deck); on-play (R48)."""
    reveal_all(rec["fknown"], h, rec["num_players"])
    t = ftype(rec, h)
    if S.F_WHEN[t] == S.W_PLAY:
        start_effect(rec, S.F_EFF[t], S.F_A[t], S.F_ARG[t], s, who, h, loc, S.FIN_NONE)


@njit(cache=True)
def entry_has_choice(rec, e):
    """Whether the pending entry ``e`` has anything to decide (else it is done)."""
    k = e[S.C_KIND]
    s = e[S.C_REALM]
    loc = e[S.C_LOC]
    a = e[S.C_A]
    if k == S.E_MOVE_ALLY_ANY:
        return e[S.C_LEFT] > 0 and realm_has_vcard(rec, s, S.K_ALLY, 0, 0)
    if k == S.E_MOVE_HERO_ANY:
        return realm_has_hero(rec, s, 0, 0)
    if k == S.E_MOVE_NAMED_HERO:
        return findable(rec, s, e[S.C_ARG]) == 1
    if k == S.E_MOVE_HERO_FROM_HERE:
        return any_hero(rec, s, loc, 0, 0)
    if k == S.E_MOVE_ALLY_FROM_HERE:
        if e[S.C_STEP] == 1:
            return True
        for i in range(vcount(rec, s, S.LOC0 + loc)):
            if S.V_KIND[vtype(rec, vcard_at(rec, s, S.LOC0 + loc, i))] == S.K_ALLY:
                return adjacent_open(rec, s, loc)
        return False
    if k == S.E_DEFEAT_HERO_LE:
        return realm_has_hero(rec, s, 1, a)
    if k == S.E_DEFEAT_HERE_LE:
        return any_hero(rec, s, loc, 1, a)
    if k == S.E_DEFEAT_NAMED_HERE:
        return pick_hero(rec, s, loc, e[S.C_ARG], 0, 0) >= 0
    if k == S.E_DISCARD_FATE_ITEM:
        return realm_has_hero(rec, s, 3, 0)
    if k == S.E_DISCARD_ALLY_LE:
        return realm_has_vcard(rec, s, S.K_ALLY, 1, a)
    if k == S.E_DISCARD_ALLY_HERE:
        return any_vcard(rec, s, loc, S.K_ALLY, 1, a)
    if k == S.E_DISCARD_ITEM:
        return realm_has_vcard(rec, s, S.K_ITEM, 0, 0)
    if k == S.E_DISCARD_ITEM_HERE:
        return any_vcard(rec, s, loc, S.K_ITEM, 0, 0)
    if k == S.E_RETURN_ALLY:
        return has_disc_ally(rec, s)
    if k == S.E_PLAY_ALLY_FREE:
        return e[S.C_STEP] == 1 or has_hand_type(rec, s, S.K_ALLY)
    if k == S.E_FIND_HERO:
        return findable(rec, s, e[S.C_ARG]) > 0
    if k == S.E_PLAY_FROM_FATE_DISCARD:
        return e[S.C_STEP] == 1 or has_disc_hero(rec, s)
    if k == S.K_FITEM:
        if loc >= 0:
            return heroes_at(rec, s, loc) > 0
        return realm_has_hero(rec, s, 0, 0)
    if k == S.K_DISCARD:
        return vcount(rec, s, S.HAND) > 0
    if k >= S.K_PLAY:
        return True
    return False


@njit(cache=True)
def reveal_top(rec, q):
    """Reveal the top Fate card of ``q`` (R36, R13: an empty deck takes its discard)."""
    n = rec["num_players"]
    dz = q * S.FZ + S.FDECK
    if rec["fz_n"][dz] == 0 and fcount(rec, q, S.FDISC) > 0:
        src = q * S.FZ + S.FDISC
        while rec["fz_n"][src] > 0:
            zone_push(rec["fz"], rec["fz_n"], dz,
                      zone_take(rec["fz"], rec["fz_n"], src, rec["fz_n"][src] - 1))
        shuffle_known(rec["fz"], rec["fz_n"], rec["fknown"], n, dz, rec["rng"])
    if rec["fz_n"][dz] == 0:
        return
    c = zone_take(rec["fz"], rec["fz_n"], dz, rec["fz_n"][dz] - 1)
    zone_push(rec["fz"], rec["fz_n"], S.REVEAL, c)
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
        before = rec["fz_n"][S.REVEAL]
        reveal_top(rec, s)
        if rec["fz_n"][S.REVEAL] == before:  # nothing left (R17 rules this out)
            break
        c = rec["fz"][S.REVEAL, rec["fz_n"][S.REVEAL] - 1]
        if is_hero(rec, c):
            h = c
    if h >= 0:
        fmove_abs(rec, S.REVEAL, h, S.FLIMBO)
    while rec["fz_n"][S.REVEAL] > 0:
        d = zone_take(rec["fz"], rec["fz_n"], S.REVEAL, 0)
        zone_push(rec["fz"], rec["fz_n"], s * S.FZ + S.FDISC, d)
    if h >= 0:
        push_entry(rec, S.K_FHERO, 0, -1, s, who, h, -1, 0, S.FIN_FCARD)
