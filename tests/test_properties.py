"""Property tests: any sequence of legal choices keeps every game sound and replayable."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import fatezoo
from fatezoo.envs.core.registry import get_spec


@settings(max_examples=40, deadline=None)
@given(game=st.sampled_from(fatezoo.GAMES), seed=st.integers(0, 2**31),
       players=st.integers(0, 5), picks=st.lists(st.integers(0, 10**6), max_size=300))
def test_any_legal_choices_keep_the_game_sound(game, seed, players, picks):
    spec = get_spec(game)
    n = spec.min_players + players % (spec.max_players - spec.min_players + 1)
    env = fatezoo.make(game, num_players=n)
    env.reset(seed=seed)
    taken = []
    for pick in picks:
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            break
        legal = env.legal_actions()
        assert legal, "a running game must offer a legal action"
        action = legal[pick % len(legal)]
        env.step(action)
        taken.append(action)
        spec.check_record(env.record)
        obs = env.observe(env.agent_selection)
        assert np.isfinite(obs["observation"]).all()
        assert obs["action_mask"].dtype == np.int8
    returns = env.record["returns"][:n]
    assert abs(float(returns.sum())) < 1e-4
    replay = fatezoo.make(game, num_players=n)
    replay.reset(seed=seed)
    for action in taken:
        replay.step(action)
    assert replay.save_state() == env.save_state()
