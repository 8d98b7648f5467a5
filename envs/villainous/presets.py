"""Villainous' training preset: the TrainOptions ``fatezoo train villainous`` uses.

Sized for the issue's run of 3,600 CPU seconds on 2 cores (``fatezoo train villainous
--cpu-time-limit 3600``): 2-player games, 256 batched envs, a short warm start imitating
the heuristic (about a tenth of the budget), then PPO against half random, half heuristic
opponents (the lead's choice for Forgotten City, where 0.3 random plateaued below 90%
against random) on the objective-progress shaping (``reward="score"``, R69: the win
reward alone left the policy stalling into truncated games, its +1 hundreds of decisions
away at gamma 0.99). The 1,982-float observation gets a wider network than the default.
RULES.md section 17 has the sample runs.
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
    "w_random": 0.5,
    "w_heuristic": 0.5,
    "eval_every": 500_000,
    "eval_games": 100,  # an untrained policy's games run to max_turns: ~1 CPU s per game
    "checkpoint_every": 2_000_000,
    "imitation_max": 131_072,  # 4 rollouts of the heuristic, ~1,000 decisions/s on 2 cores
    "reward": "score",
}
