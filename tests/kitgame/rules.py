"""Kitgame rules (RULES.md) as numba kernels over the rule kit's helpers."""

from __future__ import annotations

import numpy as np

from fatezoo.envs.core.decisions import in_block, set_block
from fatezoo.envs.core.dice import roll
from fatezoo.envs.core.jit import njit
from fatezoo.envs.core.kernels import split_rewards
from fatezoo.envs.core.knowledge import (
    determinize_zones,
    draw_seen,
    look_at_zone,
    reveal_all,
    shuffle_known,
)
from fatezoo.envs.core.rng import next_u32
from fatezoo.envs.core.stack import KIND, OWNER, next_responder, stack_pop, stack_push
from fatezoo.envs.core.state import REWARD_SCORE
from fatezoo.envs.core.zones import (
    zone_count_kind,
    zone_fill,
    zone_find_kind,
    zone_move,
    zone_move_card,
    zone_push,
    zone_shuffle,
    zone_take,
)

from .state import (
    ATTACK,
    BLOCK,
    CANCEL,
    CARD_KIND,
    COL_CARD,
    COL_COUNTERED,
    COL_OPTION,
    COL_TARGET,
    DECK,
    DISCARD,
    HAND0,
    MAX_P,
    NUM_CARDS,
    NUM_ZONES,
    OPTION,
    PASS,
    PLAY,
    RESPOND,
    RISK_DIE,
    SEARCH,
    STACK_Z,
    START_HAND,
    START_LIFE,
    STRIKE,
    TARGET,
    Phase,
)


@njit(cache=True)
def holds(rec, p, kind):
    """Whether seat ``p`` holds a card of ``kind``."""
    return zone_count_kind(rec["zone"], rec["zone_n"], HAND0 + p, CARD_KIND, kind) > 0


@njit(cache=True)
def draw(rec, p):
    """Seat ``p`` draws the top card of the deck (seen only by ``p``); none if it is empty."""
    draw_seen(rec["zone"], rec["zone_n"], rec["known"], rec["num_players"], DECK, HAND0 + p, p)


@njit(cache=True)
def play_from_hand(rec, p, kind):
    """Seat ``p`` shows a card of ``kind`` from its hand and puts it in the stack zone."""
    z = HAND0 + p
    i = zone_find_kind(rec["zone"], rec["zone_n"], z, CARD_KIND, kind)
    c = zone_move(rec["zone"], rec["zone_n"], z, i, STACK_Z)
    reveal_all(rec["known"], c, rec["num_players"])
    return c


@njit(cache=True)
def clear_choice(rec):
    """No choice in progress: the turn asks for a card again."""
    rec["phase"] = Phase.CARD
    rec["chosen_kind"] = -1
    rec["chosen_target"] = -1


@njit(cache=True)
def reset_game(rec):
    """Shuffle the 20 cards, deal 3 to each seat, 6 life each; seat 0 starts (and draws)."""
    n = rec["num_players"]
    for z in range(NUM_ZONES):
        rec["zone_n"][z] = 0
    zone_fill(rec["zone"], rec["zone_n"], DECK, 0, NUM_CARDS)
    zone_shuffle(rec["zone"], rec["zone_n"], DECK, rec["rng"])
    for v in range(MAX_P):
        for c in range(NUM_CARDS):
            rec["known"][v, c] = 0
        rec["life"][v] = START_LIFE if v < n else 0
    for _ in range(START_HAND):
        for p in range(n):
            draw(rec, p)
    rec["stack_n"][0] = 0
    rec["resolved_n"][0] = 0
    rec["last_roll"] = -1
    clear_choice(rec)
    rec["turn_player"] = 0
    rec["current_player"] = 0
    draw(rec, 0)


@njit(cache=True)
def finish(rec):
    """End the game: most life wins (score mode: life above the table mean / 6)."""
    n = rec["num_players"]
    scores = np.zeros(n)
    for p in range(n):
        scores[p] = rec["life"][p]
    if rec["reward_mode"] == REWARD_SCORE:
        mean = scores.sum() / n
        for p in range(n):
            rec["rewards"][p] += (scores[p] - mean) / START_LIFE
        rec["terminated"] = 1
    else:
        split_rewards(rec, scores, False)


@njit(cache=True)
def end_turn(rec):
    """The turn ends; after rounds * n turns or at 0 life the game ends, else the next draws."""
    n = rec["num_players"]
    rec["turn"] += 1
    clear_choice(rec)
    over = rec["turn"] >= rec["rounds"] * n
    for p in range(n):
        if rec["life"][p] == 0:
            over = True
    if over:
        finish(rec)
        return
    t = (rec["turn_player"] + 1) % n
    rec["turn_player"] = t
    rec["current_player"] = t
    draw(rec, t)


@njit(cache=True)
def resolve(rec, i):
    """Resolve stack entry ``i``: its card goes to the discard pile, then its effect."""
    e = rec["stack"][i]
    c = e[COL_CARD]
    zone_move_card(rec["zone"], rec["zone_n"], STACK_Z, c, DISCARD)
    rec["resolved"][rec["resolved_n"][0]] = c
    rec["resolved_n"][0] += 1
    if e[COL_COUNTERED]:
        return
    kind = e[KIND]
    p = e[OWNER]
    if kind == BLOCK:
        rec["stack"][i - 1, COL_COUNTERED] = 1  # the entry it responded to
    elif kind == ATTACK:
        t = e[COL_TARGET]
        damage = STRIKE
        if e[COL_OPTION] == 1:
            damage = roll(RISK_DIE, rec["rng"])
            rec["last_roll"] = damage
        rec["life"][t] = max(0, rec["life"][t] - damage)
    else:  # SEARCH: look through the deck, take a card of the named kind, show it, shuffle
        zone, zn, known, n = rec["zone"], rec["zone_n"], rec["known"], rec["num_players"]
        look_at_zone(zone, zn, known, DECK, p)
        j = zone_find_kind(zone, zn, DECK, CARD_KIND, e[COL_OPTION])
        if j >= 0:
            found = zone_take(zone, zn, DECK, j)
            zone_push(zone, zn, HAND0 + p, found)
            reveal_all(known, found, n)
        shuffle_known(zone, zn, known, n, DECK, rec["rng"])


@njit(cache=True)
def advance(rec):
    """Run the response window: ask the next seat holding a Block (with ``ask_all``, the
    next seat), or resolve the top.

    When the stack is empty again the turn ends (one play per turn).
    """
    n = rec["num_players"]
    eligible = np.zeros(MAX_P, np.int8)
    while rec["stack_n"][0] > 0:
        for p in range(n):
            eligible[p] = 1 if rec["ask_all"] else holds(rec, p, BLOCK)
        seat = next_responder(rec["stack"], rec["stack_n"], n, eligible)
        if seat >= 0:
            rec["current_player"] = seat
            return
        resolve(rec, stack_pop(rec["stack"], rec["stack_n"]))
        for p in range(n):
            if rec["life"][p] == 0:
                end_turn(rec)
                return
    end_turn(rec)


@njit(cache=True)
def asks(rec):
    """With ``ask_all``, a seat asked in a response window decides even with only ``pass``
    legal: who is asked then depends on nothing hidden (the core's ``settle`` would
    otherwise pass for it, and everyone would learn it holds no Block)."""
    return rec["ask_all"] != 0 and rec["stack_n"][0] > 0


@njit(cache=True)
def legal_mask(rec, mask):
    """Legal actions of the current player: a response window's, or the phase's block."""
    for a in range(mask.shape[0]):
        mask[a] = 0
    p = rec["current_player"]
    if rec["stack_n"][0] > 0:  # a response window asks ``p``
        mask[RESPOND] = 1 if holds(rec, p, BLOCK) else 0
        mask[PASS] = 1
    elif rec["phase"] == Phase.CARD:
        mask[PLAY + ATTACK] = 1 if holds(rec, p, ATTACK) else 0
        mask[PLAY + SEARCH] = 1 if holds(rec, p, SEARCH) else 0
        mask[PASS] = 1
    elif rec["phase"] == Phase.TARGET:
        set_block(mask, TARGET, rec["num_players"] - 1, 1)
        mask[CANCEL] = 1
    else:
        set_block(mask, OPTION, 2 if rec["chosen_kind"] == ATTACK else 3, 1)
        mask[CANCEL] = 1


@njit(cache=True)
def respond(rec, p, action):
    """In a response window: ``p`` blocks (a Block goes on the stack) or passes; the
    window moves on."""
    if action == RESPOND:
        c = play_from_hand(rec, p, BLOCK)
        i = stack_push(rec["stack"], rec["stack_n"], BLOCK, p)
        rec["stack"][i, COL_CARD] = c
        rec["stack"][i, COL_TARGET] = -1
        rec["stack"][i, COL_OPTION] = -1
    advance(rec)


@njit(cache=True)
def choose_card(rec, p, kind):
    """Phase CARD: choosing a card kind shows it (everyone now knows the player holds
    that kind, so a determinized world keeps it, and check_record can require it); an
    Attack asks for its target next, a Search (no target) for its option."""
    i = zone_find_kind(rec["zone"], rec["zone_n"], HAND0 + p, CARD_KIND, kind)
    reveal_all(rec["known"], rec["zone"][HAND0 + p, i], rec["num_players"])
    rec["chosen_kind"] = kind
    rec["phase"] = Phase.TARGET if kind == ATTACK else Phase.OPTION


@njit(cache=True)
def cancel(rec):
    """Back one step, forgetting that step's choice: OPTION -> TARGET for an Attack,
    else back to CARD."""
    if rec["phase"] == Phase.OPTION and rec["chosen_kind"] == ATTACK:
        rec["chosen_target"] = -1
        rec["phase"] = Phase.TARGET
    else:
        clear_choice(rec)


@njit(cache=True)
def play_card(rec, p, option):
    """Phase OPTION: the card is played, its effect goes on the stack, the window opens."""
    n = rec["num_players"]
    kind = rec["chosen_kind"]
    rel = rec["chosen_target"]
    c = play_from_hand(rec, p, kind)
    rec["resolved_n"][0] = 0
    i = stack_push(rec["stack"], rec["stack_n"], kind, p)
    rec["stack"][i, COL_CARD] = c
    rec["stack"][i, COL_TARGET] = (p + 1 + rel) % n if rel >= 0 else -1
    rec["stack"][i, COL_OPTION] = option
    clear_choice(rec)
    advance(rec)


@njit(cache=True)
def apply_action(rec, action):
    """Apply one legal decision of the current player: one kernel per decision."""
    p = rec["current_player"]
    if rec["stack_n"][0] > 0:
        respond(rec, p, action)
    elif action == PASS:
        end_turn(rec)
    elif action == CANCEL:
        cancel(rec)
    elif in_block(action, PLAY, 2):
        choose_card(rec, p, action - PLAY)
    elif in_block(action, TARGET, 3):
        rec["chosen_target"] = action - TARGET
        rec["phase"] = Phase.OPTION
    else:
        play_card(rec, p, action - OPTION)


@njit(cache=True)
def determinize_record(rec, player, words):
    """Resample every card ``player`` does not know (kit helper), then reseed the RNG."""
    determinize_zones(rec["zone"], rec["zone_n"], rec["known"], rec["num_players"], player,
                      words)
    for i in range(4):
        rec["rng"][i] = next_u32(words) | (1 if i == 0 else 0)
