"""The two dispatchers of a pending entry: its legal mask and its apply, by kind."""

# ruff: noqa: D103  (as for envs/*/rules.py: kernels named after the rule they apply)
from __future__ import annotations

from fatezoo.envs.core.jit import njit

from .. import state as S
from .abilities import (
    apply_defeat_here,
    apply_defeat_or_discard_item,
    apply_discard_anywhere,
    apply_discard_here,
    apply_find_hero,
    apply_move_ally_from_here,
    apply_move_hero_from_here,
    apply_move_named_hero,
    apply_play_ally_free,
    apply_play_from_fate_discard,
    apply_return_ally,
    mask_any_location,
    mask_defeat_here,
    mask_discard_anywhere,
    mask_discard_here,
    mask_hero_anywhere,
    mask_move_ally_any,
    mask_move_ally_from_here,
    mask_move_hero_from_here,
    mask_move_named_hero,
    mask_play_ally_free,
    mask_play_from_fate_discard,
    mask_return_ally,
)
from .actions import (
    apply_activate,
    apply_discard,
    apply_fate_hero,
    apply_fate_item,
    apply_move_card,
    apply_move_hero,
    apply_play,
    apply_vanquish,
    mask_activate,
    mask_discard,
    mask_fate_item,
    mask_move_hero,
    mask_move_item_ally,
    mask_play,
    mask_vanquish,
)
from .conditions import resume


@njit(cache=True)
def entry_mask(rec, mask):
    """Legal choices of the top entry: routed by its kind."""
    e = rec["ent"][rec["ent_n"] - 1]
    k = e[S.C_KIND]
    if k == S.K_PLAY:
        mask_play(rec, mask, e)
    elif k == S.K_ACTIVATE:
        mask_activate(rec, mask, e)
    elif k == S.K_MOVE_IA:
        mask_move_item_ally(rec, mask, e)
    elif k == S.K_MOVE_H:
        mask_move_hero(rec, mask, e)
    elif k == S.K_VANQ:
        mask_vanquish(rec, mask, e)
    elif k == S.K_DISCARD:
        mask_discard(rec, mask, e)
    elif k == S.K_FHERO or k == S.E_FIND_HERO:
        mask_any_location(rec, mask, e)
    elif k == S.K_FITEM:
        mask_fate_item(rec, mask, e)
    elif k == S.E_PLAY_ALLY_FREE:
        mask_play_ally_free(rec, mask, e)
    elif k == S.E_MOVE_ALLY_ANY:
        mask_move_ally_any(rec, mask, e)
    elif k == S.E_MOVE_HERO_ANY or k == S.E_DEFEAT_HERO_LE or k == S.E_DISCARD_FATE_ITEM:
        mask_hero_anywhere(rec, mask, e)
    elif k == S.E_MOVE_NAMED_HERO:
        mask_move_named_hero(rec, mask, e)
    elif k == S.E_MOVE_HERO_FROM_HERE:
        mask_move_hero_from_here(rec, mask, e)
    elif k == S.E_MOVE_ALLY_FROM_HERE:
        mask_move_ally_from_here(rec, mask, e)
    elif k == S.E_DEFEAT_HERE_LE or k == S.E_DEFEAT_NAMED_HERE:
        mask_defeat_here(rec, mask, e)
    elif k == S.E_DISCARD_ALLY_LE or k == S.E_DISCARD_ITEM:
        mask_discard_anywhere(rec, mask, e)
    elif k == S.E_DISCARD_ALLY_HERE or k == S.E_DISCARD_ITEM_HERE:
        mask_discard_here(rec, mask, e)
    elif k == S.E_RETURN_ALLY:
        mask_return_ally(rec, mask, e)
    elif k == S.E_PLAY_FROM_FATE_DISCARD:
        mask_play_from_fate_discard(rec, mask, e)


@njit(cache=True)
def entry_apply(rec, action):
    """Apply the top entry's choice (routed by its kind), then ``resume``."""
    e = rec["ent"][rec["ent_n"] - 1]
    k = e[S.C_KIND]
    if k == S.K_PLAY:
        apply_play(rec, e, action)
    elif k == S.K_ACTIVATE:
        apply_activate(rec, e, action)
    elif k == S.K_MOVE_IA or k == S.E_MOVE_ALLY_ANY:
        apply_move_card(rec, e, action)
    elif k == S.K_MOVE_H or k == S.E_MOVE_HERO_ANY:
        apply_move_hero(rec, e, action)
    elif k == S.K_VANQ:
        apply_vanquish(rec, e, action)
    elif k == S.K_DISCARD:
        apply_discard(rec, e, action)
    elif k == S.K_FHERO:
        apply_fate_hero(rec, e, action)
    elif k == S.K_FITEM:
        apply_fate_item(rec, e, action)
    elif k == S.E_PLAY_ALLY_FREE:
        apply_play_ally_free(rec, e, action)
    elif k == S.E_DEFEAT_HERO_LE or k == S.E_DISCARD_FATE_ITEM:
        apply_defeat_or_discard_item(rec, e, action)
    elif k == S.E_MOVE_NAMED_HERO:
        apply_move_named_hero(rec, e, action)
    elif k == S.E_MOVE_HERO_FROM_HERE:
        apply_move_hero_from_here(rec, e, action)
    elif k == S.E_MOVE_ALLY_FROM_HERE:
        apply_move_ally_from_here(rec, e, action)
    elif k == S.E_DEFEAT_HERE_LE or k == S.E_DEFEAT_NAMED_HERE:
        apply_defeat_here(rec, e, action)
    elif k == S.E_DISCARD_ALLY_LE or k == S.E_DISCARD_ITEM:
        apply_discard_anywhere(rec, e, action)
    elif k == S.E_DISCARD_ALLY_HERE or k == S.E_DISCARD_ITEM_HERE:
        apply_discard_here(rec, e, action)
    elif k == S.E_RETURN_ALLY:
        apply_return_ally(rec, e, action)
    elif k == S.E_FIND_HERO:
        apply_find_hero(rec, e, action)
    elif k == S.E_PLAY_FROM_FATE_DISCARD:
        apply_play_from_fate_discard(rec, e, action)
    resume(rec)
