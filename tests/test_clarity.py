"""The code reads by name: no observation offset, table column or action block by number.

An observation part written ``out[O_SEATS + 2]`` in an encoder and read ``obs[O_SEATS + 2]``
in a heuristic states its position twice with nothing checking that they agree; a named
part (``SEAT_GOLD``) and its scale declared beside the layout are read by name everywhere.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ENVS = Path(__file__).resolve().parent.parent / "envs"

BARE_NUMBERS = {
    "an observation offset plus a number (O_X + 2)": re.compile(r"\bO_[A-Z0-9_]+\s*\+\s*\d"),
    "a write at an offset plus a number (out[o + 2])": re.compile(r"\[\s*o\s*\+\s*\d"),
    "a stack entry's column by number (rec[\"stack\"][i, 3])":
        re.compile(r"\[\"(stack|ent)\"\]\[[^\]\[]*,\s*\d+\s*\]"),
}


def _game_sources():
    return sorted(p for p in ENVS.glob("*/*.py") if p.parent.name != "core")


@pytest.mark.parametrize("what", sorted(BARE_NUMBERS))
def test_no_bare_number_stands_for_a_named_part(what):
    pattern = BARE_NUMBERS[what]
    found = [f"{p.relative_to(ENVS.parent)}:{i}: {line.strip()}"
             for p in _game_sources()
             for i, line in enumerate(p.read_text().splitlines(), 1)
             if pattern.search(line.split("#", 1)[0])]
    assert not found, f"{what}; name it beside its declaration:\n" + "\n".join(found)
