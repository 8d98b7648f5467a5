"""Kitgame: the rule kit's worked example (2-4 players; rules: RULES.md)."""

from __future__ import annotations

from fatezoo.envs.core.aec import FatezooAEC
from fatezoo.envs.core.vector import VecEnv

from . import SPEC


class raw_env(FatezooAEC):  # noqa: N801  (PettingZoo naming)
    """The kitgame AEC environment."""

    SPEC = SPEC


def env(**kwargs) -> raw_env:
    """A kitgame AEC env."""
    return raw_env(**kwargs)


def vec(num_envs: int = 1, **kwargs) -> VecEnv:
    """A batched kitgame vector env."""
    return VecEnv(SPEC, num_envs, **kwargs)
