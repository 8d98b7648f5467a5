"""ISMCTS's view of a Foretold position (rules.evaluate) on hand-built positions: Life and
Prevent, gold and holdings at Marketplace prices, how deep the Heart lies; public
information only (unchanged by determinize); and the doorway distances it and the
heuristic's Marker walk share (rules.door_steps)."""

from __future__ import annotations

import numpy as np

from fatezoo.envs.foretold import rules
from fatezoo.envs.foretold.cards import HEART, T_NAMES

from .test_fate import give_card, quiet_market
from .test_rules import give, give_relic, place_tile, ready


def _values(rec):
    values = np.zeros(4)
    rules.evaluate(rec, values)
    return values


def _position():
    """Seat 0: 20 Life, 4 gold, two Guards (2 gold each), an Acolyte (3) and Healing Draught
    (3); seat 1: 15 Life, 2 Prevent, a Guard, a Fate card in hand (3) and a Tile bought
    from the deck (3) that puts its Heart one Tile deeper (Entrance, Pathway, the Tile,
    the Heart)."""
    states = quiet_market()  # each seat: a Guard in its Discard Pile; seat 0 one in its Temple
    rec = states[0]
    give(rec, 0, "f_party", "Acolyte")
    give_relic(rec, 0, "Healing Draught")
    rec["gold"][0] = 4
    give_card(rec, 1, "Mend")
    rec["life"][1] = 15
    rec["shield"][1] = 2
    rec["grid"][1, 13] = HEART  # from cell 9, below the Pathway (cell 5)
    rec["grid"][1, 9] = -1
    place_tile(rec, 1, 9, T_NAMES[5])  # a deck Tile's A-side: a N-S hallway
    ready(states)  # a legal record (R27: the Temple stays connected)
    return states


def test_evaluate_is_tanh_of_the_standing_lead():
    rec = _position()[0]
    assert rules.heart_depth(rec, 0) == 2 and rules.heart_depth(rec, 1) == 3
    assert rules.holdings(rec, 0) == 2 * 2 + 3 + 3
    assert rules.holdings(rec, 1) == 2 + 3 + 3
    # Life + Prevent + Heart depth + (gold + 1.25 * holdings) / 8
    s0 = 20 + 0 + 2 + (4 + 1.25 * 10) / 8  # 24.0625
    s1 = 15 + 2 + 3 + (0 + 1.25 * 8) / 8  # 21.25
    assert rules.standing(rec, 0) == s0 and rules.standing(rec, 1) == s1
    np.testing.assert_allclose(_values(rec)[:2], [np.tanh((s0 - s1) / 8), np.tanh((s1 - s0) / 8)],
                               rtol=0, atol=1e-12)


def test_evaluate_counts_a_fighting_side_as_its_owner():
    """Faithful out of their zones in a Raid (dispatched, defending, Defeated) still count."""
    rec = _position()[0]
    before = rules.holdings(rec, 0), rules.holdings(rec, 1)
    rec["defender"] = 1  # seat 0 (the turn player) raids seat 1
    t = rec["f_party"][0].copy()
    rec["f_party"][0, :] -= t
    rec["f_fight"][0, :] += t
    g = rec["f_discard"][1].copy()
    rec["f_discard"][1, :] -= g
    rec["f_defeated"][:] += g
    assert (rules.holdings(rec, 0), rules.holdings(rec, 1)) == before


def test_evaluate_reads_only_public_information():
    """Determinize (the viewer's resampling of hidden cards) never changes the values."""
    states = _position()
    rec = states[0]
    give(rec, 1, "f_temple", "Acolyte")  # an opponent's split: hidden
    give(rec, 1, "f_party", "Guard")
    give_card(rec, 1, "Fury")
    want = _values(rec)
    for viewer in (0, 1):
        for seed in range(5):
            copy = states.copy()
            rules.determinize_record(copy[0], viewer, np.array([seed + 1, 7, 8, 9], np.int64))
            np.testing.assert_allclose(_values(copy[0]), want, rtol=0, atol=1e-12)


def test_evaluate_ended_game_and_eliminated_seat():
    states = quiet_market(n=3)
    rec = states[0]
    rec["alive"][2] = 0
    rec["life"][2] = 0
    rec["life"][1] = 12
    # seat 0: two Guards (4 gold), seat 1: one (2); seat 2 is out (not in the others' mean)
    s0 = 20 + 2 + 1.25 * 4 / 8
    s1 = 12 + 2 + 1.25 * 2 / 8
    values = _values(rec)
    np.testing.assert_allclose(values[:3], [np.tanh((s0 - s1) / 8), np.tanh((s1 - s0) / 8),
                                            -1.0], rtol=0, atol=1e-12)
    rec["terminated"] = 1
    rec["returns"][:3] = [-0.5, 1.0, -0.5]
    np.testing.assert_allclose(_values(rec)[:3], [-0.5, 1.0, -0.5], rtol=0, atol=0)


def test_door_steps_follow_doorways_not_the_straight_line():
    """Cell 0 is next to cell 4 but with no doorway between: the way is 0-1-5-4 (R56)."""
    n_, e_, s_, w_ = 1, 2, 4, 8
    doors = np.zeros(16, np.int64)
    doors[0] = e_
    doors[1] = w_ | s_
    doors[5] = n_ | w_
    doors[4] = e_
    steps = rules.door_steps(doors, 4)
    assert [steps[c] for c in (4, 5, 1, 0)] == [0, 1, 2, 3]
    assert steps[2] == 99  # no Tile: not reached
