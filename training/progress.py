"""Progress for long command-line work (on stderr): a tiny progress bar, kernel warm-up.

The first run of a game compiles its numba kernels (numba caches them on disk for later
runs). :func:`warm_kernels` does that before anything is timed, so that progress bars,
ETAs and steps/s figures start after it; the compile announces itself
(:mod:`fatezoo.envs.core.compile_notice`).

>>> from fatezoo.training.progress import Progress
>>> with Progress(100, "games", enabled=False) as bar:
...     bar.update(10)
"""

from __future__ import annotations

import sys
import time

import numpy as np

# what a bar says instead of an ETA once its time limit is spent
SPENT = "time limit spent: ending once the work in progress ends"


class Progress:
    """A one-line text progress bar, redrawn in place at most every ``interval`` seconds.

    Args:
        total: the count that means done.
        desc: a short label printed before the bar.
        stream: where to draw (default: ``sys.stderr``).
        enabled: True or False to force; None draws only when ``stream`` is a tty.
        width: bar width in characters.
        interval: least seconds between redraws.
        eta_after: no ETA before this count (games finish together in a batch, so the
            first few say nothing about the rest).
        time_left: optional callable, the seconds a time limit leaves (None: no limit);
            the ETA is never longer, and once the limit is spent there is none: the work in
            progress (a batch of games, a rollout) still ends, and the bar says so.
    """

    def __init__(self, total: int, desc: str = "", stream=None, enabled=None, width: int = 30,
                 interval: float = 0.1, eta_after: int = 1, time_left=None):
        self.total = max(int(total), 0)
        self.desc = desc
        self.stream = sys.stderr if stream is None else stream
        if enabled is None:
            isatty = getattr(self.stream, "isatty", None)
            enabled = bool(isatty and isatty())
        self.enabled = bool(enabled)
        self.width = int(width)
        self.interval = float(interval)
        self.count = 0
        self.start = time.perf_counter()
        self._last = 0.0
        self.eta_after, self.time_left = max(int(eta_after), 1), time_left

    def eta(self, now: float, start: float | None = None) -> float | None:
        """Seconds left at the rate since ``start`` (default: the bar's), or None.

        Capped by ``time_left``; None until the rate is known, and once the limit is spent.
        """
        elapsed = now - (self.start if start is None else start)
        if self.count >= self.total:
            return 0.0
        if self.count < self.eta_after or elapsed <= 0:
            return None
        eta = (self.total - self.count) * elapsed / self.count
        left = self._left()
        if left is not None and left <= 0:
            return None
        return eta if left is None else min(eta, left)

    def _left(self) -> float | None:
        """The seconds ``time_left`` says the limit leaves; None where there is no limit."""
        return self.time_left() if self.time_left is not None else None

    def limit_spent(self) -> bool:
        """Whether ``time_left`` says the time limit is spent.

        The run then ends once the work in progress ends.
        """
        left = self._left()
        return left is not None and left <= 0

    def restart(self) -> None:
        """Start the clock (and the count) again: the ETA ignores what came before."""
        self.count, self.start = 0, time.perf_counter()

    def update(self, n: int = 1) -> None:
        """Advance by ``n`` and redraw if enough time has passed (or at the end)."""
        self.count += int(n)
        if not self.enabled:
            return
        now = time.perf_counter()
        if now - self._last >= self.interval or self.count >= self.total:
            self._last = now
            self._draw(now)

    def _draw(self, now: float) -> None:
        total = max(self.total, 1)
        frac = min(self.count / total, 1.0)
        filled = int(round(frac * self.width))
        elapsed = now - self.start
        eta = self.eta(now)
        bar = "#" * filled + "-" * (self.width - filled)
        label = f"{self.desc}: " if self.desc else ""
        when = (f"eta {'?' if eta is None else f'{eta:.1f}s':>6}"
                if self.count >= self.total or not self.limit_spent() else SPENT)
        self.stream.write(f"\r{label}[{bar}] {self.count}/{self.total} {elapsed:5.1f}s {when} ")
        self.stream.flush()

    def close(self) -> None:
        """Draw the final state and end the line (only if anything was drawn)."""
        if self.enabled:
            self._draw(time.perf_counter())
            self.stream.write("\n")
            self.stream.flush()

    def __enter__(self) -> "Progress":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def cpu_clock() -> float:
    """CPU seconds of this process, all its threads (numba's included)."""
    return time.process_time()


NOT_WITH_RAY = ("--cpu-time-limit counts this process's CPU seconds, and --ray plays the "
                "games in other processes: give one or the other")


class CpuBudget:
    """A limit on this process's CPU seconds, counted from when the budget is made.

    Work that other jobs on the machine slow down still gets its seconds, so a long
    measurement on a shared machine stops where it would on an idle one. Ray workers are
    other processes: their seconds are not counted (callers refuse the two together).

    Args:
        limit: CPU seconds (a number > 0), or None: no limit.
    """

    def __init__(self, limit: float | None):
        if limit is not None and (isinstance(limit, bool)
                                  or not isinstance(limit, (int, float, np.integer,
                                                            np.floating))
                                  or not 0 < limit < float("inf")):
            raise ValueError("--cpu-time-limit must be a finite number of seconds > 0, got "
                             f"{limit!r}")
        self.limit = None if limit is None else float(limit)
        self.start = cpu_clock()

    def spent(self) -> float:
        """CPU seconds since the budget was made."""
        return cpu_clock() - self.start

    def left(self) -> float | None:
        """CPU seconds left (None: no limit); :class:`Progress` caps its ETA with it."""
        return None if self.limit is None else self.limit - self.spent()

    def over(self) -> bool:
        """True once the limit is spent."""
        return self.limit is not None and self.spent() >= self.limit


def warm_kernels(game: str, num_players: int = 2, options: dict | None = None) -> float:
    """Compile (or load from numba's cache) ``game``'s kernels before anything is timed.

    Runs one reset and one step of a 1-game :class:`~fatezoo.VecEnv` and of the AEC
    env, and one call of the game's heuristic, so that progress bars, ETAs and steps/s
    figures start after compiling. A long compile announces itself on stderr
    (:mod:`fatezoo.envs.core.compile_notice`, once per game and entry point); loading
    from the cache prints nothing.

    Args:
        game: registered game name.
        num_players: seats (the options are checked here, before any long work).
        options: further env options.

    Returns:
        The seconds the warm-up took.
    """
    import fatezoo
    from fatezoo.envs.core.registry import get_spec
    from fatezoo.envs.core.rng import rng_rows

    opts = dict(options or {})
    spec = get_spec(game)
    start = time.perf_counter()
    vec = fatezoo.make_vec(game, num_envs=1, seed=0, num_players=num_players, **opts)
    obs, mask, _ = vec.reset()
    vec.step(np.array([int(np.flatnonzero(mask[0])[0])], np.int64))
    if spec.heuristic is not None:
        spec.heuristic(np.ascontiguousarray(obs, np.float32),
                       np.ascontiguousarray(mask, np.int8), rng_rows(0, 1))
    env = fatezoo.make(game, num_players=num_players, **opts)
    env.reset(seed=0)
    env.step(env.legal_actions()[0])
    return time.perf_counter() - start


def rate_text(per_second: float) -> str:
    """A rate as people read it: ``1,234/s``, ``2.5/s``, or ``12/min`` below one a second."""
    if per_second >= 10:
        return f"{per_second:,.0f}/s"
    if per_second >= 1:
        return f"{per_second:.1f}/s"
    return f"{60 * per_second:.2g}/min"


class ProgressReport:
    """Training progress on stderr: a bar on a terminal, else a line every ``every`` seconds.

    Args:
        total: the count that means done.
        desc: a label (``"fatefell train"``).
        enabled: True/False to force; None: on (a bar if ``stream`` is a terminal, else
            lines).
        every: seconds between lines when not on a terminal.
        stream: where to write (default stderr).
        unit: what is counted, in the lines.
        eta_after, time_left: as for :class:`Progress`.
    """

    def __init__(self, total: int, desc: str, enabled: bool | None = None,
                 every: float = 30.0, stream=None, unit: str = "timesteps",
                 eta_after: int = 1, time_left=None):
        self.stream = sys.stderr if stream is None else stream
        isatty = getattr(self.stream, "isatty", None)
        tty = bool(isatty and isatty())
        self.enabled = enabled is not False
        self.total, self.desc, self.every, self.unit = int(total), desc, float(every), unit
        self.bar = Progress(total, desc, stream=self.stream, enabled=self.enabled and tty,
                            eta_after=eta_after, time_left=time_left)
        self.lines = self.enabled and not tty
        self.count = 0
        self.start = self._last = time.perf_counter()

    def restart(self) -> None:
        """Start the clock again (after compiling or a warm start): rates and ETAs begin now."""
        self.bar.restart()
        self.count, self.start = 0, self.bar.start

    def update(self, n: int) -> None:
        """Advance by ``n``; print a line if ``every`` seconds passed since the last one."""
        self.count += int(n)
        self.bar.update(n)
        if self.lines and time.perf_counter() - self._last >= self.every:
            self.line()

    def line(self, extra: str = "") -> None:
        """Print one progress line now (no-op on a terminal or when disabled)."""
        if not self.lines:
            return
        now = time.perf_counter()
        self._last = now
        elapsed = now - self.start
        rate = self.count / elapsed if elapsed > 0 else 0.0
        pct = 100.0 * self.count / self.total if self.total else 100.0
        text = (f"{self.desc}: {self.count:,}/{self.total:,} {self.unit} ({pct:.0f}%), "
                f"{elapsed:.0f}s, {rate_text(rate)}")
        eta = self.bar.eta(now, self.start)
        if self.count < self.total and self.bar.limit_spent():
            text += f", {SPENT}"
        elif eta is not None and self.count < self.total:
            text += f", eta {eta:.0f}s"
        self.stream.write(text + (f"; {extra}" if extra else "") + "\n")
        self.stream.flush()

    def close(self) -> None:
        """End the bar's line, or print a last line."""
        self.bar.close()
        if self.lines and self.count:
            self.line("done" if self.count >= self.total else "stopped")
            self.lines = False
