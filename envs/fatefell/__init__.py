"""Fatefell: tarot Golf for 2-4 players (rules: RULES.md; doc page: ``env.py``)."""

from __future__ import annotations

import numpy as np

from fatezoo.envs.core.spec import EvalSettings, GameSpec, Kernels

from . import rules
from .cards import FATE_MOON, FATE_SUN
from .encode import OBS, STATE_SIZE, encode, encode_state
from .heuristic import act_one
from .presets import TRAIN_PRESET
from .render import HOW_TO_WIN, LEGEND, render_ansi, render_svg
from .state import (
    ACTION_NAMES,
    FATE0,
    NUM_ACTIONS,
    NUM_ARCANA,
    NUM_CARDS,
    NUM_EFFECTS,
    NUM_FATE,
    NUM_PHASES,
    SLOTS,
    STATE_DTYPE,
    Effect,
    Phase,
)


def _flag(name, value, default):
    if value is None:
        value = default
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"fatefell: {name} must be a bool, got {value!r}")
    return int(bool(value))


def configure(seasons=4, advanced=False, random_seasons=None, random_fates=None,
              seasonal_rules=None) -> dict:
    """Validate Fatefell's options; return the record fields they set.

    Args:
        seasons: how many seasons to play, 1-4 (4 is the full game).
        advanced: turn on random_seasons, random_fates and seasonal_rules together (each
            can still be set on its own).
        random_seasons: spin the Fate Coin for each season's kind.
        random_fates: spin for each season's number of Fate cards (6, 8, 10 or 12).
        seasonal_rules: Summer, Autumn and Winter special rules.
    """
    if isinstance(seasons, bool) or not isinstance(seasons, (int, np.integer)) \
            or not 1 <= seasons <= 4:
        raise ValueError(f"fatefell: seasons must be an int in [1, 4], got {seasons!r}")
    adv = bool(_flag("advanced", advanced, False))
    return {
        "seasons": int(seasons),
        "random_seasons": _flag("random_seasons", random_seasons, adv),
        "random_fates": _flag("random_fates", random_fates, adv),
        "seasonal_rules": _flag("seasonal_rules", seasonal_rules, adv),
        "fate_sun": FATE_SUN,
        "fate_moon": FATE_MOON,
    }


def card_zones(rec) -> np.ndarray:
    """How many times each of the 60 cards appears across all zones (all 1 when sound)."""
    n = int(rec["num_players"])
    parts = [rec["layout"][:n].ravel(), rec["draw"][: rec["draw_n"]],
             rec["discard"][0, : rec["discard_n"][0]], rec["discard"][1, : rec["discard_n"][1]],
             rec["aside"][: rec["aside_n"]], rec["out"][: rec["out_n"]]]
    parts += [np.array([rec[k]]) for k in ("hand", "pending", "fate_card") if rec[k] >= 0]
    cards = np.concatenate([p.astype(np.int64) for p in parts])
    if ((cards < 0) | (cards >= NUM_CARDS)).any():
        raise ValueError(f"card id out of range in {sorted(set(cards.tolist()))}")
    return np.bincount(cards, minlength=NUM_CARDS)


_PH = Phase
_E = Effect
# the Fate instructions that ask for a decision in each effect phase, and whether the
# next player (True) or the turn player (False) makes it
_FX_CHOOSER = {
    _PH.FX_SLOT: {_E.PEEK_OWN: False, _E.BURY_SEEN: False, _E.BURY_BLIND: False,
                  _E.REVEAL_OWN: False, _E.SWAP_OWN: False, _E.SWAP_DISCARD: False,
                  _E.SWAP_OPP: False, _E.NEXT_SWAPS: True},
    _PH.FX_SLOT2: {_E.SWAP_OWN: False},
    _PH.FX_TARGET: {_E.PEEK_OPP: False, _E.SWAP_OPP: False, _E.NEXT_PEEKS: True,
                    _E.NEXT_BURIES: True, _E.NEXT_SWAPS: True},
    _PH.FX_PILE: {_E.SWAP_DISCARD: False},
}
# phases in which ``first_slot`` holds the chooser's first pick
_FIRST_SLOT = {(_PH.FX_SLOT2, _E.SWAP_OWN), (_PH.FX_TARGET, _E.SWAP_OPP),
               (_PH.FX_TARGET, _E.NEXT_SWAPS), (_PH.FX_PILE, _E.SWAP_DISCARD)}


def _need(name: str, ok, want: str, got) -> None:
    """Raise ``ValueError("<name> must be <want>, got <got>")`` unless ``ok``."""
    if not ok:
        if isinstance(got, np.ndarray):
            got = got.tolist()
        raise ValueError(f"{name} must be {want}, got {got}")


def _in(x, lo: int, hi: int) -> bool:
    """Whether every value of the array ``x`` is in ``[lo, hi)`` (plain Python: fast)."""
    v = x.ravel().tolist()
    return not v or (lo <= min(v) and max(v) < hi)


def _check_fields(rec: dict, n: int) -> None:
    """Every field on its own: the ranges, flags and card kinds the kernels index with."""
    _need("num_players", 2 <= n <= 4, "in [2, 4]", n)
    for name in ("random_seasons", "random_fates", "seasonal_rules", "hand_from_discard",
                 "after_peek"):
        _need(name, rec[name] in (0, 1), "0 or 1", rec[name])
    for name in ("matched", "known", "scratch"):
        _need(name, _in(rec[name], 0, 2), "0 or 1 everywhere", rec[name])
    seasons = int(rec["seasons"])
    _need("seasons", 1 <= seasons <= 4, "in [1, 4]", seasons)
    for name in ("fate_sun", "fate_moon"):
        _need(name, _in(rec[name], 1, NUM_EFFECTS), f"effects in [1, {NUM_EFFECTS})", rec[name])
    for name in ("current_player", "turn_player", "peeker"):
        _need(name, 0 <= rec[name] < n, f"in [0, {n})", int(rec[name]))
    _need("season", 0 <= rec["season"] < seasons, f"in [0, seasons={seasons})",
          int(rec["season"]))
    _need("phase", 0 <= rec["phase"] < NUM_PHASES, f"in [0, {NUM_PHASES})", int(rec["phase"]))
    _need("effect", 0 <= rec["effect"] < NUM_EFFECTS, f"in [0, {NUM_EFFECTS})",
          int(rec["effect"]))
    _need("coin", -1 <= rec["coin"] <= 1, "-1 (none), 0 (Sun) or 1 (Moon)", int(rec["coin"]))
    _need("first_slot", -1 <= rec["first_slot"] < SLOTS, f"in [-1, {SLOTS})",
          int(rec["first_slot"]))
    _need("fate_card", rec["fate_card"] == -1 or FATE0 <= rec["fate_card"] < NUM_CARDS,
          f"-1 or a Fate card in [{FATE0}, {NUM_CARDS})", int(rec["fate_card"]))
    for name in ("hand", "pending"):
        _need(name, -1 <= rec[name] < NUM_ARCANA, f"-1 or an Arcana card in [0, {NUM_ARCANA})",
              int(rec[name]))
    _need("ender", -1 <= rec["ender"] < n, f"-1 or in [0, {n})", int(rec["ender"]))
    _need("final_left", 0 <= rec["final_left"] < n, f"in [0, {n})", int(rec["final_left"]))
    _need("last_player", -1 <= rec["last_player"] < n, f"-1 or in [0, {n})",
          int(rec["last_player"]))
    _need("last_action", -1 <= rec["last_action"] < NUM_ACTIONS, f"-1 or in [0, {NUM_ACTIONS})",
          int(rec["last_action"]))
    _need("last_player and last_action", (rec["last_player"] < 0) == (rec["last_action"] < 0),
          "both -1 or both set", (int(rec["last_player"]), int(rec["last_action"])))
    _need("draw_n", 0 <= rec["draw_n"] <= NUM_CARDS, f"in [0, {NUM_CARDS}]", int(rec["draw_n"]))
    _need("discard_n", _in(rec["discard_n"], 0, NUM_ARCANA + 1), f"in [0, {NUM_ARCANA}]",
          rec["discard_n"])
    _need("num_piles", rec["num_piles"] in (1, 2), "1 or 2", int(rec["num_piles"]))
    _need("discard_n[1]", rec["num_piles"] == 2 or rec["discard_n"][1] == 0,
          "0 with one discard pile", int(rec["discard_n"][1]))
    for name in ("aside_n", "out_n"):
        _need(name, 0 <= rec[name] <= NUM_FATE, f"in [0, {NUM_FATE}]", int(rec[name]))
    layout = rec["layout"]
    _need("layout", _in(layout[:n], 0, NUM_ARCANA),
          f"Arcana cards in [0, {NUM_ARCANA}) for the {n} seats", layout[:n])
    _need("layout", _in(layout[n:], -1, 0), f"-1 beyond seat {n - 1}", layout[n:])
    _need("matched", not rec["matched"][n:].any(), f"0 beyond seat {n - 1}", rec["matched"][n:])
    known = rec["known"]
    _need("known", not known[n:].any() and not known[:, n:].any(),
          f"0 for viewers and owners beyond seat {n - 1}", known)
    _need("draw", _in(rec["draw"][: rec["draw_n"]], 0, NUM_CARDS),
          f"cards in [0, {NUM_CARDS})", rec["draw"][: rec["draw_n"]])
    for k in range(2):
        pile = rec["discard"][k, : rec["discard_n"][k]]
        _need(f"discard pile {k}", _in(pile, 0, NUM_ARCANA),
              f"Arcana cards in [0, {NUM_ARCANA})", pile)
    for name in ("aside", "out"):
        cards = rec[name][: rec[f"{name}_n"]]
        _need(name, _in(cards, FATE0, NUM_CARDS), f"Fate cards in [{FATE0}, {NUM_CARDS})", cards)


def _check_seasons(rec: dict, n: int) -> None:
    """Season kinds, Fate counts and scores: set for the seasons dealt, zero after."""
    s = int(rec["season"])
    kinds = rec["season_kind"]
    _need("season_kind", _in(kinds[: s + 1], 0, 4) and _in(kinds[s + 1:], -1, 0),
          f"in [0, 4) for seasons 0..{s} and -1 after", kinds)
    counts = rec["fate_count"]
    _need("fate_count", set(counts[: s + 1].tolist()) <= {6, 8, 10, 12}
          and not counts[s + 1:].any(), f"6, 8, 10 or 12 for seasons 0..{s} and 0 after",
          counts)
    scored = s + (rec["phase"] == Phase.OVER)
    scores = rec["season_score"]
    _need("season_score", _in(scores[:scored, :n], 0, 49) and not scores[scored:].any()
          and not scores[:, n:].any(),
          f"in [0, 48] for the {scored} scored season(s) and seats < {n}, 0 elsewhere",
          scores)
    _need("total", _in(rec["total"][:n], 0, 4 * 48 + 1) and not rec["total"][n:].any(),
          f"in [0, 192] for seats < {n} and 0 elsewhere", rec["total"])
    resolving = int(rec["fate_card"] >= 0)
    in_draw = sum(c >= FATE0 for c in rec["draw"][: rec["draw_n"]].tolist())
    in_play = in_draw + rec["aside_n"] + resolving
    _need("Fate cards in the draw pile, set aside and resolving", in_play <= counts[s],
          f"at most the season's {int(counts[s])}", in_play)


def _check_turn(rec: dict, n: int) -> None:
    """The decision in progress: phase, Fate effect, chooser and the cards in flight."""
    ph = Phase(int(rec["phase"]))
    e = int(rec["effect"])
    p = int(rec["current_player"])
    t = int(rec["turn_player"])
    resolving = rec["fate_card"] >= 0
    _need("terminated", (ph == Phase.OVER) == bool(rec["terminated"]),
          "1 exactly in phase OVER (the game's end)", int(rec["terminated"]))
    _need("effect and coin", (e != 0) == resolving and (rec["coin"] >= 0) == resolving,
          "set exactly while a Fate card resolves", (e, int(rec["coin"]), int(rec["fate_card"])))
    if resolving:
        table = rec["fate_sun"] if rec["coin"] == 0 else rec["fate_moon"]
        want = int(table[int(rec["fate_card"]) - FATE0])
        _need("effect", e == want, f"{want}, the side of Fate card {int(rec['fate_card'])} "
              f"the coin shows", e)
    _need("hand", (rec["hand"] >= 0) == (ph == Phase.PLACE), "a card exactly in phase PLACE",
          int(rec["hand"]))
    _need("pending", (rec["pending"] >= 0) == (ph == Phase.PILE),
          "a card exactly in phase PILE", int(rec["pending"]))
    _need("num_piles", ph != Phase.PILE or rec["num_piles"] == 2, "2 in phase PILE",
          int(rec["num_piles"]))
    first = (ph, e) in _FIRST_SLOT
    _need("first_slot", (rec["first_slot"] >= 0) == first,
          f"{'a slot' if first else '-1'} in phase {ph.name} (effect {e})",
          int(rec["first_slot"]))
    if first:
        _need("first_slot", not rec["matched"][p, rec["first_slot"]],
              "a slot outside a Completed Match", int(rec["first_slot"]))
    if ph in (Phase.DRAW, Phase.PLACE, Phase.PILE, Phase.DECLARE):
        _need("fate_card", not resolving, f"-1 in phase {ph.name}", int(rec["fate_card"]))
        _need("current_player", p == t, f"the turn player {t} in phase {ph.name}", p)
    elif ph == Phase.PEEK_HIDDEN:
        _need("current_player", p == rec["peeker"] and p != t,
              f"the peeker {int(rec['peeker'])}, not the turn player {t}", p)
        want = Effect.OTHERS_PEEK_HIDDEN if rec["after_peek"] else Effect.NONE
        _need("effect", e == want, f"{int(want)} with after_peek={int(rec['after_peek'])}", e)
    elif ph == Phase.OVER:
        _need("fate_card", not resolving, "-1 in phase OVER", int(rec["fate_card"]))
    else:
        choosers = _FX_CHOOSER[ph]
        _need("effect", e in choosers, f"one of {sorted(int(x) for x in choosers)} in phase "
              f"{ph.name}", e)
        want = (t + 1) % n if choosers[e] else t
        _need("current_player", p == want, f"{want} for effect {e} in phase {ph.name}", p)
    ender = int(rec["ender"])
    if ender < 0:
        _need("final_left", rec["final_left"] == 0, "0 before a player completes both Matches",
              int(rec["final_left"]))
    else:
        _need("ender", rec["matched"][ender].all(), "a player with both Matches complete",
              ender)
        _need("final_left", ph == Phase.OVER or rec["final_left"] >= 1,
              "at least 1 while the final turns last", int(rec["final_left"]))


def _check_cards(rec: dict, n: int) -> None:
    """Every card in exactly one zone; Completed Matches known to all; discard counts."""
    piles = rec["discard"][0, : rec["discard_n"][0]].tolist() \
        + rec["discard"][1, : rec["discard_n"][1]].tolist()
    seen = [0] * (NUM_ARCANA // 2)
    for c in piles:
        seen[c >> 1] += 1
    if seen != rec["discard_seen"].tolist():
        raise ValueError(f"discard_seen must count the identities in the discard piles "
                         f"{seen}, got {rec['discard_seen'].tolist()}")
    layout = rec["layout"]
    cards = (layout[:n].ravel().tolist() + rec["draw"][: rec["draw_n"]].tolist() + piles
             + rec["aside"][: rec["aside_n"]].tolist() + rec["out"][: rec["out_n"]].tolist()
             + [int(rec[k]) for k in ("hand", "pending", "fate_card") if rec[k] >= 0])
    if sorted(cards) != _ALL_CARDS:
        counts = card_zones(rec)
        bad = np.flatnonzero(counts != 1)
        raise ValueError(f"cards {bad.tolist()} appear {counts[bad].tolist()} times; "
                         "every card must be in exactly one zone")
    matched = rec["matched"]
    known = rec["known"]
    for p in range(n):
        slots = [x for x in range(SLOTS) if matched[p, x]]
        if not slots:
            continue
        _need(f"player {p}'s Completed Matches", all(known[v, p, x] for v in range(n)
                                                      for x in slots),
              "known to every player", known[:n, p])
        ids = sorted(int(layout[p, x]) >> 1 for x in slots)
        _need(f"player {p}'s matched slots", len(ids) in (2, 4) and ids[0::2] == ids[1::2],
              "pairs of cards of one identity", slots)


_ALL_CARDS = list(range(NUM_CARDS))


def check_record(rec) -> None:
    """Raise ValueError naming the first thing wrong with a Fatefell record.

    Checks every field the kernels index with (so that ``encode``, ``legal`` and
    ``apply`` stay inside their arrays), the flags (0/1), the card kinds of each zone,
    the decision in progress (phase, Fate effect, chooser, cards in flight) and that
    every card is in exactly one zone. The core checks the header and the options.
    """
    r = dict(zip(rec.dtype.names, rec.item()))  # plain ints: ~20x faster to compare
    n = r["num_players"]
    _check_fields(r, n)
    _check_seasons(r, n)
    _check_turn(r, n)
    _check_cards(r, n)


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
    golden_summary=golden_summary,
    how_to_win=HOW_TO_WIN,
    legend=LEGEND,
    evaluation=EvalSettings(
        contract_options=({}, {"advanced": True, "reward": "score"}),
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
