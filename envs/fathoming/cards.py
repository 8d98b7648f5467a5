"""The Fathoming's content (``data/*.csv``, designed for fatezoo) as numpy tables for numba.

Cards are data, effects are code: each card kind is one row of ``cards.csv``; its
abilities are rows of ``abilities.csv``, turned here into small integer tables that the
kernels read (``ABIL[kind, n, column]``). Names of enums follow the CSV words.
"""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np

DATA = Path(__file__).parent / "data"


def _rows(name: str) -> list[dict]:
    with open(DATA / f"{name}.csv", newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


CLASS_NAMES = tuple(r["name"] for r in _rows("classes"))  # PIXIE .. GOBLIN, DIVINE
NUM_CLASSES = len(CLASS_NAMES)  # 9
DIVINE_CLASS = CLASS_NAMES.index("DIVINE")
BASE_MASK = (1 << DIVINE_CLASS) - 1  # the 8 base classes ("ALL" of Halo of Unity)

TYPES = ("WARRIOR", "TERRAIN", "ACTION", "ITEM")
WARRIOR, TERRAIN, ACTION, ITEM = range(4)
PERSONAL, GLOBAL = 1, 2  # terrain subtypes (0: not a terrain)

TRIGGERS = ("CONSTANT", "PLAYED", "ACTIVATE", "END_TURN", "ON_KILL")
CONSTANT, PLAYED, ACTIVATE, END_TURN, ON_KILL = range(5)

EFFECTS = ("ADD", "SET", "MEDALLION", "WIN_IF_COUNT", "WIN_IF_CLASSES", "WIN_IF_ITEMS",
           "TURN_ADD", "TURN_SET", "DAMAGE", "ROLL_DAMAGE", "HEAL", "DESTROY", "BOUNCE",
           "STRIP", "DRAW", "ENERGY", "LOOT", "SEARCH", "SEARCH_PLAY", "READY",
           "DISCARD_RANDOM", "MILL")
(E_ADD, E_SET, E_MEDALLION, E_WIN_COUNT, E_WIN_CLASSES, E_WIN_ITEMS, E_TURN_ADD, E_TURN_SET,
 E_DAMAGE, E_ROLL_DAMAGE, E_HEAL, E_DESTROY, E_BOUNCE, E_STRIP, E_DRAW, E_ENERGY, E_LOOT,
 E_SEARCH, E_SEARCH_PLAY, E_READY, E_DISCARD_RANDOM, E_MILL) = range(len(EFFECTS))

SELECTORS = ("SELF", "EQUIPPED", "ALLY_WARRIORS", "ENEMY_WARRIORS", "ALL_WARRIORS",
             "ALLY_WARRIOR", "ENEMY_WARRIOR", "ENEMY_CARD", "ENEMY_TERRAIN", "OWN_HAND",
             "ALL_HANDS", "PLAYER", "OPPONENT")
(S_SELF, S_EQUIPPED, S_ALLY_WARRIORS, S_ENEMY_WARRIORS, S_ALL_WARRIORS, S_ALLY_WARRIOR,
 S_ENEMY_WARRIOR, S_ENEMY_CARD, S_ENEMY_TERRAIN, S_OWN_HAND, S_ALL_HANDS, S_PLAYER,
 S_OPPONENT) = range(len(SELECTORS))

PROPS = ("ATK", "HP", "ATK_COST", "SUMMON_COST", "GUARD", "ATTACKS", "CAN_ATTACK",
         "ITEM_LIMIT", "ITEMS_ACTIVE")
(P_ATK, P_HP, P_ATK_COST, P_SUMMON_COST, P_GUARD, P_ATTACKS, P_CAN_ATTACK, P_ITEM_LIMIT,
 P_ITEMS_ACTIVE) = range(len(PROPS))
NUM_PROPS = len(PROPS)

# ability table columns
(A_TRIGGER, A_EFFECT, A_TARGET, A_PROP, A_VALUE, A_CLS, A_VS, A_CTYPE, A_COST) = range(9)
ABIL_COLS = 9
MAX_ABIL = 2


def _class_mask(word: str) -> int:
    if not word:
        return 0
    if word == "ALL":
        return BASE_MASK
    return 1 << CLASS_NAMES.index(word)


def _int(word: str, default: int = 0) -> int:
    return int(word) if word else default


_CARDS = _rows("cards")
NUM_KINDS = len(_CARDS)
assert [int(r["id"]) for r in _CARDS] == list(range(NUM_KINDS))
CARD_NAMES = tuple(r["name"] for r in _CARDS)
KIND_BY_NAME = {name: k for k, name in enumerate(CARD_NAMES)}
CARD_TEXT = tuple(r["text"] for r in _CARDS)
CTYPE = np.array([TYPES.index(r["type"]) for r in _CARDS], np.int64)
SUBTYPE = np.array([{"PERSONAL": PERSONAL, "GLOBAL": GLOBAL}.get(r["terrain"], 0)
                    for r in _CARDS], np.int64)
MEDALLION = np.array([r["terrain"] == "MEDALLION" for r in _CARDS], np.int64)
CLASS_BIT = np.array([_class_mask(r["class"]) for r in _CARDS], np.int64)  # 0: classless
COST = np.array([_int(r["cost"]) for r in _CARDS], np.int64)
HEALTH = np.array([_int(r["health"]) for r in _CARDS], np.int64)
ATTACK = np.array([_int(r["attack"]) for r in _CARDS], np.int64)
ATTACK_COST = np.array([_int(r["attack_cost"]) for r in _CARDS], np.int64)
EXPANSION = np.array([r["expansion"] == "yes" for r in _CARDS], np.int64)
DIVINE = np.array([r["divine"] == "yes" for r in _CARDS], np.int64)
# Loot for destroying a Warrior: ceil(printed Summon Cost / 2) (R31)
LOOT_VALUE = (COST + 1) // 2

ABIL = np.full((NUM_KINDS, MAX_ABIL, ABIL_COLS), -1, np.int64)
ABIL_N = np.zeros(NUM_KINDS, np.int64)
for _r in _rows("abilities"):
    _k = KIND_BY_NAME[_r["card"]]
    _n = int(_r["n"])
    ABIL[_k, _n] = (TRIGGERS.index(_r["trigger"]), EFFECTS.index(_r["effect"]),
                    SELECTORS.index(_r["target"]),
                    PROPS.index(_r["prop"]) if _r["prop"] else -1, _int(_r["value"]),
                    _class_mask(_r["cls"]), _class_mask(_r["vs"]),
                    TYPES.index(_r["ctype"]) if _r["ctype"] else -1, _int(_r["cost"]))
    ABIL_N[_k] = max(ABIL_N[_k], _n + 1)
CHOSEN_SELECTORS = (S_ALLY_WARRIOR, S_ENEMY_WARRIOR, S_ENEMY_CARD, S_ENEMY_TERRAIN)


def _chosen(k: int, trigger: int) -> int:
    """Index of kind ``k``'s ``trigger`` ability with a chosen target, or -1."""
    for n in range(ABIL_N[k]):
        if ABIL[k, n, A_TRIGGER] == trigger and ABIL[k, n, A_TARGET] in CHOSEN_SELECTORS:
            return n
    return -1


def _first(k: int, trigger: int) -> int:
    for n in range(ABIL_N[k]):
        if ABIL[k, n, A_TRIGGER] == trigger:
            return n
    return -1


PLAYED_TARGET = np.array([_chosen(k, PLAYED) for k in range(NUM_KINDS)], np.int64)
ACTIVATE_ABIL = np.array([_first(k, ACTIVATE) for k in range(NUM_KINDS)], np.int64)
HAS_TEMP = np.array([any(ABIL[k, n, A_EFFECT] in (E_TURN_ADD, E_TURN_SET)
                         for n in range(ABIL_N[k])) for k in range(NUM_KINDS)], np.int64)

# ---------------------------------------------------------------- preset decks (R59)

_DECK_ROWS = _rows("decks")
PRESETS: dict[str, list[str]] = {}
PRESET_DIVINE_ONLY: dict[str, bool] = {}
PRESET_FOCUS: dict[str, str] = {}
for _r in _DECK_ROWS:
    PRESETS.setdefault(_r["deck"], []).extend([_r["card"]] * int(_r["copies"]))
    PRESET_DIVINE_ONLY[_r["deck"]] = _r["divine_only"] == "yes"
    PRESET_FOCUS[_r["deck"]] = _r["focus"]

# ---------------------------------------------------------------- random decks (R60)

# per base class: its 5 base Warriors, its Personal and its Global Terrain (base game)
_base = [k for k in range(NUM_KINDS) if not EXPANSION[k]]
CLASS_WARRIORS = np.array([[k for k in _base if CTYPE[k] == WARRIOR and CLASS_BIT[k] == 1 << c]
                           for c in range(DIVINE_CLASS)], np.int64)
CLASS_PERSONAL = np.array([[k for k in _base if SUBTYPE[k] == PERSONAL
                            and CLASS_BIT[k] == 1 << c][0] for c in range(DIVINE_CLASS)],
                          np.int64)
CLASS_GLOBAL = np.array([[k for k in _base if SUBTYPE[k] == GLOBAL
                          and CLASS_BIT[k] == 1 << c][0] for c in range(DIVINE_CLASS)], np.int64)
FILLER_BASE = np.array([k for k in _base if CTYPE[k] in (ACTION, ITEM)], np.int64)
FILLER_DIVINE = np.array([k for k in range(NUM_KINDS) if CTYPE[k] in (ACTION, ITEM)
                          and not DIVINE[k]]
                         + [k for k in range(NUM_KINDS) if EXPANSION[k] and not DIVINE[k]
                            and CTYPE[k] not in (ACTION, ITEM)], np.int64)
DIVINE_KINDS = np.array([k for k in range(NUM_KINDS) if DIVINE[k]], np.int64)

# ---------------------------------------------------------------- held-out setups (R62)

# The class pairs held out of training (designed for fatezoo): a deck whose base-game
# Warriors include both classes of a pair is a test deck. A perfect matching of the 8 base
# classes, so every class, Warrior and Terrain still meets 6 splash classes in training;
# no preset deck holds a pair (tests/fathoming/test_split.py).
HELD_OUT_PAIRS = (("PIXIE", "MERFOLK"), ("HUMAN", "SPECTER"), ("WEREWOLF", "GOLEM"),
                  ("DRAGON", "GOBLIN"))
NUM_BASE_CLASSES = DIVINE_CLASS
PARTNER = np.full(NUM_BASE_CLASSES, -1, np.int64)  # each base class's held-out partner
for _a, _b in HELD_OUT_PAIRS:
    PARTNER[CLASS_NAMES.index(_a)] = CLASS_NAMES.index(_b)
    PARTNER[CLASS_NAMES.index(_b)] = CLASS_NAMES.index(_a)
assert sorted(PARTNER.tolist()) == list(range(NUM_BASE_CLASSES))  # a perfect matching
