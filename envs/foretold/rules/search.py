"""Search support: ISMCTS's value of a position and ``determinize_record``."""

# ruff: noqa: D103  (as for envs/*/rules.py: kernels named after the rule they apply)
from __future__ import annotations

import numpy as np

from fatezoo.envs.core.jit import njit
from fatezoo.envs.core.rng import next_u32, shuffle

from .. import cards as C
from ..state import CELLS, DECK, FATE_PRICE, MAX_P, TILE_PRICE
from .helpers import b_side_sum, count, heart_depth, relic_sum
from .tables import C_SYM

# ISMCTS's value of a position (``evaluate``): Life, plus what a seat owns at the prices it
# pays in the Marketplace. A rollout cut after ``rollout_depth`` decisions rarely sees Life
# change (a Smite needs a whole Raid), so Life alone scored every action alike; what was
# bought, gained and held is progress a few decisions show.
ASSET_RATE = 1.25  # a bought card is worth more than the gold paid for it (it pays again)


GOLD_PER_LIFE = 8.0  # gold worth one Life point


DEPTH_LIFE = 1.0  # Life points per Tile a Raid must cross to reach the Heart


VALUE_SCALE = 8.0  # the lead in Life points whose value is tanh(1)


@njit(cache=True)
def holdings(rec, p):
    """What seat ``p`` owns, in gold at Marketplace prices (R18-R23), its gold not included.

    Its Faithful in every zone (a fighting side's, set aside or not, included), Relics,
    bought and flipped Tiles and Fate cards in hand. Public: which Faithful, Relics and
    Tiles a seat owns is seen, and how many Fate cards it holds (only the Temple / Party
    split and the hand's cards are hidden, and this sums over both).
    """
    f = 0
    raid = rec["defender"] >= 0
    for t in range(C.NF):
        k = rec["f_temple"][p, t] + rec["f_party"][p, t] + rec["f_discard"][p, t] \
            + rec["f_pool"][p, t]
        if raid and p == rec["turn_player"]:
            k += rec["f_fight"][0, t]
        if raid and p == rec["defender"]:
            k += rec["f_fight"][1, t] + rec["f_defeated"][t]
        f += k * C.F_COST[t]
    tiles = 0
    for c in range(CELLS):
        if rec["grid"][p, c] >= 5:  # a Tile from the Tile Deck (0-4: the Starting Tiles)
            tiles += 1
    return (f + relic_sum(rec, p, C.R_COST) + tiles * TILE_PRICE + b_side_sum(rec, p, C.T_FLIP)
            + count(rec["c_hand"][p]) * FATE_PRICE)


@njit(cache=True)
def standing(rec, p):
    """Seat ``p``'s position in Life points.

    Life and Prevent, its gold and holdings, and how deep its Heart lies (a rearranged
    Temple can bring it next to the Entrance).
    """
    return (rec["life"][p] + rec["shield"][p] + DEPTH_LIFE * heart_depth(rec, p)
            + (rec["gold"][p] + ASSET_RATE * holdings(rec, p)) / GOLD_PER_LIFE)


@njit(cache=True)
def evaluate(rec, values):
    """ISMCTS's per-seat values of a rollout cut short, in (-1, 1).

    tanh of the seat's ``standing`` lead over the mean of the other living seats, over
    ``VALUE_SCALE``; an eliminated seat -1; a game that ended scores its returns.
    """
    n = int(rec["num_players"])
    if rec["terminated"]:
        for p in range(n):
            values[p] = rec["returns"][p]
        return
    total = 0.0
    alive = 0
    for p in range(n):
        values[p] = standing(rec, p) if rec["alive"][p] else 0.0
        total += values[p]
        alive += rec["alive"][p]
    for p in range(n):
        if not rec["alive"][p]:
            values[p] = -1.0
        else:
            others = (total - values[p]) / max(1, alive - 1)
            values[p] = np.tanh((values[p] - others) / VALUE_SCALE)


@njit(cache=True)
def _shuffle_counts(counts, sizes, groups, rng):
    """Deal ``counts`` (by type) at random into ``groups`` rows of ``sizes`` cards."""
    total = 0
    for t in range(counts.shape[0]):
        total += counts[t]
    cards = np.zeros(max(total, 1), np.int64)
    m = 0
    for t in range(counts.shape[0]):
        for _ in range(counts[t]):
            cards[m] = t
            m += 1
    shuffle(cards, m, rng)
    out = np.zeros((groups, counts.shape[0]), np.int64)
    i = 0
    for g in range(groups):
        for _ in range(sizes[g]):
            out[g, cards[i]] += 1
            i += 1
    return out


@njit(cache=True)
def _sorted_shuffle(arr, n, rng):
    arr[:n].sort()
    shuffle(arr, n, rng)


@njit(cache=True, inline="always")
def deal_splits(rec, viewer, n, rng):
    """Each opponent's Faithful dealt again into its Temple, Raiding Party and Reinforce pool."""
    sizes = np.zeros(3, np.int64)
    for q in range(n):
        if q == viewer:
            continue
        pool = np.zeros(C.NF, np.int64)
        sizes[0] = count(rec["f_temple"][q])
        sizes[1] = count(rec["f_party"][q])
        sizes[2] = count(rec["f_pool"][q])
        for t in range(C.NF):
            pool[t] = rec["f_temple"][q, t] + rec["f_party"][q, t] + rec["f_pool"][q, t]
        out = _shuffle_counts(pool, sizes, 3, rng)
        for t in range(C.NF):
            rec["f_temple"][q, t] = out[0, t]
            rec["f_party"][q, t] = out[1, t]
            rec["f_pool"][q, t] = out[2, t]


@njit(cache=True, inline="always")
def deal_hands(rec, viewer, n, rng):
    """Opponents' Fate hands dealt again from each Fate Deck they drew from, with the deck."""
    # Fate hands, per Fate Deck: the deck and the opponents' cards drawn from it (the
    # deck a card came from is public, R87: its Fate, or c_sym for a Fatesworn-symbol card)
    # are dealt again, each opponent keeping how many it drew from that deck
    for f in range(4):
        pool = np.zeros(C.NC, np.int64)
        hs = np.zeros(MAX_P + 1, np.int64)
        for i in range(rec["c_deck_n"][f]):
            pool[rec["c_deck"][f, i]] += 1
        for q in range(n):
            if q == viewer:
                continue
            for k in range(C.NC):
                if C.C_FATE[k] == f:
                    pool[k] += rec["c_hand"][q, k]
                    hs[q] += rec["c_hand"][q, k]
                elif C_SYM[k] >= 0 and rec["c_sym"][q, f] >> C_SYM[k] & 1:
                    pool[k] += 1
                    hs[q] += 1
        hs[MAX_P] = rec["c_deck_n"][f]
        out = _shuffle_counts(pool, hs, MAX_P + 1, rng)
        for q in range(n):
            if q == viewer:
                continue
            bits = 0
            for k in range(C.NC):
                if C.C_FATE[k] == f:
                    rec["c_hand"][q, k] = out[q, k]
                elif C_SYM[k] >= 0:
                    rec["c_hand"][q, k] += out[q, k] - (rec["c_sym"][q, f] >> C_SYM[k] & 1)
                    if out[q, k] > 0:
                        bits |= 1 << C_SYM[k]
            rec["c_sym"][q, f] = bits
        m = 0
        for k in range(C.NC):
            for _ in range(out[MAX_P, k]):
                rec["c_deck"][f, m] = k
                m += 1
        shuffle(rec["c_deck"][f], m, rng)


@njit(cache=True, inline="always")
def deal_hidden_tiles(rec, viewer, n, rng):
    """Opponents' unflipped deck Tiles (and one held) dealt again with the Tile Deck."""
    pool = np.zeros(C.NT, np.int64)
    tiles = rec["t_deck_n"][DECK]
    for i in range(tiles):
        pool[rec["t_deck"][DECK, i]] += 1
    hidden = 0
    for q in range(n):
        if q == viewer:
            continue
        for c in range(CELLS):
            t = int(rec["grid"][q, c])
            if t >= 5 and rec["side"][q, c] == 0:
                pool[t] += 1
                hidden += 1
    held = rec["t_held"] >= 0 and rec["turn_player"] != viewer
    if held:
        pool[rec["t_held"]] += 1
    cards = np.zeros(hidden + tiles + 2, np.int64)
    m = 0
    for t in range(C.NT):
        for _ in range(pool[t]):
            cards[m] = t
            m += 1
    shuffle(cards, m, rng)
    i = 0
    for q in range(n):
        if q == viewer:
            continue
        for c in range(CELLS):
            if rec["grid"][q, c] >= 5 and rec["side"][q, c] == 0:
                rec["grid"][q, c] = cards[i]
                i += 1
    if held:
        rec["t_held"] = cards[i]
        i += 1
    for j in range(tiles):
        rec["t_deck"][DECK, j] = cards[i]
        i += 1


@njit(cache=True)
def determinize_record(rec, viewer, words):
    """Resample what ``viewer`` cannot see, from what they saw only; reseed the RNG.

    Each opponent's Temple / Raiding Party / Reinforce split (sizes kept), opponents' Fate
    hands (per Fate Deck they drew from, sizes kept), every deck order, and opponents'
    unflipped deck Tiles (their B-sides, with the Tile Deck).
    """
    rng = np.zeros(4, np.int64)
    for i in range(4):
        rng[i] = words[i] & 0xFFFFFFFF
    if rng[0] == 0 and rng[1] == 0 and rng[2] == 0 and rng[3] == 0:
        rng[0] = 1
    n = int(rec["num_players"])
    deal_splits(rec, viewer, n, rng)
    deal_hands(rec, viewer, n, rng)
    _sorted_shuffle(rec["f_deck"][DECK], rec["f_deck_n"][DECK], rng)
    _sorted_shuffle(rec["r_deck"][DECK], rec["r_deck_n"][DECK], rng)
    deal_hidden_tiles(rec, viewer, n, rng)
    for i in range(4):
        rec["rng"][i] = next_u32(rng) | (1 if i == 0 else 0)
