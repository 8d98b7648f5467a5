"""Setup (R1-R9), clearing a Raid, a fight or a choice, and who decides next."""

# ruff: noqa: D103  (as for envs/*/rules.py: kernels named after the rule they apply)
from __future__ import annotations

import numpy as np

from fatezoo.envs.core.jit import njit
from fatezoo.envs.core.rng import randint
from fatezoo.envs.core.stack import asked_seat
from fatezoo.envs.core.state import SPLIT_TEST, SPLIT_TRAIN
from fatezoo.envs.core.zones import zone_count_kind, zone_nth_kind, zone_push, zone_shuffle

from .. import cards as C
from .. import state as S
from ..state import Phase


@njit(cache=True, inline="always")
def clear_seats(rec, n):
    """R1-R3: each seat's Life, gold, Faithful, Relics, hand and Temple; no fight."""
    for p in range(S.MAX_P):
        live = p < n
        rec["life"][p] = S.MAX_LIFE if live else 0
        rec["alive"][p] = 1 if live else 0
        rec["gold"][p] = 0
        for t in range(C.NF):
            rec["f_temple"][p, t] = 0
            rec["f_party"][p, t] = 0
            rec["f_discard"][p, t] = 0
            rec["f_pool"][p, t] = 0
        for r in range(C.NR):
            rec["r_owned"][p, r] = 0
        for k in range(C.NC):
            rec["c_hand"][p, k] = 0
        for f in range(4):
            rec["c_sym"][p, f] = 0
        for c in range(S.CELLS):
            rec["grid"][p, c] = -1
            rec["side"][p, c] = 0
            rec["rot"][p, c] = 0
    for t in range(C.NF):
        rec["f_fight"][0, t] = 0
        rec["f_fight"][1, t] = 0
        rec["f_defeated"][t] = 0
        rec["f_out"][t] = 0


@njit(cache=True, inline="always")
def deal_faithful(rec, n):
    """R4-R5: each seat's starting Faithful; the Faithful Row's first four piles."""
    # starting Faithful (R4): per seat High Priest, Acolyte, 2 Guards; 2 Guards + 2 Acolytes
    # open the Faithful Row (R5); absent seats' starting Faithful are out of the game
    for p in range(S.MAX_P):
        if p < n:
            rec["f_temple"][p, C.HIGH_PRIEST] = 1
            rec["f_temple"][p, C.ACOLYTE] = 1
            rec["f_temple"][p, C.GUARD] = 2
        else:
            rec["f_out"][C.HIGH_PRIEST] += 1
            rec["f_out"][C.ACOLYTE] += 1
            rec["f_out"][C.GUARD] += 2
    rec["f_row"][:, :] = -1
    rec["r_row"][:, :] = -1
    rec["f_row_n"][:] = 0
    rec["r_row_n"][:] = 0
    for k in range(4):
        zone_push(rec["f_row"], rec["f_row_n"], k, C.GUARD if k < 2 else C.ACOLYTE)


@njit(cache=True, inline="always")
def shuffle_decks(rec, rng):
    """R6, R87: the Faithful and Relic Decks, then the four Fate Decks."""
    rec["f_deck"][S.DECK, :] = -1
    rec["f_deck_n"][S.DECK] = 0
    for t in range(C.NF):
        if C.F_STARTING[t]:
            continue
        if C.F_BASE[t] or rec["fatesworn"]:  # R6, R87
            for _ in range(C.F_COPIES[t]):
                zone_push(rec["f_deck"], rec["f_deck_n"], S.DECK, t)
        else:
            rec["f_out"][t] = C.F_COPIES[t]
    zone_shuffle(rec["f_deck"], rec["f_deck_n"], S.DECK, rng)
    rec["r_deck"][S.DECK, :] = -1
    rec["r_deck_n"][S.DECK] = 0
    for r in range(C.NR):
        rec["r_out"][r] = 0
        if C.R_BASE[r] or rec["fatesworn"]:
            for _ in range(C.R_COPIES[r]):
                zone_push(rec["r_deck"], rec["r_deck_n"], S.DECK, r)
        else:
            rec["r_out"][r] = C.R_COPIES[r]
    zone_shuffle(rec["r_deck"], rec["r_deck_n"], S.DECK, rng)
    for k in range(C.NC):
        rec["c_discard"][k] = 0
        rec["c_out"][k] = 0 if C.C_BASE[k] or rec["fatesworn"] else C.C_COPIES[k]
    for f in range(4):
        rec["c_deck"][f, :] = -1
        rec["c_deck_n"][f] = 0
        for k in range(C.NC):
            if not (C.C_BASE[k] or rec["fatesworn"]):
                continue
            # R87: a card with the Fatesworn symbol (fate "all") puts one copy in each deck
            copies = C.C_COPIES[k]
            c = copies if C.C_FATE[k] == f else (copies // 4 if C.C_FATE[k] == 4 else 0)
            for _ in range(c):
                zone_push(rec["c_deck"], rec["c_deck_n"], f, k)
        zone_shuffle(rec["c_deck"], rec["c_deck_n"], f, rng)


@njit(cache=True, inline="always")
def deal_tiles(rec, n, rng):
    """R2, R8: each seat's Starting Tiles; the Tile Deck."""
    # Tiles (R2, R8): the T per seat; absent seats' Starting Tiles are out of the game
    for t in range(C.NT):
        rec["t_out"][t] = 0
    for t in range(5):
        for p in range(S.MAX_P):
            if p < n:
                rec["grid"][p, S.START_CELL[t]] = t
                if t == C.TREASURY and rec["two_player_variant"]:
                    rec["side"][p, S.START_CELL[t]] = 1
            else:
                rec["t_out"][t] += 1
    rec["t_deck"][S.DECK, :] = -1
    rec["t_deck_n"][S.DECK] = 0
    for t in range(5, C.NT):
        for _ in range(C.T_COPIES[t]):
            zone_push(rec["t_deck"], rec["t_deck_n"], S.DECK, t)
    zone_shuffle(rec["t_deck"], rec["t_deck_n"], S.DECK, rng)


# Held-out setups (RULES.md "Held-out setups (`split`)", designed for fatezoo): a setup is a
# test setup when its opening holds a held-out card: the Tile Deck's top Tile is a Room with a
# passive effect (Armory, Vault, Healing Spring), or a Fate Deck's top card is one of its own
# Fate's Relic Cost 3 cards (not a Fatesworn-symbol card)
ROOM = 2  # C.T_KIND: start, trap, room, connector
HELD_TILE = ((C.T_KIND == ROOM) & (C.T_WHEN == C.WHEN.index("passive"))).astype(np.int64)
HELD_CARD = ((C.C_COST == 3) & (C.C_FATE < 4)).astype(np.int64)  # C_FATE 4: the symbol


@njit(cache=True, inline="always")
def class_to_top(cards, counts, z, kinds, kind, j):
    """Swap the ``j``-th card (from the bottom) with ``kinds[card] == kind`` onto the top."""
    i = zone_nth_kind(cards, counts, z, kinds, kind, j)
    if i < 0:
        return
    top = counts[z] - 1
    c = cards[z, i]
    cards[z, i] = cards[z, top]
    cards[z, top] = c


@njit(cache=True, inline="always")
def keep_held_off_top(cards, counts, z, kinds, rng):
    """A held-out top card swaps places with a uniformly drawn card that is not held out."""
    if kinds[cards[z, counts[z] - 1]]:
        kept = counts[z] - zone_count_kind(cards, counts, z, kinds, 1)
        class_to_top(cards, counts, z, kinds, 0, randint(rng, kept))


@njit(cache=True, inline="always")
def deal_split(rec, rng):
    """The opening of a ``split`` (RULES.md): the shuffled decks, then train or test tops.

    ``train``: each opening deck (the Tile Deck, the four Fate Decks) whose top card is held
    out swaps it with a uniformly drawn card of the same deck that is not. ``test``: one card
    drawn uniformly among the held-out cards of the five opening decks goes on top of its
    deck. ``all`` draws nothing more.
    """
    split = rec["split"]
    if split == SPLIT_TRAIN:
        keep_held_off_top(rec["t_deck"], rec["t_deck_n"], S.DECK, HELD_TILE, rng)
        for f in range(4):
            keep_held_off_top(rec["c_deck"], rec["c_deck_n"], f, HELD_CARD, rng)
    elif split == SPLIT_TEST:
        tiles = zone_count_kind(rec["t_deck"], rec["t_deck_n"], S.DECK, HELD_TILE, 1)
        total = tiles
        for f in range(4):
            total += zone_count_kind(rec["c_deck"], rec["c_deck_n"], f, HELD_CARD, 1)
        j = randint(rng, total)
        if j < tiles:
            class_to_top(rec["t_deck"], rec["t_deck_n"], S.DECK, HELD_TILE, 1, j)
            return
        j -= tiles
        for f in range(4):
            m = zone_count_kind(rec["c_deck"], rec["c_deck_n"], f, HELD_CARD, 1)
            if j < m:
                class_to_top(rec["c_deck"], rec["c_deck_n"], f, HELD_CARD, 1, j)
                return
            j -= m


@njit(cache=True, inline="always")
def clear_state(rec):
    """Nothing held, chosen, raided, rolled or stacked yet."""
    rec["f_held"] = -1
    rec["r_held"] = -1
    rec["r_take"] = -1
    rec["r_from"] = -1
    rec["r_then"] = -1
    rec["t_held"] = -1
    rec["sel_cell"] = -1
    rec["move_to"] = -1
    rec["rearranged"] = 0
    rec["draws"] = 0
    rec["draw_in_raid"] = 0
    rec["onsm"] = -1
    rec["onsm_k"] = 0
    rec["search"] = 0
    rec["winner"] = -1
    clear_raid(rec)
    for s in range(2):
        clear_dice(rec, s)
        rec["totals"][s] = 0
    rec["smite_roll"] = 0
    rec["assign_left"] = 0
    for p in range(S.MAX_P):
        rec["shield"][p] = 0
    rec["waive"] = 0
    rec["discount"] = 0
    rec["actor"] = -1
    rec["sel_play"] = -1
    clear_choice(rec)
    rec["bonus"][0] = 0
    rec["bonus"][1] = 0
    rec["stack_n"][0] = 0
    for i in range(rec["stack"].shape[0]):
        for j in range(rec["stack"].shape[1]):
            rec["stack"][i, j] = 0


@njit(cache=True)
def reset_game(rec):
    """R1-R9: Temples, Life, starting Faithful, the Marketplace, shuffled decks, first player.

    With a ``split`` the opening decks' tops come from its part of the setups (RULES.md).
    """
    n = int(rec["num_players"])
    rng = rec["rng"]
    clear_seats(rec, n)
    deal_faithful(rec, n)
    shuffle_decks(rec, rng)
    deal_tiles(rec, n, rng)
    deal_split(rec, rng)
    clear_state(rec)
    first = randint(rng, n)  # R7
    rec["turn_player"] = first
    start_turn(rec)
    set_current(rec)


@njit(cache=True)
def clear_raid(rec):
    rec["defender"] = -1
    rec["marker"] = -1
    for c in range(S.CELLS):
        rec["visited"][c] = 0
        rec["conquered"][c] = 0
    rec["moves"] = 0
    rec["picked"] = 0
    rec["trap_left"] = 0
    rec["vandals"] = 0
    rec["onsm"] = -1
    rec["onsm_k"] = 0
    clear_fight(rec)


@njit(cache=True)
def clear_fight(rec):
    """This fight's modifiers and its round end with it (R52)."""
    rec["fin"] = 0
    rec["priority"] = -1
    rec["passes"] = 0
    rec["recall_more"] = 0
    rec["die_left"] = 0
    rec["die_set"] = 0
    for s in range(2):
        rec["bonus"][s] = 0
        rec["win_ties"][s] = 0
        rec["extra"][s] = 0
        rec["protect"][s] = 0


@njit(cache=True)
def clear_choice(rec):
    rec["ch_card"] = -1
    rec["ch_seat"] = -1
    rec["ch_left"] = 0


@njit(cache=True)
def begin_choice(rec, p, play, q, picks):
    """A resolving effect of seat ``p`` waits for its owner's choice (Phase.CHOOSE)."""
    rec["ch_card"] = play
    rec["ch_seat"] = q
    rec["ch_left"] = picks
    rec["actor"] = p
    rec["phase"] = Phase.CHOOSE


@njit(cache=True)
def set_current(rec):
    ph = rec["phase"]
    if ph == Phase.DEFEND:
        rec["current_player"] = int(rec["defender"])
    elif ph == Phase.RESPOND:
        rec["current_player"] = asked_seat(rec["stack"], rec["stack_n"], rec["num_players"])
    elif (ph == Phase.FATE_TARGET or ph == Phase.DRAW or ph == Phase.PICK_DIE
          or ph == Phase.CHOOSE or ph == Phase.ASSIGN or ph == Phase.SEARCH
          or ph == Phase.COVER_RELIC) and rec["actor"] >= 0:  # COVER_RELIC: a return (R20)
        rec["current_player"] = int(rec["actor"])
    elif ph == Phase.FINALIZE:
        rec["current_player"] = int(rec["priority"])
    elif rec["phase"] != Phase.OVER:
        rec["current_player"] = int(rec["turn_player"])


# the modules of the same import cycle, imported once this one's kernels are defined
from .dice import clear_dice  # noqa: E402
from .turn import start_turn  # noqa: E402
