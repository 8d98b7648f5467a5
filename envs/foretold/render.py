"""Foretold text and SVG views (a seat sees only what it may know; None: everything)."""

from __future__ import annotations

from pathlib import Path

from fatezoo.envs.core.docs import csv_cards
from fatezoo.envs.core.raster import text_block

from .cards import (
    C_FATE,
    C_NAMES,
    EFFECTS,
    F_A,
    F_EFFECT,
    F_NAMES,
    F_SYMBOL,
    F_WHEN,
    NC,
    NF,
    NR,
    R_NAMES,
    R_SYMBOL,
    T_DOORS,
    T_NAMES,
    T_STATIONS,
    WHEN,
)
from .rules import rotate
from .state import CELLS, DECK, SPOTS, Phase

HOW_TO_WIN = ("Be the last player standing (Smite the others' Hearts down to 0 Life), or "
              "start your turn holding the four Fate Relics (Crown, Shield, Shrine, Sword) "
              "of one Fate.")
LEGEND = ("One line per seat: L Life, G gold, T Temple, P Raiding Party, D Discard Pile, R "
          "Relics, H Fate hand (counts only for opponents, whose face-down Faithful show as one "
          "'down' list). Cards are short codes: the first word's first 4 letters then "
          "initials (HighP = High Priest, ShieoC = Shield of Chaos), a count after it. Tiles are "
          "cell:code side rotation, cell = 4 * row + col (row 0 north), ?? an unflipped deck "
          "Tile you have not seen. An opponent's hand shows how many cards it holds from each "
          "Fate Deck (Chaos/Grace/Prosperity/Wisdom). Fatesworn: * marks a card with the "
          "Fatesworn symbol; a last line lists the Decrees in force. The Faithful Row and "
          "the Relic Row list each spot as <spot>:<cards> joined by /, covered cards first "
          "and the top card last (the spot actions name: 'Faithful Row spot 3'); decks: cards left "
          "in the Faithful, Relic, Tile and the four Fate Decks, and in the Fate discard. "
          "Pending things: reveal F/R the Faithful or Relic just revealed, return R a Fate "
          "Relic going back on a change of Fate (and the Relic then taken), tile the Tile "
          "being placed, cell a chosen cell, raid s<attacker>>s<defender> at <cell>, fight "
          "<attackers> v <defenders>, dice <attacker's><defender's> = Combat Roll totals. "
          "The picture numbers the cells in each Temple's corner. Type card NAME for a "
          "card's or Tile's cost and text.")


def _short(name: str) -> str:
    """A short code: the first word's first 4 letters, then initials (ShieoC, HighP)."""
    words = name.replace("-", " ").split()
    return words[0][:4] + "".join(w[0] for w in words[1:])


def _codes(names) -> tuple:
    """Short codes, a type number appended where two names share one."""
    codes = [_short(x) for x in names]
    return tuple(c if codes.count(c) == 1 else f"{c}{t}" for t, c in enumerate(codes))


def _star(codes, symbol) -> tuple:
    """The Fatesworn symbol (R89) marked with a star."""
    return tuple(c + "*" if symbol[t] else c for t, c in enumerate(codes))


F_SHORT = _star(_codes(F_NAMES), F_SYMBOL)
R_SHORT = _star(_codes(R_NAMES), R_SYMBOL)
C_SHORT = _star(_codes(C_NAMES), C_FATE == 4)
T_SHORT = _codes(T_NAMES)
_DECREE_WHAT = {"DECREE_TILE_COST": "Tile price", "DECREE_FATE_PRICE": "Fate card price",
                "DECREE_SMITE": "Smite", "DECREE_HEAL": "Heal each turn",
                "DECREE_GOLD": "gold each turn"}


def hand_by_deck(rec, p) -> list:
    """Seat ``p``'s Fate cards per Fate Deck drawn from (public: R87, section 14)."""
    out = [0, 0, 0, 0]
    for k in range(NC):
        if 0 <= C_FATE[k] < 4:
            out[int(C_FATE[k])] += int(rec["c_hand"][p, k])
    for f in range(4):
        out[f] += bin(int(rec["c_sym"][p, f])).count("1")
    return out


def decrees(rec) -> str:
    """R88: the Decrees on top of the Faithful piles, each with what it changes."""
    parts = []
    for k in range(SPOTS):
        m = int(rec["f_row_n"][k])
        if m > 0:
            t = int(rec["f_row"][k, m - 1])
            if F_WHEN[t] == WHEN.index("decree"):
                parts.append(f"{F_NAMES[t]} ({_DECREE_WHAT[EFFECTS[F_EFFECT[t]]]} "
                             f"{int(F_A[t]):+d})")
    return ", ".join(parts) if parts else "none"


def _counts(names, row) -> str:
    parts = [names[t] + (str(int(k)) if k > 1 else "") for t, k in enumerate(row) if k > 0]
    return ",".join(parts) if parts else "-"


def _tile(rec, p, c, seat) -> str:
    t = int(rec["grid"][p, c])
    s = int(rec["side"][p, c])
    seen = seat is None or seat == p or t < 5 or s == 1
    name = T_SHORT[t] if seen else "??"
    return f"{c}:{name}{'AB'[s]}{int(rec['rot'][p, c])}"


def _row(codes, row, row_n) -> str:
    """A market row as ``<spot>:<top>/<covered>...`` (``-`` for an empty spot)."""
    return " ".join(f"{k}:" + ("/".join(codes[int(x)] for x in row[k, : row_n[k]]) or "-")
                    for k in range(SPOTS))


def render_ansi(rec, seat=None) -> str:
    """The table as compact text, for ``seat`` (None: every card shown); legend in LEGEND."""
    n = int(rec["num_players"])
    tp = int(rec["turn_player"])
    ph = int(rec["phase"])
    who = "all" if seat is None else f"seat {seat}"
    phase = Phase(ph).name.lower() if 0 <= ph < len(Phase) else str(ph)
    if rec["terminated"] or rec["truncated"]:
        w = int(rec["winner"])
        status = "game over: " + (f"seat {w} wins" if w >= 0 else "no winner")
    else:
        status = f"seat {int(rec['current_player'])} decides"
    lines = [f"foretold ({who}) turn {int(rec['turn'])} seat {tp} {phase}; {status}"]
    for p in range(n):
        head = f"s{p} {'L' + str(int(rec['life'][p])) if rec['alive'][p] else 'out'} " \
               f"G{int(rec['gold'][p])}"
        if seat is None or seat == p:
            groups = (f"T:{_counts(F_SHORT, rec['f_temple'][p])} "
                      f"P:{_counts(F_SHORT, rec['f_party'][p])}")
            if rec["f_pool"][p].any():
                groups += f" pool:{_counts(F_SHORT, rec['f_pool'][p])}"
            hand = f"H:{_counts(C_SHORT, rec['c_hand'][p])}"
        else:
            owned = rec["f_temple"][p] + rec["f_party"][p] + rec["f_pool"][p]
            groups = (f"T{int(rec['f_temple'][p].sum())} P{int(rec['f_party'][p].sum())}"
                      + (f" pool{int(rec['f_pool'][p].sum())}" if rec["f_pool"][p].any() else "")
                      + f" down:{_counts(F_SHORT, owned)}")
            hand = f"H{int(rec['c_hand'][p].sum())}=" + "/".join(
                str(x) for x in hand_by_deck(rec, p))
        tiles = " ".join(_tile(rec, p, c, seat) for c in range(CELLS) if rec["grid"][p, c] >= 0)
        lines.append(f"{head} {groups} D:{_counts(F_SHORT, rec['f_discard'][p])} "
                     f"R:{_counts(R_SHORT, rec['r_owned'][p])} {hand} | {tiles}")
    frow = _row(F_SHORT, rec["f_row"], rec["f_row_n"])
    rrow = _row(R_SHORT, rec["r_row"], rec["r_row_n"])
    lines.append(f"Faithful Row spots {frow}; Relic Row spots {rrow}")
    lines.append(f"decks: Faithful {int(rec['f_deck_n'][DECK])}, Relic "
                 f"{int(rec['r_deck_n'][DECK])}, Tile {int(rec['t_deck_n'][DECK])}, "
                 "Fate (chaos/grace/prosperity/wisdom) "
                 f"{'/'.join(str(int(x)) for x in rec['c_deck_n'])}, Fate discard "
                 f"{int(rec['c_discard'][:NC].sum())}")
    extra = []
    if rec["f_held"] >= 0:
        extra.append(f"reveal F {F_SHORT[int(rec['f_held'])]}")
    if rec["r_take"] >= 0:  # R20: a change of Fate waiting on its returns
        k = int(rec["r_from"])
        where = "deck" if k >= SPOTS else f"spot {k}"
        extra.append(f"return R {R_SHORT[int(rec['r_held'])]} (s{int(rec['actor'])} takes "
                     f"{R_SHORT[int(rec['r_take'])]} from {where})")
    elif rec["r_held"] >= 0:
        extra.append(f"reveal R {R_SHORT[int(rec['r_held'])]}")
    if rec["t_held"] >= 0:
        t = int(rec["t_held"])
        extra.append(f"tile {T_SHORT[t] if seat is None or seat == tp else '??'}")
    if rec["sel_cell"] >= 0:
        extra.append(f"cell {int(rec['sel_cell'])}")
    q = int(rec["defender"])
    if q >= 0:
        won = [c for c in range(CELLS) if rec["conquered"][c]]
        extra.append(f"raid s{tp}>s{q} at {int(rec['marker'])} moves {int(rec['moves'])} "
                     f"won {won}")
        if rec["f_fight"].any() or rec["f_defeated"].any():
            extra.append(f"fight {_counts(F_SHORT, rec['f_fight'][0])} v "
                         f"{_counts(F_SHORT, rec['f_fight'][1])} defeated "
                         f"{_counts(F_SHORT, rec['f_defeated'][:NF])}")
    if rec["fin"] > 0 or rec["bonus"].any():
        extra.append(f"round {int(rec['fin'])} bonus {int(rec['bonus'][0])}:"
                     f"{int(rec['bonus'][1])}")
    if rec["dice_n"].any():
        extra.append(f"dice {rec['dice'][0, : rec['dice_n'][0]].tolist()}"
                     f"{rec['dice'][1, : rec['dice_n'][1]].tolist()} = "
                     f"{int(rec['totals'][0])}:{int(rec['totals'][1])}")
    if rec["smite_roll"]:
        extra.append(f"smite die {int(rec['smite_roll'])}")
    if extra:
        lines.append("; ".join(extra))
    if rec["fatesworn"]:
        lines.append(f"fatesworn: decrees {decrees(rec)}")
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
            parts.append(f'<text x="{x + 3}" y="{y + cell - 4}" font-size="8" fill="#555555" '
                         f'text-anchor="start">{c}</text>')
            if t < 0:
                continue
            s = int(rec["side"][p, c])
            seen = seat is None or seat == p or t < 5 or s == 1
            label = T_NAMES[t] if seen else "??"
            parts.append(text_block([label], x + 2, y + 12, cell - 4, 20, size=9,
                                    anchor="middle"))
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
    # a fixed height (a video's frames keep one shape): the seats, the header, the rows and
    # the optional line of pending things, each line 14 px at 11 px, plus one spare line;
    # longer text wraps and shrinks to fit
    fixed = int(rec["num_players"]) + 5 + int(rec["fatesworn"] != 0)
    top = 40 + 4 * cell + 18
    parts.append(text_block(render_ansi(rec, seat).splitlines(), 20, top, width - 40,
                            14 * fixed, size=11, leading=14 / 11))
    height = top + 14 * fixed + 10
    return (f'<svg width="{width}" height="{height}" xmlns="http://www.w3.org/2000/svg">'
            + "".join(parts) + "</svg>")


__all__ = ["render_ansi", "render_svg", "HOW_TO_WIN", "LEGEND", "NR"]


DATA = Path(__file__).parent / "data"


def cards() -> dict:
    """Card name -> its cost and text (the ``card NAME`` prompt and the doc page)."""
    return csv_cards(DATA, {
        "faithful": lambda r: f"Faithful ({r['fate']}), cost {r['cost']}: {r['text']}",
        "relics": lambda r: f"Relic ({r['kind']}), cost {r['cost']}: {r['text']}",
        "fate_cards": lambda r: f"Fate card ({r['fate']}), Relic cost {r['relic_cost']}: "
                                f"{r['text']}",
        "tiles": lambda r: f"Temple tile ({r['kind']}), flip cost {r['flip_cost']}: "
                           f"{r['text']}"})
