"""Checks shared by the JSON files fatezoo reads: game records and saved arenas.

A file is read only if it is a regular file within a size limit (a device, pipe or
folder is refused before it is opened for reading); its JSON numbers must be finite and
its integers real ints (``true`` is not 1).
"""

from __future__ import annotations

import stat


def is_int(x) -> bool:
    """A JSON integer: an ``int`` that is not a ``bool``."""
    return isinstance(x, int) and not isinstance(x, bool)


def refuse_constant(name):
    """``json.loads``'s ``parse_constant``: NaN and Infinity are refused."""
    raise ValueError(f"{name} is not a number (finite numbers only)")


def finite_float(text):
    """``json.loads``'s ``parse_float``: a number too large for a float is refused."""
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise ValueError(f"number {text[:40]} is out of range")
    return value


def _size_text(n: int) -> str:
    return f"{n / 2**30:g} GiB" if n >= 2**30 else f"{n / 2**20:g} MiB"


def too_large(size, max_bytes: int, what: str) -> str:
    """The message for a file over ``max_bytes`` (``size`` None: it grew while read)."""
    if size is None:
        return f"larger than the {_size_text(max_bytes)} limit of {what}"
    return f"{size:,} bytes is larger than the {_size_text(max_bytes)} limit of {what}"


def file_problem(st, max_bytes: int, what: str, form: str, folder: str) -> str | None:
    """Why a file with this ``os.stat`` result is not read, or None if it may be.

    Only a regular file of at most ``max_bytes`` is read: a folder gets ``folder``; a
    device or pipe (``/dev/zero``, a FIFO) is never opened for reading. ``what`` names
    the file's kind ("a game record") and ``form`` its format ("a JSON file").
    """
    if stat.S_ISDIR(st.st_mode):
        return folder
    if not stat.S_ISREG(st.st_mode):
        return f"not a regular file ({what} is {form})"
    if st.st_size > max_bytes:
        return too_large(st.st_size, max_bytes, what)
    return None


__all__ = ["file_problem", "finite_float", "is_int", "refuse_constant", "too_large"]
