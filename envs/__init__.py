"""fatezoo environments: one folder per game over the shared core in ``core/``."""

from .core import IllegalActionError, VecEnv, game_names, get_module, get_spec

GAMES = game_names()


def make(game: str, **kwargs):
    """A PettingZoo AEC env of ``game`` (``num_players``, ``render_mode``, options...)."""
    return get_module(game).env(**kwargs)


def make_vec(game: str, num_envs: int = 1, **kwargs) -> VecEnv:
    """A batched vector env of ``num_envs`` games (``seed``, ``auto_reset``, options...)."""
    return VecEnv(get_spec(game), num_envs, **kwargs)


__all__ = ["GAMES", "IllegalActionError", "make", "make_vec"]
