"""Observation layouts declared once: fields with shapes -> offsets, strides, slices, docs.

A game lists its observation fields once, as :class:`ObsField` s (name, shape, meaning)
in an :class:`ObsLayout`. Everything else reads that declaration: the ``encode`` kernel
and the heuristic take their offsets and strides from it (as module-level ints, which
numba compiles as constants), the doc page's table is generated from it, and tests
slice observations with :meth:`ObsLayout.view`. Change a width and every reader follows.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field


def part_starts(parts) -> tuple[int, ...]:
    """Where each ``(name, size)`` part of a multi-part row starts, in order.

    A field made of runs of different sizes declares them once, e.g.
    ``RAID_PARTS = (("raider", MAX_P), ("moves", 1))``, and reads its offsets by name:
    ``RD_RAIDER, RD_MOVES = part_starts(RAID_PARTS)``.
    """
    starts, o = [], 0
    for _, size in parts:
        starts.append(o)
        o += size
    return tuple(starts)


def part_width(parts) -> int:
    """Entries in a row of ``(name, size)`` parts."""
    return sum(size for _, size in parts)


@dataclass(frozen=True)
class ObsField:
    """One named block of the observation vector.

    Attributes:
        name: identifier of the field (``"seat_slots"``).
        shape: its shape, C order (``(4, 4, 6)``: seat, slot, component).
        meaning: one line for the doc page.
        start: where the field must start; None (the usual) places it right after the
            previous field. A given ``start`` pins a documented offset: the layout check
            fails if the fields before it do not end exactly there.
    """

    name: str
    shape: tuple
    meaning: str
    start: int | None = None

    @property
    def size(self) -> int:
        """Number of entries (the product of ``shape``)."""
        return math.prod(self.shape)


def _strides(shape) -> tuple[int, ...]:
    strides, step = [], 1
    for dim in reversed(shape):
        strides.append(step)
        step *= dim
    return tuple(reversed(strides))


@dataclass(frozen=True)
class ObsLayout:
    """An observation vector as a sequence of :class:`ObsField` s.

    ``slices`` maps each field name to its slice; ``size`` is where the last field ends.
    Construction never raises: :meth:`problems` lists what is wrong (a game's spec
    checks it at import, naming the game), so a broken layout still fails loudly.
    """

    fields: tuple
    slices: dict = field(init=False, repr=False, compare=False)
    size: int = field(init=False, compare=False)

    def __post_init__(self):
        object.__setattr__(self, "fields", tuple(self.fields))
        slices, end = {}, 0
        for f in self.fields:
            start = end if getattr(f, "start", None) is None else int(f.start)
            try:
                width = f.size
            except TypeError:
                width = 0
            slices.setdefault(getattr(f, "name", None), slice(start, start + width))
            end = start + width
        object.__setattr__(self, "slices", slices)
        object.__setattr__(self, "size", end)

    def problems(self) -> list[str]:
        """What is wrong with the declaration (empty when it is sound)."""
        out, seen, end = [], set(), 0
        if not self.fields:
            return ["the observation layout has no fields"]
        for f in self.fields:
            if not isinstance(f, ObsField):
                out.append(f"observation field {f!r} is not an ObsField")
                continue
            if not isinstance(f.name, str) or not f.name.isidentifier():
                out.append(f"observation field name {f.name!r} is not an identifier")
            if f.name in seen:
                out.append(f"observation field {f.name!r} is declared twice")
            seen.add(f.name)
            if not isinstance(f.shape, tuple) or not f.shape or not all(
                    isinstance(d, int) and not isinstance(d, bool) and d > 0 for d in f.shape):
                out.append(f"observation field {f.name!r} has shape {f.shape!r}; expected a "
                           "tuple of positive ints")
                continue
            if f.start is not None and f.start != end:
                kind = "a gap" if f.start > end else "an overlap"
                out.append(f"observation field {f.name!r} starts at {f.start} but the field "
                           f"before it ends at {end} ({kind}); the layout must be contiguous")
            end = (end if f.start is None else f.start) + f.size
        return out

    # ------------------------------------------------------------------ readers

    def __getitem__(self, name: str) -> slice:
        return self.slices[name]

    def __contains__(self, name) -> bool:
        return name in self.slices

    def _field(self, name: str) -> ObsField:
        for f in self.fields:
            if f.name == name:
                return f
        raise KeyError(f"no observation field {name!r}; fields: {list(self.slices)}")

    def start(self, name: str) -> int:
        """Offset of field ``name``'s first entry."""
        self._field(name)
        return self.slices[name].start

    def shape(self, name: str) -> tuple:
        """Shape of field ``name``."""
        return self._field(name).shape

    def width(self, name: str) -> int:
        """Number of entries of field ``name``."""
        return self._field(name).size

    def strides(self, name: str) -> tuple[int, ...]:
        """Entries between consecutive indices of each axis of field ``name`` (C order)."""
        return _strides(self._field(name).shape)

    def view(self, obs, name: str):
        """Field ``name`` of observation(s) ``obs`` (last axis), reshaped to its shape."""
        sl = self.slices[name]
        self._field(name)
        return obs[..., sl].reshape(obs.shape[:-1] + self.shape(name))

    @property
    def layout(self) -> dict:
        """Field name -> slice of the observation vector."""
        return dict(self.slices)

    @property
    def docs(self) -> dict:
        """Field name -> meaning."""
        return {f.name: f.meaning for f in self.fields}
