"""Villainous observation: every Realm (public), your hand, what you saw; seats relative.

Seats are relative to the viewer (0 = you, 1 the next seat in turn order). A villain card
in another hand, any deck order and a Yzma pile card are shown only if the viewer KNOWS
that card (``knowledge.KNOWN``): a card shown to the table, or a pile the viewer looked at.
"""

from __future__ import annotations

import numpy as np

from fatezoo.envs.core.jit import njit
from fatezoo.envs.core.knowledge import KNOWN
from fatezoo.envs.core.layout import ObsField, ObsLayout
from fatezoo.envs.core.stack import encode_stack

from . import state as S
from .rules import ftype, queen_cost, vq_total, vtype

L = S.NUM_LOCS
# the scales, one per quantity; every reader of the observation multiplies back by these
VCOPY_SCALE = 6.0  # villain cards of a type (Realm, hands, decks, discards, Vanquish)
FCOPY_SCALE = 3.0  # Fate cards of a type (Realm, discards, Succession)
STR_SCALE = 10.0  # a Hero's current Strength
ITEMS_SCALE = 4.0  # Fate Items at a location
POWER_SCALE = 20.0
VSIZE_SCALE = 30.0  # hand and villain pile sizes
FSIZE_SCALE = 16.0  # Fate pile sizes
SUCC_SCALE = 15.0  # the Succession pile's Strength
REV_SCALE = 2.0  # revealed Fate cards of a type
PILE_SCALE = 4.0  # Yzma's pile sizes and the cards known in them
VQ_SCALE = 20.0  # a Vanquish's total Strength
LEFT_SCALE = 3.0  # an entry's moves left
ARG_SCALE = 6.0  # an entry's parameter
ME = 0  # the viewer's relative seat (seats are relative: 1 the next in turn order)
# the pending entry: its step (one-hot ENTRY_STEPS), Realm (seat one-hot), its card's
# location, the chosen location (one-hot L each), moves left, parameter
ENTRY_STEPS = 4
EN_STEP = 0
EN_REALM = EN_STEP + ENTRY_STEPS
EN_LOC = EN_REALM + S.MAX_P
EN_C0 = EN_LOC + L
EN_LEFT = EN_C0 + L
EN_ARG = EN_LEFT + 1
ENTRY_SIZE = EN_ARG + 1
# a seat's pile sizes: hand, villain deck, villain discard (/ VSIZE_SCALE); Fate deck,
# Fate discard (/ FSIZE_SCALE)
SIZE_PARTS = ("hand", "vdeck", "vdisc", "fdeck", "fdisc")
Z_HAND, Z_VDECK, Z_VDISC, Z_FDECK, Z_FDISC = range(len(SIZE_PARTS))
# a seat's Succession pile: counts by local Fate type (NFL), then its Strength
SUCC_STR = S.NFL
SUCC_SIZE = S.NFL + 1
# a seat's objective: Queen's Cost / QUEEN_COST, Ratigan flipped, event objective met,
# Buckingham Palace unlocked
OBJ_PARTS = ("queen_cost", "flipped", "goal", "palace_open")
OB_QUEEN, OB_FLIP, OB_GOAL, OB_PALACE = range(len(OBJ_PARTS))
# the Fate token: holder (seat one-hot), then whether it is in use
TOKEN_ON = S.MAX_P
# the Vanquish: Allies chosen by local villain type (NVL), then their total Strength
VQ_TOTAL = S.NVL

OBS = ObsLayout((
    ObsField("phase", (S.NUM_PHASES,), "one-hot: move, actions, Fate target, Yzma pile, Fate "
                                     "card, choice, Condition window, over"),
    ObsField("entry_kind", (S.NUM_ENTRY_KINDS,), "one-hot kind of the pending choice (an "
                                               "ability's instruction or an action)"),
    ObsField("entry", (ENTRY_SIZE,), "its step (one-hot 4), Realm (seat one-hot),"
                                                " its card's location, the chosen location, "
                                                "moves left/3, parameter/6"),
    ObsField("turn_seat", (S.MAX_P,), "one-hot seat whose turn it is"),
    ObsField("seats", (S.MAX_P,), "1 for each seat in the game"),
    ObsField("villain", (S.MAX_P, S.NUM_VILLAINS), "each seat's villain: Scar, Yzma, Ratigan"),
    ObsField("power", (S.MAX_P,), "Power / 20 (1 at 20 or more)"),
    ObsField("sizes", (S.MAX_P, len(SIZE_PARTS)),
             "hand, villain deck, villain discard /30; Fate deck, Fate discard /16"),
    ObsField("mover", (S.MAX_P, L), "one-hot location of each mover"),
    ObsField("locked", (S.MAX_P, L), "1 for a locked location"),
    ObsField("used", (4,), "slots taken this turn (the turn player's)"),
    ObsField("realm_v", (S.MAX_P, L, S.NVL), "villain cards below each location by local type /6"),
    ObsField("realm_f", (S.MAX_P, L, S.NFL), "Heroes and Fate Items above each location by local "
                                         "type /3"),
    ObsField("hero_str", (S.MAX_P, L, S.NFL), "current Strength of the strongest Hero of each "
                                          "type there /10"),
    ObsField("hero_items", (S.MAX_P, L), "Fate Items attached at each location /4"),
    ObsField("vdiscard", (S.MAX_P, S.NVL), "villain discard piles by type /6"),
    ObsField("fdiscard", (S.MAX_P, S.NFL), "Fate discard piles by type /3"),
    ObsField("succession", (S.MAX_P, SUCC_SIZE), "Scar's Succession pile by type /3 and its "
                                             "Strength /15"),
    ObsField("objective", (S.MAX_P, len(OBJ_PARTS)),
             "The Robot Queen's Cost /15, Ratigan flipped, event objective met, Buckingham "
             "Palace unlocked"),
    ObsField("fate_token", (TOKEN_ON + 1,), "holder one-hot, token in use"),
    ObsField("fate_target", (S.MAX_P,), "one-hot target of the Fate action in progress"),
    ObsField("revealed", (S.NFL,),
             "revealed Fate cards and the one being played, by local type /2"),
    ObsField("piles", (S.MAX_P, L), "Yzma's pile sizes /4"),
    ObsField("piles_known", (S.MAX_P, L, S.NFL), "pile cards you know (looked at, even if"
             " shuffled since) by type /4"),
    ObsField("hand", (S.NVL,), "your hand by local type /6"),
    ObsField("hand_known", (S.MAX_P, S.NVL), "cards of each hand you saw (shown to all) /6"),
    ObsField("deck_known", (S.MAX_P, S.NVL), "cards of each villain deck you know are there /6"),
    ObsField("vanquish", (VQ_TOTAL + 1,),
             "Allies chosen so far in a Vanquish by type /6, total /20"),
    ObsField("progress", (1,), "completed turns / max_turns"),
    S.EV_CODEC.obs_field("events"),
))
OBS_SIZE = OBS.size
STATE_SIZE = OBS_SIZE
O_PHASE = OBS.start("phase")
O_EKIND = OBS.start("entry_kind")
O_ENTRY = OBS.start("entry")
O_TURN = OBS.start("turn_seat")
O_SEATS = OBS.start("seats")
O_VIL = OBS.start("villain")
O_POWER = OBS.start("power")
O_SIZES = OBS.start("sizes")
O_MOVER = OBS.start("mover")
O_LOCKED = OBS.start("locked")
O_USED = OBS.start("used")
O_RV = OBS.start("realm_v")
O_RF = OBS.start("realm_f")
O_HS = OBS.start("hero_str")
O_HI = OBS.start("hero_items")
O_VD = OBS.start("vdiscard")
O_FD = OBS.start("fdiscard")
O_SUCC = OBS.start("succession")
O_OBJ = OBS.start("objective")
O_TOKEN = OBS.start("fate_token")
O_FT = OBS.start("fate_target")
O_REV = OBS.start("revealed")
O_PILES = OBS.start("piles")
O_PK = OBS.start("piles_known")
O_HAND = OBS.start("hand")
O_HK = OBS.start("hand_known")
O_DK = OBS.start("deck_known")
O_VQ = OBS.start("vanquish")
O_PROG = OBS.start("progress")
O_EV = OBS.start("events")
EV_CODES, EV_SIZES, EV_DEPTH = S.EV_CODEC.codes, S.EV_CODEC.sizes, S.EV_CODEC.depth


CARD_C0 = (S.K_PLAY, S.E_PLAY_ALLY_FREE, S.E_PLAY_FROM_FATE_DISCARD)  # C0 is a card, not a place

# (villain, card id within the seat) -> local type: one lookup instead of type then local
VLT = np.where(S.VT >= 0, S.V_LOCAL[np.maximum(S.VT, 0)], 0).astype(np.int64)
FLT = np.where(S.FT >= 0, S.F_LOCAL[np.maximum(S.FT, 0)], 0).astype(np.int64)


@njit(cache=True)
def clip1(x):
    return min(1.0, max(-1.0, x))


@njit(cache=True)
def encode(rec, viewer, omniscient, out):
    """Write ``viewer``'s observation into ``out`` (every card if ``omniscient``)."""
    for i in range(OBS_SIZE):
        out[i] = 0.0
    viewer = int(viewer)
    n = int(rec["num_players"])
    vz, vn, fz, fn = rec["vz"], rec["vz_n"], rec["fz"], rec["fz_n"]
    vk, fk = rec["vknown"], rec["fknown"]
    att = rec["attach"]
    ph = int(rec["phase"])  # int() everywhere a record int8 joins index arithmetic (no-JIT)
    if 0 <= ph < S.NUM_PHASES:
        out[O_PHASE + ph] = 1.0
    if rec["ent_n"] > 0:
        e = rec["ent"][rec["ent_n"] - 1]
        if 0 <= e[S.C_KIND] < S.NUM_ENTRY_KINDS:
            out[O_EKIND + int(e[S.C_KIND])] = 1.0
        if 0 <= e[S.C_STEP] < ENTRY_STEPS:
            out[O_ENTRY + EN_STEP + int(e[S.C_STEP])] = 1.0
        out[O_ENTRY + EN_REALM + (int(e[S.C_REALM]) - viewer + n) % n] = 1.0
        if 0 <= e[S.C_LOC] < L:
            out[O_ENTRY + EN_LOC + int(e[S.C_LOC])] = 1.0
        if 0 <= e[S.C_C0] < L and e[S.C_STEP] > 0 and e[S.C_KIND] not in CARD_C0:
            out[O_ENTRY + EN_C0 + int(e[S.C_C0])] = 1.0
        out[O_ENTRY + EN_LEFT] = clip1(e[S.C_LEFT] / LEFT_SCALE)
        out[O_ENTRY + EN_ARG] = clip1(e[S.C_A] / ARG_SCALE)
    out[O_TURN + (int(rec["turn_player"]) - viewer + n) % n] = 1.0
    for r in range(n):
        s = (viewer + r) % n
        out[O_SEATS + r] = 1.0
        v = int(rec["villain"][s])
        out[O_VIL + r * S.NUM_VILLAINS + v] = 1.0
        out[O_POWER + r] = min(1.0, rec["power"][s] / POWER_SCALE)
        o = O_SIZES + r * len(SIZE_PARTS)
        out[o + Z_HAND] = vn[s * S.VZ + S.HAND] / VSIZE_SCALE
        out[o + Z_VDECK] = vn[s * S.VZ + S.VDECK] / VSIZE_SCALE
        out[o + Z_VDISC] = vn[s * S.VZ + S.VDISC] / VSIZE_SCALE
        out[o + Z_FDECK] = fn[s * S.FZ + S.FDECK] / FSIZE_SCALE
        out[o + Z_FDISC] = fn[s * S.FZ + S.FDISC] / FSIZE_SCALE
        out[O_MOVER + r * L + int(rec["mover"][s])] = 1.0
        for loc in range(L):
            out[O_LOCKED + r * L + loc] = rec["locked"][s, loc]
            z = s * S.VZ + S.LOC0 + loc
            minus = 0  # rules.hero_str's Allies lowering the Heroes here
            for i in range(vn[z]):
                c = vz[z, i]
                t = S.VT[rec["villain"][c // S.NV], c % S.NV]
                out[O_RV + (r * L + loc) * S.NVL + S.V_LOCAL[t]] += 1.0 / VCOPY_SCALE
                if S.V_KIND[t] == S.K_ALLY and S.V_EFF[t] == S.E_HERO_MINUS:
                    minus += S.V_A[t]
            z = s * S.FZ + S.HERO0 + loc
            for i in range(fn[z]):
                c = fz[z, i]
                t = ftype(rec, c)
                out[O_RF + (r * L + loc) * S.NFL + S.F_LOCAL[t]] += 1.0 / FCOPY_SCALE
                if S.F_KIND[t] == S.K_HERO:
                    # rules.hero_str and rules.items_on: an attached Item lies in its Hero's
                    # zone (check_record), so only this zone's cards are looked at
                    items, hs = 0, S.F_STR[t] - minus
                    for k in range(fn[z]):
                        d = fz[z, k]
                        if att[d] == c:
                            items += 1
                            u = ftype(rec, d)
                            if S.F_EFF[u] == S.E_ITEM_STR:
                                hs += S.F_A[u]
                    j = O_HS + (r * L + loc) * S.NFL + S.F_LOCAL[t]
                    out[j] = max(out[j], min(1.0, max(hs, 0) / STR_SCALE))
                    out[O_HI + r * L + loc] += min(items, ITEMS_SCALE) / ITEMS_SCALE
            z = s * S.FZ + S.PILE0 + loc
            out[O_PILES + r * L + loc] = fn[z] / PILE_SCALE
            for i in range(fn[z]):
                c = fz[z, i]
                if omniscient or fk[viewer, c] > 0:
                    out[O_PK + (r * L + loc) * S.NFL + S.F_LOCAL[ftype(rec, c)]] += 1.0 / PILE_SCALE
        for i in range(vn[s * S.VZ + S.VDISC]):
            c = vz[s * S.VZ + S.VDISC, i]
            out[O_VD + r * S.NVL + VLT[rec["villain"][c // S.NV], c % S.NV]] += 1.0 / VCOPY_SCALE
        for i in range(fn[s * S.FZ + S.FDISC]):
            c = fz[s * S.FZ + S.FDISC, i]
            t = FLT[rec["villain"][c // S.NF_CAP], c % S.NF_CAP]
            out[O_FD + r * S.NFL + t] += 1.0 / FCOPY_SCALE
        total = 0
        for i in range(fn[s * S.FZ + S.SUCC]):
            t = ftype(rec, fz[s * S.FZ + S.SUCC, i])
            out[O_SUCC + r * SUCC_SIZE + S.F_LOCAL[t]] += 1.0 / FCOPY_SCALE
            total += S.F_STR[t]
        out[O_SUCC + r * SUCC_SIZE + SUCC_STR] = min(1.0, total / SUCC_SCALE)
        o = O_OBJ + r * len(OBJ_PARTS)
        if v == S.RATIGAN:
            out[o + OB_QUEEN] = queen_cost(rec, s) / S.QUEEN_COST
            out[o + OB_PALACE] = 1.0 - rec["locked"][s, S.PALACE]
        out[o + OB_FLIP] = rec["flip"][s]
        out[o + OB_GOAL] = rec["goal"][s]
        z = s * S.VZ + S.HAND
        for i in range(vn[z]):
            c = vz[z, i]
            if omniscient or vk[viewer, c] == KNOWN:
                t = S.V_LOCAL[vtype(rec, c)]
                if r == ME:
                    out[O_HAND + t] += 1.0 / VCOPY_SCALE
                else:
                    out[O_HK + r * S.NVL + t] += 1.0 / VCOPY_SCALE
        z = s * S.VZ + S.VDECK
        for i in range(vn[z]):
            c = vz[z, i]
            if omniscient or vk[viewer, c] > 0:
                out[O_DK + r * S.NVL + S.V_LOCAL[vtype(rec, c)]] += 1.0 / VCOPY_SCALE
    if rec["token"] >= 0:
        out[O_TOKEN + (int(rec["token"]) - viewer + n) % n] = 1.0
    out[O_TOKEN + TOKEN_ON] = rec["token_on"]
    q = int(rec["fate_target"])
    if q >= 0:
        out[O_FT + (q - viewer + n) % n] = 1.0
    for i in range(fn[S.REVEAL]):
        out[O_REV + S.F_LOCAL[ftype(rec, fz[S.REVEAL, i])]] += 1.0 / REV_SCALE
    for i in range(fn[S.FLIMBO]):  # the Fate card being played (shown to all)
        out[O_REV + S.F_LOCAL[ftype(rec, fz[S.FLIMBO, i])]] += 1.0 / REV_SCALE
    if rec["vq_n"] > 0 and rec["ent_n"] > 0:
        e = rec["ent"][rec["ent_n"] - 1]
        s = e[S.C_REALM]
        for j in range(rec["vq_n"]):
            out[O_VQ + S.V_LOCAL[vtype(rec, rec["vq"][j])]] += 1.0 / VCOPY_SCALE
        if 0 <= e[S.C_C0] < L:
            out[O_VQ + VQ_TOTAL] = min(1.0, vq_total(rec, s, e[S.C_C0]) / VQ_SCALE)
    out[O_PROG] = min(1.0, rec["turn"] / max(1, rec["max_turns"]))
    if rec["cev_n"][0] > 0:  # an empty stack encodes as zeros, which ``out`` already holds
        encode_stack(rec["cev"], rec["cev_n"], viewer, n, EV_CODES, EV_SIZES, EV_DEPTH, out,
                     O_EV)


@njit(cache=True)
def encode_state(rec, out):
    """The full state: seat 0's view with every card shown."""
    encode(rec, 0, 1, out[:OBS_SIZE])
