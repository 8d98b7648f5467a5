"""Combat dice (R47-R53): picking, assigning and dropping dice, leaving a fight."""

# ruff: noqa: D103  (as for envs/*/rules.py: kernels named after the rule they apply)
from __future__ import annotations

from fatezoo.envs.core.jit import njit
from fatezoo.envs.core.zones import zone_insert

from ..cards import F_DICE
from ..state import DECK, MAX_DICE
from .tables import E_CONVERT, E_SACRIFICE, F_LOW_DIE


@njit(cache=True)
def die_pickable(rec, s, i):
    """PICK_DIE: whether die ``i`` of side ``s`` may be picked.

    Rerolls: any die on the table; setting: a die of the picker's side below the face.
    """
    if i >= rec["dice_n"][s]:
        return False
    if rec["die_set"] == 0:
        return True
    return s == fight_side(rec, rec["actor"]) and rec["dice"][s, i] < rec["die_set"]


@njit(cache=True)
def any_die_pickable(rec):
    for s in range(2):
        for i in range(MAX_DICE):
            if die_pickable(rec, s, i):
                return True
    return False


ANY_DIE = -2  # find_die: any die of the side, assigned or not


@njit(cache=True)
def clear_dice(rec, s):
    """Side ``s`` has no die on the table: no faces, none assigned (R50)."""
    rec["dice_n"][s] = 0
    for i in range(MAX_DICE):
        rec["dice"][s, i] = 0
        rec["die_to"][s, i] = -1


@njit(cache=True)
def find_die(rec, s, to, low):
    """The lowest (``low``) or highest die of side ``s`` assigned to ``to``, the first on ties.

    ``to``: a Faithful type, -1 for the dice assigned to none, ``ANY_DIE`` for all; -1 when
    no die qualifies.
    """
    j = -1
    for i in range(rec["dice_n"][s]):
        if to != ANY_DIE and rec["die_to"][s, i] != to:
            continue
        if j < 0 or (rec["dice"][s, i] < rec["dice"][s, j] if low
                     else rec["dice"][s, i] > rec["dice"][s, j]):
            j = i
    return j


@njit(cache=True)
def dice_to(rec, s, t):
    """How many dice of side ``s`` are assigned to Faithful type ``t`` (R50)."""
    k = 0
    for i in range(rec["dice_n"][s]):
        if rec["die_to"][s, i] == t:
            k += 1
    return k


@njit(cache=True)
def drop_die(rec, s, t):
    """R53: a type ``t`` Faithful taken out of a fight takes one of its dice along.

    A die-dependent Faithful (R50) takes the lowest die assigned to its type; any other the
    highest die assigned to no such Faithful (the dice lie beside their Faithful).
    """
    n = int(rec["dice_n"][s])
    if n == 0:
        return
    j = -1
    if F_LOW_DIE[t] > 0:
        j = find_die(rec, s, t, True)
    if j < 0:
        j = find_die(rec, s, -1, False)
    if j < 0:
        j = find_die(rec, s, ANY_DIE, False)
    for i in range(j, n - 1):
        rec["dice"][s, i] = rec["dice"][s, i + 1]
        rec["die_to"][s, i] = rec["die_to"][s, i + 1]
    rec["dice"][s, n - 1] = 0
    rec["die_to"][s, n - 1] = -1
    rec["dice_n"][s] = n - 1


@njit(cache=True)
def take_combatant(rec, p, o, t, e):
    """R53: a Faithful of side ``o`` leaves the fight with its dice and bonuses.

    Removed: to its owner's Discard Pile; sacrificed: to the bottom of the Faithful Deck
    (R42); converted: into ``p``'s Discard Pile.
    """
    rec["f_fight"][o, t] -= 1
    owner = int(rec["turn_player"]) if o == 0 else int(rec["defender"])
    if e == E_SACRIFICE:
        zone_insert(rec["f_deck"], rec["f_deck_n"], DECK, 0, t)
    elif e == E_CONVERT:
        rec["f_discard"][p, t] += 1
    else:
        rec["f_discard"][owner, t] += 1
    for _ in range(F_DICE[t]):
        drop_die(rec, o, t)


# the modules of the same import cycle, imported once this one's kernels are defined
from .plays import fight_side  # noqa: E402
