"""Foretold's heuristic (heuristic.py) on hand-built positions: it reads only the
observation and plays Fate cards when they help (gold in the Marketplace, heals when low,
fight bonuses when they turn the fight)."""

from __future__ import annotations

import numpy as np

from fatezoo.envs.core import kernels as K
from fatezoo.envs.foretold import SPEC, rules
from fatezoo.envs.foretold.cards import HEART
from fatezoo.envs.foretold.heuristic import act_one
from fatezoo.envs.foretold.state import (
    BUY_RELIC,
    DIRECTION,
    NUM_ACTIONS,
    PASS,
    PICK_FAITHFUL,
    PLAY_FATE,
    PLAY_GOLD,
    TARGET_SEAT,
    Phase,
)

from .test_fate import C, give_card, quiet_market
from .test_fate_switch import COVER, wisdom_buyer
from .test_fight import defended
from .test_rules import F, act, give_relic, raid_ready, ready


def choice(states):
    """The heuristic's decision for the seat to move, from its observation only."""
    rec = states[0]
    obs = np.zeros(SPEC.obs_size, np.float32)
    mask = np.zeros(NUM_ACTIONS, np.int8)
    K.encode_one(states, 0, int(rec["current_player"]), obs)
    K.mask_one(states, 0, mask)
    a = int(act_one(obs, mask, np.array([1, 2, 3, 4], np.int64)))
    assert mask[a]
    return a


def test_plays_gold_cards_first_in_the_marketplace():
    states = quiet_market()
    rec = states[0]
    assert choice(states) == PLAY_GOLD + F["Guard"]
    give_card(rec, 0, "Windfall")  # gain 2
    assert choice(states) == PLAY_FATE + C["Windfall"]


def test_heals_only_when_hurt():
    states = quiet_market()
    rec = states[0]
    give_card(rec, 0, "Mend")  # Heal 3
    assert choice(states) == PLAY_GOLD + F["Guard"]  # at 20 Life: kept
    rec["life"][0] = 17
    assert choice(states) == PLAY_FATE + C["Mend"]


def _raid_round(gap):
    """Seat 0 raids with a Guard and holds Fury (+2); after the Raid roll it is ``gap``
    short of winning (it must beat the Defense)."""
    states = raid_ready()
    rec = states[0]
    give_card(rec, 0, "Fury")
    defended(states)
    assert rec["phase"] == Phase.RESPOND and rec["fin"] == 1  # before the Defense roll
    assert choice(states) == PASS  # the Raid roll is still to come
    act(states, PASS)
    assert rec["phase"] == Phase.FINALIZE and rec["fin"] == 1
    assert choice(states) == PASS
    act(states, PASS, PICK_FAITHFUL + F["Guard"])
    assert rec["phase"] == Phase.FINALIZE and rec["fin"] == 2 and rec["current_player"] == 0
    rec["dice"][0, 0] = 3
    rec["dice"][1, 0] = 1
    while int(rules.side_total(rec, 1)) - int(rules.side_total(rec, 0)) + 1 != gap:
        rec["dice"][1, 0] += 1
    return states


def test_fight_bonus_only_when_it_turns_the_fight():
    assert choice(_raid_round(2)) == PLAY_FATE + C["Fury"]  # +2 turns it
    assert choice(_raid_round(3)) == PASS  # not enough: kept
    assert choice(_raid_round(0)) == PASS  # already winning


def test_marker_walks_the_doorway_path_to_the_heart():
    """The Defender's Heart moved under its Treasury: from the Entrance the way is West, then
    South; South (the Pathway, the straight-line neighbour as near as the Treasury) is a dead
    end (R56: Marker moves go through doorway pairs)."""
    states = raid_ready(defender_temple=())
    rec = states[0]
    rec["grid"][1, 9] = -1
    rec["grid"][1, 4] = HEART  # one doorway, North: the Treasury's South doorway
    ready(states)  # a legal Temple (R27)
    act(states, TARGET_SEAT)  # no Defenders: the Entrance is conquered, the Raider advances
    assert rec["phase"] == Phase.ADVANCE
    assert choice(states) == DIRECTION + 3  # West
    act(states, DIRECTION + 3)
    assert choice(states) == DIRECTION + 2  # South, onto the Heart


def test_heuristic_covers_the_pile_an_opponent_wants():
    # R20: returning a Fate Relic to a full row, the heuristic covers the pile whose top the
    # opponents would most like to buy: the Shield of Grace, a step to seat 1's four Grace
    # Relics (it holds the Crown), not the Crown of Chaos of the Fate it changes to
    states = wisdom_buyer(3, ["Runestone"], ["Crown of Chaos"], ["Ward"], ["Sword of Chaos"],
                          ["Shield of Grace"], ["War Horn"])
    rec = states[0]
    give_relic(rec, 1, "Crown of Grace")
    act(states, BUY_RELIC + 3)
    assert rec["phase"] == Phase.COVER_RELIC and rec["current_player"] == 0
    assert choice(states) == COVER + 4
