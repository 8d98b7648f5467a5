"""Kitgame observation: what the viewer knows, via the kit's knowledge flags and stack codec.

Seats are relative to the viewer (0 = the viewer). Every card field counts only cards
the viewer KNOWS (``knowledge.KNOWN``), or knows to be in the deck (``IN_ZONE``).
"""

from __future__ import annotations

import numpy as np

from fatezoo.envs.core.jit import njit
from fatezoo.envs.core.knowledge import IN_ZONE, KNOWN, count_known_kinds
from fatezoo.envs.core.layout import ObsField, ObsLayout, part_starts, part_width
from fatezoo.envs.core.stack import ONEHOT, SCALAR, SEAT, SKIP, StackCodec, encode_stack

from .state import (
    CARD_KIND,
    DECK,
    DISCARD,
    HAND0,
    MAX_P,
    NUM_CARDS,
    NUM_KINDS,
    START_LIFE,
)

CODEC = StackCodec(depth=4, columns=[
    ("kind", ONEHOT, NUM_KINDS), ("owner", SEAT, MAX_P), ("ask", SKIP, 0), ("card", SKIP, 0),
    ("target", SEAT, MAX_P), ("option", ONEHOT, 3), ("countered", SCALAR, 1)])
CODES, SIZES, DEPTH = CODEC.codes, CODEC.sizes, CODEC.depth
# a seat's parts: life, hand size, then the kinds of its hand cards the viewer knows
SEAT_PARTS = ("life", "hand")
P_LIFE, P_HAND = range(len(SEAT_PARTS))
P_KINDS = len(SEAT_PARTS)
SEAT_SIZE = P_KINDS + NUM_KINDS
LIFE_SCALE = float(START_LIFE)
CARD_SCALE = float(NUM_CARDS)  # card counts
# the turn's choice: the phase one-hot, then the chosen kind and target one-hot
CHOICE_PARTS = (("phase", 3), ("kind", 2), ("target", MAX_P - 1))
C_PHASE, C_KIND, C_TARGET = part_starts(CHOICE_PARTS)
DECK_PARTS = (("size", 1), ("kinds", NUM_KINDS))  # kinds you know are in the deck
D_SIZE, D_KINDS = part_starts(DECK_PARTS)
ROLL_PARTS = ("rolled", "face")
R_ROLLED, R_FACE = range(len(ROLL_PARTS))
FACE_SCALE = 5.0  # the Risk die's highest face

OBS = ObsLayout((
    ObsField("seats", (MAX_P, SEAT_SIZE), "per seat: life/6, hand size/20, kinds of its hand "
                                          "cards you know (/20)"),
    ObsField("deck", (part_width(DECK_PARTS),),
             "deck size/20, kinds you know are in the deck (/20)"),
    ObsField("discard", (NUM_KINDS,), "kinds in the discard pile (/20)"),
    CODEC.obs_field("stack"),
    ObsField("choice", (part_width(CHOICE_PARTS),),
             "the turn's choice so far: one-hot phase (card, target, option), kind chosen "
             "(attack, search), target chosen (seats to the player's left - 1)"),
    ObsField("turn_seat", (MAX_P,), "one-hot seat of the player whose turn it is"),
    ObsField("last_roll", (len(ROLL_PARTS),), "1 if the die was rolled, its last face / 5"),
    ObsField("num_players", (3,), "one-hot 2, 3, 4 players"),
    ObsField("progress", (1,), "turns played / (rounds * players)"),
))
OBS_SIZE = OBS.size
O_SEATS = OBS.start("seats")
SEAT_STRIDE = OBS.strides("seats")[0]
O_DECK = OBS.start("deck")
O_DISCARD = OBS.start("discard")
O_STACK = OBS.start("stack")
O_CHOICE = OBS.start("choice")
O_TURN = OBS.start("turn_seat")
O_ROLL = OBS.start("last_roll")
O_NP = OBS.start("num_players")
O_PROG = OBS.start("progress")
STATE_SIZE = OBS_SIZE + NUM_CARDS  # plus the deck, bottom to top, (card + 1) / 20


@njit(cache=True)
def encode(rec, viewer, omniscient, out):
    """Write ``viewer``'s observation into ``out`` (every card if ``omniscient``)."""
    for i in range(OBS_SIZE):
        out[i] = 0.0
    viewer = int(viewer)
    n = int(rec["num_players"])
    zone, zn, known = rec["zone"], rec["zone_n"], rec["known"]
    counts = np.zeros(NUM_KINDS)
    for r in range(n):
        q = (viewer + r) % n
        o = O_SEATS + r * SEAT_STRIDE
        out[o + P_LIFE] = rec["life"][q] / LIFE_SCALE
        out[o + P_HAND] = zn[HAND0 + q] / CARD_SCALE
        counts[:] = 0.0
        for i in range(zn[HAND0 + q]):
            c = zone[HAND0 + q, i]
            if omniscient or known[viewer, c] == KNOWN:
                counts[CARD_KIND[c]] += 1
        for k in range(NUM_KINDS):
            out[o + P_KINDS + k] = counts[k] / CARD_SCALE
    out[O_DECK + D_SIZE] = zn[DECK] / CARD_SCALE
    counts[:] = 0.0
    for i in range(zn[DECK]):
        c = zone[DECK, i]
        if omniscient or known[viewer, c] >= IN_ZONE:
            counts[CARD_KIND[c]] += 1
    for k in range(NUM_KINDS):
        out[O_DECK + D_KINDS + k] = counts[k] / CARD_SCALE
    counts[:] = 0.0
    count_known_kinds(zone, zn, known, DISCARD, viewer, CARD_KIND, KNOWN, counts)
    for k in range(NUM_KINDS):
        out[O_DISCARD + k] = counts[k] / CARD_SCALE
    encode_stack(rec["stack"], rec["stack_n"], viewer, n, CODES, SIZES, DEPTH, out, O_STACK)
    out[O_CHOICE + C_PHASE + rec["phase"]] = 1.0
    if rec["chosen_kind"] >= 0:
        out[O_CHOICE + C_KIND + rec["chosen_kind"]] = 1.0
    if rec["chosen_target"] >= 0:
        out[O_CHOICE + C_TARGET + rec["chosen_target"]] = 1.0
    out[O_TURN + (int(rec["turn_player"]) - viewer + n) % n] = 1.0
    if rec["last_roll"] >= 0:
        out[O_ROLL + R_ROLLED] = 1.0
        out[O_ROLL + R_FACE] = rec["last_roll"] / FACE_SCALE
    out[O_NP + n - 2] = 1.0
    out[O_PROG] = min(1.0, rec["turn"] / (int(rec["rounds"]) * n))


@njit(cache=True)
def encode_state(rec, out):
    """The full state: seat 0's view with every card shown, plus the deck order."""
    encode(rec, 0, 1, out[:OBS_SIZE])
    for i in range(NUM_CARDS):
        out[OBS_SIZE + i] = 0.0
    for i in range(rec["zone_n"][DECK]):
        out[OBS_SIZE + i] = (rec["zone"][DECK, i] + 1) / NUM_CARDS
