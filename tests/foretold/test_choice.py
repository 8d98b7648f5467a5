"""Foretold milestone 4: effects chosen at resolution (section 13 of RULES.md: SMASH_RELIC,
FREE_BUY, BUY_ANY, STEAL_GOLD, PAY_REMOVE) and taking Faithful out of a fight (R53:
REMOVE_COMBATANT, SACRIFICE_COMBATANT, CONVERT, PROTECT_PARTY; R42's High Priest).

Hand-built positions with the helpers of test_rules.py; a resolving effect that needs a
choice waits in ``Phase.CHOOSE`` for its owner (a single legal pick is applied at once).
"""

from __future__ import annotations

from fatezoo.envs.foretold.cards import F_COST, R_A
from fatezoo.envs.foretold.state import (
    FLIP,
    PASS,
    PICK_FAITHFUL,
    PICK_RELIC,
    PLAY_FATE,
    SPOT,
    SPOTS,
    TARGET_SEAT,
    Phase,
)

from .test_fate import C, give_card, quiet_market
from .test_fight import defended
from .test_rules import F, R, act, decline, give_relic, raid_ready, ready, relic_to_row


def out_card(rec, p, name):
    """Seat ``p`` takes a Fate card that is out of the game (a Fatesworn card)."""
    rec["c_out"][C[name]] -= 1
    rec["c_hand"][p, C[name]] += 1


def test_smash_relic_picks_a_relic_of_the_kind():
    # 3 players. Smash (a Basic Relic): only seat 1 holds one, so the target is forced;
    # seat 1 holds two Basic types and a Fate Relic: the pick is between the two Basic ones
    states = quiet_market(n=3)
    rec = states[0]
    give_relic(rec, 0, "Shield of Chaos")  # Smash costs 1 Chaos Relic
    give_card(rec, 0, "Smash")
    give_card(rec, 0, "Desecrate")
    give_relic(rec, 1, "Golden Chalice")
    give_relic(rec, 1, "Healing Draught")
    give_relic(rec, 1, "Shield of Grace")
    give_relic(rec, 2, "Shield of Wisdom")
    legal = act(states, PLAY_FATE + C["Smash"])
    assert rec["phase"] == Phase.CHOOSE and rec["current_player"] == 0
    assert rec["ch_seat"] == 1 and rec["c_discard"][C["Smash"]] == 1
    assert legal == {PICK_RELIC + R["Golden Chalice"], PICK_RELIC + R["Healing Draught"]}
    act(states, PICK_RELIC + R["Golden Chalice"])
    assert rec["r_owned"][1, R["Golden Chalice"]] == 0
    assert rec["r_deck"][0, 0] == R["Golden Chalice"]
    assert rec["r_owned"][1, R["Healing Draught"]] == 1 and rec["phase"] == Phase.MARKET
    # Desecrate (a Fate Relic, Relic Cost 2: waived): seats 1 and 2 both hold one
    rec["waive"] = 1
    legal = act(states, PLAY_FATE + C["Desecrate"])
    assert rec["phase"] == Phase.FATE_TARGET and legal == {TARGET_SEAT, TARGET_SEAT + 1}
    act(states, TARGET_SEAT + 1)  # seat 2: its one Fate Relic is picked at once
    assert rec["r_owned"][2].sum() == 0 and rec["r_deck"][0, 0] == R["Shield of Wisdom"]
    assert rec["r_owned"][1, R["Shield of Grace"]] == 1 and rec["phase"] == Phase.MARKET


def test_smash_relic_needs_a_target():
    states = quiet_market()
    rec = states[0]
    give_relic(rec, 0, "Shield of Chaos")
    give_card(rec, 0, "Smash")
    give_relic(rec, 1, "Shield of Grace")  # a Fate Relic only: nothing for Smash
    assert PLAY_FATE + C["Smash"] not in ready(states)


def test_trade_route_takes_a_pile_top_free():
    # FREE_BUY 4: the top of any pile costing 4 or less, free, a Fate Relic only with an
    # open Altar (R19)
    states = quiet_market(gold=1)
    rec = states[0]
    rec["waive"] = 1  # Relic Cost 1 waived
    give_card(rec, 0, "Trade Route")
    for spot, name in enumerate(("Prism of Fate", "War Banner", "Shield of Grace")):
        relic_to_row(rec, spot, name)  # costs 5, 4, 3
    give_relic(rec, 0, "Shield of Chaos")  # the one Altar is taken: no Fate Relic of Chaos
    relic_to_row(rec, 3, "Sword of Chaos")
    fcosts = {k: int(F_COST[rec["f_row"][k, rec["f_row_n"][k] - 1]]) for k in range(SPOTS)
              if rec["f_row_n"][k]}
    legal = act(states, PLAY_FATE + C["Trade Route"])
    assert rec["phase"] == Phase.CHOOSE
    want = {SPOT + k for k, c in fcosts.items() if c <= 4}
    want |= {SPOT + SPOTS + 1, SPOT + SPOTS + 2}  # War Banner; Shield of Grace (a switch)
    assert legal == want
    act(states, SPOT + SPOTS + 1)
    assert rec["r_owned"][0, R["War Banner"]] == 1 and rec["r_row_n"][1] == 0
    assert rec["gold"][0] == 1 and rec["phase"] == Phase.MARKET


def test_everything_has_a_price_acquires_any_type():
    # BUY_ANY 8: pay 8 at resolution, any Faithful or Relic type from a pile top or the
    # deck (searched, then shuffled); not offered without the gold
    states = quiet_market(gold=7)
    rec = states[0]
    rec["waive"] = 1
    give_card(rec, 0, "Everything Has a Price")
    assert PLAY_FATE + C["Everything Has a Price"] not in ready(states)
    rec["gold"][0] = 9
    give_relic(rec, 0, "Shield of Chaos")
    deck_n = int(rec["f_deck_n"][0])
    in_deck = int((rec["f_deck"][0, :deck_n] == F["Demigod"]).sum())
    legal = act(states, PLAY_FATE + C["Everything Has a Price"])
    assert rec["phase"] == Phase.CHOOSE
    assert PICK_FAITHFUL + F["Demigod"] in legal and PICK_RELIC + R["Crown of Grace"] in legal
    assert PICK_RELIC + R["Crown of Chaos"] not in legal  # the Altar is taken
    assert PICK_FAITHFUL + F["High Priest"] not in legal  # nowhere to take one from
    assert in_deck == 1
    act(states, PICK_FAITHFUL + F["Demigod"])
    assert rec["f_discard"][0, F["Demigod"]] == 1 and rec["gold"][0] == 1
    assert rec["f_deck_n"][0] == deck_n - 1 and F["Demigod"] not in rec["f_deck"][0, :deck_n - 1]


def test_tax_levy_steals_up_to_four():
    # STEAL_GOLD 4 (Fatesworn): a target with gold; it loses up to 4, the player gains it
    states = quiet_market(n=3, gold=0, fatesworn=True)
    rec = states[0]
    rec["waive"] = 1
    give_card(rec, 0, "Tax Levy")
    rec["gold"][2] = 3
    act(states, PLAY_FATE + C["Tax Levy"])  # seat 1 has no gold: seat 2 is forced
    assert rec["gold"].tolist()[:3] == [3, 0, 0] and rec["phase"] == Phase.MARKET


def test_all_defenders_removed_conquers():
    # R53: Conversion after the Defense roll takes the one Defender (into the Raider's
    # Discard Pile): the Tile is conquered without a fight
    states = raid_ready(defender_temple=(("Fighter", 1),))
    rec = states[0]
    rec["waive"] = 1
    give_card(rec, 0, "Conversion")
    act(states, TARGET_SEAT, PICK_FAITHFUL + F["Fighter"])
    assert rec["phase"] == Phase.RESPOND and rec["dice_n"][1] == 0  # before the roll (R71)
    act(states, PASS)
    assert rec["phase"] == Phase.FINALIZE and rec["current_player"] == 0
    act(states, PLAY_FATE + C["Conversion"])  # the one pick is forced
    assert rec["f_discard"][0, F["Fighter"]] == 1 and rec["f_fight"].sum() == 0
    assert rec["dice_n"][1] == 0 and rec["conquered"][1] == 1
    assert rec["phase"] == Phase.ADVANCE and rec["fin"] == 0


def test_removed_combatant_loses_die_and_bonus():
    # R53 with PAY_REMOVE (Bribe, 3 gold): the Fighter (+1 raiding) leaves with the Raid's
    # 6; the Guard's 2 is left against 3 + 1
    states = raid_ready(party=(("Fighter", 1), ("Guard", 1)))
    rec = states[0]
    give_relic(rec, 1, "Shield of Prosperity")
    give_card(rec, 1, "Bribe")
    rec["gold"][1] = 5
    defended(states)  # nothing dispatched yet: Bribe has no target
    legal = ready(states)
    assert rec["phase"] == Phase.FINALIZE and rec["current_player"] == 1
    assert PLAY_FATE + C["Bribe"] not in legal and FLIP + 1 in legal  # only flips (R34)
    act(states, PASS)
    assert rec["phase"] == Phase.DISPATCH
    act(states, PICK_FAITHFUL + F["Fighter"], PICK_FAITHFUL + F["Guard"])  # a forced pass
    assert rec["phase"] == Phase.RESPOND and rec["dice_n"][0] == 0  # before the Raid roll
    act(states, PASS)  # (R71)
    assert rec["phase"] == Phase.FINALIZE and rec["current_player"] == 1
    rec["dice"][0, :2] = [6, 2]
    rec["dice"][1, 0] = 3
    legal = act(states, PLAY_FATE + C["Bribe"])
    assert rec["phase"] == Phase.CHOOSE and rec["current_player"] == 1
    assert legal == {PICK_FAITHFUL + F["Fighter"], PICK_FAITHFUL + F["Guard"]}
    act(states, PICK_FAITHFUL + F["Fighter"])
    assert rec["gold"][1] == 2 and rec["dice_n"][0] == 1 and rec["dice"][0, 0] == 2
    assert rec["phase"] == Phase.FINALIZE and rec["current_player"] == 1  # 2 gold: a flip
    act(states, PASS)
    shield = int(R_A[R["Shield of Prosperity"]])  # DEFENSE_BONUS
    assert rec["totals"].tolist() == [2, 3 + 1 + shield]  # the Guard defends +1
    assert rec["f_pool"][0, F["Fighter"]] == 1 and rec["phase"] == Phase.REINFORCE


def test_all_dispatched_removed_retreats():
    # R53 reading: Slay sacrifices the one dispatched Guard (bottom of the Faithful Deck):
    # the Raider retreats, the Defender's Guard goes home
    states = raid_ready()
    rec = states[0]
    give_relic(rec, 1, "Shield of Chaos")
    give_card(rec, 1, "Slay")
    defended(states)
    decline(states, 1)  # the round after the Defense roll: nothing dispatched to Slay yet
    act(states, PICK_FAITHFUL + F["Guard"])  # a forced pass: the Raid roll's entry
    assert rec["phase"] == Phase.RESPOND and rec["dice_n"][0] == 0  # before the Raid roll
    act(states, PASS)  # (R71)
    assert rec["phase"] == Phase.FINALIZE and rec["current_player"] == 1
    act(states, PLAY_FATE + C["Slay"])  # the one pick is forced
    assert rec["f_deck"][0, 0] == F["Guard"] and rec["f_temple"][1, F["Guard"]] == 1
    # seat 0 has nothing left to reinforce (a forced pass): seat 1's turn
    assert rec["defender"] == -1 and rec["turn_player"] == 1 and rec["f_fight"].sum() == 0


def test_massacre_takes_up_to_two():
    # SACRIFICE_COMBATANT 2: after the first pick the second may be left (pass)
    states = raid_ready(party=(("Guard", 3),), two_player_variant=True)
    rec = states[0]
    give_relic(rec, 1, "Shield of Chaos")
    give_relic(rec, 1, "Sword of Chaos")  # the Treasury's Altar holds the second
    give_card(rec, 1, "Massacre")
    defended(states)
    decline(states, 1)  # the round after the Defense roll: nothing dispatched yet
    act(states, *[PICK_FAITHFUL + F["Guard"]] * 3)  # then a forced pass: the Raid roll
    assert rec["phase"] == Phase.RESPOND and rec["dice_n"][0] == 0  # before the Raid roll
    act(states, PASS)  # (R71)
    legal = act(states, PLAY_FATE + C["Massacre"])  # the first Guard is forced
    assert rec["phase"] == Phase.CHOOSE and legal == {PICK_FAITHFUL + F["Guard"], PASS}
    assert rec["f_fight"][0, F["Guard"]] == 2 and rec["dice_n"][0] == 2
    act(states, PASS)  # the fight goes on with two Guards and their two dice
    assert rec["f_deck"][0, 0] == F["Guard"] and rec["f_deck"][0, 1] != F["Guard"]
    assert rec["dice_n"][0] == 2 and rec["ch_card"] == -1 and rec["fin"] == 0


def test_aegis_protects_the_party():
    # PROTECT_PARTY: after Aegis the Raider's dispatched cannot be taken; Slay is not offered
    states = raid_ready()
    rec = states[0]
    give_relic(rec, 0, "Shield of Grace")
    give_card(rec, 0, "Aegis")
    give_relic(rec, 1, "Shield of Chaos")
    give_card(rec, 1, "Slay")
    defended(states)
    assert ready(states) == {PLAY_FATE + C["Aegis"], PASS}
    act(states, PLAY_FATE + C["Aegis"])
    # seat 1 (Slay, nothing to take yet) is asked about Aegis and in the round after the
    # Defense roll (R70 Reading)
    decline(states, 1, 1)
    assert rec["protect"].tolist() == [1, 0] and rec["phase"] == Phase.DISPATCH
    act(states, PICK_FAITHFUL + F["Guard"])
    # seat 1 is asked before the Raid roll and in the round after it: Slay is not offered
    decline(states, 1, 1)
    assert rec["c_hand"][1, C["Slay"]] == 1 and rec["protect"].tolist() == [0, 0]
    assert rec["phase"] != Phase.FINALIZE


def test_sacrifice_to_deck_bottom_high_priest_protected():
    # R42: the High Priest can never be sacrificed, converted or removed by an opponent
    states = raid_ready(defender_temple=(("High Priest", 1),))
    rec = states[0]
    give_relic(rec, 0, "Shield of Chaos")
    give_card(rec, 0, "Slay")
    act(states, TARGET_SEAT, PICK_FAITHFUL + F["High Priest"])
    # the Raider, holding a Fate card, is asked before the Defense roll and in the round
    # after it (R70 Reading); Slay has no target (the High Priest): it declines both
    decline(states, 0, 0)
    assert rec["phase"] == Phase.DISPATCH
