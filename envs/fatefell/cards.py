"""Fatefell card data: loads ``data/*.csv`` into read-only tables and validates them.

The 24 Arcana identities follow the rules text (values 1-12, one Sun and one Moon
identity per value, The Emperor = 1 Sun and The Lovers = 1 Moon); the other names and
all 12 Fate cards are designed for fatezoo (see RULES.md).
"""

from __future__ import annotations

import csv
from importlib import resources

import numpy as np

from .state import NUM_ARCANA, NUM_FATE, Effect

_SYMBOLS = ("sun", "moon")


def _rows(name: str) -> list[dict]:
    text = resources.files(__package__).joinpath("data", name).read_text(encoding="utf-8")
    return list(csv.DictReader(text.splitlines()))


def load_arcana(rows=None) -> tuple[str, ...]:
    """Return the 24 identity names, validating values and symbols against the card ids."""
    rows = _rows("arcana.csv") if rows is None else rows
    if len(rows) != NUM_ARCANA // 2:
        raise ValueError(f"arcana.csv must list {NUM_ARCANA // 2} identities, got {len(rows)}")
    names = []
    for i, row in enumerate(rows):
        ident, value, symbol = int(row["identity"]), int(row["value"]), row["symbol"]
        if ident != i:
            raise ValueError(f"arcana.csv row {i}: identity {ident} must be {i} (ids in order)")
        if value != i // 2 + 1 or symbol != _SYMBOLS[i % 2]:
            raise ValueError(
                f"arcana.csv identity {i} ({row['name']}): expected value {i // 2 + 1} and "
                f"symbol {_SYMBOLS[i % 2]!r}, got {value} and {symbol!r}"
            )
        names.append(row["name"])
    if len(set(names)) != len(names):
        raise ValueError("arcana.csv: identity names must be unique")
    return tuple(names)


def load_fate(rows=None) -> tuple[np.ndarray, np.ndarray, tuple[str, ...], tuple, tuple]:
    """Return (sun effects, moon effects, names, sun texts, moon texts) of the 12 Fate cards."""
    rows = _rows("fate.csv") if rows is None else rows
    if len(rows) != NUM_FATE:
        raise ValueError(f"fate.csv must list {NUM_FATE} Fate cards, got {len(rows)}")
    sun = np.zeros(NUM_FATE, np.int8)
    moon = np.zeros(NUM_FATE, np.int8)
    for i, row in enumerate(rows):
        if int(row["id"]) != i:
            raise ValueError(f"fate.csv row {i}: id {row['id']} must be {i} (ids in order)")
        for side, table in (("sun", sun), ("moon", moon)):
            name = row[side]
            if name not in Effect.__members__ or name == "NONE":
                known = ", ".join(e.name for e in Effect if e != Effect.NONE)
                raise ValueError(f"fate.csv {row['name']}: unknown {side} effect {name!r}; "
                                 f"expected one of {known}")
            table[i] = Effect[name]
    names = tuple(r["name"] for r in rows)
    if len(set(names)) != len(names):
        raise ValueError("fate.csv: Fate card names must be unique")
    sun.setflags(write=False)
    moon.setflags(write=False)
    return sun, moon, names, tuple(r["sun_text"] for r in rows), tuple(r["moon_text"] for r in rows)


ARCANA_NAMES = load_arcana()
FATE_SUN, FATE_MOON, FATE_NAMES, FATE_SUN_TEXT, FATE_MOON_TEXT = load_fate()


def card_name(c: int) -> str:
    """Return the printed name of card ``c`` (``-1`` is no card)."""
    c = int(c)
    if c < 0:
        return "-"
    if c < NUM_ARCANA:
        kind = "Skeleton" if c & 1 else "Character"
        return f"{ARCANA_NAMES[c >> 1]} ({kind})"
    return f"Fate: {FATE_NAMES[c - NUM_ARCANA]}"


def card_short(c: int) -> str:
    """Return a 4-character label: value, symbol and C/S, e.g. ``12mS``."""
    c = int(c)
    if c < 0:
        return " -- "
    if c >= NUM_ARCANA:
        return "FATE"
    return f"{(c >> 2) + 1:>2}{'sm'[(c >> 1) & 1]}{'CS'[c & 1]}"
