"""Moving cards: drawing, discarding, Power, Condition events, defeating and moving Heroes."""

# ruff: noqa: D103  (as for envs/*/rules.py: kernels named after the rule they apply)
from __future__ import annotations

from fatezoo.envs.core.jit import njit
from fatezoo.envs.core.knowledge import draw_seen, reveal_all, shuffle_known
from fatezoo.envs.core.stack import stack_push
from fatezoo.envs.core.zones import zone_find, zone_push, zone_take

from .. import state as S
from .cards import fcard_at, fcount, fmove_abs, ftype, vcount, vmove, vtype


@njit(cache=True)
def refill_vdeck(rec, s):
    """R13: an empty villain deck takes its shuffled discard pile."""
    src, dst = s * S.VZ + S.VDISC, s * S.VZ + S.VDECK
    while rec["vz_n"][src] > 0:
        zone_push(rec["vz"], rec["vz_n"], dst, zone_take(rec["vz"], rec["vz_n"], src,
                                                          rec["vz_n"][src] - 1))
    shuffle_known(rec["vz"], rec["vz_n"], rec["vknown"], rec["num_players"], dst, rec["rng"])


@njit(cache=True)
def draw_card(rec, s):
    """Seat ``s`` draws one villain card (seen by them only); False if none is left."""
    if vcount(rec, s, S.VDECK) == 0:
        refill_vdeck(rec, s)
    if vcount(rec, s, S.VDECK) == 0:
        return False
    draw_seen(rec["vz"], rec["vz_n"], rec["vknown"], rec["num_players"], s * S.VZ + S.VDECK,
              s * S.VZ + S.HAND, s)
    return True


@njit(cache=True)
def discard_vcard(rec, s, src, c):
    """A villain card leaves for its owner's discard pile, face up (R28); R67 flip."""
    vmove(rec, s, src, c, S.VDISC)
    reveal_all(rec["vknown"], c, rec["num_players"])
    if vtype(rec, c) == S.QUEEN:
        rec["flip"][s] = 1


@njit(cache=True)
def raise_event(rec, kind, arg):
    """R29: the turn player raised a Condition trigger.

    Its window opens once the action (or card) that raised it has fully resolved.
    """
    i = stack_push(rec["cev"], rec["cev_n"], kind, rec["turn_player"])
    rec["cev"][i, S.EV_ARG] = arg


@njit(cache=True)
def gain_power(rec, s, k):
    rec["power"][s] += k
    if k > 0 and s == rec["turn_player"]:
        raise_event(rec, S.T_OPP_POWER, min(rec["power"][s], 20))  # thresholds <= 20


@njit(cache=True)
def lose_power(rec, s, k):
    rec["power"][s] = max(0, rec["power"][s] - k)


@njit(cache=True)
def hero_loc(rec, s, h):
    """Location (0-3) of Hero ``h`` in seat ``s``'s Realm, or -1."""
    for loc in range(4):
        if zone_find(rec["fz"], rec["fz_n"], s * S.FZ + S.HERO0 + loc, h) >= 0:
            return loc
    return -1


@njit(cache=True)
def defeat_hero(rec, s, h):
    """R27/R58: Hero ``h`` leaves the Realm, its Items to the Fate discard pile."""
    loc = hero_loc(rec, s, h)
    z = s * S.FZ + S.HERO0 + loc
    for c in range(s * S.NF_CAP, (s + 1) * S.NF_CAP):
        if rec["attach"][c] == h:
            rec["attach"][c] = -1
            fmove_abs(rec, z, c, s * S.FZ + S.FDISC)
    t = ftype(rec, h)
    dst = S.FDISC
    if rec["villain"][s] == S.SCAR:
        if t == S.MUFASA:
            dst = S.SUCC
        else:
            for i in range(fcount(rec, s, S.SUCC)):
                if ftype(rec, fcard_at(rec, s, S.SUCC, i)) == S.MUFASA:
                    dst = S.SUCC
    fmove_abs(rec, z, h, s * S.FZ + dst)
    if rec["villain"][s] == S.RATIGAN and rec["flip"][s] and t == S.BASIL:
        rec["goal"][s] = 1
    if s == rec["turn_player"]:
        raise_event(rec, S.T_OPP_VANQUISH, 0)


@njit(cache=True)
def move_hero(rec, s, h, dst):
    """Move Hero ``h`` with its Items to ``dst``; its move ability triggers (R21, R49)."""
    src = hero_loc(rec, s, h)
    fmove_abs(rec, s * S.FZ + S.HERO0 + src, h, s * S.FZ + S.HERO0 + dst)
    for c in range(s * S.NF_CAP, (s + 1) * S.NF_CAP):
        if rec["attach"][c] == h:
            fmove_abs(rec, s * S.FZ + S.HERO0 + src, c, s * S.FZ + S.HERO0 + dst)
    t = ftype(rec, h)
    if S.F_WHEN[t] == S.W_MOVE and S.F_EFF[t] == S.E_LOSE_POWER:
        lose_power(rec, s, S.F_A[t])
