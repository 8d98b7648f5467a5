"""The core's ``njit``: numba's, compiling one specialisation per kernel where numba makes many.

Numba compiles a jitted function once per distinct tuple of argument types it is called
with from other jitted code, and it types a constant argument by its value
(``Literal[int](0)``, ``Literal[bool](True)``) and a record field by its width (``int8``,
``int16``, ``int32``). So ``push_entry(rec, 3, x)`` and ``push_entry(rec, k, x)`` are two
compilations of the function and of everything it calls, each linked and optimised by
LLVM on its own; in Villainous one kernel was compiled 33 times. The dispatcher below
compiles a call from jitted code for the argument types *widened*: literals become their
plain type, and signed integers narrower than 64 bits become ``int64`` (numba already
computes with small signed integers as ``int64``, so the callee's arithmetic is
unchanged), and an array nested in a record (``rec["zone"]``, typed by its shape) becomes
the plain C-contiguous array of its dtype and rank, so that one helper serves two zone
tables of different sizes and a record's cache and a scratch array alike (the value is
the same struct; :func:`_nested_as_array` is the cast). The caller then converts its
arguments to that one signature. A function
whose body needs a literal argument (a tuple index, say) fails to type with the widened
types and is compiled for the exact ones, as numba would.

Every kernel of the core and the games is decorated with this ``njit``; under
``NUMBA_DISABLE_JIT=1`` it returns the plain function, as numba's does.
"""

from __future__ import annotations

from numba import njit as _numba_njit
from numba import types
from numba.core import errors, typing
from numba.core.imputils import lower_cast
from numba.core.registry import CPUDispatcher

from . import compile_notice, numba_fixes  # noqa: F401  (before anything compiles)


def widened(t):
    """The argument type a kernel is compiled for when called with an argument of type ``t``."""
    t = types.unliteral(t)
    if isinstance(t, types.Integer) and t.signed and t.bitwidth < 64:
        return types.int64
    if isinstance(t, types.NestedArray):
        return types.Array(t.dtype, t.ndim, "C", readonly=not t.mutable, aligned=t.aligned)
    return t


@lower_cast(types.NestedArray, types.Array)
def _nested_as_array(context, builder, fromty, toty, val):
    """A record's nested array as a plain array: both are numba's array struct, unchanged."""
    return val


class KernelDispatcher(CPUDispatcher):
    """A ``CPUDispatcher`` that compiles calls from jitted code for widened argument types."""

    def get_call_template(self, args, kws):
        """Numba's call template, after compiling the widened signature (see module doc)."""
        pysig, args = self._compiler.fold_argument_types(args, kws)
        if self._can_compile:
            wide = tuple(widened(a) for a in args)
            try:
                self.compile(wide)
            except errors.TypingError:
                self.compile(tuple(args))
        name = self.py_func.__name__
        template = typing.make_concrete_template(
            f"CallTemplate({name})", key=name, signatures=self.nopython_signatures)
        return template, pysig, args, {}


def njit(*args, **options):
    """``numba.njit`` returning a :class:`KernelDispatcher` (same arguments)."""
    if args and callable(args[0]) and not options:
        return _as_kernel(_numba_njit(args[0]))
    wrap = _numba_njit(*args, **options)
    return lambda fn: _as_kernel(wrap(fn))


def _as_kernel(dispatcher):
    if isinstance(dispatcher, CPUDispatcher):
        dispatcher.__class__ = KernelDispatcher
    return dispatcher
