"""Villainous's record checks: its ranges declared once, the relations by hand.

``RANGES`` says what each field may hold (``envs/core/checks.py`` checks them and names
the field); the functions below check what ranges cannot say: the options against the
villains, every card in exactly one zone of its owner (R71) and the kinds each zone may
hold, attachments, knowledge (public zones known to all), the Condition events, and the
pending entries (one check of its choices per entry kind) with the phase they belong to.
"""

from __future__ import annotations

import numpy as np

from fatezoo.envs.core.checks import SEATS, Range, check_ranges, need
from fatezoo.envs.core.knowledge import KNOWN, check_knowledge
from fatezoo.envs.core.stack import ASK, KIND, OWNER
from fatezoo.envs.core.state import SPLITS
from fatezoo.envs.core.zones import check_conservation

from . import state as S
from .rules import card_cost

VZONE_NAMES = ("deck", "discard", "hand", "loc0", "loc1", "loc2", "loc3", "limbo")
FZONE_NAMES = ("fate deck", "fate discard", "hero0", "hero1", "hero2", "hero3", "pile0", "pile1",
               "pile2", "pile3", "succession")

RANGES = {
    "num_players": Range(2, S.MAX_P + 1),
    "villains_opt": Range(-1, S.NUM_VILLAINS, per_seat=True, absent=-1),  # -1: random
    "fate_token_opt": Range(-1, 2),  # -1: by player count
    "split": Range(0, len(SPLITS)),  # held-out setups: all, train, test
    "villain": Range(0, S.NUM_VILLAINS, per_seat=True, absent=-1),
    "power": Range(0, S.MAX_POWER + 1, per_seat=True),
    "locked": Range(0, 2, per_seat=True),
    "mover": Range(0, S.NUM_LOCS, per_seat=True),
    "used": Range(0, 2),
    "turn_player": Range(0, SEATS),
    "current_player": Range(0, SEATS),
    "phase": Range(0, S.NUM_PHASES),
    "token_on": Range(0, 2),
    "token": Range(-1, SEATS),
    "flip": Range(0, 2, per_seat=True),
    "goal": Range(0, 2, per_seat=True),
    "winner": Range(-1, SEATS),
    "fate_target": Range(-1, SEATS),
    "fate_pile": Range(-1, S.NUM_LOCS),
    "ent_n": Range(0, S.DEPTH + 1),
    "vq_n": Range(0, S.VQ_CAP + 1),
    "vz_n": Range(0, S.NV + 1),
    "fz_n": Range(0, S.NF_CAP + 1),
    "attach": Range(-1, S.NUM_FCARDS),  # below the seats' ids: by hand
    "cev_n": Range(0, S.EV_CAP + 1),
}


def _valid_params():
    """(kind, a, arg) of every ability a pending entry can carry, per villain."""
    out = {v: {(k, 0, -1) for k in range(S.K_PLAY, S.NUM_ENTRY_KINDS)} for v in range(3)}
    for t in range(len(S.V_EFF)):
        out[int(S.V_VILLAIN[t])].add((int(S.V_EFF[t]), int(S.V_A[t]), int(S.V_ARG[t])))
    for t in range(len(S.F_EFF)):
        out[int(S.F_VILLAIN[t])].add((int(S.F_EFF[t]), int(S.F_A[t]), int(S.F_ARG[t])))
    return out


VALID_PARAMS = _valid_params()
HERE_KINDS = (S.E_DEFEAT_HERE_LE, S.E_DEFEAT_NAMED_HERE, S.E_DISCARD_ALLY_HERE,
              S.E_DISCARD_ITEM_HERE,
              S.E_MOVE_HERO_FROM_HERE, S.E_MOVE_ALLY_FROM_HERE)


# Held-out setups (RULES.md "Held-out setups"): the pairs of seat 0's and seat 1's villains
# that only split="test" deals. Written apart from the reset kernel that deals them
# (rules/turn.py ``first_pair``): this is the tests' oracle.
TEST_PAIRS = frozenset({("yzma", "ratigan"), ("ratigan", "yzma")})


def pair_split(first: int, second: int) -> str:
    """The split of a setup whose seats 0 and 1 hold villains ``first`` and ``second``."""
    return "test" if (S.VILLAINS[first], S.VILLAINS[second]) in TEST_PAIRS else "train"


def setup_split(rec) -> str:
    """``"train"`` or ``"test"``: the held-out split of a dealt record's setup."""
    return pair_split(int(rec["villain"][0]), int(rec["villain"][1]))


def _vzone(rec, s, z):
    return [int(c) for c in rec["vz"][s * S.VZ + z, : rec["vz_n"][s * S.VZ + z]]]


def _fzone_abs(rec, z):
    return [int(c) for c in rec["fz"][z, : rec["fz_n"][z]]]


def _fzone(rec, s, z):
    return _fzone_abs(rec, s * S.FZ + z)


def check_record(rec) -> None:
    """Raise ValueError naming the first thing wrong with a villainous record.

    Checked in order, so that no check reads an index an earlier one has not vetted: the
    declared ranges, the options and per-seat fields, every card in exactly one zone of its
    owner (R71), the kinds each zone may hold, attachments, knowledge (public zones known
    to all), the pending entries and the phase they belong to, the Condition events.
    """
    check_ranges(rec, RANGES)
    n = int(rec["num_players"])
    vopt, topt = rec["villains_opt"].astype(np.int64), int(rec["fate_token_opt"])
    vil = rec["villain"].astype(np.int64)
    need(((vopt[:n] < 0) | (vil[:n] == vopt[:n])).all(), "villain",
         f"the villains option {vopt[:n].tolist()} for each seat (-1: any)")
    split = next(name for name, code in SPLITS.items() if code == rec["split"])
    need(split in ("all", setup_split(rec)), "villain",
         f"a {split} setup at seats 0 and 1 (split={split!r}; test: Yzma and Ratigan)",
         vil[:2].tolist())
    locked = rec["locked"].astype(np.int64)
    for s in range(n):
        need((locked[s] <= S.LOC_LOCKED[vil[s]]).all(), f"locked[{s}]",
             "locked only where the villain's board starts locked")
    mover = rec["mover"].astype(np.int64)
    for s in range(n):
        need(locked[s, mover[s]] == 0, f"mover[{s}]", "on an unlocked location")
    t, cur, ph = int(rec["turn_player"]), int(rec["current_player"]), int(rec["phase"])
    token_on = int(rec["token_on"])
    want_on = 1 if (topt == 1 or (topt == -1 and n >= 5)) else 0
    need(token_on == want_on, "token_on", f"{want_on} (the fate_token option)")
    need(int(rec["token"]) == -1 or token_on, "token", "-1, or a seat when the token is used")
    flip, goal = rec["flip"], rec["goal"]
    for s in range(n):
        need(not flip[s] or vil[s] == S.RATIGAN, f"flip[{s}]", "0 unless the seat is Ratigan")
        need(not goal[s] or vil[s] == S.YZMA or (vil[s] == S.RATIGAN and flip[s]), f"goal[{s}]",
             "0 unless Yzma, or a flipped Ratigan")
    ended = bool(rec["terminated"] or rec["truncated"])
    winner = int(rec["winner"])
    if rec["terminated"]:
        need(ph == S.PH_OVER and winner >= 0, "winner", "a seat in a won game")
    else:
        need(ph != S.PH_OVER and winner == -1, "phase and winner",
             "not over, and -1, in a game not won")
    _check_cards(rec, n, vil)
    _check_knowledge(rec, n, vil)
    _check_entries(rec, n, vil, t, cur, ph, ended)
    _check_events(rec, n, t, cur, ph, ended)


def _check_events(rec, n, t, cur, ph, ended):
    """R29: the Condition events waiting for (or in) their window."""
    cev = rec["cev"].astype(np.int64)
    m = int(rec["cev_n"][0])
    need(not cev[m:].any(), "cev", "0 past cev_n")
    need(m == 0 or not ended, "cev_n", "0 in an ended game")
    need(m == 0 or ph in (S.PH_PILE, S.PH_FPICK, S.PH_ENTRY, S.PH_WINDOW), "cev_n",
         "0 outside a Fate action, a pending choice or a Condition window")
    top_ask = 0
    for i in range(m):
        kind, owner, ask, arg = cev[i, KIND], cev[i, OWNER], cev[i, ASK], cev[i, S.EV_ARG]
        where = f"cev[{i}]"
        need(kind in (S.T_OPP_VANQUISH, S.T_OPP_POWER, S.T_OPP_PLAY_ALLY, S.T_OPP_FATE_YOU),
             f"{where} trigger", "a trigger code 1-4")
        need(owner == t, f"{where} owner", "the turn player")
        need(0 <= ask < n and (ask == 0 or i == m - 1), f"{where} ask",
             f"in [0, {n}), 0 below the top event")
        ok = {S.T_OPP_VANQUISH: arg == 0, S.T_OPP_POWER: 0 < arg <= 20,
              S.T_OPP_PLAY_ALLY: 0 <= arg <= 20, S.T_OPP_FATE_YOU: 0 <= arg < n and arg != t}
        need(ok[kind], f"{where} amount", "0 (Vanquish), Power 1-20, Strength 0-20 "
             "or an opponent seat (Fate)")
        top_ask = ask
    if ph == S.PH_WINDOW and not ended:
        need(m >= 1 and top_ask >= 1 and cur == (t + top_ask) % n, "a Condition window",
             "an event with the asked seat deciding")
        need(int(rec["ent_n"]) == 0 and int(rec["fate_target"]) == -1
             and int(rec["fate_pile"]) == -1 and not _fzone_abs(rec, S.REVEAL)
             and not _fzone_abs(rec, S.FLIMBO), "a Condition window",
             "with no pending choice and no Fate action")
    if ph == S.PH_ENTRY and m and top_ask:
        need(cur != t, "a pending choice during a Condition window",
             "the Condition's owner deciding")


def _flat(cards, counts, cap):
    """(zone, card) of every card of a zone group, as two int64 arrays."""
    used = np.arange(cap)[None, :] < counts.astype(np.int64)[:, None]
    return np.nonzero(used)[0], cards[used].astype(np.int64)


def _first_bad(ok, zones, names, want):
    if not ok.all():
        z = int(zones[np.flatnonzero(~ok)[0]])
        raise ValueError(f"{names[z]} must be {want}")


def _check_cards(rec, n, vil):
    vz_n, fz_n = rec["vz_n"], rec["fz_n"]
    need(not vz_n[n * S.VZ:].any(), "villain zones of absent seats", "empty")
    need(not fz_n[n * S.FZ: S.MAX_P * S.FZ].any(), "Fate zones of absent seats", "empty")
    names = [f"seat {s} {z}" for s in range(S.MAX_P) for z in VZONE_NAMES]
    check_conservation([(rec["vz"], vz_n)], S.NV * n, names)
    fnames = [f"seat {s} {z}" for s in range(S.MAX_P) for z in FZONE_NAMES] + [
        "revealed", "fate limbo", "unused"]
    check_conservation([(rec["fz"], fz_n)], S.NF_CAP * n, fnames)
    attach = rec["attach"].astype(np.int64)
    need(((attach >= -1) & (attach < S.NF_CAP * n)).all(), "attach", "-1 or a Fate card id")
    locked = rec["locked"].astype(np.int64)
    # villain cards: each in a zone of its owner; Allies and Items below unlocked locations;
    # only Effects in limbo
    zones, cards = _flat(rec["vz"], vz_n, S.NV)
    seat, z = zones // S.VZ, zones % S.VZ
    _first_bad(cards // S.NV == seat, zones, names, "holding only its seat's villain cards")
    kinds = S.V_KIND[S.VT[vil[seat], cards % S.NV]]
    at_loc = (z >= S.LOC0) & (z < S.LOC0 + 4)
    _first_bad(~at_loc | (kinds == S.K_ALLY) | (kinds == S.K_ITEM), zones, names,
               "Allies and Items only")
    _first_bad(~at_loc | (locked[seat, np.clip(z - S.LOC0, 0, 3)] == 0), zones, names,
               "empty while locked")
    _first_bad((z != S.LIMBO) | (kinds == S.K_EFFECT) | (kinds == S.K_CONDITION), zones, names,
               "Effects and Conditions only")
    # Fate cards of the seats' zones
    zones, cards = _flat(rec["fz"][: n * S.FZ], fz_n[: n * S.FZ], S.NF_CAP)
    seat, z = zones // S.FZ, zones % S.FZ
    _first_bad((cards // S.NF_CAP == seat) & (cards % S.NF_CAP < S.NF[vil[seat]]), zones, fnames,
               "holding only its seat's Fate cards")
    types = S.FT[vil[seat], cards % S.NF_CAP]
    kinds = S.F_KIND[types]
    at_hero = (z >= S.HERO0) & (z < S.HERO0 + 4)
    _first_bad(~at_hero | (locked[seat, np.clip(z - S.HERO0, 0, 3)] == 0), zones, fnames,
               "empty while locked")
    _first_bad(at_hero | (attach[cards] == -1), zones, fnames,
               "holding no attached Item (attach -1)")
    _first_bad(~at_hero | (kinds == S.K_HERO) | (kinds == S.K_ITEM), zones, fnames,
               "Heroes and attached Items only")
    _first_bad(~at_hero | (kinds != S.K_HERO) | (attach[cards] == -1), zones, fnames,
               "Heroes with attach -1")
    items = at_hero & (kinds == S.K_ITEM)
    for c, zz in zip(cards[items], zones[items]):
        h = attach[c]
        need(h >= 0 and h in cards[zones == zz] and S.F_KIND[S.FT[vil[zz // S.FZ], h % S.NF_CAP]]
             == S.K_HERO, f"attach[{c}]", "a Hero at the Item's location")
    at_pile = (z >= S.PILE0) & (z < S.PILE0 + 4)
    _first_bad(~at_pile | (vil[seat] == S.YZMA), zones, fnames, "empty unless Yzma")
    _first_bad((z != S.FDECK) | (vil[seat] != S.YZMA), zones, fnames, "empty for Yzma")
    succ = z == S.SUCC
    _first_bad(~succ | ((vil[seat] == S.SCAR) & (kinds == S.K_HERO)), zones, fnames,
               "Scar's defeated Heroes")
    for s in range(n):
        here = types[succ & (seat == s)]
        need(not here.size or (here == S.MUFASA).any(), f"seat {s} succession",
             "holding Mufasa (he goes there first)")
    unused = _fzone_abs(rec, S.UNUSED)
    spare = [s * S.NF_CAP + k for s in range(n) for k in range(S.NF[vil[s]], S.NF_CAP)]
    need(sorted(unused) == spare, "unused Fate zone", f"the spare ids {spare}")
    for zz in (S.REVEAL, S.FLIMBO):
        need(all(attach[c] == -1 for c in _fzone_abs(rec, zz)), "attach",
             "-1 for a card not above a location")


def _check_knowledge(rec, n, vil):
    vk, fk = rec["vknown"], rec["fknown"]
    check_knowledge(vk, n)
    check_knowledge(fk, n)
    need(not vk[n:].any() and not fk[n:].any(), "knowledge of absent seats", "0")
    zones, cards = _flat(rec["vz"], rec["vz_n"], S.NV)
    z = zones % S.VZ
    hand = z == S.HAND
    need((vk[zones[hand] // S.VZ, cards[hand]] == KNOWN).all(), "every hand card",
         "known to its owner")
    public = (z == S.VDISC) | (z == S.LIMBO) | ((z >= S.LOC0) & (z < S.LOC0 + 4))
    need((vk[:n][:, cards[public]] == KNOWN).all(), "every face-up villain card",
         "known to every player")
    zones, cards = _flat(rec["fz"], rec["fz_n"], S.NF_CAP)
    z = zones % S.FZ
    public = (zones >= S.REVEAL) & (zones <= S.FLIMBO)
    public |= (zones < S.MAX_P * S.FZ) & ((z == S.FDISC) | (z == S.SUCC) | ((z >= S.HERO0)
                                                                    & (z < S.HERO0 + 4)))
    need((fk[:n][:, cards[public]] == KNOWN).all(), "every face-up Fate card",
         "known to every player")


def _hero_at(rec, s, loc, c, v):
    return c in _fzone(rec, s, S.HERO0 + loc) and S.F_KIND[S.FT[v, c % S.NF_CAP]] == S.K_HERO


# steps of each kind that waits for a choice
STEPS = {S.K_PLAY: 2, S.K_ACTIVATE: 2, S.K_MOVE_IA: 3, S.K_MOVE_H: 3, S.K_VANQ: 3, S.K_DISCARD: 1,
         S.K_FHERO: 1, S.K_FITEM: 2, S.E_PLAY_ALLY_FREE: 2, S.E_MOVE_ALLY_ANY: 3,
         S.E_MOVE_HERO_ANY: 3, S.E_DEFEAT_HERO_LE: 2, S.E_DISCARD_FATE_ITEM: 2,
         S.E_MOVE_NAMED_HERO: 1, S.E_MOVE_HERO_FROM_HERE: 2, S.E_MOVE_ALLY_FROM_HERE: 2,
         S.E_DEFEAT_HERE_LE: 1, S.E_DEFEAT_NAMED_HERE: 1, S.E_DISCARD_ALLY_LE: 2,
         S.E_DISCARD_ITEM: 2, S.E_DISCARD_ALLY_HERE: 1, S.E_DISCARD_ITEM_HERE: 1,
         S.E_RETURN_ALLY: 1, S.E_FIND_HERO: 1, S.E_PLAY_FROM_FATE_DISCARD: 2}


def _check_entries(rec, n, vil, t, cur, ph, ended):
    """The pending entries: the phase they belong to, each entry, the cards they hold."""
    ent = rec["ent"].astype(np.int64)
    m = int(rec["ent_n"])
    need((ent[m:] == -1).all(), "ent", "-1 past ent_n")
    vq_n = int(rec["vq_n"])
    need((rec["vq"][vq_n:] == -1).all(), "vq_n and vq", f"in [0, {S.VQ_CAP}], -1 past vq_n")
    _check_entry_phase(rec, n, vil, t, cur, ph, ended, ent, m, vq_n)
    limbo_cards, fin_f = [], []
    for i in range(m):
        _check_entry(rec, n, vil, ent[i], f"ent[{i}]", limbo_cards, fin_f)
        if i < m - 1:
            e = ent[i]
            need(e[S.C_KIND] == S.E_MOVE_ALLY_ANY and e[S.C_STEP] == 0 and e[S.C_C0] == -1
                 and e[S.C_C1] == -1, f"ent[{i}]",
                 "a paused Move of Allies (only it waits under a trigger)")
        else:
            _check_top_entry(rec, vil, ent[i], f"ent[{i}]", vq_n)
    for s in range(n):
        need(sorted(_vzone(rec, s, S.LIMBO)) == sorted(c for c in limbo_cards if c // S.NV == s),
             f"seat {s} limbo", "the Effects the pending choices resolve")
    need(sorted(_fzone_abs(rec, S.FLIMBO)) == sorted(fin_f), "fate limbo",
         "the Fate card being played")
    need(m == 0 or ph == S.PH_ENTRY or ended, "phase", "the choice phase while choices wait")


def _check_entry_phase(rec, n, vil, t, cur, ph, ended, ent, m, vq_n):
    """What each phase allows of the entries, the Fate action and who decides."""
    ft, fp = int(rec["fate_target"]), int(rec["fate_pile"])
    reveal, flimbo = _fzone_abs(rec, S.REVEAL), _fzone_abs(rec, S.FLIMBO)
    if ended:
        need(m == 0 and not reveal and not flimbo and vq_n == 0, "an ended game",
             "with nothing pending")
        return
    want = {S.PH_MOVE: "move", S.PH_ACT: "actions", S.PH_TARGET: "target"}
    if ph in want:
        need(m == 0 and ft == -1 and fp == -1 and cur == t and not reveal
             and not flimbo and vq_n == 0, f"a {want[ph]} phase",
             "with no pending choice, no Fate action, the turn player deciding")
    if ph == S.PH_MOVE:
        need(not rec["used"].any(), "used", "0 before the move")
    if ph in (S.PH_PILE, S.PH_FPICK):
        need(m == 0 and cur == t and 0 <= ft < n and ft != t and vq_n == 0
             and not flimbo, "a Fate phase", "the turn player choosing against an opponent")
        if ph == S.PH_PILE:
            need(vil[ft] == S.YZMA and fp == -1 and not reveal, "fate_target",
                 "Yzma, with no pile chosen yet")
        elif vil[ft] == S.YZMA:
            need(0 <= fp < 4 and rec["fz_n"][ft * S.FZ + S.PILE0 + fp] > 0 and not reveal,
                 "fate_pile", "a non-empty pile of the target")
        else:
            need(fp == -1 and 1 <= len(reveal) <= 2
                 and all(c // S.NF_CAP == ft for c in reveal), "revealed cards",
                 "one or two of the target's Fate cards")
    if ph == S.PH_ENTRY:
        need(m >= 1 and not reveal, "a pending choice", "present, nothing revealed")
        need(ft == -1 or (0 <= ft < n and ft != t), "fate_target", "-1 or an opponent")
        need(fp == -1 or (0 <= ft and vil[ft] == S.YZMA and 0 <= fp < 4), "fate_pile",
             "-1 or a pile of a Yzma target")
        need(cur == ent[m - 1, S.C_WHO], "current_player", "the seat the choice asks")


def _check_entry(rec, n, vil, e, where, limbo_cards, fin_f):
    """One entry's seats, parameters, card and location (any entry of the stack)."""
    k, s, who = e[S.C_KIND], e[S.C_REALM], e[S.C_WHO]
    need(0 <= s < n and 0 <= who < n, f"{where} realm and who", f"seats in [0, {n})")
    v = vil[s]
    need((k, e[S.C_A], e[S.C_ARG]) in VALID_PARAMS[v], f"{where} kind and parameters",
         f"an ability or action of {S.VILLAINS[v]}")
    loc, card, fin = e[S.C_LOC], e[S.C_CARD], e[S.C_FIN]
    need(-1 <= card < S.NV * S.MAX_P and fin in (S.FIN_NONE, S.FIN_VCARD, S.FIN_FCARD),
         f"{where} card and fin", "a card id or -1, fin 0-2")
    need(loc == -1 or (0 <= loc < 4 and rec["locked"][s, loc] == 0), f"{where} loc",
         "-1 or an unlocked location")
    need(0 <= e[S.C_LEFT] <= max(e[S.C_A], 0), f"{where} left", "in [0, its parameter]")
    if fin == S.FIN_VCARD:
        need(card in _vzone(rec, s, S.LIMBO), f"{where} card",
             "the Effect resolving in its limbo")
        limbo_cards.append(card)
    if fin == S.FIN_FCARD:
        need(card in _fzone_abs(rec, S.FLIMBO) and card // S.NF_CAP == s, f"{where} card",
             "the Fate card being played")
        fin_f.append(card)
    if k in (S.K_FHERO, S.K_FITEM):
        want_kind = S.K_HERO if k == S.K_FHERO else S.K_ITEM
        need(S.F_KIND[S.FT[v, card % S.NF_CAP]] == want_kind and fin == S.FIN_FCARD,
             f"{where} card", "a Hero (Fate Hero) or an Item (Fate Item)")
    if k in HERE_KINDS:
        need(loc >= 0, f"{where} loc", "the location of its card")


def _check_top_entry(rec, vil, e, where, vq_n):
    """The deciding entry: its step, its choices so far (by kind), the Vanquish's Allies."""
    k, s, st = e[S.C_KIND], e[S.C_REALM], e[S.C_STEP]
    need(k in STEPS, f"{where} kind", "a kind that waits for a choice")
    need(0 <= st < STEPS[k], f"{where} step", f"in [0, {STEPS[k]})")
    need(CHOICES.get(k, _location_choices)(rec, e, s, vil[s]), f"{where} choices",
         "a reachable choice for its step")
    if k == S.K_VANQ and st == 2:
        chosen = [int(c) for c in rec["vq"][:vq_n]]
        here = _vzone(rec, s, S.LOC0 + e[S.C_C0])
        need(len(set(chosen)) == vq_n and all(
            c in here and S.V_KIND[S.VT[vil[s], c % S.NV]] == S.K_ALLY for c in chosen), "vq",
            "distinct Allies at the Vanquish location")
    else:
        need(vq_n == 0, "vq_n", "0 outside a Vanquish")


# The choices an entry holds (c0, c1) after its step, one check per shape of entry kind;
# -1 for a choice not made yet.


def _play_choices(rec, e, s, v):
    """PLAY, PLAY_ALLY_FREE: the card chosen from the hand (shown to all), then nothing."""
    c0 = e[S.C_C0]
    if e[S.C_STEP] == 0:
        return c0 == -1 and e[S.C_C1] == -1
    t = S.VT[v, c0 % S.NV]
    if e[S.C_KIND] == S.K_PLAY:
        ok = S.V_KIND[t] in (S.K_ALLY, S.K_ITEM) and card_cost(rec, s, t) <= rec["power"][s]
    else:
        ok = S.V_KIND[t] == S.K_ALLY
    ok = ok and c0 in _vzone(rec, s, S.HAND)
    n = int(rec["num_players"])
    return ok and bool((rec["vknown"][:n, c0] == KNOWN).all()) and e[S.C_C1] == -1


def _fate_discard_choices(rec, e, s, v):
    """PLAY_FROM_FATE_DISCARD: the Hero chosen from the Fate discard pile."""
    c0 = e[S.C_C0]
    if e[S.C_STEP] == 0:
        return c0 == -1 and e[S.C_C1] == -1
    return (c0 in _fzone(rec, s, S.FDISC) and S.F_KIND[S.FT[v, c0 % S.NF_CAP]] == S.K_HERO
            and e[S.C_C1] == -1)


def _here_choices(rec, e, s, v):
    """MOVE_HERO_FROM_HERE, MOVE_ALLY_FROM_HERE: the Hero or Ally at the card's location."""
    c1, loc = e[S.C_C1], e[S.C_LOC]
    if e[S.C_C0] != -1 or e[S.C_STEP] == 0:
        return e[S.C_C0] == -1 and c1 == -1
    if e[S.C_KIND] == S.E_MOVE_HERO_FROM_HERE:
        return _hero_at(rec, s, loc, c1, v)
    return c1 in _vzone(rec, s, S.LOC0 + loc) and S.V_KIND[S.VT[v, c1 % S.NV]] == S.K_ALLY


def _fate_item_choices(rec, e, s, v):
    """FATE_ITEM: the location chosen when the card names none."""
    c0 = e[S.C_C0]
    if e[S.C_STEP] == 0:
        return c0 == -1 and e[S.C_C1] == -1
    return e[S.C_LOC] == -1 and 0 <= c0 < 4 and e[S.C_C1] == -1


def _location_choices(rec, e, s, v):
    """Every other kind: an unlocked location (step 1), then a Hero there (step 2)."""
    c0, c1, st = e[S.C_C0], e[S.C_C1], e[S.C_STEP]
    if st == 0:
        return c0 == -1 and c1 == -1
    if not (0 <= c0 < 4 and rec["locked"][s, c0] == 0):
        return False
    if st == 1:
        return c1 == -1
    if e[S.C_KIND] in (S.K_MOVE_IA, S.E_MOVE_ALLY_ANY):
        return c1 in _vzone(rec, s, S.LOC0 + c0) and (
            e[S.C_KIND] == S.K_MOVE_IA or S.V_KIND[S.VT[v, c1 % S.NV]] == S.K_ALLY)
    return _hero_at(rec, s, c0, c1, v)


CHOICES = {S.K_PLAY: _play_choices, S.E_PLAY_ALLY_FREE: _play_choices,
           S.E_PLAY_FROM_FATE_DISCARD: _fate_discard_choices,
           S.E_MOVE_HERO_FROM_HERE: _here_choices, S.E_MOVE_ALLY_FROM_HERE: _here_choices,
           S.K_FITEM: _fate_item_choices}
