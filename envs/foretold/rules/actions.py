"""The action of each phase; ``apply_action`` routes by phase."""

# ruff: noqa: D103  (as for envs/*/rules.py: kernels named after the rule they apply)
from __future__ import annotations

from fatezoo.envs.core.decisions import in_block
from fatezoo.envs.core.dice import roll
from fatezoo.envs.core.jit import njit
from fatezoo.envs.core.zones import zone_insert, zone_pop, zone_push

from .. import state as S
from ..cards import F_COST, NC, NF, NR, R_COST
from ..state import Phase
from .choice import choice_apply, end_search
from .dice import any_die_pickable
from .helpers import add_gold, count, move_tile, neighbour
from .market import (
    acquire_relic,
    any_fate_deck,
    draw_fate,
    play_for_gold,
    price,
    push_flip,
    return_relics,
)
from .plays import begin_play, push_ability, push_play
from .raid import (
    after_conquest,
    arrive,
    begin_raid_step,
    conquer,
    continue_on_smite,
    end_raid,
    next_low_type,
    offer_defense,
    open_raid_window,
    push_roll,
    start_raid,
    start_reinforce,
)
from .reset import set_current
from .rounds import advance, begin_round, round_next
from .turn import begin_market, end_turn, fate_price, reveal_faithful, tile_price


@njit(cache=True)
def market_apply(rec, a):
    p = int(rec["turn_player"])
    if a == S.PASS:
        begin_raid_step(rec)
    elif in_block(a, S.PLAY_GOLD, NF):
        play_for_gold(rec, p, a - S.PLAY_GOLD)
    elif in_block(a, S.BUY_FAITHFUL, S.SPOTS):
        k = a - S.BUY_FAITHFUL
        t = int(zone_pop(rec["f_row"], rec["f_row_n"], k))
        add_gold(rec, p, -price(rec, F_COST[t]))
        rec["discount"] = 0
        rec["f_discard"][p, t] += 1
    elif in_block(a, S.BUY_RELIC, S.SPOTS):
        k = a - S.BUY_RELIC
        r = int(rec["r_row"][k, rec["r_row_n"][k] - 1])
        add_gold(rec, p, -price(rec, R_COST[r]))
        rec["discount"] = 0
        acquire_relic(rec, p, r, k, Phase.MARKET)  # R20: the old Fate's Relics go back first
    elif a == S.BUY_TILE:
        add_gold(rec, p, -price(rec, tile_price(rec)))
        rec["discount"] = 0
        rec["t_held"] = zone_pop(rec["t_deck"], rec["t_deck_n"], S.DECK)
        rec["phase"] = Phase.PLACE_CELL
    elif in_block(a, S.FATE_DECK, S.FATE_DECKS):
        add_gold(rec, p, -price(rec, fate_price(rec)))
        rec["discount"] = 0
        draw_fate(rec, p, a - S.FATE_DECK)
    elif in_block(a, S.PLAY_FATE, NC):
        begin_play(rec, p, a - S.PLAY_FATE)
    elif in_block(a, S.USE_RELIC, NR):
        begin_play(rec, p, NC + a - S.USE_RELIC)
    elif in_block(a, S.MOVE_FROM, S.CELLS):  # R24: rearrange
        rec["sel_cell"] = a - S.MOVE_FROM
        rec["phase"] = Phase.MOVE_CELL
    else:  # in_block(a, FLIP, CELLS)
        rec["sel_cell"] = a - S.FLIP
        rec["phase"] = Phase.FLIP_ROT


@njit(cache=True)
def respond_apply(rec, s, a):
    """Seat ``s``'s Action in a response window or a fight's round (R69-R70, R51)."""
    if in_block(a, S.FLIP, S.CELLS):  # R34: the Defender flips, the rotation stays
        push_flip(rec, s, a - S.FLIP, int(rec["rot"][s, a - S.FLIP]))
    elif in_block(a, S.ABILITY, NF):  # R43: an ability discard
        push_ability(rec, s, a - S.ABILITY)
    elif in_block(a, S.PLAY_FATE, NC):
        begin_play(rec, s, a - S.PLAY_FATE)
    else:  # in_block(a, USE_RELIC, NR)
        begin_play(rec, s, NC + a - S.USE_RELIC)


@njit(cache=True, inline="always")
def apply_respond(rec, a):
    """The action in RESPOND.

    The asked seat may respond to the top of the stack, or pass (R69-R70).
    """
    s = int(rec["current_player"])
    if a == S.PASS:
        advance(rec)
    else:
        respond_apply(rec, s, a)


@njit(cache=True, inline="always")
def apply_finalize(rec, a):
    """The action in FINALIZE.

    The seat holding priority in a fight's round may act, or pass (R47, R51).
    """
    s = int(rec["priority"])
    if a == S.PASS:
        rec["passes"] += 1
        rec["priority"] = (s + 1) % rec["num_players"]
        round_next(rec)
    else:  # R51: an Action in the fight's round
        respond_apply(rec, s, a)


@njit(cache=True, inline="always")
def apply_pick_die(rec, a):
    """The action in PICK_DIE.

    A resolving reroll / set-a-die effect: its owner picks a die (R66).
    """
    if a == S.PASS:
        rec["die_left"] = 0
    else:
        s = (a - S.PICK_DIE_A) // S.MAX_DICE
        i = (a - S.PICK_DIE_A) % S.MAX_DICE
        if rec["die_set"] > 0:
            rec["dice"][s, i] = rec["die_set"]
        else:
            rec["dice"][s, i] = roll(S.COMBAT_DIE, rec["rng"])
        rec["die_left"] -= 1
    if rec["die_left"] <= 0 or not any_die_pickable(rec):
        rec["die_left"] = 0
        rec["die_set"] = 0
        rec["actor"] = -1
        advance(rec)


@njit(cache=True, inline="always")
def apply_move_cell(rec, a):
    """The action in MOVE_CELL: rearranging: the cell the chosen Tile moves to (R24)."""
    rec["move_to"] = a - S.CELL
    rec["phase"] = Phase.MOVE_ROT


@njit(cache=True, inline="always")
def apply_move_rot(rec, a):
    """The action in MOVE_ROT: then its rotation."""
    p = int(rec["turn_player"])
    move_tile(rec, p, int(rec["sel_cell"]), int(rec["move_to"]), a - S.ROTATION)
    rec["sel_cell"] = -1
    rec["move_to"] = -1
    rec["rearranged"] += 1
    rec["phase"] = Phase.MARKET


@njit(cache=True, inline="always")
def apply_assign(rec, a):
    """The action in ASSIGN: after a roll: the die each die-dependent Faithful gets (R50)."""
    s = (a - S.PICK_DIE_A) // S.MAX_DICE
    rec["die_to"][s, (a - S.PICK_DIE_A) % S.MAX_DICE] = next_low_type(rec, s)
    rec["assign_left"] -= 1
    if rec["assign_left"] <= 0:
        rec["assign_left"] = 0
        rec["actor"] = -1
        begin_round(rec, 1 if s == 1 else 2)  # R47, R51: the round after the roll


@njit(cache=True, inline="always")
def apply_fate_target(rec, a):
    """The action in FATE_TARGET: the opponent a Fate card or Relic being played targets (R78)."""
    s = int(rec["actor"])
    push_play(rec, s, int(rec["sel_play"]),
              (s + 1 + a - S.TARGET_SEAT) % rec["num_players"])


@njit(cache=True, inline="always")
def apply_cover_relic(rec, a):
    """The action in COVER_RELIC: a revealed (R12) or returned (R20) Relic covers a chosen pile."""
    k = a - S.SPOT - S.SPOTS
    zone_push(rec["r_row"], rec["r_row_n"], k, rec["r_held"])
    rec["r_held"] = -1
    if rec["r_then"] >= 0:
        return_relics(rec)  # R20: the next old Relic, then the acquisition
    else:
        reveal_faithful(rec)


@njit(cache=True, inline="always")
def apply_cover_faithful(rec, a):
    """The action in COVER_FAITHFUL: a revealed Faithful covers a chosen pile (R12)."""
    k = a - S.SPOT
    zone_push(rec["f_row"], rec["f_row_n"], k, rec["f_held"])
    rec["f_held"] = -1
    begin_market(rec)


@njit(cache=True, inline="always")
def apply_draw(rec, a):
    """The action in DRAW: draw a Fate card: choose the deck (R77)."""
    draw_fate(rec, int(rec["actor"]), a - S.FATE_DECK)
    rec["draws"] -= 1
    if rec["draws"] <= 0 or not any_fate_deck(rec):
        rec["draws"] = 0
        rec["actor"] = -1
        if rec["draw_in_raid"]:
            rec["draw_in_raid"] = 0
            continue_on_smite(rec)  # R59: a Crown's draws, then the next trigger
        else:
            advance(rec)


@njit(cache=True, inline="always")
def apply_cycle(rec, a):
    """The action in CYCLE: Seer: put the top card of a pile on the bottom of its deck, or pass."""
    if a != S.PASS:
        k = a - S.SPOT
        if k < S.SPOTS:
            x = zone_pop(rec["f_row"], rec["f_row_n"], k)
            zone_insert(rec["f_deck"], rec["f_deck_n"], S.DECK, 0, x)
        else:
            k -= S.SPOTS
            x = zone_pop(rec["r_row"], rec["r_row_n"], k)
            zone_insert(rec["r_deck"], rec["r_deck_n"], S.DECK, 0, x)
    advance(rec)


@njit(cache=True, inline="always")
def apply_place_cell(rec, a):
    """The action in PLACE_CELL: a bought Tile: its cell (R21)."""
    rec["sel_cell"] = a - S.CELL
    rec["phase"] = Phase.PLACE_ROT


@njit(cache=True, inline="always")
def apply_place_rot(rec, a):
    """The action in PLACE_ROT: then its rotation."""
    p = int(rec["turn_player"])
    c = int(rec["sel_cell"])
    rec["grid"][p, c] = int(rec["t_held"])
    rec["side"][p, c] = 0
    rec["rot"][p, c] = a - S.ROTATION
    rec["t_held"] = -1
    rec["sel_cell"] = -1
    rec["phase"] = Phase.MARKET


@njit(cache=True, inline="always")
def apply_flip_rot(rec, a):
    """The action in FLIP_ROT: a flip: the rotation that keeps the Temple legal (R33)."""
    p = int(rec["turn_player"])
    push_flip(rec, p, int(rec["sel_cell"]), a - S.ROTATION)


@njit(cache=True, inline="always")
def apply_search(rec, a):
    """The action in SEARCH: a flipped Tile searches the Relic Deck (R39)."""
    rec["search"] = 0
    if a == S.PASS:
        end_search(rec)
    else:  # R20: the old Fate's Relics go back first, then the deck is searched
        acquire_relic(rec, int(rec["actor"]), a - S.PICK_RELIC, S.R_FROM_DECK, Phase.SEARCH)


@njit(cache=True, inline="always")
def apply_raid_target(rec, a):
    """The action in RAID_TARGET: the Raid step: an opponent, or pass (R45)."""
    p = int(rec["turn_player"])
    if a == S.PASS:
        start_reinforce(rec)
    else:
        start_raid(rec, (p + 1 + a - S.TARGET_SEAT) % rec["num_players"])


@njit(cache=True, inline="always")
def apply_defend(rec, a):
    """The action in DEFEND: the Defender picks Defenders (R46)."""
    q = int(rec["defender"])
    if a == S.PASS:
        if rec["picked"] == 0:
            conquer(rec)
        else:
            rec["picked"] = 0
            push_roll(rec, 1)  # R47, R71: the Defense roll, responses before it
    else:
        t = a - S.PICK_FAITHFUL
        rec["f_temple"][q, t] -= 1
        rec["f_fight"][1, t] += 1
        rec["picked"] += 1


@njit(cache=True, inline="always")
def apply_dispatch(rec, a):
    """The action in DISPATCH: the Raider dispatches (R48)."""
    p = int(rec["turn_player"])
    if a == S.RETREAT:
        end_raid(rec)
    elif a == S.PASS:
        push_roll(rec, 0)  # R49, R71: the Raid roll, responses before it
    else:
        t = a - S.PICK_FAITHFUL
        rec["f_party"][p, t] -= 1
        rec["f_fight"][0, t] += 1
        rec["picked"] += 1


@njit(cache=True, inline="always")
def apply_recall(rec, a):
    """The action in RECALL: the Raider recalls one dispatched Faithful (R55)."""
    p = int(rec["turn_player"])
    t = a - S.PICK_FAITHFUL
    rec["f_fight"][0, t] -= 1
    rec["f_party"][p, t] += 1
    if rec["recall_more"] > 0 and count(rec["f_fight"][0]) > 0:
        rec["recall_more"] -= 1  # RECALL_EXTRA (Rally): one more to recall
        return True
    rec["recall_more"] = 0
    for u in range(NF):
        rec["f_discard"][p, u] += rec["f_fight"][0, u]
        rec["f_fight"][0, u] = 0
    after_conquest(rec)
    return False


@njit(cache=True, inline="always")
def apply_advance(rec, a):
    """The action in ADVANCE: the Raider moves the Marker or retreats (R56)."""
    if a == S.RETREAT:
        end_raid(rec)
    else:
        rec["marker"] = neighbour(rec["marker"], a - S.DIRECTION)
        rec["moves"] += 1
        arrive(rec)


@njit(cache=True, inline="always")
def apply_trap_discard(rec, a):
    """The action in TRAP_DISCARD: a Pit Trap: the Raider discards a Party Faithful (R37)."""
    p = int(rec["turn_player"])
    t = a - S.PICK_FAITHFUL
    rec["f_party"][p, t] -= 1
    rec["f_discard"][p, t] += 1
    rec["trap_left"] -= 1
    if rec["trap_left"] <= 0 or count(rec["f_party"][p]) == 0:
        rec["trap_left"] = 0
        offer_defense(rec)


@njit(cache=True, inline="always")
def apply_vandal(rec, a):
    """The action in VANDAL: on Smite: the Raider picks a Relic of the Smitten player (R59)."""
    q = int(rec["defender"])
    r = a - S.PICK_RELIC
    rec["r_owned"][q, r] -= 1
    zone_insert(rec["r_deck"], rec["r_deck_n"], S.DECK, 0, r)  # R64
    rec["vandals"] = 0
    continue_on_smite(rec)


@njit(cache=True, inline="always")
def apply_reinforce(rec, a):
    """The action in REINFORCE: the split into Temple and Raiding Party (R61)."""
    p = int(rec["turn_player"])
    if a == S.PASS:
        for t in range(NF):
            rec["f_party"][p, t] += rec["f_pool"][p, t]
            rec["f_pool"][p, t] = 0
        end_turn(rec)
    else:
        t = a - S.PICK_FAITHFUL
        rec["f_pool"][p, t] -= 1
        rec["f_temple"][p, t] += 1


@njit(cache=True)
def apply_action(rec, a):
    """Apply one legal decision of the current player: the apply of its phase."""
    ph = int(rec["phase"])
    if ph == Phase.MARKET:
        market_apply(rec, a)
    elif ph == Phase.RESPOND:
        apply_respond(rec, a)
    elif ph == Phase.FINALIZE:
        apply_finalize(rec, a)
    elif ph == Phase.PICK_DIE:
        apply_pick_die(rec, a)
    elif ph == Phase.CHOOSE:
        choice_apply(rec, a)
    elif ph == Phase.MOVE_CELL:
        apply_move_cell(rec, a)
    elif ph == Phase.MOVE_ROT:
        apply_move_rot(rec, a)
    elif ph == Phase.ASSIGN:
        apply_assign(rec, a)
    elif ph == Phase.FATE_TARGET:
        apply_fate_target(rec, a)
    elif ph == Phase.COVER_RELIC:
        apply_cover_relic(rec, a)
    elif ph == Phase.COVER_FAITHFUL:
        apply_cover_faithful(rec, a)
    elif ph == Phase.DRAW:
        apply_draw(rec, a)
    elif ph == Phase.CYCLE:
        apply_cycle(rec, a)
    elif ph == Phase.PLACE_CELL:
        apply_place_cell(rec, a)
    elif ph == Phase.PLACE_ROT:
        apply_place_rot(rec, a)
    elif ph == Phase.FLIP_ROT:
        apply_flip_rot(rec, a)
    elif ph == Phase.SEARCH:
        apply_search(rec, a)
    elif ph == Phase.RAID_TARGET:
        apply_raid_target(rec, a)
    elif ph == Phase.DEFEND:
        apply_defend(rec, a)
    elif ph == Phase.DISPATCH:
        apply_dispatch(rec, a)
    elif ph == Phase.RECALL:
        if apply_recall(rec, a):  # RECALL_EXTRA (Rally): the Raider recalls again
            set_current(rec)
            return
    elif ph == Phase.ADVANCE:
        apply_advance(rec, a)
    elif ph == Phase.TRAP_DISCARD:
        apply_trap_discard(rec, a)
    elif ph == Phase.VANDAL:
        apply_vandal(rec, a)
    elif ph == Phase.REINFORCE:
        apply_reinforce(rec, a)
    if ph == Phase.RAID_TARGET or ph == Phase.DEFEND or ph == Phase.DISPATCH \
            or ph == Phase.RECALL or ph == Phase.ADVANCE or ph == Phase.TRAP_DISCARD:
        open_raid_window(rec)  # a roll, a Trap or a Smite pushed by this decision (R71)
    set_current(rec)
