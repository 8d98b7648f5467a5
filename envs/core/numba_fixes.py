"""Two defects of numba's on-disk cache and one of its compile cost, removed at import.

**Symbols that carry the game.** Numba names a compiled function by its qualified name,
a per-process counter (the ``v<n>`` ABI tag) and the mangled argument types, and it
mangles a record type by a per-process counter too (``Record._code``, the order in which
the process first met the type), not by its fields. The shared drivers
(``kernels.settle``, ``kernels._row``, ...) are one Python function specialised per
game record, so two processes that each compile one game in the same order give both
games' specialisations the same symbol. A third process that loads both from the cache
hands both to LLVM, which keeps one body per symbol: the second game runs the first
game's code (numba issue 10486). :func:`mangle_records_by_content` mangles a record by a
hash of its full description instead: field names, types and offsets, which for a game
record include ``<game>_format`` and the ``_code_<fingerprint>`` of its sources. Every
symbol specialised on a game record then names that game and source version, in every
process, so two games can never share one; functions taking no record are the same code
for every game, so sharing their symbols is harmless.

**Index and data written together.** Numba's cache file for a function holds an index
(signature -> data file) and one data file per signature. Saving reads the index, picks
the next free data name and writes both, with no lock, so two processes saving
signatures of one function at once (two games' drivers compiled side by side) can both
pick ``.1.nbc`` and leave an index entry pointing at the other signature's code.
:func:`lock_cache_saves` makes a save an exclusive section under a lock file beside the
index (``fcntl.flock``), data first, then the index; readers need no lock (both files are
replaced atomically, and an entry whose data is missing is a cache miss).

**Each call graph optimised once.** Numba compiles every jitted callee into a library of
its own and finishes it at once: it links in the callee's callees, runs LLVM's whole-module
passes over the result and emits machine code. A caller then links that already optimised
module and optimises it again with its own code, so a kernel ``d`` calls deep is optimised
``d`` times (the AEC env's first Villainous step ran them on 163 libraries, 28 of its 76 s).
:func:`optimise_once` runs the whole-module passes only for a library that is not a
callee being compiled for another compile, the top-level kernel called from Python; its
callees keep numba's per-function passes, and the top-level kernel optimises the linked
whole once, inlining across it as before. A callee's own machine code is used only if
Python later calls it directly, without the whole-module passes; the core's entry kernels
(``kernels._row``, ``_rows_parallel``, ``_rows_serial``, ``first_bad_action``, a game's
``act_serial``, ISMCTS's ``search_*``) are called from Python only.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import threading

from numba.core import event

_APPLIED = "_fatezoo_fixed"


def record_symbol(name: str) -> str:
    """The mangling token of a record type named ``name``: a hash of its description."""
    return "r" + hashlib.sha1(name.encode()).hexdigest()[:20]


def mangle_records_by_content() -> None:
    """Make numba mangle ``Record`` types by a hash of their description (idempotent)."""
    from numba.core.types import npytypes

    if getattr(npytypes.Record, _APPLIED, False):
        return

    def mangling_args(self):
        return type(self).__name__, (record_symbol(self.name),)

    npytypes.Record.mangling_args = property(mangling_args)
    setattr(npytypes.Record, _APPLIED, True)


@contextlib.contextmanager
def _flock(path: str):
    import fcntl

    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing releases the lock


def lock_cache_saves() -> None:
    """Make numba's cache saves atomic across processes (idempotent; POSIX only)."""
    from numba.core import caching

    cls = caching.IndexDataCacheFile
    if getattr(cls, _APPLIED, False) or os.name != "posix":
        return

    def save(self, key, data):
        with _flock(self._index_path + ".lock"):
            overloads = self._load_index()
            data_name = overloads.get(key)
            if data_name is None:
                taken = set(overloads.values())
                number = len(overloads) + 1
                while self._data_name(number) in taken:
                    number += 1
                data_name = self._data_name(number)
            self._save_data(data_name, data)
            overloads[key] = data_name
            self._save_index(overloads)

    cls.save = save
    setattr(cls, _APPLIED, True)


class _CompileDepth(event.Listener):
    """How many dispatcher compiles are running on this thread (numba's compile events).

    Registered when this module is imported, before any other fatezoo listener, so a later
    listener sees the depth with its own compile counted (1 in the outermost one's
    ``on_start``, 0 in its ``on_end``).
    """

    def __init__(self):
        self.local = threading.local()

    def on_start(self, ev):
        self.local.n = self.now() + 1

    def on_end(self, ev):
        self.local.n = self.now() - 1

    def now(self) -> int:
        return getattr(self.local, "n", 0)


COMPILE_DEPTH = _CompileDepth()
event.register("numba:compile", COMPILE_DEPTH)
OPTIMISED: list = []  # names of the libraries whose whole module this process optimised


def optimise_once() -> None:
    """Optimise a call graph's whole module once, at its top-level kernel (idempotent).

    Skipped when ``FATEZOO_OPTIMISE_EVERY_LIBRARY=1`` (numba's own behaviour, for
    measuring against it).
    """
    from numba.core import codegen

    cls = codegen.CPUCodeLibrary
    if getattr(cls, _APPLIED, False) or os.environ.get("FATEZOO_OPTIMISE_EVERY_LIBRARY") == "1":
        return

    whole_module = cls._optimize_final_module

    def _optimize_final_module(self):
        if COMPILE_DEPTH.now() <= 1:
            OPTIMISED.append(self.name)
            whole_module(self)

    cls._optimize_final_module = _optimize_final_module
    setattr(cls, _APPLIED, True)


def apply() -> None:
    """Apply the three fixes (called when ``fatezoo.envs.core`` is imported)."""
    mangle_records_by_content()
    lock_cache_saves()
    optimise_once()


apply()
