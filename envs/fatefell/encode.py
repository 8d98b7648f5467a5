"""Fatefell observation kernel and its declared layout ``OBS`` (fields with shapes).

Seats are relative to the viewer: seat 0 is the viewer, seat 1 the next player to the
left, and so on. A card is described by four numbers ``present, value/12, moon,
skeleton`` (identity and card follow from them), plus a one-hot identity where noted.
A field about a card the viewer has not legitimately seen is all zeros.
"""

from __future__ import annotations

from fatezoo.envs.core.jit import njit
from fatezoo.envs.core.layout import ObsField, ObsLayout

from .state import (
    COIN_SIDES,
    COPIES,
    DRAW_DEPTH,
    DRAW_PILE,
    FATE0,
    MAX_P,
    MAX_PILES,
    MAX_VALUE,
    MIN_P,
    NUM_CARDS,
    NUM_EFFECTS,
    NUM_FATE,
    NUM_IDENTITIES,
    NUM_PAIRS,
    NUM_PHASES,
    NUM_SEASONS,
    PAIR_FIRST,
    PAIR_SECOND,
    PAIRS,
    PILE_CAP,
    SLOTS,
)

# a card: present, value / MAX_VALUE, moon, skeleton (C_* index these components)
CARD_PARTS = ("present", "value", "moon", "skeleton")
C_PRESENT, C_VALUE, C_MOON, C_SKELETON = range(len(CARD_PARTS))
CARD = len(CARD_PARTS)
CARD_IDENT = CARD + NUM_IDENTITIES  # a card followed by its one-hot identity
# a layout slot: exists, known, completed, value / MAX_VALUE, moon, skeleton
SLOT_PARTS = ("exists", "known", "completed", "value", "moon", "skeleton")
S_EXISTS, S_KNOWN, S_COMPLETED, S_VALUE, S_MOON, S_SKELETON = range(len(SLOT_PARTS))
TOTAL_SCALE = 200.0  # running totals are divided by this
# pile sizes: the draw pile, then one per discard pile, each / PILE_SCALE
SIZE_PARTS = ("draw", "discard")
Z_DRAW, Z_DISCARD = range(len(SIZE_PARTS))  # Z_DISCARD + pile
PILE_SCALE = NUM_CARDS
# Fate cards this season, set aside, still in the draw pile, each / NUM_FATE
FATE_PARTS = ("season", "aside", "in_draw")
F_SEASON, F_ASIDE, F_IN_DRAW = range(len(FATE_PARTS))
# the final round: begun (0/1), final turns left / FINAL_SCALE
FINAL_PARTS = ("begun", "turns_left")
FR_BEGUN, FR_TURNS_LEFT = range(len(FINAL_PARTS))
FINAL_SCALE = MAX_P - 1
# progress: turn / max_turns, seasons left / NUM_SEASONS
PROGRESS_PARTS = ("turn", "seasons_left")
PR_TURN, PR_SEASONS_LEFT = range(len(PROGRESS_PARTS))

OBS = ObsLayout((
    ObsField("seat_slots", (MAX_P, SLOTS, len(SLOT_PARTS)),
             "per seat, slot: exists, known, completed, value/12, moon, skeleton"),
    ObsField("own_identity", (SLOTS, NUM_IDENTITIES),
             "one-hot identity of each of your known cards"),
    ObsField("own_pairs", (NUM_PAIRS,), "1 if a pair of your slots is a known, undeclared Match"),
    ObsField("hand", (CARD_IDENT,),
             "the drawn card, if you may see it: card + one-hot identity"),
    ObsField("hand_from_discard", (1,), "1 if the drawn card came from a discard pile"),
    ObsField("pending", (CARD,), "the card on its way to a discard pile (face up)"),
    ObsField("discard", (MAX_PILES, DRAW_DEPTH, CARD_IDENT),
             "per pile, top three cards: card + one-hot identity"),
    ObsField("discard_seen", (NUM_IDENTITIES,),
             "copies of each identity in the discard piles / 2"),
    ObsField("phase", (NUM_PHASES,), "one-hot decision kind"),
    ObsField("effect", (NUM_EFFECTS,), "one-hot Fate instruction being resolved"),
    ObsField("coin", (COIN_SIDES,), "one-hot Fate Coin side: Sun, Moon"),
    ObsField("first_slot", (SLOTS,), "one-hot slot already chosen for a two-step Fate instruction"),
    ObsField("turn_seat", (MAX_P,), "one-hot seat of the player whose turn it is"),
    ObsField("season", (NUM_SEASONS,), "one-hot index of the season being played"),
    ObsField("season_kind", (NUM_SEASONS,), "one-hot Spring, Summer, Autumn, Winter"),
    ObsField("seasonal_rules", (1,), "1 if the advanced seasonal rules are in force"),
    ObsField("two_piles", (1,), "1 if there are two discard piles (advanced Autumn)"),
    ObsField("pile_sizes", (Z_DISCARD + MAX_PILES,),
             "draw pile, discard pile 0, discard pile 1 sizes / 60"),
    ObsField("fates", (len(FATE_PARTS),),
             "Fate cards this season, set aside, still in the draw pile / 12"),
    ObsField("totals", (MAX_P,), "running total score per seat / 200"),
    ObsField("matches", (MAX_P,), "cards in Completed Matches per seat / 4"),
    ObsField("final_round", (len(FINAL_PARTS),),
             "1 if a player completed both Matches; final turns left / 3"),
    ObsField("num_players", (MAX_P - MIN_P + 1,), "one-hot 2, 3, 4 players"),
    ObsField("progress", (len(PROGRESS_PARTS),), "turn / max_turns, seasons left / 4"),
    ObsField("hand_matches", (SLOTS,),
             "1 if the drawn card (seen) has the identity of your known slot"),
    ObsField("discard_matches", (MAX_PILES, SLOTS),
             "per pile, 1 if its top card has the identity of your known slot"),
    ObsField("fate_card", (NUM_FATE,), "one-hot Fate card being resolved (row of fate.csv)"),
    ObsField("fates_seen", (NUM_FATE,),
             "1 per Fate card revealed this season (resolved, resolving or set aside)"),
))
OBS_LAYOUT, OBS_SIZE, OBS_DOCS = OBS.layout, OBS.size, OBS.docs

# offsets and strides for the kernels (numba compiles module ints as constants)
O_SEAT = OBS.start("seat_slots")
SEAT_STRIDE, SLOT_STRIDE, _ = OBS.strides("seat_slots")
O_IDENT = OBS.start("own_identity")
IDENT_STRIDE, _ = OBS.strides("own_identity")
O_PAIRS = OBS.start("own_pairs")
O_HAND = OBS.start("hand")
O_HAND_SRC = OBS.start("hand_from_discard")
O_PENDING = OBS.start("pending")
O_DISCARD = OBS.start("discard")
PILE_STRIDE, DEPTH_STRIDE, _ = OBS.strides("discard")
O_SEEN = OBS.start("discard_seen")
O_PHASE = OBS.start("phase")
O_EFFECT = OBS.start("effect")
O_COIN = OBS.start("coin")
O_FIRST = OBS.start("first_slot")
O_TURN = OBS.start("turn_seat")
O_SEASON = OBS.start("season")
O_KIND = OBS.start("season_kind")
O_RULES = OBS.start("seasonal_rules")
O_PILES = OBS.start("two_piles")
O_SIZES = OBS.start("pile_sizes")
O_FATES = OBS.start("fates")
O_TOTALS = OBS.start("totals")
O_MATCHES = OBS.start("matches")
O_FINAL = OBS.start("final_round")
O_NP = OBS.start("num_players")
O_PROG = OBS.start("progress")
O_HAND_MATCH = OBS.start("hand_matches")
O_DISCARD_MATCH = OBS.start("discard_matches")
DISCARD_MATCH_STRIDE, _ = OBS.strides("discard_matches")
O_FATE_CARD = OBS.start("fate_card")
O_FATES_SEEN = OBS.start("fates_seen")
STATE_EXTRA = PILE_CAP  # state_tensor: the draw pile, bottom to top, card id + 1 / 60
STATE_SIZE = OBS_SIZE + STATE_EXTRA


@njit(cache=True)
def put_card(out, o, c):
    """Write card ``c`` as present, value/12, moon, skeleton at ``out[o:o+CARD]``."""
    out[o + C_PRESENT] = 1.0
    out[o + C_VALUE] = ((c >> 2) + 1) / MAX_VALUE
    out[o + C_MOON] = (c >> 1) & 1
    out[o + C_SKELETON] = c & 1


@njit(cache=True)
def put_card_ident(out, o, c):
    """Write card ``c`` and its one-hot identity at ``out[o:o+CARD_IDENT]``."""
    put_card(out, o, c)
    out[o + CARD + (int(c) >> 1)] = 1.0


@njit(cache=True)
def encode(rec, viewer, omniscient, out):
    """Write ``viewer``'s observation of ``rec`` into ``out`` (all of it if ``omniscient``)."""
    for i in range(OBS_SIZE):
        out[i] = 0.0
    # int(): record fields are int8; offsets must be computed in full ints (in plain
    # Python under NUMBA_DISABLE_JIT, int8 + 423 would overflow)
    viewer = int(viewer)
    n = int(rec["num_players"])
    t = int(rec["turn_player"])
    for r in range(n):
        q = (viewer + r) % n
        for x in range(SLOTS):
            o = O_SEAT + r * SEAT_STRIDE + x * SLOT_STRIDE
            out[o + S_EXISTS] = 1.0
            out[o + S_COMPLETED] = rec["matched"][q, x]
            if omniscient or rec["known"][viewer, q, x]:
                c = rec["layout"][q, x]
                out[o + S_KNOWN] = 1.0
                out[o + S_VALUE] = ((c >> 2) + 1) / MAX_VALUE
                out[o + S_MOON] = (c >> 1) & 1
                out[o + S_SKELETON] = c & 1
                if r == 0:
                    out[O_IDENT + x * IDENT_STRIDE + (int(c) >> 1)] = 1.0
    for i in range(NUM_PAIRS):
        x = PAIRS[i, PAIR_FIRST]
        y = PAIRS[i, PAIR_SECOND]
        if ((omniscient or (rec["known"][viewer, viewer, x] and rec["known"][viewer, viewer, y]))
                and not rec["matched"][viewer, x] and not rec["matched"][viewer, y]
                and rec["layout"][viewer, x] >> 1 == rec["layout"][viewer, y] >> 1):
            out[O_PAIRS + i] = 1.0
    h = rec["hand"]
    if h >= 0 and (omniscient or viewer == t or rec["hand_from_discard"]):
        put_card_ident(out, O_HAND, h)
    if h >= 0:
        out[O_HAND_SRC] = rec["hand_from_discard"]
    if rec["pending"] >= 0:
        put_card(out, O_PENDING, rec["pending"])
    for k in range(MAX_PILES):
        m = rec["discard_n"][k]
        for d in range(min(DRAW_DEPTH, m)):
            put_card_ident(out, O_DISCARD + k * PILE_STRIDE + d * DEPTH_STRIDE,
                           rec["discard"][k, m - 1 - d])
    for i in range(NUM_IDENTITIES):
        out[O_SEEN + i] = rec["discard_seen"][i] / COPIES
    out[O_PHASE + int(rec["phase"])] = 1.0
    out[O_EFFECT + int(rec["effect"])] = 1.0
    if rec["coin"] >= 0:
        out[O_COIN + int(rec["coin"])] = 1.0
    if rec["first_slot"] >= 0:
        out[O_FIRST + int(rec["first_slot"])] = 1.0
    out[O_TURN + (t - viewer + n) % n] = 1.0
    s = int(rec["season"])
    out[O_SEASON + s] = 1.0
    out[O_KIND + int(rec["season_kind"][s])] = 1.0
    out[O_RULES] = rec["seasonal_rules"]
    out[O_PILES] = rec["num_piles"] - 1
    out[O_SIZES + Z_DRAW] = rec["draw_n"][DRAW_PILE] / PILE_SCALE
    for k in range(MAX_PILES):
        out[O_SIZES + Z_DISCARD + k] = rec["discard_n"][k] / PILE_SCALE
    f = rec["fate_count"][s]
    out[O_FATES + F_SEASON] = f / NUM_FATE
    out[O_FATES + F_ASIDE] = rec["aside_n"] / NUM_FATE
    resolving = 1 if rec["fate_card"] >= 0 else 0  # drawn, not yet set aside
    out[O_FATES + F_IN_DRAW] = (f - rec["aside_n"] - resolving) / NUM_FATE
    for r in range(n):
        q = (viewer + r) % n
        out[O_TOTALS + r] = rec["total"][q] / TOTAL_SCALE
        done = 0
        for x in range(SLOTS):
            done += rec["matched"][q, x]
        out[O_MATCHES + r] = done / SLOTS
    if rec["ender"] >= 0:
        out[O_FINAL + FR_BEGUN] = 1.0
        out[O_FINAL + FR_TURNS_LEFT] = rec["final_left"] / FINAL_SCALE
    out[O_NP + n - MIN_P] = 1.0
    out[O_PROG + PR_TURN] = min(1.0, rec["turn"] / max(1, rec["max_turns"]))
    out[O_PROG + PR_SEASONS_LEFT] = (rec["seasons"] - s) / NUM_SEASONS
    put_match_hints(rec, viewer, omniscient, out)
    # Fate cards are revealed when drawn and set aside face up: public
    if rec["fate_card"] >= 0:
        out[O_FATE_CARD + int(rec["fate_card"]) - FATE0] = 1.0
        out[O_FATES_SEEN + int(rec["fate_card"]) - FATE0] = 1.0
    for i in range(rec["aside_n"]):
        out[O_FATES_SEEN + int(rec["aside"][i]) - FATE0] = 1.0


@njit(cache=True)
def own_ident_known(rec, viewer, omniscient, x):
    """Identity of ``viewer``'s unmatched slot ``x`` if the viewer knows it, else -1."""
    if rec["matched"][viewer, x] or not (omniscient or rec["known"][viewer, viewer, x]):
        return -1
    return int(rec["layout"][viewer, x]) >> 1


@njit(cache=True)
def put_match_hints(rec, viewer, omniscient, out):
    """Flag own known slots whose identity the seen drawn card or a discard top shares.

    Derived only from cards the viewer sees (the same conditions as the fields above),
    so they add no information, only save a network from comparing one-hot identities.
    """
    h = rec["hand"]
    see_hand = h >= 0 and (omniscient or viewer == rec["turn_player"] or rec["hand_from_discard"])
    for x in range(SLOTS):
        ident = own_ident_known(rec, viewer, omniscient, x)
        if ident < 0:
            continue
        if see_hand and int(h) >> 1 == ident:
            out[O_HAND_MATCH + x] = 1.0
        for k in range(MAX_PILES):
            m = rec["discard_n"][k]
            if m > 0 and int(rec["discard"][k, m - 1]) >> 1 == ident:
                out[O_DISCARD_MATCH + k * DISCARD_MATCH_STRIDE + x] = 1.0


@njit(cache=True)
def encode_state(rec, out):
    """Write the full state (seat 0's view with every card shown, plus the draw pile)."""
    encode(rec, 0, 1, out[:OBS_SIZE])
    for i in range(STATE_EXTRA):
        out[OBS_SIZE + i] = 0.0
    draw = rec["draw"][DRAW_PILE]
    for i in range(rec["draw_n"][DRAW_PILE]):
        out[OBS_SIZE + i] = (draw[i] + 1) / NUM_CARDS
