"""Forgotten City content: every count of the rules text, FACTS and the issue holds in data/*.csv.

Pure Python (csv + numpy): the game package is not imported, so this runs before the kernels
exist. RULES.md (next to the data) defines the effect instruction table every effect column
must use, the action layout whose block sizes must match the data, and names these tests as
``C::test_...``.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter

import numpy as np
import pytest

from ..content_util import by_name, load_csv, rules_text

RULES = rules_text("forgotten_city")
COLORS = ("purple", "red", "blue", "yellow")
LETTER = {"purple": "P", "red": "R", "blue": "B", "yellow": "Y"}
# axial neighbour offsets (q, r)
DIRS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


MAP = load_csv("forgotten_city", "map")
TILES = load_csv("forgotten_city", "terrain_tiles")
MONUMENTS = load_csv("forgotten_city", "monuments")
MIRACLES = load_csv("forgotten_city", "miracles")
NIGHTMARES = load_csv("forgotten_city", "nightmares")
SETUP = load_csv("forgotten_city", "setup")
CONST = {r["name"]: r for r in load_csv("forgotten_city", "constants")}
PRODUCTION = load_csv("forgotten_city", "production")
TREE = load_csv("forgotten_city", "miracle_tree")
AREA = load_csv("forgotten_city", "monument_area")


def n(row, col) -> int:
    return int(row[col])


def const(name) -> int:
    return int(CONST[name]["value"])


def instruction_table() -> set[str]:
    section = RULES.split("## 11. Effect instructions", 1)[1].split("\n## ", 1)[0]
    return set(re.findall(r"^\| `([A-Z_]+)` \|", section, flags=re.M))


def cost(row, prefix) -> dict:
    return {c: n(row, prefix + c) for c in COLORS}


def gains(row, prefix) -> list[tuple[str, int]]:
    out = []
    for k in ("1", "2"):
        if row[prefix + k] != "NONE":
            out.append((row[prefix + k], n(row, prefix + k + "_a")))
    return out


# --- every table ---------------------------------------------------------------------------


@pytest.mark.parametrize("rows,key", [(MONUMENTS, "type"), (MIRACLES, "type"),
                                      (NIGHTMARES, "type"), (TILES, "tile")],
                         ids=["monuments", "miracles", "nightmares", "tiles"])
def test_type_ids_contiguous_names_unique(rows, key):
    assert [n(r, key) for r in rows] == list(range(len(rows)))
    names = [r["name"] for r in rows]
    assert len(set(names)) == len(names), Counter(names).most_common(1)
    assert all(r["designed"] for r in rows)


def test_every_effect_is_an_instruction_of_rules_md():
    table = instruction_table()
    assert len(table) >= 20  # the table parsed (a broken heading would give an empty set)
    used = {r["effect"] for r in MIRACLES}
    for r in MONUMENTS:
        used |= {r[c] for c in ("build1", "build2", "decode1", "decode2")}
    assert used <= table, sorted(used - table)
    assert table - used == set(), sorted(table - used)  # no dead instruction either


def test_constants_keep_every_number_of_the_text_and_facts():
    text = {"min_players": 2, "max_players": 4, "rounds": 6, "terrain_tiles": 6,
            "monuments": 28, "nightmares": 7, "nightmares_used": 6, "miracles": 27,
            "white_shown": 6, "grey_shown": 5, "resources_per_color": 20,
            "markers_per_player": 20, "helpers_per_player": 4, "helper_meeples": 20,
            "start_resources_each": 2,
            "start_coins": 6, "start_vp": 10, "track_cap": 15, "construction_zone": 2,
            "occupied_space_coin": 1, "portal_coins": 2, "rest_coins": 2,
            "decode_owner_vp": 1, "unclaimed_monument_coin": 1, "nightmare_penalty_vp": 2,
            "end_resources_per_vp": 3, "end_coins_per_vp": 5}
    for name, value in text.items():
        assert (const(name), CONST[name]["source"]) == (value, "text"), name
    assert const("resources_per_color") * len(COLORS) == 80  # Resources x80
    assert const("markers_per_player") * 4 == 80  # Player Markers x80 (20 x 4 colours)
    assert (const("helpers_per_player") + 1) * const("max_players") == const("helper_meeples")
    assert {r["source"] for r in CONST.values()} == {"text", "designed"}
    # the starting hands of 4 players fit the resource supply
    assert 4 * const("start_resources_each") <= const("resources_per_color")


# --- setup and the monument track ----------------------------------------------------------


def test_setup_track_by_player_count():
    got = {n(r, "players"): (n(r, "track_spaces"), n(r, "track_monuments"),
                             n(r, "picks_per_player"), n(r, "keep_per_player")) for r in SETUP}
    assert got == {2: (8, 4, 2, 1), 3: (8, 5, 1, 1), 4: (10, 6, 1, 1)}
    for r in SETUP:
        assert r["nightmare_hp_column"] == f"hp{r['players']}"
        # markers on spaces 0..n-1, monuments after them (R3)
        assert n(r, "players") + n(r, "track_monuments") <= n(r, "track_spaces")
        assert n(r, "track_monuments") >= n(r, "players") * n(r, "picks_per_player")


def _track_draws(row) -> tuple[int, list[int]]:
    """R3/R10/R40: monuments drawn from the stack over 6 rounds, and the track before each pick."""
    players, spaces = n(row, "players"), n(row, "track_spaces")
    on_track = n(row, "track_monuments")
    drawn, before = on_track, []
    for rnd in range(const("rounds")):
        before.append(on_track)
        on_track -= players * n(row, "picks_per_player")
        if rnd == const("rounds") - 1:
            break  # round 6 has no Cleanup (R8)
        empty = spaces - players - on_track  # no marker, no monument
        drawn += empty
        on_track += empty
    return drawn, before


def test_monument_stack_lasts_six_rounds():
    for row in SETUP:
        drawn, before = _track_draws(row)
        assert drawn <= const("monuments"), row["players"]
        if n(row, "players") >= 3:  # 3-4 players: the track is always full again
            assert set(before) == {n(row, "track_monuments")}
    two = _track_draws(SETUP[0])[1]
    assert two == [4, 6, 6, 6, 6, 6]  # R40: 2 players, literal refill (open question 1)


# --- the map -------------------------------------------------------------------------------


def rotate(q, r, k):
    x, z = q, r
    y = -x - z
    for _ in range(k):
        x, y, z = -z, -x, -y
    return x, z


def hex_dist(q, r) -> int:
    return max(abs(q), abs(r), abs(q + r))


def neighbours(cells):
    return {c: [(c[0] + dq, c[1] + dr) for dq, dr in DIRS if (c[0] + dq, c[1] + dr) in cells]
            for c in cells}


def reach(start, cells, blocked=frozenset()):
    adj = neighbours(cells)
    seen, todo = {start}, [start]
    while todo:
        for nxt in adj[todo.pop()]:
            if nxt not in seen and nxt not in blocked:
                seen.add(nxt)
                todo.append(nxt)
    return seen


def test_map_connected_with_fixed_positions():
    assert [n(h, "hex") for h in MAP] == list(range(61))
    pos = {(n(h, "q"), n(h, "r")): h for h in MAP}
    assert len(pos) == 61  # distinct coordinates
    assert set(pos) == {(q, r) for q in range(-4, 5) for r in range(-4, 5) if hex_dist(q, r) <= 4}
    centre = pos[(0, 0)]
    assert (n(centre, "hex"), centre["board"], n(centre, "sector")) == (0, "central", -1)
    assert [h for h in MAP if h["board"] == "central"] == [centre]
    for h in MAP[1:]:
        q, r, s, loc = n(h, "q"), n(h, "r"), n(h, "sector"), n(h, "local")
        assert n(h, "hex") == 1 + 10 * s + loc and n(h, "ring") == hex_dist(q, r)
        base = MAP[1 + loc]  # sector k is sector 0 turned k x 60 degrees
        assert rotate(n(base, "q"), n(base, "r"), s) == (q, r)
        assert h["board"] == {2: "stone", 7: "portal"}.get(loc, "terrain")
    kinds = Counter(h["board"] for h in MAP)
    assert kinds == {"terrain": 48, "stone": 6, "portal": 6, "central": 1}
    portals = {c for c, h in pos.items() if h["board"] == "portal"}
    # every space reachable from the centre, also without stepping on a portal
    assert reach((0, 0), set(pos)) == set(pos)
    assert reach((0, 0), set(pos), blocked=portals) == set(pos) - portals
    adj = neighbours(set(pos))
    for p in portals:
        standing = [c for c in adj[p] if c not in portals]
        assert len(standing) >= 3 and len(standing) == len(adj[p])  # no two portals adjacent
        assert pos[p]["ring"] == "4"
    # each portal opens onto spaces next to the others: distinct landing areas
    landing = {p: {c for c in adj[p]} for p in portals}
    for a, b in itertools.combinations(portals, 2):
        assert not landing[a] & landing[b]
    stones = [h for h in MAP if h["board"] == "stone"]
    assert {h["ring"] for h in stones} == {"2"}


def test_terrain_tiles_counts():
    assert len(TILES) == const("terrain_tiles") == 6
    total = Counter()
    for t in TILES:
        lay = t["layout"]
        assert len(lay) == 10 and lay[2] == "S" and lay[7] == "O"  # aligned to the board (R2)
        basic = lay[:2] + lay[3:7] + lay[8:]
        assert set(basic) <= set("PRBY") and len(basic) == 8
        counts = Counter(basic)
        assert [counts[LETTER[c]] for c in COLORS] == [n(t, c) for c in COLORS]
        assert all(counts[LETTER[c]] >= 1 for c in COLORS)  # "may include 4 different types"
        total += counts
    assert total == {"P": 12, "R": 12, "B": 12, "Y": 12}


def test_every_tile_placement_gives_the_stated_terrains():
    """R2: any of the 720 placements gives 12 spaces of each colour, 6 stone, 6 portals, 1 centre,
    and every basic colour next to the centre is a terrain tile's local space 0."""
    board = [(n(h, "sector"), n(h, "local")) for h in MAP]
    for perm in itertools.permutations(range(6)):
        terrain = ["C" if s < 0 else TILES[perm[s]]["layout"][loc] for s, loc in board]
        assert Counter(terrain) == {"P": 12, "R": 12, "B": 12, "Y": 12, "S": 6, "O": 6, "C": 1}
        assert all(terrain[h] in "PRBY" for h in range(1, 61, 10))


# --- monuments -----------------------------------------------------------------------------


def test_28_monuments_7_per_colour_costs_2_3_4():
    assert len(MONUMENTS) == const("monuments") == 28
    assert Counter(r["color"] for r in MONUMENTS) == {c: 7 for c in COLORS}
    for c in COLORS:
        rows = [r for r in MONUMENTS if r["color"] == c]
        assert Counter(sum(cost(r, "cost_").values()) for r in rows) == {2: 3, 3: 3, 4: 1}
        assert all(cost(r, "cost_")[c] >= 1 for r in rows)  # a monument needs its own colour


def test_text_example_monument_sun_obelisk():
    r = by_name(MONUMENTS, "Sun Obelisk")
    assert r["color"] == "red"
    assert cost(r, "cost_") == {"purple": 1, "red": 1, "blue": 0, "yellow": 0}
    assert gains(r, "build") == [("GAIN_DEFENSE", 1), ("GAIN_VP", 1)]
    assert n(AREA[0], "vp") == 1  # "another 1 VP from the monument marker area"


def test_gain_and_production_icons_of_the_text_exist():
    build = Counter()
    values = {}
    for r in MONUMENTS:
        for eff, a in gains(r, "build") + gains(r, "decode"):
            build[eff] += 1
            values.setdefault(eff, set()).add(a)
    for eff in ("GAIN_VP", "GAIN_INSPIRATION", "GAIN_DEFENSE", "GAIN_COINS"):
        assert build[eff] > 0, eff
    assert 5 in values["GAIN_INSPIRATION"] and 5 in values["GAIN_DEFENSE"]  # icons "5, 5"
    assert values["ANY_RESOURCES"] == {2, 3}  # "Gain any 2 / 3 resources"
    for eff in ("UP_INSPIRATION", "UP_DEFENSE", "UP_INCOME"):
        assert values[eff] == {1}  # "level up ... by 1 space"


def test_decode_costs_resources_and_gives_immediate_gains():
    immediate = {"GAIN_VP", "GAIN_INSPIRATION", "GAIN_DEFENSE", "GAIN_COINS"}
    for r in MONUMENTS:
        assert 1 <= sum(cost(r, "decode_").values()) <= 3, r["name"]
        assert gains(r, "decode") and {e for e, _ in gains(r, "decode")} <= immediate
        assert gains(r, "build") and all(a > 0 for _, a in gains(r, "build") + gains(r, "decode"))
        for k in ("build2", "decode2"):
            assert (r[k] == "NONE") == (r[k + "_a"] == "0"), r["name"]


def test_production_arrows_fit_the_tracks():
    arrows = Counter(r[k] for r in MONUMENTS for k in ("build1", "build2")
                     if r[k].startswith("UP_"))
    top = const("production_max_level")
    assert arrows == {"UP_INSPIRATION": top, "UP_DEFENSE": top, "UP_INCOME": top}
    assert [n(r, "level") for r in PRODUCTION] == list(range(top + 1))
    for col in ("inspiration", "defense", "income"):
        vals = [n(r, col) for r in PRODUCTION]
        assert vals[0] >= 1 and all(b > a for a, b in zip(vals, vals[1:])), col
        assert vals[-1] <= const("track_cap")


# --- player board --------------------------------------------------------------------------


def test_miracle_tree_and_monument_marker_area():
    assert len(TREE) == const("miracle_tree_spaces") == 8
    assert (n(TREE[0], "cost"), n(TREE[0], "vp")) == (2, 1)  # the text's example (Jack)
    costs = [n(r, "cost") for r in TREE]
    assert all(b > a for a, b in zip(costs, costs[1:])) and costs[-1] <= const("track_cap")
    vps = [n(r, "vp") for r in TREE]
    assert all(b >= a for a, b in zip(vps, vps[1:]))
    assert len(AREA) == const("monument_area_spaces") >= const("rounds")  # one gained per round
    assert all(n(r, "vp") >= 1 for r in AREA)
    markers = 1 + 1 + const("monument_area_spaces") + const("free_markers")
    assert markers == const("markers_per_player")  # VP marker, turn order marker, area, free


# --- miracles ------------------------------------------------------------------------------


def test_27_miracles_19_white_8_grey():
    total = sum(n(r, "copies") for r in MIRACLES)
    assert total == const("miracles") == 27
    white = [r for r in MIRACLES if r["kind"] == "white"]
    grey = [r for r in MIRACLES if r["kind"] == "grey"]
    assert sum(n(r, "copies") for r in white) == 19
    assert len(grey) == 8 and all(n(r, "copies") == 1 for r in grey)
    assert sum(n(r, "copies") for r in white) >= const("white_shown")
    assert len(grey) > const("grey_shown")  # the rest of the grey out of the game
    assert all(n(r, "white_needed") == 0 for r in white)


def test_seven_white_miracles_of_the_text():
    white = [r for r in MIRACLES if r["kind"] == "white"]
    effects = {r["effect"] for r in white}
    assert effects == {"EXCAVATE_BONUS", "DEFENSE_PER_ROUND", "REST_BONUS",
                       "EXCAVATE_UNDER_MONUMENT", "LEADER_ANYWHERE", "VP_PER_EXCAVATE",
                       "ABANDON_MONUMENT"}
    dig = [r for r in white if r["effect"] == "EXCAVATE_BONUS"]
    assert all((n(r, "a"), n(r, "b")) == (1, 1) for r in dig)  # an extra resource and 1 coin
    pairs = sorted("".join(sorted(r["colors"])) for r in dig)
    assert pairs == sorted("".join(sorted(p)) for p in itertools.combinations("PRBY", 2))
    one = {r["effect"]: r for r in white if r["effect"] != "EXCAVATE_BONUS"}
    assert n(one["DEFENSE_PER_ROUND"], "a") == 1
    assert (n(one["REST_BONUS"], "a"), n(one["REST_BONUS"], "b")) == (1, 1)
    assert n(one["VP_PER_EXCAVATE"], "a") == 1
    assert n(one["ABANDON_MONUMENT"], "a") == 3
    assert all(r["colors"] == "" for r in one.values())


def test_eight_grey_miracles_with_white_prerequisites():
    grey = [r for r in MIRACLES if r["kind"] == "grey"]
    colour = [r for r in grey if r["effect"] == "END_COLOR_MONUMENTS"]
    assert sorted(r["colors"] for r in colour) == sorted("PRBY")  # one per colour
    assert all((n(r, "a"), n(r, "white_needed")) == (2, 3) for r in colour)
    rest = {r["effect"]: (n(r, "a"), n(r, "white_needed")) for r in grey if r not in colour}
    assert rest == {"END_DEFENSE_TRACK": (2, 2), "END_NIGHTMARES": (3, 2),
                    "END_INCOME_TRACK": (2, 2), "END_EMPTY_TILES": (1, 2)}


# --- nightmares ----------------------------------------------------------------------------


def test_seven_nightmares_hit_points_and_boxes():
    assert len(NIGHTMARES) == const("nightmares") == 7
    assert const("nightmares_used") == const("rounds") == 6
    for r in NIGHTMARES:
        hp = (n(r, "hp2"), n(r, "hp3"), n(r, "hp4"))
        assert 0 < hp[0] < hp[1] < hp[2] <= 14, r["name"]  # 14 boxes in the observation
        boxes = np.array(r["box_vp"].split(), dtype=int)
        assert len(boxes) == hp[2] and (boxes >= 0).all() and boxes.max() <= 3
        att = r["attacks"]
        assert 1 <= len(att) <= 2 and set(att) <= set("PRBY") and len(set(att)) == len(att)
        assert LETTER[r["color"]] in att  # the defeat reward is one of its terrains
    assert sorted(r["attacks"] for r in NIGHTMARES if len(r["attacks"]) == 2) == sorted(
        "".join(p) for p in [("B", "R"), ("P", "Y"), ("R", "Y"), ("P", "B"), ("P", "R"),
                             ("B", "Y")])


def test_text_example_nightmare_rain_and_sun():
    ex = [r for r in NIGHTMARES if set(r["attacks"]) == {"B", "R"}]
    assert len(ex) == 1
    assert (n(ex[0], "hp2"), n(ex[0], "hp3"), n(ex[0], "hp4")) == (6, 11, 13)


# --- RULES.md against the data -------------------------------------------------------------


def test_action_layout_sizes_match_the_data_and_the_total():
    section = RULES.split("## 14. Action layout", 1)[1].split("\n## ", 1)[0]
    blocks = {k: int(v) for k, v in re.findall(r"^\| `([a-z_]+)` \| (\d+) \|", section, flags=re.M)}
    spaces = len(MAP)
    assert blocks["place"] == 4 * spaces and blocks["leader"] == spaces
    assert blocks["pick"] == max(n(r, "track_spaces") for r in SETUP)
    assert blocks["keep"] == max(n(r, "picks_per_player") for r in SETUP)
    assert blocks["discard"] == const("construction_zone") + 1
    assert blocks["abandon"] == const("construction_zone")
    assert blocks["miracle"] == const("white_shown") + const("grey_shown")
    assert blocks["damage"] == const("nightmares_used")
    assert blocks["resource"] == len(COLORS)
    total = int(re.search(r"Total (\d+)\.", section).group(1))
    assert total == sum(blocks.values())


def test_rules_md_lists_every_component_and_marks_design():
    for r in MONUMENTS + MIRACLES + NIGHTMARES:
        assert f"| {r['type']} | {r['name']} |" in RULES, r["name"]
    for t in TILES:
        assert f"`{t['layout']}`" in RULES, t["name"]
    assert "designed for fatezoo" in RULES
    assert "/work" not in RULES and "seeds/0" not in RULES  # cite the text by title only
    assert "](/" not in RULES and "](../" not in RULES


def test_rules_md_rules_are_numbered_and_name_their_tests():
    numbers = [int(x) for x in re.findall(r"^- \*\*R(\d+)\*\*", RULES, flags=re.M)]
    assert numbers == list(range(1, len(numbers) + 1)) and len(numbers) >= 50
    for block in re.split(r"^- \*\*R\d+\*\*", RULES, flags=re.M)[1:]:
        rule = block.split("\n- ", 1)[0].split("\n#", 1)[0]
        assert "P::" in rule or "T::test_" in rule or "C::test_" in rule, rule[:60]
    for name in set(re.findall(r"C::(test_\w+)", RULES)):
        assert name in globals(), name  # every content test RULES.md promises exists
    refs = {int(x) for x in re.findall(r"\bR(\d+)\b", RULES)}
    assert refs <= set(numbers)  # no reference to a rule that does not exist
