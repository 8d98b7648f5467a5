"""Small helpers: the Temple grid (doorways, legality R27-R28, moves), sums, decks."""

# ruff: noqa: D103  (as for envs/*/rules.py: kernels named after the rule they apply)
from __future__ import annotations

import numpy as np

from fatezoo.envs.core.jit import njit

from ..cards import ENTRANCE, HEART, NR, T_DOORS
from ..state import CELLS, ENTRANCE_CELL, GOLD_CAP, MAX_LIFE, SPOTS
from .tables import STEP_COL, STEP_ROW


@njit(cache=True)
def rotate(bits, r):
    """Doorway bits turned ``r`` quarter turns clockwise (N -> E -> S -> W)."""
    r = r % 4
    return ((bits << r) | (bits >> (4 - r))) & 15


@njit(cache=True)
def tile_doors(rec, p, c):
    """Current doorway bits of the Tile in cell ``c`` of seat ``p`` (0 if empty)."""
    t = int(rec["grid"][p, c])
    if t < 0:
        return 0
    return rotate(T_DOORS[t, rec["side"][p, c]], rec["rot"][p, c])


@njit(cache=True)
def neighbour(c, d):
    """The cell next to ``c`` in direction ``d`` (0 N, 1 E, 2 S, 3 W), -1 off the grid."""
    r = c // 4 + STEP_ROW[d]
    k = c % 4 + STEP_COL[d]
    if r < 0 or r > 3 or k < 0 or k > 3:
        return -1
    return 4 * r + k


@njit(cache=True)
def door_steps(doors, goal):
    """Marker moves from each cell to ``goal`` through doorway pairs (R56); 99: no way.

    ``doors``: each cell's current doorway bits (0: no Tile). Breadth-first.
    """
    dist = np.full(CELLS, 99, np.int64)
    queue = np.zeros(CELLS, np.int64)
    dist[goal] = 0
    queue[0] = goal
    head, tail = 0, 1
    while head < tail:
        c = queue[head]
        head += 1
        for d in range(4):
            o = neighbour(c, d)
            if o >= 0 and dist[o] == 99 and (doors[c] >> d) & 1 \
                    and (doors[o] >> ((d + 2) % 4)) & 1:
                dist[o] = dist[c] + 1
                queue[tail] = o
                tail += 1
    return dist


@njit(cache=True)
def heart_depth(rec, p):
    """Marker moves from seat ``p``'s Entrance to its Heart (R56): the Tiles a Raid crosses."""
    doors = np.zeros(CELLS, np.int64)
    heart = -1
    for c in range(CELLS):
        doors[c] = tile_doors(rec, p, c)
        if rec["grid"][p, c] == HEART:
            heart = c
    if heart < 0:
        return 0
    return door_steps(doors, heart)[ENTRANCE_CELL]


@njit(cache=True)
def legal_doors(occ, doors):
    """R27 on per-cell occupancy and doorway bits.

    Matching doorways, nothing north of the Entrance, every Tile reached from the
    Entrance (the cell where ``occ == 2``).
    """
    ent = -1
    for c in range(CELLS):
        if occ[c] == 2:
            ent = c
    if ent < 0:
        return False
    up = neighbour(ent, 0)
    if up >= 0 and occ[up]:
        return False
    for c in range(CELLS):
        if not occ[c]:
            continue
        for d in range(4):
            o = neighbour(c, d)
            if o >= 0 and occ[o]:
                mine = (doors[c] >> d) & 1
                theirs = (doors[o] >> ((d + 2) % 4)) & 1
                if mine != theirs:
                    return False
    seen = np.zeros(CELLS, np.int8)
    todo = np.zeros(CELLS, np.int64)
    top = 0
    todo[top] = ent
    top += 1
    seen[ent] = 1
    while top > 0:
        top -= 1
        c = todo[top]
        for d in range(4):
            if (doors[c] >> d) & 1:
                o = neighbour(c, d)
                if o >= 0 and occ[o] and not seen[o]:
                    seen[o] = 1
                    todo[top] = o
                    top += 1
    for c in range(CELLS):
        if occ[c] and not seen[c]:
            return False
    return True


@njit(cache=True)
def legal_with(rec, p, cell, t, side, r):
    """Whether seat ``p``'s Temple is legal with Tile type ``t`` (side, rotation) in ``cell``."""
    occ = np.zeros(CELLS, np.int8)
    doors = np.zeros(CELLS, np.int64)
    for c in range(CELLS):
        g = int(rec["grid"][p, c])
        if c == cell:
            g = t
        if g >= 0:
            occ[c] = 2 if g == ENTRANCE else 1
            if c == cell:
                doors[c] = rotate(T_DOORS[t, side], r)
            else:
                doors[c] = tile_doors(rec, p, c)
    return legal_doors(occ, doors)


@njit(cache=True)
def temple_cells(rec, p, occ, doors):
    """Fill ``occ`` (0 empty, 1 a Tile, 2 the Entrance) and ``doors`` with seat ``p``'s Temple."""
    for k in range(CELLS):
        g = int(rec["grid"][p, k])
        occ[k] = 0 if g < 0 else (2 if g == ENTRANCE else 1)
        doors[k] = tile_doors(rec, p, k)


@njit(cache=True)
def first_rotation(bits, r):
    """The smallest rotation of doorway ``bits`` giving the doorways of rotation ``r``."""
    mine = rotate(bits, r)
    q = 0
    while rotate(bits, q) != mine:
        q += 1
    return q


@njit(cache=True)
def fits_linked(occ, doors, d, mine):
    """A quick necessary test of ``legal_doors`` for a Tile with doorways ``mine`` in ``d``.

    Its doorways match every occupied neighbour's (R27), and one leads into a neighbour:
    a Tile other than the Entrance must be reached from the Entrance through one.
    """
    links = 0
    for e in range(4):
        o = neighbour(d, e)
        if o >= 0 and occ[o]:
            bit = (mine >> e) & 1
            if bit != ((doors[o] >> ((e + 2) % 4)) & 1):
                return False
            links += bit
    return links > 0


@njit(cache=True, inline="always")
def move_rotations(rec, p, c, d, occ, doors, first=False):
    """R24: the rotations ``r`` (bit ``r``) at which the Tile in ``c`` may move to ``d``.

    The Tile in ``c`` moves to ``d`` at rotation ``r`` (a swap when ``d`` holds a Tile:
    that one moves to ``c`` unturned), and seat ``p``'s Temple must stay legal (R27).
    The Entrance never moves nor turns (its north doorway faces the grid's edge); a move
    that leaves every doorway where it was is not one. ``occ`` and ``doors`` hold the
    Temple as it stands (:func:`temple_cells`) and are left so. A rotation with the
    doorways of a smaller one shares its answer; a Tile that fails ``fits_linked`` is
    refused before the flood fill of ``legal_doors``. ``first``: stop at the first legal
    rotation (its bit only).
    """
    t = int(rec["grid"][p, c])
    u = int(rec["grid"][p, d])
    if t < 0 or t == ENTRANCE or u == ENTRANCE:
        return 0
    bits = T_DOORS[t, rec["side"][p, c]]
    here, was = doors[c], doors[d]
    if d != c:  # the Tile in d (if any) goes to c unturned
        occ[c] = 0 if u < 0 else 1
        doors[c] = was
    occ[d] = 1
    out = 0
    for r in range(4):
        mine = rotate(bits, r)
        q = first_rotation(bits, r)
        if q < r:
            out |= ((out >> q) & 1) << r
        elif not (d == c and mine == here) and fits_linked(occ, doors, d, mine):
            doors[d] = mine
            if legal_doors(occ, doors):
                out |= 1 << r
                if first:
                    break
    occ[d], doors[d] = (0 if u < 0 else 1), was
    occ[c], doors[c] = 1, here
    return out


@njit(cache=True)
def move_ok(rec, p, c, d, r, occ, doors):
    """R24: seat ``p``'s Temple stays legal after moving the Tile in ``c`` to ``d`` at ``r``.

    :func:`move_rotations` for one rotation; ``occ`` and ``doors`` are scratch arrays of
    ``CELLS`` (no allocation per check).
    """
    temple_cells(rec, p, occ, doors)
    return (move_rotations(rec, p, c, d, occ, doors) >> r) & 1 == 1


@njit(cache=True)
def can_move(rec, p, c, occ, doors):
    """R24: the Tile in ``c`` has a legal rearranging move (some ``d``, ``r``).

    ``occ`` and ``doors`` are scratch arrays of ``CELLS``.
    """
    t = int(rec["grid"][p, c])
    if t < 0 or t == ENTRANCE:  # most cells: no Tile to move
        return False
    temple_cells(rec, p, occ, doors)
    for d in range(CELLS):
        if move_rotations(rec, p, c, d, occ, doors, True):
            return True
    return False


@njit(cache=True)
def move_tile(rec, p, c, d, r):
    """R24: the Tile in ``c`` moves to ``d`` at rotation ``r``; a Tile in ``d`` goes to ``c``."""
    t, s = rec["grid"][p, c], rec["side"][p, c]
    rec["grid"][p, c] = rec["grid"][p, d]
    rec["side"][p, c] = rec["side"][p, d]
    rec["rot"][p, c] = rec["rot"][p, d]
    if rec["grid"][p, c] < 0:
        rec["side"][p, c] = 0
        rec["rot"][p, c] = 0
    rec["grid"][p, d] = t
    rec["side"][p, d] = s
    rec["rot"][p, d] = r


@njit(cache=True)
def temple_sum(rec, p, table):
    """Sum of ``table[type, side]`` over seat ``p``'s Tiles (Stations, Altars...)."""
    s = 0
    for c in range(CELLS):
        t = int(rec["grid"][p, c])
        if t >= 0:
            s += table[t, rec["side"][p, c]]
    return s


@njit(cache=True)
def b_side_sum(rec, p, table):
    """Sum of a passive B-side Tile ability ``table[type]`` over seat ``p``'s flipped Tiles."""
    s = 0
    for c in range(CELLS):
        t = int(rec["grid"][p, c])
        if t >= 0 and rec["side"][p, c] == 1:
            s += table[t]
    return s


@njit(cache=True)
def relic_sum(rec, p, table):
    s = 0
    for r in range(NR):
        s += rec["r_owned"][p, r] * table[r]
    return s


@njit(cache=True)
def count(row):
    s = 0
    for i in range(row.shape[0]):
        s += row[i]
    return s


@njit(cache=True)
def add_gold(rec, p, x):
    rec["gold"][p] = min(GOLD_CAP, max(0, rec["gold"][p] + x))


@njit(cache=True)
def heal(rec, p, x):
    """Heal ``x``, never above 20 (R80)."""
    if rec["alive"][p]:
        rec["life"][p] = min(MAX_LIFE, rec["life"][p] + x)


@njit(cache=True)
def lowest_empty(counts):
    for k in range(SPOTS):
        if counts[k] == 0:
            return k
    return -1
