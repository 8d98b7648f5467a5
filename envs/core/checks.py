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
    is checked first: the other ranges depend on it. A record whose every declared value
    is in range passes on one vectorised comparison (:class:`_Bounds`); any other record,
    and any dict, is read field by field in order, so the first field out of range names
    the error.
    """
    if isinstance(rec, np.void) and "num_players" in ranges:
        n = int(rec["num_players"])
        lo, hi = ranges["num_players"].bounds(n)
        if lo <= n < hi and _Bounds.of(rec.dtype, ranges, n).hold(rec):
            return
    values = rec if isinstance(rec, dict) else dict(zip(rec.dtype.names, rec.item()))
    n = int(values["num_players"])
    if "num_players" in ranges:
        _check_one(values, "num_players", ranges["num_players"], n)
    for name, r in ranges.items():
        if name != "num_players":
            _check_one(values, name, r, n)


class _Bounds:
    """Every declared value of a record layout at one player count, as flat bounds.

    The values are gathered from the record's bytes by offset, one gather per integer
    width, and compared with ``lo``/``hi`` arrays built once per (layout, ranges, player
    count): an absent seat's value ``a`` has the bounds ``[a, a + 1)``. It only ever
    answers "all in range"; a record it does not clear goes to the field-by-field check,
    which names the first value out of range.
    """

    _made: dict = {}  # (dtype, id(ranges), n) -> (ranges, _Bounds); ranges held, so ids stay

    @classmethod
    def of(cls, dtype: np.dtype, ranges: dict, n: int) -> _Bounds:
        key = (dtype, id(ranges), n)
        made = cls._made.get(key)
        if made is None or made[0] is not ranges or made[1].count != len(ranges):
            made = cls._made[key] = (ranges, cls(dtype, ranges, n))
        return made[1]

    def __init__(self, dtype: np.dtype, ranges: dict, n: int):
        self.count = len(ranges)
        parts: dict = {}  # base dtype -> ([byte offsets], [lo], [hi])
        for name, r in ranges.items():
            base, shape = dtype[name].base, dtype[name].shape
            if base.kind not in "iub":
                raise TypeError(f"{name}: a Range needs an integer field, not {base}")
            lo, hi = r.bounds(n)
            size = int(np.prod(shape, dtype=np.int64))
            los = np.full(size, lo, np.int64)
            his = np.full(size, hi, np.int64)
            if r.per_seat and shape:
                per_row = size // shape[0]
                los[n * per_row:] = r.absent
                his[n * per_row:] = r.absent + 1
            offsets, lo_list, hi_list = parts.setdefault(base, ([], [], []))
            offsets.append(dtype.fields[name][1] + base.itemsize * np.arange(size))
            lo_list.append(los)
            hi_list.append(his)
        self.parts = []
        for base, (offsets, lo_list, hi_list) in parts.items():
            at = np.concatenate(offsets)
            gather = (at[:, None] + np.arange(base.itemsize)).ravel()
            view = np.dtype(np.uint8) if base.kind == "b" else base  # a bool's raw byte
            self.parts.append((gather, view, np.concatenate(lo_list), np.concatenate(hi_list)))

    def hold(self, rec: np.void) -> bool:
        """Whether every declared value of ``rec`` is in its range."""
        raw = np.frombuffer(rec, np.uint8)
        for gather, base, lo, hi in self.parts:
            v = raw[gather].view(base)
            if not ((v >= lo).all() and (v < hi).all()):
                return False
        return True


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
