"""Two defects of numba's on-disk cache and four of its compile cost, removed at import.

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
whole once, inlining across it as before. A parallel kernel (one ``prange`` loop) is four
libraries, each linking the one below: the loop body (a gufunc, optimised), two wrappers
and the kernel; only the body's library is optimised (:func:`is_parfor_wrapper`,
:func:`runs_a_parfor`), where all four were.

**Machine code emitted cheaply where it never runs.** Numba also emits machine code for
every library at once, each with its linked callees, at -O3: the AEC env's first Foretold
step spent 13 of its 41 s emitting code for callee libraries, although the code that runs
is the top-level kernel's own linked copy of them. :func:`emit_callees_fast` emits a
callee's library, and a parallel kernel's loop body and wrappers, at -O0 on a second JIT
engine of the process: numba still gets the entry address and the object code it caches,
and the code of a callee runs only if Python calls the callee itself (tests do), correct
and slower. The core's entry kernels (``kernels._row``, ``_rows_parallel``,
``_rows_serial``, ``first_bad_action``, ``serial_random_actions``,
``serial_policy_actions``, ISMCTS's ``search_batch``) are called
from Python only, compiled as top-level kernels at -O3. A library loaded from the cache
goes to the main engine, as numba puts it.

**A table read as a module typed as cheaply as a name.** The games' kernels read their
tables as module attributes (``S.PASS``, ``C.F_COST``), so one import line serves a module
that reads dozens of them. Numba types ``S.PASS`` as a module global and then an attribute
lookup on it, which costs type inference and lowering more than the global ``PASS`` that
``from .state import PASS`` gives: about 12% of a constant-heavy kernel's compile time
(Foretold's encoder, its action dispatcher). :class:`ModuleConstants`, a rewrite that runs
before type inference, replaces each ``M.X`` whose ``M`` is a module of this package by the
global ``X`` with the value ``M.X`` holds at compile time, which is what numba freezes
either way; the generated code is the same.

**An inlined kernel inlined from the IR built for it.** For each call of a kernel marked
``inline="always"`` numba builds the callee's IR afresh and then deep-copies it twice: once
to protect the IR it was handed and once to return an unmutated copy, which its inlining
pass throws away. Neither protects anything when the IR was built for that call, as it
always is there. The games' per-phase kernels are inlined so (51 of them in Foretold),
and the copies took 0.84 of Foretold's 33 s AEC first use. :func:`inline_without_copies`
runs numba's ``InlineWorker.inline_function`` with a copy that shares (0.21 s); it returns
no unmutated callee IR (``None`` in its place). ``FATEZOO_NUMBA_INLINER_COPIES=1`` keeps
numba's copies, for measuring against them.

``FATEZOO_OPTIMISE_EVERY_LIBRARY=1`` restores numba's own behaviour for the two LLVM
fixes (optimised once, emitted cheaply), for measuring against it; the module-constant
rewrite always applies.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import threading
import types

from numba.core import event, ir, ir_utils
from numba.core.rewrites import Rewrite, register_rewrite

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


def is_parfor_wrapper(library) -> bool:
    """Whether ``library`` is one of the wrappers numba puts around a ``prange`` loop's body.

    A parallel kernel compiles its loop body as a gufunc (an optimised library of its own),
    then two wrapper libraries and the kernel itself, each linking the one below, so the
    whole call graph was optimised four times. The body's library is optimised; the
    wrappers only call it, so their whole-module passes would re-optimise the same code.
    """
    name = library.name
    return name == "parallelgufuncwrapper" or name.startswith("<numba.np.ufunc.wrappers.")


def is_parfor_body(library) -> bool:
    """Whether ``library`` is a ``prange`` loop's body compiled as a gufunc."""
    return library.name.startswith("__numba_parfor_gufunc")


def runs_a_parfor(library) -> bool:
    """Whether ``library`` links a ``prange`` loop's wrapper (a parallel kernel).

    The core's parallel kernels (``kernels._rows_parallel``, ``batch_random_actions``,
    ISMCTS's ``search_batch``) are one ``prange`` loop and nothing else: their own code
    launches the loop, and everything they run is in the loop body's optimised library.
    """
    return any(is_parfor_wrapper(lib) for lib in library._linking_libraries)


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
        if COMPILE_DEPTH.now() <= 1 and not is_parfor_wrapper(self) and not runs_a_parfor(self):
            OPTIMISED.append(self.name)
            whole_module(self)

    cls._optimize_final_module = _optimize_final_module
    setattr(cls, _APPLIED, True)


_CALLEE_ENGINE = "_fatezoo_callee_engine"
CALLEE_CODEGEN: list = []  # names of the libraries this process emitted on the callee engine
_LAST_ENGINE: list = [None]  # the engine of the library finalized last (its env is set next)


def _new_engine(codegen, opt: int):
    """A JIT engine of ``codegen``'s process emitting machine code at ``-O<opt>``."""
    import llvmlite.binding as ll
    from numba.core import codegen as numba_codegen

    options = {"opt": opt}
    codegen._customize_tm_options(options)
    target = ll.Target.from_triple(ll.get_process_triple())
    empty = ll.parse_assembly(str(codegen._create_empty_module("fatezoo_engine")))
    engine = numba_codegen.JitEngine(
        ll.create_mcjit_compiler(empty, target.create_target_machine(**options)))
    cls = codegen._library_class
    engine.set_object_cache(cls._object_compiled_hook, cls._object_getbuffer_hook)
    return engine


def _callee_engine(codegen):
    """The engine of the process's callee libraries (-O0), made on first use."""
    engine = getattr(codegen, _CALLEE_ENGINE, None)
    if engine is None:
        engine = _new_engine(codegen, 0)
        setattr(codegen, _CALLEE_ENGINE, engine)
    return engine


def engine_role(library, depth: int) -> str:
    """``"callee"`` or ``"top"``: the engine a library being finalized goes to.

    A library compiled for another compile (``depth > 1``) or loaded from the cache while
    another compile types its call (``depth >= 1``: a load raises no compile event), and a
    parallel kernel's loop body and wrappers, are callees; the rest are top-level kernels.
    """
    loaded = getattr(library, "_compiled_object", None) is not None
    if depth > (0 if loaded else 1) or is_parfor_wrapper(library) or is_parfor_body(library):
        return "callee"
    return "top"


def emit_callees_fast() -> None:
    """Callee code at -O0 on a shared engine; each top-level kernel on an engine of its own.

    A top-level kernel's object holds linked copies of its callees; on an engine of its
    own it runs those copies, never another library's (-O0) code of the same symbol.
    Idempotent; skipped when ``FATEZOO_OPTIMISE_EVERY_LIBRARY=1``.
    """
    from numba.core import codegen

    lib = codegen.JITCodeLibrary
    if lib.__dict__.get(_APPLIED) or os.environ.get("FATEZOO_OPTIMISE_EVERY_LIBRARY") == "1":
        return
    finalize_module = lib._finalize_final_module

    def _finalize_final_module(self):
        main = self._codegen._engine
        if engine_role(self, COMPILE_DEPTH.now()) == "callee":
            engine = _callee_engine(self._codegen)
            CALLEE_CODEGEN.append(self.name)
        else:
            engine = _new_engine(self._codegen, 3)
        self._fatezoo_engine = _LAST_ENGINE[0] = engine
        self._codegen._engine = engine
        try:
            finalize_module(self)
            if self._shared_module is not None:  # loaded: numba registers its symbols on main
                engine._load_defined_symbols(self._shared_module)
        finally:
            self._codegen._engine = main

    def get_pointer_to_function(self, name):
        self._ensure_finalized()
        engine = self._fatezoo_engine
        return engine.get_function_address(name) if engine.is_symbol_defined(name) else 0

    def set_env(self, env_name, env):
        import ctypes

        engine = _LAST_ENGINE[0]
        if engine is None or not engine.is_symbol_defined(env_name):
            raise RuntimeError(f"fatezoo: numba set environment {env_name!r} of a library "
                               "that was not finalized last")
        address = engine.get_global_value_address(env_name)
        (ctypes.c_void_p * 1).from_address(address)[0] = ctypes.c_void_p(id(env))

    lib._finalize_final_module = _finalize_final_module
    lib.get_pointer_to_function = get_pointer_to_function
    codegen.JITCPUCodegen.set_env = set_env
    setattr(lib, _APPLIED, True)


PACKAGE = __name__.split(".")[0]
"""The top package: only attributes of its own modules are rewritten."""


def package_module(value) -> bool:
    """Whether ``value`` is a module of this package (whose attributes are constants to numba)."""
    return isinstance(value, types.ModuleType) and value.__name__.startswith(PACKAGE + ".")


@register_rewrite("before-inference")
class ModuleConstants(Rewrite):
    """``M.X`` for a module ``M`` of this package becomes the global ``X`` (see the module docs)."""

    def match(self, func_ir, block, typemap, calltypes):
        """Find the ``M.X`` of ``block`` (``self.values``: statement -> value); any?"""
        self.block, self.values = block, {}
        for inst in block.body:
            expr = inst.value if isinstance(inst, ir.Assign) else None
            if not (isinstance(expr, ir.Expr) and expr.op == "getattr"):
                continue
            owner = ir_utils.guard(ir_utils.get_definition, func_ir, expr.value)
            if (isinstance(owner, (ir.Global, ir.FreeVar)) and package_module(owner.value)
                    and hasattr(owner.value, expr.attr)):
                self.values[inst] = getattr(owner.value, expr.attr)
        return bool(self.values)

    def apply(self):
        """``block`` with each found ``M.X`` replaced by the global ``X``."""
        block = self.block.copy()
        block.clear()
        for inst in self.block.body:
            if inst in self.values:
                inst = ir.Assign(ir.Global(inst.value.attr, self.values[inst], inst.loc),
                                 inst.target, inst.loc)
            block.append(inst)
        return block


class _Shared:
    """Stands in for the ``copy`` module inside numba's inliner: a "deep copy" that shares."""

    @staticmethod
    def deepcopy(value, memo=None):
        return value


def inline_without_copies() -> None:
    """Inline a jitted callee's freshly built IR without deep-copying it (idempotent)."""
    import copy

    from numba.core import inline_closurecall

    cls = inline_closurecall.InlineWorker
    if getattr(cls, _APPLIED, False) or os.environ.get("FATEZOO_NUMBA_INLINER_COPIES") == "1" \
            or getattr(inline_closurecall, "copy", None) is not copy:
        return  # applied, switched off, or a numba whose inliner copies some other way
    numba_inline_function = cls.inline_function

    def inline_function(self, caller_ir, block, i, function, arg_typs=None):
        inline_closurecall.copy = _Shared  # read only by inline_ir's copy_ir
        try:
            _, callee_blocks, var_dict, new_blocks = numba_inline_function(
                self, caller_ir, block, i, function, arg_typs)
        finally:
            inline_closurecall.copy = copy
        return None, callee_blocks, var_dict, new_blocks  # no unmutated callee IR to return

    cls.inline_function = inline_function
    setattr(cls, _APPLIED, True)


def apply() -> None:
    """Patch numba for the other five fixes (called when ``fatezoo.envs.core`` is imported).

    :class:`ModuleConstants` is registered with numba where it is defined.
    """
    mangle_records_by_content()
    lock_cache_saves()
    optimise_once()
    emit_callees_fast()
    inline_without_copies()


apply()
