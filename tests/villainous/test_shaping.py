"""``reward="score"``: the objective-progress shaping of R69 on hand-built positions.

Each test takes one step toward an objective and checks the exact reward, worked out by
hand from RULES.md R69's table: ``0.5 * (d_me - mean d of the others)``, where ``d`` is the
change of a seat's potential. Positions are built as in ``test_rules.py`` (``helpers.Game``).
"""

from __future__ import annotations

import numpy as np
import pytest

from fatezoo.envs import villainous
from fatezoo.envs.core import kernels as K
from fatezoo.envs.core.rng import rng_rows
from fatezoo.envs.villainous.shaping import SHAPING_SCALE, evaluate, potential
from fatezoo.envs.villainous.state import HAND, LOC0, LOCATION, PASS, SLOT, SUCC

from .helpers import Game, vc


def hand(g, s, *names):
    """Seat ``s`` holds exactly ``names``."""
    g.empty_v(s, HAND)
    return [g.put_v(s, x, HAND) for x in names]


def returns(g):
    return g.r["returns"][: g.n].tolist()


def close(got, want):
    assert np.allclose(got, want, atol=1e-6), f"{got} != {want}"


def _scar_mufasa_position(reward):
    """Scar (seat 0) can vanquish Mufasa at the Elephant Graveyard with two Stampedes."""
    g = Game(villains="scar", reward=reward)
    hand(g, 1, "Whisper", "Whisper", "Whisper", "Ed")  # no Condition to answer the Vanquish
    g.hero(0, "Mufasa", 2)
    for x in ("Stampede", "Stampede", "Banzai"):
        g.put_v(0, x, LOC0 + 2)
    g.at(0, 1)  # The Savanna: VANQUISH in slot 3
    return g


def test_score_scar_mufasa_into_succession_pile():
    g = _scar_mufasa_position("score")
    g.act(SLOT + 3)  # the Graveyard and Mufasa forced
    g.act(vc("scar", "Stampede"), vc("scar", "Stampede"))  # 3 + 3 (Banzai +1, Mufasa -1)
    close(returns(g), [0.0, 0.0])  # choosing Allies changes nothing yet
    g.act(PASS)
    assert g.fnames(0, SUCC) == ["Mufasa"] and g.vnames(0, LOC0 + 2) == ["Banzai"]
    # before: Mufasa ready (reach 7 >= 6) 0.1 + Mufasa here 0.05 + Allies 8 -> 0.05
    #         - 1 blocked location 0.025
    # after:  Succession 6/15 * 0.6 + Mufasa done 0.15 + Allies 2 -> 0.05 * 2/6
    d = (0.6 * 6 / 15 + 0.15 + 0.05 * 2 / 6) - (0.1 + 0.05 + 0.05 - 0.025)
    close(returns(g), [0.5 * d, -0.5 * d])


def test_win_reward_has_no_shaping():
    g = _scar_mufasa_position("win")
    g.act(SLOT + 3, vc("scar", "Stampede"), vc("scar", "Stampede"), PASS)
    assert g.fnames(0, SUCC) == ["Mufasa"]
    assert returns(g) == [0.0, 0.0]


def test_score_scar_succession_to_fifteen_is_one():
    g = Game(villains="scar", reward="score")
    for x in ("Mufasa", "Simba"):
        g.put_f(0, x, SUCC)
    g.hero(0, "Nala", 2)
    for x in ("Stampede", "Stampede"):
        g.put_v(0, x, LOC0 + 2)
    hand(g, 1, "Whisper", "Whisper", "Whisper", "Ed")
    g.r["power"][0] = 5
    g.at(0, 1)
    g.act(SLOT + 3, PASS)  # the Graveyard, Nala and a Stampede forced (3 >= 3); enough
    assert g.vnames(0, LOC0 + 2) == ["Stampede"]
    assert g.fnames(0, SUCC) == ["Mufasa", "Nala", "Simba"]  # 6 + 5 + 3 = 14
    # before: Succession 11 -> 0.6 * 11/15, Mufasa done 0.15, Nala ready (6 >= 3) 0.1,
    #         Allies 6 -> 0.05, Power 5 -> 0.05, 1 blocked -0.025
    # after:  Succession 14 -> 0.6 * 14/15, 0.15, no Hero 0, Allies 3 -> 0.025, 0.05
    d = (0.6 * 14 / 15 + 0.15 + 0.025 + 0.05) - (0.6 * 11 / 15 + 0.15 + 0.1 + 0.05 + 0.05
                                                  - 0.025)
    close(returns(g), [0.5 * d, -0.5 * d])
    g.put_f(0, "Timon", SUCC)  # 16: the objective holds -> potential 1
    assert potential(g.r, 0) == 1.0


def test_score_yzma_kronk_played_with_the_dagger():
    g = Game(villains=["yzma", "scar"], reward="score")
    hand(g, 0, "Kronk", "Ferocity", "Ferocity", "Superiority")  # Conditions: Kronk forced
    hand(g, 1, "Whisper", "Whisper", "Whisper", "Ed")
    g.put_v(0, "Dagger", LOC0 + 2)
    g.r["power"][0] = 3
    g.at(0, 1)  # Pacha's Village: PLAY in slot 0
    g.act(SLOT + 0, LOCATION + 2)
    assert g.vnames(0, LOC0 + 2) == ["Dagger", "Kronk"] and g.r["power"][0] == 0
    # before: a helper on the board 0.05 + Power 3 -> 0.05 * 3/5
    # after:  Kronk 0.25 + helper 0.05 + helper at Kronk's location 0.1 + Power 0
    d = (0.25 + 0.05 + 0.1) - (0.05 + 0.05 * 3 / 5)
    close(returns(g), [0.5 * d, -0.5 * d])


def test_score_yzma_kuzco_by_kronk_then_the_win():
    g = Game(villains=["yzma", "ratigan"], reward="score")
    g.hero(0, "Kuzco", 1)
    g.put_v(0, "Kronk", LOC0 + 1)
    g.put_v(0, "Dagger", LOC0 + 1)
    g.at(0, 3)  # Secret Lab: VANQUISH bottom left
    g.act(SLOT + 2)  # Kuzco, Kronk and pass forced (6 + Dagger 1 = 7)
    assert g.r["goal"][0] == 1
    # before: Kronk 0.25 + helper 0.05 + with Kronk 0.1 + Kuzco 0.15 + together 0.15
    #         + ready 0.1 (7 >= 7) - 1 blocked 0.025; after: the objective holds, 1
    d = 1.0 - (0.25 + 0.05 + 0.1 + 0.15 + 0.15 + 0.1 - 0.025)
    close(returns(g), [0.5 * d, -0.5 * d])
    g.act(PASS)
    g.at(1, 1)
    g.act(PASS)  # seat 0 starts its turn with the objective met: the win reward, unchanged
    assert g.r["terminated"] and g.r["winner"] == 0
    close(returns(g), [0.5 * d + 1.0, -0.5 * d - 1.0])


def test_score_ratigan_robot_queen_at_the_palace():
    g = Game(villains=["ratigan", "scar"], reward="score")
    g.r["locked"][0, 3] = 0
    g.put_v(0, "Gears", LOC0)
    g.put_v(0, "Gears", LOC0 + 1)
    hand(g, 0, "The Robot Queen", "Devious", "Devious", "Extravagant")
    hand(g, 1, "Whisper", "Whisper", "Whisper", "Ed")
    g.r["power"][0] = 11  # 15 - 2 Gears x 2
    g.at(0, 3)  # Buckingham Palace: PLAY bottom left
    g.act(SLOT + 2, LOCATION + 3)
    assert g.vnames(0, LOC0 + 3) == ["The Robot Queen"] and g.r["power"][0] == 0
    # before: unlocked 0.2 + Gears 4/10 * 0.2 + Power 11/11 * 0.3; after: objective, 1
    d = 1.0 - (0.2 + 0.2 * 4 / 10 + 0.3)
    close(returns(g), [0.5 * d, -0.5 * d])


def test_score_ratigan_gears_and_queen_away_from_the_palace():
    g = Game(villains=["ratigan", "scar"], reward="score")
    hand(g, 0, "Gears", "The Robot Queen", "Devious", "Extravagant")
    hand(g, 1, "Whisper", "Whisper", "Whisper", "Ed")
    g.r["power"][0] = 6
    g.at(0, 0)  # Ratigan's Lair: PLAY top right
    g.act(SLOT + 1, LOCATION + 1)  # Gears forced (The Robot Queen costs 15)
    # Palace locked; before: Power 6/15 * 0.3; after: Gears 2/10 * 0.2 + Power 5/13 * 0.3
    d1 = (0.2 * 2 / 10 + 0.3 * 5 / 13) - 0.3 * 6 / 15
    close(returns(g), [0.5 * d1, -0.5 * d1])
    g.r["power"][0] = 13
    g.at(0, 0)
    g.act(SLOT + 1, LOCATION + 0)  # the Queen (only playable card) below the Lair
    # before: Gears 0.04 + Power 13/13 * 0.3; after: Gears 0.04 + Queen in the Realm 0.15
    #         + Power counted full 0.3 (Power 0)
    d2 = (0.04 + 0.15 + 0.3) - (0.04 + 0.3)
    close(returns(g), [0.5 * (d1 + d2), -0.5 * (d1 + d2)])


def test_score_ratigan_flip_loses_the_progress():
    g = Game(villains=["ratigan", "scar"], reward="score")
    g.r["locked"][0, 3] = 0
    g.r["power"][0] = 5
    hand(g, 0, "The Robot Queen", "Devious", "Devious", "Extravagant")
    g.at(0, 0)  # Ratigan's Lair: DISCARD bottom right
    g.act(SLOT + 3, vc("ratigan", "The Robot Queen"), PASS)
    assert g.r["flip"][0] == 1
    # before: unlocked 0.2 + Power 5/15 * 0.3; after (flipped, no Basil): 0
    d = 0.0 - (0.2 + 0.3 * 5 / 15)
    close(returns(g), [0.5 * d, -0.5 * d])


def test_score_three_players_zero_sum_mean_of_the_others():
    g = Game(n=3, villains="scar", reward="score")
    g.at(0, 0)  # Pride Rock: POWER2 top left
    g.act(SLOT + 0)
    assert g.r["power"][0] == 2
    d = 0.05 * 2 / 5
    close(returns(g), [0.5 * d, -0.25 * d, -0.25 * d])


def test_score_truncation_adds_nothing():
    g = Game(villains="scar", reward="score", max_turns=1)
    g.at(0, 0)
    g.act(SLOT + 0, PASS)  # Power 0 -> 2, then the turn ends: truncated
    assert g.r["truncated"] and not g.r["terminated"]
    close(returns(g), [0.01, -0.01])


def test_evaluate_is_the_potential_minus_the_mean_of_the_others():
    """ISMCTS's cut-off values: the shaping's potential, relative; a finished game its returns."""
    g = Game(n=3, villains=["ratigan", "scar", "scar"])
    g.r["locked"][0, 3] = 0
    g.put_v(0, "Gears", LOC0)
    g.put_v(0, "Gears", LOC0 + 1)
    hand(g, 0, "The Robot Queen", "Devious", "Devious", "Extravagant")
    hand(g, 1, "Whisper", "Whisper", "Whisper", "Ed")
    hand(g, 2, "Whisper", "Whisper", "Whisper", "Ed")
    g.r["power"][:3] = [11, 0, 5]
    values = np.zeros(6)
    evaluate(g.r, values)
    # Ratigan: unlocked 0.2 + Gears 4/10 * 0.2 + Power 11/11 * 0.3 = 0.58; Scars: Power
    # 0 and 5/5 * 0.05
    p = [0.58, 0.0, 0.05]
    close(values[:3], [p[0] - (p[1] + p[2]) / 2, p[1] - (p[0] + p[2]) / 2,
                       p[2] - (p[0] + p[1]) / 2])
    g.r["terminated"] = 1  # an ended game scores its returns, whatever the potentials
    g.r["returns"][:3] = [-0.5, 1.0, -0.5]
    evaluate(g.r, values)
    close(values[:3], [-0.5, 1.0, -0.5])


def test_score_potential_reads_only_public_state():
    g = Game(villains=["ratigan", "yzma"], reward="score")
    before = [potential(g.r, 0), potential(g.r, 1)]
    hand(g, 0, "The Robot Queen", "Gears", "Gears", "Fidget's List")
    hand(g, 1, "Kronk", "Dagger", "Imperial Guards", "Right-Hand Man")
    assert [potential(g.r, 0), potential(g.r, 1)] == before
    g.put_v(1, "Kronk", LOC0)  # on the board: public, counted
    assert potential(g.r, 1) > before[1]


@pytest.mark.parametrize("n", [2, 4])
def test_score_random_play_zero_sum_and_bounded(n):
    """Random play under reward="score": every step zero-sum, the shaping active, and each
    game's return within the win's 1 plus the shaping's telescoped 2 * 0.5."""
    games = 8
    vec = villainous.vec(games, num_players=n, seed=3, auto_reset=False, reward="score")
    _, mask, _ = vec.reset()
    rng = rng_rows(4, games)
    actions = np.empty(games, np.int64)
    done = np.zeros(games, bool)
    shaped = 0
    while not done.all():
        K.batch_random_actions(mask, rng, actions)
        actions[done] = -1
        _, mask, _, rew, term, trunc = vec.step(actions, copy=False)
        assert np.allclose(rew.sum(1), 0.0, atol=1e-6)
        shaped += int((np.abs(rew[~done]) > 1e-9).any(1).sum())
        done |= term | trunc
    ret = vec.states["returns"][:, :n]
    assert np.allclose(ret.sum(1), 0.0, atol=1e-5)
    assert (np.abs(ret) <= 1.0 + 2 * SHAPING_SCALE + 1e-6).all()
    assert shaped > 0
