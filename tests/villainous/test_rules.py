"""Villainous rules, one hand-built position per rule (RULES.md names each test).

Positions are built from a dealt game by moving named cards (``helpers.Game``): ``g.at(s,
loc)`` puts seat ``s``'s mover at ``loc`` and starts their actions; realms are drawn as::

    seat 0 Scar   loc0 Pride Rock [P2 Fate | Play Act]   heroes: Nala   below: Ed
                  ...
Scar's board: 0 Pride Rock [POWER2 FATE | PLAY ACTIVATE], 1 The Savanna [PLAY MOVE_HERO |
POWER1 VANQUISH], 2 Elephant Graveyard [POWER3 PLAY | MOVE_ITEM_ALLY DISCARD], 3 The Gorge
[FATE VANQUISH | POWER1 PLAY]. Ratigan's: 0 Lair [POWER2 PLAY | ACTIVATE DISCARD], 1 Toy
Shop [FATE PLAY | POWER1 MOVE_ITEM_ALLY], 2 Rat Trap [POWER3 VANQUISH | PLAY MOVE_HERO],
3 Buckingham Palace, locked [FATE POWER1 | PLAY VANQUISH]. Yzma's: 0 Kuzco's Palace
[POWER3 FATE | PLAY DISCARD], 1 Pacha's Village [PLAY VANQUISH | POWER1 MOVE_HERO], 2 The
Jungle [FATE MOVE_ITEM_ALLY | POWER2 PLAY], 3 Secret Lab [POWER2 PLAY | VANQUISH
MOVE_ITEM_ALLY].

``Game.act`` applies a decision and every following forced (single-choice) decision, as
the envs do; expected values account for that.
"""

from __future__ import annotations

import numpy as np
import pytest

from fatezoo.envs.villainous import check_record, configure, encode
from fatezoo.envs.villainous.encode import OBS, OBS_SIZE
from fatezoo.envs.villainous.state import (
    FDECK,
    FDISC,
    FLIMBO,
    HAND,
    HERO0,
    LIMBO,
    LOC0,
    LOCATION,
    PASS,
    PH_ACT,
    PH_ENTRY,
    PH_FPICK,
    PH_MOVE,
    PH_PILE,
    PH_WINDOW,
    PILE0,
    REVEAL,
    SLOT,
    SUCC,
    TARGET,
    VDECK,
    VDISC,
)

from .helpers import SPEC, Game, fc, vc


def hand(g, s, *names):
    """Seat ``s`` holds exactly ``names``."""
    g.empty_v(s, HAND)
    return [g.put_v(s, x, HAND) for x in names]


def obs(g, viewer):
    out = np.zeros(OBS_SIZE, np.float32)
    encode(g.r, viewer, 0, out)
    return out


# ---------------------------------------------------------------- 1. setup


def test_setup_player_count_2_to_6():
    for n in range(2, 7):
        g = Game(n=n, villains="random", seed=n)
        check_record(g.r)
        assert g.n == n and (g.r["villain"][n:] == -1).all()
    for bad in (1, 7):
        with pytest.raises(ValueError, match="num_players"):
            SPEC.options(num_players=bad)


def test_villains_option_names_repeats_and_errors():
    g = Game(n=3, villains="yzma")
    assert list(g.r["villain"][:3]) == [1, 1, 1]
    # each player has their own copies: seat 1's cards are ids 30..59
    seat1 = sorted(c for z in range(8) for c in g.vzone(1, z))
    assert seat1 == list(range(30, 60))
    a, b = Game(n=4, villains="random", seed=3), Game(n=4, villains="random", seed=3)
    assert list(a.r["villain"]) == list(b.r["villain"])
    for bad in ("jafar", 1, None):
        with pytest.raises(ValueError, match="villains must be"):
            configure(villains=bad)
    # R2: a sequence of exactly num_players names, seat 0 first; repeats allowed
    g = Game(n=3, villains=["ratigan", "scar", "ratigan"])
    assert list(g.r["villain"][:3]) == [2, 0, 2] and list(g.r["villain"][3:]) == [-1] * 3

    def names(s):
        return sorted(x for z in range(8) for x in g.vnames(s, z))

    assert names(2) == names(0) != names(1)  # two Ratigans, each with their own 30 cards
    assert sorted(c for z in range(8) for c in g.vzone(2, z)) == list(range(60, 90))
    mixed = Game(n=2, villains=("random", "yzma"), seed=5)
    assert mixed.r["villain"][1] == 1 and mixed.r["villain"][0] in (0, 1, 2)
    with pytest.raises(ValueError, match=r"a list of 2 names \(one per seat\), got 3"):
        SPEC.options(num_players=2, villains=["scar", "yzma", "scar"])
    with pytest.raises(ValueError, match=r"a list of 4 names \(one per seat\), got 2"):
        SPEC.options(num_players=4, villains=["scar", "yzma"])
    with pytest.raises(ValueError, match=r"got 'jafar' in \['scar', 'jafar'\]"):
        SPEC.options(num_players=2, villains=["scar", "jafar"])


def test_setup_realms_decks_and_locks():
    g = Game(n=2, villains="ratigan")
    assert g.r["locked"][0].tolist() == [0, 0, 0, 1] and g.r["locked"][1].tolist() == [0, 0, 0, 1]
    for s in range(2):
        assert len(g.vzone(s, VDECK)) == 26 and len(g.vzone(s, HAND)) == 4
        assert len(g.fzone(s, FDECK)) == 15 and not g.fzone(s, FDISC)
        assert not any(g.vzone(s, LOC0 + k) for k in range(4))
    assert Game(villains="scar").r["locked"][:2].sum() == 0


def test_setup_mover_on_leftmost_location():
    g = Game(n=6, villains="random", seed=1)
    assert g.r["mover"][:6].tolist() == [0] * 6
    assert g.r["phase"] == PH_MOVE and g.r["current_player"] == 0


def test_setup_starting_power_by_seat():
    g = Game(n=6, villains="random", seed=2)
    assert g.r["power"][:6].tolist() == [0, 1, 2, 2, 3, 3]


def test_setup_draw_four_hidden():
    g = Game(n=3, villains="scar", seed=4)
    for s in range(3):
        cards = g.vzone(s, HAND)
        assert len(cards) == 4
        for v in range(3):
            assert (g.r["vknown"][v, cards] == (2 if v == s else 0)).all()


def test_power_is_unlimited_and_never_negative():
    # seat 0 Scar at The Savanna (loc 1), Zazu at loc 2, Power 0: Move a Hero moves Zazu
    g = Game(villains="scar")
    g.hero(0, "Zazu", 2)
    g.r["power"][0] = 0
    g.at(0, 1)
    g.act(SLOT + 1, LOCATION + 3)  # location and Hero forced; Zazu to loc 3
    assert g.fnames(0, HERO0 + 3) == ["Zazu"] and g.r["power"][0] == 0
    g.r["power"][0] = 40  # no cap: 40 + 3 at Elephant Graveyard
    g.at(0, 2)
    g.act(SLOT + 0)
    assert g.r["power"][0] == 43


# ---------------------------------------------------------------- 2. the turn


def _succession(g, s, names):
    for x in names:
        g.put_f(s, x, SUCC)


def test_turn_starts_with_objective_check():
    g = Game(villains="scar")
    _succession(g, 0, ["Mufasa", "Simba", "Nala", "Timon"])  # 6 + 5 + 3 + 2 = 16
    g.at(1, 1)
    g.act(PASS)  # seat 1 ends; seat 0's turn starts with the check
    assert g.r["terminated"] and g.r["winner"] == 0
    assert g.r["returns"][:2].tolist() == [1.0, -1.0]


def test_move_to_a_different_unlocked_location():
    g = Game(villains="ratigan")
    g.r["mover"][0] = 2
    assert set(g.legal()) == {LOCATION + 0, LOCATION + 1}  # not 2 (here), not 3 (locked)
    g.act(LOCATION + 0)
    assert g.r["mover"][0] == 0 and g.r["phase"] == PH_ACT


def test_visible_actions_any_order_each_once():
    g = Game(villains="scar")
    hand(g, 0, "Long Live the King", "Hungry Hyena", "Whisper", "Pride")
    g.r["power"][0] = 2
    g.at(0, 2)  # Elephant Graveyard: POWER3 PLAY | MOVE_ITEM_ALLY DISCARD
    assert set(g.legal()) == {SLOT + 0, SLOT + 1, SLOT + 3, PASS}  # nothing to move
    g.act(SLOT + 3, vc("scar", "Whisper"), PASS)  # discard first
    g.act(SLOT + 0)
    assert g.r["power"][0] == 5 and set(g.legal()) == {SLOT + 1, PASS}


def test_heroes_cover_top_two_symbols_live():
    g = Game(villains="scar")
    hand(g, 0, "Long Live the King", "Pride", "Injustice", "Pride")
    g.r["power"][0] = 3
    g.hero(0, "Timon", 1)
    g.put_v(0, "Hungry Hyena", LOC0 + 1)
    g.put_v(0, "Hungry Hyena", LOC0 + 1)
    g.at(0, 1)  # The Savanna: PLAY MOVE_HERO (covered) | POWER1 VANQUISH
    assert set(g.legal()) == {SLOT + 2, SLOT + 3, PASS}
    g.act(SLOT + 3, PASS)  # location, Timon and a first Hyena forced: 1 + 1 >= 2
    assert g.fnames(0, FDISC) == ["Timon"]
    assert SLOT + 0 in g.legal()  # uncovered during the turn


def test_end_of_turn_draw_up_to_four():
    g = Game(villains="scar")
    hand(g, 0, "Pride", "Injustice")
    g.at(0, 1)
    g.act(PASS)
    assert len(g.vzone(0, HAND)) == 4 and g.r["turn_player"] == 1
    g2 = Game(villains="scar")
    g2.put_v(0, "Pride", HAND)
    g2.at(0, 1)
    g2.act(PASS)
    assert len(g2.vzone(0, HAND)) == 5  # no hand limit


def test_empty_deck_reshuffles_discard():
    g = Game(villains="scar")
    hand(g, 0, "Pride", "Injustice")
    g.empty_v(0, VDECK, to=VDISC)  # 26 cards in the discard, none in the deck
    g.at(0, 1)
    g.act(PASS)
    assert len(g.vzone(0, HAND)) == 4 and not g.vzone(0, VDISC)
    assert len(g.vzone(0, VDECK)) == 26  # 30 cards, 4 in hand
    assert (g.r["vknown"][0, g.vzone(0, HAND)] == 2).all()


# ---------------------------------------------------------------- 3. the actions


def test_gain_power_symbol_amount():
    g = Game(villains="ratigan")
    g.r["power"][0] = 1
    g.at(0, 2)  # The Rat Trap: POWER3
    g.act(SLOT + 0)
    assert g.r["power"][0] == 4


def test_play_a_card_pays_cost_one_card_per_action():
    g = Game(villains="scar")
    hand(g, 0, "Hungry Hyena", "Banzai", "Long Live the King", "Pride")
    g.r["power"][0] = 2
    g.at(0, 2)
    g.act(SLOT + 1)
    assert set(g.legal()) == {vc("scar", "Hungry Hyena"), vc("scar", "Banzai"),
                         vc("scar", "Long Live the King")}  # not the Condition
    g.act(vc("scar", "Banzai"), LOCATION + 3)
    assert g.vnames(0, LOC0 + 3) == ["Banzai"] and g.r["power"][0] == 0
    assert SLOT + 1 not in g.legal()
    assert (g.r["vknown"][1, g.vids(0, "Banzai")] == 2).all()


def test_allies_and_items_only_at_unlocked_locations():
    g = Game(villains="ratigan")
    hand(g, 0, "Ruffians", "Ruffians", "Devious", "Devious")
    g.r["power"][0] = 5
    g.at(0, 0)
    g.act(SLOT + 1)  # Ruffians forced (Devious is a Condition)
    assert set(g.legal()) == {LOCATION + 0, LOCATION + 1, LOCATION + 2}


def test_effects_must_resolve_fully():
    g = Game(villains="scar")
    hand(g, 0, "Feeding Frenzy", "Pride", "Injustice", "Pride")
    g.r["power"][0] = 5
    g.hero(0, "Mufasa", 3)
    g.at(0, 2)
    assert SLOT + 1 not in g.legal()  # no Hero of Strength 3 or less: not playable
    g.hero(0, "Timon", 3)
    g.at(0, 2)
    g.act(SLOT + 1)  # Feeding Frenzy forced, location 3 and Timon forced
    assert g.fnames(0, FDISC) == ["Timon"] and g.vnames(0, VDISC) == ["Feeding Frenzy"]
    assert g.r["power"][0] == 3


def test_activate_pays_and_resolves():
    g = Game(villains="scar")
    g.put_v(0, "Ed", LOC0 + 0)
    g.hero(0, "Nala", 0)
    g.r["power"][0] = 1
    g.at(0, 0)  # Pride Rock: POWER2 FATE (covered) | PLAY ACTIVATE
    g.act(SLOT + 3)  # Ed forced, Nala forced
    assert set(g.legal()) == {LOCATION + 1, LOCATION + 2, LOCATION + 3}
    g.act(LOCATION + 2)
    assert g.fnames(0, HERO0 + 2) == ["Nala"] and g.r["power"][0] == 0


def test_fate_symbol_starts_a_fate_action():
    g = Game(n=3, villains="scar")
    g.at(0, 0)
    g.act(SLOT + 1)
    assert set(g.legal()) == {TARGET + 0, TARGET + 1}


def test_move_item_or_ally_adjacent_unlocked():
    g = Game(villains="scar")
    g.put_v(0, "Banzai", LOC0 + 1)
    g.at(0, 2)
    g.act(SLOT + 2)  # location 1 and Banzai forced
    assert set(g.legal()) == {LOCATION + 0, LOCATION + 2}
    g.act(LOCATION + 0)
    assert g.vnames(0, LOC0 + 0) == ["Banzai"]


def test_move_hero_adjacent_never_into_or_out_of_locked():
    g = Game(villains="ratigan")
    g.hero(0, "Toby", 2)
    g.at(0, 2)  # Rat Trap: MOVE_HERO bottom right; from 2 only to 1 (3 is locked)
    g.act(SLOT + 3)  # location, Toby and the destination forced
    assert g.fnames(0, HERO0 + 1) == ["Toby"]
    g2 = Game(villains="ratigan")
    g2.hero(0, "Basil", 3)  # a Hero is never in the locked Palace: a record with one is refused
    with pytest.raises(ValueError, match="hero3 must be empty while locked"):
        check_record(g2.r)


def test_vanquish_allies_total_strength_discarded_hero_to_fate_discard():
    g = Game(villains="scar")
    g.hero(0, "Sarabi", 2)
    for x in ("Hungry Hyena", "Hungry Hyena", "Stampede"):
        g.put_v(0, x, LOC0 + 2)
    g.at(0, 1)  # The Savanna: VANQUISH in slot 3
    g.act(SLOT + 3)  # location 2 and Sarabi forced
    assert set(g.legal()) == {vc("scar", "Hungry Hyena"), vc("scar", "Stampede")}
    g.act(vc("scar", "Hungry Hyena"))  # 2 < 3: no pass yet
    assert PASS not in g.legal()
    g.act(vc("scar", "Stampede"), PASS)
    assert g.fnames(0, FDISC) == ["Sarabi"]
    assert g.vnames(0, VDISC) == ["Hungry Hyena", "Stampede"]
    assert g.vnames(0, LOC0 + 2) == ["Hungry Hyena"]


def test_discard_any_number():
    g = Game(villains="scar")
    hand(g, 0, "Pride", "Injustice", "Whisper", "Ed")
    g.at(0, 2)
    g.act(SLOT + 3, vc("scar", "Pride"), vc("scar", "Ed"), PASS)
    assert g.vnames(0, HAND) == ["Injustice", "Whisper"]
    assert g.vnames(0, VDISC) == ["Ed", "Pride"]
    assert (g.r["vknown"][1, g.vzone(0, VDISC)] == 2).all()


# ---------------------------------------------------------------- 4. cards


def test_ally_strength_modifiers():
    from fatezoo.envs.villainous.rules import ally_str

    g = Game(villains="scar")
    hy = [g.put_v(0, "Hungry Hyena", LOC0) for _ in range(3)]
    bz = g.put_v(0, "Banzai", LOC0)
    assert ally_str(g.r, 0, hy[0], 0) == 1 + 2 + 1  # pack of two others, Banzai's aura
    g.hero(0, "Mufasa", 0)
    assert ally_str(g.r, 0, hy[0], 0) == 3 and ally_str(g.r, 0, bz, 0) == 1


def test_hero_strength_modifiers():
    from fatezoo.envs.villainous.rules import hero_str

    g = Game(villains="scar")
    m = g.hero(0, "Mufasa", 1)
    g.item_on(0, "Prophecy", m, 1)
    g.item_on(0, "Rafiki's Stick", m, 1)
    g.put_v(0, "Shenzi", LOC0 + 1)
    check_record(g.r)
    assert hero_str(g.r, 0, m, 1) == 6 + 1 + 2 - 1


def test_defeated_hero_and_items_to_fate_discard():
    g = Game(villains="ratigan")
    h = g.hero(0, "Dawson", 0)
    g.item_on(0, "Makeshift Balloon", h, 0)  # 2 + 2 = 4
    for _ in range(2):
        g.put_v(0, "Ruffians", LOC0 + 0)
    g.at(0, 2)  # Rat Trap: VANQUISH top
    g.act(SLOT + 1)  # location, Dawson and both Ruffians (2 + 2 >= 4) forced
    assert g.fnames(0, FDISC) == ["Dawson", "Makeshift Balloon"]
    assert g.r["attach"][h] == -1 and not g.fzone(0, HERO0)


# ---------------------------------------------------------------- 5. the Fate action


def _stack_fate(g, s, top, second):
    """Seat ``s``'s Fate deck gets ``second`` then ``top`` on top."""
    g.put_f(s, second, FDECK)
    g.put_f(s, top, FDECK)


def test_fate_choose_opponent_reveal_top_two():
    g = Game(villains="scar")
    _stack_fate(g, 1, "Simba", "Nala")
    g.at(0, 0)
    g.act(SLOT + 1)  # the only opponent is forced
    assert g.fnames(1, FDECK).__len__() == 13
    assert sorted(g.fzone_abs(REVEAL)) == sorted(g.fids(1, "Simba") + g.fids(1, "Nala"))
    assert g.r["phase"] == PH_FPICK and set(g.legal()) == {fc("scar", "Simba"), fc("scar", "Nala")}


def test_faq_revealed_cards_are_seen_by_every_player():
    g = Game(n=3, villains="scar")
    _stack_fate(g, 1, "Simba", "Nala")
    g.at(0, 0)
    g.act(SLOT + 1, TARGET + 0)
    for v in range(3):
        assert (g.r["fknown"][v, g.fzone_abs(REVEAL)] == 2).all()
        rev = OBS.view(obs(g, v), "revealed")
        assert rev[4] == 0.5 and rev[5] == 0.5  # Simba (local 4), Nala (local 5)


def test_clar_both_cards_revealed_at_the_same_time():
    g = Game(villains="scar")
    _stack_fate(g, 1, "Timon", "Pumbaa")
    g.at(0, 0)
    g.act(SLOT + 1)
    assert len(g.fzone_abs(REVEAL)) == 2 and g.r["phase"] == PH_FPICK


def test_fate_discard_the_other_then_play_the_chosen():
    g = Game(villains="scar")
    _stack_fate(g, 1, "Simba", "Nala")
    g.put_v(1, "Hungry Hyena", LOC0 + 2)
    g.at(0, 0)
    g.act(SLOT + 1, fc("scar", "Simba"))
    assert g.fnames(1, FDISC) == ["Nala"] and g.fzone_abs(FLIMBO) == g.fids(1, "Simba")
    assert set(g.legal()) == {LOCATION + k for k in range(4)}
    g.act(LOCATION + 2)
    assert g.fnames(1, HERO0 + 2) == ["Simba"]


def test_fate_player_makes_every_choice_of_the_card():
    g = Game(villains="scar")
    _stack_fate(g, 1, "Simba", "Nala")
    g.put_v(1, "Hungry Hyena", LOC0 + 2)
    g.at(0, 0)
    g.act(SLOT + 1, fc("scar", "Simba"), LOCATION + 2)
    # Simba's "you may discard an Ally" is the fater's (seat 0) decision
    assert g.r["current_player"] == 0 and g.r["phase"] == PH_ENTRY
    assert set(g.legal()) == {vc("scar", "Hungry Hyena"), PASS}
    g.act(vc("scar", "Hungry Hyena"))
    assert g.vnames(1, VDISC) == ["Hungry Hyena"] and g.r["phase"] == PH_ACT


def test_fate_hero_to_any_unlocked_location():
    g = Game(villains="ratigan")
    _stack_fate(g, 1, "Toby", "Dawson")
    g.at(0, 1)  # Toy Shop: FATE top left
    g.act(SLOT + 0, fc("ratigan", "Toby"))
    assert set(g.legal()) == {LOCATION + 0, LOCATION + 1, LOCATION + 2}  # not the locked Palace


def test_fate_hero_covers_the_top_of_its_location():
    g = Game(villains="scar")
    _stack_fate(g, 1, "Timon", "Pumbaa")
    g.at(0, 0)
    g.act(SLOT + 1, fc("scar", "Timon"), LOCATION + 2)
    g.at(1, 2)  # Elephant Graveyard: POWER3 PLAY covered by Timon
    assert SLOT + 0 not in g.legal() and SLOT + 1 not in g.legal()


def test_faq_unplayable_card_is_discarded_no_redraw():
    g = Game(villains="scar")
    _stack_fate(g, 1, "Prophecy", "Timon")  # no Hero in seat 1's Realm: Prophecy unplayable
    g.at(0, 0)
    g.act(SLOT + 1)  # Timon forced
    assert g.fnames(1, FDISC) == ["Prophecy"] and len(g.fzone(1, FDECK)) == 13
    assert g.r["phase"] == PH_ENTRY and g.fzone_abs(FLIMBO) == g.fids(1, "Timon")


def test_clar_only_one_playable_is_played():
    g = Game(villains="scar")
    _stack_fate(g, 1, "Timon", "Rafiki's Stick")
    g.at(0, 0)
    g.act(SLOT + 1, LOCATION + 3)
    assert g.fnames(1, HERO0 + 3) == ["Timon"] and g.fnames(1, FDISC) == ["Rafiki's Stick"]


def test_faq_neither_playable_both_discarded():
    g = Game(villains="scar")
    _succession(g, 1, ["Mufasa", "Pumbaa"])  # Pumbaa cannot be found
    _stack_fate(g, 1, "Hakuna Matata", "Prophecy")
    g.at(0, 0)
    g.act(SLOT + 1)
    assert g.fnames(1, FDISC) == ["Hakuna Matata", "Prophecy"]
    assert g.r["phase"] == PH_ACT and len(g.fzone(1, FDECK)) == 11


def test_clar_neither_playable_fate_favours_opponent():
    g = Game(villains="scar")
    _succession(g, 1, ["Mufasa", "Pumbaa"])
    _stack_fate(g, 1, "Prophecy", "Rafiki's Stick")
    before = g.r["power"][1]
    g.at(0, 0)
    g.act(SLOT + 1)
    assert not any(g.fzone(1, HERO0 + k) for k in range(4)) and g.r["power"][1] == before
    assert g.fnames(1, FDISC) == ["Prophecy", "Rafiki's Stick"]


def test_you_must_effect_needs_its_action():
    g = Game(villains="scar")
    _stack_fate(g, 1, "Hakuna Matata", "Prophecy")  # Pumbaa is in the deck: findable
    g.at(0, 0)
    g.act(SLOT + 1)  # Hakuna Matata forced (Prophecy: no Hero)
    assert set(g.legal()) == {LOCATION + k for k in range(4)}
    g.act(LOCATION + 1)
    assert g.fnames(1, HERO0 + 1) == ["Pumbaa"]
    assert sorted(g.fnames(1, FDISC)) == ["Hakuna Matata", "Prophecy"]


def test_clar_not_you_must_may_be_played_without_effect():
    g = Game(villains="ratigan")
    _stack_fate(g, 1, "Sabotage", "Olivia")  # no Item in seat 1's Realm
    g.at(0, 1)
    g.act(SLOT + 0, fc("ratigan", "Sabotage"))
    assert g.fnames(1, FDISC) == ["Olivia", "Sabotage"] and g.r["phase"] == PH_ACT


def test_clar_return_to_form_sees_the_other_card():
    g = Game(villains="ratigan")
    _stack_fate(g, 1, "Call for Help", "Basil")  # the Fate discard is empty before
    g.at(0, 1)
    g.act(SLOT + 0, fc("ratigan", "Call for Help"))  # Basil discarded first, then found
    assert set(g.legal()) == {LOCATION + 0, LOCATION + 1, LOCATION + 2}
    g.act(LOCATION + 2)
    assert g.fnames(1, HERO0 + 2) == ["Basil"] and g.fnames(1, FDISC) == ["Call for Help"]


def test_faq_playing_from_hand_or_deck_triggers_on_play():
    g = Game(villains="yzma")
    g.r["power"][1] = 3
    pile = g.pile(1, 0)
    for c in pile:
        g.put_f(1, None, FDISC, c=c)
    g.put_f(1, "Bucky", PILE0 + 0)
    g.at(0, 0)  # Kuzco's Palace: FATE top right
    g.act(SLOT + 1, LOCATION + 0)  # target forced; pile 0 holds only Bucky: forced
    assert g.fnames(1, HERO0) == ["Bucky"] and g.r["power"][1] == 2


def test_faq_moving_is_within_the_realm():
    g = Game(villains="scar")
    g.hero(0, "Zazu", 2)
    g.r["power"][0] = 2
    g.at(0, 1)
    g.act(SLOT + 1, LOCATION + 1)
    assert g.fnames(0, HERO0 + 1) == ["Zazu"] and g.r["power"][0] == 1


def test_faq_play_trigger_not_on_move():
    g = Game(villains="scar")
    g.hero(0, "Simba", 2)
    g.put_v(0, "Hungry Hyena", LOC0 + 1)
    g.at(0, 1)
    g.act(SLOT + 1, LOCATION + 1)  # Simba moved next to a Hyena: no discard
    assert g.fnames(0, HERO0 + 1) == ["Simba"] and g.vnames(0, LOC0 + 1) == ["Hungry Hyena"]
    assert g.r["phase"] == PH_ACT


def test_faq_move_trigger_not_on_play():
    g = Game(villains="scar")
    g.r["power"][1] = 2
    _stack_fate(g, 1, "Zazu", "Timon")
    g.at(0, 0)
    g.act(SLOT + 1, fc("scar", "Zazu"), LOCATION + 0)
    assert g.fnames(1, HERO0) == ["Zazu"] and g.r["power"][1] == 2


def test_faq_find_takes_the_hero_from_wherever():
    g = Game(villains="scar")
    g.hero(1, "Pumbaa", 3)
    _stack_fate(g, 1, "Hakuna Matata", "Timon")
    g.at(0, 0)
    g.act(SLOT + 1, fc("scar", "Hakuna Matata"), LOCATION + 0)
    assert g.fnames(1, HERO0 + 0) == ["Pumbaa"] and not g.fzone(1, HERO0 + 3)


def test_faq_find_order_realm_discard_deck_then_shuffle():
    g = Game(villains="scar")
    g.put_f(1, "Pumbaa", FDISC)
    _stack_fate(g, 1, "Hakuna Matata", "Timon")
    g.at(0, 0)
    g.act(SLOT + 1, fc("scar", "Hakuna Matata"), LOCATION + 1)
    assert g.fnames(1, HERO0 + 1) == ["Pumbaa"] and "Pumbaa" not in g.fnames(1, FDISC)
    g2 = Game(villains="scar")
    _stack_fate(g2, 1, "Hakuna Matata", "Timon")
    g2.at(0, 0)
    g2.act(SLOT + 1, fc("scar", "Hakuna Matata"), LOCATION + 1)
    assert g2.fnames(1, HERO0 + 1) == ["Pumbaa"]
    deck = g2.fzone(1, FDECK)  # searched by seat 0, then shuffled
    assert len(deck) == 12 and (g2.r["fknown"][0, deck] == 1).all()
    assert (g2.r["fknown"][1, deck] == 0).all()


def _play_long_live(g, loc=2):
    """Scar (seat 0) holds Long Live the King and three Conditions, 1 Power, at ``loc``."""
    hand(g, 0, "Long Live the King", "Pride", "Pride", "Injustice")
    g.r["power"][0] = 1
    g.at(0, loc)


def test_long_live_the_king_reveals_until_a_hero_others_to_the_discard():
    g = Game(villains="scar")
    g.put_f(0, "Nala", FDECK)
    hak = g.put_f(0, "Hakuna Matata", FDECK)
    pro = g.put_f(0, "Prophecy", FDECK)  # the top card
    nala = g.fids(0, "Nala")[0]
    _play_long_live(g)
    g.act(SLOT + 1)  # Elephant Graveyard's Play; the card is forced
    assert g.r["phase"] == PH_ENTRY and g.r["current_player"] == 0
    assert set(g.legal()) == {LOCATION + k for k in range(4)}  # Scar chooses where
    assert g.fzone_abs(FLIMBO) == [nala] and g.fzone(0, FDISC) == [pro, hak]
    assert g.vnames(0, VDISC) == ["Long Live the King"] and g.r["power"][0] == 0
    o = obs(g, 1)  # the Hero being played is public, the rest of the deck is not
    rev = OBS.view(o, "revealed")
    assert rev[5] == 0.5 and rev.sum() == 0.5  # Nala (local 5)
    g.act(LOCATION + 1)
    assert g.fzone(0, HERO0 + 1) == [nala] and g.fzone(0, FDISC) == [pro, hak]
    assert len(g.fzone(0, FDECK)) == 12 and not g.fzone_abs(REVEAL)
    assert (g.r["fknown"][:2, [nala, pro, hak]] == 2).all()
    assert (g.r["fknown"][:2, g.fzone(0, FDECK)] == 0).all()


def test_long_live_the_king_empty_deck_takes_the_shuffled_discard():
    g = Game(villains="scar")
    for name, loc in (("Mufasa", 0), ("Simba", 0), ("Nala", 1), ("Pumbaa", 1), ("Rafiki", 3),
                      ("Sarabi", 3), ("Zazu", 3)):
        g.hero(0, name, loc)
    m = g.fids(0, "Mufasa")[0]
    for c in g.fids(0, "Prophecy")[:2] + g.fids(0, "Rafiki's Stick"):
        g.put_f(0, None, HERO0 + 0, attach_to=m, c=c)
    for c in g.fids(0, "Hakuna Matata") + g.fids(0, "Timon"):
        g.put_f(0, None, FDISC, c=c)
    pro = g.fids(0, "Prophecy")[2]
    assert g.fzone(0, FDECK) == [pro]
    _play_long_live(g)
    g.act(SLOT + 1, LOCATION + 2)  # Prophecy; then the discard is the deck (R13): to Timon
    assert g.fnames(0, HERO0 + 2) == ["Timon"]
    disc, deck = g.fzone(0, FDISC), g.fzone(0, FDECK)
    assert disc[0] == pro  # revealed before the shuffle, so never in the new deck
    assert sorted(g.fnames(0, FDISC) + g.fnames(0, FDECK)) == ["Hakuna Matata"] * 3 + [
        "Prophecy"]
    assert (g.r["fknown"][:2, deck] == 1).all()  # face up before the shuffle: order forgotten
    assert (g.r["fknown"][:2, disc] == 2).all()


def test_long_live_the_king_needs_a_hero_in_the_fate_deck_or_discard():
    g = Game(villains="scar")
    g.put_f(0, "Mufasa", SUCC)  # never revealed again (R58)
    for name, loc in (("Simba", 0), ("Nala", 1), ("Pumbaa", 1), ("Rafiki", 3), ("Sarabi", 3),
                      ("Zazu", 3), ("Timon", 3)):
        g.hero(0, name, loc)
    _play_long_live(g)
    assert SLOT + 1 not in g.legal()  # Play offers nothing: the card cannot resolve (R17)
    g.put_f(0, "Timon", FDISC)
    assert SLOT + 1 in g.legal()
    g.act(SLOT + 1, LOCATION + 2)
    assert g.fnames(0, HERO0 + 2) == ["Timon"]


def _play_eavesdrop(g, power=2):
    hand(g, 0, "Eavesdrop", "Ferocity", "Superiority", "Superiority")
    g.r["power"][0] = power
    g.at(0, 0)  # Kuzco's Palace: POWER3 FATE | PLAY DISCARD


def test_eavesdrop_finds_kuzco_realm_then_discard_then_piles_in_order():
    g = Game(villains=["yzma", "scar"])  # in the Realm: moved with his Item, played
    k = g.hero(0, "Kuzco", 3)
    p = g.item_on(0, "Path of Righteousness", k, 3)
    piles = [g.pile(0, j) for j in range(4)]
    _play_eavesdrop(g)
    g.act(SLOT + 2)  # the card is forced; Yzma chooses the location
    assert set(g.legal()) == {LOCATION + j for j in range(4)}
    g.act(LOCATION + 1)
    assert g.fzone(0, HERO0 + 1) == [k, p] and not g.fzone(0, HERO0 + 3)
    assert g.vnames(0, VDISC) == ["Eavesdrop"] and g.r["power"][0] == 0
    assert [g.pile(0, j) for j in range(4)] == piles  # not searched
    g2 = Game(villains=["yzma", "scar"])  # in the Fate discard
    k = g2.put_f(0, "Kuzco", FDISC)
    piles = [g2.pile(0, j) for j in range(4)]
    _play_eavesdrop(g2)
    g2.act(SLOT + 2, LOCATION + 2)
    assert g2.fzone(0, HERO0 + 2) == [k] and not g2.fzone(0, FDISC)
    assert [g2.pile(0, j) for j in range(4)] == piles
    assert (g2.r["fknown"][:2, sum(piles, [])] == 0).all()
    g3 = Game(villains=["yzma", "scar"])  # in pile 2: piles 0, 1, 2 searched in that order
    k = g3.put_f(0, "Kuzco", PILE0 + 2)
    g3.r["fknown"][1, g3.pile(0, 2)] = 2  # seat 1 looked at pile 2 in a Fate (R61)
    p2 = sorted(c for c in g3.pile(0, 2) if c != k)
    _play_eavesdrop(g3)
    g3.act(SLOT + 2, LOCATION + 1)
    assert g3.fzone(0, HERO0 + 1) == [k] and (g3.r["fknown"][:2, k] == 2).all()
    assert sorted(g3.pile(0, 2)) == p2  # the rest stays, shuffled: its order forgotten
    assert (g3.r["fknown"][:2, p2] == 1).all()  # seat 1 still knows what is in it
    assert (g3.r["fknown"][0, g3.pile(0, 0) + g3.pile(0, 1)] == 2).all()  # looked through
    assert (g3.r["fknown"][1, g3.pile(0, 0) + g3.pile(0, 1)] == 0).all()
    assert (g3.r["fknown"][:2, g3.pile(0, 3)] == 0).all()  # never reached
    theirs, mine = OBS.view(obs(g3, 1), "piles_known"), OBS.view(obs(g3, 0), "piles_known")
    assert theirs[1, 2].sum() == 0.25 * len(p2) and theirs[1, [0, 1, 3]].sum() == 0
    assert mine[0, 2].sum() == 0.25 * len(p2) and mine[0, 3].sum() == 0


def test_eavesdrop_needs_its_cost_and_a_findable_kuzco():
    g = Game(villains=["yzma", "scar"])
    _play_eavesdrop(g, power=1)
    assert SLOT + 2 not in g.legal()  # 2 Power
    g.r["power"][0] = 2
    assert SLOT + 2 in g.legal()  # Kuzco is in a pile: always somewhere she can find him


# ---------------------------------------------------------------- 6. the Fate token


def test_fate_token_moves_to_the_target_and_protects_them():
    g = Game(n=5, villains="scar")
    assert g.r["token_on"] == 1 and g.r["token"] == -1
    g.at(0, 0)
    g.act(SLOT + 1)
    assert set(g.legal()) == {TARGET + k for k in range(4)}
    g.act(TARGET + 1)
    assert g.r["token"] == 2
    g2 = Game(n=5, villains="scar")
    g2.r["token"] = 2
    g2.at(1, 0)
    g2.act(SLOT + 1)
    assert set(g2.legal()) == {TARGET + 1, TARGET + 2, TARGET + 3}  # seat 2 (+1) is protected
    g3 = Game(n=5, villains="scar")
    g3.r["token"] = 2
    g3.at(2, 0)
    g3.act(SLOT + 1)  # the holder may target anyone else
    assert set(g3.legal()) == {TARGET + k for k in range(4)}


def test_fate_token_option_by_player_count():
    assert Game(n=4, fate_token=True).r["token_on"] == 1
    assert Game(n=4).r["token_on"] == 0
    assert Game(n=5).r["token_on"] == 1
    assert Game(n=6, fate_token=False).r["token_on"] == 0
    with pytest.raises(ValueError, match="fate_token"):
        configure(fate_token="yes")


# ---------------------------------------------------------------- 7. villains


def test_scar_succession_pile_mufasa_first():
    from fatezoo.envs.villainous import rules

    g = Game(villains="scar")
    t = g.hero(0, "Timon", 0)
    rules.defeat_hero(g.r, 0, t)
    assert g.fnames(0, FDISC) == ["Timon"] and not g.fzone(0, SUCC)
    m = g.hero(0, "Mufasa", 0)
    rules.defeat_hero(g.r, 0, m)
    s = g.hero(0, "Sarabi", 1)
    rules.defeat_hero(g.r, 0, s)
    assert g.fnames(0, SUCC) == ["Mufasa", "Sarabi"]
    assert g.r["cev_n"][0] == 3  # each defeat raised a Condition event (R29) ...
    g.r["cev_n"][0] = 0  # ... which only an action's end windows: clear them here
    g.r["cev"][:] = 0
    check_record(g.r)


def test_scar_objective_fifteen_strength():
    g = Game(villains="scar")
    _succession(g, 0, ["Mufasa", "Simba", "Nala"])  # 14
    g.at(1, 1)
    g.act(PASS)
    assert not g.r["terminated"] and g.r["phase"] == PH_MOVE
    g.put_f(0, "Timon", SUCC)  # 16
    g.at(1, 1)
    g.act(PASS)
    assert g.r["terminated"] and g.r["winner"] == 0


def test_yzma_fate_piles_dealt_four_ways():
    g = Game(villains="yzma")
    for s in range(2):
        assert [len(g.pile(s, k)) for k in range(4)] == [4, 4, 4, 4]
        assert not g.fzone(s, FDECK)
        cards = sum((g.pile(s, k) for k in range(4)), [])
        assert (g.r["fknown"][:2, cards] == 0).all()


def _pile(g, s, k, names):
    for c in g.pile(s, k):
        g.put_f(s, None, FDISC, c=c)
    for x in names:
        src = [c for c in g.fids(s, x) if c not in g.pile(s, k)]
        g.put_f(s, None, PILE0 + k, c=src[0])
        g.r["fknown"][:, src[0]] = 0


def test_fate_against_yzma_choose_pile_look_play_one():
    g = Game(villains="yzma")
    _pile(g, 1, 2, ["Peasant", "Path of Righteousness", "Wrong Lever", "Kuzco"])
    g.at(0, 0)
    g.act(SLOT + 1)
    assert g.r["phase"] == PH_PILE and set(g.legal()) == {LOCATION + k for k in range(4)}
    g.act(LOCATION + 2)
    pile = g.pile(1, 2)
    assert (g.r["fknown"][0, pile] == 2).all() and (g.r["fknown"][1, pile] == 0).all()
    assert set(g.legal()) == {fc("yzma", "Peasant"), fc("yzma", "Wrong Lever"), fc("yzma", "Kuzco")}
    g.act(fc("yzma", "Kuzco"))
    assert g.fnames(1, HERO0 + 2) == ["Kuzco"] and len(g.pile(1, 2)) == 3


def test_yzma_piles_hidden_but_to_who_looked():
    g = Game(villains="yzma")
    _pile(g, 1, 1, ["Peasant", "Chaca"])
    g.at(0, 0)
    g.act(SLOT + 1, LOCATION + 1, fc("yzma", "Chaca"))
    mine, theirs = OBS.view(obs(g, 0), "piles_known"), OBS.view(obs(g, 1), "piles_known")
    assert mine[1, 1, 4] == 0.25 and theirs.sum() == 0  # seat 0 looked: Peasant is known


def test_yzma_objective_kuzco_by_kronk_with_help():
    g = Game(villains="yzma")
    g.hero(0, "Kuzco", 1)
    g.put_v(0, "Kronk", LOC0 + 1)
    g.at(0, 3)  # Secret Lab: VANQUISH bottom left
    assert SLOT + 2 not in g.legal()  # Kronk alone may not take part
    g.put_v(0, "Dagger", LOC0 + 1)
    g.at(0, 3)
    g.act(SLOT + 2)  # Kuzco, Kronk and pass forced (6 + Dagger 1 = 7)
    assert g.fnames(0, FDISC) == ["Kuzco"] and g.r["goal"][0] == 1
    g.act(PASS)  # seat 1's turn
    g.at(1, 1)
    g.act(PASS)
    assert g.r["terminated"] and g.r["winner"] == 0


def test_ratigan_buckingham_palace_locked_until_unlocked():
    g = Game(villains="ratigan")
    hand(g, 0, "Fidget's List", "Devious", "Devious", "Extravagant")
    g.r["power"][0] = 1
    g.at(0, 0)
    g.act(SLOT + 1)  # Fidget's List forced
    assert g.r["locked"][0, 3] == 0 and g.vnames(0, VDISC) == ["Fidget's List"]
    g.r["phase"] = PH_MOVE
    g.r["used"][:] = 0
    assert LOCATION + 3 in g.legal()


def test_robot_queen_cost_reduced_by_gears():
    from fatezoo.envs.villainous.rules import queen_cost

    g = Game(villains="ratigan")
    assert queen_cost(g.r, 0) == 15
    g.put_v(0, "Gears", LOC0)
    g.put_v(0, "Gears", LOC0 + 2)
    assert queen_cost(g.r, 0) == 11


def test_ratigan_objective_robot_queen_at_the_palace():
    g = Game(villains="ratigan")
    g.r["locked"][0, 3] = 0
    g.put_v(0, "The Robot Queen", LOC0 + 3)
    g.at(1, 1)
    g.act(PASS)
    assert g.r["terminated"] and g.r["winner"] == 0


def test_ratigan_objective_flips_when_robot_queen_discarded():
    from fatezoo.envs.villainous import rules

    g = Game(villains="ratigan")
    hand(g, 0, "The Robot Queen", "Devious", "Devious", "Extravagant")
    g.at(0, 0)
    g.act(SLOT + 3, vc("ratigan", "The Robot Queen"), PASS)
    assert g.r["flip"][0] == 1
    b = g.hero(0, "Basil", 1)
    rules.defeat_hero(g.r, 0, b)
    assert g.r["goal"][0] == 1


# ---------------------------------------------------------------- 8. episode


def test_first_objective_wins_and_ends():
    g = Game(n=3, villains="scar")
    _succession(g, 2, ["Mufasa", "Simba", "Nala", "Timon"])
    _succession(g, 0, ["Mufasa", "Simba", "Nala", "Timon"])
    g.at(1, 1)
    g.act(PASS)  # seat 2 starts next: it wins first
    assert g.r["terminated"] and g.r["winner"] == 2 and set(g.legal()) == set()


def test_win_reward_zero_sum():
    g = Game(n=3, villains="scar")
    _succession(g, 2, ["Mufasa", "Simba", "Nala", "Timon"])
    g.at(1, 1)
    g.act(PASS)
    assert g.r["returns"][:3].tolist() == [-0.5, -0.5, 1.0]


def test_truncation_after_max_turns():
    g = Game(villains="scar", max_turns=1)
    g.at(0, 1)
    g.act(PASS)
    assert g.r["truncated"] and not g.r["terminated"] and g.r["returns"][:2].tolist() == [0, 0]


def test_conservation_check_names_the_card():
    g = Game(villains="scar")
    c = g.vzone(0, HAND)[0]
    g.r["vz"][0 * 8 + LIMBO, 0] = c
    g.r["vz_n"][LIMBO] = 1
    with pytest.raises(ValueError, match=f"card {c} appears 2 times"):
        check_record(g.r)


# ---------------------------------------------------------------- more of sections 4 and 5


def test_card_kinds_go_where_they_belong():
    g = Game(villains="scar")
    hand(g, 0, "Hungry Hyena", "Long Live the King", "Pride", "Pride")
    g.r["power"][0] = 3
    g.at(0, 2)
    g.act(SLOT + 1, vc("scar", "Long Live the King"))  # an Effect resolves, then discarded
    assert g.r["power"][0] == 2 and g.vnames(0, VDISC) == ["Long Live the King"]
    g.act(LOCATION + 0)  # its Hero goes above a location (R53a)
    assert g.r["phase"] == PH_ACT and sum(len(g.fzone(0, HERO0 + k)) for k in range(4)) == 1
    g.at(0, 2)
    g.act(SLOT + 1, LOCATION + 1)  # the Hyena (forced: only playable card) goes below
    assert g.vnames(0, LOC0 + 1) == ["Hungry Hyena"]


def test_cards_affect_only_their_own_realm():
    g = Game(villains="scar")
    hand(g, 0, "Feeding Frenzy", "Pride", "Pride", "Injustice")
    g.r["power"][0] = 5
    g.hero(1, "Timon", 0)  # a Hero in the opponent's Realm is not in reach
    g.at(0, 2)
    assert SLOT + 1 not in g.legal()


def test_copies_are_interchangeable_lowest_id():
    g = Game(villains="ratigan")
    a = g.hero(0, "Queen's Guards", 2)
    b = g.hero(0, "Queen's Guards", 2)
    g.item_on(0, "Makeshift Balloon", a, 2)
    g.at(0, 2)
    g.act(SLOT + 3)  # location, type and destination forced: the Guard without the Item
    assert g.fzone(0, HERO0 + 1) == [b]


def test_discarded_villain_cards_to_discard_face_up():
    g = Game(n=3, villains="scar")
    hand(g, 0, "Long Live the King", "Pride", "Pride", "Injustice")
    g.r["power"][0] = 1
    g.at(0, 2)
    g.act(SLOT + 1)
    c = g.vzone(0, VDISC)
    assert len(c) == 1 and (g.r["vknown"][:3, c] == 2).all()


def test_fate_item_attaches_to_a_hero():
    g = Game(villains="scar")
    t = g.hero(1, "Timon", 1)
    g.hero(1, "Nala", 3)
    _stack_fate(g, 1, "Prophecy", "Rafiki's Stick")
    g.at(0, 0)
    g.act(SLOT + 1, fc("scar", "Prophecy"))
    assert set(g.legal()) == {LOCATION + 1, LOCATION + 3}
    g.act(LOCATION + 1)  # Timon forced
    p = g.fzone(1, HERO0 + 1)
    assert len(p) == 2 and g.r["attach"][[c for c in p if c != t][0]] == t


def test_fate_plays_one_card_into_the_opponents_realm():
    g = Game(villains="scar")
    _stack_fate(g, 1, "Timon", "Pumbaa")
    g.at(0, 0)
    g.act(SLOT + 1, fc("scar", "Timon"), LOCATION + 0)
    assert g.fnames(1, HERO0) == ["Timon"] and g.fnames(1, FDISC) == ["Pumbaa"]
    assert not any(g.fzone(0, HERO0 + k) for k in range(4))


def test_heroes_can_always_be_played():
    g = Game(villains="scar")
    for k in range(4):
        g.put_v(1, "Hungry Hyena", LOC0 + k)
    _stack_fate(g, 1, "Mufasa", "Simba")
    g.at(0, 0)
    g.act(SLOT + 1)
    assert set(g.legal()) == {fc("scar", "Mufasa"), fc("scar", "Simba")}


def test_objectives_checked_at_start_of_owners_turn():
    g = Game(villains="ratigan")
    g.r["locked"][0, 3] = 0
    hand(g, 0, "The Robot Queen", "Devious", "Devious", "Extravagant")
    g.r["power"][0] = 15
    g.at(0, 3)  # Buckingham Palace: PLAY bottom left
    g.act(SLOT + 2, LOCATION + 3)  # the Queen is there, but the check waits
    assert not g.r["terminated"] and g.vnames(0, LOC0 + 3) == ["The Robot Queen"]
    g.act(PASS)
    assert not g.r["terminated"] and g.r["turn_player"] == 1
    g.at(1, 1)
    g.act(PASS)
    assert g.r["terminated"] and g.r["winner"] == 0


def test_trigger_kinds():
    g = Game(villains="ratigan")
    g.put_v(0, "Felicia", LOC0 + 0)
    g.hero(0, "Olivia", 1)
    g.put_v(0, "Bartholomew", LOC0 + 0)
    g.r["power"][0] = 0
    g.at(0, 1)  # Toy Shop: MOVE_ITEM_ALLY bottom right
    g.act(SLOT + 3, vc("ratigan", "Felicia"))  # destination 1 forced; Felicia's move ability
    assert set(g.legal()) == {fc("ratigan", "Olivia"), PASS}
    g.act(fc("ratigan", "Olivia"))
    assert g.fnames(0, FDISC) == ["Olivia"]
    g.at(0, 0)  # Lair: ACTIVATE bottom left; Bartholomew discards himself for 2 Power
    g.act(SLOT + 2)
    assert g.r["power"][0] == 2 and g.vnames(0, VDISC) == ["Bartholomew"]


# ---------------------------------------------------------------- Conditions (R29, R54)


def _vanquish_sarabi(g):
    """Seat 0 (Scar) at The Savanna: Stampede (3) defeats Sarabi (3) at Elephant Graveyard.

    The whole Vanquish is forced (one location, one Hero, one Ally, then pass).
    """
    g.hero(0, "Sarabi", 2)
    g.put_v(0, "Stampede", LOC0 + 2)
    g.at(0, 1)
    g.act(SLOT + 3)


def test_conditions_only_on_opponents_turn_when_triggered():
    g = Game(villains="scar")
    hand(g, 0, "Injustice", "Pride", "Hungry Hyena", "Hungry Hyena")
    hand(g, 1, "Injustice", "Pride", "Hungry Hyena", "Hungry Hyena")
    g.r["power"][:2] = (0, 0)
    _vanquish_sarabi(g)
    assert g.fnames(0, FDISC) == ["Sarabi"]
    # the trigger is met on seat 0's turn: seat 1 (not seat 0) is asked, Injustice or pass
    assert g.r["phase"] == PH_WINDOW and g.r["current_player"] == 1
    assert set(g.legal()) == {vc("scar", "Injustice"), PASS}
    g.act(vc("scar", "Injustice"))
    assert g.r["power"][1] == 2 and g.vnames(1, VDISC) == ["Injustice"]
    assert g.vnames(1, HAND) == ["Hungry Hyena", "Hungry Hyena", "Pride"]
    assert (g.r["vknown"][:2, g.vids(1, "Injustice", VDISC)] == 2).all()  # played face up
    assert g.r["phase"] == PH_ACT and g.r["current_player"] == 0
    # a trigger not met asks nobody: seat 0 gains 1 Power and has 1 (Pride needs 6)
    g.act(SLOT + 2)  # ... then nothing useful is left: the forced pass ends the turn
    assert g.r["power"][0] == 1 and g.r["cev_n"][0] == 0
    assert g.r["phase"] == PH_MOVE and g.r["turn_player"] == 1
    assert g.vnames(1, HAND) == ["Hungry Hyena", "Hungry Hyena", "Pride"]


def test_condition_window_asks_only_holders_of_a_playable_condition():
    g = Game(n=4, villains="scar")
    hand(g, 1, "Hungry Hyena", "Hungry Hyena", "Ed", "Banzai")  # no Condition: not asked
    hand(g, 2, "Injustice", "Pride")  # Pride does not answer a Vanquish
    hand(g, 3, "Injustice", "Shenzi")
    g.r["power"][:4] = (0, 1, 2, 2)
    _vanquish_sarabi(g)
    assert g.r["phase"] == PH_WINDOW and g.r["current_player"] == 2  # turn order from seat 0
    assert set(g.legal()) == {vc("scar", "Injustice"), PASS}
    g.act(PASS)
    assert g.r["phase"] == PH_WINDOW and g.r["current_player"] == 3
    g.act(vc("scar", "Injustice"))
    assert list(g.r["power"][:4]) == [0, 1, 2, 4]
    assert g.vnames(2, HAND) == ["Injustice", "Pride"]
    assert g.r["phase"] == PH_ACT and g.r["current_player"] == 0


def test_condition_injustice_gain_two_when_an_opponent_defeats_a_hero():
    g = Game(villains="scar")
    hand(g, 1, "Injustice")
    g.r["power"][1] = 5
    _vanquish_sarabi(g)
    g.act(vc("scar", "Injustice"))
    assert g.r["power"][1] == 7 and g.vnames(1, VDISC) == ["Injustice"]


def test_condition_pride_draw_two_when_an_opponent_reaches_six_power():
    g = Game(villains="scar")
    hand(g, 1, "Pride", "Ed")
    g.r["power"][0] = 2
    g.at(0, 2)  # Elephant Graveyard: POWER3
    g.act(SLOT + 0)  # 5 < 6: nobody is asked
    assert g.r["power"][0] == 5 and g.r["phase"] == PH_ACT
    g2 = Game(villains="scar")
    hand(g2, 1, "Pride", "Ed")
    deck = len(g2.vzone(1, VDECK))
    g2.r["power"][0] = 3
    g2.at(0, 2)
    g2.act(SLOT + 0)  # 6: Pride's trigger
    assert g2.r["phase"] == PH_WINDOW and g2.r["current_player"] == 1
    g2.act(vc("scar", "Pride"))
    assert len(g2.vzone(1, HAND)) == 3 and len(g2.vzone(1, VDECK)) == deck - 2
    assert g2.vnames(1, VDISC) == ["Pride"] and g2.r["power"][1] == 1


def test_condition_ferocity_defeats_a_hero_of_its_owner_after_an_opponents_defeat():
    g = Game(n=3, villains="yzma")
    chaca = g.hero(1, "Chaca", 0)  # Strength 3: Ferocity can resolve
    g.hero(2, "Kuzco", 0)  # Strength 7 only: seat 2's Ferocity cannot resolve fully (R17)
    hand(g, 1, "Ferocity")
    hand(g, 2, "Ferocity")
    g.hero(0, "Peasant", 2)
    g.put_v(0, "Imperial Guards", LOC0 + 2)
    g.at(0, 3)  # Secret Lab: VANQUISH in slot 2
    g.act(SLOT + 2)
    assert g.fnames(0, FDISC) == ["Peasant"]
    assert g.r["phase"] == PH_WINDOW and g.r["current_player"] == 1
    g.act(vc("yzma", "Ferocity"))  # Chaca is the only choice: forced
    assert chaca in g.fzone(1, FDISC) and g.fnames(2, HERO0) == ["Kuzco"]
    assert g.vnames(1, VDISC) == ["Ferocity"] and g.vnames(2, HAND) == ["Ferocity"]
    assert g.r["phase"] == PH_ACT and g.r["current_player"] == 0


def test_condition_superiority_gain_two_when_an_opponent_plays_a_strong_ally():
    g = Game(villains="yzma")
    hand(g, 0, "Dagger", "Imperial Guards")
    hand(g, 1, "Superiority")
    g.r["power"][:2] = (3, 1)
    g.at(0, 0)  # Kuzco's Palace: PLAY in slot 2
    g.act(SLOT + 2, vc("yzma", "Dagger"), LOCATION + 1)  # an Item: no trigger
    assert g.r["phase"] == PH_ACT and g.r["power"][1] == 1
    g.r["used"][2] = 0
    g.act(SLOT + 2, LOCATION + 1)  # Imperial Guards (forced), Strength 3: the trigger
    assert g.r["phase"] == PH_WINDOW and g.r["current_player"] == 1
    g.act(vc("yzma", "Superiority"))
    assert g.r["power"][1] == 3 and g.vnames(1, VDISC) == ["Superiority"]


def test_condition_extravagant_gain_two_when_an_opponent_reaches_six_power():
    g = Game(villains="ratigan")
    hand(g, 1, "Extravagant", "Ruffians")
    g.r["power"][:2] = (3, 1)
    g.at(0, 2)  # The Rat Trap: POWER3
    g.act(SLOT + 0)
    assert g.r["phase"] == PH_WINDOW and set(g.legal()) == {vc("ratigan", "Extravagant"), PASS}
    g.act(vc("ratigan", "Extravagant"))
    assert list(g.r["power"][:2]) == [6, 3] and g.vnames(1, HAND) == ["Ruffians"]


def test_fate_effect_discarded_after_resolving_then_devious():
    g = Game(n=3, villains="ratigan")
    dawson = g.hero(1, "Dawson", 0)
    hand(g, 1, "Devious")
    hand(g, 2, "Devious")  # the Fate action is not against seat 2: not asked
    g.hero(2, "Toby", 0)
    g.put_f(1, "Mrs. Judson", FDECK)
    g.put_f(1, "Sabotage", FDECK)  # top
    g.at(0, 1)  # Toy Shop: FATE in slot 0
    g.act(SLOT + 0, TARGET + 0, fc("ratigan", "Sabotage"))  # no Item: Sabotage does nothing
    # the action has ended: Sabotage is in the Fate discard, then Devious is offered
    assert g.fnames(1, FDISC) == ["Mrs. Judson", "Sabotage"] and not g.fzone_abs(FLIMBO)
    assert g.r["phase"] == PH_WINDOW and g.r["current_player"] == 1
    g.act(vc("ratigan", "Devious"))  # Dawson is the only Hero: location and Hero forced
    assert set(g.legal()) == {LOCATION + 1, LOCATION + 2}  # Buckingham Palace is locked
    g.act(LOCATION + 2)
    assert dawson in g.fzone(1, HERO0 + 2) and g.vnames(1, VDISC) == ["Devious"]
    assert g.vnames(2, HAND) == ["Devious"]
    assert g.r["phase"] == PH_ACT and g.r["current_player"] == 0


def test_condition_one_per_player_per_event_none_in_reply():
    g = Game(n=3, villains="scar")
    hand(g, 1, "Injustice", "Injustice")
    hand(g, 2, "Pride")
    g.r["power"][:3] = (0, 5, 2)
    _vanquish_sarabi(g)
    g.act(vc("scar", "Injustice"))  # seat 1 to 7 Power: Pride does not answer a Condition
    assert g.r["power"][1] == 7 and g.vnames(1, HAND) == ["Injustice"]  # asked once
    assert g.r["phase"] == PH_ACT and g.r["current_player"] == 0
