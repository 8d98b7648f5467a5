"""Response windows and a fight's rounds (R51, R69-R71): ``advance`` after each."""

# ruff: noqa: D103  (as for envs/*/rules.py: kernels named after the rule they apply)
from __future__ import annotations

import numpy as np

from fatezoo.envs.core.jit import njit
from fatezoo.envs.core.stack import next_responder, stack_pop

from ..state import MAX_P, Phase
from .helpers import count


@njit(cache=True)
def fight_emptied(rec):
    """R53: a side of the fight is emptied; the fight is over at once.

    Every Defender taken out: the Tile is conquered (after the Raid roll the Raider recalls
    one, R55); every dispatched Faithful taken out: the Raider retreats. Actions still on
    the stack settle without effect.
    """
    flush_stack(rec)
    stage = rec["fin"]
    recall = rec["recall_more"]
    clear_fight(rec)
    if count(rec["f_fight"][1]) == 0:
        rec["conquered"][rec["marker"]] = 1
        if stage == 2 and count(rec["f_fight"][0]) > 0:
            rec["recall_more"] = recall
            rec["phase"] = Phase.RECALL
        else:
            after_conquest(rec)
    else:
        end_raid(rec)


@njit(cache=True)
def begin_round(rec, stage):
    """R47 (stage 1, after the Defense roll), R51 (stage 2, after the Raid roll): a round.

    It starts with the Raider.
    """
    rec["fin"] = stage
    rec["priority"] = rec["turn_player"]
    rec["passes"] = 0
    round_next(rec)


@njit(cache=True)
def round_next(rec):
    """R51, R70: ask the seat holding priority if it has an Action, else it passes.

    When every living seat has passed in a row the round ends.
    """
    n = int(rec["num_players"])
    while rec["passes"] < living(rec):
        s = int(rec["priority"])
        if rec["alive"][s] and has_play(rec, s, False):
            rec["phase"] = Phase.FINALIZE
            return
        if rec["alive"][s]:
            rec["passes"] += 1
        rec["priority"] = (s + 1) % n
    end_round(rec)


@njit(cache=True)
def end_round(rec):
    """The roll is final: stage 1 goes on to the dispatch, stage 2 to the Combat Rolls."""
    stage = rec["fin"]
    rec["fin"] = 0
    rec["priority"] = -1
    rec["passes"] = 0
    if stage == 1:
        rec["picked"] = 0
        rec["phase"] = Phase.DISPATCH
    else:
        fight(rec)


@njit(cache=True)
def advance(rec):
    """R69-R70: ask the next seat with a legal response, else resolve the top; repeat.

    When the stack is empty the turn player's Marketplace Step goes on; if the turn player
    was eliminated meanwhile, play passes left (R82).
    """
    n = int(rec["num_players"])
    stack, top = rec["stack"], rec["stack_n"]
    eligible = np.zeros(MAX_P, np.int8)
    while top[0] > 0:
        for s in range(n):
            eligible[s] = 1 if has_play(rec, s, True) else 0
        seat = next_responder(stack, top, n, eligible)
        if seat >= 0:
            rec["phase"] = Phase.RESPOND
            return
        i = stack_pop(stack, top)
        rec["phase"] = Phase.FINALIZE if rec["fin"] > 0 else Phase.MARKET
        wait = resolve_entry(rec, i)
        if rec["phase"] == Phase.OVER:
            return
        if not rec["alive"][rec["turn_player"]]:
            flush_stack(rec)
            rec["draws"] = 0
            rec["actor"] = -1
            rec["die_left"] = 0
            clear_raid(rec)  # eliminate() sent the Defenders home (R83)
            end_turn(rec)
            return
        if rec["defender"] >= 0 and not rec["alive"][rec["defender"]] \
                and (rec["fin"] > 0 or top[0] > 0) and rec["onsm"] < 0:
            flush_stack(rec)  # R83: the Defender is out mid-fight or mid-window: Raid over
            rec["draws"] = 0
            rec["actor"] = -1
            rec["die_left"] = 0
            end_raid(rec)
            return
        if wait:
            return
    if rec["fin"] > 0:
        rec["priority"] = rec["turn_player"]  # R51: the round restarts after an Action
        rec["passes"] = 0
        round_next(rec)
    else:
        rec["phase"] = Phase.MARKET


# the modules of the same import cycle, imported once this one's kernels are defined
from .end import living  # noqa: E402
from .plays import has_play  # noqa: E402
from .raid import after_conquest, end_raid, fight  # noqa: E402
from .reset import clear_fight, clear_raid  # noqa: E402
from .resolve import flush_stack, resolve_entry  # noqa: E402
from .turn import end_turn  # noqa: E402
