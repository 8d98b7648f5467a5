"""Forgotten City observation (RULES.md section 15, R56).

Everything on the table is public; seats are relative to the viewer (0 = the viewer,
1 = the next seat). Hidden from every seat alike: the order of the monument and white
miracle stacks and which nightmare lies face down where (only their sizes are shown).
"""

from __future__ import annotations

from fatezoo.envs.core.jit import njit
from fatezoo.envs.core.layout import ObsField, ObsLayout, part_starts, part_width

from .state import (
    AREA_SPACES,
    FREE_MARKERS,
    GREY_OUT,
    GREY_SHOWN,
    HELPERS,
    MAX_BOXES,
    MAX_LEVEL,
    MAX_P,
    MAX_TRACK,
    MIN_P,
    MIR_TYPE,
    MON_COLOR,
    NM_ATTACKS,
    NM_HP,
    NUM_COLORS,
    NUM_DECS,
    NUM_HEX,
    NUM_LEVELS,
    NUM_MIR_TYPES,
    NUM_MON,
    NUM_NM,
    NUM_NM_POS,
    NUM_PHASES,
    NUM_PICKS,
    NUM_TERRAINS,
    NUM_WHITE,
    RES_PER_COLOR,
    ROUNDS,
    TRACK_CAP,
    TRACK_SPACES,
    TREE_COST,
    TREE_SPACES,
    WHITE_SHOWN,
    ZONE_SLOTS,
    Dec,
    Phase,
)

MONUMENT_SCALE = NUM_MON  # a monument type is written (type + 1) / MONUMENT_SCALE, 0 for none
# pending: any-resource gains left / ANY_SCALE, penalties left / PENALTY_SCALE, colour given
PENDING_PARTS = (("any", 1), ("penalties", 1), ("give", NUM_COLORS))
P_ANY, P_PENALTY, P_GIVE = part_starts(PENDING_PARTS)
ANY_SCALE, PENALTY_SCALE = 3.0, 6.0
# a track space: in use, coins / TRACK_COIN_SCALE, monument type (one-hot), marker seat
TRACK_PARTS = (("in_use", 1), ("coins", 1), ("monument", NUM_MON), ("marker", MAX_P))
TR_USE, TR_COINS, TR_MON, TR_MARKER = part_starts(TRACK_PARTS)
TRACK_COIN_SCALE = 10.0
# a hex: terrain, monument colour, owner seat, helpers per seat / HELPERS, leader per seat,
# monument type / MONUMENT_SCALE
HEX_PARTS = (("terrain", NUM_TERRAINS), ("mon_colour", NUM_COLORS), ("owner", MAX_P),
             ("helpers", MAX_P), ("leader", MAX_P), ("mon_type", 1))
H_TERR, H_MCOL, H_OWNER, H_HELP, H_LEAD, H_MTYPE = part_starts(HEX_PARTS)
HEX_W = part_width(HEX_PARTS)
# a monument type: on the track, in a seat's zone, picked by a seat, on the map, discarded
MON_PARTS = (("track", 1), ("zone", MAX_P), ("picked", MAX_P), ("map", 1), ("discarded", 1))
M_TRACK, M_ZONE, M_PICK, M_MAP, M_DISC = part_starts(MON_PARTS)
MON_W = part_width(MON_PARTS)
# a seat's monuments: construction zone slots, then picks, each type / MONUMENT_SCALE
SLOT_PARTS = (("zone", ZONE_SLOTS), ("pick", NUM_PICKS))
SL_ZONE, SL_PICK = part_starts(SLOT_PARTS)
SLOT_W = part_width(SLOT_PARTS)
# a seat: VP / VP_SCALE, coins / COIN_SCALE, resources / RES_PER_COLOR, inspiration and
# defense / TRACK_CAP, production levels / MAX_LEVEL, helpers placed and rested / HELPERS,
# free markers / FREE_MARKERS, monument area left / AREA_SPACES, nightmare cards /
# NUM_NM_POS, miracles / TREE_SPACES, next tree cost / the last, white miracles / TREE_SPACES
SEAT_PARTS = (("vp", 1), ("coins", 1), ("res", NUM_COLORS), ("insp", 1), ("def", 1),
              ("level", NUM_LEVELS), ("placed", 1), ("rest", 1), ("free", 1), ("area", 1),
              ("nm_cards", 1), ("miracles", 1), ("next_cost", 1), ("white", 1))
(S_VP, S_COINS, S_RES, S_INSP, S_DEF, S_LEVEL, S_PLACED, S_REST, S_FREE, S_AREA, S_NMC,
 S_MIRN, S_NEXT, S_WHITE) = part_starts(SEAT_PARTS)
SEAT_W = part_width(SEAT_PARTS)
VP_SCALE, COIN_SCALE = 100.0, 30.0
MIRACLE_SCALE = 3.0  # miracle tiles owned per type are divided by this
# a nightmare position: revealed, defeated, type (one-hot), attacks, hit points left /
# MAX_BOXES, markers per seat / MAX_BOXES, card holder seat
NM_PARTS = (("shown", 1), ("dead", 1), ("type", NUM_NM), ("attacks", NUM_COLORS), ("hp", 1),
            ("markers", MAX_P), ("holder", MAX_P))
N_SHOWN, N_DEAD, N_TYPE, N_ATK, N_HP, N_MARK, N_HOLD = part_starts(NM_PARTS)
NM_W = part_width(NM_PARTS)
# the fighter's view of a nightmare position: attacking them, strength paid / TRACK_CAP
FIGHT_PARTS = ("attacking", "paid")
FI_ATTACKING, FI_PAID = range(len(FIGHT_PARTS))
# stack sizes: monuments / NUM_MON, white miracles / NUM_WHITE, face-down nightmares / NUM_NM
STACK_PARTS = ("monuments", "white", "nightmares")
ST_MON, ST_WHITE, ST_NM = range(len(STACK_PARTS))

OBS = ObsLayout((
    ObsField("phase", (NUM_PHASES,), "one-hot phase (pick, settle, action, buy, fight, "
                                     "leader, over)"),
    ObsField("decision", (NUM_DECS,), "one-hot decision kind of the player to act"),
    ObsField("round", (ROUNDS,), "one-hot round"),
    ObsField("num_players", (MAX_P - MIN_P + 1,), "one-hot 2, 3, 4 players"),
    ObsField("to_act", (MAX_P,), "one-hot relative seat of the player to act"),
    ObsField("pending", (part_width(PENDING_PARTS),),
             "any-resource gains left / 3, penalties left / 6, "
             "colour given in an exchange (one-hot)"),
    ObsField("order", (MAX_P, MAX_P), "per relative seat: its place in track order (one-hot)"),
    ObsField("track", (MAX_TRACK, part_width(TRACK_PARTS)),
             "per track space: in use, coins / 10, monument type (one-hot), marker seat"),
    ObsField("hexes", (NUM_HEX, HEX_W),
             "per space: terrain P R B Y stone portal central, monument colour, owner seat, "
             "helpers per seat / 4, leader per seat, monument type / 28"),
    ObsField("monuments", (NUM_MON, MON_W),
             "per monument type: on the track, in a seat's zone, picked by a seat, on the "
             "map, discarded"),
    ObsField("slots", (MAX_P, SLOT_W),
             "per seat: construction zone slot 0, slot 1, first pick, "
             "second pick: (monument type + 1) / 28, 0 if empty"),
    ObsField("seats", (MAX_P, SEAT_W),
             "per seat: VP / 100, coins / 30, resources (4) / 20, inspiration / 15, "
             "defense / 15, production levels (3) / 4, helpers placed, rested / 4, free "
             "markers / 12, monument area left / 6, nightmare cards / 6, miracles / 8, next "
             "tree cost / 9, white miracles / 8"),
    ObsField("miracles", (MAX_P, NUM_MIR_TYPES), "miracle tiles owned per seat by type / 3"),
    ObsField("white_display", (WHITE_SHOWN, NUM_MIR_TYPES), "white display slots by type"),
    ObsField("grey_display", (GREY_SHOWN, NUM_MIR_TYPES), "grey display slots by type"),
    ObsField("grey_out", (NUM_MIR_TYPES,), "grey tiles out of the game (public by elimination)"),
    ObsField("nightmares", (NUM_NM_POS, NM_W),
             "per board position: revealed, defeated, type (one-hot, once revealed), "
             "attacks (4), hit points left / 14, markers per seat / 14, card holder seat"),
    ObsField("fight", (NUM_NM_POS, len(FIGHT_PARTS)),
             "for the fighting player: attacking them, strength "
             "paid to it this phase / 15"),
    ObsField("supply", (NUM_COLORS,), "resources left in the supply / 20"),
    ObsField("stacks", (len(STACK_PARTS),),
             "monument stack / 28, white stack / 19, face-down nightmares / 7"),
))
OBS_SIZE = OBS.size
O_PHASE = OBS.start("phase")
O_DEC = OBS.start("decision")
O_ROUND = OBS.start("round")
O_NP = OBS.start("num_players")
O_ACT = OBS.start("to_act")
O_PEND = OBS.start("pending")
O_ORDER = OBS.start("order")
ORDER_S = OBS.strides("order")[0]
O_TRACK = OBS.start("track")
TRACK_S = OBS.strides("track")[0]
O_HEX = OBS.start("hexes")
HEX_S = OBS.strides("hexes")[0]
O_MON = OBS.start("monuments")
MON_S = OBS.strides("monuments")[0]
O_SLOTS = OBS.start("slots")
SLOTS_S = OBS.strides("slots")[0]
O_SEATS = OBS.start("seats")
SEAT_S = OBS.strides("seats")[0]
O_MIR = OBS.start("miracles")
MIR_S = OBS.strides("miracles")[0]
O_WDISP = OBS.start("white_display")
WDISP_S = OBS.strides("white_display")[0]
O_GDISP = OBS.start("grey_display")
GDISP_S = OBS.strides("grey_display")[0]
O_GOUT = OBS.start("grey_out")
O_NM = OBS.start("nightmares")
NM_S = OBS.strides("nightmares")[0]
O_FIGHT = OBS.start("fight")
FIGHT_S = OBS.strides("fight")[0]
O_SUPPLY = OBS.start("supply")
O_STACKS = OBS.start("stacks")
STATE_EXTRA = NUM_MON + NUM_WHITE + NUM_NM_POS + 1  # stack orders and face-down nightmares
STATE_SIZE = OBS_SIZE + STATE_EXTRA


@njit(cache=True)
def rel(q, viewer, n):
    """Seat ``q`` relative to ``viewer`` (0 = the viewer), without a division."""
    r = int(q) - viewer
    return r + n if r < 0 else r


@njit(cache=True)
def encode(rec, viewer, omniscient, out):
    """Write ``viewer``'s observation into ``out`` (face-down nightmares too if ``omniscient``).

    Speed (``fatezoo bench``): each record field is fetched once into a local view (a field
    read inside a loop costs a view per iteration). In the batched core this kernel waits on
    memory (it writes 11 KB per row while 1,024 rows stream through the caches), and there a
    mispredicted branch costs more than its work: it throws away the stores in flight. So
    an unpredictable test over many items becomes a select (the discarded monuments: 7%
    faster on 1,024 rows), while a cheap predictable one stays; dividing only non-zero
    counts, a table of the divisions, or a branch-free map loop (adding 0.0 to a shared
    slot) were each measured slower there (RULES.md section 19, Speed).
    """
    for i in range(OBS_SIZE):
        out[i] = 0.0
    viewer = int(viewer)
    n = int(rec["num_players"])
    out[O_PHASE + int(rec["phase"])] = 1.0
    out[O_DEC + int(rec["dec"])] = 1.0
    out[O_ROUND + int(rec["round"])] = 1.0
    out[O_NP + n - MIN_P] = 1.0
    if rec["phase"] != Phase.OVER:
        out[O_ACT + rel(rec["current_player"], viewer, n)] = 1.0
    out[O_PEND + P_ANY] = min(1.0, rec["pending_any"] / ANY_SCALE)
    out[O_PEND + P_PENALTY] = min(1.0, rec["penalty_left"] / PENALTY_SCALE)
    if rec["exch_give"] >= 0:
        out[O_PEND + P_GIVE + int(rec["exch_give"])] = 1.0
    # track and order
    track_mon = rec["track_mon"]
    track_coins = rec["track_coins"]
    track_marker = rec["track_marker"]
    spaces = TRACK_SPACES[n]
    k = 0
    for s in range(MAX_TRACK):
        o = O_TRACK + s * TRACK_S
        if s < spaces:
            out[o + TR_USE] = 1.0
        m = int(track_mon[s])
        if m >= 0:
            out[o + TR_COINS] = min(1.0, track_coins[s] / TRACK_COIN_SCALE)
            out[o + TR_MON + m] = 1.0
            out[O_MON + m * MON_S + M_TRACK] = 1.0
        q = int(track_marker[s])
        if q >= 0:
            r = rel(q, viewer, n)
            out[o + TR_MARKER + r] = 1.0
            out[O_ORDER + r * ORDER_S + k] = 1.0
            k += 1
    # map: every row written whole (terrain, monument, then helpers and leaders below)
    terrain = rec["terrain"]
    mon_at = rec["mon_at"]
    mon_owner = rec["mon_owner"]
    for h in range(NUM_HEX):
        o = O_HEX + h * HEX_S
        out[o + H_TERR + int(terrain[h])] = 1.0
        m = int(mon_at[h])
        if m >= 0:
            out[o + H_MCOL + MON_COLOR[m]] = 1.0
            out[o + H_OWNER + rel(mon_owner[m], viewer, n)] = 1.0
            out[o + H_MTYPE] = (m + 1) / MONUMENT_SCALE
            out[O_MON + m * MON_S + M_MAP] = 1.0
    leader = rec["leader"]
    nplaced = rec["nplaced"]
    placed = rec["placed"]
    zone = rec["zone"]
    picks = rec["picks"]
    for q in range(n):
        r = rel(q, viewer, n)
        out[O_HEX + int(leader[q]) * HEX_S + H_LEAD + r] = 1.0
        for i in range(nplaced[q]):
            out[O_HEX + int(placed[q, i]) * HEX_S + H_HELP + r] += 1.0 / HELPERS
        for j in range(ZONE_SLOTS):
            m = int(zone[q, j])
            if m >= 0:
                out[O_MON + m * MON_S + M_ZONE + r] = 1.0
                out[O_SLOTS + r * SLOTS_S + SL_ZONE + j] = (m + 1) / MONUMENT_SCALE
        for j in range(NUM_PICKS):
            m = int(picks[q, j])
            if m >= 0:
                out[O_MON + m * MON_S + M_PICK + r] = 1.0
                out[O_SLOTS + r * SLOTS_S + SL_PICK + j] = (m + 1) / MONUMENT_SCALE
    mdiscard = rec["mdiscard"]
    for m in range(NUM_MON):  # branch-free (a select): see the docstring
        out[O_MON + m * MON_S + M_DISC] = 1.0 if mdiscard[m] != 0 else 0.0
    # seats
    vp = rec["vp"]
    coins = rec["coins"]
    res = rec["res"]
    insp = rec["insp"]
    defense = rec["defense"]
    level = rec["level"]
    nrest = rec["nrest"]
    free = rec["free"]
    area_left = rec["area_left"]
    tree_n = rec["tree_n"]
    tree = rec["tree"]
    killer = rec["killer"]
    for q in range(n):
        r = rel(q, viewer, n)
        o = O_SEATS + r * SEAT_S
        out[o + S_VP] = min(1.0, vp[q] / VP_SCALE)
        out[o + S_COINS] = min(1.0, coins[q] / COIN_SCALE)
        for c in range(NUM_COLORS):
            out[o + S_RES + c] = res[q, c] / RES_PER_COLOR
        out[o + S_INSP] = insp[q] / TRACK_CAP
        out[o + S_DEF] = defense[q] / TRACK_CAP
        for j in range(NUM_LEVELS):
            out[o + S_LEVEL + j] = level[q, j] / MAX_LEVEL
        out[o + S_PLACED] = nplaced[q] / HELPERS
        out[o + S_REST] = nrest[q] / HELPERS
        out[o + S_FREE] = free[q] / FREE_MARKERS
        out[o + S_AREA] = area_left[q] / AREA_SPACES
        tn = int(tree_n[q])
        out[o + S_MIRN] = tn / TREE_SPACES
        if tn < TREE_SPACES:
            out[o + S_NEXT] = TREE_COST[tn] / TREE_COST[TREE_SPACES - 1]
        white = 0
        for i in range(tn):
            mid = int(tree[q, i])
            white += mid < NUM_WHITE
            out[O_MIR + r * MIR_S + MIR_TYPE[mid]] += 1.0  # counts first: float32 sums of
        if tn > 0:                                         # thirds round differently in numpy
            for t in range(NUM_MIR_TYPES):
                out[O_MIR + r * MIR_S + t] /= MIRACLE_SCALE
        out[o + S_WHITE] = white / TREE_SPACES
        held = 0
        for k in range(NUM_NM_POS):
            held += killer[k] == q
        out[o + S_NMC] = held / NUM_NM_POS
    # displays
    wshow = rec["wshow"]
    gshow = rec["gshow"]
    gout = rec["gout"]
    for s in range(WHITE_SHOWN):
        if wshow[s] >= 0:
            out[O_WDISP + s * WDISP_S + MIR_TYPE[wshow[s]]] = 1.0
    for s in range(GREY_SHOWN):
        if gshow[s] >= 0:
            out[O_GDISP + s * GDISP_S + MIR_TYPE[gshow[s]]] = 1.0
    for s in range(GREY_OUT):
        out[O_GOUT + MIR_TYPE[gout[s]]] = 1.0
    # nightmares
    fighter = rec["dec"] == Dec.FIGHT or rec["dec"] == Dec.PENALTY
    nm_at = rec["nm_at"]
    nm_shown = rec["nm_shown"]
    hits = rec["hits"]
    boxes = rec["boxes"]
    atk = rec["atk"]
    dealt = rec["dealt"]
    for k in range(NUM_NM_POS):
        o = O_NM + k * NM_S
        t = int(nm_at[k])
        shown = k < nm_shown
        if shown:
            out[o + N_SHOWN] = 1.0
        if shown or omniscient:
            out[o + N_TYPE + t] = 1.0
        if shown:
            for c in range(NUM_COLORS):
                out[o + N_ATK + c] = NM_ATTACKS[t, c]
            out[o + N_HP] = (NM_HP[t, n] - hits[k]) / MAX_BOXES
        if hits[k] > 0:
            for b in range(hits[k]):
                out[o + N_MARK + rel(boxes[k, b], viewer, n)] += 1.0
            for r in range(MAX_P):
                out[o + N_MARK + r] /= MAX_BOXES
        if killer[k] >= 0:
            out[o + N_DEAD] = 1.0
            out[o + N_HOLD + rel(killer[k], viewer, n)] = 1.0
        if fighter:
            out[O_FIGHT + k * FIGHT_S + FI_ATTACKING] = atk[k]
            out[O_FIGHT + k * FIGHT_S + FI_PAID] = min(1.0, dealt[k] / TRACK_CAP)
    supply = rec["supply"]
    for c in range(NUM_COLORS):
        out[O_SUPPLY + c] = supply[c] / RES_PER_COLOR
    out[O_STACKS + ST_MON] = rec["mstack_n"] / NUM_MON
    out[O_STACKS + ST_WHITE] = rec["wstack_n"] / NUM_WHITE
    out[O_STACKS + ST_NM] = (NUM_NM - rec["nm_shown"]) / NUM_NM


@njit(cache=True)
def encode_state(rec, out):
    """The full state: seat 0's view with face-down nightmares shown, plus the stacks.

    Monument stack bottom to top, white stack, face-down nightmares and the one out.
    """
    encode(rec, 0, 1, out[:OBS_SIZE])
    for i in range(STATE_EXTRA):
        out[OBS_SIZE + i] = 0.0
    o = OBS_SIZE
    for i in range(rec["mstack_n"]):
        out[o + i] = (rec["mstack"][i] + 1) / NUM_MON
    o += NUM_MON
    for i in range(rec["wstack_n"]):
        out[o + i] = (rec["wstack"][i] + 1) / NUM_WHITE
    o += NUM_WHITE
    for k in range(NUM_NM_POS):
        if k >= rec["nm_shown"]:
            out[o + k] = (rec["nm_at"][k] + 1) / NUM_NM
    out[o + NUM_NM_POS] = (rec["nm_out"] + 1) / NUM_NM

