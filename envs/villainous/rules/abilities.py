"""Entries of the ability kinds (effect codes that need a choice): mask and apply of each.

``entries`` routes to the functions below by kind; kinds of one shape (a Hero anywhere, a
card here, ...) share a function and branch on ``e[C_KIND]``.
"""

# ruff: noqa: D103  (as for envs/*/rules.py: kernels named after the rule they apply)
from __future__ import annotations

from fatezoo.envs.core.jit import njit
from fatezoo.envs.core.knowledge import reveal_all

from ..state import (
    C_A,
    C_ARG,
    C_C0,
    C_C1,
    C_KIND,
    C_LEFT,
    C_LOC,
    C_REALM,
    C_STEP,
    C_WHO,
    E_DEFEAT_HERE_LE,
    E_DEFEAT_HERO_LE,
    E_DISCARD_ALLY_HERE,
    E_DISCARD_ALLY_LE,
    E_DISCARD_FATE_ITEM,
    E_MOVE_HERO_ANY,
    F_LOCAL,
    FCARD,
    FDISC,
    FLOC,
    FZ,
    HAND,
    HERO0,
    K_ALLY,
    K_ITEM,
    LOC0,
    LOCATION,
    PASS,
    V_KIND,
    V_LOCAL,
    VCARD,
    VDISC,
    VLOC,
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
from .choices import (
    find_and_play,
    mask_dest,
    mask_hero_types_at,
    mask_locations_with_allies,
    mask_vtypes_at,
    move_vcard,
    pick_named,
    play_villain_card,
)
from .effects import place_hero, pop_entry
from .moving import defeat_hero, discard_vcard, hero_loc, move_hero
from .strength import any_hero, pick_hero, pick_vcard


@njit(cache=True, inline="always")
def mask_play_ally_free(rec, mask, e):
    """PLAY_ALLY_FREE: an Ally of the hand, then an unlocked location."""
    s = e[C_REALM]
    if e[C_STEP] == 0:
        for i in range(vcount(rec, s, HAND)):
            t = vtype(rec, vcard_at(rec, s, HAND, i))
            if V_KIND[t] == K_ALLY:
                mask[VCARD + V_LOCAL[t]] = 1
    else:
        mask_dest(rec, mask, s, -1, False)


@njit(cache=True, inline="always")
def apply_play_ally_free(rec, e, action):
    s = e[C_REALM]
    if e[C_STEP] == 0:
        e[C_C0] = find_vtype(rec, s, HAND, VLOC[rec["villain"][s], action - VCARD])
        reveal_all(rec["vknown"], e[C_C0], rec["num_players"])
        e[C_STEP] = 1
    else:
        c = e[C_C0]
        pop_entry(rec)
        play_villain_card(rec, s, c, action - LOCATION)


@njit(cache=True, inline="always")
def mask_move_ally_any(rec, mask, e):
    """MOVE_ALLY_ANY: location, Ally, destination, up to ``a`` times (pass after one)."""
    s = e[C_REALM]
    st = e[C_STEP]
    if st == 0:
        mask_locations_with_allies(rec, mask, s, K_ALLY, 0, 0, False)
        if e[C_LEFT] < e[C_A]:
            mask[PASS] = 1
    elif st == 1:
        mask_vtypes_at(rec, mask, s, e[C_C0], K_ALLY, 0, 0)
    else:
        mask_dest(rec, mask, s, e[C_C0], False)


@njit(cache=True, inline="always")
def mask_hero_anywhere(rec, mask, e):
    """MOVE_HERO_ANY, DEFEAT_HERO_LE, DISCARD_FATE_ITEM: a location, a Hero (or Item) there.

    Then MOVE_HERO_ANY's destination.
    """
    s = e[C_REALM]
    k = e[C_KIND]
    st = e[C_STEP]
    a = e[C_A]
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


@njit(cache=True, inline="always")
def apply_defeat_or_discard_item(rec, e, action):
    """DEFEAT_HERO_LE and DISCARD_FATE_ITEM: a location, then the Hero or the Item."""
    s = e[C_REALM]
    if e[C_STEP] == 0:
        e[C_C0] = action - LOCATION
        e[C_STEP] = 1
        return
    q = e[C_C0]
    t = FLOC[rec["villain"][s], action - FCARD]
    if e[C_KIND] == E_DEFEAT_HERO_LE:
        h = pick_hero(rec, s, q, t, 1, e[C_A])
        pop_entry(rec)
        defeat_hero(rec, s, h)
    else:
        z = s * FZ + HERO0 + q
        c = -1
        for i in range(rec["fz_n"][z]):
            d = rec["fz"][z, i]
            if ftype(rec, d) == t and rec["attach"][d] >= 0 and (c < 0 or d < c):
                c = d
        rec["attach"][c] = -1
        pop_entry(rec)
        fmove_abs(rec, z, c, s * FZ + FDISC)


@njit(cache=True, inline="always")
def apply_move_named_hero(rec, e, action):
    """MOVE_NAMED_HERO: the named Hero to the chosen location (mask: mask_dest from it)."""
    s = e[C_REALM]
    h = pick_named(rec, s, e[C_ARG])
    pop_entry(rec)
    move_hero(rec, s, h, action - LOCATION)


@njit(cache=True, inline="always")
def mask_move_hero_from_here(rec, mask, e):
    """MOVE_HERO_FROM_HERE: a Hero at the card's location, then a destination."""
    s = e[C_REALM]
    if e[C_STEP] == 0:
        mask_hero_types_at(rec, mask, s, e[C_LOC], 0, 0)
    else:
        mask_dest(rec, mask, s, e[C_LOC], False)


@njit(cache=True, inline="always")
def apply_move_hero_from_here(rec, e, action):
    s = e[C_REALM]
    if e[C_STEP] == 0:
        e[C_C1] = pick_hero(rec, s, e[C_LOC], FLOC[rec["villain"][s], action - FCARD], 0, 0)
        e[C_STEP] = 1
    else:
        h = e[C_C1]
        pop_entry(rec)
        move_hero(rec, s, h, action - LOCATION)


@njit(cache=True, inline="always")
def mask_move_ally_from_here(rec, mask, e):
    """MOVE_ALLY_FROM_HERE: an Ally at the card's location (or pass), an adjacent location."""
    s = e[C_REALM]
    if e[C_STEP] == 0:
        mask_vtypes_at(rec, mask, s, e[C_LOC], K_ALLY, 0, 0)
        mask[PASS] = 1
    else:
        mask_dest(rec, mask, s, e[C_LOC], True)


@njit(cache=True, inline="always")
def apply_move_ally_from_here(rec, e, action):
    s = e[C_REALM]
    loc = e[C_LOC]
    if action == PASS:
        pop_entry(rec)
    elif e[C_STEP] == 0:
        e[C_C1] = pick_vcard(rec, s, loc, VLOC[rec["villain"][s], action - VCARD], 0, 0)
        e[C_STEP] = 1
    else:
        c = e[C_C1]
        pop_entry(rec)
        move_vcard(rec, s, c, loc, action - LOCATION)


@njit(cache=True, inline="always")
def mask_defeat_here(rec, mask, e):
    """DEFEAT_HERE_LE and DEFEAT_NAMED_HERE: a Hero at the card's location, or pass."""
    if e[C_KIND] == E_DEFEAT_HERE_LE:
        mask_hero_types_at(rec, mask, e[C_REALM], e[C_LOC], 1, e[C_A])
    else:
        mask[FCARD + F_LOCAL[e[C_ARG]]] = 1
    mask[PASS] = 1


@njit(cache=True, inline="always")
def apply_defeat_here(rec, e, action):
    s = e[C_REALM]
    if action == PASS:
        pop_entry(rec)
    else:
        mode = 1 if e[C_KIND] == E_DEFEAT_HERE_LE else 0
        h = pick_hero(rec, s, e[C_LOC], FLOC[rec["villain"][s], action - FCARD], mode, e[C_A])
        pop_entry(rec)
        defeat_hero(rec, s, h)


@njit(cache=True, inline="always")
def mask_discard_anywhere(rec, mask, e):
    """DISCARD_ALLY_LE and DISCARD_ITEM: a location, then an Ally (Strength <= a) or Item."""
    s = e[C_REALM]
    k = e[C_KIND]
    kind = K_ALLY if k == E_DISCARD_ALLY_LE else K_ITEM
    mode = 1 if k == E_DISCARD_ALLY_LE else 0
    if e[C_STEP] == 0:
        mask_locations_with_allies(rec, mask, s, kind, mode, e[C_A], False)
    else:
        mask_vtypes_at(rec, mask, s, e[C_C0], kind, mode, e[C_A])


@njit(cache=True, inline="always")
def apply_discard_anywhere(rec, e, action):
    s = e[C_REALM]
    if e[C_STEP] == 0:
        e[C_C0] = action - LOCATION
        e[C_STEP] = 1
    else:
        q = e[C_C0]
        mode = 1 if e[C_KIND] == E_DISCARD_ALLY_LE else 0
        c = pick_vcard(rec, s, q, VLOC[rec["villain"][s], action - VCARD], mode, e[C_A])
        pop_entry(rec)
        discard_vcard(rec, s, LOC0 + q, c)


@njit(cache=True, inline="always")
def mask_discard_here(rec, mask, e):
    """DISCARD_ALLY_HERE and DISCARD_ITEM_HERE: a card at the card's location, or pass."""
    if e[C_KIND] == E_DISCARD_ALLY_HERE:
        mask_vtypes_at(rec, mask, e[C_REALM], e[C_LOC], K_ALLY, 1, e[C_A])
    else:
        mask_vtypes_at(rec, mask, e[C_REALM], e[C_LOC], K_ITEM, 0, 0)
    mask[PASS] = 1


@njit(cache=True, inline="always")
def apply_discard_here(rec, e, action):
    s = e[C_REALM]
    loc = e[C_LOC]
    if action == PASS:
        pop_entry(rec)
    else:
        mode = 1 if e[C_KIND] == E_DISCARD_ALLY_HERE else 0
        c = pick_vcard(rec, s, loc, VLOC[rec["villain"][s], action - VCARD], mode, e[C_A])
        pop_entry(rec)
        discard_vcard(rec, s, LOC0 + loc, c)


@njit(cache=True, inline="always")
def mask_return_ally(rec, mask, e):
    """RETURN_ALLY: an Ally of the discard pile."""
    s = e[C_REALM]
    for i in range(vcount(rec, s, VDISC)):
        t = vtype(rec, vcard_at(rec, s, VDISC, i))
        if V_KIND[t] == K_ALLY:
            mask[VCARD + V_LOCAL[t]] = 1


@njit(cache=True, inline="always")
def apply_return_ally(rec, e, action):
    s = e[C_REALM]
    c = find_vtype(rec, s, VDISC, VLOC[rec["villain"][s], action - VCARD])
    pop_entry(rec)
    vmove(rec, s, VDISC, c, HAND)
    reveal_all(rec["vknown"], c, rec["num_players"])


@njit(cache=True, inline="always")
def apply_find_hero(rec, e, action):
    """FIND_HERO (R52, R53): the named Hero to the chosen location (mask: mask_dest)."""
    s = e[C_REALM]
    t = e[C_ARG]
    who = e[C_WHO]
    pop_entry(rec)
    find_and_play(rec, s, t, action - LOCATION, who)


@njit(cache=True, inline="always")
def mask_play_from_fate_discard(rec, mask, e):
    """PLAY_FROM_FATE_DISCARD: a Hero of the Fate discard pile, then a location."""
    s = e[C_REALM]
    if e[C_STEP] == 0:
        for i in range(fcount(rec, s, FDISC)):
            c = fcard_at(rec, s, FDISC, i)
            if is_hero(rec, c):
                mask[FCARD + F_LOCAL[ftype(rec, c)]] = 1
    else:
        mask_dest(rec, mask, s, -1, False)


@njit(cache=True, inline="always")
def apply_play_from_fate_discard(rec, e, action):
    s = e[C_REALM]
    if e[C_STEP] == 0:
        t = FLOC[rec["villain"][s], action - FCARD]
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
        who = e[C_WHO]
        pop_entry(rec)
        fmove_abs(rec, s * FZ + FDISC, c, s * FZ + HERO0 + action - LOCATION)
        place_hero(rec, s, c, action - LOCATION, who)


@njit(cache=True, inline="always")
def mask_move_named_hero(rec, mask, e):
    """MOVE_NAMED_HERO: a destination for the named Hero."""
    s = e[C_REALM]
    mask_dest(rec, mask, s, hero_loc(rec, s, pick_named(rec, s, e[C_ARG])), False)


@njit(cache=True, inline="always")
def mask_any_location(rec, mask, e):
    """FATE_HERO and FIND_HERO: any unlocked location for the Hero."""
    mask_dest(rec, mask, e[C_REALM], -1, False)
