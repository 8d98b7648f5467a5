"""Forgotten City: hex map, monuments, helpers, miracles, nightmares (2-4 players).

Rules: RULES.md; doc page: ``env.py``.
"""

from __future__ import annotations

import numpy as np

from fatezoo.envs.core.spec import EvalSettings, GameSpec, Kernels

from . import rules
from .encode import OBS, STATE_SIZE, encode, encode_state
from .heuristic import act_one
from .presets import TRAIN_PRESET
from .render import HOW_TO_WIN, LEGEND, render_ansi, render_svg
from .state import (
    ACTION_NAMES,
    AREA_SPACES,
    FREE_MARKERS,
    GREY_OUT,
    HELPERS,
    HEX_SECTOR,
    MAX_LEVEL,
    MAX_P,
    NM_HP,
    NUM_ACTIONS,
    NUM_COLORS,
    NUM_DECS,
    NUM_HEX,
    NUM_MIR,
    NUM_MON,
    NUM_NM,
    NUM_NM_POS,
    NUM_PHASES,
    NUM_SECTORS,
    NUM_WHITE,
    PICK_FIRST,
    PICK_SECOND,
    PICKS,
    RES_PER_COLOR,
    ROUNDS,
    START_COINS,
    STATE_DTYPE,
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


def configure() -> dict:
    """Forgotten City has no options of its own.

    ``num_players`` (2-4) and ``reward`` (``"win"``, or ``"score"`` for the
    VP-difference shaping of R58) are the common options.
    """
    return {}


class _Bad(ValueError):
    pass


def _need(ok, name: str, want: str, got) -> None:
    if not ok:
        if isinstance(got, np.ndarray):
            got = got.tolist()
        raise _Bad(f"{name} must be {want}, got {got}")


def _in(x, lo, hi) -> bool:
    v = np.asarray(x).ravel().tolist()
    return not v or (lo <= min(v) and max(v) < hi)


def _check_board(rec, n) -> None:
    tiles = rec["tile_at"].tolist()
    _need(sorted(tiles) == list(range(NUM_SECTORS)), "tile_at", "a permutation of 0-5", tiles)
    want = np.full(NUM_HEX, T_CENTRAL, np.int64)
    for h in range(1, NUM_HEX):
        s = int(HEX_SECTOR[h])
        want[h] = TILE_LAYOUT[tiles[s], h - 1 - 10 * s]
    _need((rec["terrain"] == want).all(), "terrain", "the placed tiles' terrain", rec["terrain"])
    _need(_in(rec["mon_at"], -1, NUM_MON), "mon_at", f"in [-1, {NUM_MON})", rec["mon_at"])
    for q in range(MAX_P):
        k, r = int(rec["nplaced"][q]), int(rec["nrest"][q])
        pl = rec["placed"][q]
        if q >= n:
            _need(k == 0 and r == 0 and (pl == -1).all() and rec["leader"][q] == -1,
                  f"seat {q}'s helpers and leader", f"unused with {n} players", pl)
            continue
        _need(0 <= k <= HELPERS and 0 <= r <= HELPERS and k + r <= HELPERS,
              f"seat {q}'s placed and rested helpers", f"counts summing to at most {HELPERS}",
              (k, r))
        _need(_in(pl[:k], 0, NUM_HEX) and (pl[k:] == -1).all(), f"seat {q}'s placed helpers",
              f"{k} hexes then -1", pl)
        ld = int(rec["leader"][q])
        _need(0 <= ld < NUM_HEX, f"seat {q}'s leader", f"a hex in [0, {NUM_HEX})", ld)
        for h in pl[:k].tolist() + [ld]:
            _need(rec["terrain"][h] != T_PORTAL, f"seat {q}'s pieces", "off the portals", h)


def _check_monuments(rec, n) -> None:
    spaces = int(TRACK_SPACES[n])
    tm, mk, tc = rec["track_mon"], rec["track_marker"], rec["track_coins"]
    _need(_in(tm, -1, NUM_MON) and (tm[spaces:] == -1).all(), "track_mon",
          f"monuments or -1 on the {spaces} spaces in use", tm)
    _need(_in(mk, -1, n) and (mk[spaces:] == -1).all(), "track_marker",
          f"seats in [0, {n}) or -1 on the {spaces} spaces in use", mk)
    _need(sorted(x for x in mk.tolist() if x >= 0) == list(range(n)), "track_marker",
          "one marker per seat", mk)
    _need(not ((tm >= 0) & (mk >= 0)).any(), "track", "a monument or a marker per space", tm)
    _need(_in(tc, 0, 1000) and not tc[tm < 0].any(), "track_coins",
          "in [0, 1000] and 0 on spaces without a monument", tc)
    sn = int(rec["mstack_n"])
    _need(0 <= sn <= NUM_MON, "mstack_n", f"in [0, {NUM_MON}]", sn)
    st = rec["mstack"]
    _need(_in(st[:sn], 0, NUM_MON) and (st[sn:] == -1).all(), "mstack",
          f"{sn} monuments then -1", st)
    zone, picks = rec["zone"], rec["picks"]
    _need(_in(zone, -1, NUM_MON) and (zone[n:] == -1).all(), "zone",
          "monuments or -1 (seats in play)", zone)
    _need(_in(picks, -1, NUM_MON) and (picks[n:] == -1).all(), "picks",
          "monuments or -1 (seats in play)", picks)
    _need(not ((picks[:, PICK_SECOND] >= 0) & (picks[:, PICK_FIRST] < 0)).any(), "picks",
          "a second pick only after a first", picks)
    _need(n == 2 or (picks[:, PICK_SECOND] == -1).all(), "picks",
          "one per seat with 3-4 players", picks)
    _need(_in(rec["mdiscard"], 0, 2), "mdiscard", "0 or 1", rec["mdiscard"])
    where = (st[:sn].tolist() + [x for x in tm.tolist() if x >= 0]
             + [x for x in zone.ravel().tolist() if x >= 0]
             + [x for x in picks.ravel().tolist() if x >= 0]
             + [x for x in rec["mon_at"].tolist() if x >= 0]
             + np.flatnonzero(rec["mdiscard"]).tolist())
    _need(sorted(where) == list(range(NUM_MON)), "the monuments",
          "each in exactly one place (stack, track, zone, picks, map, discard)", sorted(where))
    owner = rec["mon_owner"]
    on_map = np.zeros(NUM_MON, bool)
    on_map[[x for x in rec["mon_at"].tolist() if x >= 0]] = True
    _need(_in(owner, -1, n) and ((owner >= 0) == on_map).all(), "mon_owner",
          f"a seat in [0, {n}) exactly for monuments on the map", owner)


def _check_miracles(rec, n) -> None:
    wn = int(rec["wstack_n"])
    _need(0 <= wn <= NUM_WHITE, "wstack_n", f"in [0, {NUM_WHITE}]", wn)
    ws = rec["wstack"]
    _need(_in(ws[:wn], 0, NUM_WHITE) and (ws[wn:] == -1).all(), "wstack",
          f"{wn} white miracles then -1", ws)
    _need(_in(rec["wshow"], -1, NUM_WHITE), "wshow", "white miracles or -1", rec["wshow"])
    _need(_in(rec["gshow"], -1, NUM_MIR) and not ((rec["gshow"] >= 0)
                                                 & (rec["gshow"] < NUM_WHITE)).any(),
          "gshow", "grey miracles or -1", rec["gshow"])
    _need(_in(rec["gout"], NUM_WHITE, NUM_MIR), "gout", "grey miracles", rec["gout"])
    tn, tree = rec["tree_n"], rec["tree"]
    _need(_in(tn[:n], 0, TREE_SPACES + 1) and not tn[n:].any(), "tree_n",
          f"in [0, {TREE_SPACES}] (0 for absent seats)", tn)
    owned = []
    for q in range(MAX_P):
        k = int(tn[q])
        _need(_in(tree[q, :k], 0, NUM_MIR) and (tree[q, k:] == -1).all(), f"seat {q}'s tree",
              f"{k} miracles then -1", tree[q])
        owned += tree[q, :k].tolist()
    where = (ws[:wn].tolist() + [x for x in rec["wshow"].tolist() if x >= 0]
             + [x for x in rec["gshow"].tolist() if x >= 0] + rec["gout"].tolist() + owned)
    _need(sorted(where) == list(range(NUM_MIR)), "the miracles",
          "each in exactly one place", sorted(where))
    _need(len(set(rec["gout"].tolist())) == GREY_OUT, "gout", "distinct", rec["gout"])


def _check_nightmares(rec, n) -> None:
    cards = rec["nm_at"].tolist() + [int(rec["nm_out"])]
    _need(sorted(cards) == list(range(NUM_NM)), "nm_at and nm_out",
          "a permutation of the 7 nightmares", cards)
    shown = int(rec["nm_shown"])
    _need(1 <= shown <= NUM_NM_POS, "nm_shown", f"in [1, {NUM_NM_POS}]", shown)
    for k in range(NUM_NM_POS):
        hp = int(NM_HP[cards[k], n])
        hits, killer = int(rec["hits"][k]), int(rec["killer"][k])
        box = rec["boxes"][k]
        _need(0 <= hits <= hp and (k < shown or hits == 0), f"nightmare {k}'s hits",
              f"in [0, {hp}] (0 while face down)", hits)
        _need(_in(box[:hits], 0, n) and (box[hits:] == -1).all(), f"nightmare {k}'s boxes",
              f"{hits} seats then -1", box)
        want = int(box[hits - 1]) if hits == hp else -1
        _need(killer == want, f"nightmare {k}'s holder",
              "the seat of the last box once every box is covered, else -1", killer)


def _check_players(rec, n) -> None:
    for name, lo, hi in (("vp", 0, BIG), ("coins", 0, BIG), ("insp", 0, TRACK_CAP + 1),
                         ("defense", 0, TRACK_CAP + 1), ("area_left", 0, AREA_SPACES + 1),
                         ("free", 0, FREE_MARKERS + 1), ("final", 0, 1000)):
        v = rec[name]
        _need(_in(v[:n], lo, hi) and not v[n:].any(), name,
              f"in [{lo}, {hi - 1}] for seats in play, 0 otherwise", v)
    _need(_in(rec["level"], 0, MAX_LEVEL + 1) and not rec["level"][n:].any(), "level",
          f"in [0, {MAX_LEVEL}]", rec["level"])
    res = rec["res"]
    _need(_in(res, 0, RES_PER_COLOR + 1) and not res[n:].any(), "res",
          f"in [0, {RES_PER_COLOR}]", res)
    sup = rec["supply"]
    _need(_in(sup, 0, RES_PER_COLOR + 1)
          and (sup.astype(np.int64) + res.sum(0)).tolist() == [RES_PER_COLOR] * NUM_COLORS,
          "supply", f"20 minus the resources held, per colour (got held {res.sum(0).tolist()})",
          sup)
    owner = rec["mon_owner"]
    for q in range(n):
        built = int((owner == q).sum())
        _need(int(rec["area_left"][q]) + built == AREA_SPACES, f"seat {q}'s monument area",
              f"{AREA_SPACES} minus its {built} monuments", int(rec["area_left"][q]))
        marks = int((rec["boxes"] == q).sum())
        _need(int(rec["free"][q]) + marks == FREE_MARKERS, f"seat {q}'s free markers",
              f"{FREE_MARKERS} minus its {marks} on nightmares", int(rec["free"][q]))
    taken, paid = int(rec["coins_taken"]), int(rec["coins_paid"])
    _need(0 <= taken <= COIN_FLOW_CAP and 0 <= paid <= COIN_FLOW_CAP, "coins_taken/coins_paid",
          f"in [0, {COIN_FLOW_CAP}]", (taken, paid))
    held = int(rec["coins"].astype(np.int64).sum() + rec["track_coins"].astype(np.int64).sum())
    _need(held == START_COINS * n + taken - paid, "the coins",
          f"{START_COINS * n} + taken {taken} - paid {paid}", held)


def _order(rec, n) -> list:
    return [int(x) for x in rec["track_marker"].tolist() if x >= 0]


def _check_flow(rec, n) -> None:
    ph, d, rnd, i = int(rec["phase"]), int(rec["dec"]), int(rec["round"]), int(rec["pidx"])
    _need(0 <= ph < NUM_PHASES, "phase", f"in [0, {NUM_PHASES})", ph)
    _need(0 <= d < NUM_DECS, "dec", f"in [0, {NUM_DECS})", d)
    _need(0 <= rnd < ROUNDS, "round", f"in [0, {ROUNDS})", rnd)
    po = rec["porder"].tolist()
    _need(sorted(po[:n]) == list(range(n)) and po[n:] == [-1] * (MAX_P - n), "porder",
          f"a permutation of the {n} seats then -1", po)
    lp, la = int(rec["last_player"]), int(rec["last_action"])
    _need(-1 <= lp < n and -1 <= la < NUM_ACTIONS and (lp < 0) == (la < 0),
          "last_player/last_action", "both -1 or a seat and an action", (lp, la))
    over = rec["terminated"] == 1
    _need(over == (ph == Phase.OVER), "phase", "OVER exactly when the game has terminated", ph)
    shown = int(rec["nm_shown"])
    want_shown = rnd + (2 if ph == Phase.LEADER else 1)
    _need(shown == want_shown, "nm_shown", f"{want_shown} in round {rnd + 1}, phase {ph}", shown)
    allowed = {Phase.PICK: (Dec.PICK,), Phase.SETTLE: (Dec.KEEP, Dec.DISCARD),
               Phase.ACTION: (Dec.MAIN, Dec.EXCH_GIVE, Dec.EXCH_TAKE, Dec.GAIN_RES),
               Phase.BUY: (Dec.BUY,), Phase.FIGHT: (Dec.FIGHT, Dec.PENALTY),
               Phase.LEADER: (Dec.LEADER,), Phase.OVER: (Dec.NONE,)}[Phase(ph)]
    _need(d in allowed, "dec", f"one of {[int(x) for x in allowed]} in phase {ph}", d)
    pa, eg, pen = int(rec["pending_any"]), int(rec["exch_give"]), int(rec["penalty_left"])
    _need((1 <= pa <= 6) if d == Dec.GAIN_RES else pa == 0, "pending_any",
          "in [1, 6] while gaining resources, else 0", pa)
    _need((0 <= eg < NUM_COLORS) if d == Dec.EXCH_TAKE else eg == -1, "exch_give",
          "a colour while taking in an exchange, else -1", eg)
    _need((1 <= pen <= NUM_NM_POS) if d == Dec.PENALTY else pen == 0, "penalty_left",
          "in [1, 6] while paying a penalty, else 0", pen)
    atk, dealt = rec["atk"], rec["dealt"]
    fighting = d in (Dec.FIGHT, Dec.PENALTY)
    _need(_in(atk, 0, 2) and _in(dealt, 0, TRACK_CAP + 1)
          and (fighting or (not atk.any() and not dealt.any())), "atk/dealt",
          "flags and counts only while fighting", atk)
    if fighting:
        _need(not atk[shown:].any() and not dealt[atk == 0].any(), "atk",
              "revealed nightmares; strength paid only to attackers", atk)
        _need(not ((rec["killer"] >= 0) & (atk == 1) & (dealt == 0)).any(), "atk",
              "undefeated nightmares (or ones this fighter hit)", atk)
    used = (rec["nplaced"] + rec["nrest"]).astype(np.int64)[:n]
    cur = int(rec["current_player"])
    if ph == Phase.OVER:
        _need(rnd == ROUNDS - 1, "round", "the last round at the end", rnd)
        return
    _need(rec["final"].sum() == 0, "final", "0 before the end", rec["final"])
    if ph == Phase.PICK:
        total = n * int(PICKS[n])
        _need(0 <= i < total, "pidx", f"in [0, {total}) while picking", i)
        _need(cur == po[i % n], "current_player", f"the picker {po[i % n]}", cur)
        _need(not used.any(), "helpers", "all in supply during Meditation", used)
        for q in range(n):
            want = sum(1 for j in range(i) if po[j % n] == q)
            got = int((rec["picks"][q] >= 0).sum())
            _need(got == want, f"seat {q}'s picks", f"{want} after {i} picks", got)
        return
    if ph == Phase.SETTLE:
        _need(0 <= i < n, "pidx", f"in [0, {n}) while settling", i)
        p = po[i]
        _need(cur == p, "current_player", f"the seat settling {p}", cur)
        _need(not used.any(), "helpers", "all in supply during Meditation", used)
        for j in range(i):
            _need(rec["picks"][po[j], PICK_FIRST] == -1, f"seat {po[j]}'s picks", "settled", -1)
        full = (rec["zone"][p] >= 0).all()
        if d == Dec.KEEP:
            _need(rec["picks"][p, PICK_SECOND] >= 0, "picks", "two monuments to keep one of",
                  rec["picks"][p])
        else:
            _need(rec["picks"][p, PICK_SECOND] < 0 and rec["picks"][p, PICK_FIRST] >= 0 and full,
                  "picks",
                  "one new monument and a full zone to discard from", rec["picks"][p])
        return
    _need(not (rec["picks"] >= 0).any(), "picks", "empty after Meditation", rec["picks"])
    rev = _order(rec, n)[::-1]
    _need(po[:n] == rev, "porder", f"the reverse track order {rev}", po)
    if ph == Phase.ACTION:
        _need(0 <= i < n * HELPERS, "pidx", f"in [0, {n * HELPERS}) in the Action phase", i)
        _need(cur == po[i % n], "current_player", f"the seat whose turn it is {po[i % n]}", cur)
        for j in range(n):
            q = po[j]
            want = (i - j + n - 1) // n + (1 if q == cur and d != Dec.MAIN else 0)
            _need(int(used[q]) == want, f"seat {q}'s used helpers", f"{want} at turn {i}",
                  int(used[q]))
        if d in (Dec.EXCH_GIVE, Dec.EXCH_TAKE):
            k = int(rec["nplaced"][cur])
            _need(k > 0 and rec["terrain"][rec["placed"][cur, k - 1]] == T_CENTRAL,
                  "the exchanging helper", "on the central space", rec["placed"][cur])
        return
    _need((used == HELPERS).all(), "helpers", "all used after the Action phase", used)
    _need(0 <= i < n, "pidx", f"in [0, {n})", i)
    _need(cur == po[i], "current_player", f"the seat in turn {po[i]}", cur)
    if d == Dec.PENALTY:
        _need(rec["vp"][cur] == 0 and rec["res"][cur].any(), "the penalised seat",
              "at 0 VP with a resource to pay", int(rec["vp"][cur]))
    if d == Dec.FIGHT:
        _need(atk.any(), "atk", "at least one attacker", atk)


def check_record(rec) -> None:
    """Raise ValueError naming the first thing wrong with a Forgotten City record.

    In order: the seats, the map and pieces, every monument / miracle / nightmare in
    exactly one place, the players' tracks and the conservation of resources, markers
    and coins, then the decision in progress (phase, seat order, who acts, counts).
    """
    n = int(rec["num_players"])
    _need(2 <= n <= MAX_P, "num_players", f"in [2, {MAX_P}]", n)
    _need(0 <= rec["current_player"] < n, "current_player", f"in [0, {n})",
          int(rec["current_player"]))
    _check_board(rec, n)
    _check_monuments(rec, n)
    _check_miracles(rec, n)
    _check_nightmares(rec, n)
    _check_players(rec, n)
    _check_flow(rec, n)


def golden_summary(rec) -> str:
    """A golden transcript's closing line: VP per seat."""
    return f"vp {rec['vp'][: int(rec['num_players'])].tolist()}"


SPEC = GameSpec(
    name="forgotten_city",
    gym_id="fatezoo/ForgottenCity-v0",
    min_players=2,
    max_players=4,
    num_actions=NUM_ACTIONS,
    state_size=STATE_SIZE,
    state_dtype=STATE_DTYPE,
    obs=OBS,
    action_names=ACTION_NAMES,
    configure=configure,
    check_record=check_record,
    render_ansi=render_ansi,
    render_svg=render_svg,
    kernels=Kernels(reset=rules.reset_game, apply=rules.apply_action, legal=rules.legal_mask,
                    encode=encode, encode_state=encode_state,
                    determinize=rules.determinize_record, policy=act_one,
                    evaluate=rules.evaluate),
    default_max_turns=3000,
    golden_summary=golden_summary,
    how_to_win=HOW_TO_WIN,
    legend=LEGEND,
    # every seat sees the same table; only the face-down stacks are hidden, from all alike
    # (the contract's hidden-information check then asks determinize to move the full state)
    symmetric_information=True,
    evaluation=EvalSettings(
        contract_options=({"reward": "score"},),
        # batched steps/s that `fatezoo bench` requires, about half of what the core measures on
        # an idle 2-core machine: 452,886 at 1,024 envs (0.38x the memory floor of copying the
        # 2,729-entry observation and the 345-entry mask); a loaded machine (load 6-8) gives
        # 180,000-230,000 (RULES.md section 19, Speed)
        bench_floor=225_000.0,
        arena_targets=(("heuristic", "random", 0.8),),
        train_preset=TRAIN_PRESET,
        rollout_depth=60,
        # cold seconds per entry point on 2 shared cores (fatezoo bench forgotten_city --compile)
        compile_seconds={"aec": 12, "vector": 5, "heuristic": 3, "ismcts": 7},
    ),
)

determinize = SPEC.determinize  # the core's wrapper of rules.determinize_record

from .env import env, raw_env, vec  # noqa: E402  (env.py needs SPEC)

__all__ = ["SPEC", "env", "raw_env", "vec", "determinize", "check_record"]
