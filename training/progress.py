"""A tiny dependency-free progress bar for long command-line work (written to stderr).

>>> from fatezoo.training.progress import Progress
>>> with Progress(100, "games", enabled=False) as bar:
...     bar.update(10)
"""

from __future__ import annotations

import sys
import time


class Progress:
    """A one-line text progress bar, redrawn in place at most every ``interval`` seconds.

    Args:
        total: the count that means done.
        desc: a short label printed before the bar.
        stream: where to draw (default: ``sys.stderr``).
        enabled: True or False to force; None draws only when ``stream`` is a tty.
        width: bar width in characters.
        interval: least seconds between redraws.
    """

    def __init__(self, total: int, desc: str = "", stream=None, enabled=None, width: int = 30,
                 interval: float = 0.1):
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
        rate = self.count / elapsed if elapsed > 0 else 0.0
        eta = (self.total - self.count) / rate if rate > 0 else 0.0
        bar = "#" * filled + "-" * (self.width - filled)
        label = f"{self.desc}: " if self.desc else ""
        self.stream.write(f"\r{label}[{bar}] {self.count}/{self.total} "
                          f"{elapsed:5.1f}s eta {max(eta, 0.0):5.1f}s ")
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
