"""ISMCTS: sees only its information set, searches legally, and plays through the arena."""

from __future__ import annotations

import io

import numpy as np
import pytest

import fatezoo
from fatezoo.agents import ISMCTSAgent, make_agent
from fatezoo.envs.core import kernels as K
from fatezoo.envs.core.registry import game_names, get_spec
from fatezoo.training.arena import run_arena
from fatezoo.training.play import play

GAMES = game_names()


def positions(game: str, num_players: int, count: int, seed: int = 0):
    """``count`` mid-game records (each at a real decision) reached by random play."""
    rng = np.random.default_rng(seed)
    vec = fatezoo.make_vec(game, num_envs=count, seed=seed, auto_reset=False,
                           num_players=num_players)
    _, mask, _ = vec.reset()
    stop = rng.integers(5, 150, size=count)
    acts = np.empty(count, np.int64)
    words = np.random.default_rng(seed + 1).integers(1, 2**31, size=(count, 4))
    for t in range(int(stop.max())):
        K.batch_random_actions(mask, words, acts)
        ended = vec.states["terminated"].astype(bool) | vec.states["truncated"].astype(bool)
        acts[(t >= stop) | ended] = -1
        if (acts < 0).all():
            break
        K.batch_step_some(vec.states, acts, vec.mask, np.zeros((count, 6), np.float32),
                          np.zeros(count, np.int8), np.zeros(count, np.int8))
    live = (vec.states["terminated"] == 0) & (vec.states["truncated"] == 0)
    return vec.states[live].copy(), vec.mask[live].copy()


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("num_players", [2, 3])
def test_choices_depend_only_on_the_information_set(game, num_players):
    """Permuting the hidden cards consistently with the viewer's observation changes nothing.

    The other world is the game's own determinization of the true record for the player
    to move (its RNG reseeded too); the agent's move and every root visit count match.
    """
    spec = get_spec(game)
    if num_players > spec.max_players:
        pytest.skip("too many players")
    records, masks = positions(game, num_players, 12)
    rng = np.random.default_rng(7)
    obs_a = np.zeros(spec.obs_size, np.float32)
    obs_b = np.zeros(spec.obs_size, np.float32)
    changed = 0
    for i in range(len(records)):
        truth = records[i:i + 1].copy()
        other = truth.copy()
        viewer = int(truth[0]["current_player"])
        spec.determinize(other[0], viewer, rng)
        K.encode_one(truth, 0, viewer, obs_a)
        K.encode_one(other, 0, viewer, obs_b)
        np.testing.assert_array_equal(obs_a, obs_b)
        changed += truth.tobytes() != other.tobytes()
        a = ISMCTSAgent(game, sims=40, depth=10, seed=3)
        b = ISMCTSAgent(game, sims=40, depth=10, seed=3)
        assert a.act_records(truth, masks[i:i + 1]) == b.act_records(other, masks[i:i + 1])
        np.testing.assert_array_equal(a.last_visits, b.last_visits)
    assert changed >= len(records) // 2, "the resampled worlds should differ from the truth"


def test_visits_sum_to_sims_and_only_on_legal_actions():
    records, masks = positions("fatefell", 2, 6, seed=3)
    agent = ISMCTSAgent("fatefell", sims=64, seed=0)
    actions = agent.act_records(records, masks)
    np.testing.assert_array_equal(agent.last_visits.sum(axis=1), np.full(len(records), 64.0))
    assert (agent.last_visits[masks == 0] == 0).all()
    assert masks[np.arange(len(records)), actions].all()
    for i, a in enumerate(actions):  # the move played is the most visited one
        assert agent.last_visits[i, a] == agent.last_visits[i].max()


def test_same_seed_same_choices_and_the_true_record_is_untouched():
    records, masks = positions("fatefell", 2, 5, seed=4)
    before = records.tobytes()
    first = ISMCTSAgent("fatefell", sims=30, seed=11).act_records(records, masks)
    second = ISMCTSAgent("fatefell", sims=30, seed=11).act_records(records, masks)
    np.testing.assert_array_equal(first, second)
    assert records.tobytes() == before


def test_prior_expands_the_policy_action_first():
    """With ``prior`` > 0 the rollout policy's action at the root (read from the viewer's
    observation with the fixed words 1-4) is the first child expanded, so one simulation
    plays it; without the prior the first child is a uniformly drawn untried action."""
    spec = get_spec("fatefell")
    policy = spec.kernels.policy
    records, masks = positions("fatefell", 2, 12, seed=6)
    obs = np.zeros(spec.obs_size, np.float32)
    differs = 0
    for i in range(len(records)):
        row, mask = records[i:i + 1], masks[i:i + 1]
        K.encode_one(row, 0, int(row[0]["current_player"]), obs)
        want = policy(obs, mask[0], np.array([1, 2, 3, 4], np.int64))
        assert ISMCTSAgent("fatefell", sims=1, prior=1.0, seed=i).act_records(row, mask) == [want]
        without = ISMCTSAgent("fatefell", sims=1, prior=0, seed=i).act_records(row, mask)
        differs += int(without[0] != want)
    assert differs > 0, "without the prior some first expansions should differ"


def test_search_beats_random():
    result = run_arena("fatefell", ["ismcts:sims=50,rollout=random,depth=20", "random"],
                       games=8, seed=5, progress=False)
    assert result["scores"]["ismcts:sims=50,rollout=random,depth=20"]["random"] >= 7


def test_options_and_errors():
    agent = make_agent("ismcts:sims=12,rollout=random,c=0.5,depth=0,seed=4", "fatefell")
    assert (agent.sims, agent.rollout, agent.c, agent.depth) == (12, "random", 0.5, 0)
    default = make_agent("ismcts", "fatefell")
    assert (default.sims, default.rollout, default.depth) == (200, "heuristic",
                                                              get_spec("fatefell").evaluation.rollout_depth)
    with pytest.raises(ValueError, match="unknown option 'foo'"):
        make_agent("ismcts:foo=1", "fatefell")
    with pytest.raises(ValueError, match="sims must be int, got 'x'"):
        make_agent("ismcts:sims=x", "fatefell")
    with pytest.raises(ValueError, match="sims must be an int >= 1, got 0"):
        ISMCTSAgent("fatefell", sims=0)
    with pytest.raises(ValueError, match="rollout must be"):
        ISMCTSAgent("fatefell", rollout="greedy")
    with pytest.raises(ValueError, match="c must be a number >= 0"):
        ISMCTSAgent("fatefell", c=-1.0)
    assert make_agent("ismcts:prior=2.5", "fatefell").prior == 2.5
    assert default.prior == get_spec("fatefell").evaluation.ismcts_prior == 0.0
    assert (make_agent("ismcts", "foretold").prior
            == get_spec("foretold").evaluation.ismcts_prior == 10.0)
    with pytest.raises(ValueError, match="prior must be a finite number >= 0, got -1.0"):
        ISMCTSAgent("fatefell", prior=-1.0)
    assert (make_agent("ismcts", "villainous").prior
            == get_spec("villainous").evaluation.ismcts_prior == 10.0)
    with pytest.raises(TypeError, match="act_records"):
        agent.act_batch(np.zeros((1, 488), np.float32), np.ones((1, 33), np.int8))
    records, masks = positions("fatefell", 2, 2)
    with pytest.raises(ValueError, match="masks must have shape"):
        agent.act_records(records, masks[:, :5])
    with pytest.raises(ValueError, match="unknown agent spec 'mcts'"):
        make_agent("mcts", "fatefell")
    with pytest.raises(ValueError, match="give the checkpoint path"):
        make_agent("ppo:", "fatefell")
    with pytest.raises(FileNotFoundError, match="no checkpoint file"):
        make_agent("ppo:/no/such/model.zip", "fatefell")


def test_play_against_ismcts_opponent():
    out = io.StringIO()
    play("fatefell", seat=1, opponent="ismcts:sims=8", seed=2, stdin=io.StringIO("q\n"),
         stdout=out)
    text = out.getvalue()
    assert "player_0: " in text and "quitting" in text


@pytest.mark.parametrize("game", GAMES)
def test_every_game_plays_search_and_baselines_in_the_arena(game):
    spec = get_spec(game)
    agents = ["ismcts:sims=6,depth=8", "random"] + (["heuristic"] if spec.heuristic else [])
    result = run_arena(game, agents, games=2 * len(agents), seed=1, progress=False,
                       options={"max_turns": 60})
    assert sum(result["per_agent"][a]["games"] for a in agents) == 4 * len(agents)
    assert set(result["ratings"]) == set(agents)
