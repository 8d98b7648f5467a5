"""The game registry: every folder ``envs/<game>/`` whose ``__init__`` defines ``SPEC``.

A game is one folder: nothing else lists it. :func:`game_names` imports each package
folder of ``envs/`` (so a broken spec fails at ``import fatezoo``, naming the game) and
keeps those that define ``SPEC``; a spec whose ``name`` is not its folder's name is an
error. :func:`alias_module` builds the PettingZoo-style ``fatezoo.envs.<game>_v0``
module of a game (no per-game alias file).

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
import types
from functools import lru_cache
from pathlib import Path

_ENVS = Path(__file__).resolve().parent.parent
_PACKAGE = "fatezoo.envs"
VERSION_SUFFIX = "_v0"
# gymnasium ids resolve agent specs above the core (fatezoo/gym_env.py); named, not imported
GYM_ENTRY_POINT = "fatezoo.gym_env:make_env"


def _candidates() -> list[str]:
    return sorted(info.name for info in pkgutil.iter_modules([str(_ENVS)])
                  if info.ispkg and info.name != "core" and not info.name.startswith("_"))


def _load(folder: str):
    """Import ``envs/<folder>``; return its SPEC (None if it defines none), checked."""
    module = importlib.import_module(f"{_PACKAGE}.{folder}")
    spec = getattr(module, "SPEC", None)
    if spec is None:
        return None
    from .spec import GameSpec

    if not isinstance(spec, GameSpec):
        raise TypeError(f"envs/{folder}: SPEC must be a GameSpec, got {type(spec).__name__}")
    if spec.name != folder:
        raise ValueError(f"envs/{folder}: SPEC.name is {spec.name!r}; a game's name must equal "
                         f"its folder name ({folder!r})")
    return spec


@lru_cache(maxsize=None)
def game_names() -> tuple[str, ...]:
    """Names of the registered games (folders of ``envs/`` defining ``SPEC``), sorted."""
    return tuple(name for name in _candidates() if _load(name) is not None)


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
        gymnasium.register(id=spec.gym_id, entry_point=GYM_ENTRY_POINT,
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
    if isinstance(game, str) and game in game_names():
        return _load(game)
    return importlib.import_module(_module_name(game)).SPEC


def get_module(game: str):
    """The game's package (``env()``, ``raw_env()``, ``vec()``)."""
    get_spec(game)
    return importlib.import_module(_module_name(game))


def alias_module(game: str) -> types.ModuleType:
    """``fatezoo.envs.<game>_v0``: the game's ``env``, ``raw_env`` and ``vec``, generated.

    Registered in ``sys.modules`` so both ``import fatezoo.envs.<game>_v0`` and
    ``from fatezoo.envs import <game>_v0`` work.
    """
    full = f"{_PACKAGE}.{game}{VERSION_SUFFIX}"
    if full in sys.modules:
        return sys.modules[full]
    package = get_module(game)
    alias = types.ModuleType(full, f"{get_spec(game).gym_id}: ``env()``, ``raw_env()``, "
                                   f"``vec()`` (see {package.__name__}).")
    exported = [name for name in ("env", "raw_env", "vec") if hasattr(package, name)]
    for name in exported:
        setattr(alias, name, getattr(package, name))
    alias.__all__ = exported
    alias.__package__ = _PACKAGE
    sys.modules[full] = alias
    return alias
