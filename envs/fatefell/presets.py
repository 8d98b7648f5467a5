"""Fatefell's training preset: the :class:`~fatezoo.training.options.TrainOptions` it trains with.

Tuned for 2-player Fatefell on 2 CPU cores (~10,000 timesteps/s there): a warm start
imitating the heuristic (up to 1M decisions, ~1 minute), then PPO with 256 games in one
batched env (the policy's forward pass runs on large batches), 2048-sample minibatches and
4 epochs (64 updates per 32,768-step rollout; larger minibatches or a lower learning rate
moved the policy less per sample in short runs), the per-season ``score`` shaping (paid at
every season end, ~50 learner decisions apart, hence gamma 0.99). Opponents are mostly the
heuristic (the evaluation target) and some random play; self-play snapshots stay off: on 2
cores their forward passes cost ~20% of the throughput and did not help against the
heuristic in short runs. ``fatezoo train fatefell --timesteps 30000000 --time-limit 1740``
beat the heuristic in 80% of games (README).
"""

TRAIN_PRESET = {
    "timesteps": 12_000_000,
    "num_envs": 256,
    "n_steps": 128,
    "batch_size": 2048,
    "n_epochs": 4,
    "learning_rate": 5e-4,
    "ent_coef": 0.005,
    "w_random": 0.2,
    "w_heuristic": 0.8,
    "snapshot_every": 500_000,
    "eval_every": 1_000_000,
    "checkpoint_every": 2_000_000,
    "imitation_max": 1_000_000,
    "reward": "score",
}
