"""Fatefell's doc page and RULES.md say what the code does (rendering, who starts)."""

from __future__ import annotations

import importlib
from pathlib import Path

import fatezoo
from fatezoo.envs.fatefell import SPEC

env_page = importlib.import_module("fatezoo.envs.fatefell.env")

RULES = Path(env_page.__file__).with_name("RULES.md").read_text(encoding="utf-8")


def test_doc_page_says_render_shows_every_card_and_how_to_get_a_seat_view():
    doc = " ".join(env_page.__doc__.split())
    assert "`render()` (with `render_mode=\"ansi\"` or `\"human\"`) shows **every card**" in doc
    assert "set `env.render_seat = 1`" in doc and "`env.render_svg(seat)`" in doc
    env = fatezoo.make("fatefell", render_mode="ansi")
    env.reset(seed=0)
    rec = env.unwrapped.record
    full = env.render()
    assert full == SPEC.render_ansi(rec, None) and "??" not in full  # every card shown
    env.render_seat = 1  # the documented way to get one seat's view
    view = env.render()
    assert view == SPEC.render_ansi(rec, 1) and view != full
    assert view.count("??") == 4 + 2  # all of player_0's cards, and player_1's own Hidden
    assert env.render_svg(1) == SPEC.render_svg(rec, 1) != env.render_svg(None)


def test_rules_md_says_who_starts_each_season_and_why():
    text = " ".join(RULES.split())
    start = text.index("**Who starts each season.**")
    entry = text[start: text.index("- **", start)]
    assert "player_0 starts Spring" in entry and "season `s` (0-based) starts with player `s % n`" \
        in entry
    assert "Why this reading:" in entry and "T::test_first_player_rotates_each_season" in entry
