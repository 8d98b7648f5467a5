"""Villainous rules (RULES.md) as numba kernels over the rule kit's zones and knowledge.

The turn is a small state machine (``phase``); every action and card ability that needs
choices is an *entry* on a short pending stack (``ent``): its kind (an effect code of the
instruction table, or an action kind), parameters, the Realm it acts on, who decides, its
step and choices. The top entry decides; when it completes it is popped and the one below
resumes; when none is left the turn player is back to choosing actions.

The modules, in the order they build on each other::

    cards       card types, zone access, moving a card between zones
    strength    Strength (R22, R25, R26), which Heroes and cards a choice may pick, costs
    moving      drawing, discarding, Power, Condition events, defeating and moving Heroes
    effects     abilities and the pending entries: push/pop, R17, resolving an ability
    conditions  Conditions (R29, R54) and ``resume``, run after every decision
    turn        setup (R1-R6), the turn, objectives, the slots (R10, R11)
    fate        the Fate action (section 5)
    choices     what the entry kinds share: mask helpers, playing and moving cards
    actions     entries of the action kinds: one mask and one apply per kind
    abilities   entries of the ability kinds: one mask and one apply per kind (or shape)
    entries     ``entry_mask`` and ``entry_apply``: route the top entry by its kind
    kernels     ``legal_mask``, ``apply_action`` (by phase), ``determinize_record``

The package exports the kernels the game registers and the helpers its encoder, shaping,
render and checks read (``from .rules import vtype``); everything else is imported from its
module.
"""

from __future__ import annotations

from .cards import fcard_at, fcount, ftype, is_hero, vcard_at, vcount, vtype
from .choices import vq_total
from .kernels import apply_action, determinize_record, legal_mask
from .moving import defeat_hero
from .strength import (
    ally_str,
    card_cost,
    hero_str,
    heroes_at,
    kronk_may,
    queen_cost,
    vanquish_reach,
)
from .turn import objective_met, reset_game

__all__ = [
    "ally_str",
    "apply_action",
    "card_cost",
    "defeat_hero",
    "determinize_record",
    "fcard_at",
    "fcount",
    "ftype",
    "hero_str",
    "heroes_at",
    "is_hero",
    "kronk_may",
    "legal_mask",
    "objective_met",
    "queen_cost",
    "reset_game",
    "vanquish_reach",
    "vcard_at",
    "vcount",
    "vq_total",
    "vtype",
]
