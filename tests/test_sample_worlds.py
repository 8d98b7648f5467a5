"""Sampled worlds: the API's arguments, its layout, and a contract check that catches leaks.

The contract itself (``check_sample_worlds``) runs per game and player count in
``test_contract.py``; here it is pointed at samplers broken on purpose, each of which it
must refuse with the message of the property that sampler breaks.
"""

from __future__ import annotations

import numpy as np
import pytest

import fatezoo
from fatezoo.envs.core import kernels as K
from fatezoo.envs.core import testing as T
from fatezoo.envs.core.registry import get_spec

GAME = "fatefell"


def played(steps: int = 20, rows: int = 4):
    """A vector env of ``rows`` games after ``steps`` random moves."""
    vec = fatezoo.make_vec(GAME, num_envs=rows, seed=1, auto_reset=False)
    vec.reset()
    rng = np.random.default_rng(1)
    for _ in range(steps):
        vec.step(np.array([rng.choice(np.flatnonzero(m)) for m in vec.mask]))
    return vec


def _no_op(worlds, seats, words):
    pass


def _rng_only(worlds, seats, words):
    worlds["rng"] = words


def _wrong_seat(worlds, seats, words):
    REAL(worlds, (seats + 1) % worlds["num_players"].astype(np.int64), words)


def _one_world(worlds, seats, words):
    REAL(worlds, seats, np.tile(np.arange(1, 5, dtype=np.int64), (len(worlds), 1)))
    worlds["rng"] = words


REAL = K.determinize_rows


@pytest.mark.parametrize("sampler,match", [
    (_no_op, "kept the true RNG"),
    (_rng_only, "varied in only"),
    (_wrong_seat, "observation of game"),
    (_one_world, "outside the sampler's support"),
])
def test_the_contract_refuses_a_broken_sampler(monkeypatch, sampler, match):
    monkeypatch.setattr(K, "determinize_rows", sampler)
    with pytest.raises(AssertionError, match=match):
        T.check_sample_worlds(GAME, 2, rows=4, samples=200, stops=(3, 30))


def test_samples_per_game_sit_together_and_keep_their_viewers_observation():
    vec = played()
    viewers = (vec.current_player + np.array([0, 1, 0, 1])) % 2
    worlds = vec.sample_worlds(viewers, rng=3, samples=5)
    assert worlds.shape == (20,) and worlds.dtype == get_spec(GAME).state_dtype
    seen = vec.observe(viewers)
    obs = np.zeros((20, vec.obs_size), np.float32)
    K.batch_encode(worlds, np.repeat(viewers, 5), obs)
    np.testing.assert_array_equal(obs, np.repeat(seen, 5, axis=0))
    assert len({w.tobytes() for w in worlds}) == 20  # every sample redraws
    # an int seed: record j depends on (seed, j) only; a Generator draws in order
    np.testing.assert_array_equal(worlds, vec.sample_worlds(viewers, rng=3, samples=5))
    a = vec.sample_worlds(viewers, rng=np.random.default_rng(4))
    b = vec.sample_worlds(viewers, rng=np.random.default_rng(4))
    np.testing.assert_array_equal(a, b)


def test_sample_world_is_the_kernel_ismcts_searches_with():
    """The AEC env's sample equals the spec's determinize (ISMCTS's kernel), same words."""
    env = fatezoo.make(GAME)
    env.reset(seed=2)
    for a in (0, 1, 2, 3):
        env.step(env.legal_actions()[a % len(env.legal_actions())])
    before = env.save_state()
    world = env.sample_world("player_1", seed=np.random.default_rng(9))
    other = env.states.copy()
    get_spec(GAME).determinize(other[0], 1, np.random.default_rng(9))
    assert world.tobytes() == other.tobytes()
    assert env.save_state() == before
    sim = fatezoo.make(GAME)
    sim.reset(seed=0)
    sim.load_state(world.tobytes())  # a legal game that plays on
    sim.step(sim.legal_actions()[0])


@pytest.mark.parametrize("viewers,match", [
    (2, r"viewer of game 0 must be a seat in \[0, 2\), got 2"),
    (-1, r"viewer of game 0 must be a seat in \[0, 2\), got -1"),
    ([0, 1], r"viewers must be one seat or \(4,\) seats"),
    (0.5, r"viewers must be one seat or \(4,\) seats"),
    ("player_0", r"viewers must be one seat or \(4,\) seats"),
])
def test_bad_viewers_fail_in_one_line_naming_them(viewers, match):
    with pytest.raises(ValueError, match=match):
        played(steps=1).sample_worlds(viewers, rng=0)


def test_bad_arguments_fail_in_one_line():
    vec = played(steps=1)
    with pytest.raises(TypeError, match="rng must be a numpy Generator, a non-negative int"):
        vec.sample_worlds(0, rng=-3)
    with pytest.raises(TypeError, match="rng must be"):
        vec.sample_worlds(0, rng="seed")
    with pytest.raises(ValueError, match="samples must be an int >= 1, got 0"):
        vec.sample_worlds(0, rng=0, samples=0)
    with pytest.raises(RuntimeError, match="call reset"):
        fatezoo.make_vec(GAME, num_envs=2).sample_worlds(0)
    env = fatezoo.make(GAME)
    with pytest.raises(RuntimeError, match="call reset"):
        env.sample_world("player_0", seed=0)
    env.reset(seed=0)
    for agent in ("player_2", 0, ["player_0"]):
        with pytest.raises(ValueError, match=r"agent must be one of \['player_0', 'player_1'\]"):
            env.sample_world(agent, seed=0)


def test_ended_games_are_sampled_too():
    """An ended game's hidden cards stay hidden: its samples keep the viewer's view."""
    vec = fatezoo.make_vec(GAME, num_envs=8, seed=0, auto_reset=False, max_turns=6)
    vec.reset()
    rng = np.random.default_rng(0)
    while not (vec.states["terminated"] | vec.states["truncated"]).all():
        vec.step(np.array([rng.choice(np.flatnonzero(m)) for m in vec.mask]))
    worlds = vec.sample_worlds(0, rng=1)
    obs = np.zeros((8, vec.obs_size), np.float32)
    K.batch_encode(worlds, np.zeros(8, np.int64), obs)
    np.testing.assert_array_equal(obs, vec.observe(np.zeros(8, np.int64)))
    other = vec.clone()
    other.load_states(worlds.tobytes())
