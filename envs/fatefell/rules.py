"""Fatefell rules as numba kernels, one per rule of the text, plus the batch drivers.

Every kernel takes one record ``rec`` (a row of ``STATE_DTYPE``) and mutates it. The AEC
env, the vector env, the gym wrapper and the agents all go through these kernels.
"""

from __future__ import annotations

import numpy as np

from fatezoo.envs.core.jit import njit
from fatezoo.envs.core.kernels import split_rewards
from fatezoo.envs.core.rng import next_u32, pick_flagged, randint, shuffle
from fatezoo.envs.core.state import REWARD_SCORE, SPLIT_ALL, SPLIT_TEST
from fatezoo.envs.core.zones import zone_insert, zone_pop, zone_push, zone_take

from .state import (
    AFTER_PEEK_END_TURN,
    AFTER_PEEK_FINISH,
    COIN_SIDES,
    DECLARE,
    DISCARD,
    DRAW_DECK,
    DRAW_DEPTH,
    DRAW_DISCARD,
    DRAW_PILE,
    END_TURN,
    FATE0,
    FATE_BASE,
    FATE_SPINS,
    FATE_STEP,
    HELD_OUT_SHIFT,
    HIDDEN_SLOTS,
    MAX_P,
    MAX_PILES,
    NONE,
    NUM_ARCANA,
    NUM_FATE,
    NUM_IDENTITIES,
    NUM_PAIRS,
    NUM_SEASONS,
    PAIR_FIRST,
    PAIR_SECOND,
    PAIRS,
    PILE,
    PILE_CAP,
    SLOT,
    SLOTS,
    SUN,
    TARGET,
    Effect,
    Phase,
    Season,
)

SCORE_SCALE = 48.0  # reward="score": season score differences are divided by this


# ---------------------------------------------------------------- cards


@njit(cache=True)
def value(c):
    """Printed value 1..12 of Arcana card ``c``."""
    return (c >> 2) + 1


@njit(cache=True)
def identity(c):
    """Identity 0..23 of Arcana card ``c`` (Character and Skeleton share it)."""
    return c >> 1


@njit(cache=True)
def seasonal(rec, kind):
    """Whether the advanced seasonal rule of season ``kind`` is in force now."""
    return rec["seasonal_rules"] != 0 and rec["season_kind"][rec["season"]] == kind


# ---------------------------------------------------------------- zones
#
# The draw pile (a group of one zone, ``DRAW_PILE``) and the discard piles (one zone
# each) are kit zone groups moved by ``envs/core/zones.py``: ``draw[DRAW_PILE, :n]`` and
# ``discard[k, :n]``, bottom at 0, top at ``n - 1``.


@njit(cache=True)
def push_discard(rec, k, c):
    """Put card ``c`` face up on discard pile ``k``; ``discard_seen`` counts it."""
    zone_push(rec["discard"], rec["discard_n"], k, c)
    rec["discard_seen"][identity(c)] += 1


@njit(cache=True)
def take_discard(rec, k, depth):
    """Take the card ``depth`` below the top of discard pile ``k``; ``discard_seen`` too."""
    c = zone_take(rec["discard"], rec["discard_n"], k, rec["discard_n"][k] - 1 - depth)
    rec["discard_seen"][identity(c)] -= 1
    return c


@njit(cache=True)
def set_aside(rec, c):
    """Set Fate card ``c`` aside for the rest of the season."""
    rec["aside"][rec["aside_n"]] = c
    rec["aside_n"] += 1


@njit(cache=True)
def show_all(rec, owner, slot):
    """Every player sees the card in ``owner``'s ``slot``."""
    for v in range(rec["num_players"]):
        rec["known"][v, owner, slot] = 1


@njit(cache=True)
def place(rec, owner, slot, c, seen_by_owner, public):
    """Put card ``c`` face down into a slot; only its owner (if ``seen``) or all know it."""
    rec["layout"][owner, slot] = c
    for v in range(rec["num_players"]):
        rec["known"][v, owner, slot] = 1 if (public or (seen_by_owner and v == owner)) else 0


@njit(cache=True)
def swap_slots(rec, p, s, q, t):
    """Exchange two face-down cards in view of everyone: knowledge moves with the cards."""
    c = rec["layout"][p, s]
    rec["layout"][p, s] = rec["layout"][q, t]
    rec["layout"][q, t] = c
    for v in range(rec["num_players"]):
        k = rec["known"][v, p, s]
        rec["known"][v, p, s] = rec["known"][v, q, t]
        rec["known"][v, q, t] = k


@njit(cache=True)
def bury(rec, owner, slot, seen):
    """Bury a card at the bottom of the draw pile and fill the slot from the top.

    Fate cards met while drawing the replacement are set aside unresolved.
    """
    zone_insert(rec["draw"], rec["draw_n"], DRAW_PILE, 0, rec["layout"][owner, slot])
    c = zone_pop(rec["draw"], rec["draw_n"], DRAW_PILE)
    while c >= FATE0:
        set_aside(rec, c)
        c = zone_pop(rec["draw"], rec["draw_n"], DRAW_PILE)
    place(rec, owner, slot, c, seen, False)


# ---------------------------------------------------------------- setup


@njit(cache=True)
def turn_up(rec, k):
    """Start discard pile ``k`` with the top Arcana of the draw pile.

    A Fate card turned up this way goes back into the draw pile at a random position.
    """
    while True:
        c = zone_pop(rec["draw"], rec["draw_n"], DRAW_PILE)
        if c < FATE0:
            push_discard(rec, k, c)
            return
        pos = randint(rec["rng"], rec["draw_n"][DRAW_PILE] + 1)
        zone_insert(rec["draw"], rec["draw_n"], DRAW_PILE, pos, c)


@njit(cache=True)
def held_out(kind, spin):
    """Whether a season of ``kind`` with Fate-count spin ``spin`` is a test setup."""
    return spin == (kind + HELD_OUT_SHIFT) % FATE_SPINS


@njit(cache=True)
def in_split(rec, s, kind, spin):
    """Whether season ``s`` may be dealt as ``kind`` with ``spin``: options' pins and split."""
    if not rec["random_seasons"] and kind != s:
        return False
    if not rec["random_fates"] and spin != kind:
        return False
    return held_out(kind, spin) == (rec["split"] == SPLIT_TEST)


@njit(cache=True)
def draw_split_season(rec, s):
    """Season ``s``'s pair ``kind * FATE_SPINS + spin``, uniform among those in the split.

    One draw of an index among the pairs allowed (``pick_flagged``: no redraw loop);
    ``configure`` and ``check_record`` refuse options that allow none.
    """
    allowed = np.zeros(NUM_SEASONS * FATE_SPINS, np.bool_)
    for pair in range(allowed.size):
        allowed[pair] = in_split(rec, s, pair // FATE_SPINS, pair % FATE_SPINS)
    return pick_flagged(allowed, rec["rng"])


@njit(cache=True)
def deal_season(rec):
    """Set up the current season: layouts, Fate cards, draw pile, discard piles."""
    n = rec["num_players"]
    s = rec["season"]
    rng = rec["rng"]
    if rec["split"] == SPLIT_ALL:
        kind = randint(rng, FATE_SPINS) if rec["random_seasons"] else s
        spin = randint(rng, FATE_SPINS) if rec["random_fates"] else kind
    else:
        pair = draw_split_season(rec, s)
        kind = pair // FATE_SPINS
        spin = pair % FATE_SPINS
    rec["season_kind"][s] = kind
    rec["fate_count"][s] = FATE_BASE + FATE_STEP * spin
    d = rec["draw"][DRAW_PILE]
    dn = rec["draw_n"]
    for c in range(NUM_ARCANA):
        d[c] = c
    shuffle(d, NUM_ARCANA, rng)
    dn[DRAW_PILE] = NUM_ARCANA
    for p in range(MAX_P):
        for x in range(SLOTS):
            rec["matched"][p, x] = 0
            rec["layout"][p, x] = NONE
            for v in range(MAX_P):
                rec["known"][v, p, x] = 0
    for p in range(n):
        for x in range(SLOTS):
            rec["layout"][p, x] = zone_pop(rec["draw"], dn, DRAW_PILE)
        for x in range(HIDDEN_SLOTS, SLOTS):  # look at the bottom two: the Revealed cards
            rec["known"][p, p, x] = 1
    for i in range(NUM_FATE):
        rec["out"][i] = FATE0 + i
    shuffle(rec["out"], NUM_FATE, rng)
    f = rec["fate_count"][s]
    for i in range(f):
        zone_push(rec["draw"], dn, DRAW_PILE, rec["out"][NUM_FATE - 1 - i])
    rec["out_n"] = NUM_FATE - f
    shuffle(d, dn[DRAW_PILE], rng)
    rec["aside_n"] = 0
    rec["num_piles"] = MAX_PILES if seasonal(rec, Season.AUTUMN) else 1
    for k in range(MAX_PILES):
        rec["discard_n"][k] = 0
    for i in range(NUM_IDENTITIES):
        rec["discard_seen"][i] = 0
    for k in range(rec["num_piles"]):
        turn_up(rec, k)
    rec["ender"] = NONE
    rec["final_left"] = 0
    rec["hand"] = NONE
    rec["pending"] = NONE
    rec["effect"] = Effect.NONE
    rec["coin"] = NONE
    rec["fate_card"] = NONE
    rec["first_slot"] = NONE
    rec["turn_player"] = s % n  # the first player rotates each season
    start_turn(rec)


@njit(cache=True)
def reset_game(rec):
    """Start a new game from the options in ``rec``."""
    rec["season"] = 0
    for p in range(MAX_P):
        rec["total"][p] = 0
        for s in range(NUM_SEASONS):
            rec["season_score"][s, p] = 0
            rec["season_kind"][s] = NONE
            rec["fate_count"][s] = 0
    rec["last_player"] = NONE
    rec["last_action"] = NONE
    deal_season(rec)


# ---------------------------------------------------------------- turn flow


@njit(cache=True)
def start_turn(rec):
    """Begin the turn player's turn: recheck Revealed cards (not in advanced Winter), draw."""
    p = rec["turn_player"]
    if not seasonal(rec, Season.WINTER):
        for x in range(HIDDEN_SLOTS, SLOTS):
            rec["known"][p, p, x] = 1
    rec["phase"] = Phase.DRAW
    rec["current_player"] = p


@njit(cache=True)
def end_turn(rec):
    """End the turn: final turns after a player completed both Matches, season end, next."""
    t = rec["turn_player"]
    n = rec["num_players"]
    rec["turn"] += 1
    if rec["ender"] < 0:
        if open_count(rec, t) == 0:  # both Matches completed
            rec["ender"] = t
            rec["final_left"] = n - 1
    else:
        rec["final_left"] -= 1
    if rec["draw_n"][DRAW_PILE] == 0 or (rec["ender"] >= 0 and rec["final_left"] <= 0):
        end_season(rec)
        return
    rec["turn_player"] = (t + 1) % n
    start_turn(rec)


@njit(cache=True)
def season_points(rec, p):
    """Score of player ``p``'s layout: printed values of cards not in a Completed Match."""
    total = 0
    for x in range(SLOTS):
        if not rec["matched"][p, x]:
            total += value(rec["layout"][p, x])
    return total


@njit(cache=True)
def end_season(rec):
    """Turn every card face up, score the season, then deal the next or end the game."""
    n = rec["num_players"]
    s = rec["season"]
    mean = 0.0
    for p in range(n):
        pts = season_points(rec, p)
        rec["season_score"][s, p] = pts
        rec["total"][p] += pts
        mean += pts / n
        for x in range(SLOTS):
            show_all(rec, p, x)
    if rec["reward_mode"] == REWARD_SCORE:
        for p in range(n):
            rec["rewards"][p] += -(rec["season_score"][s, p] - mean) / SCORE_SCALE
    if s + 1 >= rec["seasons"]:
        rec["phase"] = Phase.OVER
        split_rewards(rec, rec["total"], True)
        return
    rec["season"] = s + 1
    deal_season(rec)


# ---------------------------------------------------------------- Fate cards


@njit(cache=True)
def finish_effect(rec):
    """Set the resolved Fate card aside; the turn player draws again."""
    set_aside(rec, rec["fate_card"])
    rec["fate_card"] = NONE
    rec["effect"] = Effect.NONE
    rec["coin"] = NONE
    rec["first_slot"] = NONE
    rec["phase"] = Phase.DRAW
    rec["current_player"] = rec["turn_player"]


@njit(cache=True)
def enter(rec, phase, chooser):
    """Move to a decision ``phase`` for ``chooser``; False (nothing changed) if no choice."""
    old_phase = rec["phase"]
    old_player = rec["current_player"]
    rec["phase"] = phase
    rec["current_player"] = chooser
    legal_mask(rec, rec["scratch"])
    for a in range(rec["scratch"].shape[0]):
        if rec["scratch"][a]:
            return True
    rec["phase"] = old_phase
    rec["current_player"] = old_player
    return False


@njit(cache=True)
def resolve_fate(rec, c):
    """A drawn Fate card: spin the Fate Coin and start its Sun or Moon instruction."""
    rec["fate_card"] = c
    rec["coin"] = randint(rec["rng"], COIN_SIDES)
    e = rec["fate_sun"][c - FATE0] if rec["coin"] == SUN else rec["fate_moon"][c - FATE0]
    rec["effect"] = e
    t = rec["turn_player"]
    nxt = (t + 1) % rec["num_players"]
    if e == Effect.PEEK_HIDDEN_ALL:
        for x in range(HIDDEN_SLOTS):
            if not rec["matched"][t, x]:
                rec["known"][t, t, x] = 1
        finish_effect(rec)
    elif e == Effect.OTHERS_PEEK_HIDDEN:
        start_peeks(rec, AFTER_PEEK_FINISH)
    elif e == Effect.PEEK_OPP:
        if not enter(rec, Phase.FX_TARGET, t):
            finish_effect(rec)
    elif e == Effect.NEXT_PEEKS or e == Effect.NEXT_BURIES:
        if not enter(rec, Phase.FX_TARGET, nxt):
            finish_effect(rec)
    elif e == Effect.NEXT_SWAPS:
        if not (any_open(rec, t) and enter(rec, Phase.FX_SLOT, nxt)):
            finish_effect(rec)
    elif e == Effect.SWAP_OPP:
        if not (any_open_other(rec, t) and enter(rec, Phase.FX_SLOT, t)):
            finish_effect(rec)
    elif e == Effect.SWAP_OWN:
        if open_count(rec, t) < 2 or not enter(rec, Phase.FX_SLOT, t):  # two to swap
            finish_effect(rec)
    elif e == Effect.SWAP_DISCARD:
        if rec["discard_n"][0] + rec["discard_n"][1] == 0 or not enter(rec, Phase.FX_SLOT, t):
            finish_effect(rec)
    else:  # PEEK_OWN, BURY_SEEN, BURY_BLIND, REVEAL_OWN: one of your own cards
        if not enter(rec, Phase.FX_SLOT, t):
            finish_effect(rec)


@njit(cache=True)
def open_count(rec, p):
    """Number of ``p``'s cards not in a Completed Match."""
    k = 0
    for x in range(SLOTS):
        if not rec["matched"][p, x]:
            k += 1
    return k


@njit(cache=True)
def any_open(rec, p):
    """Whether ``p`` has a card Fate can touch."""
    return open_count(rec, p) > 0


@njit(cache=True)
def any_open_other(rec, p):
    """Whether a player other than ``p`` has a card Fate can touch."""
    n = rec["num_players"]
    for r in range(1, n):
        if any_open(rec, (p + r) % n):
            return True
    return False


@njit(cache=True)
def start_peeks(rec, after):
    """Every other player in turn order may look at one of their Hidden cards."""
    rec["after_peek"] = after
    rec["peeker"] = rec["turn_player"]
    next_peeker(rec)


@njit(cache=True)
def next_peeker(rec):
    """Hand the peek to the next other player who has an unknown Hidden card."""
    n = rec["num_players"]
    t = rec["turn_player"]
    while True:
        q = (rec["peeker"] + 1) % n
        rec["peeker"] = q
        if q == t:
            if rec["after_peek"] == AFTER_PEEK_FINISH:
                finish_effect(rec)
            else:
                end_turn(rec)
            return
        if enter(rec, Phase.PEEK_HIDDEN, q):
            return


# ---------------------------------------------------------------- legal actions


@njit(cache=True)
def own_slot_ok(rec, p, x):
    """Whether ``p`` may choose own slot ``x`` in the current FX_SLOT decision."""
    if rec["matched"][p, x]:
        return False
    if rec["effect"] == Effect.PEEK_OWN:
        return rec["known"][p, p, x] == 0
    return True


@njit(cache=True)
def target_ok(rec, p, q, x):
    """Whether ``p`` may target ``q``'s slot ``x`` in the current FX_TARGET decision."""
    e = rec["effect"]
    if rec["matched"][q, x]:
        return False
    if e == Effect.NEXT_PEEKS or e == Effect.NEXT_BURIES or e == Effect.NEXT_SWAPS:
        if q != rec["turn_player"]:
            return False
    if e == Effect.PEEK_OPP or e == Effect.NEXT_PEEKS:
        return rec["known"][p, q, x] == 0
    return True


@njit(cache=True)
def legal_mask(rec, mask):
    """Write the current player's legal actions into ``mask``."""
    for a in range(mask.shape[0]):
        mask[a] = 0
    ph = rec["phase"]
    p = rec["current_player"]
    if ph == Phase.DRAW:
        any_draw = False
        if rec["draw_n"][DRAW_PILE] > 0:
            mask[DRAW_DECK] = 1
            any_draw = True
        depth = DRAW_DEPTH if seasonal(rec, Season.SUMMER) else 1
        for k in range(rec["num_piles"]):
            for d in range(min(depth, rec["discard_n"][k])):
                mask[DRAW_DISCARD + DRAW_DEPTH * k + d] = 1
                any_draw = True
        if not any_draw:  # cannot happen under these rules; never leave a player stuck
            mask[END_TURN] = 1
    elif ph == Phase.PLACE:
        for x in range(SLOTS):
            if not rec["matched"][p, x]:
                mask[SLOT + x] = 1
        mask[DISCARD] = 1  # from the draw pile or a discard pile alike
    elif ph == Phase.PILE:
        for k in range(rec["num_piles"]):
            mask[PILE + k] = 1
    elif ph == Phase.FX_PILE:
        for k in range(rec["num_piles"]):
            if rec["discard_n"][k] > 0:
                mask[PILE + k] = 1
    elif ph == Phase.DECLARE:
        for i in range(NUM_PAIRS):
            if (not rec["matched"][p, PAIRS[i, PAIR_FIRST]]
                    and not rec["matched"][p, PAIRS[i, PAIR_SECOND]]):
                mask[DECLARE + i] = 1
        mask[END_TURN] = 1
    elif ph == Phase.PEEK_HIDDEN:
        for x in range(HIDDEN_SLOTS):
            if not rec["matched"][p, x] and not rec["known"][p, p, x]:
                mask[SLOT + x] = 1
    elif ph == Phase.FX_SLOT:
        for x in range(SLOTS):
            if own_slot_ok(rec, p, x):
                mask[SLOT + x] = 1
    elif ph == Phase.FX_SLOT2:
        for x in range(SLOTS):
            if not rec["matched"][p, x] and x != rec["first_slot"]:
                mask[SLOT + x] = 1
    elif ph == Phase.FX_TARGET:
        n = rec["num_players"]
        for r in range(1, n):
            q = (p + r) % n
            for x in range(SLOTS):
                if target_ok(rec, p, q, x):
                    mask[TARGET + SLOTS * (r - 1) + x] = 1


# ---------------------------------------------------------------- applying a decision


@njit(cache=True)
def to_discard(rec, c):
    """The card ``c`` goes face up to a discard pile (ask which if there are two)."""
    if rec["num_piles"] == 1:
        push_discard(rec, 0, c)
        rec["phase"] = Phase.DECLARE
    else:
        rec["pending"] = c
        rec["phase"] = Phase.PILE


@njit(cache=True)
def draw_card(rec, a):
    """DRAW: from the draw pile (Fate cards resolve at once) or a discard pile."""
    if a == DRAW_DECK:
        c = zone_pop(rec["draw"], rec["draw_n"], DRAW_PILE)
        if c >= FATE0:
            resolve_fate(rec, c)
            return
        rec["hand_from_discard"] = 0
    elif a == END_TURN:
        end_turn(rec)
        return
    else:
        k, depth = divmod(a - DRAW_DISCARD, DRAW_DEPTH)
        c = take_discard(rec, k, depth)
        rec["hand_from_discard"] = 1
    rec["hand"] = c
    rec["phase"] = Phase.PLACE


@njit(cache=True)
def place_card(rec, a):
    """SWAP the drawn card into a slot (the old card is discarded) or DISCARD it."""
    t = rec["turn_player"]
    c = rec["hand"]
    rec["hand"] = NONE
    if a == DISCARD:
        to_discard(rec, c)
        return
    x = a - SLOT
    old = rec["layout"][t, x]
    place(rec, t, x, c, True, rec["hand_from_discard"] != 0)
    to_discard(rec, old)


@njit(cache=True)
def declare(rec, a):
    """Declare a Match: both cards face up; a real Match stays, a false one lets others peek."""
    if a == END_TURN:
        end_turn(rec)
        return
    t = rec["turn_player"]
    x = PAIRS[a - DECLARE, PAIR_FIRST]
    y = PAIRS[a - DECLARE, PAIR_SECOND]
    show_all(rec, t, x)
    show_all(rec, t, y)
    if identity(rec["layout"][t, x]) == identity(rec["layout"][t, y]):
        rec["matched"][t, x] = 1
        rec["matched"][t, y] = 1
        end_turn(rec)
    else:
        start_peeks(rec, AFTER_PEEK_END_TURN)


@njit(cache=True)
def effect_slot(rec, x):
    """FX_SLOT: the chooser picked one of their own cards for the current Fate effect."""
    e = rec["effect"]
    p = rec["current_player"]
    t = rec["turn_player"]
    if e == Effect.PEEK_OWN:
        rec["known"][p, p, x] = 1
    elif e == Effect.BURY_SEEN or e == Effect.BURY_BLIND:
        bury(rec, t, x, e == Effect.BURY_SEEN)
    elif e == Effect.REVEAL_OWN:
        show_all(rec, t, x)
    else:
        rec["first_slot"] = x
        if e == Effect.SWAP_OWN:
            rec["phase"] = Phase.FX_SLOT2
            return
        if e == Effect.SWAP_DISCARD:
            if enter(rec, Phase.FX_PILE, p):
                return
        elif enter(rec, Phase.FX_TARGET, p):  # SWAP_OPP, NEXT_SWAPS
            return
    finish_effect(rec)


@njit(cache=True)
def effect_target(rec, a):
    """FX_TARGET: the chooser picked another player's card for the current Fate effect."""
    e = rec["effect"]
    p = rec["current_player"]
    n = rec["num_players"]
    q = (p + 1 + (a - TARGET) // SLOTS) % n
    x = (a - TARGET) % SLOTS
    if e == Effect.PEEK_OPP or e == Effect.NEXT_PEEKS:
        rec["known"][p, q, x] = 1
    elif e == Effect.NEXT_BURIES:
        bury(rec, q, x, False)
    else:  # SWAP_OPP, NEXT_SWAPS
        swap_slots(rec, p, rec["first_slot"], q, x)
    finish_effect(rec)


@njit(cache=True)
def swap_with_discard(rec, k):
    """FX_PILE: exchange the chosen card with the top card of discard pile ``k``."""
    t = rec["turn_player"]
    x = rec["first_slot"]
    top = rec["discard_n"][k] - 1
    c = rec["discard"][k, top]
    rec["discard"][k, top] = rec["layout"][t, x]
    rec["discard_seen"][c >> 1] -= 1
    rec["discard_seen"][rec["layout"][t, x] >> 1] += 1
    place(rec, t, x, c, True, True)
    finish_effect(rec)


@njit(cache=True)
def apply_action(rec, a):
    """Apply one legal decision ``a`` of the current player."""
    rec["last_player"] = rec["current_player"]
    rec["last_action"] = a
    ph = rec["phase"]
    if ph == Phase.DRAW:
        draw_card(rec, a)
    elif ph == Phase.PLACE:
        place_card(rec, a)
    elif ph == Phase.PILE:
        push_discard(rec, a - PILE, rec["pending"])
        rec["pending"] = NONE
        rec["phase"] = Phase.DECLARE
    elif ph == Phase.DECLARE:
        declare(rec, a)
    elif ph == Phase.PEEK_HIDDEN:
        rec["known"][rec["current_player"], rec["current_player"], a - SLOT] = 1
        next_peeker(rec)
    elif ph == Phase.FX_SLOT:
        effect_slot(rec, a - SLOT)
    elif ph == Phase.FX_SLOT2:
        swap_slots(rec, rec["turn_player"], rec["first_slot"], rec["turn_player"], a - SLOT)
        finish_effect(rec)
    elif ph == Phase.FX_TARGET:
        effect_target(rec, a)
    elif ph == Phase.FX_PILE:
        swap_with_discard(rec, a - PILE)


# ---------------------------------------------------------------- hidden information


@njit(cache=True)
def determinize_record(rec, player, words):
    """Resample every card ``player`` has not seen, and the RNG, consistently with what they saw.

    Unknown layout cards, a hand card drawn privately by someone else and the draw pile's
    Arcana are shuffled together; the draw pile's Fate cards and those left out of the
    season are shuffled together; then the draw pile is shuffled.
    """
    n = rec["num_players"]
    pool = np.empty(PILE_CAP, np.int16)
    fpool = np.empty(NUM_FATE, np.int16)
    k = 0
    for q in range(n):
        for x in range(SLOTS):
            if not rec["matched"][q, x] and not rec["known"][player, q, x]:
                pool[k] = rec["layout"][q, x]
                k += 1
    seen_hand = player == rec["turn_player"] or rec["hand_from_discard"]
    hidden_hand = rec["hand"] >= 0 and not seen_hand
    if hidden_hand:
        pool[k] = rec["hand"]
        k += 1
    f = 0
    in_draw = 0
    draw = rec["draw"][DRAW_PILE]
    for i in range(rec["draw_n"][DRAW_PILE]):
        c = draw[i]
        if c >= FATE0:
            fpool[f] = c
            f += 1
            in_draw += 1
        else:
            pool[k] = c
            k += 1
    for i in range(rec["out_n"]):
        fpool[f] = rec["out"][i]
        f += 1
    # Sorted first, so the result depends only on what ``player`` knows and on
    # ``words``: any arrangement of the hidden cards consistent with the same
    # observation gives the same determinization (no peeking through card order).
    pool[:k].sort()
    fpool[:f].sort()
    shuffle(pool, k, words)
    shuffle(fpool, f, words)
    j = 0
    for q in range(n):
        for x in range(SLOTS):
            if not rec["matched"][q, x] and not rec["known"][player, q, x]:
                rec["layout"][q, x] = pool[j]
                j += 1
    if hidden_hand:
        rec["hand"] = pool[j]
        j += 1
    m = 0
    for i in range(j, k):
        draw[m] = pool[i]
        m += 1
    for i in range(in_draw):
        draw[m] = fpool[i]
        m += 1
    shuffle(draw, m, words)
    for i in range(f - in_draw):
        rec["out"][i] = fpool[in_draw + i]
    for i in range(rec["rng"].shape[0]):
        rec["rng"][i] = next_u32(words) | (1 if i == 0 else 0)  # xorshift state must be nonzero


EVAL_SCALE = 10.0  # points of lead worth tanh(1) ~ 0.76 of a win


@njit(cache=True)
def evaluate(rec, values):
    """Value estimates of a running game: tanh of each seat's point lead over the others.

    A seat's points are its total so far plus its current layout (unmatched cards), so
    this reads hidden cards: ISMCTS calls it only on determinized records.
    """
    n = rec["num_players"]
    est = np.zeros(MAX_P)
    for p in range(n):
        est[p] = rec["total"][p] + season_points(rec, p)
    for p in range(n):
        others = 0.0
        for q in range(n):
            if q != p:
                others += est[q]
        values[p] = np.tanh((others / (n - 1) - est[p]) / EVAL_SCALE)
