"""The Villainous heuristic (issue 12: "pursues its objective; Fates the leading opponent")
on hand-built positions (boards as in test_rules.py's docstring).

The heuristic sees only the observation the env gives the player to act.
"""

from __future__ import annotations

import numpy as np

from fatezoo.envs.core.rng import rng_rows
from fatezoo.envs.villainous.encode import OBS_SIZE, encode
from fatezoo.envs.villainous.heuristic import act_one
from fatezoo.envs.villainous.state import (
    FDECK,
    HAND,
    HERO0,
    LOC0,
    LOCATION,
    PALACE,
    PASS,
    PH_ENTRY,
    PH_FPICK,
    PILE0,
    SLOT,
    SUCC,
    TARGET,
)

from .helpers import Game, fc, vc


def move(g: Game) -> int:
    """The heuristic's decision for the player to act, from their observation only."""
    r = g.r
    obs = np.zeros(OBS_SIZE, np.float32)
    encode(r, int(r["current_player"]), 0, obs)
    g.legal()
    a = int(act_one(obs, g.mask, rng_rows(7, 1)[0]))
    assert g.mask[a], a
    return a


def hand(g, s, *names):
    g.empty_v(s, HAND)
    return [g.put_v(s, x, HAND) for x in names]


def quiet(g):
    """Seat 1 holds no Condition (no response window interrupts seat 0's turn)."""
    hand(g, 1, "Hungry Hyena", "Hungry Hyena")


def test_heuristic_ratigan_plays_the_robot_queen_at_buckingham_palace():
    # Palace unlocked, 13 Power + 2 at the Lair: Power first, then Play the Queen (cost 15)
    # at Buckingham Palace rather than Ruffians or Tools
    g = Game(2, villains=["ratigan", "scar"])
    quiet(g)
    g.r["locked"][0, PALACE] = 0
    hand(g, 0, "Ruffians", "The Robot Queen", "Tools", "Capture")
    g.r["power"][0] = 13
    g.at(0, 0)
    assert move(g) == SLOT + 0  # POWER2
    g.act(SLOT + 0)
    assert move(g) == SLOT + 1  # PLAY
    g.act(SLOT + 1)
    assert move(g) == vc("ratigan", "The Robot Queen")
    g.act(vc("ratigan", "The Robot Queen"))
    assert move(g) == LOCATION + PALACE


def test_heuristic_ratigan_saves_power_for_the_queen_and_unlocks_first():
    # the Queen in hand costs 15, Power 10: Tools (2) would delay her, so no Play; with
    # Fidget's List in hand instead, it plays the List (the Palace is locked)
    g = Game(2, villains=["ratigan", "scar"])
    quiet(g)
    g.r["locked"][0, PALACE] = 0
    hand(g, 0, "The Robot Queen", "Tools", "Ruffians", "Fidget")
    g.r["power"][0] = 8
    g.at(0, 0)
    g.act(SLOT + 0)  # Power 10
    assert move(g) == PASS
    g = Game(2, villains=["ratigan", "scar"])
    quiet(g)
    hand(g, 0, "Fidget's List", "Tools", "Ruffians", "Capture")
    g.r["power"][0] = 4
    g.at(0, 0)
    g.act(SLOT + 0, SLOT + 1)
    assert move(g) == vc("ratigan", "Fidget's List")


def test_heuristic_scar_plays_stampede_at_mufasa_and_defeats_him():
    g = Game(2, villains=["scar", "yzma"])
    g.hero(0, "Mufasa", 2)
    hand(g, 0, "Hungry Hyena", "Stampede", "Whisper", "Pride")
    g.r["power"][0] = 2
    g.at(0, 0)  # Pride Rock: POWER2 FATE | PLAY ACTIVATE
    assert move(g) == SLOT + 0
    g.act(SLOT + 0)
    assert move(g) == SLOT + 2
    g.act(SLOT + 2)
    assert move(g) == vc("scar", "Stampede")
    g.act(vc("scar", "Stampede"))
    assert move(g) == LOCATION + 2
    g.act(LOCATION + 2)
    assert g.r["phase"] == PH_ENTRY  # "you may defeat Mufasa": it does
    g.act(move(g))
    assert g.fnames(0, SUCC) == ["Mufasa"]


def test_heuristic_scar_keeps_heroes_that_do_not_feed_the_succession():
    # before Mufasa is in the Succession pile a defeated Hero only returns to the Fate deck:
    # the heuristic does not spend its Allies on Timon
    g = Game(2, villains=["scar", "yzma"])
    g.hero(0, "Timon", 3)
    g.put_v(0, "Shenzi", LOC0 + 3)
    hand(g, 0, "Injustice", "Pride")
    g.at(0, 1)  # The Savanna: PLAY MOVE_HERO | POWER1 VANQUISH
    g.act(SLOT + 2)  # Power
    assert SLOT + 3 in g.legal()
    assert move(g) == PASS


def test_heuristic_yzma_vanquishes_kuzco_with_kronk():
    g = Game(2, villains=["yzma", "scar"])
    g.hero(0, "Kuzco", 3)
    g.put_v(0, "Kronk", LOC0 + 3)
    g.put_v(0, "Imperial Guards", LOC0 + 3)
    g.put_v(0, "Imperial Guards", LOC0 + 3)
    g.at(0, 3)  # Secret Lab: POWER2 PLAY (covered) | VANQUISH MOVE_ITEM_ALLY
    assert move(g) == SLOT + 2
    g.act(SLOT + 2)  # the location and the Hero are forced
    assert move(g) == vc("yzma", "Kronk")
    while g.r["phase"] == PH_ENTRY:
        g.act(move(g))
    assert g.r["goal"][0] == 1


def test_heuristic_yzma_moves_kuzco_onto_a_ready_kronk():
    g = Game(2, villains=["yzma", "scar"])
    g.hero(0, "Kuzco", 2)
    g.put_v(0, "Kronk", LOC0 + 1)
    g.put_v(0, "Dagger", LOC0 + 1)
    hand(g, 0, "Ferocity", "Superiority")
    g.at(0, 1)  # Pacha's Village: PLAY VANQUISH | POWER1 MOVE_HERO
    g.act(SLOT + 2)  # Power
    assert move(g) == SLOT + 3  # Move a Hero (source and Hero forced)
    g.act(SLOT + 3)
    assert move(g) == LOCATION + 1
    g.act(LOCATION + 1)
    assert g.fnames(0, HERO0 + 1) == ["Kuzco"]


def test_heuristic_fate_keeps_the_objective_hero_from_the_opponent():
    # against Yzma it plays Peasant, not Kuzco, from the pile it looked at
    g = Game(2, villains=["scar", "yzma"])
    for c in g.pile(1, 0):
        g.put_f(1, None, PILE0 + 1, c=c)
    g.put_f(1, "Kuzco", PILE0 + 0)
    g.put_f(1, "Peasant", PILE0 + 0)
    g.at(0, 0)
    g.act(SLOT + 1, LOCATION + 0)  # Fate (the target is forced), pile 0
    assert g.r["phase"] == PH_FPICK
    assert move(g) == fc("yzma", "Peasant")
    # against Scar it plays Timon, not Mufasa
    g = Game(2, villains=["yzma", "scar"])
    g.put_f(1, "Mufasa", FDECK)
    g.put_f(1, "Timon", FDECK)
    g.at(0, 0)  # Kuzco's Palace: POWER3 FATE | PLAY DISCARD
    g.act(SLOT + 1)
    assert g.r["phase"] == PH_FPICK
    assert move(g) == fc("scar", "Timon")


def test_heuristic_discards_cards_it_cannot_use():
    # Conditions and a Whisper with no Hero to move go; the Hungry Hyena stays
    g = Game(2, villains=["scar", "yzma"])
    hand(g, 0, "Injustice", "Pride", "Hungry Hyena", "Whisper")
    g.at(0, 2)  # Elephant Graveyard: POWER3 PLAY | MOVE_ITEM_ALLY DISCARD
    g.act(SLOT + 3)
    while g.r["phase"] == PH_ENTRY:
        g.act(move(g))
    assert g.vnames(0, HAND) == ["Hungry Hyena"]


def test_heuristic_fates_the_leading_opponent():
    g = Game(3, villains="ratigan")
    g.r["power"][1] = 2
    g.r["power"][2] = 9
    g.at(0, 1)  # Flaversham's Toy Shop: FATE PLAY | POWER1 MOVE_ITEM_ALLY
    g.act(SLOT + 0)
    assert move(g) == TARGET + 1


def test_heuristic_scar_fates_only_an_opponent_close_to_its_objective():
    # Scar needs the opponent's Fates (Mufasa): a Hero it plays into the opponent's Realm may
    # cover a FATE symbol there, so at The Gorge it takes the Power and ends its turn while
    # Ratigan is far from his objective, and Fates him once The Robot Queen is in his Realm
    for queen in (False, True):
        g = Game(2, villains=["scar", "ratigan"])
        hand(g, 1, "Ruffians", "Ruffians")
        hand(g, 0, "Injustice", "Pride")
        g.r["power"][0] = 0
        if queen:
            g.put_v(1, "The Robot Queen", LOC0 + 0)
        g.at(0, 3)  # The Gorge: FATE VANQUISH | POWER1 PLAY
        assert move(g) == SLOT + 2  # Power first
        g.act(SLOT + 2)
        assert move(g) == (SLOT + 0 if queen else PASS)


def test_heuristic_yzma_discards_the_kronk_searches_once_kronk_is_out_and_keeps_fake_funeral():
    # with Kronk below a location Right-Hand Man and Finish the Job only clog the hand (it
    # draws up to 4); one Fake Funeral stays for Kuzco, a second copy goes
    g = Game(2, villains=["yzma", "scar"])
    quiet(g)
    g.put_v(0, "Kronk", LOC0 + 1)
    hand(g, 0, "Right-Hand Man", "Finish the Job", "Fake Funeral", "Fake Funeral")
    g.at(0, 0)  # Kuzco's Palace: POWER3 FATE | PLAY DISCARD
    g.act(SLOT + 3)  # Discard Cards
    while g.r["phase"] == PH_ENTRY:
        g.act(move(g))
    assert g.vnames(0, HAND) == ["Fake Funeral"]


def test_heuristic_yzma_plays_fake_funeral_to_bring_kuzco_to_a_ready_kronk():
    # Kuzco at The Jungle, Kronk with the Dagger at Pacha's Village (not adjacent to a Move a
    # Hero from there): Fake Funeral moves Kuzco onto Kronk
    g = Game(2, villains=["yzma", "scar"])
    quiet(g)
    g.hero(0, "Kuzco", 3)
    g.put_v(0, "Kronk", LOC0 + 1)
    g.put_v(0, "Dagger", LOC0 + 1)
    hand(g, 0, "Fake Funeral", "Ferocity")
    g.at(0, 0)  # Kuzco's Palace: POWER3 FATE | PLAY DISCARD
    assert move(g) == SLOT + 0
    g.act(SLOT + 0)
    assert move(g) == SLOT + 2  # Play
    g.act(SLOT + 2)  # the card is forced (Ferocity is a Condition); then Kuzco's destination
    assert move(g) == LOCATION + 1
    while g.r["phase"] == PH_ENTRY:
        g.act(move(g))
    assert g.fnames(0, HERO0 + 1) == ["Kuzco"]


def test_heuristic_scar_plays_long_live_the_king_while_mufasa_is_out_of_reach():
    # Mufasa in the Fate deck: Power, then Long Live the King; its Hero goes to The Savanna,
    # where Timon already covers the top (nothing more lost); with Mufasa in the Realm
    # (not yet defeated) it keeps the card
    g = Game(2, villains="scar")
    quiet(g)
    g.hero(0, "Timon", 1)
    hand(g, 0, "Long Live the King", "Pride", "Pride", "Injustice")
    g.at(0, 2)  # Elephant Graveyard: POWER3 PLAY | MOVE_ITEM_ALLY DISCARD
    assert move(g) == SLOT + 0
    g.act(SLOT + 0)
    assert move(g) == SLOT + 1
    g.act(SLOT + 1)  # the card is forced; then the Hero's location
    assert move(g) == LOCATION + 1
    g2 = Game(2, villains="scar")
    quiet(g2)
    g2.hero(0, "Mufasa", 3)
    hand(g2, 0, "Long Live the King", "Pride", "Pride", "Injustice")
    g2.at(0, 2)
    g2.act(SLOT + 0)
    assert SLOT + 1 in g2.legal() and move(g2) != SLOT + 1


def test_heuristic_scar_plays_long_live_the_king_after_mufasa_when_nothing_to_vanquish():
    g = Game(2, villains="scar")
    quiet(g)
    g.put_f(0, "Mufasa", SUCC)
    hand(g, 0, "Long Live the King", "Pride", "Pride", "Injustice")
    g.r["power"][0] = 1
    g.at(0, 2)
    g.act(SLOT + 0)
    assert move(g) == SLOT + 1
    g2 = Game(2, villains="scar")  # a Hero its Allies can defeat: not now
    quiet(g2)
    g2.put_f(0, "Mufasa", SUCC)
    g2.hero(0, "Timon", 3)
    g2.put_v(0, "Shenzi", LOC0 + 3)
    hand(g2, 0, "Long Live the King", "Pride", "Pride", "Injustice")
    g2.at(0, 2)
    g2.act(SLOT + 0)
    assert SLOT + 1 in g2.legal() and move(g2) != SLOT + 1


def test_heuristic_yzma_plays_eavesdrop_to_bring_kuzco_to_kronk():
    # Kuzco in a pile, Kronk with the Dagger at Pacha's Village: Eavesdrop plays him there
    g = Game(2, villains=["yzma", "scar"])
    quiet(g)
    g.put_v(0, "Kronk", LOC0 + 1)
    g.put_v(0, "Dagger", LOC0 + 1)
    hand(g, 0, "Eavesdrop", "Ferocity", "Superiority", "Superiority")
    g.at(0, 0)  # Kuzco's Palace: POWER3 FATE | PLAY DISCARD
    assert move(g) == SLOT + 0
    g.act(SLOT + 0)
    assert move(g) == SLOT + 2
    g.act(SLOT + 2)  # the card is forced; then Kuzco's location
    assert move(g) == LOCATION + 1
    g.act(LOCATION + 1)
    assert g.fnames(0, HERO0 + 1) == ["Kuzco"]
    g2 = Game(2, villains=["yzma", "scar"])  # Kuzco already in the Realm: kept
    quiet(g2)
    g2.hero(0, "Kuzco", 3)
    g2.put_v(0, "Kronk", LOC0 + 1)
    hand(g2, 0, "Eavesdrop", "Ferocity", "Superiority", "Superiority")
    g2.at(0, 0)
    g2.act(SLOT + 0)
    assert SLOT + 2 in g2.legal() and move(g2) != SLOT + 2
