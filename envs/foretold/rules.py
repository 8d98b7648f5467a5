"""Foretold rules (RULES.md) as numba kernels over one record.

Control flow: each kernel resolves as far as it can and leaves ``rec["phase"]`` at the
next decision; ``apply_action`` then sets ``current_player`` from the phase. No kernel
calls back up the chain (numba needs an acyclic call graph): the end of a turn is the
last step of Reinforce or of an elimination of the turn player, and starts the next.
"""

from __future__ import annotations

import numpy as np

from fatezoo.envs.core.decisions import in_block
from fatezoo.envs.core.dice import roll
from fatezoo.envs.core.jit import njit
from fatezoo.envs.core.kernels import split_rewards
from fatezoo.envs.core.rng import next_u32, randint, shuffle
from fatezoo.envs.core.stack import KIND, OWNER, asked_seat, next_responder, stack_pop, stack_push
from fatezoo.envs.core.state import REWARD_SCORE

from .cards import (
    ACOLYTE,
    C_A,
    C_B,
    C_BASE,
    C_COPIES,
    C_COST,
    C_EFFECT,
    C_FATE,
    C_TIMING,
    DEVOTEE,
    EFFECT,
    ENTRANCE,
    F_A,
    F_B,
    F_BASE,
    F_COPIES,
    F_COST,
    F_DEFEND,
    F_DICE,
    F_EFFECT,
    F_FATE,
    F_GOLD,
    F_RAID,
    F_STARTING,
    F_SYMBOL,
    F_WHEN,
    GUARD,
    HEART,
    HIGH_PRIEST,
    NC,
    NF,
    NR,
    NT,
    R_A,
    R_B,
    R_BASE,
    R_COPIES,
    R_COST,
    R_EFFECT,
    R_FATE,
    R_IS_FATE,
    R_OF_FATES,
    R_SACRIFICE,
    R_SLOT,
    R_SYMBOL,
    R_TIMING,
    R_USE_DEVOTEE,
    R_WHEN,
    T_A,
    T_ALTARS,
    T_BONUS,
    T_COPIES,
    T_DOORS,
    T_EFFECT,
    T_FLIP,
    T_KIND,
    T_STATIONS,
    T_WHEN,
    TIMINGS,
    TREASURY,
    WHEN,
)
from .state import (
    ABILITY,
    BUY_FAITHFUL,
    BUY_RELIC,
    BUY_TILE,
    CELL,
    CELLS,
    COMBAT_DIE,
    DIRECTION,
    DISCOUNT_CAP,
    ENTRANCE_CELL,
    F_COUNTERED,
    F_SACRIFICED,
    FATE_DECK,
    FATE_DECKS,
    FATE_PRICE,
    FLIP,
    GOLD_CAP,
    K_ABILITY,
    K_FATE,
    K_FLIP,
    K_GOLD,
    K_ONSMITE,
    K_RELIC,
    K_ROLL,
    K_SMITE,
    K_TRAP,
    MAX_DICE,
    MAX_LIFE,
    MAX_MOVES,
    MAX_P,
    MOVE_FROM,
    PASS,
    PICK_DIE_A,
    PICK_FAITHFUL,
    PICK_RELIC,
    PLAY_FATE,
    PLAY_GOLD,
    R_FROM_DECK,
    REARRANGE_CAP,
    RETREAT,
    ROTATION,
    S_CARD,
    S_FLAGS,
    S_TARGET,
    SHIELD_CAP,
    SMITING_DIE,
    SPOT,
    SPOTS,
    STACK_CAP,
    START_CELL,
    TARGET_SEAT,
    TILE_PRICE,
    USE_RELIC,
    Phase,
)

# ---- effect tables as plain int arrays (numba reads module globals as constants)
E = EFFECT
W_GOLD, W_FIGHT, W_ON_SMITE, W_SMITE, W_PASSIVE, W_FLIP, W_SPRING = (
    WHEN.index(x) for x in ("gold", "fight", "on_smite", "smite", "passive", "flip", "spring"))
E_DEVOTEE_GOLD, E_DRAW_FATE, E_HEAL, E_MARKET_CYCLE = (
    E["DEVOTEE_GOLD"], E["DRAW_FATE"], E["HEAL"], E["MARKET_CYCLE"])
E_SMASH, E_STEAL, E_DAMAGE = E["SMASH_RELIC"], E["STEAL_GOLD"], E["DAMAGE"]
E_TRAP_DISCARD, E_TRAP_DAMAGE, E_TRAP_END = E["TRAP_DISCARD"], E["TRAP_DAMAGE"], E["TRAP_END_RAID"]
E_SEARCH = E["SEARCH_RELIC"]
E_DECREE_TILE, E_DECREE_FATE, E_DECREE_SMITE, E_DECREE_HEAL, E_DECREE_GOLD = (
    E["DECREE_TILE_COST"], E["DECREE_FATE_PRICE"], E["DECREE_SMITE"], E["DECREE_HEAL"],
    E["DECREE_GOLD"])
W_DECREE = WHEN.index("decree")
E_GAIN_GOLD, E_DISCOUNT, E_GOLD_ALIGNED, E_HEAL_FULL, E_PREVENT, E_DAMAGE_ALL = (
    E["GAIN_GOLD"], E["DISCOUNT"], E["GOLD_PER_ALIGNED"], E["HEAL_FULL"], E["PREVENT"],
    E["DAMAGE_ALL"])
E_WAIVE, E_COST_REDUCE, E_COUNTER = E["WAIVE_COST"], E["COST_REDUCE"], E["COUNTER"]
TM_ANY, TM_OWN, TM_STACK = (TIMINGS.index(x) for x in ("any", "own_turn", "stack"))
TM_FIGHT, TM_DICE = TIMINGS.index("fight"), TIMINGS.index("dice")
E_COMBAT_BONUS, E_COMBAT_MALUS, E_ADD_DIE, E_WIN_TIES, E_RECALL_EXTRA, E_PAY_BONUS = (
    E["COMBAT_BONUS"], E["COMBAT_MALUS"], E["ADD_DIE"], E["WIN_TIES"], E["RECALL_EXTRA"],
    E["PAY_BONUS"])
E_REROLL, E_SET_DIE = E["REROLL_DIE"], E["SET_DIE"]
E_FREE_BUY, E_BUY_ANY, E_PROTECT = E["FREE_BUY"], E["BUY_ANY"], E["PROTECT_PARTY"]
E_REMOVE, E_PAY_REMOVE, E_SACRIFICE, E_CONVERT = (
    E["REMOVE_COMBATANT"], E["PAY_REMOVE"], E["SACRIFICE_COMBATANT"], E["CONVERT"])
W_USE = WHEN.index("use")
# R43: discarding a Faithful for its ability: Captain from the Raiding Party as the Raider,
# Hoplite from the Temple as the Defender, each +a to its side's Combat Roll in this fight
F_DISCARD_RAID = np.where((F_WHEN == WHEN.index("discard_raid")) & (F_EFFECT == E["COMBAT_BONUS"]),
                          F_A, 0).astype(np.int64)
F_DISCARD_DEFEND = np.where(
    (F_WHEN == WHEN.index("discard_defend")) & (F_EFFECT == E["COMBAT_BONUS"]), F_A, 0
).astype(np.int64)
# effects a played Fate card or used Relic resolves (R63-R80, R53, section 13)
PLAYABLE = np.zeros(len(EFFECT), np.int64)
for _e in ("GAIN_GOLD", "DISCOUNT", "GOLD_PER_ALIGNED", "DRAW_FATE", "HEAL", "HEAL_FULL",
           "PREVENT", "DAMAGE", "DAMAGE_ALL", "WAIVE_COST", "MARKET_CYCLE", "COUNTER",
           "COMBAT_BONUS", "COMBAT_MALUS", "ADD_DIE", "WIN_TIES", "RECALL_EXTRA", "PAY_BONUS",
           "REROLL_DIE", "SET_DIE", "SMASH_RELIC", "STEAL_GOLD", "FREE_BUY", "BUY_ANY",
           "REMOVE_COMBATANT", "PAY_REMOVE", "SACRIFICE_COMBATANT", "CONVERT", "PROTECT_PARTY"):
    PLAYABLE[E[_e]] = 1
C_PLAYABLE = np.array([PLAYABLE[C_EFFECT[k]] and C_TIMING[k] != TIMINGS.index("none")
                       for k in range(NC)], np.int64)
R_USABLE = np.array([R_WHEN[r] == W_USE and PLAYABLE[R_EFFECT[r]] and
                     R_TIMING[r] in (TM_ANY, TM_OWN, TM_FIGHT, TM_DICE) for r in range(NR)],
                    np.int64)
RECALL_CAP = 10
# R70 Reading: the cheapest flip of a deck Tile (its type is hidden from the opponents)
MIN_DECK_FLIP = int(min(int(T_FLIP[t]) for t in range(5, NT) if T_FLIP[t] > 0))
# R87: the Fatesworn-symbol Fate card types (fate "all", one copy per Fate Deck): C_SYM[k] is
# the bit of type k in c_sym (which deck's copy a seat holds), -1 for every other type
C_SYM = np.full(NC, -1, np.int64)
_j = 0
for _k in range(NC):
    if C_FATE[_k] == 4:
        C_SYM[_k] = _j
        _j += 1


def _passive(when, effect, a, name, on=W_PASSIVE):
    return np.where((when == on) & (effect == E[name]), a, 0).astype(np.int64)


R_RAID_BONUS = _passive(R_WHEN, R_EFFECT, R_A, "RAID_BONUS") + _passive(
    R_WHEN, R_EFFECT, R_A, "FIGHT_BONUS")
R_DEFENSE_BONUS = _passive(R_WHEN, R_EFFECT, R_A, "DEFENSE_BONUS") + _passive(
    R_WHEN, R_EFFECT, R_A, "FIGHT_BONUS")
R_TURN_GOLD = _passive(R_WHEN, R_EFFECT, R_A, "TURN_GOLD")
R_SMITE_REDUCE = _passive(R_WHEN, R_EFFECT, R_A, "SMITE_REDUCE")
R_COST_REDUCE = _passive(R_WHEN, R_EFFECT, R_A, "COST_REDUCE")
T_RAID_BONUS = _passive(T_WHEN, T_EFFECT, T_A, "RAID_BONUS")  # B-side rooms
T_TURN_GOLD = _passive(T_WHEN, T_EFFECT, T_A, "TURN_GOLD")
T_TURN_HEAL = _passive(T_WHEN, T_EFFECT, T_A, "TURN_HEAL")
F_SMITE_BONUS = _passive(F_WHEN, F_EFFECT, F_A, "SMITE_BONUS", W_SMITE)
F_ALLY = _passive(F_WHEN, F_EFFECT, F_A, "ALLY_BONUS", W_FIGHT)
F_LOW_DIE = _passive(F_WHEN, F_EFFECT, F_A, "LOW_DIE_BONUS", W_FIGHT)
F_LOW_FACE = np.where(F_LOW_DIE > 0, F_B, 0).astype(np.int64)
F_STEAL_ON_SMITE = _passive(F_WHEN, F_EFFECT, F_A, "STEAL_GOLD", W_ON_SMITE)
F_SMASH_ON_SMITE = np.where((F_WHEN == W_ON_SMITE) & (F_EFFECT == E_SMASH), 1, 0).astype(
    np.int64)
STEP_ROW = np.array([-1, 0, 1, 0], np.int64)  # N E S W
STEP_COL = np.array([0, 1, 0, -1], np.int64)

# ---------------------------------------------------------------- small helpers


@njit(cache=True)
def rotate(bits, r):
    """Doorway bits turned ``r`` quarter turns clockwise (N -> E -> S -> W)."""
    r = r % 4
    return ((bits << r) | (bits >> (4 - r))) & 15


@njit(cache=True)
def tile_doors(rec, p, c):
    """Current doorway bits of the Tile in cell ``c`` of seat ``p`` (0 if empty)."""
    t = int(rec["grid"][p, c])
    if t < 0:
        return 0
    return rotate(T_DOORS[t, rec["side"][p, c]], rec["rot"][p, c])


@njit(cache=True)
def neighbour(c, d):
    """The cell next to ``c`` in direction ``d`` (0 N, 1 E, 2 S, 3 W), -1 off the grid."""
    r = c // 4 + STEP_ROW[d]
    k = c % 4 + STEP_COL[d]
    if r < 0 or r > 3 or k < 0 or k > 3:
        return -1
    return 4 * r + k


@njit(cache=True)
def door_steps(doors, goal):
    """Marker moves from each cell to ``goal`` through doorway pairs (R56); 99: no way.

    ``doors``: each cell's current doorway bits (0: no Tile). Breadth-first.
    """
    dist = np.full(CELLS, 99, np.int64)
    queue = np.zeros(CELLS, np.int64)
    dist[goal] = 0
    queue[0] = goal
    head, tail = 0, 1
    while head < tail:
        c = queue[head]
        head += 1
        for d in range(4):
            o = neighbour(c, d)
            if o >= 0 and dist[o] == 99 and (doors[c] >> d) & 1 \
                    and (doors[o] >> ((d + 2) % 4)) & 1:
                dist[o] = dist[c] + 1
                queue[tail] = o
                tail += 1
    return dist


@njit(cache=True)
def heart_depth(rec, p):
    """Marker moves from seat ``p``'s Entrance to its Heart (R56): the Tiles a Raid crosses."""
    doors = np.zeros(CELLS, np.int64)
    heart = -1
    for c in range(CELLS):
        doors[c] = tile_doors(rec, p, c)
        if rec["grid"][p, c] == HEART:
            heart = c
    if heart < 0:
        return 0
    return door_steps(doors, heart)[ENTRANCE_CELL]


@njit(cache=True)
def legal_doors(occ, doors):
    """R27 on per-cell occupancy and doorway bits.

    Matching doorways, nothing north of the Entrance, every Tile reached from the
    Entrance (the cell where ``occ == 2``).
    """
    ent = -1
    for c in range(CELLS):
        if occ[c] == 2:
            ent = c
    if ent < 0:
        return False
    up = neighbour(ent, 0)
    if up >= 0 and occ[up]:
        return False
    for c in range(CELLS):
        if not occ[c]:
            continue
        for d in range(4):
            o = neighbour(c, d)
            if o >= 0 and occ[o]:
                mine = (doors[c] >> d) & 1
                theirs = (doors[o] >> ((d + 2) % 4)) & 1
                if mine != theirs:
                    return False
    seen = np.zeros(CELLS, np.int8)
    todo = np.zeros(CELLS, np.int64)
    top = 0
    todo[top] = ent
    top += 1
    seen[ent] = 1
    while top > 0:
        top -= 1
        c = todo[top]
        for d in range(4):
            if (doors[c] >> d) & 1:
                o = neighbour(c, d)
                if o >= 0 and occ[o] and not seen[o]:
                    seen[o] = 1
                    todo[top] = o
                    top += 1
    for c in range(CELLS):
        if occ[c] and not seen[c]:
            return False
    return True


@njit(cache=True)
def legal_with(rec, p, cell, t, side, r):
    """Whether seat ``p``'s Temple is legal with Tile type ``t`` (side, rotation) in ``cell``."""
    occ = np.zeros(CELLS, np.int8)
    doors = np.zeros(CELLS, np.int64)
    for c in range(CELLS):
        g = int(rec["grid"][p, c])
        if c == cell:
            g = t
        if g >= 0:
            occ[c] = 2 if g == ENTRANCE else 1
            if c == cell:
                doors[c] = rotate(T_DOORS[t, side], r)
            else:
                doors[c] = tile_doors(rec, p, c)
    return legal_doors(occ, doors)


@njit(cache=True)
def move_ok(rec, p, c, d, r, occ, doors):
    """R24: seat ``p``'s Temple stays legal after a rearranging move.

    The Tile in ``c`` moves to ``d`` at rotation ``r`` (a swap when ``d`` holds a Tile:
    that one moves to ``c`` unturned).
    The Entrance never moves nor turns (its north doorway faces the grid's edge); a move
    that leaves every doorway where it was is not one. ``occ`` and ``doors`` are scratch
    arrays of ``CELLS`` (no allocation per check).
    """
    t = int(rec["grid"][p, c])
    u = int(rec["grid"][p, d])
    if t < 0 or t == ENTRANCE or u == ENTRANCE:
        return False
    mine = rotate(T_DOORS[t, rec["side"][p, c]], r)
    if d == c and mine == tile_doors(rec, p, c):
        return False
    for k in range(CELLS):
        g = int(rec["grid"][p, k])
        occ[k] = 0 if g < 0 else (2 if g == ENTRANCE else 1)
        doors[k] = tile_doors(rec, p, k)
    if d != c:
        occ[c] = 0 if u < 0 else 1
        doors[c] = tile_doors(rec, p, d)
    occ[d] = 1
    doors[d] = mine
    return legal_doors(occ, doors)


@njit(cache=True)
def can_move(rec, p, c, occ, doors):
    """R24: the Tile in ``c`` has a legal rearranging move."""
    if rec["grid"][p, c] < 0 or rec["grid"][p, c] == ENTRANCE:
        return False
    for d in range(CELLS):
        for r in range(4):
            if move_ok(rec, p, c, d, r, occ, doors):
                return True
    return False


@njit(cache=True)
def move_tile(rec, p, c, d, r):
    """R24: the Tile in ``c`` moves to ``d`` at rotation ``r``; a Tile in ``d`` goes to ``c``."""
    t, s = rec["grid"][p, c], rec["side"][p, c]
    rec["grid"][p, c] = rec["grid"][p, d]
    rec["side"][p, c] = rec["side"][p, d]
    rec["rot"][p, c] = rec["rot"][p, d]
    if rec["grid"][p, c] < 0:
        rec["side"][p, c] = 0
        rec["rot"][p, c] = 0
    rec["grid"][p, d] = t
    rec["side"][p, d] = s
    rec["rot"][p, d] = r


@njit(cache=True)
def temple_sum(rec, p, table):
    """Sum of ``table[type, side]`` over seat ``p``'s Tiles (Stations, Altars...)."""
    s = 0
    for c in range(CELLS):
        t = int(rec["grid"][p, c])
        if t >= 0:
            s += table[t, rec["side"][p, c]]
    return s


@njit(cache=True)
def b_side_sum(rec, p, table):
    """Sum of a passive B-side Tile ability ``table[type]`` over seat ``p``'s flipped Tiles."""
    s = 0
    for c in range(CELLS):
        t = int(rec["grid"][p, c])
        if t >= 0 and rec["side"][p, c] == 1:
            s += table[t]
    return s


@njit(cache=True)
def relic_sum(rec, p, table):
    s = 0
    for r in range(NR):
        s += rec["r_owned"][p, r] * table[r]
    return s


@njit(cache=True)
def count(row):
    s = 0
    for i in range(row.shape[0]):
        s += row[i]
    return s


@njit(cache=True)
def add_gold(rec, p, x):
    rec["gold"][p] = min(GOLD_CAP, max(0, rec["gold"][p] + x))


@njit(cache=True)
def heal(rec, p, x):
    """Heal ``x``, never above 20 (R80)."""
    if rec["alive"][p]:
        rec["life"][p] = min(MAX_LIFE, rec["life"][p] + x)


@njit(cache=True)
def push_bottom(arr, n, x):
    """Put ``x`` under a stack of ``n`` cards (index 0 = bottom); returns the new size."""
    for i in range(n, 0, -1):
        arr[i] = arr[i - 1]
    arr[0] = x
    return n + 1


@njit(cache=True)
def take_at(arr, n, i):
    """Remove entry ``i`` of a stack of ``n``; returns it."""
    x = arr[i]
    for j in range(i, n - 1):
        arr[j] = arr[j + 1]
    arr[n - 1] = -1
    return x


@njit(cache=True)
def lowest_empty(counts):
    for k in range(SPOTS):
        if counts[k] == 0:
            return k
    return -1


# ---------------------------------------------------------------- setup


@njit(cache=True)
def reset_game(rec):
    """R1-R9: Temples, Life, starting Faithful, the Marketplace, shuffled decks, first player."""
    n = int(rec["num_players"])
    rng = rec["rng"]
    for p in range(MAX_P):
        live = p < n
        rec["life"][p] = MAX_LIFE if live else 0
        rec["alive"][p] = 1 if live else 0
        rec["gold"][p] = 0
        for t in range(NF):
            rec["f_temple"][p, t] = 0
            rec["f_party"][p, t] = 0
            rec["f_discard"][p, t] = 0
            rec["f_pool"][p, t] = 0
        for r in range(NR):
            rec["r_owned"][p, r] = 0
        for k in range(NC):
            rec["c_hand"][p, k] = 0
        for f in range(4):
            rec["c_sym"][p, f] = 0
        for c in range(CELLS):
            rec["grid"][p, c] = -1
            rec["side"][p, c] = 0
            rec["rot"][p, c] = 0
    for t in range(NF):
        rec["f_fight"][0, t] = 0
        rec["f_fight"][1, t] = 0
        rec["f_defeated"][t] = 0
        rec["f_out"][t] = 0
    # starting Faithful (R4): per seat High Priest, Acolyte, 2 Guards; 2 Guards + 2 Acolytes
    # open the Faithful Row (R5); absent seats' starting Faithful are out of the game
    for p in range(MAX_P):
        if p < n:
            rec["f_temple"][p, HIGH_PRIEST] = 1
            rec["f_temple"][p, ACOLYTE] = 1
            rec["f_temple"][p, GUARD] = 2
        else:
            rec["f_out"][HIGH_PRIEST] += 1
            rec["f_out"][ACOLYTE] += 1
            rec["f_out"][GUARD] += 2
    for k in range(SPOTS):
        rec["f_row_n"][k] = 0
        rec["r_row_n"][k] = 0
        for i in range(rec["f_row"].shape[1]):
            rec["f_row"][k, i] = -1
            rec["r_row"][k, i] = -1
    for k in range(4):
        rec["f_row"][k, 0] = GUARD if k < 2 else ACOLYTE
        rec["f_row_n"][k] = 1
    # decks (R6)
    m = 0
    for i in range(rec["f_deck"].shape[0]):
        rec["f_deck"][i] = -1
    for t in range(NF):
        if F_STARTING[t]:
            continue
        if F_BASE[t] or rec["fatesworn"]:  # R6, R87
            for _ in range(F_COPIES[t]):
                rec["f_deck"][m] = t
                m += 1
        else:
            rec["f_out"][t] = F_COPIES[t]
    rec["f_deck_n"] = m
    shuffle(rec["f_deck"], m, rng)
    m = 0
    for i in range(rec["r_deck"].shape[0]):
        rec["r_deck"][i] = -1
    for r in range(NR):
        rec["r_out"][r] = 0
        if R_BASE[r] or rec["fatesworn"]:
            for _ in range(R_COPIES[r]):
                rec["r_deck"][m] = r
                m += 1
        else:
            rec["r_out"][r] = R_COPIES[r]
    rec["r_deck_n"] = m
    shuffle(rec["r_deck"], m, rng)
    for k in range(NC):
        rec["c_discard"][k] = 0
        rec["c_out"][k] = 0 if C_BASE[k] or rec["fatesworn"] else C_COPIES[k]
    for f in range(4):
        m = 0
        for i in range(rec["c_deck"].shape[1]):
            rec["c_deck"][f, i] = -1
        for k in range(NC):
            if not (C_BASE[k] or rec["fatesworn"]):
                continue
            # R87: a card with the Fatesworn symbol (fate "all") puts one copy in each deck
            c = C_COPIES[k] if C_FATE[k] == f else (C_COPIES[k] // 4 if C_FATE[k] == 4 else 0)
            for _ in range(c):
                rec["c_deck"][f, m] = k
                m += 1
        rec["c_deck_n"][f] = m
        shuffle(rec["c_deck"][f], m, rng)
    # Tiles (R2, R8): the T per seat; absent seats' Starting Tiles are out of the game
    for t in range(NT):
        rec["t_out"][t] = 0
    for t in range(5):
        for p in range(MAX_P):
            if p < n:
                rec["grid"][p, START_CELL[t]] = t
                if t == TREASURY and rec["two_player_variant"]:
                    rec["side"][p, START_CELL[t]] = 1
            else:
                rec["t_out"][t] += 1
    m = 0
    for i in range(rec["t_deck"].shape[0]):
        rec["t_deck"][i] = -1
    for t in range(5, NT):
        for _ in range(T_COPIES[t]):
            rec["t_deck"][m] = t
            m += 1
    rec["t_deck_n"] = m
    shuffle(rec["t_deck"], m, rng)
    rec["f_held"] = -1
    rec["r_held"] = -1
    rec["r_take"] = -1
    rec["r_from"] = -1
    rec["r_then"] = -1
    rec["t_held"] = -1
    rec["sel_cell"] = -1
    rec["move_to"] = -1
    rec["rearranged"] = 0
    rec["draws"] = 0
    rec["draw_in_raid"] = 0
    rec["onsm"] = -1
    rec["onsm_k"] = 0
    rec["search"] = 0
    rec["winner"] = -1
    clear_raid(rec)
    for s in range(2):
        clear_dice(rec, s)
        rec["totals"][s] = 0
    rec["smite_roll"] = 0
    rec["assign_left"] = 0
    for p in range(MAX_P):
        rec["shield"][p] = 0
    rec["waive"] = 0
    rec["discount"] = 0
    rec["actor"] = -1
    rec["sel_play"] = -1
    clear_choice(rec)
    rec["bonus"][0] = 0
    rec["bonus"][1] = 0
    rec["stack_n"][0] = 0
    for i in range(rec["stack"].shape[0]):
        for j in range(rec["stack"].shape[1]):
            rec["stack"][i, j] = 0
    first = randint(rng, n)  # R7
    rec["turn_player"] = first
    start_turn(rec)
    set_current(rec)


@njit(cache=True)
def clear_raid(rec):
    rec["defender"] = -1
    rec["marker"] = -1
    for c in range(CELLS):
        rec["visited"][c] = 0
        rec["conquered"][c] = 0
    rec["moves"] = 0
    rec["picked"] = 0
    rec["trap_left"] = 0
    rec["vandals"] = 0
    rec["onsm"] = -1
    rec["onsm_k"] = 0
    clear_fight(rec)


@njit(cache=True)
def clear_fight(rec):
    """This fight's modifiers and its round end with it (R52)."""
    rec["fin"] = 0
    rec["priority"] = -1
    rec["passes"] = 0
    rec["recall_more"] = 0
    rec["die_left"] = 0
    rec["die_set"] = 0
    for s in range(2):
        rec["bonus"][s] = 0
        rec["win_ties"][s] = 0
        rec["extra"][s] = 0
        rec["protect"][s] = 0


@njit(cache=True)
def clear_choice(rec):
    rec["ch_card"] = -1
    rec["ch_seat"] = -1
    rec["ch_left"] = 0


@njit(cache=True)
def begin_choice(rec, p, play, q, picks):
    """A resolving effect of seat ``p`` waits for its owner's choice (Phase.CHOOSE)."""
    rec["ch_card"] = play
    rec["ch_seat"] = q
    rec["ch_left"] = picks
    rec["actor"] = p
    rec["phase"] = Phase.CHOOSE


@njit(cache=True)
def set_current(rec):
    ph = rec["phase"]
    if ph == Phase.DEFEND:
        rec["current_player"] = int(rec["defender"])
    elif ph == Phase.RESPOND:
        rec["current_player"] = asked_seat(rec["stack"], rec["stack_n"], rec["num_players"])
    elif (ph == Phase.FATE_TARGET or ph == Phase.DRAW or ph == Phase.PICK_DIE
          or ph == Phase.CHOOSE or ph == Phase.ASSIGN or ph == Phase.SEARCH
          or ph == Phase.COVER_RELIC) and rec["actor"] >= 0:  # COVER_RELIC: a return (R20)
        rec["current_player"] = int(rec["actor"])
    elif ph == Phase.FINALIZE:
        rec["current_player"] = int(rec["priority"])
    elif rec["phase"] != Phase.OVER:
        rec["current_player"] = int(rec["turn_player"])


# ---------------------------------------------------------------- the end


@njit(cache=True)
def win(rec, w):
    """R84-R85: ``w`` wins; zero-sum win rewards (R92)."""
    n = int(rec["num_players"])
    scores = np.zeros(n)
    scores[w] = 1.0
    split_rewards(rec, scores, False)
    rec["winner"] = w
    rec["phase"] = Phase.OVER
    rec["actor"] = -1
    rec["sel_play"] = -1
    rec["draws"] = 0
    rec["draw_in_raid"] = 0
    rec["die_left"] = 0
    clear_choice(rec)
    flush_stack(rec)
    if rec["defender"] >= 0:
        release_fight(rec)  # the game ended mid-fight (a Fate card's damage)
    clear_raid(rec)


@njit(cache=True)
def living(rec):
    k = 0
    for p in range(rec["num_players"]):
        k += rec["alive"][p]
    return k


@njit(cache=True)
def eliminate(rec, q):
    """R81: ``q`` is out; Relics and non-starting Faithful shuffle into their decks."""
    rec["alive"][q] = 0
    rec["life"][q] = 0
    rec["gold"][q] = 0
    rng = rec["rng"]
    for r in range(NR):
        while rec["r_owned"][q, r] > 0:
            rec["r_owned"][q, r] -= 1
            rec["r_deck"][rec["r_deck_n"]] = r
            rec["r_deck_n"] += 1
    shuffle(rec["r_deck"], rec["r_deck_n"], rng)
    for t in range(NF):
        k = rec["f_temple"][q, t] + rec["f_party"][q, t] + rec["f_discard"][q, t] \
            + rec["f_pool"][q, t]
        rec["f_temple"][q, t] = 0
        rec["f_party"][q, t] = 0
        rec["f_discard"][q, t] = 0
        rec["f_pool"][q, t] = 0
        if rec["defender"] == q:
            k += rec["f_fight"][1, t] + rec["f_defeated"][t]
            rec["f_fight"][1, t] = 0
            rec["f_defeated"][t] = 0
        if rec["defender"] >= 0 and rec["turn_player"] == q:
            # the Raider is out: the Raid ends, the Defenders go home (R60, R83)
            k += rec["f_fight"][0, t]
            rec["f_fight"][0, t] = 0
            d = rec["defender"]
            rec["f_temple"][d, t] += rec["f_fight"][1, t] + rec["f_defeated"][t]
            rec["f_fight"][1, t] = 0
            rec["f_defeated"][t] = 0
        if F_STARTING[t]:
            rec["f_out"][t] += k
        else:
            for _ in range(k):
                rec["f_deck"][rec["f_deck_n"]] = t
                rec["f_deck_n"] += 1
    shuffle(rec["f_deck"], rec["f_deck_n"], rng)
    for k in range(NC):
        rec["c_discard"][k] += rec["c_hand"][q, k]
        rec["c_hand"][q, k] = 0
    for f in range(4):
        rec["c_sym"][q, f] = 0
    if living(rec) == 1:
        for p in range(rec["num_players"]):
            if rec["alive"][p]:
                win(rec, p)


@njit(cache=True)
def damage(rec, p, x):
    """``p`` loses ``x`` Life (R80); at 0 they are eliminated (R81). Score shaping (R93)."""
    if x <= 0 or not rec["alive"][p]:
        return
    absorbed = min(x, int(rec["shield"][p]))  # Prevent absorbs first (R80)
    rec["shield"][p] -= absorbed
    x -= absorbed
    if x <= 0:
        return
    lost = min(x, rec["life"][p])
    rec["life"][p] -= lost
    if rec["reward_mode"] == REWARD_SCORE:
        others = living(rec) - 1
        if others > 0:
            rec["rewards"][p] -= lost / MAX_LIFE
            for q in range(rec["num_players"]):
                if q != p and rec["alive"][q]:
                    rec["rewards"][q] += lost / (MAX_LIFE * others)
    if rec["life"][p] == 0:
        eliminate(rec, p)


# ---------------------------------------------------------------- the turn


@njit(cache=True)
def fate_relics_complete(rec, p):
    """R85: ``p`` holds all four Fate Relics of one Fate."""
    for f in range(4):
        k = 0
        for r in range(NR):
            if R_IS_FATE[r] and R_FATE[r] == f and rec["r_owned"][p, r] > 0:
                k += 1
        if k == 4:
            return True
    for r in range(NR):  # R86 (Fatesworn): the four Relics of the Fates
        if R_OF_FATES[r] and rec["r_owned"][p, r] == 0:
            return False
    return rec["fatesworn"] == 1


@njit(cache=True)
def start_turn(rec):
    """R10: the start-of-turn check and effects, then Reveal (R11)."""
    t = int(rec["turn_player"])
    if fate_relics_complete(rec, t):
        win(rec, t)
        return
    heal(rec, t, b_side_sum(rec, t, T_TURN_HEAL) + max(0, decree_sum(rec, E_DECREE_HEAL)))
    rec["devotees"] = 0
    rec["rearranged"] = 0
    rec["shield"][t] = 0  # Prevent lasts until the holder's next turn starts (R80)
    rec["waive"] = 0
    rec["discount"] = 0
    reveal_relic(rec)


@njit(cache=True)
def place_relic(rec, x) -> bool:
    """Relic ``x`` onto the lowest empty Relic Row spot; with none, held for a cover.

    Returns False when the row is full: ``x`` is then ``r_held`` and the phase is
    COVER_RELIC, the owner's choice of the pile it covers (R12, R20).
    """
    k = lowest_empty(rec["r_row_n"])
    if k < 0:
        rec["r_held"] = x
        rec["phase"] = Phase.COVER_RELIC
        return False
    rec["r_row"][k, 0] = x
    rec["r_row_n"][k] = 1
    return True


@njit(cache=True)
def reveal_relic(rec):
    if rec["r_deck_n"] > 0:
        rec["r_deck_n"] -= 1
        x = rec["r_deck"][rec["r_deck_n"]]
        rec["r_deck"][rec["r_deck_n"]] = -1
        if not place_relic(rec, x):
            return
    reveal_faithful(rec)


@njit(cache=True)
def reveal_faithful(rec):
    if rec["f_deck_n"] > 0:
        rec["f_deck_n"] -= 1
        x = rec["f_deck"][rec["f_deck_n"]]
        rec["f_deck"][rec["f_deck_n"]] = -1
        k = lowest_empty(rec["f_row_n"])
        if k < 0:
            if any_coverable(rec):
                rec["f_held"] = x
                rec["phase"] = Phase.COVER_FAITHFUL
                return
            # R13: every pile is topped by a Decree: the Faithful goes under the deck
            rec["f_deck_n"] = push_bottom(rec["f_deck"], rec["f_deck_n"], x)
        else:
            rec["f_row"][k, 0] = x
            rec["f_row_n"][k] = 1
    begin_market(rec)


@njit(cache=True)
def coverable(rec, k):
    """R12-R13: Faithful pile ``k`` may be covered (its top bears no Decree)."""
    m = rec["f_row_n"][k]
    return m == 0 or F_WHEN[rec["f_row"][k, m - 1]] != W_DECREE


@njit(cache=True)
def any_coverable(rec):
    for k in range(SPOTS):
        if coverable(rec, k):
            return True
    return False


@njit(cache=True)
def decree_sum(rec, e):
    """R88: the sum of ``a`` of the Decrees of instruction ``e`` on top of Faithful piles."""
    s = 0
    for k in range(SPOTS):
        m = rec["f_row_n"][k]
        if m > 0:
            t = rec["f_row"][k, m - 1]
            if F_WHEN[t] == W_DECREE and F_EFFECT[t] == e:
                s += F_A[t]
    return s


@njit(cache=True)
def tile_price(rec):
    """R21 + DECREE_TILE_COST (R88), never below 0."""
    return max(0, TILE_PRICE + decree_sum(rec, E_DECREE_TILE))


@njit(cache=True)
def fate_price(rec):
    """R22 + DECREE_FATE_PRICE (R88), never below 0."""
    return max(0, FATE_PRICE + decree_sum(rec, E_DECREE_FATE))


@njit(cache=True)
def begin_market(rec):
    """R26: passive gold when the Marketplace Step begins."""
    t = int(rec["turn_player"])
    add_gold(rec, t, b_side_sum(rec, t, T_TURN_GOLD) + relic_sum(rec, t, R_TURN_GOLD)
             + max(0, decree_sum(rec, E_DECREE_GOLD)))
    rec["phase"] = Phase.MARKET


@njit(cache=True)
def end_turn(rec):
    """The turn is over: the next living player clockwise starts theirs (R7, R82)."""
    rec["turn"] += 1
    n = int(rec["num_players"])
    t = int(rec["turn_player"])
    for k in range(1, n + 1):
        q = (t + k) % n
        if rec["alive"][q]:
            rec["turn_player"] = q
            break
    start_turn(rec)


# ---------------------------------------------------------------- Marketplace


@njit(cache=True)
def fate_relics_of(rec, p, f):
    k = 0
    for r in range(NR):
        if R_IS_FATE[r] and R_FATE[r] == f:
            k += rec["r_owned"][p, r]
    return k


@njit(cache=True)
def can_take_relic(rec, p, r):
    """R19-R20: a Basic Relic always; a Fate Relic needs an open Altar after the switch."""
    if not R_IS_FATE[r]:
        return True
    return temple_sum(rec, p, T_ALTARS) > fate_relics_of(rec, p, R_FATE[r])


@njit(cache=True)
def old_fate_relic(rec, p, r):
    """R20: the next Fate Relic ``p`` returns before acquiring ``r`` (type order), or -1."""
    if R_IS_FATE[r]:
        for o in range(NR):
            if R_IS_FATE[o] and R_FATE[o] != R_FATE[r] and rec["r_owned"][p, o] > 0:
                return o
    return -1


@njit(cache=True)
def acquire_relic(rec, p, r, k, then):
    """R19-R20: ``p`` acquires Relic ``r`` from Relic Row spot ``k`` (or ``R_FROM_DECK``).

    ``then`` is the decision that acquires it (Phase.MARKET, CHOOSE or SEARCH), which goes
    on when the Relic is taken. The old Fate's Relics go back first (``return_relics``).
    """
    rec["r_take"] = r
    rec["r_from"] = k
    rec["r_then"] = then
    rec["actor"] = p
    return_relics(rec)


@njit(cache=True)
def return_relics(rec):
    """R20: the old Fate's Relics go back one at a time, then the acquisition completes.

    Each goes to the lowest empty spot; with the row full the returning player picks the
    pile it covers (Phase.COVER_RELIC), and this continues after that decision.
    """
    p = int(rec["actor"])
    o = old_fate_relic(rec, p, int(rec["r_take"]))
    while o >= 0:
        rec["r_owned"][p, o] -= 1
        if not place_relic(rec, o):
            return
        o = old_fate_relic(rec, p, int(rec["r_take"]))
    complete_acquisition(rec)


@njit(cache=True)
def return_coverable(rec, k):
    """R20: a returned Relic may cover Relic pile ``k``: not the acquired Relic's pile."""
    return rec["r_then"] < 0 or rec["r_from"] != k


@njit(cache=True)
def complete_acquisition(rec):
    """R20: the old Relics are back; the acquired Relic leaves its pile or the Relic Deck.

    The decision that acquired it (``r_then``) goes on.
    """
    p, r, k = int(rec["actor"]), int(rec["r_take"]), int(rec["r_from"])
    then = int(rec["r_then"])
    rec["r_take"] = -1
    rec["r_from"] = -1
    rec["r_then"] = -1
    if k < R_FROM_DECK:
        take_top(rec["r_row"], rec["r_row_n"], k)
    elif then == Phase.SEARCH:  # R39: the deck is shuffled after (end_search)
        for i in range(rec["r_deck_n"]):
            if rec["r_deck"][i] == r:
                take_at(rec["r_deck"], rec["r_deck_n"], i)
                rec["r_deck_n"] -= 1
                break
    else:  # BUY_ANY: searched and shuffled (section 13)
        rec["r_deck_n"] = search_deck(rec["r_deck"], int(rec["r_deck_n"]), r, rec["rng"])
    rec["r_owned"][p, r] += 1
    if then == Phase.MARKET:
        rec["actor"] = -1
        rec["phase"] = Phase.MARKET
    elif then == Phase.SEARCH:
        end_search(rec)
    else:
        end_choice(rec)


@njit(cache=True)
def can_place_anywhere(rec, p, t, side):
    for c in range(CELLS):
        if rec["grid"][p, c] < 0:
            for r in range(4):
                if legal_with(rec, p, c, t, side, r):
                    return True
    return False


@njit(cache=True)
def can_flip(rec, p, c):
    t = int(rec["grid"][p, c])
    if t < 0 or rec["side"][p, c] != 0 or T_FLIP[t] <= 0 or T_FLIP[t] > rec["gold"][p]:
        return False
    for r in range(4):
        if flip_rotation_ok(rec, p, c, r):
            return True
    return False


@njit(cache=True)
def flip_rotation_ok(rec, p, c, r):
    t = int(rec["grid"][p, c])
    if t == ENTRANCE and r != rec["rot"][p, c]:
        return False  # the Entrance is never rotated (R24)
    return legal_with(rec, p, c, t, 1, r)


@njit(cache=True)
def search_matches(rec, p, r, a):
    """Whether Relic type ``r`` answers a SEARCH_RELIC ``a`` (R39) and ``p`` may take it."""
    if a >= 0:
        ok = r == a
    elif a == -1:
        ok = R_IS_FATE[r] == 1
    elif a == -2:
        ok = R_IS_FATE[r] == 1 and R_SLOT[r] == 3
    else:
        ok = R_IS_FATE[r] == 1 and R_SLOT[r] == 0
    return ok and can_take_relic(rec, p, r)


@njit(cache=True)
def search_options(rec, p):
    k = 0
    for i in range(rec["r_deck_n"]):
        if search_matches(rec, p, rec["r_deck"][i], rec["search"]):
            k += 1
    return k


@njit(cache=True)
def any_fate_deck(rec):
    for f in range(4):
        if rec["c_deck_n"][f] > 0:
            return True
    return False


@njit(cache=True)
def any_pile(rec):
    for k in range(SPOTS):
        if rec["f_row_n"][k] > 0 or rec["r_row_n"][k] > 0:
            return True
    return False


@njit(cache=True)
def draw_fate(rec, p, f):
    """``p`` draws the top card of Fate Deck ``f`` into their hand (R77); empty: nothing."""
    if rec["c_deck_n"][f] > 0:
        rec["c_deck_n"][f] -= 1
        k = int(rec["c_deck"][f, rec["c_deck_n"][f]])
        rec["c_deck"][f, rec["c_deck_n"][f]] = -1
        rec["c_hand"][p, k] += 1
        if C_SYM[k] >= 0:
            rec["c_sym"][p, f] |= 1 << C_SYM[k]  # the deck the copy came from (R87)


@njit(cache=True)
def drop_symbol(rec, p, k):
    """A Fatesworn-symbol card ``k`` leaves ``p``'s hand: the copy of the lowest deck goes.

    Copies are interchangeable in play; the one played shows which deck it came from.
    """
    if C_SYM[k] < 0:
        return
    for f in range(4):
        if rec["c_sym"][p, f] >> C_SYM[k] & 1:
            rec["c_sym"][p, f] &= ~(1 << C_SYM[k])
            return


@njit(cache=True)
def play_for_gold(rec, p, t):
    """R15, R67: a Temple Faithful goes to the Discard Pile; the play is an Action."""
    rec["f_temple"][p, t] -= 1
    rec["f_discard"][p, t] += 1
    i = stack_push(rec["stack"], rec["stack_n"], K_GOLD, p)
    rec["stack"][i, S_CARD] = t
    rec["stack"][i, S_TARGET] = -1
    advance(rec)


@njit(cache=True)
def gold_effect(rec, p, t):
    """R15-R16: a Faithful played for gold resolves: its gold and gold effects.

    Returns True when a decision is needed (a draw, a cycle).
    """
    add_gold(rec, p, F_GOLD[t])
    if F_WHEN[t] != W_GOLD:
        return False
    e = F_EFFECT[t]
    if e == E_DEVOTEE_GOLD:
        add_gold(rec, p, F_A[t] + rec["devotees"])
        rec["devotees"] += 1
    elif e == E_DRAW_FATE:
        if any_fate_deck(rec):
            rec["draws"] = F_A[t]
            rec["draw_in_raid"] = 0
            rec["actor"] = p
            rec["phase"] = Phase.DRAW
            return True
    elif e == E_HEAL:
        heal(rec, p, F_A[t])
    elif e == E_MARKET_CYCLE:
        if any_pile(rec):
            rec["phase"] = Phase.CYCLE
            return True
    elif e == E_WAIVE:
        rec["waive"] = 1  # the Oracle (R72)
    return False


@njit(cache=True)
def price(rec, x):
    """A purchase price after the turn's discount (Bargain), never below 0."""
    return max(0, x - rec["discount"])


# ---------------------------------------------------------------- Fate cards, Relics, stack


@njit(cache=True)
def relic_allowance(rec, p, f):
    """R72: Fate Relics of Fate ``f`` held plus cost reductions (Prism of Fate)."""
    if f == 4:  # R72, R89: a card with the Fatesworn symbol: any one Fate's Relics
        k = 0
        for g in range(4):
            k = max(k, fate_relics_of(rec, p, g))
    else:
        k = fate_relics_of(rec, p, f)
    return k + relic_sum(rec, p, R_SYMBOL) + relic_sum(rec, p, R_COST_REDUCE)


@njit(cache=True)
def fight_side(rec, p):
    """R73: seat ``p``'s side in the fight whose roll is not final (0 Raider, 1 Defender).

    -1 when there is no such fight or ``p`` is not a side of it.
    """
    if rec["fin"] == 0 or not rec["alive"][p]:
        return -1
    if p == rec["turn_player"]:
        return 0
    if p == rec["defender"]:
        return 1
    return -1


@njit(cache=True)
def play_effect(play):
    """The effect instruction and its ``a`` of a Fate card (< NC) or a Relic use (NC + type)."""
    if play < NC:
        return C_EFFECT[play], C_A[play]
    return R_EFFECT[play - NC], R_A[play - NC]


@njit(cache=True)
def smashable(r, a):
    """SMASH_RELIC ``a``: 0 a Basic Relic (the Relics of the Fates too), 1 a Fate Relic, 2 any."""
    if a == 0:
        return R_IS_FATE[r] == 0
    if a == 1:
        return R_IS_FATE[r] == 1
    return True


@njit(cache=True)
def target_ok(rec, p, q, e, a):
    """R78: seat ``q`` is an opponent that effect ``e`` of seat ``p`` does something to."""
    if q == p or not rec["alive"][q]:
        return False
    if e == E_SMASH:
        for r in range(NR):
            if rec["r_owned"][q, r] > 0 and smashable(r, a):
                return True
        return False
    if e == E_STEAL:
        return rec["gold"][q] > 0
    return True


@njit(cache=True)
def any_target(rec, p, e, a):
    for q in range(rec["num_players"]):
        if target_ok(rec, p, q, e, a):
            return True
    return False


@njit(cache=True)
def free_pick(rec, p, k, a):
    """FREE_BUY: whether seat ``p`` may take the top of row spot ``k`` for at most ``a``.

    Spots: Faithful Row 0-5, Relic Row 6-11; a Fate Relic needs an open Altar (R19-R20).
    """
    if k < SPOTS:
        m = rec["f_row_n"][k]
        return m > 0 and F_COST[rec["f_row"][k, m - 1]] <= a
    k -= SPOTS
    m = rec["r_row_n"][k]
    if m == 0:
        return False
    r = int(rec["r_row"][k, m - 1])
    return R_COST[r] <= a and can_take_relic(rec, p, r)


@njit(cache=True)
def card_source(rows, sizes, deck, deck_n, x):
    """BUY_ANY: where a card of type ``x`` is taken from.

    The lowest spot whose top it is, else the deck (``SPOTS``), else nowhere (-1).
    """
    for k in range(SPOTS):
        m = sizes[k]
        if m > 0 and rows[k, m - 1] == x:
            return k
    for i in range(deck_n):
        if deck[i] == x:
            return SPOTS
    return -1


@njit(cache=True)
def relic_source(rec, p, r):
    """BUY_ANY: where Relic ``r`` is taken (as ``card_source``); -1 if ``p`` cannot hold it."""
    if not can_take_relic(rec, p, r):
        return -1
    return card_source(rec["r_row"], rec["r_row_n"], rec["r_deck"], rec["r_deck_n"], r)


@njit(cache=True)
def faithful_source(rec, t):
    return card_source(rec["f_row"], rec["f_row_n"], rec["f_deck"], rec["f_deck_n"], t)


@njit(cache=True)
def any_buy_any(rec, p):
    if rec["f_deck_n"] > 0:
        return True
    for k in range(SPOTS):
        if rec["f_row_n"][k] > 0:
            return True
    for r in range(NR):
        if relic_source(rec, p, r) >= 0:
            return True
    return False


@njit(cache=True)
def removable(rec, o, t):
    """R42, R53: whether an opponent's effect can take a type ``t`` Faithful of side ``o``.

    Never a High Priest, nor anyone of a side under PROTECT_PARTY.
    """
    return rec["f_fight"][o, t] > 0 and t != HIGH_PRIEST and not rec["protect"][o]


@njit(cache=True)
def any_removable(rec, o):
    for t in range(NF):
        if removable(rec, o, t):
            return True
    return False


@njit(cache=True)
def effect_does_something(rec, p, e, a):
    """R63/R78 reading: an Action that would do nothing is not offered."""
    if e == E_HEAL or e == E_HEAL_FULL:
        return rec["life"][p] < MAX_LIFE
    if e == E_DRAW_FATE:
        return any_fate_deck(rec)
    if e == E_MARKET_CYCLE:
        return any_pile(rec)
    if e == E_GOLD_ALIGNED:
        k = 0
        for t in range(NF):
            if F_FATE[t] == 2 or F_SYMBOL[t]:  # R89: the Fatesworn symbol counts
                k += rec["f_discard"][p, t]
        return k > 0
    if e == E_SMASH or e == E_STEAL:
        return any_target(rec, p, e, a)
    if e == E_FREE_BUY:
        for k in range(2 * SPOTS):
            if free_pick(rec, p, k, a):
                return True
        return False
    if e == E_BUY_ANY:
        return rec["gold"][p] >= a and any_buy_any(rec, p)
    s = fight_side(rec, p)
    if e == E_REMOVE or e == E_SACRIFICE or e == E_CONVERT:
        return s >= 0 and any_removable(rec, 1 - s)
    if e == E_PAY_REMOVE:
        return s >= 0 and rec["gold"][p] >= a and any_removable(rec, 1 - s)
    if e == E_PROTECT:
        return s >= 0 and not rec["protect"][s]
    if e == E_ADD_DIE:
        return s >= 0 and rec["dice_n"][s] + rec["extra"][s] < MAX_DICE
    if e == E_WIN_TIES:
        return s >= 0 and not rec["win_ties"][s]
    if e == E_RECALL_EXTRA:
        return s == 0 and rec["recall_more"] < RECALL_CAP
    if e == E_PAY_BONUS:
        return s >= 0 and rec["gold"][p] >= a
    if e == E_COMBAT_BONUS or e == E_COMBAT_MALUS:
        return s >= 0
    if e == E_REROLL:
        return rec["fin"] > 0 and rec["dice_n"][0] + rec["dice_n"][1] > 0
    if e == E_SET_DIE:
        if s < 0:
            return False
        for i in range(rec["dice_n"][s]):
            if rec["dice"][s, i] < a:
                return True
        return False
    if e == E_COUNTER:
        i = rec["stack_n"][0] - 1
        return i >= 0 and rec["stack"][i, KIND] == K_FATE and rec["stack"][i, OWNER] != p \
            and not rec["stack"][i, S_FLAGS] & F_COUNTERED
    return True


@njit(cache=True)
def timing_ok(rec, p, tm, response):
    """R73: whether the `timing` column allows seat ``p`` to act now.

    `fight`: a fight ``p`` is a side of, before the roll is final; `dice`: a combat die on
    the table in such a fight; `own_turn`: never as a response; `stack`: only as one.
    """
    if response:
        if tm == TM_OWN or rec["stack_n"][0] >= STACK_CAP:
            return False
    elif tm == TM_STACK or (tm == TM_OWN and p != rec["turn_player"]):
        return False
    if tm == TM_FIGHT:
        return fight_side(rec, p) >= 0
    if tm == TM_DICE:
        return rec["fin"] > 0 and rec["dice_n"][0] + rec["dice_n"][1] > 0
    return True


@njit(cache=True)
def can_play_fate(rec, p, k, response):
    """R72-R73, R78: seat ``p`` may play Fate card type ``k`` now.

    ``response``: as the asked seat of a response window, else as an Action of its own:
    the turn player's in their Marketplace Step, anyone's in a fight's round (R51).
    """
    if rec["c_hand"][p, k] <= 0:
        return False
    return fate_type_ok(rec, p, k, response)


@njit(cache=True)
def fate_type_ok(rec, p, k, response):
    """``can_play_fate`` but for holding the card: from public information only."""
    if not C_PLAYABLE[k]:
        return False
    if not timing_ok(rec, p, C_TIMING[k], response):
        return False
    waived = rec["waive"] and p == rec["turn_player"]
    if not waived and relic_allowance(rec, p, C_FATE[k]) < C_COST[k]:
        return False
    return effect_does_something(rec, p, C_EFFECT[k], C_A[k])


@njit(cache=True)
def can_use_relic(rec, p, r, response):
    """R63-R65: seat ``p`` may use Relic type ``r`` now."""
    if rec["r_owned"][p, r] <= 0 or not R_USABLE[r]:
        return False
    if not timing_ok(rec, p, R_TIMING[r], response):
        return False
    if R_USE_DEVOTEE[r] and rec["f_discard"][p, DEVOTEE] <= 0:
        return False
    return effect_does_something(rec, p, R_EFFECT[r], R_A[r])


@njit(cache=True)
def ability_ok(rec, p, t):
    """R43: seat ``p`` may discard a Faithful of type ``t`` for its ability now.

    In a fight whose roll is not final (its rounds and the windows in it): the Raider a
    Captain (``discard_raid``) from the Raiding Party, the Defender a Hoplite
    (``discard_defend``) from the Temple.
    """
    s = fight_side(rec, p)
    if s == 0:
        return F_DISCARD_RAID[t] > 0 and rec["f_party"][p, t] > 0
    if s == 1:
        return F_DISCARD_DEFEND[t] > 0 and rec["f_temple"][p, t] > 0
    return False


@njit(cache=True)
def action_mask(rec, p, responding, mask):
    """The PLAY_FATE and USE_RELIC actions seat ``p`` may take now (R63, R72-R73).

    ``responding``: as the asked seat of a response window (R69), else as the turn player's
    own Action in their Marketplace Step.
    """
    for k in range(NC):
        if rec["c_hand"][p, k] > 0 and can_play_fate(rec, p, k, responding):
            mask[PLAY_FATE + k] = 1
    for r in range(NR):
        if rec["r_owned"][p, r] > 0 and can_use_relic(rec, p, r, responding):
            mask[USE_RELIC + r] = 1
    if p == rec["defender"] and (not responding or rec["stack_n"][0] < STACK_CAP):
        for c in range(CELLS):
            if raid_flip_ok(rec, p, c):
                mask[FLIP + c] = 1
    if rec["fin"] > 0 and (not responding or rec["stack_n"][0] < STACK_CAP):
        for t in range(NF):
            if ability_ok(rec, p, t):
                mask[ABILITY + t] = 1  # R43, R70: an ability discard


@njit(cache=True)
def raid_flip_ok(rec, p, c):
    """R33-R34: the Defender may flip a Tile of the raided Temple, outside the Marketplace.

    Paid as usual; the rotation stays (a flip that would need another is only for the
    Marketplace Step, R33); not a Tile whose flip already waits on the stack.
    """
    t = int(rec["grid"][p, c])
    if t < 0 or rec["side"][p, c] != 0 or T_FLIP[t] <= 0 or T_FLIP[t] > rec["gold"][p]:
        return False
    if flip_pending(rec, p, c):
        return False
    return legal_with(rec, p, c, t, 1, rec["rot"][p, c])


@njit(cache=True)
def flip_pending(rec, p, c):
    """Whether a flip of seat ``p``'s Tile in cell ``c`` waits on the stack."""
    for i in range(rec["stack_n"][0]):
        if rec["stack"][i, KIND] == K_FLIP and rec["stack"][i, OWNER] == p \
                and rec["stack"][i, S_CARD] // 4 == c:
            return True
    return False


@njit(cache=True)
def has_play(rec, p, responding):
    """R51, R70 Reading: whether seat ``p`` is asked (a window, a fight's round).

    From public information only, since whether a seat is asked is public (the AEC env's
    ``agent_selection``): ``p`` holds a Fate card and some Fate card of the game could be
    played by ``p`` now (its hand is hidden); or has a Relic to use (public); or is the
    Defender with a Tile it might flip: a Starting Tile it can pay for (public), or an
    unflipped deck Tile (its type hidden) and at least the cheapest deck flip in gold; or,
    in a fight, holds a Faithful of its side's ability discard face down (Temple or Party:
    the split is hidden). Being asked, ``p`` may then have only ``pass``: ``asks`` keeps
    that a decision.
    """
    if not rec["alive"][p]:
        return False
    held = 0
    for k in range(NC):
        held += rec["c_hand"][p, k]
    if held > 0:
        for k in range(NC):
            if rec["c_out"][k] < C_COPIES[k] and fate_type_ok(rec, p, k, responding):
                return True
    for r in range(NR):
        if rec["r_owned"][p, r] > 0 and can_use_relic(rec, p, r, responding):
            return True
    if p == rec["defender"] and (not responding or rec["stack_n"][0] < STACK_CAP):
        for c in range(CELLS):
            t = int(rec["grid"][p, c])
            if t < 0 or rec["side"][p, c] != 0:
                continue
            if t < 5:
                if raid_flip_ok(rec, p, c):
                    return True  # R34: a Starting Tile (public)
            elif rec["gold"][p] >= MIN_DECK_FLIP and not flip_pending(rec, p, c):
                return True  # R34: a deck Tile (its type hidden)
    if rec["fin"] > 0 and (not responding or rec["stack_n"][0] < STACK_CAP):
        s = fight_side(rec, p)
        for t in range(NF):
            k = rec["f_temple"][p, t] + rec["f_party"][p, t]
            if k > 0 and (s == 0 and F_DISCARD_RAID[t] > 0
                          or s == 1 and F_DISCARD_DEFEND[t] > 0):
                return True  # R43: an ability discard
    return False


@njit(cache=True)
def needs_target(play):
    e = play_effect(play)[0]
    return e == E_DAMAGE or e == E_SMASH or e == E_STEAL


@njit(cache=True)
def begin_play(rec, p, play):
    """A Fate card (``play`` < NC) or a Relic use (NC + type): target first if it has one."""
    if needs_target(play):
        rec["sel_play"] = play
        rec["actor"] = p
        rec["phase"] = Phase.FATE_TARGET
        return
    push_play(rec, p, play, -1)


@njit(cache=True)
def push_play(rec, p, play, target):
    """R67, R72, R65: pay the costs, put the Action on the stack, open its window."""
    stack, top = rec["stack"], rec["stack_n"]
    if play < NC:
        rec["c_hand"][p, play] -= 1
        drop_symbol(rec, p, play)
        if p == rec["turn_player"]:
            rec["waive"] = 0  # the waiver is spent by the next Fate card (R72)
        i = stack_push(stack, top, K_FATE, p)
        stack[i, S_CARD] = play
    else:
        r = play - NC
        i = stack_push(stack, top, K_RELIC, p)
        stack[i, S_CARD] = r
        if R_SACRIFICE[r]:
            rec["r_owned"][p, r] -= 1
            stack[i, S_FLAGS] = F_SACRIFICED
        if R_USE_DEVOTEE[r]:
            rec["f_discard"][p, DEVOTEE] -= 1
            rec["f_deck_n"] = push_bottom(rec["f_deck"], rec["f_deck_n"], DEVOTEE)
    stack[i, S_TARGET] = target
    rec["sel_play"] = -1
    rec["actor"] = -1
    advance(rec)


@njit(cache=True)
def push_ability(rec, p, t):
    """R43, R67: a Faithful discarded for its ability is an Action.

    The Faithful goes to its owner's Discard Pile at once; its Combat Bonus comes when the
    entry resolves, after the responses.
    """
    if fight_side(rec, p) == 0:
        rec["f_party"][p, t] -= 1
    else:
        rec["f_temple"][p, t] -= 1
    rec["f_discard"][p, t] += 1
    i = stack_push(rec["stack"], rec["stack_n"], K_ABILITY, p)
    rec["stack"][i, S_CARD] = t
    rec["stack"][i, S_TARGET] = -1
    advance(rec)


@njit(cache=True)
def settle_entry(rec, i):
    """Where a resolved (or countered) entry's card goes (R64, R74)."""
    stack = rec["stack"]
    c = int(stack[i, S_CARD])
    if stack[i, KIND] == K_FATE:
        rec["c_discard"][c] += 1
    elif stack[i, KIND] == K_RELIC and stack[i, S_FLAGS] & F_SACRIFICED:
        rec["r_deck_n"] = push_bottom(rec["r_deck"], rec["r_deck_n"], c)


@njit(cache=True)
def flush_stack(rec):
    """The game or the turn ended mid-stack: every entry settles without effect (R83)."""
    while rec["stack_n"][0] > 0:
        i = stack_pop(rec["stack"], rec["stack_n"])
        settle_entry(rec, i)


@njit(cache=True)
def resolve_entry(rec, i):
    """Resolve stack row ``i`` (already popped). Returns True when a decision is needed."""
    stack = rec["stack"]
    p = int(stack[i, OWNER])
    c = int(stack[i, S_CARD])
    play = c if stack[i, KIND] == K_FATE else NC + c
    settle_entry(rec, i)
    kind = stack[i, KIND]
    if kind == K_ROLL or kind == K_TRAP or kind == K_SMITE or kind == K_ONSMITE:
        # the raid's Actions (R71, R37, R58); never countered (COUNTER takes Fate cards
        # only), and an owner out of the game ended the Raid before this (advance)
        return resolve_raid_entry(rec, kind, c)
    if stack[i, S_FLAGS] & F_COUNTERED or not rec["alive"][p]:
        return False  # R79, R83
    if stack[i, KIND] == K_GOLD:
        return gold_effect(rec, p, c)
    if stack[i, KIND] == K_FLIP:
        return flip_tile(rec, p, c // 4, c % 4)
    if kind == K_ABILITY:  # R43: the bonus, if the fight is still on
        s = fight_side(rec, p)
        if s >= 0:
            b = F_DISCARD_RAID[c] if s == 0 else F_DISCARD_DEFEND[c]
            rec["bonus"][s] = min(60, rec["bonus"][s] + b)
        return False
    if stack[i, KIND] == K_FATE:
        e, a = C_EFFECT[c], C_A[c]
    else:
        e, a = R_EFFECT[c], R_A[c]
    if e == E_GAIN_GOLD:
        add_gold(rec, p, a)
    elif e == E_DISCOUNT:
        rec["discount"] = min(DISCOUNT_CAP, rec["discount"] + a)
    elif e == E_GOLD_ALIGNED:
        k = 0
        for t in range(NF):
            if F_FATE[t] == 2 or F_SYMBOL[t]:  # R89: the Fatesworn symbol counts
                k += rec["f_discard"][p, t]
        add_gold(rec, p, a * k)
    elif e == E_HEAL:
        heal(rec, p, a)
    elif e == E_HEAL_FULL:
        heal(rec, p, MAX_LIFE)
    elif e == E_PREVENT:
        rec["shield"][p] = min(SHIELD_CAP, rec["shield"][p] + a)
    elif e == E_WAIVE:
        if p == rec["turn_player"]:
            rec["waive"] = 1
    elif e == E_COUNTER:
        if i > 0 and stack[i - 1, KIND] == K_FATE and stack[i - 1, OWNER] != p:
            stack[i - 1, S_FLAGS] |= F_COUNTERED
    elif e == E_DAMAGE:
        q = int(stack[i, S_TARGET])
        if 0 <= q < rec["num_players"]:
            damage(rec, q, a)
    elif e == E_DAMAGE_ALL:
        for q in range(rec["num_players"]):
            if q != p and rec["phase"] != Phase.OVER:
                damage(rec, q, a)
    elif e == E_DRAW_FATE:
        if any_fate_deck(rec):
            rec["draws"] = a
            rec["draw_in_raid"] = 0
            rec["actor"] = p
            rec["phase"] = Phase.DRAW
            return True
    elif e == E_MARKET_CYCLE:
        if any_pile(rec):
            rec["phase"] = Phase.CYCLE
            return True
    elif e == E_STEAL:
        q = int(stack[i, S_TARGET])
        if 0 <= q < rec["num_players"] and rec["alive"][q]:
            x = min(a, int(rec["gold"][q]))
            add_gold(rec, q, -x)
            add_gold(rec, p, x)
    elif e == E_SMASH:
        q = int(stack[i, S_TARGET])
        if 0 <= q < rec["num_players"] and target_ok(rec, p, q, e, a):
            begin_choice(rec, p, play, q, 1)
            return True
    elif e == E_FREE_BUY or e == E_BUY_ANY or e == E_REMOVE or e == E_SACRIFICE \
            or e == E_CONVERT or e == E_PAY_REMOVE:
        if effect_does_something(rec, p, e, a):
            picks = a if e == E_REMOVE or e == E_SACRIFICE or e == E_CONVERT else 1
            begin_choice(rec, p, play, -1, picks)
            return True
    elif e == E_PROTECT:
        s = fight_side(rec, p)
        if s >= 0:
            rec["protect"][s] = 1
    else:
        return resolve_fight_effect(rec, p, e, a, C_B[c] if stack[i, KIND] == K_FATE else R_B[c])
    return False


@njit(cache=True)
def resolve_fight_effect(rec, p, e, a, b):
    """R52-R55, R66: a fight effect of seat ``p``; True when a die must be picked."""
    s = fight_side(rec, p)
    if e == E_REROLL:
        if rec["fin"] > 0 and rec["dice_n"][0] + rec["dice_n"][1] > 0:
            rec["die_left"] = a
            rec["die_set"] = 0
            rec["actor"] = p
            rec["phase"] = Phase.PICK_DIE
            return True
        return False
    if s < 0:
        return False  # the fight is over or ``p`` is no longer in it
    if e == E_COMBAT_BONUS:
        rec["bonus"][s] = min(60, rec["bonus"][s] + a)
    elif e == E_COMBAT_MALUS:
        rec["bonus"][1 - s] = max(-60, rec["bonus"][1 - s] - a)
    elif e == E_PAY_BONUS:
        if rec["gold"][p] >= a:
            add_gold(rec, p, -a)
            rec["bonus"][s] = min(60, rec["bonus"][s] + b)
    elif e == E_WIN_TIES:
        rec["win_ties"][s] = 1
    elif e == E_RECALL_EXTRA:
        if s == 0:
            rec["recall_more"] = min(RECALL_CAP, rec["recall_more"] + a)
    elif e == E_ADD_DIE:
        if rec["dice_n"][s] > 0:  # rolled already: the extra dice are added at once
            for _ in range(a):
                if rec["dice_n"][s] < MAX_DICE:
                    rec["dice"][s, rec["dice_n"][s]] = roll(COMBAT_DIE, rec["rng"])
                    rec["die_to"][s, rec["dice_n"][s]] = -1  # an extra die: no Faithful's
                    rec["dice_n"][s] += 1
        else:
            rec["extra"][s] = min(MAX_DICE, rec["extra"][s] + a)
    elif e == E_SET_DIE:
        if effect_does_something(rec, p, e, a):
            rec["die_left"] = 1
            rec["die_set"] = a
            rec["actor"] = p
            rec["phase"] = Phase.PICK_DIE
            return True
    return False


@njit(cache=True)
def die_pickable(rec, s, i):
    """PICK_DIE: whether die ``i`` of side ``s`` may be picked.

    Rerolls: any die on the table; setting: a die of the picker's side below the face.
    """
    if i >= rec["dice_n"][s]:
        return False
    if rec["die_set"] == 0:
        return True
    return s == fight_side(rec, rec["actor"]) and rec["dice"][s, i] < rec["die_set"]


@njit(cache=True)
def any_die_pickable(rec):
    for s in range(2):
        for i in range(MAX_DICE):
            if die_pickable(rec, s, i):
                return True
    return False


@njit(cache=True)
def take_top(rows, sizes, k):
    """Take the top card of row pile ``k``."""
    sizes[k] -= 1
    x = rows[k, sizes[k]]
    rows[k, sizes[k]] = -1
    return x


@njit(cache=True)
def search_deck(deck, n, t, rng):
    """Take the topmost card of type ``t`` out of a deck of ``n`` and shuffle the rest.

    A searched deck is shuffled after (section 13); returns the new size.
    """
    for i in range(n - 1, -1, -1):
        if deck[i] == t:
            take_at(deck, n, i)
            break
    shuffle(deck, n - 1, rng)
    return n - 1


@njit(cache=True)
def take_faithful(rec, p, k, t):
    """BUY_ANY / FREE_BUY: ``p`` acquires Faithful ``t`` from spot ``k``.

    ``k == SPOTS``: by searching the deck, which is shuffled after (section 13). Relics are
    acquired by ``acquire_relic`` (R20).
    """
    if k < SPOTS:
        take_top(rec["f_row"], rec["f_row_n"], k)
    else:
        rec["f_deck_n"] = search_deck(rec["f_deck"], int(rec["f_deck_n"]), t, rec["rng"])
    rec["f_discard"][p, t] += 1


ANY_DIE = -2  # find_die: any die of the side, assigned or not


@njit(cache=True)
def clear_dice(rec, s):
    """Side ``s`` has no die on the table: no faces, none assigned (R50)."""
    rec["dice_n"][s] = 0
    for i in range(MAX_DICE):
        rec["dice"][s, i] = 0
        rec["die_to"][s, i] = -1


@njit(cache=True)
def find_die(rec, s, to, low):
    """The lowest (``low``) or highest die of side ``s`` assigned to ``to``, the first on ties.

    ``to``: a Faithful type, -1 for the dice assigned to none, ``ANY_DIE`` for all; -1 when
    no die qualifies.
    """
    j = -1
    for i in range(rec["dice_n"][s]):
        if to != ANY_DIE and rec["die_to"][s, i] != to:
            continue
        if j < 0 or (rec["dice"][s, i] < rec["dice"][s, j] if low
                     else rec["dice"][s, i] > rec["dice"][s, j]):
            j = i
    return j


@njit(cache=True)
def dice_to(rec, s, t):
    """How many dice of side ``s`` are assigned to Faithful type ``t`` (R50)."""
    k = 0
    for i in range(rec["dice_n"][s]):
        if rec["die_to"][s, i] == t:
            k += 1
    return k


@njit(cache=True)
def drop_die(rec, s, t):
    """R53: a type ``t`` Faithful taken out of a fight takes one of its dice along.

    A die-dependent Faithful (R50) takes the lowest die assigned to its type; any other the
    highest die assigned to no such Faithful (the dice lie beside their Faithful).
    """
    n = int(rec["dice_n"][s])
    if n == 0:
        return
    j = -1
    if F_LOW_DIE[t] > 0:
        j = find_die(rec, s, t, True)
    if j < 0:
        j = find_die(rec, s, -1, False)
    if j < 0:
        j = find_die(rec, s, ANY_DIE, False)
    for i in range(j, n - 1):
        rec["dice"][s, i] = rec["dice"][s, i + 1]
        rec["die_to"][s, i] = rec["die_to"][s, i + 1]
    rec["dice"][s, n - 1] = 0
    rec["die_to"][s, n - 1] = -1
    rec["dice_n"][s] = n - 1


@njit(cache=True)
def take_combatant(rec, p, o, t, e):
    """R53: a Faithful of side ``o`` leaves the fight with its dice and bonuses.

    Removed: to its owner's Discard Pile; sacrificed: to the bottom of the Faithful Deck
    (R42); converted: into ``p``'s Discard Pile.
    """
    rec["f_fight"][o, t] -= 1
    owner = int(rec["turn_player"]) if o == 0 else int(rec["defender"])
    if e == E_SACRIFICE:
        rec["f_deck_n"] = push_bottom(rec["f_deck"], rec["f_deck_n"], t)
    elif e == E_CONVERT:
        rec["f_discard"][p, t] += 1
    else:
        rec["f_discard"][owner, t] += 1
    for _ in range(F_DICE[t]):
        drop_die(rec, o, t)


@njit(cache=True)
def choice_legal(rec, mask):
    """CHOOSE: what the resolving effect lets its owner pick (section 13)."""
    p = int(rec["actor"])
    e, a = play_effect(int(rec["ch_card"]))
    if e == E_SMASH:
        q = int(rec["ch_seat"])
        for r in range(NR):
            if rec["r_owned"][q, r] > 0 and smashable(r, a):
                mask[PICK_RELIC + r] = 1
    elif e == E_FREE_BUY:
        for k in range(2 * SPOTS):
            if free_pick(rec, p, k, a):
                mask[SPOT + k] = 1
    elif e == E_BUY_ANY:
        if rec["gold"][p] >= a:
            for t in range(NF):
                if faithful_source(rec, t) >= 0:
                    mask[PICK_FAITHFUL + t] = 1
            for r in range(NR):
                if relic_source(rec, p, r) >= 0:
                    mask[PICK_RELIC + r] = 1
    else:
        s = fight_side(rec, p)
        if s < 0 or (e == E_PAY_REMOVE and rec["gold"][p] < a):
            return
        for t in range(NF):
            if removable(rec, 1 - s, t):
                mask[PICK_FAITHFUL + t] = 1
        if rec["ch_left"] < a and e != E_PAY_REMOVE:
            mask[PASS] = 1  # "up to": one taken, the rest may be left


@njit(cache=True)
def choice_apply(rec, act):
    """CHOOSE: apply the pick; when the effect is done the stack resolves on (R69)."""
    p = int(rec["actor"])
    e, a = play_effect(int(rec["ch_card"]))
    done = True
    if act == PASS:
        pass
    elif e == E_SMASH:
        r = act - PICK_RELIC
        rec["r_owned"][rec["ch_seat"], r] -= 1
        rec["r_deck_n"] = push_bottom(rec["r_deck"], rec["r_deck_n"], r)  # sacrificed (R64)
    elif e == E_FREE_BUY:
        k = act - SPOT
        if k < SPOTS:
            take_faithful(rec, p, k, rec["f_row"][k, rec["f_row_n"][k] - 1])
        else:
            k -= SPOTS
            clear_choice(rec)
            acquire_relic(rec, p, int(rec["r_row"][k, rec["r_row_n"][k] - 1]), k, Phase.CHOOSE)
            return
    elif e == E_BUY_ANY:
        add_gold(rec, p, -a)
        if act < PICK_FAITHFUL + NF:
            t = act - PICK_FAITHFUL
            take_faithful(rec, p, faithful_source(rec, t), t)
        else:
            r = act - PICK_RELIC
            k = relic_source(rec, p, r)
            clear_choice(rec)
            acquire_relic(rec, p, r, k, Phase.CHOOSE)
            return
    else:
        o = 1 - fight_side(rec, p)
        if e == E_PAY_REMOVE:
            add_gold(rec, p, -a)
        take_combatant(rec, p, o, act - PICK_FAITHFUL, e)
        rec["ch_left"] -= 1
        done = rec["ch_left"] <= 0 or not any_removable(rec, o)
    if done:
        end_choice(rec)


@njit(cache=True)
def end_choice(rec):
    """CHOOSE: the effect is done; the stack resolves on (R69), or an emptied fight ends."""
    clear_choice(rec)
    rec["actor"] = -1
    if rec["fin"] > 0 and (count(rec["f_fight"][1]) == 0
                           or (rec["fin"] == 2 and count(rec["f_fight"][0]) == 0)):
        fight_emptied(rec)
        open_raid_window(rec)  # the Heart conquered: its Smite
    else:
        advance(rec)


@njit(cache=True)
def end_search(rec):
    """R39: the flip search is over: the Relic Deck is shuffled; the stack resolves on."""
    shuffle(rec["r_deck"], rec["r_deck_n"], rec["rng"])
    rec["actor"] = -1
    advance(rec)


@njit(cache=True)
def fight_emptied(rec):
    """R53: a side of the fight is emptied; the fight is over at once.

    Every Defender taken out: the Tile is conquered (after the Raid roll the Raider recalls
    one, R55); every dispatched Faithful taken out: the Raider retreats. Actions still on
    the stack settle without effect.
    """
    flush_stack(rec)
    stage = rec["fin"]
    recall = rec["recall_more"]
    clear_fight(rec)
    if count(rec["f_fight"][1]) == 0:
        rec["conquered"][rec["marker"]] = 1
        if stage == 2 and count(rec["f_fight"][0]) > 0:
            rec["recall_more"] = recall
            rec["phase"] = Phase.RECALL
        else:
            after_conquest(rec)
    else:
        end_raid(rec)


@njit(cache=True)
def begin_round(rec, stage):
    """R47 (stage 1, after the Defense roll), R51 (stage 2, after the Raid roll): a round.

    It starts with the Raider.
    """
    rec["fin"] = stage
    rec["priority"] = rec["turn_player"]
    rec["passes"] = 0
    round_next(rec)


@njit(cache=True)
def round_next(rec):
    """R51, R70: ask the seat holding priority if it has an Action, else it passes.

    When every living seat has passed in a row the round ends.
    """
    n = int(rec["num_players"])
    while rec["passes"] < living(rec):
        s = int(rec["priority"])
        if rec["alive"][s] and has_play(rec, s, False):
            rec["phase"] = Phase.FINALIZE
            return
        if rec["alive"][s]:
            rec["passes"] += 1
        rec["priority"] = (s + 1) % n
    end_round(rec)


@njit(cache=True)
def end_round(rec):
    """The roll is final: stage 1 goes on to the dispatch, stage 2 to the Combat Rolls."""
    stage = rec["fin"]
    rec["fin"] = 0
    rec["priority"] = -1
    rec["passes"] = 0
    if stage == 1:
        rec["picked"] = 0
        rec["phase"] = Phase.DISPATCH
    else:
        fight(rec)


@njit(cache=True)
def advance(rec):
    """R69-R70: ask the next seat with a legal response, else resolve the top; repeat.

    When the stack is empty the turn player's Marketplace Step goes on; if the turn player
    was eliminated meanwhile, play passes left (R82).
    """
    n = int(rec["num_players"])
    stack, top = rec["stack"], rec["stack_n"]
    eligible = np.zeros(MAX_P, np.int8)
    while top[0] > 0:
        for s in range(n):
            eligible[s] = 1 if has_play(rec, s, True) else 0
        seat = next_responder(stack, top, n, eligible)
        if seat >= 0:
            rec["phase"] = Phase.RESPOND
            return
        i = stack_pop(stack, top)
        rec["phase"] = Phase.FINALIZE if rec["fin"] > 0 else Phase.MARKET
        wait = resolve_entry(rec, i)
        if rec["phase"] == Phase.OVER:
            return
        if not rec["alive"][rec["turn_player"]]:
            flush_stack(rec)
            rec["draws"] = 0
            rec["actor"] = -1
            rec["die_left"] = 0
            clear_raid(rec)  # eliminate() sent the Defenders home (R83)
            end_turn(rec)
            return
        if rec["defender"] >= 0 and not rec["alive"][rec["defender"]] \
                and (rec["fin"] > 0 or top[0] > 0) and rec["onsm"] < 0:
            flush_stack(rec)  # R83: the Defender is out mid-fight or mid-window: Raid over
            rec["draws"] = 0
            rec["actor"] = -1
            rec["die_left"] = 0
            end_raid(rec)
            return
        if wait:
            return
    if rec["fin"] > 0:
        rec["priority"] = rec["turn_player"]  # R51: the round restarts after an Action
        rec["passes"] = 0
        round_next(rec)
    else:
        rec["phase"] = Phase.MARKET


@njit(cache=True)
def market_legal(rec, mask):
    p = int(rec["turn_player"])
    g = rec["gold"][p]
    for t in range(NF):
        if rec["f_temple"][p, t] > 0:
            mask[PLAY_GOLD + t] = 1
    for k in range(SPOTS):
        m = rec["f_row_n"][k]
        if m > 0 and price(rec, F_COST[rec["f_row"][k, m - 1]]) <= g:
            mask[BUY_FAITHFUL + k] = 1
        m = rec["r_row_n"][k]
        if m > 0:
            r = int(rec["r_row"][k, m - 1])
            if price(rec, R_COST[r]) <= g and can_take_relic(rec, p, r):
                mask[BUY_RELIC + k] = 1
    if rec["t_deck_n"] > 0 and g >= price(rec, tile_price(rec)):
        # every deck Tile shows the same A-side, so the top Tile's type does not matter
        if can_place_anywhere(rec, p, rec["t_deck"][rec["t_deck_n"] - 1], 0):
            mask[BUY_TILE] = 1
    if g >= price(rec, fate_price(rec)):
        for f in range(4):
            if rec["c_deck_n"][f] > 0:
                mask[FATE_DECK + f] = 1
    for c in range(CELLS):
        if can_flip(rec, p, c):
            mask[FLIP + c] = 1
    if rec["rearranged"] < REARRANGE_CAP:
        occ = np.zeros(CELLS, np.int8)
        doors = np.zeros(CELLS, np.int64)
        for c in range(CELLS):
            if can_move(rec, p, c, occ, doors):
                mask[MOVE_FROM + c] = 1
    action_mask(rec, p, False, mask)
    mask[PASS] = 1


@njit(cache=True)
def market_apply(rec, a):
    p = int(rec["turn_player"])
    if a == PASS:
        begin_raid_step(rec)
    elif in_block(a, PLAY_GOLD, NF):
        play_for_gold(rec, p, a - PLAY_GOLD)
    elif in_block(a, BUY_FAITHFUL, SPOTS):
        k = a - BUY_FAITHFUL
        rec["f_row_n"][k] -= 1
        t = int(rec["f_row"][k, rec["f_row_n"][k]])
        rec["f_row"][k, rec["f_row_n"][k]] = -1
        add_gold(rec, p, -price(rec, F_COST[t]))
        rec["discount"] = 0
        rec["f_discard"][p, t] += 1
    elif in_block(a, BUY_RELIC, SPOTS):
        k = a - BUY_RELIC
        r = int(rec["r_row"][k, rec["r_row_n"][k] - 1])
        add_gold(rec, p, -price(rec, R_COST[r]))
        rec["discount"] = 0
        acquire_relic(rec, p, r, k, Phase.MARKET)  # R20: the old Fate's Relics go back first
    elif a == BUY_TILE:
        add_gold(rec, p, -price(rec, tile_price(rec)))
        rec["discount"] = 0
        rec["t_deck_n"] -= 1
        rec["t_held"] = rec["t_deck"][rec["t_deck_n"]]
        rec["t_deck"][rec["t_deck_n"]] = -1
        rec["phase"] = Phase.PLACE_CELL
    elif in_block(a, FATE_DECK, FATE_DECKS):
        add_gold(rec, p, -price(rec, fate_price(rec)))
        rec["discount"] = 0
        draw_fate(rec, p, a - FATE_DECK)
    elif in_block(a, PLAY_FATE, NC):
        begin_play(rec, p, a - PLAY_FATE)
    elif in_block(a, USE_RELIC, NR):
        begin_play(rec, p, NC + a - USE_RELIC)
    elif in_block(a, MOVE_FROM, CELLS):  # R24: rearrange
        rec["sel_cell"] = a - MOVE_FROM
        rec["phase"] = Phase.MOVE_CELL
    else:  # in_block(a, FLIP, CELLS)
        rec["sel_cell"] = a - FLIP
        rec["phase"] = Phase.FLIP_ROT


@njit(cache=True)
def push_flip(rec, p, c, r):
    """R32, R67: pay the Flip Cost; the flip is an Action (the Tile turns when it resolves)."""
    add_gold(rec, p, -T_FLIP[rec["grid"][p, c]])
    rec["sel_cell"] = -1
    i = stack_push(rec["stack"], rec["stack_n"], K_FLIP, p)
    rec["stack"][i, S_CARD] = 4 * c + r
    rec["stack"][i, S_TARGET] = -1
    advance(rec)


@njit(cache=True)
def flip_tile(rec, p, c, r):
    """R32: the Tile turns to its B-side (seen by all), then ``when=flip``.

    Returns True when the owner searches the Relic Deck (R39).
    """
    t = int(rec["grid"][p, c])
    rec["side"][p, c] = 1
    rec["rot"][p, c] = r
    if T_WHEN[t] == W_FLIP and T_EFFECT[t] == E_SEARCH:
        rec["search"] = T_A[t]
        if search_options(rec, p) > 0:
            rec["actor"] = p  # the Tile's owner searches (the Defender, R34)
            rec["phase"] = Phase.SEARCH
            return True
        shuffle(rec["r_deck"], rec["r_deck_n"], rec["rng"])
    return False


# ---------------------------------------------------------------- Raid


@njit(cache=True)
def begin_raid_step(rec):
    """R45: a Raid needs a Raiding Party and a living opponent; else on to Reinforce."""
    p = int(rec["turn_player"])
    if count(rec["f_party"][p]) > 0 and living(rec) > 1:
        rec["phase"] = Phase.RAID_TARGET
    else:
        start_reinforce(rec)


@njit(cache=True)
def start_raid(rec, q):
    clear_raid(rec)
    rec["defender"] = q
    for c in range(CELLS):
        if rec["grid"][q, c] == ENTRANCE:
            rec["marker"] = c
    arrive(rec)


@njit(cache=True)
def arrive(rec):
    """R46, R37: the Marker lands; a Trap springs; Station Tiles may be Defended."""
    q = int(rec["defender"])
    c = int(rec["marker"])
    if rec["visited"][c]:
        rec["phase"] = Phase.ADVANCE
        return
    rec["visited"][c] = 1
    t = int(rec["grid"][q, c])
    if T_KIND[t] == 1 and rec["side"][q, c] == 0:
        # an unsprung Trap springs at once (B-side up, seen by all); the spring is an
        # Action of its owner: its effect comes after the responses (R37, R67)
        rec["side"][q, c] = 1
        i = stack_push(rec["stack"], rec["stack_n"], K_TRAP, q)
        rec["stack"][i, S_CARD] = c
        rec["stack"][i, S_TARGET] = -1
        return  # its window opens from apply_action (open_raid_window)
    offer_defense(rec)


@njit(cache=True)
def spring(rec, c):
    """R37: a sprung Trap's effect on the Raider, then the Tile may be Defended (R38).

    A Raider eliminated by it: ``advance`` ends their turn (R82).
    """
    q = int(rec["defender"])
    t = int(rec["grid"][q, c])
    e = T_EFFECT[t]
    p = int(rec["turn_player"])
    if e == E_TRAP_DISCARD:
        if count(rec["f_party"][p]) > 0:
            rec["trap_left"] = T_A[t]
            rec["phase"] = Phase.TRAP_DISCARD
            return
    elif e == E_TRAP_DAMAGE:
        damage(rec, p, T_A[t])
        if rec["phase"] == Phase.OVER or not rec["alive"][p]:
            return
    elif e == E_TRAP_END:
        end_raid(rec)
        return
    offer_defense(rec)


@njit(cache=True)
def offer_defense(rec):
    q = int(rec["defender"])
    c = int(rec["marker"])
    t = int(rec["grid"][q, c])
    if T_STATIONS[t, rec["side"][q, c]] > 0 and not rec["conquered"][c]:
        if count(rec["f_temple"][q]) > 0:
            rec["picked"] = 0
            rec["phase"] = Phase.DEFEND
        else:
            conquer(rec)
    else:
        rec["phase"] = Phase.ADVANCE


@njit(cache=True)
def conquer(rec):
    c = int(rec["marker"])
    rec["conquered"][c] = 1
    if rec["grid"][rec["defender"], c] == HEART:
        push_smite(rec)
    else:
        rec["phase"] = Phase.ADVANCE


@njit(cache=True)
def roll_side(rec, s):
    k = 0
    for t in range(NF):
        k += rec["f_fight"][s, t] * F_DICE[t]
    k = min(k + rec["extra"][s], MAX_DICE)
    rec["extra"][s] = 0
    clear_dice(rec, s)
    rec["dice_n"][s] = k
    for i in range(k):
        rec["dice"][s, i] = roll(COMBAT_DIE, rec["rng"])


@njit(cache=True)
def low_slots(rec, s):
    """R50: dice of side ``s``'s die-dependent Faithful (LOW_DIE_BONUS: the Strategist)."""
    k = 0
    for t in range(NF):
        if F_LOW_DIE[t] > 0:
            k += rec["f_fight"][s, t] * F_DICE[t]
    return k


@njit(cache=True)
def assignment_matters(rec, s):
    """R50: the owner is asked only when the assignment can change the Combat Roll.

    A die-dependent Faithful fights, there are more dice than its die slots, and some die
    meets its bonus's face and some does not.
    """
    slots = low_slots(rec, s)
    n = int(rec["dice_n"][s])
    if slots == 0 or n <= slots:
        return False
    lo = False
    hi = False
    for t in range(NF):
        if F_LOW_DIE[t] > 0 and rec["f_fight"][s, t] > 0:
            for i in range(n):
                if rec["dice"][s, i] <= F_LOW_FACE[t]:
                    lo = True
                else:
                    hi = True
    return lo and hi


@njit(cache=True)
def next_low_type(rec, s):
    """R50: the die-dependent Faithful type of side ``s`` with a die slot still free."""
    for t in range(NF):
        if F_LOW_DIE[t] > 0 and dice_to(rec, s, t) < rec["f_fight"][s, t] * F_DICE[t]:
            return t
    return -1


@njit(cache=True)
def auto_assign(rec, s):
    """R50 without a decision: the lowest dice to the die-dependent Faithful."""
    for _ in range(min(low_slots(rec, s), int(rec["dice_n"][s]))):
        rec["die_to"][s, find_die(rec, s, -1, True)] = next_low_type(rec, s)


@njit(cache=True)
def side_total(rec, s):
    """R52: one side's Combat Roll.

    A die assigned to a die-dependent Faithful adds its bonus when it meets the face (R50).
    """
    p = int(rec["turn_player"])
    q = int(rec["defender"])
    total = 0
    for i in range(rec["dice_n"][s]):
        total += rec["dice"][s, i]
        t = int(rec["die_to"][s, i])  # R50: a die assigned to a die-dependent Faithful
        if t >= 0 and rec["dice"][s, i] <= F_LOW_FACE[t]:
            total += F_LOW_DIE[t]
    size = count(rec["f_fight"][s])
    for t in range(NF):
        m = rec["f_fight"][s, t]
        if m == 0:
            continue
        total += m * (F_RAID[t] if s == 0 else F_DEFEND[t])
        total += m * F_ALLY[t] * (size - 1)
    total += rec["bonus"][s]  # ability discards (R43)
    if s == 0:
        total += relic_sum(rec, p, R_RAID_BONUS) + b_side_sum(rec, p, T_RAID_BONUS)
    else:
        c = int(rec["marker"])
        total += T_BONUS[rec["grid"][q, c], rec["side"][q, c]]
        total += relic_sum(rec, q, R_DEFENSE_BONUS)
    return max(0, total)


@njit(cache=True)
def shown_total(rec, s):
    """Side ``s``'s Combat Roll as the observation shows it (R52).

    While a fight is live (from the Defense roll's Action through its rounds, the
    Raider's dispatch and the Raid roll: ``fin`` set or ``Phase.DISPATCH``) it is the
    running total of the dice, the Faithful and the bonuses on the table; once the fight
    is decided it is the total the fight compared (``totals``).
    """
    if rec["fin"] > 0 or rec["phase"] == Phase.DISPATCH:
        return side_total(rec, s)
    return int(rec["totals"][s])


@njit(cache=True)
def fight(rec):
    """R52-R55: the final Combat Rolls.

    Ties go to the Defender unless only the Raider's side has WIN_TIES.
    """
    p = int(rec["turn_player"])
    q = int(rec["defender"])
    a = side_total(rec, 0)
    b = side_total(rec, 1)
    rec["totals"][0] = a
    rec["totals"][1] = b
    raider_ties = rec["win_ties"][0] and not rec["win_ties"][1]
    for s in range(2):
        rec["bonus"][s] = 0
        rec["win_ties"][s] = 0
        rec["extra"][s] = 0
        rec["protect"][s] = 0
    if a > b or (a == b and raider_ties):
        for t in range(NF):
            rec["f_defeated"][t] += rec["f_fight"][1, t]
            rec["f_fight"][1, t] = 0
        rec["conquered"][rec["marker"]] = 1
        rec["phase"] = Phase.RECALL
    else:
        for t in range(NF):
            rec["f_discard"][p, t] += rec["f_fight"][0, t]
            rec["f_fight"][0, t] = 0
        if q >= 0:
            end_raid(rec)


@njit(cache=True)
def after_conquest(rec):
    if rec["grid"][rec["defender"], rec["marker"]] == HEART:
        push_smite(rec)
    else:
        rec["phase"] = Phase.ADVANCE


@njit(cache=True)
def push_smite(rec):
    """R57-R58, R71: the Smite is an Action of the Raider against the Defender.

    Its first entry rolls the Smiting Die after the responses before the roll; the roll
    pushes a second entry (card = the face) whose window comes before the damage. The
    window opens from the caller (``open_raid_window``, or the loop of ``advance``), so
    that no kernel calls back up into ``advance``.
    """
    i = stack_push(rec["stack"], rec["stack_n"], K_SMITE, rec["turn_player"])
    rec["stack"][i, S_CARD] = 0
    rec["stack"][i, S_TARGET] = rec["defender"]


@njit(cache=True)
def push_roll(rec, s):
    """R47-R49, R71: a group played to the fight and its roll are one Action.

    Side 1: the Defenders chosen, their Defense roll; side 0: the dispatched, the Raid
    roll. The entry's window comes before the dice are rolled and is part of the fight
    (``fin`` 1 or 2: fight-timed cards are legal in it); when it resolves the dice are
    rolled and the round after the roll begins (R47, R51).
    """
    if s == 1:  # a new fight: the last fight's dice leave the table
        clear_dice(rec, 0)
        clear_dice(rec, 1)
    rec["fin"] = 1 if s == 1 else 2
    rec["priority"] = rec["turn_player"]
    rec["passes"] = 0
    owner = rec["defender"] if s == 1 else rec["turn_player"]
    i = stack_push(rec["stack"], rec["stack_n"], K_ROLL, owner)
    rec["stack"][i, S_CARD] = s
    rec["stack"][i, S_TARGET] = -1


@njit(cache=True)
def open_raid_window(rec):
    """A raid Action just pushed (a roll, a Trap, the Smite) opens its window (R71)."""
    if rec["stack_n"][0] > 0 and rec["phase"] != Phase.OVER:
        advance(rec)


@njit(cache=True)
def resolve_raid_entry(rec, kind, c):
    """A raid Action resolves (R37, R47-R49, R58). True when it set the next decision."""
    if kind == K_ROLL:
        roll_side(rec, c)
        if assignment_matters(rec, c):  # R50: the owner assigns the dice
            rec["assign_left"] = min(low_slots(rec, c), int(rec["dice_n"][c]))
            rec["actor"] = rec["defender"] if c == 1 else rec["turn_player"]
            rec["phase"] = Phase.ASSIGN
            return True
        auto_assign(rec, c)
        begin_round(rec, 1 if c == 1 else 2)
        return True
    if kind == K_TRAP:
        spring(rec, c)
        return rec["stack_n"][0] == 0  # False: it led to the Heart's Smite, now on the stack
    if kind == K_ONSMITE:  # R59: one on-Smite trigger, after its window
        if on_smite_effect(rec, c) or rec["phase"] == Phase.OVER:
            return True
        return not next_on_smite(rec)  # False: the next trigger waits on the stack
    if c == 0:  # the Smiting Die is rolled; the damage waits for its window
        face = roll(SMITING_DIE, rec["rng"])
        rec["smite_roll"] = face
        i = stack_push(rec["stack"], rec["stack_n"], K_SMITE, rec["turn_player"])
        rec["stack"][i, S_CARD] = face
        rec["stack"][i, S_TARGET] = rec["defender"]
        return False
    smite(rec, c)
    return rec["stack_n"][0] == 0  # False: an on-Smite trigger waits on the stack (R59)


@njit(cache=True)
def smite(rec, face):
    """R57-R58: damage = Party Faithful + the Smiting Die (+ bonuses - reductions)."""
    p = int(rec["turn_player"])
    q = int(rec["defender"])
    dmg = count(rec["f_party"][p]) + face
    for t in range(NF):
        dmg += rec["f_party"][p, t] * F_SMITE_BONUS[t]
    dmg -= relic_sum(rec, q, R_SMITE_REDUCE)
    dmg += decree_sum(rec, E_DECREE_SMITE)  # R88 (damage() ignores a total below 1)
    damage(rec, q, dmg)
    if rec["phase"] == Phase.OVER:
        return
    rec["onsm"] = 0  # R59: the on-Smite triggers, after the damage
    rec["onsm_k"] = 0
    next_on_smite(rec)


@njit(cache=True)
def on_smite_copies(rec, x):
    """R59: how many times trigger ``x`` fires for the Raider.

    ``x`` < NF: an ``on_smite`` Faithful type in the Raiding Party (Vandal, Thief), else
    NF + an ``on_smite`` Relic type held (the Crowns). Triggers aimed at the Smitten player
    do not fire once they are out of the game.
    """
    p = int(rec["turn_player"])
    q = int(rec["defender"])
    if x < NF:
        if F_WHEN[x] != W_ON_SMITE or not rec["alive"][q]:
            return 0
        return int(rec["f_party"][p, x])
    r = x - NF
    if R_WHEN[r] != W_ON_SMITE:
        return 0
    e = R_EFFECT[r]
    if (e == E_DAMAGE or e == E_STEAL or e == E_SMASH) and not rec["alive"][q]:
        return 0
    return int(rec["r_owned"][p, r])


@njit(cache=True)
def next_on_smite(rec):
    """R59, R67: put the next on-Smite trigger on the stack (an Action of the Raider).

    Faithful in ``type`` order, one entry per copy, then the Crowns. True when one was
    pushed (its window opens from the caller); else the Raid ends.
    """
    x = int(rec["onsm"])
    k = int(rec["onsm_k"])
    while 0 <= x < NF + NR:
        if k < on_smite_copies(rec, x):
            i = stack_push(rec["stack"], rec["stack_n"], K_ONSMITE, rec["turn_player"])
            rec["stack"][i, S_CARD] = x
            rec["stack"][i, S_TARGET] = rec["defender"]
            rec["onsm"] = x
            rec["onsm_k"] = k + 1
            return True
        x += 1
        k = 0
    rec["onsm"] = -1
    rec["onsm_k"] = 0
    end_raid(rec)
    return False


@njit(cache=True)
def continue_on_smite(rec):
    """After a trigger's decision (a Vandal's pick, a Crown's draws): the next trigger."""
    if next_on_smite(rec):
        advance(rec)


@njit(cache=True)
def on_smite_effect(rec, x):
    """R59: trigger ``x`` resolves; True when its owner must decide (a Vandal, a draw)."""
    p = int(rec["turn_player"])
    q = int(rec["defender"])
    if x < NF:
        if not rec["alive"][q]:
            return False
        if F_SMASH_ON_SMITE[x] > 0:  # Vandal: the Raider picks one of the Smitten's Relics
            if count(rec["r_owned"][q]) > 0:
                rec["vandals"] = 1
                rec["phase"] = Phase.VANDAL
                return True
        elif F_STEAL_ON_SMITE[x] > 0:  # Thief
            g = min(F_STEAL_ON_SMITE[x], rec["gold"][q])
            add_gold(rec, q, -g)
            add_gold(rec, p, g)
        return False
    r = x - NF
    e = R_EFFECT[r]
    if e == E_DAMAGE and rec["alive"][q]:
        damage(rec, q, R_A[r])
    elif e == E_STEAL and rec["alive"][q]:
        g = min(R_A[r], rec["gold"][q])
        add_gold(rec, q, -g)
        add_gold(rec, p, g)
    elif e == E_HEAL:
        heal(rec, p, R_A[r])
    elif e == E_DRAW_FATE and any_fate_deck(rec):
        rec["draws"] = R_A[r]
        rec["draw_in_raid"] = 1
        rec["actor"] = p
        rec["phase"] = Phase.DRAW
        return True
    return False


@njit(cache=True)
def end_raid(rec):
    """R60: Defenders that fought return to the Temple; on to Reinforce."""
    release_fight(rec)
    clear_raid(rec)
    start_reinforce(rec)


@njit(cache=True)
def release_fight(rec):
    """R60: the Defenders that fought go home, the dispatched to the Raider's Discard Pile."""
    p = int(rec["turn_player"])
    q = int(rec["defender"])
    for t in range(NF):
        if q >= 0 and rec["alive"][q]:
            rec["f_temple"][q, t] += rec["f_fight"][1, t] + rec["f_defeated"][t]
        rec["f_fight"][1, t] = 0
        rec["f_defeated"][t] = 0
        if rec["alive"][p]:
            rec["f_discard"][p, t] += rec["f_fight"][0, t]
            rec["f_fight"][0, t] = 0


# ---------------------------------------------------------------- Reinforce


@njit(cache=True)
def start_reinforce(rec):
    """R61: every Faithful of the turn player is gathered face down for the split."""
    p = int(rec["turn_player"])
    for t in range(NF):
        rec["f_pool"][p, t] += rec["f_temple"][p, t] + rec["f_party"][p, t] + \
            rec["f_discard"][p, t]
        rec["f_temple"][p, t] = 0
        rec["f_party"][p, t] = 0
        rec["f_discard"][p, t] = 0
    rec["phase"] = Phase.REINFORCE


# ---------------------------------------------------------------- legal / apply


@njit(cache=True)
def asks(rec):
    """R70 Reading: whether the current player decides even with only ``pass`` legal.

    The seat asked in a window or a fight's round was chosen by ``has_play`` from public
    information; the core's ``settle`` would otherwise pass for it (and tell everyone it
    has nothing to play).
    """
    ph = int(rec["phase"])
    return ph == Phase.RESPOND or ph == Phase.FINALIZE


@njit(cache=True)
def legal_mask(rec, mask):
    """Legal actions of the current player."""
    for a in range(mask.shape[0]):
        mask[a] = 0
    ph = int(rec["phase"])
    p = int(rec["turn_player"])
    q = int(rec["defender"])
    if ph == Phase.MARKET:
        market_legal(rec, mask)
    elif ph == Phase.RESPOND:
        mask[PASS] = 1
        action_mask(rec, int(rec["current_player"]), True, mask)
    elif ph == Phase.FINALIZE:
        mask[PASS] = 1  # R51
        action_mask(rec, int(rec["priority"]), False, mask)
    elif ph == Phase.PICK_DIE:
        for s in range(2):
            for i in range(MAX_DICE):
                if die_pickable(rec, s, i):
                    mask[PICK_DIE_A + s * MAX_DICE + i] = 1
        if rec["die_set"] == 0:
            mask[PASS] = 1  # a reroll of "up to" that many dice
    elif ph == Phase.FATE_TARGET:
        s = int(rec["actor"])
        n = int(rec["num_players"])
        e, x = play_effect(int(rec["sel_play"]))
        for k in range(n - 1):
            if target_ok(rec, s, (s + 1 + k) % n, e, x):
                mask[TARGET_SEAT + k] = 1
    elif ph == Phase.CHOOSE:
        choice_legal(rec, mask)
    elif ph == Phase.ASSIGN:
        s = 1 if rec["actor"] == q else 0
        for i in range(rec["dice_n"][s]):
            if rec["die_to"][s, i] < 0:
                mask[PICK_DIE_A + s * MAX_DICE + i] = 1
    elif ph == Phase.COVER_RELIC:
        for k in range(SPOTS):
            if return_coverable(rec, k):
                mask[SPOT + SPOTS + k] = 1
    elif ph == Phase.COVER_FAITHFUL:
        for k in range(SPOTS):
            if coverable(rec, k):  # R13: never a Decree
                mask[SPOT + k] = 1
    elif ph == Phase.DRAW:
        for f in range(4):
            if rec["c_deck_n"][f] > 0:
                mask[FATE_DECK + f] = 1
    elif ph == Phase.CYCLE:
        for k in range(SPOTS):
            if rec["f_row_n"][k] > 0:
                mask[SPOT + k] = 1
            if rec["r_row_n"][k] > 0:
                mask[SPOT + SPOTS + k] = 1
        mask[PASS] = 1
    elif ph == Phase.PLACE_CELL:
        t = int(rec["t_held"])
        for c in range(CELLS):
            if rec["grid"][p, c] < 0:
                for r in range(4):
                    if legal_with(rec, p, c, t, 0, r):
                        mask[CELL + c] = 1
                        break
    elif ph == Phase.PLACE_ROT:
        for r in range(4):
            if legal_with(rec, p, rec["sel_cell"], rec["t_held"], 0, r):
                mask[ROTATION + r] = 1
    elif ph == Phase.FLIP_ROT:
        for r in range(4):
            if flip_rotation_ok(rec, p, rec["sel_cell"], r):
                mask[ROTATION + r] = 1
    elif ph == Phase.MOVE_CELL:
        occ = np.zeros(CELLS, np.int8)
        doors = np.zeros(CELLS, np.int64)
        for d in range(CELLS):
            for r in range(4):
                if move_ok(rec, p, rec["sel_cell"], d, r, occ, doors):
                    mask[CELL + d] = 1
                    break
    elif ph == Phase.MOVE_ROT:
        occ = np.zeros(CELLS, np.int8)
        doors = np.zeros(CELLS, np.int64)
        for r in range(4):
            if move_ok(rec, p, rec["sel_cell"], rec["move_to"], r, occ, doors):
                mask[ROTATION + r] = 1
    elif ph == Phase.SEARCH:
        s = int(rec["actor"])
        for i in range(rec["r_deck_n"]):
            r = int(rec["r_deck"][i])
            if search_matches(rec, s, r, rec["search"]):
                mask[PICK_RELIC + r] = 1
        mask[PASS] = 1
    elif ph == Phase.RAID_TARGET:
        n = int(rec["num_players"])
        for k in range(n - 1):
            if rec["alive"][(p + 1 + k) % n]:
                mask[TARGET_SEAT + k] = 1
        mask[PASS] = 1
    elif ph == Phase.DEFEND:
        c = int(rec["marker"])
        st = T_STATIONS[rec["grid"][q, c], rec["side"][q, c]]
        if rec["picked"] < st:
            for t in range(NF):
                if rec["f_temple"][q, t] > 0:
                    mask[PICK_FAITHFUL + t] = 1
        mask[PASS] = 1
    elif ph == Phase.DISPATCH:
        for t in range(NF):
            if rec["f_party"][p, t] > 0:
                mask[PICK_FAITHFUL + t] = 1
        if rec["picked"] > 0:
            mask[PASS] = 1
        else:
            mask[RETREAT] = 1
    elif ph == Phase.RECALL:
        for t in range(NF):
            if rec["f_fight"][0, t] > 0:
                mask[PICK_FAITHFUL + t] = 1
    elif ph == Phase.ADVANCE:
        if rec["moves"] < MAX_MOVES:
            c = int(rec["marker"])
            doors = tile_doors(rec, q, c)
            for d in range(4):
                o = neighbour(c, d)
                if (doors >> d) & 1 and o >= 0 and rec["grid"][q, o] >= 0 \
                        and (tile_doors(rec, q, o) >> ((d + 2) % 4)) & 1:
                    mask[DIRECTION + d] = 1
        mask[RETREAT] = 1
    elif ph == Phase.TRAP_DISCARD:
        for t in range(NF):
            if rec["f_party"][p, t] > 0:
                mask[PICK_FAITHFUL + t] = 1
    elif ph == Phase.VANDAL:
        for r in range(NR):
            if rec["r_owned"][q, r] > 0:
                mask[PICK_RELIC + r] = 1
    elif ph == Phase.REINFORCE:
        if count(rec["f_temple"][p]) < temple_sum(rec, p, T_STATIONS):
            for t in range(NF):
                if rec["f_pool"][p, t] > 0:
                    mask[PICK_FAITHFUL + t] = 1
        mask[PASS] = 1


@njit(cache=True)
def respond_apply(rec, s, a):
    """Seat ``s``'s Action in a response window or a fight's round (R69-R70, R51)."""
    if in_block(a, FLIP, CELLS):  # R34: the Defender flips, the rotation stays
        push_flip(rec, s, a - FLIP, int(rec["rot"][s, a - FLIP]))
    elif in_block(a, ABILITY, NF):  # R43: an ability discard
        push_ability(rec, s, a - ABILITY)
    elif in_block(a, PLAY_FATE, NC):
        begin_play(rec, s, a - PLAY_FATE)
    else:  # in_block(a, USE_RELIC, NR)
        begin_play(rec, s, NC + a - USE_RELIC)


@njit(cache=True)
def apply_action(rec, a):
    """Apply one legal decision of the current player."""
    ph = int(rec["phase"])
    p = int(rec["turn_player"])
    q = int(rec["defender"])
    if ph == Phase.MARKET:
        market_apply(rec, a)
    elif ph == Phase.RESPOND:
        s = int(rec["current_player"])
        if a == PASS:
            advance(rec)
        else:
            respond_apply(rec, s, a)
    elif ph == Phase.FINALIZE:
        s = int(rec["priority"])
        if a == PASS:
            rec["passes"] += 1
            rec["priority"] = (s + 1) % rec["num_players"]
            round_next(rec)
        else:  # R51: an Action in the fight's round
            respond_apply(rec, s, a)
    elif ph == Phase.PICK_DIE:
        if a == PASS:
            rec["die_left"] = 0
        else:
            s = (a - PICK_DIE_A) // MAX_DICE
            i = (a - PICK_DIE_A) % MAX_DICE
            if rec["die_set"] > 0:
                rec["dice"][s, i] = rec["die_set"]
            else:
                rec["dice"][s, i] = roll(COMBAT_DIE, rec["rng"])
            rec["die_left"] -= 1
        if rec["die_left"] <= 0 or not any_die_pickable(rec):
            rec["die_left"] = 0
            rec["die_set"] = 0
            rec["actor"] = -1
            advance(rec)
    elif ph == Phase.CHOOSE:
        choice_apply(rec, a)
    elif ph == Phase.MOVE_CELL:
        rec["move_to"] = a - CELL
        rec["phase"] = Phase.MOVE_ROT
    elif ph == Phase.MOVE_ROT:
        move_tile(rec, p, int(rec["sel_cell"]), int(rec["move_to"]), a - ROTATION)
        rec["sel_cell"] = -1
        rec["move_to"] = -1
        rec["rearranged"] += 1
        rec["phase"] = Phase.MARKET
    elif ph == Phase.ASSIGN:
        s = (a - PICK_DIE_A) // MAX_DICE
        rec["die_to"][s, (a - PICK_DIE_A) % MAX_DICE] = next_low_type(rec, s)
        rec["assign_left"] -= 1
        if rec["assign_left"] <= 0:
            rec["assign_left"] = 0
            rec["actor"] = -1
            begin_round(rec, 1 if s == 1 else 2)  # R47, R51: the round after the roll
    elif ph == Phase.FATE_TARGET:
        s = int(rec["actor"])
        push_play(rec, s, int(rec["sel_play"]),
                  (s + 1 + a - TARGET_SEAT) % rec["num_players"])
    elif ph == Phase.COVER_RELIC:
        k = a - SPOT - SPOTS
        rec["r_row"][k, rec["r_row_n"][k]] = rec["r_held"]
        rec["r_row_n"][k] += 1
        rec["r_held"] = -1
        if rec["r_then"] >= 0:
            return_relics(rec)  # R20: the next old Relic, then the acquisition
        else:
            reveal_faithful(rec)
    elif ph == Phase.COVER_FAITHFUL:
        k = a - SPOT
        rec["f_row"][k, rec["f_row_n"][k]] = rec["f_held"]
        rec["f_row_n"][k] += 1
        rec["f_held"] = -1
        begin_market(rec)
    elif ph == Phase.DRAW:
        draw_fate(rec, int(rec["actor"]), a - FATE_DECK)
        rec["draws"] -= 1
        if rec["draws"] <= 0 or not any_fate_deck(rec):
            rec["draws"] = 0
            rec["actor"] = -1
            if rec["draw_in_raid"]:
                rec["draw_in_raid"] = 0
                continue_on_smite(rec)  # R59: a Crown's draws, then the next trigger
            else:
                advance(rec)
    elif ph == Phase.CYCLE:
        if a != PASS:
            k = a - SPOT
            if k < SPOTS:
                rec["f_row_n"][k] -= 1
                x = rec["f_row"][k, rec["f_row_n"][k]]
                rec["f_row"][k, rec["f_row_n"][k]] = -1
                rec["f_deck_n"] = push_bottom(rec["f_deck"], rec["f_deck_n"], x)
            else:
                k -= SPOTS
                rec["r_row_n"][k] -= 1
                x = rec["r_row"][k, rec["r_row_n"][k]]
                rec["r_row"][k, rec["r_row_n"][k]] = -1
                rec["r_deck_n"] = push_bottom(rec["r_deck"], rec["r_deck_n"], x)
        advance(rec)
    elif ph == Phase.PLACE_CELL:
        rec["sel_cell"] = a - CELL
        rec["phase"] = Phase.PLACE_ROT
    elif ph == Phase.PLACE_ROT:
        c = int(rec["sel_cell"])
        rec["grid"][p, c] = int(rec["t_held"])
        rec["side"][p, c] = 0
        rec["rot"][p, c] = a - ROTATION
        rec["t_held"] = -1
        rec["sel_cell"] = -1
        rec["phase"] = Phase.MARKET
    elif ph == Phase.FLIP_ROT:
        push_flip(rec, p, int(rec["sel_cell"]), a - ROTATION)
    elif ph == Phase.SEARCH:
        rec["search"] = 0
        if a == PASS:
            end_search(rec)
        else:  # R20: the old Fate's Relics go back first, then the deck is searched
            acquire_relic(rec, int(rec["actor"]), a - PICK_RELIC, R_FROM_DECK, Phase.SEARCH)
    elif ph == Phase.RAID_TARGET:
        if a == PASS:
            start_reinforce(rec)
        else:
            start_raid(rec, (p + 1 + a - TARGET_SEAT) % rec["num_players"])
    elif ph == Phase.DEFEND:
        if a == PASS:
            if rec["picked"] == 0:
                conquer(rec)
            else:
                rec["picked"] = 0
                push_roll(rec, 1)  # R47, R71: the Defense roll, responses before it
        else:
            t = a - PICK_FAITHFUL
            rec["f_temple"][q, t] -= 1
            rec["f_fight"][1, t] += 1
            rec["picked"] += 1
    elif ph == Phase.DISPATCH:
        if a == RETREAT:
            end_raid(rec)
        elif a == PASS:
            push_roll(rec, 0)  # R49, R71: the Raid roll, responses before it
        else:
            t = a - PICK_FAITHFUL
            rec["f_party"][p, t] -= 1
            rec["f_fight"][0, t] += 1
            rec["picked"] += 1
    elif ph == Phase.RECALL:
        t = a - PICK_FAITHFUL
        rec["f_fight"][0, t] -= 1
        rec["f_party"][p, t] += 1
        if rec["recall_more"] > 0 and count(rec["f_fight"][0]) > 0:
            rec["recall_more"] -= 1  # RECALL_EXTRA (Rally): one more to recall
            set_current(rec)
            return
        rec["recall_more"] = 0
        for u in range(NF):
            rec["f_discard"][p, u] += rec["f_fight"][0, u]
            rec["f_fight"][0, u] = 0
        after_conquest(rec)
    elif ph == Phase.ADVANCE:
        if a == RETREAT:
            end_raid(rec)
        else:
            rec["marker"] = neighbour(rec["marker"], a - DIRECTION)
            rec["moves"] += 1
            arrive(rec)
    elif ph == Phase.TRAP_DISCARD:
        t = a - PICK_FAITHFUL
        rec["f_party"][p, t] -= 1
        rec["f_discard"][p, t] += 1
        rec["trap_left"] -= 1
        if rec["trap_left"] <= 0 or count(rec["f_party"][p]) == 0:
            rec["trap_left"] = 0
            offer_defense(rec)
    elif ph == Phase.VANDAL:
        r = a - PICK_RELIC
        rec["r_owned"][q, r] -= 1
        rec["r_deck_n"] = push_bottom(rec["r_deck"], rec["r_deck_n"], r)  # R64
        rec["vandals"] = 0
        continue_on_smite(rec)
    elif ph == Phase.REINFORCE:
        if a == PASS:
            for t in range(NF):
                rec["f_party"][p, t] += rec["f_pool"][p, t]
                rec["f_pool"][p, t] = 0
            end_turn(rec)
        else:
            t = a - PICK_FAITHFUL
            rec["f_pool"][p, t] -= 1
            rec["f_temple"][p, t] += 1
    if ph == Phase.RAID_TARGET or ph == Phase.DEFEND or ph == Phase.DISPATCH \
            or ph == Phase.RECALL or ph == Phase.ADVANCE or ph == Phase.TRAP_DISCARD:
        open_raid_window(rec)  # a roll, a Trap or a Smite pushed by this decision (R71)
    set_current(rec)


# ---------------------------------------------------------------- search support


# ISMCTS's value of a position (``evaluate``): Life, plus what a seat owns at the prices it
# pays in the Marketplace. A rollout cut after ``rollout_depth`` decisions rarely sees Life
# change (a Smite needs a whole Raid), so Life alone scored every action alike; what was
# bought, gained and held is progress a few decisions show.
ASSET_RATE = 1.25  # a bought card is worth more than the gold paid for it (it pays again)
GOLD_PER_LIFE = 8.0  # gold worth one Life point
DEPTH_LIFE = 1.0  # Life points per Tile a Raid must cross to reach the Heart
VALUE_SCALE = 8.0  # the lead in Life points whose value is tanh(1)


@njit(cache=True)
def holdings(rec, p):
    """What seat ``p`` owns, in gold at Marketplace prices (R18-R23), its gold not included.

    Its Faithful in every zone (a fighting side's, set aside or not, included), Relics,
    bought and flipped Tiles and Fate cards in hand. Public: which Faithful, Relics and
    Tiles a seat owns is seen, and how many Fate cards it holds (only the Temple / Party
    split and the hand's cards are hidden, and this sums over both).
    """
    f = 0
    raid = rec["defender"] >= 0
    for t in range(NF):
        k = rec["f_temple"][p, t] + rec["f_party"][p, t] + rec["f_discard"][p, t] \
            + rec["f_pool"][p, t]
        if raid and p == rec["turn_player"]:
            k += rec["f_fight"][0, t]
        if raid and p == rec["defender"]:
            k += rec["f_fight"][1, t] + rec["f_defeated"][t]
        f += k * F_COST[t]
    tiles = 0
    for c in range(CELLS):
        if rec["grid"][p, c] >= 5:  # a Tile from the Tile Deck (0-4: the Starting Tiles)
            tiles += 1
    return (f + relic_sum(rec, p, R_COST) + tiles * TILE_PRICE + b_side_sum(rec, p, T_FLIP)
            + count(rec["c_hand"][p]) * FATE_PRICE)


@njit(cache=True)
def standing(rec, p):
    """Seat ``p``'s position in Life points.

    Life and Prevent, its gold and holdings, and how deep its Heart lies (a rearranged
    Temple can bring it next to the Entrance).
    """
    return (rec["life"][p] + rec["shield"][p] + DEPTH_LIFE * heart_depth(rec, p)
            + (rec["gold"][p] + ASSET_RATE * holdings(rec, p)) / GOLD_PER_LIFE)


@njit(cache=True)
def evaluate(rec, values):
    """ISMCTS's per-seat values of a rollout cut short, in (-1, 1).

    tanh of the seat's ``standing`` lead over the mean of the other living seats, over
    ``VALUE_SCALE``; an eliminated seat -1; a game that ended scores its returns.
    """
    n = int(rec["num_players"])
    if rec["terminated"]:
        for p in range(n):
            values[p] = rec["returns"][p]
        return
    total = 0.0
    alive = 0
    for p in range(n):
        values[p] = standing(rec, p) if rec["alive"][p] else 0.0
        total += values[p]
        alive += rec["alive"][p]
    for p in range(n):
        if not rec["alive"][p]:
            values[p] = -1.0
        else:
            others = (total - values[p]) / max(1, alive - 1)
            values[p] = np.tanh((values[p] - others) / VALUE_SCALE)


@njit(cache=True)
def _shuffle_counts(counts, sizes, groups, rng):
    """Deal ``counts`` (by type) at random into ``groups`` rows of ``sizes`` cards."""
    total = 0
    for t in range(counts.shape[0]):
        total += counts[t]
    cards = np.zeros(max(total, 1), np.int64)
    m = 0
    for t in range(counts.shape[0]):
        for _ in range(counts[t]):
            cards[m] = t
            m += 1
    shuffle(cards, m, rng)
    out = np.zeros((groups, counts.shape[0]), np.int64)
    i = 0
    for g in range(groups):
        for _ in range(sizes[g]):
            out[g, cards[i]] += 1
            i += 1
    return out


@njit(cache=True)
def _sorted_shuffle(arr, n, rng):
    arr[:n].sort()
    shuffle(arr, n, rng)


@njit(cache=True)
def determinize_record(rec, viewer, words):
    """Resample what ``viewer`` cannot see, from what they saw only; reseed the RNG.

    Each opponent's Temple / Raiding Party / Reinforce split (sizes kept), opponents' Fate
    hands (per Fate Deck they drew from, sizes kept), every deck order, and opponents'
    unflipped deck Tiles (their B-sides, with the Tile Deck).
    """
    rng = np.zeros(4, np.int64)
    for i in range(4):
        rng[i] = words[i] & 0xFFFFFFFF
    if rng[0] == 0 and rng[1] == 0 and rng[2] == 0 and rng[3] == 0:
        rng[0] = 1
    n = int(rec["num_players"])
    sizes = np.zeros(3, np.int64)
    for q in range(n):
        if q == viewer:
            continue
        pool = np.zeros(NF, np.int64)
        sizes[0] = count(rec["f_temple"][q])
        sizes[1] = count(rec["f_party"][q])
        sizes[2] = count(rec["f_pool"][q])
        for t in range(NF):
            pool[t] = rec["f_temple"][q, t] + rec["f_party"][q, t] + rec["f_pool"][q, t]
        out = _shuffle_counts(pool, sizes, 3, rng)
        for t in range(NF):
            rec["f_temple"][q, t] = out[0, t]
            rec["f_party"][q, t] = out[1, t]
            rec["f_pool"][q, t] = out[2, t]
    # Fate hands, per Fate Deck: the deck and the opponents' cards drawn from it (the
    # deck a card came from is public, R87: its Fate, or c_sym for a Fatesworn-symbol card)
    # are dealt again, each opponent keeping how many it drew from that deck
    for f in range(4):
        pool = np.zeros(NC, np.int64)
        hs = np.zeros(MAX_P + 1, np.int64)
        for i in range(rec["c_deck_n"][f]):
            pool[rec["c_deck"][f, i]] += 1
        for q in range(n):
            if q == viewer:
                continue
            for k in range(NC):
                if C_FATE[k] == f:
                    pool[k] += rec["c_hand"][q, k]
                    hs[q] += rec["c_hand"][q, k]
                elif C_SYM[k] >= 0 and rec["c_sym"][q, f] >> C_SYM[k] & 1:
                    pool[k] += 1
                    hs[q] += 1
        hs[MAX_P] = rec["c_deck_n"][f]
        out = _shuffle_counts(pool, hs, MAX_P + 1, rng)
        for q in range(n):
            if q == viewer:
                continue
            bits = 0
            for k in range(NC):
                if C_FATE[k] == f:
                    rec["c_hand"][q, k] = out[q, k]
                elif C_SYM[k] >= 0:
                    rec["c_hand"][q, k] += out[q, k] - (rec["c_sym"][q, f] >> C_SYM[k] & 1)
                    if out[q, k] > 0:
                        bits |= 1 << C_SYM[k]
            rec["c_sym"][q, f] = bits
        m = 0
        for k in range(NC):
            for _ in range(out[MAX_P, k]):
                rec["c_deck"][f, m] = k
                m += 1
        shuffle(rec["c_deck"][f], m, rng)
    _sorted_shuffle(rec["f_deck"], rec["f_deck_n"], rng)
    _sorted_shuffle(rec["r_deck"], rec["r_deck_n"], rng)
    # deck Tiles: opponents' unflipped ones (and a Tile an opponent holds) with the deck
    pool = np.zeros(NT, np.int64)
    for i in range(rec["t_deck_n"]):
        pool[rec["t_deck"][i]] += 1
    hidden = 0
    for q in range(n):
        if q == viewer:
            continue
        for c in range(CELLS):
            t = int(rec["grid"][q, c])
            if t >= 5 and rec["side"][q, c] == 0:
                pool[t] += 1
                hidden += 1
    held = rec["t_held"] >= 0 and rec["turn_player"] != viewer
    if held:
        pool[rec["t_held"]] += 1
    cards = np.zeros(hidden + rec["t_deck_n"] + 2, np.int64)
    m = 0
    for t in range(NT):
        for _ in range(pool[t]):
            cards[m] = t
            m += 1
    shuffle(cards, m, rng)
    i = 0
    for q in range(n):
        if q == viewer:
            continue
        for c in range(CELLS):
            if rec["grid"][q, c] >= 5 and rec["side"][q, c] == 0:
                rec["grid"][q, c] = cards[i]
                i += 1
    if held:
        rec["t_held"] = cards[i]
        i += 1
    for j in range(rec["t_deck_n"]):
        rec["t_deck"][j] = cards[i]
        i += 1
    for i in range(4):
        rec["rng"][i] = next_u32(rng) | (1 if i == 0 else 0)
