"""``fatezoo train GAME``: MaskablePPO self-play on the batched core, with evals and checkpoints.

The pieces, one module each:

- :mod:`~fatezoo.training.options`: :class:`TrainOptions` (every knob, documented), the
  per-game presets and the command-line flags built from the fields.
- :mod:`~fatezoo.training.train_envs`: the training VecEnv (:func:`make_env`) and the
  MaskablePPO model (:func:`make_model`).
- :mod:`~fatezoo.training.train_eval`: :func:`evaluate`, the greedy policy against an agent.
- :mod:`~fatezoo.training.train_monitor`: :class:`TrainingMonitor` (snapshots, evals,
  checkpoints, progress between PPO steps) and atomic file writes.
- :mod:`~fatezoo.training.train_imitation`: the warm start imitating the heuristic.
- this module: :func:`train`, which ties them together, and the ``fatezoo train`` command.

Import ``fatezoo`` before ``torch`` in your own scripts: ``fatezoo`` sets
``OMP_WAIT_POLICY=PASSIVE`` for numba's OpenMP threads, and a torch loaded first fixes
the spinning default. With another process busy on one of 2 cores, a run with torch
imported first made 459 timesteps/s here, against ~7,500 with fatezoo first.

A run writes, under ``out_dir/{game}__ppo__{seed}__{unix time}/``::

    options.json              the TrainOptions of the run
    tb/                       TensorBoard logs (SB3's rollout/ and train/, plus eval/)
    evals.csv                 timesteps, wall seconds, win rate vs each eval opponent
    checkpoints/step_N.zip    periodic checkpoints (``fatezoo arena --agents ppo:PATH``)
    checkpoints/final.zip     the final policy (also written when interrupted by Ctrl-C)
    result.json               what :func:`train` returns

Checkpoints and ``result.json`` are written to a temporary file and renamed, so a killed run
never leaves a truncated file under those names. torch and SB3 load inside :func:`train`.

>>> from fatezoo.training.train import TrainOptions, train
>>> result = train(TrainOptions("fatefell", timesteps=2_000_000))  # doctest: +SKIP
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import time
from pathlib import Path

from fatezoo.envs.core.docs import install_hint
from fatezoo.envs.core.registry import get_spec

from .options import (
    VECS,
    TrainOptions,
    add_train_arguments,
    options_from_args,
    train_preset,
)
from .train_envs import ObservationOnly, make_env, make_model, policy_kwargs
from .train_eval import GreedyPolicyAgent, eval_opponents, evaluate
from .train_imitation import imitation_warmup, warm_start_rollouts
from .train_monitor import WARM_SHARE, ProgressReport, TrainingMonitor, save_model, write_text


class TrainingInterrupted(KeyboardInterrupt):
    """Ctrl-C stopped :func:`train`; the final checkpoint and ``result.json`` were saved.

    Attributes:
        result: what :func:`train` would have returned (``interrupted`` is True).
    """

    def __init__(self, result: dict):
        super().__init__(f"training interrupted at {result['timesteps']:,} timesteps")
        self.result = result


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


def logger_formats(verbose: bool) -> list[str]:
    """SB3 logger formats: TensorBoard (the train extra installs it), else CSV, said once.

    SB3 fails with a bare ``AssertionError`` when asked for TensorBoard without the package
    (an SB3 installed by hand, without the extra), so the run logs to ``progress.csv``
    instead of crashing.
    """
    try:
        import tensorboard  # noqa: F401
        formats = ["tensorboard"]
    except ImportError:
        print("fatezoo train: tensorboard is not installed, so the training curves go to "
              f"tb/progress.csv ({install_hint('train')} for TensorBoard)", file=sys.stderr)
        formats = ["csv"]
    return formats + (["stdout"] if verbose else [])


def train(opts: TrainOptions) -> dict:
    """Train MaskablePPO on ``opts.game`` against the opponent pool; evaluate and save.

    Ctrl-C (KeyboardInterrupt) during the warm start or PPO stops training, saves
    ``checkpoints/final.zip`` and ``result.json`` (``interrupted``: true, no final eval) and
    raises :class:`TrainingInterrupted` carrying the result.

    Args:
        opts: the run's options (checked first).

    Returns:
        A JSON-able dict: ``run_dir``, ``checkpoint`` (the final ``.zip``), ``timesteps``
        trained, ``seconds`` (wall time of ``learn``), ``steps_per_s``, ``final_eval``
        (opponent -> win rate over ``final_eval_games``; None when ``final_eval_games`` is
        0), ``evals`` (the CSV rows), ``stopped_by_time``, ``interrupted``, ``imitation``
        and ``options``.
    """
    opts.check()
    import torch
    from stable_baselines3.common.logger import configure
    from stable_baselines3.common.utils import set_random_seed

    torch.set_num_threads(opts.torch_threads)
    set_random_seed(opts.seed)
    run_dir = run_dir_for(opts)
    run_dir.mkdir(parents=True, exist_ok=False)
    write_text(run_dir / "options.json", json.dumps(dataclasses.asdict(opts), indent=1))

    monitor = TrainingMonitor(opts, run_dir, pool=None)  # its clock includes the warm start
    env, pool = make_env(opts)
    monitor.pool = pool
    model = make_model(opts, env)
    model.set_logger(configure(str(run_dir / "tb"), logger_formats(opts.verbose)))

    warmup, interrupted, start = {}, False, time.perf_counter()
    try:
        steps = opts.warm_start_steps()
        if steps:
            from fatezoo.agents import HeuristicAgent

            rollout = model.n_steps * env.num_envs
            bar = ProgressReport(warm_start_rollouts(steps, rollout) * rollout,
                                 f"{opts.game} imitate heuristic", enabled=opts.progress,
                                 every=opts.log_every, unit="decisions",
                                 time_left=monitor.warm_start_left)
            try:
                warmup = imitation_warmup(
                    model, env, HeuristicAgent(opts.game, seed=opts.seed + 2), steps,
                    opts.imitation_epochs, progress=bar,
                    out_of_time=lambda: monitor.out_of_time(WARM_SHARE))
            finally:
                bar.close()
            for k in ("accuracy", "policy_loss", "value_loss", "seconds"):
                model.logger.record(f"imitation/{k}", warmup[k])
        start = time.perf_counter()
        model.learn(opts.timesteps, callback=monitor.sb3_callback(), progress_bar=False)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        monitor.bar.close()
        env.close()
    seconds = time.perf_counter() - start
    checkpoint = monitor.checkpoint(model, "final")
    final = None
    if opts.final_eval_games and not interrupted:
        row = monitor.evaluate(model, opts.final_eval_games)
        final = {o: row[f"win_vs_{o}"] for o in monitor.opponents}
    model.logger.dump(model.num_timesteps)
    result = {
        "run_dir": str(run_dir), "checkpoint": str(checkpoint),
        "timesteps": int(model.num_timesteps), "seconds": seconds,
        "steps_per_s": model.num_timesteps / seconds if seconds > 0 else None,
        "final_eval": final, "final_eval_games": 0 if interrupted else int(opts.final_eval_games),
        "evals": monitor.evals, "stopped_by_time": monitor.stopped_by_time,
        "cpu_seconds": monitor.cpu(),
        "interrupted": interrupted, "imitation": warmup,
        "options": dataclasses.asdict(opts),
    }
    write_text(run_dir / "result.json", json.dumps(result, indent=1))
    if interrupted:
        raise TrainingInterrupted(result)
    return result


def format_train_result(result: dict) -> str:
    """A few lines summing up a :func:`train` result."""
    how = (" (stopped by the time limit)" if result["stopped_by_time"] else
           " (interrupted)" if result.get("interrupted") else "")
    cpu = result.get("cpu_seconds")
    lines = [f"trained {result['timesteps']:,} timesteps in {result['seconds']:.0f}s "
             f"({result['steps_per_s'] or 0:,.0f} steps/s){how}"
             + (f"; the whole run used {cpu:,.0f} CPU seconds" if cpu is not None else ""),
             f"run: {result['run_dir']}", f"checkpoint: {result['checkpoint']}"]
    warm = result.get("imitation") or {}
    if warm.get("stopped_by_time"):
        lines.insert(1, f"warm start: imitated {warm['steps']:,} of the {warm['asked']:,} "
                        f"decisions asked ({WARM_SHARE:.0%} of the time limit is its share)")
    if result["final_eval"] is None:
        lines.append("no final evaluation (final_eval_games 0)" if not result.get("interrupted")
                     else "no final evaluation (interrupted)")
    else:
        for o, w in result["final_eval"].items():
            lines.append(f"win rate vs {o}: {100 * w:.1f}% over {result['final_eval_games']} "
                         "games")
    return "\n".join(lines)


def run_train_command(args: argparse.Namespace) -> int:
    """``fatezoo train``: train from parsed arguments, print the result; the exit status.

    Ctrl-C: the final checkpoint is saved, one line says where, and the status is 130.
    """
    opts = options_from_args(args)
    try:
        result = train(opts)
    except TrainingInterrupted as stop:
        r = stop.result
        print(f"fatezoo train: interrupted at {r['timesteps']:,} timesteps; saved "
              f"{r['checkpoint']}", file=sys.stderr)
        return 130
    print(format_train_result(result))
    print(f"try: fatezoo arena {opts.game} --agents heuristic,ppo:{result['checkpoint']}")
    return 0


__all__ = ["GreedyPolicyAgent", "ObservationOnly", "TrainOptions", "TrainingInterrupted",
           "TrainingMonitor", "VECS", "add_train_arguments", "eval_opponents", "evaluate",
           "format_train_result", "get_spec", "imitation_warmup", "make_env", "make_model",
           "options_from_args", "policy_kwargs", "run_dir_for", "run_train_command",
           "save_model", "train", "train_preset"]
