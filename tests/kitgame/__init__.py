"""Kitgame: a small test game built only from the rule kit (not shipped; see RULES.md).

It lives under ``tests/`` and is named by ``registry.register_game_package("kitgame",
"kitgame", path="tests")`` (``tests/kit/conftest.py``), never in ``fatezoo.GAMES``.
"""

from __future__ import annotations

import numpy as np

from fatezoo.envs.core.spec import GameSpec, Kernels

from . import rules
from .checks import check_record
from .encode import OBS, STATE_SIZE, encode, encode_state
from .render import render_ansi, render_svg
from .state import ACTION_NAMES, NUM_ACTIONS, STATE_DTYPE


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
