"""The agent protocol and the two simplest agents (random, the game's heuristic).

An agent answers ``act_batch(obs (B, D), masks (B, A)) -> actions (B,)``; ``act`` wraps
it for one observation. Search agents that need the game itself (and see it only
through the game's ``determinize``) set ``needs_records = True`` and answer
``act_records(records (B,), masks (B, A))`` instead, where each record is at a decision
of its ``current_player``.
"""

from __future__ import annotations

import numpy as np

from fatezoo.envs.core.kernels import SERIAL_BELOW, batch_random_actions, serial_random_actions
from fatezoo.envs.core.registry import get_spec
from fatezoo.envs.core.rng import rng_rows


class Agent:
    """Base class: subclasses implement :meth:`act_batch`; :meth:`act` wraps it."""

    name = "agent"
    needs_records = False

    def __init__(self, seed=None):
        self.seed(seed)

    def seed(self, seed=None) -> None:
        """Reseed the agent's own generator."""
        self._seed = seed
        self._rng_rows = None

    def _rng(self, batch: int) -> np.ndarray:
        """(batch, 4) generator words, grown on demand and kept across calls."""
        if self._rng_rows is None or len(self._rng_rows) < batch:
            base = 0 if self._rng_rows is None else len(self._rng_rows)
            seed = self._seed if self._seed is not None else int(
                np.random.SeedSequence().entropy % 2**62)
            new = rng_rows(seed, batch - base, start=base)
            self._rng_rows = new if self._rng_rows is None else np.vstack([self._rng_rows, new])
        return self._rng_rows[:batch]

    def act(self, observation, action_mask) -> int:
        """One action for one observation and its int8 mask."""
        return int(self.act_batch(np.asarray(observation, np.float32)[None],
                                  np.asarray(action_mask, np.int8)[None])[0])

    def act_batch(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """Actions (B,) int64 for observations (B, D) and masks (B, A)."""
        raise NotImplementedError

    def act_records(self, records: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """Actions (B,) for game records at decisions (only if ``needs_records``)."""
        raise NotImplementedError(f"{type(self).__name__} acts on observations")


class RandomAgent(Agent):
    """Uniform over the legal actions."""

    name = "random"

    def act_batch(self, obs, masks):
        """Uniform legal actions."""
        masks = np.ascontiguousarray(masks, np.int8)
        out = np.empty(len(masks), np.int64)
        kernel = serial_random_actions if len(masks) < SERIAL_BELOW else batch_random_actions
        kernel(masks, self._rng(len(masks)), out)
        return out


class HeuristicAgent(Agent):
    """The game's own hand-written policy (reads only the observation)."""

    name = "heuristic"

    def __init__(self, game: str, seed=None):
        super().__init__(seed)
        spec = get_spec(game)
        if spec.heuristic is None:
            raise ValueError(f"{game} has no heuristic agent yet")
        self._policy = spec.heuristic
        self.game = game

    def act_batch(self, obs, masks):
        """Heuristic actions."""
        return self._policy(np.ascontiguousarray(obs, np.float32),
                            np.ascontiguousarray(masks, np.int8), self._rng(len(masks)))


__all__ = ["Agent", "HeuristicAgent", "RandomAgent"]
