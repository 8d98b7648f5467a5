"""Moving cards: drawing, discarding, Power, Condition events, defeating and moving Heroes."""

# ruff: noqa: D103  (as for envs/*/rules.py: kernels named after the rule they apply)
from __future__ import annotations

from fatezoo.envs.core.jit import njit
from fatezoo.envs.core.knowledge import draw_seen, reveal_all, shuffle_known
from fatezoo.envs.core.stack import stack_push
from fatezoo.envs.core.zones import zone_find, zone_push, zone_take

from ..state import (
    BASIL,
    E_LOSE_POWER,
    EV_ARG,
    F_A,
    F_EFF,
    F_WHEN,
    FDISC,
    FZ,
    HAND,
    HERO0,
    MUFASA,
    NF_CAP,
    QUEEN,
    RATIGAN,
    SCAR,
    SUCC,
    T_OPP_POWER,
    T_OPP_VANQUISH,
    VDECK,
    VDISC,
    VZ,
    W_MOVE,
)
from .cards import fcard_at, fcount, fmove_abs, ftype, vcount, vmove, vtype


@njit(cache=True)
def refill_vdeck(rec, s):
    """R13: an empty villain deck takes its shuffled discard pile."""
    src, dst = s * VZ + VDISC, s * VZ + VDECK
    while rec["vz_n"][src] > 0:
        zone_push(rec["vz"], rec["vz_n"], dst, zone_take(rec["vz"], rec["vz_n"], src,
                                                          rec["vz_n"][src] - 1))
    shuffle_known(rec["vz"], rec["vz_n"], rec["vknown"], rec["num_players"], dst, rec["rng"])


@njit(cache=True)
def draw_card(rec, s):
    """Seat ``s`` draws one villain card (seen by them only); False if none is left."""
    if vcount(rec, s, VDECK) == 0:
        refill_vdeck(rec, s)
    if vcount(rec, s, VDECK) == 0:
        return False
    draw_seen(rec["vz"], rec["vz_n"], rec["vknown"], rec["num_players"], s * VZ + VDECK,
              s * VZ + HAND, s)
    return True


@njit(cache=True)
def discard_vcard(rec, s, src, c):
    """A villain card leaves for its owner's discard pile, face up (R28); R67 flip."""
    vmove(rec, s, src, c, VDISC)
    reveal_all(rec["vknown"], c, rec["num_players"])
    if vtype(rec, c) == QUEEN:
        rec["flip"][s] = 1


@njit(cache=True)
def raise_event(rec, kind, arg):
    """R29: the turn player raised a Condition trigger.

    Its window opens once the action (or card) that raised it has fully resolved.
    """
    i = stack_push(rec["cev"], rec["cev_n"], kind, rec["turn_player"])
    rec["cev"][i, EV_ARG] = arg


@njit(cache=True)
def gain_power(rec, s, k):
    rec["power"][s] += k
    if k > 0 and s == rec["turn_player"]:
        raise_event(rec, T_OPP_POWER, min(rec["power"][s], 20))  # thresholds <= 20


@njit(cache=True)
def lose_power(rec, s, k):
    rec["power"][s] = max(0, rec["power"][s] - k)


@njit(cache=True)
def hero_loc(rec, s, h):
    """Location (0-3) of Hero ``h`` in seat ``s``'s Realm, or -1."""
    for loc in range(4):
        if zone_find(rec["fz"], rec["fz_n"], s * FZ + HERO0 + loc, h) >= 0:
            return loc
    return -1


@njit(cache=True)
def defeat_hero(rec, s, h):
    """R27/R58: Hero ``h`` leaves the Realm, its Items to the Fate discard pile."""
    loc = hero_loc(rec, s, h)
    z = s * FZ + HERO0 + loc
    for c in range(s * NF_CAP, (s + 1) * NF_CAP):
        if rec["attach"][c] == h:
            rec["attach"][c] = -1
            fmove_abs(rec, z, c, s * FZ + FDISC)
    t = ftype(rec, h)
    dst = FDISC
    if rec["villain"][s] == SCAR:
        if t == MUFASA:
            dst = SUCC
        else:
            for i in range(fcount(rec, s, SUCC)):
                if ftype(rec, fcard_at(rec, s, SUCC, i)) == MUFASA:
                    dst = SUCC
    fmove_abs(rec, z, h, s * FZ + dst)
    if rec["villain"][s] == RATIGAN and rec["flip"][s] and t == BASIL:
        rec["goal"][s] = 1
    if s == rec["turn_player"]:
        raise_event(rec, T_OPP_VANQUISH, 0)


@njit(cache=True)
def move_hero(rec, s, h, dst):
    """Move Hero ``h`` with its Items to ``dst``; its move ability triggers (R21, R49)."""
    src = hero_loc(rec, s, h)
    fmove_abs(rec, s * FZ + HERO0 + src, h, s * FZ + HERO0 + dst)
    for c in range(s * NF_CAP, (s + 1) * NF_CAP):
        if rec["attach"][c] == h:
            fmove_abs(rec, s * FZ + HERO0 + src, c, s * FZ + HERO0 + dst)
    t = ftype(rec, h)
    if F_WHEN[t] == W_MOVE and F_EFF[t] == E_LOSE_POWER:
        lose_power(rec, s, F_A[t])
