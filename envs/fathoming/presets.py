"""The Fathoming's training preset: the ``TrainOptions`` of ``fatezoo train fathoming``.

Not tuned yet (no training run has been made with it): Fatefell's shape (a warm start
imitating the heuristic, then PPO with 256 games in one batched env) with the Loot
shaping (``reward="score"``: every Loot collected is paid when it happens, the game's
only intermediate signal) and a longer horizon (games run ~100 decisions).
"""

TRAIN_PRESET = {
    "timesteps": 5_000_000,
    "num_envs": 256,
    "n_steps": 128,
    "batch_size": 2048,
    "n_epochs": 4,
    "learning_rate": 5e-4,
    "ent_coef": 0.01,
    "w_random": 0.3,
    "w_heuristic": 0.7,
    "snapshot_every": 500_000,
    "eval_every": 1_000_000,
    "checkpoint_every": 1_000_000,
    "imitation_max": 500_000,
    "reward": "score",
}
