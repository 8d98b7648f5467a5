"""Kitgame record layout, cards and action space, all declared with the rule kit.

Cards are ids ``0..19``: ``0..9`` Attack, ``10..13`` Search, ``14..19`` Block.

Zones (one zone group, capacity 20)::

    DECK 0, DISCARD 1, STACK 2 (cards whose effect is on the stack), HAND0 + p (3..6)

Actions (one ``Discrete(11)`` laid out by ``decisions.ActionSpace``)::

    0..1   play attack / play search            step 0 of the turn decision
    2..4   target seat +1 .. +3                 step 1 (Attack only)
    5..7   option 0 .. 2                        step 2 (Attack: strike / roll the die;
                                                 Search: fetch attack / search / block)
    8      respond: block                       in a response window
    9      pass                                 step 0 (end the turn) or a response window
    10     cancel: back one step                steps 1 and 2
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from fatezoo.envs.core.decisions import ActionSpace, Block, decision_fields
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

# the turn decision: kind (0 none, 1 attack, 2 search), steps card -> target -> option
DEC_ATTACK, DEC_SEARCH = 1, 2
STEP_CARD, STEP_TARGET, STEP_OPTION = 0, 1, 2
NUM_STEPS = 3

# stack entries: kind, owner, ask (kit columns), then card, target seat, option, countered
STACK_CAP = 8
COL_CARD, COL_TARGET, COL_OPTION, COL_COUNTERED = PAYLOAD, PAYLOAD + 1, PAYLOAD + 2, PAYLOAD + 3
STACK_WIDTH = PAYLOAD + 4

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
    *decision_fields("dec", NUM_STEPS),
    ("resolved", np.int16, (STACK_CAP,)),  # cards of the last chain, in resolution order
    ("resolved_n", np.int16, (1,)),
]

STATE_DTYPE = make_state_dtype("kitgame", GAME_FIELDS, Path(__file__).parent)
