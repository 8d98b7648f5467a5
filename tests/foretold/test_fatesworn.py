"""Foretold's Fatesworn expansion (option ``fatesworn``): RULES.md R13, R72, R86-R89.

Hand-built positions with the helpers of test_rules.py: a dealt game (with the option)
edited in place, every card kept in exactly one place.
"""

from __future__ import annotations

import numpy as np
import pytest

from fatezoo.envs.foretold import SPEC, check_record, determinize, rules
from fatezoo.envs.foretold.cards import (
    C_COPIES,
    C_FATE,
    C_NAMES,
    F_BASE,
    F_COPIES,
    F_WHEN,
    R_BASE,
    WHEN,
)
from fatezoo.envs.foretold.state import (
    BUY_FAITHFUL,
    BUY_TILE,
    FATE_DECK,
    PASS,
    PLAY_FATE,
    SPOT,
    SPOTS,
    Phase,
)

from .test_rules import F, _fetch, act, deal, give, give_relic, market, park, ready

C = {name: i for i, name in enumerate(C_NAMES)}
DECREES = ("Herald", "Magistrate", "Arbiter", "Peacekeeper", "Usurer")


def give_card(rec, p, name):
    """Seat ``p`` takes one Fate card ``name`` from the first Fate Deck holding it."""
    c = C[name]
    for f in range(4):
        n = int(rec["c_deck_n"][f])
        hit = np.flatnonzero(rec["c_deck"][f, :n] == c)
        if hit.size:
            i = int(hit[0])
            rec["c_deck"][f, i:n - 1] = rec["c_deck"][f, i + 1:n].copy()
            rec["c_deck"][f, n - 1] = -1
            rec["c_deck_n"][f] = n - 1
            rec["c_hand"][p, c] += 1
            if C_FATE[c] == 4:
                rec["c_sym"][p, f] |= 1 << int(rules.tables.C_SYM[c])  # deck f's copy
            return
    raise AssertionError(f"{name} is in no Fate Deck")


def on_pile(rec, k, name):
    """Faithful ``name`` (from the deck) on top of Faithful pile ``k``."""
    _fetch(rec, "f", F[name])
    rec["f_row"][k, rec["f_row_n"][k]] = F[name]
    rec["f_row_n"][k] += 1


def fs_market(p=0, gold=0):
    """Seat ``p``'s Marketplace Step with Fatesworn; every Faithful set aside but a Guard
    in each Discard Pile and one in seat ``p``'s Temple (the Step holds a real choice)."""
    states = market(2, p=p, gold=gold, fatesworn=True)
    rec = states[0]
    for q in range(2):
        park(rec, q)
        give(rec, q, "f_discard", "Guard")
    give(rec, p, "f_temple", "Guard")
    return states


def test_fatesworn_adds_content():
    # R6, R87: the 13 Faithful, Arrows and the four Relics of the Fates join their decks;
    # each Fate Deck gets its 5 Fatesworn cards and one copy of each of the 5 with the symbol
    base, fs = deal(2, seed=3)[0], deal(2, seed=3, fatesworn=True)[0]
    assert int((F_COPIES * (F_BASE == 0)).sum()) == 13
    assert fs["f_deck_n"][0] == base["f_deck_n"][0] + 13
    assert fs["r_deck_n"][0] == base["r_deck_n"][0] + 5
    assert base["c_deck_n"].tolist() == [30] * 4 and fs["c_deck_n"].tolist() == [40] * 4
    for f in range(4):
        deck = fs["c_deck"][f, :40]
        for k in range(len(C_NAMES)):
            if C_FATE[k] == 4:
                assert (deck == k).sum() == 1  # one copy of each symbol card per deck
            elif C_FATE[k] == f:
                assert (deck == k).sum() == C_COPIES[k]
    assert (fs["f_out"][F_BASE == 0] == 0).all()
    assert (fs["r_out"][R_BASE == 0] == 0).all()
    assert (base["f_out"][F_BASE == 0] == F_COPIES[F_BASE == 0]).all()
    # without the option a Fatesworn card in play is refused by the loader
    rec = base.copy()
    t = F["Herald"]
    rec["f_out"][t] -= 1
    rec["f_deck"][0, rec["f_deck_n"][0]] = t
    rec["f_deck_n"][0] += 1
    with pytest.raises(ValueError, match="every Fatesworn card out of the game"):
        check_record(rec)


def test_decree_applies_while_in_marketplace():
    # R88: the Herald on top of a Faithful pile makes Tiles cost 4; once bought, 3 again
    states = fs_market(gold=3)
    rec = states[0]
    on_pile(rec, 0, "Herald")
    assert BUY_TILE not in ready(states)
    rec["gold"][0] = 4
    assert BUY_TILE in ready(states)
    rec["gold"][0] = 6  # the Herald costs 3
    act(states, BUY_FAITHFUL + 0)
    assert rec["f_discard"][0, F["Herald"]] == 1 and rec["gold"][0] == 3
    act(states, BUY_TILE)  # the Decree left the Marketplace with the Herald: 3 gold
    assert rec["gold"][0] == 0 and rec["phase"] in (Phase.PLACE_CELL, Phase.MARKET)
    # the Magistrate: a Fate card costs 2
    states = fs_market(gold=2)
    rec = states[0]
    assert FATE_DECK not in ready(states)
    on_pile(rec, 1, "Magistrate")
    act(states, FATE_DECK + 0)
    assert rec["gold"][0] == 0 and rec["c_hand"][0].sum() == 1


def test_decrees_at_the_start_of_a_turn_and_on_smite():
    # R88: the Peacekeeper heals and the Usurer pays each player as their turn starts; the
    # Arbiter takes 1 from a Smite
    states = market(2, p=1, fatesworn=True)
    rec = states[0]
    on_pile(rec, 0, "Peacekeeper")
    on_pile(rec, 1, "Usurer")
    rec["life"][0] = 15
    rec["f_party"][1] = 0
    rules.begin_raid_step(rec)
    act(states, PASS)  # seat 1 ends its turn; seat 0's starts
    assert rec["turn_player"] == 0 and rec["phase"] == Phase.MARKET
    assert rec["life"][0] == 16 and rec["gold"][0] == 1
    assert rules.decree_sum(rec, rules.tables.E_DECREE_SMITE) == 0
    on_pile(rec, 2, "Arbiter")
    assert rules.decree_sum(rec, rules.tables.E_DECREE_SMITE) == -1


def test_decree_cannot_be_covered():
    # R13: a full Faithful Row; the revealed Faithful may not cover a Decree
    states = fs_market()
    rec = states[0]
    for k in range(SPOTS):
        if rec["f_row_n"][k] == 0:
            on_pile(rec, k, "Fighter")
    on_pile(rec, 0, "Herald")
    on_pile(rec, 3, "Usurer")
    rules.reveal_faithful(rec)
    rules.set_current(rec)
    assert rec["phase"] == Phase.COVER_FAITHFUL
    assert ready(states) == {SPOT + 1, SPOT + 2, SPOT + 4, SPOT + 5}
    # R13 Reading (every top a Decree: the Faithful goes under the deck) cannot arise with
    # this content: 5 Decrees for 6 spots
    assert int((F_WHEN == WHEN.index("decree")).sum()) == len(DECREES) == SPOTS - 1


def test_relics_of_the_fates_win_at_turn_start():
    # R86: holding Crucible, Ring, Scepter and Vestments when your turn starts wins
    for held in (3, 4):
        states = market(2, p=1, fatesworn=True)
        rec = states[0]
        for name in ("Crucible", "Ring", "Scepter", "Vestments")[:held]:
            give_relic(rec, 0, f"{name} of the Fates")
        rec["f_party"][1] = 0
        rules.begin_raid_step(rec)
        act(states, PASS)
        assert bool(rec["terminated"]) == (held == 4)
        if held == 4:
            assert rec["winner"] == 0


def test_fatesworn_symbol_counts_as_every_fate():
    # R72, R89: the Crucible counts as one Relic of every Fate for Relic Costs; a card with
    # the symbol is paid with any one Fate's Relics (+ the Crucible); the symbol on a
    # Faithful counts for alignment-counting effects (Patronage)
    states = fs_market()
    rec = states[0]
    give_card(rec, 0, "Havoc")  # Chaos, Relic Cost 1
    give_card(rec, 0, "Fate's Reward")  # the symbol, Relic Cost 2: gain 4
    give_relic(rec, 0, "Shield of Grace")  # in the Sanctum's Altar
    legal = ready(states)
    assert PLAY_FATE + C["Havoc"] not in legal and PLAY_FATE + C["Fate's Reward"] not in legal
    give_relic(rec, 0, "Crucible of the Fates")  # no Altar needed
    legal = ready(states)
    assert PLAY_FATE + C["Havoc"] in legal and PLAY_FATE + C["Fate's Reward"] in legal
    act(states, PLAY_FATE + C["Fate's Reward"])
    assert rec["gold"][0] == 4
    # Patronage: 1 gold per Prosperity Faithful in the Discard Pile; the Pilgrim (symbol)
    # counts, the Guard does not
    give(rec, 0, "f_discard", "Merchant")
    give(rec, 0, "f_discard", "Pilgrim")
    give_card(rec, 0, "Patronage")
    act(states, PLAY_FATE + C["Patronage"])
    assert rec["gold"][0] == 4 + 2


def _thin_deck(rec, f, keep):
    """Fate Deck ``f`` keeps only the card types in ``keep`` (one each); the rest go to the
    shared Fate discard."""
    n = int(rec["c_deck_n"][f])
    left = []
    for k in rec["c_deck"][f, :n].tolist():
        if k in keep and k not in left:
            left.append(k)
        else:
            rec["c_discard"][k] += 1
    rec["c_deck"][f, :] = -1
    rec["c_deck"][f, :len(left)] = left
    rec["c_deck_n"][f] = len(left)


def test_determinize_deals_hands_by_deck_drawn_from():
    # R87, section 14: seat 1 drew Oath of the Fates (the symbol) from the Chaos deck, which
    # now holds only Fury. Seat 0 knows that seat 1 holds one card from the Chaos deck, not
    # which: resampled for seat 0, seat 1 holds Oath or Fury (the other in the deck), never
    # a card of another deck (the Fatesworn count is not kept: the old leak)
    states = fs_market()
    rec = states[0]
    give_card(rec, 1, "Oath of the Fates")
    oath_bit = 1 << int(rules.tables.C_SYM[C["Oath of the Fates"]])
    assert rec["c_sym"][1].tolist() == [oath_bit, 0, 0, 0]
    _thin_deck(rec, 0, {C["Fury"]})
    check_record(rec)
    rng = np.random.default_rng(0)
    seen = set()
    for _ in range(40):
        world = rec.copy()
        determinize(world, 0, rng)
        check_record(world)
        hand = world["c_hand"][1]
        assert hand.sum() == 1 and world["c_deck_n"].tolist() == rec["c_deck_n"].tolist()
        held = C_NAMES[int(np.flatnonzero(hand)[0])]
        other = C_NAMES[int(world["c_deck"][0, 0])]
        assert {held, other} == {"Oath of the Fates", "Fury"}
        sym = 1 << int(rules.tables.C_SYM[C["Oath of the Fates"]]) if held != "Fury" else 0
        assert world["c_sym"][1].tolist() == [sym, 0, 0, 0]
        assert (world["c_hand"][0] == rec["c_hand"][0]).all()
        seen.add(held)
    assert seen == {"Oath of the Fates", "Fury"}
    # resampled for seat 1 (its own hand known), nothing of seat 1 moves
    world = rec.copy()
    determinize(world, 1, rng)
    assert (world["c_hand"][1] == rec["c_hand"][1]).all()
    assert (world["c_sym"] == rec["c_sym"]).all()


def test_symbol_copy_follows_the_card():
    # R87: a drawn symbol card records its deck; played, the copy of the lowest deck goes;
    # a record whose c_sym disagrees with the hand is refused
    states = fs_market(gold=6)
    rec = states[0]
    oath = C["Oath of the Fates"]
    bit = 1 << int(rules.tables.C_SYM[oath])
    _thin_deck(rec, 2, {oath})
    _thin_deck(rec, 3, {oath})
    act(states, FATE_DECK + 3)
    act(states, FATE_DECK + 2)
    assert rec["c_hand"][0, oath] == 2 and rec["c_sym"][0].tolist() == [0, 0, bit, bit]
    rec["life"][0] = 10  # Oath heals (any timing; Relic Cost 1: the Crucible pays it)
    give_relic(rec, 0, "Crucible of the Fates")
    act(states, PLAY_FATE + oath)
    assert rec["c_hand"][0, oath] == 1 and rec["c_sym"][0].tolist() == [0, 0, 0, bit]
    check_record(rec)
    bad = rec.copy()
    bad["c_sym"][0, 3] = 0
    with pytest.raises(ValueError, match="once per deck copy held"):
        check_record(bad)
    bad = rec.copy()
    bad["c_sym"][0, 0] = bit  # deck 0's Oath, which is still in deck 0
    bad["c_hand"][0, oath] = 2
    bad["c_discard"][oath] -= 1
    with pytest.raises(ValueError, match="its one copy of symbol type"):
        check_record(bad)


def test_render_shows_fatesworn_content():
    # the views show the option's content: the Decrees in force (R88), the Fatesworn symbol
    # (R89) as a star, and an opponent's hand per Fate Deck drawn from (public, R87)
    states = fs_market()
    rec = states[0]
    on_pile(rec, 0, "Herald")
    on_pile(rec, 1, "Magistrate")
    give_card(rec, 1, "Oath of the Fates")
    give_card(rec, 1, "Mend")  # Grace
    give_relic(rec, 1, "Crucible of the Fates")
    check_record(rec)
    mine = SPEC.render_ansi(rec, 1).splitlines()
    theirs = SPEC.render_ansi(rec, 0).splitlines()
    assert mine[-1] == theirs[-1] == \
        "fatesworn: decrees Herald (Tile price +1), Magistrate (Fate card price -1)"
    assert " H:Mend,OathotF* " in mine[2] and " R:CrucotF* " in mine[2]
    assert " H2=1/1/0/0 " in theirs[2] and "Mend" not in theirs[2]
    assert mine[-3].startswith("Faithful Row spots 0:Guar/Hera 1:Guar/Magi ")
    assert theirs[-3] == mine[-3] and theirs[-2] == mine[-2]
    svg = SPEC.render_svg(rec, 0)
    assert "fatesworn: decrees Herald (Tile price +1), Magistrate (Fate card price -1)" in svg
    assert "H2=1/1/0/0" in svg
    # without the option: no Fatesworn line
    base = market(2)[0]
    assert "fatesworn" not in SPEC.render_ansi(base, 0)


def test_determinize_keeps_every_view_in_played_fatesworn_games():
    # the contract's hidden-information check runs the default options; this one plays
    # random Fatesworn games (draws, plays, eliminations move symbol cards) and checks that
    # every seat's observation and view survive its own determinization, and that some
    # opponent's symbol-card count moves (the count is not kept)
    from fatezoo.envs.core import kernels as K
    from fatezoo.envs.core.testing import _random_actions
    from fatezoo.envs.foretold import env as make_env

    rng = np.random.default_rng(5)
    obs = np.zeros(SPEC.obs_size, np.float32)
    obs2 = np.zeros(SPEC.obs_size, np.float32)
    sym = np.asarray(rules.tables.C_SYM) >= 0
    checked = moved = 0
    for seed in range(6):
        env = make_env(num_players=3, fatesworn=True)
        env.reset(seed=seed)
        _random_actions(env, rng, 150 + 40 * seed)
        if not env.agents:
            continue
        base = env.states.copy()
        for p in range(3):
            K.encode_one(base, 0, p, obs)
            view = SPEC.render_ansi(base[0], p)
            for _ in range(5):
                world = base.copy()
                determinize(world[0], p, rng)
                check_record(world[0])
                K.encode_one(world, 0, p, obs2)
                assert obs.tobytes() == obs2.tobytes() and view == SPEC.render_ansi(world[0], p)
                held = world["c_hand"][0][:, sym].sum(1) != base["c_hand"][0][:, sym].sum(1)
                moved += bool(held.any())
                checked += 1
    assert checked >= 30 and moved > 0
