"""Foretold's record checks: its ranges declared once, the relations by hand.

``RANGES`` says what each field may hold (``envs/core/checks.py`` checks them and names
the field): phases from the enum, seats from the player count, counts from the
capacities. The functions below check what ranges cannot say: the stack's entries
(R67-R69), seats and their holdings, every card in exactly one place (per type), the
Temples (R27), and the decision in progress, with one check per phase (``PHASE_CHECKS``).
Every refusal is a ValueError ``"foretold: <field> must be <what>, got <value>"``.
"""

from __future__ import annotations

import numpy as np

from fatezoo.envs.core.stack import ASK, KIND, OWNER, asked_seat

from . import rules
from .cards import (
    C_BASE,
    C_COPIES,
    C_FATE,
    DEVOTEE,
    ENTRANCE,
    F_BASE,
    F_COPIES,
    F_DICE,
    F_WHEN,
    HEART,
    NC,
    NF,
    NR,
    NT,
    R_BASE,
    R_COPIES,
    R_EFFECT,
    R_FATE,
    R_IS_FATE,
    R_SACRIFICE,
    R_USE_DEVOTEE,
    R_WHEN,
    T_ALTARS,
    T_COPIES,
    T_DOORS,
    T_FLIP,
    T_KIND,
    T_STATIONS,
)
from .state import (
    CELLS,
    DISCOUNT_CAP,
    F_COUNTERED,
    F_DECK_CAP,
    F_SACRIFICED,
    FATE_DECK_CAP,
    GOLD_CAP,
    K_ABILITY,
    K_FATE,
    K_FLIP,
    K_GOLD,
    K_ONSMITE,
    K_RELIC,
    K_ROLL,
    K_SMITE,
    K_TRAP,
    MAX_DICE,
    MAX_LIFE,
    MAX_MOVES,
    MAX_P,
    NUM_PHASES,
    PILE_CAP,
    R_DECK_CAP,
    R_FROM_DECK,
    RAID_KINDS,
    REARRANGE_CAP,
    S_CARD,
    S_FLAGS,
    S_TARGET,
    SHIELD_CAP,
    SPOTS,
    STACK_CAP,
    START_CELL,
    STATE_DTYPE,
    T_DECK_CAP,
    Phase,
)

ROUND_PHASES = (Phase.FINALIZE, Phase.RESPOND, Phase.FATE_TARGET, Phase.DRAW, Phase.CYCLE,
                Phase.PICK_DIE, Phase.CHOOSE, Phase.ASSIGN, Phase.SEARCH)
ACTOR_PHASES = (Phase.FATE_TARGET, Phase.DRAW, Phase.PICK_DIE, Phase.CHOOSE, Phase.ASSIGN,
                Phase.SEARCH)
# R20: the decisions whose acquisition of a Relic waits on the old Fate's returns
RETURN_THEN = (Phase.MARKET, Phase.CHOOSE, Phase.SEARCH)
RAID_PHASES = (Phase.DEFEND, Phase.DISPATCH, Phase.RECALL, Phase.ADVANCE, Phase.TRAP_DISCARD,
               Phase.VANDAL)


def _need(ok, name: str, want: str, got=None) -> None:
    if not ok:
        tail = "" if got is None else f", got {got!r}"
        raise ValueError(f"foretold: {name} must be {want}{tail}")


def temple_is_legal(grid, side, rot) -> bool:
    """R27 (the loader's check, vectorised; the kernels use rules.legal_doors).

    ``grid``, ``side`` and ``rot`` must already be in range (check_record checks them first).
    """
    grid = np.asarray(grid, np.int64)
    here = grid >= 0
    occ = np.where(grid == ENTRANCE, 2, here.astype(np.int64)).astype(np.int8)
    bits = np.where(here, T_DOORS[np.maximum(grid, 0), np.asarray(side, np.int64)], 0)
    r = np.asarray(rot, np.int64) % 4
    doors = ((bits << r) | (bits >> (4 - r))) & 15
    return bool(rules.legal_doors(occ, doors))


CHOICE_EFFECTS = (rules.E_SMASH, rules.E_FREE_BUY, rules.E_BUY_ANY, rules.E_REMOVE,
                  rules.E_SACRIFICE, rules.E_CONVERT, rules.E_PAY_REMOVE)


def _check_fields(r: dict, n: int) -> None:
    _need(2 <= n <= MAX_P, "num_players", f"in [2, {MAX_P}]", n)
    _need(r["two_player_variant"] in (0, 1), "two_player_variant", "0 or 1")
    _need(r["fatesworn"] in (0, 1), "fatesworn", "0 or 1")
    _need(0 <= r["phase"] < NUM_PHASES, "phase", f"in [0, {NUM_PHASES})", r["phase"])
    _need(0 <= r["turn_player"] < n, "turn_player", f"in [0, {n})", r["turn_player"])
    _need(0 <= r["devotees"] <= 60, "devotees", "in [0, 60]", r["devotees"])
    _need(0 <= r["draws"] <= 10, "draws", "in [0, 10]", r["draws"])
    _need(r["draw_in_raid"] in (0, 1), "draw_in_raid", "0 or 1")
    _need(-3 <= r["search"] < NR, "search", f"in [-3, {NR})", r["search"])
    _need(0 <= r["moves"] <= MAX_MOVES, "moves", f"in [0, {MAX_MOVES}]", r["moves"])
    _need(0 <= r["picked"] <= 40, "picked", "in [0, 40]", r["picked"])
    _need(0 <= r["trap_left"] <= 3, "trap_left", "in [0, 3]", r["trap_left"])
    _need(0 <= r["vandals"] <= 10, "vandals", "in [0, 10]", r["vandals"])
    _need(r["smite_roll"] in (0, 3, 4, 5, 6), "smite_roll", "0 or a Smiting Die face")
    _need(-1 <= r["sel_cell"] < CELLS, "sel_cell", f"in [-1, {CELLS})", r["sel_cell"])
    _need(-1 <= r["move_to"] < CELLS, "move_to", f"in [-1, {CELLS})", r["move_to"])
    _need(0 <= r["rearranged"] <= REARRANGE_CAP, "rearranged", f"in [0, {REARRANGE_CAP}]",
          r["rearranged"])
    _need(-1 <= r["f_held"] < NF, "f_held", f"in [-1, {NF})", r["f_held"])
    _need(-1 <= r["r_held"] < NR, "r_held", f"in [-1, {NR})", r["r_held"])
    _need(-1 <= r["r_take"] < NR, "r_take", f"in [-1, {NR})", r["r_take"])
    _need(-1 <= r["r_from"] <= R_FROM_DECK, "r_from", f"in [-1, {R_FROM_DECK}]", r["r_from"])
    _need(r["r_then"] in (-1, *RETURN_THEN), "r_then", "-1 or the decision acquiring a Relic "
          f"({', '.join(f'{int(x)} {x.name}' for x in RETURN_THEN)})", r["r_then"])
    _need(r["t_held"] == -1 or 5 <= r["t_held"] < NT, "t_held", f"-1 or a deck Tile in [5, {NT})",
          r["t_held"])
    _need(-1 <= r["defender"] < n, "defender", f"in [-1, {n})", r["defender"])
    _need(-1 <= r["marker"] < CELLS, "marker", f"in [-1, {CELLS})", r["marker"])
    _need(-1 <= r["winner"] < n, "winner", f"in [-1, {n})", r["winner"])
    _need(r["waive"] in (0, 1), "waive", "0 or 1")
    _need(0 <= r["discount"] <= DISCOUNT_CAP, "discount", f"in [0, {DISCOUNT_CAP}]",
          r["discount"])
    _need(-1 <= r["actor"] < n, "actor", f"in [-1, {n})", r["actor"])
    _need(-1 <= r["sel_play"] < NC + NR, "sel_play", f"in [-1, {NC + NR})", r["sel_play"])
    _need(0 <= r["fin"] <= 2, "fin", "0, 1 or 2", r["fin"])
    _need(-1 <= r["priority"] < n, "priority", f"in [-1, {n})", r["priority"])
    _need(0 <= r["passes"] < n, "passes", f"in [0, {n})", r["passes"])
    _need(0 <= r["recall_more"] <= rules.RECALL_CAP, "recall_more",
          f"in [0, {rules.RECALL_CAP}]", r["recall_more"])
    _need(0 <= r["die_left"] <= 2, "die_left", "in [0, 2]", r["die_left"])
    _need(0 <= r["die_set"] <= 6, "die_set", "in [0, 6]", r["die_set"])
    _need(-1 <= r["ch_card"] < NC + NR, "ch_card", f"in [-1, {NC + NR})", r["ch_card"])
    _need(-1 <= r["ch_seat"] < n, "ch_seat", f"in [-1, {n})", r["ch_seat"])
    _need(0 <= r["ch_left"] <= 3, "ch_left", "in [0, 3]", r["ch_left"])
    _need(0 <= r["assign_left"] <= MAX_DICE, "assign_left", f"in [0, {MAX_DICE}]",
          r["assign_left"])
    for name, hi in (("f_deck_n", F_DECK_CAP), ("r_deck_n", R_DECK_CAP), ("t_deck_n", T_DECK_CAP)):
        _need(0 <= r[name] <= hi, name, f"in [0, {hi}]", r[name])


def _check_stack(rec, n: int) -> None:
    """Every pending Action: kind, owner, window progress, card, target, flags (R67-R69)."""
    top = int(rec["stack_n"][0])
    _need(0 <= top <= STACK_CAP, "stack_n", f"in [0, {STACK_CAP}]", top)
    sh = rec["shield"]
    _need(((sh >= 0) & (sh <= SHIELD_CAP)).all(), "shield", f"in [0, {SHIELD_CAP}]")
    _need(not sh[n:].any(), "shield of absent seats", "0")
    _need(((rec["bonus"] >= -60) & (rec["bonus"] <= 60)).all(), "bonus", "in [-60, 60]")
    _need(((rec["win_ties"] == 0) | (rec["win_ties"] == 1)).all(), "win_ties", "0 or 1 per side")
    _need(((rec["extra"] >= 0) & (rec["extra"] <= MAX_DICE)).all(), "extra",
          f"in [0, {MAX_DICE}]")
    _need(((rec["protect"] == 0) | (rec["protect"] == 1)).all(), "protect", "0 or 1 per side")
    for i in range(top):
        kind, owner, ask, card, target, flags = (
            int(rec["stack"][i, j]) for j in (KIND, OWNER, ASK, S_CARD, S_TARGET, S_FLAGS))
        what = f"stack entry {i}"
        _need(kind in (K_FATE, K_RELIC, K_GOLD, K_FLIP, K_ROLL, K_TRAP, K_SMITE, K_ABILITY,
                       K_ONSMITE), what,
              "a Fate card (0), a Relic use (1), a Faithful played for gold (2), a flip (3), "
              "a roll (4), a Trap (5), a Smite (6), an ability discard (7) or an on-Smite "
              "trigger (8)", kind)
        _need(0 <= owner < n, f"{what} owner", f"in [0, {n})", owner)
        _need(0 <= ask <= n, f"{what} window", f"in [0, {n}]", ask)
        _need(-1 <= target < n, f"{what} target", f"in [-1, {n})", target)
        if kind in RAID_KINDS:  # owners, cells and the Raid are checked in _check_phase
            _need(i == 0 and flags == 0, what, "a raid Action only at the bottom, no flags",
                  kind)
            want = {K_ROLL: (0, 1), K_TRAP: tuple(range(CELLS)), K_SMITE: (0, 3, 4, 5, 6),
                    K_ONSMITE: tuple(range(NF + NR))}
            _need(card in want[kind], f"{what} card", "a side (roll), a cell (Trap), a "
                  "Smiting Die face or 0 (Smite) or a trigger (on Smite)", card)
            _need((target >= 0) == (kind in (K_SMITE, K_ONSMITE)), f"{what} target",
                  "the Defender for a Smite and its triggers, else -1", target)
            continue
        if kind == K_ABILITY:  # the fight is checked in _check_phase
            _need(0 <= card < NF and (rules.F_DISCARD_RAID[card] > 0
                                      or rules.F_DISCARD_DEFEND[card] > 0)
                  and flags == 0 and target == -1, f"{what} card",
                  "a Faithful type with a discard ability, no flags, no target", card)
            continue
        if kind == K_GOLD:
            _need(0 <= card < NF and flags == 0 and target == -1, f"{what} card",
                  "a Faithful type, no flags, no target", card)
            continue
        if kind == K_FLIP:  # the Tile itself is checked with the Temples (_check_phase)
            _need(0 <= card < 4 * CELLS and flags == 0 and target == -1, f"{what} card",
                  "4 * cell + rotation, no flags, no target", card)
            continue
        if kind == K_FATE:
            _need(0 <= card < NC and rules.C_PLAYABLE[card], f"{what} card",
                  "a playable Fate card type", card)
            _need(flags in (0, F_COUNTERED), f"{what} flags", "0 or countered", flags)
        else:
            _need(0 <= card < NR and rules.R_USABLE[card], f"{what} card",
                  "a usable Relic type", card)
            want = F_SACRIFICED if R_SACRIFICE[card] else 0
            _need(flags == want, f"{what} flags", f"{want} for this Relic", flags)
        _need((target >= 0) == bool(rules.needs_target(card if kind == K_FATE else NC + card)),
              f"{what} target", "set exactly for an effect with a target", target)


def _check_seats(rec, r: dict, n: int) -> None:
    life, alive, gold = rec["life"], rec["alive"], rec["gold"]
    _need(((life >= 0) & (life <= MAX_LIFE)).all(), "life", f"in [0, {MAX_LIFE}]")
    _need(((gold >= 0) & (gold <= GOLD_CAP)).all(), "gold", f"in [0, {GOLD_CAP}]")
    _need(((alive == 0) | (alive == 1)).all(), "alive", "0 or 1 per seat")
    _need((alive[:n] == (life[:n] > 0)).all(), "alive", "1 exactly for seats with Life")
    _need(not alive[n:].any() and not life[n:].any() and not gold[n:].any(), "absent seats",
          "without Life, gold or cards")
    for name in ("f_temple", "f_party", "f_discard", "f_pool", "r_owned", "c_hand"):
        arr = rec[name]
        _need((arr >= 0).all(), name, "counts >= 0")
        _need(not arr[n:].any(), f"{name} of absent seats", "empty")
        for p in range(n):
            _need(alive[p] or not arr[p].any(), f"{name} of eliminated seat {p}", "empty")
    for p in range(n):
        _need(alive[p] or not gold[p], f"gold of eliminated seat {p}", "0")
    over = bool(rec["terminated"])
    running = not (rec["terminated"] or rec["truncated"])
    _need(over == (r["phase"] == Phase.OVER), "phase", "over exactly when the game is terminated")
    _need(over == (r["winner"] >= 0), "winner", "set exactly when the game is terminated")
    if r["winner"] >= 0:
        _need(alive[r["winner"]], "winner", "a living seat")
    if running:
        _need(alive[r["turn_player"]], "turn_player", "a living seat")
        _need(alive[:n].sum() >= 2, "alive", "at least two living seats in a running game")
        want = r["defender"] if r["phase"] == Phase.DEFEND else r["turn_player"]
        if r["phase"] in ACTOR_PHASES or _returning(r):
            want = r["actor"]
        elif r["phase"] == Phase.FINALIZE:
            want = r["priority"]
        elif r["phase"] == Phase.RESPOND:
            want = int(asked_seat(rec["stack"], rec["stack_n"], n))
        _need(want >= 0 and alive[want], "the seat to decide", "a living seat", want)
        _need(rec["current_player"] == want, "current_player", f"{want} in this phase",
              int(rec["current_player"]))


def _check_piles(rec, r: dict) -> None:
    for prefix, ntypes in (("f", NF), ("r", NR)):
        rows, sizes = rec[f"{prefix}_row"], rec[f"{prefix}_row_n"]
        _need(((sizes >= 0) & (sizes <= PILE_CAP)).all(), f"{prefix}_row_n",
              f"in [0, {PILE_CAP}]")
        for k in range(SPOTS):
            pile = rows[k, : sizes[k]]
            _need(((pile >= 0) & (pile < ntypes)).all(), f"{prefix}_row pile {k}", "card types")
        deck = rec[f"{prefix}_deck"][: r[f"{prefix}_deck_n"]]
        _need(((deck >= 0) & (deck < ntypes)).all(), f"{prefix}_deck", "card types")
    _need(((rec["c_deck_n"] >= 0) & (rec["c_deck_n"] <= FATE_DECK_CAP)).all(), "c_deck_n",
          f"in [0, {FATE_DECK_CAP}]")
    for f in range(4):
        deck = rec["c_deck"][f, : rec["c_deck_n"][f]].astype(np.int64)
        _need(((deck >= 0) & (deck < NC)).all()
              and ((C_FATE[deck] == f) | (C_FATE[deck] == 4)).all(),
              f"Fate Deck {f}", "cards of its own Fate or with the Fatesworn symbol")
    tdeck = rec["t_deck"][: r["t_deck_n"]]
    _need(((tdeck >= 5) & (tdeck < NT)).all(), "t_deck", "deck Tile types")


def _conserve(name: str, found: np.ndarray, copies: np.ndarray, names=None) -> None:
    bad = np.flatnonzero(found != copies)
    if bad.size:
        t = int(bad[0])
        raise ValueError(f"foretold: {name} type {t} is counted {int(found[t])} times, "
                         f"expected {int(copies[t])} (every card in exactly one place)")


def _check_symbol_copies(rec, n: int) -> None:
    """R87: a Fatesworn-symbol card in a hand is one deck's copy (c_sym), one per deck."""
    sym = rec["c_sym"].astype(np.int64)
    _need(((sym >= 0) & (sym < 1 << len(SYM_TYPES))).all(), "c_sym",
          f"bit sets in [0, {1 << len(SYM_TYPES)})")
    _need(not sym[n:].any(), "c_sym of absent seats", "empty")
    for j, k in enumerate(SYM_TYPES):
        held = (sym >> j) & 1  # (seat, deck)
        _need((held.sum(1) == rec["c_hand"][:, k]).all(), "c_hand",
              f"symbol type {k} counted once per deck copy held (c_sym)")
        for f in range(4):
            deck = rec["c_deck"][f, : rec["c_deck_n"][f]]
            _need(int(held[:, f].sum()) + int((deck == k).sum()) <= 1, f"Fate Deck {f}",
                  f"its one copy of symbol type {k}, in the deck or in one hand")


def _check_cards(rec, r: dict, n: int) -> None:
    for name in ("f_fight", "f_defeated", "f_out", "r_out", "c_discard", "c_out", "t_out"):
        _need((rec[name] >= 0).all(), name, "counts >= 0")
    if not r["fatesworn"]:  # R6: without the option its cards are out of the game
        for name, base, copies in (("f_out", F_BASE, F_COPIES),
                                   ("r_out", R_BASE, R_COPIES),
                                   ("c_out", C_BASE, C_COPIES)):
            extra = ~np.asarray(base, bool)
            _need((rec[name][extra] == copies[extra]).all(), name,
                  "every Fatesworn card out of the game without the fatesworn option")
    f = (rec["f_temple"].sum(0) + rec["f_party"].sum(0) + rec["f_discard"].sum(0)
         + rec["f_pool"].sum(0) + rec["f_fight"].sum(0) + rec["f_defeated"] + rec["f_out"]
         ).astype(np.int64)
    f += np.bincount(rec["f_deck"][: r["f_deck_n"]].astype(np.int64), minlength=NF)
    for k in range(SPOTS):
        f += np.bincount(rec["f_row"][k, : rec["f_row_n"][k]].astype(np.int64), minlength=NF)
    if r["f_held"] >= 0:
        f[r["f_held"]] += 1
    _conserve("Faithful", f, F_COPIES)
    rl = (rec["r_owned"].sum(0) + rec["r_out"]).astype(np.int64)
    rl += np.bincount(rec["r_deck"][: r["r_deck_n"]].astype(np.int64), minlength=NR)
    for k in range(SPOTS):
        rl += np.bincount(rec["r_row"][k, : rec["r_row_n"][k]].astype(np.int64), minlength=NR)
    if r["r_held"] >= 0:
        rl[r["r_held"]] += 1
    c = (rec["c_hand"].sum(0) + rec["c_discard"] + rec["c_out"]).astype(np.int64)
    for i in range(int(rec["stack_n"][0])):
        e = rec["stack"][i]
        if e[KIND] == K_FATE:
            c[e[S_CARD]] += 1
        elif e[KIND] == K_RELIC and e[S_FLAGS] & F_SACRIFICED:
            rl[e[S_CARD]] += 1
    _conserve("Relic", rl, R_COPIES)
    for k in range(4):
        c += np.bincount(rec["c_deck"][k, : rec["c_deck_n"][k]].astype(np.int64), minlength=NC)
    _conserve("Fate card", c, C_COPIES)
    _check_symbol_copies(rec, n)
    grid, side, rot = rec["grid"], rec["side"], rec["rot"]
    _need(((grid >= -1) & (grid < NT)).all(), "grid", f"Tile types in [-1, {NT})")
    _need(((side == 0) | (side == 1)).all(), "side", "0 (A) or 1 (B)")
    _need(((rot >= 0) & (rot <= 3)).all(), "rot", "in [0, 3]")
    _need((grid[n:] == -1).all(), "grid of absent seats", "empty")
    t = rec["t_out"].astype(np.int64) + np.bincount(tdeck_types(rec, r), minlength=NT)
    t += np.bincount(grid[grid >= 0].astype(np.int64), minlength=NT)
    if r["t_held"] >= 0:
        t[r["t_held"]] += 1
    _conserve("Tile", t, T_COPIES)
    for p in range(n):
        starts = np.bincount(grid[p][grid[p] >= 0].astype(np.int64), minlength=NT)[:5]
        if (starts != 1).any():
            k = int(np.flatnonzero(starts != 1)[0])
            _need(False, f"seat {p}'s Temple", f"one Starting Tile of type {k}")
        _need(int(np.flatnonzero(grid[p] == ENTRANCE)[0]) == START_CELL[ENTRANCE],
              f"seat {p}'s Entrance", f"in cell {START_CELL[ENTRANCE]}")
        _need(temple_is_legal(grid[p], side[p], rot[p]), f"seat {p}'s Temple",
              "legal (R27: doorways lined up, all connected to the Entrance)")
        owned = rec["r_owned"][p].astype(np.int64) * R_IS_FATE
        _need(np.unique(R_FATE[owned > 0]).size <= 1, f"seat {p}'s Fate Relics", "of one Fate")
        g = grid[p].astype(np.int64)
        altars = int(np.where(g >= 0, T_ALTARS[np.maximum(g, 0), side[p]], 0).sum())
        held = int(owned.sum())
        _need(held <= altars, f"seat {p}'s Fate Relics", f"at most its {altars} Altars")


def tdeck_types(rec, r) -> np.ndarray:
    """The Tile Deck's types, bottom to top."""
    return rec["t_deck"][: r["t_deck_n"]].astype(np.int64)


def _stations(rec, p: int) -> int:
    g = rec["grid"][p].astype(np.int64)
    return int(np.where(g >= 0, T_STATIONS[np.maximum(g, 0), rec["side"][p]], 0).sum())


def _returning(r: dict) -> bool:
    """R20: a returned Fate Relic waits for the pile it covers (the acquirer decides)."""
    return r["phase"] == Phase.COVER_RELIC and r["r_then"] >= 0


def _check_return(rec, r: dict) -> None:
    """R20: a change of Fate waiting on its returns: what is acquired, from where, by whom."""
    take, src, then, a = r["r_take"], r["r_from"], r["r_then"], r["actor"]
    pending = then >= 0
    _need((take >= 0) == pending and (src >= 0) == pending, "r_take/r_from/r_then",
          "all set (a Relic acquired after the returns, R20) or all -1")
    _need(not pending or r["phase"] == Phase.COVER_RELIC, "r_then", "set only while a "
          "returned Relic waits for the pile it covers (R20)", then)
    if r["phase"] == Phase.COVER_RELIC:
        _need((rec["r_row_n"] > 0).all(), "r_row_n", "no empty Relic Row spot while a Relic "
              "waits to cover a pile (R12, R20)")
    if not pending:
        return
    held = r["r_held"]
    _need(held >= 0, "r_held", "a returned Fate Relic while an acquisition waits on the "
          "returns (R20)", held)
    _need(0 <= a < r["num_players"], "actor", "the seat returning its Relics (R20)", a)
    _need(R_IS_FATE[take], "r_take", "a Fate Relic while the old Fate's Relics go back", take)
    _need(R_IS_FATE[held] and R_FATE[held] != R_FATE[take], "r_held",
          "a Fate Relic of another Fate than the one acquired (r_take) while it goes back", held)
    owned = rec["r_owned"][a].astype(np.int64) * R_IS_FATE
    _need(not owned[R_FATE != R_FATE[held]].any(), "r_owned", "the returning seat's Fate "
          "Relics all of the returned Relic's Fate (the old Fate) until the new one is taken "
          "(R20)")
    _need(bool(rules.can_take_relic(rec, a, take)), "r_take",
          "a Relic the returning seat has an open Altar for (R19)", take)
    if src < R_FROM_DECK:
        m = int(rec["r_row_n"][src])
        _need(int(rec["r_row"][src, m - 1]) == take, "r_from", "the Relic Row spot topped by "
              "the Relic acquired (r_take)", src)
    else:
        _need(take in rec["r_deck"][: r["r_deck_n"]], "r_from", "the Relic Deck, holding the "
              "Relic acquired (r_take)", src)
    _need(then != Phase.SEARCH or src == R_FROM_DECK, "r_from", "the Relic Deck for a flip "
          "search", src)
    if then == Phase.MARKET:
        _need(src < R_FROM_DECK and a == r["turn_player"], "r_then", "a purchase (Marketplace) "
              "by the turn player from a Relic Row spot", then)
        _need(not rec["stack_n"][0] and not r["fin"] and r["defender"] < 0, "r_then",
              "a purchase only in the Marketplace Step (no stack, no Raid)", then)


def _check_phase(rec, r: dict, n: int) -> None:
    ph, tp, q = r["phase"], r["turn_player"], r["defender"]
    running = not (rec["terminated"] or rec["truncated"])
    returning = _returning(r)
    _check_return(rec, r)
    if ph == Phase.COVER_FAITHFUL:
        _need(bool(rules.any_coverable(rec)), "f_row", "a pile without a Decree on top to cover "
              "(R13)")
    _need((r["f_held"] >= 0) == (ph == Phase.COVER_FAITHFUL), "f_held",
          "set exactly while a revealed Faithful waits for its spot")
    _need((r["r_held"] >= 0) == (ph == Phase.COVER_RELIC), "r_held",
          "set exactly while a revealed (R12) or returned (R20) Relic waits for its spot")
    placing = ph in (Phase.PLACE_CELL, Phase.PLACE_ROT)
    _need((r["t_held"] >= 0) == placing, "t_held", "set exactly while a bought Tile is placed")
    _need((r["sel_cell"] >= 0) == (ph in (Phase.PLACE_ROT, Phase.FLIP_ROT, Phase.MOVE_CELL,
                                          Phase.MOVE_ROT)), "sel_cell",
          "set exactly while a rotation is chosen or a Tile is moved")
    _need((r["move_to"] >= 0) == (ph == Phase.MOVE_ROT), "move_to",
          "set exactly while a moved Tile's rotation is chosen")
    _need((r["draws"] > 0) == (ph == Phase.DRAW), "draws", "positive exactly while drawing")
    _need(not r["draw_in_raid"] or ph == Phase.DRAW, "draw_in_raid", "0 outside a draw")
    # a fight's round (R47, R51) and the Actions taken in it
    in_round = r["fin"] > 0
    _need(not in_round or ph in ROUND_PHASES or returning, "fin",
          "0 outside a fight's round and its Actions")
    _need(ph != Phase.FINALIZE or in_round, "fin", "set while a round asks a seat")
    _need((r["priority"] >= 0) == in_round, "priority", "set exactly during a fight's round")
    _need(in_round or not r["passes"], "passes", "0 outside a fight's round")
    _need((r["die_left"] > 0) == (ph == Phase.PICK_DIE), "die_left", "positive exactly while a "
          "die is picked")
    _need(r["die_set"] == 0 or ph == Phase.PICK_DIE, "die_set", "0 unless a die is picked")
    _need(ph != Phase.PICK_DIE or in_round, "fin", "a fight's round while a die is picked")
    top = int(rec["stack_n"][0])
    bottom = int(rec["stack"][0, KIND]) if top > 0 else -1
    raid_entry = bottom in RAID_KINDS  # a raid Action waits at the bottom of the stack
    rolling = int(rec["stack"][0, S_CARD]) if bottom == K_ROLL else -1  # the side about to roll
    in_raid = ph in RAID_PHASES or (ph == Phase.DRAW and r["draw_in_raid"]) or in_round \
        or raid_entry
    _need((q >= 0) == in_raid, "defender", "set exactly during a Raid")
    _need((r["marker"] >= 0) == in_raid, "marker", "set exactly during a Raid")
    _need(((rec["visited"] | rec["conquered"]) & ~1 == 0).all()
          and (rec["visited"] >= 0).all() and (rec["conquered"] >= 0).all(),
          "visited/conquered", "0 or 1 per cell")
    if not in_raid:
        _need(not rec["visited"].any() and not rec["conquered"].any() and not r["moves"]
              and not r["picked"] and not r["trap_left"] and not r["vandals"],
              "raid fields", "cleared outside a Raid")
    if not in_raid:
        _need(not rec["f_fight"].any() and not rec["f_defeated"].any(), "f_fight/f_defeated",
              "empty outside a Raid")
    for p in range(n):
        _need(not rec["f_pool"][p].any() or (p == tp and ph == Phase.REINFORCE), "f_pool",
              "empty except the turn player's at Reinforce")
    dn = rec["dice_n"]
    _need(((dn >= 0) & (dn <= MAX_DICE)).all(), "dice_n", f"in [0, {MAX_DICE}]")
    _need(((rec["dice"] >= 0) & (rec["dice"] <= 6)).all(), "dice", "faces in [0, 6]")
    fighting = ph in (Phase.DEFEND, Phase.DISPATCH) or in_round
    _need(not rec["bonus"].any() or fighting, "bonus",
          "0 outside the Defend and dispatch steps and the round of a fight")
    _need(not (rec["win_ties"].any() or rec["extra"].any() or rec["protect"].any()) or fighting,
          "win_ties/extra/protect", "0 outside a fight")
    _need(ph != Phase.DEFEND or not rec["protect"].any(), "protect", "0 while Defending")
    _need(not r["recall_more"] or fighting or ph == Phase.RECALL, "recall_more",
          "0 outside a fight and its recall")
    _need(ph != Phase.DEFEND or not (rec["win_ties"].any() or rec["extra"].any()
                                     or r["recall_more"]), "win_ties/extra",
          "0 while Defending (no round yet)")
    _need(ph != Phase.DEFEND or (rec["bonus"][0] == 0 and (r["picked"] or not rec["bonus"][1])),
          "bonus", "only the Defender's, after a Defender is chosen, while Defending")
    _need(top == 0 or returning or ph in (Phase.RESPOND, Phase.DRAW, Phase.CYCLE,
                                          Phase.FATE_TARGET, Phase.PICK_DIE, Phase.CHOOSE,
                                          Phase.SEARCH),
          "stack_n", "0 outside response windows and the decisions of a resolving Action")
    _need(top == 0 or not in_raid or in_round or raid_entry, "stack_n",
          "0 during a Raid outside a fight's round and the raid's Actions")
    _need(ph != Phase.FINALIZE or top == 0, "stack_n", "0 while a round asks a seat")
    if raid_entry:
        _check_raid_entry(rec, r, bottom, in_round, rolling)
    _need((r["sel_play"] >= 0) == (ph == Phase.FATE_TARGET), "sel_play",
          "set exactly while a target is chosen")
    _need((r["actor"] >= 0) == (ph in ACTOR_PHASES or returning), "actor",
          "set exactly while a target, a die or a resolving effect's pick is chosen, a Fate "
          "card drawn or a returned Relic's pile chosen (R20)")
    choosing = ph == Phase.CHOOSE
    _need((r["ch_card"] >= 0) == choosing, "ch_card", "set exactly while an effect's pick is "
          "chosen")
    _need(choosing or (r["ch_seat"] == -1 and r["ch_left"] == 0), "ch_seat/ch_left",
          "-1 and 0 outside a resolving effect's pick")
    if choosing and running:
        e, a = (int(x) for x in rules.play_effect(int(r["ch_card"])))
        _need(e in CHOICE_EFFECTS, "ch_card", "a card whose effect is chosen at resolution",
              r["ch_card"])
        _need((e == rules.E_SMASH) == (r["ch_seat"] >= 0), "ch_seat",
              "set exactly for a Relic smash")
        _need(1 <= r["ch_left"] <= max(1, a), "ch_left", f"in [1, {max(1, a)}]", r["ch_left"])
        if e in (rules.E_REMOVE, rules.E_SACRIFICE, rules.E_CONVERT, rules.E_PAY_REMOVE):
            _need(in_round and rules.fight_side(rec, r["actor"]) >= 0, "actor",
                  "a side of the fight while a Faithful is taken out of it")
    flips = set()
    for i in range(top):
        kind, owner, card = (int(x) for x in rec["stack"][i, [KIND, OWNER, S_CARD]])
        if kind == K_FLIP:
            c, t = card // 4, int(rec["grid"][owner, card // 4])
            # the turn player's (Marketplace) or the Defender's during a Raid (R34: the
            # rotation stays); one pending flip per Tile
            ok = owner == tp or (owner == q and q >= 0 and card % 4 == rec["rot"][owner, c])
            ok = ok and t >= 0 and rec["side"][owner, c] == 0 and T_FLIP[t] > 0
            _need(ok and bool(rules.flip_rotation_ok(rec, owner, c, card % 4))
                  and (owner, c) not in flips, f"stack entry {i} card", "an unflipped Tile of "
                  "the turn player (or, in a Raid, the Defender) that may turn that way, "
                  "flipped once", card)
            flips.add((owner, c))
        if kind == K_ABILITY:
            side = 0 if owner == tp else 1
            ok = in_round and owner in (tp, q) and (
                rules.F_DISCARD_RAID[card] if side == 0 else rules.F_DISCARD_DEFEND[card]) > 0
            _need(ok, f"stack entry {i}", "an ability discard of a side of the fight in its "
                  "rounds (R43)", card)
    _check_on_smite(rec, r, ph, bottom)
    if not running:
        return
    if ph == Phase.RESPOND:
        s = int(asked_seat(rec["stack"], rec["stack_n"], n))
        _need(top > 0 and s >= 0, "stack", "a seat asked about its top entry")
    if ph == Phase.FATE_TARGET:
        a, sp = int(r["actor"]), int(r["sel_play"])
        _need(top < STACK_CAP, "stack_n", f"below {STACK_CAP} while a target is chosen")
        _need(bool(rules.needs_target(sp)), "sel_play", "a card with a target", sp)
        if sp < NC:
            _need(rec["c_hand"][a, sp] > 0, "sel_play", "a Fate card in the actor's hand", sp)
        else:
            ok = rec["r_owned"][a, sp - NC] > 0 and (
                not R_USE_DEVOTEE[sp - NC] or rec["f_discard"][a, DEVOTEE] > 0)
            _need(ok, "sel_play", "a Relic the actor holds and can pay for", sp)
    if in_raid:
        _need(q != tp and 0 <= r["marker"], "defender", "another seat, with the Marker placed")
        _need(rec["grid"][q, r["marker"]] >= 0, "marker", "on a Tile of the Defender")
        _need(rec["alive"][q] or ph == Phase.DRAW or r["onsm"] >= 0, "defender",
              "alive during the Raid (but for its on-Smite triggers)")
    if in_round:
        _need(rec["f_fight"][1].any() and (rec["dice_n"][1] > 0 or rolling == 1), "f_fight",
              "Defenders and their dice in a fight's round")
        _need(r["fin"] == 1 or rec["f_fight"][0].any() and (rec["dice_n"][0] > 0
                                                              or rolling == 0), "f_fight",
              "the dispatched and their dice in the round after the Raid roll")
        _need(r["fin"] == 2 or not rec["f_fight"][0].any() and not rec["dice_n"][0], "f_fight",
              "nothing dispatched in the round after the Defense roll")
        _need(r["passes"] < int(rec["alive"][:n].sum()), "passes", "below the living seats")
    if ph == Phase.FINALIZE and running:
        _need(r["priority"] >= 0 and bool(rules.has_play(rec, r["priority"], False)), "priority",
              "a seat with an Action to take in the round")
    _check_assignment(rec, r, ph, in_round)
    if ph == Phase.PICK_DIE and running:
        _need(bool(rules.any_die_pickable(rec)), "dice", "a die to pick")
        _need(r["die_set"] > 0 or r["die_left"] <= 2, "die_left", "at most 2 rerolls")
    if ph == Phase.PLACE_ROT:
        c = r["sel_cell"]
        _need(rec["grid"][tp, c] < 0 and any(rules.legal_with(rec, tp, c, r["t_held"], 0, x)
                                             for x in range(4)),
              "sel_cell", "an empty cell where the bought Tile fits")
    if ph == Phase.PLACE_CELL:
        _need(rules.can_place_anywhere(rec, tp, r["t_held"], 0), "t_held",
              "a Tile with a legal place")
    if ph in (Phase.MOVE_CELL, Phase.MOVE_ROT):
        occ, doors = np.zeros(CELLS, np.int8), np.zeros(CELLS, np.int64)
        c = int(r["sel_cell"])
        to = range(CELLS) if ph == Phase.MOVE_CELL else (int(r["move_to"]),)
        _need(r["rearranged"] < REARRANGE_CAP, "rearranged", f"below the cap {REARRANGE_CAP} "
              "while a rearranging move is in progress (the move counts when it ends)",
              r["rearranged"])
        _need(any(rules.move_ok(rec, tp, c, d, x, occ, doors) for d in to for x in range(4)),
              "sel_cell/move_to", "a Tile with a legal rearranging move (R24)")
    if ph == Phase.FLIP_ROT:
        c = r["sel_cell"]
        t = int(rec["grid"][tp, c])
        _need(t >= 0 and rec["side"][tp, c] == 0 and T_FLIP[t] > 0
              and T_FLIP[t] <= rec["gold"][tp]
              and any(rules.flip_rotation_ok(rec, tp, c, x) for x in range(4)),
              "sel_cell", "an unflipped Tile the turn player can pay to flip")
    if ph == Phase.DRAW:
        _need(rec["c_deck_n"].any(), "c_deck_n", "a Fate Deck with cards while drawing")
    if ph == Phase.RAID_TARGET:
        _need(rec["f_party"][tp].any(), "f_party", "a Raiding Party to raid with")
    if ph == Phase.DEFEND:
        st = int(T_STATIONS[rec["grid"][q, r["marker"]], rec["side"][q, r["marker"]]])
        _need(r["picked"] == rec["f_fight"][1].sum() and r["picked"] <= st, "picked",
              "the Defenders chosen, at most one per Station")
        _need(not rec["f_fight"][0].any(), "f_fight",
              "no dispatched Faithful while the Defender chooses")
        _need(st > 0 and not rec["conquered"][r["marker"]], "marker", "on a Station Tile")
    if ph == Phase.DISPATCH:
        _need(rec["f_fight"][1].any() and r["picked"] == rec["f_fight"][0].sum(), "f_fight",
              "Defenders in the fight and the dispatched counted")
    if ph == Phase.RECALL:
        _need(rec["f_fight"][0].any() and not rec["f_fight"][1].any(), "f_fight",
              "dispatched Faithful to recall from")
    if ph in (Phase.ADVANCE, Phase.TRAP_DISCARD, Phase.VANDAL):
        _need(not rec["f_fight"].any(), "f_fight", "empty between fights")
    if ph == Phase.TRAP_DISCARD:
        _need(r["trap_left"] > 0 and rec["f_party"][tp].any(), "trap_left",
              "a discard still owed from a Party")
    if ph == Phase.VANDAL:
        _need(r["vandals"] > 0 and rec["r_owned"][q].any(), "vandals",
              "a Vandal smash owed against a Defender with Relics")
    if ph == Phase.REINFORCE:
        _need(rec["f_temple"][tp].sum() <= _stations(rec, tp), "f_temple",
              "at most one Faithful per Station at Reinforce")
        _need(not rec["f_party"][tp].any() and not rec["f_discard"][tp].any(), "f_party",
              "empty while the turn player splits their Faithful")


def _check_on_smite(rec, r: dict, ph: int, bottom: int) -> None:
    """R59: the on-Smite cursor: set exactly while a trigger waits or decides."""
    x, k = int(r["onsm"]), int(r["onsm_k"])
    _need(-1 <= x < NF + NR, "onsm", f"in [-1, {NF + NR})", x)
    _need(0 <= k <= 20 and (k == 0) == (x < 0), "onsm_k", "in [1, 20] with a trigger, else 0",
          k)
    drawing = ph == Phase.DRAW and r["draw_in_raid"]
    active = bottom == K_ONSMITE or ph == Phase.VANDAL or drawing
    if not (rec["terminated"] or rec["truncated"]):
        _need((x >= 0) == active, "onsm", "set exactly while an on-Smite trigger waits or "
              "decides", x)
        _need((r["vandals"] > 0) == (ph == Phase.VANDAL), "vandals", "1 exactly while a "
              "Vandal picks", r["vandals"])
    _need(r["vandals"] in (0, 1), "vandals", "0 or 1", r["vandals"])
    if x < 0 or rec["terminated"] or rec["truncated"]:
        return
    fires = F_WHEN[x] == rules.W_ON_SMITE if x < NF else \
        R_WHEN[x - NF] == rules.W_ON_SMITE
    _need(bool(fires), "onsm", "an on-Smite Faithful or Relic type", x)
    if bottom == K_ONSMITE:
        _need(int(rec["stack"][0, S_CARD]) == x, "stack entry 0 card",
              f"the trigger {x} (onsm)", int(rec["stack"][0, S_CARD]))
    if ph == Phase.VANDAL:
        _need(x < NF and rules.F_SMASH_ON_SMITE[x] > 0, "onsm", "a Vandal while one picks", x)
    if drawing:
        _need(x >= NF and R_EFFECT[x - NF] == rules.E_DRAW_FATE, "onsm",
              "a drawing Crown while its draws are made", x)


def _check_assignment(rec, r: dict, ph: int, in_round: bool) -> None:
    """R50: dice assigned only to die-dependent Faithful in the fight, one die per slot."""
    to = rec["die_to"].astype(np.int64)
    low = rules.F_LOW_DIE > 0
    _need(((to == -1) | ((to >= 0) & (to < NF))).all(), "die_to", f"-1 or a type in [0, {NF})")
    _need(low[np.maximum(to, 0)][to >= 0].all(), "die_to", "-1 or a die-dependent Faithful "
          "type")
    for s in range(2):
        _need((to[s, int(rec["dice_n"][s]):] == -1).all(), "die_to", "-1 past the dice rolled")
        if in_round:
            for t in np.flatnonzero(low):
                slots = int(rec["f_fight"][s, t]) * int(F_DICE[t])
                _need(int((to[s] == t).sum()) <= slots, "die_to",
                      f"at most {slots} dice for type {int(t)} on side {s}")
    assigning = ph == Phase.ASSIGN
    _need((r["assign_left"] > 0) == assigning, "assign_left",
          "positive exactly while dice are assigned")
    if not assigning or not (rec["terminated"] == 0 and rec["truncated"] == 0):
        return
    a, q, tp = r["actor"], r["defender"], r["turn_player"]
    _need(in_round and a in (q, tp), "actor", "a side of the fight while dice are assigned", a)
    s = 1 if a == q else 0
    free = int((to[s, : int(rec["dice_n"][s])] == -1).sum())
    used = int((to[s] >= 0).sum())
    _need(r["assign_left"] <= free and used + r["assign_left"] <= int(rules.low_slots(rec, s)),
          "assign_left", "at most the free dice and the die-dependent slots left",
          r["assign_left"])


def _check_raid_entry(rec, r: dict, kind: int, in_round: bool, rolling: int) -> None:
    """The raid Action at the bottom of the stack (R37, R47-R49, R58, R71)."""
    tp, q, c = r["turn_player"], r["defender"], r["marker"]
    owner, card, target = (int(x) for x in rec["stack"][0, [OWNER, S_CARD, S_TARGET]])
    _need(q >= 0 and c >= 0 and rec["grid"][q, c] >= 0, "stack entry 0",
          "a raid Action during a Raid", kind)
    if kind == K_ROLL:
        want = q if card == 1 else tp
        _need(owner == want, "stack entry 0 owner", f"the side rolling, seat {want}", owner)
        _need(in_round and r["fin"] == (1 if card == 1 else 2), "fin",
              "the stage of the fight whose roll waits", r["fin"])
        _need(rec["dice_n"][card] == 0, "dice_n", "no dice of the rolling side on the table",
              int(rec["dice_n"][card]))
        return
    _need(not in_round and not rec["f_fight"].any(), "stack entry 0",
          "a Trap, a Smite or an on-Smite trigger outside a fight", kind)
    if kind == K_TRAP:
        t = int(rec["grid"][q, c])
        _need(owner == q and card == c and T_KIND[t] == 1 and rec["side"][q, c] == 1,
              "stack entry 0", "the sprung Trap under the Marker, owned by the Defender", card)
    else:
        _need(owner == tp and target == q, "stack entry 0", "the Raider's Smite of the "
              "Defender", owner)
        _need(rec["grid"][q, c] == HEART and rec["conquered"][c], "marker",
              "on the conquered Heart while the Smite waits", c)


SYM_TYPES = tuple(int(k) for k in np.flatnonzero(np.asarray(rules.C_SYM) >= 0))
SCALAR_FIELDS = tuple(name for name in STATE_DTYPE.names if STATE_DTYPE[name].shape == ())


def check_record(rec) -> None:
    """Raise ValueError naming the first thing wrong with a Foretold record.

    Checked in order so that no check reads an index an earlier one has not vetted: every
    field a kernel indexes with is in range; seats, cards (every Faithful, Relic, Fate card
    and Tile in exactly one place, per type), Temples (R27) and the decision in progress.
    """
    r = {name: rec[name].item() for name in SCALAR_FIELDS}
    n = int(r["num_players"])
    _check_fields(r, n)
    _check_stack(rec, n)
    _check_seats(rec, r, n)
    _check_piles(rec, r)
    _check_cards(rec, r, n)
    _check_phase(rec, r, n)


