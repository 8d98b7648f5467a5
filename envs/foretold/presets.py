"""Foretold's training preset: the :class:`~fatezoo.training.options.TrainOptions` it trains with.

The 30-minute run (RULES.md Status: 12 M timesteps in 3,313 CPU seconds, 100% against
random, 74% against the fixed heuristic) uses it unchanged. 2-player Foretold
episodes run a few hundred decisions, so rewards are shaped by Life lost
(``reward="score"``, paid at every Smite) with a long horizon (gamma 0.995); opponents are
mostly the heuristic with some random play, as for Fatefell; the same batch shape as
Fatefell's preset (256 games, 2048-sample minibatches).
"""

TRAIN_PRESET = {
    "timesteps": 12_000_000,
    "num_envs": 256,
    "n_steps": 128,
    "batch_size": 2048,
    "n_epochs": 4,
    "learning_rate": 3e-4,
    "gamma": 0.995,
    "ent_coef": 0.01,
    "w_random": 0.3,
    "w_heuristic": 0.7,
    "snapshot_every": 500_000,
    "eval_every": 1_000_000,
    "checkpoint_every": 2_000_000,
    "imitation_max": 1_000_000,
    "reward": "score",
}
