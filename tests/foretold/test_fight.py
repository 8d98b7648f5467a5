"""Foretold milestone 3: the rounds of a fight and the fight- and dice-timed Fate cards and
Relics (RULES.md R47, R49, R51, R52, R55, R66, R73).

Hand-built positions with the helpers of test_rules.py: seat 0 raids seat 1's Entrance
(one Station) with the Faithful given; dice are set by hand where a total must be exact.
"""

from __future__ import annotations

import numpy as np

from fatezoo.envs.core.dice import roll
from fatezoo.envs.foretold import rules
from fatezoo.envs.foretold.state import (
    COMBAT_DIE,
    MAX_DICE,
    PASS,
    PICK_DIE_A,
    PICK_FAITHFUL,
    PLAY_FATE,
    TARGET_SEAT,
    USE_RELIC,
    Phase,
)

from .test_fate import C, give_card
from .test_rules import F, R, act, decline, give_relic, raid_ready, ready

DEFENSE_DIE = PICK_DIE_A + MAX_DICE  # the Defense roll's first die


def defended(states):
    """Seat 0 raids seat 1, whose one Guard defends the Entrance: the Defense roll is made."""
    act(states, TARGET_SEAT, PICK_FAITHFUL + F["Guard"])


def test_defense_roll_and_response_windows():
    # R47: after the Defense roll a round lets each side act before the Raider dispatches
    states = raid_ready()
    rec = states[0]
    give_card(rec, 1, "Fury")  # +2 to your Combat Roll in this fight
    defended(states)
    assert rec["phase"] == Phase.FINALIZE and rec["fin"] == 1 and rec["dice_n"][1] == 1
    assert rec["current_player"] == 1  # the Raider has no Action: skipped (R70)
    assert ready(states) == {PLAY_FATE + C["Fury"], PASS}
    act(states, PLAY_FATE + C["Fury"])  # nobody can respond; it resolves, the round restarts
    assert rec["bonus"][1] == 2 and rec["c_discard"][C["Fury"]] == 1
    assert rec["phase"] == Phase.DISPATCH and rec["fin"] == 0 and rec["current_player"] == 0
    act(states, PICK_FAITHFUL + F["Guard"])  # then a forced pass: the Raid roll, the totals
    assert rec["totals"][1] == rec["dice"][1, 0] + 1 + 2  # Guard defends +1, Fury +2
    assert rec["totals"][0] == rec["dice"][0, 0] and rec["bonus"].tolist() == [0, 0]


def test_raid_roll_then_finalize():
    # R49: the Raid roll is followed by the finalize round, starting with the Raider
    states = raid_ready()
    rec = states[0]
    give_card(rec, 0, "Blessing")  # Grace, +2
    defended(states)
    assert rec["phase"] == Phase.RESPOND and rec["dice_n"][1] == 0  # before the roll (R71)
    act(states, PASS)
    assert rec["phase"] == Phase.FINALIZE and rec["current_player"] == 0 and rec["fin"] == 1
    act(states, PASS)  # the Defender has no Action: the round ends, on to the dispatch
    assert rec["phase"] == Phase.DISPATCH
    act(states, PICK_FAITHFUL + F["Guard"])  # then a forced pass: the Raid roll
    assert rec["phase"] == Phase.FINALIZE and rec["fin"] == 2 and rec["dice_n"][0] == 1
    assert rec["current_player"] == 0 and rec["totals"].tolist() == [0, 0]  # not final yet
    act(states, PLAY_FATE + C["Blessing"])
    assert rec["totals"][0] == rec["dice"][0, 0] + 2 and rec["fin"] == 0


def test_finalize_round_until_everyone_passes():
    # R51: each Action restarts the round with the Raider; the roll is final when every
    # living seat has passed in a row; responses to a fight card stack on it (R69)
    states = raid_ready()
    rec = states[0]
    give_card(rec, 0, "Blessing")  # Raider +2
    give_card(rec, 1, "Sabotage")  # -2 to the opposing Combat Roll
    give_card(rec, 1, "Fury")  # Defender +2
    defended(states)
    assert rec["phase"] == Phase.RESPOND and rec["dice_n"][1] == 0  # before the roll (R71)
    act(states, PASS)
    act(states, PASS, PASS)  # Raider, then Defender pass: on to the dispatch
    act(states, PICK_FAITHFUL + F["Guard"])  # then a forced pass: the Raid roll's entry
    assert rec["phase"] == Phase.RESPOND and rec["dice_n"][0] == 0  # before the Raid roll
    act(states, PASS)  # (R71)
    rec["dice"][0, 0] = 5
    rec["dice"][1, 0] = 2
    act(states, PLAY_FATE + C["Blessing"])
    assert rec["phase"] == Phase.RESPOND and rec["current_player"] == 1
    act(states, PLAY_FATE + C["Sabotage"])  # in response: resolves first, then Blessing
    assert rec["bonus"][0] == 0 and rec["stack_n"][0] == 0
    # the round restarted with the Raider (no Action left: skipped); the Defender holds Fury
    assert rec["phase"] == Phase.FINALIZE and rec["current_player"] == 1 and rec["fin"] == 2
    assert ready(states) == {PLAY_FATE + C["Fury"], PASS}
    act(states, PLAY_FATE + C["Fury"])
    # everyone passed (nobody had an Action): 5 + 0 against 2 + 1 (Guard) + 2 (Fury)
    assert rec["totals"].tolist() == [5, 5] and rec["conquered"][1] == 0  # tie: Defender
    assert rec["phase"] == Phase.REINFORCE
    assert [rec["c_discard"][C[x]] for x in ("Blessing", "Sabotage", "Fury")] == [1, 1, 1]


def test_fate_timing_fight_and_dice():
    # R73: `fight` cards only for a side of the fight, `dice` cards for anyone while a
    # combat die is on the table; neither outside a fight's round
    states = raid_ready(n=3)
    rec = states[0]
    give_card(rec, 2, "Fury")
    give_card(rec, 2, "Foresight")  # Wisdom, reroll one die
    assert PLAY_FATE + C["Fury"] not in ready(states)
    defended(states)
    # before the Defense roll seat 2 is asked (it holds Fate cards, R70 Reading): no die
    # on the table, not a side: nothing to play
    decline(states, 2)
    # the round: seat 0 (no Action) skipped, seat 1 (none) skipped, seat 2: the dice card
    assert rec["phase"] == Phase.FINALIZE and rec["current_player"] == 2
    assert ready(states) == {PLAY_FATE + C["Foresight"], PASS}


def test_runestone_needs_a_die_on_the_table():
    # R66: the Runestone (reroll one die on the table, sacrificed) is usable only once a
    # combat die is on the table; its owner picks the die at resolution
    states = raid_ready()
    rec = states[0]
    give_relic(rec, 0, "Runestone")
    rec["phase"] = Phase.MARKET
    assert USE_RELIC + R["Runestone"] not in ready(states)
    rec["phase"] = Phase.RAID_TARGET
    defended(states)
    assert rec["phase"] == Phase.FINALIZE and rec["current_player"] == 0
    assert USE_RELIC + R["Runestone"] in ready(states)
    legal = act(states, USE_RELIC + R["Runestone"])
    assert rec["phase"] == Phase.PICK_DIE and legal == {DEFENSE_DIE, PASS}
    rng = rec["rng"].copy()
    want = roll(COMBAT_DIE, rng)
    act(states, DEFENSE_DIE)
    assert rec["dice"][1, 0] == want and rec["r_deck"][0, 0] == R["Runestone"]  # R64
    assert rec["r_owned"][0, R["Runestone"]] == 0 and rec["phase"] == Phase.DISPATCH


def test_war_horn_and_bloodlust_before_the_raid_roll():
    # R66 War Horn (+2 in a fight you are in, sacrificed); Bloodlust (ADD_DIE) before
    # the Raider's roll: the extra die is rolled with it
    states = raid_ready()
    rec = states[0]
    give_relic(rec, 0, "War Horn")
    give_card(rec, 0, "Bloodlust")
    defended(states)
    act(states, USE_RELIC + R["War Horn"], PLAY_FATE + C["Bloodlust"])
    assert rec["bonus"][0] == 2 and rec["extra"][0] == 1 and rec["phase"] == Phase.DISPATCH
    act(states, PICK_FAITHFUL + F["Guard"])  # forced pass: one Guard rolls two dice
    assert rec["dice_n"][0] == 2
    assert rec["totals"][0] == rec["dice"][0, 0] + rec["dice"][0, 1] + 2


def test_divine_favor_wins_ties_and_precision_sets_a_die():
    # WIN_TIES: the Raider wins a tie; SET_DIE (Precision): one of your dice turns to 6
    states = raid_ready()
    rec = states[0]
    give_relic(rec, 0, "Shield of Grace")  # Divine Favor costs 1 Grace Relic
    give_card(rec, 0, "Divine Favor")
    defended(states)
    assert rec["phase"] == Phase.RESPOND and rec["dice_n"][1] == 0  # before the roll (R71)
    act(states, PASS)
    act(states, PASS)
    act(states, PICK_FAITHFUL + F["Guard"])  # then a forced pass: the Raid roll
    rec["dice"][0, 0] = 4
    rec["dice"][1, 0] = 3  # 4 against 3 + 1
    act(states, PLAY_FATE + C["Divine Favor"])
    assert rec["totals"].tolist() == [4, 4] and rec["conquered"][1] == 1
    assert rec["phase"] == Phase.ADVANCE  # the recall of the one Guard was forced

    states = raid_ready()
    rec = states[0]
    give_relic(rec, 0, "Shield of Wisdom")
    give_card(rec, 0, "Precision")
    defended(states)
    # no die of its own on the table yet: asked before the Defense roll and in the round
    # after it (R70 Reading: it holds a Fate card), the Raider has nothing to play
    decline(states, 0, 0)
    assert rec["phase"] == Phase.DISPATCH
    act(states, PICK_FAITHFUL + F["Guard"])  # then a forced pass: the Raid roll
    rec["dice"][0, 0] = 2
    rec["dice"][1, 0] = 5
    act(states, PLAY_FATE + C["Precision"])  # one die of its side below 6: picked, forced
    assert rec["dice"][0, 0] == 6 and rec["totals"].tolist() == [6, 6]
    assert rec["conquered"][1] == 0


def test_mercenaries_pay_for_a_bonus():
    # PAY_BONUS: pay 2 gold at resolution for +4 (Relic Cost 2: two Prosperity Relics)
    states = raid_ready(two_player_variant=True)  # the Treasury's Altar holds the second
    rec = states[0]
    give_relic(rec, 0, "Shield of Prosperity")
    give_relic(rec, 0, "Shrine of Prosperity")
    give_card(rec, 0, "Mercenaries")
    rec["gold"][0] = 1
    saved = states.copy()
    defended(states)
    decline(states, 0, 0)  # cannot pay: not offered (asked, R70 Reading: nothing to play)
    assert rec["phase"] == Phase.DISPATCH
    states = saved
    rec = states[0]
    rec["gold"][0] = 3
    defended(states)
    assert rec["current_player"] == 0 and PLAY_FATE + C["Mercenaries"] in ready(states)
    act(states, PLAY_FATE + C["Mercenaries"])
    assert rec["gold"][0] == 1 and rec["bonus"][0] == 4


def test_rally_recalls_one_more():
    # R55 with RECALL_EXTRA (Rally): a won fight recalls two dispatched Faithful
    states = raid_ready(party=(("Guard", 3),))
    rec = states[0]
    give_card(rec, 0, "Rally")
    defended(states)
    assert rec["phase"] == Phase.RESPOND and rec["dice_n"][1] == 0  # before the roll (R71)
    act(states, PASS)
    act(states, PASS)
    act(states, *[PICK_FAITHFUL + F["Guard"]] * 3)  # then a forced pass
    rec["dice"][0, :3] = [6, 6, 6]
    rec["dice"][1, 0] = 1
    act(states, PLAY_FATE + C["Rally"])  # both recalls are forced (one type)
    assert rec["conquered"][1] == 1 and rec["recall_more"] == 0
    assert rec["f_party"][0, F["Guard"]] == 2 and rec["f_discard"][0, F["Guard"]] == 1
    assert np.array_equal(rec["f_fight"][0], np.zeros_like(rec["f_fight"][0]))


def test_assignment_asked_only_when_it_matters():
    # R50: the Raider dispatches a Strategist (+3 when its die shows 1 or 2) and a Guard.
    # Over seeds: a roll with one die <= 2 and one > 2 asks the Raider which die the
    # Strategist gets (`pick_die`); any other roll is assigned without asking, the lowest
    # die to the Strategist. The Combat Roll counts the bonus only for the die assigned.
    asked = quiet = 0
    for seed in range(40):
        states = raid_ready(seed=seed, party=(("Strategist", 1), ("Guard", 1)))
        rec = states[0]
        defended(states)
        act(states, PICK_FAITHFUL + F["Strategist"], PICK_FAITHFUL + F["Guard"])
        d = [int(x) for x in rec["dice"][0, :2]]
        low, high = int(np.argmin(d)), int(np.argmax(d))
        if min(d) <= 2 < max(d):
            asked += 1
            assert rec["phase"] == Phase.ASSIGN and rec["current_player"] == 0
            assert ready(states) == {PICK_DIE_A, PICK_DIE_A + 1} and rec["assign_left"] == 1
            other = states.copy()
            act(states, PICK_DIE_A + low)
            assert rec["die_to"][0, low] == F["Strategist"] and rec["die_to"][0, high] == -1
            assert rec["totals"][0] == sum(d) + 1 + 3  # Strategist raids +1, its die +3
            act(other, PICK_DIE_A + high)  # a worse assignment: no bonus
            assert other[0]["totals"][0] == sum(d) + 1
        else:
            quiet += 1
            assert rec["phase"] != Phase.ASSIGN and rec["totals"][0] > 0
            assert rec["die_to"][0].tolist().count(F["Strategist"]) == 1
            assert rec["die_to"][0, low] == F["Strategist"]
            assert rec["totals"][0] == sum(d) + 1 + (3 if min(d) <= 2 else 0)
    assert asked >= 5 and quiet >= 5


def test_strategist_removed_takes_its_assigned_die():
    # R50 with R53: a Strategist taken out of the fight takes the die assigned to it (even
    # if it is not the lowest), any other Faithful the highest die assigned to nobody
    rec = raid_ready()[0]
    rec["dice"][0, :4] = [3, 6, 1, 4]
    rec["dice_n"][0] = 4
    rec["die_to"][0, :4] = [F["Strategist"], -1, -1, -1]
    rules.drop_die(rec, 0, F["Strategist"])
    assert rec["dice"][0, :3].tolist() == [6, 1, 4] and rec["die_to"][0, :3].tolist() == [-1] * 3
    rules.drop_die(rec, 0, F["Fighter"])
    assert rec["dice"][0, :2].tolist() == [1, 4] and rec["dice_n"][0] == 2
