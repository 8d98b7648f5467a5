"""Forgotten City rules, one hand-built position per rule (envs/forgotten_city/RULES.md).

Positions start from a dealt game whose terrain tiles are put back in order (tile k in
sector k, the map of RULES.md section 12), then the fields a rule reads are set by hand.
The map near the centre, as used below (letter = terrain, number = hex)::

              S03 R02 P16          P purple (Storm)  R red (Sun)  B blue (Rain)
            B51 P01 S13 R15        Y yellow (Lightning)  S stone  O portal  C central
          P41 C00 R11 B12
            Y31 B21 S23 R26        portals: O08 O18 O28 O38 O48 O58

``act`` applies one decision with the rules kernel only; ``step`` goes through the core
(``K.step_one``), which also applies every following forced (single-choice) decision.
"""

from __future__ import annotations

import numpy as np
import pytest

import fatezoo
from fatezoo.envs.core import kernels as K
from fatezoo.envs.core.registry import get_spec
from fatezoo.envs.core.rng import rng_rows, seed_words
from fatezoo.envs.core.testing import RuleGame
from fatezoo.envs.forgotten_city import check_record, rules
from fatezoo.envs.forgotten_city import vec as fc_vec
from fatezoo.envs.forgotten_city.encode import OBS
from fatezoo.envs.forgotten_city.state import (
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
    ADJ,
    AREA_VP,
    HEX_SECTOR,
    MIR_TYPE,
    MIR_TYPE_NAMES,
    MON_NAMES,
    NM_BOX_VP,
    NM_HP,
    NM_NAMES,
    NUM_ACTIONS,
    NUM_HEX,
    NUM_MON,
    NUM_WHITE,
    PICK_FIRST,
    PORTALS,
    T_CENTRAL,
    T_PORTAL,
    T_STONE,
    TILE_LAYOUT,
    TREE_COST,
    TREE_VP,
    ZONE_0,
    Dec,
    Phase,
)

SPEC = get_spec("forgotten_city")
P, R, B, Y = 0, 1, 2, 3
BUILD0, BUILD1, DIG, DECODE = 0, 1, 2, 3


def mon(name: str) -> int:
    return MON_NAMES.index(name)


def mir(name: str, copy: int = 0) -> int:
    """Miracle id of the ``copy``-th tile of the named type."""
    t = MIR_TYPE_NAMES.index(name)
    return int(np.flatnonzero(MIR_TYPE == t)[copy])


def nm(name: str) -> int:
    return NM_NAMES.index(name)


def PLACE(h: int, a: int) -> int:
    return A_PLACE + 4 * h + a


class Game(RuleGame):
    """A Forgotten City game (the core's rule-test harness), tiles as RULES.md 12's map."""

    SPEC = SPEC

    def __init__(self, n=2, seed=0, reward="win"):
        super().__init__(seed=seed, num_players=n, reward=reward)
        r = self.r
        r["tile_at"][:] = np.arange(6)
        for h in range(1, NUM_HEX):
            s = int(HEX_SECTOR[h])
            r["terrain"][h] = TILE_LAYOUT[s, h - 1 - 10 * s]

    def action_turn(self, p: int, zone=(-1, -1)) -> None:
        """The Action phase of round 1, ``p`` to place (nobody has placed before)."""
        r = self.r
        r["picks"][:] = -1
        for q in range(self.n):
            r["zone"][q] = -1
        r["mdiscard"][:] = 0
        # every monument not on the track back to the stack, then the zone's monuments
        on_track = set(x for x in r["track_mon"].tolist() if x >= 0)
        rest = [m for m in range(NUM_MON) if m not in on_track and m not in zone]
        r["mstack"][:] = -1
        r["mstack"][: len(rest)] = rest
        r["mstack_n"] = len(rest)
        r["zone"][p] = zone
        r["phase"] = Phase.ACTION
        rules.set_order(r, True)
        r["pidx"] = list(r["porder"][: self.n]).index(p)
        r["current_player"] = p
        r["dec"] = Dec.MAIN

    def fight_turn(self, p: int) -> None:
        """The Nightmare phase of round 1 with every helper used; ``p`` fights next."""
        r = self.r
        r["phase"] = Phase.FIGHT
        rules.set_order(r, True)
        r["pidx"] = list(r["porder"][: self.n]).index(p)
        for q in range(self.n):
            r["nrest"][q] = 4 - r["nplaced"][q]
        rules.proceed(r)


def fresh(n=2, seed=0):
    return Game(n, seed)


# ---------------------------------------------------------------- 1. setup


def test_setup_player_count_2_3_4():
    for n in (2, 3, 4):
        env = fatezoo.make("forgotten_city", num_players=n)
        env.reset(seed=1)
        assert len(env.possible_agents) == n
    for bad in (1, 5):
        with pytest.raises(ValueError, match=rf"num_players must be in \[2, 4\], got {bad}"):
            fatezoo.make("forgotten_city", num_players=bad)


def test_setup_tiles_random_permutation_aligned():
    seen = set()
    for seed in range(12):
        g = SPEC.new_states(1, SPEC.options(num_players=2))
        g["rng"] = seed_words(seed, 0)
        K.reset_one(g, 0, np.zeros(NUM_ACTIONS, np.int8))
        r = g[0]
        tiles = r["tile_at"].tolist()
        assert sorted(tiles) == list(range(6))
        seen.add(tuple(tiles))
        for s in range(6):
            assert r["terrain"][1 + 10 * s + 2] == T_STONE  # local 2: stone terrain
            assert r["terrain"][1 + 10 * s + 7] == T_PORTAL  # local 7: a portal
            for loc in range(10):  # the tile keeps its orientation
                assert r["terrain"][1 + 10 * s + loc] == TILE_LAYOUT[tiles[s], loc]
        assert r["terrain"][0] == T_CENTRAL
    assert len(seen) >= 10  # placements differ between games


def test_setup_track_by_player_count():
    for n, spaces, mons in ((2, 8, 4), (3, 8, 5), (4, 10, 6)):
        r = Game(n, seed=3).r
        # Meditation has begun: the first picker is the seat on space 0
        assert r["phase"] == Phase.PICK and r["current_player"] == r["track_marker"][0]
        assert sorted(r["track_marker"][:n].tolist()) == list(range(n))
        assert (r["track_mon"][n: n + mons] >= 0).all()
        assert (r["track_mon"][n + mons:] == -1).all() and (r["track_mon"][:n] == -1).all()
        assert (r["track_marker"][n:] == -1).all()
        assert r["mstack_n"] == NUM_MON - mons
        assert spaces == [8, 8, 10][n - 2]
    orders = {tuple(Game(4, seed=s).r["track_marker"][:4].tolist()) for s in range(12)}
    assert len(orders) >= 8  # a random turn order


def test_setup_player_boards():
    r = Game(3).r
    for p in range(3):
        assert r["res"][p].tolist() == [2, 2, 2, 2]
        assert r["coins"][p] == 6 and r["vp"][p] == 10
        assert r["leader"][p] == 0 and r["nplaced"][p] == 0 and r["nrest"][p] == 0
        assert r["free"][p] == 12 and r["area_left"][p] == 6
        assert r["insp"][p] == 0 and r["defense"][p] == 0 and r["level"][p].tolist() == [0, 0, 0]
        assert r["zone"][p].tolist() == [-1, -1]
    assert r["supply"].tolist() == [20 - 6] * 4


def test_setup_miracle_displays():
    r = Game(2).r
    assert (r["wshow"] >= 0).all() and (r["wshow"] < NUM_WHITE).all()
    assert (r["gshow"] >= NUM_WHITE).all()
    assert r["wstack_n"] == 19 - 6
    assert len(set(r["gshow"].tolist()) | set(r["gout"].tolist())) == 8


def test_setup_nightmares_first_revealed():
    r = Game(2).r
    assert sorted(r["nm_at"].tolist() + [int(r["nm_out"])]) == list(range(7))
    assert r["nm_shown"] == 1
    assert (r["hits"] == 0).all() and (r["killer"] == -1).all()


def test_conservation_of_components():
    g = Game(2)
    check_record(g.r)
    g.r["res"][0, 1] += 1  # a resource from nowhere
    with pytest.raises(ValueError, match="supply must be 20 minus"):
        check_record(g.r)
    g = Game(2)
    g.r["coins"][1] += 3  # coins from nowhere
    with pytest.raises(ValueError, match="the coins must be"):
        check_record(g.r)
    g = Game(2)
    g.r["zone"][0, ZONE_0] = g.r["track_mon"][3]  # a monument in two places
    with pytest.raises(ValueError, match="the monuments must be each in exactly one place"):
        check_record(g.r)


# ---------------------------------------------------------------- 2. rounds and order


def play_random(n=2, seed=0, reward="win"):
    vec = fc_vec(1, num_players=n, seed=seed, auto_reset=False, reward=reward)
    obs, mask, _ = vec.reset()
    rng = rng_rows(seed + 1, 1)
    acts = np.empty(1, np.int64)
    phases = []
    while not vec.states["terminated"][0]:
        phases.append((int(vec.states[0]["round"]), int(vec.states[0]["phase"])))
        K.serial_random_actions(mask, rng, acts)
        obs, mask, _, rew, term, trunc = vec.step(acts)
    return vec, phases


def test_six_rounds_then_game_end():
    vec, phases = play_random(2, seed=4)
    r = vec.states[0]
    assert r["terminated"] == 1 and r["phase"] == Phase.OVER and r["round"] == 5
    rounds = sorted(set(x for x, _ in phases))
    assert rounds == list(range(6))
    # round 6 has no Cleanup: no leader moves and the sixth nightmare stays the last shown
    assert (5, int(Phase.LEADER)) not in phases and r["nm_shown"] == 6


def test_phase_orders_track_and_reverse():
    # track: 0:[p2] 1:[p0] 2:[p1] ...: Meditation p2, p0, p1; the later phases p1, p0, p2
    g = Game(3)
    r = g.r
    r["track_marker"][:3] = [2, 0, 1]
    rules.begin_meditation(r)
    assert r["porder"][:3].tolist() == [2, 0, 1]
    rules.set_order(r, True)
    assert r["porder"][:3].tolist() == [1, 0, 2]


# ---------------------------------------------------------------- 3. Meditation


def test_meditation_pick_moves_marker():
    # 3 players, track 0:[p?] 1:[p?] 2:[p?] 3:M 4:M(2 coins) ...; the first picker takes 4
    g = Game(3, seed=1)
    r = g.r
    p = int(r["current_player"])
    old = list(r["track_marker"]).index(p)
    m = int(r["track_mon"][4])
    r["track_coins"][4] = 2
    r["coins_taken"] += 2
    g.apply(A_PICK + 4)
    assert r["track_marker"][4] == p and r["track_marker"][old] == -1
    assert r["track_mon"][4] == -1 and r["picks"][p, PICK_FIRST] == m
    assert r["coins"][p] == 8 and r["track_coins"][4] == 0
    assert r["current_player"] == r["porder"][1]  # the next seat in track order picks


def test_two_player_pick_two_keep_one():
    g = Game(2, seed=2)
    r = g.r
    first, second = int(r["porder"][0]), int(r["porder"][1])
    mons = r["track_mon"][2:6].tolist()
    for k, who in zip((2, 3, 4, 5), (first, second, first, second)):
        assert r["current_player"] == who
        g.apply(A_PICK + k)
    assert r["picks"][first].tolist() == [mons[0], mons[2]]
    assert r["picks"][second].tolist() == [mons[1], mons[3]]
    assert r["track_marker"][4] == first and r["track_marker"][5] == second
    assert r["dec"] == Dec.KEEP and r["current_player"] == first  # the first picker keeps first
    g.apply(A_KEEP + 1)
    assert r["zone"][first].tolist() == [mons[2], -1] and r["mdiscard"][mons[0]] == 1
    assert r["dec"] == Dec.KEEP and r["current_player"] == second
    g.apply(A_KEEP + 0)
    assert r["zone"][second].tolist() == [mons[1], -1] and r["mdiscard"][mons[3]] == 1
    assert r["phase"] == Phase.ACTION


def test_letting_go_scores_the_unkept_pick():
    # R11, R49: a Letting Go holder's unkept 2-player pick is a discard for 3 VP; the other
    # seat (no Letting Go) discards its unkept pick for nothing
    g = Game(2, seed=2)
    r = g.r
    first, second = int(r["porder"][0]), int(r["porder"][1])
    own(r, first, mir("Letting Go"))
    vp = r["vp"][:2].tolist()
    for k in (2, 3, 4, 5):
        g.apply(A_PICK + k)
    unkept = int(r["picks"][first, PICK_FIRST])
    g.apply(A_KEEP + 1)
    assert r["mdiscard"][unkept] == 1 and r["vp"][first] == vp[first] + 3
    g.apply(A_KEEP + 0)
    assert r["vp"][second] == vp[second]
    check_record(r)


def test_construction_zone_holds_two():
    # 3 players: the last picker already holds two monuments -> discards one of three
    g = Game(3, seed=5)
    r = g.r
    order = r["porder"][:3].tolist()
    last = order[2]
    a, b = [m for m in r["mstack"][: r["mstack_n"]].tolist()][:2]
    # move two monuments from the stack into the last picker's zone
    stack = [m for m in r["mstack"][: r["mstack_n"]].tolist() if m not in (a, b)]
    r["mstack"][:] = -1
    r["mstack"][: len(stack)] = stack
    r["mstack_n"] = len(stack)
    r["zone"][last] = [a, b]
    g.apply(A_PICK + 3)
    g.apply(A_PICK + 4)
    new = int(r["track_mon"][5])
    g.apply(A_PICK + 5)
    assert r["phase"] == Phase.SETTLE and r["current_player"] == last and r["dec"] == Dec.DISCARD
    assert r["picks"][last, PICK_FIRST] == new
    g.apply(A_DISCARD + 0)  # discard zone slot 0: the new monument takes its slot
    assert r["zone"][last].tolist() == [new, b] and r["mdiscard"][a] == 1
    assert r["vp"][last] == 10  # no Letting Go: no VP
    check_record(r)


def test_coin_on_each_unclaimed_monument():
    g = Game(3, seed=6)
    r = g.r
    taken = int(r["coins_taken"])
    for k in (3, 4, 5):
        g.apply(A_PICK + k)
    left = [s for s in range(8) if r["track_mon"][s] >= 0]
    assert left == [6, 7]
    assert r["track_coins"][6] == 1 and r["track_coins"][7] == 1
    assert r["coins_taken"] == taken + 2
    assert r["phase"] == Phase.ACTION


# ---------------------------------------------------------------- 4. Action


def test_action_turns_one_helper_each_until_all_used():
    g = Game(2, seed=7)
    g.action_turn(0)
    r = g.r
    r["pidx"] = 0
    r["current_player"] = r["porder"][0]
    seats = []
    for _ in range(8):
        seats.append(int(r["current_player"]))
        g.apply(A_REST)
    assert seats == [int(r["porder"][0]), int(r["porder"][1])] * 4
    assert r["nrest"][:2].tolist() == [4, 4]
    assert r["phase"] == Phase.BUY


def test_place_adjacent_to_own_helper_or_leader():
    # p0's leader on C00, p1's leader on P16 (far away): p0 may reach 1 11 21 31 41 51
    g = Game(2)
    g.action_turn(0)
    r = g.r
    r["leader"][1] = 16
    spaces = {(a - A_PLACE) // 4 for a in g.legal() if A_PLACE <= a < A_REST}
    assert spaces == {1, 11, 21, 31, 41, 51}
    r["placed"][0, 0] = 11  # a helper of p0 on R11 opens its neighbours
    r["nplaced"][0] = 1
    spaces = {(a - A_PLACE) // 4 for a in g.legal() if A_PLACE <= a < A_REST}
    assert set(ADJ[11].tolist()) == {12, 13, 1, 0, 21, 23}
    # stone S13 and S23 offer nothing without a monument to build; C00: an exchange
    assert spaces == {0, 1, 11, 12, 21, 31, 41, 51}


def test_portal_placement_costs_two_coins():
    # p0's leader on B05, next to portal O08: every space next to another portal is open
    g = Game(2)
    g.action_turn(0)
    r = g.r
    r["leader"][0] = 5
    r["leader"][1] = 0
    target = 17  # next to portal O18 (ADJ[18]), far from B05
    assert target in ADJ[18].tolist() and target not in ADJ[5].tolist()
    assert PLACE(target, DIG) in g.legal()
    coins = int(r["coins"][0])
    res = int(r["res"][0, r["terrain"][target]])
    g.apply(PLACE(target, DIG))
    assert r["coins"][0] == coins - 2 and r["res"][0, r["terrain"][target]] == res + 1
    # with fewer than 2 coins the portal spaces close
    g2 = Game(2)
    g2.action_turn(0)
    g2.r["leader"][0] = 5
    g2.r["coins_paid"] += 5
    g2.r["coins"][0] = 1
    assert PLACE(target, DIG) not in g2.legal()


def test_occupied_space_costs_a_coin_per_helper():
    # R11 holds one helper of p1 and one of p0: p0 pays 2 coins to place there
    g = Game(2)
    g.action_turn(0)
    r = g.r
    r["placed"][1, 0] = 11
    r["nplaced"][1] = 1
    r["placed"][0, 0] = 1
    r["nplaced"][0] = 1
    r["placed"][0, 1] = 11
    r["nplaced"][0] = 2
    coins = int(r["coins"][0])
    g.apply(PLACE(11, DIG))
    assert r["coins"][0] == coins - 2  # 2 helpers were there: p1's and p0's own
    assert r["res"][0, R] == 3


def test_leader_makes_space_exclusive():
    # p1's leader on R11: p0 may not place there, unless p0's leader is there too
    g = Game(2)
    g.action_turn(0)
    r = g.r
    r["leader"][1] = 11
    assert not any(PLACE(11, a) in g.legal() for a in range(4))
    r["leader"][0] = 11
    assert PLACE(12, DIG) in g.legal()  # now p0 stands there; R11 is its own space
    r["placed"][0, 0] = 1
    r["nplaced"][0] = 1
    assert PLACE(11, DIG) in g.legal()


def test_placement_needs_a_legal_paid_action():
    # P01 is purple: no resource of it left in the supply, no monument: nothing to do there
    g = Game(2)
    g.action_turn(0)
    r = g.r
    r["res"][0, P] += r["supply"][P]
    r["supply"][P] = 0
    assert not any(PLACE(1, a) in g.legal() for a in range(4))
    assert PLACE(11, DIG) in g.legal() and A_REST in g.legal()


def test_build_matching_colour_or_stone():
    # p0 holds Sun Obelisk (red, 1P 1R): builds on R11 or stone S13, not on B21 or C00
    g = Game(2)
    g.action_turn(0, zone=(mon("Sun Obelisk"), -1))
    r = g.r
    r["placed"][0, 0] = 1
    r["nplaced"][0] = 1
    legal = g.legal()
    assert PLACE(11, BUILD0) in legal and PLACE(13, BUILD0) in legal
    assert PLACE(21, BUILD0) not in legal and PLACE(0, BUILD0) not in legal
    assert PLACE(1, BUILD0) not in legal  # P01 is purple


def test_build_scores_uncovered_marker_vp():
    # The rules text's example: Sun Obelisk on a red space: pay 1 purple 1 red, gain 1
    # defensive strength, 1 VP, and the first monument marker space's 1 VP
    g = Game(2)
    g.action_turn(0, zone=(mon("Sun Obelisk"), -1))
    r = g.r
    g.apply(PLACE(11, BUILD0))
    assert r["mon_at"][11] == mon("Sun Obelisk") and r["mon_owner"][mon("Sun Obelisk")] == 0
    assert r["res"][0].tolist() == [1, 1, 2, 2]
    assert r["defense"][0] == 1 and r["vp"][0] == 10 + 1 + AREA_VP[0]
    assert r["area_left"][0] == 5 and r["zone"][0].tolist() == [-1, -1]


def test_excavate_gains_space_colour():
    g = Game(2)
    g.action_turn(0)
    r = g.r
    g.apply(PLACE(21, DIG))  # B21
    assert r["res"][0].tolist() == [2, 2, 3, 2] and r["supply"][B] == 20 - 4 - 1


def test_excavate_not_under_monument_without_miracle():
    g = Game(2)
    g.action_turn(0)
    r = g.r
    m = int(r["mstack"][0])
    r["mstack"][: r["mstack_n"] - 1] = r["mstack"][1: r["mstack_n"]]
    r["mstack_n"] -= 1
    r["mstack"][r["mstack_n"]] = -1
    r["mon_at"][21] = m
    r["mon_owner"][m] = 1
    r["area_left"][1] = 5
    assert PLACE(21, DIG) not in g.legal()


def test_central_space_exchanges_one_resource():
    g = Game(2)
    g.action_turn(0)
    r = g.r
    r["placed"][0, 0] = 11
    r["nplaced"][0] = 1
    r["leader"][0] = 11  # both leaders away from C00 (R18), p0's helper next to it
    r["leader"][1] = 16
    g.apply(PLACE(0, DIG))
    assert r["dec"] == Dec.EXCH_GIVE
    g.apply(A_RES + Y)
    assert r["dec"] == Dec.EXCH_TAKE and A_RES + Y not in g.legal()
    g.apply(A_RES + P)
    assert r["res"][0].tolist() == [3, 2, 2, 1] and r["vp"][0] == 10
    assert r["dec"] == Dec.MAIN and r["current_player"] == 1


def test_no_build_or_excavate_on_portal_central_stone():
    g = Game(2)
    g.action_turn(0, zone=(mon("Sun Obelisk"), -1))
    r = g.r
    r["leader"][0] = 2  # R02: next to S03
    legal = g.legal()
    assert PLACE(3, DIG) not in legal and PLACE(3, BUILD0) in legal  # stone: build only
    r["leader"][0] = 4  # Y04: next to portal O08
    assert not any(PLACE(8, a) in g.legal() for a in range(4))  # a portal holds no helper
    g2 = Game(2)
    g2.action_turn(0, zone=(mon("Sun Obelisk"), -1))
    g2.r["leader"][0] = 11
    assert PLACE(0, BUILD0) not in g2.legal()  # the central space: no build


def test_decode_pays_owner_one_vp():
    # p1 built Sun Obelisk on R11; p0 decodes it (1 blue): 2 defensive strength, p1 +1 VP
    g = Game(2)
    g.action_turn(0)
    r = g.r
    m = mon("Sun Obelisk")
    stack = [x for x in r["mstack"][: r["mstack_n"]].tolist() if x != m]
    assert len(stack) == r["mstack_n"] - 1
    r["mstack"][:] = -1
    r["mstack"][: len(stack)] = stack
    r["mstack_n"] = len(stack)
    r["mon_at"][11] = m
    r["mon_owner"][m] = 1
    r["area_left"][1] = 5
    g.apply(PLACE(11, DECODE))
    assert r["res"][0].tolist() == [2, 2, 1, 2] and r["defense"][0] == 2
    assert r["vp"][1] == 11 and r["vp"][0] == 10


def test_rest_two_coins_exhausts_helper():
    g = Game(2)
    g.action_turn(0)
    r = g.r
    g.apply(A_REST)
    assert r["coins"][0] == 8 and r["nrest"][0] == 1 and r["nplaced"][0] == 0


def test_any_resources_asks_one_colour_at_a_time():
    # Veil of Storms (1P 1R 1B, purple): any 2 resources and 1 VP
    g = Game(2)
    g.action_turn(0, zone=(mon("Veil of Storms"), -1))
    r = g.r
    g.apply(PLACE(1, BUILD0))  # P01
    assert r["dec"] == Dec.GAIN_RES and r["pending_any"] == 2
    g.apply(A_RES + Y)
    assert r["dec"] == Dec.GAIN_RES and r["pending_any"] == 1
    g.apply(A_RES + Y)
    assert r["res"][0].tolist() == [1, 1, 1, 4] and r["vp"][0] == 10 + 1 + 1
    assert r["dec"] == Dec.MAIN and r["current_player"] == 1


# ---------------------------------------------------------------- 5. Recollection


def test_production_updates_tracks_and_income():
    g = Game(2)
    r = g.r
    r["level"][0] = [1, 2, 3]
    r["insp"][0] = 4
    coins = int(r["coins"][0])
    rules.production(r)
    assert r["insp"][0] == 4 + 3 and r["defense"][0] == 4 and r["coins"][0] == coins + 4
    assert r["insp"][1] == 2 and r["defense"][1] == 2


def test_tracks_capped_at_15():
    g = Game(2)
    r = g.r
    r["insp"][0] = 14
    r["defense"][0] = 15
    rules.production(r)
    assert r["insp"][0] == 15 and r["defense"][0] == 15


def test_upward_arrow_raises_production():
    g = Game(2)
    g.action_turn(0, zone=(mon("Storm Spire"), -1))  # Storm Spire: inspiration production +1
    r = g.r
    g.apply(PLACE(1, BUILD0))
    assert r["level"][0].tolist() == [1, 0, 0]


def buy_turn(g, p):
    r = g.r
    r["phase"] = Phase.BUY
    rules.set_order(r, True)
    r["pidx"] = list(r["porder"][: g.n]).index(p)
    r["current_player"] = p
    r["dec"] = Dec.BUY


def test_buy_miracle_lowest_open_tree_space():
    g = Game(2)
    buy_turn(g, 0)
    r = g.r
    r["insp"][0] = 5
    w = int(r["wshow"][2])
    g.apply(A_MIRACLE + 2)
    assert r["tree"][0, 0] == w and r["tree_n"][0] == 1
    assert r["insp"][0] == 5 - TREE_COST[0] and r["vp"][0] == 10 + TREE_VP[0]
    assert r["wshow"][2] == -1  # not refilled yet
    assert A_MIRACLE + 0 in g.legal()  # 3 inspiration left: the second space costs 3
    g.apply(A_MIRACLE + 0)
    assert r["insp"][0] == 0 and r["vp"][0] == 10 + TREE_VP[0] + TREE_VP[1]
    assert set(g.legal()) == {A_PASS}


def test_white_refills_after_each_player_grey_never():
    g = Game(2)
    buy_turn(g, 0)
    r = g.r
    r["insp"][0] = 5
    top = int(r["wstack"][r["wstack_n"] - 1])
    g.apply(A_MIRACLE + 4)
    g.apply(A_MIRACLE + 6)  # the first grey slot
    g.apply(A_PASS)
    assert r["wshow"][4] == top and r["wstack_n"] == 12
    assert r["gshow"][0] == -1


def test_grey_requirement_checked_at_end():
    # p0 holds Enlightenment of Nightmares (needs 2 white) and one white tile: no VP
    g = Game(2)
    r = g.r
    grey = mir("Enlightenment of Nightmares")
    for loc in ("gshow", "gout"):
        arr = r[loc]
        if grey in arr.tolist():
            arr[list(arr).index(grey)] = -1
    r["tree"][0, :2] = [int(r["wstack"][0]), grey]
    r["tree_n"][0] = 2
    r["boxes"][0, :6] = 0
    r["hits"][0] = 6
    r["killer"][0] = 0
    assert rules.grey_points(r, 0) == 0
    r["tree"][0, 2] = int(r["wstack"][1])
    r["tree_n"][0] = 3
    assert rules.grey_points(r, 0) == 3


# ---------------------------------------------------------------- 6. Nightmare


def set_nightmare(r, k, name):
    """Put the named card at board position ``k`` (swapping it with whatever held it)."""
    t = nm(name)
    cards = r["nm_at"].tolist() + [int(r["nm_out"])]
    j = cards.index(t)
    cards[j], cards[k] = cards[k], cards[j]
    r["nm_at"][:] = cards[:6]
    r["nm_out"] = cards[6]


def test_nightmare_attacks_players_on_its_terrain():
    # The Drowned Sun attacks Rain and Sun: p0 has a helper on R11 (attacked), p1 only on
    # stone S13 with its leader on C00 (never attacked)
    g = Game(2)
    r = g.r
    set_nightmare(r, 0, "The Drowned Sun")
    r["placed"][0, 0] = 11
    r["nplaced"][0] = 1
    r["placed"][1, 0] = 13
    r["nplaced"][1] = 1
    assert rules.attackers(r, 0) == 1 and r["atk"][0] == 1
    assert rules.attackers(r, 1) == 0
    r["placed"][1, 1] = 2  # R02
    r["nplaced"][1] = 2
    assert rules.attackers(r, 1) == 1


def fight_setup(n=2, name="The Drowned Sun", defense=(3, 0)):
    g = Game(n)
    r = g.r
    set_nightmare(r, 0, name)
    for p in range(n):
        r["placed"][p, 0] = 11  # everyone on R11
        r["nplaced"][p] = 1
        r["defense"][p] = defense[p] if p < len(defense) else 0
    return g


def test_fight_places_markers_scoring_box_vp():
    g = fight_setup()
    r = g.r
    g.fight_turn(0)
    assert r["dec"] == Dec.FIGHT and r["current_player"] == 0
    t = nm("The Drowned Sun")
    g.apply(A_DAMAGE + 0)
    g.apply(A_DAMAGE + 0)
    assert r["boxes"][0, :3].tolist() == [0, 0, -1] and r["hits"][0] == 2
    assert r["vp"][0] == 10 + NM_BOX_VP[t, 0] + NM_BOX_VP[t, 1]
    assert r["free"][0] == 10 and r["defense"][0] == 1


def test_must_attack_each_nightmare_while_able():
    g = fight_setup()
    r = g.r
    g.fight_turn(0)
    assert set(g.legal()) == {A_DAMAGE + 0}  # pass only after 1 damage
    g.apply(A_DAMAGE + 0)
    assert r["dealt"][0] == 1 and set(g.legal()) == {A_DAMAGE + 0, A_PASS}


def test_nightmare_hit_points_by_player_count():
    t = nm("The Drowned Sun")  # the rules text's card: 6 / 11 / 13
    assert NM_HP[t, 2:5].tolist() == [6, 11, 13]
    for n, hp in ((2, 6), (3, 11), (4, 13)):
        g = fight_setup(n, defense=(15,) + (0,) * (n - 1))
        r = g.r
        r["boxes"][0, 0] = 1  # one box already covered by player_1
        r["hits"][0] = 1
        r["free"][1] = 11
        g.fight_turn(0)
        for _ in range(hp - 2):
            g.apply(A_DAMAGE + 0)
        assert r["killer"][0] == -1
        g.apply(A_DAMAGE + 0)
        assert r["killer"][0] == 0 and r["hits"][0] == hp


def test_out_of_markers_attack_avoids_penalty_only():
    # p0 has no free marker left: 1 defensive strength still counts as an attack (no
    # penalty) but places nothing, scores nothing and deals no damage
    g = fight_setup()
    r = g.r
    r["free"][0] = 0
    g.fight_turn(0)
    vp = int(r["vp"][0])
    g.apply(A_DAMAGE + 0)
    assert r["hits"][0] == 0 and r["vp"][0] == vp and r["defense"][0] == 2
    assert set(g.legal()) == {A_PASS}  # one payment per nightmare: more would do nothing
    g.apply(A_PASS)
    assert r["vp"][0] == vp  # no penalty


def test_penalty_two_vp_then_resource_then_coin():
    g = fight_setup(defense=(0, 0))
    r = g.r
    r["vp"][0] = 1
    g.fight_turn(0)
    assert set(g.legal()) == {A_PASS}
    g.apply(A_PASS)
    assert r["vp"][0] == 0  # 1 VP: loses it
    g = fight_setup(defense=(0, 0))
    r = g.r
    r["vp"][0] = 0
    g.fight_turn(0)
    g.apply(A_PASS)
    assert r["dec"] == Dec.PENALTY and set(g.legal()) == {A_RES + c for c in range(4)}
    g.apply(A_RES + B)
    assert r["res"][0].tolist() == [2, 2, 1, 2] and r["dec"] != Dec.PENALTY
    g = fight_setup(defense=(0, 0))
    r = g.r
    r["vp"][0] = 0
    r["supply"] += r["res"][0]
    r["res"][0] = 0
    coins = int(r["coins"][0])
    g.fight_turn(0)
    g.apply(A_PASS)
    assert r["coins"][0] == coins - 1


def test_defeat_killing_blow_and_most_markers_reward():
    # The Drowned Sun (6 boxes at 2 players): p1 marked 3, p0 marks 3 with the last blow:
    # p0 holds the card; tie 3-3 goes to p1 (earliest first marker): 1 blue resource
    g = fight_setup(defense=(5, 0))
    r = g.r
    r["boxes"][0, :3] = 1
    r["hits"][0] = 3
    r["free"][1] = 9
    g.fight_turn(0)
    for _ in range(3):
        g.apply(A_DAMAGE + 0)
    assert r["killer"][0] == 0
    assert r["res"][1, B] == 3 and r["res"][0, B] == 2
    assert A_DAMAGE + 0 not in g.legal()  # a defeated nightmare attacks no more


# ---------------------------------------------------------------- 7. Cleanup


def test_cleanup_reveals_next_nightmare():
    g = Game(2)
    r = g.r
    g.fight_turn(0)  # nobody on a basic terrain: nobody fights, Cleanup begins
    assert r["nm_shown"] == 2 and r["phase"] == Phase.LEADER


def test_refill_track_from_the_left():
    g = Game(3)
    r = g.r
    r["track_marker"][:] = -1
    r["track_marker"][[1, 4, 6]] = [0, 1, 2]
    r["track_mon"][:] = -1
    r["track_mon"][5] = int(r["mstack"][0])
    r["mstack"][0] = r["mstack"][r["mstack_n"] - 1]
    r["mstack_n"] -= 1
    r["mstack"][r["mstack_n"]] = -1
    n0 = int(r["mstack_n"])
    top = r["mstack"][n0 - 4: n0][::-1].tolist()
    rules.refill_track(r)
    assert [int(r["track_mon"][s]) for s in (0, 2, 3, 7)] == top
    assert r["mstack_n"] == n0 - 4 and r["track_coins"][:8].tolist() == [0] * 8


def test_leader_moves_to_a_helper_space():
    g = Game(2)
    r = g.r
    r["placed"][0, :2] = [11, 13]
    r["nplaced"][0] = 2
    r["nrest"][0] = 2
    r["leader"][0] = 11
    r["nrest"][1] = 4
    r["phase"] = Phase.LEADER
    rules.set_order(r, True)
    r["pidx"] = list(r["porder"][:2]).index(0)
    r["nm_shown"] = 2
    r["current_player"] = 0
    r["dec"] = Dec.LEADER
    assert set(g.legal()) == {A_LEADER + 13}  # not the leader's own space
    r["leader"][0] = 0
    assert set(g.legal()) == {A_LEADER + 11, A_LEADER + 13}
    # all helpers rested: any space but a portal
    r["placed"][0] = -1
    r["nplaced"][0] = 0
    r["nrest"][0] = 4
    assert set(g.legal()) == {A_LEADER + h for h in range(NUM_HEX) if h not in PORTALS.tolist()}


def test_helpers_return_and_stand_up():
    g = Game(2)
    r = g.r
    r["placed"][0, :2] = [11, 13]
    r["nplaced"][0] = 2
    r["nrest"][0] = 2
    r["nrest"][1] = 4
    r["phase"] = Phase.LEADER
    rules.set_order(r, True)
    r["pidx"] = 2
    rules.proceed(r)
    assert r["nplaced"][:2].tolist() == [0, 0] and r["nrest"][:2].tolist() == [0, 0]
    assert (r["placed"] == -1).all() and r["round"] == 1 and r["phase"] == Phase.PICK


# ---------------------------------------------------------------- 8. miracles


def own(r, p, *ids):
    """Give seat ``p`` the miracle tiles ``ids`` (taken out of wherever they were)."""
    for i in ids:
        for loc in ("wshow", "gshow"):
            arr = r[loc]
            if i in arr.tolist():
                arr[list(arr).index(i)] = -1
        ws = [x for x in r["wstack"][: r["wstack_n"]].tolist() if x != i]
        r["wstack"][:] = -1
        r["wstack"][: len(ws)] = ws
        r["wstack_n"] = len(ws)
        r["tree"][p, r["tree_n"][p]] = i
        r["tree_n"][p] += 1


def test_bountiful_dig_extra_resource_and_coin():
    g = Game(2)
    g.action_turn(0)
    r = g.r
    own(r, 0, mir("Bountiful Dig (Sun and Rain)"))
    coins = int(r["coins"][0])
    g.apply(PLACE(11, DIG))  # R11
    assert r["res"][0, R] == 4 and r["coins"][0] == coins + 1
    g.apply(A_REST)  # p1
    g.apply(PLACE(1, DIG))  # P01: not a shown colour
    assert r["res"][0, P] == 3 and r["coins"][0] == coins + 1


def test_steadfast_ward_defense_each_round():
    g = Game(2)
    r = g.r
    own(r, 0, mir("Steadfast Ward", 0), mir("Steadfast Ward", 1))
    rules.production(r)
    assert r["defense"][0] == 2 + 2 and r["defense"][1] == 2


def test_restful_dreams_better_rest():
    g = Game(2)
    g.action_turn(0)
    r = g.r
    own(r, 0, mir("Restful Dreams"))
    g.apply(A_REST)
    assert r["coins"][0] == 6 + 3 and r["vp"][0] == 11


def test_deep_dig_excavates_under_monument():
    g = Game(2)
    g.action_turn(0)
    r = g.r
    m = int(r["mstack"][0])
    r["mstack"][0] = r["mstack"][r["mstack_n"] - 1]
    r["mstack_n"] -= 1
    r["mstack"][r["mstack_n"]] = -1
    r["mon_at"][21] = m
    r["mon_owner"][m] = 1
    r["area_left"][1] = 5
    assert PLACE(21, DIG) not in g.legal()
    own(r, 0, mir("Deep Dig"))
    assert PLACE(21, DIG) in g.legal()
    g.apply(PLACE(21, DIG))
    assert r["res"][0, B] == 3


def test_wandering_leader_anywhere():
    g = Game(2)
    r = g.r
    own(r, 0, mir("Wandering Leader"))
    r["placed"][0, 0] = 11
    r["nplaced"][0] = 1
    r["nrest"][0] = 3
    r["nrest"][1] = 4
    r["nm_shown"] = 2
    r["phase"] = Phase.LEADER
    rules.set_order(r, True)
    r["pidx"] = list(r["porder"][:2]).index(0)
    r["current_player"] = 0
    r["dec"] = Dec.LEADER
    assert set(g.legal()) == {A_LEADER + h for h in range(NUM_HEX) if h not in PORTALS.tolist()}


def test_scholars_eye_vp_per_excavate():
    g = Game(2)
    g.action_turn(0)
    r = g.r
    own(r, 0, mir("Scholar's Eye"))
    g.apply(PLACE(11, DIG))
    assert r["vp"][0] == 11


def test_letting_go_discards_for_three_vp():
    g = Game(2)
    g.action_turn(0, zone=(mon("Sun Obelisk"), mon("Rain Well")))
    r = g.r
    assert A_ABANDON not in g.legal()
    own(r, 0, mir("Letting Go"))
    assert {A_ABANDON, A_ABANDON + 1} <= set(g.legal())
    g.apply(A_ABANDON + 1)
    assert r["vp"][0] == 13 and r["zone"][0].tolist() == [mon("Sun Obelisk"), -1]
    assert r["mdiscard"][mon("Rain Well")] == 1
    assert r["current_player"] == 0 and r["dec"] == Dec.MAIN  # the turn goes on


def test_grey_colour_monuments_need_three_white():
    g = Game(2)
    r = g.r
    grey = mir("Enlightenment of Suns")
    own(r, 0, grey, int(r["wstack"][0]), int(r["wstack"][1]))
    for h, name, o in ((11, "Sun Obelisk", 1), (2, "Dawn Pillar", 0), (21, "Rain Well", 0)):
        r["mon_at"][h] = mon(name)
        r["mon_owner"][mon(name)] = o
    assert rules.grey_points(r, 0) == 0  # 2 white tiles only
    own(r, 0, int(r["wstack"][0]))
    assert rules.grey_points(r, 0) == 2 * 2  # two red monuments, by anyone


def test_grey_production_track_scores_twice_level():
    g = Game(2)
    r = g.r
    own(r, 0, mir("Enlightenment of the Shield"), mir("Enlightenment of Wealth"),
        int(r["wstack"][0]), int(r["wstack"][1]))
    r["level"][0] = [4, 3, 2]
    assert rules.grey_points(r, 0) == 2 * 3 + 2 * 2


def test_grey_nightmares_three_vp_each():
    g = Game(2)
    r = g.r
    own(r, 0, mir("Enlightenment of Nightmares"), int(r["wstack"][0]), int(r["wstack"][1]))
    r["killer"][0] = 0
    r["killer"][3] = 0
    r["killer"][4] = 1
    assert rules.grey_points(r, 0) == 6


def test_grey_land_counts_terrain_tiles_without_monuments():
    g = Game(2)
    r = g.r
    own(r, 0, mir("Enlightenment of the Land"), int(r["wstack"][0]), int(r["wstack"][1]))
    assert rules.grey_points(r, 0) == 6
    r["mon_at"][13] = 0  # sector 1 (S13)
    r["mon_at"][22] = 1  # sector 2
    r["mon_at"][0] = 2  # the central space is on no tile
    assert rules.grey_points(r, 0) == 4


# ---------------------------------------------------------------- 9. game end


def test_final_scoring_resources_and_coins():
    g = Game(2)
    r = g.r
    r["res"][0] = [3, 2, 0, 0]  # 5 resources: 1 VP
    r["res"][1] = [0, 0, 0, 0]
    r["coins"][0] = 14  # 2 VP
    r["coins"][1] = 4  # 0 VP
    r["vp"][:2] = [20, 20]
    rules.finish(r)
    assert r["final"][:2].tolist() == [3, 0] and r["vp"][:2].tolist() == [23, 20]
    assert r["terminated"] == 1 and r["rewards"][:2].tolist() == [1.0, -1.0]


def test_tie_breaks_monuments_miracles_leftovers_shared():
    def ends(setup):
        g = Game(2)
        r = g.r
        r["res"][:2] = 0
        r["coins"][:2] = 0
        r["vp"][:2] = 30
        setup(r)
        rules.finish(r)
        return r["rewards"][:2].tolist()

    def built(r):
        r["mon_at"][11] = 5
        r["mon_owner"][5] = 1
    assert ends(built) == [-1.0, 1.0]

    def miracles(r):
        own(r, 0, int(r["wstack"][0]))
    assert ends(miracles) == [1.0, -1.0]

    def leftovers(r):
        r["coins"][1] = 2  # 2 coins: no VP, but more left over
    assert ends(leftovers) == [-1.0, 1.0]
    assert ends(lambda r: None) == [0.0, 0.0]  # shared victory


# ---------------------------------------------------------------- 10. environment


def test_observation_shows_everything_public():
    g = Game(3)
    r = g.r
    obs = np.zeros(OBS.size, np.float32)
    from fatezoo.envs.forgotten_city.encode import encode
    encode(r, 1, 0, obs)
    seats = OBS.view(obs, "seats")
    # seat 1's view: its own row first, then seats 2 and 0
    assert seats[0, 0] == pytest.approx(10 / 100) and seats[2, 1] == pytest.approx(6 / 30)
    track = OBS.view(obs, "track")
    for s in range(8):
        m = int(r["track_mon"][s])
        if m >= 0:
            assert track[s, 2 + m] == 1.0
    white = OBS.view(obs, "white_display")
    for s in range(6):
        assert white[s, MIR_TYPE[r["wshow"][s]]] == 1.0
    hexes = OBS.view(obs, "hexes")
    assert hexes[11, 1] == 1.0 and hexes[13, 4] == 1.0 and hexes[0, 6] == 1.0
    nms = OBS.view(obs, "nightmares")
    assert nms[0, 0] == 1.0 and nms[0, 2 + r["nm_at"][0]] == 1.0
    assert not nms[1, 2:9].any()  # a face-down nightmare's type is not shown


def test_options_validated():
    with pytest.raises(ValueError, match="reward must be one of"):
        fatezoo.make("forgotten_city", reward="vp!")
    with pytest.raises(TypeError, match="unknown option"):
        fatezoo.make("forgotten_city", rounds=3)


def test_rewards_win_and_vp():
    vec, _ = play_random(3, seed=8, reward="score")
    r = vec.states[0]
    ret = r["returns"][:3]
    vp = r["vp"][:3].astype(float) - 10
    want = [(vp[p] - (vp.sum() - vp[p]) / 2) / 20 for p in range(3)]
    assert np.allclose(ret, want, atol=1e-4) and abs(ret.sum()) < 1e-4
    vec, _ = play_random(3, seed=8)
    ret = vec.states[0]["returns"][:3]
    assert sorted(np.round(ret, 6).tolist())[-1] > 0 and abs(ret.sum()) < 1e-5


def test_episode_length_bounded():
    for n in (2, 4):
        vec, phases = play_random(n, seed=11)
        assert vec.states[0]["terminated"] == 1 and len(phases) < 1000


def test_forced_decisions_applied():
    # nobody can buy (no inspiration) and player_0, on R11 under The Drowned Sun, has no
    # defensive strength: every purchase pass, the fight's pass and its penalty happen
    # without a decision; Cleanup's leader moves stop at the first real choice
    g2 = Game(2)
    g2.r["defense"][:2] = 0
    # a fight with no strength left: the only choice (pass) is taken without asking
    g2.r["placed"][0, 0] = 11
    g2.r["nplaced"][0] = 1
    g2.r["nrest"][0] = 3
    g2.r["nrest"][1] = 4
    set_nightmare(g2.r, 0, "The Drowned Sun")
    g2.r["phase"] = Phase.BUY
    rules.set_order(g2.r, True)
    g2.r["current_player"] = g2.r["porder"][0]
    g2.r["dec"] = Dec.BUY
    g2.r["insp"][:2] = 0
    K.settle(g2.r, g2.mask)
    assert g2.r["phase"] == Phase.LEADER and g2.r["vp"][0] == 8  # penalised without a step


def test_same_seed_same_game():
    a, pa = play_random(2, seed=21)
    b, pb = play_random(2, seed=21)
    assert a.states.tobytes() == b.states.tobytes() and pa == pb
    c, _ = play_random(2, seed=22)
    assert a.states.tobytes() != c.states.tobytes()


def test_legal_placements_match_the_per_hex_rule(long_run):
    # the batched legal mask (hex-independent conditions hoisted, reach as bit masks)
    # against the per-hex reference: reach (R15, R16), leader exclusivity (R18), coins
    # (R17, R19), action (R20-R24); 24 games through their first 60 steps (--long: 256, 90)
    envs, steps = (256, 90) if long_run else (24, 60)
    vec = fc_vec(envs, num_players=3, seed=5, auto_reset=False)
    _, mask, _ = vec.reset()
    rng = rng_rows(9, envs)
    acts = np.empty(envs, np.int64)
    reach = np.zeros(NUM_HEX, np.int64)
    checked = 0
    for _ in range(steps):
        for i in range(envs):
            r = vec.states[i]
            if r["dec"] != Dec.MAIN or r["terminated"]:
                continue
            p = int(r["current_player"])
            rules.reach_map(r, p, reach)
            want = set()
            for h in range(NUM_HEX):
                if reach[h] == 0 or rules.blocked_by_leader(r, p, h):
                    continue
                if rules.helpers_on(r, h) + (2 if reach[h] == 2 else 0) > r["coins"][p]:
                    continue
                want |= {PLACE(h, a) for a in range(4) if rules.action_ok(r, p, h, a)}
            got = {int(a) for a in np.flatnonzero(mask[i]) if A_PLACE <= a < A_REST}
            assert got == want
            checked += 1
        K.batch_random_actions(mask, rng, acts)
        ended = vec.states["terminated"].astype(bool)
        acts[ended] = -1
        _, mask, *_ = vec.step(acts)
    assert checked > 6 * envs
