"""Conditions (R29, R54) and ``resume``, run after every decision.

``resume`` pops finished entries, then opens the Condition windows, then gives the turn
player the actions again.
"""

# ruff: noqa: D103  (as for envs/*/rules.py: kernels named after the rule they apply)
from __future__ import annotations

import numpy as np

from fatezoo.envs.core.jit import njit
from fatezoo.envs.core.knowledge import reveal_all
from fatezoo.envs.core.stack import KIND as EV_KIND
from fatezoo.envs.core.stack import next_responder, stack_pop

from .. import state as S
from .cards import vcard_at, vcount, vmove, vtype
from .effects import effect_ok, entry_has_choice, pop_entry, start_effect


@njit(cache=True)
def resume(rec):
    """Pop finished entries; the top one with a choice decides, else back to the actions."""
    while rec["ent_n"] > 0:
        e = rec["ent"][rec["ent_n"] - 1]
        if entry_has_choice(rec, e):
            rec["phase"] = S.PH_ENTRY
            rec["current_player"] = e[S.C_WHO]
            return
        pop_entry(rec)
    rec["fate_target"] = -1
    rec["fate_pile"] = -1
    rec["vq_n"] = 0
    if open_window(rec):
        return
    rec["phase"] = S.PH_ACT
    rec["current_player"] = rec["turn_player"]


@njit(cache=True)
def condition_ok(rec, q, t, kind, arg):
    """Whether villain card type ``t`` is a Condition seat ``q`` may play for an event."""
    if S.V_KIND[t] != S.K_CONDITION or S.V_TRIG[t] != kind:
        return False
    if kind == S.T_OPP_FATE_YOU:
        if arg != q:
            return False
    elif arg < S.V_TRIGA[t]:  # Power after the gain, or the Ally's printed Strength
        return False
    return effect_ok(rec, S.V_EFF[t], S.V_A[t], S.V_ARG[t], q, -1)  # R17


@njit(cache=True)
def holds_condition(rec, q, kind, arg):
    for i in range(vcount(rec, q, S.HAND)):
        if condition_ok(rec, q, vtype(rec, vcard_at(rec, q, S.HAND, i)), kind, arg):
            return True
    return False


@njit(cache=True)
def open_window(rec):
    """R29: ask the next seat holding a playable Condition for the top event.

    Closes the windows of events nobody (left) can answer; True when a seat is asked.
    """
    n = rec["num_players"]
    t = rec["turn_player"]
    while rec["cev_n"][0] > 0:
        i = rec["cev_n"][0] - 1
        kind = rec["cev"][i, EV_KIND]
        arg = rec["cev"][i, S.EV_ARG]
        eligible = np.zeros(S.MAX_P, np.int8)
        for q in range(n):
            if q != t and holds_condition(rec, q, kind, arg):
                eligible[q] = 1
        seat = next_responder(rec["cev"], rec["cev_n"], n, eligible)
        if seat >= 0:
            rec["phase"] = S.PH_WINDOW
            rec["current_player"] = seat
            return True
        stack_pop(rec["cev"], rec["cev_n"])
        for j in range(rec["cev"].shape[1]):
            rec["cev"][i, j] = 0
    return False


@njit(cache=True)
def play_condition(rec, action):
    """The asked seat plays a Condition (``vcard``) in their own Realm, or passes."""
    if action != S.PASS:
        q = rec["current_player"]
        i = rec["cev_n"][0] - 1
        kind = rec["cev"][i, EV_KIND]
        arg = rec["cev"][i, S.EV_ARG]
        t = S.VLOC[rec["villain"][q], action - S.VCARD]
        c = -1
        for j in range(vcount(rec, q, S.HAND)):
            d = vcard_at(rec, q, S.HAND, j)
            if vtype(rec, d) == t and (c < 0 or d < c) and condition_ok(rec, q, t, kind, arg):
                c = d
        vmove(rec, q, S.HAND, c, S.LIMBO)
        reveal_all(rec["vknown"], c, rec["num_players"])
        start_effect(rec, S.V_EFF[t], S.V_A[t], S.V_ARG[t], q, q, c, -1, S.FIN_VCARD)
    resume(rec)
