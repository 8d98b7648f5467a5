"""Life, elimination and victory (R80-R85)."""

# ruff: noqa: D103  (as for envs/*/rules.py: kernels named after the rule they apply)
from __future__ import annotations

import numpy as np

from fatezoo.envs.core.jit import njit
from fatezoo.envs.core.kernels import split_rewards
from fatezoo.envs.core.state import REWARD_SCORE
from fatezoo.envs.core.zones import zone_push, zone_shuffle

from ..cards import F_STARTING, NC, NF, NR
from ..state import DECK, MAX_LIFE, Phase


@njit(cache=True)
def win(rec, w):
    """R84-R85: ``w`` wins; zero-sum win rewards (R92)."""
    n = int(rec["num_players"])
    scores = np.zeros(n)
    scores[w] = 1.0
    split_rewards(rec, scores, False)
    rec["winner"] = w
    rec["phase"] = Phase.OVER
    rec["actor"] = -1
    rec["sel_play"] = -1
    rec["draws"] = 0
    rec["draw_in_raid"] = 0
    rec["die_left"] = 0
    clear_choice(rec)
    flush_stack(rec)
    if rec["defender"] >= 0:
        release_fight(rec)  # the game ended mid-fight (a Fate card's damage)
    clear_raid(rec)


@njit(cache=True)
def living(rec):
    k = 0
    for p in range(rec["num_players"]):
        k += rec["alive"][p]
    return k


@njit(cache=True)
def eliminate(rec, q):
    """R81: ``q`` is out; Relics and non-starting Faithful shuffle into their decks."""
    rec["alive"][q] = 0
    rec["life"][q] = 0
    rec["gold"][q] = 0
    rng = rec["rng"]
    for r in range(NR):
        while rec["r_owned"][q, r] > 0:
            rec["r_owned"][q, r] -= 1
            zone_push(rec["r_deck"], rec["r_deck_n"], DECK, r)
    zone_shuffle(rec["r_deck"], rec["r_deck_n"], DECK, rng)
    for t in range(NF):
        k = rec["f_temple"][q, t] + rec["f_party"][q, t] + rec["f_discard"][q, t] \
            + rec["f_pool"][q, t]
        rec["f_temple"][q, t] = 0
        rec["f_party"][q, t] = 0
        rec["f_discard"][q, t] = 0
        rec["f_pool"][q, t] = 0
        if rec["defender"] == q:
            k += rec["f_fight"][1, t] + rec["f_defeated"][t]
            rec["f_fight"][1, t] = 0
            rec["f_defeated"][t] = 0
        if rec["defender"] >= 0 and rec["turn_player"] == q:
            # the Raider is out: the Raid ends, the Defenders go home (R60, R83)
            k += rec["f_fight"][0, t]
            rec["f_fight"][0, t] = 0
            d = rec["defender"]
            rec["f_temple"][d, t] += rec["f_fight"][1, t] + rec["f_defeated"][t]
            rec["f_fight"][1, t] = 0
            rec["f_defeated"][t] = 0
        if F_STARTING[t]:
            rec["f_out"][t] += k
        else:
            for _ in range(k):
                zone_push(rec["f_deck"], rec["f_deck_n"], DECK, t)
    zone_shuffle(rec["f_deck"], rec["f_deck_n"], DECK, rng)
    for k in range(NC):
        rec["c_discard"][k] += rec["c_hand"][q, k]
        rec["c_hand"][q, k] = 0
    for f in range(4):
        rec["c_sym"][q, f] = 0
    if living(rec) == 1:
        for p in range(rec["num_players"]):
            if rec["alive"][p]:
                win(rec, p)


@njit(cache=True)
def damage(rec, p, x):
    """``p`` loses ``x`` Life (R80); at 0 they are eliminated (R81). Score shaping (R93)."""
    if x <= 0 or not rec["alive"][p]:
        return
    absorbed = min(x, int(rec["shield"][p]))  # Prevent absorbs first (R80)
    rec["shield"][p] -= absorbed
    x -= absorbed
    if x <= 0:
        return
    lost = min(x, rec["life"][p])
    rec["life"][p] -= lost
    if rec["reward_mode"] == REWARD_SCORE:
        others = living(rec) - 1
        if others > 0:
            rec["rewards"][p] -= lost / MAX_LIFE
            for q in range(rec["num_players"]):
                if q != p and rec["alive"][q]:
                    rec["rewards"][q] += lost / (MAX_LIFE * others)
    if rec["life"][p] == 0:
        eliminate(rec, p)


# the modules of the same import cycle, imported once this one's kernels are defined
from .raid import release_fight  # noqa: E402
from .reset import clear_choice, clear_raid  # noqa: E402
from .resolve import flush_stack  # noqa: E402
