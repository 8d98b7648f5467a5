"""Foretold: Actions other than Fate cards and Relics (R67, R71).

Playing a Faithful for gold and flipping a Tile (milestone 4), the roll of a group played to
a fight, a Trap springing and the Smite (milestone 5) go on the stack, open a response
window (R69-R70) and resolve after the responses.
"""

from __future__ import annotations

from fatezoo.envs.core.stack import KIND, OWNER
from fatezoo.envs.foretold.cards import T_FLIP
from fatezoo.envs.foretold.state import (
    DIRECTION,
    FLIP,
    K_FLIP,
    K_GOLD,
    K_ROLL,
    K_SMITE,
    K_TRAP,
    PASS,
    PICK_FAITHFUL,
    PICK_RELIC,
    PLAY_FATE,
    PLAY_GOLD,
    RETREAT,
    ROTATION,
    S_CARD,
    TARGET_SEAT,
    USE_RELIC,
    Phase,
)

from .test_fate import C, give_card, quiet_market
from .test_rules import F, R, S, T, W, act, give, give_relic, place_tile, raid_ready, ready


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
    assert rec["stack_n"][0] == 1 and rec["stack"][0, KIND] == K_GOLD
    assert rec["stack"][0, S_CARD] == F["Guard"] and rec["gold"][0] == 0
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
    assert rec["stack"][0, KIND] == K_FLIP and rec["stack"][0, S_CARD] == 4 * 2 + 1
    assert rec["gold"][0] == 0 and rec["side"][0, 2] == 0
    act(states, PASS)
    assert rec["side"][0, 2] == 1 and rec["rot"][0, 2] == 1
    assert rec["phase"] == Phase.MARKET and rec["stack_n"][0] == 0


# ---------------------------------------------------------------- the raid's Actions (R71, R67)


def test_roll_responses_before_and_after():
    # R71: a roll is an Action: the opponents of the rolling side answer before the dice
    # are rolled (fight cards are legal there: the window is part of the fight), the round
    # of R47 / R51 comes after. The Defenders' group and its roll are one entry (R67).
    states = raid_ready()
    rec = states[0]
    give_card(rec, 0, "Sabotage")  # -2 to the opposing Combat Roll
    give_card(rec, 1, "Fury")  # +2 to your Combat Roll
    act(states, TARGET_SEAT, PICK_FAITHFUL + F["Guard"])  # then a forced pass: the group
    assert rec["phase"] == Phase.RESPOND and rec["current_player"] == 0
    assert rec["stack_n"][0] == 1 and rec["stack"][0, KIND] == K_ROLL
    assert rec["stack"][0, OWNER] == 1 and rec["stack"][0, S_CARD] == 1  # the Defender's roll
    assert rec["dice_n"].tolist() == [0, 0] and rec["fin"] == 1  # not rolled yet
    assert ready(states) == {PLAY_FATE + C["Sabotage"], PASS}
    act(states, PLAY_FATE + C["Sabotage"])
    assert rec["phase"] == Phase.RESPOND and rec["current_player"] == 1  # may answer it
    act(states, PASS)  # Sabotage resolves, then the roll
    assert rec["bonus"][1] == -2 and rec["dice_n"][1] == 1 and rec["stack_n"][0] == 0
    # the round after the Defense roll: the Raider has nothing left, the Defender holds Fury
    assert rec["phase"] == Phase.FINALIZE and rec["current_player"] == 1
    act(states, PASS)
    assert rec["phase"] == Phase.DISPATCH
    act(states, PICK_FAITHFUL + F["Guard"])  # then a forced pass: the Raid roll's entry
    assert rec["phase"] == Phase.RESPOND and rec["current_player"] == 1
    assert rec["stack"][0, [KIND, OWNER, S_CARD]].tolist() == [K_ROLL, 0, 0]
    assert rec["dice_n"].tolist() == [0, 1] and rec["fin"] == 2
    act(states, PLAY_FATE + C["Fury"])  # before the Raid roll; then the roll and the round
    assert rec["dice_n"][0] == 1 and rec["fin"] == 0  # nobody had an Action: roll final
    assert rec["totals"][1] == rec["dice"][1, 0] + 1 - 2 + 2  # die, Guard +1, Sabotage, Fury
    assert rec["totals"][0] == rec["dice"][0, 0]


def test_removed_before_the_defense_roll_conquers_without_a_fight():
    # R71 with R53: a Defender taken out before the Defense roll takes its die along (none
    # is rolled); the Tile is conquered, nobody was dispatched, the roll never comes
    states = raid_ready(defender_temple=(("Guard", 1),))
    rec = states[0]
    give_card(rec, 0, "Slay")  # sacrifice an opposing Faithful in this fight (Relic Cost 1)
    give_relic(rec, 0, "Shield of Chaos")  # in the Sanctum's Altar
    act(states, TARGET_SEAT, PICK_FAITHFUL + F["Guard"])
    assert rec["phase"] == Phase.RESPOND and rec["dice_n"][1] == 0
    act(states, PLAY_FATE + C["Slay"])  # one Guard: its pick is forced
    assert rec["conquered"][1] == 1 and rec["dice_n"].tolist() == [0, 0]
    assert rec["f_deck"][0, 0] == F["Guard"] and rec["stack_n"][0] == 0  # sacrificed (R42)
    assert rec["phase"] == Phase.ADVANCE and rec["fin"] == 0


def test_trap_spring_is_an_action_with_a_window():
    # R37, R67: the Trap turns at once (seen by all); its effect waits for the responses:
    # the Raider shields himself from the Spike Trap's 3 damage
    states = raid_ready(defender_temple=())
    rec = states[0]
    place_tile(rec, 1, 4, "Spike Trap")  # under seat 1's Treasury
    give_card(rec, 0, "Sanctuary")  # Prevent the next 3 damage
    act(states, TARGET_SEAT, DIRECTION + W, DIRECTION + S)
    assert rec["phase"] == Phase.RESPOND and rec["current_player"] == 0
    assert rec["side"][1, 4] == 1 and rec["life"][0] == 20
    assert rec["stack"][0, [KIND, OWNER, S_CARD]].tolist() == [K_TRAP, 1, 4]
    assert RETREAT not in ready(states)  # no retreat in response to a Trap (R37)
    act(states, PLAY_FATE + C["Sanctuary"])
    assert rec["life"][0] == 20 and rec["shield"][0] == 0
    assert rec["phase"] == Phase.ADVANCE and rec["stack_n"][0] == 0


def test_smite_responses_before_and_after_the_roll():
    # R58, R71: the Smite is the Raider's Action: the Defender answers before the Smiting
    # Die is rolled and again, seeing the face, before the damage
    states = raid_ready(party=(("Guard", 2),), defender_temple=())
    rec = states[0]
    give_card(rec, 1, "Sanctuary", 2)
    act(states, TARGET_SEAT, DIRECTION + S, DIRECTION + S)
    assert rec["phase"] == Phase.RESPOND and rec["current_player"] == 1
    assert rec["stack"][0, KIND] == K_SMITE and rec["stack"][0, S_CARD] == 0  # not rolled yet
    assert rec["smite_roll"] == 0 and rec["conquered"][9] == 1
    act(states, PASS)  # the die is rolled; the damage waits for the second window
    face = int(rec["smite_roll"])
    assert face in (3, 4, 5, 6) and rec["life"][1] == 20
    assert rec["phase"] == Phase.RESPOND and rec["current_player"] == 1
    assert rec["stack_n"][0] == 1 and rec["stack"][0, S_CARD] == face
    act(states, PLAY_FATE + C["Sanctuary"])
    assert rec["life"][1] == 20 - max(0, 2 + face - 3)  # Party 2 + die, 3 prevented
    assert rec["phase"] == Phase.REINFORCE and rec["stack_n"][0] == 0


def test_defender_may_flip_during_raid():
    # R34, R51: while their Temple is raided the Defender may flip a Tile in the rounds of
    # the fight and as a response, paying the Flip Cost; the Entrance's B-side +1 Combat
    # Bonus then counts for the fight on it
    states = raid_ready()
    rec = states[0]
    rec["gold"][1] = 3
    act(states, TARGET_SEAT, PICK_FAITHFUL + F["Guard"])  # the Defense roll (nobody answers)
    assert rec["phase"] == Phase.FINALIZE and rec["current_player"] == 1
    # Treasury 2, Entrance 3, Sanctum 2, Pathway 3; the Heart (4) is too dear
    assert ready(states) == {FLIP + 0, FLIP + 1, FLIP + 2, FLIP + 5, PASS}
    act(states, FLIP + 1)  # nobody answers; the Entrance turns (rotation kept)
    assert rec["side"][1, 1] == 1 and rec["rot"][1, 1] == 0 and rec["gold"][1] == 0
    assert rec["phase"] == Phase.DISPATCH  # the round went on: nobody had an Action left
    act(states, PICK_FAITHFUL + F["Guard"])  # a forced pass: the Raid roll, the totals
    assert rec["totals"][1] == rec["dice"][1, 0] + 1 + 1  # die, Guard +1, Entrance B +1
    # outside a Raid on their Temple nobody but the turn player flips
    states = raid_ready()
    rec = states[0]
    rec["gold"][1] = 3
    rec["phase"] = Phase.MARKET
    give(rec, 0, "f_temple", "Guard", 2)  # the second keeps the Step a decision
    act(states, PLAY_GOLD + F["Guard"])  # a Faithful for gold: seat 1 is not asked
    assert rec["phase"] == Phase.MARKET and rec["gold"][0] == 1


def test_flip_needing_rearrangement_only_in_marketplace():
    # R33: the Armory's B-side has one doorway (S); under the Treasury (doorway S) it must
    # turn to rotation 2. In the Marketplace Step the flip chooses that rotation; the
    # Defender's flip during a Raid keeps the rotation, so it is not offered there
    states = raid_ready()
    rec = states[0]
    place_tile(rec, 1, 4, "Armory")
    rec["gold"][1] = 3
    act(states, TARGET_SEAT, PICK_FAITHFUL + F["Guard"])
    legal = ready(states)
    assert FLIP + 4 not in legal and FLIP + 1 in legal
    states = quiet_market(p=1, gold=3)
    rec = states[0]
    place_tile(rec, 1, 4, "Armory")
    legal = act(states, FLIP + 4)  # one rotation fits: chosen without asking
    assert rec["side"][1, 4] == 1 and rec["rot"][1, 4] == 2 and rec["gold"][1] == 0


def test_defender_flip_as_a_response_searches_for_its_owner():
    # R34, R70, R39: the Defender, able to pay for a flip, is asked in the window before
    # the Raid roll; the Library (rotation 2: its B-side doorway faces the Treasury) turns
    # and its owner, not the turn player, searches the Relic Deck for an Oracle Scroll
    states = raid_ready()
    rec = states[0]
    place_tile(rec, 1, 4, "Library", rot=2)
    rec["gold"][1] = int(T_FLIP[T["Library"]])
    act(states, TARGET_SEAT, PICK_FAITHFUL + F["Guard"])  # the Defense roll
    act(states, PASS)  # the Defender passes in the round: the Raider dispatches
    act(states, PICK_FAITHFUL + F["Guard"])  # a forced pass: the Raid roll's window
    legal = ready(states)
    assert rec["phase"] == Phase.RESPOND and rec["current_player"] == 1
    assert rec["stack"][0, KIND] == K_ROLL and rec["dice_n"][0] == 0
    assert FLIP + 4 in legal and PASS in legal
    act(states, FLIP + 4)
    legal = ready(states)
    assert rec["phase"] == Phase.SEARCH and rec["current_player"] == 1 and rec["actor"] == 1
    assert rec["side"][1, 4] == 1 and rec["rot"][1, 4] == 2 and rec["gold"][1] == 0
    assert legal == {PICK_RELIC + R["Oracle Scroll"], PASS}
    act(states, PICK_RELIC + R["Oracle Scroll"])
    assert rec["r_owned"][1, R["Oracle Scroll"]] == 1 and rec["r_owned"][0].sum() == 0
    assert rec["actor"] == -1 and rec["dice_n"][0] > 0  # the Raid roll resolved after it


def test_asked_seats_depend_only_on_public_information():
    # R70 Reading: whether a seat is asked is public (agent_selection), so two positions
    # that differ only in seat 1's hidden hand ask the same seats. Seat 1 holds Sanctuary
    # (a response to any Action) or Windfall (own turn only): asked either way, the second
    # with only pass, still a decision (rules.asks: the core does not pass for it). Seat 2
    # holds no Fate card and no Relic: skipped.
    for card, want in (("Sanctuary", {PLAY_FATE + C["Sanctuary"], PASS}),
                       ("Windfall", {PASS})):
        states = quiet_market(n=3)
        rec = states[0]
        give_card(rec, 1, card)
        give(rec, 0, "f_temple", "Guard")
        legal = act(states, PLAY_GOLD + F["Guard"])
        assert rec["phase"] == Phase.RESPOND and rec["current_player"] == 1, card
        assert legal == want, card
        act(states, PASS)
        assert rec["phase"] == Phase.MARKET and rec["current_player"] == 0
        assert rec["gold"][0] == 1 and rec["stack_n"][0] == 0
