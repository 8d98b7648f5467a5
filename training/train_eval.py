"""Evaluation during and after training: the greedy policy against fixed opponents.

:func:`evaluate` plays the live policy (:class:`GreedyPolicyAgent`) against an agent spec on
the batched core, seats rotated, and scores it as the arena does (ties count half).
"""

from __future__ import annotations

import time

import numpy as np

from fatezoo.agents import make_agent
from fatezoo.agents.policy import policy_actions
from fatezoo.envs.core.registry import get_spec

from .arena import game_seeds, play_batch, wilson_interval
from .options import TrainOptions


class GreedyPolicyAgent:
    """The live training policy as an agent (most likely legal action)."""

    name = "learner"
    needs_records = False

    def __init__(self, policy):
        self.policy = policy

    def act_batch(self, obs, masks):
        """Greedy legal actions of the policy."""
        return policy_actions(self.policy, obs, masks, deterministic=True)


def evaluate(game: str, agent, opponent: str, games: int, num_players: int = 2, seed: int = 0,
             options: dict | None = None, batch: int = 256) -> dict:
    """Score of ``agent`` against ``opponent`` in every other seat, on the batched core.

    Game ``g`` seats the agent at ``g % num_players`` and the opponent everywhere else;
    seeds come from ``seed`` (the same games at every evaluation of a run). The agent
    beats an opponent seat when its total reward is higher (a tie is half a win), as in
    :func:`fatezoo.training.arena.run_arena`; with ``reward="win"`` that is winning the
    game.

    Args:
        game: registered game name.
        agent: an object with ``act_batch(obs, masks)`` (e.g. :class:`GreedyPolicyAgent`).
        opponent: an agent spec for :func:`fatezoo.agents.make_agent`.
        games: games to play.
        num_players: seats per game.
        seed: seeds the games and the opponent.
        options: env options (``reward`` defaults to ``"win"``).
        batch: games played at once.

    Returns:
        ``win_rate`` (wins + ties/2 over pairings), ``wins``, ``ties``, ``losses``,
        ``games``, ``ci`` (95% Wilson interval) and ``seconds``.
    """
    start = time.perf_counter()
    opts = dict({"reward": "win"}, **(options or {}))
    opp = make_agent(opponent, game, num_players=num_players, seed=seed + 1)
    seeds = game_seeds(seed, games)
    learner_seat = np.arange(games) % num_players
    wins = ties = losses = 0
    for lo in range(0, games, batch):
        hi = min(lo + batch, games)
        seats = learner_seat[lo:hi]
        seat_agents = np.ones((hi - lo, num_players), np.int64)
        seat_agents[np.arange(hi - lo), seats] = 0
        returns, _, _ = play_batch(game, [agent, opp], seat_agents, seeds[lo:hi],
                                   num_players, opts)
        mine = returns[np.arange(hi - lo), seats][:, None]
        others = np.ones_like(returns, bool)
        others[np.arange(hi - lo), seats] = False
        wins += int(((mine > returns) & others).sum())
        ties += int(((mine == returns) & others).sum())
        losses += int(((mine < returns) & others).sum())
    pairings = wins + ties + losses
    score = wins + 0.5 * ties
    return {"opponent": opponent, "games": int(games), "wins": wins, "ties": ties,
            "losses": losses, "win_rate": score / pairings if pairings else None,
            "ci": list(wilson_interval(score, pairings)),
            "seconds": time.perf_counter() - start}


def eval_opponents(opts: TrainOptions) -> list[str]:
    """The eval opponents of ``opts`` this game supports (no heuristic if it has none)."""
    spec = get_spec(opts.game)
    return [o for o in opts.eval_opponents if not (o == "heuristic" and spec.heuristic is None)]


__all__ = ["GreedyPolicyAgent", "eval_opponents", "evaluate"]
