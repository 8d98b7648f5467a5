"""``reward="score"``: potential-based, zero-sum shaping toward each villain's objective (R69).

Every seat ``s`` has a potential ``potential(rec, s)`` in [0, 1]: 1 once its objective holds
(R57-R67), below 0.95 otherwise, built from terms of public state only (Realms, Power,
Succession piles, locks, the flip and the objective flags; never a hand or a deck, so a
reward tells no seat anything hidden). After every decision ``apply_shaped`` adds to each
seat ``p``::

    SHAPING_SCALE * (d_p - mean of d_q over the other seats),   d = potential after - before

so the step rewards stay zero-sum and, summed over a game, telescope to
``SHAPING_SCALE * (relative potential at the end - at the deal)``: progress undone and
redone nets nothing (nothing to farm in a 200-turn game), and the ``"win"`` reward
(+1 / -1/(n-1) at the end, 0 on truncation) is unchanged. The terms and their weights are
RULES.md R69's table; the weights below are the single source.
"""

from __future__ import annotations

from fatezoo.envs.core.jit import njit
from fatezoo.envs.core.state import REWARD_SCORE

from .rules import (
    apply_action,
    fcard_at,
    fcount,
    ftype,
    hero_str,
    heroes_at,
    is_hero,
    kronk_may,
    objective_met,
    queen_cost,
    vanquish_reach,
    vcard_at,
    vcount,
    vtype,
)
from .state import (
    BASIL,
    DAGGER,
    F_STR,
    FZ,
    GUARDS,
    HERO0,
    K_ALLY,
    KRONK,
    KUZCO,
    LOC0,
    MUFASA,
    PALACE,
    QUEEN,
    QUEEN_COST,
    SCAR,
    SUCC,
    SUCCESSION_GOAL,
    V_KIND,
    V_STR,
    YZMA,
)

SHAPING_SCALE = 0.5  # the whole way to an objective is worth half a win
BLOCK_W = 0.025  # per location of your Realm with a Hero on it (its top symbols covered)
POWER_W, POWER_CAP = 0.05, 5  # Scar and Yzma: Power held, up to 5
# Scar
SCAR_SUCC_W = 0.6  # printed Strength in the Succession pile / 15
SCAR_MUFASA_DONE_W = 0.15  # Mufasa in the Succession pile
SCAR_MUFASA_HERE_W = 0.05  # Mufasa in Scar's Realm (before he is defeated)
SCAR_READY_W = 0.1  # the best target Hero's Vanquish reach / its Strength
SCAR_ALLIES_W, SCAR_ALLIES_CAP = 0.05, 6  # Allies' printed Strength in the Realm, up to 6
# Yzma
YZMA_KRONK_W = 0.25  # Kronk at a location
YZMA_HELPER_W = 0.05  # the Dagger or an Imperial Guards at a location
YZMA_HELPER_KRONK_W = 0.1  # ... at Kronk's location
YZMA_KUZCO_W = 0.15  # Kuzco in Yzma's Realm
YZMA_TOGETHER_W = 0.15  # Kuzco at Kronk's location
YZMA_READY_W = 0.1  # ... and Kronk's Vanquish reaches Kuzco's Strength
# Ratigan
RAT_UNLOCK_W = 0.2  # Buckingham Palace unlocked
RAT_GEARS_W = 0.2  # The Robot Queen's discount / 10 (five Gears)
RAT_POWER_W = 0.3  # Power / The Robot Queen's current Cost (capped at 1)
RAT_QUEEN_W = 0.15  # The Robot Queen in the Realm, not at the Palace (Power counted full)
RAT_BASIL_W = 0.1  # flipped: Basil in the Realm
RAT_BASIL_READY_W = 0.1  # flipped: the Vanquish reach at Basil / his Strength
MAX_POTENTIAL = 0.95  # below the objective's 1 whatever the terms sum to


@njit(cache=True)
def _ready(rec, s, loc, h):
    """The Vanquish reach at ``loc`` against Hero ``h`` over its Strength, in [0, 1]."""
    reach = vanquish_reach(rec, s, loc, h)
    if reach <= 0:
        return 0.0
    return min(1.0, reach / max(hero_str(rec, s, h, loc), 1))


@njit(cache=True)
def _hero_ready(rec, s, t):
    """Best ``_ready`` over the Heroes in ``s``'s Realm of type ``t`` (-1: any type); -1 if none."""
    best = -1.0
    for loc in range(4):
        z = s * FZ + HERO0 + loc
        for i in range(rec["fz_n"][z]):
            h = rec["fz"][z, i]
            if not is_hero(rec, h) or (t >= 0 and ftype(rec, h) != t):
                continue
            best = max(best, _ready(rec, s, loc, h))
    return best


@njit(cache=True)
def _vtype_loc(rec, s, t):
    """The location (0-3) of a villain card of type ``t`` in ``s``'s Realm, or -1."""
    for loc in range(4):
        for i in range(vcount(rec, s, LOC0 + loc)):
            if vtype(rec, vcard_at(rec, s, LOC0 + loc, i)) == t:
                return loc
    return -1


@njit(cache=True)
def _blocked(rec, s):
    """Locations of ``s``'s Realm with at least one Hero."""
    k = 0
    for loc in range(4):
        if heroes_at(rec, s, loc) > 0:
            k += 1
    return k


@njit(cache=True)
def _scar(rec, s):
    succ = 0
    mufasa_done = False
    for i in range(fcount(rec, s, SUCC)):
        t = ftype(rec, fcard_at(rec, s, SUCC, i))
        succ += F_STR[t]
        mufasa_done = mufasa_done or t == MUFASA
    x = SCAR_SUCC_W * min(succ, SUCCESSION_GOAL) / SUCCESSION_GOAL
    if mufasa_done:
        x += SCAR_MUFASA_DONE_W
        ready = _hero_ready(rec, s, -1)
    else:
        ready = _hero_ready(rec, s, MUFASA)
        if ready >= 0:
            x += SCAR_MUFASA_HERE_W
    x += SCAR_READY_W * max(ready, 0.0)
    allies = 0
    for loc in range(4):
        for i in range(vcount(rec, s, LOC0 + loc)):
            t = vtype(rec, vcard_at(rec, s, LOC0 + loc, i))
            if V_KIND[t] == K_ALLY:
                allies += V_STR[t]
    x += SCAR_ALLIES_W * min(allies, SCAR_ALLIES_CAP) / SCAR_ALLIES_CAP
    return x + POWER_W * min(rec["power"][s], POWER_CAP) / POWER_CAP


@njit(cache=True)
def _yzma(rec, s):
    x = 0.0
    kronk = _vtype_loc(rec, s, KRONK)
    if kronk >= 0:
        x += YZMA_KRONK_W
    if _vtype_loc(rec, s, DAGGER) >= 0 or _vtype_loc(rec, s, GUARDS) >= 0:
        x += YZMA_HELPER_W
    with_kronk = False
    if kronk >= 0:
        for i in range(vcount(rec, s, LOC0 + kronk)):
            t = vtype(rec, vcard_at(rec, s, LOC0 + kronk, i))
            with_kronk = with_kronk or t == DAGGER or t == GUARDS
        if with_kronk:
            x += YZMA_HELPER_KRONK_W
    for loc in range(4):
        z = s * FZ + HERO0 + loc
        for i in range(rec["fz_n"][z]):
            h = rec["fz"][z, i]
            if ftype(rec, h) != KUZCO:
                continue
            x += YZMA_KUZCO_W
            if loc == kronk:
                x += YZMA_TOGETHER_W
                if kronk_may(rec, s, loc, h):
                    x += YZMA_READY_W * _ready(rec, s, loc, h)
    return x + POWER_W * min(rec["power"][s], POWER_CAP) / POWER_CAP


@njit(cache=True)
def _ratigan(rec, s):
    if rec["flip"][s]:
        x = 0.0  # the way to the Palace is lost for good (R67)
        ready = _hero_ready(rec, s, BASIL)
        if ready >= 0:
            x += RAT_BASIL_W + RAT_BASIL_READY_W * ready
        return x
    x = 0.0
    if rec["locked"][s, PALACE] == 0:
        x += RAT_UNLOCK_W
    cost = queen_cost(rec, s)
    x += RAT_GEARS_W * min(QUEEN_COST - cost, 10) / 10.0
    if _vtype_loc(rec, s, QUEEN) >= 0:  # in the Realm, not at the Palace (else objective)
        x += RAT_QUEEN_W + RAT_POWER_W
    else:
        x += RAT_POWER_W * min(1.0, rec["power"][s] / max(cost, 1))
    return x


@njit(cache=True)
def potential(rec, s):
    """Seat ``s``'s progress toward its objective, in [0, 1], from public state (module docs)."""
    if objective_met(rec, s):
        return 1.0
    v = rec["villain"][s]
    if v == SCAR:
        x = _scar(rec, s)
    elif v == YZMA:
        x = _yzma(rec, s)
    else:
        x = _ratigan(rec, s)
    x -= BLOCK_W * _blocked(rec, s)
    return max(0.0, min(MAX_POTENTIAL, x))


@njit(cache=True)
def evaluate(rec, values):
    """ISMCTS's value of a rollout cut short: each seat's potential minus the others' mean.

    The same potential as the shaping (one measure of progress for training and search),
    in [-0.95, 0.95] before the game ends (a win scores +1, so it stays above any
    progress); a game that ended scores its returns.
    """
    n = rec["num_players"]
    if rec["terminated"]:
        for p in range(n):
            values[p] = rec["returns"][p]
        return
    total = 0.0
    for p in range(n):
        values[p] = potential(rec, p)
        total += values[p]
    for p in range(n):
        values[p] = values[p] - (total - values[p]) / (n - 1.0)


@njit(cache=True)
def _pot(rec, s):
    return potential(rec, s) if s < rec["num_players"] else 0.0


@njit(cache=True)
def apply_shaped(rec, action):
    """``apply_action``; with ``reward="score"`` also the shaping of the module docs."""
    if rec["reward_mode"] != REWARD_SCORE:
        apply_action(rec, action)
        return
    b0, b1, b2 = _pot(rec, 0), _pot(rec, 1), _pot(rec, 2)
    b3, b4, b5 = _pot(rec, 3), _pot(rec, 4), _pot(rec, 5)
    apply_action(rec, action)
    d0, d1, d2 = _pot(rec, 0) - b0, _pot(rec, 1) - b1, _pot(rec, 2) - b2
    d3, d4, d5 = _pot(rec, 3) - b3, _pot(rec, 4) - b4, _pot(rec, 5) - b5
    n = rec["num_players"]
    total = d0 + d1 + d2 + d3 + d4 + d5
    for q in range(n):
        d = d0 if q == 0 else d1 if q == 1 else d2 if q == 2 else d3 if q == 3 else \
            d4 if q == 4 else d5
        rec["rewards"][q] += SHAPING_SCALE * (d - (total - d) / (n - 1.0))
