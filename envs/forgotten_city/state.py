"""Forgotten City record layout, content tables (from ``data/*.csv``) and action space.

Ids::

    hexes      0..60   data/map.csv (0 the central space)
    monuments  0..27   type = id (data/monuments.csv)
    miracles   0..26   copies expanded in row order: 0..18 white, 19..26 grey
    nightmares 0..6    type = id (data/nightmares.csv); board positions 0..5
    colours    0 purple (Storm), 1 red (Sun), 2 blue (Rain), 3 yellow (Lightning)

Actions (one ``Discrete(345)``, blocks in this order; RULES.md section 14)::

    pick 10       Meditation: take the monument on track space k
    keep 2        2 players: keep my first / second pick
    discard 3     construction zone overflow: discard zone slot 0, 1 or the new monument
    place 244     a helper on hex h with action a: index 4h + a (0/1 build zone slot 0/1,
                  2 excavate or, on the central space, exchange, 3 decode)
    rest 1        rest
    abandon 2     Letting Go: discard zone slot k for 3 VP
    resource 4    a colour (exchange give/take, any-resource gains, nightmare penalty)
    miracle 11    buy white slot 0-5, grey slot 0-4
    damage 6      1 defensive strength on the nightmare at board position k
    leader 61     Cleanup: move the leader to hex h
    pass 1        end buying / end fighting
"""

from __future__ import annotations

import csv
from enum import IntEnum
from itertools import combinations
from pathlib import Path

import numpy as np

from fatezoo.envs.core.decisions import ActionSpace, Block
from fatezoo.envs.core.state import make_state_dtype

DATA = Path(__file__).parent / "data"


def _rows(name: str) -> list[dict]:
    with open(DATA / f"{name}.csv", newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


COLOR_LETTERS = "PRBY"
COLOR_NAMES = ("purple", "red", "blue", "yellow")
NUM_COLORS = 4
CONST = {r["name"]: int(r["value"]) for r in _rows("constants")}

MIN_P = 2
MAX_P = 4
ROUNDS = CONST["rounds"]
HELPERS = CONST["helpers_per_player"]
TRACK_CAP = CONST["track_cap"]
RES_PER_COLOR = CONST["resources_per_color"]
MARKERS = CONST["markers_per_player"]
START_COINS = CONST["start_coins"]
START_VP = CONST["start_vp"]
START_RES = CONST["start_resources_each"]
FREE_MARKERS = CONST["free_markers"]
AREA_SPACES = CONST["monument_area_spaces"]
TREE_SPACES = CONST["miracle_tree_spaces"]
MAX_LEVEL = CONST["production_max_level"]
PORTAL_COINS = CONST["portal_coins"]
REST_COINS = CONST["rest_coins"]
PENALTY_VP = CONST["nightmare_penalty_vp"]
WHITE_SHOWN = CONST["white_shown"]
GREY_SHOWN = CONST["grey_shown"]
NUM_NM_POS = CONST["nightmares_used"]

# ---- the map
T_STONE, T_PORTAL, T_CENTRAL = 4, 5, 6  # terrain codes: 0-3 colours, then these
NUM_TERRAINS = T_CENTRAL + 1
# The map (RULES.md section 12) as the code indexes it: each space's hex number at its
# axial coordinates (q to the right, r down the page; ADJ[h, d] steps by _DIRS[d]);
# * the central space, s a stone space, o a portal (tests/forgotten_city/test_board.py
# redraws it from data/map.csv):
#
#         57  10   9   8o  7
#       58o 54   6   5   4  20
#     59  55  52   3s  2  16  19
#   60  56  53s 51   1  13s 15  18o
# 47  44  42  41   0* 11  12  14  17
#   48o 45  43s 31  21  23s 26  30
#     49  46  32  33s 22  25  29
#       50  34  35  36  24  28o
#         37  38o 39  40  27
_MAP = _rows("map")
NUM_HEX = len(_MAP)
HEX_Q = np.array([int(r["q"]) for r in _MAP], np.int64)
HEX_R = np.array([int(r["r"]) for r in _MAP], np.int64)
HEX_SECTOR = np.array([int(r["sector"]) for r in _MAP], np.int64)
HEX_LOCAL = np.array([int(r["local"]) for r in _MAP], np.int64)
_DIRS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
ADJ = np.full((NUM_HEX, 6), -1, np.int64)
_where = {(int(HEX_Q[h]), int(HEX_R[h])): h for h in range(NUM_HEX)}
for _h in range(NUM_HEX):
    for _d, (_dq, _dr) in enumerate(_DIRS):
        ADJ[_h, _d] = _where.get((int(HEX_Q[_h]) + _dq, int(HEX_R[_h]) + _dr), -1)
NUM_SECTORS = 6
_TILES = _rows("terrain_tiles")
NUM_TILES = len(_TILES)
_LETTER_CODE = {"P": 0, "R": 1, "B": 2, "Y": 3, "S": T_STONE, "O": T_PORTAL}
TILE_LAYOUT = np.array([[_LETTER_CODE[c] for c in r["layout"]] for r in _TILES], np.int64)
TILE_NAMES = tuple(r["name"] for r in _TILES)
PORTALS = np.array([h for h in range(NUM_HEX) if _MAP[h]["board"] == "portal"], np.int64)
NUM_PORTALS = len(PORTALS)
# PORTAL_ADJ[k, h]: hex h is next to portal k; PORTAL_BITS[h]: those k as a bit mask
PORTAL_ADJ = np.zeros((NUM_PORTALS, NUM_HEX), np.int64)
PORTAL_BITS = np.zeros(NUM_HEX, np.int64)
for _k, _p in enumerate(PORTALS):
    for _d in range(6):
        if ADJ[_p, _d] >= 0:
            PORTAL_ADJ[_k, ADJ[_p, _d]] = 1
            PORTAL_BITS[ADJ[_p, _d]] |= 1 << _k
# hexes as bits of an int64 (61 hexes): ADJ_BITS[h] the neighbours of h, and the portals
ADJ_BITS = np.zeros(NUM_HEX, np.int64)
for _h in range(NUM_HEX):
    for _d in range(6):
        if ADJ[_h, _d] >= 0:
            ADJ_BITS[_h] |= 1 << int(ADJ[_h, _d])
PORTAL_HEX_BITS = int(sum(1 << int(_p) for _p in PORTALS))
assert NUM_HEX <= 63

# ---- monuments
_MON = _rows("monuments")
NUM_MON = len(_MON)
MON_NAMES = tuple(r["name"] for r in _MON)
MON_COLOR = np.array([COLOR_NAMES.index(r["color"]) for r in _MON], np.int64)
MON_COST = np.array([[int(r["cost_" + c]) for c in COLOR_NAMES] for r in _MON], np.int64)
MON_DECODE = np.array([[int(r["decode_" + c]) for c in COLOR_NAMES] for r in _MON], np.int64)


class Fx(IntEnum):
    """Effect instructions (RULES.md section 11)."""

    NONE = 0
    GAIN_VP = 1
    GAIN_INSPIRATION = 2
    GAIN_DEFENSE = 3
    GAIN_COINS = 4
    UP_INSPIRATION = 5
    UP_DEFENSE = 6
    UP_INCOME = 7
    ANY_RESOURCES = 8
    EXCAVATE_BONUS = 9
    DEFENSE_PER_ROUND = 10
    REST_BONUS = 11
    EXCAVATE_UNDER_MONUMENT = 12
    LEADER_ANYWHERE = 13
    VP_PER_EXCAVATE = 14
    ABANDON_MONUMENT = 15
    END_COLOR_MONUMENTS = 16
    END_DEFENSE_TRACK = 17
    END_INCOME_TRACK = 18
    END_NIGHTMARES = 19
    END_EMPTY_TILES = 20


# a monument's effects, MON_EFFECTS for building and MON_EFFECTS for decoding, each a row of
# FX_PARTS
FX_PARTS = ("effect", "amount")
FX_EFFECT, FX_AMOUNT = range(len(FX_PARTS))
MON_EFFECTS = 2
MON_BUILD = np.array([[[Fx[r["build1"]], int(r["build1_a"])], [Fx[r["build2"]], int(r["build2_a"])]]
                      for r in _MON], np.int64)
MON_DEC_FX = np.array([[[Fx[r["decode1"]], int(r["decode1_a"])],
                        [Fx[r["decode2"]], int(r["decode2_a"])]] for r in _MON], np.int64)
assert MON_BUILD.shape[1:] == MON_DEC_FX.shape[1:] == (MON_EFFECTS, len(FX_PARTS))

# ---- miracles (copies expanded in row order)
_MIR = _rows("miracles")
NUM_MIR_TYPES = len(_MIR)
MIR_TYPE_NAMES = tuple(r["name"] for r in _MIR)
_ids = [int(r["type"]) for r in _MIR for _ in range(int(r["copies"]))]
MIR_TYPE = np.array(_ids, np.int64)
NUM_MIR = len(_ids)
TYPE_WHITE = np.array([r["kind"] == "white" for r in _MIR], np.int64)
NUM_WHITE = int(TYPE_WHITE[MIR_TYPE].sum())
NUM_GREY = NUM_MIR - NUM_WHITE
assert (TYPE_WHITE[MIR_TYPE[:NUM_WHITE]] == 1).all() and not TYPE_WHITE[MIR_TYPE[NUM_WHITE:]].any()
GREY_OUT = NUM_GREY - GREY_SHOWN
TYPE_FX = np.array([Fx[r["effect"]] for r in _MIR], np.int64)
TYPE_A = np.array([int(r["a"]) for r in _MIR], np.int64)
TYPE_B = np.array([int(r["b"]) for r in _MIR], np.int64)
TYPE_COLORS = np.zeros((NUM_MIR_TYPES, NUM_COLORS), np.int64)
for _t, _r in enumerate(_MIR):
    for _c in _r["colors"]:
        TYPE_COLORS[_t, COLOR_LETTERS.index(_c)] = 1
TYPE_WHITE_NEEDED = np.array([int(r["white_needed"]) for r in _MIR], np.int64)
TREE = _rows("miracle_tree")
TREE_COST = np.array([int(r["cost"]) for r in TREE], np.int64)
TREE_VP = np.array([int(r["vp"]) for r in TREE], np.int64)
AREA_VP = np.array([int(r["vp"]) for r in _rows("monument_area")], np.int64)

# ---- nightmares
_NM = _rows("nightmares")
NUM_NM = len(_NM)
NM_NAMES = tuple(r["name"] for r in _NM)
NM_COLOR = np.array([COLOR_NAMES.index(r["color"]) for r in _NM], np.int64)
NM_ATTACKS = np.zeros((NUM_NM, NUM_COLORS), np.int64)
for _t, _r in enumerate(_NM):
    for _c in _r["attacks"]:
        NM_ATTACKS[_t, COLOR_LETTERS.index(_c)] = 1
NM_HP = np.array([[0, 0] + [int(r["hp2"]), int(r["hp3"]), int(r["hp4"])] for r in _NM], np.int64)
MAX_BOXES = max(len(r["box_vp"].split()) for r in _NM)
NM_BOX_VP = np.zeros((NUM_NM, MAX_BOXES), np.int64)
for _t, _r in enumerate(_NM):
    _v = [int(x) for x in _r["box_vp"].split()]
    NM_BOX_VP[_t, : len(_v)] = _v

# ---- production and setup
# a seat's production tracks: the columns of its ``level`` and of PROD (data/production.csv)
LEVEL_PARTS = ("inspiration", "defense", "income")
LV_INSP, LV_DEF, LV_INCOME = range(len(LEVEL_PARTS))
NUM_LEVELS = len(LEVEL_PARTS)
_PROD = _rows("production")
PROD = np.array([[int(r[k]) for k in LEVEL_PARTS] for r in _PROD], np.int64)
# a construction zone's slots (the columns of ``zone``) and a Meditation's picks (``picks``)
ZONE_PARTS = ("slot 0", "slot 1")
ZONE_0, ZONE_1 = range(len(ZONE_PARTS))
ZONE_SLOTS = len(ZONE_PARTS)
PICK_PARTS = ("first", "second")
PICK_FIRST, PICK_SECOND = range(len(PICK_PARTS))
NUM_PICKS = len(PICK_PARTS)
_SETUP = {int(r["players"]): r for r in _rows("setup")}
TRACK_SPACES = np.array([0, 0] + [int(_SETUP[n]["track_spaces"]) for n in (2, 3, 4)], np.int64)
TRACK_MONS = np.array([0, 0] + [int(_SETUP[n]["track_monuments"]) for n in (2, 3, 4)], np.int64)
PICKS = np.array([0, 0] + [int(_SETUP[n]["picks_per_player"]) for n in (2, 3, 4)], np.int64)
MAX_TRACK = int(TRACK_SPACES.max())


class Phase(IntEnum):
    """Where the round is."""

    PICK = 0  # Meditation picks
    SETTLE = 1  # Meditation: keep (2 players) and capacity discard, per player
    ACTION = 2
    BUY = 3  # Recollection purchases
    FIGHT = 4  # Nightmare
    LEADER = 5  # Cleanup leader moves
    OVER = 6


class Dec(IntEnum):
    """The decision the current player faces."""

    NONE = 0
    PICK = 1
    KEEP = 2
    DISCARD = 3
    MAIN = 4
    EXCH_GIVE = 5
    EXCH_TAKE = 6
    GAIN_RES = 7
    BUY = 8
    FIGHT = 9
    PENALTY = 10
    LEADER = 11


NUM_PHASES = len(Phase)
NUM_DECS = len(Dec)

# what a helper placed on a hex does: build zone slot k (ACT_BUILD0 + k), excavate (an
# exchange on the central space), decode
PLACE_ACTS = ("build slot 0", "build slot 1", "excavate/exchange", "decode")
ACT_BUILD0, ACT_BUILD1, ACT_DIG, ACT_DECODE = range(len(PLACE_ACTS))
NUM_PLACE_ACTS = len(PLACE_ACTS)
assert (ACT_BUILD0 + ZONE_0, ACT_BUILD0 + ZONE_1) == (ACT_BUILD0, ACT_BUILD1)

SPACE = ActionSpace([
    Block("pick", MAX_TRACK, "pick track space {}"),
    Block("keep", NUM_PICKS, tuple(f"keep {k} pick" for k in PICK_PARTS)),
    Block("discard", ZONE_SLOTS + 1,  # a zone slot, then the new monument
          tuple(f"discard zone {k}" for k in ZONE_PARTS) + ("discard new monument",)),
    Block("place", NUM_HEX * NUM_PLACE_ACTS,  # NUM_PLACE_ACTS * hex + PLACE_ACTS index
          tuple(f"hex {h} {a}" for h in range(NUM_HEX) for a in PLACE_ACTS)),
    Block("rest", 1, ("rest",)),
    Block("abandon", ZONE_SLOTS, tuple(f"abandon zone {k}" for k in ZONE_PARTS)),
    Block("resource", NUM_COLORS, tuple(f"resource {c}" for c in COLOR_NAMES)),
    Block("miracle", WHITE_SHOWN + GREY_SHOWN,
          tuple(f"buy white {k}" for k in range(WHITE_SHOWN))
          + tuple(f"buy grey {k}" for k in range(GREY_SHOWN))),
    Block("damage", NUM_NM_POS, "damage nightmare {}"),
    Block("leader", NUM_HEX, "leader to hex {}"),
    Block("pass", 1, ("pass",)),
])
A_PICK = SPACE.offset("pick")
A_KEEP = SPACE.offset("keep")
A_DISCARD = SPACE.offset("discard")
A_PLACE = SPACE.offset("place")
A_REST = SPACE.offset("rest")
A_ABANDON = SPACE.offset("abandon")
A_RES = SPACE.offset("resource")
A_MIRACLE = SPACE.offset("miracle")
A_DAMAGE = SPACE.offset("damage")
A_LEADER = SPACE.offset("leader")
A_PASS = SPACE.offset("pass")
NUM_ACTIONS = SPACE.size
ACTION_NAMES = SPACE.names
assert NUM_ACTIONS == 345

# ---- held-out setups (RULES.md section 20): a setup is the content the rules text
# puts back in the box, the nightmare out of the game and the 3 grey miracles out of it;
# SETUP_OUT[k] is setup k's pair of bit masks (SETUP_PARTS), over nightmare types and over
# grey ids - NUM_WHITE. A setup is "test" when its nightmare type plus its three grey miracle
# types is a multiple of SPLIT_MOD (98 of the 392, 25%); TRAIN_SETUPS and TEST_SETUPS index
# SETUP_OUT, and reset draws one of them uniformly.
SETUP_PARTS = ("nightmare out", "greys out")
S_NM_OUT, S_GREY_OUT = range(len(SETUP_PARTS))
SPLIT_MOD = 4
_GREY_TYPE0 = int(MIR_TYPE[NUM_WHITE])
_setups = [(o, out) for o in range(NUM_NM) for out in combinations(range(NUM_GREY), GREY_OUT)]
SETUP_OUT = np.array([[1 << o, sum(1 << g for g in out)] for o, out in _setups], np.int64)
_test = [(o + sum(_GREY_TYPE0 + g for g in out)) % SPLIT_MOD == 0 for o, out in _setups]
TRAIN_SETUPS = np.array([k for k, t in enumerate(_test) if not t], np.int64)
TEST_SETUPS = np.array([k for k, t in enumerate(_test) if t], np.int64)
assert len(TRAIN_SETUPS) == 294 and len(TEST_SETUPS) == 98
assert (MIR_TYPE[NUM_WHITE:] == _GREY_TYPE0 + np.arange(NUM_GREY)).all()  # one copy per type

GAME_FIELDS = [
    ("split", np.int8),  # the split option: SPLIT_ALL, SPLIT_TRAIN or SPLIT_TEST (core state.py)
    # flow
    ("round", np.int8),
    ("phase", np.int8),
    ("dec", np.int8),
    ("porder", np.int8, (MAX_P,)),  # this phase's seat order (fixed when it begins)
    ("pidx", np.int8),  # index into porder (or pick / action turn counter)
    ("pending_any", np.int8),  # ANY_RESOURCES gains left
    ("exch_give", np.int8),  # colour given in an exchange, -1
    ("penalty_left", np.int8),  # nightmare penalties left to pay
    ("atk", np.int8, (NUM_NM_POS,)),  # nightmares attacking the fighter
    ("dealt", np.int8, (NUM_NM_POS,)),  # defensive strength the fighter paid to each
    ("last_player", np.int8),
    ("last_action", np.int16),
    # map
    ("tile_at", np.int8, (NUM_SECTORS,)),
    ("terrain", np.int8, (NUM_HEX,)),
    ("mon_at", np.int8, (NUM_HEX,)),
    ("placed", np.int8, (MAX_P, HELPERS)),  # hex of each placed helper this round, -1
    ("nplaced", np.int8, (MAX_P,)),
    ("nrest", np.int8, (MAX_P,)),  # exhausted helpers
    ("leader", np.int8, (MAX_P,)),
    # monuments
    ("mstack", np.int8, (NUM_MON,)),  # face down, top at mstack_n - 1
    ("mstack_n", np.int8),
    ("track_mon", np.int8, (MAX_TRACK,)),
    ("track_coins", np.int16, (MAX_TRACK,)),
    ("track_marker", np.int8, (MAX_TRACK,)),
    ("zone", np.int8, (MAX_P, ZONE_SLOTS)),  # construction zone slots (ZONE_PARTS)
    # monuments picked this Meditation, not yet settled (PICK_PARTS)
    ("picks", np.int8, (MAX_P, NUM_PICKS)),
    ("mon_owner", np.int8, (NUM_MON,)),  # builder of a monument on the map, -1
    ("mdiscard", np.int8, (NUM_MON,)),  # 1: in the discard pile
    # miracles
    ("wstack", np.int8, (NUM_WHITE,)),
    ("wstack_n", np.int8),
    ("wshow", np.int8, (WHITE_SHOWN,)),
    ("gshow", np.int8, (GREY_SHOWN,)),
    ("gout", np.int8, (GREY_OUT,)),
    ("tree", np.int8, (MAX_P, TREE_SPACES)),
    ("tree_n", np.int8, (MAX_P,)),
    # nightmares
    ("nm_at", np.int8, (NUM_NM_POS,)),
    ("nm_out", np.int8),
    ("nm_shown", np.int8),  # positions 0..nm_shown-1 are revealed
    ("boxes", np.int8, (NUM_NM_POS, MAX_BOXES)),  # seat on each box, -1
    ("hits", np.int8, (NUM_NM_POS,)),  # boxes covered
    ("killer", np.int8, (NUM_NM_POS,)),  # seat holding the defeated card, -1
    # players
    ("vp", np.int16, (MAX_P,)),
    ("coins", np.int16, (MAX_P,)),
    ("res", np.int8, (MAX_P, NUM_COLORS)),
    ("supply", np.int8, (NUM_COLORS,)),
    ("insp", np.int8, (MAX_P,)),
    ("defense", np.int8, (MAX_P,)),
    ("level", np.int8, (MAX_P, NUM_LEVELS)),  # production levels (LEVEL_PARTS)
    ("area_left", np.int8, (MAX_P,)),
    ("free", np.int8, (MAX_P,)),  # free player markers
    ("coins_taken", np.int32),
    ("coins_paid", np.int32),
    ("final", np.int16, (MAX_P,)),  # end-of-game VP (grey miracles, leftovers)
]

STATE_DTYPE = make_state_dtype("forgotten_city", GAME_FIELDS, Path(__file__).parent)
