"""Held-out setups (RULES.md section 20): the ``split`` option deals train or test setups only.

A setup is the content the rules text puts back in the box: the nightmare out of the game and
the 3 grey miracles out of it. ``SPEC.setup_split`` (the oracle, written apart from the reset
kernel) reads them from a dealt record; these tests hold the kernel's deals to it.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import numpy as np
import pytest

import fatezoo
from fatezoo.envs.core import testing
from fatezoo.envs.core.state import SPLIT_ALL, SPLIT_TEST, SPLIT_TRAIN
from fatezoo.envs.forgotten_city import SPEC, check_record, configure
from fatezoo.envs.forgotten_city.state import (
    GREY_OUT,
    MIR_TYPE,
    NUM_GREY,
    NUM_NM,
    NUM_WHITE,
    STATE_DTYPE,
    TEST_SETUPS,
    TRAIN_SETUPS,
)

GAME = "forgotten_city"
COUNTS = (2, 3, 4)


def _setups(states) -> Counter:
    """How many of the dealt records ``setup_split`` calls train and test."""
    return Counter(SPEC.setup_split(rec) for rec in states)


def _content(rec) -> tuple:
    """A dealt game's setup: the nightmare out and the grey types out, sorted."""
    return int(rec["nm_out"]), tuple(sorted(int(MIR_TYPE[g]) for g in rec["gout"].tolist()))


def test_the_split_rule_tables_a_quarter_of_the_setups_as_test():
    # 7 nightmares x C(8, 3) grey sets; test: nightmare type + grey types a multiple of 4
    grey_types = range(int(MIR_TYPE[NUM_WHITE]), int(MIR_TYPE[NUM_WHITE]) + NUM_GREY)
    every = [(o, g) for o in range(NUM_NM) for g in combinations(grey_types, GREY_OUT)]
    test = [s for s in every if (s[0] + sum(s[1])) % 4 == 0]
    assert (len(every), len(test)) == (392, 98)
    assert (len(TRAIN_SETUPS), len(TEST_SETUPS)) == (294, 98)
    assert sorted(TRAIN_SETUPS.tolist() + TEST_SETUPS.tolist()) == list(range(392))
    # every nightmare and every grey tile is out of the game in some train and some test setups
    assert {o for o, _ in test} == set(range(NUM_NM))
    assert {t for _, g in test for t in g} == set(grey_types)


@pytest.mark.parametrize("n", COUNTS)
def test_each_split_deals_only_its_setups(n):
    seen = {}
    for split in ("train", "test", "all"):
        vec = fatezoo.make_vec(GAME, num_envs=320, seed=7 + n, num_players=n, split=split)
        vec.reset()
        got = _setups(vec.states)
        seen[split] = {_content(rec) for rec in vec.states}
        for rec in vec.states[:16]:
            check_record(rec)
        if split == "all":
            assert got["train"] > 0 and got["test"] > 0, got
            assert 0.15 < got["test"] / 320 < 0.35, got
        else:
            assert got == {split: 320}, got
    assert not seen["train"] & seen["test"]
    assert len(seen["train"]) > 150 and len(seen["test"]) > 80  # many setups, not a few


@pytest.mark.parametrize("split", ["train", "test"])
def test_auto_reset_deals_from_the_split(split):
    n_envs, rng = 64, np.random.default_rng(5)
    vec = fatezoo.make_vec(GAME, num_envs=n_envs, seed=11, num_players=3, split=split,
                           max_turns=12)
    _, mask, _ = vec.reset()
    assert _setups(vec.states) == {split: n_envs}
    dealt = 0
    for _ in range(150):
        pick = rng.random(mask.shape) * mask  # a uniform legal action per game
        _, mask, _, _, term, trunc = vec.step(pick.argmax(1))
        new = np.flatnonzero(term | trunc)  # dealt anew by the auto-reset
        assert _setups(vec.states[new]) == ({split: len(new)} if len(new) else {})
        assert (vec.states["split"] == {"train": SPLIT_TRAIN, "test": SPLIT_TEST}[split]).all()
        dealt += len(new)
    assert dealt > 300


@pytest.mark.parametrize("n", COUNTS)
def test_test_setups_play_to_the_end_under_the_invariants(n):
    # fuzz raises on the first broken invariant; every game ends by the rules (R8), none cut
    report = testing.fuzz(GAME, n, games=100, seed=n, split="test")
    assert (report["games"], report["terminated"], report["truncated"]) == (100, 100, 0)


def test_split_all_is_the_default_deal():
    a = fatezoo.make_vec(GAME, num_envs=64, seed=3)
    b = fatezoo.make_vec(GAME, num_envs=64, seed=3, split="all")
    a.reset()
    b.reset()
    assert (a.states["split"] == SPLIT_ALL).all() and (b.states["split"] == SPLIT_ALL).all()
    assert a.states.tobytes() == b.states.tobytes()
    # train and test deal other games from the same seed; the map and track draws come first
    c = fatezoo.make_vec(GAME, num_envs=64, seed=3, split="test")
    c.reset()
    assert (c.states["tile_at"] == a.states["tile_at"]).all()
    assert (c.states["track_mon"] == a.states["track_mon"]).all()


@pytest.mark.parametrize("value", ["held-out", "TEST", 1, None, True])
def test_bad_split_is_a_one_line_error_naming_it(value):
    with pytest.raises(ValueError) as e:
        configure(split=value)
    msg = str(e.value)
    assert "\n" not in msg and repr(value) in msg and "'train'" in msg
    with pytest.raises(ValueError, match="split"):
        fatezoo.make_vec(GAME, num_envs=2, seed=0, split=value)


def test_record_refuses_a_split_out_of_range():
    vec = fatezoo.make_vec(GAME, num_envs=1, seed=0, split="train")
    vec.reset()
    rec = vec.states[0].copy()
    check_record(rec)
    for bad in (3, -1):
        rec["split"] = bad
        with pytest.raises(ValueError, match=r"^split must be in \[0, 2\]") as e:
            check_record(rec)
        assert "\n" not in str(e.value)


def test_spaces_and_record_layout_do_not_depend_on_the_split():
    shapes = set()
    for split in ("all", "train", "test"):
        vec = fatezoo.make_vec(GAME, num_envs=2, seed=1, split=split)
        obs, mask, _ = vec.reset()
        shapes.add((obs.shape, mask.shape, vec.states.dtype))
    assert shapes == {((2, SPEC.obs_size), (2, SPEC.num_actions), STATE_DTYPE)}
    assert SPEC.option_defaults == {"split": "all"}
