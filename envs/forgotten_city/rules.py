"""Forgotten City rules (RULES.md R1-R61) as numba kernels over one record.

The round is a small state machine (``Phase``): each phase walks its seat order
(``porder``, fixed when the phase begins) with ``pidx``; ``proceed`` begins the next unit
of play (a pick, a settle, an action turn, a purchase turn, a fight, a leader move) and
stops at the first one that needs a decision, which it names in ``dec``.
"""

from __future__ import annotations

import numpy as np

from fatezoo.envs.core.decisions import in_block, open_where, set_block
from fatezoo.envs.core.jit import njit
from fatezoo.envs.core.kernels import split_rewards
from fatezoo.envs.core.rng import next_u32, randint, shuffle
from fatezoo.envs.core.state import REWARD_SCORE, SPLIT_TEST, SPLIT_TRAIN

from .state import (
    A_ABANDON,
    A_DAMAGE,
    A_DISCARD,
    A_KEEP,
    A_LEADER,
    A_MIRACLE,
    A_PASS,
    A_PICK,
    A_PLACE,
    A_RES,
    A_REST,
    ACT_BUILD0,
    ACT_DECODE,
    ACT_DIG,
    ADJ,
    ADJ_BITS,
    AREA_SPACES,
    AREA_VP,
    FREE_MARKERS,
    FX_AMOUNT,
    FX_EFFECT,
    GREY_OUT,
    GREY_SHOWN,
    HELPERS,
    HEX_SECTOR,
    LV_DEF,
    LV_INCOME,
    LV_INSP,
    MAX_BOXES,
    MAX_LEVEL,
    MAX_P,
    MAX_TRACK,
    MIR_TYPE,
    MON_BUILD,
    MON_COLOR,
    MON_COST,
    MON_DEC_FX,
    MON_DECODE,
    MON_EFFECTS,
    NM_ATTACKS,
    NM_BOX_VP,
    NM_COLOR,
    NM_HP,
    NUM_COLORS,
    NUM_GREY,
    NUM_HEX,
    NUM_LEVELS,
    NUM_MON,
    NUM_NM,
    NUM_NM_POS,
    NUM_PICKS,
    NUM_PLACE_ACTS,
    NUM_PORTALS,
    NUM_SECTORS,
    NUM_WHITE,
    PENALTY_VP,
    PICK_FIRST,
    PICK_SECOND,
    PICKS,
    PORTAL_BITS,
    PORTAL_COINS,
    PORTAL_HEX_BITS,
    PORTALS,
    PROD,
    RES_PER_COLOR,
    REST_COINS,
    ROUNDS,
    S_GREY_OUT,
    S_NM_OUT,
    SETUP_OUT,
    START_COINS,
    START_RES,
    START_VP,
    T_CENTRAL,
    T_PORTAL,
    T_STONE,
    TEST_SETUPS,
    TILE_LAYOUT,
    TRACK_CAP,
    TRACK_MONS,
    TRACK_SPACES,
    TRAIN_SETUPS,
    TREE_COST,
    TREE_SPACES,
    TREE_VP,
    TYPE_A,
    TYPE_B,
    TYPE_COLORS,
    TYPE_FX,
    TYPE_WHITE_NEEDED,
    WHITE_SHOWN,
    ZONE_0,
    ZONE_1,
    ZONE_SLOTS,
    Dec,
    Fx,
    Phase,
)

VP_REWARD_SCALE = 20.0
EVAL_SCALE = 12.0


# ------------------------------------------------------------------ small helpers


@njit(cache=True)
def track_order(rec, out):
    """Seats in track order (marker nearest the start first) into ``out[:n]``."""
    k = 0
    for s in range(MAX_TRACK):
        q = rec["track_marker"][s]
        if q >= 0:
            out[k] = q
            k += 1
    return k


@njit(cache=True)
def set_order(rec, reverse):
    """Fix this phase's seat order: track order, or its reverse."""
    n = rec["num_players"]
    porder = rec["porder"]
    for i in range(MAX_P):
        porder[i] = -1
    track_order(rec, porder)  # (no array allocated: this runs every phase)
    if reverse:
        for i in range(n // 2):
            x = porder[i]
            porder[i] = porder[n - 1 - i]
            porder[n - 1 - i] = x
    rec["pidx"] = 0


@njit(cache=True)
def count_owned(rec, p, fx):
    """How many miracle tiles with effect ``fx`` seat ``p`` owns."""
    c = 0
    for i in range(rec["tree_n"][p]):
        if TYPE_FX[MIR_TYPE[rec["tree"][p, i]]] == fx:
            c += 1
    return c


@njit(cache=True)
def count_white(rec, p):
    c = 0
    for i in range(rec["tree_n"][p]):
        if rec["tree"][p, i] < NUM_WHITE:
            c += 1
    return c


@njit(cache=True)
def take_coins(rec, p, k):
    """Seat ``p`` takes ``k`` coins from the (unlimited) supply."""
    rec["coins"][p] += k
    rec["coins_taken"] += k


@njit(cache=True)
def pay_coins(rec, p, k):
    rec["coins"][p] -= k
    rec["coins_paid"] += k


@njit(cache=True)
def gain_res(rec, p, c, k):
    """Seat ``p`` gains up to ``k`` resources of colour ``c`` (what the supply has)."""
    g = min(k, rec["supply"][c])
    rec["supply"][c] -= g
    rec["res"][p, c] += g
    return g


@njit(cache=True)
def pay_res(rec, p, cost):
    for c in range(NUM_COLORS):
        rec["res"][p, c] -= cost[c]
        rec["supply"][c] += cost[c]


@njit(cache=True)
def can_pay(rec, p, cost):
    for c in range(NUM_COLORS):
        if rec["res"][p, c] < cost[c]:
            return False
    return True


@njit(cache=True)
def supply_left(rec):
    t = 0
    for c in range(NUM_COLORS):
        t += rec["supply"][c]
    return t


@njit(cache=True)
def apply_effect(rec, p, fx, a):
    """One build or decode reward (RULES section 11); ANY_RESOURCES is queued."""
    if fx == Fx.GAIN_VP:
        rec["vp"][p] += a
    elif fx == Fx.GAIN_INSPIRATION:
        rec["insp"][p] = min(TRACK_CAP, rec["insp"][p] + a)
    elif fx == Fx.GAIN_DEFENSE:
        rec["defense"][p] = min(TRACK_CAP, rec["defense"][p] + a)
    elif fx == Fx.GAIN_COINS:
        take_coins(rec, p, a)
    elif fx == Fx.UP_INSPIRATION:
        rec["level"][p, LV_INSP] = min(MAX_LEVEL, rec["level"][p, LV_INSP] + a)
    elif fx == Fx.UP_DEFENSE:
        rec["level"][p, LV_DEF] = min(MAX_LEVEL, rec["level"][p, LV_DEF] + a)
    elif fx == Fx.UP_INCOME:
        rec["level"][p, LV_INCOME] = min(MAX_LEVEL, rec["level"][p, LV_INCOME] + a)
    elif fx == Fx.ANY_RESOURCES:
        rec["pending_any"] += a


@njit(cache=True)
def helpers_on(rec, h):
    """Helpers of every seat on hex ``h``."""
    c = 0
    for q in range(rec["num_players"]):
        for i in range(rec["nplaced"][q]):
            if rec["placed"][q, i] == h:
                c += 1
    return c


@njit(cache=True)
def blocked_by_leader(rec, p, h):
    """Another seat's leader stands on ``h`` and ``p``'s own leader does not (R18)."""
    if rec["leader"][p] == h:
        return False
    for q in range(rec["num_players"]):
        if q != p and rec["leader"][q] == h:
            return True
    return False


@njit(cache=True)
def reach_map(rec, p, reach):
    """``reach[h]``: 0 not placeable, 1 next to an own piece, 2 through a portal (R15, R16)."""
    for h in range(NUM_HEX):
        reach[h] = 0
    touch = 0
    k_n = rec["nplaced"][p]
    for i in range(k_n + 1):
        x = rec["leader"][p] if i == k_n else rec["placed"][p, i]
        for d in range(6):
            y = ADJ[x, d]
            if y >= 0:
                reach[y] = 1
        touch |= PORTAL_BITS[x]
    if touch:
        for k in range(NUM_PORTALS):
            if touch & ~(1 << k):  # a piece next to another portal
                g = PORTALS[k]
                for d in range(6):
                    y = ADJ[g, d]
                    if y >= 0 and reach[y] == 0:
                        reach[y] = 2
    for k in range(NUM_PORTALS):
        reach[PORTALS[k]] = 0


@njit(cache=True)
def reach_bits(rec, p):
    """:func:`reach_map` as bit masks ``(near, far)`` over the hexes, with no array.

    Bit h is hex h (61 hexes fit an int64); far: reachable only through a portal.
    """
    near = 0
    touch = 0
    placed = rec["placed"]
    k_n = rec["nplaced"][p]
    for i in range(k_n + 1):
        x = rec["leader"][p] if i == k_n else placed[p, i]
        near |= ADJ_BITS[x]
        touch |= PORTAL_BITS[x]
    far = 0
    if touch:
        for k in range(NUM_PORTALS):
            if touch & ~(1 << k):  # a piece next to another portal
                far |= ADJ_BITS[PORTALS[k]]
    near &= ~PORTAL_HEX_BITS
    far &= ~(near | PORTAL_HEX_BITS)
    return near, far


@njit(cache=True)
def action_ok(rec, p, h, a):
    """Whether action ``a`` on hex ``h`` is possible for ``p`` (coins for placing aside)."""
    t = rec["terrain"][h]
    m = rec["mon_at"][h]
    if in_block(a, ACT_BUILD0, ZONE_SLOTS):  # build zone slot a - ACT_BUILD0 (R20, R23)
        z = rec["zone"][p, a - ACT_BUILD0]
        if z < 0 or m >= 0 or rec["area_left"][p] <= 0:
            return False
        if not (t == T_STONE or (t < NUM_COLORS and t == MON_COLOR[z])):
            return False
        return can_pay(rec, p, MON_COST[z])
    if a == ACT_DIG:
        if t == T_CENTRAL:  # exchange (R22)
            has = False
            for g in range(NUM_COLORS):
                if rec["res"][p, g] > 0:
                    for c in range(NUM_COLORS):
                        if c != g and rec["supply"][c] > 0:
                            has = True
            return has
        if t >= NUM_COLORS:
            return False
        if m >= 0 and count_owned(rec, p, Fx.EXCAVATE_UNDER_MONUMENT) == 0:
            return False
        return rec["supply"][t] > 0
    # decode (R24)
    return m >= 0 and can_pay(rec, p, MON_DECODE[m])


# ------------------------------------------------------------------ setup


@njit(cache=True)
def reset_game(rec):
    """Deal a game (R1-R7): tiles, boards, track, miracle displays, nightmares."""
    rng = rec["rng"]
    deal_tiles(rec, rng)
    reset_players(rec)
    deal_track(rec, rng)
    setup = draw_setup(rec, rng)
    deal_miracles(rec, rng, setup)
    deal_nightmares(rec, rng, setup)
    # flow
    rec["round"] = 0
    rec["pending_any"] = 0
    rec["exch_give"] = -1
    rec["penalty_left"] = 0
    clear_fight(rec)
    rec["last_player"] = -1
    rec["last_action"] = -1
    begin_meditation(rec)
    proceed(rec)


@njit(cache=True, inline="always")  # called once, from reset_game
def deal_tiles(rec, rng):
    """R2: terrain tiles, a uniform permutation, orientation kept; no monument built."""
    for s in range(NUM_SECTORS):
        rec["tile_at"][s] = s
    shuffle(rec["tile_at"], NUM_SECTORS, rng)
    for h in range(NUM_HEX):
        s = HEX_SECTOR[h]
        if s < 0:
            rec["terrain"][h] = T_CENTRAL
        else:
            rec["terrain"][h] = TILE_LAYOUT[rec["tile_at"][s], h - 1 - 10 * s]
        rec["mon_at"][h] = -1


@njit(cache=True, inline="always")  # called once, from reset_game
def reset_players(rec):
    """R4: each seat's starting VP, coins, resources and markers; the supply; absent seats empty."""
    n = rec["num_players"]
    for p in range(MAX_P):
        on = p < n
        rec["vp"][p] = START_VP if on else 0
        rec["coins"][p] = START_COINS if on else 0
        for c in range(NUM_COLORS):
            rec["res"][p, c] = START_RES if on else 0
        rec["insp"][p] = 0
        rec["defense"][p] = 0
        for k in range(NUM_LEVELS):
            rec["level"][p, k] = 0
        rec["area_left"][p] = AREA_SPACES if on else 0
        rec["free"][p] = FREE_MARKERS if on else 0
        rec["leader"][p] = 0 if on else -1
        rec["nplaced"][p] = 0
        rec["nrest"][p] = 0
        for i in range(HELPERS):
            rec["placed"][p, i] = -1
        for k in range(ZONE_SLOTS):
            rec["zone"][p, k] = -1
        for k in range(NUM_PICKS):
            rec["picks"][p, k] = -1
        for k in range(TREE_SPACES):
            rec["tree"][p, k] = -1
        rec["tree_n"][p] = 0
        rec["final"][p] = 0
    for c in range(NUM_COLORS):
        rec["supply"][c] = RES_PER_COLOR - START_RES * n
    rec["coins_taken"] = 0
    rec["coins_paid"] = 0


@njit(cache=True, inline="always")  # called once, from reset_game
def deal_track(rec, rng):
    """R3: the monument stack shuffled, the seats' markers in random order, the track dealt."""
    n = rec["num_players"]
    for m in range(NUM_MON):
        rec["mstack"][m] = m
        rec["mon_owner"][m] = -1
        rec["mdiscard"][m] = 0
    shuffle(rec["mstack"], NUM_MON, rng)
    rec["mstack_n"] = NUM_MON
    seats = np.empty(MAX_P, np.int8)
    for p in range(MAX_P):
        seats[p] = p
    shuffle(seats, n, rng)
    for s in range(MAX_TRACK):
        rec["track_mon"][s] = -1
        rec["track_coins"][s] = 0
        rec["track_marker"][s] = -1
    for s in range(n):
        rec["track_marker"][s] = seats[s]
    for s in range(n, n + TRACK_MONS[n]):
        rec["mstack_n"] -= 1
        rec["track_mon"][s] = rec["mstack"][rec["mstack_n"]]
        rec["mstack"][rec["mstack_n"]] = -1


@njit(cache=True, inline="always")  # called once, from reset_game
def draw_setup(rec, rng):
    """The setup (a row of SETUP_OUT) of a ``train`` or ``test`` game, uniform in its part.

    -1 with ``split="all"``: no draw here, and R5 and R6 deal as they always have.
    """
    if rec["split"] == SPLIT_TRAIN:
        return TRAIN_SETUPS[randint(rng, len(TRAIN_SETUPS))]
    if rec["split"] == SPLIT_TEST:
        return TEST_SETUPS[randint(rng, len(TEST_SETUPS))]
    return -1


@njit(cache=True)
def fill_out_last(arr, n, first, out_bits):
    """Write the ids ``first..first+n-1`` into ``arr[:n]``, those out of the game last.

    Id ``x`` is out when bit ``x - first`` of ``out_bits`` is set; each part keeps id order.
    """
    k = 0
    for last in range(2):
        for i in range(n):
            if ((out_bits >> i) & 1) == last:
                arr[k] = first + i
                k += 1


@njit(cache=True, inline="always")  # called once, from reset_game
def deal_miracles(rec, rng, setup):
    """R5: the white stack and display, the grey display and the greys out of the game.

    ``setup`` >= 0 (split train or test): its 3 greys go out of the game and the other 5 are
    shuffled into the display.
    """
    for i in range(NUM_WHITE):
        rec["wstack"][i] = i
    shuffle(rec["wstack"], NUM_WHITE, rng)
    rec["wstack_n"] = NUM_WHITE
    for k in range(WHITE_SHOWN):
        rec["wstack_n"] -= 1
        rec["wshow"][k] = rec["wstack"][rec["wstack_n"]]
        rec["wstack"][rec["wstack_n"]] = -1
    grey = np.empty(NUM_GREY, np.int8)
    if setup < 0:
        for i in range(NUM_GREY):
            grey[i] = NUM_WHITE + i
        shuffle(grey, NUM_GREY, rng)
    else:
        fill_out_last(grey, NUM_GREY, NUM_WHITE, SETUP_OUT[setup, S_GREY_OUT])
        shuffle(grey, GREY_SHOWN, rng)
    for k in range(GREY_SHOWN):
        rec["gshow"][k] = grey[k]
    for k in range(GREY_OUT):
        rec["gout"][k] = grey[GREY_SHOWN + k]
    # sort the out-of-game greys: which ones they are is public, their order is not
    for i in range(GREY_OUT):
        for j in range(GREY_OUT - 1 - i):
            if rec["gout"][j] > rec["gout"][j + 1]:
                x = rec["gout"][j]
                rec["gout"][j] = rec["gout"][j + 1]
                rec["gout"][j + 1] = x


@njit(cache=True, inline="always")  # called once, from reset_game
def deal_nightmares(rec, rng, setup):
    """R6: one nightmare per position, unhurt; one out of the game; the first one shown.

    ``setup`` >= 0 (split train or test): its nightmare goes out of the game and the other 6
    are shuffled onto the positions.
    """
    cards = np.empty(NUM_NM, np.int8)
    if setup < 0:
        for i in range(NUM_NM):
            cards[i] = i
        shuffle(cards, NUM_NM, rng)
    else:
        fill_out_last(cards, NUM_NM, 0, SETUP_OUT[setup, S_NM_OUT])
        shuffle(cards, NUM_NM_POS, rng)
    for k in range(NUM_NM_POS):
        rec["nm_at"][k] = cards[k]
        rec["hits"][k] = 0
        rec["killer"][k] = -1
        for b in range(MAX_BOXES):
            rec["boxes"][k, b] = -1
    rec["nm_out"] = cards[NUM_NM_POS]
    rec["nm_shown"] = 1


@njit(cache=True)
def clear_fight(rec):
    for k in range(NUM_NM_POS):
        rec["atk"][k] = 0
        rec["dealt"][k] = 0


# ------------------------------------------------------------------ the round


@njit(cache=True)
def begin_meditation(rec):
    rec["phase"] = Phase.PICK
    set_order(rec, False)


@njit(cache=True)
def track_has_monument(rec):
    for s in range(MAX_TRACK):
        if rec["track_mon"][s] >= 0:
            return True
    return False


@njit(cache=True)
def empty_slot(rec, p):
    for k in range(ZONE_SLOTS):
        if rec["zone"][p, k] < 0:
            return k
    return -1


@njit(cache=True)
def decide(rec, p, d):
    rec["current_player"] = p
    rec["dec"] = d


@njit(cache=True)
def production(rec):
    """Recollection production for every seat at once (R27, R28, R44)."""
    for p in range(rec["num_players"]):
        ward = 0
        for i in range(rec["tree_n"][p]):
            t = MIR_TYPE[rec["tree"][p, i]]
            if TYPE_FX[t] == Fx.DEFENSE_PER_ROUND:
                ward += TYPE_A[t]
        level = rec["level"][p]
        rec["insp"][p] = min(TRACK_CAP, rec["insp"][p] + PROD[level[LV_INSP], LV_INSP])
        rec["defense"][p] = min(TRACK_CAP,
                                rec["defense"][p] + PROD[level[LV_DEF], LV_DEF] + ward)
        take_coins(rec, p, PROD[level[LV_INCOME], LV_INCOME])


@njit(cache=True)
def seat_colors(rec, p):
    """Colours of the basic terrain spaces holding ``p``'s leader or helpers (R33).

    As bits: bit c set for colour c.
    """
    bits = 0
    for i in range(rec["nplaced"][p] + 1):
        x = rec["leader"][p] if i == rec["nplaced"][p] else rec["placed"][p, i]
        t = rec["terrain"][x]
        if t < NUM_COLORS:
            bits |= 1 << t
    return bits


@njit(cache=True)
def attackers(rec, p):
    """Mark in ``atk`` the revealed, undefeated nightmares attacking ``p``; how many."""
    cols = seat_colors(rec, p)
    k_n = 0
    for k in range(NUM_NM_POS):
        rec["atk"][k] = 0
        rec["dealt"][k] = 0
        if k < rec["nm_shown"] and rec["killer"][k] < 0:
            t = rec["nm_at"][k]
            for c in range(NUM_COLORS):
                if NM_ATTACKS[t, c] and cols >> c & 1:
                    rec["atk"][k] = 1
            k_n += rec["atk"][k]
    return k_n


@njit(cache=True)
def leader_options(rec, p, out):
    """Hexes ``p``'s leader may move to at Cleanup (R41, R47) into ``out``; how many.

    ``out`` may be None: then only the count (no array is allocated on the step path).
    """
    k = 0
    anywhere = rec["nplaced"][p] == 0 or count_owned(rec, p, Fx.LEADER_ANYWHERE) > 0
    terrain = rec["terrain"]
    placed = rec["placed"]
    own = rec["leader"][p]
    for h in range(NUM_HEX):
        ok = False
        if anywhere:
            ok = terrain[h] != T_PORTAL
        elif h != own:
            for i in range(rec["nplaced"][p]):
                if placed[p, i] == h:
                    ok = True
        if out is not None:
            out[h] = ok
        k += ok
    return k


@njit(cache=True)
def refill_track(rec):
    """From space 0 up, every empty track space takes the stack's top monument (R40)."""
    for s in range(TRACK_SPACES[rec["num_players"]]):
        if rec["track_marker"][s] < 0 and rec["track_mon"][s] < 0 and rec["mstack_n"] > 0:
            rec["mstack_n"] -= 1
            rec["track_mon"][s] = rec["mstack"][rec["mstack_n"]]
            rec["mstack"][rec["mstack_n"]] = -1
            rec["track_coins"][s] = 0


@njit(cache=True)
def proceed(rec):
    """Begin the next unit of play until one needs a decision (or the game ends)."""
    n = rec["num_players"]
    while True:
        ph = rec["phase"]
        i = rec["pidx"]
        if ph == Phase.PICK:
            if i < n * PICKS[n] and track_has_monument(rec):
                decide(rec, rec["porder"][i % n], Dec.PICK)
                return
            rec["phase"] = Phase.SETTLE
            rec["pidx"] = 0
        elif ph == Phase.SETTLE:
            if i < n:
                p = rec["porder"][i]
                if rec["picks"][p, PICK_SECOND] >= 0:
                    decide(rec, p, Dec.KEEP)
                    return
                if rec["picks"][p, PICK_FIRST] >= 0:
                    k = empty_slot(rec, p)
                    if k < 0:
                        decide(rec, p, Dec.DISCARD)
                        return
                    rec["zone"][p, k] = rec["picks"][p, PICK_FIRST]
                    rec["picks"][p, PICK_FIRST] = -1
                rec["pidx"] += 1
            else:  # R13: a coin on each unclaimed monument
                for s in range(MAX_TRACK):
                    if rec["track_mon"][s] >= 0:
                        rec["track_coins"][s] += 1
                        rec["coins_taken"] += 1
                rec["phase"] = Phase.ACTION
                set_order(rec, True)
        elif ph == Phase.ACTION:
            if i < n * HELPERS:
                decide(rec, rec["porder"][i % n], Dec.MAIN)
                return
            production(rec)
            rec["phase"] = Phase.BUY
            rec["pidx"] = 0
        elif ph == Phase.BUY:
            if i < n:
                decide(rec, rec["porder"][i], Dec.BUY)
                return
            rec["phase"] = Phase.FIGHT
            rec["pidx"] = 0
        elif ph == Phase.FIGHT:
            if i < n:
                p = rec["porder"][i]
                if attackers(rec, p) > 0:
                    decide(rec, p, Dec.FIGHT)
                    return
                rec["pidx"] += 1
            elif rec["round"] == ROUNDS - 1:
                finish(rec)
                return
            else:  # Cleanup (R39, R40)
                rec["nm_shown"] += 1
                refill_track(rec)
                rec["phase"] = Phase.LEADER
                rec["pidx"] = 0
        elif ph == Phase.LEADER:
            if i < n:
                p = rec["porder"][i]
                if leader_options(rec, p, None) > 0:
                    decide(rec, p, Dec.LEADER)
                    return
                rec["pidx"] += 1
            else:  # R42 and the next round
                for p in range(n):
                    rec["nplaced"][p] = 0
                    rec["nrest"][p] = 0
                    for k in range(HELPERS):
                        rec["placed"][p, k] = -1
                rec["round"] += 1
                begin_meditation(rec)
        else:
            return


# ------------------------------------------------------------------ game end


@njit(cache=True)
def grey_points(rec, p):
    """End-game VP of ``p``'s grey miracles whose white requirement holds (R50-R53)."""
    white = count_white(rec, p)
    pts = 0
    for i in range(rec["tree_n"][p]):
        t = MIR_TYPE[rec["tree"][p, i]]
        fx = TYPE_FX[t]
        if fx < Fx.END_COLOR_MONUMENTS or white < TYPE_WHITE_NEEDED[t]:
            continue
        a = TYPE_A[t]
        if fx == Fx.END_COLOR_MONUMENTS:
            for h in range(NUM_HEX):
                m = rec["mon_at"][h]
                if m >= 0 and TYPE_COLORS[t, MON_COLOR[m]]:
                    pts += a
        elif fx == Fx.END_DEFENSE_TRACK:
            pts += a * rec["level"][p, LV_DEF]
        elif fx == Fx.END_INCOME_TRACK:
            pts += a * rec["level"][p, LV_INCOME]
        elif fx == Fx.END_NIGHTMARES:
            for k in range(NUM_NM_POS):
                if rec["killer"][k] == p:
                    pts += a
        else:  # END_EMPTY_TILES
            for s in range(NUM_SECTORS):
                empty = True
                for h in range(1 + 10 * s, 11 + 10 * s):
                    if rec["mon_at"][h] >= 0:
                        empty = False
                if empty:
                    pts += a
    return pts


@njit(cache=True)
def built_count(rec, p):
    c = 0
    for m in range(NUM_MON):
        if rec["mon_owner"][m] == p:
            c += 1
    return c


@njit(cache=True)
def final_scores(rec, out):
    """Comparable final scores: VP, then monuments built, miracles, resources + coins (R55)."""
    for p in range(rec["num_players"]):
        left = int(rec["coins"][p])
        for c in range(NUM_COLORS):
            left += int(rec["res"][p, c])
        out[p] = (rec["vp"][p] * 1e9 + built_count(rec, p) * 1e6 + rec["tree_n"][p] * 1e3
                  + min(left, 999))


@njit(cache=True)
def finish(rec):
    """Final scoring (R54), then the winners (R55, R58)."""
    n = rec["num_players"]
    for p in range(n):
        left = 0
        for c in range(NUM_COLORS):
            left += int(rec["res"][p, c])
        extra = grey_points(rec, p) + left // 3 + int(rec["coins"][p]) // 5
        rec["final"][p] = extra
        rec["vp"][p] += extra
    rec["phase"] = Phase.OVER
    rec["dec"] = Dec.NONE
    if rec["reward_mode"] != REWARD_SCORE:
        scores = np.zeros(n)
        final_scores(rec, scores)
        split_rewards(rec, scores, False)
    rec["terminated"] = 1


# ------------------------------------------------------------------ legal actions


@njit(cache=True)
def hex_of_bit(b):
    """The index of the single set bit of ``b`` (a power of two below 2**63)."""
    h = 0
    if b >= 1 << 32:
        b >>= 32
        h += 32
    if b >= 1 << 16:
        b >>= 16
        h += 16
    if b >= 1 << 8:
        b >>= 8
        h += 8
    if b >= 1 << 4:
        b >>= 4
        h += 4
    if b >= 1 << 2:
        b >>= 2
        h += 2
    if b >= 1 << 1:
        h += 1
    return h


@njit(cache=True)
def legal_mask(rec, mask):
    """The current player's legal actions."""
    for a in range(mask.shape[0]):
        mask[a] = 0
    p = rec["current_player"]
    d = rec["dec"]
    if d == Dec.PICK:
        for s in range(MAX_TRACK):
            if rec["track_mon"][s] >= 0:
                mask[A_PICK + s] = 1
    elif d == Dec.KEEP:
        set_block(mask, A_KEEP, NUM_PICKS, 1)
    elif d == Dec.DISCARD:
        set_block(mask, A_DISCARD, ZONE_SLOTS + 1, 1)
    elif d == Dec.MAIN:
        legal_main(rec, p, mask)
    elif d == Dec.EXCH_GIVE:
        for g in range(NUM_COLORS):
            if rec["res"][p, g] > 0:
                for c in range(NUM_COLORS):
                    if c != g and rec["supply"][c] > 0:
                        mask[A_RES + g] = 1
    elif d == Dec.EXCH_TAKE:
        for c in range(NUM_COLORS):
            if c != rec["exch_give"] and rec["supply"][c] > 0:
                mask[A_RES + c] = 1
    elif d == Dec.GAIN_RES:
        open_where(mask, A_RES, rec["supply"])
    elif d == Dec.PENALTY:
        open_where(mask, A_RES, rec["res"][p])
    elif d == Dec.BUY:
        k = rec["tree_n"][p]
        if k < TREE_SPACES and rec["insp"][p] >= TREE_COST[k]:
            for s in range(WHITE_SHOWN):
                if rec["wshow"][s] >= 0:
                    mask[A_MIRACLE + s] = 1
            for s in range(GREY_SHOWN):
                if rec["gshow"][s] >= 0:
                    mask[A_MIRACLE + WHITE_SHOWN + s] = 1
        legal_abandon(rec, p, mask)
        mask[A_PASS] = 1
    elif d == Dec.FIGHT:
        must = False
        if rec["defense"][p] > 0:
            for k in range(NUM_NM_POS):
                if rec["atk"][k] and rec["killer"][k] < 0:
                    if rec["free"][p] > 0 or rec["dealt"][k] == 0:
                        mask[A_DAMAGE + k] = 1
                    if rec["dealt"][k] == 0:
                        must = True
        if not must:
            mask[A_PASS] = 1
    elif d == Dec.LEADER:
        leader_options(rec, p, mask[A_LEADER:A_LEADER + NUM_HEX])


@njit(cache=True)
def legal_abandon(rec, p, mask):
    if count_owned(rec, p, Fx.ABANDON_MONUMENT) > 0:
        for k in range(ZONE_SLOTS):
            if rec["zone"][p, k] >= 0:
                mask[A_ABANDON + k] = 1


@njit(cache=True)
def legal_main(rec, p, mask):
    """Placements (R15-R24), rest (R25) and Letting Go (R49).

    The conditions of ``action_ok`` (the per-hex reference), with what does not depend
    on the hex worked out once.
    """
    n = rec["num_players"]
    near, far = reach_bits(rec, p)
    nplaced = rec["nplaced"]
    placed = rec["placed"]
    leader = rec["leader"]
    terrain = rec["terrain"]
    mon_at = rec["mon_at"]
    supply = rec["supply"]
    coins = rec["coins"][p]
    own_leader = leader[p]
    zc0 = -1  # colour of a buildable zone monument in slot 0 / 1, -1
    zc1 = -1
    if rec["area_left"][p] > 0:
        m = rec["zone"][p, ZONE_0]
        if m >= 0 and can_pay(rec, p, MON_COST[m]):
            zc0 = MON_COLOR[m]
        m = rec["zone"][p, ZONE_1]
        if m >= 0 and can_pay(rec, p, MON_COST[m]):
            zc1 = MON_COLOR[m]
    deep = count_owned(rec, p, Fx.EXCAVATE_UNDER_MONUMENT) > 0
    exch = False
    for g in range(NUM_COLORS):
        if rec["res"][p, g] > 0:
            for c in range(NUM_COLORS):
                if c != g and supply[c] > 0:
                    exch = True
    # hexes holding another seat's leader (R18) and hexes holding any helper, once
    blocked = 0
    for q in range(n):
        if q != p:
            blocked |= 1 << int(leader[q])
    blocked &= ~(1 << int(own_leader))
    crowded = 0
    for q in range(n):
        for i in range(nplaced[q]):
            crowded |= 1 << int(placed[q, i])
    todo = (near | far) & ~blocked
    while todo:
        low = todo & -todo
        todo ^= low
        h = hex_of_bit(low)
        occ = 0
        if crowded & low:
            for q in range(n):
                for i in range(nplaced[q]):
                    if placed[q, i] == h:
                        occ += 1
        cost = occ + (PORTAL_COINS if far & low else 0)
        if cost > coins:
            continue
        t = terrain[h]
        m = mon_at[h]
        o = A_PLACE + NUM_PLACE_ACTS * h
        if m < 0 and (t < NUM_COLORS or t == T_STONE):
            if zc0 >= 0 and (t == T_STONE or t == zc0):
                mask[o + ACT_BUILD0 + ZONE_0] = 1
            if zc1 >= 0 and (t == T_STONE or t == zc1):
                mask[o + ACT_BUILD0 + ZONE_1] = 1
        if t == T_CENTRAL:
            mask[o + ACT_DIG] = exch
        elif t < NUM_COLORS and (m < 0 or deep) and supply[t] > 0:
            mask[o + ACT_DIG] = 1
        if m >= 0 and can_pay(rec, p, MON_DECODE[m]):
            mask[o + ACT_DECODE] = 1
    mask[A_REST] = 1
    legal_abandon(rec, p, mask)


# ------------------------------------------------------------------ applying


@njit(cache=True)
def end_action_turn(rec):
    rec["dec"] = Dec.NONE
    rec["pidx"] += 1
    proceed(rec)


@njit(cache=True)
def place_helper(rec, p, h, reach_kind):
    cost = helpers_on(rec, h) + (PORTAL_COINS if reach_kind == 2 else 0)
    pay_coins(rec, p, cost)
    rec["placed"][p, rec["nplaced"][p]] = h
    rec["nplaced"][p] += 1


@njit(cache=True)
def build(rec, p, h, slot):
    """R20: pay, place the monument and its owner marker, score the uncovered VP, rewards."""
    m = rec["zone"][p, slot]
    pay_res(rec, p, MON_COST[m])
    rec["zone"][p, slot] = -1
    rec["mon_at"][h] = m
    rec["mon_owner"][m] = p
    rec["vp"][p] += AREA_VP[AREA_SPACES - rec["area_left"][p]]
    rec["area_left"][p] -= 1
    for j in range(MON_EFFECTS):
        apply_effect(rec, p, MON_BUILD[m, j, FX_EFFECT], MON_BUILD[m, j, FX_AMOUNT])


@njit(cache=True)
def excavate(rec, p, c):
    """R21 with Bountiful Dig (R43) and Scholar's Eye (R48)."""
    gain_res(rec, p, c, 1)
    for i in range(rec["tree_n"][p]):
        t = MIR_TYPE[rec["tree"][p, i]]
        if TYPE_FX[t] == Fx.EXCAVATE_BONUS and TYPE_COLORS[t, c]:
            gain_res(rec, p, c, TYPE_A[t])
            take_coins(rec, p, TYPE_B[t])
        elif TYPE_FX[t] == Fx.VP_PER_EXCAVATE:
            rec["vp"][p] += TYPE_A[t]


@njit(cache=True)
def decode(rec, p, h):
    """R24: pay the decode cost, gain its rewards; another owner gets 1 VP."""
    m = rec["mon_at"][h]
    pay_res(rec, p, MON_DECODE[m])
    for j in range(MON_EFFECTS):
        apply_effect(rec, p, MON_DEC_FX[m, j, FX_EFFECT], MON_DEC_FX[m, j, FX_AMOUNT])
    o = rec["mon_owner"][m]
    if o >= 0 and o != p:
        rec["vp"][o] += 1


@njit(cache=True)
def after_gains(rec):
    """Ask for queued ANY_RESOURCES gains, else end the action turn (R26)."""
    if rec["pending_any"] > 0 and supply_left(rec) > 0:
        rec["dec"] = Dec.GAIN_RES
        return
    rec["pending_any"] = 0
    end_action_turn(rec)


@njit(cache=True)
def apply_main(rec, p, action):
    if action == A_REST:  # R25, R45
        rec["nrest"][p] += 1
        take_coins(rec, p, REST_COINS)
        for i in range(rec["tree_n"][p]):
            t = MIR_TYPE[rec["tree"][p, i]]
            if TYPE_FX[t] == Fx.REST_BONUS:
                take_coins(rec, p, TYPE_A[t])
                rec["vp"][p] += TYPE_B[t]
        end_action_turn(rec)
        return
    h = (action - A_PLACE) // NUM_PLACE_ACTS
    a = (action - A_PLACE) % NUM_PLACE_ACTS
    near, far = reach_bits(rec, p)
    place_helper(rec, p, h, 1 if near >> h & 1 else (2 if far >> h & 1 else 0))
    if in_block(a, ACT_BUILD0, ZONE_SLOTS):
        build(rec, p, h, a - ACT_BUILD0)
        after_gains(rec)
    elif a == ACT_DIG:
        if rec["terrain"][h] == T_CENTRAL:
            rec["dec"] = Dec.EXCH_GIVE
            return
        excavate(rec, p, rec["terrain"][h])
        end_action_turn(rec)
    else:
        decode(rec, p, h)
        end_action_turn(rec)


@njit(cache=True)
def discard_monument(rec, p, m):
    """A monument goes to the discard pile; with Letting Go it scores 3 VP (R12, R49)."""
    rec["mdiscard"][m] = 1
    lg = count_owned(rec, p, Fx.ABANDON_MONUMENT)
    if lg > 0:
        rec["vp"][p] += TYPE_A[11]


@njit(cache=True)
def damage(rec, p, k):
    """1 defensive strength on nightmare k (R34-R36, R38)."""
    rec["defense"][p] -= 1
    rec["dealt"][k] += 1
    if rec["free"][p] <= 0:
        return
    n = rec["num_players"]
    t = rec["nm_at"][k]
    b = rec["hits"][k]
    rec["boxes"][k, b] = p
    rec["hits"][k] += 1
    rec["free"][p] -= 1
    rec["vp"][p] += NM_BOX_VP[t, b]
    if rec["hits"][k] >= NM_HP[t, n]:
        rec["killer"][k] = p
        best, most = -1, 0
        hits = rec["hits"][k]
        for j in range(hits):  # first-marker order breaks ties
            q = rec["boxes"][k, j]
            cq = 0
            for i in range(hits):
                cq += rec["boxes"][k, i] == q
            if cq > most:
                best, most = q, cq
        gain_res(rec, best, NM_COLOR[t], 1)


@njit(cache=True)
def pay_penalties(rec, p):
    """R37: 2 VP per nightmare not attacked; at 0 VP a resource (a decision), then a coin."""
    while rec["penalty_left"] > 0:
        if rec["vp"][p] > 0:
            rec["vp"][p] = max(0, rec["vp"][p] - PENALTY_VP)
        else:
            held = 0
            for c in range(NUM_COLORS):
                held += rec["res"][p, c]
            if held > 0:
                rec["dec"] = Dec.PENALTY
                return
            if rec["coins"][p] > 0:
                pay_coins(rec, p, 1)
        rec["penalty_left"] -= 1
    clear_fight(rec)
    rec["dec"] = Dec.NONE
    rec["pidx"] += 1
    proceed(rec)


@njit(cache=True, inline="always")  # called once, from apply_action
def pick_monument(rec, p, s):
    """R10: take the monument and coins of track space ``s``; the seat's marker moves there."""
    m = rec["track_mon"][s]
    rec["track_mon"][s] = -1
    rec["coins"][p] += rec["track_coins"][s]  # coins already counted as taken (R13)
    rec["track_coins"][s] = 0
    for x in range(MAX_TRACK):
        if rec["track_marker"][x] == p:
            rec["track_marker"][x] = -1
    rec["track_marker"][s] = p
    if rec["picks"][p, PICK_FIRST] < 0:
        rec["picks"][p, PICK_FIRST] = m
    else:
        rec["picks"][p, PICK_SECOND] = m
    rec["pidx"] += 1
    proceed(rec)


@njit(cache=True, inline="always")  # called once, from apply_action
def keep_monument(rec, p, k):
    """R11: keep pick ``k``, discard the other (R49: Letting Go scores it)."""
    other = PICK_SECOND if k == PICK_FIRST else PICK_FIRST
    keep = rec["picks"][p, k]
    discard_monument(rec, p, rec["picks"][p, other])
    rec["picks"][p, PICK_FIRST] = keep
    rec["picks"][p, PICK_SECOND] = -1
    proceed(rec)


@njit(cache=True, inline="always")  # called once, from apply_action
def place_pick(rec, p, k):
    """R12: the new monument replaces zone slot ``k`` (discarded), or is discarded itself."""
    new = rec["picks"][p, PICK_FIRST]
    rec["picks"][p, PICK_FIRST] = -1
    if k < ZONE_SLOTS:  # a zone slot; the last action is the new monument
        discard_monument(rec, p, rec["zone"][p, k])
        rec["zone"][p, k] = new
    else:
        discard_monument(rec, p, new)
    rec["pidx"] += 1
    proceed(rec)


@njit(cache=True, inline="always")  # hot: two call sites in apply_action, four lines
def abandon(rec, p, k):
    """R30, R49: the monument in zone slot ``k`` goes to the discard pile."""
    m = rec["zone"][p, k]
    rec["zone"][p, k] = -1
    discard_monument(rec, p, m)


@njit(cache=True, inline="always")  # called once, from apply_action
def buy(rec, p, action):
    """R30, R31: abandon a monument, pass (the white display refills) or buy a miracle."""
    if in_block(action, A_ABANDON, ZONE_SLOTS):
        abandon(rec, p, action - A_ABANDON)
    elif action == A_PASS:
        for s in range(WHITE_SHOWN):
            if rec["wshow"][s] < 0 and rec["wstack_n"] > 0:
                rec["wstack_n"] -= 1
                rec["wshow"][s] = rec["wstack"][rec["wstack_n"]]
                rec["wstack"][rec["wstack_n"]] = -1
        rec["dec"] = Dec.NONE
        rec["pidx"] += 1
        proceed(rec)
    else:
        s = action - A_MIRACLE
        if s < WHITE_SHOWN:
            mid = rec["wshow"][s]
            rec["wshow"][s] = -1
        else:
            mid = rec["gshow"][s - WHITE_SHOWN]
            rec["gshow"][s - WHITE_SHOWN] = -1
        k = rec["tree_n"][p]
        rec["insp"][p] -= TREE_COST[k]
        rec["vp"][p] += TREE_VP[k]
        rec["tree"][p, k] = mid
        rec["tree_n"][p] += 1


@njit(cache=True, inline="always")  # called once, from apply_action
def fight(rec, p, action):
    """R34-R37: damage a nightmare, or pass and pay for those not attacked."""
    if action == A_PASS:
        left = 0
        for k in range(NUM_NM_POS):
            if rec["atk"][k] and rec["dealt"][k] == 0:
                left += 1
        rec["penalty_left"] = left
        pay_penalties(rec, p)
    else:
        damage(rec, p, action - A_DAMAGE)


@njit(cache=True)
def apply_action(rec, action):
    """Apply one legal decision of the current player: one branch per decision kind."""
    p = rec["current_player"]
    n = rec["num_players"]
    vps = rec["vp"]
    v0, v1, v2, v3 = vps[0], vps[1], vps[2], vps[3]  # VP before (reward "score"), no array
    rec["last_player"] = p
    rec["last_action"] = action
    rec["turn"] += 1
    d = rec["dec"]
    if d == Dec.PICK:
        pick_monument(rec, p, action - A_PICK)
    elif d == Dec.KEEP:
        keep_monument(rec, p, action - A_KEEP)
    elif d == Dec.DISCARD:
        place_pick(rec, p, action - A_DISCARD)
    elif d == Dec.MAIN:
        if in_block(action, A_ABANDON, ZONE_SLOTS):
            abandon(rec, p, action - A_ABANDON)
        else:
            apply_main(rec, p, action)
    elif d == Dec.EXCH_GIVE:  # R22
        g = action - A_RES
        rec["res"][p, g] -= 1
        rec["supply"][g] += 1
        rec["exch_give"] = g
        rec["dec"] = Dec.EXCH_TAKE
    elif d == Dec.EXCH_TAKE:
        gain_res(rec, p, action - A_RES, 1)
        rec["exch_give"] = -1
        end_action_turn(rec)
    elif d == Dec.GAIN_RES:  # R26
        gain_res(rec, p, action - A_RES, 1)
        rec["pending_any"] -= 1
        after_gains(rec)
    elif d == Dec.BUY:
        buy(rec, p, action)
    elif d == Dec.FIGHT:
        fight(rec, p, action)
    elif d == Dec.PENALTY:
        c = action - A_RES
        rec["res"][p, c] -= 1
        rec["supply"][c] += 1
        rec["penalty_left"] -= 1
        pay_penalties(rec, p)
    elif d == Dec.LEADER:  # R41
        rec["leader"][p] = action - A_LEADER
        rec["dec"] = Dec.NONE
        rec["pidx"] += 1
        proceed(rec)
    if rec["reward_mode"] == REWARD_SCORE:
        total = 0
        for q in range(n):
            total += vps[q] - (v0 if q == 0 else v1 if q == 1 else v2 if q == 2 else v3)
        for q in range(n):
            dq = vps[q] - (v0 if q == 0 else v1 if q == 1 else v2 if q == 2 else v3)
            rec["rewards"][q] += (dq - (total - dq) / (n - 1.0)) / VP_REWARD_SCALE


# ------------------------------------------------------------------ search support


@njit(cache=True)
def sort_prefix(arr, n):
    """Insertion sort of ``arr[:n]`` in place."""
    for i in range(1, n):
        x = arr[i]
        j = i - 1
        while j >= 0 and arr[j] > x:
            arr[j + 1] = arr[j]
            j -= 1
        arr[j + 1] = x


@njit(cache=True)
def determinize_record(rec, player, words):
    """Resample what nobody has seen, then reseed the RNG.

    The monument and white stacks' order and the face-down nightmares (the unrevealed
    positions and the one out of the game). Every seat sees the same, so the result is
    the same for any viewer.
    """
    # each pool is sorted first, so the result depends only on what the viewer knows
    sort_prefix(rec["mstack"], rec["mstack_n"])
    shuffle(rec["mstack"], rec["mstack_n"], words)
    sort_prefix(rec["wstack"], rec["wstack_n"])
    shuffle(rec["wstack"], rec["wstack_n"], words)
    pool = np.empty(NUM_NM_POS + 1, np.int8)
    k = 0
    for pos in range(rec["nm_shown"], NUM_NM_POS):
        pool[k] = rec["nm_at"][pos]
        k += 1
    pool[k] = rec["nm_out"]
    k += 1
    sort_prefix(pool, k)
    shuffle(pool, k, words)
    j = 0
    for pos in range(rec["nm_shown"], NUM_NM_POS):
        rec["nm_at"][pos] = pool[j]
        j += 1
    rec["nm_out"] = pool[j]
    for i in range(4):
        rec["rng"][i] = next_u32(words) | (1 if i == 0 else 0)


@njit(cache=True)
def evaluate(rec, values):
    """Tanh of each seat's VP lead over the mean of the others (ISMCTS rollout cut-off)."""
    n = rec["num_players"]
    for p in range(n):
        others = 0.0
        for q in range(n):
            if q != p:
                others += rec["vp"][q]
        values[p] = np.tanh((rec["vp"][p] - others / (n - 1)) / EVAL_SCALE)

