"""Forgotten City's training preset: the TrainOptions ``fatezoo train forgotten_city`` uses.

Sized for 2 CPU cores (RULES.md and the README: the 3,600-CPU-second run with it):
2-player games (~140 learner-side decisions
each), 256 games in one batched env,
a warm start imitating the heuristic, then PPO on the per-step VP-difference shaping
(``reward="score"``: every VP gained counts at once, so gamma 0.99 over ~70 own decisions
a game) against mostly the heuristic and some random play. The 2,729-entry observation
gets a wider network than the default.
"""

TRAIN_PRESET = {
    "timesteps": 10_000_000,
    "num_envs": 256,
    "n_steps": 128,
    "batch_size": 2048,
    "n_epochs": 4,
    "learning_rate": 3e-4,
    "ent_coef": 0.01,
    "net_arch": (256, 128),
    "w_random": 0.5,  # 0.3 plateaued at 86% vs random in a 30-minute run (1.3M timesteps)
    "w_heuristic": 0.5,
    "snapshot_every": 500_000,
    "eval_every": 1_000_000,
    "checkpoint_every": 2_000_000,
    "imitation_max": 250_000,  # the warm start runs ~1,000 decisions/s on 2 cores: ~4 min
    "reward": "score",
}
