"""Raids (R37-R60): target, Marker, Traps, Defense, combat, Smite; Reinforce (R61-R62)."""

# ruff: noqa: D103  (as for envs/*/rules.py: kernels named after the rule they apply)
from __future__ import annotations

from fatezoo.envs.core.dice import roll
from fatezoo.envs.core.jit import njit
from fatezoo.envs.core.stack import stack_push

from .. import cards as C
from .. import state as S
from ..state import Phase
from .helpers import add_gold, b_side_sum, count, heal, relic_sum
from .tables import (
    E_DAMAGE,
    E_DECREE_SMITE,
    E_DRAW_FATE,
    E_HEAL,
    E_SMASH,
    E_STEAL,
    E_TRAP_DAMAGE,
    E_TRAP_DISCARD,
    E_TRAP_END,
    F_ALLY,
    F_LOW_DIE,
    F_LOW_FACE,
    F_SMASH_ON_SMITE,
    F_SMITE_BONUS,
    F_STEAL_ON_SMITE,
    R_DEFENSE_BONUS,
    R_RAID_BONUS,
    R_SMITE_REDUCE,
    T_RAID_BONUS,
    W_ON_SMITE,
)


@njit(cache=True)
def begin_raid_step(rec):
    """R45: a Raid needs a Raiding Party and a living opponent; else on to Reinforce."""
    p = int(rec["turn_player"])
    if count(rec["f_party"][p]) > 0 and living(rec) > 1:
        rec["phase"] = Phase.RAID_TARGET
    else:
        start_reinforce(rec)


@njit(cache=True)
def start_raid(rec, q):
    clear_raid(rec)
    rec["defender"] = q
    for c in range(S.CELLS):
        if rec["grid"][q, c] == C.ENTRANCE:
            rec["marker"] = c
    arrive(rec)


@njit(cache=True)
def arrive(rec):
    """R46, R37: the Marker lands; a Trap springs; Station Tiles may be Defended."""
    q = int(rec["defender"])
    c = int(rec["marker"])
    if rec["visited"][c]:
        rec["phase"] = Phase.ADVANCE
        return
    rec["visited"][c] = 1
    t = int(rec["grid"][q, c])
    if C.T_KIND[t] == 1 and rec["side"][q, c] == 0:
        # an unsprung Trap springs at once (B-side up, seen by all); the spring is an
        # Action of its owner: its effect comes after the responses (R37, R67)
        rec["side"][q, c] = 1
        i = stack_push(rec["stack"], rec["stack_n"], S.K_TRAP, q)
        rec["stack"][i, S.S_CARD] = c
        rec["stack"][i, S.S_TARGET] = -1
        return  # its window opens from apply_action (open_raid_window)
    offer_defense(rec)


@njit(cache=True)
def spring(rec, c):
    """R37: a sprung Trap's effect on the Raider, then the Tile may be Defended (R38).

    A Raider eliminated by it: ``advance`` ends their turn (R82).
    """
    q = int(rec["defender"])
    t = int(rec["grid"][q, c])
    e = C.T_EFFECT[t]
    p = int(rec["turn_player"])
    if e == E_TRAP_DISCARD:
        if count(rec["f_party"][p]) > 0:
            rec["trap_left"] = C.T_A[t]
            rec["phase"] = Phase.TRAP_DISCARD
            return
    elif e == E_TRAP_DAMAGE:
        damage(rec, p, C.T_A[t])
        if rec["phase"] == Phase.OVER or not rec["alive"][p]:
            return
    elif e == E_TRAP_END:
        end_raid(rec)
        return
    offer_defense(rec)


@njit(cache=True)
def offer_defense(rec):
    q = int(rec["defender"])
    c = int(rec["marker"])
    t = int(rec["grid"][q, c])
    if C.T_STATIONS[t, rec["side"][q, c]] > 0 and not rec["conquered"][c]:
        if count(rec["f_temple"][q]) > 0:
            rec["picked"] = 0
            rec["phase"] = Phase.DEFEND
        else:
            conquer(rec)
    else:
        rec["phase"] = Phase.ADVANCE


@njit(cache=True)
def conquer(rec):
    c = int(rec["marker"])
    rec["conquered"][c] = 1
    if rec["grid"][rec["defender"], c] == C.HEART:
        push_smite(rec)
    else:
        rec["phase"] = Phase.ADVANCE


@njit(cache=True)
def roll_side(rec, s):
    k = 0
    for t in range(C.NF):
        k += rec["f_fight"][s, t] * C.F_DICE[t]
    k = min(k + rec["extra"][s], S.MAX_DICE)
    rec["extra"][s] = 0
    clear_dice(rec, s)
    rec["dice_n"][s] = k
    for i in range(k):
        rec["dice"][s, i] = roll(S.COMBAT_DIE, rec["rng"])


@njit(cache=True)
def low_slots(rec, s):
    """R50: dice of side ``s``'s die-dependent Faithful (LOW_DIE_BONUS: the Strategist)."""
    k = 0
    for t in range(C.NF):
        if F_LOW_DIE[t] > 0:
            k += rec["f_fight"][s, t] * C.F_DICE[t]
    return k


@njit(cache=True)
def assignment_matters(rec, s):
    """R50: the owner is asked only when the assignment can change the Combat Roll.

    A die-dependent Faithful fights, there are more dice than its die slots, and some die
    meets its bonus's face and some does not.
    """
    slots = low_slots(rec, s)
    n = int(rec["dice_n"][s])
    if slots == 0 or n <= slots:
        return False
    lo = False
    hi = False
    for t in range(C.NF):
        if F_LOW_DIE[t] > 0 and rec["f_fight"][s, t] > 0:
            for i in range(n):
                if rec["dice"][s, i] <= F_LOW_FACE[t]:
                    lo = True
                else:
                    hi = True
    return lo and hi


@njit(cache=True)
def next_low_type(rec, s):
    """R50: the die-dependent Faithful type of side ``s`` with a die slot still free."""
    for t in range(C.NF):
        if F_LOW_DIE[t] > 0 and dice_to(rec, s, t) < rec["f_fight"][s, t] * C.F_DICE[t]:
            return t
    return -1


@njit(cache=True)
def auto_assign(rec, s):
    """R50 without a decision: the lowest dice to the die-dependent Faithful."""
    for _ in range(min(low_slots(rec, s), int(rec["dice_n"][s]))):
        rec["die_to"][s, find_die(rec, s, -1, True)] = next_low_type(rec, s)


@njit(cache=True)
def side_total(rec, s):
    """R52: one side's Combat Roll.

    A die assigned to a die-dependent Faithful adds its bonus when it meets the face (R50).
    """
    p = int(rec["turn_player"])
    q = int(rec["defender"])
    total = 0
    for i in range(rec["dice_n"][s]):
        total += rec["dice"][s, i]
        t = int(rec["die_to"][s, i])  # R50: a die assigned to a die-dependent Faithful
        if t >= 0 and rec["dice"][s, i] <= F_LOW_FACE[t]:
            total += F_LOW_DIE[t]
    size = count(rec["f_fight"][s])
    for t in range(C.NF):
        m = rec["f_fight"][s, t]
        if m == 0:
            continue
        total += m * (C.F_RAID[t] if s == 0 else C.F_DEFEND[t])
        total += m * F_ALLY[t] * (size - 1)
    total += rec["bonus"][s]  # ability discards (R43)
    if s == 0:
        total += relic_sum(rec, p, R_RAID_BONUS) + b_side_sum(rec, p, T_RAID_BONUS)
    else:
        c = int(rec["marker"])
        total += C.T_BONUS[rec["grid"][q, c], rec["side"][q, c]]
        total += relic_sum(rec, q, R_DEFENSE_BONUS)
    return max(0, total)


@njit(cache=True)
def shown_total(rec, s):
    """Side ``s``'s Combat Roll as the observation shows it (R52).

    While a fight is live (from the Defense roll's Action through its rounds, the
    Raider's dispatch and the Raid roll: ``fin`` set or ``Phase.DISPATCH``) it is the
    running total of the dice, the Faithful and the bonuses on the table; once the fight
    is decided it is the total the fight compared (``totals``).
    """
    if rec["fin"] > 0 or rec["phase"] == Phase.DISPATCH:
        return side_total(rec, s)
    return int(rec["totals"][s])


@njit(cache=True)
def fight(rec):
    """R52-R55: the final Combat Rolls.

    Ties go to the Defender unless only the Raider's side has WIN_TIES.
    """
    p = int(rec["turn_player"])
    q = int(rec["defender"])
    a = side_total(rec, 0)
    b = side_total(rec, 1)
    rec["totals"][0] = a
    rec["totals"][1] = b
    raider_ties = rec["win_ties"][0] and not rec["win_ties"][1]
    for s in range(2):
        rec["bonus"][s] = 0
        rec["win_ties"][s] = 0
        rec["extra"][s] = 0
        rec["protect"][s] = 0
    if a > b or (a == b and raider_ties):
        for t in range(C.NF):
            rec["f_defeated"][t] += rec["f_fight"][1, t]
            rec["f_fight"][1, t] = 0
        rec["conquered"][rec["marker"]] = 1
        rec["phase"] = Phase.RECALL
    else:
        for t in range(C.NF):
            rec["f_discard"][p, t] += rec["f_fight"][0, t]
            rec["f_fight"][0, t] = 0
        if q >= 0:
            end_raid(rec)


@njit(cache=True)
def after_conquest(rec):
    if rec["grid"][rec["defender"], rec["marker"]] == C.HEART:
        push_smite(rec)
    else:
        rec["phase"] = Phase.ADVANCE


@njit(cache=True)
def push_smite(rec):
    """R57-R58, R71: the Smite is an Action of the Raider against the Defender.

    Its first entry rolls the Smiting Die after the responses before the roll; the roll
    pushes a second entry (card = the face) whose window comes before the damage. The
    window opens from the caller (``open_raid_window``, or the loop of ``advance``), so
    that no kernel calls back up into ``advance``.
    """
    i = stack_push(rec["stack"], rec["stack_n"], S.K_SMITE, rec["turn_player"])
    rec["stack"][i, S.S_CARD] = 0
    rec["stack"][i, S.S_TARGET] = rec["defender"]


@njit(cache=True)
def push_roll(rec, s):
    """R47-R49, R71: a group played to the fight and its roll are one Action.

    Side 1: the Defenders chosen, their Defense roll; side 0: the dispatched, the Raid
    roll. The entry's window comes before the dice are rolled and is part of the fight
    (``fin`` 1 or 2: fight-timed cards are legal in it); when it resolves the dice are
    rolled and the round after the roll begins (R47, R51).
    """
    if s == 1:  # a new fight: the last fight's dice leave the table
        clear_dice(rec, 0)
        clear_dice(rec, 1)
    rec["fin"] = 1 if s == 1 else 2
    rec["priority"] = rec["turn_player"]
    rec["passes"] = 0
    owner = rec["defender"] if s == 1 else rec["turn_player"]
    i = stack_push(rec["stack"], rec["stack_n"], S.K_ROLL, owner)
    rec["stack"][i, S.S_CARD] = s
    rec["stack"][i, S.S_TARGET] = -1


@njit(cache=True)
def open_raid_window(rec):
    """A raid Action just pushed (a roll, a Trap, the Smite) opens its window (R71)."""
    if rec["stack_n"][0] > 0 and rec["phase"] != Phase.OVER:
        advance(rec)


@njit(cache=True)
def resolve_raid_entry(rec, kind, c):
    """A raid Action resolves (R37, R47-R49, R58). True when it set the next decision."""
    if kind == S.K_ROLL:
        roll_side(rec, c)
        if assignment_matters(rec, c):  # R50: the owner assigns the dice
            rec["assign_left"] = min(low_slots(rec, c), int(rec["dice_n"][c]))
            rec["actor"] = rec["defender"] if c == 1 else rec["turn_player"]
            rec["phase"] = Phase.ASSIGN
            return True
        auto_assign(rec, c)
        begin_round(rec, 1 if c == 1 else 2)
        return True
    if kind == S.K_TRAP:
        spring(rec, c)
        return rec["stack_n"][0] == 0  # False: it led to the Heart's Smite, now on the stack
    if kind == S.K_ONSMITE:  # R59: one on-Smite trigger, after its window
        if on_smite_effect(rec, c) or rec["phase"] == Phase.OVER:
            return True
        return not next_on_smite(rec)  # False: the next trigger waits on the stack
    if c == 0:  # the Smiting Die is rolled; the damage waits for its window
        face = roll(S.SMITING_DIE, rec["rng"])
        rec["smite_roll"] = face
        i = stack_push(rec["stack"], rec["stack_n"], S.K_SMITE, rec["turn_player"])
        rec["stack"][i, S.S_CARD] = face
        rec["stack"][i, S.S_TARGET] = rec["defender"]
        return False
    smite(rec, c)
    return rec["stack_n"][0] == 0  # False: an on-Smite trigger waits on the stack (R59)


@njit(cache=True)
def smite(rec, face):
    """R57-R58: damage = Party Faithful + the Smiting Die (+ bonuses - reductions)."""
    p = int(rec["turn_player"])
    q = int(rec["defender"])
    dmg = count(rec["f_party"][p]) + face
    for t in range(C.NF):
        dmg += rec["f_party"][p, t] * F_SMITE_BONUS[t]
    dmg -= relic_sum(rec, q, R_SMITE_REDUCE)
    dmg += decree_sum(rec, E_DECREE_SMITE)  # R88 (damage() ignores a total below 1)
    damage(rec, q, dmg)
    if rec["phase"] == Phase.OVER:
        return
    rec["onsm"] = 0  # R59: the on-Smite triggers, after the damage
    rec["onsm_k"] = 0
    next_on_smite(rec)


@njit(cache=True)
def on_smite_copies(rec, x):
    """R59: how many times trigger ``x`` fires for the Raider.

    ``x`` < NF: an ``on_smite`` Faithful type in the Raiding Party (Vandal, Thief), else
    NF + an ``on_smite`` Relic type held (the Crowns). Triggers aimed at the Smitten player
    do not fire once they are out of the game.
    """
    p = int(rec["turn_player"])
    q = int(rec["defender"])
    if x < C.NF:
        if C.F_WHEN[x] != W_ON_SMITE or not rec["alive"][q]:
            return 0
        return int(rec["f_party"][p, x])
    r = x - C.NF
    if C.R_WHEN[r] != W_ON_SMITE:
        return 0
    e = C.R_EFFECT[r]
    if (e == E_DAMAGE or e == E_STEAL or e == E_SMASH) and not rec["alive"][q]:
        return 0
    return int(rec["r_owned"][p, r])


@njit(cache=True)
def next_on_smite(rec):
    """R59, R67: put the next on-Smite trigger on the stack (an Action of the Raider).

    Faithful in ``type`` order, one entry per copy, then the Crowns. True when one was
    pushed (its window opens from the caller); else the Raid ends.
    """
    x = int(rec["onsm"])
    k = int(rec["onsm_k"])
    while 0 <= x < C.NF + C.NR:
        if k < on_smite_copies(rec, x):
            i = stack_push(rec["stack"], rec["stack_n"], S.K_ONSMITE, rec["turn_player"])
            rec["stack"][i, S.S_CARD] = x
            rec["stack"][i, S.S_TARGET] = rec["defender"]
            rec["onsm"] = x
            rec["onsm_k"] = k + 1
            return True
        x += 1
        k = 0
    rec["onsm"] = -1
    rec["onsm_k"] = 0
    end_raid(rec)
    return False


@njit(cache=True)
def continue_on_smite(rec):
    """After a trigger's decision (a Vandal's pick, a Crown's draws): the next trigger."""
    if next_on_smite(rec):
        advance(rec)


@njit(cache=True)
def on_smite_effect(rec, x):
    """R59: trigger ``x`` resolves; True when its owner must decide (a Vandal, a draw)."""
    p = int(rec["turn_player"])
    q = int(rec["defender"])
    if x < C.NF:
        if not rec["alive"][q]:
            return False
        if F_SMASH_ON_SMITE[x] > 0:  # Vandal: the Raider picks one of the Smitten's Relics
            if count(rec["r_owned"][q]) > 0:
                rec["vandals"] = 1
                rec["phase"] = Phase.VANDAL
                return True
        elif F_STEAL_ON_SMITE[x] > 0:  # Thief
            g = min(F_STEAL_ON_SMITE[x], rec["gold"][q])
            add_gold(rec, q, -g)
            add_gold(rec, p, g)
        return False
    r = x - C.NF
    e = C.R_EFFECT[r]
    if e == E_DAMAGE and rec["alive"][q]:
        damage(rec, q, C.R_A[r])
    elif e == E_STEAL and rec["alive"][q]:
        g = min(C.R_A[r], rec["gold"][q])
        add_gold(rec, q, -g)
        add_gold(rec, p, g)
    elif e == E_HEAL:
        heal(rec, p, C.R_A[r])
    elif e == E_DRAW_FATE and any_fate_deck(rec):
        rec["draws"] = C.R_A[r]
        rec["draw_in_raid"] = 1
        rec["actor"] = p
        rec["phase"] = Phase.DRAW
        return True
    return False


@njit(cache=True)
def end_raid(rec):
    """R60: Defenders that fought return to the Temple; on to Reinforce."""
    release_fight(rec)
    clear_raid(rec)
    start_reinforce(rec)


@njit(cache=True)
def release_fight(rec):
    """R60: the Defenders that fought go home, the dispatched to the Raider's Discard Pile."""
    p = int(rec["turn_player"])
    q = int(rec["defender"])
    for t in range(C.NF):
        if q >= 0 and rec["alive"][q]:
            rec["f_temple"][q, t] += rec["f_fight"][1, t] + rec["f_defeated"][t]
        rec["f_fight"][1, t] = 0
        rec["f_defeated"][t] = 0
        if rec["alive"][p]:
            rec["f_discard"][p, t] += rec["f_fight"][0, t]
            rec["f_fight"][0, t] = 0


@njit(cache=True)
def start_reinforce(rec):
    """R61: every Faithful of the turn player is gathered face down for the split."""
    p = int(rec["turn_player"])
    for t in range(C.NF):
        rec["f_pool"][p, t] += rec["f_temple"][p, t] + rec["f_party"][p, t] + \
            rec["f_discard"][p, t]
        rec["f_temple"][p, t] = 0
        rec["f_party"][p, t] = 0
        rec["f_discard"][p, t] = 0
    rec["phase"] = Phase.REINFORCE


# the modules of the same import cycle, imported once this one's kernels are defined
from .dice import clear_dice, dice_to, find_die  # noqa: E402
from .end import damage, living  # noqa: E402
from .market import any_fate_deck  # noqa: E402
from .reset import clear_raid  # noqa: E402
from .rounds import advance, begin_round  # noqa: E402
from .turn import decree_sum  # noqa: E402
