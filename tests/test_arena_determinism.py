"""Arena games depend only on (arena seed, game index): not on batching, not on other games.

Every seat of every arena game has its own agent generator stream (``seat_rng_words``), so
game ``g`` plays the same in a batch of 1, 5, 12 or 64, and alone through the AEC env.
"""

from __future__ import annotations

import numpy as np
import pytest

import fatezoo
from fatezoo.agents import HeuristicAgent, ISMCTSAgent, RandomAgent, make_agent
from fatezoo.agents.base import check_rng
from fatezoo.agents.policy import sample_legal
from fatezoo.envs.core.rng import rng_rows
from fatezoo.training.arena import (
    format_result,
    game_seeds,
    make_lineups,
    play_batch,
    play_games,
    replay_game,
    run_arena,
    seat_rng_words,
)
from tests.progress_util import Updates

GAME = "fatefell"
OPTIONS = {"seasons": 1}


def arena_games(specs, games, num_players, seed, batch, options=OPTIONS):
    """Per-game returns of an arena (the games run_arena plays), ``batch`` at a time."""
    agents = [make_agent(s, GAME, num_players=num_players, seed=seed * 1000 + i)
              for i, s in enumerate(specs)]
    table = np.asarray(make_lineups(len(agents), num_players), np.int64)
    seats = table[np.arange(games) % len(table)]
    seeds = game_seeds(seed, games)
    returns, truncated, steps = play_games(GAME, agents, seats, seeds, num_players, options,
                                           batch)
    return agents, seats, seeds, returns, truncated, steps


@pytest.mark.parametrize("num_players", [2, 3])
def test_arena_games_do_not_depend_on_the_batch_size(num_players):
    specs = ["random", "heuristic"]
    runs = {b: arena_games(specs, 64, num_players, seed=3, batch=b) for b in (1, 5, 12, 64)}
    _, seats, seeds, ref, ref_trunc, ref_steps = runs[64]
    assert len(np.unique(ref, axis=0)) > 1  # the games differ: the check has teeth
    for b, (_, _, _, returns, truncated, steps) in runs.items():
        assert np.array_equal(returns, ref), f"batch {b} changed some games"
        assert np.array_equal(truncated, ref_trunc) and np.array_equal(steps, ref_steps)
    # game g replayed alone, on the AEC env, with its seats' streams, is the same game
    agents = runs[64][0]
    for g in (0, 1, 7, 38, 63):
        alone, record = replay_game(GAME, agents, seats[g], seeds[g], num_players, OPTIONS)
        assert np.array_equal(alone, ref[g]), f"game {g} replayed alone differs"
        assert record["seed"] == int(seeds[g]) and record["actions"]
        assert len(record["actions"]) == ref_steps[g]  # the arena's game length is its decisions
        one, _, _ = play_batch(GAME, agents, seats[g:g + 1], seeds[g:g + 1], num_players,
                               OPTIONS)
        assert np.array_equal(one[0], ref[g])


def test_other_rows_do_not_change_a_game():
    """A game shares its batch with other games, or with none: same result."""
    agents = [RandomAgent(0), HeuristicAgent(GAME, 1)]
    seeds = game_seeds(11, 12)
    seats = np.array([(0, 1), (1, 0)] * 6, np.int64)
    together, _, _ = play_batch(GAME, agents, seats, seeds, 2, OPTIONS)
    order = np.array([5, 2, 9, 0, 11, 1])  # another batch composition and order
    mixed, _, _ = play_batch(GAME, agents, seats[order], seeds[order], 2, OPTIONS)
    assert np.array_equal(mixed, together[order])


def test_run_arena_same_result_for_every_batch_size():
    results = [run_arena(GAME, ["random", "heuristic"], games=24, num_players=3, seed=2,
                         batch=b, options=OPTIONS) for b in (1, 7, 24)]
    for res in results[1:]:
        assert res["wins"] == results[0]["wins"] and res["ties"] == results[0]["ties"]
        assert res["ratings"] == results[0]["ratings"]
        assert res["steps"] == results[0]["steps"]
        assert res["game_length"] == results[0]["game_length"]
    _, _, _, _, _, lengths = arena_games(["random", "heuristic"], 24, 3, seed=2, batch=24)
    assert results[0]["steps"] == lengths.sum() and lengths.min() < lengths.max()
    assert results[0]["game_length"] == {"median": float(np.median(lengths)),
                                         "mean": float(lengths.mean()),
                                         "min": int(lengths.min()), "max": int(lengths.max())}


def test_ismcts_arena_does_not_depend_on_the_batch_size():
    specs = ["ismcts:sims=8", "heuristic"]
    runs = [arena_games(specs, 6, 2, seed=4, batch=b) for b in (1, 4, 6)]
    ref = runs[-1][3]
    for run in runs[:-1]:
        assert np.array_equal(run[3], ref)
    agents, seats, seeds = runs[-1][:3]
    alone, _ = replay_game(GAME, agents, seats[3], seeds[3], 2, OPTIONS)
    assert np.array_equal(alone, ref[3])


def test_seat_streams_are_distinct_and_fixed():
    a = seat_rng_words(123, 4)
    assert a.shape == (4, 4) and a.dtype == np.int64
    assert len(np.unique(a, axis=0)) == 4
    assert np.array_equal(a[:3], seat_rng_words(123, 3))  # seat s depends on (seed, s) only
    assert not np.array_equal(a, seat_rng_words(124, 4))
    assert not np.array_equal(a[0], rng_rows(123, 1)[0])  # apart from the game's own stream


def test_rng_rows_are_used_per_row_and_advanced_in_place():
    rng = np.random.default_rng(0)
    masks = (rng.random((9, 33)) < 0.5).astype(np.int8)
    masks[:, 0] = 1
    words = rng_rows(5, 9)
    for agent in (RandomAgent(0), RandomAgent(99)):  # the agent's own seed plays no part
        w = words.copy()
        together = agent.act_batch(np.zeros((9, 1), np.float32), masks, rng=w)
        assert not np.array_equal(w, words)  # advanced in place
        for i in range(9):
            wi = words[i:i + 1].copy()
            alone = agent.act_batch(np.zeros((1, 1), np.float32), masks[i:i + 1], rng=wi)
            assert alone[0] == together[i] and np.array_equal(wi[0], w[i])
    # without rng: the agent's own seeded stream, as before
    assert np.array_equal(RandomAgent(7).act_batch(None, masks),
                          RandomAgent(7).act_batch(None, masks))
    # one observation with its (4,) words
    w1 = words[0].copy()
    assert RandomAgent(0).act(np.zeros(1), masks[0], rng=w1) == together[0]
    assert np.array_equal(w1, w[0])


def test_bad_rng_is_refused_in_one_line():
    masks = np.ones((3, 33), np.int8)
    agent = RandomAgent(0)
    for bad in (np.zeros((3, 4), np.int32), np.zeros((2, 4), np.int64),
                np.zeros((3, 8), np.int64)[:, ::2], [[1, 2, 3, 4]] * 3):
        with pytest.raises(ValueError, match=r"rng must be .*\(3, 4\)"):
            agent.act_batch(None, masks, rng=bad)
    with pytest.raises(ValueError, match="rng must be"):
        check_rng(np.zeros((3, 4), np.int64)[::-1], 3)
    with pytest.raises(ValueError, match=r"rng must be an int64 array of shape \(2, 2, 4\)"):
        play_batch(GAME, [agent, agent], np.array([[0, 1], [1, 0]]), game_seeds(0, 2), 2,
                   OPTIONS, rng=np.zeros((2, 3, 4), np.int64))


def test_ismcts_rows_draw_from_their_own_words():
    vec = fatezoo.make_vec(GAME, num_envs=4, seed=[1, 2, 3, 4], auto_reset=False, **OPTIONS)
    _, mask, _ = vec.reset()
    words = rng_rows(8, 4)
    searcher = ISMCTSAgent(GAME, sims=8, seed=0)
    w = words.copy()
    together = searcher.act_records(vec.states, mask, rng=w)
    for i in (3, 1):
        wi = words[i:i + 1].copy()
        other = ISMCTSAgent(GAME, sims=8, seed=123)
        assert other.act_records(vec.states[i:i + 1], mask[i:i + 1], rng=wi)[0] == together[i]
        assert np.array_equal(wi[0], w[i])


def test_sample_legal_draws_only_legal_actions_in_proportion():
    n = 20000
    probs = np.tile([0.5, 0.2, 0.3, 0.0], (n, 1))
    masks = np.tile(np.array([1, 0, 1, 1], np.int8), (n, 1))
    words = rng_rows(3, n)
    out = np.empty(n, np.int64)
    sample_legal(probs, masks, words, out)
    counts = np.bincount(out, minlength=4)
    assert counts[1] == 0 and counts[3] == 0  # illegal, and legal with probability 0
    assert abs(counts[0] / n - 0.625) < 0.02  # 0.5 / 0.8
    one = np.empty(1, np.int64)
    w = rng_rows(3, n)[17:18].copy()
    sample_legal(probs[:1], masks[:1], w, one)
    assert one[0] == out[17]
    sample_legal(np.zeros((1, 4)), masks[:1], rng_rows(0, 1), one)  # no mass: uniform legal
    assert masks[0, one[0]]


def test_policy_agent_samples_each_row_from_its_own_words(tmp_path):
    pytest.importorskip("sb3_contrib")
    from sb3_contrib import MaskablePPO

    from fatezoo.agents import PolicyAgent
    from fatezoo.training.train_envs import _gym_env

    path = tmp_path / "untrained.zip"
    MaskablePPO("MlpPolicy", _gym_env(GAME, "random", 2, 0, {}), n_steps=16, batch_size=16,
                seed=0, device="cpu").save(path)
    vec = fatezoo.make_vec(GAME, num_envs=8, seed=list(range(8)), auto_reset=False)
    obs, mask, _ = vec.reset()
    words = rng_rows(6, 8)
    sampler = PolicyAgent(path, GAME, deterministic=False, seed=0)
    w = words.copy()
    together = sampler.act_batch(obs, mask, rng=w)
    assert mask[np.arange(8), together].all()
    assert not np.array_equal(w, words)
    other = PolicyAgent(path, GAME, deterministic=False, seed=5)  # its own seed plays no part
    for i in (0, 5):
        wi = words[i:i + 1].copy()
        assert other.act_batch(obs[i:i + 1], mask[i:i + 1], rng=wi)[0] == together[i]
        assert np.array_equal(wi[0], w[i])
    # the untrained policy is near uniform: other words draw other actions somewhere
    draws = {tuple(sampler.act_batch(obs, mask, rng=rng_rows(s, 8))) for s in range(6)}
    assert len(draws) > 1
    greedy = PolicyAgent(path, GAME)  # the most likely action: the words stay as they were
    w = words.copy()
    greedy.act_batch(obs, mask, rng=w)
    assert np.array_equal(w, words)


def test_a_cpu_time_limit_keeps_the_first_whole_seatings_of_the_games_asked():
    """The limit is spent before play starts: one batch plays, cut to whole seatings."""
    specs = ["random", "heuristic"]
    for batch, kept in ((2, 2), (3, 2), (8, 8)):
        cut = run_arena(GAME, specs, games=8, batch=batch, options=OPTIONS,
                        cpu_time_limit=1e-9)
        first = run_arena(GAME, specs, games=kept, batch=2, options=OPTIONS)
        assert cut["games"] == kept and cut["games_asked"] == 8
        assert cut["stopped"] == (kept < 8) and cut["cpu_time_limit"] == 1e-9
        for key in ("wins", "ties", "losses", "outcomes", "steps", "ratings"):
            assert cut[key] == first[key], key
    assert not first["stopped"] and first["cpu_time_limit"] is None
    cut = run_arena(GAME, specs, games=8, batch=2, options=OPTIONS, cpu_time_limit=1e-9)
    assert format_result(cut).startswith("stopped by --cpu-time-limit 1e-09 after 0 CPU s: 2 of "
                                         "the 8 games asked")


def test_a_batch_updates_its_progress_at_every_step_and_counts_each_game_once():
    agents = [make_agent(s, GAME, seed=i) for i, s in enumerate(("random", "heuristic"))]
    seats = np.asarray(make_lineups(2, 2), np.int64)[np.arange(6) % 2]
    progress = Updates()
    *_, lengths = play_batch(GAME, agents, seats, game_seeds(4, 6), 2, OPTIONS, progress)
    assert len(progress.calls) == lengths.max()  # one update per step of the batch
    assert sum(progress.calls) == 6 and progress.calls.count(0) > 0
