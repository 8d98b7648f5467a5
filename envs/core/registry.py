"""The game registry: every folder ``envs/<game>/`` whose ``__init__`` defines ``SPEC``."""

from __future__ import annotations

import importlib
import pkgutil
from functools import lru_cache
from pathlib import Path

_ENVS = Path(__file__).resolve().parent.parent


@lru_cache(maxsize=None)
def game_names() -> tuple[str, ...]:
    """Names of the registered games, sorted."""
    names = []
    for info in pkgutil.iter_modules([str(_ENVS)]):
        if info.ispkg and info.name not in ("core",) and not info.name.startswith("_"):
            names.append(info.name)
    return tuple(sorted(names))


def get_spec(game: str):
    """The :class:`GameSpec` of ``game``; raises naming the known games."""
    if game not in game_names():
        raise ValueError(f"unknown game {game!r}; expected one of {list(game_names())}")
    return importlib.import_module(f"fatezoo.envs.{game}").SPEC


def get_module(game: str):
    """The game's package (``env()``, ``raw_env()``, ``vec()``)."""
    get_spec(game)
    return importlib.import_module(f"fatezoo.envs.{game}")
