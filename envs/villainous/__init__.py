"""Villainous (Evil Comes Prepared) built around the Fate action: 2-6 villains (RULES.md)."""

from __future__ import annotations

import numpy as np

from fatezoo.envs.core.spec import EvalSettings, GameSpec, Kernels
from fatezoo.envs.core.state import split_code

from . import rules, shaping
from .checks import check_record, pair_split, setup_split
from .encode import OBS, STATE_SIZE, encode, encode_state
from .heuristic import act_one
from .presets import TRAIN_PRESET
from .render import LEGEND, golden_summary, render_ansi, render_svg
from .state import (
    ACTION_NAMES,
    MAX_P,
    NUM_ACTIONS,
    NUM_VILLAINS,
    STATE_DTYPE,
    VILLAINS,
)

NAMES = ("random",) + VILLAINS


def configure(villains="random", fate_token=None, split="all", num_players=2) -> dict:
    """Validate villainous' options (R2, R56, held-out setups); the core passes num_players.

    Args:
        villains: "random" (each seat draws one from the record RNG), one of "scar",
            "yzma", "ratigan" for every seat, or a list of one name per seat ("random"
            allowed per seat), seat 0 first; villains may repeat (each player has their
            own copies).
        fate_token: the Fate token (R55): None uses it with 5-6 players, True at every
            player count, False never.
        split: held-out setups: "all" (every seating), "train" (never Yzma and Ratigan at
            seats 0 and 1), "test" (only those); villains named for seats 0 and 1 must
            allow a seating of the split (RULES.md "Held-out setups").
        num_players: the seats (a common option, passed by the core).
    """
    if isinstance(villains, str):
        if villains not in NAMES:
            raise ValueError(f"villainous: villains must be 'random', 'scar', 'yzma' or "
                             f"'ratigan' (or a list of one per seat), got {villains!r}")
        seats = [villains] * num_players
    elif isinstance(villains, (list, tuple)):
        if len(villains) != num_players:
            raise ValueError(f"villainous: villains must be one name or a list of "
                             f"{num_players} names (one per seat), got {len(villains)}: "
                             f"{villains!r}")
        for v in villains:
            if not isinstance(v, str) or v not in NAMES:
                raise ValueError(f"villainous: villains must name 'random', 'scar', 'yzma' "
                                 f"or 'ratigan' for each seat, got {v!r} in {villains!r}")
        seats = list(villains)
    else:
        raise ValueError(f"villainous: villains must be a name or a list of {num_players} "
                         f"names, got {villains!r}")
    if fate_token is not None and not isinstance(fate_token, (bool, np.bool_)):
        raise ValueError(f"villainous: fate_token must be None, True or False, got "
                         f"{fate_token!r}")
    code = split_code("villainous", split)
    opt = [NAMES.index(v) - 1 for v in seats] + [-1] * (MAX_P - num_players)
    if split != "all" and not any(
            pair_split(a, b) == split for a in range(NUM_VILLAINS) for b in range(NUM_VILLAINS)
            if opt[0] in (-1, a) and opt[1] in (-1, b)):
        raise ValueError(f"villainous: villains={villains!r} puts {seats[0]!r} and "
                         f"{seats[1]!r} at seats 0 and 1, never a split={split!r} setup "
                         f"(test: Yzma and Ratigan there, in either order)")
    return {"villains_opt": np.array(opt, np.int8),
            "fate_token_opt": -1 if fate_token is None else int(bool(fate_token)),
            "split": code}


SPEC = GameSpec(
    name="villainous",
    gym_id="fatezoo/Villainous-v0",
    min_players=2,
    max_players=6,
    num_actions=NUM_ACTIONS,
    state_size=STATE_SIZE,
    state_dtype=STATE_DTYPE,
    obs=OBS,
    action_names=ACTION_NAMES,
    configure=configure,
    check_record=check_record,
    render_ansi=render_ansi,
    render_svg=render_svg,
    kernels=Kernels(reset=rules.reset_game, apply=shaping.apply_shaped,
                    legal=rules.legal_mask,
                    encode=encode, encode_state=encode_state,
                    determinize=rules.determinize_record, policy=act_one,
                    evaluate=shaping.evaluate),
    default_max_turns=200,
    format_version=2,  # 2: the split field (held-out setups)
    golden_summary=golden_summary,
    how_to_win="Be the first villain to start a turn with your objective met: Scar 15 "
               "Strength of defeated Heroes in his Succession pile (Mufasa first), Yzma "
               "Kuzco defeated by a Vanquish with Kronk, Ratigan The Robot Queen at "
               "Buckingham Palace (or, once it is discarded, Basil defeated).",
    legend=LEGEND,
    setup_split=setup_split,
    evaluation=EvalSettings(
        contract_options=({"split": "test"},),
        fuzz_games=1000,  # random games per player count in CI (its games are long)
        # half of the 158,190 steps/s measured with 1,024 envs on a loaded 2-core machine, so
        # that load does not fail it (RULES.md: 742,331 on the idle machine)
        bench_floor=80_000.0,
        # measured 85.2% on 200 games (149 won, 8 lost, 43 truncated ties; RULES.md section 17)
        arena_targets=(("heuristic", "random", 0.8),),
        train_preset=TRAIN_PRESET,
        # 10 decisions, then `shaping.evaluate`; the heuristic's action leads the search
        # (RULES.md section 17: ISMCTS-200 in the Ratigan mirror 66.9% with it, 35.5% without)
        rollout_depth=10,
        ismcts_prior=10.0,
        # cold seconds per entry point on 2 shared cores (fatezoo bench villainous --compile)
        compile_seconds={"aec": 25, "vector": 9, "heuristic": 11, "ismcts": 14},
    ),
)

determinize = SPEC.determinize  # the core's wrapper of rules.determinize_record

from .env import env, raw_env, vec  # noqa: E402  (env.py needs SPEC)

__all__ = ["SPEC", "env", "raw_env", "vec", "determinize", "check_record", "configure"]
