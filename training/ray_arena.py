"""The arena on Ray: ``fatezoo arena GAME --ray [ADDRESS]`` splits the games over Ray workers.

The arena's games are independent: game ``g``'s result depends only on its seed, its
seating and its seats' agent streams (:mod:`fatezoo.training.arena`), never on which other
games share its batch or process. So the games are cut into contiguous chunks, each chunk
is one Ray task that builds the agents from their specs (``make_agent`` with the arena's
agent seeds) and plays it with :func:`~fatezoo.training.arena.play_games`, and the driver
puts the rows back in order and scores them exactly as the local arena does. The result is
the local arena's, bit for bit, for any number of workers and any chunk size (only
``seconds`` differs).

- Workers: at most ``workers`` chunks are in flight at once (None: one per CPU of the Ray
  cluster). Each task asks for one CPU and runs numba with one thread
  (``NUMBA_NUM_THREADS=1``), so N workers use N cores.
- Fault tolerance: a chunk whose worker dies (killed, out of memory, node lost) is rerun
  by Ray on another worker, up to ``max_retries`` times; a rerun chunk gives the same rows,
  so the result is unchanged. An exception raised by the game code itself is not retried.
- Progress: the bar advances by a chunk's games when that chunk comes back, and redraws
  every ``HEARTBEAT`` seconds while none does (so a searching arena's first lines come
  before its first chunk, with the time so far). By default a run is cut into about
  ``CHUNKS_PER_WORKER`` chunks per worker, so the progress moves in small steps and the
  workers finish close together; the ETA comes once every worker's first chunk is back.
- Stopping: with ``save_games`` every chunk's games are on disk as soon as it comes back,
  and the same command goes on from them (:mod:`.saved_games`).
- Ray: ``address=None`` starts a local Ray (``num_cpus=workers``) for the run and stops it
  afterwards; an address (``auto``, ``ray://host:10001``, ``host:6379``) joins a running
  cluster (started with ``ray start --head``). Every node needs fatezoo installed, and an
  agent that loads a file (``ppo:PATH``, ``rllib:PATH``) needs that path on every node.

Ray is imported only inside :func:`run_ray_arena` (``pip install 'fatezoo[ray]'``).

>>> from fatezoo.training.ray_arena import run_ray_arena
>>> result = run_ray_arena("fatefell", ["random", "heuristic"], games=64,
...                        workers=2)  # doctest: +SKIP
"""

from __future__ import annotations

import math
import os
import signal

from fatezoo.envs.core.docs import install_hint

from .arena import play_games, played_arrays, run_arena

MAX_RETRIES = 3  # reruns of a chunk whose worker died
CHUNKS_PER_WORKER = 16  # default chunks per worker: the progress's step and the tail's idle time
HEARTBEAT = 30.0  # seconds between progress redraws while no chunk comes back
_AGENTS: dict = {}  # per worker process: the agents of the last arena, built once


def _worker_agents(game, specs, agent_seeds, num_players):
    """The arena's agents in this worker process (built once per arena, then reused)."""
    from fatezoo.agents import make_agent

    key = (game, tuple(specs), tuple(agent_seeds), int(num_players))
    if key not in _AGENTS:
        _AGENTS.clear()
        _AGENTS[key] = [make_agent(s, game, num_players=num_players, seed=agent_seeds[i])
                        for i, s in enumerate(specs)]
    return _AGENTS[key]


def play_chunk(game, specs, agent_seeds, seat_agents, seeds, num_players, options, batch,
               kill_once=None, score_field=None):
    """One Ray task: play a chunk of arena games; what :func:`play_games` returns.

    ``kill_once``: for the fault-tolerance test, a file path: the first attempt to find no
    file there creates it and kills its own worker process (SIGKILL), as a crash would.
    """
    if kill_once is not None:
        try:
            fd = os.open(kill_once, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileExistsError:
            pass
        else:
            os.close(fd)
            os.kill(os.getpid(), signal.SIGKILL)
    agents = _worker_agents(game, specs, agent_seeds, num_players)
    return play_games(game, agents, seat_agents, seeds, num_players, options, batch,
                      score_field=score_field)


def _init_ray(address, workers):
    """Connect to ``address`` or start a local Ray; True when this call started it."""
    try:
        import ray
    except ImportError as e:
        raise ImportError(f"--ray needs the ray extra: {install_hint('ray')}") from e
    if ray.is_initialized():
        return False
    if address in (None, "", "local"):
        ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False,
                 configure_logging=False)
    else:
        try:
            ray.init(address=address, log_to_driver=False, configure_logging=False)
        except ConnectionError as err:
            raise ValueError(f"--ray {address!r}: cannot connect to a Ray cluster there "
                             f"({str(err).splitlines()[0] if str(err) else 'no answer'}); "
                             "start one with `ray start --head`") from None
    return True


def ray_runner(workers: int | None = None, chunk: int | None = None,
               max_retries: int = MAX_RETRIES, kill_once: str | None = None):
    """A ``runner`` for :func:`~fatezoo.training.arena.run_arena` playing chunks on Ray.

    Ray must be initialized when the runner is called (:func:`run_ray_arena` does it).

    Args:
        workers: chunks in flight at once (None: the cluster's CPUs).
        chunk: games per task (None: about ``CHUNKS_PER_WORKER`` chunks per worker, at
            most ``batch``).
        max_retries: reruns of a chunk whose worker died.
        kill_once: see :func:`play_chunk` (tests only).
    """
    import ray

    remote = ray.remote(num_cpus=1, max_retries=int(max_retries),
                        runtime_env={"env_vars": {"NUMBA_NUM_THREADS": "1"}})(play_chunk)

    def chunking(g, batch):
        """(chunks in flight, games per chunk) for ``g`` games."""
        inflight = workers or max(1, int(ray.cluster_resources().get("CPU", 1)))
        return inflight, chunk or max(1, min(int(batch),
                                             math.ceil(g / (CHUNKS_PER_WORKER * inflight))))

    def run(game, specs, agent_seeds, seat_agents, seeds, num_players, options, batch,
            progress, score_field=None, on_rows=None):
        g = len(seeds)
        inflight, size = chunking(g, batch)
        bounds = [(lo, min(lo + size, g)) for lo in range(0, g, size)]
        out = played_arrays(g, num_players, score_field)
        pending: dict = {}
        todo = list(bounds)
        try:
            while todo or pending:
                while todo and len(pending) < inflight:
                    lo, hi = todo.pop(0)
                    ref = remote.remote(game, list(specs), list(agent_seeds),
                                        seat_agents[lo:hi], seeds[lo:hi], num_players,
                                        options, batch, kill_once, score_field)
                    pending[ref] = (lo, hi)
                done, _ = ray.wait(list(pending), num_returns=1, timeout=HEARTBEAT)
                if not done and progress is not None:
                    progress.update(0)  # no chunk yet: the line still shows the time so far
                for ref in done:
                    lo, hi = pending.pop(ref)
                    try:
                        rows = ray.get(ref)
                    except ray.exceptions.RayTaskError as err:  # raised by the game code
                        cause = err.cause
                        if isinstance(cause, (ValueError, TypeError, OSError, ImportError)):
                            raise cause from None
                        raise
                    except ray.exceptions.RayError as err:
                        first = str(err).strip().splitlines()[0] if str(err) else ""
                        raise RuntimeError(f"ray arena: games {lo}..{hi - 1} failed after "
                                           f"{max_retries} reruns: {type(err).__name__}"
                                           f"{': ' + first if first else ''}") from None
                    for array, part in zip(out, rows):
                        array[lo:hi] = part
                    if on_rows is not None:
                        on_rows(lo, hi, rows)
                    if progress is not None:
                        progress.update(hi - lo)
        finally:
            for ref in pending:
                ray.cancel(ref, force=True)
        return tuple(out)

    def eta_after(g, batch):
        """Games after which the rate is known: the first chunk of every worker."""
        inflight, size = chunking(g, batch)
        return min(g, inflight * size)

    run.eta_after = eta_after
    return run


def run_ray_arena(game: str, agents: list[str], games: int = 1000, num_players: int = 2,
                  seed: int = 0, batch: int = 256, options: dict | None = None,
                  progress: bool | None = False, prior_games: float = 1.0,
                  address: str | None = None, workers: int | None = None,
                  chunk: int | None = None, max_retries: int = MAX_RETRIES,
                  kill_once: str | None = None, save_games: str | None = None) -> dict:
    """:func:`~fatezoo.training.arena.run_arena` with the games played on Ray workers.

    Args:
        game: registered game name.
        agents: agent specs (at least 2).
        games: total games.
        num_players: seats per game.
        seed: arena seed.
        batch: games run at once on a worker's vector env.
        options: further env options.
        progress: the stderr progress bar (True, False, None: only on a tty).
        prior_games: the ratings' prior (all of these as for
            :func:`~fatezoo.training.arena.run_arena`: the result is the same).
        address: a Ray cluster to join (None or ``"local"``: start a local Ray for this
            call and stop it at the end; an already initialized Ray is used as it is).
        workers: chunks in flight at once, and the CPUs of a local Ray (None: all CPUs).
        chunk: games per Ray task (None: about ``CHUNKS_PER_WORKER`` chunks per worker, at
            most ``batch``).
        max_retries: reruns of a chunk whose worker died.
        kill_once: tests only (see :func:`play_chunk`).
        save_games: a file each finished chunk's games are appended to, and the games
            already there read instead of played (:mod:`.saved_games`): a stopped Ray
            arena goes on, with or without Ray, and gives the unbroken arena's result.

    Returns:
        The :func:`~fatezoo.training.arena.run_arena` dict.
    """
    for name, value in (("workers", workers), ("chunk", chunk)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                                  or value < 1):
            raise ValueError(f"{name} must be a positive int or None, got {value!r}")
    if isinstance(max_retries, bool) or not isinstance(max_retries, int) or max_retries < 0:
        raise ValueError(f"max_retries must be an int >= 0, got {max_retries!r}")
    started = _init_ray(address, workers)
    try:
        runner = ray_runner(workers, chunk, max_retries, kill_once)
        return run_arena(game, agents, games=games, num_players=num_players, seed=seed,
                         batch=batch, options=options, progress=progress,
                         prior_games=prior_games, runner=runner, save_games=save_games)
    finally:
        if started:
            import ray

            ray.shutdown()


__all__ = ["CHUNKS_PER_WORKER", "HEARTBEAT", "MAX_RETRIES", "play_chunk", "ray_runner",
           "run_ray_arena"]
