"""The Fathoming's training preset: the ``TrainOptions`` of ``fatezoo train fathoming``.

Fatefell's shape (a warm start imitating the heuristic, then PPO with 256 games in one
batched env) with the Loot shaping (``reward="score"``: every Loot collected is paid
when it happens, the game's only intermediate signal). Sized for the issue's 30-minute
run (``fatezoo train fathoming --time-limit 1800``): the warm start imitates 250,000
heuristic decisions (262,144 after rounding up to whole rollouts, about a minute and a
half), so PPO gets the rest of the half hour; PPO then fine-tunes that policy with a
smaller step, less entropy bonus and a KL stop, so that its first updates (with a
value function that has not been trained yet) do not wash the imitation out.
``timesteps`` is what 30 minutes can reach, so the linear learning-rate decay ends near
the end of the run. The 3-minute check is in RULES.md (Status).
"""

TRAIN_PRESET = {
    "timesteps": 3_000_000,
    "num_envs": 256,
    "n_steps": 128,
    "batch_size": 2048,
    "n_epochs": 4,
    "learning_rate": 3e-4,
    "lr_schedule": "linear",
    "ent_coef": 0.003,
    "target_kl": 0.05,
    "w_random": 0.3,
    "w_heuristic": 0.7,
    "snapshot_every": 500_000,
    "eval_every": 500_000,
    "checkpoint_every": 500_000,
    "imitation_max": 250_000,
    "reward": "score",
}
