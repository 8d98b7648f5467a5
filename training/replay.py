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
import sys
from pathlib import Path

import fatezoo
from fatezoo import IllegalActionError
from fatezoo.envs.core.registry import get_spec

KEYS = ("game", "options", "seed", "actions")


class ReplayError(ValueError):
    """A game record that cannot be replayed: what is wrong and where."""


def load_record(path) -> dict:
    """Read and validate a game record JSON file.

    Raises:
        ReplayError: unreadable file, not JSON, missing keys, bad types or unknown game.
    """
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as err:
        raise ReplayError(f"cannot read {path}: {err.strerror or err}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise ReplayError(f"{path} is not JSON: {err}") from None
    check_record(data, str(path))
    return data


def check_record(data, where: str = "game record") -> None:
    """Raise :class:`ReplayError` naming the first problem with a game record dict."""
    if not isinstance(data, dict):
        raise ReplayError(f"{where}: expected a JSON object with keys {list(KEYS)}, "
                          f"got {type(data).__name__}")
    missing = [k for k in KEYS if k not in data]
    if missing:
        raise ReplayError(f"{where}: missing key(s) {missing}; a game record has {list(KEYS)}")
    try:
        get_spec(data["game"])
    except (ValueError, TypeError) as err:
        raise ReplayError(f"{where}: {err}") from None
    if not isinstance(data["options"], dict):
        raise ReplayError(f"{where}: options must be an object, got {data['options']!r}")
    seed = data["seed"]
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
        raise ReplayError(f"{where}: seed must be a non-negative int, got {seed!r}")
    acts = data["actions"]
    if not isinstance(acts, list):
        raise ReplayError(f"{where}: actions must be a list of ints, got {type(acts).__name__}")
    for k, a in enumerate(acts):
        if isinstance(a, bool) or not isinstance(a, int):
            raise ReplayError(f"{where}: step {k}: action {a!r} is not an int")


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
    except (TypeError, ValueError) as err:
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
