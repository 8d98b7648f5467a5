"""Per-viewer knowledge of cards, read by both ``encode`` and ``determinize``.

A game keeps one int8 flag per (viewer, card), declared by :func:`knowledge_fields`::

    GAME_FIELDS = [..., *knowledge_fields("known", max_players=4, num_cards=20)]

with three levels (Fatefell's ``known`` flags, made generic):

- ``UNKNOWN`` (0): the viewer does not know where this card is.
- ``IN_ZONE`` (1): the viewer knows which zone the card is in, not where in it (a deck
  they searched through and then shuffled).
- ``KNOWN`` (2): the viewer knows the card at its position (their own hand, a card
  shown to them, anything face up).

The one rule that makes hidden-information invariance hold by construction: **encode
shows viewer v a card only if ``known[v, c] == KNOWN``** (and may show, per zone, the
multiset of cards v knows ``IN_ZONE`` there), and **``determinize_zones`` keeps every
card v knows where it is and resamples the rest** (IN_ZONE cards inside their zone). So
nothing an observation shows can change under determinization.

The flags are changed only by what the viewer sees happen, through these helpers::

    draw_seen(zone, zone_n, known, n, DECK, HAND0 + p, p)   # p draws; only p sees it
    reveal_all(known, c, n)                                 # card c shown to everyone
    reveal(known, c, v)                                     # ... to one viewer
    look_at_zone(zone, zone_n, known, DECK, p)              # p searches the deck
    shuffle_known(zone, zone_n, known, n, DECK, rng)        # KNOWN -> IN_ZONE, shuffled

A card moved where a viewer cannot follow it is forgotten (``forget``); a card a viewer
knows stays known when it moves in view (flags belong to the card, not the position).
"""

from __future__ import annotations

import numpy as np

from .jit import njit
from .rng import shuffle

UNKNOWN = 0
IN_ZONE = 1
KNOWN = 2


def knowledge_fields(prefix: str, max_players: int, num_cards: int) -> list:
    """Record field ``prefix`` int8 (max_players, num_cards): viewer x card flags."""
    return [(prefix, np.int8, (max_players, num_cards))]


@njit(cache=True)
def reveal(known, c, v):
    """Viewer ``v`` sees card ``c``."""
    known[v, c] = KNOWN


@njit(cache=True)
def reveal_all(known, c, n):
    """All ``n`` players see card ``c`` (face up, or shown to the table)."""
    for v in range(n):
        known[v, c] = KNOWN


@njit(cache=True)
def forget(known, c, v):
    """Viewer ``v`` loses track of card ``c``."""
    known[v, c] = UNKNOWN


@njit(cache=True)
def forget_all_but(known, c, n, keeper):
    """Everyone but ``keeper`` (-1: everyone) loses track of card ``c``."""
    for v in range(n):
        if v != keeper:
            known[v, c] = UNKNOWN


@njit(cache=True)
def look_at_zone(cards, counts, known, z, v):
    """Viewer ``v`` looks through zone ``z`` (a search): every card in it becomes KNOWN."""
    for i in range(counts[z]):
        known[v, cards[z, i]] = KNOWN


@njit(cache=True)
def shuffle_known(cards, counts, known, n, z, rng):
    """Shuffle zone ``z`` in view of everyone: what was KNOWN there becomes IN_ZONE."""
    for i in range(counts[z]):
        c = cards[z, i]
        for v in range(n):
            if known[v, c] == KNOWN:
                known[v, c] = IN_ZONE
    shuffle(cards[z], counts[z], rng)


@njit(cache=True)
def blind_from_zone(cards, counts, known, n, z, c, seer):
    """Card ``c`` leaves zone ``z`` unseen by all but ``seer`` (-1: nobody).

    A viewer who knew ``c`` exactly still does. A viewer who knew only that ``c`` was
    somewhere in ``z`` cannot tell which card left, so they lose the IN_ZONE knowledge of
    every card of ``z`` (call this before ``c`` is removed from ``z``).
    """
    for v in range(n):
        if v == seer or known[v, c] == KNOWN:
            continue
        if known[v, c] == IN_ZONE:
            for i in range(counts[z]):
                d = cards[z, i]
                if known[v, d] == IN_ZONE:
                    known[v, d] = UNKNOWN
        known[v, c] = UNKNOWN
    if seer >= 0:
        known[seer, c] = KNOWN


@njit(cache=True)
def draw_seen(cards, counts, known, n, src, dst, seer):
    """Move the top card of ``src`` to ``dst``, seen only by ``seer``; return it (-1 if empty).

    ``seer`` (e.g. the drawing player) learns the card; everyone else loses track of it
    (see :func:`blind_from_zone`).
    """
    m = counts[src]
    if m == 0:
        return -1
    c = cards[src, m - 1]
    blind_from_zone(cards, counts, known, n, src, c, seer)
    counts[src] = m - 1
    if counts[dst] >= cards.shape[1]:
        raise IndexError("draw_seen: destination zone is full")
    cards[dst, counts[dst]] = c
    counts[dst] += 1
    return c


@njit(cache=True)
def count_known_kinds(cards, counts, known, z, v, kinds, level, out):
    """Add 1 to ``out[kinds[c]]`` for each card of zone ``z`` that ``v`` knows at ``level``."""
    for i in range(counts[z]):
        c = cards[z, i]
        if known[v, c] == level:
            out[kinds[c]] += 1


# ---------------------------------------------------------------- determinization


@njit(cache=True)
def determinize_zones(cards, counts, known, n, viewer, words):
    """Resample in place every card ``viewer`` does not know, consistently with what they do.

    Cards ``viewer`` knows (KNOWN) stay where they are. Cards they know only IN_ZONE go
    to random free positions of the same zone. Every UNKNOWN card is sorted, shuffled
    and dealt into the remaining free positions. Sorting first makes the result depend
    only on ``viewer``'s information and on ``words`` (never on the hidden arrangement).
    Other viewers' flags stay with the positions: whatever card lands in a position
    inherits what each other viewer knew of that position's old card.

    Args:
        cards: the zone group's cards (all zones that hold cards that may be hidden).
        counts: its counts.
        known: the (viewer, card) flags.
        n: number of players.
        viewer: whose information set to sample from.
        words: four generator words (mutated), not the record's own ``rng``.
    """
    num_z = cards.shape[0]
    cap = cards.shape[1]
    total = 0
    for z in range(num_z):
        total += counts[z]
    pool = np.empty(total, np.int64)  # UNKNOWN cards
    open_z = np.empty(total, np.int64)  # free positions not taken by IN_ZONE cards
    open_i = np.empty(total, np.int64)
    flags = np.zeros((num_z, cap, n), np.int8)  # other viewers' flags, by position
    for z in range(num_z):
        for i in range(counts[z]):
            for w in range(n):
                flags[z, i, w] = known[w, cards[z, i]]
    k = 0
    m = 0
    free = np.empty(cap, np.int64)
    bound = np.empty(cap, np.int64)
    for z in range(num_z):
        f = 0
        b = 0
        for i in range(counts[z]):
            c = cards[z, i]
            level = known[viewer, c]
            if level == KNOWN:
                continue
            free[f] = i
            f += 1
            if level == IN_ZONE:
                bound[b] = c
                b += 1
            else:
                pool[k] = c
                k += 1
        # IN_ZONE cards take random free positions of their own zone
        bound[:b].sort()
        shuffle(free, f, words)
        for j in range(b):
            cards[z, free[j]] = bound[j]
        rest = free[b:f].copy()
        rest.sort()
        for j in range(f - b):
            open_z[m] = z
            open_i[m] = rest[j]
            m += 1
    pool[:k].sort()
    shuffle(pool, k, words)
    for j in range(m):
        cards[open_z[j], open_i[j]] = pool[j]
    for z in range(num_z):
        for i in range(counts[z]):
            c = cards[z, i]
            for w in range(n):
                if w != viewer:
                    known[w, c] = flags[z, i, w]


# ---------------------------------------------------------------- Python-side checks


def check_knowledge(known, n: int, own_zones=None, cards=None, counts=None) -> None:
    """Raise ValueError if a flag is not 0, 1 or 2 or an owner does not know their own cards.

    Args:
        known: the (viewer, card) flags.
        n: number of players.
        own_zones: optional {zone: owner}; every card in an owned zone must be KNOWN to
            its owner (a hand).
        cards: the zone group's cards (needed with ``own_zones``).
        counts: its counts.
    """
    flags = np.asarray(known[:n])
    if not np.isin(flags, (UNKNOWN, IN_ZONE, KNOWN)).all():
        raise ValueError("knowledge flags must be 0, 1 or 2")
    for z, owner in (own_zones or {}).items():
        for c in cards[z, : int(counts[z])]:
            if owner < n and known[owner, int(c)] != KNOWN:
                raise ValueError(f"seat {owner} does not know card {int(c)} in its own zone {z}")
