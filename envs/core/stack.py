"""The effect stack and its response windows (Foretold responses, Villainous Conditions).

Pending effects sit on a stack that resolves last in, first out. Each entry is one row
of an int16 array, declared with :func:`stack_fields`::

    GAME_FIELDS = [..., *stack_fields("stack", capacity=8, width=6)]
    # stack   int16 (8, 6): entries, bottom at 0
    # stack_n int16 (1,):   how many entries (an array so helpers can change it)

Columns 0-2 belong to this module, the rest (``PAYLOAD`` on) to the game::

    KIND (0)   what the entry does (the game's own numbering)
    OWNER (1)  the seat that put it there
    ASK (2)    response-window progress: offset (1 .. n-1, counted from OWNER in turn
               order) of the last seat asked about this entry; 0 = nobody asked yet

**Response window.** After an entry is pushed, each other player in turn order from its
owner may respond; only players with a legal response are asked, the rest are skipped
without a decision. A response is pushed on top and opens its own window; when that
one closes and the response resolves, the window of the entry below resumes after the
responder. Every entry gets each other player's answer once. A game drives it with one
loop, run after every push and every pass::

    def advance(rec):
        stack, top = rec["stack"], rec["stack_n"]
        while top[0] > 0:
            eligible = np.zeros(MAX_P, np.int8)
            for seat in range(n):
                eligible[seat] = has_response(rec, seat)      # the game's rule
            seat = next_responder(stack, top, n, eligible)
            if seat >= 0:                                     # ask this seat: respond/pass
                rec["current_player"] = seat
                return
            i = stack_pop(stack, top)                         # nobody (left) to ask:
            resolve(rec, stack[i])                            # resolve the top entry
        ...                                                   # empty: back to the turn

    # on "respond": i = stack_push(stack, top, BLOCK, seat); fill stack[i, PAYLOAD:]; advance
    # on "pass":    advance(rec)   (the asked seat is recorded in the entry's ASK column)

``encode_stack`` writes the stack into an observation (so "the stack is in every
observation" is one call); :class:`StackCodec` sizes and documents that field. Stack
entries are public: keep hidden information out of them.

**Layered effects** (The Fathoming): ``order_by_strength`` orders effects from weakest
to strongest (stable), the order in which to apply them so the strongest wins.
"""

from __future__ import annotations

import numpy as np

from .jit import njit

KIND = 0
OWNER = 1
ASK = 2
PAYLOAD = 3  # first game column

SKIP = 0  # encode_stack column codes
ONEHOT = 1  # value in [0, size) -> one-hot of ``size``; -1 -> zeros
SEAT = 2  # a seat -> one-hot of ``size`` relative to the viewer (0 = viewer); -1 -> zeros
SCALAR = 3  # value / size


def stack_fields(prefix: str, capacity: int, width: int) -> list:
    """Record fields of a stack of ``capacity`` entries of ``width`` >= 3 int16 columns."""
    if width < PAYLOAD:
        raise ValueError(f"stack width must be >= {PAYLOAD} (kind, owner, ask), got {width}")
    return [(prefix, np.int16, (capacity, width)), (f"{prefix}_n", np.int16, (1,))]


@njit(cache=True)
def stack_push(stack, top, kind, owner):
    """Push an entry of ``kind`` owned by ``owner``; return its row (payload zeroed)."""
    i = top[0]
    if i >= stack.shape[0]:
        raise IndexError("stack_push: the stack is full")
    for j in range(stack.shape[1]):
        stack[i, j] = 0
    stack[i, KIND] = kind
    stack[i, OWNER] = owner
    top[0] = i + 1
    return i


@njit(cache=True)
def stack_pop(stack, top):
    """Pop the top entry; return its row (its data stays readable until the next push)."""
    i = top[0] - 1
    if i < 0:
        raise IndexError("stack_pop: the stack is empty")
    top[0] = i
    return i


@njit(cache=True)
def stack_peek(stack, top):
    """Row of the top entry, or -1 if the stack is empty."""
    return top[0] - 1


@njit(cache=True)
def next_responder(stack, top, n, eligible):
    """Advance the top entry's window to the next seat with ``eligible[seat]``; return it.

    Seats are considered in turn order after the entry's owner, each once; seats whose
    ``eligible`` flag is 0 are skipped (no decision). Returns -1 once every other seat
    has been considered: the window is closed and the entry should resolve.
    """
    i = top[0] - 1
    if i < 0:
        return -1
    owner = stack[i, OWNER]
    off = stack[i, ASK] + 1
    while off < n:
        seat = (owner + off) % n
        if eligible[seat]:
            stack[i, ASK] = off
            return seat
        off += 1
    stack[i, ASK] = n
    return -1


@njit(cache=True)
def asked_seat(stack, top, n):
    """The seat being asked about the top entry now, or -1 (no entry, none asked, closed)."""
    i = top[0] - 1
    if i < 0:
        return -1
    off = stack[i, ASK]
    if off <= 0 or off >= n:
        return -1
    return (stack[i, OWNER] + off) % n


@njit(cache=True)
def order_by_strength(strengths, k, order):
    """Write indices ``0..k-1`` into ``order`` sorted weakest first (stable for ties)."""
    for i in range(k):
        order[i] = i
    for i in range(1, k):
        j = i
        while j > 0 and strengths[order[j - 1]] > strengths[order[j]]:
            t = order[j - 1]
            order[j - 1] = order[j]
            order[j] = t
            j -= 1


# ---------------------------------------------------------------- observation


@njit(cache=True)
def encode_stack(stack, top, viewer, n, codes, sizes, depth, out, o):
    """Write the stack into ``out[o:]`` as :class:`StackCodec` describes; return the end.

    Layout: entries / capacity, the asked seat (one-hot, relative to ``viewer``), then the
    top ``depth`` entries, top first, each ``present`` + its columns by ``codes``/``sizes``.
    """
    o = int(o)
    viewer = int(viewer)
    count = int(top[0])
    seats = int(sizes[OWNER])
    out[o] = count / stack.shape[0]
    o += 1
    s = asked_seat(stack, top, n)
    for j in range(seats):
        out[o + j] = 0.0
    if s >= 0:
        out[o + (int(s) - viewer + n) % n] = 1.0
    o += seats
    for d in range(depth):
        i = count - 1 - d
        present = i >= 0
        out[o] = 1.0 if present else 0.0
        o += 1
        for col in range(codes.shape[0]):
            code = codes[col]
            size = int(sizes[col])
            if code == SKIP:
                continue
            width = 1 if code == SCALAR else size
            for j in range(width):
                out[o + j] = 0.0
            if present:
                v = int(stack[i, col])
                if code == ONEHOT and 0 <= v < size:
                    out[o + v] = 1.0
                elif code == SEAT and 0 <= v < n:
                    out[o + (v - viewer + n) % n] = 1.0
                elif code == SCALAR:
                    out[o] = v / size
            o += width
    return o


class StackCodec:
    """How ``encode_stack`` lays a stack out in an observation, and that field's size/docs.

    Args:
        depth: how many entries from the top are encoded.
        columns: one ``(name, code, size)`` per stack column: ``code`` is SKIP, ONEHOT,
            SEAT (``size`` = max players) or SCALAR (value / ``size``). Column 1 (owner)
            must be SEAT; its size is also the size of the asked-seat one-hot.

    Example::

        CODEC = StackCodec(depth=4, columns=[("kind", ONEHOT, 3), ("owner", SEAT, 4),
                                             ("ask", SKIP, 0), ("target", SEAT, 4)])
        OBS = ObsLayout((..., CODEC.obs_field("stack"), ...))
        # in encode:  encode_stack(rec["stack"], rec["stack_n"], viewer, n,
        #                          CODES, SIZES, DEPTH, out, O_STACK)   CODES = CODEC.codes
    """

    def __init__(self, depth: int, columns) -> None:
        columns = list(columns)
        if len(columns) < PAYLOAD:
            raise ValueError("a stack has at least the columns kind, owner, ask")
        if columns[OWNER][1] != SEAT:
            raise ValueError("the owner column must be encoded as SEAT")
        self.depth = int(depth)
        self.columns = columns
        self.codes = np.array([c[1] for c in columns], np.int64)
        self.sizes = np.array([c[2] for c in columns], np.int64)
        widths = [0 if code == SKIP else (1 if code == SCALAR else size)
                  for _, code, size in columns]
        self.entry_size = 1 + sum(widths)
        self.size = 1 + int(self.sizes[OWNER]) + self.depth * self.entry_size

    def obs_field(self, name: str = "stack"):
        """The :class:`~fatezoo.envs.core.layout.ObsField` of the encoded stack."""
        from .layout import ObsField

        cols = ", ".join(n for n, code, _ in self.columns if code != SKIP)
        return ObsField(name, (self.size,),
                        f"effect stack: entries / capacity, seat asked to respond (one-hot), "
                        f"then the top {self.depth} entries (top first), each present + {cols}")
