"""Abilities and the pending entries ``ent``.

Pushing and popping entries, whether an ability can resolve (R17), resolving it at once
or as an entry, revealing Fate cards until a Hero (R53a), whether an entry has a choice.
"""

# ruff: noqa: D103  (as for envs/*/rules.py: kernels named after the rule they apply)
from __future__ import annotations

from fatezoo.envs.core.jit import njit
from fatezoo.envs.core.knowledge import look_at_zone, reveal_all, shuffle_known
from fatezoo.envs.core.zones import zone_push, zone_take

from ..state import (
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
    DEPTH,
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
    E_LOSE_POWER,
    E_MOVE_ALLY_ANY,
    E_MOVE_ALLY_FROM_HERE,
    E_MOVE_HERO_ANY,
    E_MOVE_HERO_FROM_HERE,
    E_MOVE_NAMED_HERO,
    E_PLAY_ALLY_FREE,
    E_PLAY_FROM_FATE_DISCARD,
    E_RETURN_ALLY,
    E_REVEAL_UNTIL_HERO,
    E_SACRIFICE_GAIN,
    E_UNLOCK,
    F_A,
    F_ARG,
    F_EFF,
    F_WHEN,
    FDECK,
    FDISC,
    FIN_FCARD,
    FIN_NONE,
    FIN_VCARD,
    FLIMBO,
    FZ,
    HAND,
    HERO0,
    K_ALLY,
    K_DISCARD,
    K_FHERO,
    K_FITEM,
    K_ITEM,
    K_PLAY,
    LIMBO,
    LOC0,
    PILE0,
    REVEAL,
    V_A,
    V_ARG,
    V_EFF,
    V_KIND,
    V_WHEN,
    VDECK,
    VDISC,
    VZ,
    W_PLAY,
)
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
