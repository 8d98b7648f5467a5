"""Fate cards and Relics as Actions (R63-R80): who may play what, pushing one."""

# ruff: noqa: D103  (as for envs/*/rules.py: kernels named after the rule they apply)
from __future__ import annotations

from fatezoo.envs.core.jit import njit
from fatezoo.envs.core.stack import KIND, OWNER, stack_push
from fatezoo.envs.core.zones import zone_find, zone_insert, zone_top

from .. import cards as C
from .. import state as S
from ..state import Phase
from .helpers import legal_with, relic_sum
from .tables import (
    C_PLAYABLE,
    E_ADD_DIE,
    E_BUY_ANY,
    E_COMBAT_BONUS,
    E_COMBAT_MALUS,
    E_CONVERT,
    E_COUNTER,
    E_DAMAGE,
    E_DRAW_FATE,
    E_FREE_BUY,
    E_GOLD_ALIGNED,
    E_HEAL,
    E_HEAL_FULL,
    E_MARKET_CYCLE,
    E_PAY_BONUS,
    E_PAY_REMOVE,
    E_PROTECT,
    E_RECALL_EXTRA,
    E_REMOVE,
    E_REROLL,
    E_SACRIFICE,
    E_SET_DIE,
    E_SMASH,
    E_STEAL,
    E_WIN_TIES,
    F_DISCARD_DEFEND,
    F_DISCARD_RAID,
    MIN_DECK_FLIP,
    R_COST_REDUCE,
    R_USABLE,
    RECALL_CAP,
    TM_DICE,
    TM_FIGHT,
    TM_OWN,
    TM_STACK,
)


@njit(cache=True)
def relic_allowance(rec, p, f):
    """R72: Fate Relics of Fate ``f`` held plus cost reductions (Prism of Fate)."""
    if f == 4:  # R72, R89: a card with the Fatesworn symbol: any one Fate's Relics
        k = 0
        for g in range(4):
            k = max(k, fate_relics_of(rec, p, g))
    else:
        k = fate_relics_of(rec, p, f)
    return k + relic_sum(rec, p, C.R_SYMBOL) + relic_sum(rec, p, R_COST_REDUCE)


@njit(cache=True)
def fight_side(rec, p):
    """R73: seat ``p``'s side in the fight whose roll is not final (0 Raider, 1 Defender).

    -1 when there is no such fight or ``p`` is not a side of it.
    """
    if rec["fin"] == 0 or not rec["alive"][p]:
        return -1
    if p == rec["turn_player"]:
        return 0
    if p == rec["defender"]:
        return 1
    return -1


@njit(cache=True)
def play_effect(play):
    """The effect instruction and its ``a`` of a Fate card (< NC) or a Relic use (NC + type)."""
    if play < C.NC:
        return C.C_EFFECT[play], C.C_A[play]
    return C.R_EFFECT[play - C.NC], C.R_A[play - C.NC]


@njit(cache=True)
def smashable(r, a):
    """SMASH_RELIC ``a``: 0 a Basic Relic (the Relics of the Fates too), 1 a Fate Relic, 2 any."""
    if a == 0:
        return C.R_IS_FATE[r] == 0
    if a == 1:
        return C.R_IS_FATE[r] == 1
    return True


@njit(cache=True)
def target_ok(rec, p, q, e, a):
    """R78: seat ``q`` is an opponent that effect ``e`` of seat ``p`` does something to."""
    if q == p or not rec["alive"][q]:
        return False
    if e == E_SMASH:
        for r in range(C.NR):
            if rec["r_owned"][q, r] > 0 and smashable(r, a):
                return True
        return False
    if e == E_STEAL:
        return rec["gold"][q] > 0
    return True


@njit(cache=True)
def any_target(rec, p, e, a):
    for q in range(rec["num_players"]):
        if target_ok(rec, p, q, e, a):
            return True
    return False


@njit(cache=True)
def free_pick(rec, p, k, a):
    """FREE_BUY: whether seat ``p`` may take the top of row spot ``k`` for at most ``a``.

    Spots: Faithful Row 0-5, Relic Row 6-11; a Fate Relic needs an open Altar (R19-R20).
    """
    if k < S.SPOTS:
        m = rec["f_row_n"][k]
        return m > 0 and C.F_COST[rec["f_row"][k, m - 1]] <= a
    k -= S.SPOTS
    m = rec["r_row_n"][k]
    if m == 0:
        return False
    r = int(rec["r_row"][k, m - 1])
    return C.R_COST[r] <= a and can_take_relic(rec, p, r)


@njit(cache=True)
def card_source(rows, sizes, deck, deck_n, x):
    """BUY_ANY: where a card of type ``x`` is taken from.

    The lowest spot whose top it is, else the deck (``SPOTS``), else nowhere (-1).
    """
    for k in range(S.SPOTS):
        if zone_top(rows, sizes, k) == x:
            return k
    if zone_find(deck, deck_n, S.DECK, x) >= 0:
        return S.SPOTS
    return -1


@njit(cache=True)
def relic_source(rec, p, r):
    """BUY_ANY: where Relic ``r`` is taken (as ``card_source``); -1 if ``p`` cannot hold it."""
    if not can_take_relic(rec, p, r):
        return -1
    return card_source(rec["r_row"], rec["r_row_n"], rec["r_deck"], rec["r_deck_n"], r)


@njit(cache=True)
def faithful_source(rec, t):
    return card_source(rec["f_row"], rec["f_row_n"], rec["f_deck"], rec["f_deck_n"], t)


@njit(cache=True)
def any_buy_any(rec, p):
    if rec["f_deck_n"][S.DECK] > 0:
        return True
    for k in range(S.SPOTS):
        if rec["f_row_n"][k] > 0:
            return True
    for r in range(C.NR):
        if relic_source(rec, p, r) >= 0:
            return True
    return False


@njit(cache=True)
def removable(rec, o, t):
    """R42, R53: whether an opponent's effect can take a type ``t`` Faithful of side ``o``.

    Never a High Priest, nor anyone of a side under PROTECT_PARTY.
    """
    return rec["f_fight"][o, t] > 0 and t != C.HIGH_PRIEST and not rec["protect"][o]


@njit(cache=True)
def any_removable(rec, o):
    for t in range(C.NF):
        if removable(rec, o, t):
            return True
    return False


@njit(cache=True)
def effect_does_something(rec, p, e, a):
    """R63/R78 reading: an Action that would do nothing is not offered."""
    if e == E_HEAL or e == E_HEAL_FULL:
        return rec["life"][p] < S.MAX_LIFE
    if e == E_DRAW_FATE:
        return any_fate_deck(rec)
    if e == E_MARKET_CYCLE:
        return any_pile(rec)
    if e == E_GOLD_ALIGNED:
        k = 0
        for t in range(C.NF):
            if C.F_FATE[t] == 2 or C.F_SYMBOL[t]:  # R89: the Fatesworn symbol counts
                k += rec["f_discard"][p, t]
        return k > 0
    if e == E_SMASH or e == E_STEAL:
        return any_target(rec, p, e, a)
    if e == E_FREE_BUY:
        for k in range(2 * S.SPOTS):
            if free_pick(rec, p, k, a):
                return True
        return False
    if e == E_BUY_ANY:
        return rec["gold"][p] >= a and any_buy_any(rec, p)
    s = fight_side(rec, p)
    if e == E_REMOVE or e == E_SACRIFICE or e == E_CONVERT:
        return s >= 0 and any_removable(rec, 1 - s)
    if e == E_PAY_REMOVE:
        return s >= 0 and rec["gold"][p] >= a and any_removable(rec, 1 - s)
    if e == E_PROTECT:
        return s >= 0 and not rec["protect"][s]
    if e == E_ADD_DIE:
        return s >= 0 and rec["dice_n"][s] + rec["extra"][s] < S.MAX_DICE
    if e == E_WIN_TIES:
        return s >= 0 and not rec["win_ties"][s]
    if e == E_RECALL_EXTRA:
        return s == 0 and rec["recall_more"] < RECALL_CAP
    if e == E_PAY_BONUS:
        return s >= 0 and rec["gold"][p] >= a
    if e == E_COMBAT_BONUS or e == E_COMBAT_MALUS:
        return s >= 0
    if e == E_REROLL:
        return rec["fin"] > 0 and rec["dice_n"][0] + rec["dice_n"][1] > 0
    if e == E_SET_DIE:
        if s < 0:
            return False
        for i in range(rec["dice_n"][s]):
            if rec["dice"][s, i] < a:
                return True
        return False
    if e == E_COUNTER:
        i = rec["stack_n"][0] - 1
        return i >= 0 and rec["stack"][i, KIND] == S.K_FATE and rec["stack"][i, OWNER] != p \
            and not rec["stack"][i, S.S_FLAGS] & S.F_COUNTERED
    return True


@njit(cache=True)
def timing_ok(rec, p, tm, response):
    """R73: whether the `timing` column allows seat ``p`` to act now.

    `fight`: a fight ``p`` is a side of, before the roll is final; `dice`: a combat die on
    the table in such a fight; `own_turn`: never as a response; `stack`: only as one.
    """
    if response:
        if tm == TM_OWN or rec["stack_n"][0] >= S.STACK_CAP:
            return False
    elif tm == TM_STACK or (tm == TM_OWN and p != rec["turn_player"]):
        return False
    if tm == TM_FIGHT:
        return fight_side(rec, p) >= 0
    if tm == TM_DICE:
        return rec["fin"] > 0 and rec["dice_n"][0] + rec["dice_n"][1] > 0
    return True


@njit(cache=True)
def can_play_fate(rec, p, k, response):
    """R72-R73, R78: seat ``p`` may play Fate card type ``k`` now.

    ``response``: as the asked seat of a response window, else as an Action of its own:
    the turn player's in their Marketplace Step, anyone's in a fight's round (R51).
    """
    if rec["c_hand"][p, k] <= 0:
        return False
    return fate_type_ok(rec, p, k, response)


@njit(cache=True)
def fate_type_ok(rec, p, k, response):
    """``can_play_fate`` but for holding the card: from public information only."""
    if not C_PLAYABLE[k]:
        return False
    if not timing_ok(rec, p, C.C_TIMING[k], response):
        return False
    waived = rec["waive"] and p == rec["turn_player"]
    if not waived and relic_allowance(rec, p, C.C_FATE[k]) < C.C_COST[k]:
        return False
    return effect_does_something(rec, p, C.C_EFFECT[k], C.C_A[k])


@njit(cache=True)
def can_use_relic(rec, p, r, response):
    """R63-R65: seat ``p`` may use Relic type ``r`` now."""
    if rec["r_owned"][p, r] <= 0 or not R_USABLE[r]:
        return False
    if not timing_ok(rec, p, C.R_TIMING[r], response):
        return False
    if C.R_USE_DEVOTEE[r] and rec["f_discard"][p, C.DEVOTEE] <= 0:
        return False
    return effect_does_something(rec, p, C.R_EFFECT[r], C.R_A[r])


@njit(cache=True)
def ability_ok(rec, p, t):
    """R43: seat ``p`` may discard a Faithful of type ``t`` for its ability now.

    In a fight whose roll is not final (its rounds and the windows in it): the Raider a
    Captain (``discard_raid``) from the Raiding Party, the Defender a Hoplite
    (``discard_defend``) from the Temple.
    """
    s = fight_side(rec, p)
    if s == 0:
        return F_DISCARD_RAID[t] > 0 and rec["f_party"][p, t] > 0
    if s == 1:
        return F_DISCARD_DEFEND[t] > 0 and rec["f_temple"][p, t] > 0
    return False


@njit(cache=True)
def action_mask(rec, p, responding, mask):
    """The PLAY_FATE and USE_RELIC actions seat ``p`` may take now (R63, R72-R73).

    ``responding``: as the asked seat of a response window (R69), else as the turn player's
    own Action in their Marketplace Step.
    """
    for k in range(C.NC):
        if rec["c_hand"][p, k] > 0 and can_play_fate(rec, p, k, responding):
            mask[S.PLAY_FATE + k] = 1
    for r in range(C.NR):
        if rec["r_owned"][p, r] > 0 and can_use_relic(rec, p, r, responding):
            mask[S.USE_RELIC + r] = 1
    if p == rec["defender"] and (not responding or rec["stack_n"][0] < S.STACK_CAP):
        for c in range(S.CELLS):
            if raid_flip_ok(rec, p, c):
                mask[S.FLIP + c] = 1
    if rec["fin"] > 0 and (not responding or rec["stack_n"][0] < S.STACK_CAP):
        for t in range(C.NF):
            if ability_ok(rec, p, t):
                mask[S.ABILITY + t] = 1  # R43, R70: an ability discard


@njit(cache=True)
def raid_flip_ok(rec, p, c):
    """R33-R34: the Defender may flip a Tile of the raided Temple, outside the Marketplace.

    Paid as usual; the rotation stays (a flip that would need another is only for the
    Marketplace Step, R33); not a Tile whose flip already waits on the stack.
    """
    t = int(rec["grid"][p, c])
    if t < 0 or rec["side"][p, c] != 0 or C.T_FLIP[t] <= 0 or C.T_FLIP[t] > rec["gold"][p]:
        return False
    if flip_pending(rec, p, c):
        return False
    return legal_with(rec, p, c, t, 1, rec["rot"][p, c])


@njit(cache=True)
def flip_pending(rec, p, c):
    """Whether a flip of seat ``p``'s Tile in cell ``c`` waits on the stack."""
    for i in range(rec["stack_n"][0]):
        if rec["stack"][i, KIND] == S.K_FLIP and rec["stack"][i, OWNER] == p \
                and rec["stack"][i, S.S_CARD] // 4 == c:
            return True
    return False


@njit(cache=True)
def has_play(rec, p, responding):
    """R51, R70 Reading: whether seat ``p`` is asked (a window, a fight's round).

    From public information only, since whether a seat is asked is public (the AEC env's
    ``agent_selection``): ``p`` holds a Fate card and some Fate card of the game could be
    played by ``p`` now (its hand is hidden); or has a Relic to use (public); or is the
    Defender with a Tile it might flip: a Starting Tile it can pay for (public), or an
    unflipped deck Tile (its type hidden) and at least the cheapest deck flip in gold; or,
    in a fight, holds a Faithful of its side's ability discard face down (Temple or Party:
    the split is hidden). Being asked, ``p`` may then have only ``pass``: ``asks`` keeps
    that a decision.
    """
    if not rec["alive"][p]:
        return False
    held = 0
    for k in range(C.NC):
        held += rec["c_hand"][p, k]
    if held > 0:
        for k in range(C.NC):
            if rec["c_out"][k] < C.C_COPIES[k] and fate_type_ok(rec, p, k, responding):
                return True
    for r in range(C.NR):
        if rec["r_owned"][p, r] > 0 and can_use_relic(rec, p, r, responding):
            return True
    if p == rec["defender"] and (not responding or rec["stack_n"][0] < S.STACK_CAP):
        for c in range(S.CELLS):
            t = int(rec["grid"][p, c])
            if t < 0 or rec["side"][p, c] != 0:
                continue
            if t < 5:
                if raid_flip_ok(rec, p, c):
                    return True  # R34: a Starting Tile (public)
            elif rec["gold"][p] >= MIN_DECK_FLIP and not flip_pending(rec, p, c):
                return True  # R34: a deck Tile (its type hidden)
    if rec["fin"] > 0 and (not responding or rec["stack_n"][0] < S.STACK_CAP):
        s = fight_side(rec, p)
        for t in range(C.NF):
            k = rec["f_temple"][p, t] + rec["f_party"][p, t]
            if k > 0 and (s == 0 and F_DISCARD_RAID[t] > 0
                          or s == 1 and F_DISCARD_DEFEND[t] > 0):
                return True  # R43: an ability discard
    return False


@njit(cache=True)
def needs_target(play):
    e = play_effect(play)[0]
    return e == E_DAMAGE or e == E_SMASH or e == E_STEAL


@njit(cache=True)
def begin_play(rec, p, play):
    """A Fate card (``play`` < NC) or a Relic use (NC + type): target first if it has one."""
    if needs_target(play):
        rec["sel_play"] = play
        rec["actor"] = p
        rec["phase"] = Phase.FATE_TARGET
        return
    push_play(rec, p, play, -1)


@njit(cache=True)
def push_play(rec, p, play, target):
    """R67, R72, R65: pay the costs, put the Action on the stack, open its window."""
    stack, top = rec["stack"], rec["stack_n"]
    if play < C.NC:
        rec["c_hand"][p, play] -= 1
        drop_symbol(rec, p, play)
        if p == rec["turn_player"]:
            rec["waive"] = 0  # the waiver is spent by the next Fate card (R72)
        i = stack_push(stack, top, S.K_FATE, p)
        stack[i, S.S_CARD] = play
    else:
        r = play - C.NC
        i = stack_push(stack, top, S.K_RELIC, p)
        stack[i, S.S_CARD] = r
        if C.R_SACRIFICE[r]:
            rec["r_owned"][p, r] -= 1
            stack[i, S.S_FLAGS] = S.F_SACRIFICED
        if C.R_USE_DEVOTEE[r]:
            rec["f_discard"][p, C.DEVOTEE] -= 1
            zone_insert(rec["f_deck"], rec["f_deck_n"], S.DECK, 0, C.DEVOTEE)
    stack[i, S.S_TARGET] = target
    rec["sel_play"] = -1
    rec["actor"] = -1
    advance(rec)


@njit(cache=True)
def push_ability(rec, p, t):
    """R43, R67: a Faithful discarded for its ability is an Action.

    The Faithful goes to its owner's Discard Pile at once; its Combat Bonus comes when the
    entry resolves, after the responses.
    """
    if fight_side(rec, p) == 0:
        rec["f_party"][p, t] -= 1
    else:
        rec["f_temple"][p, t] -= 1
    rec["f_discard"][p, t] += 1
    i = stack_push(rec["stack"], rec["stack_n"], S.K_ABILITY, p)
    rec["stack"][i, S.S_CARD] = t
    rec["stack"][i, S.S_TARGET] = -1
    advance(rec)


# the modules of the same import cycle, imported once this one's kernels are defined
from .market import (  # noqa: E402
    any_fate_deck,
    any_pile,
    can_take_relic,
    drop_symbol,
    fate_relics_of,
)
from .rounds import advance  # noqa: E402
