"""Foretold milestone 4: Marketplace Actions other than Fate cards and Relics (R67).

Playing a Faithful for gold and flipping a Tile go on the stack, open a response window
(R69-R70) and resolve after the responses.
"""

from __future__ import annotations

from fatezoo.envs.foretold.cards import T_FLIP
from fatezoo.envs.foretold.state import (
    FLIP,
    K_FLIP,
    K_GOLD,
    PASS,
    PLAY_FATE,
    PLAY_GOLD,
    ROTATION,
    USE_RELIC,
    Phase,
)

from .test_fate import C, give_card, quiet_market
from .test_rules import F, R, T, act, give, give_relic


def test_faithful_played_for_gold_opens_a_window():
    # seat 1 holds Sanctuary (a response to any Action): asked after the Guard is played;
    # the gold comes when the play resolves
    states = quiet_market()
    rec = states[0]
    give_card(rec, 1, "Sanctuary")
    give(rec, 0, "f_temple", "Guard")  # a second Guard: the Step still holds a choice after
    legal = act(states, PLAY_GOLD + F["Guard"])
    assert rec["phase"] == Phase.RESPOND and rec["current_player"] == 1
    assert legal == {PLAY_FATE + C["Sanctuary"], PASS}
    assert rec["stack_n"][0] == 1 and rec["stack"][0, 0] == K_GOLD
    assert rec["stack"][0, 3] == F["Guard"] and rec["gold"][0] == 0
    assert rec["f_discard"][0, F["Guard"]] == 2 and rec["f_temple"][0, F["Guard"]] == 1
    act(states, PASS)
    assert rec["gold"][0] == 1 and rec["stack_n"][0] == 0 and rec["phase"] == Phase.MARKET


def test_faithful_for_gold_has_no_effect_when_its_player_is_out():
    # R83: seat 0 (2 Life) plays a Devotee; seat 1 answers with the Shrine of Chaos (2
    # damage at the one opponent): seat 0 is out before the play resolves, so it counts no
    # Devotee
    states = quiet_market()
    rec = states[0]
    rec["life"][0] = 2
    give(rec, 0, "f_temple", "Devotee")
    give_relic(rec, 1, "Shrine of Chaos")
    give(rec, 1, "f_discard", "Devotee")  # the Shrine sacrifices it (R65)
    act(states, PLAY_GOLD + F["Devotee"], USE_RELIC + R["Shrine of Chaos"])
    assert not rec["alive"][0] and rec["winner"] == 1 and rec["terminated"]
    assert rec["devotees"] == 0 and rec["stack_n"][0] == 0


def test_flip_opens_a_window():
    # the Flip Cost is paid when the flip is played; the Tile turns when it resolves. The
    # Sanctum (doorways S W beside the Entrance) may turn to rotation 0 or 1
    states = quiet_market(gold=int(T_FLIP[T["Sanctum"]]))
    rec = states[0]
    give_card(rec, 1, "Sanctuary")
    legal = act(states, FLIP + 2)
    assert rec["phase"] == Phase.FLIP_ROT and legal == {ROTATION, ROTATION + 1}
    act(states, ROTATION + 1)
    assert rec["phase"] == Phase.RESPOND and rec["current_player"] == 1
    assert rec["stack"][0, 0] == K_FLIP and rec["stack"][0, 3] == 4 * 2 + 1
    assert rec["gold"][0] == 0 and rec["side"][0, 2] == 0
    act(states, PASS)
    assert rec["side"][0, 2] == 1 and rec["rot"][0, 2] == 1
    assert rec["phase"] == Phase.MARKET and rec["stack_n"][0] == 0
