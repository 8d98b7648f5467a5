"""Mixed player counts in one vector env: each game is the game of a single-count env.

``make_vec(game, num_envs=B, num_players=[...])`` (one count per game) or
``num_players={count: weight}`` (drawn at each reset); every game of every multi-count
game is compared, record for record, with the same game of a ``num_players=n`` env.
"""

from __future__ import annotations

import numpy as np
import pytest

import fatezoo
from fatezoo.envs.core.registry import get_spec

MULTI = [g for g in fatezoo.GAMES if get_spec(g).max_players > get_spec(g).min_players]
B = 12


def counts_of(game: str) -> list[int]:
    spec = get_spec(game)
    return list(range(spec.min_players, spec.max_players + 1))


def arg(game: str, mode: str):
    counts = counts_of(game)
    if mode == "rows":
        return [counts[(j * 7) % len(counts)] for j in range(B)]
    return {n: 1.0 for n in counts}


@pytest.mark.parametrize("mode", ["rows", "draw"])
@pytest.mark.parametrize("game", MULTI)
def test_every_game_is_the_single_count_game_of_the_same_seed(game, mode):
    counts = counts_of(game)
    # "draw": short games, so that they end (truncated) and auto-reset within the run
    short = {"max_turns": 4} if mode == "draw" else {}
    mix = fatezoo.make_vec(game, num_envs=B, seed=5, num_players=arg(game, mode), **short)
    obs, mask, player, seats = mix.reset()
    assert set(seats.tolist()) == set(counts), "every count should occur in this batch"
    single = {n: fatezoo.make_vec(game, num_envs=B, seed=5, num_players=n, **short)
              for n in counts}
    first = {n: single[n].reset() for n in counts}
    for n in counts:
        sel = seats == n
        np.testing.assert_array_equal(obs[sel], first[n][0][sel])
        np.testing.assert_array_equal(mask[sel], first[n][1][sel])
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(200):
        acts = {n: (rng.random(single[n].mask.shape) * single[n].mask).argmax(1)
                for n in counts}
        out = mix.step(np.array([acts[int(seats[j])][j] for j in range(B)]))
        assert len(out) == 7
        np.testing.assert_array_equal(out[6], seats)  # an auto-reset keeps the count
        assert out[3].shape == (B, max(counts))
        for n in counts:
            ref = single[n].step(acts[n])
            sel = seats == n
            for k in (0, 1, 2, 4, 5):
                np.testing.assert_array_equal(out[k][sel], ref[k][sel])
            np.testing.assert_array_equal(out[3][sel][:, :n], ref[3][sel])
            assert not out[3][sel][:, n:].any(), "absent seats get reward 0"
            assert mix.states[sel].tobytes() == single[n].states[sel].tobytes()
        ended += int((out[4] | out[5]).sum())
    assert ended > 0 or mode == "rows"


@pytest.mark.parametrize("game", MULTI)
def test_each_observation_marks_the_seats_of_its_game(game):
    spec = get_spec(game)
    mix = fatezoo.make_vec(game, num_envs=B, seed=1, num_players=arg(game, "rows"))
    obs, _, _, seats = mix.reset()
    layout = spec.obs_layout
    name = "num_players" if "num_players" in layout else "seats"
    part = obs[:, layout[name]]
    for j in range(B):
        n = int(seats[j])
        want = np.zeros(part.shape[1], np.float32)
        if name == "num_players":
            want[n - spec.min_players] = 1.0
        else:
            want[:n] = 1.0
        np.testing.assert_array_equal(part[j], want)


def test_drawn_counts_depend_only_on_the_seed_and_the_game_index():
    weights = {2: 1.0, 3: 2.0, 4: 1.0}
    a = fatezoo.make_vec("fatefell", num_envs=64, seed=3, num_players=weights)
    b = fatezoo.make_vec("fatefell", num_envs=16, seed=3, num_players=weights)
    seats_a, seats_b = a.reset()[3], b.reset()[3]
    np.testing.assert_array_equal(seats_a[:16], seats_b)
    assert np.bincount(seats_a, minlength=5)[3] > np.bincount(seats_a, minlength=5)[2]
    again = a.reset(seed=4)[3]
    assert (again != seats_a).any(), "a reset with another seed redraws the counts"
    np.testing.assert_array_equal(a.reset(seed=3)[3], seats_a)
    zero = fatezoo.make_vec("fatefell", num_envs=32, seed=3, num_players={2: 0, 4: 1})
    assert (zero.reset()[3] == 4).all(), "a count of weight 0 is never drawn"


def test_save_load_observe_and_sample_worlds_follow_each_games_count():
    mix = fatezoo.make_vec("villainous", num_envs=6, seed=2, num_players=[2, 3, 4, 5, 6, 2])
    mix.reset()
    for _ in range(10):
        mix.step((np.random.default_rng(0).random(mix.mask.shape) * mix.mask).argmax(1))
    saved = mix.save_states()
    other = fatezoo.make_vec("villainous", num_envs=6, num_players={n: 1 for n in range(2, 7)})
    other.load_states(saved)
    np.testing.assert_array_equal(other.row_players, [2, 3, 4, 5, 6, 2])
    assert other.save_states() == saved
    to_move = mix.current_player
    np.testing.assert_array_equal(other.observe(to_move), mix.observe(to_move))
    with pytest.raises(ValueError, match=r"\(6,\) seats in \[0, its game's seats\)"):
        mix.observe(np.array([2, 0, 0, 0, 0, 0]))
    worlds = mix.sample_worlds(mix.row_players - 1, rng=0)
    np.testing.assert_array_equal(worlds["num_players"], [2, 3, 4, 5, 6, 2])
    with pytest.raises(ValueError, match="viewer of game 0 must be a seat in \\[0, 2\\), got 2"):
        mix.sample_worlds(2, rng=0)
    two_three = fatezoo.make_vec("villainous", num_envs=6, num_players={2: 1, 3: 1})
    with pytest.raises(ValueError, match=r"saved state 2 has num_players=4, this env plays "
                                         r"\[2, 3\]"):
        two_three.load_states(saved)


@pytest.mark.parametrize("value,match", [
    ([2, 3], r"num_players must be an int, 4 ints \(one per game\) or \{count: weight\}, "
             r"got 2 values"),
    ([2, 3, 5, 2], r"each player count must be an int in \[2, 4\], got 5"),
    ([2, 3, 2.0, 2], r"each player count must be an int in \[2, 4\], got 2.0"),
    ({}, "num_players weights must name at least one count"),
    ({2: 0, 3: 0}, "num_players weights must not all be 0"),
    ({2: -1.0}, "the weight of 2 players must be a finite number >= 0, got -1.0"),
    ({2: float("nan")}, "the weight of 2 players must be a finite number >= 0, got nan"),
    ({7: 1.0}, r"each player count must be an int in \[2, 4\], got 7"),
])
def test_bad_mixed_counts_fail_in_one_line_naming_the_value(value, match):
    with pytest.raises(ValueError, match=match):
        fatezoo.make_vec("fatefell", num_envs=4, num_players=value)


def test_one_count_env_keeps_its_six_outputs():
    vec = fatezoo.make_vec("fatefell", num_envs=4, seed=0, num_players=3)
    assert len(vec.reset()) == 3 and not vec.mixed
    assert len(vec.step(vec.mask.argmax(1))) == 6
    np.testing.assert_array_equal(vec.row_players, [3, 3, 3, 3])
