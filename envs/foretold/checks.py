"""Foretold's record checks: its ranges declared once, the relations by hand.

``RANGES`` says what each field may hold (``envs/core/checks.py`` checks them and names
the field): phases from the enum, seats from the player count, counts from the
capacities. The functions below check what ranges cannot say: the stack's entries
(R67-R69), seats and their holdings, every card in exactly one place (per type), the
Temples (R27), and the decision in progress, with one check per phase (``PHASE_CHECKS``).
Every refusal is a ValueError ``"foretold: <field> must be <what>, got <value>"``.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from fatezoo.envs.core.checks import SEATS, Range, RecordError, check_ranges, need, within
from fatezoo.envs.core.stack import ASK, KIND, OWNER, asked_seat
from fatezoo.envs.core.state import SPLITS
from fatezoo.envs.core.zones import zone_contents, zones_contents

from . import cards as C
from . import rules
from . import state as S
from .rules import tables as T
from .state import Phase

ROUND_PHASES = (Phase.FINALIZE, Phase.RESPOND, Phase.FATE_TARGET, Phase.DRAW, Phase.CYCLE,
                Phase.PICK_DIE, Phase.CHOOSE, Phase.ASSIGN, Phase.SEARCH)
ACTOR_PHASES = (Phase.FATE_TARGET, Phase.DRAW, Phase.PICK_DIE, Phase.CHOOSE, Phase.ASSIGN,
                Phase.SEARCH)
# R20: the decisions whose acquisition of a Relic waits on the old Fate's returns
RETURN_THEN = (Phase.MARKET, Phase.CHOOSE, Phase.SEARCH)
RAID_PHASES = (Phase.DEFEND, Phase.DISPATCH, Phase.RECALL, Phase.ADVANCE, Phase.TRAP_DISCARD,
               Phase.VANDAL)


def temple_is_legal(grid, side, rot) -> bool:
    """R27 (the loader's check, vectorised; the kernels use rules.legal_doors).

    ``grid``, ``side`` and ``rot`` must already be in range (check_record checks them first).
    """
    return bool(rules.legal_doors(*temple_doors(grid, side, rot)))


def temple_doors(grid, side, rot) -> tuple:
    """``rules.legal_doors``'s occupancy and door bits of a Temple's cells.

    One Temple's, or each seat's as a row; the fields must already be in range.
    """
    grid = np.asarray(grid, np.int64)
    here = grid >= 0
    occ = np.where(grid == C.ENTRANCE, 2, here.astype(np.int64)).astype(np.int8)
    bits = np.where(here, C.T_DOORS[np.maximum(grid, 0), np.asarray(side, np.int64)], 0)
    r = np.asarray(rot, np.int64) % 4
    doors = ((bits << r) | (bits >> (4 - r))) & 15
    return occ, doors


SYM_TYPES = tuple(int(k) for k in np.flatnonzero(np.asarray(T.C_SYM) >= 0))
CHOICE_EFFECTS = (T.E_SMASH, T.E_FREE_BUY, T.E_BUY_ANY, T.E_REMOVE,
                  T.E_SACRIFICE, T.E_CONVERT, T.E_PAY_REMOVE)


def _most(copies) -> int:
    """The most copies of one card type: no count of a type in one place is above it."""
    return int(np.max(copies))


SEAT_COUNTS = ("f_temple", "f_party", "f_discard", "f_pool", "r_owned", "c_hand")
# what each field may hold; absent seats' rows (per_seat) hold nothing
RANGES = {
    "num_players": Range(2, S.MAX_P + 1),
    "two_player_variant": Range(0, 2),
    "fatesworn": Range(0, 2),
    "split": Range(0, len(SPLITS)),  # SPLIT_ALL, SPLIT_TRAIN, SPLIT_TEST
    "phase": Range.of(Phase),
    "turn_player": Range(0, SEATS),
    "devotees": Range(0, 61),
    "draws": Range(0, 11),
    "draw_in_raid": Range(0, 2),
    "search": Range(-3, C.NR),  # a Relic type, or a flip search's kind (negative)
    "moves": Range(0, S.MAX_MOVES + 1),
    "picked": Range(0, 41),
    "trap_left": Range(0, 4),
    "vandals": Range(0, 2),
    "sel_cell": Range(-1, S.CELLS),
    "move_to": Range(-1, S.CELLS),
    "rearranged": Range(0, S.REARRANGE_CAP + 1),
    "f_held": Range(-1, C.NF),
    "r_held": Range(-1, C.NR),
    "r_take": Range(-1, C.NR),
    "r_from": Range(-1, S.R_FROM_DECK + 1),
    "defender": Range(-1, SEATS),
    "marker": Range(-1, S.CELLS),
    "winner": Range(-1, SEATS),
    "waive": Range(0, 2),
    "discount": Range(0, S.DISCOUNT_CAP + 1),
    "actor": Range(-1, SEATS),
    "sel_play": Range(-1, C.NC + C.NR),  # a Fate card type, or NC + a Relic type
    "fin": Range(0, 3),  # FIN_NONE, FIN_DEFENSE, FIN_RAID
    "priority": Range(-1, SEATS),
    "passes": Range(0, SEATS),
    "recall_more": Range(0, T.RECALL_CAP + 1),
    "die_left": Range(0, 3),
    "die_set": Range(0, 7),
    "ch_card": Range(-1, C.NC + C.NR),
    "ch_seat": Range(-1, SEATS),
    "ch_left": Range(0, 4),
    "assign_left": Range(0, S.MAX_DICE + 1),
    "onsm": Range(-1, C.NF + C.NR),  # an on-Smite Faithful type, or NF + a Relic type
    "onsm_k": Range(0, 21),
    "f_deck_n": Range(0, S.F_DECK_CAP + 1),
    "r_deck_n": Range(0, S.R_DECK_CAP + 1),
    "t_deck_n": Range(0, S.T_DECK_CAP + 1),
    "stack_n": Range(0, S.STACK_CAP + 1),
    "shield": Range(0, S.SHIELD_CAP + 1, per_seat=True),
    "bonus": Range(-60, 61),
    "win_ties": Range(0, 2),
    "extra": Range(0, S.MAX_DICE + 1),
    "protect": Range(0, 2),
    "life": Range(0, S.MAX_LIFE + 1, per_seat=True),
    "gold": Range(0, S.GOLD_CAP + 1, per_seat=True),
    "alive": Range(0, 2, per_seat=True),
    "f_temple": Range(0, _most(C.F_COPIES) + 1, per_seat=True),
    "f_party": Range(0, _most(C.F_COPIES) + 1, per_seat=True),
    "f_discard": Range(0, _most(C.F_COPIES) + 1, per_seat=True),
    "f_pool": Range(0, _most(C.F_COPIES) + 1, per_seat=True),
    "r_owned": Range(0, _most(C.R_COPIES) + 1, per_seat=True),
    "c_hand": Range(0, _most(C.C_COPIES) + 1, per_seat=True),
    "f_fight": Range(0, _most(C.F_COPIES) + 1),
    "f_defeated": Range(0, _most(C.F_COPIES) + 1),
    "f_out": Range(0, _most(C.F_COPIES) + 1),
    "r_out": Range(0, _most(C.R_COPIES) + 1),
    "c_discard": Range(0, _most(C.C_COPIES) + 1),
    "c_out": Range(0, _most(C.C_COPIES) + 1),
    "t_out": Range(0, _most(C.T_COPIES) + 1),
    "f_row_n": Range(0, S.PILE_CAP + 1),
    "r_row_n": Range(0, S.PILE_CAP + 1),
    "c_deck_n": Range(0, S.FATE_DECK_CAP + 1),
    "c_sym": Range(0, 1 << len(SYM_TYPES), per_seat=True),  # which decks' copies are held
    "grid": Range(-1, C.NT, per_seat=True, absent=-1),  # Tile types, -1 empty
    "side": Range(0, 2),  # 0 A, 1 B
    "rot": Range(0, 4),
    "visited": Range(0, 2),
    "conquered": Range(0, 2),
    "dice_n": Range(0, S.MAX_DICE + 1),
    "dice": Range(0, 7),  # faces, 0 for no die
    "die_to": Range(-1, C.NF),  # the Faithful type a die is assigned to (R50)
}


def _check_values(r: dict) -> None:
    """The fields whose values are not one interval."""
    need(r["smite_roll"] in (0, 3, 4, 5, 6), "smite_roll", "0 or a Smiting Die face")
    need(r["r_then"] in (-1, *RETURN_THEN), "r_then", "-1 or the decision acquiring a Relic "
         f"({', '.join(f'{int(x)} {x.name}' for x in RETURN_THEN)})", r["r_then"])
    need(r["t_held"] == -1 or 5 <= r["t_held"] < C.NT, "t_held",
         f"-1 or a deck Tile in [5, {C.NT})",
         r["t_held"])


def _check_stack(rec, n: int) -> None:
    """Every pending Action: kind, owner, window progress, card, target, flags (R67-R69)."""
    top = int(rec["stack_n"][0])
    for i in range(top):
        kind, owner, ask, card, target, flags = (
            int(rec["stack"][i, j]) for j in (KIND, OWNER, ASK, S.S_CARD, S.S_TARGET, S.S_FLAGS))
        what = f"stack entry {i}"
        need(kind in (S.K_FATE, S.K_RELIC, S.K_GOLD, S.K_FLIP, S.K_ROLL, S.K_TRAP, S.K_SMITE,
                      S.K_ABILITY, S.K_ONSMITE), what,
             "a Fate card (0), a Relic use (1), a Faithful played for gold (2), a flip (3), "
             "a roll (4), a Trap (5), a Smite (6), an ability discard (7) or an on-Smite "
             "trigger (8)", kind)
        need(0 <= owner < n, f"{what} owner", f"in [0, {n})", owner)
        need(0 <= ask <= n, f"{what} window", f"in [0, {n}]", ask)
        need(-1 <= target < n, f"{what} target", f"in [-1, {n})", target)
        if kind in S.RAID_KINDS:  # owners, cells and the Raid are checked in _check_phase
            need(i == 0 and flags == 0, what, "a raid Action only at the bottom, no flags",
                 kind)
            want = {S.K_ROLL: (0, 1), S.K_TRAP: tuple(range(S.CELLS)), S.K_SMITE: (0, 3, 4, 5, 6),
                    S.K_ONSMITE: tuple(range(C.NF + C.NR))}
            need(card in want[kind], f"{what} card", "a side (roll), a cell (Trap), a "
                 "Smiting Die face or 0 (Smite) or a trigger (on Smite)", card)
            need((target >= 0) == (kind in (S.K_SMITE, S.K_ONSMITE)), f"{what} target",
                 "the Defender for a Smite and its triggers, else -1", target)
            continue
        if kind == S.K_ABILITY:  # the fight is checked in _check_phase
            need(0 <= card < C.NF and (T.F_DISCARD_RAID[card] > 0
                                     or T.F_DISCARD_DEFEND[card] > 0)
                 and flags == 0 and target == -1, f"{what} card",
                 "a Faithful type with a discard ability, no flags, no target", card)
            continue
        if kind == S.K_GOLD:
            need(0 <= card < C.NF and flags == 0 and target == -1, f"{what} card",
                 "a Faithful type, no flags, no target", card)
            continue
        if kind == S.K_FLIP:  # the Tile itself is checked with the Temples (_check_phase)
            need(0 <= card < 4 * S.CELLS and flags == 0 and target == -1, f"{what} card",
                 "4 * cell + rotation, no flags, no target", card)
            continue
        if kind == S.K_FATE:
            need(0 <= card < C.NC and T.C_PLAYABLE[card], f"{what} card",
                 "a playable Fate card type", card)
            need(flags in (0, S.F_COUNTERED), f"{what} flags", "0 or countered", flags)
        else:
            need(0 <= card < C.NR and T.R_USABLE[card], f"{what} card",
                 "a usable Relic type", card)
            want = S.F_SACRIFICED if C.R_SACRIFICE[card] else 0
            need(flags == want, f"{what} flags", f"{want} for this Relic", flags)
        need((target >= 0) == bool(rules.needs_target(card if kind == S.K_FATE else C.NC + card)),
             f"{what} target", "set exactly for an effect with a target", target)


def _check_seats(rec, r: dict, n: int) -> None:
    """Life and elimination (R81-R82), the winner, and who decides in a running game."""
    life, alive, gold = rec["life"], rec["alive"], rec["gold"]
    need((alive[:n] == (life[:n] > 0)).all(), "alive", "1 exactly for seats with Life")
    for name in SEAT_COUNTS:
        arr = rec[name]
        for p in range(n):
            need(alive[p] or not arr[p].any(), f"{name} of eliminated seat {p}", "empty")
    for p in range(n):
        need(alive[p] or not gold[p], f"gold of eliminated seat {p}", "0")
    over = bool(rec["terminated"])
    running = not (rec["terminated"] or rec["truncated"])
    need(over == (r["phase"] == Phase.OVER), "phase", "over exactly when the game is terminated")
    need(over == (r["winner"] >= 0), "winner", "set exactly when the game is terminated")
    if r["winner"] >= 0:
        need(alive[r["winner"]], "winner", "a living seat")
    if running:
        need(alive[r["turn_player"]], "turn_player", "a living seat")
        need(alive[:n].sum() >= 2, "alive", "at least two living seats in a running game")
        want = r["defender"] if r["phase"] == Phase.DEFEND else r["turn_player"]
        if r["phase"] in ACTOR_PHASES or _returning(r):
            want = r["actor"]
        elif r["phase"] == Phase.FINALIZE:
            want = r["priority"]
        elif r["phase"] == Phase.RESPOND:
            want = int(asked_seat(rec["stack"], rec["stack_n"], n))
        need(want >= 0 and alive[want], "the seat to decide", "a living seat", want)
        need(rec["current_player"] == want, "current_player", f"{want} in this phase",
             int(rec["current_player"]))


def _check_piles(rec, r: dict) -> None:
    """The cards in the Rows' piles and in the decks: types each may hold."""
    for prefix, ntypes in (("f", C.NF), ("r", C.NR)):
        rows, sizes = rec[f"{prefix}_row"], rec[f"{prefix}_row_n"]
        if not within(zones_contents(rows, sizes), 0, ntypes):
            k = next(k for k in range(S.SPOTS)
                     if not within(zone_contents(rows, sizes, k), 0, ntypes))
            need(False, f"{prefix}_row pile {k}", "card types")
        deck = zone_contents(rec[f"{prefix}_deck"], rec[f"{prefix}_deck_n"], S.DECK)
        need(within(deck, 0, ntypes), f"{prefix}_deck", "card types")
    sizes = rec["c_deck_n"].astype(np.int64)
    if not _own_fate(zones_contents(rec["c_deck"], sizes), np.repeat(np.arange(4), sizes)):
        f = next(f for f in range(4) if not _own_fate(zone_contents(rec["c_deck"], sizes, f), f))
        need(False, f"Fate Deck {f}", "cards of its own Fate or with the Fatesworn symbol")
    tdeck = zone_contents(rec["t_deck"], rec["t_deck_n"], S.DECK)
    need(within(tdeck, 5, C.NT), "t_deck", "deck Tile types")


def _own_fate(cards: np.ndarray, fate) -> bool:
    """Whether ``cards`` are Fate cards of ``fate`` (per card, or one for all) or Fatesworn."""
    return within(cards, 0, C.NC) and bool(((C.C_FATE[cards] == fate)
                                            | (C.C_FATE[cards] == 4)).all())


def _conserve(name: str, found: np.ndarray, copies: np.ndarray) -> None:
    """Every card of each type in exactly one place (R97)."""
    bad = np.flatnonzero(found != copies)
    if bad.size:
        t = int(bad[0])
        raise RecordError(f"{name} type {t} is counted {int(found[t])} times, "
                          f"expected {int(copies[t])} (every card in exactly one place)")


SYM_BITS = np.arange(len(SYM_TYPES))  # c_sym's bit j: the copy of symbol type SYM_TYPES[j]
SYM_COLUMNS = np.array(SYM_TYPES)


def _check_symbol_copies(rec, n: int) -> None:
    """R87: a Fatesworn-symbol card in a hand is one deck's copy (c_sym), one per deck."""
    held = (rec["c_sym"].astype(np.int64)[:, :, None] >> SYM_BITS) & 1  # (seat, deck, symbol)
    hands_off = (held.sum(1) != rec["c_hand"][:, SYM_COLUMNS]).any(0)  # per symbol
    sizes = rec["c_deck_n"].astype(np.int64)
    where = np.repeat(np.arange(4), sizes) * C.NC + zones_contents(rec["c_deck"], sizes)
    in_deck = np.bincount(where, minlength=4 * C.NC).reshape(4, C.NC)  # (deck, card type)
    twice = held.sum(0) + in_deck[:, SYM_COLUMNS] > 1  # (deck, symbol)
    for j in np.flatnonzero(hands_off | twice.any(0)):  # the first symbol type at fault
        k = SYM_TYPES[j]
        need(not hands_off[j], "c_hand", f"symbol type {k} counted once per deck copy held (c_sym)")
        need(False, f"Fate Deck {int(np.flatnonzero(twice[:, j])[0])}",
             f"its one copy of symbol type {k}, in the deck or in one hand")


# the out-of-game field, the Fatesworn types and their copies of each card kind (R6)
FATESWORN_OUT = tuple((name, ~np.asarray(base, bool), copies[~np.asarray(base, bool)])
                      for name, base, copies in (("f_out", C.F_BASE, C.F_COPIES),
                                                 ("r_out", C.R_BASE, C.R_COPIES),
                                                 ("c_out", C.C_BASE, C.C_COPIES)))


def _check_cards(rec, r: dict, n: int) -> None:
    if not r["fatesworn"]:  # R6: without the option its cards are out of the game
        for name, extra, copies in FATESWORN_OUT:
            need((rec[name][extra] == copies).all(), name,
                 "every Fatesworn card out of the game without the fatesworn option")
    f = (rec["f_temple"].sum(0) + rec["f_party"].sum(0) + rec["f_discard"].sum(0)
         + rec["f_pool"].sum(0) + rec["f_fight"].sum(0) + rec["f_defeated"] + rec["f_out"]
         ).astype(np.int64)
    f += np.bincount(np.concatenate((zones_contents(rec["f_deck"], rec["f_deck_n"]),
                                     zones_contents(rec["f_row"], rec["f_row_n"]))),
                     minlength=C.NF)
    if r["f_held"] >= 0:
        f[r["f_held"]] += 1
    _conserve("Faithful", f, C.F_COPIES)
    rl = (rec["r_owned"].sum(0) + rec["r_out"]).astype(np.int64)
    rl += np.bincount(np.concatenate((zones_contents(rec["r_deck"], rec["r_deck_n"]),
                                      zones_contents(rec["r_row"], rec["r_row_n"]))),
                      minlength=C.NR)
    if r["r_held"] >= 0:
        rl[r["r_held"]] += 1
    c = (rec["c_hand"].sum(0) + rec["c_discard"] + rec["c_out"]).astype(np.int64)
    for i in range(int(rec["stack_n"][0])):
        e = rec["stack"][i]
        if e[KIND] == S.K_FATE:
            c[e[S.S_CARD]] += 1
        elif e[KIND] == S.K_RELIC and e[S.S_FLAGS] & S.F_SACRIFICED:
            rl[e[S.S_CARD]] += 1
    _conserve("Relic", rl, C.R_COPIES)
    c += np.bincount(zones_contents(rec["c_deck"], rec["c_deck_n"]), minlength=C.NC)
    _conserve("Fate card", c, C.C_COPIES)
    _check_symbol_copies(rec, n)
    grid = rec["grid"]
    t = rec["t_out"].astype(np.int64) + np.bincount(tdeck_types(rec, r), minlength=C.NT)
    t += np.bincount(grid[grid >= 0].astype(np.int64), minlength=C.NT)
    if r["t_held"] >= 0:
        t[r["t_held"]] += 1
    _conserve("Tile", t, C.T_COPIES)
    _check_temples(rec, n)


# row k: Relic type k's Fate as a one-hot row over the values R_FATE takes
R_FATES = (np.asarray(C.R_FATE)[:, None] == np.unique(C.R_FATE)).astype(np.int64)


def _check_temples(rec, n: int) -> None:
    """Each seat's Temple (its Starting Tiles, Entrance, R27) and its Fate Relics.

    Every seat's counts at once; the first seat at fault, and its first fault, named.
    """
    grid = rec["grid"][:n].astype(np.int64)  # (seat, cell)
    side = rec["side"][:n].astype(np.int64)
    placed = grid >= 0
    tiles = np.bincount((np.arange(n)[:, None] * C.NT + grid)[placed], minlength=n * C.NT)
    starts = tiles.reshape(n, C.NT)[:, :5]
    entrance = np.argmax(grid == C.ENTRANCE, axis=1)  # its one cell, once starts are sound
    occ, doors = temple_doors(grid, side, rec["rot"][:n])
    owned = rec["r_owned"][:n].astype(np.int64) * C.R_IS_FATE  # (seat, Relic type)
    fates = (owned @ R_FATES > 0).sum(1)
    held = owned.sum(1)
    altars = np.where(placed, C.T_ALTARS[np.maximum(grid, 0), side], 0).sum(1)
    for p in range(n):
        if (starts[p] != 1).any():
            k = int(np.flatnonzero(starts[p] != 1)[0])
            need(False, f"seat {p}'s Temple", f"one Starting Tile of type {k}")
        need(entrance[p] == S.START_CELL[C.ENTRANCE],
             f"seat {p}'s Entrance", f"in cell {S.START_CELL[C.ENTRANCE]}")
        need(rules.legal_doors(occ[p], doors[p]), f"seat {p}'s Temple",
             "legal (R27: doorways lined up, all connected to the Entrance)")
        need(fates[p] <= 1, f"seat {p}'s Fate Relics", "of one Fate")
        need(held[p] <= altars[p], f"seat {p}'s Fate Relics", f"at most its {altars[p]} Altars")


def tdeck_types(rec, r) -> np.ndarray:
    """The Tile Deck's types, bottom to top."""
    return zone_contents(rec["t_deck"], rec["t_deck_n"], S.DECK)


def _stations(rec, p: int) -> int:
    g = rec["grid"][p].astype(np.int64)
    return int(np.where(g >= 0, C.T_STATIONS[np.maximum(g, 0), rec["side"][p]], 0).sum())


def _returning(r: dict) -> bool:
    """R20: a returned Fate Relic waits for the pile it covers (the acquirer decides)."""
    return r["phase"] == Phase.COVER_RELIC and r["r_then"] >= 0


def _check_return(rec, r: dict) -> None:
    """R20: a change of Fate waiting on its returns: what is acquired, from where, by whom."""
    take, src, then, a = r["r_take"], r["r_from"], r["r_then"], r["actor"]
    pending = then >= 0
    need((take >= 0) == pending and (src >= 0) == pending, "r_take/r_from/r_then",
         "all set (a Relic acquired after the returns, R20) or all -1")
    need(not pending or r["phase"] == Phase.COVER_RELIC, "r_then", "set only while a "
         "returned Relic waits for the pile it covers (R20)", then)
    if r["phase"] == Phase.COVER_RELIC:
        need((rec["r_row_n"] > 0).all(), "r_row_n", "no empty Relic Row spot while a Relic "
             "waits to cover a pile (R12, R20)")
    if not pending:
        return
    held = r["r_held"]
    need(held >= 0, "r_held", "a returned Fate Relic while an acquisition waits on the "
         "returns (R20)", held)
    need(0 <= a < r["num_players"], "actor", "the seat returning its Relics (R20)", a)
    need(C.R_IS_FATE[take], "r_take", "a Fate Relic while the old Fate's Relics go back", take)
    need(C.R_IS_FATE[held] and C.R_FATE[held] != C.R_FATE[take], "r_held",
         "a Fate Relic of another Fate than the one acquired (r_take) while it goes back", held)
    owned = rec["r_owned"][a].astype(np.int64) * C.R_IS_FATE
    need(not owned[C.R_FATE != C.R_FATE[held]].any(), "r_owned", "the returning seat's Fate "
         "Relics all of the returned Relic's Fate (the old Fate) until the new one is taken "
         "(R20)")
    need(bool(rules.can_take_relic(rec, a, take)), "r_take",
         "a Relic the returning seat has an open Altar for (R19)", take)
    if src < S.R_FROM_DECK:
        m = int(rec["r_row_n"][src])
        need(int(rec["r_row"][src, m - 1]) == take, "r_from", "the Relic Row spot topped by "
             "the Relic acquired (r_take)", src)
    else:
        need(take in zone_contents(rec["r_deck"], rec["r_deck_n"], S.DECK), "r_from",
             "the Relic Deck, holding the Relic acquired (r_take)", src)
    need(then != Phase.SEARCH or src == S.R_FROM_DECK, "r_from", "the Relic Deck for a flip "
         "search", src)
    if then == Phase.MARKET:
        need(src < S.R_FROM_DECK and a == r["turn_player"], "r_then", "a purchase (Marketplace) "
             "by the turn player from a Relic Row spot", then)
        need(not rec["stack_n"][0] and not r["fin"] and r["defender"] < 0, "r_then",
             "a purchase only in the Marketplace Step (no stack, no Raid)", then)


class _At(NamedTuple):
    """Where a record's game stands: what the relations of ``_check_phase`` depend on."""

    ph: int
    tp: int  # the turn player
    q: int  # the Defender, -1 outside a Raid
    running: bool
    returning: bool  # R20: a returned Fate Relic waits for the pile it covers
    in_round: bool  # a fight's round (R47, R51) and the Actions taken in it
    in_raid: bool
    top: int  # stack_n
    bottom: int  # the kind of the stack's bottom entry, -1 for none
    raid_entry: bool  # a raid Action waits at the bottom of the stack
    rolling: int  # the side about to roll, -1 for none


def _at(rec, r: dict) -> _At:
    ph = r["phase"]
    in_round = r["fin"] > 0
    top = int(rec["stack_n"][0])
    bottom = int(rec["stack"][0, KIND]) if top > 0 else -1
    raid_entry = bottom in S.RAID_KINDS
    in_raid = ph in RAID_PHASES or (ph == Phase.DRAW and r["draw_in_raid"]) or in_round \
        or raid_entry
    return _At(ph, r["turn_player"], r["defender"], not (rec["terminated"] or rec["truncated"]),
               _returning(r), in_round, in_raid, top, bottom, raid_entry,
               int(rec["stack"][0, S.S_CARD]) if bottom == S.K_ROLL else -1)


def _check_phase(rec, r: dict, n: int) -> None:
    """The decision in progress: the fields each phase sets, then the phase's own check."""
    at = _at(rec, r)
    _check_return(rec, r)
    _check_held(rec, r, at)
    _check_round(r, at)
    _check_raid(rec, r, n, at)
    _check_pending(rec, r, at)
    _check_on_smite(rec, r, at.ph, at.bottom)
    if not at.running:
        return
    _check_raid_running(rec, r, n, at)
    _check_assignment(rec, r, at.ph, at.in_round)
    check = PHASE_CHECKS.get(at.ph)
    if check is not None:
        check(rec, r, n, at)


def _check_held(rec, r: dict, at: _At) -> None:
    """A card held or a cell chosen exactly in the phases that place or turn it."""
    ph = at.ph
    if ph == Phase.COVER_FAITHFUL:
        need(bool(rules.any_coverable(rec)), "f_row", "a pile without a Decree on top to cover "
             "(R13)")
    need((r["f_held"] >= 0) == (ph == Phase.COVER_FAITHFUL), "f_held",
         "set exactly while a revealed Faithful waits for its spot")
    need((r["r_held"] >= 0) == (ph == Phase.COVER_RELIC), "r_held",
         "set exactly while a revealed (R12) or returned (R20) Relic waits for its spot")
    placing = ph in (Phase.PLACE_CELL, Phase.PLACE_ROT)
    need((r["t_held"] >= 0) == placing, "t_held", "set exactly while a bought Tile is placed")
    need((r["sel_cell"] >= 0) == (ph in (Phase.PLACE_ROT, Phase.FLIP_ROT, Phase.MOVE_CELL,
                                         Phase.MOVE_ROT)), "sel_cell",
         "set exactly while a rotation is chosen or a Tile is moved")
    need((r["move_to"] >= 0) == (ph == Phase.MOVE_ROT), "move_to",
         "set exactly while a moved Tile's rotation is chosen")
    need((r["draws"] > 0) == (ph == Phase.DRAW), "draws", "positive exactly while drawing")
    need(not r["draw_in_raid"] or ph == Phase.DRAW, "draw_in_raid", "0 outside a draw")


def _check_round(r: dict, at: _At) -> None:
    """R47, R51: a fight's round, its priority and passes, a die being picked."""
    ph, in_round = at.ph, at.in_round
    need(not in_round or ph in ROUND_PHASES or at.returning, "fin",
         "0 outside a fight's round and its Actions")
    need(ph != Phase.FINALIZE or in_round, "fin", "set while a round asks a seat")
    need((r["priority"] >= 0) == in_round, "priority", "set exactly during a fight's round")
    need(in_round or not r["passes"], "passes", "0 outside a fight's round")
    need((r["die_left"] > 0) == (ph == Phase.PICK_DIE), "die_left", "positive exactly while a "
         "die is picked")
    need(r["die_set"] == 0 or ph == Phase.PICK_DIE, "die_set", "0 unless a die is picked")
    need(ph != Phase.PICK_DIE or in_round, "fin", "a fight's round while a die is picked")


def _check_raid(rec, r: dict, n: int, at: _At) -> None:
    """A Raid's fields set exactly during one; a fight's modifiers only in a fight."""
    ph, in_raid = at.ph, at.in_raid
    need((at.q >= 0) == in_raid, "defender", "set exactly during a Raid")
    need((r["marker"] >= 0) == in_raid, "marker", "set exactly during a Raid")
    if not in_raid:
        need(not rec["visited"].any() and not rec["conquered"].any() and not r["moves"]
             and not r["picked"] and not r["trap_left"] and not r["vandals"],
             "raid fields", "cleared outside a Raid")
        need(not rec["f_fight"].any() and not rec["f_defeated"].any(), "f_fight/f_defeated",
             "empty outside a Raid")
    for p in range(n):
        need(not rec["f_pool"][p].any() or (p == at.tp and ph == Phase.REINFORCE), "f_pool",
             "empty except the turn player's at Reinforce")
    fighting = ph in (Phase.DEFEND, Phase.DISPATCH) or at.in_round
    need(not rec["bonus"].any() or fighting, "bonus",
         "0 outside the Defend and dispatch steps and the round of a fight")
    need(not (rec["win_ties"].any() or rec["extra"].any() or rec["protect"].any()) or fighting,
         "win_ties/extra/protect", "0 outside a fight")
    need(ph != Phase.DEFEND or not rec["protect"].any(), "protect", "0 while Defending")
    need(not r["recall_more"] or fighting or ph == Phase.RECALL, "recall_more",
         "0 outside a fight and its recall")
    need(ph != Phase.DEFEND or not (rec["win_ties"].any() or rec["extra"].any()
                                    or r["recall_more"]), "win_ties/extra",
         "0 while Defending (no round yet)")
    need(ph != Phase.DEFEND or (rec["bonus"][0] == 0 and (r["picked"] or not rec["bonus"][1])),
         "bonus", "only the Defender's, after a Defender is chosen, while Defending")


def _check_pending(rec, r: dict, at: _At) -> None:
    """The stack in this phase, the card being played, an effect's pick, flips, abilities."""
    ph, top, tp, q = at.ph, at.top, at.tp, at.q
    need(top == 0 or at.returning or ph in (Phase.RESPOND, Phase.DRAW, Phase.CYCLE,
                                            Phase.FATE_TARGET, Phase.PICK_DIE, Phase.CHOOSE,
                                            Phase.SEARCH),
         "stack_n", "0 outside response windows and the decisions of a resolving Action")
    need(top == 0 or not at.in_raid or at.in_round or at.raid_entry, "stack_n",
         "0 during a Raid outside a fight's round and the raid's Actions")
    need(ph != Phase.FINALIZE or top == 0, "stack_n", "0 while a round asks a seat")
    if at.raid_entry:
        _check_raid_entry(rec, r, at.bottom, at.in_round, at.rolling)
    need((r["sel_play"] >= 0) == (ph == Phase.FATE_TARGET), "sel_play",
         "set exactly while a target is chosen")
    need((r["actor"] >= 0) == (ph in ACTOR_PHASES or at.returning), "actor",
         "set exactly while a target, a die or a resolving effect's pick is chosen, a Fate "
         "card drawn or a returned Relic's pile chosen (R20)")
    choosing = ph == Phase.CHOOSE
    need((r["ch_card"] >= 0) == choosing, "ch_card", "set exactly while an effect's pick is "
         "chosen")
    need(choosing or (r["ch_seat"] == -1 and r["ch_left"] == 0), "ch_seat/ch_left",
         "-1 and 0 outside a resolving effect's pick")
    if choosing and at.running:
        e, a = (int(x) for x in rules.play_effect(int(r["ch_card"])))
        need(e in CHOICE_EFFECTS, "ch_card", "a card whose effect is chosen at resolution",
             r["ch_card"])
        need((e == T.E_SMASH) == (r["ch_seat"] >= 0), "ch_seat",
             "set exactly for a Relic smash")
        need(1 <= r["ch_left"] <= max(1, a), "ch_left", f"in [1, {max(1, a)}]", r["ch_left"])
        if e in (T.E_REMOVE, T.E_SACRIFICE, T.E_CONVERT, T.E_PAY_REMOVE):
            need(at.in_round and rules.fight_side(rec, r["actor"]) >= 0, "actor",
                 "a side of the fight while a Faithful is taken out of it")
    flips = set()
    for i in range(top):
        kind, owner, card = (int(x) for x in rec["stack"][i, [KIND, OWNER, S.S_CARD]])
        if kind == S.K_FLIP:
            c, t = card // 4, int(rec["grid"][owner, card // 4])
            # the turn player's (Marketplace) or the Defender's during a Raid (R34: the
            # rotation stays); one pending flip per Tile
            ok = owner == tp or (owner == q and q >= 0 and card % 4 == rec["rot"][owner, c])
            ok = ok and t >= 0 and rec["side"][owner, c] == 0 and C.T_FLIP[t] > 0
            need(ok and bool(rules.flip_rotation_ok(rec, owner, c, card % 4))
                 and (owner, c) not in flips, f"stack entry {i} card", "an unflipped Tile of "
                 "the turn player (or, in a Raid, the Defender) that may turn that way, "
                 "flipped once", card)
            flips.add((owner, c))
        if kind == S.K_ABILITY:
            side = 0 if owner == tp else 1
            ok = at.in_round and owner in (tp, q) and (
                T.F_DISCARD_RAID[card] if side == 0 else T.F_DISCARD_DEFEND[card]) > 0
            need(ok, f"stack entry {i}", "an ability discard of a side of the fight in its "
                 "rounds (R43)", card)


def _check_raid_running(rec, r: dict, n: int, at: _At) -> None:
    """A running Raid: the Defender and the Marker; a fight's round: both sides' dice."""
    tp, q = at.tp, at.q
    if at.in_raid:
        need(q != tp and 0 <= r["marker"], "defender", "another seat, with the Marker placed")
        need(rec["grid"][q, r["marker"]] >= 0, "marker", "on a Tile of the Defender")
        need(rec["alive"][q] or at.ph == Phase.DRAW or r["onsm"] >= 0, "defender",
             "alive during the Raid (but for its on-Smite triggers)")
    if at.in_round:
        need(rec["f_fight"][1].any() and (rec["dice_n"][1] > 0 or at.rolling == 1), "f_fight",
             "Defenders and their dice in a fight's round")
        need(r["fin"] == 1 or rec["f_fight"][0].any() and (rec["dice_n"][0] > 0
                                                             or at.rolling == 0), "f_fight",
             "the dispatched and their dice in the round after the Raid roll")
        need(r["fin"] == 2 or not rec["f_fight"][0].any() and not rec["dice_n"][0], "f_fight",
             "nothing dispatched in the round after the Defense roll")
        need(r["passes"] < int(rec["alive"][:n].sum()), "passes", "below the living seats")


# ---------------------------------------------------------------- one check per phase


def _respond(rec, r: dict, n: int, at: _At) -> None:
    s = int(asked_seat(rec["stack"], rec["stack_n"], n))
    need(at.top > 0 and s >= 0, "stack", "a seat asked about its top entry")


def _fate_target(rec, r: dict, n: int, at: _At) -> None:
    a, sp = int(r["actor"]), int(r["sel_play"])
    need(at.top < S.STACK_CAP, "stack_n", f"below {S.STACK_CAP} while a target is chosen")
    need(bool(rules.needs_target(sp)), "sel_play", "a card with a target", sp)
    if sp < C.NC:
        need(rec["c_hand"][a, sp] > 0, "sel_play", "a Fate card in the actor's hand", sp)
    else:
        ok = rec["r_owned"][a, sp - C.NC] > 0 and (
            not C.R_USE_DEVOTEE[sp - C.NC] or rec["f_discard"][a, C.DEVOTEE] > 0)
        need(ok, "sel_play", "a Relic the actor holds and can pay for", sp)


def _finalize(rec, r: dict, n: int, at: _At) -> None:
    need(r["priority"] >= 0 and bool(rules.has_play(rec, r["priority"], False)), "priority",
         "a seat with an Action to take in the round")


def _pick_die(rec, r: dict, n: int, at: _At) -> None:
    need(bool(rules.any_die_pickable(rec)), "dice", "a die to pick")
    need(r["die_set"] > 0 or r["die_left"] <= 2, "die_left", "at most 2 rerolls")


def _place_rot(rec, r: dict, n: int, at: _At) -> None:
    c, tp = r["sel_cell"], at.tp
    need(rec["grid"][tp, c] < 0 and any(rules.legal_with(rec, tp, c, r["t_held"], 0, x)
                                        for x in range(4)),
         "sel_cell", "an empty cell where the bought Tile fits")


def _place_cell(rec, r: dict, n: int, at: _At) -> None:
    need(rules.can_place_anywhere(rec, at.tp, r["t_held"], 0), "t_held",
         "a Tile with a legal place")


def _move(rec, r: dict, n: int, at: _At) -> None:
    occ, doors = np.zeros(S.CELLS, np.int8), np.zeros(S.CELLS, np.int64)
    c = int(r["sel_cell"])
    to = range(S.CELLS) if at.ph == Phase.MOVE_CELL else (int(r["move_to"]),)
    need(r["rearranged"] < S.REARRANGE_CAP, "rearranged", f"below the cap {S.REARRANGE_CAP} "
         "while a rearranging move is in progress (the move counts when it ends)",
         r["rearranged"])
    need(any(rules.move_ok(rec, at.tp, c, d, x, occ, doors) for d in to for x in range(4)),
         "sel_cell/move_to", "a Tile with a legal rearranging move (R24)")


def _flip_rot(rec, r: dict, n: int, at: _At) -> None:
    c, tp = r["sel_cell"], at.tp
    t = int(rec["grid"][tp, c])
    need(t >= 0 and rec["side"][tp, c] == 0 and C.T_FLIP[t] > 0
         and C.T_FLIP[t] <= rec["gold"][tp]
         and any(rules.flip_rotation_ok(rec, tp, c, x) for x in range(4)),
         "sel_cell", "an unflipped Tile the turn player can pay to flip")


def _draw(rec, r: dict, n: int, at: _At) -> None:
    need(rec["c_deck_n"].any(), "c_deck_n", "a Fate Deck with cards while drawing")


def _raid_target(rec, r: dict, n: int, at: _At) -> None:
    need(rec["f_party"][at.tp].any(), "f_party", "a Raiding Party to raid with")


def _defend(rec, r: dict, n: int, at: _At) -> None:
    q, c = at.q, r["marker"]
    st = int(C.T_STATIONS[rec["grid"][q, c], rec["side"][q, c]])
    need(r["picked"] == rec["f_fight"][1].sum() and r["picked"] <= st, "picked",
         "the Defenders chosen, at most one per Station")
    need(not rec["f_fight"][0].any(), "f_fight",
         "no dispatched Faithful while the Defender chooses")
    need(st > 0 and not rec["conquered"][c], "marker", "on a Station Tile")


def _dispatch(rec, r: dict, n: int, at: _At) -> None:
    need(rec["f_fight"][1].any() and r["picked"] == rec["f_fight"][0].sum(), "f_fight",
         "Defenders in the fight and the dispatched counted")


def _recall(rec, r: dict, n: int, at: _At) -> None:
    need(rec["f_fight"][0].any() and not rec["f_fight"][1].any(), "f_fight",
         "dispatched Faithful to recall from")


def _advance(rec, r: dict, n: int, at: _At) -> None:
    need(not rec["f_fight"].any(), "f_fight", "empty between fights")


def _trap_discard(rec, r: dict, n: int, at: _At) -> None:
    _advance(rec, r, n, at)
    need(r["trap_left"] > 0 and rec["f_party"][at.tp].any(), "trap_left",
         "a discard still owed from a Party")


def _vandal(rec, r: dict, n: int, at: _At) -> None:
    _advance(rec, r, n, at)
    need(r["vandals"] > 0 and rec["r_owned"][at.q].any(), "vandals",
         "a Vandal smash owed against a Defender with Relics")


def _reinforce(rec, r: dict, n: int, at: _At) -> None:
    tp = at.tp
    need(rec["f_temple"][tp].sum() <= _stations(rec, tp), "f_temple",
         "at most one Faithful per Station at Reinforce")
    need(not rec["f_party"][tp].any() and not rec["f_discard"][tp].any(), "f_party",
         "empty while the turn player splits their Faithful")


# what a running game's phase needs besides the fields it sets (_check_phase)
PHASE_CHECKS = {
    Phase.RESPOND: _respond,
    Phase.FATE_TARGET: _fate_target,
    Phase.FINALIZE: _finalize,
    Phase.PICK_DIE: _pick_die,
    Phase.PLACE_ROT: _place_rot,
    Phase.PLACE_CELL: _place_cell,
    Phase.MOVE_CELL: _move,
    Phase.MOVE_ROT: _move,
    Phase.FLIP_ROT: _flip_rot,
    Phase.DRAW: _draw,
    Phase.RAID_TARGET: _raid_target,
    Phase.DEFEND: _defend,
    Phase.DISPATCH: _dispatch,
    Phase.RECALL: _recall,
    Phase.ADVANCE: _advance,
    Phase.TRAP_DISCARD: _trap_discard,
    Phase.VANDAL: _vandal,
    Phase.REINFORCE: _reinforce,
}


def _check_on_smite(rec, r: dict, ph: int, bottom: int) -> None:
    """R59: the on-Smite cursor: set exactly while a trigger waits or decides."""
    x, k = int(r["onsm"]), int(r["onsm_k"])
    need((k == 0) == (x < 0), "onsm_k", "in [1, 20] with a trigger, else 0", k)
    drawing = ph == Phase.DRAW and r["draw_in_raid"]
    active = bottom == S.K_ONSMITE or ph == Phase.VANDAL or drawing
    if not (rec["terminated"] or rec["truncated"]):
        need((x >= 0) == active, "onsm", "set exactly while an on-Smite trigger waits or "
             "decides", x)
        need((r["vandals"] > 0) == (ph == Phase.VANDAL), "vandals", "1 exactly while a "
             "Vandal picks", r["vandals"])
    if x < 0 or rec["terminated"] or rec["truncated"]:
        return
    fires = C.F_WHEN[x] == T.W_ON_SMITE if x < C.NF else \
        C.R_WHEN[x - C.NF] == T.W_ON_SMITE
    need(bool(fires), "onsm", "an on-Smite Faithful or Relic type", x)
    if bottom == S.K_ONSMITE:
        need(int(rec["stack"][0, S.S_CARD]) == x, "stack entry 0 card",
             f"the trigger {x} (onsm)", int(rec["stack"][0, S.S_CARD]))
    if ph == Phase.VANDAL:
        need(x < C.NF and T.F_SMASH_ON_SMITE[x] > 0, "onsm", "a Vandal while one picks", x)
    if drawing:
        need(x >= C.NF and C.R_EFFECT[x - C.NF] == T.E_DRAW_FATE, "onsm",
             "a drawing Crown while its draws are made", x)


def _check_assignment(rec, r: dict, ph: int, in_round: bool) -> None:
    """R50: dice assigned only to die-dependent Faithful in the fight, one die per slot."""
    to = rec["die_to"].astype(np.int64)
    low = T.F_LOW_DIE > 0
    need(low[np.maximum(to, 0)][to >= 0].all(), "die_to", "-1 or a die-dependent Faithful "
         "type")
    for s in range(2):
        need((to[s, int(rec["dice_n"][s]):] == -1).all(), "die_to", "-1 past the dice rolled")
        if in_round:
            for t in np.flatnonzero(low):
                slots = int(rec["f_fight"][s, t]) * int(C.F_DICE[t])
                need(int((to[s] == t).sum()) <= slots, "die_to",
                     f"at most {slots} dice for type {int(t)} on side {s}")
    assigning = ph == Phase.ASSIGN
    need((r["assign_left"] > 0) == assigning, "assign_left",
         "positive exactly while dice are assigned")
    if not assigning or not (rec["terminated"] == 0 and rec["truncated"] == 0):
        return
    a, q, tp = r["actor"], r["defender"], r["turn_player"]
    need(in_round and a in (q, tp), "actor", "a side of the fight while dice are assigned", a)
    s = 1 if a == q else 0
    free = int((to[s, : int(rec["dice_n"][s])] == -1).sum())
    used = int((to[s] >= 0).sum())
    need(r["assign_left"] <= free and used + r["assign_left"] <= int(rules.low_slots(rec, s)),
         "assign_left", "at most the free dice and the die-dependent slots left",
         r["assign_left"])


def _check_raid_entry(rec, r: dict, kind: int, in_round: bool, rolling: int) -> None:
    """The raid Action at the bottom of the stack (R37, R47-R49, R58, R71)."""
    tp, q, c = r["turn_player"], r["defender"], r["marker"]
    owner, card, target = (int(x) for x in rec["stack"][0, [OWNER, S.S_CARD, S.S_TARGET]])
    need(q >= 0 and c >= 0 and rec["grid"][q, c] >= 0, "stack entry 0",
         "a raid Action during a Raid", kind)
    if kind == S.K_ROLL:
        want = q if card == 1 else tp
        need(owner == want, "stack entry 0 owner", f"the side rolling, seat {want}", owner)
        need(in_round and r["fin"] == (1 if card == 1 else 2), "fin",
             "the stage of the fight whose roll waits", r["fin"])
        need(rec["dice_n"][card] == 0, "dice_n", "no dice of the rolling side on the table",
             int(rec["dice_n"][card]))
        return
    need(not in_round and not rec["f_fight"].any(), "stack entry 0",
         "a Trap, a Smite or an on-Smite trigger outside a fight", kind)
    if kind == S.K_TRAP:
        t = int(rec["grid"][q, c])
        need(owner == q and card == c and C.T_KIND[t] == 1 and rec["side"][q, c] == 1,
             "stack entry 0", "the sprung Trap under the Marker, owned by the Defender", card)
    else:
        need(owner == tp and target == q, "stack entry 0", "the Raider's Smite of the "
             "Defender", owner)
        need(rec["grid"][q, c] == C.HEART and rec["conquered"][c], "marker",
             "on the conquered Heart while the Smite waits", c)


def check_record(rec) -> None:
    """Raise ValueError naming the first thing wrong with a Foretold record.

    Checked in order so that no check reads an index an earlier one has not vetted: the
    declared ranges, the fields that are not one interval, the stack, seats, cards (every
    Faithful, Relic, Fate card and Tile in exactly one place, per type), Temples (R27) and
    the decision in progress.
    """
    r = dict(zip(rec.dtype.names, rec.item()))  # plain ints for the scalars: faster to compare
    n = int(r["num_players"])
    try:
        check_ranges(rec, RANGES)
        _check_values(r)
        _check_stack(rec, n)
        _check_seats(rec, r, n)
        _check_piles(rec, r)
        _check_cards(rec, r, n)
        _check_phase(rec, r, n)
    except RecordError as err:
        raise RecordError(f"foretold: {err}") from None
