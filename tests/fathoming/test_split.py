"""The Fathoming's held-out setups (RULES.md R62): the ``split`` option.

A deck whose base-game Warriors include both classes of a held-out pair is a test deck; a
game with a test deck is a test game. ``SPEC.setup_split`` (``checks.py``) is the oracle,
written apart from the reset kernel that draws the decks (``rules.class_pair``).
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

import fatezoo
from fatezoo.envs.core import testing
from fatezoo.envs.core.registry import get_spec
from fatezoo.envs.core.state import SPLIT_ALL, SPLIT_TEST, SPLIT_TRAIN
from fatezoo.envs.fathoming import check_record, configure, held_out_pair
from fatezoo.envs.fathoming.cards import (
    CARD_NAMES,
    CLASS_BIT,
    CLASS_NAMES,
    CTYPE,
    EXPANSION,
    HELD_OUT_PAIRS,
    NUM_BASE_CLASSES,
    PRESETS,
    WARRIOR,
)

SPEC = get_spec("fathoming")
GAMES = 320  # seeded deals per split and option set
HELD_OUT = {frozenset(("PIXIE", "MERFOLK")), frozenset(("HUMAN", "SPECTER")),
            frozenset(("WEREWOLF", "GOLEM")), frozenset(("DRAGON", "GOBLIN"))}


def dealt(split, games=GAMES, seed=11, **options):
    vec = fatezoo.make_vec("fathoming", num_envs=games, seed=seed, num_players=2,
                           split=split, **options)
    vec.reset()
    return vec


def class_pair(kinds) -> tuple[str, str]:
    """A random deck's (focus, splash): the classes of its base Warriors, most copies first."""
    copies = Counter()
    for k in kinds:
        if CTYPE[k] == WARRIOR and not EXPANSION[k]:
            copies[CLASS_NAMES[int(CLASS_BIT[k]).bit_length() - 1]] += 1
    assert len(copies) == 2, copies  # R60: a focus and a splash class
    (focus, n_focus), (splash, n_splash) = copies.most_common()
    assert n_focus >= 10 > 6 >= n_splash
    return focus, splash


def deck_pairs(vec) -> list[tuple[str, str]]:
    return [class_pair(row["deck_list"][p].tolist()) for row in vec.states for p in range(2)]


def test_held_out_pairs_match_every_class_once():
    assert {frozenset(p) for p in HELD_OUT_PAIRS} == HELD_OUT
    assert sorted(c for p in HELD_OUT_PAIRS for c in p) == sorted(CLASS_NAMES[:8])
    assert NUM_BASE_CLASSES == 8


def test_presets_are_train_decks():
    # no preset holds a held-out pair: split=train keeps every preset
    for name, cards in PRESETS.items():
        kinds = [CARD_NAMES.index(c) for c in cards]
        assert held_out_pair(kinds) is None, name


@pytest.mark.parametrize("divine", [False, True])
def test_deals_lie_in_their_split(divine):
    # (a) 320 seeded games per split: train all train, test all test, all both
    for n in testing.player_counts("fathoming"):
        assert n == 2  # R1: the game has two players
        got = {}
        for split in ("train", "test", "all"):
            vec = dealt(split, divine=divine)
            got[split] = Counter(SPEC.setup_split(row) for row in vec.states)
            assert (vec.states["split"] == {"all": SPLIT_ALL, "train": SPLIT_TRAIN,
                                            "test": SPLIT_TEST}[split]).all()
        assert got["train"] == {"train": GAMES}
        assert got["test"] == {"test": GAMES}
        assert set(got["all"]) == {"train", "test"}
        # all: a game holds a test deck with odds 1 - (6/7)^2 = 27%
        assert 0.18 < got["all"]["test"] / GAMES < 0.36


def test_train_decks_draw_every_train_pair_and_test_decks_every_held_out_pair():
    train = Counter(deck_pairs(dealt("train")))
    assert not any(frozenset(p) in HELD_OUT for p in train)
    assert len(train) == 8 * 6  # every focus with each of its 6 train splashes
    test = deck_pairs(dealt("test"))
    games = list(zip(test[::2], test[1::2]))
    assert all(frozenset(a) in HELD_OUT or frozenset(b) in HELD_OUT for a, b in games)
    held = Counter(p for p in test if frozenset(p) in HELD_OUT)
    assert len(held) == 8  # every ordered held-out pair is a test deck's
    both = sum(frozenset(a) in HELD_OUT and frozenset(b) in HELD_OUT for a, b in games)
    assert 0 < both < GAMES * 0.2  # both decks held out: 1 in 13 test games
    seat0 = sum(frozenset(a) in HELD_OUT for a, _ in games)
    assert 0.35 < seat0 / GAMES < 0.72  # seat 0's deck held out: 7 in 13


@pytest.mark.parametrize("split", ["train", "test", "all"])
def test_auto_reset_deals_stay_in_the_split(split):
    # (b) a vector env with max_turns=2 under random legal play: every game it deals anew
    vec = fatezoo.make_vec("fathoming", num_envs=32, seed=5, split=split, max_turns=2)
    _, mask, _ = vec.reset()
    rng = np.random.default_rng(0)
    seen = Counter(SPEC.setup_split(row) for row in vec.states)
    new = 0
    while new < 300:
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in mask])
        _, mask, _, _, term, trunc = vec.step(actions)
        for i in np.flatnonzero(term | trunc):
            check_record(vec.states[i])
            seen[SPEC.setup_split(vec.states[i])] += 1
            new += 1
    if split == "all":
        assert set(seen) == {"train", "test"}
    else:
        assert set(seen) == {split}


@pytest.mark.parametrize("options", [{}, {"divine": True}])
def test_test_games_play_to_the_end(options):
    # (c) random play on test setups: every state checked, every game ended
    report = testing.fuzz("fathoming", 2, games=100, split="test", **options)
    assert report





def test_one_fixed_deck_and_a_random_one():
    # split steers the random deck: train draws a train deck, test a test deck
    train = dealt("train", games=40, decks=("Pixie Swarm", "random"))
    assert all(held_out_pair(row["deck_list"][1].tolist()) is None for row in train.states)
    test = dealt("test", games=40, decks=("random", "Pixie Swarm"))
    assert all(held_out_pair(row["deck_list"][0].tolist()) for row in test.states)
    assert {SPEC.setup_split(row) for row in test.states} == {"test"}


def test_fixed_test_deck():
    # Pixie Swarm with Reef Scout (Merfolk) for Goblin Sneak: Pixie + Merfolk, held out
    deck = [c if c != "Goblin Sneak" else "Reef Scout" for c in PRESETS["Pixie Swarm"]]
    assert held_out_pair([CARD_NAMES.index(c) for c in deck]) == ("PIXIE", "MERFOLK")
    vec = dealt("test", games=4, decks=(deck, "Werewolf Pack"))
    assert {SPEC.setup_split(row) for row in vec.states} == {"test"}
    vec = dealt("all", games=4, decks=("Werewolf Pack", deck))
    assert {SPEC.setup_split(row) for row in vec.states} == {"test"}


def one_line_error(match, **options):
    with pytest.raises(ValueError, match=match) as err:
        configure(**options)
    assert "\n" not in str(err.value)


def test_bad_split_and_fixed_decks_outside_the_split():
    # (e) one-line errors naming the value
    one_line_error(r"split must be one of 'all', 'train', 'test', got 'heldout'", split="heldout")
    one_line_error(r"got None", split=None)
    deck = [c if c != "Goblin Sneak" else "Reef Scout" for c in PRESETS["Pixie Swarm"]]
    one_line_error(r"the card list of player_0 \(player_0\) holds Warriors of the held-out "
                   r"class pair Pixie \+ Merfolk, a test deck; split='train'",
                   decks=(deck, "random"), split="train")
    one_line_error(r"decks 'Pixie Swarm' and 'Werewolf Pack' hold no held-out class pair "
                   r"\(a train setup\); split='test'",
                   decks=("Pixie Swarm", "Werewolf Pack"), split="test")
    # inside the split: accepted
    assert configure(decks=("Pixie Swarm", "Werewolf Pack"), split="train")["split"] == 1
    assert configure(decks=(deck, "Werewolf Pack"), split="test")["split"] == 2
    assert configure(decks=("Pixie Swarm", "random"), split="test")["split"] == 2


def test_check_record_refuses_a_split_out_of_range_or_a_deal_outside_it():
    vec = dealt("test", games=8)
    rec = vec.states[:1].copy()[0]
    check_record(rec)
    rec["split"] = 3
    with pytest.raises(ValueError, match="split"):
        check_record(rec)
    rec["split"] = SPLIT_TRAIN  # a test game marked train
    with pytest.raises(ValueError, match="a train setup under split=train"):
        check_record(rec)
    rec["split"] = SPLIT_ALL
    check_record(rec)
    train = dealt("train", games=8).states[:1].copy()[0]
    train["split"] = SPLIT_TEST
    with pytest.raises(ValueError, match="a test setup under split=test"):
        check_record(train)
