"""The Fathoming's rules, one hand-built position per rule (rules: envs/fathoming/RULES.md).

Positions are drawn as::

    player_0 (to act)  energy 10  loot 0
      W0 Village Guard 2/3 dmg 0 +Iron Sword      slot 0 holds a Warrior and its Items
      PT Sarah Mart                               Personal Terrain
    player_1           energy 0   loot 0
      W0 Wolf Pup 2/2
    global: Party Bus (player_1)

``Game.arrange`` builds a position: every card not named lies in its owner's deck
(``deck_top`` first to be drawn). ``Game.act`` applies a decision by name with
``K.step_one``, which also applies every following forced (single-choice) decision.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from fatezoo.envs.core import kernels as K
from fatezoo.envs.core.knowledge import IN_ZONE, KNOWN
from fatezoo.envs.core.registry import get_spec
from fatezoo.envs.core.rng import seed_words
from fatezoo.envs.core.testing import RuleGame
from fatezoo.envs.fathoming import check_record, configure, deck_problem, rules
from fatezoo.envs.fathoming.cards import (
    A_COST,
    ABIL,
    ACTIVATE_ABIL,
    CARD_NAMES,
    CLASS_NAMES,
    CTYPE,
    DIVINE,
    EXPANSION,
    KIND_BY_NAME,
    NUM_PROPS,
    P_ATK,
    P_ATK_COST,
    P_HP,
    P_ITEM_LIMIT,
    PRESETS,
    WARRIOR,
)
from fatezoo.envs.fathoming.encode import OBS
from fatezoo.envs.fathoming.state import (
    ACTION_NAMES,
    DECK0,
    DECK_SIZE,
    DISC0,
    GLOBAL_Z,
    HAND0,
    MAIN,
    NUM_ACTIONS,
    PICK_PH,
    PTER0,
    R_ALT,
    R_DECKOUT,
    R_LOOT,
    SLOT0,
    SLOTS,
)

SPEC = get_spec("fathoming")
BASE_WARRIORS = [n for k, n in enumerate(CARD_NAMES) if CTYPE[k] == WARRIOR and not EXPANSION[k]]


def deck(*names) -> list[str]:
    """A legal 40-card list: ``names``, then one of each base Warrior in data order (the
    last ones left out to make room)."""
    c = Counter(names)
    out = list(names)
    for w in BASE_WARRIORS:
        if len(out) < DECK_SIZE and c[w] < 3:
            out.append(w)
            c[w] += 1
    return out


def A(name: str) -> int:
    return ACTION_NAMES.index(name)


class Game(RuleGame):
    """A Fathoming game (the core's rule-test harness) plus a position builder."""

    SPEC = SPEC

    def __init__(self, deck0=None, deck1=None, divine=False, reward="win", max_turns=200,
                 seed=0):
        super().__init__(seed=seed, decks=(deck0 or deck(), deck1 or deck()), divine=divine,
                         reward=reward, max_turns=max_turns)

    def kind(self, c) -> str:
        return CARD_NAMES[int(self.r["deck_list"][c // DECK_SIZE, c % DECK_SIZE])]

    def zone(self, z) -> list[str]:
        return [self.kind(int(c)) for c in self.r["zone"][z, : self.r["zone_n"][z]]]

    def slot(self, p, k) -> list[str]:
        return self.zone(SLOT0 + SLOTS * p + k)

    def arrange(self, turn=0, hands=((), ()), warriors=((), ()), personal=(None, None),
                global_=None, energy=(10, 10), loot=(0, 0), done=(1, 1), deck_top=((), ()),
                discard=((), ()), first=0):
        """Build a position; ``warriors[p]`` lists ``name`` or ``(name, damage, [items])``
        (None: an empty slot); ``global_`` is ``(name, owner)``."""
        r = self.r
        r["zone_n"][:] = 0
        r["zone"][:] = -1
        r["known"][:] = 0
        r["dmg"][:] = 0
        free = {p: list(range(DECK_SIZE * p, DECK_SIZE * (p + 1))) for p in range(2)}

        def take(p, name):
            for c in free[p]:
                if self.kind(c) == name:
                    free[p].remove(c)
                    return c
            raise AssertionError(f"no {name} left in player_{p}'s deck list")

        def put(z, c, public):
            r["zone"][z, r["zone_n"][z]] = c
            r["zone_n"][z] += 1
            if public:
                r["known"][:, c] = KNOWN

        tops = {p: [take(p, n) for n in deck_top[p]] for p in range(2)}
        for p in range(2):
            for name in hands[p]:
                c = take(p, name)
                put(HAND0 + p, c, False)
                r["known"][p, c] = KNOWN
            for k, spec in enumerate(warriors[p]):
                if spec is None:
                    continue
                name, dmg, items = (spec, 0, []) if isinstance(spec, str) else spec
                c = take(p, name)
                put(SLOT0 + SLOTS * p + k, c, True)
                r["dmg"][c] = dmg
                for it in items:
                    put(SLOT0 + SLOTS * p + k, take(p, it), True)
            if personal[p]:
                put(PTER0 + p, take(p, personal[p]), True)
            for name in discard[p]:
                put(DISC0 + p, take(p, name), True)
        if global_:
            put(GLOBAL_Z, take(global_[1], global_[0]), True)
        for p in range(2):
            for c in free[p] + tops[p][::-1]:
                put(DECK0 + p, c, False)
                r["known"][p, c] = IN_ZONE
        r["turn_player"] = r["current_player"] = turn
        r["first"] = first
        r["phase"] = MAIN
        r["pend"][:] = (0, -1, -1)
        r["energy"][:] = energy
        r["loot"][:] = loot
        r["done_turns"][:] = done
        r["turn"] = sum(done)
        r["attacks"][:] = 0
        r["used"][:] = 0
        r["cancels"] = 0
        r["temp_n"] = 0
        r["winner"] = -1
        r["reason"] = 0
        r["terminated"] = r["truncated"] = 0
        r["last_search"][:] = -1
        check_record(r)
        K.mask_one(self.states, 0, self.mask)

    def props(self):
        props = np.zeros((2, SLOTS, NUM_PROPS), np.int64)
        cls = np.zeros((2, SLOTS), np.int64)
        rules.compute_props(self.r, props, cls)
        return props, cls


def classes(mask) -> set[str]:
    return {CLASS_NAMES[b] for b in range(len(CLASS_NAMES)) if int(mask) >> b & 1}


# ---------------------------------------------------------------- deck construction R1-R8


def test_two_players_only():
    with pytest.raises(ValueError, match="num_players must be in \\[2, 2\\], got 3"):
        SPEC.options(num_players=3)


def test_deck_needs_exactly_40_cards():
    with pytest.raises(ValueError, match="deck for player_0 has 39 cards; a deck needs "
                                         "exactly 40"):
        configure(decks=(deck()[:39], "random"))


def test_deck_at_most_3_copies():
    bad = deck("Wolf Pup", "Wolf Pup", "Wolf Pup", "Wolf Pup")[:40]
    with pytest.raises(ValueError, match="player_1 has 4 copies of 'Wolf Pup'; at most 3"):
        configure(decks=("random", bad))


def test_deck_needs_a_warrior():
    assets = [CARD_NAMES[k] for k in range(len(CARD_NAMES))
              if CTYPE[k] != WARRIOR and not EXPANSION[k]]
    lst = [a for a in assets for _ in range(2)][:40]
    assert len(lst) == 40
    with pytest.raises(ValueError, match="has no Warrior; a deck must include at least 1"):
        configure(decks=lst)


def test_base_game_two_copies_of_assets_and_terrains():
    lst = deck("Fireball", "Fireball", "Fireball")
    with pytest.raises(ValueError, match="3 copies of 'Fireball'; the base game allows at "
                                         "most 2 copies of an Asset or Terrain"):
        configure(decks=lst)
    configure(decks=lst, divine=True)  # 3 of anything with Divine Intervention
    configure(decks=deck("Wolf Pup", "Wolf Pup", "Wolf Pup"))  # Warriors: 3 in the base game


def test_divine_three_copies_one_divine_card():
    two = deck("Seraph of the Deep", "Divine Throne")
    with pytest.raises(ValueError, match="has 2 Divine cards; at most 1 Divine card per deck"):
        configure(decks=two, divine=True)
    configure(decks=deck("Seraph of the Deep", "Sarah Mart", "Sarah Mart", "Sarah Mart"),
              divine=True)


def test_expansion_cards_need_divine():
    with pytest.raises(ValueError, match="'Human Medallion', a Divine Intervention card; pass "
                                         "divine=True"):
        configure(decks=deck("Human Medallion"))


def test_decks_option_preset_list_random():
    f = configure(decks=("Pixie Swarm", deck("Fireball")))
    assert [CARD_NAMES[k] for k in f["deck_opt"][0]] == PRESETS["Pixie Swarm"]
    assert [CARD_NAMES[k] for k in f["deck_opt"][1]] == deck("Fireball")
    assert (configure()["deck_opt"] == -1).all()  # "random" for both
    with pytest.raises(ValueError, match="unknown deck 'Nope' for player_0; expected 'random'"):
        configure(decks="Nope")
    with pytest.raises(ValueError, match="preset 'Moon Pack Rising' \\(player_0\\) needs "
                                         "divine=True"):
        configure(decks="Moon Pack Rising")
    with pytest.raises(ValueError, match="unknown card 'Nope' in the deck for player_1"):
        configure(decks=("random", deck()[:39] + ["Nope"]))


def test_random_decks_are_legal_and_seeded(long_run):
    # 8 seeds per option in CI (each draws two decks); 500 with --long
    for divine in (False, True):
        lists = []
        for seed in range(500 if long_run else 8):
            fields = SPEC.options(divine=divine)
            st = SPEC.new_states(1, fields)
            st["rng"] = seed_words(seed, 0)
            K.reset_one(st, 0, np.zeros(NUM_ACTIONS, np.int8))
            for p in range(2):
                kinds = [int(k) for k in st[0]["deck_list"][p]]
                assert deck_problem(kinds, divine, "x") is None
                lists.append(tuple(kinds))
            again = SPEC.new_states(1, fields)
            again["rng"] = seed_words(seed, 0)
            K.reset_one(again, 0, np.zeros(NUM_ACTIONS, np.int8))
            assert (again["deck_list"] == st["deck_list"]).all()  # same seed, same decks
        assert len(set(lists)) == len(lists)  # every deck different
        if divine:
            assert any(DIVINE[list(k)].any() for k in lists)


# ---------------------------------------------------------------- setup and turn R9-R15


def test_setup_shuffle_and_draw_five():
    g = Game(seed=3)
    r = g.r
    f = int(r["first"])
    assert r["zone_n"][HAND0 + f] == 6 and r["zone_n"][HAND0 + 1 - f] == 5  # 5 + Draw Phase
    assert r["zone_n"][DECK0 + f] == 34 and r["zone_n"][DECK0 + 1 - f] == 35
    orders = {tuple(Game(seed=s).r["zone"][DECK0, :34]) for s in range(5)}
    assert len(orders) == 5
    for p in range(2):  # a player knows their own hand, not the opponent's
        hand = r["zone"][HAND0 + p, : r["zone_n"][HAND0 + p]]
        assert (r["known"][p, hand] == KNOWN).all() and (r["known"][1 - p, hand] == 0).all()


def test_coin_flip_first_player():
    firsts = [int(Game(seed=s).r["first"]) for s in range(200)]
    assert 70 < sum(firsts) < 130
    assert firsts[:20] == [int(Game(seed=s).r["first"]) for s in range(20)]
    for s in range(5):
        g = Game(seed=s)
        assert g.r["turn_player"] == g.r["first"] == g.r["current_player"]


def test_draw_phase_draws_one():
    # player_0 ends; player_1 begins: Quick Study on top of their deck is drawn
    g = Game(deck("Fireball"), deck("Quick Study"))
    g.arrange(turn=0, hands=(["Fireball"], []), warriors=(["Village Guard"], ["Wolf Pup"]),
              deck_top=((), ["Quick Study"]))
    g.act("end turn")
    assert g.r["turn_player"] == 1 and g.zone(HAND0 + 1) == ["Quick Study"]
    assert g.r["zone_n"][DECK0 + 1] == 40 - 1 - 1


def test_energy_four_plus_completed_turns_max_ten():
    # player_1 went first (R13 adds nothing): R12 alone
    g = Game()
    g.arrange(turn=0, warriors=(["Village Guard"], ["Wolf Pup"]), done=(3, 2), first=1)
    g.act("end turn")
    assert g.r["energy"][1] == 4 + 2 and g.r["energy"][0] == 0
    g.arrange(turn=0, warriors=(["Village Guard"], ["Wolf Pup"]), done=(9, 8), first=1)
    g.act("end turn")
    assert g.r["energy"][1] == 10  # 4 + 8 = 12, at most 10


def test_base_game_second_player_energy_is_one_ahead():
    # R13: the second player counts the first player's opening turn on every turn, so
    # the first player runs 4, 5, 6, ... and the second 5, 6, 7, ... up to 10
    for seed in range(6):
        g = Game(seed=seed)
        f = int(g.r["first"])
        seen = {f: [], 1 - f: []}
        for _ in range(16):
            seen[int(g.r["turn_player"])].append(int(g.r["energy"][g.r["turn_player"]]))
            g.act("end turn")
        assert seen[f] == [4, 5, 6, 7, 8, 9, 10, 10]
        assert seen[1 - f] == [5, 6, 7, 8, 9, 10, 10, 10]


def test_divine_both_players_four_energy_on_first_turn():
    g = Game(divine=True, seed=1)
    f = int(g.r["first"])
    assert g.r["energy"][f] == 4
    g.act("end turn")
    assert g.r["energy"][1 - f] == 4


def test_end_phase_effects_then_energy_returns():
    # player_0: W0 Leviathan Calf dmg 3 (end of turn: heal 1 each), W1 Reef Scout dmg 1
    #           PT Kelp Sanctuary (end of turn: heal 1 each); energy 7
    g = Game(deck(*["Leviathan Calf", "Kelp Sanctuary"]))
    g.arrange(warriors=([("Leviathan Calf", 3, []), ("Reef Scout", 1, [])], ["Wolf Pup"]),
              personal=("Kelp Sanctuary", None), energy=(7, 0))
    calf, scout = (int(g.r["zone"][SLOT0 + k, 0]) for k in (0, 1))
    g.act("end turn")
    assert g.r["dmg"][calf] == 1 and g.r["dmg"][scout] == 0
    assert g.r["energy"][0] == 0


# ---------------------------------------------------------------- play phase R16-R28


def test_play_phase_any_order_until_end_turn():
    g = Game(deck("Fireball", "Iron Sword"), deck("Sarah Mart"))
    g.arrange(hands=(["Village Guard", "Fireball", "Iron Sword"], []),
              warriors=([], ["Wolf Pup"]), personal=(None, "Sarah Mart"), energy=(10, 0))
    g.act("play Village Guard", "play Iron Sword", "target own warrior 0",
          "attack with warrior 0", "target opposing warrior 0")
    assert g.r["turn_player"] == 0 and g.is_legal("end turn") and g.is_legal("play Fireball")


def test_summon_warrior_pays_cost_at_most_four():
    g = Game(deck("Knight Captain", "Wolf Pup", "Wolf Pup"))
    g.arrange(hands=(["Knight Captain", "Village Guard"], []),
              warriors=(["Wolf Pup", "Wolf Pup", "Wolf Pup"], ["Reef Scout"]), energy=(9, 0))
    assert g.is_legal("play Knight Captain")
    g.act("play Knight Captain")
    assert g.r["energy"][0] == 9 - 5 and g.slot(0, 3) == ["Knight Captain"]
    assert not g.is_legal("play Village Guard")  # 4 Warriors: the zone is full


def test_personal_terrain_replace_discards_old():
    g = Game(deck("Sarah Mart", "Fairy Ring"))
    g.arrange(hands=(["Fairy Ring"], []), warriors=(["Village Guard"], ["Wolf Pup"]),
              personal=("Sarah Mart", None), energy=(5, 0))
    mart = int(g.r["zone"][PTER0, 0])
    g.r["dmg"][mart] = 2
    g.act("play Fairy Ring")
    assert g.zone(PTER0) == ["Fairy Ring"] and g.zone(DISC0) == ["Sarah Mart"]
    assert g.r["energy"][0] == 3 and g.r["dmg"][mart] == 0


def test_global_terrain_blocked_while_opponent_controls_it():
    g = Game(deck("Full Moon"), deck("Town Square"))
    g.arrange(hands=(["Full Moon"], []), warriors=(["Village Guard"], ["Wolf Pup"]),
              global_=("Town Square", 1))
    assert not g.is_legal("play Full Moon")
    g.arrange(hands=(["Full Moon"], []), warriors=(["Village Guard"], ["Wolf Pup"]))
    assert g.is_legal("play Full Moon")


def test_global_terrain_replace_own():
    g = Game(deck("Full Moon", "Town Square"))
    g.arrange(hands=(["Full Moon"], []), warriors=(["Village Guard"], ["Wolf Pup"]),
              global_=("Town Square", 0), energy=(5, 0))
    g.act("play Full Moon")
    assert g.zone(GLOBAL_Z) == ["Full Moon"] and g.zone(DISC0) == ["Town Square"]
    assert g.r["energy"][0] == 2


def test_action_resolves_immediately_then_discard():
    g = Game(deck("Quick Study", "Fireball"))
    g.arrange(hands=(["Quick Study"], []), warriors=(["Village Guard"], ["Wolf Pup"]),
              energy=(5, 0), deck_top=(["Fireball", "Wolf Pup"], []))
    g.act("play Quick Study")
    assert sorted(g.zone(HAND0)) == ["Fireball", "Wolf Pup"]
    assert g.zone(DISC0) == ["Quick Study"] and g.r["energy"][0] == 3


def test_item_one_per_warrior_unless_an_effect_says():
    # W0 Village Guard +Iron Sword, W1 Consumer (may hold 3)
    g = Game(deck("Iron Sword", "Iron Sword", "Tower Shield", "Tower Shield", "Consumer"))
    g.arrange(hands=(["Iron Sword", "Tower Shield", "Tower Shield"], []),
              warriors=([("Village Guard", 0, ["Iron Sword"]), "Consumer"], ["Wolf Pup"]))
    g.act("play Iron Sword")
    assert g.legal_names() == ["target own warrior 1", "cancel: back to the main step"]
    g.act("target own warrior 1", "play Tower Shield", "target own warrior 1",
          "play Tower Shield", "target own warrior 1")
    assert g.slot(0, 1) == ["Consumer", "Iron Sword", "Tower Shield", "Tower Shield"]


def test_items_discarded_with_their_warrior():
    g = Game(deck("Iron Sword", "Fireball"), deck("Fireball"))
    g.arrange(turn=1, hands=([], ["Fireball"]),
              warriors=([("Village Guard", 0, ["Iron Sword"])], ["Wolf Pup"]))
    g.act("play Fireball", "target opposing warrior 0")
    assert g.slot(0, 0) == [] and sorted(g.zone(DISC0)) == ["Iron Sword", "Village Guard"]


def test_activate_once_per_turn():
    # W0 Scholar of Tides (Activate 1: draw); the Global Town Square (either player)
    g = Game(deck("Scholar of Tides"), deck("Town Square"))
    g.arrange(warriors=(["Scholar of Tides"], ["Wolf Pup"]), global_=("Town Square", 1),
              energy=(5, 0))
    g.act("activate warrior 0")
    assert g.r["energy"][0] == 4 and g.r["zone_n"][HAND0] == 1
    assert not g.is_legal("activate warrior 0") and g.is_legal("activate global terrain")
    g.act("activate global terrain")
    assert g.r["energy"][0] == 3 and not g.is_legal("activate global terrain")


def test_attack_once_per_turn_pays_attack_cost():
    g = Game(deck(), deck("Sarah Mart"))
    g.arrange(warriors=(["Feral Berserker"], ["Pebble Golem"]), personal=(None, "Sarah Mart"),
              energy=(7, 0))
    g.act("attack with warrior 0")
    assert g.legal_names() == ["target opposing warrior 0", "target opposing personal terrain",
                               "cancel: back to the main step"]
    g.act("target opposing personal terrain")
    assert g.r["energy"][0] == 4 and not g.is_legal("attack with warrior 0")


def test_pay_two_energy_to_draw():
    g = Game()
    g.arrange(warriors=(["Village Guard"], ["Wolf Pup"]), energy=(3, 0),
              deck_top=(["Wolf Pup"], []))
    g.act("pay 2 energy: draw")
    assert g.zone(HAND0) == ["Wolf Pup"] and g.r["energy"][0] == 1
    assert not g.is_legal("pay 2 energy: draw")


# ---------------------------------------------------------------- combat R29-R32


def test_combat_damage_after_effects_on_both():
    # Wolf Pup 2 ATK + Full Moon (Global, Werewolves +2) + Spiked Collar (+2 if Werewolf)
    # attacks Iron Colossus (Guard 1, HP 10): 6 - 1 = 5 damage
    g = Game(deck("Full Moon", "Spiked Collar"), deck())
    g.arrange(warriors=([("Wolf Pup", 0, ["Spiked Collar"])], ["Iron Colossus"]),
              global_=("Full Moon", 0))
    sentinel = int(g.r["zone"][SLOT0 + SLOTS, 0])
    g.act("attack with warrior 0", "target opposing warrior 0")
    assert g.r["dmg"][sentinel] == 5


def test_damage_at_health_destroys_state_based():
    g = Game(deck(), deck("The Fathoms"))
    g.arrange(warriors=(["Bloodmoon Brute"], [("Coral Sentinel", 5, []), "Reef Scout"]),
              global_=("The Fathoms", 1))  # Coral Sentinel HP 5 + 2 = 7 under The Fathoms
    g.r["dmg"][int(g.r["zone"][GLOBAL_Z, 0])] = 1  # The Fathoms (HP 6) has 1 damage
    assert g.props()[0][1, 0, P_HP] == 7
    g.act("attack with warrior 0", "target global terrain")  # 5 damage: 6 >= HP 6
    assert g.zone(GLOBAL_Z) == [] and g.slot(1, 0) == []  # 5 >= 5 once The Fathoms is gone
    assert g.r["loot"][0] == 2


def test_loot_is_half_summon_cost_rounded_up():
    g = Game(deck("Assassinate", "Assassinate"))
    g.arrange(hands=(["Assassinate", "Assassinate"], []),
              warriors=(["Village Guard"], ["Bloodmoon Brute", "Wolf Pup"]), energy=(10, 0))
    g.act("play Assassinate", "target opposing warrior 0")
    assert g.r["loot"][0] == 3  # ceil(5 / 2)
    g.act("play Assassinate", "target opposing warrior 1")
    assert g.r["loot"][0] == 3 + 1  # ceil(2 / 2)


def test_destroying_a_terrain_gives_no_loot():
    g = Game(deck("Demolish"), deck("Sarah Mart"))
    g.arrange(hands=(["Demolish"], []), warriors=(["Village Guard"], ["Wolf Pup"]),
              personal=(None, "Sarah Mart"))
    g.act("play Demolish", "target opposing personal terrain")
    assert g.zone(PTER0 + 1) == [] and g.zone(DISC0 + 1) == ["Sarah Mart"]
    assert g.r["loot"].tolist() == [0, 0]


# ---------------------------------------------------------------- other rules R33-R39


def test_costs_never_below_zero():
    # Fairy Ring (-1 Attack Cost for Pixies) on Glimmer Sprite (Attack Cost 1) with
    # Swift Boots (-1): 1 - 2 = -1 -> 0
    g = Game(deck("Fairy Ring", "Swift Boots"))
    g.arrange(warriors=([("Glimmer Sprite", 0, ["Swift Boots"])], ["Wolf Pup"]),
              personal=("Fairy Ring", None), energy=(0, 0))
    assert g.props()[0][0, 0, P_ATK_COST] == 0
    assert g.is_legal("attack with warrior 0")  # with 0 Energy


def test_hand_costs_read_every_hand_source_on_the_board():
    # Moonlit Glade (Global, player_1's): Pixies cost 1 less for both players; Quarry and
    # Goblin Warren (Personal) and Drakeling (Warrior): only their controller's hand. The
    # legal mask and the observation read the sources found once per call
    # (rules.hand_sources, a bit per zone); play_card pays rules.hand_cost
    names = ["Glimmer Sprite", "Pebble Golem", "Cinder Whelp", "Goblin Sneak", "Village Guard"]
    g = Game(deck("Quarry", "Drakeling", *names),
             deck("Moonlit Glade", "Goblin Warren", "Drakeling", *names))
    g.arrange(hands=(names, names), warriors=(["Drakeling"], ["Drakeling"]),
              personal=("Quarry", "Goblin Warren"), global_=("Moonlit Glade", 1))
    want = {0: [0, 1, 1, 1, 2], 1: [0, 2, 1, 0, 2]}  # printed 1, 2, 2, 1, 2
    sources = rules.hand_sources(g.r)
    for p in range(2):
        kinds = [KIND_BY_NAME[n] for n in names]
        assert [rules.hand_cost_if(g.r, p, k, sources) for k in kinds] == want[p]
        assert [rules.hand_cost(g.r, p, k) for k in kinds] == want[p]
        obs = np.zeros(SPEC.obs_size, np.float32)
        K.encode_one(g.states, 0, p, obs)
        assert OBS.view(obs, "hand_cost")[kinds].tolist() == [
            np.float32(c / 10.0) for c in want[p]]
        assert OBS.view(obs, "hand")[kinds].tolist() == [np.float32(1.0 / 3.0)] * 5
    # no source on the board: the printed costs
    g.arrange(hands=(names, names), warriors=(["Village Guard"], ["Wolf Pup"]))
    assert rules.hand_sources(g.r) == 0
    assert [rules.hand_cost_if(g.r, 0, KIND_BY_NAME[n], 0) for n in names] == [1, 2, 2, 1, 2]


def test_no_warriors_at_end_of_turn_gives_opponent_loot_from_second_turn():
    g = Game()
    g.arrange(warriors=([], ["Wolf Pup"]), done=(0, 0), first=0)
    g.act("end turn")
    assert g.r["loot"].tolist() == [0, 0]  # player_0's first turn
    g.arrange(warriors=([], ["Wolf Pup"]), done=(1, 1), first=0)
    g.act("end turn")
    assert g.r["loot"].tolist() == [0, 1]


def test_search_reveals_the_chosen_card_to_the_opponent():
    g = Game(deck("Scout the Depths"))
    g.arrange(hands=(["Scout the Depths"], []), warriors=(["Village Guard"], ["Wolf Pup"]))
    g.act("play Scout the Depths")
    assert g.r["phase"] == PICK_PH and g.is_legal("pick Knight Captain")
    assert not g.is_legal("pick Scout the Depths")  # Warriors only
    g.act("pick Knight Captain")
    c = [int(x) for x in g.r["zone"][HAND0, : g.r["zone_n"][HAND0]]][0]
    assert g.kind(c) == "Knight Captain" and g.r["known"][1, c] == KNOWN
    obs = np.zeros(SPEC.obs_size, np.float32)
    K.encode_one(g.states, 0, 1, obs)
    k = KIND_BY_NAME["Knight Captain"]
    assert OBS.view(obs, "opp_hand_known")[k] > 0 and OBS.view(obs, "last_search")[1, k] == 1


def test_search_shuffles_the_deck_afterwards():
    orders = set()
    for seed in range(4):
        g = Game(deck("Scout the Depths"), seed=seed)
        g.arrange(hands=(["Scout the Depths"], []), warriors=(["Village Guard"], ["Wolf Pup"]))
        before = g.r["zone"][DECK0, : g.r["zone_n"][DECK0]].tolist()
        g.act("play Scout the Depths", "pick Wolf Pup")
        after = g.r["zone"][DECK0, : g.r["zone_n"][DECK0]].tolist()
        assert sorted(after) != sorted(before) and after != sorted(after)
        orders.add(tuple(after))
        deck_cards = np.array(after)
        assert (g.r["known"][0, deck_cards] == IN_ZONE).all()  # contents known, not order
    assert len(orders) == 4


def test_ten_loot_wins_at_once():
    g = Game(deck("Plunder"))
    g.arrange(hands=(["Plunder"], []), warriors=(["Village Guard"], ["Wolf Pup"]),
              loot=(9, 0))
    g.act("play Plunder")
    assert g.r["terminated"] == 1 and g.r["winner"] == 0 and g.r["reason"] == R_LOOT
    assert g.r["returns"][:2].tolist() == [1.0, -1.0] and g.r["loot"][0] == 10


def test_empty_deck_at_turn_start_loses():
    g = Game()
    g.arrange(warriors=(["Village Guard"], ["Wolf Pup"]))
    z = DECK0 + 1
    cards = g.r["zone"][z, : g.r["zone_n"][z]].copy()
    g.r["zone"][DISC0 + 1, : len(cards)] = cards  # player_1's deck milled away
    g.r["zone_n"][DISC0 + 1] = len(cards)
    g.r["zone_n"][z] = 0
    g.r["known"][:, cards] = KNOWN
    check_record(g.r)
    g.act("end turn")
    assert g.r["terminated"] == 1 and g.r["winner"] == 0 and g.r["reason"] == R_DECKOUT


# ---------------------------------------------------------------- effect order R40-R44


def test_effect_order_party_bus_sarah_mart_consumer():
    # player_0: W0 Village Guard, W1 Consumer, PT Sarah Mart; player_1: W0 Wolf Pup;
    # Global: Party Bus (player_1). Items: 5 Iron Swords/Tower Shields in hand.
    mine = deck("Sarah Mart", "Consumer", "Iron Sword", "Iron Sword", "Tower Shield",
                "Tower Shield", "Chainmail", "Chainmail")
    theirs = deck("Party Bus", "Iron Sword")
    g = Game(mine, theirs)
    g.arrange(hands=(["Iron Sword", "Iron Sword", "Tower Shield", "Tower Shield",
                      "Chainmail", "Chainmail"], ["Iron Sword"]),
              warriors=(["Village Guard", "Consumer"], ["Wolf Pup"]),
              personal=("Sarah Mart", None), global_=("Party Bus", 1), energy=(10, 10))
    props, _ = g.props()
    assert props[0, 0, P_ITEM_LIMIT] == 2 and props[0, 1, P_ITEM_LIMIT] == 3
    assert props[1, 0, P_ITEM_LIMIT] == 0
    g.act("play Iron Sword", "target own warrior 0", "play Iron Sword", "target own warrior 0")
    g.act("play Tower Shield")
    assert not g.mask[A("target own warrior 0")] and g.mask[A("target own warrior 1")]
    g.act("target own warrior 1", "play Tower Shield", "target own warrior 1")
    g.act("play Chainmail", "target own warrior 1")
    assert g.slot(0, 0) == ["Village Guard", "Iron Sword", "Iron Sword"]
    assert len(g.slot(0, 1)) == 4
    assert not g.is_legal("play Chainmail")  # no Warrior has room left
    assert g.props()[0][0, 0, P_ATK] == 2  # the Items have no effect under Party Bus
    g.act("end turn")
    assert not g.is_legal("play Iron Sword")  # the opponent's Warriors may hold none


def test_action_effects_overrule_terrains_and_warriors():
    # Free Strike (Action, Attack Cost 0 this turn) beats Greatsword's +1 (Warrior layer)
    g = Game(deck("Free Strike", "Greatsword"))
    g.arrange(hands=(["Free Strike"], []),
              warriors=([("Bloodmoon Brute", 0, ["Greatsword"])], ["Wolf Pup"]), energy=(2, 0))
    assert g.props()[0][0, 0, P_ATK_COST] == 3 + 1
    g.act("play Free Strike")
    assert g.props()[0][0, 0, P_ATK_COST] == 0 and g.r["energy"][0] == 0
    assert g.is_legal("attack with warrior 0")


def test_global_terrain_applies_before_personal():
    # Global Party Bus sets item limit 0, then Personal Sarah Mart sets 2: Sarah Mart wins
    g = Game(deck("Sarah Mart", "Party Bus"))
    g.arrange(warriors=(["Village Guard"], ["Wolf Pup"]), personal=("Sarah Mart", None),
              global_=("Party Bus", 0))
    props, _ = g.props()
    assert props[0, 0, P_ITEM_LIMIT] == 2 and props[1, 0, P_ITEM_LIMIT] == 0


# ---------------------------------------------------------------- Divine Intervention R45-R48


def test_divine_cost_is_ten_minus_the_loot_gap():
    g = Game(deck("Seraph of the Deep"), divine=True)
    g.arrange(hands=(["Seraph of the Deep"], []), warriors=(["Village Guard"], ["Wolf Pup"]),
              loot=(3, 7), energy=(6, 0))
    k = KIND_BY_NAME["Seraph of the Deep"]
    assert rules.hand_cost(g.r, 0, k) == 6 and g.is_legal("play Seraph of the Deep")
    g.arrange(hands=(["Seraph of the Deep"], []), warriors=(["Village Guard"], ["Wolf Pup"]),
              loot=(7, 3), energy=(9, 0))
    assert rules.hand_cost(g.r, 0, k) == 10 and not g.is_legal("play Seraph of the Deep")


def test_medallions_change_class_two_make_both():
    g = Game(deck("Human Medallion", "Human Medallion", "Werewolf Medallion", "Sarah Mart"),
             divine=True)
    g.arrange(warriors=([("Glimmer Sprite", 0, ["Human Medallion", "Werewolf Medallion"]),
                         ("Wolf Pup", 0, ["Human Medallion"])], ["Wolf Pup"]),
              personal=("Sarah Mart", None))
    _, cls = g.props()
    assert classes(cls[0, 0]) == {"HUMAN", "WEREWOLF"}
    assert classes(cls[0, 1]) == {"HUMAN"}
    assert classes(cls[1, 0]) == {"WEREWOLF"}


def test_alternate_win_conditions():
    # Moon Pack Totem: 4 Werewolf Warriors on your field win at once
    g = Game(deck("Moon Pack Totem"), divine=True)
    g.arrange(hands=(["Pack Alpha"], []),
              warriors=(["Wolf Pup", "Howler", "Feral Berserker"], ["Reef Scout"]),
              personal=("Moon Pack Totem", None))
    assert not g.r["terminated"]
    g.act("play Pack Alpha")
    assert g.r["terminated"] == 1 and g.r["winner"] == 0 and g.r["reason"] == R_ALT


def test_place_in_play_respects_zone_limits():
    g = Game(deck("Call to Arms", "Wolf Pup", "Wolf Pup"))
    g.arrange(hands=(["Call to Arms"], []),
              warriors=(["Wolf Pup", "Wolf Pup", "Wolf Pup", "Village Guard"], ["Reef Scout"]))
    before = g.r["zone"][DECK0, : g.r["zone_n"][DECK0]].tolist()
    g.act("play Call to Arms")
    assert g.r["phase"] == MAIN and g.r["zone"][DECK0, : g.r["zone_n"][DECK0]].tolist() == before
    g.arrange(hands=(["Call to Arms"], []), warriors=(["Wolf Pup"], ["Reef Scout"]))
    g.act("play Call to Arms")
    assert g.is_legal("pick Village Guard") and not g.is_legal("pick Knight Captain")  # cost <= 3
    g.act("pick Village Guard")
    assert g.slot(0, 1) == ["Village Guard"]


# ---------------------------------------------------------------- rewards and truncation


def test_rewards_win_and_loot():
    g = Game(deck("Plunder", "Plunder"), reward="score")
    g.arrange(hands=(["Plunder", "Plunder"], []), warriors=(["Village Guard"], ["Wolf Pup"]),
              loot=(8, 0))
    g.act("play Plunder")
    assert np.allclose(g.r["rewards"][:2], [0.1, -0.1])
    g.act("play Plunder")
    assert np.allclose(g.r["rewards"][:2], [1.1, -1.1])


def test_truncation_after_max_turns():
    g = Game(max_turns=3)
    for _ in range(3):
        g.act("end turn")
    assert g.r["truncated"] == 1 and g.r["terminated"] == 0 and g.r["turn"] == 3
    assert g.r["returns"][:2].tolist() == [0.0, 0.0]


# ---------------------------------------------------------------- layers and reach R19-R22, R40-R43


def test_effects_apply_weakest_layer_first():
    # Global Party Bus (layer 0) turns Items off; Goblin Tinker's own SET (layer 2) turns
    # its Items back on: W0 Goblin Tinker +Iron Sword 3 ATK, W1 Village Guard +Iron Sword 2
    g = Game(deck("Party Bus", "Goblin Tinker", "Iron Sword", "Iron Sword"))
    g.arrange(warriors=([("Goblin Tinker", 0, ["Iron Sword"]), ("Village Guard", 0,
                                                                 ["Iron Sword"])], ["Wolf Pup"]),
              global_=("Party Bus", 0))
    props, _ = g.props()
    assert props[0, 0, P_ATK] == 2 + 1 and props[0, 1, P_ATK] == 2


def test_stronger_effect_overrules_only_where_they_conflict():
    # Bloodmoon Brute (ATK 5, Attack Cost 3) +Greatsword (+3 ATK, +1 Attack Cost), then
    # Free Strike (Action: Attack Cost 0): the cost is overruled, the +3 Attack is not
    g = Game(deck("Free Strike", "Greatsword"))
    g.arrange(hands=(["Free Strike"], []),
              warriors=([("Bloodmoon Brute", 0, ["Greatsword"])], ["Wolf Pup"]), energy=(5, 0))
    g.act("play Free Strike")
    props, _ = g.props()
    assert props[0, 0, P_ATK] == 8 and props[0, 0, P_ATK_COST] == 0


def test_personal_terrain_affects_own_side_only():
    # player_0's Den of Fangs: their Werewolves' Attack Cost -1; player_1's are untouched
    g = Game(deck("Den of Fangs"))
    g.arrange(warriors=(["Wolf Pup"], ["Wolf Pup"]), personal=("Den of Fangs", None))
    props, _ = g.props()
    assert props[0, 0, P_ATK_COST] == 1 and props[1, 0, P_ATK_COST] == 2


def test_global_terrain_affects_both_sides():
    # player_1's Full Moon: every Werewolf in play +2 Attack; player_1's Town Square: its
    # Activate ability may be used by player_0 too
    g = Game(deck(), deck("Full Moon"))
    g.arrange(warriors=(["Wolf Pup", "Village Guard"], ["Wolf Pup"]), global_=("Full Moon", 1))
    props, _ = g.props()
    assert props[0, 0, P_ATK] == 4 and props[1, 0, P_ATK] == 4 and props[0, 1, P_ATK] == 2
    g = Game(deck(), deck("Town Square"))
    g.arrange(warriors=(["Village Guard"], ["Wolf Pup"]), global_=("Town Square", 1))
    assert g.is_legal("activate global terrain")  # either player's Activate


def test_global_and_personal_reach_the_right_warriors():
    # Full Moon (player_1's Global) and Den of Fangs (player_0's Personal) together
    g = Game(deck("Den of Fangs"), deck("Full Moon"))
    g.arrange(warriors=(["Wolf Pup"], ["Wolf Pup"]), personal=("Den of Fangs", None),
              global_=("Full Moon", 1))
    props, _ = g.props()
    assert props[0, 0, [P_ATK, P_ATK_COST]].tolist() == [4, 1]
    assert props[1, 0, [P_ATK, P_ATK_COST]].tolist() == [4, 2]


# ---------------------------------------------------------------- readings R49-R58


def test_warrior_ability_kinds():
    # Constant: Moth Queen +1 ATK to Pixies; When Played: Howler +1 ATK to Werewolves this
    # turn; Activate: Runesmith Golem +2 ATK this turn (2 Energy)
    g = Game(deck("Howler"))
    g.arrange(hands=(["Howler"], []),
              warriors=(["Moth Queen", "Glimmer Sprite", "Wolf Pup"], ["Wolf Pup"]),
              energy=(10, 0))
    props, _ = g.props()
    assert props[0, 1, P_ATK] == 2  # Glimmer Sprite 1 + Moth Queen
    g.act("play Howler")
    props, _ = g.props()
    assert props[0, 2, P_ATK] == 3 and props[0, 3, P_ATK] == 4  # Wolf Pup, Howler +1
    g2 = Game(deck())
    g2.arrange(warriors=(["Runesmith Golem"], ["Wolf Pup"]), energy=(5, 0))
    g2.act("activate warrior 0")
    assert g2.props()[0][0, 0, P_ATK] == 4 and g2.r["energy"][0] == 3
    g2.act("end turn")
    assert g2.props()[0][0, 0, P_ATK] == 2  # "this turn" ended


def test_targets_and_fizzles():
    # Wraith Lord destroys only a Warrior with printed cost <= 3: facing Bloodmoon Brute
    # (5) it is summoned without a target step and does nothing
    g = Game(deck("Wraith Lord", "Assassinate", "Disarm"))
    g.arrange(hands=(["Wraith Lord", "Disarm"], []), warriors=(["Village Guard"],
                                                               ["Bloodmoon Brute"]))
    g.act("play Wraith Lord")
    assert g.r["phase"] == MAIN and g.slot(0, 1) == ["Wraith Lord"]
    assert g.slot(1, 0) == ["Bloodmoon Brute"]
    assert not g.is_legal("play Disarm")  # no opposing Warrior holds an Item
    g.arrange(hands=(["Wraith Lord"], []), warriors=(["Village Guard"],
                                                     ["Bloodmoon Brute", "Wolf Pup"]))
    g.act("play Wraith Lord")
    assert g.legal_names() == ["target opposing warrior 1", "cancel: back to the main step"]
    g.act("target opposing warrior 1")
    assert g.slot(1, 1) == [] and g.r["loot"][0] == 1
    g.arrange(hands=(["Assassinate"], []), warriors=(["Village Guard"], []))
    assert not g.is_legal("play Assassinate")  # no target: cannot be used


def test_end_of_turn_order_and_global_every_turn():
    # player_0: W0 Coral Sentinel dmg 1, PT Kelp Sanctuary (heal 1), Global Volcano (1 damage
    # to every Warrior at the end of every turn): Kelp heals first, then Volcano
    g = Game(deck("Kelp Sanctuary", "Volcano"))
    g.arrange(warriors=([("Coral Sentinel", 1, [])], ["Iron Colossus"]),
              personal=("Kelp Sanctuary", None), global_=("Volcano", 0))
    scout = int(g.r["zone"][SLOT0, 0])
    colossus = int(g.r["zone"][SLOT0 + SLOTS, 0])
    g.act("end turn")
    assert g.r["dmg"][scout] == 1 and g.r["dmg"][colossus] == 1
    g.act("end turn")  # player_1's turn ends: Volcano again, no Kelp (not player_1's)
    assert g.r["dmg"][scout] == 2 and g.r["dmg"][colossus] == 2


def test_simultaneous_destruction_order():
    # both at 9 Loot; player_0's Earthquake destroys both Warriors: player_1's is removed
    # first, so player_0 reaches 10 first and wins
    g = Game(deck("Earthquake"))
    g.arrange(hands=(["Earthquake"], []), warriors=(["Glimmer Sprite"], ["Wolf Pup"]),
              loot=(9, 9))
    g.act("play Earthquake")
    assert g.r["terminated"] == 1 and g.r["winner"] == 0 and g.r["loot"].tolist() == [10, 9]


def test_guard_reduces_attack_damage_only():
    # Iron Colossus (Guard 1): Fireball deals 3, Wolf Pup's attack 2 - 1 = 1
    g = Game(deck("Fireball"))
    g.arrange(hands=(["Fireball"], []), warriors=(["Wolf Pup"], ["Iron Colossus"]))
    colossus = int(g.r["zone"][SLOT0 + SLOTS, 0])
    g.act("play Fireball", "target opposing warrior 0")
    assert g.r["dmg"][colossus] == 3
    g.act("attack with warrior 0", "target opposing warrior 0")
    assert g.r["dmg"][colossus] == 4


def test_energy_gain_capped_at_ten():
    g = Game(deck("Energy Surge"))
    g.arrange(hands=(["Energy Surge"], []), warriors=(["Wolf Pup"], ["Reef Scout"]),
              energy=(9, 0))
    g.act("play Energy Surge")
    assert g.r["energy"][0] == 10


def test_search_play_does_not_trigger_when_played():
    # Call to Arms puts Banshee into play: no cost, its When Played damage does not fire,
    # and it may attack this turn
    g = Game(deck("Call to Arms"))
    g.arrange(hands=(["Call to Arms"], []), warriors=(["Village Guard"], ["Wolf Pup"]),
              energy=(4, 0))
    pup = int(g.r["zone"][SLOT0 + SLOTS, 0])
    g.act("play Call to Arms", "pick Banshee")
    assert g.slot(0, 1) == ["Banshee"] and g.r["dmg"][pup] == 0 and g.r["energy"][0] == 1
    assert g.is_legal("attack with warrior 1")


def test_leaving_the_field_resets_the_card():
    # Runesmith Golem dmg 3 +Iron Sword, activated (+2 this turn), then Retreat: back in
    # the hand with no damage, its Item discarded, its temporary effect gone
    g = Game(deck("Retreat", "Iron Sword"))
    g.arrange(hands=(["Retreat"], []),
              warriors=([("Runesmith Golem", 3, ["Iron Sword"])], ["Wolf Pup"]), energy=(10, 0))
    golem = int(g.r["zone"][SLOT0, 0])
    g.act("activate warrior 0")
    assert g.r["temp_n"] == 1
    g.act("play Retreat", "target own warrior 0")
    assert g.zone(HAND0) == ["Runesmith Golem"] and g.zone(DISC0) == ["Retreat", "Iron Sword"]
    assert g.r["dmg"][golem] == 0 and g.r["temp_n"] == 0
    assert g.r["known"][1, golem] == KNOWN  # it was face up: both know it is in the hand
    g.act("play Runesmith Golem")
    assert g.props()[0][0, 0, P_ATK] == 2


def test_roll_damage_die_faces():
    seen = set()
    for seed in range(40):
        g = Game(deck("Lucky Roll"), seed=seed)
        g.arrange(hands=(["Lucky Roll"], []), warriors=(["Village Guard"], ["Iron Colossus"]))
        colossus = int(g.r["zone"][SLOT0 + SLOTS, 0])
        g.act("play Lucky Roll", "target opposing warrior 0")
        roll = int(g.r["last_roll"])
        assert g.r["dmg"][colossus] == roll  # no Guard against abilities
        seen.add(roll)
    assert seen == {1, 2, 3, 4, 5, 6}


def test_discard_random_is_public():
    picked = set()
    for seed in range(20):
        g = Game(deck("Mind Rot"), deck("Fireball", "Plunder"), seed=seed)
        g.arrange(hands=(["Mind Rot"], ["Fireball", "Plunder", "Wolf Pup"]),
                  warriors=(["Village Guard"], ["Reef Scout"]))
        g.act("play Mind Rot")
        gone = int(g.r["zone"][DISC0 + 1, 0])
        assert g.r["zone_n"][HAND0 + 1] == 2 and (g.r["known"][:, gone] == KNOWN).all()
        picked.add(g.kind(gone))
    assert picked == {"Fireball", "Plunder", "Wolf Pup"}


# ---------------------------------------------------------------- liveness R61


CANCEL = "cancel: back to the main step"


def _loop_turn(g, start, cap=40):
    """A deterministic policy that tries ``start`` and cancels its target step whenever
    it can: return the number of decisions until the turn ended (fails past ``cap``,
    instead of hanging, where nothing stops the loop)."""
    turn = int(g.r["turn"])
    for n in range(1, cap + 1):
        if g.is_legal(CANCEL):
            g.act(CANCEL)
        elif g.is_legal(start):
            g.act(start)
        elif g.r["phase"] == MAIN:
            g.act("end turn")
        else:
            g.act(g.legal_names()[0])
        if g.r["turn"] != turn or g.r["terminated"] or g.r["truncated"]:
            return n
    raise AssertionError(f"{start} -> cancel repeated {cap} decisions within one turn")


def test_cancels_per_turn_are_limited():
    # W0 Goblin Bombardier (Activate 1: 1 damage), hand Fireball, Iron Sword; W0 W1 Wolf Pup
    g = Game(deck("Goblin Bombardier", "Fireball", "Iron Sword"), deck("Wolf Pup", "Wolf Pup"))
    g.arrange(hands=(["Fireball", "Iron Sword"], []),
              warriors=(["Goblin Bombardier"], ["Wolf Pup", "Wolf Pup"]), energy=(9, 0))
    # attack, play and activate -> cancel share one count of 3 per turn, costing nothing
    g.act("attack with warrior 0", CANCEL, "play Fireball", CANCEL, "activate warrior 0")
    assert g.r["cancels"] == 2 and g.is_legal(CANCEL)
    g.act(CANCEL)
    assert g.r["cancels"] == 3 and g.r["energy"][0] == 9
    # the 4th target step of the turn has no cancel; its targets are all still there
    g.act("attack with warrior 0")
    assert g.legal_names() == ["target opposing warrior 0", "target opposing warrior 1"]
    g.act("target opposing warrior 1", "play Fireball")  # one target left: applied at once
    assert g.slot(1, 0) == g.slot(1, 1) == [] and g.r["loot"][0] == 2


def test_attack_cancel_loop_ends_the_turn():
    # the greedy-policy hang: attack -> cancel -> the same main step -> attack ...
    g = Game(deck(), deck("Wolf Pup", "Wolf Pup"))
    g.arrange(warriors=(["Village Guard"], ["Wolf Pup", "Wolf Pup"]), energy=(4, 0))
    n = _loop_turn(g, "attack with warrior 0")
    # 3 x (attack, cancel), then the 4th attack must pick a target, then end turn
    assert n == 3 * 2 + 2 + 1
    assert g.r["turn_player"] == 1 and g.r["cancels"] == 0  # a new turn: the count resets
    assert g.r["loot"][0] == 1 and g.slot(1, 0) == []  # the 4th attack destroyed a Wolf Pup


def test_activate_cancel_loop_ends_the_turn():
    g = Game(deck("Goblin Bombardier"))
    g.arrange(warriors=(["Goblin Bombardier"], ["Wolf Pup"]), energy=(1, 0))
    # 3 x (activate, cancel), then activate: its one target and, with 0 Energy left,
    # the end of the turn are forced
    assert _loop_turn(g, "activate warrior 0") == 3 * 2 + 1
    g.act("end turn")
    assert g.r["turn_player"] == 0
    g.act("activate warrior 0")
    assert g.is_legal(CANCEL)  # cancels are counted per turn


def test_cancel_count_is_checked_and_cloned():
    g = Game(deck(), deck("Wolf Pup", "Wolf Pup"))
    g.arrange(warriors=(["Village Guard"], ["Wolf Pup", "Wolf Pup"]))
    g.act("attack with warrior 0", CANCEL, "attack with warrior 0", CANCEL,
          "attack with warrior 0", CANCEL)
    saved = g.states.copy()  # clone / save are a copy of the record
    g.arrange(warriors=(["Village Guard"], ["Wolf Pup", "Wolf Pup"]))
    g.act("attack with warrior 0")
    assert g.is_legal(CANCEL)  # a fresh position has its cancels
    g.states[:] = saved  # restore: the count comes back with the record
    K.mask_one(g.states, 0, g.mask)
    assert g.r["cancels"] == 3
    g.act("attack with warrior 0")
    assert g.legal_names() == ["target opposing warrior 0", "target opposing warrior 1"]
    bad = saved.copy()
    bad[0]["cancels"] = 4
    with pytest.raises(ValueError, match=r"cancels must be in \[0, 3\], got 4"):
        check_record(bad[0])


def test_no_decision_repeats_without_progress():
    # pay-2-draw: illegal with an empty deck, and each one spends 2 Energy
    g = Game()
    g.arrange(warriors=(["Village Guard"], ["Wolf Pup"]), energy=(10, 0))
    for _ in range(5):
        g.act("pay 2 energy: draw")
    # 10 Energy buy 5 draws; then only the end of the turn is legal (and applied)
    assert g.r["turn_player"] == 1 and g.r["zone_n"][HAND0] == 5
    g.arrange(warriors=(["Village Guard"], ["Wolf Pup"]), energy=(10, 0))
    g.r["zone_n"][DECK0] = 0  # an empty deck (conservation aside: only the mask is read)
    g.r["energy"][0] = 10
    K.mask_one(g.states, 0, g.mask)
    assert not g.is_legal("pay 2 energy: draw")
    # every Activate costs Energy and each source is used once per turn
    costs = [int(ABIL[k, ACTIVATE_ABIL[k], A_COST]) for k in range(len(CARD_NAMES))
             if ACTIVATE_ABIL[k] >= 0]
    assert costs and min(costs) >= 1


def _liveness_action(mask, prefer_high):
    legal = np.flatnonzero(mask)
    if mask[A(CANCEL)]:
        return A(CANCEL)
    other = [a for a in legal if a != A("end turn")]
    if not other:
        return int(legal[0])
    return int(other[-1] if prefer_high else other[0])


@pytest.mark.parametrize("prefer_high", [False, True])
def test_every_policy_game_ends(prefer_high):
    # a policy that cancels whenever it can and never ends a turn while anything else is
    # legal: every turn still ends (R61 and the finite resources of the rest), so every
    # game ends by max_turns at the latest
    max_turns = 12
    for seed in range(6):
        g = Game(deck0="random", deck1="random", divine=bool(seed % 2), max_turns=max_turns,
                 seed=seed)
        steps = 0
        while not (g.r["terminated"] or g.r["truncated"]):
            a = _liveness_action(g.mask, prefer_high)
            K.step_one(g.states, 0, a, g.mask)
            steps += 1
            assert steps < 400 * max_turns, f"seed {seed}: no end after {steps} decisions"
        check_record(g.r)


def test_a_declared_play_is_shown_even_if_cancelled():
    # a card is shown when its play is declared (its target is chosen after) and stays
    # known in the hand after a cancel; determinize for the opponent keeps it there
    g = Game(deck("Fireball"))
    g.arrange(hands=(["Fireball", "Village Guard"], []), warriors=(["Wolf Pup"], ["Wolf Pup"]))
    fireball = [int(c) for c in g.r["zone"][HAND0, :2] if g.kind(int(c)) == "Fireball"][0]
    assert g.r["known"][1, fireball] != KNOWN
    g.act("play Fireball")
    assert g.r["known"][1, fireball] == KNOWN
    g.act(CANCEL)
    assert g.zone(HAND0).count("Fireball") == 1 and g.r["known"][1, fireball] == KNOWN
    g.act("play Fireball")
    world = g.states.copy()
    SPEC.determinize(world[0], 1, np.random.default_rng(0))
    check_record(world[0])  # the pending Fireball is still in player_0's hand
