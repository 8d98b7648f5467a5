"""Fatefell observation kernel and its named layout ``OBS_LAYOUT`` (name -> slice).

Seats are relative to the viewer: seat 0 is the viewer, seat 1 the next player to the
left, and so on. A card is described by four numbers ``present, value/12, moon,
skeleton`` (identity and card follow from them), plus a one-hot identity where noted.
A field about a card the viewer has not legitimately seen is all zeros.
"""

from __future__ import annotations

from numba import njit

from fatezoo.envs.core.layout import build_layout

from .state import MAX_P, NUM_ACTIONS, NUM_EFFECTS, NUM_FATE, NUM_PHASES, PAIRS

CARD = 4  # present, value / 12, moon, skeleton
IDENT = 24

OBS_FIELDS = [
    ("seat_slots", 4 * 4 * 6, "per seat, slot: exists, known, completed, value/12, moon, skeleton"),
    ("own_identity", 4 * IDENT, "one-hot identity of each of your known cards"),
    ("own_pairs", 6, "1 if a pair of your slots is a known, undeclared Match"),
    ("hand", CARD + IDENT, "the drawn card, if you may see it: card + one-hot identity"),
    ("hand_from_discard", 1, "1 if the drawn card came from a discard pile"),
    ("pending", CARD, "the card on its way to a discard pile (face up)"),
    ("discard", 2 * 3 * (CARD + IDENT), "per pile, top three cards: card + one-hot identity"),
    ("discard_seen", IDENT, "copies of each identity in the discard piles / 2"),
    ("phase", NUM_PHASES, "one-hot decision kind"),
    ("effect", NUM_EFFECTS, "one-hot Fate instruction being resolved"),
    ("coin", 2, "one-hot Fate Coin side: Sun, Moon"),
    ("first_slot", 4, "one-hot slot already chosen for a two-step Fate instruction"),
    ("turn_seat", 4, "one-hot seat of the player whose turn it is"),
    ("season", 4, "one-hot index of the season being played"),
    ("season_kind", 4, "one-hot Spring, Summer, Autumn, Winter"),
    ("seasonal_rules", 1, "1 if the advanced seasonal rules are in force"),
    ("two_piles", 1, "1 if there are two discard piles (advanced Autumn)"),
    ("pile_sizes", 3, "draw pile, discard pile 0, discard pile 1 sizes / 60"),
    ("fates", 3, "Fate cards this season, set aside, still in the draw pile / 12"),
    ("totals", 4, "running total score per seat / 200"),
    ("matches", 4, "cards in Completed Matches per seat / 4"),
    ("final_round", 2, "1 if a player completed both Matches; final turns left / 3"),
    ("num_players", 3, "one-hot 2, 3, 4 players"),
    ("progress", 2, "turn / max_turns, seasons left / 4"),
    ("hand_matches", 4, "1 if the drawn card (seen) has the identity of your known slot"),
    ("discard_matches", 2 * 4, "per pile, 1 if its top card has the identity of your known slot"),
]
OBS_LAYOUT, OBS_SIZE, OBS_DOCS = build_layout(OBS_FIELDS)
# start offsets of each field, as plain ints for the kernel
O_SEAT = OBS_LAYOUT["seat_slots"].start
O_IDENT = OBS_LAYOUT["own_identity"].start
O_PAIRS = OBS_LAYOUT["own_pairs"].start
O_HAND = OBS_LAYOUT["hand"].start
O_HAND_SRC = OBS_LAYOUT["hand_from_discard"].start
O_PENDING = OBS_LAYOUT["pending"].start
O_DISCARD = OBS_LAYOUT["discard"].start
O_SEEN = OBS_LAYOUT["discard_seen"].start
O_PHASE = OBS_LAYOUT["phase"].start
O_EFFECT = OBS_LAYOUT["effect"].start
O_COIN = OBS_LAYOUT["coin"].start
O_FIRST = OBS_LAYOUT["first_slot"].start
O_TURN = OBS_LAYOUT["turn_seat"].start
O_SEASON = OBS_LAYOUT["season"].start
O_KIND = OBS_LAYOUT["season_kind"].start
O_RULES = OBS_LAYOUT["seasonal_rules"].start
O_PILES = OBS_LAYOUT["two_piles"].start
O_SIZES = OBS_LAYOUT["pile_sizes"].start
O_FATES = OBS_LAYOUT["fates"].start
O_TOTALS = OBS_LAYOUT["totals"].start
O_MATCHES = OBS_LAYOUT["matches"].start
O_FINAL = OBS_LAYOUT["final_round"].start
O_NP = OBS_LAYOUT["num_players"].start
O_PROG = OBS_LAYOUT["progress"].start
O_HAND_MATCH = OBS_LAYOUT["hand_matches"].start
O_DISCARD_MATCH = OBS_LAYOUT["discard_matches"].start
STATE_EXTRA = 64  # state_tensor: the draw pile, bottom to top, card id + 1 / 60
STATE_SIZE = OBS_SIZE + STATE_EXTRA
assert NUM_ACTIONS == 33 and MAX_P == 4 and NUM_FATE == 12


@njit(cache=True)
def put_card(out, o, c):
    """Write card ``c`` as present, value/12, moon, skeleton at ``out[o:o+4]``."""
    out[o] = 1.0
    out[o + 1] = ((c >> 2) + 1) / 12.0
    out[o + 2] = (c >> 1) & 1
    out[o + 3] = c & 1


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
        for x in range(4):
            o = O_SEAT + (r * 4 + x) * 6
            out[o] = 1.0
            out[o + 2] = rec["matched"][q, x]
            if omniscient or rec["known"][viewer, q, x]:
                c = rec["layout"][q, x]
                out[o + 1] = 1.0
                out[o + 3] = ((c >> 2) + 1) / 12.0
                out[o + 4] = (c >> 1) & 1
                out[o + 5] = c & 1
                if r == 0:
                    out[O_IDENT + x * 24 + (int(c) >> 1)] = 1.0
    for i in range(6):
        x = PAIRS[i, 0]
        y = PAIRS[i, 1]
        if ((omniscient or (rec["known"][viewer, viewer, x] and rec["known"][viewer, viewer, y]))
                and not rec["matched"][viewer, x] and not rec["matched"][viewer, y]
                and rec["layout"][viewer, x] >> 1 == rec["layout"][viewer, y] >> 1):
            out[O_PAIRS + i] = 1.0
    h = rec["hand"]
    if h >= 0 and (omniscient or viewer == t or rec["hand_from_discard"]):
        put_card(out, O_HAND, h)
        out[O_HAND + 4 + (int(h) >> 1)] = 1.0
    if h >= 0:
        out[O_HAND_SRC] = rec["hand_from_discard"]
    if rec["pending"] >= 0:
        put_card(out, O_PENDING, rec["pending"])
    for k in range(2):
        m = rec["discard_n"][k]
        for d in range(min(3, m)):
            c = rec["discard"][k, m - 1 - d]
            o = O_DISCARD + (k * 3 + d) * 28
            put_card(out, o, c)
            out[o + 4 + (int(c) >> 1)] = 1.0
    for i in range(IDENT):
        out[O_SEEN + i] = rec["discard_seen"][i] * 0.5
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
    out[O_SIZES] = rec["draw_n"] / 60.0
    out[O_SIZES + 1] = rec["discard_n"][0] / 60.0
    out[O_SIZES + 2] = rec["discard_n"][1] / 60.0
    f = rec["fate_count"][s]
    out[O_FATES] = f / 12.0
    out[O_FATES + 1] = rec["aside_n"] / 12.0
    resolving = 1 if rec["fate_card"] >= 0 else 0  # drawn, not yet set aside
    out[O_FATES + 2] = (f - rec["aside_n"] - resolving) / 12.0
    for r in range(n):
        q = (viewer + r) % n
        out[O_TOTALS + r] = rec["total"][q] / 200.0
        out[O_MATCHES + r] = (rec["matched"][q, 0] + rec["matched"][q, 1] + rec["matched"][q, 2]
                              + rec["matched"][q, 3]) / 4.0
    if rec["ender"] >= 0:
        out[O_FINAL] = 1.0
        out[O_FINAL + 1] = rec["final_left"] / 3.0
    out[O_NP + n - 2] = 1.0
    out[O_PROG] = min(1.0, rec["turn"] / max(1, rec["max_turns"]))
    out[O_PROG + 1] = (rec["seasons"] - s) / 4.0
    put_match_hints(rec, viewer, omniscient, out)


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
    for x in range(4):
        ident = own_ident_known(rec, viewer, omniscient, x)
        if ident < 0:
            continue
        if see_hand and int(h) >> 1 == ident:
            out[O_HAND_MATCH + x] = 1.0
        for k in range(2):
            m = rec["discard_n"][k]
            if m > 0 and int(rec["discard"][k, m - 1]) >> 1 == ident:
                out[O_DISCARD_MATCH + k * 4 + x] = 1.0


@njit(cache=True)
def encode_state(rec, out):
    """Write the full state (seat 0's view with every card shown, plus the draw pile)."""
    encode(rec, 0, 1, out[:OBS_SIZE])
    for i in range(STATE_EXTRA):
        out[OBS_SIZE + i] = 0.0
    for i in range(rec["draw_n"]):
        out[OBS_SIZE + i] = (rec["draw"][i] + 1) / 60.0
