"""An arena's finished games on disk, so a long arena can stop and go on later.

``fatezoo arena ... --save-games FILE`` (``run_arena(save_games=FILE)``) appends the rows
of each finished batch (each Ray chunk) to ``FILE`` as soon as they are played. Run the
same command again and it reads the games already there and plays only the others: the
result is the unbroken arena's, bit for bit (an arena game's result depends only on its
seed, its seating and its seats' agent streams, never on which games share its batch or
run; see :mod:`.arena`), whatever the batch sizes, workers or ``--ray`` of each run.

The file is JSON Lines, one object per line:

- line 1, the arena: ``{"format": FORMAT, "fatezoo" (its version), "game", "agents" (the
  specs), "num_players", "seed", "games", "options", "score_field"}``. A file of another
  arena (any of these differs) is refused in one line naming the first difference. The
  games are those of the code that played them: go on with the same fatezoo (a file from
  another version is refused; between commits of one version, go on with the same commit).
- then one line per finished batch: ``{"games": [arena game indices], "returns": [[total
  reward per seat]], "truncated": [bool], "lengths": [decisions], "scores": [[final score
  per seat]] (with a score field only)}``.

Each line is written whole and flushed to disk before play goes on, so a run killed at any
moment loses at most the batches in flight; a last line cut short by such a kill (no
newline after it) is dropped and its games played again. Reading checks every value
(types, shapes, finite numbers, indices in range and not repeated) and refuses a file
that fails in one line naming it and the line; a file is read only if it is a regular
file of at most ``MAX_BYTES``. While a run appends to a file, another run on the same file
is refused (an advisory lock, where the platform has one).

>>> import os, tempfile
>>> from fatezoo.training.arena import run_arena
>>> path = os.path.join(tempfile.mkdtemp(), "games.jsonl")
>>> first = run_arena("fatefell", ["random", "heuristic"], games=8, save_games=path)
>>> again = run_arena("fatefell", ["random", "heuristic"], games=8, save_games=path)
>>> again["games_resumed"], again["matrix"] == first["matrix"]
(8, True)
"""

from __future__ import annotations

import json
import math
import os

import numpy as np

import fatezoo

from .json_checks import file_problem, is_int, refuse_constant, too_large

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: no advisory lock
    fcntl = None

FORMAT = "fatezoo-arena-games/1"
MAX_BYTES = 1 << 30  # about 10 million 2-player games
HEADER_KEYS = ("format", "fatezoo", "game", "agents", "num_players", "seed", "games",
               "options", "score_field")


def arena_header(game: str, specs: list[str], num_players: int, seed: int, games: int,
                 options: dict | None, score_field: str | None) -> dict:
    """The first line of an arena's file: what makes two arenas the same arena."""
    header = {"format": FORMAT, "fatezoo": fatezoo.__version__, "game": game, "agents": list(specs),
              "num_players": int(num_players), "seed": int(seed), "games": int(games),
              "options": dict(options or {}), "score_field": score_field}
    return json.loads(json.dumps(header))  # tuples as lists: as read back from the file


class SavedGames:
    """The open file of one arena: the games read from it, and appending new ones.

    Args:
        path: the file; created (with its header line) if it does not exist or is empty.
        header: :func:`arena_header` of the arena playing now.
        arrays: the arena's zeroed result arrays (:func:`.arena.played_arrays`, all
            ``header["games"]`` rows), filled in place with the rows read.

    Attributes:
        have: (games,) bool, the rows read from the file.
        dropped: True when an unfinished last line (a killed run's) was dropped.
    """

    def __init__(self, path, header: dict, arrays: list):
        self.path, self.where = os.fspath(path), str(path)
        self.header, self.arrays = header, arrays
        self.have = np.zeros(header["games"], bool)
        self.dropped = False
        self._file = None
        try:
            if os.path.lexists(self.path):
                self._check_file(os.stat(self.path))
            self._file = open(self.path, "a+b")  # noqa: SIM115 - kept open to append
            self._check_file(os.fstat(self._file.fileno()))
            self._lock()
            self._file.seek(0)
            raw = self._file.read(MAX_BYTES + 1)
        except OSError as err:
            self.close()
            raise ValueError(f"--save-games {self.where}: {err.strerror or err}") from None
        except ValueError:
            self.close()
            raise
        try:
            self._read(raw)
        except ValueError:
            self.close()
            raise

    def _fail(self, what: str):
        raise ValueError(f"--save-games {self.where}: {what}")

    def _check_file(self, st) -> None:
        problem = file_problem(st, MAX_BYTES, "a saved arena", "a JSON Lines file",
                               "is a folder; give a file name such as games.jsonl")
        if problem is not None:
            self._fail(problem)

    def _lock(self) -> None:
        if fcntl is None:
            return
        try:
            fcntl.flock(self._file.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            self._fail("another arena is writing to it now; wait for it or give "
                       "another file")

    def _read(self, raw: bytes) -> None:
        if len(raw) > MAX_BYTES:
            self._fail(too_large(None, MAX_BYTES, "a saved arena"))
        end = raw.rfind(b"\n") + 1
        if end < len(raw):  # a line cut short by a kill: drop it, play its games again
            self.dropped = True
            self._file.truncate(end)
        lines = raw[:end].split(b"\n")[:-1]
        if not lines:
            self._append(self.header)
            return
        for number, line in enumerate(lines, 1):
            try:
                data = json.loads(line.decode("utf-8"), parse_constant=refuse_constant)
            except (UnicodeDecodeError, ValueError, RecursionError) as err:
                first = str(err).splitlines()[0] if str(err) else type(err).__name__
                self._fail(f"line {number} is not a JSON object: {first[:200]}")
            if number == 1:
                self._check_header(data)
            else:
                self._take_rows(data, number)

    def _check_header(self, data) -> None:
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            got = data.get("format") if isinstance(data, dict) else type(data).__name__
            self._fail(f"line 1 is not a fatezoo arena's saved games (format {got!r}, "
                       f"expected {FORMAT!r})")
        for key in HEADER_KEYS:
            if data.get(key) != self.header[key]:
                self._fail(f"holds the games of another arena: its {key} is "
                           f"{_short(data.get(key))}, this arena's {_short(self.header[key])} "
                           "(run the same arena to go on, or give another file)")
        extra = sorted(set(data) - set(HEADER_KEYS))
        if extra:
            self._fail(f"line 1 has unknown key {extra[0]!r}")

    def _take_rows(self, data, number: int) -> None:
        where = f"line {number}"
        n, games = self.header["num_players"], self.header["games"]
        keys = ["games", "returns", "truncated", "lengths"]
        if self.header["score_field"] is not None:
            keys.append("scores")
        if not isinstance(data, dict) or sorted(data) != sorted(keys):
            got = sorted(data) if isinstance(data, dict) else type(data).__name__
            self._fail(f"{where} should have the keys {keys}, got {got}")
        index = data["games"]
        if not isinstance(index, list) or not all(is_int(i) and 0 <= i < games
                                                 for i in index):
            self._fail(f"{where}: games must be a list of game indices in [0, {games})")
        rows = len(index)
        if len(set(index)) < rows or self.have[index].any():
            seen = next(i for k, i in enumerate(index) if self.have[i] or i in index[:k])
            self._fail(f"{where}: game {seen} is saved twice")
        returns = _numbers(data["returns"], rows, n)
        scores = _numbers(data.get("scores"), rows, n) if "scores" in data else None
        truncated = data["truncated"]
        lengths = data["lengths"]
        if returns is None or ("scores" in data and scores is None):
            self._fail(f"{where}: returns and scores must be {rows} lists of {n} finite numbers")
        if not (isinstance(truncated, list) and len(truncated) == rows
                and all(isinstance(t, bool) for t in truncated)):
            self._fail(f"{where}: truncated must be a list of {rows} true/false values")
        if not (isinstance(lengths, list) and len(lengths) == rows
                and all(is_int(v) and 1 <= v < 2**62 for v in lengths)):
            self._fail(f"{where}: lengths must be a list of {rows} ints >= 1")
        parts = [np.asarray(returns, np.float32), np.asarray(truncated, bool),
                 np.asarray(lengths, np.int64)]
        if scores is not None:
            parts.append(np.asarray(scores, np.float64))
        for array, part in zip(self.arrays, parts):
            array[index] = part
        self.have[index] = True

    def _append(self, data: dict) -> None:
        line = json.dumps(data, separators=(",", ":"), allow_nan=False).encode() + b"\n"
        self._file.seek(0, os.SEEK_END)
        self._file.write(line)
        self._file.flush()
        os.fsync(self._file.fileno())

    def save(self, index: np.ndarray, rows) -> None:
        """Append the arena games ``index``, played: ``rows`` as :func:`.play_games` gives them.

        The line is flushed to disk before this returns.
        """
        data = {"games": [int(i) for i in index],
                "returns": [[float(x) for x in row] for row in rows[0]],
                "truncated": [bool(t) for t in rows[1]],
                "lengths": [int(v) for v in rows[2]]}
        if self.header["score_field"] is not None:
            data["scores"] = [[float(x) for x in row] for row in rows[3]]
        self._append(data)

    def close(self) -> None:
        """Close the file (and release its lock)."""
        if self._file is not None:
            self._file.close()
            self._file = None


def _numbers(value, rows: int, n: int):
    """``value`` as ``rows`` lists of ``n`` finite numbers, or None."""
    if not isinstance(value, list) or len(value) != rows:
        return None
    for row in value:
        if not (isinstance(row, list) and len(row) == n and all(map(_finite, row))):
            return None
    return value


def _finite(x) -> bool:
    """A JSON number a float holds: an int of at most 300 digits or a finite float."""
    if is_int(x):
        return abs(x) < 10**300
    return isinstance(x, float) and math.isfinite(x)


def _short(value) -> str:
    text = json.dumps(value)
    return text if len(text) <= 80 else text[:77] + "..."


__all__ = ["FORMAT", "MAX_BYTES", "SavedGames", "arena_header"]
