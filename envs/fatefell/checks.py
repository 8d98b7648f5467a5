"""Fatefell's record checks: its ranges declared once, the relations by hand.

``RANGES`` says what each field may hold (``envs/core/checks.py`` checks them and names
the field); the functions below check what ranges cannot say: the season against the
seasons played, each zone's card kinds, the decision in progress, and that every card is
in exactly one zone.
"""

from __future__ import annotations

import numpy as np

from fatezoo.envs.core.checks import SEATS, Range, check_ranges, need, within
from fatezoo.envs.core.state import SPLIT_ALL, SPLIT_TEST, SPLITS

from .state import (
    DRAW_PILE,
    FATE0,
    MAX_P,
    MIN_P,
    NUM_ACTIONS,
    NUM_ARCANA,
    NUM_CARDS,
    NUM_EFFECTS,
    NUM_FATE,
    SLOTS,
    Effect,
    Phase,
    Season,
)

RANGES = {
    "num_players": Range(MIN_P, MAX_P + 1),
    "random_seasons": Range(0, 2),
    "random_fates": Range(0, 2),
    "seasonal_rules": Range(0, 2),
    "split": Range(0, len(SPLITS)),
    "hand_from_discard": Range(0, 2),
    "after_peek": Range(0, 2),
    "matched": Range(0, 2, per_seat=True),
    "known": Range(0, 2, per_seat=True),  # per viewer; owners beyond the seats by hand
    "scratch": Range(0, 2),
    "seasons": Range(1, 5),
    "fate_sun": Range(1, NUM_EFFECTS),
    "fate_moon": Range(1, NUM_EFFECTS),
    "current_player": Range(0, SEATS),
    "turn_player": Range(0, SEATS),
    "peeker": Range(0, SEATS),
    "phase": Range.of(Phase),
    "effect": Range(0, NUM_EFFECTS),
    "coin": Range(-1, 2),  # none, Sun, Moon
    "first_slot": Range(-1, SLOTS),
    "hand": Range(-1, NUM_ARCANA),
    "pending": Range(-1, NUM_ARCANA),
    "ender": Range(-1, SEATS),
    "final_left": Range(0, SEATS),
    "last_player": Range(-1, SEATS),
    "last_action": Range(-1, NUM_ACTIONS),
    "draw_n": Range(0, NUM_CARDS + 1),
    "discard_n": Range(0, NUM_ARCANA + 1),
    "num_piles": Range(1, 3),
    "aside_n": Range(0, NUM_FATE + 1),
    "out_n": Range(0, NUM_FATE + 1),
    "layout": Range(0, NUM_ARCANA, per_seat=True, absent=-1),
}


def draw_pile(rec) -> np.ndarray:
    """The cards of the draw pile, bottom to top."""
    return rec["draw"][DRAW_PILE, : rec["draw_n"][DRAW_PILE]]


def card_zones(rec) -> np.ndarray:
    """How many times each of the 60 cards appears across all zones (all 1 when sound)."""
    n = int(rec["num_players"])
    parts = [rec["layout"][:n].ravel(), draw_pile(rec),
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


def _check_fields(rec: dict, n: int) -> None:
    """What ranges cannot say of single fields: season, Fate card, last decision, piles."""
    seasons = int(rec["seasons"])
    need(0 <= rec["season"] < seasons, "season", f"in [0, seasons={seasons})",
         int(rec["season"]))
    need(rec["fate_card"] == -1 or FATE0 <= rec["fate_card"] < NUM_CARDS, "fate_card",
         f"-1 or a Fate card in [{FATE0}, {NUM_CARDS})", int(rec["fate_card"]))
    need((rec["last_player"] < 0) == (rec["last_action"] < 0), "last_player and last_action",
         "both -1 or both set", (int(rec["last_player"]), int(rec["last_action"])))
    need(not rec["known"][:, n:].any(), "known", f"0 for owners beyond seat {n - 1}",
         rec["known"])
    need(rec["num_piles"] == 2 or rec["discard_n"][1] == 0, "discard_n[1]",
         "0 with one discard pile", int(rec["discard_n"][1]))
    need(within(draw_pile(rec), 0, NUM_CARDS), "draw",
         f"cards in [0, {NUM_CARDS})", draw_pile(rec))
    for k in range(2):
        pile = rec["discard"][k, : rec["discard_n"][k]]
        need(within(pile, 0, NUM_ARCANA), f"discard pile {k}",
             f"Arcana cards in [0, {NUM_ARCANA})", pile)
    for name in ("aside", "out"):
        cards = rec[name][: rec[f"{name}_n"]]
        need(within(cards, FATE0, NUM_CARDS), name, f"Fate cards in [{FATE0}, {NUM_CARDS})", cards)


def _check_seasons(rec: dict, n: int) -> None:
    """Season kinds, Fate counts and scores: set for the seasons dealt, zero after."""
    s = int(rec["season"])
    kinds = rec["season_kind"]
    need(within(kinds[: s + 1], 0, 4) and within(kinds[s + 1:], -1, 0), "season_kind",
         f"in [0, 4) for seasons 0..{s} and -1 after", kinds)
    counts = rec["fate_count"]
    need(set(counts[: s + 1].tolist()) <= {6, 8, 10, 12} and not counts[s + 1:].any(),
         "fate_count", f"6, 8, 10 or 12 for seasons 0..{s} and 0 after", counts)
    split = int(rec["split"])
    need(split != SPLIT_TEST or rec["random_fates"], "random_fates",
         "1 with split=test (without it every season has its basic Fate count)",
         int(rec["random_fates"]))
    if split != SPLIT_ALL:
        want = "test" if split == SPLIT_TEST else "train"
        for d in range(s + 1):
            got = season_split(int(kinds[d]), int(counts[d]))
            need(got == want, f"season {d}'s kind and Fate count",
                 f"a {want} setup with split={want}", (int(kinds[d]), int(counts[d])))
    scored = s + (rec["phase"] == Phase.OVER)
    scores = rec["season_score"]
    need(within(scores[:scored, :n], 0, 49) and not scores[scored:].any()
         and not scores[:, n:].any(), "season_score",
         f"in [0, 48] for the {scored} scored season(s) and seats < {n}, 0 elsewhere",
         scores)
    need(within(rec["total"][:n], 0, 4 * 48 + 1) and not rec["total"][n:].any(), "total",
         f"in [0, 192] for seats < {n} and 0 elsewhere", rec["total"])
    resolving = int(rec["fate_card"] >= 0)
    in_draw = sum(c >= FATE0 for c in draw_pile(rec).tolist())
    in_play = in_draw + rec["aside_n"] + resolving
    need(in_play <= counts[s], "Fate cards in the draw pile, set aside and resolving",
         f"at most the season's {int(counts[s])}", in_play)


# The held-out season setups, written apart from the kernel that deals them (``rules.py``):
# each season kind with the Fate count the test split gives it (RULES.md, designed for
# fatezoo). Every other pair of kind and count is a train setup.
TEST_FATE_COUNT = {Season.SPRING: 10, Season.SUMMER: 12, Season.AUTUMN: 6, Season.WINTER: 8}


def season_split(kind: int, fate_count: int) -> str:
    """``"test"`` if a season of ``kind`` with ``fate_count`` Fate cards is held out."""
    return "test" if TEST_FATE_COUNT[Season(kind)] == fate_count else "train"


def setup_split(rec) -> str:
    """The split of a dealt record's setup: its current season's kind and Fate count."""
    s = int(rec["season"])
    return season_split(int(rec["season_kind"][s]), int(rec["fate_count"][s]))


def _check_turn(rec: dict, n: int) -> None:
    """The decision in progress: phase, Fate effect, chooser and the cards in flight."""
    ph = Phase(int(rec["phase"]))
    e = int(rec["effect"])
    p = int(rec["current_player"])
    t = int(rec["turn_player"])
    resolving = rec["fate_card"] >= 0
    need((ph == Phase.OVER) == bool(rec["terminated"]), "terminated",
         "1 exactly in phase OVER (the game's end)", int(rec["terminated"]))
    need((e != 0) == resolving and (rec["coin"] >= 0) == resolving, "effect and coin",
         "set exactly while a Fate card resolves", (e, int(rec["coin"]), int(rec["fate_card"])))
    if resolving:
        table = rec["fate_sun"] if rec["coin"] == 0 else rec["fate_moon"]
        want = int(table[int(rec["fate_card"]) - FATE0])
        need(e == want, "effect", f"{want}, the side of Fate card {int(rec['fate_card'])} "
             f"the coin shows", e)
    need((rec["hand"] >= 0) == (ph == Phase.PLACE), "hand", "a card exactly in phase PLACE",
         int(rec["hand"]))
    need((rec["pending"] >= 0) == (ph == Phase.PILE), "pending",
         "a card exactly in phase PILE", int(rec["pending"]))
    need(ph != Phase.PILE or rec["num_piles"] == 2, "num_piles", "2 in phase PILE",
         int(rec["num_piles"]))
    first = (ph, e) in _FIRST_SLOT
    need((rec["first_slot"] >= 0) == first, "first_slot",
         f"{'a slot' if first else '-1'} in phase {ph.name} (effect {e})",
         int(rec["first_slot"]))
    if first:
        need(not rec["matched"][p, rec["first_slot"]], "first_slot",
             "a slot outside a Completed Match", int(rec["first_slot"]))
    if ph in (Phase.DRAW, Phase.PLACE, Phase.PILE, Phase.DECLARE):
        need(not resolving, "fate_card", f"-1 in phase {ph.name}", int(rec["fate_card"]))
        need(p == t, "current_player", f"the turn player {t} in phase {ph.name}", p)
    elif ph == Phase.PEEK_HIDDEN:
        need(p == rec["peeker"] and p != t, "current_player",
             f"the peeker {int(rec['peeker'])}, not the turn player {t}", p)
        want = Effect.OTHERS_PEEK_HIDDEN if rec["after_peek"] else Effect.NONE
        need(e == want, "effect", f"{int(want)} with after_peek={int(rec['after_peek'])}", e)
    elif ph == Phase.OVER:
        need(not resolving, "fate_card", "-1 in phase OVER", int(rec["fate_card"]))
    else:
        choosers = _FX_CHOOSER[ph]
        need(e in choosers, "effect", f"one of {sorted(int(x) for x in choosers)} in phase "
             f"{ph.name}", e)
        want = (t + 1) % n if choosers[e] else t
        need(p == want, "current_player", f"{want} for effect {e} in phase {ph.name}", p)
    ender = int(rec["ender"])
    if ender < 0:
        need(rec["final_left"] == 0, "final_left", "0 before a player completes both Matches",
             int(rec["final_left"]))
    else:
        need(rec["matched"][ender].all(), "ender", "a player with both Matches complete",
             ender)
        need(ph == Phase.OVER or rec["final_left"] >= 1, "final_left",
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
    cards = (layout[:n].ravel().tolist() + draw_pile(rec).tolist() + piles
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
        need(all(known[v, p, x] for v in range(n) for x in slots),
             f"player {p}'s Completed Matches", "known to every player", known[:n, p])
        ids = sorted(int(layout[p, x]) >> 1 for x in slots)
        need(len(ids) in (2, 4) and ids[0::2] == ids[1::2], f"player {p}'s matched slots",
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
    check_ranges(rec, RANGES)
    n = r["num_players"]
    _check_fields(r, n)
    _check_seasons(r, n)
    _check_turn(r, n)
    _check_cards(r, n)
