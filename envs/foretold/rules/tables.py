"""Effect, timing and passive-bonus tables read by the kernels (from ``cards.py``)."""

# ruff: noqa: D103  (as for envs/*/rules.py: kernels named after the rule they apply)
from __future__ import annotations

import numpy as np

from .. import cards as C

E = C.EFFECT


W_GOLD, W_FIGHT, W_ON_SMITE, W_SMITE, W_PASSIVE, W_FLIP, W_SPRING = (
    C.WHEN.index(x) for x in ("gold", "fight", "on_smite", "smite", "passive", "flip", "spring"))


E_DEVOTEE_GOLD, E_DRAW_FATE, E_HEAL, E_MARKET_CYCLE = (
    E["DEVOTEE_GOLD"], E["DRAW_FATE"], E["HEAL"], E["MARKET_CYCLE"])


E_SMASH, E_STEAL, E_DAMAGE = E["SMASH_RELIC"], E["STEAL_GOLD"], E["DAMAGE"]


E_TRAP_DISCARD, E_TRAP_DAMAGE, E_TRAP_END = E["TRAP_DISCARD"], E["TRAP_DAMAGE"], E["TRAP_END_RAID"]


E_SEARCH = E["SEARCH_RELIC"]


E_DECREE_TILE, E_DECREE_FATE, E_DECREE_SMITE, E_DECREE_HEAL, E_DECREE_GOLD = (
    E["DECREE_TILE_COST"], E["DECREE_FATE_PRICE"], E["DECREE_SMITE"], E["DECREE_HEAL"],
    E["DECREE_GOLD"])


W_DECREE = C.WHEN.index("decree")


E_GAIN_GOLD, E_DISCOUNT, E_GOLD_ALIGNED, E_HEAL_FULL, E_PREVENT, E_DAMAGE_ALL = (
    E["GAIN_GOLD"], E["DISCOUNT"], E["GOLD_PER_ALIGNED"], E["HEAL_FULL"], E["PREVENT"],
    E["DAMAGE_ALL"])


E_WAIVE, E_COST_REDUCE, E_COUNTER = E["WAIVE_COST"], E["COST_REDUCE"], E["COUNTER"]


TM_ANY, TM_OWN, TM_STACK = (C.TIMINGS.index(x) for x in ("any", "own_turn", "stack"))


TM_FIGHT, TM_DICE = C.TIMINGS.index("fight"), C.TIMINGS.index("dice")


E_COMBAT_BONUS, E_COMBAT_MALUS, E_ADD_DIE, E_WIN_TIES, E_RECALL_EXTRA, E_PAY_BONUS = (
    E["COMBAT_BONUS"], E["COMBAT_MALUS"], E["ADD_DIE"], E["WIN_TIES"], E["RECALL_EXTRA"],
    E["PAY_BONUS"])


E_REROLL, E_SET_DIE = E["REROLL_DIE"], E["SET_DIE"]


E_FREE_BUY, E_BUY_ANY, E_PROTECT = E["FREE_BUY"], E["BUY_ANY"], E["PROTECT_PARTY"]


E_REMOVE, E_PAY_REMOVE, E_SACRIFICE, E_CONVERT = (
    E["REMOVE_COMBATANT"], E["PAY_REMOVE"], E["SACRIFICE_COMBATANT"], E["CONVERT"])


W_USE = C.WHEN.index("use")


# R43: discarding a Faithful for its ability: Captain from the Raiding Party as the Raider,
# Hoplite from the Temple as the Defender, each +a to its side's Combat Roll in this fight
_DISCARD_RAID_BONUS = (C.F_WHEN == C.WHEN.index("discard_raid")) & (C.F_EFFECT == E["COMBAT_BONUS"])
F_DISCARD_RAID = np.where(_DISCARD_RAID_BONUS, C.F_A, 0).astype(np.int64)


F_DISCARD_DEFEND = np.where(
    (C.F_WHEN == C.WHEN.index("discard_defend")) & (C.F_EFFECT == E["COMBAT_BONUS"]), C.F_A, 0
).astype(np.int64)


# effects a played Fate card or used Relic resolves (R63-R80, R53, section 13)
PLAYABLE = np.zeros(len(C.EFFECT), np.int64)


for _e in ("GAIN_GOLD", "DISCOUNT", "GOLD_PER_ALIGNED", "DRAW_FATE", "HEAL", "HEAL_FULL",
           "PREVENT", "DAMAGE", "DAMAGE_ALL", "WAIVE_COST", "MARKET_CYCLE", "COUNTER",
           "COMBAT_BONUS", "COMBAT_MALUS", "ADD_DIE", "WIN_TIES", "RECALL_EXTRA", "PAY_BONUS",
           "REROLL_DIE", "SET_DIE", "SMASH_RELIC", "STEAL_GOLD", "FREE_BUY", "BUY_ANY",
           "REMOVE_COMBATANT", "PAY_REMOVE", "SACRIFICE_COMBATANT", "CONVERT", "PROTECT_PARTY"):
    PLAYABLE[E[_e]] = 1


C_PLAYABLE = np.array([PLAYABLE[C.C_EFFECT[k]] and C.C_TIMING[k] != C.TIMINGS.index("none")
                       for k in range(C.NC)], np.int64)


R_USABLE = np.array([C.R_WHEN[r] == W_USE and PLAYABLE[C.R_EFFECT[r]] and
                     C.R_TIMING[r] in (TM_ANY, TM_OWN, TM_FIGHT, TM_DICE) for r in range(C.NR)],
                    np.int64)


RECALL_CAP = 10


# R70 Reading: the cheapest flip of a deck Tile (its type is hidden from the opponents)
MIN_DECK_FLIP = int(min(int(C.T_FLIP[t]) for t in range(5, C.NT) if C.T_FLIP[t] > 0))


# R87: the Fatesworn-symbol Fate card types (fate "all", one copy per Fate Deck): C_SYM[k] is
# the bit of type k in c_sym (which deck's copy a seat holds), -1 for every other type
C_SYM = np.full(C.NC, -1, np.int64)


_j = 0


for _k in range(C.NC):
    if C.C_FATE[_k] == 4:
        C_SYM[_k] = _j
        _j += 1


def _passive(when, effect, a, name, on=W_PASSIVE):
    return np.where((when == on) & (effect == E[name]), a, 0).astype(np.int64)


R_RAID_BONUS = _passive(C.R_WHEN, C.R_EFFECT, C.R_A, "RAID_BONUS") + _passive(
    C.R_WHEN, C.R_EFFECT, C.R_A, "FIGHT_BONUS")


R_DEFENSE_BONUS = _passive(C.R_WHEN, C.R_EFFECT, C.R_A, "DEFENSE_BONUS") + _passive(
    C.R_WHEN, C.R_EFFECT, C.R_A, "FIGHT_BONUS")


R_TURN_GOLD = _passive(C.R_WHEN, C.R_EFFECT, C.R_A, "TURN_GOLD")


R_SMITE_REDUCE = _passive(C.R_WHEN, C.R_EFFECT, C.R_A, "SMITE_REDUCE")


R_COST_REDUCE = _passive(C.R_WHEN, C.R_EFFECT, C.R_A, "COST_REDUCE")


T_RAID_BONUS = _passive(C.T_WHEN, C.T_EFFECT, C.T_A, "RAID_BONUS")  # B-side rooms


T_TURN_GOLD = _passive(C.T_WHEN, C.T_EFFECT, C.T_A, "TURN_GOLD")


T_TURN_HEAL = _passive(C.T_WHEN, C.T_EFFECT, C.T_A, "TURN_HEAL")


F_SMITE_BONUS = _passive(C.F_WHEN, C.F_EFFECT, C.F_A, "SMITE_BONUS", W_SMITE)


F_ALLY = _passive(C.F_WHEN, C.F_EFFECT, C.F_A, "ALLY_BONUS", W_FIGHT)


F_LOW_DIE = _passive(C.F_WHEN, C.F_EFFECT, C.F_A, "LOW_DIE_BONUS", W_FIGHT)


F_LOW_FACE = np.where(F_LOW_DIE > 0, C.F_B, 0).astype(np.int64)


F_STEAL_ON_SMITE = _passive(C.F_WHEN, C.F_EFFECT, C.F_A, "STEAL_GOLD", W_ON_SMITE)


F_SMASH_ON_SMITE = np.where((C.F_WHEN == W_ON_SMITE) & (C.F_EFFECT == E_SMASH), 1, 0).astype(
    np.int64)


STEP_ROW = np.array([-1, 0, 1, 0], np.int64)  # N E S W


STEP_COL = np.array([0, 1, 0, -1], np.int64)
