"""Foretold content: every count of the rules text, FACTS and the issue holds in data/*.csv.

Pure Python (csv + numpy): the game package is not imported, so this runs before the kernels
exist. RULES.md (next to the data) defines the effect instruction table that every ``effect``
column must use, and the action layout whose block sizes must match the data.
"""

from __future__ import annotations

import re
from collections import Counter

import numpy as np
import pytest

from ..content_util import by_name, copies, load_csv, rules_text

FATES = ("chaos", "grace", "prosperity", "wisdom")


FAITHFUL = load_csv("foretold", "faithful")
RELICS = load_csv("foretold", "relics")
FATE = load_csv("foretold", "fate_cards")
TILES = load_csv("foretold", "tiles")
RULES = rules_text("foretold")


def n(row, col):
    return int(row[col])


def instruction_table() -> set[str]:
    section = RULES.split("## 13. Effect instructions", 1)[1].split("\n## ", 1)[0]
    return set(re.findall(r"^\| `([A-Z_]+)` \|", section, flags=re.M))


# --- every table --------------------------------------------------------------------------


@pytest.mark.parametrize("rows", [FAITHFUL, RELICS, FATE, TILES],
                         ids=["faithful", "relics", "fate", "tiles"])
def test_type_ids_contiguous_names_unique_copies_positive(rows):
    assert [n(r, "type") for r in rows] == list(range(len(rows)))
    names = [r["name"] for r in rows]
    assert len(set(names)) == len(names), Counter(names).most_common(1)
    assert all(n(r, "copies") >= 1 for r in rows)
    assert {r["set"] for r in rows} <= {"base", "fatesworn"}


def test_every_effect_is_an_instruction_of_rules_md():
    table = instruction_table()
    assert len(table) >= 40  # the table parsed (a broken heading would give an empty set)
    used = {r["effect"] for rows in (FAITHFUL, RELICS, FATE, TILES) for r in rows}
    assert used <= table, sorted(used - table)


def test_trigger_and_timing_values_are_documented():
    triggers = {r["when"] for rows in (FAITHFUL, RELICS, TILES) for r in rows}
    trigger_line = RULES.split("Trigger columns (`when`)", 1)[1].split("\n\n", 1)[0]
    assert triggers <= set(re.findall(r"`([a-z_]+)`", trigger_line)), triggers
    assert {r["timing"] for r in FATE} == {"any", "own_turn", "fight", "dice", "stack"}
    uses = {r["timing"] for r in RELICS if r["when"] == "use"}
    assert uses <= {"any", "own_turn", "fight", "dice"}
    assert all(r["timing"] == "none" for r in RELICS if r["when"] != "use")


def test_every_rule_names_its_test_and_numbers_run_without_gaps():
    numbers = [int(x) for x in re.findall(r"^- \*\*R(\d+)\*\*", RULES, flags=re.M)]
    assert numbers == list(range(1, len(numbers) + 1))
    for block in re.split(r"^- \*\*R\d+\*\*", RULES, flags=re.M)[1:-1]:
        assert "P::" in block or "T::test_" in block or "Not modelled" in block, block[:80]
    assert "/work" not in RULES and "seeds/0" not in RULES  # cite the text by title only


# --- Faithful -----------------------------------------------------------------------------


def test_faithful_80_base_cards_20_starting_60_deck():
    base = [r for r in FAITHFUL if r["set"] == "base"]
    assert sum(n(r, "copies") for r in base) == 80
    assert copies(base, tier="starting") == 20
    assert copies(FAITHFUL, name="High Priest") == 4
    assert copies(FAITHFUL, name="Acolyte") == 4 + 2
    assert copies(FAITHFUL, name="Guard") == 4 * 2 + 2
    deck = [r for r in base if r["tier"] != "starting"]
    assert sum(n(r, "copies") for r in deck) == 60


def test_faithful_deck_tiers_basic_aligned_unique():
    basic = [r for r in FAITHFUL if r["tier"] == "basic"]
    assert sorted((r["name"], n(r, "copies")) for r in basic) == [("Devotee", 9), ("Fighter", 9)]
    assert all(r["fate"] == "none" for r in basic)
    aligned = [r for r in FAITHFUL if r["tier"] == "aligned"]
    assert len(aligned) == 12 and all(n(r, "copies") == 3 for r in aligned)
    assert Counter(r["fate"] for r in aligned) == {f: 3 for f in FATES}
    unique = [r for r in FAITHFUL if r["tier"] == "unique"]
    assert len(unique) == 6 and all(n(r, "copies") == 1 and n(r, "cost") == 5 for r in unique)


def test_faithful_deck_costs_2_to_5():
    costs = [n(r, "cost") for r in FAITHFUL if r["set"] == "base" and r["tier"] != "starting"]
    assert min(costs) == 2 and max(costs) == 5


def test_starting_faithful_gold_and_costs():
    hp, aco, guard = (by_name(FAITHFUL, x) for x in ("High Priest", "Acolyte", "Guard"))
    assert (n(hp, "gold"), hp["when"], hp["effect"], n(hp, "a")) == (1, "gold", "DRAW_FATE", 1)
    assert n(hp, "protected") == 1 and n(hp, "cost") == 0  # never sold, protected (FACTS)
    assert (n(aco, "gold"), n(aco, "cost")) == (2, 3)
    assert n(guard, "gold") == 1
    assert n(hp, "gold") + n(aco, "gold") + 2 * n(guard, "gold") == 5  # FACTS: the four give 5
    assert all(r["tier"] == "starting" for r in (hp, aco, guard))


def test_devotee_escalating_gold():
    dev = by_name(FAITHFUL, "Devotee")
    got = (dev["when"], dev["effect"], n(dev, "a"), n(dev, "gold"))
    assert got == ("gold", "DEVOTEE_GOLD", 1, 0)


def test_named_faithful_behaviour():
    for name, trigger in (("Captain", "discard_raid"), ("Hoplite", "discard_defend")):
        r = by_name(FAITHFUL, name)
        assert (r["when"], r["effect"]) == (trigger, "COMBAT_BONUS") and n(r, "a") > 0
    for name in ("Warrior", "Demigod"):
        assert n(by_name(FAITHFUL, name), "dice") >= 2
    extra = ("Warrior", "Demigod", "Titan")
    assert all(n(r, "dice") == 1 for r in FAITHFUL if r["name"] not in extra)
    for name in ("Vandal", "Thief"):
        assert by_name(FAITHFUL, name)["when"] == "on_smite"
    assert by_name(FAITHFUL, "Vandal")["effect"] == "SMASH_RELIC"
    assert by_name(FAITHFUL, "Thief")["effect"] == "STEAL_GOLD"
    assert by_name(FAITHFUL, "Demigod")["tier"] == "unique"


def test_fatesworn_faithful_13_with_decrees_and_symbol():
    fs = [r for r in FAITHFUL if r["set"] == "fatesworn"]
    assert sum(n(r, "copies") for r in fs) == 13
    assert {6, 7} <= {n(r, "cost") for r in fs}  # FACTS: incl. 6-7 cost
    decrees = [r for r in fs if r["when"] == "decree"]
    assert len(decrees) >= 3 and all(r["effect"].startswith("DECREE_") for r in decrees)
    assert all(r["when"] == "decree" for r in FAITHFUL if r["effect"].startswith("DECREE_"))
    assert any(n(r, "fatesworn_symbol") for r in fs)
    assert not any(n(r, "fatesworn_symbol") for r in FAITHFUL if r["set"] == "base")


# --- Relics -------------------------------------------------------------------------------


def test_relics_40_base_24_basic_16_fate():
    base = [r for r in RELICS if r["set"] == "base"]
    assert sum(n(r, "copies") for r in base) == 40
    basic = [r for r in base if r["kind"] == "basic"]
    assert len(basic) == 8 and all(n(r, "copies") == 3 for r in basic)
    assert all(r["fate"] == "none" and n(r, "altar") == 0 for r in basic)
    fate = [r for r in base if r["kind"] == "fate"]
    assert sum(n(r, "copies") for r in fate) == 16 and all(n(r, "altar") == 1 for r in fate)
    for f in FATES:
        names = sorted(r["name"].split(" of ")[0] for r in fate if r["fate"] == f)
        assert names == ["Crown", "Shield", "Shrine", "Sword"], f
    costs = [n(r, "cost") for r in base]
    assert min(costs) == 2 and max(costs) == 5  # FACTS: Relics cost 2-5


def test_named_relic_behaviour():
    rune = by_name(RELICS, "Runestone")
    assert (rune["kind"], rune["when"], rune["effect"]) == ("basic", "use", "REROLL_DIE")
    basic = [r for r in RELICS if r["kind"] == "basic" and r["set"] == "base"]
    assert sum(n(r, "sacrifice") for r in basic) > len(basic) // 2  # "many" sacrificed on use
    for f in FATES:
        shrine = by_name(RELICS, f"Shrine of {f.title()}")
        assert (shrine["when"], shrine["use_cost"]) == ("use", "sacrifice_devotee")
        assert by_name(RELICS, f"Crown of {f.title()}")["when"] == "on_smite"
    assert not any(n(r, "sacrifice") for r in RELICS if r["kind"] == "fate")


def test_fatesworn_relics_of_the_fates():
    fs = [r for r in RELICS if r["set"] == "fatesworn"]
    assert sum(n(r, "copies") for r in fs) == 5  # FACTS: Arrows + the four Relics of the Fates
    assert n(by_name(RELICS, "Arrows"), "cost") == 1
    rof = [r for r in fs if r["kind"] == "fates"]
    four = ("Crucible", "Ring", "Scepter", "Vestments")
    assert sorted(r["name"] for r in rof) == [f"{x} of the Fates" for x in four]
    assert all(n(r, "cost") == 6 and n(r, "altar") == 0 and n(r, "copies") == 1 for r in rof)
    with_fate = [r["name"] for r in rof if r["fate"] != "none" or n(r, "fatesworn_symbol")]
    assert with_fate == ["Crucible of the Fates"]


# --- Fate cards ---------------------------------------------------------------------------


@pytest.mark.parametrize("fate", FATES)
def test_fate_deck_30_cards_relic_costs_15_9_5_1(fate):
    deck = [r for r in FATE if r["set"] == "base" and r["fate"] == fate]
    costs = Counter()
    for r in deck:
        costs[n(r, "relic_cost")] += n(r, "copies")
    assert dict(costs) == {0: 15, 1: 9, 2: 5, 3: 1}


def test_fate_decks_120_cards_in_each_fates_character():
    base = [r for r in FATE if r["set"] == "base"]
    assert sum(n(r, "copies") for r in base) == 120
    assert {r["fate"] for r in base} == set(FATES)
    effects = {f: {r["effect"] for r in base if r["fate"] == f} for f in FATES}
    assert {"SMASH_RELIC", "SACRIFICE_COMBATANT", "DAMAGE", "COMBAT_BONUS"} <= effects["chaos"]
    assert {"PREVENT", "PROTECT_PARTY", "CONVERT", "HEAL", "COMBAT_BONUS"} <= effects["grace"]
    assert {"GAIN_GOLD", "BUY_ANY"} <= effects["prosperity"]
    top = [r for r in base if r["fate"] == "prosperity" and n(r, "relic_cost") == 3]
    assert top[0]["effect"] == "BUY_ANY"  # "at the high end, can accomplish almost anything"
    assert {"REROLL_DIE", "SET_DIE", "MARKET_CYCLE", "DRAW_FATE", "COUNTER"} <= effects["wisdom"]
    assert not any(n(r, "fatesworn_symbol") for r in base)


def test_fatesworn_fate_cards_ten_per_deck():
    fs = [r for r in FATE if r["set"] == "fatesworn"]
    generic = [r for r in fs if r["fate"] == "all"]
    assert len(generic) == 5
    assert all(n(r, "copies") == 4 and n(r, "fatesworn_symbol") for r in generic)
    for f in FATES:
        own = [r for r in fs if r["fate"] == f]
        assert sum(n(r, "copies") for r in own) == 5
        assert not any(n(r, "fatesworn_symbol") for r in own)
        assert sum(n(r, "copies") for r in own) + len(generic) == 10
    assert {n(r, "relic_cost") for r in fs} == {1, 2, 3}


# --- Tiles --------------------------------------------------------------------------------

DIRS = "NESW"
STEP = {"N": (-1, 0), "E": (0, 1), "S": (1, 0), "W": (0, -1)}


def doors(row, side: str, rot: int = 0) -> set[str]:
    return {DIRS[(DIRS.index(d) + rot) % 4] for d in row[f"{side}_doors"]}


def legal_temple(cells: dict) -> bool:
    """R27 on {(r, c): set of doorways}: 4x4, strict matching, all reach the Entrance."""
    if any(not (0 <= r < 4 and 0 <= c < 4) for r, c in cells):
        return False
    for (r, c), ds in cells.items():
        for d, (dr, dc) in STEP.items():
            other = cells.get((r + dr, c + dc))
            if other is not None and (d in ds) != (DIRS[(DIRS.index(d) + 2) % 4] in other):
                return False
    entrance = (0, 1)
    seen, todo = {entrance}, [entrance]
    while todo:
        r, c = todo.pop()
        for d in cells[(r, c)]:
            nxt = (r + STEP[d][0], c + STEP[d][1])
            if nxt in cells and nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen == set(cells)


START_LAYOUT = {"Treasury": (0, 0), "Entrance": (0, 1), "Sanctum": (0, 2),
                "Pathway": (1, 1), "Heart": (2, 1)}


def start_cells() -> dict:
    return {pos: doors(by_name(TILES, name), "a") for name, pos in START_LAYOUT.items()}


def test_starting_tiles_20_five_types_of_four():
    start = [r for r in TILES if r["kind"] == "start"]
    assert sorted(r["name"] for r in start) == sorted(START_LAYOUT)
    assert all(n(r, "copies") == 4 for r in start) and copies(start) == 20


def test_starting_tiles_icons_by_side():
    names = ("Entrance", "Pathway", "Treasury", "Sanctum", "Heart")
    ent, path, tre, san, heart = (by_name(TILES, x) for x in names)
    assert "N" in ent["a_doors"] and n(ent, "b_bonus") > n(ent, "a_bonus")
    assert (n(path, "a_stations"), n(path, "a_altars"), n(path, "a_bonus")) == (0, 0, 0)
    assert len(path["a_doors"]) == 2 and len(path["b_doors"]) == 4
    assert n(path, "b_stations") == 1 and n(path, "b_bonus") > 0
    assert (n(tre, "a_altars"), n(tre, "b_altars")) == (0, 1)
    assert (n(san, "a_altars"), n(san, "a_stations")) == (1, 0)
    assert (n(san, "b_altars"), n(san, "b_stations")) == (1, 1)
    assert n(san, "flip_cost") == 2  # FACTS: likely 2
    assert n(heart, "a_stations") == n(heart, "b_stations") == 2
    assert (n(heart, "a_bonus"), n(heart, "b_bonus") > 0) == (0, True)
    assert all(n(r, "flip_cost") > 0 for r in (ent, path, tre, san, heart))


def test_starting_t_is_a_legal_temple_with_room_to_grow():
    cells = start_cells()
    assert legal_temple(cells)
    assert (1, 1) in cells and (2, 1) in cells  # the stem: Pathway, then the Heart at the base
    hallway = by_name(TILES, "Barracks")  # every deck A-side is the same hallway
    spots = [(r, c, rot) for r in range(4) for c in range(4) for rot in range(4)
             if (r, c) not in cells and legal_temple({**cells, (r, c): doors(hallway, "a", rot)})]
    assert spots, "a deck Tile must fit the starting Temple"
    both_b = {pos: doors(by_name(TILES, name), "b") for name, pos in START_LAYOUT.items()}
    assert legal_temple(both_b)  # flipping every Starting Tile never breaks the T
    stations = sum(n(by_name(TILES, x), "a_stations") for x in START_LAYOUT)
    assert stations == 3  # four starting Faithful, three Stations: R4


def test_tile_deck_25_traps_rooms_connectors():
    deck = [r for r in TILES if r["kind"] != "start"]
    assert copies(deck) == 25
    traps = [r for r in deck if r["kind"] == "trap"]
    assert len(traps) == 4 and all(n(r, "copies") == 2 for r in traps)
    assert all(r["when"] == "spring" and n(r, "flip_cost") == 0 for r in traps)
    ambush = by_name(TILES, "Ambush Trap")
    assert n(ambush, "b_stations") == 1
    assert all(n(r, "b_stations") == 0 for r in traps if r is not ambush)
    rooms = [r for r in deck if r["kind"] == "room"]
    assert len(rooms) == 6 and all(n(r, "copies") == 1 and len(r["b_doors"]) == 1 for r in rooms)
    assert all(r["effect"] != "NONE" or n(r, "b_stations") + n(r, "b_bonus") > 0 for r in rooms)
    connectors = [r for r in deck if r["kind"] == "connector"]
    assert copies(connectors) == 11 and all(len(r["b_doors"]) in (2, 3) for r in connectors)


def test_tile_deck_stations_altars_searches():
    deck = [r for r in TILES if r["kind"] != "start"]
    with_station = copies([r for r in deck if n(r, "b_stations") > 0])
    assert with_station > 25 / 2  # "more than half of the deck has Stations"
    assert copies([r for r in deck if n(r, "b_altars") > 0]) == 8
    searches = [r for r in deck if r["effect"] == "SEARCH_RELIC"]
    assert searches and all(r["when"] == "flip" for r in searches)
    relic_types = range(len(RELICS))
    assert all(n(r, "a") in relic_types or -3 <= n(r, "a") <= -1 for r in searches)


def test_deck_tiles_a_side_blank_two_doorway_hallway():
    deck = [r for r in TILES if r["kind"] != "start"]
    assert {r["a_doors"] for r in deck} == {"NS"}
    icons = np.array([[n(r, k) for k in ("a_stations", "a_altars", "a_bonus")] for r in deck])
    assert not icons.any()
    assert all(set(r["b_doors"]) <= set(DIRS) for r in TILES)


# --- RULES.md layout against the data ------------------------------------------------------


def test_action_layout_sizes_match_the_data_and_the_total():
    section = RULES.split("## 15. Action layout", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `([a-z_]+)` \| (\d+) \|", section, flags=re.M)
    blocks = {k: int(v) for k, v in rows}
    nf, nr, nc = len(FAITHFUL), len(RELICS), len(FATE)
    for name in ("play_gold", "ability", "pick_faithful"):
        assert blocks[name] == nf, name
    assert blocks["use_relic"] == blocks["pick_relic"] == nr
    assert blocks["play_fate"] == nc
    assert blocks["flip"] == blocks["move_from"] == blocks["cell"] == 16
    assert blocks["fate_deck"] == 4 and blocks["target_seat"] == 3
    total = int(re.search(r"Total (\d+)\.", section).group(1))
    assert total == sum(blocks.values())
