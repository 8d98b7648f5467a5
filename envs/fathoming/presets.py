"""The Fathoming's training preset: the ``TrainOptions`` of ``fatezoo train fathoming``.

Sized for the issue's run on 2 CPU cores (``fatezoo train fathoming --cpu-time-limit
3600``): a warm start imitating the heuristic capped at 250,000 decisions (it runs ~3,400
decisions/s here, so ~75 s, about a twentieth of the budget: the earlier 500,000-decision
cap took most of a 3-minute check and left PPO no time), then PPO with 256 games in one
batched env on the Loot shaping (``reward="score"``: every Loot collected is paid when it
happens, the game's only intermediate signal; games run ~50-120 decisions). Half the
training games are against random, half against the heuristic (Forgotten City's 0.3
plateaued below 90% vs random), so the >= 90%-vs-random target stays in reach. The
3,187-float observation gets a wider first layer than the default (64, 64). The learning
rate decays linearly and a KL stop guards the imitated policy from the first updates.
"""

TRAIN_PRESET = {
    "timesteps": 3_000_000,
    "num_envs": 256,
    "n_steps": 128,
    "batch_size": 2048,
    "n_epochs": 4,
    "learning_rate": 3e-4,
    "lr_schedule": "linear",
    "ent_coef": 0.005,
    "target_kl": 0.05,
    "net_arch": (256, 128),
    "w_random": 0.5,
    "w_heuristic": 0.5,
    "snapshot_every": 500_000,
    "eval_every": 1_000_000,
    "checkpoint_every": 1_000_000,
    "imitation_max": 250_000,
    "reward": "score",
}
