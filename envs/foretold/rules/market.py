"""The Marketplace (R15-R23, R32): Relics, Tiles, Fate cards, gold effects, flips."""

# ruff: noqa: D103  (as for envs/*/rules.py: kernels named after the rule they apply)
from __future__ import annotations

import numpy as np

from fatezoo.envs.core.jit import njit
from fatezoo.envs.core.stack import stack_push
from fatezoo.envs.core.zones import zone_find, zone_pop, zone_shuffle, zone_take

from .. import cards as C
from .. import state as S
from ..state import Phase
from .helpers import (
    add_gold,
    first_rotation,
    fits_linked,
    heal,
    legal_doors,
    legal_with,
    rotate,
    temple_cells,
    temple_sum,
)
from .tables import (
    C_SYM,
    E_DEVOTEE_GOLD,
    E_DRAW_FATE,
    E_HEAL,
    E_MARKET_CYCLE,
    E_SEARCH,
    E_WAIVE,
    W_FLIP,
    W_GOLD,
)


@njit(cache=True)
def fate_relics_of(rec, p, f):
    k = 0
    for r in range(C.NR):
        if C.R_IS_FATE[r] and C.R_FATE[r] == f:
            k += rec["r_owned"][p, r]
    return k


@njit(cache=True)
def can_take_relic(rec, p, r):
    """R19-R20: a Basic Relic always; a Fate Relic needs an open Altar after the switch."""
    if not C.R_IS_FATE[r]:
        return True
    return temple_sum(rec, p, C.T_ALTARS) > fate_relics_of(rec, p, C.R_FATE[r])


@njit(cache=True)
def old_fate_relic(rec, p, r):
    """R20: the next Fate Relic ``p`` returns before acquiring ``r`` (type order), or -1."""
    if C.R_IS_FATE[r]:
        for o in range(C.NR):
            if C.R_IS_FATE[o] and C.R_FATE[o] != C.R_FATE[r] and rec["r_owned"][p, o] > 0:
                return o
    return -1


@njit(cache=True)
def acquire_relic(rec, p, r, k, then):
    """R19-R20: ``p`` acquires Relic ``r`` from Relic Row spot ``k`` (or ``R_FROM_DECK``).

    ``then`` is the decision that acquires it (Phase.MARKET, CHOOSE or SEARCH), which goes
    on when the Relic is taken. The old Fate's Relics go back first (``return_relics``).
    """
    rec["r_take"] = r
    rec["r_from"] = k
    rec["r_then"] = then
    rec["actor"] = p
    return_relics(rec)


@njit(cache=True)
def return_relics(rec):
    """R20: the old Fate's Relics go back one at a time, then the acquisition completes.

    Each goes to the lowest empty spot; with the row full the returning player picks the
    pile it covers (Phase.COVER_RELIC), and this continues after that decision.
    """
    p = int(rec["actor"])
    o = old_fate_relic(rec, p, int(rec["r_take"]))
    while o >= 0:
        rec["r_owned"][p, o] -= 1
        if not place_relic(rec, o):
            return
        o = old_fate_relic(rec, p, int(rec["r_take"]))
    complete_acquisition(rec)


@njit(cache=True)
def return_coverable(rec, k):
    """R20: a returned Relic may cover Relic pile ``k``: not the acquired Relic's pile."""
    return rec["r_then"] < 0 or rec["r_from"] != k


@njit(cache=True)
def complete_acquisition(rec):
    """R20: the old Relics are back; the acquired Relic leaves its pile or the Relic Deck.

    The decision that acquired it (``r_then``) goes on.
    """
    p, r, k = int(rec["actor"]), int(rec["r_take"]), int(rec["r_from"])
    then = int(rec["r_then"])
    rec["r_take"] = -1
    rec["r_from"] = -1
    rec["r_then"] = -1
    if k < S.R_FROM_DECK:
        zone_pop(rec["r_row"], rec["r_row_n"], k)
    elif then == Phase.SEARCH:  # R39: the deck is shuffled after (end_search)
        i = zone_find(rec["r_deck"], rec["r_deck_n"], S.DECK, r)
        if i >= 0:
            zone_take(rec["r_deck"], rec["r_deck_n"], S.DECK, i)
    else:  # BUY_ANY: searched and shuffled (section 13)
        search_deck(rec["r_deck"], rec["r_deck_n"], r, rec["rng"])
    rec["r_owned"][p, r] += 1
    if then == Phase.MARKET:
        rec["actor"] = -1
        rec["phase"] = Phase.MARKET
    elif then == Phase.SEARCH:
        end_search(rec)
    else:
        end_choice(rec)


@njit(cache=True)
def can_place_anywhere(rec, p, t, side):
    """R21: Tile type ``t`` (``side``) has a legal cell and rotation in seat ``p``'s Temple.

    The same answer as ``legal_with`` for every empty cell and rotation: the Temple is read
    once, each distinct rotation tried once (``first_rotation``), and ``fits_linked``
    refuses a place before the flood fill.
    """
    occ = np.zeros(S.CELLS, np.int8)
    doors = np.zeros(S.CELLS, np.int64)
    temple_cells(rec, p, occ, doors)
    bits = C.T_DOORS[t, side]
    for c in range(S.CELLS):
        if occ[c] == 0:
            occ[c] = 2 if t == C.ENTRANCE else 1
            for r in range(4):
                mine = rotate(bits, r)
                if first_rotation(bits, r) < r or (
                        t != C.ENTRANCE and not fits_linked(occ, doors, c, mine)):
                    continue
                doors[c] = mine
                if legal_doors(occ, doors):
                    return True
            occ[c] = 0
            doors[c] = 0
    return False


@njit(cache=True)
def can_flip(rec, p, c):
    t = int(rec["grid"][p, c])
    if t < 0 or rec["side"][p, c] != 0 or C.T_FLIP[t] <= 0 or C.T_FLIP[t] > rec["gold"][p]:
        return False
    for r in range(4):
        if flip_rotation_ok(rec, p, c, r):
            return True
    return False


@njit(cache=True)
def flip_rotation_ok(rec, p, c, r):
    t = int(rec["grid"][p, c])
    if t == C.ENTRANCE and r != rec["rot"][p, c]:
        return False  # the Entrance is never rotated (R24)
    return legal_with(rec, p, c, t, 1, r)


@njit(cache=True)
def search_matches(rec, p, r, a):
    """Whether Relic type ``r`` answers a SEARCH_RELIC ``a`` (R39) and ``p`` may take it."""
    if a >= 0:
        ok = r == a
    elif a == -1:
        ok = C.R_IS_FATE[r] == 1
    elif a == -2:
        ok = C.R_IS_FATE[r] == 1 and C.R_SLOT[r] == 3
    else:
        ok = C.R_IS_FATE[r] == 1 and C.R_SLOT[r] == 0
    return ok and can_take_relic(rec, p, r)


@njit(cache=True)
def search_options(rec, p):
    k = 0
    for i in range(rec["r_deck_n"][S.DECK]):
        if search_matches(rec, p, rec["r_deck"][S.DECK, i], rec["search"]):
            k += 1
    return k


@njit(cache=True)
def any_fate_deck(rec):
    for f in range(4):
        if rec["c_deck_n"][f] > 0:
            return True
    return False


@njit(cache=True)
def any_pile(rec):
    for k in range(S.SPOTS):
        if rec["f_row_n"][k] > 0 or rec["r_row_n"][k] > 0:
            return True
    return False


@njit(cache=True)
def draw_fate(rec, p, f):
    """``p`` draws the top card of Fate Deck ``f`` into their hand (R77); empty: nothing."""
    if rec["c_deck_n"][f] > 0:
        k = int(zone_pop(rec["c_deck"], rec["c_deck_n"], f))
        rec["c_hand"][p, k] += 1
        if C_SYM[k] >= 0:
            rec["c_sym"][p, f] |= 1 << C_SYM[k]  # the deck the copy came from (R87)


@njit(cache=True)
def drop_symbol(rec, p, k):
    """A Fatesworn-symbol card ``k`` leaves ``p``'s hand: the copy of the lowest deck goes.

    Copies are interchangeable in play; the one played shows which deck it came from.
    """
    if C_SYM[k] < 0:
        return
    for f in range(4):
        if rec["c_sym"][p, f] >> C_SYM[k] & 1:
            rec["c_sym"][p, f] &= ~(1 << C_SYM[k])
            return


@njit(cache=True)
def play_for_gold(rec, p, t):
    """R15, R67: a Temple Faithful goes to the Discard Pile; the play is an Action."""
    rec["f_temple"][p, t] -= 1
    rec["f_discard"][p, t] += 1
    i = stack_push(rec["stack"], rec["stack_n"], S.K_GOLD, p)
    rec["stack"][i, S.S_CARD] = t
    rec["stack"][i, S.S_TARGET] = -1
    advance(rec)


@njit(cache=True)
def gold_effect(rec, p, t):
    """R15-R16: a Faithful played for gold resolves: its gold and gold effects.

    Returns True when a decision is needed (a draw, a cycle).
    """
    add_gold(rec, p, C.F_GOLD[t])
    if C.F_WHEN[t] != W_GOLD:
        return False
    e = C.F_EFFECT[t]
    if e == E_DEVOTEE_GOLD:
        add_gold(rec, p, C.F_A[t] + rec["devotees"])
        rec["devotees"] += 1
    elif e == E_DRAW_FATE:
        if any_fate_deck(rec):
            rec["draws"] = C.F_A[t]
            rec["draw_in_raid"] = 0
            rec["actor"] = p
            rec["phase"] = Phase.DRAW
            return True
    elif e == E_HEAL:
        heal(rec, p, C.F_A[t])
    elif e == E_MARKET_CYCLE:
        if any_pile(rec):
            rec["phase"] = Phase.CYCLE
            return True
    elif e == E_WAIVE:
        rec["waive"] = 1  # the Oracle (R72)
    return False


@njit(cache=True)
def price(rec, x):
    """A purchase price after the turn's discount (Bargain), never below 0."""
    return max(0, x - rec["discount"])


@njit(cache=True)
def push_flip(rec, p, c, r):
    """R32, R67: pay the Flip Cost; the flip is an Action (the Tile turns when it resolves)."""
    add_gold(rec, p, -C.T_FLIP[rec["grid"][p, c]])
    rec["sel_cell"] = -1
    i = stack_push(rec["stack"], rec["stack_n"], S.K_FLIP, p)
    rec["stack"][i, S.S_CARD] = 4 * c + r
    rec["stack"][i, S.S_TARGET] = -1
    advance(rec)


@njit(cache=True)
def flip_tile(rec, p, c, r):
    """R32: the Tile turns to its B-side (seen by all), then ``when=flip``.

    Returns True when the owner searches the Relic Deck (R39).
    """
    t = int(rec["grid"][p, c])
    rec["side"][p, c] = 1
    rec["rot"][p, c] = r
    if C.T_WHEN[t] == W_FLIP and C.T_EFFECT[t] == E_SEARCH:
        rec["search"] = C.T_A[t]
        if search_options(rec, p) > 0:
            rec["actor"] = p  # the Tile's owner searches (the Defender, R34)
            rec["phase"] = Phase.SEARCH
            return True
        zone_shuffle(rec["r_deck"], rec["r_deck_n"], S.DECK, rec["rng"])
    return False


# the modules of the same import cycle, imported once this one's kernels are defined
from .choice import end_choice, end_search  # noqa: E402
from .resolve import search_deck  # noqa: E402
from .rounds import advance  # noqa: E402
from .turn import place_relic  # noqa: E402
