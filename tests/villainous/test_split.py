"""Held-out setups (RULES.md "Held-out setups (`split`)"): seats 0 and 1 Yzma and Ratigan.

``SPEC.setup_split`` (``checks.setup_split``, written apart from the reset kernel) is the
oracle: a ``split="train"`` env never deals a setup it calls "test", a ``split="test"`` env
only those, and ``split="all"`` deals exactly the games it dealt before the option existed.
"""

from __future__ import annotations

import numpy as np
import pytest

import fatezoo
from fatezoo.envs.core import kernels as K
from fatezoo.envs.core import testing
from fatezoo.envs.core.rng import rng_rows
from fatezoo.envs.core.state import SPLIT_ALL, SPLIT_TEST, SPLIT_TRAIN
from fatezoo.envs.villainous import SPEC, check_record, configure, pair_split
from fatezoo.envs.villainous.state import RATIGAN, SCAR, YZMA

COUNTS = range(SPEC.min_players, SPEC.max_players + 1)
CODES = {"all": SPLIT_ALL, "train": SPLIT_TRAIN, "test": SPLIT_TEST}


def deal(n, split, games=300, seed=None, **options):
    """The records of ``games`` fresh deals of ``n`` players under ``split``."""
    vec = fatezoo.make_vec("villainous", num_envs=games, seed=n if seed is None else seed,
                           num_players=n, split=split, **options)
    vec.reset()
    return vec.states


def splits(states):
    return [SPEC.setup_split(rec) for rec in states]


def pairs(states):
    """How often each (seat 0, seat 1) villain pair was dealt, as a 3 x 3 table."""
    first, second = states["villain"][:, 0].astype(int), states["villain"][:, 1].astype(int)
    return np.bincount(first * 3 + second, minlength=9).reshape(3, 3)


def test_the_oracle_calls_exactly_the_yzma_ratigan_seatings_test():
    test = {(a, b) for a in range(3) for b in range(3) if pair_split(a, b) == "test"}
    assert test == {(YZMA, RATIGAN), (RATIGAN, YZMA)}  # 2 of the 9 pairs: 22%


@pytest.mark.parametrize("n", COUNTS)
def test_each_split_deals_only_its_setups(n):
    train, test, every = deal(n, "train"), deal(n, "test"), deal(n, "all")
    assert set(splits(train)) == {"train"}
    assert set(splits(test)) == {"test"}
    assert set(splits(every)) == {"train", "test"}
    assert (train["split"] == SPLIT_TRAIN).all() and (test["split"] == SPLIT_TEST).all()
    assert (every["split"] == SPLIT_ALL).all()
    # train still deals every other pair, test both seatings; the other seats stay free
    assert (pairs(train) > 0).sum() == 7 and (pairs(test) > 0).sum() == 2
    for s in range(2, n):
        assert set(test["villain"][:, s].tolist()) == {SCAR, YZMA, RATIGAN}
    for rec in train[:8]:
        check_record(rec)
    for rec in test[:8]:
        check_record(rec)


def test_train_draws_its_seven_pairs_uniformly_and_all_keeps_its_share():
    table = pairs(deal(2, "train", games=7000, seed=11))
    assert table[YZMA, RATIGAN] == table[RATIGAN, YZMA] == 0
    counts = table.ravel()[table.ravel() > 0]
    assert counts.size == 7 and abs(counts - 1000).max() < 130  # 1,000 each, sd ~29
    every = splits(deal(2, "all", games=7000, seed=11))
    assert 0.19 < every.count("test") / 7000 < 0.25  # 2/9 = 22.2%


@pytest.mark.parametrize("split", ["train", "test"])
def test_a_pinned_seat_draws_the_other_within_the_split(split):
    states = deal(3, split, villains=["yzma", "random", "random"])
    assert (states["villain"][:, 0] == YZMA).all()
    second = set(states["villain"][:, 1].tolist())
    assert second == ({SCAR, YZMA} if split == "train" else {RATIGAN})
    assert set(splits(states)) == {split}


@pytest.mark.parametrize("n,split", [(2, "train"), (2, "test"), (4, "train"), (6, "test")])
def test_auto_resets_deal_from_the_split(n, split):
    b = 32
    vec = fatezoo.make_vec("villainous", num_envs=b, seed=7, num_players=n, split=split,
                           max_turns=2)
    _, mask, _ = vec.reset()
    assert set(splits(vec.states)) == {split}
    rng = rng_rows(8, b)
    actions = np.empty(b, np.int64)
    dealt = 0
    for _ in range(300):
        K.batch_random_actions(mask, rng, actions)
        _, mask, _, _, term, trunc = vec.step(actions, copy=False)
        for i in np.flatnonzero(term | trunc):
            assert SPEC.setup_split(vec.states[i]) == split
            assert vec.states["turn"][i] == 0  # a newly dealt game
            check_record(vec.states[i])
            dealt += 1
    assert dealt >= 100


@pytest.mark.parametrize("n", [2, 5])
def test_test_setups_play_to_the_end_and_pass_the_record_checks(n):
    out = testing.fuzz("villainous", n, games=100, seed=n, split="test")
    assert out["games"] == 100 and out["terminated"] > 0


def test_spaces_are_the_same_in_every_split():
    envs = {s: fatezoo.make("villainous", num_players=3, split=s) for s in CODES}
    for env in envs.values():
        assert env.observation_space("player_0") == envs["all"].observation_space("player_0")
        assert env.action_space("player_0") == envs["all"].action_space("player_0")
        assert env.state_space == envs["all"].state_space


@pytest.mark.parametrize("bad", ["Test", "validation", "", None, 1, True, ("train",)])
def test_a_bad_split_is_a_one_line_error_naming_it(bad):
    with pytest.raises(ValueError) as err:
        configure(split=bad)
    msg = str(err.value)
    assert "\n" not in msg and repr(bad) in msg and "split must be one of" in msg


@pytest.mark.parametrize("n,villains,split", [
    (2, "scar", "test"),
    (3, "yzma", "test"),
    (2, ["yzma", "ratigan"], "train"),
    (4, ["ratigan", "yzma", "random", "random"], "train"),
    (2, ["scar", "random"], "test"),
    (3, ["random", "scar", "yzma"], "test"),
])
def test_a_pinned_setup_outside_the_split_is_a_one_line_error(n, villains, split):
    with pytest.raises(ValueError) as err:
        SPEC.options(num_players=n, villains=villains, split=split)
    msg = str(err.value)
    assert "\n" not in msg and repr(villains) in msg and f"split={split!r}" in msg


@pytest.mark.parametrize("villains,split", [
    ("scar", "train"), ("random", "test"), (["yzma", "random"], "test"),
    (["ratigan", "yzma"], "test"), (["yzma", "yzma"], "train"), (["random", "scar"], "train"),
])
def test_a_pinned_setup_inside_the_split_is_accepted(villains, split):
    assert configure(villains=villains, split=split)["split"] == CODES[split]


def test_check_record_refuses_a_bad_split_and_a_setup_outside_it():
    rec = deal(2, "test", games=4)[0].copy()
    check_record(rec)
    for bad in (3, -1, 127):
        rec2 = rec.copy()
        rec2["split"] = bad
        with pytest.raises(ValueError, match="split must be in") as err:
            check_record(rec2)
        assert "\n" not in str(err.value)
    rec2 = rec.copy()
    rec2["split"] = SPLIT_TRAIN  # a Yzma / Ratigan seating is no train setup
    with pytest.raises(ValueError, match="villain must be a train setup"):
        check_record(rec2)
    rec2["split"] = SPLIT_ALL
    check_record(rec2)


def test_a_saved_state_loads_only_into_an_env_of_its_split():
    env = fatezoo.make("villainous", split="test")
    env.reset(seed=1)
    data = env.save_state()
    fatezoo.make("villainous", split="test").load_state(data)
    with pytest.raises(ValueError, match="split=2, this env has split=1"):
        fatezoo.make("villainous", split="train").load_state(data)
