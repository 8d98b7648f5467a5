"""fatezoo: reinforcement-learning environments for modern tabletop games.

>>> import fatezoo
>>> env = fatezoo.make("fatefell", num_players=2)
>>> env.reset(seed=0)

``help(env)`` (or ``fatezoo docs fatefell``) shows the game's page: its observation and
action tables, options with their meanings, how it ends and its cards.
"""

import os

# numba's OpenMP workers spin-wait between batched steps by default, stealing the cores
# from a learner or a second env process (seen here: 2M -> 125k steps/s on 2 busy
# cores). Passive waiting is the better default for RL; set the variable to override.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

from fatezoo.envs import GAMES, IllegalActionError, make, make_vec  # noqa: E402

__version__ = "0.1.0"
__all__ = ["GAMES", "IllegalActionError", "make", "make_vec", "__version__"]


def _register_gym():
    import gymnasium

    from fatezoo.envs.core.registry import GYM_ENTRY_POINT, get_spec

    for game in GAMES:
        gym_id = get_spec(game).gym_id
        if gym_id not in gymnasium.registry:
            gymnasium.register(id=gym_id, entry_point=GYM_ENTRY_POINT,
                               kwargs={"game": game})


def _attach_pages():
    """``help()`` on a game's env, ``env()`` or ``_v0`` module shows the game's doc page."""
    from fatezoo.envs.core.docs import attach_page
    from fatezoo.envs.core.registry import alias_module, get_spec

    for game in GAMES:
        attach_page(get_spec(game), alias_module(game))


_register_gym()
_attach_pages()
