"""Entries of the ability kinds (effect codes that need a choice): mask and apply of each.

``entries`` routes to the functions below by kind; kinds of one shape (a Hero anywhere, a
card here, ...) share a function and branch on ``e[C_KIND]``.
"""

# ruff: noqa: D103  (as for envs/*/rules.py: kernels named after the rule they apply)
from __future__ import annotations

from fatezoo.envs.core.jit import njit
from fatezoo.envs.core.knowledge import reveal_all

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
    s = e[S.C_REALM]
    if e[S.C_STEP] == 0:
        for i in range(vcount(rec, s, S.HAND)):
            t = vtype(rec, vcard_at(rec, s, S.HAND, i))
            if S.V_KIND[t] == S.K_ALLY:
                mask[S.VCARD + S.V_LOCAL[t]] = 1
    else:
        mask_dest(rec, mask, s, -1, False)


@njit(cache=True, inline="always")
def apply_play_ally_free(rec, e, action):
    s = e[S.C_REALM]
    if e[S.C_STEP] == 0:
        e[S.C_C0] = find_vtype(rec, s, S.HAND, S.VLOC[rec["villain"][s], action - S.VCARD])
        reveal_all(rec["vknown"], e[S.C_C0], rec["num_players"])
        e[S.C_STEP] = 1
    else:
        c = e[S.C_C0]
        pop_entry(rec)
        play_villain_card(rec, s, c, action - S.LOCATION)


@njit(cache=True, inline="always")
def mask_move_ally_any(rec, mask, e):
    """MOVE_ALLY_ANY: location, Ally, destination, up to ``a`` times (pass after one)."""
    s = e[S.C_REALM]
    st = e[S.C_STEP]
    if st == 0:
        mask_locations_with_allies(rec, mask, s, S.K_ALLY, 0, 0, False)
        if e[S.C_LEFT] < e[S.C_A]:
            mask[S.PASS] = 1
    elif st == 1:
        mask_vtypes_at(rec, mask, s, e[S.C_C0], S.K_ALLY, 0, 0)
    else:
        mask_dest(rec, mask, s, e[S.C_C0], False)


@njit(cache=True, inline="always")
def mask_hero_anywhere(rec, mask, e):
    """MOVE_HERO_ANY, DEFEAT_HERO_LE, DISCARD_FATE_ITEM: a location, a Hero (or Item) there.

    Then MOVE_HERO_ANY's destination.
    """
    s = e[S.C_REALM]
    k = e[S.C_KIND]
    st = e[S.C_STEP]
    a = e[S.C_A]
    mode = 0 if k == S.E_MOVE_HERO_ANY else (1 if k == S.E_DEFEAT_HERO_LE else 3)
    if st == 0:
        for q in range(4):
            if any_hero(rec, s, q, mode, a):
                mask[S.LOCATION + q] = 1
    elif st == 1:
        if k == S.E_DISCARD_FATE_ITEM:
            z = s * S.FZ + S.HERO0 + e[S.C_C0]
            for i in range(rec["fz_n"][z]):
                c = rec["fz"][z, i]
                if rec["attach"][c] >= 0:
                    mask[S.FCARD + S.F_LOCAL[ftype(rec, c)]] = 1
        else:
            mask_hero_types_at(rec, mask, s, e[S.C_C0], mode, a)
    else:
        mask_dest(rec, mask, s, e[S.C_C0], False)


@njit(cache=True, inline="always")
def apply_defeat_or_discard_item(rec, e, action):
    """DEFEAT_HERO_LE and DISCARD_FATE_ITEM: a location, then the Hero or the Item."""
    s = e[S.C_REALM]
    if e[S.C_STEP] == 0:
        e[S.C_C0] = action - S.LOCATION
        e[S.C_STEP] = 1
        return
    q = e[S.C_C0]
    t = S.FLOC[rec["villain"][s], action - S.FCARD]
    if e[S.C_KIND] == S.E_DEFEAT_HERO_LE:
        h = pick_hero(rec, s, q, t, 1, e[S.C_A])
        pop_entry(rec)
        defeat_hero(rec, s, h)
    else:
        z = s * S.FZ + S.HERO0 + q
        c = -1
        for i in range(rec["fz_n"][z]):
            d = rec["fz"][z, i]
            if ftype(rec, d) == t and rec["attach"][d] >= 0 and (c < 0 or d < c):
                c = d
        rec["attach"][c] = -1
        pop_entry(rec)
        fmove_abs(rec, z, c, s * S.FZ + S.FDISC)


@njit(cache=True, inline="always")
def apply_move_named_hero(rec, e, action):
    """MOVE_NAMED_HERO: the named Hero to the chosen location (mask: mask_dest from it)."""
    s = e[S.C_REALM]
    h = pick_named(rec, s, e[S.C_ARG])
    pop_entry(rec)
    move_hero(rec, s, h, action - S.LOCATION)


@njit(cache=True, inline="always")
def mask_move_hero_from_here(rec, mask, e):
    """MOVE_HERO_FROM_HERE: a Hero at the card's location, then a destination."""
    s = e[S.C_REALM]
    if e[S.C_STEP] == 0:
        mask_hero_types_at(rec, mask, s, e[S.C_LOC], 0, 0)
    else:
        mask_dest(rec, mask, s, e[S.C_LOC], False)


@njit(cache=True, inline="always")
def apply_move_hero_from_here(rec, e, action):
    s = e[S.C_REALM]
    if e[S.C_STEP] == 0:
        e[S.C_C1] = pick_hero(rec, s, e[S.C_LOC], S.FLOC[rec["villain"][s], action - S.FCARD], 0, 0)
        e[S.C_STEP] = 1
    else:
        h = e[S.C_C1]
        pop_entry(rec)
        move_hero(rec, s, h, action - S.LOCATION)


@njit(cache=True, inline="always")
def mask_move_ally_from_here(rec, mask, e):
    """MOVE_ALLY_FROM_HERE: an Ally at the card's location (or pass), an adjacent location."""
    s = e[S.C_REALM]
    if e[S.C_STEP] == 0:
        mask_vtypes_at(rec, mask, s, e[S.C_LOC], S.K_ALLY, 0, 0)
        mask[S.PASS] = 1
    else:
        mask_dest(rec, mask, s, e[S.C_LOC], True)


@njit(cache=True, inline="always")
def apply_move_ally_from_here(rec, e, action):
    s = e[S.C_REALM]
    loc = e[S.C_LOC]
    if action == S.PASS:
        pop_entry(rec)
    elif e[S.C_STEP] == 0:
        e[S.C_C1] = pick_vcard(rec, s, loc, S.VLOC[rec["villain"][s], action - S.VCARD], 0, 0)
        e[S.C_STEP] = 1
    else:
        c = e[S.C_C1]
        pop_entry(rec)
        move_vcard(rec, s, c, loc, action - S.LOCATION)


@njit(cache=True, inline="always")
def mask_defeat_here(rec, mask, e):
    """DEFEAT_HERE_LE and DEFEAT_NAMED_HERE: a Hero at the card's location, or pass."""
    if e[S.C_KIND] == S.E_DEFEAT_HERE_LE:
        mask_hero_types_at(rec, mask, e[S.C_REALM], e[S.C_LOC], 1, e[S.C_A])
    else:
        mask[S.FCARD + S.F_LOCAL[e[S.C_ARG]]] = 1
    mask[S.PASS] = 1


@njit(cache=True, inline="always")
def apply_defeat_here(rec, e, action):
    s = e[S.C_REALM]
    if action == S.PASS:
        pop_entry(rec)
    else:
        mode = 1 if e[S.C_KIND] == S.E_DEFEAT_HERE_LE else 0
        hero_loc = S.FLOC[rec["villain"][s], action - S.FCARD]
        h = pick_hero(rec, s, e[S.C_LOC], hero_loc, mode, e[S.C_A])
        pop_entry(rec)
        defeat_hero(rec, s, h)


@njit(cache=True, inline="always")
def mask_discard_anywhere(rec, mask, e):
    """DISCARD_ALLY_LE and DISCARD_ITEM: a location, then an Ally (Strength <= a) or Item."""
    s = e[S.C_REALM]
    k = e[S.C_KIND]
    kind = S.K_ALLY if k == S.E_DISCARD_ALLY_LE else S.K_ITEM
    mode = 1 if k == S.E_DISCARD_ALLY_LE else 0
    if e[S.C_STEP] == 0:
        mask_locations_with_allies(rec, mask, s, kind, mode, e[S.C_A], False)
    else:
        mask_vtypes_at(rec, mask, s, e[S.C_C0], kind, mode, e[S.C_A])


@njit(cache=True, inline="always")
def apply_discard_anywhere(rec, e, action):
    s = e[S.C_REALM]
    if e[S.C_STEP] == 0:
        e[S.C_C0] = action - S.LOCATION
        e[S.C_STEP] = 1
    else:
        q = e[S.C_C0]
        mode = 1 if e[S.C_KIND] == S.E_DISCARD_ALLY_LE else 0
        c = pick_vcard(rec, s, q, S.VLOC[rec["villain"][s], action - S.VCARD], mode, e[S.C_A])
        pop_entry(rec)
        discard_vcard(rec, s, S.LOC0 + q, c)


@njit(cache=True, inline="always")
def mask_discard_here(rec, mask, e):
    """DISCARD_ALLY_HERE and DISCARD_ITEM_HERE: a card at the card's location, or pass."""
    if e[S.C_KIND] == S.E_DISCARD_ALLY_HERE:
        mask_vtypes_at(rec, mask, e[S.C_REALM], e[S.C_LOC], S.K_ALLY, 1, e[S.C_A])
    else:
        mask_vtypes_at(rec, mask, e[S.C_REALM], e[S.C_LOC], S.K_ITEM, 0, 0)
    mask[S.PASS] = 1


@njit(cache=True, inline="always")
def apply_discard_here(rec, e, action):
    s = e[S.C_REALM]
    loc = e[S.C_LOC]
    if action == S.PASS:
        pop_entry(rec)
    else:
        mode = 1 if e[S.C_KIND] == S.E_DISCARD_ALLY_HERE else 0
        c = pick_vcard(rec, s, loc, S.VLOC[rec["villain"][s], action - S.VCARD], mode, e[S.C_A])
        pop_entry(rec)
        discard_vcard(rec, s, S.LOC0 + loc, c)


@njit(cache=True, inline="always")
def mask_return_ally(rec, mask, e):
    """RETURN_ALLY: an Ally of the discard pile."""
    s = e[S.C_REALM]
    for i in range(vcount(rec, s, S.VDISC)):
        t = vtype(rec, vcard_at(rec, s, S.VDISC, i))
        if S.V_KIND[t] == S.K_ALLY:
            mask[S.VCARD + S.V_LOCAL[t]] = 1


@njit(cache=True, inline="always")
def apply_return_ally(rec, e, action):
    s = e[S.C_REALM]
    c = find_vtype(rec, s, S.VDISC, S.VLOC[rec["villain"][s], action - S.VCARD])
    pop_entry(rec)
    vmove(rec, s, S.VDISC, c, S.HAND)
    reveal_all(rec["vknown"], c, rec["num_players"])


@njit(cache=True, inline="always")
def apply_find_hero(rec, e, action):
    """FIND_HERO (R52, R53): the named Hero to the chosen location (mask: mask_dest)."""
    s = e[S.C_REALM]
    t = e[S.C_ARG]
    who = e[S.C_WHO]
    pop_entry(rec)
    find_and_play(rec, s, t, action - S.LOCATION, who)


@njit(cache=True, inline="always")
def mask_play_from_fate_discard(rec, mask, e):
    """PLAY_FROM_FATE_DISCARD: a Hero of the Fate discard pile, then a location."""
    s = e[S.C_REALM]
    if e[S.C_STEP] == 0:
        for i in range(fcount(rec, s, S.FDISC)):
            c = fcard_at(rec, s, S.FDISC, i)
            if is_hero(rec, c):
                mask[S.FCARD + S.F_LOCAL[ftype(rec, c)]] = 1
    else:
        mask_dest(rec, mask, s, -1, False)


@njit(cache=True, inline="always")
def apply_play_from_fate_discard(rec, e, action):
    s = e[S.C_REALM]
    if e[S.C_STEP] == 0:
        t = S.FLOC[rec["villain"][s], action - S.FCARD]
        z = s * S.FZ + S.FDISC
        c = -1
        for i in range(rec["fz_n"][z]):
            d = rec["fz"][z, i]
            if ftype(rec, d) == t and (c < 0 or d < c):
                c = d
        e[S.C_C0] = c
        e[S.C_STEP] = 1
    else:
        c = e[S.C_C0]
        who = e[S.C_WHO]
        pop_entry(rec)
        fmove_abs(rec, s * S.FZ + S.FDISC, c, s * S.FZ + S.HERO0 + action - S.LOCATION)
        place_hero(rec, s, c, action - S.LOCATION, who)


@njit(cache=True, inline="always")
def mask_move_named_hero(rec, mask, e):
    """MOVE_NAMED_HERO: a destination for the named Hero."""
    s = e[S.C_REALM]
    mask_dest(rec, mask, s, hero_loc(rec, s, pick_named(rec, s, e[S.C_ARG])), False)


@njit(cache=True, inline="always")
def mask_any_location(rec, mask, e):
    """FATE_HERO and FIND_HERO: any unlocked location for the Hero."""
    mask_dest(rec, mask, e[S.C_REALM], -1, False)
