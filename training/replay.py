"""Replay a saved game record step by step.

A game record is the JSON object ``{"game", "options", "seed", "actions"}`` written by
``env.unwrapped.save_game(path)`` (or ``game_record()``): ``fatezoo.make(game,
**options)``, ``reset(seed=seed)`` and the actions in order give back the same game
exactly. Each position is shown for one seat (others' hidden cards redacted) or, with no
seat, with every card face up.

>>> from fatezoo.training.replay import replay_record
>>> frames = replay_record({"game": "fatefell", "options": {}, "seed": 0, "actions": [0]})
>>> len(frames)
2
"""

from __future__ import annotations

import json
import os
import sys

import fatezoo
from fatezoo import IllegalActionError
from fatezoo.envs.core.registry import get_spec

from .json_checks import file_problem, finite_float, is_int, refuse_constant, too_large

KEYS = ("game", "options", "seed", "actions")
MAX_BYTES = 64 * 1024 * 1024  # the largest record file read (a real record is a few KiB)
MAX_SEED = 2**128
COMMON_OPTIONS = ("num_players", "max_turns", "reward")


class ReplayError(ValueError):
    """A game record that cannot be replayed: what is wrong and where (one line)."""


def load_record(path, max_bytes: int = MAX_BYTES) -> dict:
    """Read and validate a game record JSON file.

    Only a regular file of at most ``max_bytes`` bytes is read (``/dev/zero``, a
    directory or a pipe is refused before reading); the text must be UTF-8 JSON with
    finite numbers and integers of at most 4300 digits.

    Raises:
        ReplayError: one line naming ``path``: unreadable, too large, not a file, not
            JSON, too deeply nested, missing keys, bad types, unknown game or options.
    """
    where = str(path)
    what = ("a game record", "a JSON file", "is a directory, not a game record file")
    try:
        st = os.stat(path)  # checked before opening: opening a FIFO would block
        problem = file_problem(st, max_bytes, *what)
        if problem is None:
            with open(path, "rb") as f:
                problem = file_problem(os.fstat(f.fileno()), max_bytes, *what)
                raw = f.read(max_bytes + 1) if problem is None else b""
    except OSError as err:
        raise ReplayError(f"cannot read {where}: {err.strerror or err}") from None
    except (TypeError, ValueError) as err:  # a path with a NUL byte, not a path
        raise ReplayError(f"cannot read {where!r}: {err}") from None
    if problem is None and len(raw) > max_bytes:  # the file grew while being read
        problem = too_large(None, max_bytes, what[0])
    if problem is not None:
        raise ReplayError(f"{where}: {problem}")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        raise ReplayError(f"{where} is not UTF-8 text: byte {err.start}: {err.reason}") \
            from None
    try:
        data = json.loads(text, parse_constant=refuse_constant, parse_float=finite_float)
    except json.JSONDecodeError as err:
        raise ReplayError(f"{where} is not JSON: {err}") from None
    except RecursionError:
        raise ReplayError(f"{where}: JSON nested too deeply (a game record is a flat object)") \
            from None
    except MemoryError:
        raise ReplayError(f"{where}: out of memory parsing the JSON") from None
    except (ValueError, OverflowError) as err:  # huge int literals, NaN, 1e400
        msg = str(err).splitlines()[0] if str(err) else type(err).__name__
        raise ReplayError(f"{where} is not a valid game record: {msg}") from None
    check_record(data, where)
    return data


def _check_options(spec, options: dict, where: str) -> None:
    """Options are the common ones plus the game's own, each of the right JSON type.

    A scalar is typed by the option's default; a JSON array (what a tuple option such as
    Fathoming's ``decks=(deck_a, deck_b)`` becomes in the JSON that ``save_game`` writes)
    must be a flat list of scalars. Last the game's own ``configure`` checks the values.
    """
    allowed = list(COMMON_OPTIONS) + list(spec.option_defaults)
    for key, value in options.items():
        if key not in allowed:
            raise ReplayError(f"{where}: unknown option {key!r}; a {spec.name} record's "
                              f"options are some of {allowed}")
        _check_option_type(spec, key, value, where)
    try:
        spec.options(**options)
    except (TypeError, ValueError, OverflowError) as err:
        raise ReplayError(f"{where}: bad options {options!r}: {err}") from None


def _check_option_type(spec, key: str, value, where: str) -> None:
    """One option's JSON type (see :func:`_check_options`)."""
    if key == "num_players":
        ok = is_int(value)
        want = "an int"
    elif key == "max_turns":
        ok = value is None or (is_int(value) and value >= 1)
        want = "a positive int or null"
    elif key == "reward":
        ok = isinstance(value, str)
        want = "a string"
    elif key in spec.option_defaults and isinstance(value, list):
        ok = all(v is None or isinstance(v, (bool, int, float, str)) for v in value)
        want = "a value or a flat list of values"
    else:
        default = spec.option_defaults[key]
        if isinstance(default, bool):
            ok, want = isinstance(value, bool), "true or false"
        elif isinstance(default, int):
            ok, want = is_int(value), "an int"
        elif isinstance(default, float):
            ok = is_int(value) or isinstance(value, float)
            want = "a number"
        elif isinstance(default, str):
            ok, want = isinstance(value, str), "a string"
        else:  # None default: the game's configure checks the value
            ok = value is None or isinstance(value, (bool, int, float, str))
            want = "null, a bool, a number or a string"
    if not ok:
        raise ReplayError(f"{where}: option {key} must be {want}, got {value!r}")


def check_record(data, where: str = "game record") -> None:
    """Raise :class:`ReplayError` naming the first problem with a game record dict."""
    if not isinstance(data, dict):
        raise ReplayError(f"{where}: expected a JSON object with keys {list(KEYS)}, "
                          f"got {type(data).__name__}")
    missing = [k for k in KEYS if k not in data]
    if missing:
        raise ReplayError(f"{where}: missing key(s) {missing}; a game record has {list(KEYS)}")
    if not isinstance(data["game"], str):
        raise ReplayError(f"{where}: game must be a string, got {data['game']!r}")
    try:
        spec = get_spec(data["game"])
    except (ValueError, TypeError, KeyError) as err:
        raise ReplayError(f"{where}: {err}") from None
    if not isinstance(data["options"], dict):
        raise ReplayError(f"{where}: options must be an object, got {data['options']!r}")
    _check_options(spec, data["options"], where)
    seed = data["seed"]
    if not is_int(seed) or not 0 <= seed < MAX_SEED:
        raise ReplayError(f"{where}: seed must be an int in [0, 2**128) (the seed the game "
                          f"was dealt with), got {seed!r}")
    acts = data["actions"]
    if not isinstance(acts, list):
        raise ReplayError(f"{where}: actions must be a list of ints, got {type(acts).__name__}")
    for k, a in enumerate(acts):
        if not is_int(a):
            raise ReplayError(f"{where}: step {k}: action {a!r} is not an int")
        if not 0 <= a < spec.num_actions:
            raise ReplayError(f"{where}: step {k}: action {a} is out of range "
                              f"[0, {spec.num_actions})")


def replay_record(data: dict, seat: int | None = None, where: str = "game record",
                  on_frame=None) -> list[str]:
    """Replay a game record and return the rendered positions.

    Args:
        data: the record (validated here).
        seat: render from this seat's view; None shows every card.
        where: name of the record's source, for error messages.
        on_frame: optional ``callback(step, text)``: ``step`` is None for the starting
            position, else the index of the action just applied; ``text`` is a header
            line plus the rendered position.

    Returns:
        The rendered positions: the start, then one after each action (renders only).

    Raises:
        ReplayError: bad options, a seat out of range, or an illegal action at step k.
    """
    check_record(data, where)
    game = data["game"]
    spec = get_spec(game)
    try:
        env = fatezoo.make(game, **data["options"])
    except (TypeError, ValueError, OverflowError) as err:
        raise ReplayError(f"{where}: bad options {data['options']!r}: {err}") from None
    n = len(env.possible_agents)
    if seat is not None and not 0 <= seat < n:
        raise ReplayError(f"{where}: seat must be in [0, {n}), got {seat}")
    env.reset(seed=data["seed"])
    rec = env.unwrapped.record
    frames = [spec.render_ansi(rec, seat)]
    if on_frame is not None:
        on_frame(None, f"start: {game}, seed {data['seed']}, {n} players\n{frames[0]}")
    for k, a in enumerate(data["actions"]):
        if rec["terminated"] or rec["truncated"]:
            raise ReplayError(f"{where}: step {k}: the game is already over, but "
                              f"{len(data['actions']) - k} action(s) remain")
        player = int(rec["current_player"])
        try:
            env.step(a)  # the env's own check: range and legality, state unchanged on error
        except IllegalActionError as err:
            raise ReplayError(f"{where}: step {k}: {err}") from None
        frames.append(spec.render_ansi(rec, seat))
        if on_frame is not None:
            on_frame(k, f"step {k}: player_{player} {spec.action_names[a]} ({a})\n{frames[-1]}")
    return frames


def replay(path, seat: int | None = None, stdout=None, last_only: bool = False) -> str:
    """Replay the game record at ``path``, printing each position to ``stdout``.

    Args:
        path: a game record JSON file.
        seat: the seat whose view is shown (None: every card).
        stdout: output stream (default ``sys.stdout``).
        last_only: print only the final position.

    Returns:
        The final rendered position.
    """
    stdout = sys.stdout if stdout is None else stdout
    data = load_record(path)

    def show(step, text):
        if not last_only:
            stdout.write(text + "\n\n")

    frames = replay_record(data, seat, str(path), show)
    rec_end = frames[-1]
    if last_only:
        stdout.write(rec_end + "\n")
    stdout.flush()
    return rec_end
