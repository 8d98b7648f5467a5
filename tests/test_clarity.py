"""The code reads like its rulebook: parts by name, and rules in functions one can read.

An observation part written ``out[O_SEATS + 2]`` in an encoder and read ``obs[O_SEATS + 2]``
in a heuristic states its position twice with nothing checking that they agree; a named
part (``SEAT_GOLD``) and its scale declared beside the layout are read by name everywhere.
A rules function over 100 lines is a dispatcher that hides its cases; it routes to one
function per phase or kind instead, or its docstring says why it cannot.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ENVS = ROOT / "envs"
# the kit's worked example is read by whoever adds a game, so it is held to the same
KIT_GAME = ROOT / "tests" / "kitgame"
# modules that are not rules: observation encoders, hand-written policies, renderers,
# reward shaping, presets, the env pages, record layouts and card data
NOT_RULES = {"encode", "heuristic", "render", "shaping", "presets", "env", "state", "cards"}
LONGEST = 100

BARE_NUMBERS = {
    "an observation offset plus a number (O_X + 2)": re.compile(r"\bO_[A-Z0-9_]+\s*\+\s*\d"),
    "a write at an offset plus a number (out[o + 2])": re.compile(r"\[\s*o\s*\+\s*\d"),
    "a stack entry's column by number (rec[\"stack\"][i, 3])":
        re.compile(r"\[\"(stack|ent)\"\]\[[^\]\[]*,\s*\d+\s*\]"),
}


def _game_sources():
    """Every Python file of every game (rules packages included) and of the kit's game."""
    games = [p for p in ENVS.rglob("*.py") if p.relative_to(ENVS).parts[0] != "core"]
    return sorted(games + list(KIT_GAME.rglob("*.py")))


def _rules_functions():
    for path in _game_sources():
        if path.stem in NOT_RULES or path.stem.startswith("test_"):
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef):
                yield path, node


@pytest.mark.parametrize("what", sorted(BARE_NUMBERS))
def test_no_bare_number_stands_for_a_named_part(what):
    pattern = BARE_NUMBERS[what]
    found = [f"{p.relative_to(ENVS.parent)}:{i}: {line.strip()}"
             for p in _game_sources()
             for i, line in enumerate(p.read_text().splitlines(), 1)
             if pattern.search(line.split("#", 1)[0])]
    assert not found, f"{what}; name it beside its declaration:\n" + "\n".join(found)


def test_the_clarity_checks_read_every_game_module():
    read = {p.relative_to(ROOT).as_posix() for p in _game_sources()}
    assert "envs/villainous/rules/entries.py" in read
    assert "tests/kitgame/rules.py" in read
    assert not any(r.startswith("envs/core/") for r in read)


def test_no_rules_function_runs_over_100_lines_unless_it_says_why():
    long = [f"{p.relative_to(ROOT)}:{f.lineno} {f.name}: {f.end_lineno - f.lineno + 1} lines"
            for p, f in _rules_functions()
            if f.end_lineno - f.lineno + 1 > LONGEST
            and f"{LONGEST} lines" not in (ast.get_docstring(f) or "")]
    assert not long, (f"rules functions over {LONGEST} lines; route to one function per "
                      "phase or kind, or say in the docstring why it is one piece:\n"
                      + "\n".join(long))
