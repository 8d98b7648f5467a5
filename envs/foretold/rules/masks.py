"""The legal actions of each phase; ``legal_mask`` routes by phase."""

# ruff: noqa: D103  (as for envs/*/rules.py: kernels named after the rule they apply)
from __future__ import annotations

import numpy as np

from fatezoo.envs.core.decisions import open_where
from fatezoo.envs.core.jit import njit
from fatezoo.envs.core.zones import zone_top

from .. import state as S
from ..cards import F_COST, R_COST, T_STATIONS
from ..state import Phase
from .choice import choice_legal
from .dice import die_pickable
from .helpers import (
    can_move,
    count,
    legal_with,
    move_rotations,
    neighbour,
    temple_cells,
    temple_sum,
    tile_doors,
)
from .market import (
    can_flip,
    can_place_anywhere,
    can_take_relic,
    flip_rotation_ok,
    price,
    return_coverable,
    search_matches,
)
from .plays import action_mask, play_effect, target_ok
from .turn import coverable, fate_price, tile_price


@njit(cache=True)
def market_legal(rec, mask):
    p = int(rec["turn_player"])
    g = rec["gold"][p]
    open_where(mask, S.PLAY_GOLD, rec["f_temple"][p])
    for k in range(S.SPOTS):
        m = rec["f_row_n"][k]
        if m > 0 and price(rec, F_COST[rec["f_row"][k, m - 1]]) <= g:
            mask[S.BUY_FAITHFUL + k] = 1
        m = rec["r_row_n"][k]
        if m > 0:
            r = int(rec["r_row"][k, m - 1])
            if price(rec, R_COST[r]) <= g and can_take_relic(rec, p, r):
                mask[S.BUY_RELIC + k] = 1
    if rec["t_deck_n"][S.DECK] > 0 and g >= price(rec, tile_price(rec)):
        # every deck Tile shows the same A-side, so the top Tile's type does not matter
        if can_place_anywhere(rec, p, zone_top(rec["t_deck"], rec["t_deck_n"], S.DECK), 0):
            mask[S.BUY_TILE] = 1
    if g >= price(rec, fate_price(rec)):
        open_where(mask, S.FATE_DECK, rec["c_deck_n"])
    for c in range(S.CELLS):
        if can_flip(rec, p, c):
            mask[S.FLIP + c] = 1
    if rec["rearranged"] < S.REARRANGE_CAP:
        occ = np.zeros(S.CELLS, np.int8)
        doors = np.zeros(S.CELLS, np.int64)
        for c in range(S.CELLS):
            if can_move(rec, p, c, occ, doors):
                mask[S.MOVE_FROM + c] = 1
    action_mask(rec, p, False, mask)
    mask[S.PASS] = 1


@njit(cache=True)
def asks(rec):
    """R70 Reading: whether the current player decides even with only ``pass`` legal.

    The seat asked in a window or a fight's round was chosen by ``has_play`` from public
    information; the core's ``settle`` would otherwise pass for it (and tell everyone it
    has nothing to play).
    """
    ph = int(rec["phase"])
    return ph == Phase.RESPOND or ph == Phase.FINALIZE


@njit(cache=True, inline="always")
def mask_respond(rec, mask):
    """Legal in RESPOND: the asked seat may respond to the top of the stack, or pass (R69-R70)."""
    mask[S.PASS] = 1
    action_mask(rec, int(rec["current_player"]), True, mask)


@njit(cache=True, inline="always")
def mask_finalize(rec, mask):
    """Legal in FINALIZE.

    The seat holding priority in a fight's round may act, or pass (R47, R51).
    """
    mask[S.PASS] = 1  # R51
    action_mask(rec, int(rec["priority"]), False, mask)


@njit(cache=True, inline="always")
def mask_pick_die(rec, mask):
    """Legal in PICK_DIE: a resolving reroll / set-a-die effect: its owner picks a die (R66)."""
    for s in range(2):
        for i in range(S.MAX_DICE):
            if die_pickable(rec, s, i):
                mask[S.PICK_DIE_A + s * S.MAX_DICE + i] = 1
    if rec["die_set"] == 0:
        mask[S.PASS] = 1  # a reroll of "up to" that many dice


@njit(cache=True, inline="always")
def mask_fate_target(rec, mask):
    """Legal in FATE_TARGET: the opponent a Fate card or Relic being played targets (R78)."""
    s = int(rec["actor"])
    n = int(rec["num_players"])
    e, x = play_effect(int(rec["sel_play"]))
    for k in range(n - 1):
        if target_ok(rec, s, (s + 1 + k) % n, e, x):
            mask[S.TARGET_SEAT + k] = 1


@njit(cache=True, inline="always")
def mask_assign(rec, mask):
    """Legal in ASSIGN: after a roll: the die each die-dependent Faithful gets (R50)."""
    q = int(rec["defender"])
    s = 1 if rec["actor"] == q else 0
    for i in range(rec["dice_n"][s]):
        if rec["die_to"][s, i] < 0:
            mask[S.PICK_DIE_A + s * S.MAX_DICE + i] = 1


@njit(cache=True, inline="always")
def mask_cover_relic(rec, mask):
    """Legal in COVER_RELIC: a revealed (R12) or returned (R20) Relic covers a chosen pile."""
    for k in range(S.SPOTS):
        if return_coverable(rec, k):
            mask[S.SPOT + S.SPOTS + k] = 1


@njit(cache=True, inline="always")
def mask_cover_faithful(rec, mask):
    """Legal in COVER_FAITHFUL: a revealed Faithful covers a chosen pile (R12)."""
    for k in range(S.SPOTS):
        if coverable(rec, k):  # R13: never a Decree
            mask[S.SPOT + k] = 1


@njit(cache=True, inline="always")
def mask_draw(rec, mask):
    """Legal in DRAW: draw a Fate card: choose the deck (R77)."""
    open_where(mask, S.FATE_DECK, rec["c_deck_n"])


@njit(cache=True, inline="always")
def mask_cycle(rec, mask):
    """Legal in CYCLE: Seer: put the top card of a pile on the bottom of its deck, or pass."""
    open_where(mask, S.SPOT, rec["f_row_n"])
    open_where(mask, S.SPOT + S.SPOTS, rec["r_row_n"])
    mask[S.PASS] = 1


@njit(cache=True, inline="always")
def mask_place_cell(rec, mask):
    """Legal in PLACE_CELL: a bought Tile: its cell (R21)."""
    p = int(rec["turn_player"])
    t = int(rec["t_held"])
    for c in range(S.CELLS):
        if rec["grid"][p, c] < 0:
            for r in range(4):
                if legal_with(rec, p, c, t, 0, r):
                    mask[S.CELL + c] = 1
                    break


@njit(cache=True, inline="always")
def mask_place_rot(rec, mask):
    """Legal in PLACE_ROT: then its rotation."""
    p = int(rec["turn_player"])
    for r in range(4):
        if legal_with(rec, p, rec["sel_cell"], rec["t_held"], 0, r):
            mask[S.ROTATION + r] = 1


@njit(cache=True, inline="always")
def mask_flip_rot(rec, mask):
    """Legal in FLIP_ROT: a flip: the rotation that keeps the Temple legal (R33)."""
    p = int(rec["turn_player"])
    for r in range(4):
        if flip_rotation_ok(rec, p, rec["sel_cell"], r):
            mask[S.ROTATION + r] = 1


@njit(cache=True, inline="always")
def mask_move_cell(rec, mask):
    """Legal in MOVE_CELL: rearranging: the cell the chosen Tile moves to (R24)."""
    p = int(rec["turn_player"])
    occ = np.zeros(S.CELLS, np.int8)
    doors = np.zeros(S.CELLS, np.int64)
    temple_cells(rec, p, occ, doors)
    for d in range(S.CELLS):
        if move_rotations(rec, p, rec["sel_cell"], d, occ, doors, True):
            mask[S.CELL + d] = 1


@njit(cache=True, inline="always")
def mask_move_rot(rec, mask):
    """Legal in MOVE_ROT: then its rotation."""
    p = int(rec["turn_player"])
    occ = np.zeros(S.CELLS, np.int8)
    doors = np.zeros(S.CELLS, np.int64)
    temple_cells(rec, p, occ, doors)
    rotations = move_rotations(rec, p, rec["sel_cell"], rec["move_to"], occ, doors)
    for r in range(4):
        if (rotations >> r) & 1:
            mask[S.ROTATION + r] = 1


@njit(cache=True, inline="always")
def mask_search(rec, mask):
    """Legal in SEARCH: a flipped Tile searches the Relic Deck (R39)."""
    s = int(rec["actor"])
    for i in range(rec["r_deck_n"][S.DECK]):
        r = int(rec["r_deck"][S.DECK, i])
        if search_matches(rec, s, r, rec["search"]):
            mask[S.PICK_RELIC + r] = 1
    mask[S.PASS] = 1


@njit(cache=True, inline="always")
def mask_raid_target(rec, mask):
    """Legal in RAID_TARGET: the Raid step: an opponent, or pass (R45)."""
    p = int(rec["turn_player"])
    n = int(rec["num_players"])
    for k in range(n - 1):
        if rec["alive"][(p + 1 + k) % n]:
            mask[S.TARGET_SEAT + k] = 1
    mask[S.PASS] = 1


@njit(cache=True, inline="always")
def mask_defend(rec, mask):
    """Legal in DEFEND: the Defender picks Defenders (R46)."""
    q = int(rec["defender"])
    c = int(rec["marker"])
    st = T_STATIONS[rec["grid"][q, c], rec["side"][q, c]]
    if rec["picked"] < st:
        open_where(mask, S.PICK_FAITHFUL, rec["f_temple"][q])
    mask[S.PASS] = 1


@njit(cache=True, inline="always")
def mask_dispatch(rec, mask):
    """Legal in DISPATCH: the Raider dispatches (R48)."""
    p = int(rec["turn_player"])
    open_where(mask, S.PICK_FAITHFUL, rec["f_party"][p])
    if rec["picked"] > 0:
        mask[S.PASS] = 1
    else:
        mask[S.RETREAT] = 1


@njit(cache=True, inline="always")
def mask_recall(rec, mask):
    """Legal in RECALL: the Raider recalls one dispatched Faithful (R55)."""
    open_where(mask, S.PICK_FAITHFUL, rec["f_fight"][0])


@njit(cache=True, inline="always")
def mask_advance(rec, mask):
    """Legal in ADVANCE: the Raider moves the Marker or retreats (R56)."""
    q = int(rec["defender"])
    if rec["moves"] < S.MAX_MOVES:
        c = int(rec["marker"])
        doors = tile_doors(rec, q, c)
        for d in range(4):
            o = neighbour(c, d)
            if (doors >> d) & 1 and o >= 0 and rec["grid"][q, o] >= 0 \
                    and (tile_doors(rec, q, o) >> ((d + 2) % 4)) & 1:
                mask[S.DIRECTION + d] = 1
    mask[S.RETREAT] = 1


@njit(cache=True, inline="always")
def mask_trap_discard(rec, mask):
    """Legal in TRAP_DISCARD: a Pit Trap: the Raider discards a Party Faithful (R37)."""
    p = int(rec["turn_player"])
    open_where(mask, S.PICK_FAITHFUL, rec["f_party"][p])


@njit(cache=True, inline="always")
def mask_vandal(rec, mask):
    """Legal in VANDAL: on Smite: the Raider picks a Relic of the Smitten player (R59)."""
    q = int(rec["defender"])
    open_where(mask, S.PICK_RELIC, rec["r_owned"][q])


@njit(cache=True, inline="always")
def mask_reinforce(rec, mask):
    """Legal in REINFORCE: the split into Temple and Raiding Party (R61)."""
    p = int(rec["turn_player"])
    if count(rec["f_temple"][p]) < temple_sum(rec, p, T_STATIONS):
        open_where(mask, S.PICK_FAITHFUL, rec["f_pool"][p])
    mask[S.PASS] = 1


@njit(cache=True)
def legal_mask(rec, mask):
    """Legal actions of the current player: the mask of its phase."""
    for a in range(mask.shape[0]):
        mask[a] = 0
    ph = int(rec["phase"])
    if ph == Phase.MARKET:
        market_legal(rec, mask)
    elif ph == Phase.RESPOND:
        mask_respond(rec, mask)
    elif ph == Phase.FINALIZE:
        mask_finalize(rec, mask)
    elif ph == Phase.PICK_DIE:
        mask_pick_die(rec, mask)
    elif ph == Phase.FATE_TARGET:
        mask_fate_target(rec, mask)
    elif ph == Phase.CHOOSE:
        choice_legal(rec, mask)
    elif ph == Phase.ASSIGN:
        mask_assign(rec, mask)
    elif ph == Phase.COVER_RELIC:
        mask_cover_relic(rec, mask)
    elif ph == Phase.COVER_FAITHFUL:
        mask_cover_faithful(rec, mask)
    elif ph == Phase.DRAW:
        mask_draw(rec, mask)
    elif ph == Phase.CYCLE:
        mask_cycle(rec, mask)
    elif ph == Phase.PLACE_CELL:
        mask_place_cell(rec, mask)
    elif ph == Phase.PLACE_ROT:
        mask_place_rot(rec, mask)
    elif ph == Phase.FLIP_ROT:
        mask_flip_rot(rec, mask)
    elif ph == Phase.MOVE_CELL:
        mask_move_cell(rec, mask)
    elif ph == Phase.MOVE_ROT:
        mask_move_rot(rec, mask)
    elif ph == Phase.SEARCH:
        mask_search(rec, mask)
    elif ph == Phase.RAID_TARGET:
        mask_raid_target(rec, mask)
    elif ph == Phase.DEFEND:
        mask_defend(rec, mask)
    elif ph == Phase.DISPATCH:
        mask_dispatch(rec, mask)
    elif ph == Phase.RECALL:
        mask_recall(rec, mask)
    elif ph == Phase.ADVANCE:
        mask_advance(rec, mask)
    elif ph == Phase.TRAP_DISCARD:
        mask_trap_discard(rec, mask)
    elif ph == Phase.VANDAL:
        mask_vandal(rec, mask)
    elif ph == Phase.REINFORCE:
        mask_reinforce(rec, mask)
