"""Multi-step decisions over one ``Discrete`` action space, built from named blocks.

A rule like "play a card, choose a target, choose an option (cancel goes back a step,
pass ends the turn)" becomes a sequence of small decisions: each step's legal actions
are one block of the action space, and the choices made so far sit in a record field.
This is the pattern of Fatefell's phases, made generic.

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

**The decision in progress** lives in an int16 record field from
:func:`decision_fields` (``[kind, step, choice 0, choice 1, ...]``)::

    GAME_FIELDS = [..., *decision_fields("dec", max_steps=3)]

    d = rec["dec"]
    dec_begin(d, PLAY_ATTACK)        # a decision of kind PLAY_ATTACK at step 0
    dec_choose(d, card)              # step 0 -> 1; choice 0 = card
    dec_choose(d, target)            # step 1 -> 2
    dec_cancel(d)                    # back to step 1 (its choice forgotten)
    dec_skip(d)                      # a step that does not apply (choice -1)
    dec_step(d), dec_choice(d, 0)    # read back
    dec_clear(d)                     # decision done (kind 0)

In ``legal``, ``set_block(mask, TARGET, 3, 1)`` opens a block and
``mask[TARGET + k] = 1`` single actions; in ``apply``, ``in_block(a, TARGET, 3)``
tells which block an action belongs to. A cancel after a skipped step goes back over
it: ``dec_cancel`` returns to the last step that was really chosen.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .jit import njit

DEC_KIND = 0
DEC_STEP = 1
DEC_CHOICE = 2  # first choice column


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


def decision_fields(prefix: str, max_steps: int) -> list:
    """Record field ``prefix`` int16 (2 + max_steps,): kind, step, one choice per step."""
    return [(prefix, np.int16, (DEC_CHOICE + max_steps,))]


@njit(cache=True)
def set_block(mask, offset, size, value):
    """Set ``mask[offset : offset + size]`` to ``value``."""
    for a in range(offset, offset + size):
        mask[a] = value


@njit(cache=True)
def in_block(action, offset, size):
    """Whether ``action`` is in the block starting at ``offset``."""
    return offset <= action < offset + size


@njit(cache=True)
def dec_clear(dec):
    """No decision in progress (kind 0, step 0, no choices)."""
    for i in range(dec.shape[0]):
        dec[i] = 0 if i < DEC_CHOICE else -1


@njit(cache=True)
def dec_begin(dec, kind):
    """Start a decision of ``kind`` (> 0) at step 0."""
    dec_clear(dec)
    dec[DEC_KIND] = kind


@njit(cache=True)
def dec_kind(dec):
    """Kind of the decision in progress (0: none)."""
    return dec[DEC_KIND]


@njit(cache=True)
def dec_step(dec):
    """Index of the step being decided."""
    return dec[DEC_STEP]


@njit(cache=True)
def dec_choice(dec, k):
    """The choice made at step ``k`` (-1: not made, or skipped)."""
    return dec[DEC_CHOICE + k]


@njit(cache=True)
def dec_choose(dec, value):
    """Record ``value`` (>= 0) as this step's choice and move to the next step."""
    s = dec[DEC_STEP]
    if DEC_CHOICE + s >= dec.shape[0]:
        raise IndexError("dec_choose: more steps than the decision field holds")
    dec[DEC_CHOICE + s] = value
    dec[DEC_STEP] = s + 1


@njit(cache=True)
def dec_skip(dec):
    """Pass over a step that does not apply (its choice stays -1)."""
    s = dec[DEC_STEP]
    if DEC_CHOICE + s >= dec.shape[0]:
        raise IndexError("dec_skip: more steps than the decision field holds")
    dec[DEC_CHOICE + s] = -1
    dec[DEC_STEP] = s + 1


@njit(cache=True)
def dec_cancel(dec):
    """Go back to the last really chosen step, forgetting its choice; False at step 0.

    Skipped steps in between are undone too. At step 0 there is nothing to go back to:
    the decision is left unchanged and False returned (the game decides whether a
    cancel there aborts the whole decision, with ``dec_clear``).
    """
    s = dec[DEC_STEP]
    while s > 0:
        s -= 1
        chosen = dec[DEC_CHOICE + s]
        dec[DEC_CHOICE + s] = -1
        if chosen >= 0:
            dec[DEC_STEP] = s
            return True
    return False


@njit(cache=True)
def encode_decision(dec, kinds, steps, choice_sizes, out, o):
    """One-hot kind (``kinds``), step (``steps``) and each choice so far; return the end.

    ``choice_sizes[k]`` is the one-hot width of step ``k``'s choice (choices out of
    range, -1 included, write zeros).
    """
    o = int(o)
    for j in range(kinds + steps):
        out[o + j] = 0.0
    k = int(dec[DEC_KIND])
    if 0 <= k < kinds:
        out[o + k] = 1.0
    s = int(dec[DEC_STEP])
    if 0 <= s < steps:
        out[o + kinds + s] = 1.0
    o += kinds + steps
    for step in range(choice_sizes.shape[0]):
        size = int(choice_sizes[step])
        for j in range(size):
            out[o + j] = 0.0
        v = int(dec[DEC_CHOICE + step])
        if 0 <= v < size:
            out[o + v] = 1.0
        o += size
    return o


def decision_obs_size(kinds: int, steps: int, choice_sizes) -> int:
    """Size of the observation field ``encode_decision`` writes."""
    return int(kinds + steps + sum(int(s) for s in choice_sizes))
