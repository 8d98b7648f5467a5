"""Fatefell's held-out setups (``split``; RULES.md, "Held-out setups").

A season's setup is its kind and its Fate count; the test part pairs each kind with one
count (Spring 10, Summer 12, Autumn 6, Winter 8), the other 12 pairs are train. The
oracle is ``SPEC.setup_split`` (``checks.py``), written apart from the dealing kernel.
"""

from __future__ import annotations

import numpy as np
import pytest

import fatezoo
from fatezoo.envs.core import kernels as K
from fatezoo.envs.core.registry import get_spec
from fatezoo.envs.core.rng import randint, rng_rows, seed_words
from fatezoo.envs.core.testing import RuleGame, fuzz
from fatezoo.envs.fatefell import check_record, configure
from fatezoo.envs.fatefell.state import Season

SPEC = get_spec("fatefell")
PLAYERS = (2, 3, 4)
DEALS = 320
TEST_PAIRS = {(Season.SPRING, 10), (Season.SUMMER, 12), (Season.AUTUMN, 6),
              (Season.WINTER, 8)}
ALL_PAIRS = {(k, f) for k in range(4) for f in (6, 8, 10, 12)}
TRAIN_PAIRS = ALL_PAIRS - TEST_PAIRS


class Game(RuleGame):
    SPEC = SPEC


def pair(rec) -> tuple[int, int]:
    """The current season's kind and Fate count."""
    s = int(rec["season"])
    return int(rec["season_kind"][s]), int(rec["fate_count"][s])


def deals(n: int, seed: int, **options) -> np.ndarray:
    """``DEALS`` freshly dealt records."""
    vec = fatezoo.make_vec("fatefell", num_envs=DEALS, seed=seed, num_players=n, **options)
    vec.reset()
    return vec.states.copy()


# ---------------------------------------------------------------- the classifier


def test_classifier_holds_out_one_fate_count_per_kind():
    g = Game(num_players=2, advanced=True)
    got = {}
    for kind, count in sorted(ALL_PAIRS):
        g.r["season_kind"][0], g.r["fate_count"][0] = kind, count
        got[kind, count] = SPEC.setup_split(g.r)
    assert {p for p, s in got.items() if s == "test"} == TEST_PAIRS
    assert sum(s == "train" for s in got.values()) == 12  # 4 of 16 pairs held out (25%)
    # the basic game's seasons (Spring 6, Summer 8, Autumn 10, Winter 12) are all train
    assert all(got[k, 6 + 2 * k] == "train" for k in range(4))


# ---------------------------------------------------------------- (a) seeded deals


@pytest.mark.parametrize("n", PLAYERS)
def test_train_and_test_deal_only_their_part_and_all_deals_both(n):
    for split, want, pairs in (("train", {"train"}, TRAIN_PAIRS), ("test", {"test"}, TEST_PAIRS)):
        states = deals(n, 10 + n, split=split)
        assert (states["split"] == {"train": 1, "test": 2}[split]).all()
        assert {SPEC.setup_split(r) for r in states} == want, split
        assert {pair(r) for r in states} == pairs, split  # every pair of the part comes
        for r in states:
            check_record(r)
    states = deals(n, 20 + n, advanced=True)  # split="all": the whole advanced space
    assert {SPEC.setup_split(r) for r in states} == {"train", "test"}
    assert {pair(r) for r in states} == ALL_PAIRS
    states = deals(n, 30 + n)  # split="all", basic game: Spring with 6 Fate cards
    assert {pair(r) for r in states} == {(Season.SPRING, 6)}


def test_pinned_options_narrow_the_split_draw():
    # random_seasons off: the kind is the season's own, the count is drawn in the split
    states = deals(2, 5, split="test", random_seasons=False)
    assert {pair(r) for r in states} == {(Season.SPRING, 10)}
    states = deals(2, 5, split="train", random_seasons=False)
    assert {pair(r) for r in states} == {(Season.SPRING, 6), (Season.SPRING, 8),
                                         (Season.SPRING, 12)}
    # both spins off under train: the basic seasons (a train setup), as with split="all"
    states = deals(2, 5, split="train", random_seasons=False, random_fates=False)
    assert {pair(r) for r in states} == {(Season.SPRING, 6)}
    # random_fates off: the count follows the spun kind, all four are train
    states = deals(2, 5, split="train", random_fates=False)
    assert {pair(r) for r in states} == {(k, 6 + 2 * k) for k in range(4)}


def test_split_draw_is_one_index_among_the_allowed_pairs():
    # the pairs in id order kind * 4 + spin; train's 12: index 5 is (Summer, 10), test's 4:
    # index 3 is (Winter, 8). Each is one randint(allowed) call, the first draw of a deal.
    for split, allowed, index, want in (("train", 12, 5, (Season.SUMMER, 10)),
                                        ("test", 4, 3, (Season.WINTER, 8))):
        words = next(w for w in (seed_words(7, i) for i in range(5000))
                     if randint(w.copy(), allowed) == index)
        g = Game(words=words, num_players=2, split=split)
        assert pair(g.r) == want


def test_split_and_advanced_defaults():
    assert configure()["split"] == 0
    for split, code in (("all", 0), ("train", 1), ("test", 2)):
        assert configure(split=split)["split"] == code
    on = {k: configure(split="train")[k]
          for k in ("random_seasons", "random_fates", "seasonal_rules")}
    assert on == {"random_seasons": 1, "random_fates": 1, "seasonal_rules": 1}
    assert configure(split="test", seasonal_rules=False)["seasonal_rules"] == 0
    assert configure(split="all")["random_fates"] == 0


# ---------------------------------------------------------------- (b) auto-resets, seasons


@pytest.mark.parametrize("split", ["train", "test"])
def test_every_season_and_every_auto_reset_stays_in_the_split(split):
    # each season is dealt anew (a new game by an auto-reset, or the next season): the
    # classifier sees every one of them as it is dealt
    for n in PLAYERS:
        vec = fatezoo.make_vec("fatefell", num_envs=48, seed=40 + n, num_players=n,
                               split=split, max_turns=150)
        vec.reset()
        rng = rng_rows(50 + n, vec.num_envs)
        actions = np.empty(vec.num_envs, np.int64)
        season = vec.states["season"].copy()
        new_games = new_seasons = 0
        for _ in range(2000):
            K.batch_random_actions(vec.mask, rng, actions)
            _, _, _, _, term, trunc = vec.step(actions)
            ended = term | trunc
            later = ~ended & (vec.states["season"] != season)
            new_games += int(ended.sum())
            new_seasons += int(later.sum())
            season = vec.states["season"].copy()
            for i in np.flatnonzero(ended | later):
                assert SPEC.setup_split(vec.states[i]) == split, (n, i, pair(vec.states[i]))
        assert new_games > 50 and new_seasons > 50, (n, new_games, new_seasons)


# ---------------------------------------------------------------- (c) whole test games


@pytest.mark.parametrize("n", PLAYERS)
def test_test_split_games_play_to_the_end_and_pass_the_record_checks(n):
    report = fuzz("fatefell", n, games=100, seed=n, split="test")
    assert report["games"] == 100


# ---------------------------------------------------------------- (d) split="all"


# ---------------------------------------------------------------- (e) errors


def _one_line(err, *words):
    text = str(err.value)
    assert "\n" not in text and text.startswith("fatefell: "), text
    for w in words:
        assert w in text, (w, text)


def test_bad_split_value_is_one_line_naming_it():
    for bad in ("held-out", "Test", 1, None):
        with pytest.raises(ValueError) as err:
            configure(split=bad)
        _one_line(err, repr(bad))
    with pytest.raises(ValueError) as err:
        fatezoo.make_vec("fatefell", num_envs=2, split="heldout")
    _one_line(err, "'heldout'")


def test_pinned_setup_outside_the_split_is_one_line_naming_it():
    for options in ({"random_fates": False}, {"random_fates": False, "random_seasons": False},
                    {"advanced": True, "random_fates": False}):
        with pytest.raises(ValueError) as err:
            configure(split="test", **options)
        _one_line(err, "random_fates=False", "split='test'")
    assert configure(split="train", random_fates=False)["random_fates"] == 0  # inside train


def test_record_checks_refuse_a_bad_split_field_or_a_season_outside_it():
    g = Game(num_players=2, split="train")
    check_record(g.r)
    r = g.r.copy()
    r["split"] = 3
    with pytest.raises(ValueError, match="^split must be in \\[0, 2\\], got 3$"):
        check_record(r)
    r = g.r.copy()
    r["split"] = 2  # test: a dealt train season lies outside it
    with pytest.raises(ValueError, match="^season 0's kind and Fate count must be a test"):
        check_record(r)
    r = Game(num_players=2, split="test").r.copy()
    r["random_fates"] = 0
    with pytest.raises(ValueError, match="^random_fates must be 1 with split=test"):
        check_record(r)
