"""``fatezoo train GAME``: MaskablePPO self-play on the batched core, with evals and checkpoints.

Read top to bottom: :class:`TrainOptions` (every knob, documented), the command-line
glue (:func:`add_train_arguments`, :func:`options_from_args`), the evaluation
(:func:`evaluate`), the training envs (:func:`make_env`), the callback that snapshots,
evaluates, checkpoints and draws progress (:class:`TrainingMonitor`), the warm start
that imitates the game's heuristic (:func:`imitation_warmup`), and :func:`train`, which
ties them together.

Import ``fatezoo`` before ``torch`` in your own scripts: ``fatezoo`` sets
``OMP_WAIT_POLICY=PASSIVE`` for numba's OpenMP threads, and a torch loaded first fixes
the spinning default. With another process busy on one of 2 cores, a run with torch
imported first made 459 timesteps/s here, against ~7,500 with fatezoo first.

A run writes, under ``out_dir/{game}__ppo__{seed}__{unix time}/``::

    options.json              the TrainOptions of the run
    tb/                       TensorBoard logs (SB3's rollout/ and train/, plus eval/)
    evals.csv                 timesteps, wall seconds, win rate vs each eval opponent
    checkpoints/step_N.zip    periodic checkpoints (``fatezoo arena --agents ppo:PATH``)
    checkpoints/final.zip     the final policy
    result.json               what :func:`train` returns

Only the numpy/registry imports run when this module is imported (the CLI builds its
parser from it); torch and SB3 load inside :func:`train`.

>>> from fatezoo.training.train import TrainOptions, train
>>> result = train(TrainOptions("fatefell", timesteps=2_000_000))  # doctest: +SKIP
"""

from __future__ import annotations

import argparse
import csv
import dataclasses
import json
import time
from dataclasses import dataclass, field
from pathlib import Path

import gymnasium
import numpy as np

from fatezoo.envs.core.registry import game_names, get_spec

VECS = ("core", "gym", "gym-subproc")


@dataclass
class TrainOptions:
    """Everything a training run depends on (all but ``game`` have defaults).

    The defaults aim at 2-player Fatefell on 2 CPU cores (~10,000 timesteps/s there): a
    warm start imitating the game's heuristic (~1 minute), then PPO with 256 games in
    one batched env (the policy's forward pass runs on large batches), 2048-sample
    minibatches and 4 epochs (64 updates per 32,768-step rollout; larger minibatches or
    a lower learning rate moved the policy less per sample in short runs), the SB3
    default MLP sizes with ReLU, and gamma 0.99 (the ``score`` shaping pays at every
    season end, ~50 learner decisions apart). Opponents are the heuristic (the
    evaluation target) and some random play; self-play snapshots (``w_self``) are off by
    default: on 2 cores their forward passes cost ~20% of the throughput and did not
    help against the heuristic in short runs.

    Attributes:
        game: registered game name.
        timesteps: learner decisions to train for (summed over all envs).
        time_limit: stop after this many wall seconds, whatever ``timesteps`` says
            (None: no limit); the final checkpoint and eval still happen.
        num_envs: games played at once.
        num_players: seats per game (the learner takes one, opponents the rest).
        seed: seeds the games, the opponent pool, torch and SB3 (``set_random_seed``).
        n_steps: decisions per env per PPO rollout (rollout = ``n_steps * num_envs``).
        batch_size: minibatch size of the PPO update.
        n_epochs: passes over each rollout.
        learning_rate: Adam step size.
        lr_schedule: ``"constant"`` or ``"linear"`` (decays to 0 at ``timesteps``).
        gamma: discount per learner decision.
        gae_lambda: GAE lambda.
        ent_coef: entropy bonus.
        clip_range: PPO clip range.
        vf_coef: value loss weight.
        max_grad_norm: gradient clipping.
        target_kl: stop an update's epochs early above this KL (None: never).
        net_arch: hidden layers of the policy and value MLPs (each its own network).
        shared_layers: hidden layers of a trunk shared by policy and value before
            ``net_arch`` (empty: no shared trunk, SB3's default).
        w_random: opponent weight of the uniform random agent.
        w_heuristic: opponent weight of the game's heuristic (dropped if it has none).
        w_self: opponent weight of frozen snapshots of the learner (see OpponentPool).
        pool_size: snapshots kept for self-play.
        snapshot_every: timesteps between snapshots (the first is taken at the start).
        eval_every: timesteps between evaluations (0: only at the start and the end).
        eval_games: games per eval opponent at each periodic evaluation.
        final_eval_games: games per eval opponent in the final evaluation.
        eval_opponents: agent specs evaluated against (``heuristic`` is skipped for games
            without one); win rates use ``reward="win"`` and the greedy policy.
        checkpoint_every: timesteps between checkpoints (0: only the final one).
        imitation_steps: warm start before PPO: decisions of the game's heuristic (in the
            learner's seat, against the opponent pool) that the policy learns to imitate
            and whose returns the value head learns (0, or a game without a heuristic:
            no warm start). Not counted in ``timesteps``.
        imitation_epochs: passes over each rollout of the warm start.
        reward: reward mode while training: ``"score"`` (per-season shaping, zero-sum,
            plus the terminal win reward) or ``"win"``.
        max_turns: truncation limit (None: the game's default).
        game_options: the game's own options (``{"seasons": 2}``...), used for training
            and evaluation.
        out_dir: parent folder of run folders.
        run_name: the run folder's name (None: ``{game}__ppo__{seed}__{unix time}``).
        torch_threads: ``torch.set_num_threads`` (numba and torch take turns, so both
            can use every core; on 2 cores 2 threads beat 1 by 5-30% except under heavy
            contention, where they were ~6% slower).
        vec: ``"core"`` (:class:`SelfPlayVecEnv`), ``"gym"`` (DummyVecEnv of the
            gymnasium wrapper, Monitor-wrapped) or ``"gym-subproc"`` (SubprocVecEnv of
            it). The gym paths play fixed opponents (random/heuristic by weight, one kind
            per env) and no self-play snapshots.
        progress: draw a progress bar on stderr (None: only on a terminal).
        verbose: SB3 verbosity (1 prints its tables to stdout).
        device: torch device.
    """

    game: str = "fatefell"
    timesteps: int = 12_000_000
    time_limit: float | None = None
    num_envs: int = 256
    num_players: int = 2
    seed: int = 0
    n_steps: int = 128
    batch_size: int = 2048
    n_epochs: int = 4
    learning_rate: float = 5e-4
    lr_schedule: str = "constant"
    gamma: float = 0.99
    gae_lambda: float = 0.95
    ent_coef: float = 0.005
    clip_range: float = 0.2
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5
    target_kl: float | None = None
    net_arch: tuple = (64, 64)
    shared_layers: tuple = ()
    w_random: float = 0.2
    w_heuristic: float = 0.8
    w_self: float = 0.0
    pool_size: int = 8
    snapshot_every: int = 500_000
    eval_every: int = 1_000_000
    eval_games: int = 200
    final_eval_games: int = 1000
    eval_opponents: tuple = ("random", "heuristic")
    checkpoint_every: int = 2_000_000
    imitation_steps: int = 1_000_000
    imitation_epochs: int = 2
    reward: str = "score"
    max_turns: int | None = None
    game_options: dict = field(default_factory=dict)
    out_dir: str = "runs"
    run_name: str | None = None
    torch_threads: int = 2
    vec: str = "core"
    progress: bool | None = None
    verbose: int = 0
    device: str = "cpu"

    def check(self) -> None:
        """Raise ValueError naming the first bad option and what was expected."""
        spec = get_spec(self.game)
        ints = {"timesteps": 1, "num_envs": 1, "n_steps": 1, "batch_size": 2, "n_epochs": 1,
                "pool_size": 1, "snapshot_every": 1, "eval_every": 0, "eval_games": 1,
                "final_eval_games": 0, "checkpoint_every": 0, "torch_threads": 1,
                "imitation_steps": 0, "imitation_epochs": 1}
        for name, low in ints.items():
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < low:
                raise ValueError(f"train: {name} must be an int >= {low}, got {v!r}")
        if not spec.min_players <= self.num_players <= spec.max_players:
            raise ValueError(f"train: {self.game} needs num_players in [{spec.min_players}, "
                             f"{spec.max_players}], got {self.num_players!r}")
        if self.vec not in VECS:
            raise ValueError(f"train: vec must be one of {VECS}, got {self.vec!r}")
        if self.lr_schedule not in ("constant", "linear"):
            raise ValueError(f"train: lr_schedule must be 'constant' or 'linear', got "
                             f"{self.lr_schedule!r}")
        if self.reward not in ("win", "score"):
            raise ValueError(f"train: reward must be 'win' or 'score', got {self.reward!r}")
        weights = {"w_random": self.w_random, "w_heuristic": self.w_heuristic,
                   "w_self": self.w_self}
        for name, w in weights.items():
            if not (isinstance(w, (int, float)) and np.isfinite(w) and w >= 0):
                raise ValueError(f"train: {name} must be a number >= 0, got {w!r}")
        if self.vec != "core" and self.w_random + self.w_heuristic <= 0:
            raise ValueError(f"train: vec={self.vec!r} has no self-play; give w_random or "
                             "w_heuristic a positive weight")
        if self.time_limit is not None and not self.time_limit > 0:
            raise ValueError(f"train: time_limit must be > 0 seconds or None, got "
                             f"{self.time_limit!r}")
        spec.options(num_players=self.num_players, max_turns=self.max_turns,
                     reward=self.reward, **self.game_options)

    def env_options(self, reward: str | None = None) -> dict:
        """The env options (``reward``, ``max_turns``, the game's own) for the envs."""
        opts = dict(self.game_options, reward=reward or self.reward)
        if self.max_turns is not None:
            opts["max_turns"] = self.max_turns
        return opts

    def weights(self) -> dict:
        """Opponent kind -> weight for the :class:`OpponentPool`."""
        return {"random": self.w_random, "heuristic": self.w_heuristic, "self": self.w_self}


# ---------------------------------------------------------------- command line


def _int_list(text: str) -> tuple:
    try:
        return tuple(int(x) for x in text.split(",") if x.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected comma-separated ints, got {text!r}") \
            from None


def add_train_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the ``fatezoo train`` arguments (one per :class:`TrainOptions` field).

    The game's own options come from the CLI's ``add_game_options`` (``--reward``,
    ``--max-turns`` and game flags), read back by :func:`options_from_args`.
    """
    d = TrainOptions()
    parser.add_argument("game", help=f"one of: {', '.join(game_names())}")
    g = parser.add_argument_group("training")
    g.add_argument("--timesteps", type=int, default=d.timesteps,
                   help=f"learner decisions to train for (default {d.timesteps:,})")
    g.add_argument("--time-limit", type=float, default=None, metavar="SECONDS",
                   help="stop after this many wall seconds (default: none)")
    g.add_argument("--envs", dest="num_envs", type=int, default=d.num_envs,
                   help=f"games played at once (default {d.num_envs})")
    g.add_argument("--players", dest="num_players", type=int, default=d.num_players,
                   help=f"players per game (default {d.num_players})")
    g.add_argument("--seed", type=int, default=d.seed, help=f"seed (default {d.seed})")
    g.add_argument("--vec", choices=VECS, default=d.vec,
                   help="core: batched self-play env (default); gym / gym-subproc: the "
                        "gymnasium wrapper in a DummyVecEnv / SubprocVecEnv")
    g.add_argument("--out-dir", default=d.out_dir, help=f"runs folder (default {d.out_dir})")
    g.add_argument("--run-name", default=None, help="run folder name (default: "
                   "{game}__ppo__{seed}__{time})")
    g.add_argument("--threads", dest="torch_threads", type=int, default=d.torch_threads,
                   help=f"torch threads (default {d.torch_threads})")
    g.add_argument("--no-progress", action="store_true", help="no progress bar")
    g.add_argument("--verbose", type=int, default=d.verbose, help="SB3 verbosity (default 0)")
    p = parser.add_argument_group("PPO")
    for name, typ in (("n_steps", int), ("batch_size", int), ("n_epochs", int),
                      ("learning_rate", float), ("gamma", float), ("gae_lambda", float),
                      ("ent_coef", float), ("clip_range", float), ("vf_coef", float),
                      ("max_grad_norm", float), ("target_kl", float)):
        p.add_argument("--" + name.replace("_", "-"), dest=name, type=typ,
                       default=getattr(d, name), help=f"(default {getattr(d, name)})")
    p.add_argument("--lr-schedule", choices=("constant", "linear"), default=d.lr_schedule,
                   help=f"(default {d.lr_schedule})")
    p.add_argument("--net-arch", type=_int_list, default=d.net_arch, metavar="N,N",
                   help="hidden layers of the policy and value MLPs (default "
                        f"{','.join(map(str, d.net_arch))})")
    p.add_argument("--shared-layers", type=_int_list, default=d.shared_layers,
                   metavar="N,N", help="shared trunk before them (default: none)")
    s = parser.add_argument_group("opponents and evaluation")
    for name in ("w_random", "w_heuristic", "w_self"):
        s.add_argument("--" + name.replace("_", "-"), dest=name, type=float,
                       default=getattr(d, name),
                       help=f"opponent weight (default {getattr(d, name)})")
    for name in ("pool_size", "snapshot_every", "eval_every", "eval_games",
                 "final_eval_games", "checkpoint_every", "imitation_steps", "imitation_epochs"):
        s.add_argument("--" + name.replace("_", "-"), dest=name, type=int,
                       default=getattr(d, name), help=f"(default {getattr(d, name)})")
    s.add_argument("--eval-opponents", default=",".join(d.eval_opponents),
                   help=f"agent specs (default {','.join(d.eval_opponents)})")


def options_from_args(args: argparse.Namespace) -> TrainOptions:
    """Build :class:`TrainOptions` from parsed ``fatezoo train`` arguments.

    ``--reward``, ``--max-turns`` and game flags (the CLI's game options) are read if the
    parser has them; the training reward defaults to ``"score"``.
    """
    fields = {f.name for f in dataclasses.fields(TrainOptions)}
    kwargs = {k: v for k, v in vars(args).items() if k in fields and v is not None}
    game_options = {}
    try:
        from .cli import game_options as cli_game_options

        game_options = cli_game_options(args)
    except ImportError:  # pragma: no cover - cli is part of the package
        pass
    for key in ("reward", "max_turns"):
        if key in game_options:
            kwargs[key] = game_options.pop(key)
    kwargs["game_options"] = game_options
    if isinstance(kwargs.get("eval_opponents"), str):
        kwargs["eval_opponents"] = tuple(x.strip() for x in kwargs["eval_opponents"].split(",")
                                         if x.strip())
    if getattr(args, "no_progress", False):
        kwargs["progress"] = False
    opts = TrainOptions(**kwargs)
    opts.check()
    return opts


# ---------------------------------------------------------------- evaluation


class GreedyPolicyAgent:
    """The live training policy as an agent (most likely legal action)."""

    name = "learner"
    needs_records = False

    def __init__(self, policy):
        self.policy = policy

    def act_batch(self, obs, masks):
        """Greedy legal actions of the policy."""
        from fatezoo.agents.policy import policy_actions

        return policy_actions(self.policy, obs, masks, deterministic=True)


def evaluate(game: str, agent, opponent: str, games: int, num_players: int = 2, seed: int = 0,
             options: dict | None = None, batch: int = 256) -> dict:
    """Score of ``agent`` against ``opponent`` in every other seat, on the batched core.

    Game ``g`` seats the agent at ``g % num_players`` and the opponent everywhere else;
    seeds come from ``seed`` (the same games at every evaluation of a run). The agent
    beats an opponent seat when its total reward is higher (a tie is half a win), as in
    :func:`fatezoo.training.arena.run_arena`; with ``reward="win"`` that is winning the
    game.

    Args:
        game: registered game name.
        agent: an object with ``act_batch(obs, masks)`` (e.g. :class:`GreedyPolicyAgent`).
        opponent: an agent spec for :func:`fatezoo.agents.make_agent`.
        games: games to play.
        num_players: seats per game.
        seed: seeds the games and the opponent.
        options: env options (``reward`` defaults to ``"win"``).
        batch: games played at once.

    Returns:
        ``win_rate`` (wins + ties/2 over pairings), ``wins``, ``ties``, ``losses``,
        ``games``, ``ci`` (95% Wilson interval) and ``seconds``.
    """
    from fatezoo.agents import make_agent

    from .arena import game_seeds, play_batch, wilson_interval

    start = time.perf_counter()
    opts = dict({"reward": "win"}, **(options or {}))
    opp = make_agent(opponent, game, num_players=num_players, seed=seed + 1)
    seeds = game_seeds(seed, games)
    learner_seat = np.arange(games) % num_players
    wins = ties = losses = 0
    for lo in range(0, games, batch):
        hi = min(lo + batch, games)
        seats = learner_seat[lo:hi]
        seat_agents = np.ones((hi - lo, num_players), np.int64)
        seat_agents[np.arange(hi - lo), seats] = 0
        returns, _, _ = play_batch(game, [agent, opp], seat_agents, seeds[lo:hi],
                                   num_players, opts)
        mine = returns[np.arange(hi - lo), seats][:, None]
        others = np.ones_like(returns, bool)
        others[np.arange(hi - lo), seats] = False
        wins += int(((mine > returns) & others).sum())
        ties += int(((mine == returns) & others).sum())
        losses += int(((mine < returns) & others).sum())
    pairings = wins + ties + losses
    score = wins + 0.5 * ties
    return {"opponent": opponent, "games": int(games), "wins": wins, "ties": ties,
            "losses": losses, "win_rate": score / pairings if pairings else None,
            "ci": list(wilson_interval(score, pairings)),
            "seconds": time.perf_counter() - start}


def eval_opponents(opts: TrainOptions) -> list[str]:
    """The eval opponents of ``opts`` this game supports (no heuristic if it has none)."""
    spec = get_spec(opts.game)
    return [o for o in opts.eval_opponents if not (o == "heuristic" and spec.heuristic is None)]


# ---------------------------------------------------------------- envs


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
    from functools import partial

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


# ---------------------------------------------------------------- the callback


class TrainingMonitor:
    """What runs between PPO steps: snapshots, evals, checkpoints, progress, time limit.

    Plain Python (SB3 is imported only by :func:`train`); :meth:`sb3_callback` wraps it
    as an SB3 callback.

    Args:
        opts: the run's options.
        run_dir: the run folder.
        pool: the self-play opponent pool (None: no snapshots).
    """

    def __init__(self, opts: TrainOptions, run_dir: Path, pool=None):
        self.opts = opts
        self.run_dir = Path(run_dir)
        self.pool = pool
        self.start = time.perf_counter()
        self.next_snapshot = 0
        self.next_eval = opts.eval_every if opts.eval_every else None
        self.next_checkpoint = opts.checkpoint_every if opts.checkpoint_every else None
        self.opponents = eval_opponents(opts)
        self.csv_path = self.run_dir / "evals.csv"
        self.evals: list[dict] = []
        self.stopped_by_time = False
        self.games_by_opponent: dict[str, tuple] = {}  # opponent -> (games, return, won)
        with open(self.csv_path, "w", newline="") as f:
            csv.writer(f).writerow(["timesteps", "wall_seconds", "games"]
                                   + [f"win_vs_{o}" for o in self.opponents])
        from .progress import Progress

        self.bar = Progress(opts.timesteps, f"{opts.game} train", enabled=opts.progress)

    def wall(self) -> float:
        """Seconds since the monitor was made."""
        return time.perf_counter() - self.start

    def snapshot(self, model) -> None:
        """Add a frozen copy of the policy to the opponent pool."""
        if self.pool is not None and self.opts.w_self > 0:
            self.pool.add_snapshot(model.policy, name=f"self@{model.num_timesteps}")

    def evaluate(self, model, games: int) -> dict:
        """Win rates of the greedy policy vs each eval opponent; logged and written to CSV."""
        opts = self.opts
        agent = GreedyPolicyAgent(model.policy)
        row = {"timesteps": int(model.num_timesteps), "games": int(games)}
        for o in self.opponents:
            r = evaluate(opts.game, agent, o, games, opts.num_players, seed=opts.seed + 7919,
                         options=opts.env_options(reward="win"))
            row[f"win_vs_{o}"] = r["win_rate"]
            model.logger.record(f"eval/win_vs_{o}", r["win_rate"])
        row["wall_seconds"] = round(self.wall(), 2)
        model.logger.record("eval/wall_seconds", row["wall_seconds"])
        if self.pool is not None:
            model.logger.record("selfplay/snapshots", self.pool.snapshots_added)
        with open(self.csv_path, "a", newline="") as f:
            csv.writer(f).writerow([row["timesteps"], row["wall_seconds"], games]
                                   + [row[f"win_vs_{o}"] for o in self.opponents])
        self.evals.append(row)
        return row

    def checkpoint(self, model, name: str) -> Path:
        """Save the model as ``checkpoints/{name}.zip``."""
        path = self.run_dir / "checkpoints" / f"{name}.zip"
        path.parent.mkdir(parents=True, exist_ok=True)
        model.save(str(path))
        return path

    def on_training_start(self, model) -> None:
        """Take the first snapshot and evaluate the untrained policy (timestep 0)."""
        self.snapshot(model)
        self.next_snapshot = model.num_timesteps + self.opts.snapshot_every
        self.evaluate(model, self.opts.eval_games)

    def on_step(self, model, num_envs: int, infos=()) -> bool:
        """After each vectorized step; False stops training (time limit reached)."""
        t = model.num_timesteps
        self.bar.update(num_envs)
        for info in infos:
            ep = info.get("episode")
            if ep is not None:
                opp = ",".join("self" if o.startswith("self") else o
                               for o in str(info.get("opponent", "?")).split(","))
                n, total, wins = self.games_by_opponent.get(opp, (0, 0.0, 0))
                self.games_by_opponent[opp] = (n + 1, total + ep["r"], wins + (ep["r"] > 0))
        if t >= self.next_snapshot:
            self.snapshot(model)
            self.next_snapshot = t + self.opts.snapshot_every
        if self.next_eval is not None and t >= self.next_eval:
            self.evaluate(model, self.opts.eval_games)
            self.next_eval = t + self.opts.eval_every
        if self.next_checkpoint is not None and t >= self.next_checkpoint:
            self.checkpoint(model, f"step_{t}")
            self.next_checkpoint = t + self.opts.checkpoint_every
        if self.opts.time_limit is not None and self.wall() >= self.opts.time_limit:
            self.stopped_by_time = True
            return False
        return True

    def on_rollout_end(self, model) -> None:
        """Log the learner's training games by opponent: mean return and share won.

        "Won" is a positive return: exact for 2 players (the shaping has the sign of the
        result), a proxy for more.
        """
        for opp, (n, total, wins) in sorted(self.games_by_opponent.items()):
            model.logger.record(f"selfplay/return_vs_{opp}", total / n)
            model.logger.record(f"selfplay/won_vs_{opp}", wins / n)
        self.games_by_opponent = {}

    def sb3_callback(self):
        """This monitor as a ``stable_baselines3`` callback."""
        from stable_baselines3.common.callbacks import BaseCallback

        monitor = self

        class _Callback(BaseCallback):
            def _on_training_start(self) -> None:
                monitor.on_training_start(self.model)

            def _on_step(self) -> bool:
                return monitor.on_step(self.model, self.training_env.num_envs,
                                       self.locals.get("infos", ()))

            def _on_rollout_end(self) -> None:
                monitor.on_rollout_end(self.model)

        return _Callback()


# ---------------------------------------------------------------- imitation warm start


def imitation_warmup(model, env, teacher, steps: int, epochs: int) -> dict:
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

    Returns:
        ``steps``, ``seconds``, ``accuracy`` (greedy policy agreeing with the teacher on
        the last rollout) and ``policy_loss``/``value_loss`` of the last minibatch.
    """
    import torch
    import torch.nn.functional as F
    from sb3_contrib.common.maskable.utils import get_action_masks

    start = time.perf_counter()
    policy, buf = model.policy, model.rollout_buffer
    obs = env.reset()
    starts = np.ones(env.num_envs, bool)
    done_steps, stats = 0, {}
    while done_steps < steps:
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
        stats = {"accuracy": agree / (model.n_steps * env.num_envs),
                 "policy_loss": float(policy_loss.detach()),
                 "value_loss": float(value_loss.detach())}
    buf.reset()
    model._last_obs = None  # learn() resets the env
    return dict(stats, steps=done_steps, seconds=time.perf_counter() - start)


# ---------------------------------------------------------------- train


def policy_kwargs(opts: TrainOptions) -> dict:
    """``policy_kwargs`` for MaskablePPO's ``MlpPolicy`` from ``net_arch``/``shared_layers``."""
    import torch

    kwargs = {"net_arch": {"pi": list(opts.net_arch), "vf": list(opts.net_arch)},
              "activation_fn": torch.nn.ReLU}
    if opts.shared_layers:
        from .selfplay import SharedMLP

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


def run_dir_for(opts: TrainOptions) -> Path:
    """The run folder: ``out_dir/run_name`` or ``out_dir/{game}__ppo__{seed}__{time}``.

    A second run of the same game and seed started in the same second gets ``__2``.
    """
    if opts.run_name:
        return Path(opts.out_dir) / opts.run_name
    base = Path(opts.out_dir) / f"{opts.game}__ppo__{opts.seed}__{int(time.time())}"
    path, k = base, 1
    while path.exists():  # two runs started in the same second
        k += 1
        path = base.with_name(f"{base.name}__{k}")
    return path


def train(opts: TrainOptions) -> dict:
    """Train MaskablePPO on ``opts.game`` against the opponent pool; evaluate and save.

    Args:
        opts: the run's options (checked first).

    Returns:
        A JSON-able dict: ``run_dir``, ``checkpoint`` (the final ``.zip``), ``timesteps``
        trained, ``seconds`` (wall time of ``learn``), ``steps_per_s``, ``final_eval``
        (opponent -> win rate over ``final_eval_games``), ``evals`` (the CSV rows),
        ``stopped_by_time`` and ``options``.
    """
    opts.check()
    import torch
    from stable_baselines3.common.logger import configure
    from stable_baselines3.common.utils import set_random_seed

    torch.set_num_threads(opts.torch_threads)
    set_random_seed(opts.seed)
    run_dir = run_dir_for(opts)
    run_dir.mkdir(parents=True, exist_ok=False)
    (run_dir / "options.json").write_text(json.dumps(dataclasses.asdict(opts), indent=1))

    monitor = TrainingMonitor(opts, run_dir, pool=None)  # its clock includes the warm start
    env, pool = make_env(opts)
    monitor.pool = pool
    model = make_model(opts, env)
    formats = ["tensorboard"] + (["stdout"] if opts.verbose else [])
    model.set_logger(configure(str(run_dir / "tb"), formats))

    warmup = {}
    if opts.imitation_steps and get_spec(opts.game).heuristic is not None:
        from fatezoo.agents import HeuristicAgent

        warmup = imitation_warmup(model, env, HeuristicAgent(opts.game, seed=opts.seed + 2),
                                  opts.imitation_steps, opts.imitation_epochs)
        for k in ("accuracy", "policy_loss", "value_loss", "seconds"):
            model.logger.record(f"imitation/{k}", warmup[k])

    start = time.perf_counter()
    try:
        model.learn(opts.timesteps, callback=monitor.sb3_callback(), progress_bar=False)
    finally:
        monitor.bar.close()
        env.close()
    seconds = time.perf_counter() - start
    checkpoint = monitor.checkpoint(model, "final")
    final = monitor.evaluate(model, opts.final_eval_games) if opts.final_eval_games else {}
    model.logger.dump(model.num_timesteps)
    result = {
        "run_dir": str(run_dir), "checkpoint": str(checkpoint),
        "timesteps": int(model.num_timesteps), "seconds": seconds,
        "steps_per_s": model.num_timesteps / seconds if seconds > 0 else None,
        "final_eval": {o: final.get(f"win_vs_{o}") for o in monitor.opponents},
        "final_eval_games": int(opts.final_eval_games), "evals": monitor.evals,
        "stopped_by_time": monitor.stopped_by_time, "imitation": warmup,
        "options": dataclasses.asdict(opts),
    }
    (run_dir / "result.json").write_text(json.dumps(result, indent=1))
    return result


def format_train_result(result: dict) -> str:
    """A few lines summing up a :func:`train` result."""
    lines = [f"trained {result['timesteps']:,} timesteps in {result['seconds']:.0f}s "
             f"({result['steps_per_s'] or 0:,.0f} steps/s)"
             + (" (stopped by the time limit)" if result["stopped_by_time"] else ""),
             f"run: {result['run_dir']}", f"checkpoint: {result['checkpoint']}"]
    for o, w in result["final_eval"].items():
        if w is not None:
            lines.append(f"win rate vs {o}: {100 * w:.1f}% over {result['final_eval_games']} "
                         "games")
    return "\n".join(lines)

