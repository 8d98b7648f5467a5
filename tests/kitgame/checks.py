"""Kitgame's record checks: its ranges declared once, the relations by hand.

``RANGES`` says what each field may hold (``envs/core/checks.py`` checks them and names the
field); the functions below check what ranges cannot say: the game's end, conservation
and knowledge, the stack's entries, and the turn's choice in progress.
"""

from __future__ import annotations

import numpy as np

from fatezoo.envs.core.checks import SEATS, Range, check_ranges, need
from fatezoo.envs.core.knowledge import KNOWN, check_knowledge
from fatezoo.envs.core.stack import ASK, KIND, OWNER
from fatezoo.envs.core.zones import check_conservation

from .state import (
    ATTACK,
    BLOCK,
    CARD_KIND,
    COL_CARD,
    COL_COUNTERED,
    COL_OPTION,
    COL_TARGET,
    DISCARD,
    HAND0,
    MAX_P,
    NUM_CARDS,
    RISK_DIE,
    SEARCH,
    STACK_CAP,
    STACK_Z,
    START_LIFE,
    Phase,
)

ZONE_NAMES = ["deck", "discard", "stack"] + [f"hand{p}" for p in range(MAX_P)]  # by zone id

RANGES = {
    "num_players": Range(2, MAX_P + 1),
    "rounds": Range(1, 11),
    "ask_all": Range(0, 2),
    "turn_player": Range(0, SEATS),
    "current_player": Range(0, SEATS),
    "life": Range(0, START_LIFE + 1, per_seat=True),
    "last_roll": Range(-1, int(RISK_DIE.max()) + 1),  # a face by hand below
    "zone_n": Range(0, NUM_CARDS + 1),
    "stack_n": Range(0, STACK_CAP + 1),
    "resolved_n": Range(0, STACK_CAP + 1),
    "phase": Range.of(Phase),
    "chosen_kind": Range(-1, SEARCH + 1),
    "chosen_target": Range(-1, MAX_P - 1),
}


def check_record(rec) -> None:
    """Raise ValueError naming the first thing wrong with a kitgame record.

    Checked in order, so that no check reads an index an earlier one has not vetted:
    the declared ranges, then the game's end, every card in one zone and what each seat
    knows, then the stack and the turn's choice (who decides, what they were asked, the
    cards they must hold).
    """
    check_ranges(rec, RANGES)
    n, t, cur = int(rec["num_players"]), int(rec["turn_player"]), int(rec["current_player"])
    life = rec["life"]
    running = not (rec["terminated"] or rec["truncated"])
    over = not life[:n].all() or rec["turn"] >= rec["rounds"] * n  # the end of R-rules
    need(not rec["terminated"] or over, "terminated",
         "1 only once a seat has 0 life or every round is played")
    need(not running or life[:n].all(), "life", "above 0 in a running game", life)
    need(not running or rec["turn"] < rec["rounds"] * n, "turn",
         "below rounds * num_players in a running game", rec["turn"])
    need(rec["last_roll"] == -1 or rec["last_roll"] in RISK_DIE, "last_roll",
         f"-1 or a face of the Risk die {sorted(set(RISK_DIE.tolist()))}", rec["last_roll"])
    zone_n = rec["zone_n"]
    for p in range(n, MAX_P):
        need(not zone_n[HAND0 + p], f"hand{p}", f"empty with {n} players")
    check_conservation([(rec["zone"], zone_n)], NUM_CARDS, ZONE_NAMES)
    check_knowledge(rec["known"], n, {HAND0 + p: p for p in range(n)}, rec["zone"], zone_n)
    discard = rec["zone"][DISCARD, : zone_n[DISCARD]].astype(np.int64)
    need((rec["known"][:n][:, discard] == KNOWN).all(), "every discarded card",
         "known to every player")
    resolved = rec["resolved"][: int(rec["resolved_n"][0])]
    need(((resolved >= 0) & (resolved < NUM_CARDS)).all(), "resolved", "card ids", resolved)
    if rec["stack_n"][0]:  # mid-chain: what resolved so far are Blocks (the bottom waits)
        ids = resolved.astype(np.int64)
        need((CARD_KIND[ids] == BLOCK).all() and len(set(ids.tolist())) == len(ids)
             and np.isin(ids, discard).all(), "resolved",
             "this chain's Blocks resolved so far (distinct, in the discard pile)", resolved)
    _check_stack(rec, n, t, cur)
    _check_choice(rec, n, t)


def _holds(rec, p: int, kind: int) -> bool:
    hand = rec["zone"][HAND0 + p, : rec["zone_n"][HAND0 + p]].astype(np.int64)
    return bool((CARD_KIND[hand] == kind).any())


def _check_stack(rec, n: int, t: int, cur: int) -> None:
    """The stack: an Attack or Search of the turn player at the bottom, Blocks above it,
    each pushed by the seat its window asked, and the seat asked now is the one to act."""
    top = int(rec["stack_n"][0])
    stack = rec["stack"]
    for i in range(top):
        kind, owner, ask = int(stack[i, KIND]), int(stack[i, OWNER]), int(stack[i, ASK])
        target, option = int(stack[i, COL_TARGET]), int(stack[i, COL_OPTION])
        where = f"stack entry {i}"
        need(kind == BLOCK if i else kind in (ATTACK, SEARCH), f"{where} kind",
             "a Block" if i else "an Attack or a Search")
        need(owner == t if i == 0 else 0 <= owner < n, f"{where} owner",
             "the turn player" if i == 0 else f"in [0, {n})")
        need(1 <= ask < n, f"{where} ask", f"in [1, {n}) (a seat has been asked)")
        if i + 1 < top:
            need(int(stack[i + 1, OWNER]) == (owner + ask) % n, f"stack entry {i + 1} owner",
                 "the seat the window below asked")
        card = int(stack[i, COL_CARD])
        need(0 <= card < NUM_CARDS and CARD_KIND[card] == kind, f"{where} card",
             "a card of the entry's kind")
        if kind == ATTACK:
            need(0 <= target < n and target != owner, f"{where} target", "another seat")
            need(option in (0, 1), f"{where} option", "0 or 1")
        else:
            need(target == -1, f"{where} target", "-1")
            need(option in ((0, 1, 2) if kind == SEARCH else (-1,)), f"{where} option",
                 "0-2 (Search) or -1 (Block)")
        need(stack[i, COL_COUNTERED] in (0, 1), f"{where} countered", "0 or 1")
    on_stack = sorted(int(c) for c in stack[:top, COL_CARD])
    in_zone = sorted(int(c) for c in rec["zone"][STACK_Z, : rec["zone_n"][STACK_Z]])
    need(on_stack == in_zone, "the stack zone's cards", f"the stack entries' cards {on_stack}")
    if top and not (rec["terminated"] or rec["truncated"]):
        asked = (int(stack[top - 1, OWNER]) + int(stack[top - 1, ASK])) % n
        need(cur == asked, "current_player", f"{asked}, the seat the window asks")
        need(rec["ask_all"] or _holds(rec, cur, BLOCK), "the asked seat",
             "holding a Block (unless ask_all)")
    elif not (rec["terminated"] or rec["truncated"]):
        need(cur == t, "current_player", f"the turn player {t} when the stack is empty")


def _check_choice(rec, n: int, t: int) -> None:
    """The turn's choice: none while the stack is in use; else the phase and the choices
    made so far agree (an Attack at its target or option step, a Search at its option
    step), and the turn player holds the card being played."""
    phase, kind, target = int(rec["phase"]), int(rec["chosen_kind"]), int(rec["chosen_target"])
    got = f"phase {phase}, chosen_kind {kind}, chosen_target {target}"
    if phase == Phase.CARD or rec["stack_n"][0]:
        need((phase, kind, target) == (Phase.CARD, -1, -1), "the turn's choice",
             "cleared (phase CARD, nothing chosen) while no card is being played", got)
        return
    need(kind >= 0, "chosen_kind", f"a card kind in phase {Phase(phase).name}", kind)
    if not (rec["terminated"] or rec["truncated"]):
        need(_holds(rec, t, kind), "the turn player", "holding the card being played")
    if kind == ATTACK:
        ok = target == -1 if phase == Phase.TARGET else 0 <= target < n - 1
    else:
        ok = phase == Phase.OPTION and target == -1
    need(ok, "the turn's choice", "a reachable card -> target -> option step", got)
