"""Foretold rules (RULES.md) as numba kernels over one record.

Control flow: each kernel resolves as far as it can and leaves ``rec["phase"]`` at the
next decision; ``apply_action`` then sets ``current_player`` from the phase. No kernel
calls back up the chain (numba needs an acyclic call graph): the end of a turn is the
last step of Reinforce or of an elimination of the turn player, and starts the next.

The modules, in the order they build on each other::

    tables   effect, timing and passive-bonus tables (from ``cards.py``)
    helpers  the Temple grid (doorways, R27-R28 legality, moves), sums, decks
    reset    setup (R1-R9); clearing a Raid, a fight, a choice; who decides next
    end      Life, elimination, victory (R80-R85)
    turn     the turn: its start (R10), Reveal (R11-R14), its end
    market   the Marketplace (R15-R23, R32): buying, gold effects, flips
    plays    Fate cards and Relics as Actions (R63-R80): who may play what
    resolve  the stack: an Action resolves, its effect, the cards it takes
    dice     combat dice (R47-R53) and leaving a fight
    choice   an effect's choice (Phase.CHOOSE) and a Relic search
    rounds   response windows and a fight's rounds (R51, R69-R71), ``advance``
    raid     Raids (R37-R60) and Reinforce (R61-R62)
    masks    one legal mask per phase; ``legal_mask`` routes by phase
    actions  one apply per phase; ``apply_action`` routes by phase
    search   ISMCTS's ``evaluate`` and ``determinize_record``

The package exports the kernels the game registers and the helpers its encoder, heuristic,
checks and tests read (``from .rules import legal_mask``); the tables are read as
``rules.tables`` and everything else is imported from its module.
"""

from __future__ import annotations

from .actions import apply_action
from .dice import any_die_pickable, drop_die
from .helpers import (
    count,
    door_steps,
    heart_depth,
    legal_doors,
    legal_with,
    move_ok,
    neighbour,
    rotate,
    temple_sum,
)
from .market import can_place_anywhere, can_take_relic, flip_rotation_ok
from .masks import asks, legal_mask
from .plays import fight_side, has_play, needs_target, play_effect
from .raid import begin_raid_step, low_slots, shown_total, side_total
from .reset import reset_game, set_current
from .search import determinize_record, evaluate, holdings, standing
from .turn import any_coverable, decree_sum, reveal_faithful, reveal_relic

__all__ = [
    "any_coverable",
    "any_die_pickable",
    "apply_action",
    "asks",
    "begin_raid_step",
    "can_place_anywhere",
    "can_take_relic",
    "count",
    "decree_sum",
    "determinize_record",
    "door_steps",
    "drop_die",
    "evaluate",
    "fight_side",
    "flip_rotation_ok",
    "has_play",
    "heart_depth",
    "holdings",
    "legal_doors",
    "legal_mask",
    "legal_with",
    "low_slots",
    "move_ok",
    "needs_target",
    "neighbour",
    "play_effect",
    "reset_game",
    "reveal_faithful",
    "reveal_relic",
    "rotate",
    "set_current",
    "shown_total",
    "side_total",
    "standing",
    "temple_sum",
]
