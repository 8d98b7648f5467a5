"""The Fate action (section 5): its target, Yzma's pile, the Fate card played."""

# ruff: noqa: D103  (as for envs/*/rules.py: kernels named after the rule they apply)
from __future__ import annotations

from fatezoo.envs.core.jit import njit
from fatezoo.envs.core.knowledge import look_at_zone, reveal_all
from fatezoo.envs.core.zones import zone_push, zone_shuffle, zone_take

from .. import state as S
from .cards import fcount, fmove_abs, ftype
from .conditions import resume
from .effects import effect_ok, findable, place_hero, push_entry, reveal_top, start_effect
from .moving import raise_event
from .strength import heroes_at, realm_has_hero
from .turn import deal_piles


@njit(cache=True)
def fate_playable(rec, q, c, other, pile_loc):
    """R46 (judged after ``other`` is discarded, R40): whether Fate card ``c`` can be played."""
    t = ftype(rec, c)
    k = S.F_KIND[t]
    if k == S.K_HERO:
        return True
    if k == S.K_ITEM:
        if pile_loc >= 0:
            return heroes_at(rec, q, pile_loc) > 0
        return realm_has_hero(rec, q, 0, 0)
    if S.F_MUST[t]:
        if S.F_EFF[t] == S.E_FIND_HERO:
            if other >= 0 and ftype(rec, other) == S.F_ARG[t]:
                return True
            return findable(rec, q, S.F_ARG[t]) > 0
        return effect_ok(rec, S.F_EFF[t], S.F_A[t], S.F_ARG[t], q, -1)
    return True


@njit(cache=True)
def revealed_other(rec, c):
    for i in range(rec["fz_n"][S.REVEAL]):
        d = rec["fz"][S.REVEAL, i]
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
        return int(rec["fate_target"]) * S.FZ + S.PILE0 + int(rec["fate_pile"])
    return S.REVEAL


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
    while rec["fz_n"][S.REVEAL] > 0:
        c = zone_take(rec["fz"], rec["fz_n"], S.REVEAL, 0)
        zone_push(rec["fz"], rec["fz_n"], q * S.FZ + S.FDISC, c)
    resume(rec)


@njit(cache=True)
def choose_target(rec, q):
    """R36/R55: the target takes the Fate token; reveal two (or choose Yzma's pile)."""
    rec["fate_target"] = q
    if rec["token_on"]:
        rec["token"] = q
    raise_event(rec, S.T_OPP_FATE_YOU, q)  # its window opens when the action ends (R54)
    if rec["villain"][q] == S.YZMA:
        empty = True
        for k in range(4):
            if fcount(rec, q, S.PILE0 + k) > 0:
                empty = False
        if empty:  # R61 reading: the discard is shuffled and dealt again
            src = q * S.FZ + S.FDISC
            while rec["fz_n"][src] > 0:
                zone_push(rec["fz"], rec["fz_n"], q * S.FZ + S.FDECK,
                          zone_take(rec["fz"], rec["fz_n"], src, rec["fz_n"][src] - 1))
            zone_shuffle(rec["fz"], rec["fz_n"], q * S.FZ + S.FDECK, rec["rng"])
            deal_piles(rec, q)
        rec["phase"] = S.PH_PILE
        return
    rec["fate_pile"] = -1
    reveal_top(rec, q)
    reveal_top(rec, q)
    if any_fate_pick(rec):
        rec["phase"] = S.PH_FPICK
    else:
        end_fate_unplayed(rec)


@njit(cache=True)
def choose_pile(rec, k):
    """R61: the fater looks at the whole pile."""
    q = rec["fate_target"]
    rec["fate_pile"] = k
    look_at_zone(rec["fz"], rec["fz_n"], rec["fknown"], q * S.FZ + S.PILE0 + k,
                 rec["current_player"])
    if any_fate_pick(rec):
        rec["phase"] = S.PH_FPICK
    else:
        resume(rec)


@njit(cache=True)
def play_fate_card(rec, t_local):
    """R39: the other revealed card to the Fate discard first, then the chosen one is played."""
    q = rec["fate_target"]
    p = rec["current_player"]
    z = fate_pick_zone(rec)
    t = S.FLOC[rec["villain"][q], t_local]
    c = -1
    for i in range(rec["fz_n"][z]):
        d = rec["fz"][z, i]
        if ftype(rec, d) == t and fate_card_ok(rec, d) and (c < 0 or d < c):
            c = d
    fmove_abs(rec, z, c, S.FLIMBO)
    reveal_all(rec["fknown"], c, rec["num_players"])
    while rec["fz_n"][S.REVEAL] > 0:
        d = zone_take(rec["fz"], rec["fz_n"], S.REVEAL, 0)
        zone_push(rec["fz"], rec["fz_n"], q * S.FZ + S.FDISC, d)
    pile = rec["fate_pile"]
    k = S.F_KIND[t]
    if k == S.K_HERO:
        if pile >= 0:
            fmove_abs(rec, S.FLIMBO, c, q * S.FZ + S.HERO0 + pile)
            place_hero(rec, q, c, pile, p)
        else:
            push_entry(rec, S.K_FHERO, 0, -1, q, p, c, -1, 0, S.FIN_FCARD)
    elif k == S.K_ITEM:  # an Item with no Hero left to take it is discarded (FIN_FCARD)
        push_entry(rec, S.K_FITEM, 0, -1, q, p, c, pile, 0, S.FIN_FCARD)
    else:
        start_effect(rec, S.F_EFF[t], S.F_A[t], S.F_ARG[t], q, p, c, -1, S.FIN_FCARD)
    resume(rec)
