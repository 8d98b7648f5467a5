"""The Fathoming's record layout, zones and action space (RULES.md sections 4 and 5).

Card ids: 80 physical cards, ``0..39`` seat 0's deck list, ``40..79`` seat 1's; the kind
of card ``c`` is ``deck_list[c // 40, c % 40]`` (a row of ``data/cards.csv``), fixed at
reset. Owner = ``c // 40``; a card never changes controller.

Zones (one zone group, capacity 40)::

    DECK0 0, DECK1 1, HAND0 2, HAND1 3, DISC0 4, DISC1 5, PTER0 6, PTER1 7 (Personal
    Terrain, at most 1), GLOBAL 8 (at most 1; its controller is its card's owner),
    SLOT0 9 .. SLOT7 16 (9 + 4 * seat + slot): position 0 the Warrior, then its Items
    in the order they were attached.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from fatezoo.envs.core.decisions import ActionSpace, Block
from fatezoo.envs.core.knowledge import knowledge_fields
from fatezoo.envs.core.state import make_state_dtype
from fatezoo.envs.core.zones import zone_fields

from .cards import CARD_NAMES, NUM_KINDS, NUM_PROPS

NUM_P = 2
DECK_SIZE = 40
NUM_CARDS = NUM_P * DECK_SIZE
SLOTS = 4
MAX_ITEMS = 3  # the largest Item limit any card sets (Consumer)
DECK0, HAND0, DISC0, PTER0, GLOBAL_Z, SLOT0 = 0, 2, 4, 6, 8, 9
NUM_ZONES = SLOT0 + NUM_P * SLOTS
# a zone's first position: a slot's Warrior (its Items follow), a Terrain zone's one card;
# also a deck option row's first entry (-1 in all of a random deck's row)
FIRST_POS = 0
ZONE_NAMES = (["deck0", "deck1", "hand0", "hand1", "discard0", "discard1", "personal0",
               "personal1", "global"]
              + [f"slot{p}_{k}" for p in range(NUM_P) for k in range(SLOTS)])

START_HAND = 5
START_ENERGY = 4
MAX_ENERGY = 10
WIN_LOOT = 10
DRAW_PRICE = 2
# cancels allowed per turn (RULES.md R61): after that many, a target step has no cancel,
# so no policy can repeat "attack/play/activate -> cancel" forever within one turn
MAX_CANCELS = 3
TEMP_CAP = 16  # rows of the temporary-effect table
# temporary effect columns
T_LAYER, T_OP, T_PROP, T_VALUE, T_SEL, T_SEAT, T_CARD, T_CLS = range(8)
TEMP_W = 8

# the decision in progress
MAIN, TARGET_PH, PICK_PH, OVER = range(4)
PHASE_NAMES = ("main", "target", "pick", "over")
# the pending decision (``pend``): what it is for, its argument, an ability row
PEND_PARTS = ("what", "arg", "row")
PD_WHAT, PD_ARG, PD_ROW = range(len(PEND_PARTS))
# what a target decision is for (pend[PD_WHAT]); pend[PD_ARG] the card / slot / source
P_NONE, P_PLAY, P_ATTACK, P_ACTIVATE = range(4)
# search modes (pend[PD_WHAT] in the pick phase; pend[PD_ARG] the searching card's kind,
# pend[PD_ROW] the ability row)
SR_HAND, SR_PLAY = 1, 2
# activate sources
SRC_PERSONAL, SRC_GLOBAL = 4, 5
NUM_SOURCES = 6
# targets (the target block): own Warrior 0-3, opposing Warrior 0-3, own Personal
# Terrain, opposing Personal Terrain, the Global Terrain
TG_OWN_W, TG_OPP_W, TG_OWN_PT, TG_OPP_PT, TG_GLOBAL = 0, 4, 8, 9, 10
NUM_TARGETS = 11

# the cache of the board's effective values (``eff``, ``eff_cls``), valid while
# ``eff_key`` equals the board it was computed from (rules.props_key): 1 + turn player,
# temp_n, then per board zone (Global, two Personal Terrains, 8 Warrior slots) its size
# and up to 4 cards as ``card * 256 + kind``, then the used temporary-effect rows
KEY_PARTS = ("turn", "temp_n")  # 1 + turn player, temp_n
KEY_TURN, KEY_TEMP_N = range(len(KEY_PARTS))
KEY_ZONE0 = len(KEY_PARTS)  # the first board zone's entry
KEY_ZONES = 11
KEY_ZONE_PARTS = ("size", "card0")  # a zone's entry: its size, then its cards from card0
KEY_ZSIZE, KEY_ZCARD0 = range(len(KEY_ZONE_PARTS))
KEY_ZSTRIDE = KEY_ZCARD0 + 1 + MAX_ITEMS
KEY_TEMP0 = KEY_ZONE0 + KEY_ZONES * KEY_ZSTRIDE
KEY_N = KEY_TEMP0 + TEMP_CAP * TEMP_W

# why the game ended (``reason``)
R_NONE, R_LOOT, R_DECKOUT, R_ALT = range(4)

SPACE = ActionSpace([
    Block("play", NUM_KINDS, tuple(f"play {n}" for n in CARD_NAMES)),
    Block("attack", SLOTS, "attack with warrior {}"),
    Block("activate", NUM_SOURCES, tuple(f"activate warrior {k}" for k in range(SLOTS))
          + ("activate personal terrain", "activate global terrain")),
    Block("draw", 1, ("pay 2 energy: draw",)),
    Block("end", 1, ("end turn",)),
    Block("target", NUM_TARGETS, tuple(f"target own warrior {k}" for k in range(SLOTS))
          + tuple(f"target opposing warrior {k}" for k in range(SLOTS))
          + ("target own personal terrain", "target opposing personal terrain",
             "target global terrain")),
    Block("pick", NUM_KINDS, tuple(f"pick {n}" for n in CARD_NAMES)),
    Block("cancel", 1, ("cancel: back to the main step",)),
])
PLAY = SPACE.offset("play")
ATTACK_A = SPACE.offset("attack")
ACTIVATE_A = SPACE.offset("activate")
DRAW_A = SPACE.offset("draw")
END_A = SPACE.offset("end")
TARGET_A = SPACE.offset("target")
PICK_A = SPACE.offset("pick")
CANCEL_A = SPACE.offset("cancel")
NUM_ACTIONS = SPACE.size
ACTION_NAMES = SPACE.names

GAME_FIELDS = [
    # options (R8, R62): a deck option row of kinds, -1 everywhere for a random deck (R60)
    ("divine", np.int8),
    ("deck_opt", np.int16, (NUM_P, DECK_SIZE)),
    ("split", np.int8),  # held-out setups (R62): which class pairs random decks may draw
    # the decks of this game (random ones drawn at reset) and the card -> kind map
    ("deck_list", np.int16, (NUM_P, DECK_SIZE)),
    ("turn_player", np.int8),
    ("first", np.int8),  # who won the coin flip (R10)
    ("phase", np.int8),
    ("pend", np.int16, (len(PEND_PARTS),)),
    ("energy", np.int8, (NUM_P,)),
    ("loot", np.int8, (NUM_P,)),
    ("done_turns", np.int16, (NUM_P,)),
    ("dmg", np.int16, (NUM_CARDS,)),  # damage on a card in play
    ("attacks", np.int8, (NUM_P, SLOTS)),  # attacks made this turn (READY lowers it)
    ("used", np.int8, (NUM_P, NUM_SOURCES)),  # Activate used this turn, per player
    ("cancels", np.int8),  # target steps cancelled this turn (R61), 0..MAX_CANCELS
    ("temp", np.int16, (TEMP_CAP, TEMP_W)),
    ("temp_n", np.int8),
    ("last_search", np.int16, (NUM_P,)),  # kind each player last revealed by a search
    ("last_roll", np.int8),  # the last die roll (R58), 0 none
    ("winner", np.int8),
    ("reason", np.int8),
    # cache (never read unless ``eff_key`` matches the board; check_record recomputes it)
    ("eff", np.int16, (NUM_P, SLOTS, NUM_PROPS)),
    ("eff_cls", np.int16, (NUM_P, SLOTS)),
    ("eff_key", np.int32, (KEY_N,)),
    *zone_fields("zone", NUM_ZONES, DECK_SIZE),
    *knowledge_fields("known", NUM_P, NUM_CARDS),
]

STATE_DTYPE = make_state_dtype("fathoming", GAME_FIELDS, Path(__file__).parent)


def action_name(a: int) -> str:
    """The name of action ``a``."""
    return ACTION_NAMES[a]
