"""A stopped arena goes on from its saved games and gives the unbroken arena's result.

``run_arena(save_games=FILE)`` / ``fatezoo arena --save-games FILE``
(:mod:`fatezoo.training.saved_games`); hostile files are refused in one line.
"""

from __future__ import annotations

import json
import os
import threading

import pytest

from fatezoo.training.arena import format_result, run_arena
from fatezoo.training.cli import main
from fatezoo.training.saved_games import SavedGames, arena_header

GAME = "fatefell"
OPTIONS = {"seasons": 1}
SPECS = ["random", "heuristic", "ismcts:sims=4"]
ARENA = dict(games=36, seed=3, options=OPTIONS, score_field="total")
RUN_ONLY = ("seconds", "cpu_seconds", "batch", "save_games", "games_resumed",
            "cpu_time_limit")


def same_arena(result: dict) -> dict:
    """The result without what depends on how the run went (time, batch, file)."""
    return {k: v for k, v in result.items() if k not in RUN_ONLY}


@pytest.fixture(scope="module")
def unbroken():
    result = run_arena(GAME, SPECS, batch=36, **ARENA)
    assert len({result["matrix"][a][b] for a in SPECS for b in SPECS if a != b}) > 2
    return same_arena(result)


def lines(path) -> list[str]:
    return path.read_text().splitlines()


def test_a_stopped_arena_goes_on_from_its_file_and_equals_the_unbroken_one(tmp_path,
                                                                           unbroken):
    path = tmp_path / "games.jsonl"
    cut = run_arena(GAME, SPECS, batch=6, cpu_time_limit=1e-9, save_games=str(path), **ARENA)
    assert cut["stopped"] and cut["games"] == 6 and cut["games_resumed"] == 0
    assert len(lines(path)) == 2  # the arena, then its one finished batch of 6 games
    went_on = run_arena(GAME, SPECS, batch=5, save_games=str(path), **ARENA)
    assert went_on["games_resumed"] == 6 and not went_on["stopped"]
    assert same_arena(went_on) == unbroken
    assert "6 games read from" in format_result(went_on)
    again = run_arena(GAME, SPECS, batch=7, save_games=str(path), **ARENA)  # nothing left
    assert again["games_resumed"] == 36 and same_arena(again) == unbroken
    assert len(lines(path)) == 2 + 6  # 30 games in batches of 5; the last run added none


def test_any_saved_subset_of_the_games_gives_the_same_result(tmp_path, unbroken):
    path = tmp_path / "games.jsonl"
    run_arena(GAME, SPECS, batch=4, save_games=str(path), **ARENA)
    kept = lines(path)
    path.write_text("\n".join(kept[:1] + kept[2::3]) + "\n")  # games scattered over the run
    went_on = run_arena(GAME, SPECS, batch=8, save_games=str(path), **ARENA)
    assert 0 < went_on["games_resumed"] < 36
    assert same_arena(went_on) == unbroken


def test_a_line_cut_short_by_a_kill_is_dropped_and_its_games_played_again(tmp_path, unbroken):
    path = tmp_path / "games.jsonl"
    run_arena(GAME, SPECS, batch=12, save_games=str(path), **ARENA)
    kept = lines(path)
    path.write_text("\n".join(kept[:2]) + "\n" + kept[2][:40])  # killed while writing
    went_on = run_arena(GAME, SPECS, batch=12, save_games=str(path), **ARENA)
    assert went_on["games_resumed"] == 12 and same_arena(went_on) == unbroken
    assert [json.loads(x)["games"][0] for x in lines(path)[1:]] == [0, 12, 24]


def write_file(path, rows: list[dict], **header):
    head = arena_header(GAME, SPECS, 2, ARENA["seed"], ARENA["games"], OPTIONS, "total")
    path.write_text("\n".join(json.dumps(x) for x in [{**head, **header}, *rows]) + "\n")


ROW = {"games": [0], "returns": [[1.0, -1.0]], "truncated": [False], "lengths": [40],
       "scores": [[10.0, 20.0]]}


@pytest.mark.parametrize("header,rows,named", [
    ({"seed": 4}, [], "holds the games of another arena: its seed is 4, this arena's 3"),
    ({"agents": ["random", "heuristic"]}, [], "its agents is"),
    ({"format": "other/1"}, [], "not a fatezoo arena's saved games"),
    ({"fatezoo": "0.0.1"}, [], 'its fatezoo is "0.0.1"'),
    ({"extra": 1}, [], "unknown key 'extra'"),
    ({}, [ROW, ROW], "line 3: game 0 is saved twice"),
    ({}, [{**ROW, "games": [36]}], "line 2: games must be a list of game indices in [0, 36)"),
    ({}, [{**ROW, "games": [True]}], "game indices"),
    ({}, [{**ROW, "returns": [[1.0]]}], "returns and scores must be 1 lists of 2"),
    ({}, [{**ROW, "scores": [[1.0, 10**400]]}], "finite numbers"),
    ({}, [{**ROW, "truncated": [0]}], "truncated must be a list of 1 true/false"),
    ({}, [{**ROW, "lengths": [0]}], "lengths must be a list of 1 ints >= 1"),
    ({}, [{"games": [0]}], "line 2 should have the keys"),
    ({}, [[1, 2]], "line 2 should have the keys"),
])
def test_a_file_of_another_arena_or_with_bad_values_is_refused_in_one_line(
        tmp_path, header, rows, named):
    path = tmp_path / "games.jsonl"
    write_file(path, rows, **header)
    before = path.read_bytes()
    with pytest.raises(ValueError) as err:
        run_arena(GAME, SPECS, batch=36, save_games=str(path), **ARENA)
    assert named in str(err.value) and str(path) in str(err.value)
    assert "\n" not in str(err.value)
    assert path.read_bytes() == before  # a refused file is left as it was


@pytest.mark.parametrize("text,named", [
    ('{"format": NaN}\n', "line 1 is not a JSON object: NaN is not a number"),
    ("\xff\n", "line 1 is not a JSON object"),
    ("[" * 100_000 + "\n", "line 1 is not a JSON object"),
    ('"text"\n', "line 1 is not a fatezoo arena's saved games"),
])
def test_text_that_is_not_saved_games_is_refused_in_one_line(tmp_path, text, named):
    path = tmp_path / "games.jsonl"
    path.write_bytes(text.encode("utf-8", "surrogateescape") if text != "\xff\n"
                     else b"\xff\n")
    with pytest.raises(ValueError, match="^--save-games .*" + named.split(":")[0]):
        run_arena(GAME, SPECS, batch=36, save_games=str(path), **ARENA)


def test_a_folder_or_a_device_is_refused_before_reading(tmp_path):
    with pytest.raises(ValueError, match="is a folder"):
        run_arena(GAME, SPECS, save_games=str(tmp_path), **ARENA)
    if os.path.exists("/dev/zero"):
        with pytest.raises(ValueError, match="not a regular file"):
            run_arena(GAME, SPECS, save_games="/dev/zero", **ARENA)


def test_two_runs_on_one_file_at_once_are_refused(tmp_path):
    pytest.importorskip("fcntl")
    path = tmp_path / "games.jsonl"
    head = arena_header(GAME, SPECS, 2, 3, 36, OPTIONS, "total")
    first = SavedGames(path, head, [])
    try:
        result = {}

        def second():
            try:
                SavedGames(path, head, [])
            except ValueError as err:
                result["err"] = str(err)

        thread = threading.Thread(target=second)
        thread.start()
        thread.join()
        assert "another arena is writing to it now" in result["err"]
    finally:
        first.close()
    SavedGames(path, head, []).close()  # free again once the first run closed it


def test_cli_arena_goes_on_from_its_saved_games(tmp_path, capsys):
    path = tmp_path / "games.jsonl"
    args = ["arena", GAME, "--agents", "random,heuristic", "--games", "12", "--seed", "1",
            "--seasons", "1", "--json", "--no-progress", "--save-games", str(path)]
    assert main(args + ["--cpu-time-limit", "1e-9", "--batch", "4"]) == 0
    cut = json.loads(capsys.readouterr().out)
    assert cut["games"] == 4 and cut["stopped"]
    assert main(args) == 0
    went_on = json.loads(capsys.readouterr().out)
    assert main(args[:-2]) == 0  # the same arena, unbroken and unsaved
    plain = json.loads(capsys.readouterr().out)
    assert went_on["games_resumed"] == 4 and same_arena(went_on) == same_arena(plain)
    assert main(args[:-2] + ["--save-games", str(tmp_path / "no" / "games.jsonl")]) == 2
    err = capsys.readouterr().err
    assert "--save-games" in err and "does not exist" in err and len(err.splitlines()) == 1
