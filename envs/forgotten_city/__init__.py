"""Forgotten City: hex map, monuments, helpers, miracles, nightmares (2-4 players).

Rules: RULES.md; doc page: ``env.py``.
"""

from __future__ import annotations

from fatezoo.envs.core.spec import EvalSettings, GameSpec, Kernels
from fatezoo.envs.core.state import split_code

from . import rules
from .checks import check_record
from .encode import OBS, STATE_SIZE, encode, encode_state
from .heuristic import act_one
from .presets import TRAIN_PRESET
from .render import HOW_TO_WIN, LEGEND, render_ansi, render_svg
from .state import ACTION_NAMES, MIR_TYPE, NUM_ACTIONS, STATE_DTYPE


def configure(split="all") -> dict:
    """Validate Forgotten City's option; return the record field it sets.

    ``num_players`` (2-4) and ``reward`` (``"win"``, or ``"score"`` for the
    VP-difference shaping of R58) are the common options.

    Args:
        split: ``"all"`` (every setup), ``"train"`` or ``"test"``: deal only setups of that
            held-out part (RULES.md, "Held-out setups"): a setup is the nightmare and the 3
            grey miracles put back in the box, and 98 of the 392 are test setups.
    """
    return {"split": split_code("forgotten_city", split)}


def setup_split(rec) -> str:
    """``"train"`` or ``"test"``: the held-out part of a dealt game (RULES.md section 20).

    Read from the content out of the game: ``"test"`` when the nightmare type out plus the
    3 grey miracle types out is a multiple of 4.
    """
    total = int(rec["nm_out"]) + sum(int(MIR_TYPE[g]) for g in rec["gout"].tolist())
    return "test" if total % 4 == 0 else "train"


def golden_summary(rec) -> str:
    """A golden transcript's closing line: VP per seat."""
    return f"vp {rec['vp'][: int(rec['num_players'])].tolist()}"


SPEC = GameSpec(
    name="forgotten_city",
    gym_id="fatezoo/ForgottenCity-v0",
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
    default_max_turns=3000,
    format_version=2,  # 2: the split field
    golden_summary=golden_summary,
    how_to_win=HOW_TO_WIN,
    legend=LEGEND,
    # every seat sees the same table; only the face-down stacks are hidden, from all alike
    # (the contract's hidden-information check then asks determinize to move the full state)
    symmetric_information=True,
    setup_split=setup_split,
    evaluation=EvalSettings(
        contract_options=({"reward": "score"}, {"split": "test"}),
        # batched steps/s that `fatezoo bench` requires, about half of what the core measures on
        # an idle 2-core machine: 452,886 at 1,024 envs (0.38x the memory floor of copying the
        # 2,729-entry observation and the 345-entry mask); a loaded machine (load 6-8) gives
        # 180,000-230,000 (RULES.md section 19, Speed)
        bench_floor=225_000.0,
        arena_targets=(("heuristic", "random", 0.8),),
        train_preset=TRAIN_PRESET,
        rollout_depth=60,
        # cold seconds per entry point on 2 shared cores (fatezoo bench forgotten_city --compile)
        compile_seconds={"aec": 12, "vector": 5, "heuristic": 3, "ismcts": 7},
    ),
)

determinize = SPEC.determinize  # the core's wrapper of rules.determinize_record

from .env import env, raw_env, vec  # noqa: E402  (env.py needs SPEC)

__all__ = ["SPEC", "env", "raw_env", "vec", "determinize", "check_record"]
