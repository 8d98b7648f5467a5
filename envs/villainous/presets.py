"""Villainous' training preset: the TrainOptions overrides of ``fatezoo train villainous``.

Untuned first values (milestone 1): 2-player games, 256 batched envs, mostly the heuristic
and some random play as opponents, the win reward. No 30-minute run has been made yet.
"""

TRAIN_PRESET = {
    "timesteps": 10_000_000,
    "num_envs": 256,
    "n_steps": 128,
    "batch_size": 2048,
    "n_epochs": 4,
    "learning_rate": 3e-4,
    "ent_coef": 0.01,
    "w_random": 0.3,
    "w_heuristic": 0.7,
    "eval_every": 1_000_000,
    "checkpoint_every": 2_000_000,
}
