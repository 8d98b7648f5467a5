"""Golden playthroughs of every game (tests/<game>/golden/*.txt), replayed exactly."""

from __future__ import annotations

import pytest

import fatezoo

from .golden_util import golden_files, parse, transcript

FILES = golden_files()


@pytest.mark.parametrize("game", fatezoo.GAMES)
def test_every_game_has_small_goldens(game):
    files = golden_files(game)
    assert files, f"{game}: no golden files; write some with scripts/make_golden.py {game} ..."
    # a repository-size guard: every step's board is in the file, and the longest game's
    # shortest finished golden game is ~500 KB
    assert sum(f.stat().st_size for f in files) < 600_000


@pytest.mark.parametrize("path", FILES, ids=[f"{f.parent.parent.name}-{f.stem}" for f in FILES])
def test_golden_playthrough(path):
    game = path.parent.parent.name
    text = path.read_text(encoding="utf-8")
    options, seed, actions = parse(text)
    got = transcript(game, options, seed, actions)
    if got != text:  # point at the first differing line
        for i, (a, b) in enumerate(zip(got.splitlines(), text.splitlines()), 1):
            assert a == b, f"{path.name} line {i} differs"
    assert got == text
    assert "== end: terminated 1" in text  # every golden game is played to its end
