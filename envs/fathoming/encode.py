"""The Fathoming's observation, declared once as ``OBS``, and its encode kernels.

Seats are relative to the viewer (0 = the viewer). Counts of copies are divided by 3,
stats, costs, Energy and Loot by 10, pile sizes by 40; every value is clipped to
[-1, 1]. Hidden: the opponent's hand (only its size and the cards the viewer saw enter
it) and the order of both decks. Deck lists are public (reading: players show their
lists), so ``opp_unseen`` counts the opponent's cards the viewer has not seen by kind.
"""

from __future__ import annotations

import numpy as np

from fatezoo.envs.core.jit import njit
from fatezoo.envs.core.knowledge import IN_ZONE, KNOWN
from fatezoo.envs.core.layout import ObsField, ObsLayout

from .cards import (
    CLASS_BIT,
    HEALTH,
    NUM_CLASSES,
    NUM_KINDS,
    P_ATK,
    P_ATK_COST,
    P_ATTACKS,
    P_CAN_ATTACK,
    P_GUARD,
    P_HP,
    P_ITEM_LIMIT,
    P_ITEMS_ACTIVE,
)
from .rules import (
    compute_props,
    divine_cost,
    hand_cost_if,
    hand_sources,
    kind_in,
    new_props,
    props_key_matches,
)
from .state import (
    DECK0,
    DECK_SIZE,
    DISC0,
    FIRST_POS,
    GLOBAL_Z,
    HAND0,
    NUM_SOURCES,
    P_ACTIVATE,
    P_ATTACK,
    P_PLAY,
    PD_ARG,
    PD_WHAT,
    PICK_PH,
    PTER0,
    SLOT0,
    SLOTS,
    TARGET_PH,
    TEMP_CAP,
)

K = NUM_KINDS
# the scales, one per quantity; every reader of the observation multiplies back by these
STAT_SCALE = 10.0  # Energy, Loot, costs, ATK, Health, damage
GUARD_SCALE = 5.0
COPY_SCALE = 3.0  # copies of a kind, attacks left, Item limit, Items per kind
SIZE_SCALE = 40.0  # pile sizes
TURNS_SCALE = 100.0  # completed turns
ROLL_SCALE = 6.0  # the die's faces
# the seats of a per-seat field, relative to the viewer
SEAT_PARTS = ("you", "opponent")
ME, OPP = range(len(SEAT_PARTS))
NS = len(SEAT_PARTS)
# the decision being taken (one-hot)
DECISION_PARTS = ("main", "play_target", "attack_target", "activate_target", "pick")
D_MAIN, D_PLAY_TARGET, D_ATTACK_TARGET, D_ACTIVATE_TARGET, D_PICK = range(
    len(DECISION_PARTS))
# a seat's pile sizes / SIZE_SCALE
SIZE_PARTS = ("hand", "deck", "discard")
Z_HAND, Z_DECK, Z_DISC = range(len(SIZE_PARTS))
# a Warrior slot: present, kind (K), ATK, HP, damage, ATK cost (/ STAT_SCALE), Guard
# (/ GUARD_SCALE), attacks left, can attack, item limit (/ COPY_SCALE), items active,
# classes (9), Items (counts per kind / COPY_SCALE, K)
W_PRESENT, W_KIND = 0, 1
W_STATS = W_KIND + K
STAT_PARTS = ("atk", "hp", "dmg", "atk_cost", "guard", "left", "can", "limit", "active")
(W_ATK, W_HP, W_DMG, W_ATK_COST, W_GUARD, W_LEFT, W_CAN, W_LIMIT, W_ACTIVE) = range(
    W_STATS, W_STATS + len(STAT_PARTS))
W_CLASSES = W_STATS + len(STAT_PARTS)
W_ITEMS = W_CLASSES + NUM_CLASSES
W_SIZE = W_ITEMS + K
# a Terrain: present, kind (K), Health, damage (/ STAT_SCALE), controlled by the viewer
TR_PRESENT, TR_KIND = 0, 1
TERRAIN_TAIL = ("hp", "dmg", "mine")  # after the kind one-hot
TR_HP, TR_DMG, TR_MINE = range(TR_KIND + K, TR_KIND + K + len(TERRAIN_TAIL))
TR_SIZE = TR_KIND + K + len(TERRAIN_TAIL)
# the Terrain rows: your Personal, the opponent's Personal, the Global Terrain
TERRAIN_ROWS = ("own_personal", "opp_personal", "global")
TER_OWN, TER_OPP, TER_GLOBAL = range(len(TERRAIN_ROWS))

OBS = ObsLayout((
    ObsField("decision", (len(DECISION_PARTS),),
             "one-hot: main, play target, attack target, activate target, pick"),
    ObsField("pending_card", (K,), "one-hot kind being played (target step) or searching (pick)"),
    ObsField("pending_source", (NUM_SOURCES,),
             "one-hot attacking Warrior slot or Activate source (target step)"),
    ObsField("energy", (NS,), "Energy of you, the opponent / 10"),
    ObsField("loot", (NS,), "Loot of you, the opponent / 10"),
    ObsField("turns_done", (NS,), "completed turns of you, the opponent / 100"),
    ObsField("first", (1,), "1 if you went first"),
    ObsField("my_turn", (1,), "1 if it is your turn"),
    ObsField("sizes", (NS, len(SIZE_PARTS)),
             "hand, deck, discard sizes of you, then the opponent / 40"),
    ObsField("divine_cost", (NS,), "what a Divine card costs you, the opponent now / 10"),
    ObsField("temp_room", (1,), "free rows of the temporary-effect table / 16"),
    ObsField("last_roll", (1,), "the last die roll / 6 (0: none yet)"),
    ObsField("hand", (K,), "your hand: copies of each kind / 3"),
    ObsField("hand_cost", (K,), "effective Summon Cost of each kind in your hand / 10"),
    ObsField("deck", (K,), "your deck's contents (never its order): copies per kind / 3"),
    ObsField("opp_hand_known", (K,),
             "the opponent's hand cards you have seen (searched, bounced) / 3"),
    ObsField("opp_unseen", (K,),
             "the opponent's cards you have not seen (hand and deck) per kind / 3"),
    ObsField("discard", (NS, K), "both discard piles (you, opponent): copies per kind / 3"),
    ObsField("last_search", (NS, K), "each player's last search reveal (one-hot kind)"),
    ObsField("warriors", (NS, SLOTS, W_SIZE),
             "per seat and slot: present, kind, ATK, HP, damage, ATK cost /10, Guard /5, "
             "attacks left /3, can attack, item limit /3, items active, classes, Items /3"),
    ObsField("terrains", (len(TERRAIN_ROWS), TR_SIZE),
             "your Personal, the opponent's Personal, the Global Terrain: present, kind, "
             "Health /10, damage /10, controlled by you"),
    ObsField("activated", (NUM_SOURCES,), "your Activate sources used this turn"),
    ObsField("progress", (1,), "completed turns / max_turns"),
))
O_DECISION = OBS.start("decision")
O_PCARD = OBS.start("pending_card")
O_PSRC = OBS.start("pending_source")
O_ENERGY = OBS.start("energy")
O_LOOT = OBS.start("loot")
O_TURNS = OBS.start("turns_done")
O_FIRST = OBS.start("first")
O_MYTURN = OBS.start("my_turn")
O_SIZES = OBS.start("sizes")
O_DIVINE = OBS.start("divine_cost")
O_TEMP = OBS.start("temp_room")
O_ROLL = OBS.start("last_roll")
O_HAND = OBS.start("hand")
O_HCOST = OBS.start("hand_cost")
O_DECK = OBS.start("deck")
O_OPPKNOWN = OBS.start("opp_hand_known")
O_UNSEEN = OBS.start("opp_unseen")
O_DISCARD = OBS.start("discard")
O_SEARCH = OBS.start("last_search")
O_WARRIORS = OBS.start("warriors")
O_TERRAINS = OBS.start("terrains")
O_ACTIVATED = OBS.start("activated")
O_PROGRESS = OBS.start("progress")
OBS_SIZE = OBS.size
STATE_SIZE = OBS_SIZE
SEAT_STRIDE = SLOTS * W_SIZE
# the copy counts (a third per copy, at most 1): the per-card loops add THIRD in float32
# with no clamp, one pass at the end clamps the two count ranges below to 1. Same bytes as
# clamping after every copy: 1 and 2 copies give f32(1/3) and f32(2/3) either way (2 *
# f32(1/3) is exact), 3 copies reach exactly 1.0 and more only go above it.
THIRD = np.float32(1.0 / COPY_SCALE)
assert (O_DECK, O_OPPKNOWN, O_UNSEEN, O_DISCARD) == tuple(O_DECK + K * i for i in range(4))
COUNTS_END = O_DISCARD + OBS.width("discard")


@njit(cache=True)
def _c(x):
    return min(1.0, max(-1.0, x))


@njit(cache=True)
def encode(rec, viewer, omniscient, out):
    """Write ``viewer``'s observation (``omniscient``: the opponent's hand shown too).

    Reads the record's cache of effective values when it matches the board (after every
    step it does: the legal actions refreshed it), else computes them; never writes
    the record.
    """
    if props_key_matches(rec):
        props, cls = rec["eff"], rec["eff_cls"]
    else:
        props, cls = new_props()
        compute_props(rec, props, cls)
    _encode(rec, viewer, omniscient, out, props, cls)


# inlined into ``encode``: as a called function it took ``out`` (a row of the batch's
# observation array) as an argument, and numba kept three reference-count pairs at its
# entry and exit (LLVM IR: 3 NRT_incref/NRT_decref calls in ``_encode``, none after
# inlining), one of them an atomic on the batch array that the threads of a batched step
# share. One call site: each inlined copy is typed again (seconds of first-use compile)
@njit(cache=True, inline="always")
def _encode(rec, viewer, omniscient, out, props, cls):
    # Hot (every step of every game): the record's arrays are read once into locals (a
    # record field read in a loop costs a reference-count call per read), card kinds
    # come from ``dl`` directly and the Warrior's properties are read as scalars.
    for i in range(out.shape[0]):
        out[i] = 0.0
    zone = rec["zone"]
    zn = rec["zone_n"]
    dl = rec["deck_list"]
    known = rec["known"]
    dmg = rec["dmg"]
    v = int(viewer)
    q = 1 - v
    turn_p = int(rec["turn_player"])
    mine = turn_p == v
    ph = rec["phase"]
    pend = rec["pend"]
    what = pend[PD_WHAT]
    if mine:
        if ph == PICK_PH:
            out[O_DECISION + D_PICK] = 1.0
            out[O_PCARD + int(pend[PD_ARG])] = 1.0
        elif ph == TARGET_PH:
            if what == P_PLAY:
                out[O_DECISION + D_PLAY_TARGET] = 1.0
                out[O_PCARD + int(pend[PD_ARG])] = 1.0
            elif what == P_ATTACK:
                out[O_DECISION + D_ATTACK_TARGET] = 1.0
                out[O_PSRC + int(pend[PD_ARG])] = 1.0
            elif what == P_ACTIVATE:
                out[O_DECISION + D_ACTIVATE_TARGET] = 1.0
                out[O_PSRC + int(pend[PD_ARG])] = 1.0
        else:
            out[O_DECISION + D_MAIN] = 1.0
    energy = rec["energy"]
    loot = rec["loot"]
    done = rec["done_turns"]
    search = rec["last_search"]
    for j in range(NS):
        s = v if j == ME else q
        out[O_ENERGY + j] = _c(energy[s] / STAT_SCALE)
        out[O_LOOT + j] = _c(loot[s] / STAT_SCALE)
        out[O_TURNS + j] = _c(done[s] / TURNS_SCALE)
        o = O_SIZES + j * len(SIZE_PARTS)
        out[o + Z_HAND] = zn[HAND0 + s] / SIZE_SCALE
        out[o + Z_DECK] = zn[DECK0 + s] / SIZE_SCALE
        out[o + Z_DISC] = zn[DISC0 + s] / SIZE_SCALE
        out[O_DIVINE + j] = _c(divine_cost(rec, s) / STAT_SCALE)
        z = DISC0 + s
        o = O_DISCARD + j * K
        for i in range(zn[z]):
            out[o + kind_in(dl, zone[z, i])] += THIRD
        if search[s] >= 0:
            out[O_SEARCH + j * K + int(search[s])] = 1.0
    out[O_FIRST] = 1.0 if rec["first"] == v else 0.0
    out[O_MYTURN] = 1.0 if mine else 0.0
    out[O_TEMP] = (TEMP_CAP - rec["temp_n"]) / float(TEMP_CAP)
    out[O_ROLL] = _c(rec["last_roll"] / ROLL_SCALE)
    # own hand, its costs, own deck contents (card ids index ``known`` unsigned: they are
    # 0..79, and an unsigned index has no negative-index wraparound)
    z = HAND0 + v
    hs = hand_sources(rec)
    for i in range(zn[z]):
        kd = kind_in(dl, zone[z, i])
        if out[O_HAND + kd] == 0.0:  # a kind's cost once, not once per copy (same value)
            out[O_HCOST + kd] = _c(hand_cost_if(rec, v, kd, hs) / STAT_SCALE)
        out[O_HAND + kd] += THIRD
    z = DECK0 + v
    for i in range(zn[z]):
        c = np.uintp(zone[z, i])
        if known[v, c] >= IN_ZONE:
            out[O_DECK + kind_in(dl, c)] += THIRD
    # the opponent's hand: seen cards; their unseen cards (hand and deck) by kind
    z = HAND0 + q
    for i in range(zn[z]):
        c = np.uintp(zone[z, i])
        kd = kind_in(dl, c)
        if omniscient or known[v, c] == KNOWN:
            out[O_OPPKNOWN + kd] += THIRD
        else:
            out[O_UNSEEN + kd] += THIRD
    z = DECK0 + q
    for i in range(zn[z]):
        c = np.uintp(zone[z, i])
        if known[v, c] != KNOWN:
            out[O_UNSEEN + kind_in(dl, c)] += THIRD
    for i in range(O_HAND, O_HAND + K):  # the counts' clamp (see THIRD)
        if out[i] > 1.0:
            out[i] = 1.0
    for i in range(O_DECK, COUNTS_END):
        if out[i] > 1.0:
            out[i] = 1.0
    # the fields
    attacks = rec["attacks"]
    for j in range(NS):
        s = v if j == ME else q
        for k in range(SLOTS):
            z = SLOT0 + SLOTS * s + k
            m = int(zn[z])
            if m == 0:
                continue
            o = O_WARRIORS + j * SEAT_STRIDE + k * W_SIZE
            w = int(zone[z, FIRST_POS])
            out[o + W_PRESENT] = 1.0
            out[o + W_KIND + kind_in(dl, w)] = 1.0
            out[o + W_ATK] = _c(props[s, k, P_ATK] / STAT_SCALE)
            out[o + W_HP] = _c(props[s, k, P_HP] / STAT_SCALE)
            out[o + W_DMG] = _c(dmg[w] / STAT_SCALE)
            out[o + W_ATK_COST] = _c(props[s, k, P_ATK_COST] / STAT_SCALE)
            out[o + W_GUARD] = _c(props[s, k, P_GUARD] / GUARD_SCALE)
            out[o + W_LEFT] = _c((props[s, k, P_ATTACKS] - attacks[s, k]) / COPY_SCALE)
            out[o + W_CAN] = props[s, k, P_CAN_ATTACK]
            out[o + W_LIMIT] = _c(props[s, k, P_ITEM_LIMIT] / COPY_SCALE)
            out[o + W_ACTIVE] = props[s, k, P_ITEMS_ACTIVE]
            cm = cls[s, k]
            for b in range(NUM_CLASSES):
                if (cm >> b) & 1:
                    out[o + W_CLASSES + b] = 1.0
            for i in range(1, m):
                kd = kind_in(dl, zone[z, i])
                out[o + W_ITEMS + kd] = _c(out[o + W_ITEMS + kd] + 1.0 / COPY_SCALE)
    pv = int(zone[PTER0 + v, FIRST_POS]) if zn[PTER0 + v] > 0 else -1
    pq = int(zone[PTER0 + q, FIRST_POS]) if zn[PTER0 + q] > 0 else -1
    g = int(zone[GLOBAL_Z, FIRST_POS]) if zn[GLOBAL_Z] > 0 else -1
    # the three Terrains written here, not in a helper: passing ``out`` to a helper (even
    # an inlined one) costs an atomic reference-count pair on the batch's observation
    # array per call, which the two threads of a batched step contend for
    for j in range(len(TERRAIN_ROWS)):
        c = pv if j == TER_OWN else (pq if j == TER_OPP else g)
        if c < 0:
            continue
        o = O_TERRAINS + j * TR_SIZE
        kd = kind_in(dl, c)
        out[o + TR_PRESENT] = 1.0
        out[o + TR_KIND + kd] = 1.0
        out[o + TR_HP] = _c(HEALTH[kd] / STAT_SCALE)
        out[o + TR_DMG] = _c(dmg[c] / STAT_SCALE)
        out[o + TR_MINE] = 1.0 if c // DECK_SIZE == v else 0.0
    used = rec["used"]
    for j in range(NUM_SOURCES):
        out[O_ACTIVATED + j] = used[v, j]
    out[O_PROGRESS] = _c(rec["turn"] / max(1.0, float(rec["max_turns"])))


@njit(cache=True)
def encode_state(rec, out):
    """The full state: the player to act's view with the opponent's hand shown."""
    encode(rec, rec["current_player"], 1, out)


_ = CLASS_BIT
