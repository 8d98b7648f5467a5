"""The header every game record starts with, and helpers for record dtypes.

A game's ``STATE_DTYPE`` is ``make_state_dtype(GAME_FIELDS)``: the core reads and writes
only these header fields, the game kernels own the rest.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np

MAX_PLAYERS = 6

HEADER_FIELDS = [
    ("rng", np.int64, (4,)),  # xorshift128 words, see rng.py
    ("num_players", np.int8),
    ("current_player", np.int8),  # whose decision it is
    ("terminated", np.int8),
    ("truncated", np.int8),
    ("reward_mode", np.int8),  # REWARD_WIN or REWARD_SCORE
    ("turn", np.int32),  # completed player turns (max_turns counts these)
    ("steps", np.int32),  # decisions taken by agents
    ("max_turns", np.int32),
    ("rewards", np.float32, (MAX_PLAYERS,)),  # rewards of the last step
    ("returns", np.float32, (MAX_PLAYERS,)),  # sum of rewards so far
]

REWARD_WIN = 0
REWARD_SCORE = 1
REWARD_MODES = {"win": REWARD_WIN, "score": REWARD_SCORE}

# Held-out setups: a game's ``split`` option and the int8 record field ``split`` it sets.
# "all" deals every setup the rules allow; "train" never deals a "test" setup, and "test"
# only those, by construction in the game's reset kernel (its RULES.md says what varies).
SPLIT_ALL, SPLIT_TRAIN, SPLIT_TEST = 0, 1, 2
SPLITS = {"all": SPLIT_ALL, "train": SPLIT_TRAIN, "test": SPLIT_TEST}


def split_code(game: str, split) -> int:
    """The record value of a ``split`` option; a one-line error naming a bad one."""
    if not isinstance(split, str) or split not in SPLITS:
        raise ValueError(f"{game}: split must be one of 'all', 'train', 'test', got {split!r}")
    return SPLITS[split]


# the core files holding numba code, or shaping what kernels compile (layout offsets)
KERNEL_SOURCES = ("jit.py", "numba_fixes.py", "kernels.py", "rng.py", "state.py", "layout.py",
                  "zones.py", "stack.py", "decisions.py", "dice.py", "knowledge.py")


def code_fingerprint(game_dir) -> str:
    """Hash of the core's kernel sources and of every Python file under ``game_dir``.

    Subfolders count too (a game that splits ``rules/`` into modules must never run
    stale cached kernels); each file is keyed by its path relative to its root.
    """
    digest = hashlib.sha1()
    core = Path(__file__).resolve().parent
    game_dir = Path(game_dir).resolve()
    paths = [(core, core / name) for name in KERNEL_SOURCES]
    paths += [(game_dir, p) for p in sorted(game_dir.rglob("*.py"))
              if "__pycache__" not in p.relative_to(game_dir).parts]
    for root, path in paths:
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def make_state_dtype(game: str, game_fields, game_dir) -> np.dtype:
    """Return the record dtype: ``<game>_format``, the core header, then ``game_fields``.

    The leading ``<game>_format`` field (the record format version, checked on load)
    keeps every game's dtype distinct from the first byte on, so no game's record type
    is ever a prefix, and so a numba subtype, of another's.

    The last field, one padding byte named ``_code_<hash>``, carries a fingerprint of
    the core and game sources. Numba keys its on-disk cache by a function's own file
    and argument types only, so a kernel that inlines code from another file (every
    shared driver does) would otherwise keep running stale code after an edit; with
    the fingerprint in the record type, any source change recompiles.
    """
    return np.dtype([(f"{game}_format", np.int8)] + HEADER_FIELDS + list(game_fields)
                    + [(f"_code_{code_fingerprint(game_dir)}", np.uint8)])


def _memoize_struct_types() -> None:
    """Make numba's typing of record arrays O(1) instead of ~1 ms per call.

    Numba rebuilds the Record type of a structured dtype from scratch every time a
    structured array is passed to a jitted function (``numpy_support.from_dtype``);
    for a game record with dozens of fields that costs a millisecond per call. The
    mapping dtype -> type is pure, so it is memoized here, once, for every game.
    """
    from numba.np import numpy_support

    original = numpy_support.from_dtype
    if getattr(original, "_fatezoo_memo", False):
        return
    memo = {}

    def from_dtype(dtype):
        if getattr(dtype, "fields", None) is None:
            return original(dtype)
        t = memo.get(dtype)
        if t is None:
            t = memo[dtype] = original(dtype)
        return t

    from_dtype._fatezoo_memo = True
    numpy_support.from_dtype = from_dtype


_memoize_struct_types()
