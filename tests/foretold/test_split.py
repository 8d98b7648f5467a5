"""Foretold's held-out setups (option ``split``, RULES.md "Held-out setups"): a train env
never deals a setup that ``setup_split`` calls test and the reverse, at every player count,
with and without Fatesworn, after auto-resets too; ``split="all"`` deals today's games."""

from __future__ import annotations

import numpy as np
import pytest

import fatezoo
from fatezoo.envs.core import kernels as K
from fatezoo.envs.core import testing
from fatezoo.envs.core.rng import rng_rows
from fatezoo.envs.core.state import SPLIT_ALL, SPLIT_TEST, SPLIT_TRAIN
from fatezoo.envs.foretold import SPEC, check_record, configure
from fatezoo.envs.foretold.cards import C_COST, C_FATE, C_NAMES, T_NAMES
from fatezoo.envs.foretold.rules.reset import HELD_CARD, HELD_TILE

GAME = "foretold"
COUNTS = range(SPEC.min_players, SPEC.max_players + 1)
DEALS = 320  # seeded deals per player count and split


def dealt(num_players, split, seed=1, num_envs=DEALS, **options):
    vec = fatezoo.make_vec(GAME, num_envs=num_envs, seed=seed, num_players=num_players,
                           split=split, **options)
    vec.reset()
    return vec.states


def classes(states) -> list:
    return [SPEC.setup_split(rec) for rec in states]


def top(rec, deck, fate=0) -> int:
    n = int(rec[f"{deck}_n"][fate])
    return int(rec[deck][fate, n - 1])


def test_held_out_cards_are_the_passive_rooms_and_each_fates_cost_3_cards():
    assert [T_NAMES[t] for t in np.flatnonzero(HELD_TILE)] == ["Armory", "Vault",
                                                                "Healing Spring"]
    held = np.flatnonzero(HELD_CARD)
    assert (C_COST[held] == 3).all() and (C_FATE[held] < 4).all()
    # one base card per Fate, and one Fatesworn card of each Fate's own
    assert sorted(C_FATE[held].tolist()) == [0, 0, 1, 1, 2, 2, 3, 3]
    symbol_cost_3 = [k for k in range(len(C_NAMES)) if C_FATE[k] == 4 and C_COST[k] == 3]
    assert symbol_cost_3 and not HELD_CARD[symbol_cost_3].any()


@pytest.mark.parametrize("fatesworn", [False, True])
@pytest.mark.parametrize("n", COUNTS)
def test_each_split_deals_only_its_setups(n, fatesworn):
    train = classes(dealt(n, "train", fatesworn=fatesworn))
    test = classes(dealt(n, "test", fatesworn=fatesworn))
    everything = classes(dealt(n, "all", fatesworn=fatesworn))
    assert train == ["train"] * DEALS
    assert test == ["test"] * DEALS
    share = everything.count("test") / DEALS
    # RULES.md: 23% of the setups without Fatesworn, 28% with it
    assert 0.15 < share < 0.36, share


def test_split_field_is_the_option():
    for split, code in (("all", SPLIT_ALL), ("train", SPLIT_TRAIN), ("test", SPLIT_TEST)):
        states = dealt(2, split, num_envs=4)
        assert (states["split"] == code).all()
        for rec in states:
            check_record(rec)
    assert configure()["split"] == SPLIT_ALL


def test_classifier_reads_the_opening():
    rec = dealt(2, "train", num_envs=1)[0].copy()
    assert SPEC.setup_split(rec) == "train"
    # a Vault brought to the top of the Tile Deck makes it a test setup
    tiles = rec["t_deck"][0, :rec["t_deck_n"][0]]
    i = int(np.flatnonzero(tiles == T_NAMES.index("Vault"))[0])
    tiles[i], tiles[-1] = tiles[-1], tiles[i]
    assert T_NAMES[top(rec, "t_deck")] == "Vault"
    assert SPEC.setup_split(rec) == "test"
    # Grace's Relic Cost 3 card on top of the Grace Fate Deck: test; on the train deal, the
    # Fatesworn-symbol cost 3 cards are not held out (Fatesworn Fate Decks)
    rec = dealt(2, "train", num_envs=1, fatesworn=True)[0].copy()
    grace = rec["c_deck"][1, :rec["c_deck_n"][1]]
    for k in np.unique(grace):
        if C_COST[k] == 3:
            i = int(np.flatnonzero(grace == k)[0])
            grace[i], grace[-1] = grace[-1], grace[i]
            assert SPEC.setup_split(rec) == ("test" if C_FATE[k] == 1 else "train")


@pytest.mark.parametrize("n", COUNTS)
def test_auto_reset_deals_stay_in_the_split(n):
    for split in ("train", "test"):
        vec = fatezoo.make_vec(GAME, num_envs=64, seed=7, num_players=n, split=split,
                               max_turns=2)
        _, mask, _ = vec.reset()
        rng = rng_rows(11, 64)
        actions = np.empty(64, np.int64)
        deals = 0
        while deals < 300:
            K.serial_random_actions(mask, rng, actions)
            _, mask, _, _, term, trunc = vec.step(actions)
            for i in np.flatnonzero(term | trunc):
                assert int(vec.states["turn"][i]) == 0
                assert SPEC.setup_split(vec.states[i]) == split
                deals += 1


@pytest.mark.parametrize("n,games", [(2, 100), (3, 30), (4, 30)])
def test_test_setups_play_to_the_end(n, games):
    # random play on test setups with the other options at their defaults, check_record
    # on one running game every step and on every game at the end (the contract fuzz plays
    # them with every option on, sampling four games a step)
    report = testing.fuzz(GAME, n, games=games, split="test", sample_rows=1)
    assert report["games"] == games
    assert report["terminated"] + report["truncated"] == games and report["terminated"] > 0


@pytest.mark.parametrize("bad", ["holdout", "Train", 1, None])
def test_bad_split_is_a_one_line_error_naming_it(bad):
    for make in (lambda: configure(split=bad),
                 lambda: fatezoo.make_vec(GAME, num_envs=2, split=bad)):
        with pytest.raises(ValueError) as err:
            make()
        assert "\n" not in str(err.value) and repr(bad) in str(err.value)


def test_options_pin_nothing_the_split_draws():
    # the split restricts only the shuffled openings, so every option goes with every split
    for split in ("train", "test"):
        states = dealt(2, split, num_envs=32, fatesworn=True, two_player_variant=True)
        assert classes(states) == [split] * 32


def test_check_record_refuses_a_split_out_of_range():
    rec = dealt(2, "test", num_envs=1)[0].copy()
    for bad in (3, -1):
        rec["split"] = bad
        with pytest.raises(ValueError) as err:
            check_record(rec)
        assert "split" in str(err.value) and str(bad) in str(err.value)
        assert "\n" not in str(err.value)


def test_a_save_loads_only_into_an_env_of_its_split():
    train = fatezoo.make_vec(GAME, num_envs=2, seed=4, split="train")
    train.reset()
    test = fatezoo.make_vec(GAME, num_envs=2, seed=4, split="test")
    test.reset()
    with pytest.raises(ValueError, match="split") as err:
        test.load_states(train.save_states())
    assert "\n" not in str(err.value)
    again = fatezoo.make_vec(GAME, num_envs=2, seed=9, split="train")
    again.load_states(train.save_states())
    assert again.states.tobytes() == train.states.tobytes()
