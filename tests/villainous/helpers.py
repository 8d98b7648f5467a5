"""A Villainous record with its legal mask, plus helpers to build positions by card name."""

from __future__ import annotations

from fatezoo.envs.core.registry import get_spec
from fatezoo.envs.core.testing import RuleGame
from fatezoo.envs.villainous import check_record
from fatezoo.envs.villainous.state import (
    F_LOCAL,
    FCARD,
    FDECK,
    FDISC,
    FLOC,
    FNAME,
    FT,
    FZ,
    HAND,
    HERO0,
    LOC0,
    NF_CAP,
    NV,
    PH_ACT,
    PILE0,
    SUCC,
    V_LOCAL,
    VCARD,
    VDECK,
    VDISC,
    VILLAINS,
    VLOC,
    VNAME,
    VT,
    VZ,
)

SPEC = get_spec("villainous")
PUBLIC_V = (VDISC, LOC0, LOC0 + 1, LOC0 + 2, LOC0 + 3)
PUBLIC_F = (FDISC, SUCC, HERO0, HERO0 + 1, HERO0 + 2, HERO0 + 3)


def vtype_named(villain: str, name: str) -> int:
    v = VILLAINS.index(villain)
    for loc in range(17):
        t = VLOC[v, loc]
        if t >= 0 and VNAME[t] == name:
            return int(t)
    raise KeyError(name)


def ftype_named(villain: str, name: str) -> int:
    v = VILLAINS.index(villain)
    for loc in range(11):
        t = FLOC[v, loc]
        if t >= 0 and FNAME[t] == name:
            return int(t)
    raise KeyError(name)


def vc(villain: str, name: str) -> int:
    """The ``vcard`` action of a villain card type."""
    return VCARD + int(V_LOCAL[vtype_named(villain, name)])


def fc(villain: str, name: str) -> int:
    """The ``fcard`` action of a Fate card type."""
    return FCARD + int(F_LOCAL[ftype_named(villain, name)])


def _remove(cards, counts, c):
    for z in range(cards.shape[0]):
        row = list(cards[z, : counts[z]])
        if c in row:
            row.remove(c)
            cards[z, : len(row)] = row
            cards[z, len(row)] = -1 if len(row) < cards.shape[1] else cards[z, len(row)]
            counts[z] = len(row)
            return z
    raise AssertionError(f"card {c} not found")


class Game(RuleGame):
    """A Villainous game (the core's rule-test harness) plus card and position helpers."""

    SPEC = SPEC

    def __init__(self, n=2, villains="scar", seed=0, **opts):
        super().__init__(seed=seed, num_players=n, villains=villains, **opts)

    def vil(self, s):
        return VILLAINS[int(self.r["villain"][s])]

    # ---- villain cards
    def vids(self, s, name, zone=None):
        t = vtype_named(self.vil(s), name)
        ids = [s * NV + k for k in range(NV) if VT[self.r["villain"][s], k] == t]
        if zone is not None:
            ids = [c for c in ids if c in self.vzone(s, zone)]
        return ids

    def vzone(self, s, z):
        return [int(c) for c in self.r["vz"][s * VZ + z, : self.r["vz_n"][s * VZ + z]]]

    def vnames(self, s, z):
        return sorted(VNAME[VT[self.r["villain"][s], c % NV]] for c in self.vzone(s, z))

    def put_v(self, s, name, z, c=None):
        """Move a card ``name`` of seat ``s`` (from its deck if possible) to zone ``z``."""
        r = self.r
        if c is None:
            pool = self.vids(s, name, VDECK) or [c for c in self.vids(s, name)
                                                 if c not in self.vzone(s, z)]
            c = pool[0]
        _remove(r["vz"], r["vz_n"], c)
        zz = s * VZ + z
        r["vz"][zz, r["vz_n"][zz]] = c
        r["vz_n"][zz] += 1
        r["vknown"][:, c] = 0
        if z in PUBLIC_V:
            r["vknown"][: self.n, c] = 2
        elif z == HAND:
            r["vknown"][s, c] = 2
        return c

    def empty_v(self, s, z, to=VDECK):
        for c in self.vzone(s, z):
            self.put_v(s, None, to, c=c)

    # ---- Fate cards
    def fids(self, s, name, zone=None):
        t = ftype_named(self.vil(s), name)
        ids = [s * NF_CAP + k for k in range(NF_CAP) if FT[self.r["villain"][s], k] == t]
        if zone is not None:
            ids = [c for c in ids if c in self.fzone_abs(s * FZ + zone)]
        return ids

    def fzone_abs(self, z):
        return [int(c) for c in self.r["fz"][z, : self.r["fz_n"][z]]]

    def fzone(self, s, z):
        return self.fzone_abs(s * FZ + z)

    def fnames(self, s, z):
        return sorted(FNAME[FT[self.r["villain"][s], c % NF_CAP]] for c in self.fzone(s, z))

    def put_f(self, s, name, z, attach_to=-1, c=None, top=True):
        """Move a Fate card ``name`` of seat ``s`` to zone ``z`` (top, or bottom)."""
        r = self.r
        if c is None:
            src = [c for c in self.fids(s, name) if c in self.fzone(s, FDECK)]
            pool = src or [c for c in self.fids(s, name) if c not in self.fzone(s, z)]
            c = pool[0]
        _remove(r["fz"], r["fz_n"], c)
        zz = s * FZ + z
        row = self.fzone_abs(zz)
        row = row + [c] if top else [c] + row
        r["fz"][zz, : len(row)] = row
        r["fz_n"][zz] = len(row)
        r["fknown"][:, c] = 0
        if z in PUBLIC_F:
            r["fknown"][: self.n, c] = 2
        r["attach"][c] = attach_to
        return c

    def hero(self, s, name, loc):
        return self.put_f(s, name, HERO0 + loc)

    def item_on(self, s, name, hero_id, loc):
        return self.put_f(s, name, HERO0 + loc, attach_to=hero_id)

    def pile(self, s, k):
        return self.fzone(s, PILE0 + k)

    def at(self, s, loc, mover_phase=True):
        """Seat ``s``'s turn, mover at ``loc``, choosing actions."""
        r = self.r
        r["turn_player"] = s
        r["current_player"] = s
        r["mover"][s] = loc
        r["used"][:] = 0
        if mover_phase:
            r["phase"] = PH_ACT
        check_record(r)
        return self
