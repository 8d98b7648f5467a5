"""Fatefell: tarot Golf for 2-4 players (rules: RULES.md; doc page: ``env.py``)."""

from __future__ import annotations

import numpy as np

from fatezoo.envs.core.spec import EvalSettings, GameSpec, Kernels
from fatezoo.envs.core.state import SPLIT_ALL, SPLIT_TEST, split_code

from . import rules
from .cards import FATE_MOON, FATE_SUN
from .checks import card_zones, check_record, setup_split
from .encode import OBS, STATE_SIZE, encode, encode_state
from .heuristic import act_one
from .presets import TRAIN_PRESET
from .render import HOW_TO_WIN, LEGEND, render_ansi, render_svg
from .state import ACTION_NAMES, NUM_ACTIONS, STATE_DTYPE


def _flag(name, value, default):
    if value is None:
        value = default
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"fatefell: {name} must be a bool, got {value!r}")
    return int(bool(value))


def configure(seasons=4, advanced=False, random_seasons=None, random_fates=None,
              seasonal_rules=None, split="all") -> dict:
    """Validate Fatefell's options; return the record fields they set.

    Args:
        seasons: how many seasons to play, 1-4 (4 is the full game).
        advanced: turn on random_seasons, random_fates and seasonal_rules together (each
            can still be set on its own).
        random_seasons: spin the Fate Coin for each season's kind.
        random_fates: spin for each season's number of Fate cards (6, 8, 10 or 12).
        seasonal_rules: Summer, Autumn and Winter special rules.
        split: held-out season setups: "all", "train" or "test" (RULES.md); "train" and
            "test" deal advanced seasons (the three options above default to on), each
            season's kind and Fate count drawn from that part only.
    """
    if isinstance(seasons, bool) or not isinstance(seasons, (int, np.integer)) \
            or not 1 <= seasons <= 4:
        raise ValueError(f"fatefell: seasons must be an int in [1, 4], got {seasons!r}")
    code = split_code("fatefell", split)
    adv = bool(_flag("advanced", advanced, False)) or code != SPLIT_ALL
    fields = {
        "seasons": int(seasons),
        "random_seasons": _flag("random_seasons", random_seasons, adv),
        "random_fates": _flag("random_fates", random_fates, adv),
        "seasonal_rules": _flag("seasonal_rules", seasonal_rules, adv),
        "split": code,
        "fate_sun": FATE_SUN,
        "fate_moon": FATE_MOON,
    }
    if code == SPLIT_TEST and not fields["random_fates"]:
        raise ValueError("fatefell: random_fates=False gives each season its basic Fate count "
                         "(a train setup), which split='test' holds out")
    return fields


def golden_summary(rec) -> str:
    """A golden transcript's closing summary: the total score per seat."""
    return f"totals {rec['total'][: int(rec['num_players'])].tolist()}"


SPEC = GameSpec(
    name="fatefell",
    gym_id="fatezoo/Fatefell-v0",
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
                    determinize=rules.determinize_record, policy=act_one,
                    evaluate=rules.evaluate),
    default_max_turns=1000,
    format_version=2,  # 2: the ``split`` field
    golden_summary=golden_summary,
    how_to_win=HOW_TO_WIN,
    legend=LEGEND,
    setup_split=setup_split,
    evaluation=EvalSettings(
        contract_options=({}, {"advanced": True, "reward": "score"}, {"split": "test"}),
        bench_floor=1_000_000.0,  # batched steps/s at 1,024 envs (README: the measured speeds)
        arena_targets=(("heuristic", "random", 0.9),),
        train_preset=TRAIN_PRESET,
        rollout_depth=40,
        # cold seconds per entry point on 2 shared cores (fatezoo bench fatefell --compile)
        compile_seconds={"aec": 8, "vector": 5, "heuristic": 2, "ismcts": 8},
    ),
)

determinize = SPEC.determinize  # the core's wrapper of rules.determinize_record

from .env import env, raw_env, vec  # noqa: E402  (env.py needs SPEC)

__all__ = ["SPEC", "env", "raw_env", "vec", "determinize", "check_record", "card_zones"]
