"""The entry points every game's ``env.py`` exports, made once here.

A game's ``env.py`` is its doc page (the module docstring) and one line::

    raw_env, env, vec = entry_points(SPEC, __doc__, __name__)

``raw_env`` is the PettingZoo AEC class, ``env(**options)`` builds it and
``vec(num_envs, **options)`` builds the batched :class:`VecEnv`. Each names itself as
living in the game's module, so pickling and ``help()`` find them there.
"""

from __future__ import annotations

from .aec import FatezooAEC
from .vector import VecEnv


def entry_points(spec, doc: str, module: str) -> tuple:
    """``(raw_env, env, vec)`` for the game of ``spec``, as attributes of ``module``."""
    title = (doc or spec.name).split(":", 1)[0].strip()
    raw_env = type("raw_env", (FatezooAEC,), {
        "SPEC": spec, "__doc__": doc, "__module__": module, "__qualname__": "raw_env"})

    def env(**kwargs) -> FatezooAEC:
        return raw_env(**kwargs)

    def vec(num_envs: int = 1, **kwargs) -> VecEnv:
        return VecEnv(spec, num_envs, **kwargs)

    env.__doc__ = f"A {title} AEC env (the raw env: it validates everything itself)."
    vec.__doc__ = f"A batched {title} vector env (see fatezoo.envs.core.vector.VecEnv)."
    for fn in (env, vec):
        fn.__module__, fn.__qualname__ = module, fn.__name__
    return raw_env, env, vec
