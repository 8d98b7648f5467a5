"""The zones drawn in state.py are the zones the code indexes (names, numbers, seat blocks)."""

from __future__ import annotations

import re
from pathlib import Path

from fatezoo.envs.villainous import state as S

SOURCE = Path(S.__file__).read_text().splitlines()


def drawn_boxes() -> dict[str, int]:
    """Every ``| NAME |`` row of the drawing with the ``| number |`` row under it."""
    boxes = {}
    for above, below in zip(SOURCE, SOURCE[1:]):
        names = re.findall(r"\|\s*([A-Z][A-Z0-9]*)\s*(?=\|)", above)
        numbers = re.findall(r"\|\s*(\d+)\s*(?=\|)", below)
        if above.startswith("#") and names and len(names) == len(numbers):
            boxes.update(zip(names, map(int, numbers)))
    return boxes


def drawn_seat_blocks() -> dict[int, tuple[int, int]]:
    """``seat s: zones a-b`` of the villain drawing (first) and the Fate drawing (second)."""
    blocks = []
    for line in SOURCE:
        if line.startswith("#   seat 0:"):
            blocks.append({})
        if blocks and line.startswith("#   seat"):
            for s, a, b in re.findall(r"seat (\d): (?:zones )?(\d+)-(\d+)", line):
                blocks[-1][int(s)] = (int(a), int(b))
    return blocks


def test_the_drawn_zones_are_the_declared_zones():
    boxes = drawn_boxes()
    seat_zones = {"VDECK": S.VDECK, "VDISC": S.VDISC, "HAND": S.HAND, "LIMBO": S.LIMBO,
                  "FDECK": S.FDECK, "FDISC": S.FDISC, "SUCC": S.SUCC}
    seat_zones.update({f"LOC{k}": S.LOC0 + k for k in range(S.NUM_LOCS)})
    seat_zones.update({f"HERO{k}": S.HERO0 + k for k in range(S.NUM_LOCS)})
    seat_zones.update({f"PILE{k}": S.PILE0 + k for k in range(S.NUM_LOCS)})
    for name, z in seat_zones.items():
        assert boxes[name] == z, name
    for name in ("REVEAL", "FLIMBO", "UNUSED"):
        assert boxes[name] == getattr(S, name), name
    assert set(boxes) == set(seat_zones) | {"REVEAL", "FLIMBO", "UNUSED"}
    assert max(boxes[n] for n in ("VDECK", "VDISC", "HAND", "LIMBO")) == S.VZ - 1
    assert max(boxes[n] for n in seat_zones if n not in ("VDECK", "VDISC", "HAND", "LIMBO")
               and not n.startswith("LOC")) == S.FZ - 1
    assert boxes["UNUSED"] == S.NUM_FZONES - 1


def test_the_drawn_seat_blocks_are_the_zone_numbers():
    villain, fate = drawn_seat_blocks()
    for blocks, width in ((villain, S.VZ), (fate, S.FZ)):
        assert sorted(blocks) == list(range(S.MAX_P))
        for s, (a, b) in blocks.items():
            assert (a, b) == (s * width, s * width + width - 1)
    assert villain[S.MAX_P - 1][1] == S.NUM_VZONES - 1
    assert fate[S.MAX_P - 1][1] + 1 == S.REVEAL


def test_the_drawn_realm_is_four_locations_in_a_row():
    realm = [line for line in SOURCE if re.match(r"#   \| (HERO0|location 0|LOC0) ", line)]
    assert len(realm) == 3
    for line, name in zip(realm, ("HERO", "location ", "LOC")):
        cells = [c.strip() for c in line.split("|")[1:-1]]
        assert cells == [f"{name}{k}" for k in range(S.NUM_LOCS)]
