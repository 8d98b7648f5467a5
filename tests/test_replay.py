"""Hostile game record files: each is one line naming the file, exit 2, never a traceback."""

import json
import os
import subprocess
import sys

import numpy as np
import pytest

import fatezoo
from fatezoo.envs.core.registry import get_spec
from fatezoo.training.cli import main
from fatezoo.training.replay import MAX_BYTES, ReplayError, load_record, replay_record

GAME = "fatefell"


def cli(capsys, *args):
    """Run the CLI in-process: (exit status, stdout, stderr)."""
    rc = main([str(a) for a in args])
    out = capsys.readouterr()
    return rc, out.out, out.err


def good_record(seed=3):
    env = fatezoo.make(GAME, seasons=1)
    env.reset(seed=seed)
    for _ in range(4):
        env.step(env.legal_actions()[0])
    return env.unwrapped.game_record()


def assert_refused(capsys, path, *needles):
    rc, out, err = cli(capsys, "replay", path)
    assert rc == 2, (path, out, err)
    assert "Traceback" not in err and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("fatezoo replay: error:")
    assert str(path) in lines[0], lines[0]
    for needle in needles:
        assert needle in lines[0], (needle, lines[0])


def test_good_record_replays(tmp_path, capsys):
    path = tmp_path / "ok.json"
    path.write_text(json.dumps(good_record()))
    rc, out, err = cli(capsys, "replay", path, "--last")
    assert rc == 0, err
    assert "player_0" in out


def test_nested_json_100k_deep(tmp_path, capsys):
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    assert_refused(capsys, path, "nested too deeply")
    path.write_text('{"a":' * 100_000 + "1" + "}" * 100_000)
    assert_refused(capsys, path, "nested too deeply")


@pytest.mark.parametrize("field, value, needle", [
    ("seed", "1e400", "out of range"),
    ("seed", "9" * 5000, "valid game record"),
    ("seed", str(10**60), "seed must be an int"),
    ("seed", "1e10", "seed must be an int"),
    ("seed", "NaN", "NaN is not a number"),
    ("seed", "null", "seed must be an int"),
    ("seed", "true", "seed must be an int"),
    ("seed", "-1", "seed must be an int"),
    ("actions", "[" + str(10**30) + "]", "step 0: action 1000000000000000000000000000000 is "
                                         "out of range"),
    ("actions", "[1e400]", "out of range"),
    ("actions", "[-1]", "step 0: action -1 is out of range"),
    ("actions", "[true]", "step 0: action True is not an int"),
    ("actions", "[1.0]", "step 0: action 1.0 is not an int"),
    ("actions", '"0 1 2"', "actions must be a list"),
    ("game", "7", "game must be a string"),
    ("game", '"nosuch"', "unknown game 'nosuch'"),
    ("options", "[]", "options must be an object"),
])
def test_huge_and_wrong_typed_values(tmp_path, capsys, field, value, needle):
    rec = good_record()
    text = json.dumps(rec).replace(json.dumps({field: rec[field]})[1:-1],
                                   f'"{field}": {value}')
    assert f'"{field}": {value}' in text
    path = tmp_path / "bad.json"
    path.write_text(text)
    assert_refused(capsys, path, needle)


@pytest.mark.parametrize("options, needle", [
    ({"illegal": "lose"}, "unknown option 'illegal'"),
    ({"render_mode": "human"}, "unknown option 'render_mode'"),
    ({"num_players": True}, "option num_players must be an int, got True"),
    ({"num_players": 9}, "num_players must be in [2, 4], got 9"),
    ({"max_turns": 0}, "option max_turns must be a positive int or null, got 0"),
    ({"max_turns": 1e300}, "option max_turns must be a positive int or null"),
    ({"reward": 1}, "option reward must be a string, got 1"),
    ({"seasons": True}, "option seasons must be an int, got True"),
    ({"seasons": "4"}, "option seasons must be an int, got '4'"),
    ({"advanced": 1}, "option advanced must be true or false, got 1"),
])
def test_options_limited_to_the_games_own(tmp_path, capsys, options, needle):
    rec = good_record()
    rec["options"] = dict(rec["options"], **options)
    path = tmp_path / "opts.json"
    path.write_text(json.dumps(rec))
    assert_refused(capsys, path, needle)


def test_illegal_option_cannot_end_the_game_quietly(tmp_path, capsys):
    """An illegal action in a record with illegal=lose is refused, not replayed as a loss."""
    rec = good_record()
    rec["options"]["illegal"] = "lose"
    rec["actions"] = rec["actions"][:1] + [rec["actions"][0]] * 3
    path = tmp_path / "lose.json"
    path.write_text(json.dumps(rec))
    assert_refused(capsys, path, "illegal")


def test_special_files_missing_and_directory(tmp_path, capsys):
    for dev in ("/dev/zero", "/dev/urandom", "/dev/null"):
        if os.path.exists(dev):
            assert_refused(capsys, dev, "not a regular file")
    assert_refused(capsys, tmp_path, "is a directory")
    assert_refused(capsys, tmp_path / "nope.json", "cannot read", "No such file")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    assert_refused(capsys, fifo, "not a regular file")  # refused without blocking on open


def test_binary_and_empty_files(tmp_path, capsys):
    path = tmp_path / "random.bin"
    path.write_bytes(bytes(range(256)) * 4)
    assert_refused(capsys, path, "not UTF-8")
    path.write_bytes(b"")
    assert_refused(capsys, path, "is not JSON")
    path.write_text("[1, 2]")
    assert_refused(capsys, path, "expected a JSON object")


def test_size_limit_checked_before_reading(tmp_path, capsys):
    path = tmp_path / "big.json"
    with open(path, "wb") as f:  # sparse: MAX_BYTES + 1 bytes without writing them
        f.truncate(MAX_BYTES + 1)
    assert_refused(capsys, path, "64 MiB limit")
    small = tmp_path / "small.json"
    small.write_text(json.dumps(good_record()))
    with pytest.raises(ReplayError, match="100 bytes|MiB limit"):
        load_record(small, max_bytes=100)


def test_replay_record_api_refuses_the_same(tmp_path):
    rec = good_record()
    with pytest.raises(ReplayError, match="seed must be an int"):
        replay_record(dict(rec, seed=None))
    with pytest.raises(ReplayError, match="unknown option 'illegal'"):
        replay_record(dict(rec, options={"illegal": "lose"}))
    assert len(replay_record(rec)) == len(rec["actions"]) + 1


def test_subprocess_dev_zero_is_one_line():
    """The console entry point itself: exit 2 and one line on stderr."""
    out = subprocess.run([sys.executable, "-m", "fatezoo.training.cli", "replay", "/dev/zero"],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 2
    assert out.stderr.strip().splitlines() == [
        "fatezoo replay: error: /dev/zero: not a regular file (a game record is a JSON file)"]



SAVED_OPTION_SETS = [(g, dict(o)) for g in fatezoo.GAMES
                     for o in [{}, *get_spec(g).evaluation.contract_options]]


@pytest.mark.parametrize("game,options", SAVED_OPTION_SETS,
                         ids=[f"{g}-{json.dumps(o, sort_keys=True)}" for g, o in SAVED_OPTION_SETS])
def test_every_saved_game_with_documented_options_replays(tmp_path, capsys, game, options):
    # what save_game writes (a tuple option becomes a JSON array) replays to the same game
    env = fatezoo.make(game, **options)
    env.reset(seed=5)
    rng = np.random.default_rng(5)
    for _ in range(6):
        env.step(int(rng.choice(env.legal_actions())))
    path = tmp_path / "saved.json"
    env.save_game(path)
    frames = replay_record(load_record(path))
    assert frames[-1] == get_spec(game).render_ansi(env.record, None)
    rc, _, err = cli(capsys, "replay", path, "--last")
    assert rc == 0, err
