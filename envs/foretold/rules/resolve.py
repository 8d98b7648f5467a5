"""The stack: an Action resolves (R63-R65), its effect, and the cards it takes."""

# ruff: noqa: D103  (as for envs/*/rules.py: kernels named after the rule they apply)
from __future__ import annotations

from fatezoo.envs.core.dice import roll
from fatezoo.envs.core.jit import njit
from fatezoo.envs.core.stack import KIND, OWNER, stack_pop
from fatezoo.envs.core.zones import zone_find_top, zone_insert, zone_pop, zone_shuffle, zone_take

from .. import cards as C
from .. import state as S
from ..state import Phase
from .helpers import add_gold, heal
from .tables import (
    E_ADD_DIE,
    E_BUY_ANY,
    E_COMBAT_BONUS,
    E_COMBAT_MALUS,
    E_CONVERT,
    E_COUNTER,
    E_DAMAGE,
    E_DAMAGE_ALL,
    E_DISCOUNT,
    E_DRAW_FATE,
    E_FREE_BUY,
    E_GAIN_GOLD,
    E_GOLD_ALIGNED,
    E_HEAL,
    E_HEAL_FULL,
    E_MARKET_CYCLE,
    E_PAY_BONUS,
    E_PAY_REMOVE,
    E_PREVENT,
    E_PROTECT,
    E_RECALL_EXTRA,
    E_REMOVE,
    E_REROLL,
    E_SACRIFICE,
    E_SET_DIE,
    E_SMASH,
    E_STEAL,
    E_WAIVE,
    E_WIN_TIES,
    F_DISCARD_DEFEND,
    F_DISCARD_RAID,
    RECALL_CAP,
)


@njit(cache=True)
def settle_entry(rec, i):
    """Where a resolved (or countered) entry's card goes (R64, R74)."""
    stack = rec["stack"]
    c = int(stack[i, S.S_CARD])
    if stack[i, KIND] == S.K_FATE:
        rec["c_discard"][c] += 1
    elif stack[i, KIND] == S.K_RELIC and stack[i, S.S_FLAGS] & S.F_SACRIFICED:
        zone_insert(rec["r_deck"], rec["r_deck_n"], S.DECK, 0, c)


@njit(cache=True)
def flush_stack(rec):
    """The game or the turn ended mid-stack: every entry settles without effect (R83)."""
    while rec["stack_n"][0] > 0:
        i = stack_pop(rec["stack"], rec["stack_n"])
        settle_entry(rec, i)


@njit(cache=True)
def resolve_entry(rec, i):
    """Resolve stack row ``i`` (already popped). Returns True when a decision is needed."""
    stack = rec["stack"]
    p = int(stack[i, OWNER])
    c = int(stack[i, S.S_CARD])
    play = c if stack[i, KIND] == S.K_FATE else C.NC + c
    settle_entry(rec, i)
    kind = stack[i, KIND]
    if kind == S.K_ROLL or kind == S.K_TRAP or kind == S.K_SMITE or kind == S.K_ONSMITE:
        # the raid's Actions (R71, R37, R58); never countered (COUNTER takes Fate cards
        # only), and an owner out of the game ended the Raid before this (advance)
        return resolve_raid_entry(rec, kind, c)
    if stack[i, S.S_FLAGS] & S.F_COUNTERED or not rec["alive"][p]:
        return False  # R79, R83
    if stack[i, KIND] == S.K_GOLD:
        return gold_effect(rec, p, c)
    if stack[i, KIND] == S.K_FLIP:
        return flip_tile(rec, p, c // 4, c % 4)
    if kind == S.K_ABILITY:  # R43: the bonus, if the fight is still on
        s = fight_side(rec, p)
        if s >= 0:
            b = F_DISCARD_RAID[c] if s == 0 else F_DISCARD_DEFEND[c]
            rec["bonus"][s] = min(60, rec["bonus"][s] + b)
        return False
    if stack[i, KIND] == S.K_FATE:
        e, a = C.C_EFFECT[c], C.C_A[c]
    else:
        e, a = C.R_EFFECT[c], C.R_A[c]
    if e == E_GAIN_GOLD:
        add_gold(rec, p, a)
    elif e == E_DISCOUNT:
        rec["discount"] = min(S.DISCOUNT_CAP, rec["discount"] + a)
    elif e == E_GOLD_ALIGNED:
        k = 0
        for t in range(C.NF):
            if C.F_FATE[t] == 2 or C.F_SYMBOL[t]:  # R89: the Fatesworn symbol counts
                k += rec["f_discard"][p, t]
        add_gold(rec, p, a * k)
    elif e == E_HEAL:
        heal(rec, p, a)
    elif e == E_HEAL_FULL:
        heal(rec, p, S.MAX_LIFE)
    elif e == E_PREVENT:
        rec["shield"][p] = min(S.SHIELD_CAP, rec["shield"][p] + a)
    elif e == E_WAIVE:
        if p == rec["turn_player"]:
            rec["waive"] = 1
    elif e == E_COUNTER:
        if i > 0 and stack[i - 1, KIND] == S.K_FATE and stack[i - 1, OWNER] != p:
            stack[i - 1, S.S_FLAGS] |= S.F_COUNTERED
    elif e == E_DAMAGE:
        q = int(stack[i, S.S_TARGET])
        if 0 <= q < rec["num_players"]:
            damage(rec, q, a)
    elif e == E_DAMAGE_ALL:
        for q in range(rec["num_players"]):
            if q != p and rec["phase"] != Phase.OVER:
                damage(rec, q, a)
    elif e == E_DRAW_FATE:
        if any_fate_deck(rec):
            rec["draws"] = a
            rec["draw_in_raid"] = 0
            rec["actor"] = p
            rec["phase"] = Phase.DRAW
            return True
    elif e == E_MARKET_CYCLE:
        if any_pile(rec):
            rec["phase"] = Phase.CYCLE
            return True
    elif e == E_STEAL:
        q = int(stack[i, S.S_TARGET])
        if 0 <= q < rec["num_players"] and rec["alive"][q]:
            x = min(a, int(rec["gold"][q]))
            add_gold(rec, q, -x)
            add_gold(rec, p, x)
    elif e == E_SMASH:
        q = int(stack[i, S.S_TARGET])
        if 0 <= q < rec["num_players"] and target_ok(rec, p, q, e, a):
            begin_choice(rec, p, play, q, 1)
            return True
    elif e == E_FREE_BUY or e == E_BUY_ANY or e == E_REMOVE or e == E_SACRIFICE \
            or e == E_CONVERT or e == E_PAY_REMOVE:
        if effect_does_something(rec, p, e, a):
            picks = a if e == E_REMOVE or e == E_SACRIFICE or e == E_CONVERT else 1
            begin_choice(rec, p, play, -1, picks)
            return True
    elif e == E_PROTECT:
        s = fight_side(rec, p)
        if s >= 0:
            rec["protect"][s] = 1
    else:
        b = C.C_B[c] if stack[i, KIND] == S.K_FATE else C.R_B[c]
        return resolve_fight_effect(rec, p, e, a, b)
    return False


@njit(cache=True)
def resolve_fight_effect(rec, p, e, a, b):
    """R52-R55, R66: a fight effect of seat ``p``; True when a die must be picked."""
    s = fight_side(rec, p)
    if e == E_REROLL:
        if rec["fin"] > 0 and rec["dice_n"][0] + rec["dice_n"][1] > 0:
            rec["die_left"] = a
            rec["die_set"] = 0
            rec["actor"] = p
            rec["phase"] = Phase.PICK_DIE
            return True
        return False
    if s < 0:
        return False  # the fight is over or ``p`` is no longer in it
    if e == E_COMBAT_BONUS:
        rec["bonus"][s] = min(60, rec["bonus"][s] + a)
    elif e == E_COMBAT_MALUS:
        rec["bonus"][1 - s] = max(-60, rec["bonus"][1 - s] - a)
    elif e == E_PAY_BONUS:
        if rec["gold"][p] >= a:
            add_gold(rec, p, -a)
            rec["bonus"][s] = min(60, rec["bonus"][s] + b)
    elif e == E_WIN_TIES:
        rec["win_ties"][s] = 1
    elif e == E_RECALL_EXTRA:
        if s == 0:
            rec["recall_more"] = min(RECALL_CAP, rec["recall_more"] + a)
    elif e == E_ADD_DIE:
        if rec["dice_n"][s] > 0:  # rolled already: the extra dice are added at once
            for _ in range(a):
                if rec["dice_n"][s] < S.MAX_DICE:
                    rec["dice"][s, rec["dice_n"][s]] = roll(S.COMBAT_DIE, rec["rng"])
                    rec["die_to"][s, rec["dice_n"][s]] = -1  # an extra die: no Faithful's
                    rec["dice_n"][s] += 1
        else:
            rec["extra"][s] = min(S.MAX_DICE, rec["extra"][s] + a)
    elif e == E_SET_DIE:
        if effect_does_something(rec, p, e, a):
            rec["die_left"] = 1
            rec["die_set"] = a
            rec["actor"] = p
            rec["phase"] = Phase.PICK_DIE
            return True
    return False


@njit(cache=True)
def search_deck(cards, counts, t, rng):
    """Take the topmost card of type ``t`` out of a deck and shuffle the rest (section 13)."""
    i = zone_find_top(cards, counts, S.DECK, t)
    if i >= 0:
        zone_take(cards, counts, S.DECK, i)
    zone_shuffle(cards, counts, S.DECK, rng)


@njit(cache=True)
def take_faithful(rec, p, k, t):
    """BUY_ANY / FREE_BUY: ``p`` acquires Faithful ``t`` from spot ``k``.

    ``k == SPOTS``: by searching the deck, which is shuffled after (section 13). Relics are
    acquired by ``acquire_relic`` (R20).
    """
    if k < S.SPOTS:
        zone_pop(rec["f_row"], rec["f_row_n"], k)
    else:
        search_deck(rec["f_deck"], rec["f_deck_n"], t, rec["rng"])
    rec["f_discard"][p, t] += 1


# the modules of the same import cycle, imported once this one's kernels are defined
from .end import damage  # noqa: E402
from .market import any_fate_deck, any_pile, flip_tile, gold_effect  # noqa: E402
from .plays import effect_does_something, fight_side, target_ok  # noqa: E402
from .raid import resolve_raid_entry  # noqa: E402
from .reset import begin_choice  # noqa: E402
