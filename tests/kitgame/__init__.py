"""Kitgame: a small test game built only from the rule kit (not shipped; see RULES.md).

It lives under ``tests/`` and is named by ``registry.register_game_package("kitgame",
"kitgame", path="tests")`` (``tests/kit/conftest.py``), never in ``fatezoo.GAMES``.
"""

from __future__ import annotations

import numpy as np

from fatezoo.envs.core.knowledge import KNOWN, check_knowledge
from fatezoo.envs.core.spec import GameSpec, Kernels
from fatezoo.envs.core.stack import KIND, OWNER
from fatezoo.envs.core.zones import check_conservation

from . import rules
from .encode import OBS, STATE_SIZE, encode, encode_state
from .render import render_ansi, render_svg
from .state import (
    ACTION_NAMES,
    COL_CARD,
    DISCARD,
    HAND0,
    MAX_P,
    NUM_ACTIONS,
    NUM_CARDS,
    NUM_KINDS,
    STACK_CAP,
    STACK_Z,
    START_LIFE,
    STATE_DTYPE,
)

ZONE_NAMES = ["deck", "discard", "stack"] + [f"hand{p}" for p in range(MAX_P)]  # by zone id


def configure(rounds=5) -> dict:
    """Validate kitgame's options: ``rounds`` (1-10), turns per player before the end."""
    if isinstance(rounds, bool) or not isinstance(rounds, (int, np.integer)) \
            or not 1 <= rounds <= 10:
        raise ValueError(f"kitgame: rounds must be an int in [1, 10], got {rounds!r}")
    return {"rounds": int(rounds)}


def check_record(rec) -> None:
    """Raise ValueError naming the first thing wrong with a kitgame record."""
    n = int(rec["num_players"])
    top = int(rec["stack_n"][0])
    checks = [
        ("num_players", 2 <= n <= MAX_P, f"in [2, {MAX_P}]"),
        ("current_player", 0 <= rec["current_player"] < n, f"in [0, {n})"),
        ("turn_player", 0 <= rec["turn_player"] < n, f"in [0, {n})"),
        ("rounds", 1 <= rec["rounds"] <= 10, "in [1, 10]"),
        ("life", ((rec["life"][:n] >= 0) & (rec["life"][:n] <= START_LIFE)).all(),
         f"in [0, {START_LIFE}]"),
        ("last_roll", -1 <= rec["last_roll"] <= 5, "in [-1, 5]"),
        ("stack_n", 0 <= top <= STACK_CAP, f"in [0, {STACK_CAP}]"),
        ("stack kinds", all(0 <= rec["stack"][i, KIND] < NUM_KINDS
                            and 0 <= rec["stack"][i, OWNER] < n for i in range(max(top, 0))),
         "a card kind and a seat per entry"),
        ("resolved_n", 0 <= rec["resolved_n"][0] <= STACK_CAP, f"in [0, {STACK_CAP}]"),
    ]
    for name, ok, want in checks:
        if not ok:
            raise ValueError(f"{name} must be {want}")
    for p in range(n, MAX_P):
        if rec["zone_n"][HAND0 + p]:
            raise ValueError(f"hand{p} must be empty with {n} players")
    check_conservation([(rec["zone"], rec["zone_n"])], NUM_CARDS, ZONE_NAMES)
    on_stack = sorted(int(rec["stack"][i, COL_CARD]) for i in range(top))
    in_zone = sorted(int(c) for c in rec["zone"][STACK_Z, : rec["zone_n"][STACK_Z]])
    if on_stack != in_zone:
        raise ValueError(f"stack zone cards {in_zone} must be the stack entries' cards "
                         f"{on_stack}")
    check_knowledge(rec["known"], n, {HAND0 + p: p for p in range(n)}, rec["zone"],
                    rec["zone_n"])
    discard = rec["zone"][DISCARD, : rec["zone_n"][DISCARD]].astype(np.int64)
    if (rec["known"][:n][:, discard] != KNOWN).any():
        raise ValueError("every discarded card must be known to every player")


def determinize(rec, player: int, rng: np.random.Generator) -> None:
    """Resample in place every card ``player`` does not know (see rules.determinize_record)."""
    n = int(rec["num_players"])
    if not 0 <= player < n:
        raise ValueError(f"kitgame: player must be in [0, {n}), got {player!r}")
    words = rng.integers(1, 2**32, size=4).astype(np.int64)
    rules.determinize_record(rec, int(player), words)


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
                    determinize=rules.determinize_record),
    determinize=determinize,
    default_max_turns=1000,
)
# ---- end of registration

from .env import env, raw_env, vec  # noqa: E402  (env.py needs SPEC)

__all__ = ["SPEC", "env", "raw_env", "vec", "determinize", "check_record"]
