"""What runs between PPO steps (snapshots, evals, checkpoints, progress) and atomic saving.

:class:`TrainingMonitor` is plain Python; :meth:`TrainingMonitor.sb3_callback` wraps it as an
SB3 callback. :class:`~fatezoo.training.progress.ProgressReport` draws a bar on a terminal
and otherwise prints a short line every ``log_every`` seconds and at each evaluation (so CI
logs and ``nohup`` runs show progress). Files a run keeps are written to a temporary file
in the same folder, then renamed over the final name (:func:`atomic_write`): an
interrupted save never leaves a truncated ``.zip`` or ``result.json`` behind.
"""

from __future__ import annotations

import contextlib
import csv
import os
import secrets
import time
from pathlib import Path

from .options import TrainOptions
from .progress import ProgressReport, cpu_clock
from .train_eval import GreedyPolicyAgent, eval_opponents, evaluate


@contextlib.contextmanager
def atomic_write(path, mode: str = "wb"):
    """Open a temporary file beside ``path``; on success rename it to ``path``.

    On an exception (KeyboardInterrupt included) the temporary file is removed and
    ``path`` is left as it was.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    # opened with "x" (not mkstemp, whose files are private): the usual permissions
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    try:
        with open(tmp, mode.replace("w", "x")) as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


# the env's last observations and episode buffers: 0.7 MB at 256 envs, and load() restarts
# from a reset env anyway
ROLLOUT_LEFTOVERS = ("_last_obs", "_last_original_obs", "_last_episode_starts",
                     "ep_info_buffer", "ep_success_buffer")


def save_model(model, path, optimizer: bool = True) -> Path:
    """``model.save`` to ``path`` atomically (never a partial file at ``path``).

    The rollout leftovers (:data:`ROLLOUT_LEFTOVERS`) are not saved. ``optimizer=False``
    saves a fresh optimizer state instead of Adam's moments (a checkpoint about a third the
    size, for sharing; fine-tuning from it restarts Adam).
    """
    path = Path(path)
    saved = None
    if not optimizer:
        policy = model.policy
        saved = policy.optimizer
        policy.optimizer = policy.optimizer_class(policy.parameters(), lr=model.lr_schedule(1),
                                                  **policy.optimizer_kwargs)
    try:
        with atomic_write(path) as f:
            model.save(f, exclude=list(ROLLOUT_LEFTOVERS))
    finally:
        if saved is not None:
            model.policy.optimizer = saved
    return path


def write_text(path, text: str) -> None:
    """Write ``text`` to ``path`` atomically."""
    with atomic_write(path, "w") as f:
        f.write(text)


WARM_SHARE = 0.25  # the most of a time limit the imitation warm start may take


class TrainingMonitor:
    """What runs between PPO steps: snapshots, evals, checkpoints, progress, time limit.

    A time limit bounds the whole run: the warm start stops at :data:`WARM_SHARE` of it,
    PPO stops early enough for the final evaluation (its cost is estimated from the first
    evaluation's), and PPO always finishes its first rollout and update (a short run still
    trains).

    Args:
        opts: the run's options.
        run_dir: the run folder.
        pool: the self-play opponent pool (None: no snapshots).
    """

    def __init__(self, opts: TrainOptions, run_dir: Path, pool=None):
        self.opts = opts
        self.run_dir = Path(run_dir)
        self.pool = pool
        self.start, self.cpu_start = time.perf_counter(), cpu_clock()
        self.next_snapshot = 0
        self.next_eval = opts.eval_every if opts.eval_every else None
        self.next_checkpoint = opts.checkpoint_every if opts.checkpoint_every else None
        self.opponents = eval_opponents(opts)
        self.csv_path = self.run_dir / "evals.csv"
        self.evals: list[dict] = []
        self.stopped_by_time = False
        self.reserve = (0.0, 0.0)  # (wall, CPU) seconds kept for the final evaluation
        self.games_by_opponent: dict[str, tuple] = {}  # opponent -> (games, return, won)
        with open(self.csv_path, "w", newline="") as f:
            csv.writer(f).writerow(["timesteps", "wall_seconds", "games"]
                                   + [f"win_vs_{o}" for o in self.opponents])
        # learn() runs whole rollouts: the bar's total is the timesteps it will really run
        self.bar = ProgressReport(opts.planned_timesteps(), f"{opts.game} train",
                                  enabled=opts.progress, every=opts.log_every,
                                  time_left=self.time_left)

    def wall(self) -> float:
        """Seconds since the monitor was made."""
        return time.perf_counter() - self.start

    def cpu(self) -> float:
        """CPU seconds of this process (all threads) since the monitor was made."""
        return cpu_clock() - self.cpu_start

    def time_left(self, share: float = 1.0) -> float | None:
        """Seconds until ``share`` of the tighter time limit, less the final eval's reserve.

        None without a limit. CPU seconds count as seconds (an estimate for the wall).
        """
        opts, left = self.opts, []
        if opts.time_limit is not None:
            left.append(share * opts.time_limit - self.wall() - self.reserve[0])
        if opts.cpu_time_limit is not None:
            left.append(share * opts.cpu_time_limit - self.cpu() - self.reserve[1])
        return min(left) if left else None

    def out_of_time(self, share: float = 1.0) -> bool:
        """True once the wall or the CPU time limit (``share`` of it) is reached."""
        left = self.time_left(share)
        return left is not None and left <= 0

    def warm_start_left(self) -> float | None:
        """Seconds the warm start has left of its share of the time limit (None: no limit)."""
        return self.time_left(WARM_SHARE)

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
        self.bar.line("eval " + ", ".join(f"vs {o} {100 * row[f'win_vs_{o}']:.1f}%"
                                          for o in self.opponents))
        return row

    def checkpoint(self, model, name: str) -> Path:
        """Save the model as ``checkpoints/{name}.zip`` (atomically)."""
        return save_model(model, self.run_dir / "checkpoints" / f"{name}.zip")

    def on_training_start(self, model) -> None:
        """Take the first snapshot and evaluate the policy before PPO (timestep 0).

        The first evaluation's cost, scaled to ``final_eval_games``, is kept back from the
        time limit for the final one; the progress clock starts after it.
        """
        self.snapshot(model)
        self.next_snapshot = model.num_timesteps + self.opts.snapshot_every
        wall, cpu = self.wall(), self.cpu()
        self.evaluate(model, self.opts.eval_games)
        scale = self.opts.final_eval_games / max(self.opts.eval_games, 1)
        self.reserve = (scale * (self.wall() - wall), scale * (self.cpu() - cpu))
        self.bar.restart()

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
        # the first rollout and its update always run: stopping inside it would drop it
        timed_out = t > model.n_steps * num_envs and self.out_of_time()
        last = timed_out or t >= self.opts.planned_timesteps()
        if self.next_eval is not None and t >= self.next_eval:
            if not (last and self.opts.final_eval_games):  # the final eval takes this timestep
                self.evaluate(model, self.opts.eval_games)
            self.next_eval = t + self.opts.eval_every
        if self.next_checkpoint is not None and t >= self.next_checkpoint:
            self.checkpoint(model, f"step_{t}")
            self.next_checkpoint = t + self.opts.checkpoint_every
        if timed_out:
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


__all__ = ["ProgressReport", "TrainingMonitor", "atomic_write", "save_model", "write_text"]
