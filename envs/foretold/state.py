"""Foretold record layout, phases and action space.

Copies of a card type are interchangeable, so a player's face-down and face-up groups
are counts by type (``f_temple[p, type]`` ...), and decks and row piles are stacks of
type ids (top = the last entry). Every card is counted in exactly one place
(``check_record`` checks it per type against the copies of the data).

A Temple is a 4x4 grid per seat: ``grid[p, cell]`` the tile type (-1 empty), ``side``
(0 A, 1 B) and ``rot`` (quarter turns clockwise); cell = 4 * row + col, row 0 north.
Doorway bits and steps are N, E, S, W (bit / direction 0-3; ``rules.neighbour``). Each
seat's Temple as the code indexes it, with the starting Tiles of R2 (``START_CELL``:
Treasury, Entrance, Sanctum, Pathway, Heart; tests/foretold/test_board.py checks it)::

               N
         +----+----+----+----+
         |  0 |  1 |  2 |  3 |
         | Tr | En | Sa |    |
         +----+----+----+----+
         |  4 |  5 |  6 |  7 |
         |    | Pa |    |    |
      W  +----+----+----+----+  E
         |  8 |  9 | 10 | 11 |
         |    | He |    |    |
         +----+----+----+----+
         | 12 | 13 | 14 | 15 |
         |    |    |    |    |
         +----+----+----+----+
               S
"""

from __future__ import annotations

from enum import IntEnum
from pathlib import Path

import numpy as np

from fatezoo.envs.core.decisions import ActionSpace, Block
from fatezoo.envs.core.dice import D6, die
from fatezoo.envs.core.stack import PAYLOAD, stack_fields
from fatezoo.envs.core.state import make_state_dtype
from fatezoo.envs.core.zones import zone_fields

from .cards import C_NAMES, F_NAMES, FATE_DECK_CAP, FATES, NC, NF, NR, NT, R_NAMES

MIN_P = 2
MAX_P = 4
CELLS = 16
SPOTS = 6  # spots per Marketplace row (designed: R5)
PILE_CAP = 80  # cards one row pile can hold (more than a whole deck)
R_FROM_DECK = SPOTS  # r_from: the acquired Relic is taken from the Relic Deck (R20)
F_DECK_CAP = 96
R_DECK_CAP = 48
T_DECK_CAP = 32
DECK = 0  # the Faithful, Relic and Tile decks are one-zone groups of the kit's zones
MAX_DICE = 10  # combat dice per side (R50)
MAX_LIFE = 20
TILE_PRICE = 3  # R21
FATE_PRICE = 3  # R22 (designed)
MAX_MOVES = 32  # Marker moves per Raid (R56, designed)
REARRANGE_CAP = 4  # rearranging moves per Marketplace Step (R24, designed)
GOLD_CAP = 30000  # the gold counter's range (int16)
STACK_CAP = 16  # pending Actions (R67-R69)
SHIELD_CAP = 60  # Prevent points one seat can hold (R80)
DISCOUNT_CAP = 20
# stack payload columns, after the kit's KIND, OWNER, ASK (the kit's PAYLOAD on)
STACK_PARTS = ("card", "target", "flags")
S_CARD, S_TARGET, S_FLAGS = range(PAYLOAD, PAYLOAD + len(STACK_PARTS))
STACK_WIDTH = PAYLOAD + len(STACK_PARTS)
# stack entry kinds: a Fate card, a Relic use, a Faithful played for gold (card = its type),
# a Tile flip (card = 4 * cell + rotation) (R67); the raid's Actions (R67, R71): a group
# played to a fight and its roll (card = the side: 0 the dispatched, 1 the Defenders), a
# Trap springing (card = its cell), the Smite (card 0: the Smiting Die still to roll, else
# the face rolled, the damage still to deal); a Faithful discarded for its ability in a
# fight (R43: card = its type, the bonus comes when it resolves); an on-Smite trigger (R59:
# card = a Faithful type in the Raiding Party, or NF + a Relic type, one entry per copy)
K_FATE, K_RELIC, K_GOLD, K_FLIP, K_ROLL, K_TRAP, K_SMITE, K_ABILITY, K_ONSMITE = range(9)
NUM_KINDS = 9
RAID_KINDS = (K_ROLL, K_TRAP, K_SMITE, K_ONSMITE)
F_COUNTERED, F_SACRIFICED = 1, 2  # S_FLAGS bits

SMITING_DIE = die(3, 4, 4, 5, 5, 6)
COMBAT_DIE = D6

# starting Temple (R2): cell of each Starting Tile type 0..4
START_CELL = np.array([1, 5, 0, 2, 9], np.int64)  # Entrance, Pathway, Treasury, Sanctum, Heart
ENTRANCE_CELL = 1


class Phase(IntEnum):
    """Whose decision it is and about what."""

    COVER_RELIC = 0  # a revealed (R12) or returned (R20) Relic covers a chosen pile
    COVER_FAITHFUL = 1  # a revealed Faithful covers a chosen pile (R12)
    MARKET = 2  # the Marketplace Step (R14)
    DRAW = 3  # draw a Fate card: choose the deck (R77)
    CYCLE = 4  # Seer: put the top card of a pile on the bottom of its deck, or pass
    PLACE_CELL = 5  # a bought Tile: its cell (R21)
    PLACE_ROT = 6  # then its rotation
    FLIP_ROT = 7  # a flip: the rotation that keeps the Temple legal (R33)
    SEARCH = 8  # a flipped Tile searches the Relic Deck (R39)
    RAID_TARGET = 9  # the Raid step: an opponent, or pass (R45)
    DEFEND = 10  # the Defender picks Defenders (R46)
    DISPATCH = 11  # the Raider dispatches (R48)
    RECALL = 12  # the Raider recalls one dispatched Faithful (R55)
    ADVANCE = 13  # the Raider moves the Marker or retreats (R56)
    TRAP_DISCARD = 14  # a Pit Trap: the Raider discards a Party Faithful (R37)
    VANDAL = 15  # on Smite: the Raider picks a Relic of the Smitten player (R59)
    REINFORCE = 16  # the split into Temple and Raiding Party (R61)
    OVER = 17  # the game has ended
    RESPOND = 18  # the asked seat may respond to the top of the stack, or pass (R69-R70)
    FATE_TARGET = 19  # the opponent a Fate card or Relic being played targets (R78)
    FINALIZE = 20  # the seat holding priority in a fight's round may act, or pass (R47, R51)
    PICK_DIE = 21  # a resolving reroll / set-a-die effect: its owner picks a die (R66)
    CHOOSE = 22  # a resolving effect's choice: a Relic to smash, a pile or type to acquire,
    #              an opposing Faithful to take out of the fight (R53, section 13)
    ASSIGN = 23  # after a roll: the die each die-dependent Faithful gets (R50)
    MOVE_CELL = 24  # rearranging: the cell the chosen Tile moves to (R24)
    MOVE_ROT = 25  # then its rotation


NUM_PHASES = len(Phase)

# fin: the round of a fight (R47, R51), none yet, after the Defense roll, after the Raid roll
FIN_NONE, FIN_DEFENSE, FIN_RAID = range(3)

SPACE = ActionSpace([
    Block("play_gold", NF, tuple(f"play {x} for gold" for x in F_NAMES)),
    Block("buy_faithful", SPOTS, "buy Faithful pile {}"),
    Block("buy_relic", SPOTS, "buy Relic pile {}"),
    Block("buy_tile", 1, ("buy the top Tile",)),
    Block("fate_deck", 4, tuple(f"Fate Deck {x}" for x in FATES)),
    Block("flip", CELLS, "flip the Tile in cell {}"),
    Block("move_from", CELLS, "rearrange: move the Tile in cell {}"),
    Block("cell", CELLS, "cell {}"),
    Block("rotation", 4, "rotation {}"),
    Block("play_fate", NC, tuple(f"play Fate card {x}" for x in C_NAMES)),
    Block("use_relic", NR, tuple(f"use {x}" for x in R_NAMES)),
    Block("ability", NF, tuple(f"discard {x} for its ability" for x in F_NAMES)),
    Block("pick_faithful", NF, tuple(f"pick {x}" for x in F_NAMES)),
    Block("pick_relic", NR, tuple(f"pick {x}" for x in R_NAMES)),
    Block("pick_die", 2 * MAX_DICE, tuple(f"die {s} {i}" for s in ("raid", "defense")
                                          for i in range(MAX_DICE))),
    Block("target_seat", 3, "target seat +{}", start=1),
    Block("direction", 4, tuple(f"move the Marker {d}" for d in "NESW")),
    Block("spot", 2 * SPOTS, tuple(f"{row} Row spot {k}" for row in ("Faithful", "Relic")
                                   for k in range(SPOTS))),
    Block("retreat", 1, ("retreat (end the Raid)",)),
    Block("cancel", 1, ("cancel: back one step",)),
    Block("pass", 1, ("pass",)),
])
PLAY_GOLD = SPACE.offset("play_gold")
BUY_FAITHFUL = SPACE.offset("buy_faithful")
BUY_RELIC = SPACE.offset("buy_relic")
BUY_TILE = SPACE.offset("buy_tile")
FATE_DECK = SPACE.offset("fate_deck")
FATE_DECKS = SPACE.block_size("fate_deck")
FLIP = SPACE.offset("flip")
MOVE_FROM = SPACE.offset("move_from")
CELL = SPACE.offset("cell")
ROTATION = SPACE.offset("rotation")
ROTATIONS = SPACE.block_size("rotation")
PLAY_FATE = SPACE.offset("play_fate")
USE_RELIC = SPACE.offset("use_relic")
ABILITY = SPACE.offset("ability")
PICK_FAITHFUL = SPACE.offset("pick_faithful")
PICK_RELIC = SPACE.offset("pick_relic")
PICK_DIE_A = SPACE.offset("pick_die")  # the Phase of the same name is Phase.PICK_DIE
TARGET_SEAT = SPACE.offset("target_seat")
TARGET_SEATS = SPACE.block_size("target_seat")
DIRECTION = SPACE.offset("direction")
SPOT = SPACE.offset("spot")
RETREAT = SPACE.offset("retreat")
CANCEL = SPACE.offset("cancel")  # back one step; in a window or a round: decline (R70)
PASS = SPACE.offset("pass")
NUM_ACTIONS = SPACE.size
ACTION_NAMES = SPACE.names

GAME_FIELDS = [
    ("two_player_variant", np.int8),  # option (R8)
    ("fatesworn", np.int8),  # option (R87): the Fatesworn cards are in the game
    ("split", np.int8),  # option: the held-out setups dealt (core.state SPLIT_*; RULES.md)
    ("turn_player", np.int8),
    ("phase", np.int8),
    ("life", np.int8, (MAX_P,)),
    ("gold", np.int16, (MAX_P,)),
    ("alive", np.int8, (MAX_P,)),
    ("winner", np.int8),  # -1 none yet
    ("devotees", np.int8),  # Devotees played for gold this turn (R16)
    # Faithful
    *zone_fields("f_deck", 1, F_DECK_CAP, np.int8),  # types, bottom first (zone DECK)
    *zone_fields("f_row", SPOTS, PILE_CAP, np.int8),  # the Row's piles, one zone per spot
    ("f_temple", np.int8, (MAX_P, NF)),
    ("f_party", np.int8, (MAX_P, NF)),
    ("f_discard", np.int8, (MAX_P, NF)),
    ("f_pool", np.int8, (MAX_P, NF)),  # face down, being split at Reinforce
    ("f_fight", np.int8, (2, NF)),  # 0 the Raider's dispatched, 1 the Defenders
    ("f_defeated", np.int8, (NF,)),
    ("f_out", np.int8, (NF,)),
    ("f_held", np.int8),  # a revealed Faithful waiting for its spot (-1 none)
    # Relics
    *zone_fields("r_deck", 1, R_DECK_CAP, np.int8),
    *zone_fields("r_row", SPOTS, PILE_CAP, np.int8),
    ("r_owned", np.int8, (MAX_P, NR)),
    ("r_out", np.int8, (NR,)),
    ("r_held", np.int8),  # a revealed (R12) or returned (R20) Relic waiting for its pile (-1)
    # R20: a Fate Relic of another Fate being acquired while the old Fate's Relics go back
    # (-1 none): its type, where it is taken from when they are back (a Relic Row spot, or
    # R_FROM_DECK), and the decision that acquires it (Phase.MARKET a purchase, Phase.CHOOSE
    # an effect, Phase.SEARCH a flip search), which goes on after
    ("r_take", np.int8),
    ("r_from", np.int8),
    ("r_then", np.int8),
    # Fate cards
    *zone_fields("c_deck", 4, FATE_DECK_CAP, np.int8),  # the four Fate Decks
    ("c_hand", np.int8, (MAX_P, NC)),
    ("c_discard", np.int8, (NC,)),
    ("c_out", np.int8, (NC,)),
    # R87, section 14: which deck's copy of each Fatesworn-symbol card a seat holds (bit j of
    # c_sym[p, f]: the copy of deck f of the j-th symbol type, rules.C_SYM); the deck a hand
    # card came from is public, so the hand cards per seat and deck are public (determinize)
    ("c_sym", np.int8, (MAX_P, 4)),
    # Tiles
    *zone_fields("t_deck", 1, T_DECK_CAP, np.int8),
    ("grid", np.int8, (MAX_P, CELLS)),
    ("side", np.int8, (MAX_P, CELLS)),
    ("rot", np.int8, (MAX_P, CELLS)),
    ("t_out", np.int8, (NT,)),
    ("t_held", np.int8),  # a bought Tile waiting for its place (-1 none)
    ("sel_cell", np.int8),  # the cell chosen for it, or the cell being flipped (-1)
    ("move_to", np.int8),  # rearranging: the cell the Tile in sel_cell moves to (-1)
    ("rearranged", np.int8),  # rearranging moves made this turn (R24)
    # pending effects
    ("draws", np.int8),  # Fate cards still to draw (R77)
    ("draw_in_raid", np.int8),  # the draws come from a Smite (then the Raid ends)
    ("search", np.int8),  # the SEARCH_RELIC parameter being resolved
    # Raid
    ("defender", np.int8),  # -1 no Raid
    ("marker", np.int8),
    ("visited", np.int8, (CELLS,)),
    ("conquered", np.int8, (CELLS,)),
    ("moves", np.int8),
    ("picked", np.int8),  # Defenders chosen / Faithful dispatched so far
    ("trap_left", np.int8),  # Party Faithful still to discard to a Pit Trap
    ("vandals", np.int8),  # 1 while a resolving Vandal's smash is chosen (R59)
    # R59: the on-Smite trigger last put on the stack (a Faithful type, or NF + a Relic
    # type; -1 none) and how many copies of it so far
    ("onsm", np.int8),
    ("onsm_k", np.int8),
    ("dice", np.int8, (2, MAX_DICE)),  # last fight: 0 Raid dice, 1 Defense dice
    ("dice_n", np.int8, (2,)),
    ("totals", np.int16, (2,)),  # last fight's Combat Rolls
    ("smite_roll", np.int8),  # last Smiting Die face (0 none)
    # Actions and responses (R67-R80)
    ("shield", np.int8, (MAX_P,)),  # Prevent points until the holder's next turn (R80)
    ("waive", np.int8),  # the turn player's next Fate card ignores its Relic Cost (R72)
    ("discount", np.int8),  # the turn player's next purchase costs this much less
    ("actor", np.int8),  # the seat choosing a target or drawing (-1 none)
    ("sel_play", np.int16),  # the card awaiting its target: Fate type, or NC + Relic type; -1
    ("bonus", np.int8, (2,)),  # this fight's bonuses (R43, R52): Raider, Defender; maluses < 0
    # the round of a fight (R47, R51): 0 none, 1 after the Defense roll, 2 after the Raid roll
    ("fin", np.int8),
    ("priority", np.int8),  # the seat the round asks next (-1 none)
    ("passes", np.int8),  # living seats that passed in a row
    ("win_ties", np.int8, (2,)),  # WIN_TIES per side in this fight
    ("extra", np.int8, (2,)),  # ADD_DIE dice a side rolls with its roll still to come
    ("recall_more", np.int8),  # RECALL_EXTRA: dispatched Faithful recalled beyond one (R55)
    ("die_left", np.int8),  # PICK_DIE: dice still to pick
    ("die_set", np.int8),  # PICK_DIE: 0 reroll the picked die, else turn it to this face
    # CHOOSE: the resolving card (Fate type, or NC + Relic type; -1 none), the seat it
    # targets (-1 none) and the picks still to make
    ("ch_card", np.int16),
    ("ch_seat", np.int8),
    ("ch_left", np.int8),
    ("protect", np.int8, (2,)),  # PROTECT_PARTY per side in this fight (R53)
    # R50: the Faithful type each die on the table is assigned to, where it matters (a
    # die-dependent ability, LOW_DIE_BONUS); -1 for every other die
    ("die_to", np.int8, (2, MAX_DICE)),
    ("assign_left", np.int8),  # ASSIGN: dice still to assign (the side is the actor's)
    *stack_fields("stack", STACK_CAP, STACK_WIDTH),
]

STATE_DTYPE = make_state_dtype("foretold", GAME_FIELDS, Path(__file__).parent)
