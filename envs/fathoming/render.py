"""Text and SVG views of one record: everything (``seat=None``) or what ``seat`` knows."""

from __future__ import annotations

from html import escape
from pathlib import Path

import numpy as np

from fatezoo.envs.core.docs import csv_cards
from fatezoo.envs.core.knowledge import KNOWN
from fatezoo.envs.core.raster import text_block

from .cards import CARD_NAMES, CLASS_NAMES, NUM_PROPS, P_ATK, P_HP
from .rules import compute_props
from .state import (
    DECK0,
    DECK_SIZE,
    DISC0,
    GLOBAL_Z,
    HAND0,
    PHASE_NAMES,
    PTER0,
    SLOT0,
    SLOTS,
)

HOW_TO_WIN = ("collect 10 Loot (destroying a Warrior gives half its Summon Cost, rounded "
              "up), or have your opponent begin a turn with an empty deck.")
LEGEND = """Each seat: Energy, Loot, hand, deck and discard sizes; its Warriors as
  [slot] Name ATK/HP dmg=D +Items; its Personal Terrain; the Global Terrain (owner).
  ??  a card you have not seen (the opponent's hand)."""

_REASONS = ("", "10 Loot", "empty deck", "instant win")


def _kind(rec, c) -> int:
    return int(rec["deck_list"][c // DECK_SIZE, c % DECK_SIZE])


def _name(rec, c) -> str:
    return CARD_NAMES[_kind(rec, c)]


def _zone(rec, z) -> list[int]:
    return [int(c) for c in rec["zone"][z, : int(rec["zone_n"][z])]]


def _props(rec):
    props = np.zeros((2, SLOTS, NUM_PROPS), np.int64)
    cls = np.zeros((2, SLOTS), np.int64)
    compute_props(rec, props, cls)
    return props, cls


def _classes(mask: int) -> str:
    return "/".join(CLASS_NAMES[b].title() for b in range(len(CLASS_NAMES)) if mask >> b & 1)


def _seat_lines(rec, s, seat, props, cls) -> list[str]:
    hand = _zone(rec, HAND0 + s)
    shown = [(_name(rec, c) if seat is None or seat == s or rec["known"][seat, c] == KNOWN
              else "??") for c in hand]
    lines = [f"player_{s}: energy {int(rec['energy'][s])}  loot {int(rec['loot'][s])}  "
             f"deck {int(rec['zone_n'][DECK0 + s])}  discard {int(rec['zone_n'][DISC0 + s])}  "
             f"turns done {int(rec['done_turns'][s])}",
             f"  hand ({len(hand)}): {', '.join(shown) if shown else '-'}"]
    for k in range(SLOTS):
        cards = _zone(rec, SLOT0 + SLOTS * s + k)
        if not cards:
            continue
        w = cards[0]
        items = "".join(f" +{_name(rec, c)}" for c in cards[1:])
        lines.append(f"  [{k}] {_name(rec, w)} ({_classes(int(cls[s, k]))}) "
                     f"{int(props[s, k, P_ATK])}/{int(props[s, k, P_HP])} "
                     f"dmg={int(rec['dmg'][w])}{items}")
    t = _zone(rec, PTER0 + s)
    if t:
        lines.append(f"  personal terrain: {_name(rec, t[0])} dmg={int(rec['dmg'][t[0]])}")
    return lines


def render_ansi(rec, seat=None) -> str:
    """Text view of ``rec``: every card if ``seat`` is None, else what ``seat`` knows."""
    props, cls = _props(rec)
    head = f"The Fathoming  turn {int(rec['turn'])}"
    if rec["terminated"]:
        head += (f"  game over: player_{int(rec['winner'])} wins "
                 f"({_REASONS[int(rec['reason'])]})")
    elif rec["truncated"]:
        head += "  truncated"
    else:
        head += (f"  player_{int(rec['turn_player'])} to act "
                 f"({PHASE_NAMES[int(rec['phase'])]})")
    lines = [head]
    for s in range(2):
        lines += _seat_lines(rec, s, seat, props, cls)
    g = _zone(rec, GLOBAL_Z)
    lines.append(f"global terrain: {_name(rec, g[0])} (player_{g[0] // DECK_SIZE}) "
                 f"dmg={int(rec['dmg'][g[0]])}" if g else "global terrain: -")
    return "\n".join(lines)


def _text(x, y, s, size=12, fill="#111111", anchor="start") -> str:
    return (f'<text x="{x}" y="{y}" font-size="{size}" fill="{fill}" '
            f'text-anchor="{anchor}">{escape(s)}</text>')


def _rect(x, y, w, h, fill, stroke="#333333") -> str:
    return (f'<rect x="{x}" y="{y}" width="{w}" height="{h}" fill="{fill}" '
            f'stroke="{stroke}" stroke-width="1"/>')


def render_svg(rec, seat=None) -> str:
    """SVG view (flat rect/text elements only) of the same information as ``render_ansi``."""
    props, cls = _props(rec)
    width, height = 760, 420
    parts = [f'<svg width="{width}" height="{height}" xmlns="http://www.w3.org/2000/svg">',
             _rect(0, 0, width, height, "#eef4f7", "#eef4f7")]
    lines = render_ansi(rec, seat).split("\n")
    parts.append(_text(10, 18, lines[0], 14))
    for s in range(2):
        y0 = 40 + s * 180
        parts.append(_rect(8, y0, width - 16, 170, "#dbe9f0" if s == 0 else "#f0e6db"))
        parts.append(_text(16, y0 + 16, _seat_lines(rec, s, seat, props, cls)[0], 12))
        for k in range(SLOTS):
            cards = _zone(rec, SLOT0 + SLOTS * s + k)
            x = 16 + k * 150
            parts.append(_rect(x, y0 + 26, 140, 80, "#ffffff" if cards else "#cccccc"))
            if cards:
                w = cards[0]
                parts.append(text_block([_name(rec, w)], x + 4, y0 + 28, 132, 18, size=11,
                                        fill="#111111"))
                parts.append(_text(x + 4, y0 + 58, f"ATK {int(props[s, k, P_ATK])}  HP "
                                   f"{int(props[s, k, P_HP])}  dmg {int(rec['dmg'][w])}", 11))
                if cards[1:]:
                    parts.append(text_block(["+" + _name(rec, c) for c in cards[1:]], x + 4,
                                            y0 + 62, 132, 43, size=10, fill="#555555"))
        t = _zone(rec, PTER0 + s)
        parts.append(_rect(620, y0 + 26, 124, 80, "#e2f0d9" if t else "#cccccc"))
        if t:
            parts.append(text_block([_name(rec, t[0])], 624, y0 + 28, 116, 18, size=11,
                                    fill="#111111"))
            parts.append(_text(624, y0 + 58, f"dmg {int(rec['dmg'][t[0]])}", 11))
        hand_line = _seat_lines(rec, s, seat, props, cls)[1]
        parts.append(text_block([hand_line], 16, y0 + 112, width - 32, 56, size=10,
                                fill="#111111"))
    g = _zone(rec, GLOBAL_Z)
    parts.append(_text(10, 412, lines[-1], 12))
    if g:
        parts.append(_rect(width - 30, 398, 20, 16, "#f5d76e"))
    parts.append("</svg>")
    return "".join(parts)


DATA = Path(__file__).parent / "data"


def cards() -> dict:
    """Card name -> its type, costs and text (the ``card NAME`` prompt and the doc page)."""
    def describe(r):
        stats = (f", Health {r['health']}, Attack {r['attack']}, Attack Cost "
                 f"{r['attack_cost']}" if r["type"] == "WARRIOR" else "")
        kind = " ".join(x for x in (r["class"], r["terrain"], r["type"]) if x).title()
        return f"{kind}, Summon Cost {r['cost']}{stats}: {r['text']}"
    return csv_cards(DATA, {"cards": describe})
