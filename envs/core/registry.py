"""The game registry: every folder ``envs/<game>/`` whose ``__init__`` defines ``SPEC``.

Games outside ``envs/`` (a test game, a game still being written) are added with
:func:`register_game_package`; they can then be named in ``get_spec``, ``get_module``,
``fatezoo.make`` and the contract checks of ``testing.py``, but never appear in
``game_names()`` or ``fatezoo.GAMES``.
"""

from __future__ import annotations

import importlib
import json
import os
import pkgutil
import sys
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


EXTRA_ENV = "FATEZOO_GAME_PACKAGES"  # JSON {name: [package, sys.path entry or null]}


def _extra_packages() -> dict:
    """Games added by :func:`register_game_package` (here or in a parent process)."""
    try:
        extra = json.loads(os.environ.get(EXTRA_ENV) or "{}")
    except ValueError:
        return {}
    return extra if isinstance(extra, dict) else {}


def register_game_package(name: str, package: str, path=None) -> None:
    """Make the game package ``package`` (a folder shaped like ``envs/<game>/``) known as ``name``.

    Example (the test game, from the kit tests)::

        register_game_package("kitgame", "kitgame", path="tests")
        fatezoo.make("kitgame", num_players=3)
        testing.check_game("kitgame", num_players=3)

    Args:
        name: the name ``get_spec``/``make`` accept (the spec's ``name``).
        package: importable dotted module name of the game package.
        path: a folder put on ``sys.path`` so that ``package`` imports, or None.

    The registration is stored in the environment variable ``FATEZOO_GAME_PACKAGES``, so
    spawned workers and subprocesses (``check_determinism``, ``check_nojit``) see it
    too. The game is not added to ``game_names()``; its gym id is registered.
    """
    if name in game_names():
        raise ValueError(f"game {name!r} already exists in fatezoo.envs")
    extra = _extra_packages()
    extra[name] = [package, None if path is None else os.path.abspath(path)]
    os.environ[EXTRA_ENV] = json.dumps(extra)
    spec = get_spec(name)
    import gymnasium

    if spec.gym_id not in gymnasium.registry:
        gymnasium.register(id=spec.gym_id, entry_point="fatezoo.envs.core.gym_env:GymEnv",
                           kwargs={"game": name})


def _module_name(game: str) -> str:
    if game in game_names():
        return f"fatezoo.envs.{game}"
    extra = _extra_packages()
    if isinstance(game, str) and game in extra:
        package, path = extra[game]
        if path and path not in sys.path:
            sys.path.insert(0, path)
        return package
    raise ValueError(f"unknown game {game!r}; expected one of {list(game_names())}")


def get_spec(game: str):
    """The :class:`GameSpec` of ``game``; raises naming the known games."""
    return importlib.import_module(_module_name(game)).SPEC


def get_module(game: str):
    """The game's package (``env()``, ``raw_env()``, ``vec()``)."""
    return importlib.import_module(_module_name(game))
