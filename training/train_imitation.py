"""The imitation warm start: the policy learns the game's heuristic before PPO.

A few rollouts played by the heuristic in the learner's seat teach the policy its
actions (cross entropy) and the value head its returns. How many decisions:
:meth:`~fatezoo.training.options.TrainOptions.warm_start_steps` (``imitation_steps``, or by
default ``min(imitation_max, timesteps // 4)``), rounded up to whole rollouts
(:func:`warm_start_rollouts`).
"""

from __future__ import annotations

import time

import numpy as np


def warm_start_rollouts(steps: int, rollout: int) -> int:
    """Whole rollouts of ``rollout`` decisions covering ``steps`` (0 when ``steps`` is 0)."""
    return -(-int(steps) // int(rollout)) if steps > 0 else 0


def imitation_warmup(model, env, teacher, steps: int, epochs: int, progress=None,
                     out_of_time=None) -> dict:
    """Kickstart ``model`` by imitating ``teacher`` in the learner's seat of ``env``.

    Rollouts of ``model.n_steps`` decisions per env are played by the teacher; the
    policy is trained to put its probability on the teacher's (legal) action (cross
    entropy), and the value head on the teacher's returns (the same GAE targets PPO
    uses, from ``model.gamma`` and ``model.gae_lambda``). Uses the model's own rollout
    buffer, batch size, optimizer and gradient clipping.

    Args:
        model: a MaskablePPO model whose env is ``env``.
        env: the model's VecEnv (reset here; ``learn`` resets it again).
        teacher: an agent with ``act_batch(obs, masks)``.
        steps: decisions to imitate (rounded up to whole rollouts).
        epochs: passes over each rollout.
        progress: optional object with ``update(n)`` told of each rollout's decisions (a
            :class:`~fatezoo.training.progress.ProgressReport`).
        out_of_time: optional callable; when it returns True after a rollout, the warm
            start stops there (its share of a time limit is spent).

    Returns:
        ``steps`` (decisions imitated), ``asked`` (the ``steps`` argument),
        ``stopped_by_time``, ``seconds``, ``accuracy``
        (greedy policy agreeing with the teacher on the last rollout) and
        ``policy_loss``/``value_loss`` of the last minibatch.
    """
    import torch
    import torch.nn.functional as F
    from sb3_contrib.common.maskable.utils import get_action_masks

    start = time.perf_counter()
    policy, buf = model.policy, model.rollout_buffer
    obs = env.reset()
    starts = np.ones(env.num_envs, bool)
    done_steps, stats, stopped = 0, {}, False
    while done_steps < steps:
        if done_steps and out_of_time is not None and out_of_time():
            stopped = True
            break
        buf.reset()
        policy.set_training_mode(False)
        agree = 0
        for _ in range(model.n_steps):
            masks = get_action_masks(env)
            acts = teacher.act_batch(obs, masks)
            with torch.no_grad():
                obs_t = torch.as_tensor(obs, device=policy.device)
                dist = policy.get_distribution(obs_t, action_masks=masks)
                values = policy.predict_values(obs_t)
                agree += int((dist.mode().cpu().numpy() == acts).sum())
            new_obs, rewards, dones, _ = env.step(acts)
            buf.add(obs, acts.reshape(-1, 1), rewards, starts, values,
                    torch.zeros(env.num_envs), action_masks=masks)
            obs, starts = new_obs, dones
        with torch.no_grad():
            last = policy.predict_values(torch.as_tensor(obs, device=policy.device))
        buf.compute_returns_and_advantage(last_values=last, dones=starts)
        policy.set_training_mode(True)
        for _ in range(epochs):
            for data in buf.get(model.batch_size):
                values, log_prob, _ = policy.evaluate_actions(
                    data.observations, data.actions.long().flatten(),
                    action_masks=data.action_masks)
                policy_loss = -log_prob.mean()
                value_loss = F.mse_loss(data.returns, values.flatten())
                loss = policy_loss + model.vf_coef * value_loss
                policy.optimizer.zero_grad()
                loss.backward()
                torch.nn.utils.clip_grad_norm_(policy.parameters(), model.max_grad_norm)
                policy.optimizer.step()
        done_steps += model.n_steps * env.num_envs
        if progress is not None:
            progress.update(model.n_steps * env.num_envs)
        stats = {"accuracy": agree / (model.n_steps * env.num_envs),
                 "policy_loss": float(policy_loss.detach()),
                 "value_loss": float(value_loss.detach())}
    buf.reset()
    model._last_obs = None  # learn() resets the env
    return dict(stats, steps=done_steps, asked=steps, stopped_by_time=stopped,
                seconds=time.perf_counter() - start)


__all__ = ["imitation_warmup", "warm_start_rollouts"]
