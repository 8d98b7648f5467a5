"""The gymnasium entry point of ``fatezoo/<Game>-v0``: agent specs become opponents here.

It lives above the core (``fatezoo.envs.core.gym_env.GymEnv`` takes an agent object) so
that the core never imports :mod:`fatezoo.agents`.

>>> import gymnasium
>>> import fatezoo
>>> env = gymnasium.make("fatezoo/Fatefell-v0", opponent="heuristic")
"""

from __future__ import annotations

from fatezoo.envs.core.gym_env import GymEnv


def make_env(game: str = "fatefell", opponent="random", num_players: int = 2, **kwargs) -> GymEnv:
    """A :class:`GymEnv` whose opponent is an agent spec (``fatezoo.agents.make_agent``).

    Args:
        game: registered game name.
        opponent: an agent spec (``"random"``, ``"heuristic"``, ``"ismcts:sims=50"``,
            ...), an agent object with ``act(observation, action_mask)``, or None.
        num_players: seats in the game.
        **kwargs: the other :class:`GymEnv` arguments and the game options.
    """
    if isinstance(opponent, str):
        from fatezoo.agents import make_agent

        opponent = make_agent(opponent, game, num_players=num_players)
    return GymEnv(game, num_players=num_players, opponent=opponent, **kwargs)


make_env.metadata = GymEnv.metadata  # gymnasium.make reads the render modes from here

__all__ = ["make_env"]
