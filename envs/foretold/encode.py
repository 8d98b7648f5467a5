"""Foretold observation: what the viewer may know, declared once as an ObsLayout.

Seats are relative to the viewer (0 = the viewer, 1 the next seat clockwise). Hidden:
opponents' Fate hands and the split of their face-down groups (Temple, Raiding Party,
Reinforce pool: only the counts and the public multiset of all three), deck orders, and
opponents' unflipped deck Tiles (their type; every deck A-side looks the same).
"""

from __future__ import annotations

from fatezoo.envs.core.jit import njit
from fatezoo.envs.core.layout import ObsField, ObsLayout
from fatezoo.envs.core.stack import ONEHOT, SEAT, SKIP, StackCodec, encode_stack

from .cards import F_STARTING, NC, NF, NR, NT, T_ALTARS, T_BONUS, T_DOORS, T_STATIONS
from .rules import (
    E_DECREE_FATE,
    E_DECREE_GOLD,
    E_DECREE_HEAL,
    E_DECREE_SMITE,
    E_DECREE_TILE,
    count,
    decree_sum,
    rotate,
    shown_total,
    temple_sum,
)
from .state import (
    CELLS,
    F_DECK_CAP,
    FATE_DECK_CAP,
    MAX_DICE,
    MAX_LIFE,
    MAX_MOVES,
    MAX_P,
    NUM_KINDS,
    NUM_PHASES,
    R_DECK_CAP,
    R_FROM_DECK,
    SHIELD_CAP,
    SPOTS,
)

SEAT_SIZE = 10
CELL_SIZE = 15
G_PRESENT, G_HIDDEN, G_TYPE, G_SIDE, G_ROT, G_DOORS, G_STATIONS, G_ALTARS, G_BONUS, \
    G_MARKER, G_CONQUERED = 0, 1, 2, 3, 4, 5, 9, 10, 11, 12, 13
G_VISITED = 14
CODEC = StackCodec(depth=4, columns=[("kind", ONEHOT, NUM_KINDS), ("owner", SEAT, MAX_P),
                                     ("ask", SKIP, 0), ("card", ONEHOT, max(NC, NR)),
                                     ("target", SEAT, MAX_P), ("flags", ONEHOT, 4)])
CODES, SIZES, DEPTH = CODEC.codes, CODEC.sizes, CODEC.depth

OBS = ObsLayout((
    ObsField("phase", (NUM_PHASES,), "one-hot decision: cover Relic, cover Faithful, market, "
                                     "draw, cycle, place cell, place rotation, flip rotation, "
                                     "search, raid target, defend, dispatch, recall, advance, "
                                     "trap discard, vandal, reinforce, over, respond, "
                                     "Fate target, fight round, pick a die, "
                                     "choose at resolution, assign dice, "
                                     "rearrange: move to cell, rearrange: rotation"),
    ObsField("turn_seat", (MAX_P,), "one-hot seat whose turn it is"),
    ObsField("seats", (MAX_P, SEAT_SIZE), "per seat: alive, Life/20, gold/50, Temple, Party, "
                                          "Reinforce pool sizes /20, Fate hand /20, Stations/16, "
                                          "Altars/16, Relics/10"),
    ObsField("discard", (MAX_P, NF), "per seat: Discard Pile by Faithful type /10"),
    ObsField("owned", (MAX_P, NF), "per seat: Faithful in its face-down groups by type /10"),
    ObsField("relics", (MAX_P, NR), "per seat: Relics by type /3"),
    ObsField("grid", (MAX_P, CELLS, CELL_SIZE),
             "per seat, cell: Tile present, unseen B-side, (type+1)/23 if known, side, "
             "rotation/3, doorways N E S W, Stations/2, Altars/2, Combat Bonus/2, Marker here, "
             "conquered, visited"),
    ObsField("my_groups", (3, NF), "your Temple, Raiding Party and Reinforce pool by type /10"),
    ObsField("my_hand", (NC,), "your Fate cards by type /4"),
    ObsField("fate_discard", (NC,), "the shared Fate discard by type /4"),
    ObsField("faithful_row", (SPOTS, 1 + NF), "per spot: pile size/10, one-hot top type"),
    ObsField("relic_row", (SPOTS, 1 + NR), "per spot: pile size/10, one-hot top type"),
    ObsField("held", (NF + NR + 2,), "revealed Faithful and revealed or returned (R20) Relic "
                                     "waiting for a spot (one-hot), bought Tile held, its "
                                     "(type+1)/23 if yours"),
    ObsField("relic_return", (NR + R_FROM_DECK + 1,),
             "a change of Fate waiting on its returns (R20): the Relic acquired when they are "
             "back (one-hot type), where it is taken from (one-hot Relic Row spot, then the "
             "Relic Deck); the seat returning is the seat choosing in actions"),
    ObsField("deck_sizes", (7,), "Faithful, Relic, Tile, 4 Fate Deck sizes (/capacity)"),
    ObsField("raid", (2 * MAX_P + 4,), "one-hot Raider, one-hot Defender, moves/32, "
                                       "picked/10, trap discards left/3, Vandals left/3"),
    ObsField("fight", (3, NF), "dispatched, Defending, Defeated Faithful by type /10"),
    ObsField("combat", (4 * MAX_DICE + 4,), "Raid and Defense dice /6, Combat Rolls /40 "
                                            "(running while the fight is live, R52), "
                                            "Smiting Die/6, per die: assigned to a "
                                            "die-dependent Faithful (R50), dice still to "
                                            "assign /10"),
    ObsField("fight_mods", (12,), "this fight: Raider's and Defender's bonus /10, their "
                                  "maluses /10, win ties (2), extra dice to roll /3 (2), extra "
                                  "recalls /3, round after the Defense / Raid roll (2), dice "
                                  "still to pick /2"),
    ObsField("sel_cell", (CELLS,), "one-hot cell being placed or flipped"),
    ObsField("misc", (6,), "Devotees played/10, Fate draws left/3, search in progress, "
                           "turn/max_turns, rearranging moves made/4, the cell a Tile "
                           "moves to (cell+1)/16"),
    ObsField("num_players", (3,), "one-hot 2, 3, 4 players"),
    ObsField("fatesworn", (6,), "the fatesworn option, then the active Decrees (R88) /3: "
                                "Tile cost, Fate card price, Smite damage, Heal and gold at "
                                "the start of a turn"),
    ObsField("actions", (MAX_P + 2 + NC + NR + MAX_P,),
             "per seat Prevent points /60, your Fate cost waived, purchase discount/5, "
             "the card awaiting its target (Fate type, then Relic type, one-hot), the seat "
             "choosing a target, a die, a pick, a draw or a returned Relic's pile (one-hot)"),
    ObsField("choice", (NC + NR + MAX_P + 3,),
             "a resolving effect's choice (Phase.CHOOSE): its card (Fate type, then Relic "
             "type, one-hot), the seat it targets (one-hot), picks left /3; PROTECT_PARTY "
             "for the Raider's and the Defender's side"),
    CODEC.obs_field("stack"),
))
OBS_SIZE = OBS.size
O_PHASE = OBS.start("phase")
O_TURN = OBS.start("turn_seat")
O_SEATS = OBS.start("seats")
O_DISCARD = OBS.start("discard")
O_OWNED = OBS.start("owned")
O_RELICS = OBS.start("relics")
O_GRID = OBS.start("grid")
O_MINE = OBS.start("my_groups")
O_HAND = OBS.start("my_hand")
O_CDISC = OBS.start("fate_discard")
O_FROW = OBS.start("faithful_row")
O_RROW = OBS.start("relic_row")
O_HELD = OBS.start("held")
O_RETURN = OBS.start("relic_return")  # the type, then at O_RETURN_FROM the source
O_RETURN_FROM = O_RETURN + NR
O_DECKS = OBS.start("deck_sizes")
O_RAID = OBS.start("raid")
O_FIGHT = OBS.start("fight")
O_MODS = OBS.start("fight_mods")
O_COMBAT = OBS.start("combat")
O_SEL = OBS.start("sel_cell")
O_MISC = OBS.start("misc")
O_NP = OBS.start("num_players")
O_FS = OBS.start("fatesworn")
O_ACT = OBS.start("actions")
O_STACK = OBS.start("stack")
O_CHOICE = OBS.start("choice")
EXTRA = MAX_P * (3 * NF + NC)  # encode_state: every seat's groups and hand
STATE_SIZE = OBS_SIZE + EXTRA


@njit(cache=True)
def _c(x):
    return min(1.0, max(-1.0, x))


@njit(cache=True)
def encode(rec, viewer, omniscient, out):
    """Write ``viewer``'s observation into ``out`` (every card if ``omniscient``)."""
    for i in range(OBS_SIZE):
        out[i] = 0.0
    v = int(viewer)
    n = int(rec["num_players"])
    tp = int(rec["turn_player"])
    ph = int(rec["phase"])
    if 0 <= ph < NUM_PHASES:
        out[O_PHASE + ph] = 1.0
    out[O_TURN + (tp - v + n) % n] = 1.0
    q_def = int(rec["defender"])
    for r in range(n):
        q = (v + r) % n
        o = O_SEATS + r * SEAT_SIZE
        out[o] = rec["alive"][q]
        out[o + 1] = rec["life"][q] / MAX_LIFE
        out[o + 2] = _c(rec["gold"][q] / 50.0)
        out[o + 3] = _c(count(rec["f_temple"][q]) / 20.0)
        out[o + 4] = _c(count(rec["f_party"][q]) / 20.0)
        out[o + 5] = _c(count(rec["f_pool"][q]) / 20.0)
        out[o + 6] = _c(count(rec["c_hand"][q]) / 20.0)
        out[o + 7] = _c(temple_sum(rec, q, T_STATIONS) / 16.0)
        out[o + 8] = _c(temple_sum(rec, q, T_ALTARS) / 16.0)
        out[o + 9] = _c(count(rec["r_owned"][q]) / 10.0)
        for t in range(NF):
            out[O_DISCARD + r * NF + t] = _c(rec["f_discard"][q, t] / 10.0)
            out[O_OWNED + r * NF + t] = _c(
                (rec["f_temple"][q, t] + rec["f_party"][q, t] + rec["f_pool"][q, t]) / 10.0)
        for k in range(NR):
            out[O_RELICS + r * NR + k] = _c(rec["r_owned"][q, k] / 3.0)
        for c in range(CELLS):
            t = int(rec["grid"][q, c])
            if t < 0:
                continue
            o = O_GRID + (r * CELLS + c) * CELL_SIZE
            s = int(rec["side"][q, c])
            out[o + G_PRESENT] = 1.0
            seen = omniscient or q == v or t < 5 or s == 1
            if seen:
                out[o + G_TYPE] = (t + 1) / NT
            else:
                out[o + G_HIDDEN] = 1.0
            out[o + G_SIDE] = s
            out[o + G_ROT] = rec["rot"][q, c] / 3.0
            doors = rotate(T_DOORS[t, s], rec["rot"][q, c])
            for d in range(4):
                out[o + G_DOORS + d] = (doors >> d) & 1
            out[o + G_STATIONS] = _c(T_STATIONS[t, s] / 2.0)
            out[o + G_ALTARS] = _c(T_ALTARS[t, s] / 2.0)
            out[o + G_BONUS] = _c(T_BONUS[t, s] / 2.0)
            if q == q_def:
                out[o + G_MARKER] = 1.0 if rec["marker"] == c else 0.0
                out[o + G_CONQUERED] = rec["conquered"][c]
                out[o + G_VISITED] = rec["visited"][c]
    for t in range(NF):
        out[O_MINE + t] = _c(rec["f_temple"][v, t] / 10.0)
        out[O_MINE + NF + t] = _c(rec["f_party"][v, t] / 10.0)
        out[O_MINE + 2 * NF + t] = _c(rec["f_pool"][v, t] / 10.0)
    for k in range(NC):
        out[O_HAND + k] = _c(rec["c_hand"][v, k] / 4.0)
        out[O_CDISC + k] = _c(rec["c_discard"][k] / 4.0)
    for k in range(SPOTS):
        m = rec["f_row_n"][k]
        o = O_FROW + k * (1 + NF)
        out[o] = _c(m / 10.0)
        if m > 0:
            out[o + 1 + int(rec["f_row"][k, m - 1])] = 1.0
        m = rec["r_row_n"][k]
        o = O_RROW + k * (1 + NR)
        out[o] = _c(m / 10.0)
        if m > 0:
            out[o + 1 + int(rec["r_row"][k, m - 1])] = 1.0
    if rec["f_held"] >= 0:
        out[O_HELD + int(rec["f_held"])] = 1.0
    if rec["r_held"] >= 0:
        out[O_HELD + NF + int(rec["r_held"])] = 1.0
    if rec["r_take"] >= 0:  # public: the acquisition and the row are face up
        out[O_RETURN + int(rec["r_take"])] = 1.0
        out[O_RETURN_FROM + int(rec["r_from"])] = 1.0
    if rec["t_held"] >= 0:
        out[O_HELD + NF + NR] = 1.0
        if omniscient or v == tp:
            out[O_HELD + NF + NR + 1] = (rec["t_held"] + 1) / NT
    out[O_DECKS] = rec["f_deck_n"] / F_DECK_CAP
    out[O_DECKS + 1] = rec["r_deck_n"] / R_DECK_CAP
    out[O_DECKS + 2] = _c(rec["t_deck_n"] / 25.0)
    for f in range(4):
        out[O_DECKS + 3 + f] = rec["c_deck_n"][f] / FATE_DECK_CAP
    if q_def >= 0:
        out[O_RAID + (tp - v + n) % n] = 1.0
        out[O_RAID + MAX_P + (q_def - v + n) % n] = 1.0
    out[O_RAID + 2 * MAX_P] = rec["moves"] / MAX_MOVES
    out[O_RAID + 2 * MAX_P + 1] = _c(rec["picked"] / 10.0)
    out[O_RAID + 2 * MAX_P + 2] = _c(rec["trap_left"] / 3.0)
    out[O_RAID + 2 * MAX_P + 3] = _c(rec["vandals"] / 3.0)
    for t in range(NF):
        out[O_FIGHT + t] = _c(rec["f_fight"][0, t] / 10.0)
        out[O_FIGHT + NF + t] = _c(rec["f_fight"][1, t] / 10.0)
        out[O_FIGHT + 2 * NF + t] = _c(rec["f_defeated"][t] / 10.0)
    for s in range(2):
        for i in range(rec["dice_n"][s]):
            out[O_COMBAT + s * MAX_DICE + i] = rec["dice"][s, i] / 6.0
        out[O_COMBAT + 2 * MAX_DICE + s] = _c(shown_total(rec, s) / 40.0)
    out[O_COMBAT + 2 * MAX_DICE + 2] = rec["smite_roll"] / 6.0
    for s in range(2):
        for i in range(rec["dice_n"][s]):
            if rec["die_to"][s, i] >= 0:
                out[O_COMBAT + 2 * MAX_DICE + 3 + s * MAX_DICE + i] = 1.0
    out[O_COMBAT + 4 * MAX_DICE + 3] = _c(rec["assign_left"] / 10.0)
    for s in range(2):
        out[O_MODS + s] = _c(max(0, rec["bonus"][s]) / 10.0)
        out[O_MODS + 2 + s] = _c(max(0, -rec["bonus"][s]) / 10.0)
        out[O_MODS + 4 + s] = rec["win_ties"][s]
        out[O_MODS + 6 + s] = _c(rec["extra"][s] / 3.0)
    out[O_MODS + 8] = _c(rec["recall_more"] / 3.0)
    if rec["fin"] > 0:
        out[O_MODS + 8 + int(rec["fin"])] = 1.0
    out[O_MODS + 11] = rec["die_left"] / 2.0
    if rec["sel_cell"] >= 0:
        out[O_SEL + int(rec["sel_cell"])] = 1.0
    out[O_MISC] = _c(rec["devotees"] / 10.0)
    out[O_MISC + 1] = _c(rec["draws"] / 3.0)
    out[O_MISC + 2] = 1.0 if rec["phase"] == 8 else 0.0
    out[O_MISC + 3] = _c(rec["turn"] / max(1, rec["max_turns"]))
    out[O_MISC + 4] = rec["rearranged"] / 4.0
    out[O_MISC + 5] = (rec["move_to"] + 1) / 16.0
    out[O_NP + n - 2] = 1.0
    out[O_FS] = rec["fatesworn"]
    out[O_FS + 1] = _c(decree_sum(rec, E_DECREE_TILE) / 3.0)
    out[O_FS + 2] = _c(decree_sum(rec, E_DECREE_FATE) / 3.0)
    out[O_FS + 3] = _c(decree_sum(rec, E_DECREE_SMITE) / 3.0)
    out[O_FS + 4] = _c(decree_sum(rec, E_DECREE_HEAL) / 3.0)
    out[O_FS + 5] = _c(decree_sum(rec, E_DECREE_GOLD) / 3.0)
    for r in range(n):
        out[O_ACT + r] = rec["shield"][(v + r) % n] / SHIELD_CAP
    out[O_ACT + MAX_P] = rec["waive"]  # public: the Oracle and Mastery are played face up
    out[O_ACT + MAX_P + 1] = _c(rec["discount"] / 5.0)
    sp = int(rec["sel_play"])
    if 0 <= sp < NC + NR:
        out[O_ACT + MAX_P + 2 + sp] = 1.0
    if rec["actor"] >= 0:
        out[O_ACT + MAX_P + 2 + NC + NR + (int(rec["actor"]) - v + n) % n] = 1.0
    ch = int(rec["ch_card"])
    if 0 <= ch < NC + NR:
        out[O_CHOICE + ch] = 1.0
    if 0 <= rec["ch_seat"] < n:
        out[O_CHOICE + NC + NR + (int(rec["ch_seat"]) - v + n) % n] = 1.0
    out[O_CHOICE + NC + NR + MAX_P] = _c(rec["ch_left"] / 3.0)
    out[O_CHOICE + NC + NR + MAX_P + 1] = rec["protect"][0]
    out[O_CHOICE + NC + NR + MAX_P + 2] = rec["protect"][1]
    encode_stack(rec["stack"], rec["stack_n"], v, n, CODES, SIZES, DEPTH, out, O_STACK)


@njit(cache=True)
def encode_state(rec, out):
    """The full state: seat 0's omniscient view, every seat's face-down groups and hand."""
    encode(rec, 0, 1, out[:OBS_SIZE])
    o = OBS_SIZE
    for p in range(MAX_P):
        for t in range(NF):
            out[o] = _c(rec["f_temple"][p, t] / 10.0)
            out[o + 1] = _c(rec["f_party"][p, t] / 10.0)
            out[o + 2] = _c(rec["f_pool"][p, t] / 10.0)
            o += 3
        for k in range(NC):
            out[o] = _c(rec["c_hand"][p, k] / 4.0)
            o += 1


STARTING = F_STARTING  # re-exported for the heuristic
