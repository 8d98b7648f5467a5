"""Foretold content: ``data/*.csv`` loaded once into int tables indexed by type.

Cards are data, effects are code: every ``effect`` names one instruction of RULES.md's
table (the :class:`Effect` enum, in that order). Copies of a type are interchangeable,
so the record counts cards by type (see state.py).
"""

from __future__ import annotations

import csv
from importlib import resources

import numpy as np

FATES = ("chaos", "grace", "prosperity", "wisdom")
DIRS = "NESW"  # doorway bits: N 1, E 2, S 4, W 8; rotation r turns each r steps clockwise

EFFECTS = (
    "NONE", "GAIN_GOLD", "DEVOTEE_GOLD", "STEAL_GOLD", "DISCOUNT", "FREE_BUY", "BUY_ANY",
    "GOLD_PER_ALIGNED", "TURN_GOLD", "DRAW_FATE", "WAIVE_COST", "COST_REDUCE", "COUNTER",
    "HEAL", "HEAL_FULL", "TURN_HEAL", "DAMAGE", "DAMAGE_ALL", "PREVENT", "SMITE_BONUS",
    "SMITE_REDUCE", "COMBAT_BONUS", "COMBAT_MALUS", "PAY_BONUS", "ADD_DIE", "REROLL_DIE",
    "SET_DIE", "LOW_DIE_BONUS", "ALLY_BONUS", "RAID_BONUS", "DEFENSE_BONUS", "FIGHT_BONUS",
    "REMOVE_COMBATANT", "PAY_REMOVE", "SACRIFICE_COMBATANT", "CONVERT", "PROTECT_PARTY",
    "RECALL_EXTRA", "WIN_TIES", "SMASH_RELIC", "MARKET_CYCLE", "SEARCH_RELIC", "TRAP_DISCARD",
    "TRAP_DAMAGE", "TRAP_END_RAID", "AMBUSH", "DECREE_TILE_COST", "DECREE_FATE_PRICE",
    "DECREE_SMITE", "DECREE_HEAL", "DECREE_GOLD",
)
EFFECT = {name: i for i, name in enumerate(EFFECTS)}
TIMINGS = ("none", "any", "own_turn", "fight", "dice", "stack")  # R73
WHEN = ("none", "gold", "fight", "discard_raid", "discard_defend", "on_smite", "smite", "use",
        "passive", "flip", "spring", "decree")


def _rows(name: str) -> list[dict]:
    text = resources.files(__package__).joinpath("data", f"{name}.csv").read_text(
        encoding="utf-8")
    return list(csv.DictReader(text.splitlines()))


def _col(rows, name, fn=int, dtype=np.int64) -> np.ndarray:
    arr = np.array([fn(r[name]) for r in rows], dtype)
    arr.setflags(write=False)
    return arr


def _fate(x: str) -> int:
    return FATES.index(x) if x in FATES else (4 if x in ("all", "fatesworn") else -1)


def _doors(text: str) -> int:
    return sum(1 << DIRS.index(d) for d in text)


def _effect(x: str) -> int:
    if x not in EFFECT:
        raise ValueError(f"foretold data: unknown effect {x!r}")
    return EFFECT[x]


F_ROWS = _rows("faithful")
R_ROWS = _rows("relics")
C_ROWS = _rows("fate_cards")
T_ROWS = _rows("tiles")

# --- Faithful (36 types; the 13 Fatesworn types play only with the fatesworn option)
NF = len(F_ROWS)
F_NAMES = tuple(r["name"] for r in F_ROWS)
F_COPIES = _col(F_ROWS, "copies")
F_BASE = _col(F_ROWS, "set", lambda s: s == "base")
F_STARTING = _col(F_ROWS, "tier", lambda s: s == "starting")
F_COST = _col(F_ROWS, "cost")
F_GOLD = _col(F_ROWS, "gold")
F_RAID = _col(F_ROWS, "raid_bonus")
F_DEFEND = _col(F_ROWS, "defend_bonus")
F_DICE = _col(F_ROWS, "dice")
F_WHEN = _col(F_ROWS, "when", WHEN.index)
F_EFFECT = _col(F_ROWS, "effect", _effect)
F_A = _col(F_ROWS, "a")
F_B = _col(F_ROWS, "b")
F_FATE = _col(F_ROWS, "fate", _fate)
HIGH_PRIEST, ACOLYTE, GUARD, DEVOTEE = (F_NAMES.index(x) for x in
                                        ("High Priest", "Acolyte", "Guard", "Devotee"))
VANDAL, THIEF = F_NAMES.index("Vandal"), F_NAMES.index("Thief")
F_SYMBOL = _col(F_ROWS, "fatesworn_symbol")  # R89: counts as every Fate alignment

# --- Relics (29 types)
NR = len(R_ROWS)
R_NAMES = tuple(r["name"] for r in R_ROWS)
R_COPIES = _col(R_ROWS, "copies")
R_BASE = _col(R_ROWS, "set", lambda s: s == "base")
R_COST = _col(R_ROWS, "cost")
R_ALTAR = _col(R_ROWS, "altar")
R_FATE = _col(R_ROWS, "fate", _fate)  # 0-3 a Fate Relic's Fate; -1 Basic; 4 Fatesworn symbol
R_KIND = _col(R_ROWS, "kind", ("basic", "fate", "fates").index)
R_WHEN = _col(R_ROWS, "when", WHEN.index)
R_EFFECT = _col(R_ROWS, "effect", _effect)
R_A = _col(R_ROWS, "a")
R_B = _col(R_ROWS, "b")
R_IS_FATE = _col(R_ROWS, "kind", lambda s: s == "fate")
R_OF_FATES = _col(R_ROWS, "kind", lambda s: s == "fates")  # the four Relics of the Fates (R86)
R_SYMBOL = _col(R_ROWS, "fatesworn_symbol")  # the Crucible: one Relic of every Fate (R72)
R_SLOT = _col(R_ROWS, "name", lambda s: next(
    (i for i, w in enumerate(("Crown", "Shield", "Shrine", "Sword")) if s.startswith(w)), -1))
R_SACRIFICE = _col(R_ROWS, "sacrifice")
R_TIMING = _col(R_ROWS, "timing", TIMINGS.index)
R_USE_DEVOTEE = _col(R_ROWS, "use_cost", lambda s: s == "sacrifice_devotee")  # R65

# --- Fate cards (66 types); base types belong to one Fate Deck each
NC = len(C_ROWS)
C_NAMES = tuple(r["name"] for r in C_ROWS)
C_COPIES = _col(C_ROWS, "copies")
C_BASE = _col(C_ROWS, "set", lambda s: s == "base")
C_FATE = _col(C_ROWS, "fate", _fate)
C_COST = _col(C_ROWS, "relic_cost")
C_EFFECT = _col(C_ROWS, "effect", _effect)
C_A = _col(C_ROWS, "a")
C_B = _col(C_ROWS, "b")
C_TIMING = _col(C_ROWS, "timing", TIMINGS.index)
FATE_DECK_CAP = 40  # 30 base (+10 Fatesworn) cards per Fate Deck

# --- Tiles (23 types)
NT = len(T_ROWS)
T_NAMES = tuple(r["name"] for r in T_ROWS)
T_COPIES = _col(T_ROWS, "copies")
T_KIND = _col(T_ROWS, "kind", ("start", "trap", "room", "connector").index)
T_DOORS = np.array([[_doors(r["a_doors"]), _doors(r["b_doors"])] for r in T_ROWS], np.int64)
T_STATIONS = np.array([[int(r["a_stations"]), int(r["b_stations"])] for r in T_ROWS], np.int64)
T_ALTARS = np.array([[int(r["a_altars"]), int(r["b_altars"])] for r in T_ROWS], np.int64)
T_BONUS = np.array([[int(r["a_bonus"]), int(r["b_bonus"])] for r in T_ROWS], np.int64)
for _arr in (T_DOORS, T_STATIONS, T_ALTARS, T_BONUS):
    _arr.setflags(write=False)
T_FLIP = _col(T_ROWS, "flip_cost")
T_WHEN = _col(T_ROWS, "when", WHEN.index)
T_EFFECT = _col(T_ROWS, "effect", _effect)
T_A = _col(T_ROWS, "a")
ENTRANCE, PATHWAY, TREASURY, SANCTUM, HEART = (T_NAMES.index(x) for x in
                                               ("Entrance", "Pathway", "Treasury", "Sanctum",
                                                "Heart"))
NUM_START_TILES = int((T_KIND == 0).sum())  # 5 types, one of each per seat
TILE_DECK_SIZE = int(T_COPIES[T_KIND != 0].sum())  # 25


def _check() -> None:
    """The counts the kernels rely on (the content test checks every count of the text)."""
    base_f = int((F_COPIES * F_BASE).sum())
    base_r = int((R_COPIES * R_BASE).sum())
    if base_f != 80 or base_r != 40 or TILE_DECK_SIZE != 25:
        raise ValueError(f"foretold data: expected 80 Faithful, 40 Relics, 25 deck Tiles; got "
                         f"{base_f}, {base_r}, {TILE_DECK_SIZE}")
    for k in range(4):
        n = int((C_COPIES * C_BASE * (C_FATE == k)).sum())
        if n != 30:
            raise ValueError(f"foretold data: Fate Deck {FATES[k]} has {n} base cards, not 30")
    if (T_KIND[:NUM_START_TILES] != 0).any() or (T_COPIES[:NUM_START_TILES] != 4).any():
        raise ValueError("foretold data: the 5 Starting Tile types must come first, 4 copies")


_check()
