"""The rule kit on its test game (tests/kitgame, rules in tests/kitgame/RULES.md).

Positions are hand-built: hands and the deck are given as card kinds (the lowest free
card ids of each kind are used), every other card lies in the discard pile.
"""

import dataclasses
import os
import subprocess
import sys

import numpy as np
import pytest
from kitgame import SPEC, check_record, configure
from kitgame.encode import OBS, OBS_SIZE
from kitgame.state import (
    ATTACK,
    BLOCK,
    CANCEL,
    CARD_KIND,
    DECK,
    DISCARD,
    HAND0,
    OPTION,
    PASS,
    PLAY,
    RESPOND,
    RISK_DIE,
    SEARCH,
    STACK_Z,
    START_LIFE,
    STRIKE,
    TARGET,
    Phase,
)

import fatezoo
from fatezoo.envs.core import kernels as K
from fatezoo.envs.core import testing as T
from fatezoo.envs.core.knowledge import IN_ZONE, KNOWN, UNKNOWN
from fatezoo.envs.core.testing import RuleGame
from fatezoo.envs.core.zones import zone_contents

KINDS = {"attack": ATTACK, "search": SEARCH, "block": BLOCK}


class Table(RuleGame):
    """One kitgame record set up by hand. ``act`` applies one decision with the game's
    kernel and checks the record (no forced decision follows: these tests watch each)."""

    SPEC = SPEC

    def __init__(self, hands, deck=(), turn=0, seed=0, ask_all=False):
        n = len(hands)
        super().__init__(seed=seed, num_players=n, ask_all=ask_all)
        rec = self.rec
        free = {k: [c for c in range(len(CARD_KIND)) if CARD_KIND[c] == k] for k in range(3)}
        rec["zone_n"][:] = 0
        rec["known"][:] = 0
        for p, hand in enumerate(hands):
            for kind in hand:
                c = free[KINDS[kind]].pop(0)
                self.put(HAND0 + p, c)
                rec["known"][p, c] = KNOWN
        for kind in reversed(deck):  # listed top first
            self.put(DECK, free[KINDS[kind]].pop(0))
        for k in range(3):
            for c in free[k]:
                self.put(DISCARD, c)
                rec["known"][:n, c] = KNOWN
        rec["turn_player"] = rec["current_player"] = turn
        check_record(rec)

    @property
    def rec(self):
        return self.states[0]

    def put(self, z, c):
        self.rec["zone"][z, self.rec["zone_n"][z]] = c
        self.rec["zone_n"][z] += 1

    def act(self, a):
        self.apply(a)
        check_record(self.rec)
        return int(self.rec["current_player"])

    def hand(self, p):
        return [int(CARD_KIND[c]) for c in zone_contents(self.rec["zone"], self.rec["zone_n"],
                                                         HAND0 + p)]


def attack(table, rel_target, option=0):
    """The turn player plays an Attack on seat +rel_target; return who decides next."""
    table.act(PLAY + ATTACK)
    table.act(TARGET + rel_target - 1)
    return table.act(OPTION + option)


# ---------------------------------------------------------------- registration


def test_registered_for_the_tests_but_not_a_shipped_game():
    assert "kitgame" not in fatezoo.GAMES
    assert fatezoo.make("kitgame", num_players=3).SPEC is SPEC
    env = dict(os.environ)
    env.pop("FATEZOO_GAME_PACKAGES", None)
    code = ("import fatezoo\nassert 'kitgame' not in fatezoo.GAMES\ntry:\n"
            "    fatezoo.make('kitgame')\nexcept ValueError as e:\n    print(e)\n")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         timeout=600)
    assert out.returncode == 0, out.stderr
    assert "unknown game 'kitgame'" in out.stdout


def test_search_without_a_policy_kernel_refuses_the_prior_and_heuristic_rollouts():
    """kitgame registers no rollout ``policy``: ISMCTS says so instead of guessing."""
    from fatezoo.agents.ismcts import ISMCTSAgent
    assert ISMCTSAgent("kitgame").rollout == "random"
    with pytest.raises(ValueError, match="prior needs a rollout policy; kitgame registers"):
        ISMCTSAgent("kitgame", prior=1.0)
    with pytest.raises(ValueError, match="kitgame registers no rollout policy"):
        ISMCTSAgent("kitgame", rollout="heuristic")


# ---------------------------------------------------------------- response windows


def test_only_players_with_a_legal_response_are_asked():
    t = Table([["attack"], ["attack"], ["block"]], deck=["attack"] * 3)
    assert attack(t, 1) == 2  # seat 1 holds no Block: skipped, seat 2 decides
    assert t.rec["stack_n"][0] == 1 and t.legal() == [RESPOND, PASS]
    assert t.act(PASS) == 1  # nobody else to ask: the Attack resolved; seat 1's turn
    assert t.rec["life"][1] == START_LIFE - STRIKE and t.rec["stack_n"][0] == 0


def test_nobody_holding_a_response_means_no_window_at_all():
    t = Table([["attack"], ["attack"], ["search"]], deck=["attack"] * 3)
    assert attack(t, 2) == 1  # resolved at once; the next turn begins
    assert t.rec["life"][2] == START_LIFE - STRIKE and t.rec["turn"] == 1


def test_asked_players_can_only_respond_with_what_they_hold():
    t = Table([["attack"], ["block"], ["block"]], deck=["attack"] * 3)
    assert attack(t, 2) == 1  # turn order from the attacker: seat 1 first
    assert t.act(PASS) == 2
    assert t.act(PASS) == 1  # resolved: seat 1's turn
    assert t.rec["life"][2] == START_LIFE - STRIKE


def test_ask_all_asks_every_seat_even_with_only_pass():
    t = Table([["attack"], ["attack"], ["block"]], deck=["attack"] * 3, ask_all=True)
    assert attack(t, 1) == 1  # seat 1 holds no Block but is asked: it may only pass
    assert t.legal() == [PASS]
    assert t.act(PASS) == 2 and t.legal() == [RESPOND, PASS]
    assert t.act(PASS) == 1  # resolved: seat 1's turn
    assert t.rec["life"][1] == START_LIFE - STRIKE and t.rec["stack_n"][0] == 0


def test_settle_applies_a_lone_action_unless_the_game_asks_it():
    """The core's ``settle`` (via ``step_one``) passes for a seat whose only legal action is
    ``pass``, except where the game's ``asks`` kernel says the seat is asked (ask_all's
    response windows)."""
    for ask_all in (False, True):
        # seat 1 holds nothing and draws a Block: its own turn has only `pass`
        t = Table([["attack"], [], ["block"]], deck=["block", "attack"], ask_all=ask_all)
        t.act(PLAY + ATTACK)
        t.act(TARGET + 1)  # seat 2
        K.step_one(t.states, 0, OPTION + 0, t.mask)
        if ask_all:  # seat 1 (no Block) is asked with only `pass`: settle leaves it
            assert t.rec["current_player"] == 1 and np.flatnonzero(t.mask).tolist() == [PASS]
            K.step_one(t.states, 0, PASS, t.mask)
        # seat 2 holds a Block: a real choice
        assert t.rec["current_player"] == 2
        assert np.flatnonzero(t.mask).tolist() == [RESPOND, PASS]
        K.step_one(t.states, 0, PASS, t.mask)
        # the Attack resolved; seat 1's turn has only `pass` outside a window: settle passed
        # for it, so seat 2 (drawing an Attack) decides
        assert t.rec["life"][2] == START_LIFE - STRIKE
        assert t.rec["turn"] == 2 and t.rec["current_player"] == 2
        assert np.flatnonzero(t.mask).tolist() == [PLAY + ATTACK, PASS]


def test_ask_all_games_run_to_the_end_with_every_invariant():
    report = T.fuzz("kitgame", 3, games=300, seed=7, ask_all=True)
    assert report["terminated"] == 300


def test_responses_resolve_last_in_first_out():
    t = Table([["attack", "block"], ["block"], ["block"]], deck=["attack"] * 3)
    cards = [int(c) for c in zone_contents(t.rec["zone"], t.rec["zone_n"], HAND0 + 0)]
    attack_card = cards[0]
    assert attack(t, 1) == 1
    assert t.act(RESPOND) == 2  # seat 1 blocks the Attack; the Block's window: seat 2
    block1 = int(t.rec["stack"][1, 3])
    assert t.act(PASS) == 0
    assert t.act(RESPOND) == 2  # seat 0 blocks the Block; seat 1 has no Block left
    block0 = int(t.rec["stack"][2, 3])
    obs = np.zeros(OBS_SIZE, np.float32)
    K.encode_one(t.states, 0, 1, obs)
    stack_obs = OBS.view(obs, "stack")
    assert stack_obs[0] == 3 / 8  # the stack is in every observation
    assert t.act(PASS) == 2  # seat 0's Block resolves (counters seat 1's Block), which
    # then resolves countered, and the Attack's window resumes after seat 1: seat 2
    assert t.rec["resolved"][:2].tolist() == [block0, block1]
    assert t.rec["stack_n"][0] == 1
    assert t.act(PASS) == 1  # the Attack resolves: seat 1's Block was countered
    assert t.rec["resolved"][:3].tolist() == [block0, block1, attack_card]
    assert t.rec["life"][1] == START_LIFE - STRIKE
    assert zone_contents(t.rec["zone"], t.rec["zone_n"], STACK_Z).tolist() == []


def test_a_block_counters_the_attack():
    t = Table([["attack"], ["block"]], deck=["attack"] * 3)
    assert attack(t, 1) == 1
    assert t.act(RESPOND) == 1  # window of the Block: seat 0 holds none; it resolves,
    # the Attack's window is done too; seat 1's turn
    assert t.rec["life"][1] == START_LIFE and t.rec["turn"] == 1


# ---------------------------------------------------------------- multi-step decision


def test_card_target_option_with_cancel_and_pass():
    t = Table([["attack", "search"], ["attack"], ["attack"]], deck=["block"] * 3)
    assert t.legal() == [PLAY + ATTACK, PLAY + SEARCH, PASS]
    t.act(PLAY + ATTACK)
    assert t.legal() == [TARGET, TARGET + 1, CANCEL]  # no pass mid-decision
    t.act(TARGET + 1)
    assert t.legal() == [OPTION, OPTION + 1, CANCEL]
    t.act(CANCEL)
    assert t.legal() == [TARGET, TARGET + 1, CANCEL]  # back to the target
    t.act(CANCEL)
    assert t.legal() == [PLAY + ATTACK, PLAY + SEARCH, PASS]  # back to the card
    assert (t.rec["phase"], t.rec["chosen_kind"], t.rec["chosen_target"]) == (Phase.CARD, -1, -1)
    t.act(PLAY + SEARCH)
    assert t.legal() == [OPTION, OPTION + 1, OPTION + 2, CANCEL]  # a Search has no target
    t.act(CANCEL)
    assert t.legal() == [PLAY + ATTACK, PLAY + SEARCH, PASS]
    assert t.hand(0) == [ATTACK, SEARCH]  # nothing was played
    assert t.act(PASS) == 1 and t.rec["turn"] == 1


def test_a_choice_the_rules_cannot_reach_is_refused():
    t = Table([["attack"], ["attack"]], deck=["block"] * 3)
    t.act(PLAY + ATTACK)  # phase TARGET, chosen_kind ATTACK, no target yet
    for field, value, message in (
            ("chosen_target", 0, "the turn's choice must be a reachable card -> target"),
            ("chosen_kind", -1, "chosen_kind must be a card kind in phase TARGET"),
            ("phase", Phase.CARD, r"the turn's choice must be cleared \(phase CARD")):
        states = t.states.copy()
        states[0][field] = value
        with pytest.raises(ValueError, match=message):
            check_record(states[0])


def test_target_seats_are_counted_from_the_player():
    t = Table([["attack"], ["attack"], ["attack"], ["attack"]], deck=["attack"] * 4, turn=2)
    attack(t, 3)  # seat 2 + 3 = seat 1
    assert t.rec["life"].tolist() == [START_LIFE, START_LIFE - STRIKE, START_LIFE, START_LIFE]


# ---------------------------------------------------------------- dice


def test_the_die_decides_the_damage_with_its_listed_faces():
    rolls = []
    for seed in range(240):
        t = Table([["attack"], ["attack"]], deck=["attack"] * 3, seed=seed)
        attack(t, 1, option=1)
        r = int(t.rec["last_roll"])
        assert t.rec["life"][1] == max(0, START_LIFE - r)
        rolls.append(r)
    assert set(rolls) == set(RISK_DIE.tolist())
    counts = {f: rolls.count(f) for f in set(rolls)}
    assert 55 < counts[3] < 105  # 3 is on two faces of six: 80 expected of 240


# ---------------------------------------------------------------- search and knowledge


def test_search_shows_the_found_card_to_all_and_shuffles_the_deck():
    t = Table([["search"], ["attack"], ["attack"]],
              deck=["attack", "attack", "block", "attack", "search", "attack"])
    t.act(PLAY + SEARCH)
    assert t.act(OPTION + BLOCK) == 1  # nobody holds a Block: resolved; seat 1's turn
    hand0 = zone_contents(t.rec["zone"], t.rec["zone_n"], HAND0 + 0)
    assert [int(CARD_KIND[c]) for c in hand0] == [BLOCK]
    found = int(hand0[0])
    assert t.rec["known"][:3, found].tolist() == [KNOWN] * 3
    deck = zone_contents(t.rec["zone"], t.rec["zone_n"], DECK)
    assert len(deck) == 4  # 6 - the Block - seat 1's draw
    drawn = zone_contents(t.rec["zone"], t.rec["zone_n"], HAND0 + 1)[-1]
    # seat 0 looked through the deck: after the shuffle it knows those cards are there,
    # but seat 1's unseen draw from it then took that knowledge away
    assert (t.rec["known"][0, deck] == UNKNOWN).all() and t.rec["known"][1, drawn] == KNOWN
    obs = np.zeros(OBS_SIZE, np.float32)
    K.encode_one(t.states, 0, 2, obs)  # seat 2 sees seat 0's (seat +1) Block
    seats = OBS.view(obs, "seats")
    assert seats[1, 2 + BLOCK] == 1 / 20 and seats[1, 1] == 1 / 20


def test_search_knowledge_of_the_deck_lasts_until_an_unseen_draw():
    t = Table([["search"], ["attack"]], deck=["attack", "block", "attack", "attack"])
    t.act(PLAY + SEARCH)
    t.act(OPTION + SEARCH)  # no Search in the deck: nothing found, still shuffled
    # seat 1 drew at the start of its turn: seat 0 lost track of the deck
    deck = zone_contents(t.rec["zone"], t.rec["zone_n"], DECK)
    assert (t.rec["known"][0, deck] == UNKNOWN).all()
    t2 = Table([["search"], ["attack"]], deck=["attack", "block", "attack", "attack"])
    t2.rec["rounds"] = 1  # the game ends at the end of this turn: nobody draws
    t2.rec["turn"] = 1
    t2.act(PLAY + SEARCH)
    t2.act(OPTION + SEARCH)
    assert t2.rec["terminated"]
    deck = zone_contents(t2.rec["zone"], t2.rec["zone_n"], DECK)
    assert (t2.rec["known"][0, deck] == IN_ZONE).all()
    assert (t2.rec["known"][1, deck] == UNKNOWN).all()
    obs = np.zeros(OBS_SIZE, np.float32)
    K.encode_one(t2.states, 0, 0, obs)
    assert OBS.view(obs, "deck").tolist() == pytest.approx([4 / 20, 3 / 20, 0, 1 / 20])


def test_conservation_check_names_the_duplicated_card():
    t = Table([["attack"], ["block"]], deck=["search"])
    rec = t.rec
    deck_card = int(rec["zone"][DECK, 0])
    rec["zone"][HAND0 + 1, 0] = deck_card
    with pytest.raises(ValueError, match=rf"card {deck_card} appears 2 times \(in deck, hand1\)"):
        check_record(rec)
    env = fatezoo.make("kitgame", num_players=2)
    with pytest.raises(ValueError, match=f"card {deck_card} appears 2 times"):
        env.load_state(t.states.tobytes())


def test_hidden_information_invariance():
    for n in (2, 3, 4):
        T.check_hidden_info("kitgame", n, positions=8, resamples=6)


# ---------------------------------------------------------------- the whole contract


def test_contract_battery():
    T.check_game("kitgame", num_players=3, fuzz_games=300)


@pytest.mark.parametrize("n", [2, 4])
def test_fuzz(n):
    report = T.fuzz("kitgame", n, games=500, seed=n)
    assert report["terminated"] == 500


def test_nojit_matches_jit():
    T.check_nojit("kitgame", 3, steps=200)


def test_configure_may_read_the_player_count_for_per_seat_options():
    """A ``num_players`` parameter of configure is not an option: the core passes it the
    validated player count, so a per-seat option is checked against it."""
    seen = []

    def per_seat(rounds=5, starts=None, num_players=None):
        seen.append(num_players)
        if starts is not None and len(starts) != num_players:
            raise ValueError(f"kitgame: starts must have one entry per seat ({num_players}), "
                             f"got {starts!r}")
        return configure(rounds=rounds)

    spec = dataclasses.replace(SPEC, configure=per_seat)
    assert spec.option_defaults == {"rounds": 5, "starts": None}
    assert spec.options(num_players=3, rounds=4, starts=[1, 2, 3])["rounds"] == 4
    assert seen[-1] == 3
    with pytest.raises(ValueError, match=r"one entry per seat \(2\), got \[1, 2, 3\]"):
        spec.options(num_players=2, starts=[1, 2, 3])
    with pytest.raises(ValueError, match="num_players must be in"):
        spec.options(num_players=9, starts=[1])
    assert seen[-1] == 2  # an invalid player count never reaches configure
