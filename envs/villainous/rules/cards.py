"""Card and zone helpers: card types, zone access, moving a card between zones."""

# ruff: noqa: D103  (as for envs/*/rules.py: kernels named after the rule they apply)
from __future__ import annotations

from fatezoo.envs.core.jit import njit
from fatezoo.envs.core.zones import zone_move_card

from .. import state as S


@njit(cache=True)
def vtype(rec, c):
    """Global type of villain card ``c``."""
    return S.VT[rec["villain"][c // S.NV], c % S.NV]


@njit(cache=True)
def ftype(rec, c):
    """Global type of Fate card ``c``."""
    return S.FT[rec["villain"][c // S.NF_CAP], c % S.NF_CAP]


@njit(cache=True)
def vzone(s, z):
    return s * S.VZ + z


@njit(cache=True)
def fzone(s, z):
    return s * S.FZ + z


@njit(cache=True)
def vcount(rec, s, z):
    return rec["vz_n"][s * S.VZ + z]


@njit(cache=True)
def fcount(rec, s, z):
    return rec["fz_n"][s * S.FZ + z]


@njit(cache=True)
def vcard_at(rec, s, z, i):
    return rec["vz"][s * S.VZ + z, i]


@njit(cache=True)
def fcard_at(rec, s, z, i):
    return rec["fz"][s * S.FZ + z, i]


@njit(cache=True)
def find_vtype(rec, s, z, t):
    """Lowest id of a villain card of global type ``t`` in zone ``z`` of seat ``s``, or -1."""
    best = -1
    for i in range(vcount(rec, s, z)):
        c = vcard_at(rec, s, z, i)
        if vtype(rec, c) == t and (best < 0 or c < best):
            best = c
    return best


@njit(cache=True)
def count_vtype(rec, s, z, t):
    k = 0
    for i in range(vcount(rec, s, z)):
        if vtype(rec, vcard_at(rec, s, z, i)) == t:
            k += 1
    return k


@njit(cache=True)
def vmove(rec, s, src, c, dst):
    """Move villain card ``c`` of seat ``s`` between two of its zones."""
    zone_move_card(rec["vz"], rec["vz_n"], s * S.VZ + src, c, s * S.VZ + dst)


@njit(cache=True)
def fmove_abs(rec, zsrc, c, zdst):
    """Move Fate card ``c`` between absolute Fate zones."""
    zone_move_card(rec["fz"], rec["fz_n"], zsrc, c, zdst)


@njit(cache=True)
def is_hero(rec, c):
    return S.F_KIND[ftype(rec, c)] == S.K_HERO


@njit(cache=True)
def unlocked(rec, s, loc):
    return 0 <= loc < 4 and rec["locked"][s, loc] == 0


@njit(cache=True)
def items_on(rec, h):
    """Number of Fate Items attached to Hero ``h``."""
    k = 0
    for c in range(rec["attach"].shape[0]):
        if rec["attach"][c] == h:
            k += 1
    return k
