"""Foretold: temples, Faithful, Relics and raids for 2-4 players.

Rules: RULES.md; doc page: ``env.py``.
"""

from __future__ import annotations

import numpy as np

from fatezoo.envs.core.spec import EvalSettings, GameSpec, Kernels
from fatezoo.envs.core.state import split_code

from . import rules
from .cards import C_COST, C_FATE, NC, T_NAMES
from .checks import check_record, temple_is_legal
from .encode import OBS, STATE_SIZE, encode, encode_state
from .heuristic import act_one
from .presets import TRAIN_PRESET
from .render import HOW_TO_WIN, LEGEND, render_ansi, render_svg
from .state import ACTION_NAMES, MAX_LIFE, NUM_ACTIONS, STATE_DTYPE


def configure(two_player_variant=False, fatesworn=False, split="all") -> dict:
    """Validate Foretold's options; return the record fields they set.

    Args:
        two_player_variant: each Treasury starts on its B-side (an Altar). Meant for 2
            players (FACTS); allowed with any count (RULES.md R8).
        fatesworn: play with the Fatesworn expansion (RULES.md R86-R89): its 13 Faithful
            (Decrees), Arrows and the four Relics of the Fates, 10 more cards per Fate Deck.
        split: the held-out setups dealt (RULES.md "Held-out setups"): ``"all"``, or only
            the ``"train"`` or the ``"test"`` openings of the Tile and Fate Decks. It
            restricts only what is shuffled, so it goes with every value of the options above.
    """
    for name, value in (("two_player_variant", two_player_variant), ("fatesworn", fatesworn)):
        if not isinstance(value, (bool, np.bool_)):
            raise TypeError(f"foretold: {name} must be a bool, got {value!r}")
    return {"two_player_variant": int(bool(two_player_variant)),
            "fatesworn": int(bool(fatesworn)),
            "split": split_code("foretold", split)}


# the held-out opening cards (RULES.md "Held-out setups"), read here apart from the kernel
# that deals them (rules.deal_split): the Rooms whose B-side works every turn, and each
# Fate's own Relic Cost 3 cards
TEST_TILES = ("Armory", "Vault", "Healing Spring")
TEST_FATE_COST = 3


def setup_split(rec) -> str:
    """``"test"`` if a dealt game opens with a held-out card on top of a deck, else ``"train"``.

    The opening is the Tile Deck's top Tile and each Fate Deck's top card (RULES.md
    "Held-out setups"): a test setup has one of ``TEST_TILES`` on top of the Tile Deck or
    a card of the deck's own Fate with Relic Cost ``TEST_FATE_COST`` on top of a Fate Deck.
    """
    n = int(rec["t_deck_n"][0])
    if n and T_NAMES[int(rec["t_deck"][0, n - 1])] in TEST_TILES:
        return "test"
    for fate in range(4):
        n = int(rec["c_deck_n"][fate])
        top = int(rec["c_deck"][fate, n - 1]) if n else -1
        if top >= 0 and C_FATE[top] == fate and C_COST[top] == TEST_FATE_COST:
            return "test"
    return "train"


def golden_summary(rec) -> str:
    """A golden transcript's closing summary: Life per seat and the winner."""
    n = int(rec["num_players"])
    return f"life {rec['life'][:n].tolist()} winner {int(rec['winner'])}"


SPEC = GameSpec(
    name="foretold",
    gym_id="fatezoo/Foretold-v0",
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
                    evaluate=rules.evaluate, asks=rules.asks),
    default_max_turns=150,
    format_version=2,  # 2: the split field
    golden_summary=golden_summary,
    how_to_win=HOW_TO_WIN,
    legend=LEGEND,
    setup_split=setup_split,
    evaluation=EvalSettings(
        # one option set with every option on (Fatesworn and the held-out test setups too),
        # so that the CI fuzz plays 300 games per option set and count with and without
        # Fatesworn. Its batch steps (some 4,000: random play's longest games run to
        # max_turns) and so its check_record samples (per step) do not depend on the
        # game count; 300 games cut the stepping of 1,000 for the same checks.
        contract_options=({"two_player_variant": True, "reward": "score", "fatesworn": True,
                           "split": "test"},),
        fuzz_games=300,  # full games per configuration in CI
        fuzz_option_games=300,
        # check_record (some 1.3 ms a record) is over half of the fuzz's time at 4 samples
        # a step; 2 keep some 9,000 checked records per configuration and count in CI
        fuzz_sample_rows=2,
        # batched steps/s at 1,024 envs; about half of `fatezoo bench foretold`'s 122,840 on
        # loaded 2 cores (the 300,000 target on an idle machine: RULES.md Status)
        bench_floor=60_000.0,
        arena_targets=(("heuristic", "random", 0.75),),
        train_preset=TRAIN_PRESET,
        rollout_depth=20,
        # the heuristic's action leads the search (RULES.md: ISMCTS with and without it)
        ismcts_prior=10.0,
        # cold seconds per entry point on 2 shared cores (fatezoo bench foretold --compile)
        compile_seconds={"aec": 34, "vector": 8, "heuristic": 5, "ismcts": 13},
    ),
)

determinize = SPEC.determinize  # the core's wrapper of rules.determinize_record

from .env import env, raw_env, vec  # noqa: E402  (env.py needs SPEC)

__all__ = ["SPEC", "env", "raw_env", "vec", "determinize", "check_record", "temple_is_legal",
           "MAX_LIFE", "NC"]
