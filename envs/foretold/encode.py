"""Foretold observation: what the viewer may know, declared once as an ObsLayout.

Seats are relative to the viewer (0 = the viewer, 1 the next seat clockwise). Hidden:
opponents' Fate hands and the split of their face-down groups (Temple, Raiding Party,
Reinforce pool: only the counts and the public multiset of all three), deck orders, and
opponents' unflipped deck Tiles (their type; every deck A-side looks the same).
"""

from __future__ import annotations

from fatezoo.envs.core.jit import njit
from fatezoo.envs.core.layout import ObsField, ObsLayout, part_starts, part_width
from fatezoo.envs.core.stack import ONEHOT, SEAT, SKIP, StackCodec, encode_stack

from . import cards as C
from . import state as S
from .rules import count, decree_sum, rotate, shown_total, temple_sum
from .rules.tables import E_DECREE_FATE, E_DECREE_GOLD, E_DECREE_HEAL, E_DECREE_SMITE, E_DECREE_TILE
from .state import Phase

# Each multi-part field names its parts once (an index, or the start of a run) and declares
# its scales beside them: the encoder divides by a scale, the heuristic multiplies by it.
# seats, per seat
SEAT_PARTS = ("alive", "life", "gold", "temple", "party", "pool", "hand", "stations",
              "altars", "relics")
P_ALIVE, P_LIFE, P_GOLD, P_TEMPLE, P_PARTY, P_POOL, P_HAND, P_STATIONS, P_ALTARS, \
    P_RELICS = range(len(SEAT_PARTS))
SEAT_SIZE = len(SEAT_PARTS)
LIFE_SCALE = S.MAX_LIFE
GOLD_SCALE = 50.0
GROUP_SCALE = 20.0  # the Temple, Raiding Party, Reinforce pool and Fate hand sizes
TEMPLE_SUM_SCALE = 16.0  # Stations, Altars
RELICS_SCALE = 10.0
# discard, owned, my_groups, fight: Faithful by type; relics: Relics by type; my_hand,
# fate_discard: Fate cards by type
COUNT_SCALE = 10.0
RELIC_COUNT_SCALE = 3.0
FATE_COUNT_SCALE = 4.0
# grid, per seat and cell
CELL_PARTS = ("present", "hidden", "type", "side", "rotation", "door_n", "door_e", "door_s",
              "door_w", "stations", "altars", "bonus", "marker", "conquered", "visited")
G_PRESENT, G_HIDDEN, G_TYPE, G_SIDE, G_ROT, G_DOOR_N, G_DOOR_E, G_DOOR_S, G_DOOR_W, \
    G_STATIONS, G_ALTARS, G_BONUS, G_MARKER, G_CONQUERED, G_VISITED = range(len(CELL_PARTS))
G_DOORS = G_DOOR_N  # doorway d (0 N, 1 E, 2 S, 3 W) at G_DOORS + d
CELL_SIZE = len(CELL_PARTS)
TILE_TYPE_SCALE = C.NT  # (type + 1) / NT
ROT_SCALE = 3.0
TILE_STAT_SCALE = 2.0  # Stations, Altars, Combat Bonus of one Tile
# my_groups (rows of NF types); encode_state's per-type triples in the same order
GROUP_PARTS = ("temple", "party", "pool")
GR_TEMPLE, GR_PARTY, GR_POOL = range(len(GROUP_PARTS))
# faithful_row, relic_row, per spot: the pile size, then the one-hot top type from ROW_TOP
ROW_PARTS = ("size", "top")
ROW_SIZE, ROW_TOP = range(len(ROW_PARTS))
F_SPOT_SIZE = ROW_TOP + C.NF
R_SPOT_SIZE = ROW_TOP + C.NR
PILE_SCALE = 10.0
# held
HELD_PARTS = (("faithful", C.NF), ("relic", C.NR), ("tile", 1), ("tile_type", 1))
H_FAITHFUL, H_RELIC, H_TILE, H_TILE_TYPE = part_starts(HELD_PARTS)
# relic_return: the Relic acquired (one-hot type), where from (a spot, then the Relic Deck)
RETURN_PARTS = (("take", C.NR), ("from", S.R_FROM_DECK + 1))
RET_TAKE, RET_FROM = part_starts(RETURN_PARTS)
# deck_sizes
DECK_PARTS = (("faithful", 1), ("relic", 1), ("tile", 1), ("fate", S.FATE_DECKS))
D_FAITHFUL, D_RELIC, D_TILE, D_FATE = part_starts(DECK_PARTS)
TILE_DECK_SCALE = 25.0
# raid
RAID_PARTS = (("raider", S.MAX_P), ("defender", S.MAX_P), ("moves", 1), ("picked", 1),
              ("trap_left", 1), ("vandals", 1))
RD_RAIDER, RD_DEFENDER, RD_MOVES, RD_PICKED, RD_TRAP, RD_VANDALS = part_starts(RAID_PARTS)
PICKED_SCALE = 10.0
TRAP_SCALE = 3.0
VANDAL_SCALE = 3.0
# fight (rows of NF types; the side s of a fight is row s)
FIGHT_PARTS = ("dispatched", "defending", "defeated")
FT_DISPATCHED, FT_DEFENDING, FT_DEFEATED = range(len(FIGHT_PARTS))
# combat: dice and assigned hold the Raid side's MAX_DICE, then the Defense side's;
# rolls the Raid then the Defense Combat Roll
COMBAT_PARTS = (("dice", 2 * S.MAX_DICE), ("rolls", 2), ("smite", 1), ("assigned", 2 * S.MAX_DICE),
                ("assign_left", 1))
CB_DICE, CB_ROLLS, CB_SMITE, CB_ASSIGNED, CB_ASSIGN_LEFT = part_starts(COMBAT_PARTS)
DIE_SCALE = 6.0  # a die's face, the Smiting Die's too
ROLL_SCALE = 40.0
ASSIGN_SCALE = 10.0
# fight_mods: the Raider's then the Defender's entry where a part has two
MODS_PARTS = (("bonus", 2), ("malus", 2), ("win_ties", 2), ("extra", 2), ("recall_more", 1),
              ("after_defense_roll", 1), ("after_raid_roll", 1), ("die_left", 1))
M_BONUS, M_MALUS, M_WIN_TIES, M_EXTRA, M_RECALL, M_AFTER_DEFENSE, M_AFTER_RAID, \
    M_DIE_LEFT = part_starts(MODS_PARTS)
BONUS_SCALE = 10.0  # bonuses and maluses
EXTRA_SCALE = 3.0
RECALL_SCALE = 3.0
DIE_LEFT_SCALE = 2.0
# misc
MISC_PARTS = ("devotees", "draws", "searching", "progress", "rearranged", "move_to")
MI_DEVOTEES, MI_DRAWS, MI_SEARCH, MI_PROGRESS, MI_REARRANGED, MI_MOVE_TO = \
    range(len(MISC_PARTS))
DEVOTEE_SCALE = 10.0
DRAW_SCALE = 3.0
REARRANGE_SCALE = 4.0
MOVE_TO_SCALE = 16.0  # (cell + 1) / 16
# fatesworn: the option, then the active Decrees
FS_PARTS = ("option", "tile", "fate", "smite", "heal", "gold")
FS_OPTION, FS_TILE, FS_FATE, FS_SMITE, FS_HEAL, FS_GOLD = range(len(FS_PARTS))
DECREE_SCALE = 3.0
# actions
ACT_PARTS = (("shield", S.MAX_P), ("waive", 1), ("discount", 1), ("sel_play", C.NC + C.NR),
             ("actor", S.MAX_P))
AC_SHIELD, AC_WAIVE, AC_DISCOUNT, AC_SEL_PLAY, AC_ACTOR = part_starts(ACT_PARTS)
DISCOUNT_SCALE = 5.0
# choice
CHOICE_PARTS = (("card", C.NC + C.NR), ("seat", S.MAX_P), ("left", 1), ("protect", 2))
CH_CARD, CH_SEAT, CH_LEFT, CH_PROTECT = part_starts(CHOICE_PARTS)
PICKS_SCALE = 3.0
CODEC = StackCodec(depth=4, columns=[("kind", ONEHOT, S.NUM_KINDS), ("owner", SEAT, S.MAX_P),
                                     ("ask", SKIP, 0), ("card", ONEHOT, max(C.NC, C.NR)),
                                     ("target", SEAT, S.MAX_P), ("flags", ONEHOT, 4)])
CODES, SIZES, DEPTH = CODEC.codes, CODEC.sizes, CODEC.depth

OBS = ObsLayout((
    ObsField("phase", (S.NUM_PHASES,), "one-hot decision: cover Relic, cover Faithful, market, "
                                     "draw, cycle, place cell, place rotation, flip rotation, "
                                     "search, raid target, defend, dispatch, recall, advance, "
                                     "trap discard, vandal, reinforce, over, respond, "
                                     "Fate target, fight round, pick a die, "
                                     "choose at resolution, assign dice, "
                                     "rearrange: move to cell, rearrange: rotation"),
    ObsField("turn_seat", (S.MAX_P,), "one-hot seat whose turn it is"),
    ObsField("seats", (S.MAX_P, SEAT_SIZE), "per seat: alive, Life/20, gold/50, Temple, Party, "
                                          "Reinforce pool sizes /20, Fate hand /20, Stations/16, "
                                          "Altars/16, Relics/10"),
    ObsField("discard", (S.MAX_P, C.NF), "per seat: Discard Pile by Faithful type /10"),
    ObsField("owned", (S.MAX_P, C.NF), "per seat: Faithful in its face-down groups by type /10"),
    ObsField("relics", (S.MAX_P, C.NR), "per seat: Relics by type /3"),
    ObsField("grid", (S.MAX_P, S.CELLS, CELL_SIZE),
             "per seat, cell: Tile present, unseen B-side, (type+1)/23 if known, side, "
             "rotation/3, doorways N E S W, Stations/2, Altars/2, Combat Bonus/2, Marker here, "
             "conquered, visited"),
    ObsField("my_groups", (len(GROUP_PARTS), C.NF),
             "your Temple, Raiding Party and Reinforce pool by type /10"),
    ObsField("my_hand", (C.NC,), "your Fate cards by type /4"),
    ObsField("fate_discard", (C.NC,), "the shared Fate discard by type /4"),
    ObsField("faithful_row", (S.SPOTS, F_SPOT_SIZE), "per spot: pile size/10, one-hot top type"),
    ObsField("relic_row", (S.SPOTS, R_SPOT_SIZE), "per spot: pile size/10, one-hot top type"),
    ObsField("held", (part_width(HELD_PARTS),),
             "revealed Faithful and revealed or returned (R20) Relic waiting for a spot "
             "(one-hot), bought Tile held, its (type+1)/23 if yours"),
    ObsField("relic_return", (part_width(RETURN_PARTS),),
             "a change of Fate waiting on its returns (R20): the Relic acquired when they are "
             "back (one-hot type), where it is taken from (one-hot Relic Row spot, then the "
             "Relic Deck); the seat returning is the seat choosing in actions"),
    ObsField("deck_sizes", (part_width(DECK_PARTS),),
             "Faithful, Relic, Tile, 4 Fate Deck sizes (/capacity)"),
    ObsField("raid", (part_width(RAID_PARTS),), "one-hot Raider, one-hot Defender, moves/32, "
                                            "picked/10, trap discards left/3, Vandals left/3"),
    ObsField("fight", (len(FIGHT_PARTS), C.NF),
             "dispatched, Defending, Defeated Faithful by type /10"),
    ObsField("combat", (part_width(COMBAT_PARTS),),
             "Raid and Defense dice /6, Combat Rolls /40 (running while the fight is live, "
             "R52), Smiting Die/6, per die: assigned to a die-dependent Faithful (R50), dice "
             "still to assign /10"),
    ObsField("fight_mods", (part_width(MODS_PARTS),),
             "this fight: Raider's and Defender's bonus /10, their maluses /10, win ties (2), "
             "extra dice to roll /3 (2), extra recalls /3, round after the Defense / Raid roll "
             "(2), dice still to pick /2"),
    ObsField("sel_cell", (S.CELLS,), "one-hot cell being placed or flipped"),
    ObsField("misc", (len(MISC_PARTS),),
             "Devotees played/10, Fate draws left/3, search in progress, turn/max_turns, "
             "rearranging moves made/4, the cell a Tile moves to (cell+1)/16"),
    ObsField("num_players", (S.MAX_P - S.MIN_P + 1,), "one-hot 2, 3, 4 players"),
    ObsField("fatesworn", (len(FS_PARTS),),
             "the fatesworn option, then the active Decrees (R88) /3: Tile cost, Fate card price, "
             "Smite damage, Heal and gold at the start of a turn"),
    ObsField("actions", (part_width(ACT_PARTS),),
             "per seat Prevent points /60, your Fate cost waived, purchase discount/5, "
             "the card awaiting its target (Fate type, then Relic type, one-hot), the seat "
             "choosing a target, a die, a pick, a draw or a returned Relic's pile (one-hot)"),
    ObsField("choice", (part_width(CHOICE_PARTS),),
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
O_RETURN = OBS.start("relic_return")  # the type at RET_TAKE, the source at RET_FROM
O_RETURN_FROM = O_RETURN + RET_FROM
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
EXTRA = S.MAX_P * (3 * C.NF + C.NC)  # encode_state: every seat's groups and hand
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
    if 0 <= ph < S.NUM_PHASES:
        out[O_PHASE + ph] = 1.0
    out[O_TURN + (tp - v + n) % n] = 1.0
    q_def = int(rec["defender"])
    for r in range(n):
        q = (v + r) % n
        o = O_SEATS + r * SEAT_SIZE
        out[o + P_ALIVE] = rec["alive"][q]
        out[o + P_LIFE] = rec["life"][q] / LIFE_SCALE
        out[o + P_GOLD] = _c(rec["gold"][q] / GOLD_SCALE)
        out[o + P_TEMPLE] = _c(count(rec["f_temple"][q]) / GROUP_SCALE)
        out[o + P_PARTY] = _c(count(rec["f_party"][q]) / GROUP_SCALE)
        out[o + P_POOL] = _c(count(rec["f_pool"][q]) / GROUP_SCALE)
        out[o + P_HAND] = _c(count(rec["c_hand"][q]) / GROUP_SCALE)
        out[o + P_STATIONS] = _c(temple_sum(rec, q, C.T_STATIONS) / TEMPLE_SUM_SCALE)
        out[o + P_ALTARS] = _c(temple_sum(rec, q, C.T_ALTARS) / TEMPLE_SUM_SCALE)
        out[o + P_RELICS] = _c(count(rec["r_owned"][q]) / RELICS_SCALE)
        for t in range(C.NF):
            out[O_DISCARD + r * C.NF + t] = _c(rec["f_discard"][q, t] / COUNT_SCALE)
            out[O_OWNED + r * C.NF + t] = _c(
                (rec["f_temple"][q, t] + rec["f_party"][q, t] + rec["f_pool"][q, t])
                / COUNT_SCALE)
        for k in range(C.NR):
            out[O_RELICS + r * C.NR + k] = _c(rec["r_owned"][q, k] / RELIC_COUNT_SCALE)
        for c in range(S.CELLS):
            t = int(rec["grid"][q, c])
            if t < 0:
                continue
            o = O_GRID + (r * S.CELLS + c) * CELL_SIZE
            s = int(rec["side"][q, c])
            out[o + G_PRESENT] = 1.0
            seen = omniscient or q == v or t < 5 or s == 1
            if seen:
                out[o + G_TYPE] = (t + 1) / TILE_TYPE_SCALE
            else:
                out[o + G_HIDDEN] = 1.0
            out[o + G_SIDE] = s
            out[o + G_ROT] = rec["rot"][q, c] / ROT_SCALE
            doors = rotate(C.T_DOORS[t, s], rec["rot"][q, c])
            for d in range(4):
                out[o + G_DOORS + d] = (doors >> d) & 1
            out[o + G_STATIONS] = _c(C.T_STATIONS[t, s] / TILE_STAT_SCALE)
            out[o + G_ALTARS] = _c(C.T_ALTARS[t, s] / TILE_STAT_SCALE)
            out[o + G_BONUS] = _c(C.T_BONUS[t, s] / TILE_STAT_SCALE)
            if q == q_def:
                out[o + G_MARKER] = 1.0 if rec["marker"] == c else 0.0
                out[o + G_CONQUERED] = rec["conquered"][c]
                out[o + G_VISITED] = rec["visited"][c]
    for t in range(C.NF):
        out[O_MINE + GR_TEMPLE * C.NF + t] = _c(rec["f_temple"][v, t] / COUNT_SCALE)
        out[O_MINE + GR_PARTY * C.NF + t] = _c(rec["f_party"][v, t] / COUNT_SCALE)
        out[O_MINE + GR_POOL * C.NF + t] = _c(rec["f_pool"][v, t] / COUNT_SCALE)
    for k in range(C.NC):
        out[O_HAND + k] = _c(rec["c_hand"][v, k] / FATE_COUNT_SCALE)
        out[O_CDISC + k] = _c(rec["c_discard"][k] / FATE_COUNT_SCALE)
    for k in range(S.SPOTS):
        m = rec["f_row_n"][k]
        o = O_FROW + k * F_SPOT_SIZE
        out[o + ROW_SIZE] = _c(m / PILE_SCALE)
        if m > 0:
            out[o + ROW_TOP + int(rec["f_row"][k, m - 1])] = 1.0
        m = rec["r_row_n"][k]
        o = O_RROW + k * R_SPOT_SIZE
        out[o + ROW_SIZE] = _c(m / PILE_SCALE)
        if m > 0:
            out[o + ROW_TOP + int(rec["r_row"][k, m - 1])] = 1.0
    if rec["f_held"] >= 0:
        out[O_HELD + H_FAITHFUL + int(rec["f_held"])] = 1.0
    if rec["r_held"] >= 0:
        out[O_HELD + H_RELIC + int(rec["r_held"])] = 1.0
    if rec["r_take"] >= 0:  # public: the acquisition and the row are face up
        out[O_RETURN + RET_TAKE + int(rec["r_take"])] = 1.0
        out[O_RETURN + RET_FROM + int(rec["r_from"])] = 1.0
    if rec["t_held"] >= 0:
        out[O_HELD + H_TILE] = 1.0
        if omniscient or v == tp:
            out[O_HELD + H_TILE_TYPE] = (rec["t_held"] + 1) / TILE_TYPE_SCALE
    out[O_DECKS + D_FAITHFUL] = rec["f_deck_n"][S.DECK] / S.F_DECK_CAP
    out[O_DECKS + D_RELIC] = rec["r_deck_n"][S.DECK] / S.R_DECK_CAP
    out[O_DECKS + D_TILE] = _c(rec["t_deck_n"][S.DECK] / TILE_DECK_SCALE)
    for f in range(S.FATE_DECKS):
        out[O_DECKS + D_FATE + f] = rec["c_deck_n"][f] / S.FATE_DECK_CAP
    if q_def >= 0:
        out[O_RAID + RD_RAIDER + (tp - v + n) % n] = 1.0
        out[O_RAID + RD_DEFENDER + (q_def - v + n) % n] = 1.0
    out[O_RAID + RD_MOVES] = rec["moves"] / S.MAX_MOVES
    out[O_RAID + RD_PICKED] = _c(rec["picked"] / PICKED_SCALE)
    out[O_RAID + RD_TRAP] = _c(rec["trap_left"] / TRAP_SCALE)
    out[O_RAID + RD_VANDALS] = _c(rec["vandals"] / VANDAL_SCALE)
    for t in range(C.NF):
        out[O_FIGHT + FT_DISPATCHED * C.NF + t] = _c(rec["f_fight"][0, t] / COUNT_SCALE)
        out[O_FIGHT + FT_DEFENDING * C.NF + t] = _c(rec["f_fight"][1, t] / COUNT_SCALE)
        out[O_FIGHT + FT_DEFEATED * C.NF + t] = _c(rec["f_defeated"][t] / COUNT_SCALE)
    for s in range(2):
        for i in range(rec["dice_n"][s]):
            out[O_COMBAT + CB_DICE + s * S.MAX_DICE + i] = rec["dice"][s, i] / DIE_SCALE
        out[O_COMBAT + CB_ROLLS + s] = _c(shown_total(rec, s) / ROLL_SCALE)
    out[O_COMBAT + CB_SMITE] = rec["smite_roll"] / DIE_SCALE
    for s in range(2):
        for i in range(rec["dice_n"][s]):
            if rec["die_to"][s, i] >= 0:
                out[O_COMBAT + CB_ASSIGNED + s * S.MAX_DICE + i] = 1.0
    out[O_COMBAT + CB_ASSIGN_LEFT] = _c(rec["assign_left"] / ASSIGN_SCALE)
    for s in range(2):
        out[O_MODS + M_BONUS + s] = _c(max(0, rec["bonus"][s]) / BONUS_SCALE)
        out[O_MODS + M_MALUS + s] = _c(max(0, -rec["bonus"][s]) / BONUS_SCALE)
        out[O_MODS + M_WIN_TIES + s] = rec["win_ties"][s]
        out[O_MODS + M_EXTRA + s] = _c(rec["extra"][s] / EXTRA_SCALE)
    out[O_MODS + M_RECALL] = _c(rec["recall_more"] / RECALL_SCALE)
    if rec["fin"] == S.FIN_DEFENSE:
        out[O_MODS + M_AFTER_DEFENSE] = 1.0
    elif rec["fin"] == S.FIN_RAID:
        out[O_MODS + M_AFTER_RAID] = 1.0
    out[O_MODS + M_DIE_LEFT] = rec["die_left"] / DIE_LEFT_SCALE
    if rec["sel_cell"] >= 0:
        out[O_SEL + int(rec["sel_cell"])] = 1.0
    out[O_MISC + MI_DEVOTEES] = _c(rec["devotees"] / DEVOTEE_SCALE)
    out[O_MISC + MI_DRAWS] = _c(rec["draws"] / DRAW_SCALE)
    out[O_MISC + MI_SEARCH] = 1.0 if rec["phase"] == Phase.SEARCH else 0.0
    out[O_MISC + MI_PROGRESS] = _c(rec["turn"] / max(1, rec["max_turns"]))
    out[O_MISC + MI_REARRANGED] = rec["rearranged"] / REARRANGE_SCALE
    out[O_MISC + MI_MOVE_TO] = (rec["move_to"] + 1) / MOVE_TO_SCALE
    out[O_NP + n - S.MIN_P] = 1.0
    out[O_FS + FS_OPTION] = rec["fatesworn"]
    out[O_FS + FS_TILE] = _c(decree_sum(rec, E_DECREE_TILE) / DECREE_SCALE)
    out[O_FS + FS_FATE] = _c(decree_sum(rec, E_DECREE_FATE) / DECREE_SCALE)
    out[O_FS + FS_SMITE] = _c(decree_sum(rec, E_DECREE_SMITE) / DECREE_SCALE)
    out[O_FS + FS_HEAL] = _c(decree_sum(rec, E_DECREE_HEAL) / DECREE_SCALE)
    out[O_FS + FS_GOLD] = _c(decree_sum(rec, E_DECREE_GOLD) / DECREE_SCALE)
    for r in range(n):
        out[O_ACT + AC_SHIELD + r] = rec["shield"][(v + r) % n] / S.SHIELD_CAP
    out[O_ACT + AC_WAIVE] = rec["waive"]  # public: the Oracle and Mastery are played face up
    out[O_ACT + AC_DISCOUNT] = _c(rec["discount"] / DISCOUNT_SCALE)
    sp = int(rec["sel_play"])
    if 0 <= sp < C.NC + C.NR:
        out[O_ACT + AC_SEL_PLAY + sp] = 1.0
    if rec["actor"] >= 0:
        out[O_ACT + AC_ACTOR + (int(rec["actor"]) - v + n) % n] = 1.0
    ch = int(rec["ch_card"])
    if 0 <= ch < C.NC + C.NR:
        out[O_CHOICE + CH_CARD + ch] = 1.0
    if 0 <= rec["ch_seat"] < n:
        out[O_CHOICE + CH_SEAT + (int(rec["ch_seat"]) - v + n) % n] = 1.0
    out[O_CHOICE + CH_LEFT] = _c(rec["ch_left"] / PICKS_SCALE)
    for s in range(2):
        out[O_CHOICE + CH_PROTECT + s] = rec["protect"][s]
    encode_stack(rec["stack"], rec["stack_n"], v, n, CODES, SIZES, DEPTH, out, O_STACK)


@njit(cache=True)
def encode_state(rec, out):
    """The full state: seat 0's omniscient view, every seat's face-down groups and hand."""
    encode(rec, 0, 1, out[:OBS_SIZE])
    o = OBS_SIZE
    for p in range(S.MAX_P):
        for t in range(C.NF):
            out[o + GR_TEMPLE] = _c(rec["f_temple"][p, t] / COUNT_SCALE)
            out[o + GR_PARTY] = _c(rec["f_party"][p, t] / COUNT_SCALE)
            out[o + GR_POOL] = _c(rec["f_pool"][p, t] / COUNT_SCALE)
            o += len(GROUP_PARTS)
        for k in range(C.NC):
            out[o] = _c(rec["c_hand"][p, k] / FATE_COUNT_SCALE)
            o += 1


STARTING = C.F_STARTING  # re-exported for the heuristic
