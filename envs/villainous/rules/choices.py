"""What the entry kinds share: mask helpers, playing and moving cards, finding Heroes.

The mask helpers, the Vanquish total, playing and moving villain cards, finding a Hero
(R52, R53).
"""

# ruff: noqa: D103  (as for envs/*/rules.py: kernels named after the rule they apply)
from __future__ import annotations

from fatezoo.envs.core.jit import njit
from fatezoo.envs.core.knowledge import look_at_zone, reveal_all, shuffle_known

from .. import state as S
from .cards import fmove_abs, ftype, unlocked, vmove, vtype
from .effects import findable, place_hero, trigger_vcard
from .moving import hero_loc, raise_event
from .strength import adjacent_open, ally_str, any_vcard, pick_hero, str_bonus


@njit(cache=True)
def mask_locations_with_allies(rec, mask, s, kind, mode, a, need_adjacent):
    for loc in range(4):
        if any_vcard(rec, s, loc, kind, mode, a) and (not need_adjacent or adjacent_open(
                rec, s, loc)):
            mask[S.LOCATION + loc] = 1


@njit(cache=True)
def mask_vtypes_at(rec, mask, s, loc, kind, mode, a):
    z = s * S.VZ + S.LOC0 + loc
    for i in range(rec["vz_n"][z]):
        c = rec["vz"][z, i]
        t = vtype(rec, c)
        if kind >= 0 and S.V_KIND[t] != kind:
            continue
        if mode == 1 and ally_str(rec, s, c, loc) > a:
            continue
        mask[S.VCARD + S.V_LOCAL[t]] = 1


@njit(cache=True)
def mask_hero_types_at(rec, mask, s, loc, mode, a):
    z = s * S.FZ + S.HERO0 + loc
    for i in range(rec["fz_n"][z]):
        t = ftype(rec, rec["fz"][z, i])
        if S.F_KIND[t] == S.K_HERO and pick_hero(rec, s, loc, t, mode, a) >= 0:
            mask[S.FCARD + S.F_LOCAL[t]] = 1


@njit(cache=True)
def mask_dest(rec, mask, s, src, adjacent):
    for loc in range(4):
        if loc == src or not unlocked(rec, s, loc):
            continue
        if adjacent and abs(loc - src) != 1:
            continue
        mask[S.LOCATION + loc] = 1


@njit(cache=True)
def vq_total(rec, s, loc):
    total = 0
    for j in range(rec["vq_n"]):
        total += ally_str(rec, s, rec["vq"][j], loc)
    if rec["vq_n"] > 0:
        total += str_bonus(rec, s, loc)
    return total


@njit(cache=True)
def vq_chosen(rec, c):
    for j in range(rec["vq_n"]):
        if rec["vq"][j] == c:
            return True
    return False


@njit(cache=True)
def pick_named(rec, s, t):
    """The Hero of type ``t`` in the Realm (lowest id), or -1."""
    best = -1
    for loc in range(4):
        h = pick_hero(rec, s, loc, t, 0, 0)
        if h >= 0 and (best < 0 or h < best):
            best = h
    return best


@njit(cache=True)
def play_villain_card(rec, s, c, loc):
    """An Ally or Item goes below ``loc`` (R15, R16); its on-play ability (R33)."""
    vmove(rec, s, S.HAND, c, S.LOC0 + loc)
    reveal_all(rec["vknown"], c, rec["num_players"])
    t = vtype(rec, c)
    if S.V_KIND[t] == S.K_ALLY and s == rec["turn_player"]:
        raise_event(rec, S.T_OPP_PLAY_ALLY, S.V_STR[t])
    trigger_vcard(rec, s, c, loc, S.W_PLAY)


@njit(cache=True)
def move_vcard(rec, s, c, src, dst):
    vmove(rec, s, S.LOC0 + src, c, S.LOC0 + dst)
    trigger_vcard(rec, s, c, dst, S.W_MOVE)


@njit(cache=True)
def find_and_play(rec, s, t, loc, who):
    """R52/R53: find Hero ``t`` in the Realm, the Fate discard, then the deck or piles.

    Yzma's piles are searched in order 0-3; the deck or pile he was in is shuffled (every
    player forgets its order).
    """
    n = rec["num_players"]
    h = pick_named(rec, s, t)
    dst = s * S.FZ + S.HERO0 + loc
    if h >= 0:
        src = hero_loc(rec, s, h)
        fmove_abs(rec, s * S.FZ + S.HERO0 + src, h, dst)
        for c in range(s * S.NF_CAP, (s + 1) * S.NF_CAP):
            if rec["attach"][c] == h:
                fmove_abs(rec, s * S.FZ + S.HERO0 + src, c, dst)
    else:
        z = s * S.FZ + S.FDISC
        for i in range(rec["fz_n"][z]):
            if ftype(rec, rec["fz"][z, i]) == t:
                h = rec["fz"][z, i]
                break
        if h >= 0:
            fmove_abs(rec, z, h, dst)
        else:  # the Fate deck, or Yzma's piles in location order (R53)
            where = findable(rec, s, t)
            if where == 3:
                z = s * S.FZ + S.FDECK
            else:  # the finder looks through each pile before his, then his
                for k in range(where - 4):
                    look_at_zone(rec["fz"], rec["fz_n"], rec["fknown"], s * S.FZ + S.PILE0 + k,
                                 who)
                z = s * S.FZ + S.PILE0 + where - 4
            look_at_zone(rec["fz"], rec["fz_n"], rec["fknown"], z, who)
            for i in range(rec["fz_n"][z]):
                if ftype(rec, rec["fz"][z, i]) == t:
                    h = rec["fz"][z, i]
                    break
            fmove_abs(rec, z, h, dst)
            shuffle_known(rec["fz"], rec["fz_n"], rec["fknown"], n, z, rec["rng"])
    place_hero(rec, s, h, loc, who)
