"""Kitgame observation: what the viewer knows, via the kit's knowledge flags and stack codec.

Seats are relative to the viewer (0 = the viewer). Every card field counts only cards
the viewer KNOWS (``knowledge.KNOWN``), or knows to be in the deck (``IN_ZONE``).
"""

from __future__ import annotations

import numpy as np

from fatezoo.envs.core.decisions import decision_obs_size, encode_decision
from fatezoo.envs.core.jit import njit
from fatezoo.envs.core.knowledge import IN_ZONE, KNOWN, count_known_kinds
from fatezoo.envs.core.layout import ObsField, ObsLayout
from fatezoo.envs.core.stack import ONEHOT, SCALAR, SEAT, SKIP, StackCodec, encode_stack

from .state import (
    CARD_KIND,
    DECK,
    DISCARD,
    HAND0,
    MAX_P,
    NUM_CARDS,
    NUM_KINDS,
    NUM_STEPS,
    START_LIFE,
)

CODEC = StackCodec(depth=4, columns=[
    ("kind", ONEHOT, NUM_KINDS), ("owner", SEAT, MAX_P), ("ask", SKIP, 0), ("card", SKIP, 0),
    ("target", SEAT, MAX_P), ("option", ONEHOT, 3), ("countered", SCALAR, 1)])
CODES, SIZES, DEPTH = CODEC.codes, CODEC.sizes, CODEC.depth
DEC_KINDS = 3  # none, attack, search
CHOICE_SIZES = np.array([2, 3, 3], np.int64)  # card kind, target offset - 1, option
SEAT_SIZE = 2 + NUM_KINDS

OBS = ObsLayout((
    ObsField("seats", (MAX_P, SEAT_SIZE), "per seat: life/6, hand size/20, kinds of its hand "
                                          "cards you know (/20)"),
    ObsField("deck", (1 + NUM_KINDS,), "deck size/20, kinds you know are in the deck (/20)"),
    ObsField("discard", (NUM_KINDS,), "kinds in the discard pile (/20)"),
    CODEC.obs_field("stack"),
    ObsField("decision", (decision_obs_size(DEC_KINDS, NUM_STEPS, CHOICE_SIZES),),
             "turn decision: one-hot kind (none, attack, search), step, card kind, target, "
             "option"),
    ObsField("turn_seat", (MAX_P,), "one-hot seat of the player whose turn it is"),
    ObsField("last_roll", (2,), "1 if the die was rolled, its last face / 5"),
    ObsField("num_players", (3,), "one-hot 2, 3, 4 players"),
    ObsField("progress", (1,), "turns played / (rounds * players)"),
))
OBS_SIZE = OBS.size
O_SEATS = OBS.start("seats")
SEAT_STRIDE = OBS.strides("seats")[0]
O_DECK = OBS.start("deck")
O_DISCARD = OBS.start("discard")
O_STACK = OBS.start("stack")
O_DEC = OBS.start("decision")
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
        out[o] = rec["life"][q] / START_LIFE
        out[o + 1] = zn[HAND0 + q] / NUM_CARDS
        counts[:] = 0.0
        for i in range(zn[HAND0 + q]):
            c = zone[HAND0 + q, i]
            if omniscient or known[viewer, c] == KNOWN:
                counts[CARD_KIND[c]] += 1
        for k in range(NUM_KINDS):
            out[o + 2 + k] = counts[k] / NUM_CARDS
    out[O_DECK] = zn[DECK] / NUM_CARDS
    counts[:] = 0.0
    for i in range(zn[DECK]):
        c = zone[DECK, i]
        if omniscient or known[viewer, c] >= IN_ZONE:
            counts[CARD_KIND[c]] += 1
    for k in range(NUM_KINDS):
        out[O_DECK + 1 + k] = counts[k] / NUM_CARDS
    counts[:] = 0.0
    count_known_kinds(zone, zn, known, DISCARD, viewer, CARD_KIND, KNOWN, counts)
    for k in range(NUM_KINDS):
        out[O_DISCARD + k] = counts[k] / NUM_CARDS
    encode_stack(rec["stack"], rec["stack_n"], viewer, n, CODES, SIZES, DEPTH, out, O_STACK)
    encode_decision(rec["dec"], DEC_KINDS, NUM_STEPS, CHOICE_SIZES, out, O_DEC)
    out[O_TURN + (int(rec["turn_player"]) - viewer + n) % n] = 1.0
    if rec["last_roll"] >= 0:
        out[O_ROLL] = 1.0
        out[O_ROLL + 1] = rec["last_roll"] / 5.0
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
