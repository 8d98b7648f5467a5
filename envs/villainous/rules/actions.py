"""Entries of the action kinds (PLAY .. FATE_ITEM): each kind's legal mask and apply.

An action taken from a slot (R10) that needs choices is an entry of kind ``K_PLAY`` ..
``K_DISCARD``; a Fate Hero or Item waiting for its location is ``K_FHERO`` / ``K_FITEM``.
``entries`` routes to the functions below by kind; ``e`` is the top entry (a row of
``ent``). MOVE_ITEM_ALLY and MOVE_HERO share their apply with the abilities MOVE_ALLY_ANY
and MOVE_HERO_ANY.
"""

# ruff: noqa: D103  (as for envs/*/rules.py: kernels named after the rule they apply)
from __future__ import annotations

from fatezoo.envs.core.jit import njit
from fatezoo.envs.core.knowledge import reveal_all

from .. import state as S
from .cards import find_vtype, fmove_abs, ftype, unlocked, vcard_at, vcount, vmove, vtype
from .choices import (
    mask_dest,
    mask_hero_types_at,
    mask_locations_with_allies,
    mask_vtypes_at,
    move_vcard,
    play_villain_card,
    vq_chosen,
    vq_total,
)
from .effects import place_hero, pop_entry, start_effect
from .moving import defeat_hero, discard_vcard, move_hero
from .strength import (
    adjacent_open,
    any_hero,
    card_cost,
    hero_str,
    heroes_at,
    kronk_may,
    pick_hero,
    pick_vcard,
)
from .turn import can_activate, can_play_card


@njit(cache=True, inline="always")
def mask_play(rec, mask, e):
    """PLAY: a card of the hand it can pay for (R15), then an unlocked location."""
    s = e[S.C_REALM]
    if e[S.C_STEP] == 0:
        for i in range(vcount(rec, s, S.HAND)):
            t = vtype(rec, vcard_at(rec, s, S.HAND, i))
            if can_play_card(rec, s, t):
                mask[S.VCARD + S.V_LOCAL[t]] = 1
    else:
        mask_dest(rec, mask, s, -1, False)


@njit(cache=True, inline="always")
def apply_play(rec, e, action):
    s = e[S.C_REALM]
    if e[S.C_STEP] == 0:
        t = S.VLOC[rec["villain"][s], action - S.VCARD]
        c = find_vtype(rec, s, S.HAND, t)
        if S.V_KIND[t] == S.K_EFFECT:
            rec["power"][s] -= card_cost(rec, s, t)
            vmove(rec, s, S.HAND, c, S.LIMBO)
            reveal_all(rec["vknown"], c, rec["num_players"])
            pop_entry(rec)
            start_effect(rec, S.V_EFF[t], S.V_A[t], S.V_ARG[t], s, s, c, -1, S.FIN_VCARD)
        else:  # choosing the card shows it (so no determinization moves it)
            reveal_all(rec["vknown"], c, rec["num_players"])
            e[S.C_C0] = c
            e[S.C_STEP] = 1
    else:
        c = e[S.C_C0]
        rec["power"][s] -= card_cost(rec, s, vtype(rec, c))
        pop_entry(rec)
        play_villain_card(rec, s, c, action - S.LOCATION)


@njit(cache=True, inline="always")
def mask_activate(rec, mask, e):
    """ACTIVATE: a location with a card that can activate, then that card (R32)."""
    s = e[S.C_REALM]
    if e[S.C_STEP] == 0:
        for q in range(4):
            for i in range(vcount(rec, s, S.LOC0 + q)):
                if can_activate(rec, s, vcard_at(rec, s, S.LOC0 + q, i), q):
                    mask[S.LOCATION + q] = 1
    else:
        q = e[S.C_C0]
        for i in range(vcount(rec, s, S.LOC0 + q)):
            c = vcard_at(rec, s, S.LOC0 + q, i)
            if can_activate(rec, s, c, q):
                mask[S.VCARD + S.V_LOCAL[vtype(rec, c)]] = 1


@njit(cache=True, inline="always")
def apply_activate(rec, e, action):
    s = e[S.C_REALM]
    if e[S.C_STEP] == 0:
        e[S.C_C0] = action - S.LOCATION
        e[S.C_STEP] = 1
    else:
        q = e[S.C_C0]
        t = S.VLOC[rec["villain"][s], action - S.VCARD]
        c = -1
        z = s * S.VZ + S.LOC0 + q
        for i in range(rec["vz_n"][z]):
            d = rec["vz"][z, i]
            if vtype(rec, d) == t and can_activate(rec, s, d, q) and (c < 0 or d < c):
                c = d
        rec["power"][s] -= S.V_ACT[t]
        pop_entry(rec)
        start_effect(rec, S.V_EFF[t], S.V_A[t], S.V_ARG[t], s, s, c, q, S.FIN_NONE)


@njit(cache=True, inline="always")
def mask_move_item_ally(rec, mask, e):
    """MOVE_ITEM_ALLY: a location, a card there, an adjacent location (R19)."""
    s = e[S.C_REALM]
    st = e[S.C_STEP]
    if st == 0:
        mask_locations_with_allies(rec, mask, s, -1, 0, 0, True)
    elif st == 1:
        mask_vtypes_at(rec, mask, s, e[S.C_C0], -1, 0, 0)
    else:
        mask_dest(rec, mask, s, e[S.C_C0], True)


@njit(cache=True, inline="always")
def mask_move_hero(rec, mask, e):
    """MOVE_HERO: a location with a Hero, a Hero there, an adjacent location (R21)."""
    s = e[S.C_REALM]
    st = e[S.C_STEP]
    if st == 0:
        for q in range(4):
            if unlocked(rec, s, q) and heroes_at(rec, s, q) > 0 and adjacent_open(rec, s, q):
                mask[S.LOCATION + q] = 1
    elif st == 1:
        mask_hero_types_at(rec, mask, s, e[S.C_C0], 0, 0)
    else:
        mask_dest(rec, mask, s, e[S.C_C0], True)


@njit(cache=True, inline="always")
def mask_vanquish(rec, mask, e):
    """VANQUISH (R23): a location, a Hero there, then Allies one by one; pass to defeat."""
    s = e[S.C_REALM]
    st = e[S.C_STEP]
    if st == 0:
        for q in range(4):
            if any_hero(rec, s, q, 2, 0):
                mask[S.LOCATION + q] = 1
    elif st == 1:
        mask_hero_types_at(rec, mask, s, e[S.C_C0], 2, 0)
    else:
        q = e[S.C_C0]
        h = e[S.C_C1]
        z = s * S.VZ + S.LOC0 + q
        kronk_ok = kronk_may(rec, s, q, h)
        for i in range(rec["vz_n"][z]):
            c = rec["vz"][z, i]
            t = vtype(rec, c)
            if S.V_KIND[t] == S.K_ALLY and not vq_chosen(rec, c) and (t != S.KRONK or kronk_ok):
                mask[S.VCARD + S.V_LOCAL[t]] = 1
        if rec["vq_n"] > 0 and vq_total(rec, s, q) >= hero_str(rec, s, h, q):
            mask[S.PASS] = 1


@njit(cache=True, inline="always")
def apply_vanquish(rec, e, action):
    s = e[S.C_REALM]
    st = e[S.C_STEP]
    vil = rec["villain"][s]
    if st == 0:
        e[S.C_C0] = action - S.LOCATION
        e[S.C_STEP] = 1
    elif st == 1:
        e[S.C_C1] = pick_hero(rec, s, e[S.C_C0], S.FLOC[vil, action - S.FCARD], 2, 0)
        e[S.C_STEP] = 2
        rec["vq_n"] = 0
    elif action == S.PASS:
        q, h = e[S.C_C0], e[S.C_C1]
        kronk = False
        for j in range(rec["vq_n"]):
            c = rec["vq"][j]
            if vtype(rec, c) == S.KRONK:
                kronk = True
            discard_vcard(rec, s, S.LOC0 + q, c)
            rec["vq"][j] = -1
        rec["vq_n"] = 0
        if kronk and ftype(rec, h) == S.KUZCO:
            rec["goal"][s] = 1
        pop_entry(rec)
        defeat_hero(rec, s, h)
    else:
        q = e[S.C_C0]
        t = S.VLOC[vil, action - S.VCARD]
        z = s * S.VZ + S.LOC0 + q
        c = -1
        for i in range(rec["vz_n"][z]):
            d = rec["vz"][z, i]
            if vtype(rec, d) == t and not vq_chosen(rec, d) and (c < 0 or d < c):
                c = d
        rec["vq"][rec["vq_n"]] = c
        rec["vq_n"] += 1


@njit(cache=True, inline="always")
def mask_discard(rec, mask, e):
    """DISCARD (R24): any card of the hand, one at a time; pass to stop."""
    s = e[S.C_REALM]
    for i in range(vcount(rec, s, S.HAND)):
        mask[S.VCARD + S.V_LOCAL[vtype(rec, vcard_at(rec, s, S.HAND, i))]] = 1
    mask[S.PASS] = 1


@njit(cache=True, inline="always")
def apply_discard(rec, e, action):
    s = e[S.C_REALM]
    if action == S.PASS:
        pop_entry(rec)
    else:
        discard_vcard(rec, s, S.HAND, find_vtype(rec, s, S.HAND, S.VLOC[rec["villain"][s],
                                                                      action - S.VCARD]))


@njit(cache=True, inline="always")
def apply_fate_hero(rec, e, action):
    """FATE_HERO: the Hero being played goes to the chosen location (its mask: mask_dest)."""
    s = e[S.C_REALM]
    x_loc = action - S.LOCATION
    c = e[S.C_CARD]
    who = e[S.C_WHO]
    e[S.C_FIN] = S.FIN_NONE
    pop_entry(rec)
    fmove_abs(rec, S.FLIMBO, c, s * S.FZ + S.HERO0 + x_loc)
    place_hero(rec, s, c, x_loc, who)


@njit(cache=True, inline="always")
def mask_fate_item(rec, mask, e):
    """FATE_ITEM: a location with a Hero (unless the card names it), then that Hero."""
    s = e[S.C_REALM]
    loc = e[S.C_LOC]
    if e[S.C_STEP] == 0 and loc < 0:
        for q in range(4):
            if heroes_at(rec, s, q) > 0:
                mask[S.LOCATION + q] = 1
    else:
        mask_hero_types_at(rec, mask, s, e[S.C_C0] if loc < 0 else loc, 0, 0)


@njit(cache=True, inline="always")
def apply_fate_item(rec, e, action):
    s = e[S.C_REALM]
    loc = e[S.C_LOC]
    if e[S.C_STEP] == 0 and loc < 0:
        e[S.C_C0] = action - S.LOCATION
        e[S.C_STEP] = 1
    else:
        q = e[S.C_C0] if loc < 0 else loc
        h = pick_hero(rec, s, q, S.FLOC[rec["villain"][s], action - S.FCARD], 0, 0)
        c = e[S.C_CARD]
        e[S.C_FIN] = S.FIN_NONE
        pop_entry(rec)
        fmove_abs(rec, S.FLIMBO, c, s * S.FZ + S.HERO0 + q)
        rec["attach"][c] = h


@njit(cache=True, inline="always")
def apply_move_card(rec, e, action):
    """MOVE_ITEM_ALLY and MOVE_ALLY_ANY: location, card, destination; the ability repeats.

    MOVE_ALLY_ANY counts its moves down in ``left`` and may stop (pass) at step 0.
    """
    s = e[S.C_REALM]
    st = e[S.C_STEP]
    if st == 0:
        if action == S.PASS:
            pop_entry(rec)
        else:
            e[S.C_C0] = action - S.LOCATION
            e[S.C_STEP] = 1
    elif st == 1:
        e[S.C_C1] = pick_vcard(rec, s, e[S.C_C0], S.VLOC[rec["villain"][s], action - S.VCARD], 0, 0)
        e[S.C_STEP] = 2
    else:
        c, src = e[S.C_C1], e[S.C_C0]
        if e[S.C_KIND] == S.K_MOVE_IA:
            pop_entry(rec)
        else:
            e[S.C_LEFT] -= 1
            e[S.C_STEP] = 0
            e[S.C_C0] = -1
            e[S.C_C1] = -1
        move_vcard(rec, s, c, src, action - S.LOCATION)


@njit(cache=True, inline="always")
def apply_move_hero(rec, e, action):
    """MOVE_HERO and MOVE_HERO_ANY: location, Hero, destination."""
    s = e[S.C_REALM]
    st = e[S.C_STEP]
    if st == 0:
        e[S.C_C0] = action - S.LOCATION
        e[S.C_STEP] = 1
    elif st == 1:
        e[S.C_C1] = pick_hero(rec, s, e[S.C_C0], S.FLOC[rec["villain"][s], action - S.FCARD], 0, 0)
        e[S.C_STEP] = 2
    else:
        h = e[S.C_C1]
        pop_entry(rec)
        move_hero(rec, s, h, action - S.LOCATION)
