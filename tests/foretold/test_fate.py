"""Foretold milestone 2: playing Fate cards, using Relics, the stack and response windows.

One hand-built position per rule (RULES.md R63-R80), built with the helpers of
test_rules.py: a dealt game edited in place, every card kept in exactly one place.
"""

from __future__ import annotations

import numpy as np

from fatezoo.envs.core.stack import KIND, OWNER
from fatezoo.envs.foretold.cards import C_FATE, C_NAMES, NF
from fatezoo.envs.foretold.state import (
    ABILITY,
    FATE_DECK,
    K_ABILITY,
    PASS,
    PICK_FAITHFUL,
    PLAY_FATE,
    PLAY_GOLD,
    S_CARD,
    S_TARGET,
    TARGET_SEAT,
    USE_RELIC,
    Phase,
)

from .test_rules import F, R, act, decline, give, give_relic, market, park, raid_ready, ready

C = {name: i for i, name in enumerate(C_NAMES)}


def give_card(rec, p, name, k=1):
    """Seat ``p`` takes ``k`` Fate cards ``name`` out of their Fate Deck into its hand."""
    c = C[name]
    f = int(C_FATE[c])
    for _ in range(k):
        n = int(rec["c_deck_n"][f])
        i = int(np.flatnonzero(rec["c_deck"][f, :n] == c)[0])
        rec["c_deck"][f, i:n - 1] = rec["c_deck"][f, i + 1:n].copy()
        rec["c_deck"][f, n - 1] = -1
        rec["c_deck_n"][f] = n - 1
        rec["c_hand"][p, c] += 1


def quiet_market(n=2, p=0, gold=0, **options):
    """Seat ``p``'s Marketplace Step; every seat's Faithful set aside but one Guard in the
    Discard Pile, and one in seat ``p``'s Temple (so the Step always holds a choice and
    is not passed as a forced decision)."""
    states = market(n, p=p, gold=gold, **options)
    rec = states[0]
    for q in range(n):
        park(rec, q)
        give(rec, q, "f_discard", "Guard")
    give(rec, p, "f_temple", "Guard")
    return states


def test_relic_cost_matching_relics():
    # Havoc (Chaos, Relic Cost 1): unplayable with no Chaos Relic, playable with one
    states = quiet_market()
    rec = states[0]
    give_card(rec, 0, "Havoc")
    give_card(rec, 0, "Windfall")  # Prosperity, cost 0: always playable on your turn
    legal = ready(states)
    assert PLAY_FATE + C["Havoc"] not in legal and PLAY_FATE + C["Windfall"] in legal
    give_relic(rec, 0, "Shield of Grace")  # a Fate Relic of another Fate does not count
    assert PLAY_FATE + C["Havoc"] not in ready(states)
    rec["r_owned"][0, R["Shield of Grace"]] = 0
    rec["r_deck"][0, rec["r_deck_n"][0]] = R["Shield of Grace"]
    rec["r_deck_n"][0] += 1
    give_relic(rec, 0, "Shield of Chaos")  # the Sanctum's Altar holds it
    assert PLAY_FATE + C["Havoc"] in ready(states)


def test_relic_cost_reduced_and_waived():
    # Prism of Fate: Relic Costs 1 less; the Oracle's gold play waives the next card's cost
    states = quiet_market()
    rec = states[0]
    give_card(rec, 0, "Fortune")  # Prosperity, cost 1: gain 5
    give_card(rec, 0, "Golden Age")  # Prosperity, cost 2: gain 8
    assert not {PLAY_FATE + C["Fortune"], PLAY_FATE + C["Golden Age"]} & ready(states)
    give_relic(rec, 0, "Prism of Fate")
    legal = ready(states)
    assert PLAY_FATE + C["Fortune"] in legal and PLAY_FATE + C["Golden Age"] not in legal
    give(rec, 0, "f_temple", "Oracle")
    act(states, PLAY_GOLD + F["Oracle"])  # 2 gold and the waiver
    assert rec["waive"] == 1 and rec["gold"][0] == 2
    assert PLAY_FATE + C["Golden Age"] in ready(states)
    act(states, PLAY_FATE + C["Golden Age"])  # nobody can respond: it resolves at once
    assert rec["gold"][0] == 10 and rec["waive"] == 0
    assert rec["c_discard"][C["Golden Age"]] == 1 and rec["phase"] == Phase.MARKET


def test_fate_timing_restrictions():
    # own_turn cards only as the turn player's Action; `stack` cards only as responses;
    # fight cards not outside a fight
    states = quiet_market()
    rec = states[0]
    give_card(rec, 0, "Negate")
    give_card(rec, 0, "Fury")
    give_card(rec, 1, "Windfall")
    give_relic(rec, 0, "Shield of Wisdom")  # Negate costs 1 Wisdom Relic
    legal = ready(states)
    assert PLAY_FATE + C["Negate"] not in legal and PLAY_FATE + C["Fury"] not in legal
    give_card(rec, 0, "Investment")
    act(states, PLAY_FATE + C["Investment"])
    # seat 1's Windfall is own_turn: seat 1 is asked (R70 Reading: its hand is hidden) with
    # nothing to play
    decline(states, 1)
    assert rec["phase"] == Phase.MARKET and rec["gold"][0] == 1


def test_actions_go_on_the_stack():
    # playing a Fate card pushes it; the asked seat sees it on the stack
    states = quiet_market()
    rec = states[0]
    give_card(rec, 0, "Windfall")
    give_card(rec, 1, "Negate")
    give_relic(rec, 1, "Shield of Wisdom")
    legal = act(states, PLAY_FATE + C["Windfall"])
    assert rec["phase"] == Phase.RESPOND and rec["current_player"] == 1
    assert rec["stack_n"][0] == 1 and rec["stack"][0, S_CARD] == C["Windfall"]
    assert legal == {PLAY_FATE + C["Negate"], PASS}
    assert rec["c_hand"][0, C["Windfall"]] == 0  # on the stack, not in the hand
    act(states, PASS)
    assert rec["gold"][0] == 2 and rec["stack_n"][0] == 0 and rec["phase"] == Phase.MARKET


def test_counter_negates_fate_card():
    states = quiet_market()
    rec = states[0]
    give_card(rec, 0, "Windfall")
    give_card(rec, 1, "Negate")
    give_relic(rec, 1, "Shield of Wisdom")
    act(states, PLAY_FATE + C["Windfall"], PLAY_FATE + C["Negate"])
    # seat 0 has no response to the Negate: it resolves, then the countered Windfall
    assert rec["gold"][0] == 0 and rec["phase"] == Phase.MARKET
    assert rec["c_discard"][C["Windfall"]] == 1 and rec["c_discard"][C["Negate"]] == 1


def test_responses_resolve_lifo():
    # Havoc (3 damage) at seat 1; seat 1 answers with Sanctuary (Prevent 3), which
    # resolves first, so the Havoc is absorbed
    states = quiet_market()
    rec = states[0]
    give_card(rec, 0, "Havoc")
    give_relic(rec, 0, "Shield of Chaos")
    give_card(rec, 1, "Sanctuary")
    act(states, PLAY_FATE + C["Havoc"])  # one opponent: the target is forced
    assert rec["phase"] == Phase.RESPOND and rec["stack"][0, S_TARGET] == 1
    act(states, PLAY_FATE + C["Sanctuary"])
    assert rec["life"][1] == 20 and rec["shield"][1] == 0 and rec["stack_n"][0] == 0


def test_prevent_absorbs_damage():
    states = quiet_market()
    rec = states[0]
    rec["shield"][1] = 2
    give_card(rec, 0, "Havoc")
    give_relic(rec, 0, "Shield of Chaos")
    act(states, PLAY_FATE + C["Havoc"])
    assert rec["life"][1] == 19 and rec["shield"][1] == 0  # 2 prevented, 1 taken
    rec["shield"][0] = 4
    act(states, PASS, PASS)  # no Raid (empty party); Reinforce; seat 1's turn starts
    assert rec["turn_player"] == 1 and rec["shield"][0] == 4  # holds until seat 0's turn


def test_only_players_with_a_response_are_asked():
    # 3 players: seat 1 holds nothing, seat 2 a Negate; only seat 2 is asked
    states = quiet_market(n=3)
    rec = states[0]
    give_card(rec, 0, "Windfall")
    give_card(rec, 2, "Negate")
    give_relic(rec, 2, "Shield of Wisdom")
    act(states, PLAY_FATE + C["Windfall"])
    assert rec["phase"] == Phase.RESPOND and rec["current_player"] == 2
    act(states, PASS)
    assert rec["gold"][0] == 2 and rec["phase"] == Phase.MARKET


def test_buying_opens_no_window():
    states = quiet_market(gold=3)
    rec = states[0]
    give_card(rec, 1, "Sanctuary")  # a response seat 1 could play to any Action
    act(states, FATE_DECK + 0)
    assert rec["phase"] == Phase.MARKET and rec["stack_n"][0] == 0


def test_fate_card_to_shared_discard():
    states = quiet_market()
    rec = states[0]
    give_card(rec, 0, "Investment", 2)
    act(states, PLAY_FATE + C["Investment"], PLAY_FATE + C["Investment"])
    assert rec["c_discard"][C["Investment"]] == 2 and rec["gold"][0] == 2


def test_draw_fate_from_chosen_deck():
    states = quiet_market()
    rec = states[0]
    give_card(rec, 0, "Insight")
    legal = act(states, PLAY_FATE + C["Insight"])
    assert rec["phase"] == Phase.DRAW and legal == set(range(FATE_DECK, FATE_DECK + 4))
    top = int(rec["c_deck"][1, rec["c_deck_n"][1] - 1])
    act(states, FATE_DECK + 1)
    assert rec["c_hand"][0, top] == 1 and rec["phase"] == Phase.MARKET


def test_empty_fate_deck_not_refilled():
    states = quiet_market(gold=9)
    rec = states[0]
    give_card(rec, 0, "Insight")
    for f in range(4):  # every Fate Deck emptied into the discard
        for i in range(int(rec["c_deck_n"][f])):
            rec["c_discard"][rec["c_deck"][f, i]] += 1
            rec["c_deck"][f, i] = -1
        rec["c_deck_n"][f] = 0
    legal = ready(states)
    assert PLAY_FATE + C["Insight"] not in legal  # a draw from nothing does nothing
    assert not legal & set(range(FATE_DECK, FATE_DECK + 4))


def test_no_hand_limit():
    states = quiet_market(gold=30)
    rec = states[0]
    for _ in range(10):
        act(states, FATE_DECK + 2)
    assert rec["c_hand"][0].sum() == 10


def test_fate_needs_a_target():
    # 3 players: Rampage asks for the opponent; seat +2 loses 2
    states = quiet_market(n=3)
    rec = states[0]
    give_card(rec, 0, "Rampage")
    legal = act(states, PLAY_FATE + C["Rampage"])
    assert rec["phase"] == Phase.FATE_TARGET and legal == {TARGET_SEAT, TARGET_SEAT + 1}
    act(states, TARGET_SEAT + 1)
    assert rec["life"][2] == 18 and rec["life"][1] == 20


def test_bargain_discounts_next_purchase():
    states = quiet_market(gold=1)
    rec = states[0]
    give_card(rec, 0, "Bargain")
    assert FATE_DECK not in ready(states)
    act(states, PLAY_FATE + C["Bargain"], FATE_DECK + 0)  # 3 - 2 = 1 gold
    assert rec["gold"][0] == 0 and rec["discount"] == 0


def test_relic_use_is_an_action():
    # Golden Chalice: gain 3 on your turn; an opponent with a response is asked
    states = quiet_market()
    rec = states[0]
    give_relic(rec, 0, "Golden Chalice")
    give_card(rec, 1, "Sanctuary")
    act(states, USE_RELIC + R["Golden Chalice"])
    assert rec["phase"] == Phase.RESPOND and rec["current_player"] == 1
    act(states, PASS)
    assert rec["gold"][0] == 3


def test_sacrificed_relic_to_deck_bottom():
    states = quiet_market()
    rec = states[0]
    give_relic(rec, 0, "Golden Chalice")
    act(states, USE_RELIC + R["Golden Chalice"])
    assert rec["r_owned"][0, R["Golden Chalice"]] == 0
    assert rec["r_deck"][0, 0] == R["Golden Chalice"]


def test_shrine_sacrifices_a_devotee():
    states = quiet_market()
    rec = states[0]
    rec["life"][0] = 15
    give_relic(rec, 0, "Shrine of Grace")
    assert USE_RELIC + R["Shrine of Grace"] not in ready(states)  # no Devotee to sacrifice
    give(rec, 0, "f_discard", "Devotee")
    act(states, USE_RELIC + R["Shrine of Grace"])
    assert rec["life"][0] == 18 and rec["f_discard"][0, F["Devotee"]] == 0
    assert rec["f_deck"][0, 0] == F["Devotee"] and rec["r_owned"][0, R["Shrine of Grace"]] == 1


def test_eliminated_mid_action_has_no_effect():
    # 3 players: seat 0 (2 Life) plays Windfall; seat 1 answers with the Shrine of Chaos
    # (2 damage) at seat 0, who is out before the Windfall resolves: it does nothing and
    # play passes left (R82)
    states = quiet_market(n=3)
    rec = states[0]
    rec["life"][0] = 2
    give_card(rec, 0, "Windfall")
    give_relic(rec, 1, "Shrine of Chaos")
    give(rec, 1, "f_discard", "Devotee")
    act(states, PLAY_FATE + C["Windfall"], USE_RELIC + R["Shrine of Chaos"])
    assert rec["phase"] == Phase.FATE_TARGET and rec["current_player"] == 1
    act(states, TARGET_SEAT + 1)  # seat 1 + 2 = seat 0
    assert not rec["alive"][0] and rec["turn_player"] == 1
    assert rec["c_discard"][C["Windfall"]] == 1 and rec["stack_n"][0] == 0


def test_captain_and_hoplite_discard_for_bonus():
    # R43, R67, R70: discarding a Faithful for its ability is an Action of a side of the
    # fight before the roll is final (its windows and rounds, never the Defend step): the
    # Defender's Hoplite from the Temple, the Raider's Captain from the Party; the card is
    # in the Discard Pile at once, its +3 comes when the entry resolves (after responses)
    states = raid_ready(party=(("Captain", 1), ("Guard", 1)),
                        defender_temple=(("Guard", 1), ("Hoplite", 1)))
    rec = states[0]
    legal = act(states, TARGET_SEAT)  # the Entrance: one Station
    assert rec["phase"] == Phase.DEFEND and not any(ABILITY <= a < ABILITY + NF for a in legal)
    act(states, PICK_FAITHFUL + F["Guard"])  # a forced pass: the Defense roll's window
    # the Raider, holding a Captain, is asked before the roll (R70)
    assert rec["phase"] == Phase.RESPOND and rec["current_player"] == 0
    assert ready(states) == {ABILITY + F["Captain"], PASS}
    act(states, PASS)  # the roll; the round after it starts with the Raider
    assert rec["phase"] == Phase.FINALIZE and rec["current_player"] == 0
    assert rec["dice_n"][1] == 1
    act(states, PASS)
    assert rec["current_player"] == 1 and ready(states) == {ABILITY + F["Hoplite"], PASS}
    act(states, ABILITY + F["Hoplite"])
    assert rec["phase"] == Phase.RESPOND and rec["current_player"] == 0  # the Raider answers
    assert rec["stack_n"][0] == 1 and rec["stack"][0, [KIND, OWNER]].tolist() == [K_ABILITY, 1]
    assert rec["stack"][0, S_CARD] == F["Hoplite"]
    assert rec["f_discard"][1, F["Hoplite"]] == 1 and rec["f_temple"][1, F["Hoplite"]] == 0
    assert rec["bonus"].tolist() == [0, 0]  # the bonus waits for the responses
    act(states, ABILITY + F["Captain"])  # resolves first (LIFO), then the Hoplite
    assert rec["bonus"].tolist() == [3, 3] and rec["stack_n"][0] == 0
    assert rec["f_discard"][0, F["Captain"]] == 1 and rec["f_party"][0, F["Captain"]] == 0
    assert rec["phase"] == Phase.DISPATCH  # nobody has an Action left: the round is over
    act(states, PICK_FAITHFUL + F["Guard"])  # a forced pass: the Raid roll, the totals
    assert rec["totals"][0] == rec["dice"][0, 0] + 3  # Guard: no raid bonus
    assert rec["totals"][1] == rec["dice"][1, 0] + 1 + 3  # Guard defends +1
    assert rec["bonus"].tolist() == [0, 0]  # this fight only


def test_ability_discard_settles_when_the_fight_ends():
    # R43 with R53: a Hoplite's entry still on the stack when its side is emptied settles
    # without effect (the fight is over); the Hoplite stays discarded
    states = raid_ready(party=(("Guard", 1),), defender_temple=(("Guard", 1), ("Hoplite", 1)))
    rec = states[0]
    give_card(rec, 0, "Slay")  # sacrifice an opposing Faithful in this fight (Relic Cost 1)
    give_relic(rec, 0, "Shield of Chaos")  # in the Sanctum's Altar
    act(states, TARGET_SEAT, PICK_FAITHFUL + F["Guard"])
    assert rec["phase"] == Phase.RESPOND and rec["current_player"] == 0  # before the roll
    act(states, PASS)  # the Defense roll; the Raider passes the round, the Defender acts
    act(states, PASS, ABILITY + F["Hoplite"])
    assert rec["phase"] == Phase.RESPOND and rec["current_player"] == 0
    act(states, PLAY_FATE + C["Slay"])  # the only Defender: its pick is forced
    assert rec["conquered"][1] == 1 and rec["stack_n"][0] == 0 and rec["bonus"][1] == 0
    assert rec["f_discard"][1, F["Hoplite"]] == 1 and rec["phase"] == Phase.ADVANCE
