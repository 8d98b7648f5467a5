"""Fatefell record layout, enums and action numbering.

Cards are int16 ids::

    0..47   Arcana  id = 2 * identity + skeleton      (skeleton 0 = Character, 1 = Skeleton)
            identity = 2 * (value - 1) + moon          (value 1..12, moon 0 = Sun, 1 = Moon)
    48..59  Fate cards (row id - 48 of data/fate.csv)

A layout is four slots, seen from its owner::

    +---+---+
    | 0 | 1 |   top row: Hidden cards
    +---+---+
    | 2 | 3 |   bottom row: Revealed cards (looked at before each draw)
    +---+---+

Actions (one fixed ``Discrete(33)``; seats in TARGET are counted to the chooser's left)::

    0        DRAW_DECK            draw the top card of the draw pile
    1..6     DRAW_DISCARD         1 + 3 * pile + depth  (depth 1-2 only in advanced Summer)
    7..10    SLOT s               a slot of the chooser's own layout
    11       DISCARD              discard the drawn card
    12..13   PILE k               choose discard pile k (advanced Autumn)
    14..19   DECLARE pair         declare a Match: pairs (0,1) (0,2) (0,3) (1,2) (1,3) (2,3)
    20       END_TURN             end the turn without declaring
    21..32   TARGET               21 + 4 * (seat - 1) + slot, seat 1..3 to the left
"""

from __future__ import annotations

from enum import IntEnum
from pathlib import Path

import numpy as np

from fatezoo.envs.core.decisions import ActionSpace, Block
from fatezoo.envs.core.state import make_state_dtype
from fatezoo.envs.core.zones import zone_fields

NUM_ARCANA = 48
NUM_IDENTITIES = NUM_ARCANA // 2  # a Character and a Skeleton per identity
COPIES = NUM_ARCANA // NUM_IDENTITIES  # cards per identity
MAX_VALUE = 12  # printed values run 1..MAX_VALUE
NUM_FATE = 12
NUM_CARDS = NUM_ARCANA + NUM_FATE
FATE0 = NUM_ARCANA
MIN_P = 2
MAX_P = 4
SLOTS = 4
HIDDEN_SLOTS = 2  # slots 0, 1 are Hidden; slots HIDDEN_SLOTS.. are Revealed
PILE_CAP = 64
DRAW_PILE = 0  # the draw pile's zone in its group of one (``draw``, ``draw_n``)
MAX_PILES = 2  # discard piles (two in advanced Autumn)
DRAW_DEPTH = 3  # cards of a discard pile one may draw from in advanced Summer
NONE = -1  # no card, player, slot or coin side in a record field
COIN_SIDES = 2  # the Fate Coin: SUN or MOON
SUN, MOON = 0, 1
AFTER_PEEK_END_TURN, AFTER_PEEK_FINISH = 0, 1  # after peeks: end the turn / finish the Fate
FATE_BASE = 6  # Fate cards in a season: FATE_BASE + FATE_STEP * (season kind or a spin)
FATE_STEP = 2
FATE_SPINS = 4  # outcomes of the random season kind or Fate count (advanced options)
# held-out setups (``split``, RULES.md): a season whose Fate count is the spin
# (kind + HELD_OUT_SHIFT) % FATE_SPINS is a test setup (Spring 10, Summer 12, Autumn 6, Winter 8)
HELD_OUT_SHIFT = 2

PAIRS = np.array([[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]], np.int64)  # own slot pairs
PAIR_PARTS = ("first", "second")  # PAIRS' columns: the pair's two slots
PAIR_FIRST, PAIR_SECOND = range(len(PAIR_PARTS))
NUM_PAIRS = len(PAIRS)
NUM_TARGETS = (MAX_P - 1) * SLOTS  # a slot of each other seat

# action ids: named blocks (see the table above)
SPACE = ActionSpace([
    Block("draw_deck", 1, ("draw from the draw pile",)),
    Block("draw_discard", MAX_PILES * DRAW_DEPTH,  # DRAW_DEPTH * pile + depth
          tuple(f"draw discard pile {k} depth {d}"
                for k in range(MAX_PILES) for d in range(DRAW_DEPTH))),
    Block("slot", SLOTS, "own slot {}"),
    Block("discard", 1, ("discard the drawn card",)),
    Block("pile", MAX_PILES, "discard pile {}"),
    Block("declare", NUM_PAIRS, tuple(f"declare match slots {x}+{y}" for x, y in PAIRS)),
    Block("end_turn", 1, ("end turn",)),
    Block("target", NUM_TARGETS,  # SLOTS * (seat - 1) + slot
          tuple(f"target seat +{r} slot {x}" for r in range(1, MAX_P) for x in range(SLOTS))),
])
DRAW_DECK = SPACE.offset("draw_deck")
DRAW_DISCARD = SPACE.offset("draw_discard")  # + DRAW_DEPTH * pile + depth
SLOT = SPACE.offset("slot")  # + slot
DISCARD = SPACE.offset("discard")
PILE = SPACE.offset("pile")  # + pile
DECLARE = SPACE.offset("declare")  # + pair
END_TURN = SPACE.offset("end_turn")
TARGET = SPACE.offset("target")  # + SLOTS * (seat - 1) + slot
NUM_ACTIONS = SPACE.size
ACTION_NAMES = SPACE.names
# the published ids (replays and trained policies depend on them)
assert (SLOT, DISCARD, PILE, DECLARE, END_TURN, TARGET, NUM_ACTIONS) == (7, 11, 12, 14, 20, 21, 33)


class Phase(IntEnum):
    """What kind of decision the current player faces."""

    DRAW = 0
    PLACE = 1
    PILE = 2
    DECLARE = 3
    PEEK_HIDDEN = 4
    FX_SLOT = 5
    FX_SLOT2 = 6
    FX_TARGET = 7
    FX_PILE = 8
    OVER = 9


class Effect(IntEnum):
    """Fate-card instructions: the small instruction set ``apply_action`` branches on."""

    NONE = 0
    PEEK_OWN = 1  # look at one of your own unknown cards
    PEEK_HIDDEN_ALL = 2  # look at both your Hidden cards
    PEEK_OPP = 3  # look at one card of any opponent
    SWAP_OWN = 4  # exchange the positions of two of your cards
    SWAP_OPP = 5  # exchange one of your cards with an opponent's card, unseen
    BURY_SEEN = 6  # bury one of your cards; look at its replacement
    SWAP_DISCARD = 7  # exchange one of your cards with the top card of a discard pile
    OTHERS_PEEK_HIDDEN = 8  # every other player may look at one of their Hidden cards
    NEXT_PEEKS = 9  # the next player looks at one of your cards
    NEXT_BURIES = 10  # the next player buries one of your cards; its replacement is unseen
    NEXT_SWAPS = 11  # the next player exchanges one of their cards with one of yours
    BURY_BLIND = 12  # bury one of your cards; its replacement is unseen
    REVEAL_OWN = 13  # show one of your cards to every player


class Season(IntEnum):
    """The four seasons, in the basic order."""

    SPRING = 0
    SUMMER = 1
    AUTUMN = 2
    WINTER = 3


NUM_PHASES = len(Phase)
NUM_EFFECTS = len(Effect)
NUM_SEASONS = len(Season)
assert FATE_BASE + FATE_STEP * (FATE_SPINS - 1) == NUM_FATE and FATE_SPINS == NUM_SEASONS

GAME_FIELDS = [
    # options (kept across resets)
    ("seasons", np.int8),
    ("random_seasons", np.int8),
    ("random_fates", np.int8),
    ("seasonal_rules", np.int8),
    ("split", np.int8),  # SPLIT_ALL, SPLIT_TRAIN or SPLIT_TEST (held-out season setups)
    ("fate_sun", np.int8, (NUM_FATE,)),  # Effect of each Fate card's Sun side
    ("fate_moon", np.int8, (NUM_FATE,)),
    # seasons and scores
    ("season", np.int8),
    ("season_kind", np.int8, (NUM_SEASONS,)),
    ("fate_count", np.int8, (NUM_SEASONS,)),
    ("season_score", np.int16, (NUM_SEASONS, MAX_P)),
    ("total", np.int16, (MAX_P,)),
    # the turn
    ("turn_player", np.int8),
    ("phase", np.int8),
    ("effect", np.int8),
    ("coin", np.int8),  # 0 Sun, 1 Moon, -1 none
    ("fate_card", np.int16),
    ("first_slot", np.int8),
    ("peeker", np.int8),
    ("after_peek", np.int8),  # 0: end the turn, 1: finish the Fate effect
    ("hand", np.int16),
    ("hand_from_discard", np.int8),  # drawn from a discard pile: face up, public
    ("pending", np.int16),  # card on its way to a discard pile
    ("ender", np.int8),
    ("final_left", np.int8),
    ("last_player", np.int8),  # the last decision, for the text view
    ("last_action", np.int16),
    # zones
    ("layout", np.int16, (MAX_P, SLOTS)),
    ("matched", np.int8, (MAX_P, SLOTS)),
    ("known", np.int8, (MAX_P, MAX_P, SLOTS)),  # viewer, owner, slot
    # the draw pile: a one-zone group, draw[DRAW_PILE, :draw_n[DRAW_PILE]], bottom at 0
    *zone_fields("draw", 1, PILE_CAP),
    ("num_piles", np.int8),
    ("discard", np.int16, (MAX_PILES, PILE_CAP)),
    ("discard_n", np.int16, (MAX_PILES,)),
    # copies of each identity in the discard piles, kept up to date by every pile change
    # so that encode never rescans the piles (check_record verifies it)
    ("discard_seen", np.int8, (NUM_IDENTITIES,)),
    ("aside", np.int16, (NUM_FATE,)),  # Fate cards resolved (or skipped) this season
    ("aside_n", np.int8),
    ("out", np.int16, (NUM_FATE,)),  # Fate cards not in this season's draw pile
    ("out_n", np.int8),
    ("scratch", np.int8, (NUM_ACTIONS,)),  # work buffer: masks probed inside kernels
]

STATE_DTYPE = make_state_dtype("fatefell", GAME_FIELDS, Path(__file__).parent)


def action_name(a: int) -> str:
    """Return a short human-readable name of action ``a``."""
    a = int(a)
    if not 0 <= a < NUM_ACTIONS:
        raise ValueError(f"action {a!r} is not in [0, {NUM_ACTIONS})")
    return ACTION_NAMES[a]
