"""Kitgame: a small test game built only from the rule kit (not shipped; see RULES.md).

It lives under ``tests/`` and is named by ``registry.register_game_package("kitgame",
"kitgame", path="tests")`` (``tests/kit/conftest.py``), never in ``fatezoo.GAMES``.
"""

from __future__ import annotations

import numpy as np

from fatezoo.envs.core.decisions import DEC_CHOICE, DEC_KIND, DEC_STEP
from fatezoo.envs.core.knowledge import KNOWN, check_knowledge
from fatezoo.envs.core.spec import GameSpec, Kernels
from fatezoo.envs.core.stack import ASK, KIND, OWNER
from fatezoo.envs.core.zones import check_conservation

from . import rules
from .encode import OBS, STATE_SIZE, encode, encode_state
from .render import render_ansi, render_svg
from .state import (
    ACTION_NAMES,
    ATTACK,
    BLOCK,
    CARD_KIND,
    COL_CARD,
    COL_COUNTERED,
    COL_OPTION,
    COL_TARGET,
    DEC_ATTACK,
    DEC_SEARCH,
    DISCARD,
    HAND0,
    MAX_P,
    NUM_ACTIONS,
    NUM_CARDS,
    NUM_STEPS,
    RISK_DIE,
    SEARCH,
    STACK_CAP,
    STACK_Z,
    START_LIFE,
    STATE_DTYPE,
    STEP_CARD,
    STEP_OPTION,
    STEP_TARGET,
)

ZONE_NAMES = ["deck", "discard", "stack"] + [f"hand{p}" for p in range(MAX_P)]  # by zone id


def configure(rounds=5, ask_all=False) -> dict:
    """Validate kitgame's options; return the record fields they set.

    Args:
        rounds: turns per player before the end, 1-10.
        ask_all: a response window asks every other seat, whether it holds a Block or not.
    """
    if isinstance(rounds, bool) or not isinstance(rounds, (int, np.integer)) \
            or not 1 <= rounds <= 10:
        raise ValueError(f"kitgame: rounds must be an int in [1, 10], got {rounds!r}")
    if not isinstance(ask_all, (bool, np.bool_)):
        raise ValueError(f"kitgame: ask_all must be True or False, got {ask_all!r}")
    return {"rounds": int(rounds), "ask_all": int(ask_all)}


def _require(ok, name: str, want: str) -> None:
    if not ok:
        raise ValueError(f"{name} must be {want}")


def check_record(rec) -> None:
    """Raise ValueError naming the first thing wrong with a kitgame record.

    Checked in order, so that no check reads an index an earlier one has not vetted:
    every field a kernel indexes with is in range, and the decision in progress is one
    the rules can reach (who decides, what they were asked, the cards they must hold).
    """
    n = int(rec["num_players"])
    _require(2 <= n <= MAX_P, "num_players", f"in [2, {MAX_P}]")
    _require(1 <= rec["rounds"] <= 10, "rounds", "in [1, 10]")
    _require(rec["ask_all"] in (0, 1), "ask_all", "0 or 1")
    t, cur = int(rec["turn_player"]), int(rec["current_player"])
    _require(0 <= t < n, "turn_player", f"in [0, {n})")
    _require(0 <= cur < n, "current_player", f"in [0, {n})")
    life = rec["life"]
    _require(((life[:n] >= 0) & (life[:n] <= START_LIFE)).all() and not life[n:].any(),
             "life", f"in [0, {START_LIFE}] for each seat (0 for absent seats)")
    running = not (rec["terminated"] or rec["truncated"])
    over = not life[:n].all() or rec["turn"] >= rec["rounds"] * n  # the end of R-rules
    _require(not rec["terminated"] or over, "terminated",
             "1 only once a seat has 0 life or every round is played")
    _require(not running or life[:n].all(), "life", "above 0 in a running game")
    _require(not running or rec["turn"] < rec["rounds"] * n, "turn",
             "below rounds * num_players in a running game")
    _require(rec["last_roll"] == -1 or rec["last_roll"] in RISK_DIE, "last_roll",
             f"-1 or a face of the Risk die {sorted(set(RISK_DIE.tolist()))}")
    zone_n = rec["zone_n"]
    _require(((zone_n >= 0) & (zone_n <= NUM_CARDS)).all(), "zone_n", f"in [0, {NUM_CARDS}]")
    for p in range(n, MAX_P):
        _require(not zone_n[HAND0 + p], f"hand{p}", f"empty with {n} players")
    check_conservation([(rec["zone"], zone_n)], NUM_CARDS, ZONE_NAMES)
    check_knowledge(rec["known"], n, {HAND0 + p: p for p in range(n)}, rec["zone"], zone_n)
    discard = rec["zone"][DISCARD, : zone_n[DISCARD]].astype(np.int64)
    _require((rec["known"][:n][:, discard] == KNOWN).all(), "every discarded card",
             "known to every player")
    resolved_n = int(rec["resolved_n"][0])
    _require(0 <= resolved_n <= STACK_CAP, "resolved_n", f"in [0, {STACK_CAP}]")
    _require(((rec["resolved"][:resolved_n] >= 0)
              & (rec["resolved"][:resolved_n] < NUM_CARDS)).all(), "resolved", "card ids")
    _check_stack(rec, n, t, cur)
    _check_decision(rec, n, t)


def _holds(rec, p: int, kind: int) -> bool:
    hand = rec["zone"][HAND0 + p, : rec["zone_n"][HAND0 + p]].astype(np.int64)
    return bool((CARD_KIND[hand] == kind).any())


def _check_stack(rec, n: int, t: int, cur: int) -> None:
    """The stack: an Attack or Search of the turn player at the bottom, Blocks above it,
    each pushed by the seat its window asked, and the seat asked now is the one to act."""
    top = int(rec["stack_n"][0])
    _require(0 <= top <= STACK_CAP, "stack_n", f"in [0, {STACK_CAP}]")
    stack = rec["stack"]
    for i in range(top):
        kind, owner, ask = int(stack[i, KIND]), int(stack[i, OWNER]), int(stack[i, ASK])
        target, option = int(stack[i, COL_TARGET]), int(stack[i, COL_OPTION])
        where = f"stack entry {i}"
        _require(kind == BLOCK if i else kind in (ATTACK, SEARCH), f"{where} kind",
                 "a Block" if i else "an Attack or a Search")
        _require(owner == t if i == 0 else 0 <= owner < n, f"{where} owner",
                 "the turn player" if i == 0 else f"in [0, {n})")
        _require(1 <= ask < n, f"{where} ask", f"in [1, {n}) (a seat has been asked)")
        if i + 1 < top:
            _require(int(stack[i + 1, OWNER]) == (owner + ask) % n, f"stack entry {i + 1} owner",
                     "the seat the window below asked")
        card = int(stack[i, COL_CARD])
        _require(0 <= card < NUM_CARDS and CARD_KIND[card] == kind, f"{where} card",
                 "a card of the entry's kind")
        if kind == ATTACK:
            _require(0 <= target < n and target != owner, f"{where} target", "another seat")
            _require(option in (0, 1), f"{where} option", "0 or 1")
        else:
            _require(target == -1, f"{where} target", "-1")
            _require(option in ((0, 1, 2) if kind == SEARCH else (-1,)), f"{where} option",
                     "0-2 (Search) or -1 (Block)")
        _require(stack[i, COL_COUNTERED] in (0, 1), f"{where} countered", "0 or 1")
    on_stack = sorted(int(c) for c in stack[:top, COL_CARD])
    in_zone = sorted(int(c) for c in rec["zone"][STACK_Z, : rec["zone_n"][STACK_Z]])
    _require(on_stack == in_zone, "the stack zone's cards", f"the stack entries' cards {on_stack}")
    if top and not (rec["terminated"] or rec["truncated"]):
        asked = (int(stack[top - 1, OWNER]) + int(stack[top - 1, ASK])) % n
        _require(cur == asked, "current_player", f"{asked}, the seat the window asks")
        _require(rec["ask_all"] or _holds(rec, cur, BLOCK), "the asked seat",
                 "holding a Block (unless ask_all)")
    elif not (rec["terminated"] or rec["truncated"]):
        _require(cur == t, "current_player", f"the turn player {t} when the stack is empty")


def _check_decision(rec, n: int, t: int) -> None:
    """The turn decision: none, an Attack at its target or option step, or a Search at its
    option step, of a card kind the turn player holds; none while the stack is in use."""
    d = rec["dec"]
    kind, step = int(d[DEC_KIND]), int(d[DEC_STEP])
    choices = [int(c) for c in d[DEC_CHOICE:]]
    if kind == 0 or rec["stack_n"][0]:
        _require(kind == 0 and step == 0 and choices == [-1] * NUM_STEPS, "dec",
                 "cleared (no decision in progress)")
        return
    _require(kind in (DEC_ATTACK, DEC_SEARCH), "dec kind", "0 (none), attack or search")
    card_kind = ATTACK if kind == DEC_ATTACK else SEARCH
    if not (rec["terminated"] or rec["truncated"]):
        _require(_holds(rec, t, card_kind), "the turn player",
                 "holding the card being played")
    if kind == DEC_ATTACK:
        ok = step in (STEP_TARGET, STEP_OPTION) and choices[STEP_CARD] == ATTACK and (
            (step == STEP_TARGET and choices[STEP_TARGET:] == [-1, -1])
            or (step == STEP_OPTION and 0 <= choices[STEP_TARGET] < n - 1
                and choices[STEP_OPTION] == -1))
    else:
        ok = step == STEP_OPTION and choices == [SEARCH, -1, -1]
    _require(ok, "dec", "a reachable card -> target -> option step")


# ---- registration: the spec holds the kernels and registers them itself
SPEC = GameSpec(
    name="kitgame",
    gym_id="fatezoo/Kitgame-v0",
    min_players=2,
    max_players=4,
    num_actions=NUM_ACTIONS,
    state_size=STATE_SIZE,
    state_dtype=STATE_DTYPE,
    obs=OBS,
    action_names=ACTION_NAMES,
    configure=configure,
    check_record=check_record,
    render_ansi=render_ansi,
    render_svg=render_svg,
    kernels=Kernels(reset=rules.reset_game, apply=rules.apply_action, legal=rules.legal_mask,
                    encode=encode, encode_state=encode_state,
                    determinize=rules.determinize_record, asks=rules.asks),
    default_max_turns=1000,
)
# ---- end of registration

determinize = SPEC.determinize  # the core's wrapper of rules.determinize_record

from .env import env, raw_env, vec  # noqa: E402  (env.py needs SPEC)

__all__ = ["SPEC", "env", "raw_env", "vec", "determinize", "check_record"]
