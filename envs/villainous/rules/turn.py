"""Setup (R1-R6), the turn, objectives and the slots (R10, R11)."""

# ruff: noqa: D103  (as for envs/*/rules.py: kernels named after the rule they apply)
from __future__ import annotations

import numpy as np

from fatezoo.envs.core.jit import njit
from fatezoo.envs.core.kernels import split_rewards
from fatezoo.envs.core.knowledge import UNKNOWN
from fatezoo.envs.core.rng import pick_flagged, randint
from fatezoo.envs.core.state import SPLIT_ALL, SPLIT_TEST
from fatezoo.envs.core.zones import zone_push, zone_shuffle, zone_take

from .. import state as S
from .cards import fcard_at, fcount, find_vtype, ftype, unlocked, vcard_at, vcount, vtype
from .conditions import resume
from .effects import effect_ok, push_entry
from .moving import draw_card, gain_power
from .strength import adjacent_open, card_cost, heroes_at, realm_has_hero


@njit(cache=True)
def reset_game(rec):
    """R1-R6: villains, Realms, shuffled decks, Yzma's piles, Power by seat, four cards.

    With split="train" or "test" seats 0 and 1 draw their pair first (``first_pair``);
    split="all" draws exactly as before the option existed (the goldens hold it).
    """
    n = rec["num_players"]
    for z in range(S.NUM_VZONES):
        rec["vz_n"][z] = 0
    for z in range(S.NUM_FZONES):
        rec["fz_n"][z] = 0
    rec["vknown"][:, :] = UNKNOWN
    rec["fknown"][:, :] = UNKNOWN
    rec["attach"][:] = -1
    rec["ent"][:, :] = -1
    rec["ent_n"] = 0
    rec["cev"][:, :] = 0
    rec["cev_n"][0] = 0
    rec["vq"][:] = -1
    rec["vq_n"] = 0
    for s in range(S.MAX_P):
        rec["villain"][s] = 0
        rec["power"][s] = 0
        rec["mover"][s] = 0
        rec["flip"][s] = 0
        rec["goal"][s] = 0
        for loc in range(4):
            rec["locked"][s, loc] = 0
    pair = first_pair(rec) if rec["split"] != SPLIT_ALL else -1
    for s in range(n):
        v = rec["villains_opt"][s]
        if s < 2 and pair >= 0:
            v = pair // S.NUM_VILLAINS if s == 0 else pair % S.NUM_VILLAINS
        elif v < 0:
            v = randint(rec["rng"], 3)
        rec["villain"][s] = v
        rec["power"][s] = S.START_POWER[s]
        for loc in range(4):
            rec["locked"][s, loc] = S.LOC_LOCKED[v, loc]
        dz = s * S.VZ + S.VDECK
        for k in range(S.NV):
            rec["vz"][dz, k] = s * S.NV + k
        rec["vz_n"][dz] = S.NV
        zone_shuffle(rec["vz"], rec["vz_n"], dz, rec["rng"])
        fz = s * S.FZ + S.FDECK
        m = 0
        for k in range(S.NF_CAP):
            c = s * S.NF_CAP + k
            if k < S.NF[v]:
                rec["fz"][fz, m] = c
                m += 1
            else:
                zone_push(rec["fz"], rec["fz_n"], S.UNUSED, c)
        rec["fz_n"][fz] = m
        zone_shuffle(rec["fz"], rec["fz_n"], fz, rec["rng"])
        if v == S.YZMA:
            deal_piles(rec, s)
    for s in range(n, S.MAX_P):
        rec["villain"][s] = -1
    for _ in range(S.HAND_SIZE):
        for s in range(n):
            draw_card(rec, s)
    opt = rec["fate_token_opt"]
    rec["token_on"] = 1 if (opt == 1 or (opt == -1 and n >= 5)) else 0
    rec["token"] = -1
    rec["winner"] = -1
    rec["fate_target"] = -1
    rec["fate_pile"] = -1
    rec["turn_player"] = 0
    start_turn(rec)


@njit(cache=True)
def held_out(first, second):
    """Held-out setups: seats 0 and 1 are Yzma and Ratigan, in either order (test)."""
    return (first == S.YZMA and second == S.RATIGAN) or (first == S.RATIGAN and second == S.YZMA)


@njit(cache=True)
def pair_allowed(rec, p):
    """Pair ``p = first * 3 + second`` of seats 0 and 1: the option allows it, in the split."""
    a, b = p // S.NUM_VILLAINS, p % S.NUM_VILLAINS
    o0, o1 = rec["villains_opt"][0], rec["villains_opt"][1]
    return ((o0 < 0 or o0 == a) and (o1 < 0 or o1 == b)
            and held_out(a, b) == (rec["split"] == SPLIT_TEST))


@njit(cache=True)
def first_pair(rec):
    """The villains of seats 0 and 1 (``first * 3 + second``), drawn within ``split``.

    One draw among the allowed pairs (``pick_flagged``); configure refuses options that
    leave none. With none (a record not made by configure) it is -1: the seats draw as
    with split="all".
    """
    allowed = np.zeros(S.NUM_VILLAINS * S.NUM_VILLAINS, np.bool_)
    for p in range(allowed.size):
        allowed[p] = pair_allowed(rec, p)
    return pick_flagged(allowed, rec["rng"])


@njit(cache=True)
def deal_piles(rec, s):
    """R60/R61: Yzma's Fate deck is dealt into four face-down piles 0, 1, 2, 3, 0, ..."""
    fz = s * S.FZ + S.FDECK
    k = 0
    n = rec["num_players"]
    while rec["fz_n"][fz] > 0:
        c = zone_take(rec["fz"], rec["fz_n"], fz, rec["fz_n"][fz] - 1)
        for v in range(n):
            rec["fknown"][v, c] = UNKNOWN
        zone_push(rec["fz"], rec["fz_n"], s * S.FZ + S.PILE0 + (k % 4), c)
        k += 1


@njit(cache=True)
def objective_met(rec, s):
    """R57-R67: the objective of seat ``s``'s villain holds now."""
    v = rec["villain"][s]
    if v == S.SCAR:
        total = 0
        for i in range(fcount(rec, s, S.SUCC)):
            total += S.F_STR[ftype(rec, fcard_at(rec, s, S.SUCC, i))]
        return total >= S.SUCCESSION_GOAL
    if v == S.YZMA:
        return rec["goal"][s] == 1
    if rec["flip"][s]:
        return rec["goal"][s] == 1
    return find_vtype(rec, s, S.LOC0 + S.PALACE, S.QUEEN) >= 0


@njit(cache=True)
def start_turn(rec):
    """R8: the objective check, then the move decision."""
    t = rec["turn_player"]
    for k in range(4):
        rec["used"][k] = 0
    rec["current_player"] = t
    if objective_met(rec, t):
        rec["winner"] = t
        rec["phase"] = S.PH_OVER
        scores = np.zeros(rec["num_players"])
        scores[t] = 1.0
        split_rewards(rec, scores, False)
        return
    rec["phase"] = S.PH_MOVE


@njit(cache=True)
def end_turn(rec):
    """R12: draw up to four; the next seat's turn starts."""
    t = rec["turn_player"]
    while vcount(rec, t, S.HAND) < S.HAND_SIZE:
        if not draw_card(rec, t):
            break
    rec["turn"] += 1
    rec["turn_player"] = (t + 1) % rec["num_players"]
    start_turn(rec)


@njit(cache=True)
def can_play_card(rec, s, t):
    k = S.V_KIND[t]
    if k == S.K_CONDITION:
        return False
    if card_cost(rec, s, t) > rec["power"][s]:
        return False
    if k == S.K_EFFECT:
        return effect_ok(rec, S.V_EFF[t], S.V_A[t], S.V_ARG[t], s, -1)
    return True


@njit(cache=True)
def can_activate(rec, s, c, loc):
    t = vtype(rec, c)
    return S.V_WHEN[t] == S.W_ACTIVATE and S.V_ACT[t] <= rec["power"][s] and effect_ok(
        rec, S.V_EFF[t], S.V_A[t], S.V_ARG[t], s, loc)


@njit(cache=True)
def fate_targetable(rec, p, q):
    """R36/R55: an opponent with a card to reveal and without the Fate token."""
    if q == p or (rec["token_on"] and rec["token"] == q):
        return False
    if fcount(rec, q, S.FDISC) > 0 or fcount(rec, q, S.FDECK) > 0:
        return True
    if rec["villain"][q] == S.YZMA:
        for k in range(4):
            if fcount(rec, q, S.PILE0 + k) > 0:
                return True
    return False


@njit(cache=True)
def symbol_ok(rec, s, sym):
    """Whether the action of symbol ``sym`` can do something now (R10)."""
    if sym <= S.S_POWER3:
        return True
    if sym == S.S_PLAY:
        for i in range(vcount(rec, s, S.HAND)):
            if can_play_card(rec, s, vtype(rec, vcard_at(rec, s, S.HAND, i))):
                return True
        return False
    if sym == S.S_ACTIVATE:
        for loc in range(4):
            for i in range(vcount(rec, s, S.LOC0 + loc)):
                if can_activate(rec, s, vcard_at(rec, s, S.LOC0 + loc, i), loc):
                    return True
        return False
    if sym == S.S_FATE:
        for q in range(rec["num_players"]):
            if fate_targetable(rec, s, q):
                return True
        return False
    if sym == S.S_MOVE_IA:
        for loc in range(4):
            if vcount(rec, s, S.LOC0 + loc) > 0 and adjacent_open(rec, s, loc):
                return True
        return False
    if sym == S.S_MOVE_HERO:
        for loc in range(4):
            if unlocked(rec, s, loc) and heroes_at(rec, s, loc) > 0 and adjacent_open(
                    rec, s, loc):
                return True
        return False
    if sym == S.S_VANQUISH:
        return realm_has_hero(rec, s, 2, 0)
    return vcount(rec, s, S.HAND) > 0  # S_DISCARD


@njit(cache=True)
def slot_open(rec, s, k):
    """Slot ``k`` of the mover's location: unused, not covered (R11), and useful (R10)."""
    loc = rec["mover"][s]
    if rec["used"][k] or (k < 2 and heroes_at(rec, s, loc) > 0):
        return False
    return symbol_ok(rec, s, S.LOC_SYM[rec["villain"][s], loc, k])


@njit(cache=True)
def take_slot(rec, k):
    """Begin the action of slot ``k`` (R14-R23)."""
    s = rec["turn_player"]
    rec["used"][k] = 1
    sym = S.LOC_SYM[rec["villain"][s], rec["mover"][s], k]
    if sym <= S.S_POWER3:
        gain_power(rec, s, sym - S.S_POWER1 + 1)
    elif sym == S.S_FATE:
        rec["phase"] = S.PH_TARGET
        return
    elif sym == S.S_PLAY:
        push_entry(rec, S.K_PLAY, 0, -1, s, s, -1, -1, 0, S.FIN_NONE)
    elif sym == S.S_ACTIVATE:
        push_entry(rec, S.K_ACTIVATE, 0, -1, s, s, -1, -1, 0, S.FIN_NONE)
    elif sym == S.S_MOVE_IA:
        push_entry(rec, S.K_MOVE_IA, 0, -1, s, s, -1, -1, 0, S.FIN_NONE)
    elif sym == S.S_MOVE_HERO:
        push_entry(rec, S.K_MOVE_H, 0, -1, s, s, -1, -1, 0, S.FIN_NONE)
    elif sym == S.S_VANQUISH:
        rec["vq_n"] = 0
        push_entry(rec, S.K_VANQ, 0, -1, s, s, -1, -1, 0, S.FIN_NONE)
    else:
        push_entry(rec, S.K_DISCARD, 0, -1, s, s, -1, -1, 0, S.FIN_NONE)
    resume(rec)
