"""The Temple drawn in state.py is the grid the code indexes (cells, steps, starting Tiles)."""

from __future__ import annotations

import re

import numpy as np

from fatezoo.envs.foretold import rules
from fatezoo.envs.foretold import state as S
from fatezoo.envs.foretold.cards import T_NAMES


def drawn_rows() -> list[tuple[list[int], list[str]]]:
    """The drawing's rows: each row's cell numbers and the Tile abbreviations under them."""
    lines = [line for line in S.__doc__.splitlines() if line.strip().startswith("|")]
    rows = []
    for numbers, tiles in zip(lines[::2], lines[1::2]):
        cells = [int(x) for x in re.findall(r"\d+", numbers)]
        names = [x.strip() for x in tiles.strip().strip("|").split("|")]
        rows.append((cells, names))
    return rows


def test_the_drawn_temple_is_the_indexed_grid():
    rows = drawn_rows()
    assert [cells for cells, _ in rows] == [[4 * r + c for c in range(4)] for r in range(4)]
    assert 4 * len(rows) == S.CELLS
    drawn = {cell: name for cells, names in rows for cell, name in zip(cells, names) if name}
    start = {int(S.START_CELL[t]): T_NAMES[t][:2] for t in range(len(S.START_CELL))}
    assert drawn == start


def test_steps_go_north_east_south_west_on_the_drawing():
    # from cell 5 (row 1, col 1): N is 1, E is 6, S is 9, W is 4; off the board is -1
    assert [int(rules.neighbour(5, d)) for d in range(4)] == [1, 6, 9, 4]
    assert [int(rules.neighbour(0, d)) for d in range(4)] == [-1, 1, 4, -1]
    assert np.array_equal(rules.tables.STEP_ROW, [-1, 0, 1, 0])
