"""Kitgame record layout, cards and action space, all declared with the rule kit.

Cards are ids ``0..19``: ``0..9`` Attack, ``10..13`` Search, ``14..19`` Block.

Zones (one zone group, capacity 20)::

    DECK 0, DISCARD 1, STACK 2 (cards whose effect is on the stack), HAND0 + p (3..6)

Actions (one ``Discrete(11)`` laid out by ``decisions.ActionSpace``)::

    0..1   play attack / play search            Phase.CARD
    2..4   target seat +1 .. +3                 Phase.TARGET (Attack only)
    5..7   option 0 .. 2                        Phase.OPTION (Attack: strike / roll the die;
                                                 Search: fetch attack / search / block)
    8      respond: block                       in a response window
    9      pass                                 Phase.CARD (end the turn) or a response window
    10     cancel: back one step                Phase.TARGET and Phase.OPTION

The turn is one choice in three steps, held as every game here holds one: ``phase`` names
the step being asked, and the choices made so far sit in ``chosen_kind`` and
``chosen_target`` (-1 while unmade).
"""

from __future__ import annotations

from enum import IntEnum
from pathlib import Path

import numpy as np

from fatezoo.envs.core.decisions import ActionSpace, Block
from fatezoo.envs.core.dice import die
from fatezoo.envs.core.knowledge import knowledge_fields
from fatezoo.envs.core.stack import PAYLOAD, stack_fields
from fatezoo.envs.core.state import make_state_dtype
from fatezoo.envs.core.zones import zone_fields

MAX_P = 4
ATTACK, SEARCH, BLOCK = 0, 1, 2
KIND_NAMES = ("attack", "search", "block")
NUM_KINDS = 3
CARD_KIND = np.array([ATTACK] * 10 + [SEARCH] * 4 + [BLOCK] * 6, np.int64)
NUM_CARDS = CARD_KIND.shape[0]

DECK, DISCARD, STACK_Z, HAND0 = 0, 1, 2, 3
NUM_ZONES = HAND0 + MAX_P

START_HAND = 3
START_LIFE = 6
STRIKE = 2  # damage of option 0 of an Attack
RISK_DIE = die(0, 1, 2, 3, 3, 5)  # option 1 of an Attack: damage = one roll


class Phase(IntEnum):
    """The step of the turn's choice being asked (a response window is asked whenever
    the stack holds an effect, whatever the phase)."""

    CARD = 0  # play an Attack or a Search, or pass
    TARGET = 1  # an Attack's target
    OPTION = 2  # the played card's option


# stack entries: kind, owner, ask (the kit's columns), then the game's from PAYLOAD on
STACK_CAP = 8
STACK_PARTS = ("card", "target", "option", "countered")  # target: a seat; -1 none
COL_CARD, COL_TARGET, COL_OPTION, COL_COUNTERED = range(PAYLOAD, PAYLOAD + len(STACK_PARTS))
STACK_WIDTH = PAYLOAD + len(STACK_PARTS)

SPACE = ActionSpace([
    Block("play", 2, ("play attack", "play search")),
    Block("target", 3, "target seat +{}", start=1),
    Block("option", 3, ("option 0: strike / fetch attack", "option 1: roll the die / fetch search",
                        "option 2: fetch block")),
    Block("respond", 1, ("respond: block",)),
    Block("pass", 1, ("pass",)),
    Block("cancel", 1, ("cancel: back one step",)),
])
PLAY = SPACE.offset("play")
TARGET = SPACE.offset("target")
OPTION = SPACE.offset("option")
RESPOND = SPACE.offset("respond")
PASS = SPACE.offset("pass")
CANCEL = SPACE.offset("cancel")
NUM_ACTIONS = SPACE.size
ACTION_NAMES = SPACE.names

GAME_FIELDS = [
    ("rounds", np.int8),  # option: the game ends after rounds * num_players turns
    ("ask_all", np.int8),  # option: a response window asks every other seat (rules.asks)
    ("turn_player", np.int8),
    ("life", np.int8, (MAX_P,)),
    ("last_roll", np.int8),  # the last die roll, -1 none
    *zone_fields("zone", NUM_ZONES, NUM_CARDS),
    *knowledge_fields("known", MAX_P, NUM_CARDS),
    *stack_fields("stack", STACK_CAP, STACK_WIDTH),
    ("phase", np.int8),
    ("chosen_kind", np.int8),  # the kind of card being played (ATTACK, SEARCH), -1 none
    ("chosen_target", np.int8),  # an Attack's target, in seats to the player's left - 1
    ("resolved", np.int16, (STACK_CAP,)),  # cards of the last chain, in resolution order
    ("resolved_n", np.int16, (1,)),
]

STATE_DTYPE = make_state_dtype("kitgame", GAME_FIELDS, Path(__file__).parent)
