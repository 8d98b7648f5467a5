"""One ``Discrete`` action space laid out from named blocks, and the block helpers.

**The action space** is declared once from named blocks; each block gets an offset and
its actions get names (``ACTION_NAMES`` for the spec)::

    SPACE = ActionSpace([
        Block("play", 2, ("play attack", "play search")),
        Block("target", 3, "target seat +{}", start=1),  # "target seat +1" .. "+3"
        Block("option", 3, "option {}"),
        Block("pass", 1, "pass"),
        Block("cancel", 1, "cancel: back one step"),
    ])
    PLAY, TARGET = SPACE.offset("play"), SPACE.offset("target")   # plain ints for njit
    NUM_ACTIONS, ACTION_NAMES = SPACE.size, SPACE.names
    SPACE.split(5)  # -> ("option", 0)

In ``legal``, ``set_block(mask, TARGET, 3, 1)`` opens a block, ``open_where(mask, PICK,
counts)`` the block's actions whose count is positive (a pick per kind held) and
``mask[TARGET + k] = 1`` single actions; in ``apply``, ``in_block(a, TARGET, 3)`` tells
which block an action belongs to, so actions decode by block name, never by the blocks' order.

**A choice in several steps** (play a card, then choose its target, then an option) is
what every game here does the same way: a ``phase`` field names the decision being
asked (an ``IntEnum`` member per step), the choices made so far sit in named record
fields (``-1`` while unmade), and each phase's ``legal`` opens that step's block. A
cancel sets the phase back and forgets that step's choice. Fatefell's phases, The
Fathoming's ``pend``, Foretold's ``sel_*``, Forgotten City's ``dec`` and Villainous's
entry ``step`` columns are this pattern; ``tests/kitgame`` is the worked example.
"""

from __future__ import annotations

from dataclasses import dataclass

from .jit import njit


@dataclass(frozen=True)
class Block:
    """A named block of ``size`` consecutive actions.

    ``names``: a tuple of ``size`` names, or a format string with one ``{}`` filled with
    ``start + i`` for the i-th action.
    """

    name: str
    size: int
    names: object = "{}"
    start: int = 0

    def action_names(self) -> tuple:
        """The names of this block's actions."""
        if isinstance(self.names, str):
            return tuple(self.names.format(self.start + i) for i in range(self.size))
        names = tuple(self.names)
        if len(names) != self.size:
            raise ValueError(f"block {self.name!r} has {self.size} actions but "
                             f"{len(names)} names")
        return names


class ActionSpace:
    """A ``Discrete`` action space laid out from named :class:`Block` s, in order."""

    def __init__(self, blocks) -> None:
        self.blocks = list(blocks)
        self.offsets = {}
        names = []
        for block in self.blocks:
            if block.name in self.offsets:
                raise ValueError(f"duplicate action block {block.name!r}")
            if block.size < 1:
                raise ValueError(f"action block {block.name!r} needs size >= 1")
            self.offsets[block.name] = len(names)
            names += block.action_names()
        self.size = len(names)
        self.names = tuple(names)

    def offset(self, name: str) -> int:
        """First action id of block ``name``."""
        if name not in self.offsets:
            raise KeyError(f"no action block {name!r}; blocks are {list(self.offsets)}")
        return self.offsets[name]

    def block_size(self, name: str) -> int:
        """Number of actions of block ``name``."""
        self.offset(name)
        return next(b.size for b in self.blocks if b.name == name)

    def split(self, action: int) -> tuple:
        """``(block name, index in the block)`` of ``action``."""
        a = int(action)
        if not 0 <= a < self.size:
            raise ValueError(f"action {action!r} is not in [0, {self.size})")
        for block in self.blocks:
            start = self.offsets[block.name]
            if a < start + block.size:
                return block.name, a - start
        raise AssertionError("unreachable")


@njit(cache=True)
def set_block(mask, offset, size, value):
    """Set ``mask[offset : offset + size]`` to ``value``."""
    for a in range(offset, offset + size):
        mask[a] = value


@njit(cache=True)
def open_where(mask, offset, counts):
    """Open ``mask[offset + i]`` for each ``i`` whose ``counts[i]`` is positive."""
    for i in range(counts.shape[0]):
        if counts[i] > 0:
            mask[offset + i] = 1


@njit(cache=True)
def in_block(action, offset, size):
    """Whether ``action`` is in the block starting at ``offset``."""
    return offset <= action < offset + size
