"""The training env and model of a run: :func:`make_env` (by ``vec``) and :func:`make_model`.

``vec="core"`` is the batched self-play env (:class:`~fatezoo.training.selfplay.SelfPlayVecEnv`
with an :class:`~fatezoo.training.selfplay_pool.OpponentPool`); ``"gym"`` and
``"gym-subproc"`` wrap the gymnasium env in SB3's DummyVecEnv / SubprocVecEnv for
comparison. torch, SB3 and the self-play env load when these functions are called.
"""

from __future__ import annotations

from functools import partial

import gymnasium
import numpy as np

from fatezoo.envs.core.registry import get_spec

from .options import TrainOptions


def _gym_env(game: str, opponent: str, num_players: int, seed: int, options: dict):
    """One Monitor-wrapped gymnasium env with the observation vector only (picklable)."""
    from stable_baselines3.common.monitor import Monitor

    spec = get_spec(game)
    env = gymnasium.make(spec.gym_id, opponent=opponent, num_players=num_players, **options)
    env = ObservationOnly(env)
    env = Monitor(env)
    env.reset(seed=seed)
    env.action_space.seed(seed)
    return env


class ObservationOnly(gymnasium.ObservationWrapper):
    """The gym wrapper's Dict observation reduced to its ``observation`` vector."""

    def __init__(self, env):
        super().__init__(env)
        self.observation_space = env.observation_space["observation"]

    def observation(self, observation):
        """The observation vector."""
        return observation["observation"]


def make_env(opts: TrainOptions):
    """The training VecEnv of ``opts.vec`` (see :class:`TrainOptions`).

    Returns:
        (env, pool): the SB3 VecEnv and the :class:`OpponentPool` (None for the gym paths).
    """
    from .selfplay import OpponentPool, SelfPlayVecEnv

    options = opts.env_options()
    if opts.vec == "core":
        pool = OpponentPool(opts.game, opts.weights(), num_players=opts.num_players,
                            pool_size=opts.pool_size, seed=opts.seed + 1)
        env = SelfPlayVecEnv(opts.game, num_envs=opts.num_envs, num_players=opts.num_players,
                             seed=opts.seed, opponents=pool, **options)
        return env, pool
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    spec = get_spec(opts.game)
    kinds = {"random": opts.w_random}
    if spec.heuristic is not None:
        kinds["heuristic"] = opts.w_heuristic
    names = [k for k, w in kinds.items() if w > 0]
    p = np.array([kinds[k] for k in names], float)
    rng = np.random.default_rng(opts.seed)
    picks = rng.choice(len(names), size=opts.num_envs, p=p / p.sum())
    fns = [partial(_gym_env, opts.game, names[int(k)], opts.num_players, opts.seed + i, options)
           for i, k in enumerate(picks)]
    if opts.vec == "gym-subproc":
        return SubprocVecEnv(fns, start_method="forkserver"), None
    return DummyVecEnv(fns), None


def policy_kwargs(opts: TrainOptions) -> dict:
    """``policy_kwargs`` for MaskablePPO's ``MlpPolicy`` from ``net_arch``/``shared_layers``."""
    import torch

    kwargs = {"net_arch": {"pi": list(opts.net_arch), "vf": list(opts.net_arch)},
              "activation_fn": torch.nn.ReLU}
    if opts.shared_layers:
        from .selfplay_snapshots import SharedMLP

        kwargs["features_extractor_class"] = SharedMLP
        kwargs["features_extractor_kwargs"] = {"layers": list(opts.shared_layers)}
    return kwargs


def make_model(opts: TrainOptions, env):
    """The MaskablePPO model of ``opts`` on ``env`` (training and the training bench)."""
    from sb3_contrib import MaskablePPO

    lr = opts.learning_rate
    schedule = (lambda progress: progress * lr) if opts.lr_schedule == "linear" else lr
    return MaskablePPO(
        "MlpPolicy", env, learning_rate=schedule, n_steps=opts.n_steps,
        batch_size=opts.batch_size, n_epochs=opts.n_epochs, gamma=opts.gamma,
        gae_lambda=opts.gae_lambda, clip_range=opts.clip_range, ent_coef=opts.ent_coef,
        vf_coef=opts.vf_coef, max_grad_norm=opts.max_grad_norm, target_kl=opts.target_kl,
        policy_kwargs=policy_kwargs(opts), verbose=opts.verbose, seed=opts.seed,
        device=opts.device)


__all__ = ["ObservationOnly", "make_env", "make_model", "policy_kwargs"]
