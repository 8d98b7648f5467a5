"""fatezoo environments: one folder per game over the shared core in ``core/``.

Each game ``envs/<game>/`` is also importable as ``fatezoo.envs.<game>_v0`` (generated).
"""

from .core import IllegalActionError, VecEnv, game_names, get_module, get_spec
from .core.registry import VERSION_SUFFIX, alias_module

GAMES = game_names()

for _game in GAMES:
    globals()[f"{_game}{VERSION_SUFFIX}"] = alias_module(_game)
del _game


def __getattr__(name: str):
    if name.endswith(VERSION_SUFFIX) and name[: -len(VERSION_SUFFIX)] in GAMES:
        return alias_module(name[: -len(VERSION_SUFFIX)])
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def make(game: str, **kwargs):
    """A PettingZoo AEC env of ``game`` (``num_players``, ``render_mode``, options...)."""
    return get_module(game).env(**kwargs)


def make_vec(game: str, num_envs: int = 1, **kwargs) -> VecEnv:
    """A batched vector env of ``num_envs`` games (``seed``, ``auto_reset``, options...)."""
    return VecEnv(get_spec(game), num_envs, **kwargs)


__all__ = ["GAMES", "IllegalActionError", "make", "make_vec"]
