"""Villainous record layout, content tables (loaded from data/*.csv) and action space.

Card ids: villain cards ``30 * seat + k`` (k expands the villain's deck rows by copies),
Fate cards ``16 * seat + k`` (Scar and Ratigan have 15; their id ``16 * seat + 15`` sits in
the ``UNUSED`` Fate zone). Global *types* index the content tables below; a card's type is
``VT[villain, k]`` / ``FT[villain, k]``.

Zones (two zone groups):

- villain cards, ``VZ = 8`` per seat: VDECK, VDISC, HAND, LOC0..LOC3, LIMBO (an Effect
  resolving); zone ``s * VZ + z``; capacity 30.
- Fate cards, ``FZ = 11`` per seat: FDECK, FDISC, HERO0..HERO3 (Heroes and their Items),
  PILE0..PILE3 (Yzma), SUCC (Scar); zone ``s * FZ + z``; then the global REVEAL (the
  revealed cards), FLIMBO (the Fate card being played) and UNUSED; capacity 16.

Conditions (R29): every Condition trigger the turn player meets is an event on the kit's
stack ``cev``; when the action that raised it has resolved, its response window asks,
in turn order, only the players holding a Condition that answers it (phase WINDOW).

Actions (one ``Discrete(42)``)::

    0..3    location 0..3      move there; play/move to; a source location; Yzma's pile
    4..7    slot 0..3          take the action of the visible symbol (0-1 top, 2-3 bottom)
    8..24   vcard 0..16        a villain card by local type
    25..35  fcard 0..10        a Fate card by local type
    36..40  target +1..+5      the opponent of a Fate action, seats after you
    41      pass               end the actions; stop a repeated pick; decline a "may"
"""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np

from fatezoo.envs.core.decisions import ActionSpace, Block
from fatezoo.envs.core.knowledge import knowledge_fields
from fatezoo.envs.core.stack import ONEHOT, PAYLOAD, SCALAR, SEAT, SKIP, StackCodec, stack_fields
from fatezoo.envs.core.state import make_state_dtype
from fatezoo.envs.core.zones import zone_fields

DATA = Path(__file__).parent / "data"
MAX_P = 6
VILLAINS = ("scar", "yzma", "ratigan")
VILLAIN_NAMES = ("Scar", "Yzma", "Ratigan")
SCAR, YZMA, RATIGAN = 0, 1, 2
NUM_VILLAINS = 3
NV, NF_CAP = 30, 16  # villain cards per seat; Fate id slots per seat
NUM_VCARDS, NUM_FCARDS = NV * MAX_P, NF_CAP * MAX_P
NVL, NFL = 17, 11  # local types: most of one villain deck / Fate deck
START_POWER = np.array([0, 1, 2, 2, 3, 3], np.int64)
HAND_SIZE = 4
MAX_POWER = 1_000_000  # check_record bound (Power is not capped by the rules, R7)

SYMBOLS = ("POWER1", "POWER2", "POWER3", "PLAY", "ACTIVATE", "FATE", "MOVE_ITEM_ALLY",
           "MOVE_HERO", "VANQUISH", "DISCARD")
S_POWER1, S_POWER2, S_POWER3, S_PLAY, S_ACTIVATE, S_FATE, S_MOVE_IA, S_MOVE_HERO, \
    S_VANQUISH, S_DISCARD = range(10)
KINDS = ("ALLY", "ITEM", "EFFECT", "CONDITION", "HERO")
K_ALLY, K_ITEM, K_EFFECT, K_CONDITION, K_HERO = range(5)
WHENS = ("none", "play", "move", "passive", "activate", "condition")
W_NONE, W_PLAY, W_MOVE, W_PASSIVE, W_ACTIVATE, W_CONDITION = range(6)
TRIGGERS = ("", "OPP_VANQUISH", "OPP_POWER", "OPP_PLAY_ALLY", "OPP_FATE_YOU")
EFFECTS = ("NONE", "GAIN_POWER", "LOSE_POWER", "DRAW", "PLAY_ALLY_FREE", "MOVE_ALLY_ANY",
           "MOVE_HERO_ANY", "MOVE_NAMED_HERO", "MOVE_HERO_FROM_HERE", "MOVE_ALLY_FROM_HERE",
           "DEFEAT_HERO_LE", "DEFEAT_HERE_LE", "DEFEAT_NAMED_HERE", "DISCARD_FATE_ITEM",
           "DISCARD_ALLY_LE", "DISCARD_ALLY_HERE", "DISCARD_ITEM", "DISCARD_ITEM_HERE",
           "RETURN_ALLY", "FETCH_NAMED", "UNLOCK", "SACRIFICE_GAIN", "PACK", "ALLY_AURA",
           "HERO_MINUS", "STR_BONUS", "QUEEN_DISCOUNT", "ITEM_STR", "HERO_ALLY_MINUS",
           "FIND_HERO", "PLAY_FROM_FATE_DISCARD", "REVEAL_UNTIL_HERO")
(E_NONE, E_GAIN_POWER, E_LOSE_POWER, E_DRAW, E_PLAY_ALLY_FREE, E_MOVE_ALLY_ANY,
 E_MOVE_HERO_ANY, E_MOVE_NAMED_HERO, E_MOVE_HERO_FROM_HERE, E_MOVE_ALLY_FROM_HERE,
 E_DEFEAT_HERO_LE, E_DEFEAT_HERE_LE, E_DEFEAT_NAMED_HERE, E_DISCARD_FATE_ITEM,
 E_DISCARD_ALLY_LE, E_DISCARD_ALLY_HERE, E_DISCARD_ITEM, E_DISCARD_ITEM_HERE, E_RETURN_ALLY,
 E_FETCH_NAMED, E_UNLOCK, E_SACRIFICE_GAIN, E_PACK, E_ALLY_AURA, E_HERO_MINUS, E_STR_BONUS,
 E_QUEEN_DISCOUNT, E_ITEM_STR, E_HERO_ALLY_MINUS, E_FIND_HERO,
 E_PLAY_FROM_FATE_DISCARD, E_REVEAL_UNTIL_HERO) = range(len(EFFECTS))


def _rows(name):
    with open(DATA / f"{name}.csv", newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


LOC_ROWS = _rows("locations")
VROWS = _rows("villain_cards")
FROWS = _rows("fate_cards")
NUM_VTYPES, NUM_FTYPES = len(VROWS), len(FROWS)
VNAME = tuple(r["name"] for r in VROWS)
FNAME = tuple(r["name"] for r in FROWS)
LOC_NAME = [["" for _ in range(4)] for _ in VILLAINS]
LOC_SYM = np.zeros((NUM_VILLAINS, 4, 4), np.int64)
LOC_LOCKED = np.zeros((NUM_VILLAINS, 4), np.int64)
for _r in LOC_ROWS:
    _v, _i = VILLAINS.index(_r["villain"]), int(_r["index"])
    LOC_NAME[_v][_i] = _r["name"]
    LOC_LOCKED[_v, _i] = int(_r["locked"])
    for _k, _col in enumerate(("top1", "top2", "bottom1", "bottom2")):
        LOC_SYM[_v, _i, _k] = SYMBOLS.index(_r[_col])


def _type_by_name(rows, villain, name):
    for i, r in enumerate(rows):
        if r["villain"] == VILLAINS[villain] and r["name"] == name:
            return i
    raise ValueError(f"villainous data: no card {name!r} of {VILLAINS[villain]}")


def _col(rows, col, fn=int):
    return np.array([fn(r[col]) for r in rows], np.int64)


V_VILLAIN = _col(VROWS, "villain", VILLAINS.index)
V_LOCAL = _col(VROWS, "local")
V_KIND = _col(VROWS, "kind", KINDS.index)
V_COPIES = _col(VROWS, "copies")
V_COST = _col(VROWS, "cost")
V_STR = _col(VROWS, "strength")
V_WHEN = _col(VROWS, "when", WHENS.index)
V_ACT = _col(VROWS, "act_cost")
V_TRIG = _col(VROWS, "trigger", TRIGGERS.index)
V_TRIGA = _col(VROWS, "trigger_a")
V_EFF = _col(VROWS, "effect", EFFECTS.index)
V_A = _col(VROWS, "a")
F_VILLAIN = _col(FROWS, "villain", VILLAINS.index)
F_LOCAL = _col(FROWS, "local")
F_KIND = _col(FROWS, "kind", KINDS.index)
F_COPIES = _col(FROWS, "copies")
F_STR = _col(FROWS, "strength")
F_WHEN = _col(FROWS, "when", WHENS.index)
F_EFF = _col(FROWS, "effect", EFFECTS.index)
F_A = _col(FROWS, "a")
F_MUST = _col(FROWS, "must")


def _arg(rows, i, fate):
    r = rows[i]
    if not r["arg"]:
        return -1
    v = VILLAINS.index(r["villain"])
    if r["effect"] == "UNLOCK":
        return LOC_NAME[v].index(r["arg"])
    if r["effect"] in ("FIND_HERO", "MOVE_NAMED_HERO", "DEFEAT_NAMED_HERE") or (
            fate and r["effect"] != "QUEEN_DISCOUNT"):
        return _type_by_name(FROWS, v, r["arg"])
    return _type_by_name(VROWS, v, r["arg"])


V_ARG = np.array([_arg(VROWS, i, False) for i in range(NUM_VTYPES)], np.int64)
F_ARG = np.array([_arg(FROWS, i, True) for i in range(NUM_FTYPES)], np.int64)

# deck slot k of a villain -> global type; local type -> global type
VT = np.full((NUM_VILLAINS, NV), -1, np.int64)
FT = np.full((NUM_VILLAINS, NF_CAP), -1, np.int64)
VLOC = np.full((NUM_VILLAINS, NVL), -1, np.int64)
FLOC = np.full((NUM_VILLAINS, NFL), -1, np.int64)
NF = np.zeros(NUM_VILLAINS, np.int64)
for _v in range(NUM_VILLAINS):
    _k = 0
    for _t in range(NUM_VTYPES):
        if V_VILLAIN[_t] == _v:
            VLOC[_v, V_LOCAL[_t]] = _t
            for _ in range(V_COPIES[_t]):
                VT[_v, _k] = _t
                _k += 1
    assert _k == NV, f"{VILLAINS[_v]}: villain deck of {_k} cards, expected {NV}"
    _k = 0
    for _t in range(NUM_FTYPES):
        if F_VILLAIN[_t] == _v:
            FLOC[_v, F_LOCAL[_t]] = _t
            for _ in range(F_COPIES[_t]):
                FT[_v, _k] = _t
                _k += 1
    NF[_v] = _k

# named cards of the objectives (global types; -1 where a villain has none)
MUFASA = _type_by_name(FROWS, SCAR, "Mufasa")
KUZCO = _type_by_name(FROWS, YZMA, "Kuzco")
KRONK = _type_by_name(VROWS, YZMA, "Kronk")
DAGGER = _type_by_name(VROWS, YZMA, "Dagger")
GUARDS = _type_by_name(VROWS, YZMA, "Imperial Guards")
QUEEN = _type_by_name(VROWS, RATIGAN, "The Robot Queen")
BASIL = _type_by_name(FROWS, RATIGAN, "Basil")
PALACE = LOC_NAME[RATIGAN].index("Buckingham Palace")
SUCCESSION_GOAL = 15
QUEEN_COST = int(V_COST[QUEEN])

NUM_LOCS = 4  # locations in a Realm
# A Realm: four locations in a row (location ``loc`` is adjacent to ``loc - 1`` and
# ``loc + 1``), each with four action slots and two zones: the villain cards below it
# (``LOC0 + loc``) and the Heroes and their Items above it (``HERO0 + loc``):
#
#   +-------------+-------------+-------------+-------------+
#   | HERO0       | HERO1       | HERO2       | HERO3       |   Fate zones (fz)
#   +-------------+-------------+-------------+-------------+
#   | location 0  | location 1  | location 2  | location 3  |   slot 0 slot 1 (covered by
#   | slots 0 1   | slots 0 1   | slots 0 1   | slots 0 1   |   Heroes), slot 2 slot 3
#   |       2 3   |       2 3   |       2 3   |       2 3   |
#   +-------------+-------------+-------------+-------------+
#   | LOC0        | LOC1        | LOC2        | LOC3        |   villain zones (vz)
#   +-------------+-------------+-------------+-------------+
#
# Villain zones: zone ``s * VZ + z`` of seat s.
#
#   +-------+-------+------+------+------+------+------+-------+
#   | VDECK | VDISC | HAND | LOC0 | LOC1 | LOC2 | LOC3 | LIMBO |
#   |   0   |   1   |  2   |  3   |  4   |  5   |  6   |   7   |
#   +-------+-------+------+------+------+------+------+-------+
#   seat 0: zones 0-7, seat 1: 8-15, seat 2: 16-23, seat 3: 24-31, seat 4: 32-39,
#   seat 5: 40-47
#
# Fate zones: zone ``s * FZ + z`` of seat s, then three global zones.
#
#   +-------+-------+-------+-------+-------+-------+-------+-------+-------+-------+------+
#   | FDECK | FDISC | HERO0 | HERO1 | HERO2 | HERO3 | PILE0 | PILE1 | PILE2 | PILE3 | SUCC |
#   |   0   |   1   |   2   |   3   |   4   |   5   |   6   |   7   |   8   |   9   |  10  |
#   +-------+-------+-------+-------+-------+-------+-------+-------+-------+-------+------+
#   seat 0: zones 0-10, seat 1: 11-21, seat 2: 22-32, seat 3: 33-43, seat 4: 44-54,
#   seat 5: 55-65
#   +--------+--------+--------+
#   | REVEAL | FLIMBO | UNUSED |
#   |   66   |   67   |   68   |
#   +--------+--------+--------+
VDECK, VDISC, HAND, LOC0, LIMBO = 0, 1, 2, 3, 7
VZ = 8
NUM_VZONES = VZ * MAX_P
FDECK, FDISC, HERO0, PILE0, SUCC = 0, 1, 2, 6, 10
FZ = 11
REVEAL, FLIMBO, UNUSED = FZ * MAX_P, FZ * MAX_P + 1, FZ * MAX_P + 2
NUM_FZONES = FZ * MAX_P + 3

# phases
PH_MOVE, PH_ACT, PH_TARGET, PH_PILE, PH_FPICK, PH_ENTRY, PH_WINDOW, PH_OVER = range(8)
NUM_PHASES = 8
PHASE_NAMES = ("move", "actions", "Fate target", "Yzma pile", "Fate card", "choice",
               "Condition window", "over")

# Condition events (R29): the kit's stack (``cev``), one entry per event the turn player
# raised in the action being resolved: KIND = trigger code (TRIGGERS), OWNER = the turn
# player, ASK = the window's progress, EV_ARG = Power after the gain (OPP_POWER), printed
# Strength of the Ally (OPP_PLAY_ALLY), the target seat (OPP_FATE_YOU), 0 (OPP_VANQUISH)
T_OPP_VANQUISH, T_OPP_POWER, T_OPP_PLAY_ALLY, T_OPP_FATE_YOU = 1, 2, 3, 4
EV_CAP = 6
EV_ARG = PAYLOAD
EV_CODEC = StackCodec(depth=1, columns=[("trigger", ONEHOT, len(TRIGGERS)),
                                        ("turn player", SEAT, MAX_P), ("ask", SKIP, 0),
                                        ("amount", SCALAR, 20)])

# pending entries (what is being resolved): kinds are effect codes, then action kinds
K_PLAY, K_ACTIVATE, K_MOVE_IA, K_MOVE_H, K_VANQ, K_DISCARD, K_FHERO, K_FITEM = range(
    len(EFFECTS), len(EFFECTS) + 8)
NUM_ENTRY_KINDS = len(EFFECTS) + 8
ENTRY_NAMES = EFFECTS + ("PLAY", "ACTIVATE", "MOVE_ITEM_ALLY", "MOVE_HERO", "VANQUISH",
                         "DISCARD", "FATE_HERO", "FATE_ITEM")
# the columns of an entry (a row of ``ent``)
ENTRY_PARTS = ("kind", "a", "arg", "realm", "who", "card", "loc", "left", "step", "c0", "c1",
               "fin")
(C_KIND, C_A, C_ARG, C_REALM, C_WHO, C_CARD, C_LOC, C_LEFT, C_STEP, C_C0, C_C1,
 C_FIN) = range(len(ENTRY_PARTS))
EW = len(ENTRY_PARTS)
DEPTH = 4
FIN_NONE, FIN_VCARD, FIN_FCARD = 0, 1, 2
VQ_CAP = 12

SPACE = ActionSpace([
    Block("location", 4, "location {}"),
    Block("slot", 4, ("slot 0 (top left)", "slot 1 (top right)", "slot 2 (bottom left)",
                      "slot 3 (bottom right)")),
    Block("vcard", NVL, "villain card {}"),
    Block("fcard", NFL, "Fate card {}"),
    Block("target", MAX_P - 1, "Fate target seat +{}", start=1),
    Block("pass", 1, ("pass",)),
])
LOCATION = SPACE.offset("location")
SLOT = SPACE.offset("slot")
VCARD = SPACE.offset("vcard")
FCARD = SPACE.offset("fcard")
TARGET = SPACE.offset("target")
PASS = SPACE.offset("pass")
NUM_ACTIONS = SPACE.size
ACTION_NAMES = SPACE.names

GAME_FIELDS = [
    ("villains_opt", np.int8, (MAX_P,)),  # option per seat: -1 random, else the villain
    ("fate_token_opt", np.int8),  # option: -1 by player count, 0 off, 1 on
    ("split", np.int8),  # option: held-out setups, core.state SPLIT_ALL / _TRAIN / _TEST
    ("villain", np.int8, (MAX_P,)),
    ("power", np.int32, (MAX_P,)),
    ("mover", np.int8, (MAX_P,)),
    ("locked", np.int8, (MAX_P, 4)),
    ("attach", np.int16, (NUM_FCARDS,)),  # Fate Item id -> the Hero id it is attached to
    ("used", np.int8, (4,)),  # slots taken this turn
    ("turn_player", np.int8),
    ("phase", np.int8),
    ("token", np.int8),  # Fate token holder, -1 supply
    ("token_on", np.int8),
    ("flip", np.int8, (MAX_P,)),  # Ratigan's objective flipped (The Robot Queen discarded)
    ("goal", np.int8, (MAX_P,)),  # event objective met (Kuzco by Kronk; Basil after flip)
    ("fate_target", np.int8),
    ("fate_pile", np.int8),
    ("ent", np.int16, (DEPTH, EW)),
    ("ent_n", np.int8),
    ("vq", np.int16, (VQ_CAP,)),  # Allies chosen so far in a Vanquish
    ("vq_n", np.int8),
    ("winner", np.int8),
    *zone_fields("vz", NUM_VZONES, NV),
    *zone_fields("fz", NUM_FZONES, NF_CAP),
    *knowledge_fields("vknown", MAX_P, NUM_VCARDS),
    *knowledge_fields("fknown", MAX_P, NUM_FCARDS),
    *stack_fields("cev", EV_CAP, PAYLOAD + 1),  # Condition events waiting for their window
]

STATE_DTYPE = make_state_dtype("villainous", GAME_FIELDS, Path(__file__).parent)
assert int(V_TRIGA.max()) <= 20, "a Condition threshold above the event amount cap (20)"
