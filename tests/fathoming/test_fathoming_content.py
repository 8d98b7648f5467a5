"""The Fathoming's designed content against the counts of its issue and rules text.

Pure Python (csv + numpy): the game package is not imported. Each test names the count or
behaviour it checks; RULES.md (envs/fathoming/RULES.md) refers to them as ``C::test_...``.
"""

import math
import re
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from ..content_util import load_csv, rules_text, table_names

RULES = rules_text("fathoming")

BASE_CLASSES = ("PIXIE", "HUMAN", "WEREWOLF", "MERFOLK", "GOLEM", "SPECTER", "DRAGON", "GOBLIN")
CHOSEN = {"ALLY_WARRIOR", "ENEMY_WARRIOR", "ENEMY_CARD", "ENEMY_TERRAIN"}
OWN_SIDE = {"SELF", "ALLY_WARRIORS", "ALLY_WARRIOR", "OWN_HAND", "PLAYER"}
STATIC = {"ADD", "SET", "MEDALLION", "WIN_IF_COUNT", "WIN_IF_CLASSES", "WIN_IF_ITEMS"}


CLASSES = load_csv("fathoming", "classes")
CARDS = load_csv("fathoming", "cards")
ABILITIES = load_csv("fathoming", "abilities")
DECKS = load_csv("fathoming", "decks")
BY_NAME = {c["name"]: c for c in CARDS}


def _abilities(name):
    return [a for a in ABILITIES if a["card"] == name]


def _presets():
    out = {}
    for r in DECKS:
        d = out.setdefault(r["deck"], {"focus": r["focus"], "divine_only": r["divine_only"],
                                       "cards": Counter()})
        d["cards"][r["card"]] += int(r["copies"])
    return out


def names(heading: str) -> set[str]:
    """The UPPER_CASE names RULES.md's table under ``heading`` defines."""
    return table_names(RULES, heading, "[A-Z_]+")


def deck_problem(cards: Counter, divine: bool):
    """The first construction rule (R2-R7) a deck breaks, or None: a reference for the kernel."""
    total = sum(cards.values())
    if total != 40:
        return f"{total} cards; a deck needs exactly 40"
    for name, n in cards.items():
        if name not in BY_NAME:
            return f"unknown card {name!r}"
        card = BY_NAME[name]
        if n > 3:
            return f"{n} copies of {name!r}; at most 3"
        if not divine and card["type"] != "WARRIOR" and n > 2:
            return f"{n} copies of {name!r}; base game allows 2 of an Asset or Terrain"
        if not divine and card["expansion"] == "yes":
            return f"{name!r} is a Divine Intervention card"
    if not any(BY_NAME[n]["type"] == "WARRIOR" for n in cards):
        return "no Warrior"
    if sum(n for name, n in cards.items() if BY_NAME[name]["divine"] == "yes") > 1:
        return "more than 1 Divine card"
    return None


# ---------------------------------------------------------------- the card table


def test_card_ids_contiguous_and_names_unique():
    assert [int(c["id"]) for c in CARDS] == list(range(len(CARDS)))
    assert len(BY_NAME) == len(CARDS)
    assert {c["type"] for c in CARDS} == {"WARRIOR", "TERRAIN", "ACTION", "ITEM"}
    assert {c["expansion"] for c in CARDS} <= {"yes", "no"}
    assert {c["divine"] for c in CARDS} <= {"yes", "no"}


def test_eight_base_classes_and_divine():
    names = [c["name"] for c in CLASSES]
    assert names == [*BASE_CLASSES, "DIVINE"]
    assert [int(c["id"]) for c in CLASSES] == list(range(9))
    # the text names Pixie, Human and Werewolf among the 8 base classes, and the Divine class
    named = {c["name"] for c in CLASSES if c["named_in_text"] == "yes"}
    assert named == {"PIXIE", "HUMAN", "WEREWOLF", "DIVINE"}
    for c in CLASSES:  # a character: strengths and weaknesses
        assert c["character"] and c["strengths"] and c["weaknesses"], c["name"]
    # Warriors and Terrains have one class; Assets none, except Divine Assets
    for c in CARDS:
        if c["type"] in ("WARRIOR", "TERRAIN"):
            assert c["class"] in names, c["name"]
        elif c["divine"] == "yes":
            assert c["class"] == "DIVINE", c["name"]
        else:
            assert c["class"] == "", c["name"]


def test_at_least_80_card_types():
    base = [c for c in CARDS if c["expansion"] == "no"]
    assert len(base) >= 80
    kinds = Counter(c["type"] for c in base)
    assert kinds == {"WARRIOR": 40, "TERRAIN": 16, "ACTION": 19, "ITEM": 11}
    assert len(CARDS) == 103
    terrains = Counter(c["terrain"] for c in base if c["type"] == "TERRAIN")
    assert terrains == {"PERSONAL": 8, "GLOBAL": 8}


def test_every_class_has_warriors_terrains_and_class_triggered_effects():
    for cls in BASE_CLASSES:
        mine = [c for c in CARDS if c["class"] == cls and c["expansion"] == "no"]
        assert sum(c["type"] == "WARRIOR" for c in mine) == 5, cls
        assert {c["terrain"] for c in mine if c["type"] == "TERRAIN"} == {"PERSONAL", "GLOBAL"}
        triggered = [a for a in ABILITIES if a["cls"] == cls or a["vs"] == cls]
        # class-triggered: an effect that looks at this class, on a non-Medallion card
        assert any(BY_NAME[a["card"]]["terrain"] != "MEDALLION" for a in triggered), cls


def test_stats_columns():
    for c in CARDS:
        cost = int(c["cost"])
        assert 0 <= cost <= 10, c["name"]
        if c["type"] == "WARRIOR":
            assert int(c["health"]) >= 1 and int(c["attack"]) >= 0, c["name"]
            assert int(c["attack_cost"]) >= 0, c["name"]
        elif c["type"] == "TERRAIN":
            assert int(c["health"]) >= 1 and c["attack"] == c["attack_cost"] == "", c["name"]
            assert c["terrain"] in ("PERSONAL", "GLOBAL"), c["name"]
        else:
            assert c["health"] == c["attack"] == c["attack_cost"] == "", c["name"]
        if c["divine"] == "yes":  # printed 10: the formula of R45 starts from it
            assert cost == 10 and c["expansion"] == "yes", c["name"]


def test_card_types_have_their_ability_kinds():
    by_type = {}
    for a in ABILITIES:
        card = BY_NAME[a["card"]]
        by_type.setdefault(card["type"], set()).add(a["trigger"])
        if card["type"] == "TERRAIN":
            by_type.setdefault(card["terrain"], set()).add(a["trigger"])
    assert {"CONSTANT", "PLAYED", "ACTIVATE"} <= by_type["WARRIOR"]
    assert by_type["TERRAIN"] <= {"CONSTANT", "ACTIVATE", "END_TURN"}
    assert {"CONSTANT", "ACTIVATE"} <= by_type["PERSONAL"]
    assert {"CONSTANT", "ACTIVATE"} <= by_type["GLOBAL"]
    assert by_type["ACTION"] == {"PLAYED"}
    assert by_type["ITEM"] <= {"CONSTANT", "END_TURN", "ON_KILL"}
    # every Action and Item does something; n numbers a card's abilities 0, 1, ...
    for c in CARDS:
        ns = [int(a["n"]) for a in _abilities(c["name"])]
        assert ns == list(range(len(ns))), c["name"]
        if c["type"] in ("ACTION", "ITEM", "TERRAIN"):
            assert ns, c["name"]


# ---------------------------------------------------------------- abilities


def test_effect_names_defined_in_rules():
    effects = names("### Effect instructions")
    assert {a["effect"] for a in ABILITIES} <= effects
    assert {a["trigger"] for a in ABILITIES} <= names("### Triggers")
    assert {a["target"] for a in ABILITIES} <= names("### Selectors")
    assert {a["prop"] for a in ABILITIES if a["prop"]} <= names("### Properties")
    # and every instruction RULES.md defines is used by some card (no dead code planned)
    assert effects == {a["effect"] for a in ABILITIES}


def test_ability_parameters_complete():
    for a in ABILITIES:
        where = f"{a['card']} #{a['n']}"
        assert a["card"] in BY_NAME, where
        assert a["cls"] in ("", *BASE_CLASSES, "DIVINE", "ALL"), where
        assert a["vs"] in ("", *BASE_CLASSES, "DIVINE"), where
        assert a["ctype"] in ("", "WARRIOR", "TERRAIN", "ACTION", "ITEM"), where
        if a["effect"] in ("ADD", "SET", "TURN_ADD", "TURN_SET"):
            assert a["prop"] and a["value"], where
            int(a["value"])
        else:
            assert a["prop"] == "", where
        if a["effect"] in ("DAMAGE", "HEAL", "DESTROY", "DRAW", "ENERGY", "LOOT", "READY",
                           "DISCARD_RANDOM", "MILL", "SEARCH_PLAY") or a["effect"].startswith(
                "WIN_IF"):
            assert int(a["value"]) >= 1, where
        if a["effect"] in ("SEARCH", "SEARCH_PLAY"):
            assert a["ctype"] or a["cls"], where
        if a["effect"] == "MEDALLION":
            assert a["cls"] and a["target"] == "EQUIPPED", where
        if a["vs"]:
            assert a["effect"] == "ADD" and a["prop"] == "ATK", where
        # static effects are CONSTANT; only Activate abilities cost Energy
        assert (a["effect"] in STATIC) == (a["trigger"] == "CONSTANT"), where
        if a["trigger"] == "ACTIVATE":
            assert int(a["cost"]) >= 0, where
        else:
            assert a["cost"] == "", where
        if BY_NAME[a["card"]]["type"] == "ITEM":
            assert a["target"] in ("EQUIPPED", "PLAYER"), where


def test_at_most_one_chosen_target_per_card():
    for c in CARDS:
        chosen = [a for a in _abilities(c["name"]) if a["target"] in CHOSEN]
        assert len(chosen) <= 1, c["name"]
    # END_TURN abilities never ask for a target (the End Phase has no decisions)
    assert not [a for a in ABILITIES if a["trigger"] == "END_TURN" and a["target"] in CHOSEN]


def test_personal_terrains_affect_own_side_only():
    for a in ABILITIES:
        if BY_NAME[a["card"]]["terrain"] == "PERSONAL":
            assert a["target"] in OWN_SIDE, a["card"]


def test_global_terrains_affect_both_sides():
    for a in ABILITIES:
        if BY_NAME[a["card"]]["terrain"] == "GLOBAL":
            if a["trigger"] == "ACTIVATE":  # either player activates it for themselves
                assert a["target"] == "PLAYER", a["card"]
            else:
                assert a["target"] in ("ALL_WARRIORS", "ALL_HANDS"), a["card"]


def test_items_active_effects_have_no_class_filter():
    for a in ABILITIES:
        if a["prop"] == "ITEMS_ACTIVE":
            assert a["cls"] == "" and a["effect"] in ("SET", "TURN_SET"), a["card"]


# ---------------------------------------------------------------- named cards, expansion


def _has(name, **want):
    return any(all(a[k] == v for k, v in want.items()) for a in _abilities(name))


def test_named_cards_party_bus_sarah_mart_consumer():
    bus, mart, consumer = BY_NAME["Party Bus"], BY_NAME["Sarah Mart"], BY_NAME["Consumer"]
    assert (bus["type"], bus["terrain"]) == ("TERRAIN", "GLOBAL")
    assert (mart["type"], mart["terrain"]) == ("TERRAIN", "PERSONAL")
    assert consumer["type"] == "WARRIOR"
    for c in (bus, mart, consumer):
        assert c["named_in_text"] == "yes" and c["expansion"] == "no"
    # Party Bus: Items cannot be attached, attached Items have no effect (all Warriors)
    assert _has("Party Bus", trigger="CONSTANT", effect="SET", target="ALL_WARRIORS",
                prop="ITEM_LIMIT", value="0")
    assert _has("Party Bus", trigger="CONSTANT", effect="SET", target="ALL_WARRIORS",
                prop="ITEMS_ACTIVE", value="0")
    # Sarah Mart: up to 2 Items (your Warriors); Consumer: up to 3 (only itself)
    assert _abilities("Sarah Mart") == [dict(card="Sarah Mart", n="0", trigger="CONSTANT",
                                             effect="SET", target="ALLY_WARRIORS",
                                             prop="ITEM_LIMIT", value="2", cls="", vs="",
                                             ctype="", cost="")]
    assert _has("Consumer", trigger="CONSTANT", effect="SET", target="SELF",
                prop="ITEM_LIMIT", value="3")
    named = {c["name"] for c in CARDS if c["named_in_text"] == "yes"}
    assert named == {"Party Bus", "Sarah Mart", "Consumer", "Human Medallion",
                     "Werewolf Medallion"}


LAYER = {"GLOBAL": 0, "PERSONAL": 1, "WARRIOR": 2, "ITEM": 2, "ACTION": 3}
PRINTED = {"ITEM_LIMIT": 1, "ITEMS_ACTIVE": 1, "GUARD": 0, "ATTACKS": 1, "CAN_ATTACK": 1}


def _reaches(a, src_seat, src_slot, seat, slot, classes):
    t = a["target"]
    side = {"ALL_WARRIORS": True, "ALLY_WARRIORS": seat == src_seat,
            "ENEMY_WARRIORS": seat != src_seat,
            "SELF": (seat, slot) == (src_seat, src_slot),
            "EQUIPPED": (seat, slot) == (src_seat, src_slot)}.get(t, False)
    return side and (a["cls"] == "" or a["cls"] in classes)


def effective(board, seat, slot, prop):
    """R40-R46 reference: ``board`` = {"global": (name, seat), "personal": {seat: name},
    "warriors": {(seat, slot): (name, [items])}}; ``prop`` of the Warrior at (seat, slot)."""
    name, items = board["warriors"][(seat, slot)]
    card = BY_NAME[name]
    if prop == "CLASSES":
        if effective(board, seat, slot, "ITEMS_ACTIVE"):
            medals = [a["cls"] for i in items for a in _abilities(i) if a["effect"] == "MEDALLION"]
            if medals:
                return set(BASE_CLASSES) if "ALL" in medals else set(medals)
        return {card["class"]}
    classes = {card["class"]} if prop == "ITEMS_ACTIVE" else effective(board, seat, slot, "CLASSES")
    sources = []  # (layer, specific, order, ability)
    if board.get("global"):
        g, gseat = board["global"]
        sources += [(0, 0, 0, a, gseat, -1) for a in _abilities(g)]
    if seat in board.get("personal", {}):
        sources += [(1, 0, 0, a, seat, -1) for a in _abilities(board["personal"][seat])]
    for (s, k), (w, its) in sorted(board["warriors"].items()):
        sources += [(2, a["target"] == "SELF", 10 * k, a, s, k) for a in _abilities(w)]
        if prop != "ITEMS_ACTIVE" and effective(board, s, k, "ITEMS_ACTIVE"):
            for j, i in enumerate(its):
                sources += [(2, 1, 10 * k + 1 + j, a, s, k) for a in _abilities(i)]
    value = PRINTED.get(prop) if prop in PRINTED else int(card[{"ATK": "attack", "HP": "health",
                                                               "ATK_COST": "attack_cost"}[prop]])
    for _, _, _, a, s, k in sorted(sources, key=lambda x: x[:3]):
        if a["trigger"] != "CONSTANT" or a["prop"] != prop or a["vs"]:
            continue
        if not _reaches(a, s, k, seat, slot, classes):
            continue
        value = int(a["value"]) if a["effect"] == "SET" else value + int(a["value"])
    return max(0, value) if prop in ("ATK", "ATK_COST", "ITEM_LIMIT", "ATTACKS") else value


def test_party_bus_sarah_mart_consumer_example():
    """R42: the text's example, evaluated from the data with the reference above."""
    board = {"global": ("Party Bus", 1), "personal": {0: "Sarah Mart"},
             "warriors": {(0, 0): ("Village Guard", ["Iron Sword", "Iron Sword"]),
                          (0, 1): ("Consumer", ["Iron Sword", "Chainmail", "Tower Shield"]),
                          (1, 0): ("Wolf Pup", [])}}
    # Sarah Mart (Personal) overrides Party Bus (Global): 2 Items
    assert effective(board, 0, 0, "ITEM_LIMIT") == 2
    # ... but not Party Bus's "attached Items have no effect": Iron Swords add nothing
    assert effective(board, 0, 0, "ITEMS_ACTIVE") == 0
    assert effective(board, 0, 0, "ATK") == int(BY_NAME["Village Guard"]["attack"])
    # Consumer's 3 overrides Sarah Mart's 2, only for Consumer; its Items are inactive too
    assert effective(board, 0, 1, "ITEM_LIMIT") == 3
    assert effective(board, 0, 1, "HP") == int(BY_NAME["Consumer"]["health"])
    # the opponent has no Sarah Mart: Party Bus's limit 0 stands
    assert effective(board, 1, 0, "ITEM_LIMIT") == 0
    # without Party Bus the Items work and Sarah Mart still gives 2
    del board["global"]
    assert effective(board, 0, 0, "ITEMS_ACTIVE") == 1
    assert effective(board, 0, 0, "ATK") == int(BY_NAME["Village Guard"]["attack"]) + 2
    assert effective(board, 1, 0, "ITEM_LIMIT") == 1
    # Goblin Tinker (Warrior layer) overrides Party Bus's ITEMS_ACTIVE for itself
    assert _has("Goblin Tinker", effect="SET", target="SELF", prop="ITEMS_ACTIVE", value="1")
    board = {"global": ("Party Bus", 0),
             "warriors": {(0, 0): ("Goblin Tinker", ["Iron Sword"])}}
    assert effective(board, 0, 0, "ITEMS_ACTIVE") == 1
    assert effective(board, 0, 0, "ATK") == int(BY_NAME["Goblin Tinker"]["attack"]) + 1
    # an Action's TURN_SET is the strongest: Free Strike sets Attack Costs to 0 (R44)
    assert _has("Free Strike", effect="TURN_SET", prop="ATK_COST", value="0",
                target="ALLY_WARRIORS")


def test_medallions_change_class():
    medals = [c for c in CARDS if c["terrain"] == "MEDALLION"]
    assert len(medals) == 8
    assert {_abilities(c["name"])[0]["cls"] for c in medals} == set(BASE_CLASSES)
    for c in medals:
        assert c["type"] == "ITEM" and c["expansion"] == "yes" and c["divine"] == "no"
    # the text's example: a Pixie with a Human and a Werewolf Medallion is Human and Werewolf
    board = {"personal": {0: "Sarah Mart"},
             "warriors": {(0, 0): ("Glimmer Sprite", ["Human Medallion", "Werewolf Medallion"])}}
    assert BY_NAME["Glimmer Sprite"]["class"] == "PIXIE"
    assert effective(board, 0, 0, "CLASSES") == {"HUMAN", "WEREWOLF"}
    board["global"] = ("Full Moon", 1)  # class-triggered effects see the Medallions
    assert effective(board, 0, 0, "ATK") == int(BY_NAME["Glimmer Sprite"]["attack"]) + 2
    board["global"] = ("Party Bus", 1)  # inactive Medallions change nothing
    assert effective(board, 0, 0, "CLASSES") == {"PIXIE"}
    halo = {"warriors": {(0, 0): ("Wolf Pup", ["Halo of Unity"])}}
    assert effective(halo, 0, 0, "CLASSES") == set(BASE_CLASSES)


def test_at_least_12_divine_intervention_cards():
    expansion = [c for c in CARDS if c["expansion"] == "yes"]
    assert len(expansion) >= 12
    assert len(expansion) == 17
    divine = [c for c in expansion if c["divine"] == "yes"]
    assert len(divine) == 7
    # "Divine cards come as Warriors, Terrains, and Assets"
    assert {c["type"] for c in divine} == {"WARRIOR", "TERRAIN", "ACTION", "ITEM"}
    assert {c["terrain"] for c in divine if c["type"] == "TERRAIN"} == {"PERSONAL", "GLOBAL"}
    for c in divine:
        assert c["class"] == "DIVINE" and int(c["cost"]) == 10


def test_instant_win_cards():
    wins = [a for a in ABILITIES if a["effect"].startswith("WIN_IF")]
    assert {a["effect"] for a in wins} == {"WIN_IF_COUNT", "WIN_IF_CLASSES", "WIN_IF_ITEMS"}
    for a in wins:  # only expansion cards, and the win is about Warriors on your field
        assert BY_NAME[a["card"]]["expansion"] == "yes", a["card"]
        assert a["target"] == "PLAYER" and BY_NAME[a["card"]]["type"] in ("WARRIOR", "TERRAIN")
    # 5 classes among at most 4 Warriors needs a Warrior with two Medallions (or the Halo)
    assert _has("Ambassador of the Eight", effect="WIN_IF_CLASSES", value="5")


def test_divine_cost_and_loot_formulas_match_the_text():
    def divine_cost(own, opp):
        return 10 - max(0, opp - own)
    assert divine_cost(3, 7) == 6  # the text's example
    assert divine_cost(7, 3) == divine_cost(5, 5) == 10
    assert "10 − max(0, Opponent's Loot − Your Loot)" in " ".join(RULES.split())
    costs = np.array([int(c["cost"]) for c in CARDS if c["type"] == "WARRIOR"])
    loot = np.ceil(costs / 2).astype(int)
    assert all(loot[i] == math.ceil(costs[i] / 2) for i in range(len(costs)))
    assert loot.min() >= 1 and loot.max() == 5  # a Divine Warrior (printed 10) gives 5


# ---------------------------------------------------------------- decks


def test_presets_are_legal():
    presets = _presets()
    base = {n: d for n, d in presets.items() if d["divine_only"] == "no"}
    assert len(base) >= 8
    assert sorted(d["focus"] for d in base.values()) == sorted(BASE_CLASSES)  # one per class
    for name, d in presets.items():
        divine = d["divine_only"] == "yes"
        assert deck_problem(d["cards"], divine) is None, name
        if not divine:  # base presets are legal with Divine Intervention too
            assert deck_problem(d["cards"], True) is None, name
        focus = sum(n for c, n in d["cards"].items() if BY_NAME[c]["class"] == d["focus"])
        assert focus >= 15, name
    divine_decks = [d for d in presets.values() if d["divine_only"] == "yes"]
    assert len(divine_decks) == 2
    for d in divine_decks:  # they use the expansion: exactly 1 Divine card, and it is illegal
        assert sum(n for c, n in d["cards"].items() if BY_NAME[c]["divine"] == "yes") == 1
        assert deck_problem(d["cards"], False) is not None


def test_deck_rules_reference_names_each_broken_rule():
    good = _presets()["Pixie Swarm"]["cards"]
    assert deck_problem(good, False) is None
    short = good.copy()
    short["Fireball"] -= 1
    assert "exactly 40" in deck_problem(short, False)
    four = good.copy()
    four["Glimmer Sprite"] += 1
    four["Fireball"] -= 1
    assert "at most 3" in deck_problem(four, False)
    three = good.copy()
    three["Fireball"] += 1
    three["Glimmer Sprite"] -= 1
    assert "2 of an Asset or Terrain" in deck_problem(three, False)
    assert deck_problem(three, True) is None
    medal = good.copy()
    medal["Fireball"] -= 1
    medal["Human Medallion"] += 1
    assert "Divine Intervention card" in deck_problem(medal, False)
    assert deck_problem(medal, True) is None
    two = good.copy()
    two["Fireball"] -= 2
    two["Seraph of the Deep"] += 1
    two["Halo of Unity"] += 1
    assert "more than 1 Divine" in deck_problem(two, True)
    nowar = Counter({c["name"]: 2 for c in CARDS if c["type"] == "ACTION"
                     and c["expansion"] == "no"})
    nowar["Iron Sword"] += 2
    assert sum(nowar.values()) == 40
    assert deck_problem(nowar, False) == "no Warrior"


@pytest.mark.parametrize("divine", [False, True])
def test_random_deck_pool_can_fill_a_legal_deck(divine):
    """R60's pool (base Actions and Items, 2 or 3 copies each) always has room for 40."""
    pool = [c for c in CARDS if c["type"] in ("ACTION", "ITEM") and c["expansion"] == "no"]
    room = len(pool) * (3 if divine else 2)
    # worst case: focus Warriors 2 x 5, splash 1 x 2, Terrains 1 + 1, no Divine card
    assert room >= 40 - (10 + 2 + 2)


# ---------------------------------------------------------------- RULES.md


def test_rules_md_lists_every_card_and_marks_design():
    for c in CARDS:
        assert f"| {c['id']} | {c['name']}" in RULES, c["name"]
    assert "designed for fatezoo" in RULES
    assert "shared/seeds" not in RULES and "](/" not in RULES and "](../" not in RULES


def test_rules_md_rules_are_numbered_and_name_their_tests():
    numbers = [int(n) for n in re.findall(r"^- \*\*R(\d+) ", RULES, flags=re.M)]
    assert numbers == list(range(1, len(numbers) + 1))
    assert len(numbers) >= 60
    for block in re.split(r"^- \*\*R\d+ ", RULES, flags=re.M)[1:]:
        rule = block.split("\n- ", 1)[0].split("\n#", 1)[0]
        assert any(tag in rule for tag in ("P::", "T::test_", "C::test_", "S::test_")), rule[:60]
    # every content test RULES.md promises exists in this module, every split test in its own
    for name in set(re.findall(r"C::(test_\w+)", RULES)):
        assert name in globals(), name
    split_tests = (Path(__file__).parent / "test_split.py").read_text()
    for name in set(re.findall(r"S::(test_\w+)", RULES)):
        assert f"def {name}(" in split_tests, name
