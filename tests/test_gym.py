"""The single-agent gymnasium env, always reached the way users reach it: gymnasium.make."""

import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import fatezoo
from fatezoo.envs.core.gym_env import GymEnv
from fatezoo.envs.core.raster import rasterize

ID = "fatezoo/Fatefell-v0"


def test_make_then_render_keeps_gymnasiums_spec():
    env = gymnasium.make(ID, render_mode="ansi")
    assert env.spec.id == ID and env.unwrapped.spec.id == ID
    assert env.unwrapped.game_spec.name == "fatefell"
    env.reset(seed=0)
    text = env.render()
    assert text.startswith("Fatefell  season 1/4")


@pytest.mark.parametrize("mode", ["ansi", "rgb_array"])
def test_render_before_reset_is_a_clear_error(mode):
    env = gymnasium.make(ID, render_mode=mode, disable_env_checker=True)
    with pytest.raises(RuntimeError, match="reset"):
        env.unwrapped.render()


def test_rgb_array_shows_the_learners_view():
    env = gymnasium.make(ID, render_mode="rgb_array", num_players=3, seat=1)
    env.reset(seed=0)
    img = env.render()
    u = env.unwrapped
    assert img.dtype == np.uint8 and img.shape[2] == 3
    assert np.array_equal(img, rasterize(u.game_spec.render_svg(u._game.record, 1)))
    assert not np.array_equal(img, rasterize(u.game_spec.render_svg(u._game.record, None)))


def test_an_illegal_action_ends_the_episode_and_the_env_waits_for_reset():
    env = GymEnv("fatefell", seat=0)
    obs, _ = env.reset(seed=1)
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = env._game.save()
    obs, reward, term, trunc, info = env.step(bad)
    assert (reward, term, trunc, info["illegal_action"]) == (-1.0, True, False, True)
    assert env._game.save() == before  # nothing was applied
    assert (obs["action_mask"] == 1).all() and env.action_masks().all()
    with pytest.raises(RuntimeError, match="episode is over; call reset"):
        env.step(0)
    obs, _ = env.reset(seed=1)
    assert 0 < obs["action_mask"].sum() < len(obs["action_mask"])


@pytest.mark.parametrize("action", [None, "0", 1.5, float("nan"), np.array([0, 1]), True,
                                    np.float32(0.0), 1.0])
def test_a_value_that_is_not_an_action_raises_and_takes_no_penalty(action):
    env = GymEnv("fatefell", seat=0)
    obs, _ = env.reset(seed=1)
    before = env._game.save()
    with pytest.raises(TypeError, match="expected an int in"):
        env.step(action)
    assert env._game.save() == before and not env._ended
    good = int(np.flatnonzero(obs["action_mask"])[0])
    _, _, _, _, info = env.step(good)  # the episode goes on
    assert "illegal_action" not in info


@pytest.mark.parametrize("players,mode", [(2, "ansi"), (3, "ansi"), (4, "ansi"),
                                          (2, "rgb_array"), (4, "rgb_array")])
def test_check_env_on_the_env_and_on_the_wrapper(players, mode):
    env = gymnasium.make(ID, num_players=players, render_mode=mode)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.filterwarnings("ignore", message=".*different from the unwrapped version")
        check_env(env.unwrapped)
        check_env(env)


def test_action_masks_as_the_readme_documents():
    env = gymnasium.make(ID, opponent="random")
    obs, _ = env.reset(seed=3)
    mask = env.unwrapped.action_masks()
    assert mask.dtype == bool
    assert (mask == obs["action_mask"].astype(bool)).all() and mask.any()
    assert (env.get_wrapper_attr("action_masks")() == mask).all()


def test_agent_specs_become_opponents_above_the_core():
    env = gymnasium.make(ID, opponent="heuristic", num_players=3)
    assert type(env.unwrapped.opponent).__name__ == "HeuristicAgent"
    env.reset(seed=0)
    with pytest.raises(ValueError, match="unknown agent spec"):
        gymnasium.make(ID, opponent="nobody")
    with pytest.raises(TypeError, match="agent object"):
        GymEnv("fatefell", opponent="random")  # the core takes objects, not specs


def test_the_core_gym_env_does_not_import_the_agents():
    import subprocess
    import sys

    code = ("import sys; import fatezoo.envs.core.gym_env as g; "
            "e = g.GymEnv('fatefell'); e.reset(seed=0); e.step(int(e.action_masks().argmax())); "
            "print('fatezoo.agents' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=600)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip().splitlines()[-1] == "False"


def test_default_opponent_is_seeded_random():
    def play(seed):
        env = GymEnv("fatefell", num_players=3)
        obs, _ = env.reset(seed=seed)
        trace = []
        for _ in range(30):
            a = int(np.flatnonzero(obs["action_mask"])[0])
            obs, r, term, trunc, _ = env.step(a)
            trace.append(obs["observation"].tobytes())
            if term or trunc:
                break
        return trace

    assert play(5) == play(5)
    assert play(5) != play(6)


def test_maskable_ppo_learns_through_gymnasium_make(monkeypatch, tmp_path):
    monkeypatch.setenv("SB3_LOGDIR", str(tmp_path))  # SB3's default logger makes a folder there
    pytest.importorskip("sb3_contrib")
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.utils import get_action_masks
    from stable_baselines3.common.env_util import make_vec_env

    assert fatezoo.GAMES
    venv = make_vec_env(lambda: gymnasium.make(ID, opponent="random"), n_envs=2, seed=0)
    model = MaskablePPO("MultiInputPolicy", venv, n_steps=64, batch_size=64, n_epochs=1,
                        seed=0, device="cpu")
    model.learn(total_timesteps=256)
    assert model.num_timesteps >= 256
    obs = venv.reset()
    masks = get_action_masks(venv)
    actions, _ = model.predict(obs, action_masks=masks)
    assert all(masks[i, a] for i, a in enumerate(actions))
