"""The Fathoming: a two-player Warrior card battler (rules: RULES.md; doc page: ``env.py``)."""

from __future__ import annotations

import numpy as np

from fatezoo.envs.core.spec import EvalSettings, GameSpec, Kernels
from fatezoo.envs.core.state import split_code

from . import rules
from .cards import KIND_BY_NAME, PRESET_DIVINE_ONLY, PRESETS, TYPES
from .checks import check_record, deck_problem, held_out_pair, setup_split
from .encode import OBS, STATE_SIZE, encode, encode_state
from .heuristic import act_one
from .presets import TRAIN_PRESET
from .render import HOW_TO_WIN, LEGEND, render_ansi, render_svg
from .state import ACTION_NAMES, DECK_SIZE, FIRST_POS, NUM_ACTIONS, STATE_DTYPE

GAME = "fathoming"


# ---------------------------------------------------------------- deck options (R1-R8)


def _deck_row(spec, divine: bool, who: str) -> np.ndarray:
    if isinstance(spec, str):
        if spec == "random":
            return np.full(DECK_SIZE, -1, np.int16)
        if spec not in PRESETS:
            raise ValueError(f"{GAME}: unknown deck {spec!r} for {who}; expected 'random', a "
                             f"list of {DECK_SIZE} card names or a preset: "
                             f"{', '.join(sorted(PRESETS))}")
        if PRESET_DIVINE_ONLY[spec] and not divine:
            raise ValueError(f"{GAME}: preset {spec!r} ({who}) needs divine=True")
        names = PRESETS[spec]
    elif isinstance(spec, (list, tuple)) and all(isinstance(x, str) for x in spec):
        names = list(spec)
    else:
        raise ValueError(f"{GAME}: deck for {who} must be a preset name, 'random' or a list of "
                         f"card names, got {spec!r}")
    kinds = []
    for name in names:
        if name not in KIND_BY_NAME:
            raise ValueError(f"{GAME}: unknown card {name!r} in the deck for {who}")
        kinds.append(KIND_BY_NAME[name])
    bad = deck_problem(kinds, divine, f"deck for {who}")
    if bad:
        raise ValueError(f"{GAME}: {bad}")
    return np.array(kinds, np.int16)


def _deck_name(spec, p: int) -> str:
    return repr(spec) if isinstance(spec, str) else f"the card list of player_{p}"


def _check_pinned(specs, rows, split: str) -> None:
    """Refuse decks fixed by ``decks`` that lie outside the split (R62).

    ``split`` only steers random decks: under ``train`` no fixed deck may be a test deck;
    under ``test`` two fixed decks must hold a test deck (a random one is drawn as one).
    """
    pinned = [(p, held_out_pair(row.tolist())) for p, row in enumerate(rows)
              if row[FIRST_POS] >= 0]
    for p, pair in pinned:
        if split == "train" and pair:
            raise ValueError(f"{GAME}: deck {_deck_name(specs[p], p)} (player_{p}) holds "
                             f"Warriors of the held-out class pair {pair[0].title()} + "
                             f"{pair[1].title()}, a test deck; split='train' never deals it")
    if split == "test" and len(pinned) == 2 and not any(pair for _, pair in pinned):
        names = " and ".join(_deck_name(specs[p], p) for p in range(2))
        raise ValueError(f"{GAME}: decks {names} hold no held-out class pair (a train "
                         "setup); split='test' needs a test deck or a 'random' one")


def configure(decks="random", divine=False, split="all") -> dict:
    """Validate The Fathoming's options; return the record fields they set.

    Args:
        decks: one deck spec for both players or a pair ``(player_0's, player_1's)``; a
            spec is a preset name, a list of 40 card names, or ``"random"`` (a legal
            random deck drawn from the game's seed at every reset).
        divine: play with the Divine Intervention expansion.
        split: held-out setups (RULES.md R62): ``"train"`` deals only decks without a
            held-out pair of Warrior classes, ``"test"`` games with at least one such
            deck, ``"all"`` both (random decks as without the option).
    """
    code = split_code(GAME, split)
    if not isinstance(divine, (bool, np.bool_)):
        raise ValueError(f"{GAME}: divine must be a bool, got {divine!r}")
    divine = bool(divine)
    if isinstance(decks, (list, tuple)) and len(decks) == 2:
        specs = list(decks)
    else:
        specs = [decks, decks]
    rows = [_deck_row(s, divine, f"player_{p}") for p, s in enumerate(specs)]
    _check_pinned(specs, rows, split)
    return {"divine": int(divine), "deck_opt": np.stack(rows), "split": code}


def golden_summary(rec) -> str:
    """A golden transcript's closing line: Loot per seat and why the game ended."""
    return f"loot {rec['loot'].tolist()} winner {int(rec['winner'])} reason {int(rec['reason'])}"


SPEC = GameSpec(
    name=GAME,
    gym_id="fatezoo/Fathoming-v0",
    min_players=2,
    max_players=2,
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
    default_max_turns=200,
    format_version=2,  # 2: the split field (R62)
    golden_summary=golden_summary,
    how_to_win=HOW_TO_WIN,
    legend=LEGEND,
    setup_split=setup_split,
    evaluation=EvalSettings(
        contract_options=({"divine": True}, {"decks": ("Pixie Swarm", "Werewolf Pack")},
                          {"divine": True, "decks": ("Divine Convergence", "Moon Pack Rising")},
                          {"split": "test"}),
        # batched steps/s: measured 109,477 at 1024 envs on the shared 2-core machine under
        # load (0.22x its memory floor of 499,394; the 500,000 is that floor); half
        bench_floor=54_000.0,
        arena_targets=(("heuristic", "random", 0.8),),
        train_preset=TRAIN_PRESET,
        rollout_depth=40,
        # cold seconds per entry point on 2 shared cores (fatezoo bench fathoming --compile)
        compile_seconds={"aec": 30, "vector": 9, "heuristic": 1, "ismcts": 11},
    ),
)

determinize = SPEC.determinize  # the core's wrapper of rules.determinize_record

from .env import env, raw_env, vec  # noqa: E402  (env.py needs SPEC)

__all__ = ["SPEC", "env", "raw_env", "vec", "determinize", "check_record", "configure",
           "deck_problem", "held_out_pair", "setup_split", "TYPES"]
