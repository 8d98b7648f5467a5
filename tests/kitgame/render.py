"""Kitgame text and SVG views (a viewer sees only the cards they know)."""

from __future__ import annotations

from html import escape

from fatezoo.envs.core.knowledge import KNOWN
from fatezoo.envs.core.stack import KIND, OWNER

from .state import (
    CARD_KIND,
    COL_COUNTERED,
    COL_OPTION,
    COL_TARGET,
    DECK,
    DISCARD,
    HAND0,
    KIND_NAMES,
)


def _card(rec, c, seat) -> str:
    if seat is None or rec["known"][seat, c] == KNOWN:
        return f"{KIND_NAMES[CARD_KIND[c]]}#{int(c)}"
    return "?"


def render_ansi(rec, seat=None) -> str:
    """The table as text, for ``seat`` (None: every card shown)."""
    n = int(rec["num_players"])
    zone, zn = rec["zone"], rec["zone_n"]
    who = "all cards" if seat is None else f"seen by seat {seat}"
    lines = [f"kitgame ({who}) turn {int(rec['turn'])}, seat {int(rec['turn_player'])} to play"]
    for p in range(n):
        hand = [_card(rec, c, seat) for c in zone[HAND0 + p, : zn[HAND0 + p]]]
        lines.append(f"seat {p}: life {int(rec['life'][p])} hand [{' '.join(hand)}]")
    top = zone[DISCARD, zn[DISCARD] - 1] if zn[DISCARD] else -1
    lines.append(f"deck {int(zn[DECK])} cards; discard {int(zn[DISCARD])} cards, top "
                 f"{_card(rec, top, None) if top >= 0 else '-'}")
    for i in range(int(rec["stack_n"][0]) - 1, -1, -1):
        e = rec["stack"][i]
        lines.append(f"stack {i}: {KIND_NAMES[e[KIND]]} by seat {int(e[OWNER])} target "
                     f"{int(e[COL_TARGET])} option {int(e[COL_OPTION])}"
                     + (" (countered)" if e[COL_COUNTERED] else ""))
    if rec["last_roll"] >= 0:
        lines.append(f"last roll {int(rec['last_roll'])}")
    if rec["terminated"] or rec["truncated"]:
        lines.append("game over")
    else:
        lines.append(f"seat {int(rec['current_player'])} decides")
    return "\n".join(lines)


def render_svg(rec, seat=None) -> str:
    """The text view in an SVG picture."""
    lines = render_ansi(rec, seat).splitlines()
    rows = "".join(f'<text x="8" y="{18 * (k + 1)}">{escape(t)}</text>'
                   for k, t in enumerate(lines))
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="640" height="{18 * len(lines) + 8}"'
            f' font-family="monospace" font-size="13">{rows}</svg>')
