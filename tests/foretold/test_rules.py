"""Foretold rules, one hand-built position per rule (rules: envs/foretold/RULES.md).

A position starts from a dealt game and is edited in place; every edit keeps each card in
exactly one place (``give`` takes a card from the out-of-game pile or the deck), and
``ready`` checks the record with the game's own loader check before the test acts.
Temples are drawn by cell (cell = 4 * row + col, row 0 north); the starting T is::

    [Treasury 0][Entrance 1][Sanctum 2][ 3 ]
    [    4     ][Pathway  5][   6     ][ 7 ]
    [    8     ][Heart    9][   10    ][ 11]

The harness is the core's ``RuleGame`` (``Game``): ``act`` applies decisions as the envs do,
which also applies every following forced (single-choice) decision; expected values
account for that.
"""

from __future__ import annotations

import numpy as np
import pytest

import fatezoo
from fatezoo.envs.core import kernels as K
from fatezoo.envs.core.registry import get_spec
from fatezoo.envs.core.stack import KIND, OWNER
from fatezoo.envs.core.testing import RuleGame
from fatezoo.envs.core.zones import zone_find, zone_pop, zone_take, zone_top
from fatezoo.envs.foretold import check_record, rules, temple_is_legal
from fatezoo.envs.foretold.cards import (
    C_FATE,
    C_NAMES,
    F_NAMES,
    NC,
    NF,
    R_NAMES,
    T_ALTARS,
    T_NAMES,
    T_STATIONS,
)
from fatezoo.envs.foretold.state import (
    BUY_FAITHFUL,
    BUY_RELIC,
    BUY_TILE,
    CELL,
    DECK,
    DIRECTION,
    FATE_DECK,
    FLIP,
    K_ONSMITE,
    MAX_DICE,
    PASS,
    PICK_FAITHFUL,
    PICK_RELIC,
    PLAY_GOLD,
    RETREAT,
    ROTATION,
    S_CARD,
    S_TARGET,
    SPOT,
    SPOTS,
    TARGET_SEAT,
    Phase,
)

SPEC = get_spec("foretold")
F = {name: i for i, name in enumerate(F_NAMES)}
R = {name: i for i, name in enumerate(R_NAMES)}
T = {name: i for i, name in enumerate(T_NAMES)}
N, E, S, W = 0, 1, 2, 3


# ---------------------------------------------------------------- helpers


class Game(RuleGame):
    """The core's rule-test harness for Foretold; the helpers below pass its one-record
    ``states`` array (``Game.of(states)``) so positions are edited in place."""

    SPEC = SPEC


def deal(n=2, seed=0, **options):
    """A dealt game's one-record ``states`` array, dealt as the envs deal it."""
    return Game(num_players=n, seed=seed, **options).states


def market(n=2, seed=0, p=0, gold=0, **options):
    """Seat ``p``'s Marketplace Step in a dealt game, with ``gold``."""
    states = deal(n, seed, **options)
    rec = states[0]
    rec["turn_player"] = p
    rec["current_player"] = p
    rec["phase"] = Phase.MARKET
    rec["gold"][p] = gold
    return states


def park(rec, p):
    """Set every Faithful of seat ``p`` aside (out of the game)."""
    for z in ("f_temple", "f_party", "f_discard", "f_pool"):
        rec["f_out"] += rec[z][p]
        rec[z][p] = 0


def _fetch(rec, prefix, t):
    """Take one card of type ``t`` from the deck or the top of a row pile."""
    deck, deck_n = rec[f"{prefix}_deck"], rec[f"{prefix}_deck_n"]
    i = zone_find(deck, deck_n, DECK, t)
    if i >= 0:
        zone_take(deck, deck_n, DECK, i)
        return
    rows, sizes = rec[f"{prefix}_row"], rec[f"{prefix}_row_n"]
    k = next(k for k in range(SPOTS) if zone_top(rows, sizes, k) == t)
    zone_pop(rows, sizes, k)


def give(rec, p, zone, name, k=1):
    """Seat ``p`` gets ``k`` Faithful ``name`` in ``zone`` (from the out pile, deck or row)."""
    t = F[name]
    for _ in range(k):
        if rec["f_out"][t] > 0:
            rec["f_out"][t] -= 1
        else:
            _fetch(rec, "f", t)
        rec[zone][p, t] += 1


def give_relic(rec, p, name):
    """Seat ``p`` takes Relic ``name`` from the Relic Deck or the Relic Row."""
    _fetch(rec, "r", R[name])
    rec["r_owned"][p, R[name]] += 1


def relic_to_row(rec, spot, name):
    """Put Relic ``name`` (from the deck or another pile) on top of Relic pile ``spot``."""
    _fetch(rec, "r", R[name])
    rec["r_row"][spot, rec["r_row_n"][spot]] = R[name]
    rec["r_row_n"][spot] += 1


def place_tile(rec, p, cell, name, side=0, rot=0):
    """Take Tile ``name`` from the Tile Deck into seat ``p``'s ``cell``."""
    t = T[name]
    n = int(rec["t_deck_n"][0])
    i = int(np.flatnonzero(rec["t_deck"][0, :n] == t)[0])
    rec["t_deck"][0, i:n - 1] = rec["t_deck"][0, i + 1:n].copy()
    rec["t_deck"][0, n - 1] = -1
    rec["t_deck_n"][0] = n - 1
    rec["grid"][p, cell] = t
    rec["side"][p, cell] = side
    rec["rot"][p, cell] = rot


def ready(states):
    """Check the edited record and return its legal actions."""
    check_record(states[0])
    return set(Game.of(states).legal())


def act(states, *actions):
    """Apply each decision as the envs do (forced ones follow), checking each is legal and
    the record after; return the legal actions then."""
    return set(Game.of(states).act(*actions).legal())


def decline(states, *seats):
    """R70 Reading: each seat in turn is asked (it holds a Fate card, hidden) with nothing to
    play, so only ``pass`` (a decision all the same: ``rules.asks``); it passes."""
    rec = states[0]
    for s in seats:
        assert rec["phase"] in (Phase.RESPOND, Phase.FINALIZE) and rec["current_player"] == s
        assert ready(states) == {PASS}
        act(states, PASS)


def raid_ready(n=2, seed=0, party=(("Guard", 1),), temple=(), defender_temple=(("Guard", 1),),
               **options):
    """Seat 0 at its Raid step against seat 1 with the given groups; every other seat has
    one Guard in its Discard Pile (so that its turns hold a real decision)."""
    states = market(n, seed, p=0, **options)
    rec = states[0]
    for p in range(n):
        park(rec, p)
    for name, k in party:
        give(rec, 0, "f_party", name, k)
    for name, k in temple:
        give(rec, 0, "f_temple", name, k)
    for name, k in defender_temple:
        give(rec, 1, "f_temple", name, k)
    for p in range(1, n):
        give(rec, p, "f_discard", "Guard")
    rec["phase"] = Phase.RAID_TARGET
    return states


# ---------------------------------------------------------------- 1. setup


def test_setup_player_count_2_3_4():
    for n in (2, 3, 4):
        rec = deal(n)[0]
        assert rec["alive"].tolist() == [1] * n + [0] * (4 - n)
        assert (rec["grid"][n:] == -1).all()
        assert rec["t_out"][:5].tolist() == [4 - n] * 5  # absent seats' Starting Tiles
    for bad in (1, 5):
        with pytest.raises(ValueError, match=r"num_players must be in \[2, 4\]"):
            fatezoo.make("foretold", num_players=bad)


def test_setup_t_formation_is_a_legal_temple():
    rec = deal(3)[0]
    for p in range(3):
        # [Treasury][Entrance][Sanctum] / [ ][Pathway][ ] / [ ][Heart][ ]
        assert rec["grid"][p, [0, 1, 2, 5, 9]].tolist() == [T["Treasury"], T["Entrance"],
                                                            T["Sanctum"], T["Pathway"], T["Heart"]]
        assert (rec["side"][p] == 0).all() and (rec["rot"][p] == 0).all()
        assert temple_is_legal(rec["grid"][p], rec["side"][p], rec["rot"][p])


def test_setup_life_20_and_starting_faithful_in_temple():
    rec = deal(4)[0]
    first = int(rec["turn_player"])
    for p in range(4):
        assert rec["life"][p] == 20
        assert rec["f_temple"][p, F["High Priest"]] == 1 and rec["f_temple"][p, F["Acolyte"]] == 1
        assert rec["f_temple"][p, F["Guard"]] == 2 and rec["f_temple"][p].sum() == 4
        assert rec["f_party"][p].sum() == 0
        assert rec["gold"][p] == 0 or p == first  # R9; the first player's step has begun
    assert rec["gold"][first] == 0


def test_setup_marketplace_rows():
    rec = deal(2)[0]
    # the first Reveal put a Relic in Relic spot 0 and a Faithful in Faithful spot 4
    assert [int(rec["f_row"][k, 0]) for k in range(4)] == [F["Guard"]] * 2 + [F["Acolyte"]] * 2
    assert rec["f_row_n"].tolist() == [1, 1, 1, 1, 1, 0]
    assert rec["r_row_n"].tolist() == [1, 0, 0, 0, 0, 0]


def test_setup_decks_shuffled_and_sized():
    a, b = deal(2, seed=1)[0], deal(2, seed=2)[0]
    for rec in (a, b):
        assert rec["f_deck_n"][0] == 59 and rec["r_deck_n"][0] == 39  # one of each revealed
        assert rec["t_deck_n"][0] == 25 and rec["c_deck_n"].tolist() == [30] * 4
        for f in range(4):
            assert (C_FATE[rec["c_deck"][f, :30].astype(int)] == f).all()
    assert a["f_deck"][0].tolist() != b["f_deck"][0].tolist()
    assert a["t_deck"][0].tolist() != b["t_deck"][0].tolist()


def test_setup_first_player_uniform_and_clockwise():
    firsts = [int(deal(3, seed=s)[0]["turn_player"]) for s in range(60)]
    counts = np.bincount(firsts, minlength=3)
    assert counts.min() >= 10  # every seat starts in some games
    states = market(3, p=1)
    states[0]["f_party"][1] = 0
    rules.begin_raid_step(states[0])  # no Party: straight to Reinforce
    act(states, PASS)
    assert states[0]["turn_player"] == 2 and states[0]["turn"] == 1


def test_two_player_variant_treasury_b_side():
    rec = deal(2, two_player_variant=True)[0]
    assert rec["side"][0, 0] == rec["side"][1, 0] == 1
    assert rules.temple_sum(rec, 0, T_ALTARS) == 2  # Sanctum + Treasury B
    assert deal(2)[0]["side"][0, 0] == 0


# ---------------------------------------------------------------- 2. the turn


def test_reveal_fills_lowest_empty_spot():
    states = market(2, p=0)
    rec = states[0]
    rec["f_row_n"][1] = 0  # spot 1 emptied (its Guard set aside)
    rec["f_row"][1, 0] = -1
    rec["f_out"][F["Guard"]] += 1
    top_f = int(rec["f_deck"][0, rec["f_deck_n"][0] - 1])
    top_r = int(rec["r_deck"][0, rec["r_deck_n"][0] - 1])
    rules.reveal_relic(rec)
    assert rec["f_row"][1, 0] == top_f and rec["r_row"][1, 0] == top_r
    assert rec["phase"] == Phase.MARKET


def test_reveal_full_row_covers_chosen_pile():
    states = market(2, p=0)
    rec = states[0]
    for k in (5,):
        give(rec, 0, "f_temple", "Devotee")  # spare copy, moved to the row below
        rec["f_temple"][0, F["Devotee"]] -= 1
        rec["f_row"][k, 0] = F["Devotee"]
        rec["f_row_n"][k] = 1
    for k in range(1, SPOTS):  # the deck's top Relics fill the Relic Row
        rec["r_deck_n"][0] -= 1
        rec["r_row"][k, rec["r_row_n"][k]] = rec["r_deck"][0, rec["r_deck_n"][0]]
        rec["r_deck"][0, rec["r_deck_n"][0]] = -1
        rec["r_row_n"][k] += 1
    check_record(rec)
    top_f = int(rec["f_deck"][0, rec["f_deck_n"][0] - 1])
    rules.reveal_relic(rec)
    rec["current_player"] = 0
    assert rec["phase"] == Phase.COVER_RELIC
    legal = act(states, SPOT + SPOTS + 3)  # the Relic covers pile 3
    assert rec["r_row_n"][3] == 2
    assert rec["phase"] == Phase.COVER_FAITHFUL and legal == set(range(SPOT, SPOT + SPOTS))
    act(states, SPOT + 2)
    assert rec["f_row_n"][2] == 2 and rec["f_row"][2, 1] == top_f  # only the top is buyable
    assert rec["phase"] == Phase.MARKET


def test_play_faithful_for_gold():
    states = market(2, p=0)
    act(states, PLAY_GOLD + F["Acolyte"])
    rec = states[0]
    assert rec["gold"][0] == 2 and rec["f_discard"][0, F["Acolyte"]] == 1
    act(states, PLAY_GOLD + F["Guard"], PLAY_GOLD + F["Guard"])
    assert rec["gold"][0] == 4 and rec["f_temple"][0].sum() == 1


def test_high_priest_draws_a_fate_card():
    states = market(2, p=0)
    legal = act(states, PLAY_GOLD + F["High Priest"])
    rec = states[0]
    assert rec["phase"] == Phase.DRAW and legal == set(range(FATE_DECK, FATE_DECK + 4))
    top = int(rec["c_deck"][2, 29])
    act(states, FATE_DECK + 2)
    assert rec["gold"][0] == 1 and rec["c_hand"][0, top] == 1 and rec["c_deck_n"][2] == 29
    assert rec["phase"] == Phase.MARKET


def test_devotee_gold_escalates_within_a_turn():
    states = market(2, p=0)
    give(states[0], 0, "f_temple", "Devotee", 3)
    golds = []
    for _ in range(3):
        act(states, PLAY_GOLD + F["Devotee"])
        golds.append(int(states[0]["gold"][0]))
    assert golds == [1, 3, 6]  # 1, then 2, then 3


def test_gold_is_kept_in_the_treasury_between_turns():
    states = market(2, p=0)
    act(states, PLAY_GOLD + F["Acolyte"])
    states[0]["f_party"][0] = 0
    rules.begin_raid_step(states[0])
    act(states, PASS)  # Reinforce: the rest to the Party; seat 1's turn
    assert states[0]["gold"][0] == 2 and states[0]["turn_player"] == 1


def test_buy_faithful_goes_to_discard():
    states = market(2, p=0, gold=2)
    legal = ready(states)
    assert BUY_FAITHFUL + 0 in legal and BUY_FAITHFUL + 2 not in legal  # Guard 2, Acolyte 3
    act(states, BUY_FAITHFUL + 0)
    rec = states[0]
    assert rec["gold"][0] == 0 and rec["f_discard"][0, F["Guard"]] == 1 and rec["f_row_n"][0] == 0


def test_buy_basic_relic():
    states = market(2, p=0, gold=3)
    rec = states[0]
    relic_to_row(rec, 1, "Ward")
    act(states, BUY_RELIC + 1)
    assert rec["r_owned"][0, R["Ward"]] == 1 and rec["gold"][0] == 0


def test_fate_relic_needs_an_open_altar():
    states = market(2, p=0, gold=10)
    rec = states[0]
    give_relic(rec, 0, "Shield of Chaos")  # fills the Sanctum's one Altar
    relic_to_row(rec, 1, "Sword of Chaos")
    assert BUY_RELIC + 1 not in ready(states)
    rec["side"][0, 0] = 1  # Treasury B: a second Altar
    assert BUY_RELIC + 1 in ready(states)


def test_switching_fate_returns_old_fate_relics_no_refund():
    states = market(2, p=0, gold=3, two_player_variant=True)
    rec = states[0]
    give_relic(rec, 0, "Shield of Chaos")
    give_relic(rec, 0, "Sword of Chaos")  # both Altars used
    relic_to_row(rec, 1, "Sword of Grace")
    act(states, BUY_RELIC + 1)
    assert {R_NAMES[r] for r in np.flatnonzero(rec["r_owned"][0])} == {"Sword of Grace"}
    assert rec["gold"][0] == 0  # no refund
    back = {int(rec["r_row"][k, rec["r_row_n"][k] - 1]) for k in range(SPOTS) if rec["r_row_n"][k]}
    assert {R["Shield of Chaos"], R["Sword of Chaos"]} <= back


def test_buy_tile_three_gold_and_place():
    states = market(2, p=0, gold=3)
    rec = states[0]
    top = int(rec["t_deck"][0, rec["t_deck_n"][0] - 1])
    legal = act(states, BUY_TILE)
    assert rec["phase"] == Phase.PLACE_CELL and rec["gold"][0] == 0 and rec["t_held"] == top
    # an NS hallway fits under the Treasury's and the Sanctum's S doorways only
    assert legal == {CELL + 4, CELL + 6}
    legal = act(states, CELL + 4)
    assert legal == {ROTATION + 0, ROTATION + 2}
    act(states, ROTATION + 2)
    assert rec["grid"][0, 4] == top and rec["rot"][0, 4] == 2 and rec["phase"] == Phase.MARKET


def test_cannot_buy_tile_without_legal_spot():
    # [Tre][Ent][San][ ]   hallways (A-sides, NS) in columns 0 and 2 down to the edge:
    # [ H ][Pat][ H ][ ]   every open doorway then faces the grid's edge or a wall
    # [ H ][Hea][ H ][ ]
    # [ H ][   ][ H ][ ]
    states = market(2, p=0, gold=9)
    rec = states[0]
    assert BUY_TILE in ready(states)
    for cell, name in ((4, "Barracks"), (8, "Barracks"), (12, "Chapel"), (6, "Chapel"),
                       (10, "Shrine Hall"), (14, "Shrine Hall")):
        place_tile(rec, 0, cell, name)
    assert BUY_TILE not in ready(states)


def test_buy_fate_card_three_gold():
    states = market(2, p=0, gold=3)
    rec = states[0]
    top = int(rec["c_deck"][3, 29])
    act(states, FATE_DECK + 3)
    assert rec["c_hand"][0, top] == 1 and rec["gold"][0] == 0
    assert FATE_DECK not in ready(states)  # 0 gold left


def test_flip_tile_pays_flip_cost():
    states = market(2, p=0, gold=3)
    rec = states[0]
    legal = ready(states)
    assert FLIP + 5 in legal and FLIP + 9 not in legal  # Pathway 3, Heart 4
    legal = act(states, FLIP + 5)
    assert rec["phase"] == Phase.FLIP_ROT  # the B-side (NESW) fits in every rotation
    assert legal == {ROTATION + r for r in range(4)}
    act(states, ROTATION + 1)
    assert rec["side"][0, 5] == 1 and rec["rot"][0, 5] == 1 and rec["gold"][0] == 0
    assert rec["phase"] == Phase.MARKET


def test_trap_cannot_be_flipped_by_paying():
    states = market(2, p=0, gold=9)
    place_tile(states[0], 0, 4, "Pit Trap")
    assert FLIP + 4 not in ready(states)


def test_temple_legality_rules():
    rec = deal(2)[0]
    g, s, r = rec["grid"][0].copy(), rec["side"][0].copy(), rec["rot"][0].copy()
    assert temple_is_legal(g, s, r)
    g2 = g.copy()
    g2[13] = T["Barracks"]  # NS hallway under the Heart: the Heart has no S doorway
    assert not temple_is_legal(g2, s, r)
    g3 = g.copy()
    g3[7] = T["Barracks"]  # not connected to anything
    assert not temple_is_legal(g3, s, r)
    g4 = g.copy()
    g4[4] = T["Barracks"]  # under the Treasury's S doorway
    assert temple_is_legal(g4, s, r)


def test_doorways_rotate_clockwise():
    assert rules.rotate(1, 1) == 2 and rules.rotate(1, 3) == 8  # N -> E, N -> W
    assert rules.rotate(0b0101, 1) == 0b1010  # NS -> EW


# ---------------------------------------------------------------- 5. raids


def test_raid_needs_a_party_and_a_living_target():
    states = raid_ready(3)
    assert ready(states) == {TARGET_SEAT, TARGET_SEAT + 1, PASS}
    rec = states[0]
    park(rec, 2)
    rec["life"][2] = 0
    rec["alive"][2] = 0
    assert ready(states) == {TARGET_SEAT, PASS}
    states = market(2, p=0)
    park(states[0], 0)
    rules.begin_raid_step(states[0])
    assert states[0]["phase"] == Phase.REINFORCE


def test_defend_up_to_one_per_station():
    states = raid_ready(defender_temple=(("Guard", 2), ("Acolyte", 1)))
    rec = states[0]
    legal = act(states, TARGET_SEAT)  # the Marker lands on seat 1's Entrance: 1 Station
    assert rec["phase"] == Phase.DEFEND and rec["current_player"] == 1
    assert legal == {PICK_FAITHFUL + F["Guard"], PICK_FAITHFUL + F["Acolyte"], PASS}
    legal = act(states, PICK_FAITHFUL + F["Guard"])
    assert rec["phase"] == Phase.DISPATCH and rec["dice_n"][1] == 1  # forced pass: full
    assert rec["f_fight"][1, F["Guard"]] == 1


def test_undefended_station_tile_is_conquered():
    states = raid_ready()
    rec = states[0]
    act(states, TARGET_SEAT, PASS)  # seat 1 declines to Defend the Entrance
    assert rec["conquered"][1] == 1 and rec["phase"] == Phase.ADVANCE


def test_tile_without_stations_passed_through():
    states = raid_ready(defender_temple=())
    rec = states[0]
    act(states, TARGET_SEAT)  # empty Temple: the Entrance falls at once
    assert rec["conquered"][1] == 1
    legal = act(states, DIRECTION + S)  # onto the Pathway (no Station on its A-side)
    assert rec["marker"] == 5 and rec["conquered"][5] == 0 and rec["phase"] == Phase.ADVANCE
    assert legal == {DIRECTION + N, DIRECTION + S, RETREAT}


def test_combat_roll_total_and_ties_to_defender():
    states = raid_ready()
    rec = states[0]
    rec["defender"] = 1
    rec["marker"] = 9  # the Heart, A-side: no Combat Bonus
    rec["f_fight"][0, F["Fighter"]] = 1  # raid +1
    rec["f_fight"][0, F["Warlord"]] = 1  # raid +2, the other one +1
    rec["f_fight"][1, F["Guard"]] = 2  # defend +1 each
    rec["dice"][0, :3] = [2, 5, 1]
    rec["dice_n"][0] = 3
    rec["dice"][1, :2] = [6, 4]
    rec["dice_n"][1] = 2
    assert rules.side_total(rec, 0) == 8 + 1 + 2 + 1
    assert rules.side_total(rec, 1) == 10 + 2
    # a Guard against a Guard at the Entrance: die vs die + 1; equal totals lose (R52)
    ties = 0
    for seed in range(80):
        states = raid_ready(seed=seed)
        rec = states[0]
        act(states, TARGET_SEAT, PICK_FAITHFUL + F["Guard"], PICK_FAITHFUL + F["Guard"])
        if rec["phase"] == Phase.DISPATCH:
            act(states, PASS)
        a, b = int(rec["totals"][0]), int(rec["totals"][1])
        assert a == rec["dice"][0, 0] and b == rec["dice"][1, 0] + 1
        assert (rec["conquered"][1] == 1) == (a > b)
        ties += a == b
    assert ties > 0


def observed_totals(states, seat):
    """The observation's Combat Rolls (field ``combat``, after the dice), times 40."""
    obs = np.zeros(SPEC.obs_size, np.float32)
    K.encode_one(states, 0, seat, obs)
    combat = SPEC.obs.view(obs, "combat")
    return [round(float(x) * 40) for x in combat[2 * MAX_DICE: 2 * MAX_DICE + 2]]


def test_running_combat_rolls_are_observed_during_the_fight():
    # R52: the Defense roll is on the table while the Raider dispatches; both seats see the
    # Defender's running total (die + the Guard's +1), the record's decided totals still 0
    states = raid_ready(seed=3)
    rec = states[0]
    act(states, TARGET_SEAT, PICK_FAITHFUL + F["Guard"])
    assert rec["phase"] == Phase.DISPATCH and rec["totals"].tolist() == [0, 0]
    die = int(rec["dice"][1, 0])
    assert observed_totals(states, 0) == observed_totals(states, 1) == [0, die + 1]
    act(states, PICK_FAITHFUL + F["Guard"])  # dispatched: the Raid roll, then the decision
    assert rec["fin"] == 0 and rec["phase"] != Phase.DISPATCH
    decided = rec["totals"].tolist()
    assert decided == [int(rec["dice"][0, 0]), die + 1]
    assert observed_totals(states, 0) == decided


def test_tile_bonus_only_while_defended():
    states = raid_ready()
    rec = states[0]
    rec["defender"] = 1
    rec["marker"] = 9
    rec["side"][1, 9] = 1  # Heart B: +2
    rec["f_fight"][1, F["Guard"]] = 1
    rec["dice"][1, 0] = 3
    rec["dice_n"][1] = 1
    assert rules.side_total(rec, 1) == 3 + 1 + 2
    # an undefended Heart never fights: conquered at once, no bonus counts
    states = raid_ready(defender_temple=())
    rec = states[0]
    rec["side"][1, 9] = 1
    act(states, TARGET_SEAT, DIRECTION + S, DIRECTION + S)
    assert rec["life"][1] < 20  # Smitten


def test_retreat_ends_raid():
    states = raid_ready(party=(("Devotee", 1),), defender_temple=(("Champion", 1),))
    rec = states[0]
    act(states, TARGET_SEAT, PICK_FAITHFUL + F["Champion"])
    act(states, RETREAT)  # dispatch nobody: retreat
    assert rec["phase"] == Phase.REINFORCE and rec["defender"] == -1
    assert rec["f_temple"][1, F["Champion"]] == 1  # the Defender is back in the Temple
    assert rec["f_pool"][0, F["Devotee"]] == 1


def test_conquest_recall_exactly_one():
    states = raid_ready(party=(("Berserker", 3),), defender_temple=(("Guard", 1),))
    rec = states[0]
    act(states, TARGET_SEAT, PICK_FAITHFUL + F["Guard"])
    act(states, *[PICK_FAITHFUL + F["Berserker"]] * 3)
    # 3 Berserkers: 3 dice + 9 >= 12 beat a Guard: die + 1 <= 7 (always)
    assert rec["conquered"][1] == 1 and rec["f_defeated"][F["Guard"]] == 1
    # one type dispatched: the recall is forced; one back to the Party, two discarded
    assert rec["f_party"][0, F["Berserker"]] == 1 and rec["f_discard"][0, F["Berserker"]] == 2
    assert rec["phase"] == Phase.ADVANCE


def test_advance_through_doorways_only():
    states = raid_ready(defender_temple=())
    legal = act(states, TARGET_SEAT)
    # the Entrance (NESW): W Treasury (E doorway), E Sanctum (W doorway), S Pathway; N edge
    assert legal == {DIRECTION + E, DIRECTION + S, DIRECTION + W, RETREAT}


def test_raid_move_cap():
    states = raid_ready(defender_temple=())
    rec = states[0]
    act(states, TARGET_SEAT)
    rec["moves"] = 32
    assert ready(states) == {RETREAT}


def test_heart_conquest_smites():
    states = raid_ready(party=(("Guard", 2),), defender_temple=())
    rec = states[0]
    act(states, TARGET_SEAT, DIRECTION + S, DIRECTION + S)
    face = int(rec["smite_roll"])
    assert face in (3, 4, 5, 6)
    assert rec["life"][1] == 20 - (2 + face)  # 2 Party Faithful + the Smiting Die
    assert rec["phase"] == Phase.REINFORCE  # the Raid ended


def test_smiting_die_faces():
    faces = []
    for seed in range(60):
        states = raid_ready(seed=seed, party=(("Guard", 1),), defender_temple=())
        act(states, TARGET_SEAT, DIRECTION + S, DIRECTION + S)
        faces.append(int(states[0]["smite_roll"]))
    assert set(faces) == {3, 4, 5, 6}
    assert faces.count(4) > faces.count(3) and faces.count(5) > faces.count(6)


def test_on_smite_effects_after_damage():
    # R59, R67: after the damage each on-Smite trigger is an Action of the Raider with its
    # window, Faithful in type order (Vandal, then Thief), one at a time
    states = raid_ready(party=(("Vandal", 1), ("Thief", 1)), defender_temple=())
    rec = states[0]
    give_relic(rec, 1, "Ward")
    give_relic(rec, 1, "War Banner")
    rec["gold"][1] = 2
    act(states, TARGET_SEAT, DIRECTION + S, DIRECTION + S)
    # the Defender (holding a Ward) may answer the Smite before the roll and before the
    # damage (R58, R71): passes twice
    assert rec["phase"] == Phase.RESPOND and rec["current_player"] == 1
    act(states, PASS, PASS)
    assert rec["life"][1] == 20 - 2 - rec["smite_roll"]  # the damage came first
    # the Vandal's trigger waits on the stack; the Defender is asked about it
    assert rec["phase"] == Phase.RESPOND and rec["current_player"] == 1
    assert rec["stack_n"][0] == 1 and rec["stack"][0, [KIND, OWNER]].tolist() == [K_ONSMITE, 0]
    assert rec["stack"][0, [S_CARD, S_TARGET]].tolist() == [F["Vandal"], 1]
    legal = act(states, PASS)
    assert rec["phase"] == Phase.VANDAL and legal == {PICK_RELIC + R["Ward"],
                                                      PICK_RELIC + R["War Banner"]}
    act(states, PICK_RELIC + R["War Banner"])
    bottom = int(rec["r_deck"][0, 0])
    assert bottom == R["War Banner"] and rec["r_owned"][1, R["War Banner"]] == 0
    # then the Thief's trigger, with its own window: nothing taken yet
    assert rec["phase"] == Phase.RESPOND and rec["stack"][0, S_CARD] == F["Thief"]
    assert rec["gold"].tolist()[:2] == [0, 2]
    act(states, PASS)
    assert rec["gold"][1] == 0 and rec["gold"][0] == 2  # the Thief took up to 3
    assert rec["phase"] == Phase.REINFORCE and rec["stack_n"][0] == 0


def test_on_smite_triggers_when_the_smitten_player_is_out():
    # R59 Reading: the damage puts the Defender out (3 players): the Thief (aimed at them)
    # does not fire; the Crown of Grace does, as an Action seat 2 may answer
    states = raid_ready(n=3, party=(("Thief", 1), ("Guard", 1)), defender_temple=())
    rec = states[0]
    rec["life"][0] = 10
    rec["life"][1] = 3
    give_relic(rec, 0, "Crown of Grace")  # in the Sanctum's Altar
    c = C_NAMES.index("Sanctuary")  # Prevent 3, any time: seat 2 may answer any Action
    f = int(C_FATE[c])
    n = int(rec["c_deck_n"][f])
    i = int(np.flatnonzero(rec["c_deck"][f, :n] == c)[0])
    rec["c_deck"][f, i:n - 1] = rec["c_deck"][f, i + 1:n].copy()
    rec["c_deck"][f, n - 1] = -1
    rec["c_deck_n"][f] = n - 1
    rec["c_hand"][2, c] = 1
    act(states, TARGET_SEAT, DIRECTION + S, DIRECTION + S)
    assert rec["phase"] == Phase.RESPOND and rec["current_player"] == 2
    act(states, PASS, PASS)  # before the roll, before the damage: 2 + die >= 5 > 3 Life
    assert not rec["alive"][1] and rec["gold"][0] == 0
    assert rec["phase"] == Phase.RESPOND and rec["current_player"] == 2
    assert rec["stack"][0, KIND] == K_ONSMITE
    assert rec["stack"][0, S_CARD] == NF + R["Crown of Grace"]
    assert rec["life"][0] == 10
    act(states, PASS)
    assert rec["life"][0] == 13 and rec["phase"] == Phase.REINFORCE



def test_end_of_raid_defenders_return_to_temple():
    states = raid_ready(party=(("Berserker", 3),), defender_temple=(("Guard", 1), ("Acolyte", 1)))
    rec = states[0]
    act(states, TARGET_SEAT, PICK_FAITHFUL + F["Guard"])
    act(states, *[PICK_FAITHFUL + F["Berserker"]] * 3)
    assert rec["f_defeated"][F["Guard"]] == 1
    act(states, RETREAT)
    assert rec["f_temple"][1, F["Guard"]] == 1 and rec["f_temple"][1, F["Acolyte"]] == 1
    assert not rec["f_defeated"].any()


def test_trap_springs_once():
    states = raid_ready(defender_temple=())
    rec = states[0]
    place_tile(rec, 1, 4, "Spike Trap")  # under seat 1's Treasury
    act(states, TARGET_SEAT, DIRECTION + W, DIRECTION + S)
    assert rec["life"][0] == 17 and rec["side"][1, 4] == 1  # sprung: B-side, seen by all
    act(states, DIRECTION + N, DIRECTION + S)
    assert rec["life"][0] == 17  # never springs again


def test_no_retreat_in_response_to_a_trap():
    states = raid_ready(party=(("Guard", 2),), defender_temple=())
    rec = states[0]
    place_tile(rec, 1, 4, "Pit Trap")
    legal = act(states, TARGET_SEAT, DIRECTION + W, DIRECTION + S)
    assert rec["phase"] == Phase.ADVANCE  # one Guard type: the discard was forced
    assert rec["f_party"][0, F["Guard"]] == 1 and rec["f_discard"][0, F["Guard"]] == 1
    assert RETREAT in legal


def test_ambush_trap_keeps_a_station():
    states = raid_ready(defender_temple=(("Guard", 1),))
    rec = states[0]
    place_tile(rec, 1, 4, "Ambush Trap")
    act(states, TARGET_SEAT, PASS)  # Entrance undefended
    act(states, DIRECTION + W, DIRECTION + S)
    assert rec["side"][1, 4] == 1 and rec["phase"] == Phase.DEFEND  # Station now
    assert rules.temple_sum(rec, 1, T_STATIONS) == 3 + 1


# ---------------------------------------------------------------- 6. Reinforce


def test_reinforce_split_temple_limit():
    states = market(2, p=0)
    rec = states[0]
    give(rec, 0, "f_discard", "Fighter", 2)
    rules.begin_raid_step(rec)  # no Party: Reinforce
    assert rec["phase"] == Phase.REINFORCE and rec["f_pool"][0].sum() == 6
    act(states, PICK_FAITHFUL + F["Fighter"], PICK_FAITHFUL + F["Fighter"])
    rec2 = states.copy()
    legal = ready(rec2)
    assert PICK_FAITHFUL + F["Guard"] in legal and PASS in legal
    act(states, PICK_FAITHFUL + F["Guard"])  # 3 Stations, 3 picked: the pass was forced
    assert rec["f_temple"][0].tolist()[:5] == [0, 0, 1, 0, 2]
    assert rec["f_party"][0].sum() == 3 and rec["turn_player"] == 1


def test_only_turn_player_reinforces():
    states = market(2, p=0)
    rec = states[0]
    give(rec, 1, "f_discard", "Fighter")
    rules.begin_raid_step(rec)
    act(states, PASS)
    assert rec["f_discard"][1, F["Fighter"]] == 1  # waits for seat 1's own Reinforce


# ---------------------------------------------------------------- 10. Life and victory


def test_heal_caps_at_20():
    states = market(2, p=0)
    rec = states[0]
    give(rec, 0, "f_temple", "Cleric")
    rec["life"][0] = 19
    act(states, PLAY_GOLD + F["Cleric"])
    assert rec["life"][0] == 20


def test_elimination_returns_cards_tiles_stay():
    states = raid_ready(n=3, party=(("Guard", 2),), defender_temple=())
    rec = states[0]
    give(rec, 1, "f_discard", "Fighter")
    give_relic(rec, 1, "Ward")
    rec["life"][1] = 3
    deck_f, deck_r = int(rec["f_deck_n"][0]), int(rec["r_deck_n"][0])
    act(states, TARGET_SEAT, DIRECTION + S, DIRECTION + S, PASS, PASS)  # Ward not used
    assert rec["alive"][1] == 0 and rec["life"][1] == 0
    assert rec["f_deck_n"][0] == deck_f + 1 and rec["r_deck_n"][0] == deck_r + 1
    assert rec["grid"][1, 9] == T["Heart"]  # the Tiles stay
    assert rec["phase"] == Phase.REINFORCE and not rec["terminated"]
    act(states, PASS)
    assert rec["turn_player"] == 2  # seat 1 is skipped from now on


def test_eliminated_on_own_turn_play_passes_left():
    states = raid_ready(n=3, party=(("Guard", 1),), defender_temple=())
    rec = states[0]
    rec["life"][0] = 3
    place_tile(rec, 1, 4, "Spike Trap")
    act(states, TARGET_SEAT, DIRECTION + W, DIRECTION + S)
    assert rec["alive"][0] == 0 and rec["turn_player"] == 1 and rec["turn"] == 1


def test_last_player_standing_wins():
    states = raid_ready(party=(("Guard", 2),), defender_temple=())
    rec = states[0]
    rec["life"][1] = 2
    act(states, TARGET_SEAT, DIRECTION + S, DIRECTION + S)
    assert rec["terminated"] == 1 and rec["winner"] == 0
    assert rec["returns"][:2].tolist() == [1.0, -1.0]


def test_four_fate_relics_win_at_turn_start():
    states = market(2, p=1)
    rec = states[0]
    # seat 0: Altars on the Sanctum, the Treasury's B-side and two flipped Shrine Halls
    rec["side"][0, 0] = 1
    for cell in (4, 6):
        place_tile(rec, 0, cell, "Shrine Hall", side=1)
    for name in ("Crown", "Shield", "Shrine", "Sword"):
        give_relic(rec, 0, f"{name} of Wisdom")
    rec["f_party"][1] = 0
    rules.begin_raid_step(rec)
    act(states, PASS)  # seat 1 ends its turn; seat 0's turn starts with the four
    assert rec["terminated"] == 1 and rec["winner"] == 0


def test_win_reward_zero_sum():
    states = raid_ready(n=3, party=(("Guard", 2),), defender_temple=())
    rec = states[0]
    rec["life"][1] = 1
    park(rec, 2)
    rec["life"][2] = 0
    rec["alive"][2] = 0
    act(states, TARGET_SEAT, DIRECTION + S, DIRECTION + S)
    assert rec["returns"][:3].tolist() == [1.0, -0.5, -0.5]


def test_score_reward_shaping():
    states = raid_ready(n=3, party=(("Guard", 2),), defender_temple=(), reward="score")
    rec = states[0]
    act(states, TARGET_SEAT, DIRECTION + S, DIRECTION + S)
    lost = 20 - int(rec["life"][1])
    assert rec["returns"][1] == pytest.approx(-lost / 20)
    assert rec["returns"][0] == rec["returns"][2] == pytest.approx(lost / 40)


def test_truncation_after_max_turns():
    env = fatezoo.make("foretold", max_turns=2)
    env.reset(seed=0)
    while not (env.terminations[env.agent_selection] or env.truncations[env.agent_selection]):
        env.step(PASS if PASS in env.legal_actions() else env.legal_actions()[0])
    rec = env.record
    assert rec["truncated"] == 1 and rec["terminated"] == 0 and rec["turn"] == 2
    assert not rec["returns"].any()


def test_options_validated():
    with pytest.raises(TypeError, match="two_player_variant must be a bool"):
        fatezoo.make("foretold", two_player_variant="yes")
    with pytest.raises(ValueError, match="max_turns"):
        fatezoo.make("foretold", max_turns=0)
    with pytest.raises(ValueError, match="reward"):
        fatezoo.make("foretold", reward="dense")


def test_conservation_check_names_the_card():
    rec = deal(2)[0].copy()
    rec["f_temple"][0, F["Guard"]] += 1
    with pytest.raises(ValueError, match="Faithful type 2 is counted 11 times, expected 10"):
        check_record(rec)
    rec = deal(2)[0].copy()
    rec["c_hand"][1, 5] += 1
    with pytest.raises(ValueError, match="Fate card type 5"):
        check_record(rec)
    assert NC == 66


def test_forced_decisions_applied():
    states = raid_ready(party=(("Berserker", 3),), defender_temple=(("Guard", 1),))
    rec = states[0]
    act(states, TARGET_SEAT, PICK_FAITHFUL + F["Guard"])
    # one Station, one Defender: the pass that rolls the Defense was applied by the core
    assert rec["phase"] == Phase.DISPATCH and rec["dice_n"][1] == 1


# ---------------------------------------------------------------- more of the turn


def end_my_turn(states):
    """The turn player (no Raiding Party) skips the Raid and sends everyone to the Party."""
    rec = states[0]
    rec["f_party"][rec["turn_player"]] = 0
    rules.begin_raid_step(rec)
    act(states, PASS)


def test_turn_steps_in_order():
    states = market(2, p=0, gold=0)
    rec = states[0]
    rec["life"][1] = 15
    rec["grid"][1, 4] = T["Healing Spring"]  # flipped: Heal 1 at the start of the turn
    rec["side"][1, 4] = 1
    rec["rot"][1, 4] = 2  # its one doorway (S on the card) turned north
    _fetch(rec, "t", T["Healing Spring"])
    rows_before = int(rec["r_row_n"].sum()), int(rec["f_row_n"].sum())
    give(rec, 1, "f_temple", "Guard")
    end_my_turn(states)  # Reinforce of seat 0 ends its turn
    # seat 1: start-of-turn Heal, then Reveal (a Relic, a Faithful), then the Marketplace
    assert rec["turn_player"] == 1 and rec["life"][1] == 16
    assert (int(rec["r_row_n"].sum()), int(rec["f_row_n"].sum())) == (rows_before[0] + 1,
                                                                       rows_before[1] + 1)
    assert rec["phase"] == Phase.MARKET


def test_reveal_from_empty_deck_does_nothing():
    states = market(2, p=0)
    rec = states[0]
    rec["r_out"] += np.bincount(rec["r_deck"][0, :rec["r_deck_n"][0]].astype(int), minlength=29
                                ).astype(np.int8)
    rec["r_deck"][0, :] = -1
    rec["r_deck_n"][0] = 0
    before = rec["r_row_n"].copy()
    check_record(rec)
    rules.reveal_relic(rec)
    assert (rec["r_row_n"] == before).all() and rec["f_row_n"][5] == 1


def test_marketplace_any_order_until_pass():
    states = market(2, p=0)
    rec = states[0]
    act(states, PLAY_GOLD + F["Guard"], PLAY_GOLD + F["Acolyte"])
    assert rec["phase"] == Phase.MARKET and rec["gold"][0] == 3
    act(states, BUY_FAITHFUL + 0)  # a Guard for 2
    act(states, PLAY_GOLD + F["Guard"])  # then play again
    assert rec["gold"][0] == 2 and rec["phase"] == Phase.MARKET
    assert PASS in ready(states)


def test_turn_gold_at_marketplace_start():
    states = market(2, p=1)
    rec = states[0]
    _fetch(rec, "t", T["Vault"])
    rec["grid"][0, 4] = T["Vault"]  # flipped Vault: +1 gold as the Marketplace Step begins
    rec["side"][0, 4] = 1
    rec["rot"][0, 4] = 2
    give(rec, 0, "f_discard", "Guard")
    end_my_turn(states)
    assert rec["turn_player"] == 0 and rec["gold"][0] == 1


def test_tile_flip_searches_relic_deck():
    states = market(2, p=0, gold=3)
    rec = states[0]
    place_tile(rec, 0, 4, "Library")  # B: an Altar; search the Relic Deck for an Oracle Scroll
    legal = act(states, FLIP + 4)
    if rec["phase"] == Phase.FLIP_ROT:
        legal = act(states, min(legal))
    assert rec["phase"] == Phase.SEARCH
    assert legal == {PICK_RELIC + R["Oracle Scroll"], PASS}
    deck = int(rec["r_deck_n"][0])
    act(states, PICK_RELIC + R["Oracle Scroll"])
    assert rec["r_owned"][0, R["Oracle Scroll"]] == 1 and rec["r_deck_n"][0] == deck - 1
    assert rec["phase"] == Phase.MARKET


def test_seer_puts_a_pile_top_under_its_deck():
    states = market(2, p=0)
    rec = states[0]
    give(rec, 0, "f_temple", "Seer")
    legal = act(states, PLAY_GOLD + F["Seer"])
    assert rec["phase"] == Phase.CYCLE and PASS in legal and SPOT + 0 in legal
    act(states, SPOT + 0)  # the Guard of Faithful pile 0 goes under the Faithful Deck
    assert rec["f_row_n"][0] == 0 and rec["f_deck"][0, 0] == F["Guard"]
    assert rec["gold"][0] == 1 and rec["phase"] == Phase.MARKET


def test_loss_discards_the_dispatched():
    lost = 0
    for seed in range(40):
        states = raid_ready(seed=seed, party=(("Devotee", 1),),
                            defender_temple=(("Champion", 1),))
        rec = states[0]
        act(states, TARGET_SEAT, PICK_FAITHFUL + F["Champion"], PICK_FAITHFUL + F["Devotee"])
        if rec["phase"] == Phase.DISPATCH:
            act(states, PASS)
        if rec["phase"] == Phase.REINFORCE:  # lost: the Raid is over
            lost += 1
            assert rec["totals"][0] <= rec["totals"][1]
            assert rec["f_pool"][0, F["Devotee"]] == 1  # via the Discard Pile, now gathered
            assert rec["f_temple"][1, F["Champion"]] == 1 and rec["defender"] == -1
    assert lost > 20


def test_raider_eliminated_mid_raid_defenders_go_home():
    states = raid_ready(n=3, party=(("Berserker", 3),), defender_temple=(("Guard", 1),))
    rec = states[0]
    rec["life"][0] = 2
    place_tile(rec, 1, 4, "Spike Trap")
    act(states, TARGET_SEAT, PICK_FAITHFUL + F["Guard"])
    act(states, *[PICK_FAITHFUL + F["Berserker"]] * 3)  # the Entrance falls, the Guard defeated
    act(states, DIRECTION + W, DIRECTION + S)  # the Spike Trap: 3 damage, the Raider is out
    assert rec["alive"][0] == 0 and rec["f_temple"][1, F["Guard"]] == 1
    assert not rec["f_defeated"].any() and rec["turn_player"] == 1
