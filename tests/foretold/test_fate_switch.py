"""Foretold R20: changing Fate Relics returns the old Fate's Relics first, then acquires.

Hand-built positions with the helpers of test_rules.py. ``relic_row`` lays out the Relic
Row pile by pile (bottom first); every edit keeps each card in exactly one place. Fate
Relics are single copies, in type order Crown, Shield, Shrine, Sword per Fate; the two
Altars of ``two_player_variant`` (Sanctum, Treasury B-side) let a seat hold two.
"""

from __future__ import annotations

import numpy as np
import pytest

import fatezoo
from fatezoo.envs.core import kernels as K
from fatezoo.envs.foretold import SPEC, check_record
from fatezoo.envs.foretold.state import (
    BUY_RELIC,
    FLIP,
    PICK_RELIC,
    PLAY_FATE,
    R_FROM_DECK,
    SPOT,
    SPOTS,
    Phase,
)

from .test_fate import C, give_card, quiet_market
from .test_rules import R, act, give_relic, market, place_tile, relic_to_row

COVER = SPOT + SPOTS  # "Relic Row spot 0"; spot k is COVER + k


def relic_row(rec, *piles):
    """The Relic Row as ``piles`` (names, bottom first; ``()`` an empty spot); the cards it
    held before go to the Relic Deck."""
    for k in range(SPOTS):
        for i in range(int(rec["r_row_n"][k])):
            rec["r_deck"][0, rec["r_deck_n"][0]] = rec["r_row"][k, i]
            rec["r_deck_n"][0] += 1
            rec["r_row"][k, i] = -1
        rec["r_row_n"][k] = 0
    for k, pile in enumerate(piles):
        for name in pile:
            relic_to_row(rec, k, name)


def row(rec):
    """The Relic Row by name, each pile bottom first."""
    names = {v: k for k, v in R.items()}
    return [[names[int(x)] for x in rec["r_row"][k, : rec["r_row_n"][k]]] for k in range(SPOTS)]


def owned(rec, p):
    return {name for name, r in R.items() if rec["r_owned"][p, r]}


def relic_return(states, viewer):
    """The observation's ``relic_return`` field: (the Relic acquired, its source) or None."""
    obs = np.zeros(SPEC.obs_size, np.float32)
    K.encode_one(states, 0, viewer, obs)
    field = SPEC.obs.view(obs, "relic_return")
    assert ((field == 0) | (field == 1)).all()
    hot = np.flatnonzero(field)
    if not hot.size:
        return None
    assert hot.size == 2
    return int(hot[0]), int(hot[1]) - len(R)


def wisdom_buyer(gold, *piles):
    """Seat 0's Marketplace Step holding Shield and Sword of Wisdom (two Altars)."""
    states = market(2, p=0, gold=gold, two_player_variant=True)
    rec = states[0]
    relic_row(rec, *piles)
    give_relic(rec, 0, "Shield of Wisdom")
    give_relic(rec, 0, "Sword of Wisdom")
    check_record(rec)
    return states


def test_loader_refuses_fate_relics_of_two_fates_or_more_than_the_altars():
    # R20: a seat's Fate Relics are of one Fate, one per Altar. Seat 0 holds Shield and
    # Sword of Wisdom on its two Altars; every card stays in exactly one place.
    rec = wisdom_buyer(5)[0]
    give_relic(rec, 0, "Sword of Chaos")
    with pytest.raises(ValueError, match="^foretold: seat 0's Fate Relics must be of one "
                                         "Fate$"):
        check_record(rec)
    rec = wisdom_buyer(5)[0]
    give_relic(rec, 0, "Crown of Wisdom")
    with pytest.raises(ValueError, match="^foretold: seat 0's Fate Relics must be at most "
                                         "its 2 Altars$"):
        check_record(rec)


def test_switching_fate_returns_first_then_covers_a_chosen_pile():
    # The audit's example: one empty spot (5), Sword of Chaos alone on spot 2, the buyer
    # holding two Wisdom Relics. The Shield of Wisdom goes to the empty spot; the row is then
    # full, so the Sword of Wisdom covers the pile the buyer picks, any but spot 2's
    states = wisdom_buyer(5, ["Runestone"], ["Healing Draught"], ["Sword of Chaos"], ["Ward"],
                          ["War Horn", "Runestone"], [])
    rec = states[0]
    legal = act(states, BUY_RELIC + 2)
    assert rec["phase"] == Phase.COVER_RELIC and rec["current_player"] == 0
    assert legal == {COVER + k for k in (0, 1, 3, 4, 5)}
    assert rec["gold"][0] == 2  # Sword of Chaos: 3 gold, paid at the purchase
    assert rec["r_held"] == R["Sword of Wisdom"] and owned(rec, 0) == set()
    assert row(rec)[2] == ["Sword of Chaos"] and row(rec)[5] == ["Shield of Wisdom"]
    assert (rec["r_take"], rec["r_from"], rec["r_then"]) == (R["Sword of Chaos"], 2,
                                                             Phase.MARKET)
    for viewer in (0, 1):  # public: both seats see the pending acquisition
        assert relic_return(states, viewer) == (R["Sword of Chaos"], 2)
    act(states, COVER + 4)
    assert row(rec) == [["Runestone"], ["Healing Draught"], [], ["Ward"],
                        ["War Horn", "Runestone", "Sword of Wisdom"], ["Shield of Wisdom"]]
    assert owned(rec, 0) == {"Sword of Chaos"} and rec["gold"][0] == 2  # no refund
    assert rec["phase"] == Phase.MARKET and rec["r_held"] == -1 and rec["r_take"] == -1
    assert rec["actor"] == -1 and relic_return(states, 0) is None


def test_switching_fate_with_a_full_row_asks_every_cover():
    # A full row: each returned Relic (Shield, then Sword of Wisdom) asks for its pile; one
    # pile may be covered twice; the bought Sword of Chaos's pile is never offered, and its
    # Ward is the top once the Sword leaves
    states = wisdom_buyer(3, ["Runestone"], ["Healing Draught"], ["Ward"],
                          ["Ward", "Sword of Chaos"], ["War Horn"], ["Runestone"])
    rec = states[0]
    legal = act(states, BUY_RELIC + 3)
    assert rec["phase"] == Phase.COVER_RELIC and rec["r_held"] == R["Shield of Wisdom"]
    assert legal == {COVER + k for k in (0, 1, 2, 4, 5)}
    assert owned(rec, 0) == {"Sword of Wisdom"}  # still to return
    legal = act(states, COVER + 0)
    assert rec["phase"] == Phase.COVER_RELIC and rec["r_held"] == R["Sword of Wisdom"]
    assert legal == {COVER + k for k in (0, 1, 2, 4, 5)} and owned(rec, 0) == set()
    act(states, COVER + 0)
    assert row(rec) == [["Runestone", "Shield of Wisdom", "Sword of Wisdom"],
                        ["Healing Draught"], ["Ward"], ["Ward"], ["War Horn"], ["Runestone"]]
    assert owned(rec, 0) == {"Sword of Chaos"} and rec["gold"][0] == 0
    assert rec["phase"] == Phase.MARKET


def test_free_buy_of_another_fate_returns_first():
    # R20 with FREE_BUY (Trade Route, at most 4): the resolving effect's pick starts the
    # returns; the Shield of Wisdom covers a pile of its owner's choice (not spot 1's), then
    # the Sword of Chaos is taken free and the stack resolves on (back to the Marketplace)
    states = quiet_market(gold=1)
    rec = states[0]
    rec["waive"] = 1  # Trade Route's Relic Cost 1 (Prosperity)
    give_card(rec, 0, "Trade Route")
    relic_row(rec, ["Runestone"], ["Sword of Chaos"], ["Ward"], ["War Horn"], ["Runestone"],
              ["Healing Draught"])
    give_relic(rec, 0, "Shield of Wisdom")
    act(states, PLAY_FATE + C["Trade Route"])
    assert rec["phase"] == Phase.CHOOSE
    legal = act(states, SPOT + SPOTS + 1)
    assert rec["phase"] == Phase.COVER_RELIC and rec["current_player"] == 0
    assert rec["ch_card"] == -1 and rec["r_then"] == Phase.CHOOSE and rec["actor"] == 0
    assert legal == {COVER + k for k in (0, 2, 3, 4, 5)}
    act(states, COVER + 5)
    assert row(rec)[1] == [] and row(rec)[5] == ["Healing Draught", "Shield of Wisdom"]
    assert owned(rec, 0) == {"Sword of Chaos"} and rec["gold"][0] == 1
    assert rec["phase"] == Phase.MARKET and rec["c_discard"][C["Trade Route"]] == 1
    assert rec["actor"] == -1 and rec["r_take"] == -1


@pytest.mark.parametrize("source", ["pile", "deck"])
def test_buy_any_of_another_fate_returns_first(source):
    # R20 with BUY_ANY (Everything Has a Price, 8 gold at resolution): the same order from a
    # pile top (its pile is not offered) or from the Relic Deck (every pile is; the deck is
    # searched and shuffled when the returns are done)
    states = quiet_market(gold=9)
    rec = states[0]
    rec["waive"] = 1  # Relic Cost 3
    give_card(rec, 0, "Everything Has a Price")
    top = ["Crown of Chaos"] if source == "pile" else ["Runestone"]
    relic_row(rec, ["Runestone"], ["Ward"], top, ["War Horn"], ["Runestone"],
              ["Healing Draught"])
    give_relic(rec, 0, "Shield of Wisdom")
    deck = sorted(rec["r_deck"][0, :rec["r_deck_n"][0]].tolist())
    act(states, PLAY_FATE + C["Everything Has a Price"])
    legal = act(states, PICK_RELIC + R["Crown of Chaos"])
    assert rec["phase"] == Phase.COVER_RELIC and rec["gold"][0] == 1
    want = (0, 1, 3, 4, 5) if source == "pile" else range(SPOTS)
    assert legal == {COVER + k for k in want}
    assert rec["r_from"] == (2 if source == "pile" else R_FROM_DECK)
    act(states, COVER + 1)
    assert row(rec)[1] == ["Ward", "Shield of Wisdom"]
    assert owned(rec, 0) == {"Crown of Chaos"} and rec["gold"][0] == 1
    assert rec["phase"] == Phase.MARKET
    if source == "pile":
        assert row(rec)[2] == [] and sorted(rec["r_deck"][0, :rec["r_deck_n"][0]].tolist()) == deck
    else:
        deck.remove(R["Crown of Chaos"])
        assert sorted(rec["r_deck"][0, :rec["r_deck_n"][0]].tolist()) == deck


def test_flip_search_of_another_fate_returns_first():
    # R20 with a flip search (R39, the Forge: a Sword): the Shield of Chaos goes back first,
    # covering any pile (the Sword comes from the deck), then the Sword of Grace is taken
    states = quiet_market(gold=4)
    rec = states[0]
    place_tile(rec, 0, 4, "Forge")
    relic_row(rec, ["Runestone"], ["Ward"], ["Runestone"], ["War Horn"], ["Runestone"],
              ["Healing Draught"])
    give_relic(rec, 0, "Shield of Chaos")
    act(states, FLIP + 4)
    assert rec["phase"] == Phase.SEARCH
    legal = act(states, PICK_RELIC + R["Sword of Grace"])
    assert rec["phase"] == Phase.COVER_RELIC and legal == {COVER + k for k in range(SPOTS)}
    assert (rec["r_take"], rec["r_from"], rec["r_then"]) == (R["Sword of Grace"],
                                                             R_FROM_DECK, Phase.SEARCH)
    assert R["Sword of Grace"] in rec["r_deck"][0, :rec["r_deck_n"][0]]  # taken after the returns
    act(states, COVER + 3)
    assert row(rec)[3] == ["War Horn", "Shield of Chaos"] and owned(rec, 0) == {"Sword of Grace"}
    assert R["Sword of Grace"] not in rec["r_deck"][0, :rec["r_deck_n"][0]]
    assert rec["phase"] == Phase.MARKET and rec["actor"] == -1


def pending():
    """The position of the first test, waiting on the Sword of Wisdom's cover."""
    states = wisdom_buyer(5, ["Runestone"], ["Healing Draught"], ["Sword of Chaos"], ["Ward"],
                          ["War Horn", "Runestone"], [])
    act(states, BUY_RELIC + 2)
    return states


def test_loader_refuses_an_inconsistent_return():
    # The record of a change of Fate waiting on its returns (r_take, r_from, r_then, r_held,
    # actor) must be one the rules can reach; each impossible variation is refused by name
    def refused(edit, match):
        states = pending()
        rec = states[0]
        check_record(rec)
        edit(rec)
        with pytest.raises(ValueError, match=match):
            check_record(rec)
        return states

    def nothing_held(rec):  # the Sword of Wisdom back with its owner: nothing returning
        rec["r_owned"][0, rec["r_held"]] += 1
        rec["r_held"] = -1

    refused(nothing_held, "r_held must be a returned Fate Relic")
    refused(lambda rec: rec.__setitem__("r_take", -1), "r_take/r_from/r_then must be all set")
    refused(lambda rec: rec.__setitem__("r_from", 3), "r_from must be the Relic Row spot "
                                                      "topped by the Relic acquired")
    refused(lambda rec: rec.__setitem__("r_from", R_FROM_DECK), "r_from must be the Relic "
                                                                "Deck, holding the Relic")
    refused(lambda rec: rec.__setitem__("r_then", Phase.SEARCH), "the Relic Deck for a flip "
                                                                 "search")
    refused(lambda rec: rec.__setitem__("r_then", Phase.REINFORCE), "r_then must be -1 or")

    def same_fate(rec):  # acquiring a Wisdom Relic returns no Wisdom Relic
        relic_to_row(rec, 0, "Crown of Wisdom")
        rec["r_take"], rec["r_from"] = R["Crown of Wisdom"], 0

    refused(same_fate, "r_held must be a Fate Relic of another Fate")

    def empty_spot(rec):  # a spot is empty: the Relic would have gone there
        rec["r_deck"][0, rec["r_deck_n"][0]] = rec["r_row"][0, 0]
        rec["r_deck_n"][0] += 1
        rec["r_row"][0, 0] = -1
        rec["r_row_n"][0] = 0

    refused(empty_spot, "no empty Relic Row spot")

    def other_seat(rec):  # a purchase is the turn player's
        rec["actor"] = rec["current_player"] = 1

    refused(other_seat, "a purchase .* by the turn player")

    def after_the_cover(rec):  # back in the Marketplace with the acquisition still pending
        rec["r_row"][0, 1] = rec["r_held"]
        rec["r_row_n"][0] = 2
        rec["r_held"] = -1
        rec["phase"] = Phase.MARKET

    states = refused(after_the_cover, "r_then must be set only while a returned Relic waits")
    env = fatezoo.make("foretold", two_player_variant=True)
    with pytest.raises(ValueError, match="^foretold: saved state 0 is corrupt: r_then"):
        env.load_state(states.tobytes())


def test_a_pending_return_loads_and_plays_on():
    # the sound record loads into an env, which asks seat 0 for the cover; the cover
    # completes the purchase
    states = pending()
    env = fatezoo.make("foretold", two_player_variant=True)
    env.load_state(states.tobytes())
    assert env.agent_selection == "player_0"
    mask = env.observe("player_0")["action_mask"]
    assert set(np.flatnonzero(mask).tolist()) == {COVER + k for k in (0, 1, 3, 4, 5)}
    env.step(COVER + 0)
    rec = env.unwrapped.record
    assert int(rec["phase"]) == Phase.MARKET and rec["r_owned"][0, R["Sword of Chaos"]] == 1
