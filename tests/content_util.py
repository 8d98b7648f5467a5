"""Shared readers for the content tests of games whose data exists before their kernels.

Pure Python (csv + re): a content test checks a game's ``data/*.csv`` and ``RULES.md``
without importing the game package.
"""

from __future__ import annotations

import csv
import re
from pathlib import Path

ENVS = Path(__file__).resolve().parent.parent / "envs"


def rules_text(game: str) -> str:
    """The game's RULES.md."""
    return (ENVS / game / "RULES.md").read_text(encoding="utf-8")


def load_csv(game: str, name: str) -> list[dict]:
    """Rows of ``envs/<game>/data/<name>.csv`` as dicts of strings."""
    with open(ENVS / game / "data" / f"{name}.csv", newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def by_name(rows, name, key: str = "name") -> dict:
    """The one row whose ``key`` is ``name`` (fails naming it if there are 0 or several)."""
    found = [r for r in rows if r[key] == name]
    assert len(found) == 1, f"{name!r}: {len(found)} rows"
    return found[0]


def copies(rows, **where) -> int:
    """Sum of the ``copies`` column over the rows matching every ``column=value``."""
    return sum(int(r["copies"]) for r in rows if all(r[k] == v for k, v in where.items()))


def table_names(rules: str, heading: str, pattern: str = r"[A-Za-z_0-9]+") -> set[str]:
    """Backticked names in the first column of the first table under ``heading``."""
    part = rules.split(heading, 1)[1]
    names, started = [], False
    for line in part.splitlines():
        if line.startswith("|"):
            started = True
            m = re.match(rf"\|\s*`({pattern})`\s*\|", line)
            if m:
                names.append(m.group(1))
        elif started:
            break
    return set(names)
