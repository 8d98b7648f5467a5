"""Foretold text and SVG views (a seat sees only what it may know; None: everything)."""

from __future__ import annotations

from html import escape

from .cards import C_NAMES, F_NAMES, NC, NF, NR, R_NAMES, T_DOORS, T_NAMES, T_STATIONS
from .rules import rotate
from .state import CELLS, SPOTS, Phase

HOW_TO_WIN = ("Be the last player standing (Smite the others' Hearts down to 0 Life), or "
              "start your turn holding the four Fate Relics (Crown, Shield, Shrine, Sword) "
              "of one Fate.")
LEGEND = ("Temples are 4x4 grids (row 0 north): each Tile shows its name, side (A/B) and "
          "rotation; '??' is an unflipped deck Tile whose B-side you have not seen. Faithful "
          "and Relics are listed by type with counts (name x count).")


def _counts(names, row) -> str:
    parts = [f"{names[t]} x{int(k)}" for t, k in enumerate(row) if k > 0]
    return ", ".join(parts) if parts else "-"


def _tile(rec, p, c, seat) -> str:
    t = int(rec["grid"][p, c])
    if t < 0:
        return "."
    s = int(rec["side"][p, c])
    seen = seat is None or seat == p or t < 5 or s == 1
    name = T_NAMES[t] if seen else "??"
    return f"{name}/{'AB'[s]}{int(rec['rot'][p, c])}"


def render_ansi(rec, seat=None) -> str:
    """The table as text, for ``seat`` (None: every card shown)."""
    n = int(rec["num_players"])
    tp = int(rec["turn_player"])
    ph = int(rec["phase"])
    who = "all cards" if seat is None else f"seen by seat {seat}"
    phase = Phase(ph).name.lower() if 0 <= ph < len(Phase) else str(ph)
    lines = [f"foretold ({who}) turn {int(rec['turn'])}, seat {tp}'s turn, phase {phase}"]
    for p in range(n):
        hand = int(rec["c_hand"][p].sum())
        lines.append(f"seat {p}: {'alive' if rec['alive'][p] else 'out'} life "
                     f"{int(rec['life'][p])} gold {int(rec['gold'][p])} temple "
                     f"{int(rec['f_temple'][p].sum())} party {int(rec['f_party'][p].sum())} "
                     f"pool {int(rec['f_pool'][p].sum())} fate cards {hand}")
        if seat is None or seat == p:
            lines.append(f"  temple: {_counts(F_NAMES, rec['f_temple'][p])}")
            lines.append(f"  party: {_counts(F_NAMES, rec['f_party'][p])}")
            if rec["f_pool"][p].any():
                lines.append(f"  pool: {_counts(F_NAMES, rec['f_pool'][p])}")
            lines.append(f"  hand: {_counts(C_NAMES, rec['c_hand'][p])}")
        else:
            owned = rec["f_temple"][p] + rec["f_party"][p] + rec["f_pool"][p]
            lines.append(f"  face down: {_counts(F_NAMES, owned)}")
        lines.append(f"  discard: {_counts(F_NAMES, rec['f_discard'][p])}")
        lines.append(f"  relics: {_counts(R_NAMES, rec['r_owned'][p])}")
        for r in range(4):
            cells = [_tile(rec, p, 4 * r + k, seat) for k in range(4)]
            lines.append("  | " + " | ".join(f"{x:<18}" for x in cells))
    frow = ["/".join(F_NAMES[int(x)] for x in rec["f_row"][k, : rec["f_row_n"][k]]) or "-"
            for k in range(SPOTS)]
    rrow = ["/".join(R_NAMES[int(x)] for x in rec["r_row"][k, : rec["r_row_n"][k]]) or "-"
            for k in range(SPOTS)]
    lines.append("faithful row: " + " | ".join(frow))
    lines.append("relic row: " + " | ".join(rrow))
    lines.append(f"decks: faithful {int(rec['f_deck_n'])} relic {int(rec['r_deck_n'])} tile "
                 f"{int(rec['t_deck_n'])} fate {rec['c_deck_n'].tolist()}; fate discard "
                 f"{int(rec['c_discard'][:NC].sum())}")
    if rec["f_held"] >= 0:
        lines.append(f"revealed Faithful to place: {F_NAMES[int(rec['f_held'])]}")
    if rec["r_held"] >= 0:
        lines.append(f"revealed Relic to place: {R_NAMES[int(rec['r_held'])]}")
    if rec["t_held"] >= 0:
        t = int(rec["t_held"])
        name = T_NAMES[t] if seat is None or seat == tp else "??"
        lines.append(f"bought Tile to place: {name}")
    q = int(rec["defender"])
    if q >= 0:
        lines.append(f"raid: seat {tp} raids seat {q}, marker at cell {int(rec['marker'])}, "
                     f"moves {int(rec['moves'])}, conquered "
                     f"{[c for c in range(CELLS) if rec['conquered'][c]]}")
        if rec["f_fight"].any() or rec["f_defeated"].any():
            lines.append(f"  dispatched: {_counts(F_NAMES, rec['f_fight'][0])}; defending: "
                         f"{_counts(F_NAMES, rec['f_fight'][1])}; defeated: "
                         f"{_counts(F_NAMES, rec['f_defeated'][:NF])}")
    if rec["dice_n"].any():
        lines.append(f"last dice: raid {rec['dice'][0, : rec['dice_n'][0]].tolist()} defense "
                     f"{rec['dice'][1, : rec['dice_n'][1]].tolist()} totals "
                     f"{rec['totals'].tolist()}")
    if rec["smite_roll"]:
        lines.append(f"last Smiting Die: {int(rec['smite_roll'])}")
    if rec["terminated"] or rec["truncated"]:
        w = int(rec["winner"])
        lines.append(f"game over: {'seat ' + str(w) + ' wins' if w >= 0 else 'no winner'}")
    else:
        lines.append(f"seat {int(rec['current_player'])} decides")
    return "\n".join(lines)


_SEAT_COLOURS = ("#c0392b", "#2471a3", "#239b56", "#b7950b")


def render_svg(rec, seat=None) -> str:
    """Each Temple as a 4x4 grid (doorways as lines, Stations as dots), the rows as text."""
    n = int(rec["num_players"])
    cell = 44
    width = max(4, n) * (4 * cell + 30) + 20
    parts = []
    for p in range(n):
        x0 = 20 + p * (4 * cell + 30)
        y0 = 40
        colour = _SEAT_COLOURS[p]
        parts.append(f'<text x="{x0}" y="24" font-size="13" fill="{colour}" '
                     f'text-anchor="start">seat {p}: life {int(rec["life"][p])} gold '
                     f'{int(rec["gold"][p])}</text>')
        for c in range(CELLS):
            x, y = x0 + (c % 4) * cell, y0 + (c // 4) * cell
            t = int(rec["grid"][p, c])
            fill = "#f4f4f4" if t < 0 else ("#e8d8b0" if rec["side"][p, c] == 0 else "#d6b86a")
            if int(rec["defender"]) == p and rec["conquered"][c]:
                fill = "#e6a0a0"
            parts.append(f'<rect x="{x}" y="{y}" width="{cell}" height="{cell}" fill="{fill}" '
                         f'stroke="#888888" stroke-width="1"/>')
            if t < 0:
                continue
            s = int(rec["side"][p, c])
            seen = seat is None or seat == p or t < 5 or s == 1
            label = T_NAMES[t][:6] if seen else "??"
            parts.append(f'<text x="{x + cell // 2}" y="{y + cell // 2 + 4}" font-size="9" '
                         f'fill="#000000" text-anchor="middle">{escape(label)}</text>')
            doors = rotate(int(T_DOORS[t, s]), int(rec["rot"][p, c]))
            mx, my = x + cell // 2, y + cell // 2
            ends = ((mx, y), (x + cell, my), (mx, y + cell), (x, my))
            for d in range(4):
                if (doors >> d) & 1:
                    ex, ey = ends[d]
                    parts.append(f'<line x1="{(mx + ex) // 2}" y1="{(my + ey) // 2}" '
                                 f'x2="{ex}" y2="{ey}" stroke="{colour}" stroke-width="3"/>')
            for k in range(int(T_STATIONS[t, s])):
                parts.append(f'<circle cx="{x + 7 + 9 * k}" cy="{y + 8}" r="3" '
                             f'fill="#333333" stroke="#000000"/>')
            if int(rec["defender"]) == p and int(rec["marker"]) == c:
                parts.append(f'<circle cx="{x + cell - 8}" cy="{y + cell - 8}" r="5" '
                             f'fill="#ff0000" stroke="#000000"/>')
    text = render_ansi(rec, seat).splitlines()
    y = 40 + 4 * cell + 30
    for line in text:
        parts.append(f'<text x="20" y="{y}" font-size="11" fill="#000000" '
                     f'text-anchor="start">{escape(line)}</text>')
        y += 14
    height = y + 10
    return (f'<svg width="{width}" height="{height}" xmlns="http://www.w3.org/2000/svg">'
            + "".join(parts) + "</svg>")


__all__ = ["render_ansi", "render_svg", "HOW_TO_WIN", "LEGEND", "NR"]
