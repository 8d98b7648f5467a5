"""scripts/villainous_pairings.py: one row per villain pairing, its games all counted."""

import pytest

from tests.script_util import load_script


def test_every_pairing_counts_each_game_once(capsys):
    assert load_script("villainous_pairings").main(["heuristic", "random", "--games", "3"]) == 0
    rows = capsys.readouterr().out.strip().splitlines()[1:]
    pairs = [(r.split()[0], r.split()[1]) for r in rows]
    assert pairs == [(a, b) for a in ("scar", "yzma", "ratigan")
                     for b in ("scar", "yzma", "ratigan")]
    for r in rows:
        a_won, ties, b_won = (int(x) for x in r.split()[2:5])
        assert a_won + ties + b_won == 3, r


def test_bad_arguments_are_one_line_errors(capsys):
    mod = load_script("villainous_pairings")
    with pytest.raises(SystemExit):
        mod.main(["heuristic", "random", "--games", "0"])
    assert "--games must be >= 1, got 0" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        mod.main(["nobody", "random"])
    assert "unknown agent spec 'nobody'" in capsys.readouterr().err
