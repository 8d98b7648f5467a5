"""Villainous content: every count, cost and strength of FACTS and the issue holds in data/*.csv.

Pure Python (csv + numpy): the game package is not imported, so this runs before the kernels
exist. RULES.md (next to the data) defines the instruction tables every csv column must use,
the action layout whose block sizes must match the data, and one rule per line of the rules
text; RULES.md refers to these tests as ``C::test_...``.
"""

from __future__ import annotations

import re
from collections import Counter

import numpy as np
import pytest

from ..content_util import load_csv, rules_text, table_names

RULES = rules_text("villainous")
VILLAINS = ("scar", "yzma", "ratigan")


VIL = {r["villain"]: r for r in load_csv("villainous", "villains")}
LOCS = load_csv("villainous", "locations")
VCARDS = load_csv("villainous", "villain_cards")
FCARDS = load_csv("villainous", "fate_cards")


def n(row, col) -> int:
    return int(row[col])


def of(rows, villain) -> list[dict]:
    return [r for r in rows if r["villain"] == villain]


def card(rows, villain, name) -> dict:
    found = [r for r in of(rows, villain) if r["name"] == name]
    assert len(found) == 1, f"{villain} {name!r}: {len(found)} rows"
    return found[0]


def deck_size(rows, villain) -> int:
    return sum(n(r, "copies") for r in of(rows, villain))


# --- FACTS, transcribed: (kind or None where FACTS gives none, copies, cost, strength) -------
# cost None: FACTS gives none (Conditions, Fate cards); strength None: not an Ally/Hero.

FACTS_VILLAIN = {
    "scar": {
        "Hungry Hyena": ("ALLY", 6, 2, 1), "Long Live the King": ("EFFECT", 4, 1, None),
        "Be Prepared": ("EFFECT", 3, 1, None), "Stick with Me": ("EFFECT", 3, 0, None),
        "Whisper": ("EFFECT", 3, 1, None), "Feeding Frenzy": ("EFFECT", 2, 2, None),
        "Injustice": ("CONDITION", 2, None, None), "Pride": ("CONDITION", 2, None, None),
        "Stampede": ("ALLY", 2, 2, 3), "Banzai": ("ALLY", 1, 2, 2), "Ed": ("ALLY", 1, 2, 2),
        "Shenzi": ("ALLY", 1, 2, 2),
    },
    "yzma": {
        "After Them!": (None, 3, 1, None), "Eavesdrop": (None, 3, 2, None),
        "Imperial Guards": ("ALLY", 3, 2, 3), "Smash It with a Hammer": (None, 3, 1, None),
        "A Cruel Irony": (None, 2, 1, None), "Beauty Sleep": (None, 2, 1, None),
        "Fake Funeral": (None, 2, 0, None), "Finish the Job": (None, 2, 1, None),
        "Right-Hand Man": (None, 2, 2, None), "The Path That Rocks": (None, 2, 0, None),
        "Ferocity": ("CONDITION", 2, None, None), "Superiority": ("CONDITION", 2, None, None),
        "Dagger": ("ITEM", 1, 1, None), "Kronk": ("ALLY", 1, 3, 6),
    },
    "ratigan": {
        "Gears": (None, 5, 1, None), "Capture": (None, 3, 1, None),
        "Ruffians": ("ALLY", 3, 2, 2), "Devious": ("CONDITION", 2, None, None),
        "Extravagant": ("CONDITION", 2, None, None), "Greatest Criminal Mind": (None, 2, 0, None),
        "Marvelous Trap": (None, 2, 3, None), "Uniform": (None, 2, 1, None),
        "Airship": (None, 1, 1, None), "Bartholomew": ("ALLY", 1, 0, 1),
        "Bell": (None, 1, 1, None), "Felicia": ("ALLY", 1, 3, 6), "Fidget": ("ALLY", 1, 1, 3),
        "Fidget's List": (None, 1, 1, None), "Royal Robes": (None, 1, 2, None),
        "The Robot Queen": (None, 1, 15, None), "Tools": (None, 1, 2, None),
    },
}

FACTS_FATE = {  # name: (kind or None, copies, strength for Heroes)
    "scar": {
        "Hakuna Matata": ("EFFECT", 3, None), "Prophecy": ("ITEM", 3, None),
        "Rafiki's Stick": ("ITEM", 1, None), "Mufasa": ("HERO", 1, 6), "Simba": ("HERO", 1, 5),
        "Nala": ("HERO", 1, 3), "Pumbaa": ("HERO", 1, 3), "Rafiki": ("HERO", 1, 3),
        "Sarabi": ("HERO", 1, 3), "Timon": ("HERO", 1, 2), "Zazu": ("HERO", 1, 2),
    },
    "yzma": {
        "Beware the Groove": (None, 3, None), "Path of Righteousness": (None, 2, None),
        "Wrong Lever": (None, 2, None), "On the Run": (None, 1, None),
        "Peasant": ("HERO", 2, 2), "Bucky": ("HERO", 1, 2), "Chaca": ("HERO", 1, 3),
        "Tipo": ("HERO", 1, 3), "Chicha": ("HERO", 1, 4), "Pacha": ("HERO", 1, 4),
        "Kuzco": ("HERO", 1, 7),
    },
    "ratigan": {
        "Queen's Guards": ("HERO", 3, 3), "Call for Help": (None, 2, None),
        "Sabotage": (None, 2, None), "Makeshift Balloon": ("ITEM", 1, None),
        "Basil": ("HERO", 1, 6), "Toby": ("HERO", 1, 6), "Mouse Queen": ("HERO", 1, 5),
        "Dawson": ("HERO", 1, 2), "Flaversham": ("HERO", 1, 2), "Mrs. Judson": ("HERO", 1, 2),
        "Olivia": ("HERO", 1, 1),
    },
}


# --- every table --------------------------------------------------------------------------


@pytest.mark.parametrize("rows", [VCARDS, FCARDS], ids=["villain_cards", "fate_cards"])
def test_type_ids_contiguous_local_ids_per_villain(rows):
    assert [n(r, "type") for r in rows] == list(range(len(rows)))
    assert {r["villain"] for r in rows} == set(VILLAINS)
    for v in VILLAINS:
        mine = of(rows, v)
        assert [n(r, "local") for r in mine] == list(range(len(mine))), v
        names = [r["name"] for r in mine]
        assert len(set(names)) == len(names), Counter(names).most_common(1)
    assert all(n(r, "copies") >= 1 for r in rows)
    assert all(r["designed"] and r["text"] for r in rows)


def test_card_kinds_and_stat_columns():
    assert {r["kind"] for r in VCARDS} == {"ALLY", "ITEM", "EFFECT", "CONDITION"}
    assert {r["kind"] for r in FCARDS} == {"HERO", "ITEM", "EFFECT"}
    for r in VCARDS:
        assert (n(r, "strength") > 0) == (r["kind"] == "ALLY"), r["name"]
        assert n(r, "cost") >= 0
        is_cond = r["kind"] == "CONDITION"
        assert (r["when"] == "condition") == is_cond == bool(r["trigger"]), r["name"]
        if is_cond:
            assert n(r, "cost") == 0, r["name"]  # Conditions are played free (R29)
        assert (n(r, "act_cost") > 0) <= (r["when"] == "activate"), r["name"]
    for r in FCARDS:
        assert (n(r, "strength") > 0) == (r["kind"] == "HERO"), r["name"]
        if r["kind"] == "ITEM":
            assert (r["when"], r["effect"]) == ("passive", "ITEM_STR") and n(r, "a") > 0
        if r["kind"] == "EFFECT":
            assert r["when"] == "play", r["name"]


def test_every_effect_trigger_and_symbol_is_defined_in_rules_md():
    effects = table_names(RULES, "### Effect instructions")
    assert len(effects) >= 25  # the table parsed (a broken heading would give an empty set)
    used = {r["effect"] for r in VCARDS + FCARDS}
    assert used <= effects, sorted(used - effects)
    assert {r["when"] for r in VCARDS + FCARDS} <= table_names(RULES, "### Triggers"), "when"
    triggers = {r["trigger"] for r in VCARDS if r["trigger"]}
    assert triggers <= table_names(RULES, "### Condition triggers")
    symbols = table_names(RULES, "### Action symbols")
    assert len(symbols) == 10
    used = {r[k] for r in LOCS for k in ("top1", "top2", "bottom1", "bottom2")}
    assert used <= symbols, sorted(used - symbols)
    objectives = {r["objective"] for r in VIL.values()} | {VIL["ratigan"]["flip_objective"]}
    assert objectives == {"SUCCESSION", "DEFEAT_WITH", "ROBOT_QUEEN", "DEFEAT_HERO"}


def test_effect_table_has_a_playable_when_column():
    section = RULES.split("### Effect instructions", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    assert rows and all(line.count("|") == 5 for line in rows), "4 columns per instruction"


def test_named_arguments_resolve():
    for rows in (VCARDS, FCARDS):
        for r in rows:
            if not r["arg"]:
                continue
            v = r["villain"]
            if r["effect"] == "UNLOCK":
                names = {x["name"] for x in of(LOCS, v)}
            else:
                names = {x["name"] for x in of(VCARDS, v) + of(FCARDS, v)}
            assert r["arg"] in names, (r["name"], r["arg"])
    needs_arg = {"MOVE_NAMED_HERO", "DEFEAT_NAMED_HERE", "FETCH_NAMED", "FIND_HERO", "UNLOCK",
                 "QUEEN_DISCOUNT"}
    for r in VCARDS + FCARDS:
        assert bool(r["arg"]) == (r["effect"] in needs_arg), r["name"]


# --- FACTS: villain decks and Fate decks ----------------------------------------------------


@pytest.mark.parametrize("villain", VILLAINS)
def test_villain_decks_match_facts(villain):
    rows = of(VCARDS, villain)
    assert {r["name"] for r in rows} == set(FACTS_VILLAIN[villain])
    for name, (kind, copies, cost, strength) in FACTS_VILLAIN[villain].items():
        r = card(VCARDS, villain, name)
        assert n(r, "copies") == copies, name
        if kind is not None:
            assert r["kind"] == kind, name
        if cost is not None:
            assert n(r, "cost") == cost, name
        if strength is not None:
            assert n(r, "strength") == strength, name
    assert deck_size(VCARDS, villain) == 30


@pytest.mark.parametrize("villain", VILLAINS)
def test_fate_decks_match_facts(villain):
    rows = of(FCARDS, villain)
    assert {r["name"] for r in rows} == set(FACTS_FATE[villain])
    for name, (kind, copies, strength) in FACTS_FATE[villain].items():
        r = card(FCARDS, villain, name)
        assert n(r, "copies") == copies, name
        if kind is not None:
            assert r["kind"] == kind, name
        if strength is not None:
            assert n(r, "strength") == strength, name


def test_fate_deck_sizes_15_and_yzmas_16():
    assert deck_size(FCARDS, "scar") == 15
    assert deck_size(FCARDS, "ratigan") == 15
    assert deck_size(FCARDS, "yzma") == 16  # FACTS' list, against the box's 15: noted in RULES
    assert "16 cards against the box's" in RULES


def test_facts_stat_readings():
    uniform = card(VCARDS, "ratigan", "Uniform")  # "Uniform 2 (1,+2 Str)"
    assert (uniform["kind"], n(uniform, "cost"), uniform["effect"], n(uniform, "a")) == (
        "ITEM", 1, "STR_BONUS", 2)
    balloon = card(FCARDS, "ratigan", "Makeshift Balloon")  # "Makeshift Balloon (Item +2)"
    assert (balloon["effect"], n(balloon, "a")) == ("ITEM_STR", 2)
    gears = card(VCARDS, "ratigan", "Gears")
    assert (gears["kind"], gears["effect"], gears["arg"]) == (
        "ITEM", "QUEEN_DISCOUNT", "The Robot Queen")
    for v in VILLAINS:  # two Condition types of two copies each per villain
        conds = [r for r in of(VCARDS, v) if r["kind"] == "CONDITION"]
        assert len(conds) == 2 and all(n(r, "copies") == 2 for r in conds), v


# --- Realms and objectives ------------------------------------------------------------------


def test_locations_four_per_villain_leftmost_unlocked():
    for v in VILLAINS:
        locs = of(LOCS, v)
        assert [n(r, "index") for r in locs] == [0, 1, 2, 3], v
        assert n(locs[0], "locked") == 0, v
        assert len({r["name"] for r in locs}) == 4
    scar = [r["name"] for r in of(LOCS, "scar")]
    assert scar == ["Pride Rock", "The Savanna", "Elephant Graveyard", "The Gorge"]  # FACTS
    assert [r["name"] for r in LOCS if n(r, "locked")] == ["Buckingham Palace"]
    assert card(LOCS, "ratigan", "Buckingham Palace")["villain"] == "ratigan"


def test_boards_offer_every_action_they_can_use():
    for v in VILLAINS:
        symbols = Counter(r[k] for r in of(LOCS, v) for k in ("top1", "top2", "bottom1", "bottom2"))
        assert sum(symbols.values()) == 16
        for needed in ("PLAY", "FATE", "VANQUISH", "MOVE_HERO", "MOVE_ITEM_ALLY", "DISCARD"):
            assert symbols[needed] >= 1, (v, needed)
        assert sum(symbols[f"POWER{k}"] for k in (1, 2, 3)) >= 3, v
        activates = [r for r in of(VCARDS, v) if r["when"] == "activate"]
        assert (symbols["ACTIVATE"] > 0) == bool(activates), v
        unlocked = [r for r in of(LOCS, v) if not n(r, "locked")]
        assert any(r[k].startswith("POWER") for r in unlocked
                   for k in ("bottom1", "bottom2")), f"{v}: Power even under Heroes"


def test_scar_objective_succession_fifteen_mufasa_first():
    s = VIL["scar"]
    assert (s["objective"], n(s, "value"), s["hero"], s["fate_mode"]) == (
        "SUCCESSION", 15, "Mufasa", "top_two")
    heroes = [r for r in of(FCARDS, "scar") if r["kind"] == "HERO"]
    total = sum(n(r, "strength") * n(r, "copies") for r in heroes)
    assert total >= 15 and n(card(FCARDS, "scar", "Mufasa"), "strength") == 6
    stampede = card(VCARDS, "scar", "Stampede")
    assert (stampede["when"], stampede["effect"], stampede["arg"]) == (
        "play", "DEFEAT_NAMED_HERE", "Mufasa")


def test_yzma_objective_kuzco_with_kronk_and_help():
    y = VIL["yzma"]
    assert (y["objective"], y["hero"], y["ally"]) == ("DEFEAT_WITH", "Kuzco", "Kronk")
    assert (y["fate_mode"], n(y, "piles")) == ("piles", 4)
    assert deck_size(FCARDS, "yzma") % n(y, "piles") == 0  # dealt evenly: 4 piles of 4
    helpers = y["helpers"].split("|")
    assert helpers == ["Dagger", "Imperial Guards"]
    kuzco = n(card(FCARDS, "yzma", "Kuzco"), "strength")
    kronk = card(VCARDS, "yzma", "Kronk")
    dagger = card(VCARDS, "yzma", "Dagger")
    guards = card(VCARDS, "yzma", "Imperial Guards")
    assert dagger["effect"] == "STR_BONUS"
    assert n(kronk, "strength") + n(dagger, "a") >= kuzco  # R63: reachable with either helper
    assert n(kronk, "strength") + n(guards, "strength") >= kuzco
    assert n(kronk, "strength") < kuzco  # Kronk alone is not enough
    for name in ("Kronk", "Dagger", "Imperial Guards"):
        assert "Kuzco" in card(VCARDS, "yzma", name)["text"]


def test_ratigan_objective_robot_queen_palace_and_flip():
    r = VIL["ratigan"]
    assert (r["objective"], n(r, "value"), r["locked"]) == (
        "ROBOT_QUEEN", 15, "Buckingham Palace")
    assert (r["flip_card"], r["flip_objective"], r["flip_hero"]) == (
        "The Robot Queen", "DEFEAT_HERO", "Basil")
    queen = card(VCARDS, "ratigan", "The Robot Queen")
    assert (queen["kind"], n(queen, "cost")) == ("ITEM", 15)
    gears = card(VCARDS, "ratigan", "Gears")
    cheapest = n(queen, "cost") - n(gears, "a") * n(gears, "copies")
    assert 0 <= cheapest < n(queen, "cost")
    assert card(FCARDS, "ratigan", "Basil")["kind"] == "HERO"
    unlockers = r["unlocked_by"].split("|")
    assert unlockers == ["Fidget's List", "Royal Robes"]
    for name in unlockers:
        c = card(VCARDS, "ratigan", name)
        assert (c["effect"], c["arg"], c["when"]) == ("UNLOCK", "Buckingham Palace", "play")
    assert n(card(LOCS, "ratigan", "Buckingham Palace"), "locked") == 1
    sabotage = card(FCARDS, "ratigan", "Sabotage")  # a Fate card can discard the Queen
    assert sabotage["effect"] == "DISCARD_ITEM"


# --- cards the rules text names by behaviour ------------------------------------------------


def test_fate_you_must_column_matches_the_text():
    for r in FCARDS:
        assert (n(r, "must") == 1) == ("you must" in r["text"].lower()), r["name"]
    musts = [r for r in FCARDS if n(r, "must")]
    assert musts and any(not n(r, "must") for r in FCARDS if r["kind"] == "EFFECT")  # Clar. 5
    assert all(r["kind"] == "EFFECT" for r in musts)


def test_faq_cards_exist_with_their_behaviour():
    hakuna = card(FCARDS, "scar", "Hakuna Matata")  # FAQ 8-9: find a specific Hero
    assert (hakuna["effect"], hakuna["arg"], n(hakuna, "must")) == ("FIND_HERO", "Pumbaa", 1)
    # session 13: each objective Hero can be brought into its Realm by its villain's cards
    eaves = card(VCARDS, "yzma", "Eavesdrop")
    assert (eaves["effect"], eaves["arg"], eaves["designed"]) == ("FIND_HERO", "Kuzco", "ability")
    king = card(VCARDS, "scar", "Long Live the King")
    assert (king["effect"], king["arg"], king["designed"]) == ("REVEAL_UNTIL_HERO", "", "ability")
    call = card(FCARDS, "ratigan", "Call for Help")  # Clarification 2: uses the Fate discard
    assert call["effect"] == "PLAY_FROM_FATE_DISCARD"
    heroes = [r for r in FCARDS if r["kind"] == "HERO"]
    assert any(r["when"] == "play" for r in heroes)  # FAQ 6
    assert any(r["when"] == "move" for r in heroes)  # FAQ 7
    assert any(r["when"] == "move" for r in VCARDS if r["kind"] == "ALLY")  # Felicia
    assert any(r["when"] == "play" for r in VCARDS if r["kind"] == "ALLY")
    assert {r["trigger"] for r in VCARDS if r["trigger"]} >= {"OPP_VANQUISH", "OPP_FATE_YOU"}


def test_every_villain_card_fits_its_kind():
    passive_only = {"PACK", "ALLY_AURA", "HERO_MINUS", "STR_BONUS", "QUEEN_DISCOUNT"}
    for r in VCARDS:
        if r["effect"] in passive_only:
            assert r["when"] == "passive", r["name"]
        if r["kind"] in ("EFFECT", "CONDITION"):
            assert r["effect"] not in passive_only | {"NONE"}, r["name"]
    fate_only = {"ITEM_STR", "HERO_ALLY_MINUS", "PLAY_FROM_FATE_DISCARD",
                 "DISCARD_ALLY_LE", "DISCARD_ALLY_HERE", "DISCARD_ITEM", "DISCARD_ITEM_HERE",
                 "LOSE_POWER", "MOVE_ALLY_FROM_HERE"}
    assert not {r["effect"] for r in VCARDS} & fate_only
    costs = np.array([n(r, "cost") for r in VCARDS if r["kind"] != "CONDITION"])
    assert costs.min() == 0 and costs.max() == 15


# --- RULES.md -------------------------------------------------------------------------------


def test_rules_numbered_without_gaps_each_naming_its_test():
    numbers = [int(x) for x in re.findall(r"^- \*\*R(\d+)[ *]", RULES, flags=re.M)]
    assert numbers == list(range(1, len(numbers) + 1)) and len(numbers) >= 60
    blocks = re.split(r"^- \*\*R\d+[ *]", RULES, flags=re.M)[1:]
    for block in blocks:
        block = block.split("\n## ", 1)[0]
        assert re.search(r"[TC]::test_[a-z0-9_]+|P::[a-z0-9_]+", block), block[:80]
    assert "/work" not in RULES and "seeds/0" not in RULES  # cite the text by title only


def test_every_line_of_the_rules_text_has_a_rule():
    tags = ["Intro"] + [f"Official {k}" for k in range(1, 9)]
    tags += [f"FAQ {k}" for k in range(1, 10)] + [f"Clarification {k}" for k in range(1, 6)]
    rules = re.split(r"^- \*\*R\d+", RULES, flags=re.M)[1:]
    for tag in tags:
        pattern = rf"\b{tag}\b(?!\d)"
        tagged = [b for b in rules if re.search(pattern, b.split("`", 1)[0])]
        assert tagged, f"no rule tagged ({tag})"
        assert any("T::test_" in b or "P::" in b for b in tagged), tag


def test_setup_numbers_in_rules_md():
    assert "0, 1, 2, 2, 3, 3" in RULES  # starting Power by seat
    assert "draws 4" in RULES and "until they hold 4" in RULES
    assert "40 Power" in RULES and "Fate token" in RULES


def test_rules_md_lists_every_card_and_marks_design():
    for r in VCARDS + FCARDS:
        assert f"| {r['name']} |" in RULES, r["name"]
    for r in LOCS:
        assert r["name"] in RULES, r["name"]
    assert RULES.count("designed for fatezoo") >= 7


def test_action_layout_sizes_match_the_data_and_the_total():
    section = RULES.split("## 11. Action layout", 1)[1].split("\n## ", 1)[0]
    blocks = {k: int(v) for k, v in re.findall(r"^\| `([a-z_]+)` \| (\d+) \|", section, flags=re.M)}
    assert blocks["vcard"] == max(len(of(VCARDS, v)) for v in VILLAINS) == 17
    assert blocks["fcard"] == max(len(of(FCARDS, v)) for v in VILLAINS) == 11
    assert blocks["location"] == blocks["slot"] == 4
    assert blocks["target"] == 6 - 1
    total = int(re.search(r"Total (\d+)\.", section).group(1))
    assert total == sum(blocks.values())
    assert f"Discrete({total})" in RULES
