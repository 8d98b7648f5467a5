"""Foretold rules that were implemented before they had a rule test (RULES.md R10, R11, R14,
R26, R29-R31, R35, R36, R39-R41, R44, R48, R95).

Hand-built positions with the helpers of test_rules.py and test_fate.py: a dealt game (seed
0) edited in place, every card kept in exactly one place (``act`` and ``ready`` run the
game's own loader check). Expected values are exact; where dice are rolled the totals are
checked against the dice on the table.
"""

from __future__ import annotations

import numpy as np

import fatezoo
from fatezoo.envs.core import kernels as K
from fatezoo.envs.core.zones import zone_contents, zone_pop, zone_push
from fatezoo.envs.foretold import determinize, rules
from fatezoo.envs.foretold.cards import NF, NR, NT, R_IS_FATE, T_KIND, T_NAMES, T_STATIONS
from fatezoo.envs.foretold.cards import T_ALTARS as ALTARS
from fatezoo.envs.foretold.encode import (
    CB_DICE,
    CELL_SIZE,
    DIE_SCALE,
    G_ALTARS,
    G_BONUS,
    G_DOORS,
    G_HIDDEN,
    G_SIDE,
    G_STATIONS,
    G_TYPE,
    H_TILE,
    H_TILE_TYPE,
    O_COMBAT,
    O_DISCARD,
    O_GRID,
    O_HELD,
    O_OWNED,
)
from fatezoo.envs.foretold.state import (
    BUY_FAITHFUL,
    BUY_RELIC,
    BUY_TILE,
    CELL,
    CELLS,
    DECK,
    DIRECTION,
    FLIP,
    K_ROLL,
    MAX_DICE,
    MOVE_FROM,
    PASS,
    PICK_FAITHFUL,
    PICK_RELIC,
    PLAY_GOLD,
    RETREAT,
    ROTATION,
    S_CARD,
    SPOT,
    SPOTS,
    TARGET_SEAT,
    Phase,
)

from .test_fate import give_card, quiet_market
from .test_rules import (
    SPEC,
    E,
    F,
    N,
    R,
    S,
    T,
    W,
    act,
    give,
    give_relic,
    market,
    place_tile,
    raid_ready,
    ready,
    relic_to_row,
)

FATES = ("Chaos", "Grace", "Prosperity", "Wisdom")
KIND, OWNER = 0, 1  # stack columns of the kit
f32 = np.float32  # observations are float32


# ---------------------------------------------------------------- helpers


def fill_rows(rec):
    """Every spot of both Marketplace rows holds a pile (the decks' top cards moved there)."""
    for prefix in ("f", "r"):
        rows, sizes = rec[f"{prefix}_row"], rec[f"{prefix}_row_n"]
        deck, deck_n = rec[f"{prefix}_deck"], rec[f"{prefix}_deck_n"]
        for k in range(SPOTS):
            if sizes[k] == 0:
                zone_push(rows, sizes, k, zone_pop(deck, deck_n, DECK))


def empty_deck(rec, prefix):
    """Set every card of the Faithful (``f``) or Relic (``r``) Deck out of the game."""
    deck, deck_n = rec[f"{prefix}_deck"], rec[f"{prefix}_deck_n"]
    out = rec[f"{prefix}_out"]
    out += np.bincount(zone_contents(deck, deck_n, DECK), minlength=out.shape[0]).astype(out.dtype)
    deck[:] = -1
    deck_n[:] = 0


def finish_turn(states):
    """The turn player passes through the Marketplace Step, the Raid and Reinforce (every
    Faithful to the Raiding Party): three ordinary decisions, each step as the rules run it."""
    rec = states[0]
    p = int(rec["turn_player"])
    while rec["turn_player"] == p and rec["phase"] in (Phase.MARKET, Phase.RAID_TARGET,
                                                       Phase.REINFORCE):
        act(states, PASS)


def observe(states, viewer):
    out = np.zeros(SPEC.obs_size, np.float32)
    K.encode_one(states, 0, viewer, out)
    return out


def cell_view(out, rel, c):
    """The grid entry of seat ``rel`` (relative to the viewer), cell ``c``."""
    o = O_GRID + (rel * CELLS + c) * CELL_SIZE
    return out[o:o + CELL_SIZE]


def door_bits(view):
    return sum(int(view[G_DOORS + d]) << d for d in range(4))


# ---------------------------------------------------------------- 2. the turn


def test_turn_steps_run_in_order():
    # R10: the start-of-turn Heal, then the Reveal (a Relic, then a Faithful: with both rows
    # full each is a cover decision), then the Marketplace Step (its start-of-step gold),
    # the optional Raid, Reinforce, and the next seat's turn
    states = market(2, p=0)
    rec = states[0]
    fill_rows(rec)
    place_tile(rec, 1, 4, "Vault", side=1, rot=2)  # B: +1 gold as seat 1's Market begins
    place_tile(rec, 1, 6, "Healing Spring", side=1, rot=2)  # B: Heal 1 as seat 1's turn starts
    rec["life"][1] = 15
    give(rec, 1, "f_party", "Fighter")  # seat 1 may Raid
    top_r = int(rec["r_deck"][0, rec["r_deck_n"][0] - 1])
    top_f = int(rec["f_deck"][0, rec["f_deck_n"][0] - 1])
    deck_r, deck_f = int(rec["r_deck_n"][0]), int(rec["f_deck_n"][0])
    finish_turn(states)  # seat 0: pass (no Party: no Raid step), Reinforce pass
    assert rec["turn_player"] == 1 and rec["turn"] == 1 and rec["current_player"] == 1
    assert rec["phase"] == Phase.COVER_RELIC
    assert rec["life"][1] == 16  # the Heal came before the Reveal
    assert rec["r_held"] == top_r and rec["r_deck_n"][0] == deck_r - 1
    assert rec["f_deck_n"][0] == deck_f and rec["f_held"] == -1  # the Faithful comes second
    assert rec["gold"][1] == 0  # the Marketplace Step has not begun
    act(states, SPOT + SPOTS + 2)
    assert rec["phase"] == Phase.COVER_FAITHFUL and rec["r_row_n"][2] == 2
    assert rec["f_held"] == top_f and rec["gold"][1] == 0
    legal = act(states, SPOT + 0)
    assert rec["phase"] == Phase.MARKET and rec["f_row_n"][0] == 2 and rec["gold"][1] == 1
    assert PASS in legal and not {TARGET_SEAT, TARGET_SEAT + 1, RETREAT} & legal
    legal = act(states, PASS)  # the Marketplace Step ends: the Raid step (optional)
    assert rec["phase"] == Phase.RAID_TARGET and legal == {TARGET_SEAT, PASS}
    legal = act(states, PASS)  # no Raid: Reinforce
    assert rec["phase"] == Phase.REINFORCE and rec["current_player"] == 1
    assert rec["f_pool"][1].sum() == 5 and PICK_FAITHFUL + F["Fighter"] in legal
    act(states, PASS)
    assert rec["turn_player"] == 0 and rec["turn"] == 2 and rec["phase"] == Phase.COVER_RELIC
    assert rec["f_party"][1].sum() == 5 and rec["gold"][1] == 1
    # the start-of-turn check comes first: four Fate Relics of one Fate win before the Heal
    # and the Reveal (R85)
    states = market(2, p=1)
    rec = states[0]
    rec["side"][0, 0] = 1  # Altars: Sanctum, Treasury B, two Shrine Halls B
    for cell in (4, 6):
        place_tile(rec, 0, cell, "Shrine Hall", side=1)
    place_tile(rec, 0, 8, "Healing Spring", side=1, rot=2)
    for x in ("Crown", "Shield", "Shrine", "Sword"):
        give_relic(rec, 0, f"{x} of Wisdom")
    rec["life"][0] = 15
    decks = int(rec["r_deck_n"][0]), int(rec["f_deck_n"][0])
    finish_turn(states)
    assert rec["terminated"] == 1 and rec["winner"] == 0 and rec["life"][0] == 15
    assert (int(rec["r_deck_n"][0]), int(rec["f_deck_n"][0])) == decks


def test_reveal_from_empty_decks_reveals_nothing():
    # R11: an empty Relic Deck reveals no Relic (and, the rows full, asks no cover), the
    # Faithful is still revealed; with both decks empty the turn goes straight to the
    # Marketplace Step, the rows untouched
    states = market(2, p=0)
    rec = states[0]
    fill_rows(rec)
    empty_deck(rec, "r")
    r_rows = rec["r_row"].copy()
    top_f = int(rec["f_deck"][0, rec["f_deck_n"][0] - 1])
    finish_turn(states)
    assert rec["turn_player"] == 1 and rec["phase"] == Phase.COVER_FAITHFUL
    assert rec["r_held"] == -1 and (rec["r_row"] == r_rows).all() and rec["f_held"] == top_f
    act(states, SPOT + 3)
    assert rec["phase"] == Phase.MARKET and rec["f_row_n"][3] == 2
    empty_deck(rec, "f")
    f_rows, f_sizes = rec["f_row"].copy(), rec["f_row_n"].copy()
    finish_turn(states)
    assert rec["turn_player"] == 0 and rec["phase"] == Phase.MARKET
    assert rec["r_held"] == -1 and rec["f_held"] == -1
    assert (rec["r_row"] == r_rows).all() and (rec["f_row"] == f_rows).all()
    assert (rec["f_row_n"] == f_sizes).all()


def test_marketplace_actions_in_any_order_until_pass():
    # R14: play for gold, buy, play again (the same action twice), flip, rearrange, play
    # once more: after each the step goes on, offering them all again; only `pass` ends it
    states = quiet_market()  # seat 0: one Guard in the Temple, one in the Discard Pile
    rec = states[0]
    give(rec, 0, "f_temple", "Acolyte", 2)
    assert not {TARGET_SEAT, TARGET_SEAT + 1} & ready(states)
    steps = [
        ((PLAY_GOLD + F["Acolyte"],), 2),
        ((BUY_FAITHFUL + 0,), 0),  # the Guard on pile 0, 2 gold
        ((PLAY_GOLD + F["Acolyte"],), 2),
        ((FLIP + 0, ROTATION + 0), 0),  # the Treasury (Flip Cost 2)
        ((MOVE_FROM + 9, CELL + 6), 0),  # the Heart under the Sanctum
        ((PLAY_GOLD + F["Guard"],), 1),
    ]
    for actions, gold in steps:
        legal = act(states, *actions)
        assert rec["phase"] == Phase.MARKET and rec["gold"][0] == gold, actions
        assert PASS in legal and rec["current_player"] == 0
    assert rec["f_discard"][0].tolist()[:3] == [0, 2, 3]  # 2 Acolytes, 1 + 1 bought + 1 Guard
    assert rec["side"][0, 0] == 1 and rec["grid"][0, 6] == T["Heart"]
    assert {MOVE_FROM + 0, MOVE_FROM + 6} <= legal  # still more to do
    act(states, PASS)  # no Raiding Party: the Raid is skipped, Reinforce
    assert rec["phase"] == Phase.REINFORCE and rec["gold"][0] == 1


def test_turn_gold_when_the_marketplace_step_begins():
    # R26: a flipped Vault adds 1 gold as its owner's Marketplace Step begins: not during
    # the Reveal before it, not again when the step resumes after an Action, nothing on the
    # turns of others, nothing on its A-side
    states = market(2, p=1)
    rec = states[0]
    fill_rows(rec)
    place_tile(rec, 0, 4, "Vault", side=1, rot=2)
    finish_turn(states)  # seat 1's turn ends; seat 0's Reveal asks for its covers
    assert rec["turn_player"] == 0 and rec["phase"] == Phase.COVER_RELIC and rec["gold"][0] == 0
    act(states, SPOT + SPOTS + 0)
    assert rec["phase"] == Phase.COVER_FAITHFUL and rec["gold"][0] == 0
    act(states, SPOT + 0)
    assert rec["phase"] == Phase.MARKET and rec["gold"][0] == 1
    act(states, PLAY_GOLD + F["Guard"])
    assert rec["phase"] == Phase.MARKET and rec["gold"][0] == 2  # the Guard's 1 only
    finish_turn(states)
    act(states, SPOT + SPOTS + 0, SPOT + 0)  # seat 1's Reveal
    assert rec["phase"] == Phase.MARKET and rec["turn_player"] == 1
    assert rec["gold"].tolist()[:2] == [2, 0]
    finish_turn(states)
    act(states, SPOT + SPOTS + 0, SPOT + 0)
    assert rec["turn_player"] == 0 and rec["gold"][0] == 3  # seat 0's next step: +1 again
    rec["side"][0, 4] = 0  # the Vault on its A-side: a blank hallway
    finish_turn(states)
    act(states, SPOT + SPOTS + 0, SPOT + 0)
    finish_turn(states)
    act(states, SPOT + SPOTS + 0, SPOT + 0)
    assert rec["turn_player"] == 0 and rec["phase"] == Phase.MARKET and rec["gold"][0] == 3


# ---------------------------------------------------------------- 3. Tiles and the Temple


def test_tiles_never_leave_the_temple():
    # R29: a Raid through the Temple (Tiles conquered, passed, a Trap sprung, the Heart
    # Smitten), its end and the next turn leave every Tile where it is, flipped ones on
    # their B-side; rearranging moves a flipped Tile within the Temple, still on its B-side
    states = raid_ready(party=(("Guard", 2),), defender_temple=())
    rec = states[0]
    place_tile(rec, 1, 4, "Watchtower", side=1)  # B: N S, a Station, under the Treasury
    place_tile(rec, 1, 6, "Pit Trap")  # under the Sanctum
    grid, side, rot = rec["grid"].copy(), rec["side"].copy(), rec["rot"].copy()
    decks = int(rec["t_deck_n"][0]), rec["t_out"].copy()
    act(states, TARGET_SEAT, DIRECTION + W, DIRECTION + S)  # Entrance, Treasury, Watchtower
    assert rec["conquered"][[1, 4]].tolist() == [1, 1]
    act(states, DIRECTION + N, DIRECTION + E, DIRECTION + E, DIRECTION + S)  # the Trap
    assert rec["phase"] == Phase.ADVANCE and rec["f_party"][0, F["Guard"]] == 1
    act(states, DIRECTION + N, DIRECTION + W, DIRECTION + S, DIRECTION + S)  # the Heart
    assert rec["life"][1] < 20 and rec["phase"] == Phase.REINFORCE
    side[1, 6] = 1  # the sprung Trap stays on its B-side (R37); nothing else changed
    assert (rec["grid"] == grid).all() and (rec["side"] == side).all()
    assert (rec["rot"] == rot).all()
    assert rec["t_deck_n"][0] == decks[0] and (rec["t_out"] == decks[1]).all()
    finish_turn(states)  # seat 1's turn
    assert rec["turn_player"] == 1 and rec["phase"] == Phase.MARKET
    assert (rec["grid"] == grid).all() and (rec["side"] == side).all()
    act(states, MOVE_FROM + 4, CELL + 10, ROTATION + 0)  # under the sprung Trap
    assert rec["grid"][1, 10] == T["Watchtower"] and rec["side"][1, 10] == 1
    assert rec["grid"][1, 4] == -1
    assert sorted(rec["grid"][1].tolist()) == sorted(grid[1].tolist())


def test_deck_tiles_a_side_identical():
    # R30: every deck Tile shows the same blank N-S hallway: an opponent's unflipped deck
    # Tile looks the same whatever it is (its owner knows it); it adds no Station or Altar;
    # a Raid passes through it (no Trap); the Tile on top of the deck changes nothing
    # about buying one
    views, own = set(), set()
    for t in range(5, NT):
        states = market(2, p=0)
        rec = states[0]
        place_tile(rec, 1, 4, T_NAMES[t])  # under seat 1's Treasury
        ready(states)
        views.add(observe(states, 0).tobytes())
        own.add(observe(states, 1).tobytes())
        view = cell_view(observe(states, 0), 1, 4)
        assert view[G_HIDDEN] == 1 and view[G_TYPE] == 0 and door_bits(view) == 0b0101
        assert view[G_STATIONS] == view[G_ALTARS] == view[G_BONUS] == 0
        assert rules.temple_sum(rec, 1, T_STATIONS) == 3 and rules.temple_sum(rec, 1, ALTARS) == 1
    assert len(views) == 1 and len(own) == NT - 5
    for t in range(5, NT):
        if T_KIND[t] == 1:
            continue  # a Trap springs (R37)
        states = raid_ready(defender_temple=())
        rec = states[0]
        place_tile(rec, 1, 4, T_NAMES[t])
        act(states, TARGET_SEAT, DIRECTION + W, DIRECTION + S)
        assert rec["marker"] == 4 and rec["phase"] == Phase.ADVANCE, T_NAMES[t]
        assert rec["conquered"][4] == 0  # passed through, not a Station Tile taken
    for t in range(5, NT):
        states = market(2, p=0, gold=3)
        rec = states[0]
        deck = rec["t_deck"][0]
        n = int(rec["t_deck_n"][0])
        i = int(np.flatnonzero(deck[:n] == t)[0])
        deck[i], deck[n - 1] = deck[n - 1], deck[i]
        assert BUY_TILE in ready(states)
        legal = act(states, BUY_TILE)
        assert rec["t_held"] == t and legal == {CELL + 4, CELL + 6}, T_NAMES[t]


def test_bought_tile_b_side_known_only_to_owner():
    # R31: the buyer sees the bought Tile (held, then placed); the opponent sees a Tile is
    # held and an unflipped hallway, nothing of its type, which only a flip shows; the
    # opponent's view and its determinization do not depend on the hidden type
    states = market(2, p=0, gold=3)
    rec = states[0]
    deck, n = rec["t_deck"][0], int(rec["t_deck_n"][0])
    i = int(np.flatnonzero(deck[:n] == T["Watchtower"])[0])
    deck[i], deck[n - 1] = deck[n - 1], deck[i]  # the Watchtower on top (B: N S, Flip Cost 2)
    act(states, BUY_TILE)
    mine, theirs = observe(states, 0), observe(states, 1)
    tile, tile_type = O_HELD + H_TILE, O_HELD + H_TILE_TYPE
    assert mine[tile] == theirs[tile] == 1
    assert mine[tile_type] == f32((T["Watchtower"] + 1) / NT) and theirs[tile_type] == 0
    act(states, CELL + 4, ROTATION + 0)
    mine, theirs = observe(states, 0), observe(states, 1)
    assert cell_view(mine, 0, 4)[G_TYPE] == f32((T["Watchtower"] + 1) / NT)
    assert cell_view(mine, 0, 4)[G_HIDDEN] == 0
    assert cell_view(theirs, 1, 4)[G_TYPE] == 0 and cell_view(theirs, 1, 4)[G_HIDDEN] == 1
    # the same position with a Shrine Hall there instead (swapped with the deck's copy)
    other = states.copy()
    o = other[0]
    j = int(np.flatnonzero(o["t_deck"][0, :o["t_deck_n"][0]] == T["Shrine Hall"])[0])
    o["t_deck"][0, j], o["grid"][0, 4] = T["Watchtower"], T["Shrine Hall"]
    ready(other)
    assert (observe(other, 1) == theirs).all() and not (observe(other, 0) == mine).all()
    # the opponent's determinization resamples the hidden type, never the owner's own view
    seen = set()
    for seed in range(12):
        copy = states.copy()
        determinize(copy[0], 1, np.random.default_rng(seed))
        seen.add(int(copy[0]["grid"][0, 4]))
        assert (observe(copy, 1) == theirs).all()
        copy = states.copy()
        determinize(copy[0], 0, np.random.default_rng(seed))
        assert copy[0]["grid"][0, 4] == T["Watchtower"]
    assert len(seen) > 1 and seen <= set(range(5, NT))
    rec["gold"][0] = 2
    act(states, FLIP + 4, ROTATION + 0)  # its B-side fits both ways up: asked
    assert rec["side"][0, 4] == 1 and rec["gold"][0] == 0
    view = cell_view(observe(states, 1), 1, 4)
    assert view[G_TYPE] == f32((T["Watchtower"] + 1) / NT) and view[G_HIDDEN] == 0
    assert view[G_SIDE] == 1 and view[G_STATIONS] == 0.5 and view[G_BONUS] == 0.5


def test_tile_icons_by_side():
    # R35: Stations, Altars and the Combat Bonus are those of a Tile's current side, and the
    # Flip Cost is paid to turn it: the Shrine Hall (A: none; B: a Station and an Altar,
    # Flip Cost 3) and the Watchtower (B: +1 Combat Bonus)
    states = market(2, p=0, gold=2)
    rec = states[0]
    place_tile(rec, 0, 4, "Shrine Hall")  # under the Treasury
    give_relic(rec, 0, "Sword of Chaos")  # on the Sanctum's one Altar
    relic_to_row(rec, 1, "Shield of Chaos")  # 3 gold, needs an open Altar
    legal = ready(states)
    assert FLIP + 4 not in legal  # 2 gold: short of the Flip Cost
    assert rules.temple_sum(rec, 0, T_STATIONS) == 3 and rules.temple_sum(rec, 0, ALTARS) == 1
    rec["gold"][0] = 3
    assert BUY_RELIC + 1 not in ready(states)  # A-side: no Altar, none open
    act(states, FLIP + 4, ROTATION + 0)
    assert rec["side"][0, 4] == 1 and rec["gold"][0] == 0
    assert rules.temple_sum(rec, 0, T_STATIONS) == 4 and rules.temple_sum(rec, 0, ALTARS) == 2
    rec["gold"][0] = 3
    act(states, BUY_RELIC + 1)  # the B-side's Altar houses it
    assert rec["r_owned"][0, R["Shield of Chaos"]] == 1
    rules.begin_raid_step(rec)  # no Party: Reinforce; four Stations house four Faithful
    assert rec["phase"] == Phase.REINFORCE and rec["f_pool"][0].sum() == 4
    act(states, *[PICK_FAITHFUL + F["Guard"]] * 2, PICK_FAITHFUL + F["Acolyte"])
    act(states, PICK_FAITHFUL + F["High Priest"])  # the 4th: then the pass is forced
    assert rec["f_temple"][0].sum() == 4 and rec["turn_player"] == 1
    # the Combat Bonus: only on the side that shows it, for the Defender on that Tile
    states = raid_ready()
    rec = states[0]
    place_tile(rec, 1, 4, "Watchtower")
    rec["defender"] = 1
    rec["marker"] = 4
    rec["f_temple"][1, F["Guard"]] -= 1  # the Defender's Guard on it
    rec["f_fight"][1, F["Guard"]] += 1
    rec["dice"][1, 0] = 4
    rec["dice_n"][1] = 1
    assert rules.side_total(rec, 1) == 4 + 1  # the die, the Guard's +1, A-side: no bonus
    rec["side"][1, 4] = 1
    assert rules.side_total(rec, 1) == 4 + 1 + 1


def test_starting_tiles_both_sides():
    # R36: the five Starting Tiles on their A-sides, then each flipped for its Flip Cost
    # (Entrance 3, Pathway 3, Treasury 2, Sanctum 2, Heart 4) to its B-side; the opponent
    # knows them on both sides
    states = quiet_market(gold=14)
    rec = states[0]
    cells = {"Treasury": 0, "Entrance": 1, "Sanctum": 2, "Pathway": 5, "Heart": 9}
    # name: (doorways N1 E2 S4 W8, Stations, Altars, Combat Bonus) on the A-side, the B-side
    a_side = {"Entrance": (15, 1, 0, 0), "Pathway": (5, 0, 0, 0), "Treasury": (6, 0, 0, 0),
              "Sanctum": (12, 0, 1, 0), "Heart": (1, 2, 0, 0)}
    b_side = {"Entrance": (15, 1, 0, 1), "Pathway": (15, 1, 0, 1), "Treasury": (6, 0, 1, 0),
              "Sanctum": (12, 1, 1, 0), "Heart": (1, 2, 0, 2)}

    def looks(out, rel, name):
        v = cell_view(out, rel, cells[name])
        assert v[G_TYPE] == f32((T[name] + 1) / NT) and v[G_HIDDEN] == 0
        return door_bits(v), v[G_STATIONS] * 2, v[G_ALTARS] * 2, v[G_BONUS] * 2

    for name in cells:
        assert looks(observe(states, 0), 0, name) == a_side[name], name
        assert looks(observe(states, 1), 1, name) == a_side[name], name
    assert rules.temple_sum(rec, 0, T_STATIONS) == 3 and rules.temple_sum(rec, 0, ALTARS) == 1
    flips = [("Entrance", (), 3), ("Pathway", (ROTATION + 0,), 3),
             ("Treasury", (ROTATION + 0,), 2), ("Sanctum", (ROTATION + 0,), 2),
             ("Heart", (), 4)]
    gold = 14
    for name, rotation, cost in flips:
        act(states, FLIP + cells[name], *rotation)
        gold -= cost
        assert rec["gold"][0] == gold and rec["side"][0, cells[name]] == 1, name
        assert rec["rot"][0, cells[name]] == 0
    for name in cells:
        assert looks(observe(states, 0), 0, name) == b_side[name], name
        assert looks(observe(states, 1), 1, name) == b_side[name], name
    assert rules.temple_sum(rec, 0, T_STATIONS) == 5 and rules.temple_sum(rec, 0, ALTARS) == 2


def test_flip_search_offers_the_kind_it_names():
    # R39: the Forge (flipped: search for a Sword) offers every Sword in the Relic Deck its
    # owner may take; taking another Fate's follows R20; the deck is shuffled after. The
    # Reliquary (any Fate Relic) offers only Fate Relics; passing takes nothing. With no
    # Sword in the deck the flip asks nothing.
    states = quiet_market(gold=4)
    rec = states[0]
    place_tile(rec, 0, 4, "Forge")  # B: N S W, a Station, an Altar; Flip Cost 4
    give_relic(rec, 0, "Shield of Chaos")  # on the Sanctum's Altar
    before = rec["r_deck"][0, :rec["r_deck_n"][0]].tolist()
    legal = act(states, FLIP + 4)  # one rotation fits: applied without asking
    assert rec["phase"] == Phase.SEARCH and rec["current_player"] == 0
    assert legal == {PICK_RELIC + R[f"Sword of {x}"] for x in FATES} | {PASS}
    act(states, PICK_RELIC + R["Sword of Grace"])
    assert rec["phase"] == Phase.MARKET and rec["gold"][0] == 0
    assert {r for r in range(NR) if rec["r_owned"][0, r]} == {R["Sword of Grace"]}
    tops = {int(rec["r_row"][k, rec["r_row_n"][k] - 1]) for k in range(SPOTS) if rec["r_row_n"][k]}
    assert R["Shield of Chaos"] in tops  # returned to the Relic Row (R20)
    after = rec["r_deck"][0, :rec["r_deck_n"][0]].tolist()
    before.remove(R["Sword of Grace"])
    assert sorted(after) == sorted(before) and after != before  # shuffled
    # the Reliquary: any Fate Relic (all sixteen are in the deck), never required
    states = quiet_market(gold=4)
    rec = states[0]
    place_tile(rec, 0, 4, "Reliquary", rot=2)  # B: one doorway (S), turned north
    deck = sorted(rec["r_deck"][0, :rec["r_deck_n"][0]].tolist())
    legal = act(states, FLIP + 4)
    assert legal == {PICK_RELIC + r for r in range(NR) if R_IS_FATE[r]} | {PASS}
    assert len(legal) == 17
    act(states, PASS)
    assert rec["phase"] == Phase.MARKET and not rec["r_owned"][0].any()
    assert sorted(rec["r_deck"][0, :rec["r_deck_n"][0]].tolist()) == deck
    # no Sword left in the deck: the Forge's flip asks nothing
    states = quiet_market(gold=4)
    rec = states[0]
    place_tile(rec, 0, 4, "Forge")
    for k, x in enumerate(FATES):
        relic_to_row(rec, k + 1, f"Sword of {x}")
    act(states, FLIP + 4)
    assert rec["phase"] == Phase.MARKET and rec["side"][0, 4] == 1
    assert not rec["r_owned"][0].any() and rec["gold"][0] == 0


# ---------------------------------------------------------------- 4. Faithful


def owned_by(rec, p):
    """Seat ``p``'s Faithful by type, over every zone of R40 (and the Reinforce pool)."""
    z = (rec["f_temple"][p] + rec["f_party"][p] + rec["f_discard"][p]
         + rec["f_pool"][p]).astype(np.int64)
    if p == rec["turn_player"]:
        z += rec["f_fight"][0]
    if p == rec["defender"]:
        z += rec["f_fight"][1] + rec["f_defeated"]
    return {name: int(z[t]) for name, t in F.items() if z[t]}


def test_faithful_zones_conservation():
    # R40: through a fight won and a retreat each seat's Faithful are in exactly one zone:
    # Temple, Raiding Party, Discard Pile, in the fight, Defeated (then the Reinforce pool)
    states = raid_ready(party=(("Berserker", 3), ("Guard", 1)),
                        defender_temple=(("Guard", 1), ("Acolyte", 1)))
    rec = states[0]
    raider = {"Berserker": 3, "Guard": 1}
    defender = {"Guard": 2, "Acolyte": 1}  # one Guard waits in seat 1's Discard Pile

    def check():
        assert owned_by(rec, 0) == raider and owned_by(rec, 1) == defender

    check()
    act(states, TARGET_SEAT, PICK_FAITHFUL + F["Guard"])  # the Entrance defended
    check()
    assert rec["f_fight"][1, F["Guard"]] == 1 and rec["f_temple"][1].sum() == 1
    assert rec["f_discard"][1, F["Guard"]] == 1 and rec["phase"] == Phase.DISPATCH
    act(states, *[PICK_FAITHFUL + F["Berserker"]] * 3, PASS)  # 3 dice + 9 beat 1 die + 1
    check()
    assert rec["conquered"][1] == 1 and rec["f_defeated"][F["Guard"]] == 1
    assert rec["f_party"][0].tolist()[:8] == [0, 0, 1, 0, 0, 0, 0, 1]  # Guard, 1 recalled
    assert rec["f_discard"][0, F["Berserker"]] == 2 and not rec["f_fight"].any()
    view = observe(states, 1)  # the Discard Pile is face up, the Party only as owned
    assert view[O_DISCARD + NF + F["Berserker"]] == f32(0.2)
    assert view[O_OWNED + NF + F["Berserker"]] == f32(0.1)
    act(states, RETREAT)
    check()
    assert rec["f_temple"][1].tolist()[:3] == [0, 1, 1] and not rec["f_defeated"].any()
    assert rec["phase"] == Phase.REINFORCE and rec["f_pool"][0, F["Berserker"]] == 3
    act(states, PASS)  # all to the Raiding Party; seat 1's turn
    check()
    assert rec["f_party"][0].sum() == 4 and rec["turn_player"] == 1


def test_temple_and_party_roles():
    # R41: Temple Faithful collect gold and Defend, never Raid; Party Faithful only Raid
    states = raid_ready(party=(("Berserker", 1),), temple=(("Fighter", 1),),
                        defender_temple=(("Guard", 1),))
    rec = states[0]
    give(rec, 1, "f_party", "Champion")  # seat 1's Party: never a Defender
    rec["phase"] = Phase.MARKET
    legal = ready(states)
    assert {a - PLAY_GOLD for a in legal if PLAY_GOLD <= a < PLAY_GOLD + NF} == {F["Fighter"]}
    act(states, PASS)  # the Marketplace Step ends: the Raid step
    legal = act(states, TARGET_SEAT)
    assert rec["phase"] == Phase.DEFEND and legal == {PICK_FAITHFUL + F["Guard"], PASS}
    legal = act(states, PICK_FAITHFUL + F["Guard"])
    assert rec["phase"] == Phase.DISPATCH
    assert legal == {PICK_FAITHFUL + F["Berserker"], RETREAT}  # not the Temple's Fighter


def test_faithful_stats_by_role():
    # R44: raid_bonus counts for the Raider, defend_bonus for the Defender; `dice` combat
    # dice each (Warrior, Demigod: 2); a `fight` ability (the Warlord's +1 to each other
    # Faithful of its side) only while it fights, on either side
    states = raid_ready()
    rec = states[0]
    rec["defender"] = 1
    rec["marker"] = 9  # the Heart, A-side: no Combat Bonus
    rec["dice"][:, 0] = 3
    rec["dice_n"][:] = 1
    # type: (the die + raid bonus, the die + defend bonus)
    for name, totals in (("Guard", (3, 4)), ("Berserker", (6, 3)), ("Fighter", (4, 4)),
                         ("Champion", (6, 6)), ("Hoplite", (3, 4))):
        rec["f_fight"][:] = 0
        rec["f_fight"][:, F[name]] = 1
        assert (rules.side_total(rec, 0), rules.side_total(rec, 1)) == totals, name
    rec["f_fight"][:] = 0
    rec["f_fight"][0, F["Guard"]] = 2
    rec["f_party"][0, F["Warlord"]] = 1  # in the Party, not fighting: nothing
    rec["dice"][0, :3] = 1
    rec["dice_n"][0] = 2
    assert rules.side_total(rec, 0) == 2
    rec["f_fight"][0, F["Warlord"]] = 1
    rec["dice_n"][0] = 3
    assert rules.side_total(rec, 0) == 3 + 2 + 2  # dice, the Warlord's raid +2, +1 twice
    rec["f_fight"][1, F["Warlord"]] = 1
    rec["f_fight"][1, F["Guard"]] = 1
    rec["dice"][1, :2] = 1
    rec["dice_n"][1] = 2
    assert rules.side_total(rec, 1) == 2 + 0 + 1 + 1  # dice, defend +0 and +1, ally +1
    # in play: a Demigod defends with 2 dice (+2), a Warrior raids with 2 dice (+1)
    states = raid_ready(party=(("Warrior", 1),), defender_temple=(("Demigod", 1),))
    rec = states[0]
    act(states, TARGET_SEAT, PICK_FAITHFUL + F["Demigod"])
    assert rec["phase"] == Phase.DISPATCH and rec["dice_n"][1] == 2
    act(states, PICK_FAITHFUL + F["Warrior"])  # then the forced pass: the Raid roll
    assert rec["dice_n"][0] == 2
    assert rec["totals"][0] == rec["dice"][0, :2].sum() + 1
    assert rec["totals"][1] == rec["dice"][1, :2].sum() + 2


# ---------------------------------------------------------------- 5. raids


def test_dispatch_after_seeing_the_defense():
    # R48: the Defense roll is on the table, in the Raider's view, when the Raider picks
    # any number >= 1 of Party Faithful (or retreats); the group and its Raid roll are one
    # Action, answered before the dice are rolled
    states = raid_ready(party=(("Guard", 2), ("Fighter", 1)), defender_temple=(("Guard", 1),))
    rec = states[0]
    give_card(rec, 1, "Sanctuary")  # seat 1 can answer any Action
    act(states, TARGET_SEAT, PICK_FAITHFUL + F["Guard"])  # the Defense roll
    legal = act(states, PASS)  # seat 1 passes in the round after it
    assert rec["phase"] == Phase.DISPATCH and rec["current_player"] == 0
    assert rec["dice_n"][1] == 1 and 1 <= rec["dice"][1, 0] <= 6
    defense = int(rec["dice"][1, 0])
    assert observe(states, 0)[O_COMBAT + CB_DICE + MAX_DICE] == f32(defense / DIE_SCALE)
    assert legal == {PICK_FAITHFUL + F["Guard"], PICK_FAITHFUL + F["Fighter"], RETREAT}
    legal = act(states, PICK_FAITHFUL + F["Guard"])
    assert legal == {PICK_FAITHFUL + F["Guard"], PICK_FAITHFUL + F["Fighter"], PASS}
    act(states, PICK_FAITHFUL + F["Guard"], PICK_FAITHFUL + F["Fighter"])  # the whole Party
    # the pass was forced: one stack entry for the group, answered before the roll
    assert rec["phase"] == Phase.RESPOND and rec["current_player"] == 1
    assert rec["stack_n"][0] == 1 and rec["stack"][0, KIND] == K_ROLL
    assert rec["stack"][0, OWNER] == 0 and rec["stack"][0, S_CARD] == 0
    assert rec["dice_n"][0] == 0 and rec["f_fight"][0].tolist()[:5] == [0, 0, 2, 0, 1]
    act(states, PASS, PASS)  # the window, then seat 1's turn in the round after the roll
    assert rec["dice_n"][0] == 3 and rec["dice"][1, 0] == defense
    assert rec["totals"][0] == rec["dice"][0, :3].sum() + 1  # the Fighter raids +1
    assert rec["totals"][1] == defense + 1


# ---------------------------------------------------------------- 12. episode


def test_eliminated_agents_are_skipped():
    # R95: seat 1 is Smitten out of a 3-player game; it stays an agent, never selected,
    # with no legal action, while seats 0 and 2 play on (0, 2, 0); when seat 0 wins it
    # gets its reward with the others
    states = raid_ready(n=3, party=(("Guard", 2),), defender_temple=())
    rec = states[0]
    rec["life"][1] = 3
    act(states, TARGET_SEAT, DIRECTION + S, DIRECTION + S)  # seat 1's Heart: Smite
    assert rec["alive"].tolist()[:3] == [1, 0, 1] and rec["phase"] == Phase.REINFORCE
    rec["life"][2] = 1
    env = fatezoo.make("foretold", num_players=3)
    env.reset(seed=0)
    env.load_state(states.tobytes())
    seats = []

    def step(action):
        assert env.agent_selection != "player_1"
        assert "player_1" in env.agents and not env.terminations["player_1"]
        assert not env.observe("player_1")["action_mask"].any()
        assert env._cumulative_rewards["player_1"] == 0.0
        seats.append(env.agent_selection)
        env.step(action)

    step(PASS)  # seat 0's Reinforce: the turn passes to seat 2, not seat 1
    assert env.agent_selection == "player_2"
    step(PASS)  # seat 2: Marketplace Step (no Party: no Raid)
    step(PASS)  # seat 2: Reinforce; seat 0 is next
    assert env.agent_selection == "player_0"
    step(SPOT + 0)  # seat 0's Reveal: the Faithful Row is full, a pile is covered
    step(PASS)  # seat 0's Marketplace Step: the Raid step
    assert env.legal_actions() == [TARGET_SEAT + 1, PASS]  # seat 1 is no target
    step(TARGET_SEAT + 1)  # seat 2's Entrance: undefended, conquered
    step(DIRECTION + S)
    step(DIRECTION + S)  # seat 2's Heart: Smitten out; seat 0 wins
    assert seats == ["player_0", "player_2", "player_2"] + ["player_0"] * 5
    assert all(env.terminations[a] for a in ("player_0", "player_1", "player_2"))
    assert env.rewards == {"player_0": 1.0, "player_1": -0.5, "player_2": -0.5}
    assert env.record["winner"] == 0
