"""Villainous text and SVG views (a viewer sees only the cards they know)."""

from __future__ import annotations

from html import escape
from pathlib import Path

from fatezoo.envs.core.docs import csv_cards
from fatezoo.envs.core.knowledge import KNOWN

from .state import (
    ENTRY_NAMES,
    F_KIND,
    F_LOCAL,
    F_STR,
    FDECK,
    FDISC,
    FNAME,
    FT,
    FZ,
    HAND,
    HERO0,
    K_HERO,
    LOC0,
    LOC_NAME,
    LOC_SYM,
    NF_CAP,
    NV,
    PHASE_NAMES,
    PILE0,
    REVEAL,
    SUCC,
    SYMBOLS,
    V_LOCAL,
    VDECK,
    VDISC,
    VILLAIN_NAMES,
    VNAME,
    VT,
    VZ,
)

SHORT = {"POWER1": "P1", "POWER2": "P2", "POWER3": "P3", "PLAY": "Play", "ACTIVATE": "Act",
         "FATE": "Fate", "MOVE_ITEM_ALLY": "MvA", "MOVE_HERO": "MvH", "VANQUISH": "Vnq",
         "DISCARD": "Disc"}


LEGEND = """Each Realm (seat s and its villain): Power, hand, deck and discard sizes, then its
four locations, one line each: <location id> (* the villain's mover is there) name
[slot 0 slot 1 | slot 2 slot 3] (the symbols, top row | bottom row), pile N (Yzma's
pile there), heroes: Fate cards above it (Heroes with their Strength, +Items), below:
the villain's Allies and Items there. Actions name "location k", "slot k" (the symbol
at that position), "villain card k" and "Fate card k" (the number before a card's name,
e.g. 3:Superiority; copies share it) and "Fate target seat +k" (the k-th seat after
yours).
symbols: P1 P2 P3 gain 1, 2 or 3 Power; Play play a card; Act activate an Ally or Item;
Fate Fate action (reveal two cards of an opponent's Fate deck, play one in their Realm);
MvA move an Item or Ally; MvH move a Hero; Vnq vanquish a Hero (Allies there fight it);
Disc discard cards. (locked): a location not open yet. Type card NAME for a card's text."""

# what the player is choosing, for the entry kinds that are not a card's own ability
ENTRY_TEXT = {"PLAY": "a card to play (villain card k), then its location",
              "ACTIVATE": "an Ally or Item to activate", "MOVE_ITEM_ALLY":
              "an Item or Ally to move, then where", "MOVE_HERO": "a Hero to move, then where",
              "VANQUISH": "a Hero to vanquish, then the Allies that fight",
              "DISCARD": "cards to discard (pass ends)",
              "FATE_HERO": "the location of the Hero played by Fate",
              "FATE_ITEM": "the Hero who takes the Item played by Fate"}


def entry_text(kind: int) -> str:
    """What a pending entry of ``kind`` asks, in words (a card ability: its effect)."""
    if not 0 <= kind < len(ENTRY_NAMES):
        return str(kind)
    name = ENTRY_NAMES[kind]
    return ENTRY_TEXT.get(name, f"the targets of an ability ({name.lower().replace('_', ' ')})")


def _v(rec, c):
    t = VT[rec["villain"][c // NV], c % NV]
    return f"{int(V_LOCAL[t])}:{VNAME[t]}"


def _f(rec, c):
    t = FT[rec["villain"][c // NF_CAP], c % NF_CAP]
    return f"{int(F_LOCAL[t])}:{FNAME[t]}"


def _vz(rec, s, z):
    return [int(c) for c in rec["vz"][s * VZ + z, : rec["vz_n"][s * VZ + z]]]


def _fz(rec, z):
    return [int(c) for c in rec["fz"][z, : rec["fz_n"][z]]]


def _realm_lines(rec, s, seat):
    from .rules import hero_str

    v = int(rec["villain"][s])
    lines = [f"seat {s} {VILLAIN_NAMES[v]}: Power {int(rec['power'][s])}, hand "
             f"{int(rec['vz_n'][s * VZ + HAND])}, deck {int(rec['vz_n'][s * VZ + VDECK])}, "
             f"discard {int(rec['vz_n'][s * VZ + VDISC])}, Fate deck "
             f"{int(rec['fz_n'][s * FZ + FDECK])}, Fate discard "
             f"{int(rec['fz_n'][s * FZ + FDISC])}"
             + (" [Fate token]" if rec["token"] == s else "")
             + (" [flipped: defeat Basil]" if rec["flip"][s] else "")]
    hand = _vz(rec, s, HAND)
    shown = [_v(rec, c) for c in hand if seat is None or rec["vknown"][seat, c] == KNOWN]
    if shown:
        lines.append(f"  hand: {', '.join(shown)}" + (
            f" (+{len(hand) - len(shown)} unseen)" if len(shown) < len(hand) else ""))
    for loc in range(4):
        syms = [SHORT[SYMBOLS[LOC_SYM[v, loc, k]]] for k in range(4)]
        mark = "*" if rec["mover"][s] == loc else " "
        lock = " (locked)" if rec["locked"][s, loc] else ""
        heroes = []
        for c in _fz(rec, s * FZ + HERO0 + loc):
            t = FT[v, c % NF_CAP]
            if F_KIND[t] == K_HERO:
                heroes.append(f"{int(F_LOCAL[t])}:{FNAME[t]} {hero_str(rec, s, c, loc)}")
            else:
                heroes.append(f"+{int(F_LOCAL[t])}:{FNAME[t]}")
        below = [_v(rec, c) for c in _vz(rec, s, LOC0 + loc)]
        pile = int(rec["fz_n"][s * FZ + PILE0 + loc])
        lines.append(f" {loc}{mark}{LOC_NAME[v][loc]}{lock} [{syms[0]} {syms[1]} | {syms[2]} "
                     f"{syms[3]}]" + (f" pile {pile}" if pile else "")
                     + (f" heroes: {', '.join(heroes)}" if heroes else "")
                     + (f" below: {', '.join(below)}" if below else ""))
    succ = [_f(rec, c) for c in _fz(rec, s * FZ + SUCC)]
    if succ:
        total = sum(F_STR[FT[v, c % NF_CAP]] for c in _fz(rec, s * FZ + SUCC))
        lines.append(f"  succession ({total}): {', '.join(succ)}")
    return lines


def render_ansi(rec, seat=None) -> str:
    """The table as text, for ``seat`` (None: every card shown)."""
    n = int(rec["num_players"])
    who = "all cards" if seat is None else f"seen by seat {seat}"
    ph = int(rec["phase"])
    lines = [f"villainous ({who}) turn {int(rec['turn'])}, seat {int(rec['turn_player'])}'s "
             f"turn, phase {PHASE_NAMES[ph] if 0 <= ph < len(PHASE_NAMES) else ph}"]
    for s in range(n):
        lines += _realm_lines(rec, s, seat)
    rev = [_f(rec, c) for c in _fz(rec, REVEAL)]
    if rev:
        lines.append(f"revealed: {', '.join(rev)}")
    if rec["ent_n"] > 0:
        k = int(rec["ent"][rec["ent_n"] - 1][0])
        lines.append(f"choosing: {entry_text(k)}")
    if rec["terminated"]:
        lines.append(f"game over: seat {int(rec['winner'])} wins")
    elif rec["truncated"]:
        lines.append("game over: truncated")
    else:
        lines.append(f"seat {int(rec['current_player'])} decides")
    return "\n".join(lines)


def render_svg(rec, seat=None) -> str:
    """Each Realm as four location boxes (Heroes above, villain cards below), in SVG."""
    n = int(rec["num_players"])
    w, h_realm = 880, 150
    height = 40 + n * h_realm
    out = [f'<svg width="{w}" height="{height}" xmlns="http://www.w3.org/2000/svg">',
           f'<rect x="0" y="0" width="{w}" height="{height}" fill="#f8f4ec" stroke="#333333" '
           f'stroke-width="1"/>']
    head = render_ansi(rec, seat).splitlines()[0]
    out.append(f'<text x="10" y="24" font-size="14" fill="#222222" text-anchor="start">'
               f'{escape(head)}</text>')
    from .rules import hero_str

    for s in range(n):
        v = int(rec["villain"][s])
        y = 40 + s * h_realm
        out.append(f'<text x="10" y="{y + 16}" font-size="13" fill="#5a1a5a" '
                   f'text-anchor="start">{escape(_realm_lines(rec, s, seat)[0])}</text>')
        for loc in range(4):
            x = 10 + loc * 215
            fill = "#cccccc" if rec["locked"][s, loc] else (
                "#e8d8f0" if rec["mover"][s] == loc else "#ffffff")
            out.append(f'<rect x="{x}" y="{y + 24}" width="205" height="{h_realm - 30}" '
                       f'fill="{fill}" stroke="#333333" stroke-width="1"/>')
            out.append(f'<text x="{x + 4}" y="{y + 38}" font-size="11" fill="#000000" '
                       f'text-anchor="start">{escape(f"{loc} {LOC_NAME[v][loc]}")}</text>')
            syms = [f"{k}:{SHORT[SYMBOLS[LOC_SYM[v, loc, k]]]}" for k in range(4)]
            sym_text = escape(" ".join(syms[:2]) + " | " + " ".join(syms[2:]))
            out.append(f'<text x="{x + 4}" y="{y + 52}" font-size="10" fill="#555555" '
                       f'text-anchor="start">{sym_text}</text>')
            if rec["mover"][s] == loc:
                out.append(f'<circle cx="{x + 192}" cy="{y + 36}" r="6" fill="#7a2a7a" '
                           f'stroke="#000000"/>')
            row = 0
            for c in _fz(rec, s * FZ + HERO0 + loc):
                t = FT[v, c % NF_CAP]
                label = (f"{int(F_LOCAL[t])}:{FNAME[t]} ({hero_str(rec, s, c, loc)})"
                         if F_KIND[t] == K_HERO else f"+ {int(F_LOCAL[t])}:{FNAME[t]}")
                out.append(f'<text x="{x + 4}" y="{y + 66 + 11 * row}" font-size="10" '
                           f'fill="#a01010" text-anchor="start">{escape(label)}</text>')
                row += 1
            for c in _vz(rec, s, LOC0 + loc):
                out.append(f'<text x="{x + 4}" y="{y + 66 + 11 * row}" font-size="10" '
                           f'fill="#103080" text-anchor="start">{escape(_v(rec, c))}</text>')
                row += 1
    out.append("</svg>")
    return "".join(out)


def golden_summary(rec) -> str:
    """Closing line of a golden transcript: winner, Power and Succession totals."""
    n = int(rec["num_players"])
    power = " ".join(str(int(rec["power"][s])) for s in range(n))
    return f"winner {int(rec['winner'])}; power {power}"


DATA = Path(__file__).parent / "data"


def cards() -> dict:
    """Card name -> its villain, cost and text (the ``card NAME`` prompt and the doc page)."""
    def card(r):
        kind = r["kind"].capitalize()
        strength = f", Strength {r['strength']}" if r["strength"] not in ("", "0") else ""
        return f"{r['villain'].capitalize()} {kind}, cost {r['cost']}{strength}: {r['text']}"
    def fate(r):
        strength = f", Strength {r['strength']}" if r["strength"] not in ("", "0") else ""
        return (f"Fate card against {r['villain'].capitalize()} ({r['kind'].capitalize()}"
                f"{strength}): {r['text']}")
    return csv_cards(DATA, {"villains": lambda r: f"Villain: {r['text']}",
                            "villain_cards": card, "fate_cards": fate})
