"""Forgotten City's record checks: its ranges declared once, the relations by hand.

``check_record`` stands between a saved state and the kernels (``docs/ADDING_A_GAME.md``):
``RANGES`` says what each field may hold (``envs/core/checks.py`` checks them and names
the field), and the functions below check what ranges cannot say: each monument, miracle
and nightmare in exactly one place, the conservation of resources, markers and coins,
and the decision in progress against its phase.
"""

from __future__ import annotations

import numpy as np

from fatezoo.envs.core.checks import SEATS, Range, check_ranges, need, within
from fatezoo.envs.core.state import SPLITS

from .state import (
    AREA_SPACES,
    FREE_MARKERS,
    GREY_OUT,
    HELPERS,
    HEX_SECTOR,
    MAX_LEVEL,
    MAX_P,
    MIN_P,
    NM_HP,
    NUM_ACTIONS,
    NUM_COLORS,
    NUM_HEX,
    NUM_MIR,
    NUM_MON,
    NUM_NM,
    NUM_NM_POS,
    NUM_SECTORS,
    NUM_WHITE,
    PICK_FIRST,
    PICK_SECOND,
    PICKS,
    RES_PER_COLOR,
    ROUNDS,
    START_COINS,
    T_CENTRAL,
    T_PORTAL,
    TILE_LAYOUT,
    TRACK_CAP,
    TRACK_SPACES,
    TREE_SPACES,
    Dec,
    Phase,
)

BIG = 20000  # VP and coins stay far below this in any game; a record above it is corrupt
COIN_FLOW_CAP = 10**8

RANGES = {
    "num_players": Range(MIN_P, MAX_P + 1),
    "split": Range(0, len(SPLITS)),
    "current_player": Range(0, SEATS),
    "phase": Range.of(Phase),
    "dec": Range.of(Dec),
    "round": Range(0, ROUNDS),
    "mon_at": Range(-1, NUM_MON),
    "mstack_n": Range(0, NUM_MON + 1),
    "mdiscard": Range(0, 2),
    "wstack_n": Range(0, NUM_WHITE + 1),
    "wshow": Range(-1, NUM_WHITE),
    "gout": Range(NUM_WHITE, NUM_MIR),
    "tree_n": Range(0, TREE_SPACES + 1, per_seat=True),
    "nm_shown": Range(1, NUM_NM_POS + 1),
    "vp": Range(0, BIG, per_seat=True),
    "coins": Range(0, BIG, per_seat=True),
    "insp": Range(0, TRACK_CAP + 1, per_seat=True),
    "defense": Range(0, TRACK_CAP + 1, per_seat=True),
    "area_left": Range(0, AREA_SPACES + 1, per_seat=True),
    "free": Range(0, FREE_MARKERS + 1, per_seat=True),
    "final": Range(0, 1000, per_seat=True),
    "level": Range(0, MAX_LEVEL + 1, per_seat=True),
    "res": Range(0, RES_PER_COLOR + 1, per_seat=True),
    "supply": Range(0, RES_PER_COLOR + 1),
    "coins_taken": Range(0, COIN_FLOW_CAP + 1),
    "coins_paid": Range(0, COIN_FLOW_CAP + 1),
    "atk": Range(0, 2),
    "dealt": Range(0, TRACK_CAP + 1),
}


def _check_board(rec, n) -> None:
    tiles = rec["tile_at"].tolist()
    need(sorted(tiles) == list(range(NUM_SECTORS)), "tile_at", "a permutation of 0-5", tiles)
    want = np.full(NUM_HEX, T_CENTRAL, np.int64)
    for h in range(1, NUM_HEX):
        s = int(HEX_SECTOR[h])
        want[h] = TILE_LAYOUT[tiles[s], h - 1 - 10 * s]
    need((rec["terrain"] == want).all(), "terrain", "the placed tiles' terrain", rec["terrain"])
    for q in range(MAX_P):
        k, r = int(rec["nplaced"][q]), int(rec["nrest"][q])
        pl = rec["placed"][q]
        if q >= n:
            need(k == 0 and r == 0 and (pl == -1).all() and rec["leader"][q] == -1,
                 f"seat {q}'s helpers and leader", f"unused with {n} players", pl)
            continue
        need(0 <= k <= HELPERS and 0 <= r <= HELPERS and k + r <= HELPERS,
             f"seat {q}'s placed and rested helpers", f"counts summing to at most {HELPERS}",
             (k, r))
        need(within(pl[:k], 0, NUM_HEX) and (pl[k:] == -1).all(), f"seat {q}'s placed helpers",
             f"{k} hexes then -1", pl)
        ld = int(rec["leader"][q])
        need(0 <= ld < NUM_HEX, f"seat {q}'s leader", f"a hex in [0, {NUM_HEX})", ld)
        for h in pl[:k].tolist() + [ld]:
            need(rec["terrain"][h] != T_PORTAL, f"seat {q}'s pieces", "off the portals", h)


def _check_monuments(rec, n) -> None:
    spaces = int(TRACK_SPACES[n])
    tm, mk, tc = rec["track_mon"], rec["track_marker"], rec["track_coins"]
    need(within(tm, -1, NUM_MON) and (tm[spaces:] == -1).all(), "track_mon",
         f"monuments or -1 on the {spaces} spaces in use", tm)
    need(within(mk, -1, n) and (mk[spaces:] == -1).all(), "track_marker",
         f"seats in [0, {n}) or -1 on the {spaces} spaces in use", mk)
    need(sorted(x for x in mk.tolist() if x >= 0) == list(range(n)), "track_marker",
         "one marker per seat", mk)
    need(not ((tm >= 0) & (mk >= 0)).any(), "track", "a monument or a marker per space", tm)
    need(within(tc, 0, 1000) and not tc[tm < 0].any(), "track_coins",
         "in [0, 1000] and 0 on spaces without a monument", tc)
    sn = int(rec["mstack_n"])
    st = rec["mstack"]
    need(within(st[:sn], 0, NUM_MON) and (st[sn:] == -1).all(), "mstack",
         f"{sn} monuments then -1", st)
    zone, picks = rec["zone"], rec["picks"]
    need(within(zone, -1, NUM_MON) and (zone[n:] == -1).all(), "zone",
         "monuments or -1 (seats in play)", zone)
    need(within(picks, -1, NUM_MON) and (picks[n:] == -1).all(), "picks",
         "monuments or -1 (seats in play)", picks)
    need(not ((picks[:, PICK_SECOND] >= 0) & (picks[:, PICK_FIRST] < 0)).any(), "picks",
         "a second pick only after a first", picks)
    need(n == 2 or (picks[:, PICK_SECOND] == -1).all(), "picks",
         "one per seat with 3-4 players", picks)
    where = (st[:sn].tolist() + [x for x in tm.tolist() if x >= 0]
             + [x for x in zone.ravel().tolist() if x >= 0]
             + [x for x in picks.ravel().tolist() if x >= 0]
             + [x for x in rec["mon_at"].tolist() if x >= 0]
             + np.flatnonzero(rec["mdiscard"]).tolist())
    need(sorted(where) == list(range(NUM_MON)), "the monuments",
         "each in exactly one place (stack, track, zone, picks, map, discard)", sorted(where))
    owner = rec["mon_owner"]
    on_map = np.zeros(NUM_MON, bool)
    on_map[[x for x in rec["mon_at"].tolist() if x >= 0]] = True
    need(within(owner, -1, n) and ((owner >= 0) == on_map).all(), "mon_owner",
         f"a seat in [0, {n}) exactly for monuments on the map", owner)


def _check_miracles(rec, n) -> None:
    wn = int(rec["wstack_n"])
    ws = rec["wstack"]
    need(within(ws[:wn], 0, NUM_WHITE) and (ws[wn:] == -1).all(), "wstack",
         f"{wn} white miracles then -1", ws)
    need(within(rec["gshow"], -1, NUM_MIR) and not ((rec["gshow"] >= 0)
                                                 & (rec["gshow"] < NUM_WHITE)).any(),
         "gshow", "grey miracles or -1", rec["gshow"])
    tn, tree = rec["tree_n"], rec["tree"]
    owned = []
    for q in range(MAX_P):
        k = int(tn[q])
        need(within(tree[q, :k], 0, NUM_MIR) and (tree[q, k:] == -1).all(), f"seat {q}'s tree",
             f"{k} miracles then -1", tree[q])
        owned += tree[q, :k].tolist()
    where = (ws[:wn].tolist() + [x for x in rec["wshow"].tolist() if x >= 0]
             + [x for x in rec["gshow"].tolist() if x >= 0] + rec["gout"].tolist() + owned)
    need(sorted(where) == list(range(NUM_MIR)), "the miracles",
         "each in exactly one place", sorted(where))
    need(len(set(rec["gout"].tolist())) == GREY_OUT, "gout", "distinct", rec["gout"])


def _check_nightmares(rec, n) -> None:
    cards = rec["nm_at"].tolist() + [int(rec["nm_out"])]
    need(sorted(cards) == list(range(NUM_NM)), "nm_at and nm_out",
         "a permutation of the 7 nightmares", cards)
    shown = int(rec["nm_shown"])
    for k in range(NUM_NM_POS):
        hp = int(NM_HP[cards[k], n])
        hits, killer = int(rec["hits"][k]), int(rec["killer"][k])
        box = rec["boxes"][k]
        need(0 <= hits <= hp and (k < shown or hits == 0), f"nightmare {k}'s hits",
             f"in [0, {hp}] (0 while face down)", hits)
        need(within(box[:hits], 0, n) and (box[hits:] == -1).all(), f"nightmare {k}'s boxes",
             f"{hits} seats then -1", box)
        want = int(box[hits - 1]) if hits == hp else -1
        need(killer == want, f"nightmare {k}'s holder",
             "the seat of the last box once every box is covered, else -1", killer)


def _check_players(rec, n) -> None:
    res = rec["res"]
    sup = rec["supply"]
    need((sup.astype(np.int64) + res.sum(0)).tolist() == [RES_PER_COLOR] * NUM_COLORS,
         "supply", f"20 minus the resources held, per colour (got held {res.sum(0).tolist()})",
         sup)
    owner = rec["mon_owner"]
    for q in range(n):
        built = int((owner == q).sum())
        need(int(rec["area_left"][q]) + built == AREA_SPACES, f"seat {q}'s monument area",
             f"{AREA_SPACES} minus its {built} monuments", int(rec["area_left"][q]))
        marks = int((rec["boxes"] == q).sum())
        need(int(rec["free"][q]) + marks == FREE_MARKERS, f"seat {q}'s free markers",
             f"{FREE_MARKERS} minus its {marks} on nightmares", int(rec["free"][q]))
    taken, paid = int(rec["coins_taken"]), int(rec["coins_paid"])
    held = int(rec["coins"].astype(np.int64).sum() + rec["track_coins"].astype(np.int64).sum())
    need(held == START_COINS * n + taken - paid, "the coins",
         f"{START_COINS * n} + taken {taken} - paid {paid}", held)


def _order(rec, n) -> list:
    return [int(x) for x in rec["track_marker"].tolist() if x >= 0]


def _check_flow(rec, n) -> None:
    ph, d, rnd, i = int(rec["phase"]), int(rec["dec"]), int(rec["round"]), int(rec["pidx"])
    po = rec["porder"].tolist()
    need(sorted(po[:n]) == list(range(n)) and po[n:] == [-1] * (MAX_P - n), "porder",
         f"a permutation of the {n} seats then -1", po)
    lp, la = int(rec["last_player"]), int(rec["last_action"])
    need(-1 <= lp < n and -1 <= la < NUM_ACTIONS and (lp < 0) == (la < 0),
         "last_player/last_action", "both -1 or a seat and an action", (lp, la))
    over = rec["terminated"] == 1
    need(over == (ph == Phase.OVER), "phase", "OVER exactly when the game has terminated", ph)
    shown = int(rec["nm_shown"])
    want_shown = rnd + (2 if ph == Phase.LEADER else 1)
    need(shown == want_shown, "nm_shown", f"{want_shown} in round {rnd + 1}, phase {ph}", shown)
    allowed = {Phase.PICK: (Dec.PICK,), Phase.SETTLE: (Dec.KEEP, Dec.DISCARD),
               Phase.ACTION: (Dec.MAIN, Dec.EXCH_GIVE, Dec.EXCH_TAKE, Dec.GAIN_RES),
               Phase.BUY: (Dec.BUY,), Phase.FIGHT: (Dec.FIGHT, Dec.PENALTY),
               Phase.LEADER: (Dec.LEADER,), Phase.OVER: (Dec.NONE,)}[Phase(ph)]
    need(d in allowed, "dec", f"one of {[int(x) for x in allowed]} in phase {ph}", d)
    pa, eg, pen = int(rec["pending_any"]), int(rec["exch_give"]), int(rec["penalty_left"])
    need((1 <= pa <= 6) if d == Dec.GAIN_RES else pa == 0, "pending_any",
         "in [1, 6] while gaining resources, else 0", pa)
    need((0 <= eg < NUM_COLORS) if d == Dec.EXCH_TAKE else eg == -1, "exch_give",
         "a colour while taking in an exchange, else -1", eg)
    need((1 <= pen <= NUM_NM_POS) if d == Dec.PENALTY else pen == 0, "penalty_left",
         "in [1, 6] while paying a penalty, else 0", pen)
    atk, dealt = rec["atk"], rec["dealt"]
    fighting = d in (Dec.FIGHT, Dec.PENALTY)
    need(fighting or (not atk.any() and not dealt.any()), "atk/dealt",
         "flags and counts only while fighting", atk)
    if fighting:
        need(not atk[shown:].any() and not dealt[atk == 0].any(), "atk",
             "revealed nightmares; strength paid only to attackers", atk)
        need(not ((rec["killer"] >= 0) & (atk == 1) & (dealt == 0)).any(), "atk",
             "undefeated nightmares (or ones this fighter hit)", atk)
    used = (rec["nplaced"] + rec["nrest"]).astype(np.int64)[:n]
    cur = int(rec["current_player"])
    if ph == Phase.OVER:
        need(rnd == ROUNDS - 1, "round", "the last round at the end", rnd)
        return
    need(rec["final"].sum() == 0, "final", "0 before the end", rec["final"])
    if ph == Phase.PICK:
        total = n * int(PICKS[n])
        need(0 <= i < total, "pidx", f"in [0, {total}) while picking", i)
        need(cur == po[i % n], "current_player", f"the picker {po[i % n]}", cur)
        need(not used.any(), "helpers", "all in supply during Meditation", used)
        for q in range(n):
            want = sum(1 for j in range(i) if po[j % n] == q)
            got = int((rec["picks"][q] >= 0).sum())
            need(got == want, f"seat {q}'s picks", f"{want} after {i} picks", got)
        return
    if ph == Phase.SETTLE:
        need(0 <= i < n, "pidx", f"in [0, {n}) while settling", i)
        p = po[i]
        need(cur == p, "current_player", f"the seat settling {p}", cur)
        need(not used.any(), "helpers", "all in supply during Meditation", used)
        for j in range(i):
            need(rec["picks"][po[j], PICK_FIRST] == -1, f"seat {po[j]}'s picks", "settled", -1)
        full = (rec["zone"][p] >= 0).all()
        if d == Dec.KEEP:
            need(rec["picks"][p, PICK_SECOND] >= 0, "picks", "two monuments to keep one of",
                 rec["picks"][p])
        else:
            need(rec["picks"][p, PICK_SECOND] < 0 and rec["picks"][p, PICK_FIRST] >= 0 and full,
                 "picks",
                 "one new monument and a full zone to discard from", rec["picks"][p])
        return
    need(not (rec["picks"] >= 0).any(), "picks", "empty after Meditation", rec["picks"])
    rev = _order(rec, n)[::-1]
    need(po[:n] == rev, "porder", f"the reverse track order {rev}", po)
    if ph == Phase.ACTION:
        need(0 <= i < n * HELPERS, "pidx", f"in [0, {n * HELPERS}) in the Action phase", i)
        need(cur == po[i % n], "current_player", f"the seat whose turn it is {po[i % n]}", cur)
        for j in range(n):
            q = po[j]
            want = (i - j + n - 1) // n + (1 if q == cur and d != Dec.MAIN else 0)
            need(int(used[q]) == want, f"seat {q}'s used helpers", f"{want} at turn {i}",
                 int(used[q]))
        if d in (Dec.EXCH_GIVE, Dec.EXCH_TAKE):
            k = int(rec["nplaced"][cur])
            need(k > 0 and rec["terrain"][rec["placed"][cur, k - 1]] == T_CENTRAL,
                 "the exchanging helper", "on the central space", rec["placed"][cur])
        return
    need((used == HELPERS).all(), "helpers", "all used after the Action phase", used)
    need(0 <= i < n, "pidx", f"in [0, {n})", i)
    need(cur == po[i], "current_player", f"the seat in turn {po[i]}", cur)
    if d == Dec.PENALTY:
        need(rec["vp"][cur] == 0 and rec["res"][cur].any(), "the penalised seat",
             "at 0 VP with a resource to pay", int(rec["vp"][cur]))
    if d == Dec.FIGHT:
        need(atk.any(), "atk", "at least one attacker", atk)


def check_record(rec) -> None:
    """Raise ValueError naming the first thing wrong with a Forgotten City record.

    In order: every field's declared range (``RANGES``), the map and pieces, every
    monument / miracle / nightmare in exactly one place, the players' tracks and the
    conservation of resources, markers and coins, then the decision in progress (phase,
    seat order, who acts, counts).
    """
    check_ranges(rec, RANGES)
    n = int(rec["num_players"])
    _check_board(rec, n)
    _check_monuments(rec, n)
    _check_miracles(rec, n)
    _check_nightmares(rec, n)
    _check_players(rec, n)
    _check_flow(rec, n)
