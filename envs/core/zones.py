"""Zones: decks, hands and piles as rows of one fixed-capacity card array with counts.

Every physical card has its own id ``0 .. num_cards - 1`` (two copies of a card are two
ids; a table maps id -> kind). A game keeps its zones in two record fields declared by
:func:`zone_fields`::

    GAME_FIELDS = [..., *zone_fields("zone", num_zones=7, capacity=20)]
    # zone   int16 (7, 20): zone z holds zone[z, :zone_n[z]], bottom at 0, top at n - 1
    # zone_n int16 (7,)

and passes ``rec["zone"], rec["zone_n"]`` (array views, mutated in place) to the njit
helpers below. Zone numbers are the game's own constants, e.g.::

    DECK, DISCARD, STACK, HAND0 = 0, 1, 2, 3       # hand of seat p is HAND0 + p

    zone_draw(rec["zone"], rec["zone_n"], DECK, HAND0 + p, 2)   # draw two (top first)
    c = zone_take(rec["zone"], rec["zone_n"], HAND0 + p, i)      # the i-th card of a hand
    zone_push(rec["zone"], rec["zone_n"], DISCARD, c)
    i = zone_find(rec["zone"], rec["zone_n"], DECK, c)           # search: where is card c?
    zone_shuffle(rec["zone"], rec["zone_n"], DECK, rec["rng"])

Numba does not check bounds: every helper that adds a card raises ``IndexError`` on a
full zone instead of writing past it, and every helper that takes one raises on an
empty zone or a bad index. Who sees what is not a zone's business: see ``knowledge.py``
(``zone_shuffle_known``, ``draw_unseen``...), which wraps these helpers.

``check_conservation`` (Python, for a game's ``check_record``) checks that every card
is in exactly one zone and names the first card that is not.
"""

from __future__ import annotations

import numpy as np

from .jit import njit
from .rng import randint


def zone_fields(prefix: str, num_zones: int, capacity: int, dtype=np.int16) -> list:
    """Record fields of a zone group: ``prefix`` (num_zones, capacity) and ``prefix_n``."""
    return [(prefix, dtype, (num_zones, capacity)), (f"{prefix}_n", np.int16, (num_zones,))]


@njit(cache=True)
def zone_push(cards, counts, z, c):
    """Put card ``c`` on top of zone ``z``."""
    n = counts[z]
    if n >= cards.shape[1]:
        raise IndexError("zone_push: zone is full")
    cards[z, n] = c
    counts[z] = n + 1


@njit(cache=True)
def zone_insert(cards, counts, z, pos, c):
    """Put card ``c`` into zone ``z`` at position ``pos`` (0 = bottom, n = top)."""
    n = counts[z]
    if n >= cards.shape[1]:
        raise IndexError("zone_insert: zone is full")
    if pos < 0 or pos > n:
        raise IndexError("zone_insert: position out of range")
    for i in range(n, pos, -1):
        cards[z, i] = cards[z, i - 1]
    cards[z, pos] = c
    counts[z] = n + 1


@njit(cache=True)
def zone_take(cards, counts, z, i):
    """Remove and return the card at position ``i`` of zone ``z`` (order of the rest kept).

    The slot it empties is set to -1, so nothing past a zone's count remembers a card.
    """
    n = counts[z]
    if i < 0 or i >= n:
        raise IndexError("zone_take: position out of range")
    c = cards[z, i]
    for j in range(i, n - 1):
        cards[z, j] = cards[z, j + 1]
    cards[z, n - 1] = -1
    counts[z] = n - 1
    return c


@njit(cache=True)
def zone_pop(cards, counts, z):
    """Remove and return the top card of zone ``z``."""
    return zone_take(cards, counts, z, counts[z] - 1)


@njit(cache=True)
def zone_top(cards, counts, z):
    """The top card of zone ``z`` (not removed), or -1 if it is empty."""
    n = counts[z]
    return cards[z, n - 1] if n > 0 else -1


@njit(cache=True)
def zone_find(cards, counts, z, c):
    """Position of card ``c`` in zone ``z``, or -1."""
    for i in range(counts[z]):
        if cards[z, i] == c:
            return i
    return -1


@njit(cache=True)
def zone_find_top(cards, counts, z, c):
    """Position of the topmost card ``c`` in zone ``z``, or -1 (a zone may hold copies)."""
    for i in range(counts[z] - 1, -1, -1):
        if cards[z, i] == c:
            return i
    return -1


@njit(cache=True)
def zone_find_kind(cards, counts, z, kinds, kind):
    """Position of the topmost card of zone ``z`` whose ``kinds[card] == kind``, or -1."""
    for i in range(counts[z] - 1, -1, -1):
        if kinds[cards[z, i]] == kind:
            return i
    return -1


@njit(cache=True)
def zone_count_kind(cards, counts, z, kinds, kind):
    """How many cards of zone ``z`` have ``kinds[card] == kind``."""
    k = 0
    for i in range(counts[z]):
        if kinds[cards[z, i]] == kind:
            k += 1
    return k


@njit(cache=True)
def zone_nth_kind(cards, counts, z, kinds, kind, j):
    """Position of the ``j``-th card (0 = lowest) of zone ``z`` with ``kinds[card] == kind``.

    -1 when the zone holds ``j`` or fewer such cards. With ``j`` drawn below
    ``zone_count_kind`` it picks one such card uniformly.
    """
    for i in range(counts[z]):
        if kinds[cards[z, i]] == kind:
            if j == 0:
                return i
            j -= 1
    return -1


@njit(cache=True)
def zone_move(cards, counts, src, i, dst):
    """Move the card at position ``i`` of zone ``src`` to the top of ``dst``; return it."""
    if counts[dst] >= cards.shape[1]:
        raise IndexError("zone_move: destination zone is full")
    c = zone_take(cards, counts, src, i)
    zone_push(cards, counts, dst, c)
    return c


@njit(cache=True)
def zone_move_card(cards, counts, src, c, dst):
    """Move card ``c`` from zone ``src`` to the top of ``dst``; return False if not there."""
    i = zone_find(cards, counts, src, c)
    if i < 0:
        return False
    zone_move(cards, counts, src, i, dst)
    return True


@njit(cache=True)
def zone_draw(cards, counts, src, dst, k):
    """Move up to ``k`` cards from the top of ``src`` to ``dst``, one by one; return how many."""
    moved = 0
    while moved < k and counts[src] > 0:
        zone_move(cards, counts, src, counts[src] - 1, dst)
        moved += 1
    return moved


@njit(cache=True)
def zone_shuffle(cards, counts, z, rng):
    """Shuffle zone ``z`` in place (Fisher-Yates on the record's ``rng`` words)."""
    for i in range(counts[z] - 1, 0, -1):
        j = randint(rng, i + 1)
        t = cards[z, i]
        cards[z, i] = cards[z, j]
        cards[z, j] = t


@njit(cache=True)
def zone_fill(cards, counts, z, first, num):
    """Empty zone ``z`` and put cards ``first .. first + num - 1`` into it, bottom first."""
    if num > cards.shape[1]:
        raise IndexError("zone_fill: more cards than the zone holds")
    for i in range(num):
        cards[z, i] = first + i
    counts[z] = num


# ---------------------------------------------------------------- Python-side checks


def zone_contents(cards, counts, z) -> np.ndarray:
    """The cards of zone ``z``, bottom to top, as an int64 array (Python side)."""
    return np.asarray(cards[z, : int(counts[z])], np.int64)


def zones_contents(cards, counts) -> np.ndarray:
    """The cards of every zone of a group, zone 0's first, each bottom to top, as int64.

    One gather for the whole group (Python side): the counts must already be in
    ``[0, capacity]``.
    """
    live = np.arange(cards.shape[1]) < np.asarray(counts)[:, None]
    return np.asarray(cards[live], np.int64)


def check_counts(cards, counts, name: str = "zone") -> None:
    """Raise ValueError naming the first zone whose count is outside ``[0, capacity]``."""
    cap = cards.shape[1]
    for z in range(cards.shape[0]):
        if not 0 <= int(counts[z]) <= cap:
            raise ValueError(f"{name}_n[{z}] must be in [0, {cap}], got {int(counts[z])}")


def check_conservation(zones, num_cards: int, zone_names=None) -> None:
    """Raise ValueError unless every card ``0 .. num_cards - 1`` is in exactly one zone.

    Args:
        zones: a list of ``(cards, counts)`` zone groups (record fields), or of 1-D arrays
            (one zone each; e.g. a single "card in hand" field as ``np.array([c])``).
        num_cards: how many physical cards the game has.
        zone_names: optional names, one per zone across all groups, used in the message.

    The message names the first bad card, its count and the zones it is in, e.g.
    ``card 7 appears 2 times (in hand1, discard); every card must be in exactly one zone``.
    """
    flat = []
    for group in zones:
        if isinstance(group, tuple):
            cards, counts = group
            check_counts(cards, counts)
            flat += [zone_contents(cards, counts, z) for z in range(cards.shape[0])]
        else:
            flat.append(np.asarray(group, np.int64).ravel())
    names = list(zone_names) if zone_names is not None else [f"zone {k}" for k in range(len(flat))]
    every = np.concatenate(flat) if flat else np.zeros(0, np.int64)
    bad = every[(every < 0) | (every >= num_cards)]
    if bad.size:
        raise ValueError(f"card id {int(bad[0])} is out of range; expected ids in "
                         f"[0, {num_cards})")
    tally = np.bincount(every, minlength=num_cards)
    wrong = np.flatnonzero(tally != 1)
    if wrong.size:
        c = int(wrong[0])
        where = [names[k] for k, part in enumerate(flat) if (part == c).any()]
        place = f" (in {', '.join(where)})" if where else ""
        raise ValueError(f"card {c} appears {int(tally[c])} times{place}; every card must be "
                         "in exactly one zone")
