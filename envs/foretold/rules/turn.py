"""The turn: Reveal and covering (R11-R14), the Marketplace Step's start, its end."""

# ruff: noqa: D103  (as for envs/*/rules.py: kernels named after the rule they apply)
from __future__ import annotations

from fatezoo.envs.core.jit import njit
from fatezoo.envs.core.zones import zone_insert, zone_pop, zone_push

from .. import cards as C
from ..state import DECK, FATE_PRICE, SPOTS, TILE_PRICE, Phase
from .helpers import add_gold, b_side_sum, heal, lowest_empty, relic_sum
from .tables import (
    E_DECREE_FATE,
    E_DECREE_GOLD,
    E_DECREE_HEAL,
    E_DECREE_TILE,
    R_TURN_GOLD,
    T_TURN_GOLD,
    T_TURN_HEAL,
    W_DECREE,
)


@njit(cache=True)
def fate_relics_complete(rec, p):
    """R85: ``p`` holds all four Fate Relics of one Fate."""
    for f in range(4):
        k = 0
        for r in range(C.NR):
            if C.R_IS_FATE[r] and C.R_FATE[r] == f and rec["r_owned"][p, r] > 0:
                k += 1
        if k == 4:
            return True
    for r in range(C.NR):  # R86 (Fatesworn): the four Relics of the Fates
        if C.R_OF_FATES[r] and rec["r_owned"][p, r] == 0:
            return False
    return rec["fatesworn"] == 1


@njit(cache=True)
def start_turn(rec):
    """R10: the start-of-turn check and effects, then Reveal (R11)."""
    t = int(rec["turn_player"])
    if fate_relics_complete(rec, t):
        win(rec, t)
        return
    heal(rec, t, b_side_sum(rec, t, T_TURN_HEAL) + max(0, decree_sum(rec, E_DECREE_HEAL)))
    rec["devotees"] = 0
    rec["rearranged"] = 0
    rec["shield"][t] = 0  # Prevent lasts until the holder's next turn starts (R80)
    rec["waive"] = 0
    rec["discount"] = 0
    reveal_relic(rec)


@njit(cache=True)
def place_relic(rec, x) -> bool:
    """Relic ``x`` onto the lowest empty Relic Row spot; with none, held for a cover.

    Returns False when the row is full: ``x`` is then ``r_held`` and the phase is
    COVER_RELIC, the owner's choice of the pile it covers (R12, R20).
    """
    k = lowest_empty(rec["r_row_n"])
    if k < 0:
        rec["r_held"] = x
        rec["phase"] = Phase.COVER_RELIC
        return False
    zone_push(rec["r_row"], rec["r_row_n"], k, x)
    return True


@njit(cache=True)
def reveal_relic(rec):
    if rec["r_deck_n"][DECK] > 0:
        x = zone_pop(rec["r_deck"], rec["r_deck_n"], DECK)
        if not place_relic(rec, x):
            return
    reveal_faithful(rec)


@njit(cache=True)
def reveal_faithful(rec):
    if rec["f_deck_n"][DECK] > 0:
        x = zone_pop(rec["f_deck"], rec["f_deck_n"], DECK)
        k = lowest_empty(rec["f_row_n"])
        if k < 0:
            if any_coverable(rec):
                rec["f_held"] = x
                rec["phase"] = Phase.COVER_FAITHFUL
                return
            # R13: every pile is topped by a Decree: the Faithful goes under the deck
            zone_insert(rec["f_deck"], rec["f_deck_n"], DECK, 0, x)
        else:
            zone_push(rec["f_row"], rec["f_row_n"], k, x)
    begin_market(rec)


@njit(cache=True)
def coverable(rec, k):
    """R12-R13: Faithful pile ``k`` may be covered (its top bears no Decree)."""
    m = rec["f_row_n"][k]
    return m == 0 or C.F_WHEN[rec["f_row"][k, m - 1]] != W_DECREE


@njit(cache=True)
def any_coverable(rec):
    for k in range(SPOTS):
        if coverable(rec, k):
            return True
    return False


@njit(cache=True)
def decree_sum(rec, e):
    """R88: the sum of ``a`` of the Decrees of instruction ``e`` on top of Faithful piles."""
    s = 0
    for k in range(SPOTS):
        m = rec["f_row_n"][k]
        if m > 0:
            t = rec["f_row"][k, m - 1]
            if C.F_WHEN[t] == W_DECREE and C.F_EFFECT[t] == e:
                s += C.F_A[t]
    return s


@njit(cache=True)
def tile_price(rec):
    """R21 + DECREE_TILE_COST (R88), never below 0."""
    return max(0, TILE_PRICE + decree_sum(rec, E_DECREE_TILE))


@njit(cache=True)
def fate_price(rec):
    """R22 + DECREE_FATE_PRICE (R88), never below 0."""
    return max(0, FATE_PRICE + decree_sum(rec, E_DECREE_FATE))


@njit(cache=True)
def begin_market(rec):
    """R26: passive gold when the Marketplace Step begins."""
    t = int(rec["turn_player"])
    add_gold(rec, t, b_side_sum(rec, t, T_TURN_GOLD) + relic_sum(rec, t, R_TURN_GOLD)
             + max(0, decree_sum(rec, E_DECREE_GOLD)))
    rec["phase"] = Phase.MARKET


@njit(cache=True)
def end_turn(rec):
    """The turn is over: the next living player clockwise starts theirs (R7, R82)."""
    rec["turn"] += 1
    n = int(rec["num_players"])
    t = int(rec["turn_player"])
    for k in range(1, n + 1):
        q = (t + k) % n
        if rec["alive"][q]:
            rec["turn_player"] = q
            break
    start_turn(rec)


# the modules of the same import cycle, imported once this one's kernels are defined
from .end import win  # noqa: E402
