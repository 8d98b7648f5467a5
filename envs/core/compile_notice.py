"""One line on stderr when a game's kernels compile for long, from any entry point.

A first use compiles a game's kernels (tens of seconds on two cores); later processes
load them from numba's cache in about a second and print nothing. The listener below
watches numba's compile events: when a top-level compile of a fatezoo kernel is still
running after ``NOTICE_AFTER`` seconds it writes, once per game and entry point::

    fatezoo: compiling villainous kernels for the AEC env (first use; about 45 s on 2
    cores; later runs load them from the cache)

and, when that compile ends, ``fatezoo: villainous kernels for the AEC env compiled in
44 s``. ``fatezoo compile GAME`` compiles every entry point ahead of use. Set
``FATEZOO_QUIET_COMPILE=1`` to silence the notices (``FATEZOO_COMPILE_NOTICE_AFTER``
sets the seconds before one).
"""

from __future__ import annotations

import os
import sys
import threading
import time

from numba.core import event, types

from .numba_fixes import COMPILE_DEPTH  # registered first: counts this compile

NOTICE_AFTER = float(os.environ.get("FATEZOO_COMPILE_NOTICE_AFTER", 2.0))  # seconds before it

# top-level kernel (qualified name) -> the entry point a user reaches it through
ENTRY_OF = {
    "_row": "the AEC env",
    "batch_step": "the vector env",
    "_rows_parallel": "the vector env",
    "_rows_serial": "self-play",
    "search_batch": "ISMCTS",
    "batch_policy_actions": "the heuristic",
    "serial_policy_actions": "the heuristic",
}

_estimates: dict = {}  # game -> {entry: seconds}, filled by GameSpec


def set_estimates(game: str, seconds: dict) -> None:
    """Record ``game``'s measured cold compile seconds per entry point (for the notice)."""
    _estimates[game] = dict(seconds)


def game_of(dispatcher, args) -> str | None:
    """The fatezoo game a compile is for: its record type, else the kernel's module."""
    for t in args:
        dtype = getattr(t, "dtype", t)
        if isinstance(dtype, types.Record):
            first = next(iter(dtype.fields), "")
            if first.endswith("_format"):
                return first[: -len("_format")]
    module = getattr(getattr(dispatcher, "py_func", None), "__module__", "") or ""
    parts = module.split(".")
    if len(parts) >= 4 and parts[:2] == ["fatezoo", "envs"] and parts[2] != "core":
        return parts[2]
    return None


def entry_of(dispatcher) -> str:
    """The entry point a top-level kernel serves (``the heuristic`` for a game's own)."""
    func = getattr(dispatcher, "py_func", None)
    name = getattr(func, "__qualname__", "")
    if name in ENTRY_OF:
        return ENTRY_OF[name]
    if getattr(func, "__module__", "").endswith(".heuristic"):
        return "the heuristic"
    return name or "a kernel"


class CompileNotice(event.Listener):
    """Announces long top-level compiles (see the module doc)."""

    def __init__(self, stream=None, after: float = NOTICE_AFTER):
        self.stream, self.after = stream, after
        self.local = threading.local()
        self.said: set = set()

    def _write(self, text: str) -> None:
        stream = self.stream or sys.stderr
        stream.write(text + "\n")
        stream.flush()

    def on_start(self, ev):
        """A compile begins: time the outermost one of this thread."""
        if COMPILE_DEPTH.now() > 1:
            return
        data = ev.data or {}
        game = game_of(data.get("dispatcher"), data.get("args", ()))
        self.local.job = None
        if game is None:
            return
        key = (game, entry_of(data.get("dispatcher")))
        job = {"key": key, "start": time.perf_counter(), "said": False}
        if key not in self.said:
            job["timer"] = threading.Timer(self.after, self._announce, (job,))
            job["timer"].daemon = True
            job["timer"].start()
        self.local.job = job

    def _announce(self, job) -> None:
        game, entry = job["key"]
        if job["key"] in self.said:
            return
        self.said.add(job["key"])
        job["said"] = True
        kind = {"the AEC env": "aec", "the vector env": "vector", "the heuristic": "heuristic",
                "ISMCTS": "ismcts"}.get(entry)
        guess = _estimates.get(game, {}).get(kind)
        about = f"about {guess:.0f} s on 2 cores" if guess else "up to a few minutes"
        self._write(f"fatezoo: compiling {game} kernels for {entry} (first use; {about}; "
                    f"later runs load them from the cache)")

    def on_end(self, ev):
        """A compile ends: close the notice of the outermost one."""
        if COMPILE_DEPTH.now():
            return
        job = getattr(self.local, "job", None)
        self.local.job = None
        if job is None:
            return
        if "timer" in job:
            job["timer"].cancel()
        if job["said"]:
            game, entry = job["key"]
            seconds = time.perf_counter() - job["start"]
            self._write(f"fatezoo: {game} kernels for {entry} compiled in {seconds:.0f} s")


LISTENER = CompileNotice()
if os.environ.get("FATEZOO_QUIET_COMPILE", "") in ("", "0"):
    event.register("numba:compile", LISTENER)
