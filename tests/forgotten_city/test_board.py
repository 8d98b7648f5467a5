"""The map drawn in state.py is the map the code indexes (hex numbers, coordinates, kinds)."""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np

from fatezoo.envs.forgotten_city import state as S

GAME = Path(S.__file__).parent
MARK = {"central": "*", "stone": "s", "portal": "o", "terrain": " "}


def draw_map() -> list[str]:
    """The map, one line per row r, each space ``NN`` plus its mark, as state.py draws it."""
    rows = list(csv.DictReader(open(GAME / "data" / "map.csv")))
    kind = {int(r["hex"]): MARK[r["board"]] for r in rows}
    at = {(int(S.HEX_Q[h]), int(S.HEX_R[h])): h for h in range(S.NUM_HEX)}
    radius = int(np.abs(S.HEX_R).max())
    lines = []
    for r in range(-radius, radius + 1):
        cells = [f"{at[q, r]:>2}{kind[at[q, r]]}" for q in range(-radius, radius + 1)
                 if (q, r) in at]
        lines.append((" " * (2 * abs(r)) + " ".join(cells)).rstrip())
    return lines


def test_the_drawn_map_is_the_indexed_map():
    source = (GAME / "state.py").read_text().splitlines()
    drawn = [line[2:].rstrip() for line in source
             if line.startswith("# ") and any(ch.isdigit() for ch in line)
             and set(line[2:].replace("*", "").replace("s", "").replace("o", "")) <= set(
                 " 0123456789")]
    assert drawn == draw_map()


def test_neighbours_on_the_drawing_are_adjacent():
    # hex 0 (the centre) touches the six spaces around it in the drawing: 1, 11, 21, 31,
    # 41 and 51, one per sector
    assert sorted(int(h) for h in S.ADJ[0] if h >= 0) == [1, 11, 21, 31, 41, 51]
    # a corner space (57) has three neighbours on the board
    assert sorted(int(h) for h in S.ADJ[57] if h >= 0) == [10, 54, 58]
