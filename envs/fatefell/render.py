"""Text and SVG views of one Fatefell record, for a seat (hidden cards redacted) or all."""

from __future__ import annotations

from html import escape
from pathlib import Path

from fatezoo.envs.core.docs import csv_cards
from fatezoo.envs.core.raster import text_block

from .cards import FATE_MOON_TEXT, FATE_NAMES, FATE_SUN_TEXT, card_short
from .state import DRAW_PILE, NUM_ARCANA, Phase, Season, action_name

# Shown by ``fatezoo play`` (its intro and its ``help`` command).
HOW_TO_WIN = ("at the end of each season every card in your layout scores its value (a "
              "completed Match scores 0); after the last season the lowest total wins.")
LEGEND = """card codes: value, Sun (s) or Moon (m), Character (C) or Skeleton (S):
  12mC  the Character of the 12 Moon identity      1sS  the Skeleton of the 1 Sun identity
  [..]  a card in a layout slot   =..=  part of a completed Match (scores 0)
   ??   a card you have not seen   FATE  a Fate card   --  no card
A Character Matches only the Skeleton of its own identity (same value and symbol).
Layout: slots 0 1 (Hidden, top row) and 2 3 (Revealed, bottom row); * marks the turn
player. The discard piles list their top cards first."""


def _visible(rec, seat, owner, slot) -> bool:
    return seat is None or bool(rec["known"][seat, owner, slot])


def _slot_label(rec, seat, owner, slot) -> str:
    c = int(rec["layout"][owner, slot])
    label = card_short(c) if _visible(rec, seat, owner, slot) else " ?? "
    return f"={label}=" if rec["matched"][owner, slot] else f"[{label}]"


def _status(rec) -> list[str]:
    n = int(rec["num_players"])
    s = int(rec["season"])
    kind = Season(int(rec["season_kind"][s])).name.title()
    head = (f"Fatefell  season {s + 1}/{int(rec['seasons'])} ({kind}, "
            f"{int(rec['fate_count'][s])} Fate cards)  turn {int(rec['turn'])}")
    if rec["terminated"] or rec["truncated"]:
        end = "game over" if rec["terminated"] else "truncated"
        totals = ", ".join(f"player_{p}: {int(rec['total'][p])}" for p in range(n))
        return [head, f"{end}: totals {totals}"]
    p = int(rec["current_player"])
    lines = [head, f"player_{p} to act ({Phase(int(rec['phase'])).name}), "
             f"player_{int(rec['turn_player'])}'s turn"]
    if rec["fate_card"] >= 0:
        i = int(rec["fate_card"]) - NUM_ARCANA
        sun = rec["coin"] == 0
        side, text = ("Sun", FATE_SUN_TEXT[i]) if sun else ("Moon", FATE_MOON_TEXT[i])
        lines.append(f"Fate: {FATE_NAMES[i]} landed {side}: {text}")
    if rec["ender"] >= 0:
        lines.append(f"player_{int(rec['ender'])} completed both Matches: "
                     f"{int(rec['final_left'])} final turn(s) left")
    return lines


def render_ansi(rec, seat=None) -> str:
    """Text view of ``rec``: every card if ``seat`` is None, else what ``seat`` knows."""
    n = int(rec["num_players"])
    lines = _status(rec)
    for p in range(n):
        mark = "*" if p == rec["turn_player"] else " "
        tot = int(rec["total"][p])
        lines.append(f"{mark}player_{p} (total {tot:>3})  {_slot_label(rec, seat, p, 0)}"
                     f"{_slot_label(rec, seat, p, 1)}  hidden")
        lines.append(f"{' ' * 26}{_slot_label(rec, seat, p, 2)}{_slot_label(rec, seat, p, 3)}"
                     f"  revealed")
    resolving = 1 if rec["fate_card"] >= 0 else 0
    fates_left = int(rec["fate_count"][rec["season"]]) - int(rec["aside_n"]) - resolving
    lines.append(f"draw pile: {int(rec['draw_n'][DRAW_PILE])} cards ({fates_left} Fate)")
    for k in range(int(rec["num_piles"])):
        m = int(rec["discard_n"][k])
        top = " ".join(card_short(rec["discard"][k, m - 1 - d]) for d in range(min(3, m)))
        lines.append(f"discard pile {k}: {m} cards, top first: {top}")
    h = int(rec["hand"])
    if h >= 0:
        show = seat is None or seat == rec["turn_player"] or rec["hand_from_discard"]
        lines.append(f"drawn card: {card_short(h) if show else ' ?? '}")
    if rec["last_action"] >= 0:
        lines.append(f"last: player_{int(rec['last_player'])} "
                     f"{action_name(int(rec['last_action']))}")
    return "\n".join(lines)


def render_svg(rec, seat=None) -> str:
    """SVG view of ``rec`` (every card if ``seat`` is None, else what ``seat`` knows)."""
    n = int(rec["num_players"])
    w, h = 120 + n * 140, 250
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
             f'font-family="monospace" font-size="12">',
             f'<rect width="{w}" height="{h}" fill="#1d2330"/>']
    parts.append(text_block(_status(rec), 10, 4, w - 20, 54, size=12, fill="#f0e6d2"))
    for p in range(n):
        x0 = 10 + p * 140
        who = f"player_{p}" + (" *" if p == rec["turn_player"] else "")
        parts.append(f'<text x="{x0}" y="70" fill="#f0e6d2">{who} ({int(rec["total"][p])})</text>')
        for slot in range(4):
            x, y = x0 + (slot % 2) * 60, 80 + (slot // 2) * 70
            c = int(rec["layout"][p, slot])
            vis = _visible(rec, seat, p, slot)
            fill = "#d9c27a" if rec["matched"][p, slot] else ("#f7f1e3" if vis else "#50607a")
            parts.append(f'<rect x="{x}" y="{y}" width="52" height="62" rx="6" fill="{fill}" '
                         f'stroke="#000"/>')
            label = card_short(c).strip() if vis else "?"
            parts.append(f'<text x="{x + 26}" y="{y + 36}" text-anchor="middle">'
                         f'{escape(label)}</text>')
    m = int(rec["discard_n"][0])
    top = card_short(rec["discard"][0, m - 1]).strip() if m else "-"
    parts.append(f'<text x="10" y="{h - 12}" fill="#f0e6d2">draw {int(rec["draw_n"][DRAW_PILE])} | '
                 f'discard top {escape(top)}</text>')
    parts.append("</svg>")
    return "".join(parts)


DATA = Path(__file__).parent / "data"


def cards() -> dict:
    """Card name -> its value and text (the ``card NAME`` prompt and the doc page)."""
    arcana = csv_cards(DATA, {"arcana": lambda r: (
        f"Arcana identity, value {r['value']}, {r['symbol'].capitalize()} (codes "
        f"{r['value']}{r['symbol'][0]}C and {r['value']}{r['symbol'][0]}S): its Character and "
        "Skeleton make a Match")})
    fate = csv_cards(DATA, {"fate": lambda r: f"Sun: {r['sun_text']} Moon: {r['moon_text']}"})
    return dict(arcana, **{f"Fate: {n}": f"Fate card. {t}" for n, t in fate.items()})
