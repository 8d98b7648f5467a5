"""Record checks: the ranges declared once, the relations between fields written by hand.

A game's ``check_record`` stands between a saved state and the kernels. Most of it is
ranges: a phase is one of the phase enum, a seat is below the player count, a count is
within its capacity, and an absent seat's row holds nothing. A game declares those once,
beside its record::

    RANGES = {
        "phase": Range.of(Phase),                  # the enum's values
        "current_player": Range(0, SEATS),         # below the record's player count
        "level": Range(0, MAX_LEVEL + 1, per_seat=True),  # absent seats' rows hold 0
    }

and its ``check_record`` calls :func:`check_ranges` first, then checks only the
relations (conservation, whose turn it is, what the phase allows) with :func:`need`.
Every failure is one ValueError naming the field, what it must be and what it is.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

SEATS = "seats"  # an upper bound: the record's player count


class RecordError(ValueError):
    """A record that breaks a rule of its game's state (a corrupt or hostile save)."""


def need(ok, name: str, want: str, got=None) -> None:
    """Raise :class:`RecordError` ``"<name> must be <want>, got <got>"`` unless ``ok``.

    ``got=None`` leaves the value out of the message.
    """
    if not ok:
        if isinstance(got, np.ndarray):
            got = got.tolist()
        raise RecordError(f"{name} must be {want}" + ("" if got is None else f", got {got}"))


def within(x, lo: int, hi: int) -> bool:
    """Whether every value of ``x`` is in ``[lo, hi)`` (True for no values)."""
    v = np.asarray(x).ravel()
    return v.size == 0 or (lo <= int(v.min()) and int(v.max()) < hi)


@dataclass(frozen=True)
class Range:
    """The values a record field may hold: ``lo <= value < hi``.

    ``hi`` is an int or :data:`SEATS` (the record's player count). ``per_seat``: the
    field's first axis is the seat, and the rows of absent seats hold ``absent``.
    """

    lo: int
    hi: object
    per_seat: bool = False
    absent: int = 0

    @classmethod
    def of(cls, enum, **kwargs) -> Range:
        """The values of an ``IntEnum`` whose members count up from 0."""
        values = sorted(int(m) for m in enum)
        if values != list(range(len(values))):
            raise ValueError(f"{enum.__name__}'s values are not 0..{len(values) - 1}")
        return cls(0, len(values), **kwargs)

    def bounds(self, n: int) -> tuple:
        """``(lo, hi)`` for a record of ``n`` players."""
        return self.lo, n if self.hi == SEATS else int(self.hi)

    def describe(self, n: int) -> str:
        """What a value must be, in words (``"0 or 1"``, ``"in [0, 6]"``)."""
        lo, hi = self.bounds(n)
        text = "0 or 1" if (lo, hi) == (0, 2) else f"in [{lo}, {hi - 1}]"
        if self.per_seat:
            text += f" for the {n} seats in play, {self.absent} for the others"
        return text


def check_ranges(rec, ranges: dict) -> None:
    """Check each declared field of ``rec`` against its :class:`Range`, in order.

    ``rec`` is a record or a dict of its fields' values. ``num_players``, when declared,
    is checked first: the other ranges depend on it. Values are compared as Python
    numbers (a record's fields are small; numpy's reductions cost more than they save).
    """
    values = rec if isinstance(rec, dict) else dict(zip(rec.dtype.names, rec.item()))
    n = int(values["num_players"])
    if "num_players" in ranges:
        _check_one(values, "num_players", ranges["num_players"], n)
    for name, r in ranges.items():
        if name != "num_players":
            _check_one(values, name, r, n)


def _check_one(values: dict, name: str, r: Range, n: int) -> None:
    lo, hi = r.bounds(n)
    v = values[name]
    if isinstance(v, np.ndarray):
        live = (v[:n] if r.per_seat else v).ravel().tolist()
        ok = not live or (lo <= min(live) and max(live) < hi)
        if ok and r.per_seat:
            ok = all(x == r.absent for x in v[n:].ravel().tolist())
    else:
        ok = lo <= v < hi
    if not ok:
        need(False, name, r.describe(n), v)
