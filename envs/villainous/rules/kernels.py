"""The game's kernels: the legal mask and the action of each phase, determinization."""

# ruff: noqa: D103  (as for envs/*/rules.py: kernels named after the rule they apply)
from __future__ import annotations

from fatezoo.envs.core.jit import njit
from fatezoo.envs.core.knowledge import determinize_zones
from fatezoo.envs.core.rng import next_u32
from fatezoo.envs.core.stack import KIND as EV_KIND

from .. import state as S
from .cards import fcount, ftype, vcard_at, vcount, vtype
from .choices import mask_dest
from .conditions import condition_ok, play_condition
from .entries import entry_apply, entry_mask
from .fate import choose_pile, choose_target, fate_card_ok, fate_pick_zone, play_fate_card
from .turn import end_turn, fate_targetable, slot_open, take_slot


@njit(cache=True)
def legal_mask(rec, mask):
    """Legal actions of the current player."""
    for a in range(mask.shape[0]):
        mask[a] = 0
    ph = rec["phase"]
    p = rec["current_player"]
    n = rec["num_players"]
    if ph == S.PH_MOVE:
        mask_dest(rec, mask, p, rec["mover"][p], False)
    elif ph == S.PH_ACT:
        for k in range(4):
            if slot_open(rec, p, k):
                mask[S.SLOT + k] = 1
        mask[S.PASS] = 1
    elif ph == S.PH_TARGET:
        for r in range(1, n):
            if fate_targetable(rec, p, (p + r) % n):
                mask[S.TARGET + r - 1] = 1
    elif ph == S.PH_PILE:
        q = rec["fate_target"]
        for k in range(4):
            if fcount(rec, q, S.PILE0 + k) > 0:
                mask[S.LOCATION + k] = 1
    elif ph == S.PH_FPICK:
        z = fate_pick_zone(rec)
        for i in range(rec["fz_n"][z]):
            c = rec["fz"][z, i]
            if fate_card_ok(rec, c):
                mask[S.FCARD + S.F_LOCAL[ftype(rec, c)]] = 1
    elif ph == S.PH_ENTRY:
        entry_mask(rec, mask)
    elif ph == S.PH_WINDOW:
        i = rec["cev_n"][0] - 1
        kind = rec["cev"][i, EV_KIND]
        arg = rec["cev"][i, S.EV_ARG]
        for j in range(vcount(rec, p, S.HAND)):
            t = vtype(rec, vcard_at(rec, p, S.HAND, j))
            if condition_ok(rec, p, t, kind, arg):
                mask[S.VCARD + S.V_LOCAL[t]] = 1
        mask[S.PASS] = 1


@njit(cache=True)
def apply_action(rec, action):
    """Apply one legal decision of the current player."""
    ph = rec["phase"]
    p = rec["current_player"]
    n = rec["num_players"]
    if ph == S.PH_MOVE:
        rec["mover"][p] = action - S.LOCATION
        rec["phase"] = S.PH_ACT
    elif ph == S.PH_ACT:
        if action == S.PASS:
            end_turn(rec)
        else:
            take_slot(rec, action - S.SLOT)
    elif ph == S.PH_TARGET:
        choose_target(rec, (p + 1 + action - S.TARGET) % n)
    elif ph == S.PH_PILE:
        choose_pile(rec, action - S.LOCATION)
    elif ph == S.PH_FPICK:
        play_fate_card(rec, action - S.FCARD)
    elif ph == S.PH_ENTRY:
        entry_apply(rec, action)
    elif ph == S.PH_WINDOW:
        play_condition(rec, action)


@njit(cache=True)
def determinize_record(rec, player, words):
    """Resample, seat by seat, every card ``player`` does not know; then reseed the RNG."""
    n = rec["num_players"]
    for s in range(n):
        determinize_zones(rec["vz"][s * S.VZ:(s + 1) * S.VZ], rec["vz_n"][s * S.VZ:(s + 1) * S.VZ],
                          rec["vknown"], n, player, words)
        determinize_zones(rec["fz"][s * S.FZ:(s + 1) * S.FZ], rec["fz_n"][s * S.FZ:(s + 1) * S.FZ],
                          rec["fknown"], n, player, words)
    for i in range(4):
        rec["rng"][i] = next_u32(words) | (1 if i == 0 else 0)
