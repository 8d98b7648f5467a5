"""The agent protocol and the two simplest agents (random, the game's heuristic).

An agent answers ``act_batch(obs (B, D), masks (B, A), rng=None) -> actions (B,)``;
``act`` wraps it for one observation. Search agents that need the game itself (and see it
only through the game's ``determinize``) set ``needs_records = True`` and answer
``act_records(records (B,), masks (B, A), rng=None)`` instead, where each record is at a
decision of its ``current_player``.

Randomness: with ``rng=None`` an agent draws from its own seeded generator, one stream
per *row position* of the call, so its choices depend on how the caller batches rows.
A caller that needs row ``i``'s action to depend only on row ``i`` (the arena: game ``g``
must play the same whatever the batch size and whichever other games are at a decision)
passes ``rng``, a C-contiguous (B, 4) int64 array of generator words
(:mod:`fatezoo.envs.core.rng`), one stream per row; the agent draws row ``i``'s randomness
from ``rng[i]`` only and advances those words in place. A fancy-indexed selection
(``words[sel]``) is a copy: write it back after the call. Agents without randomness
(deterministic policies, people) ignore ``rng``. :func:`accepts_rng` tells whether an
agent object (maybe not an :class:`Agent`) takes the argument.
"""

from __future__ import annotations

import inspect

import numpy as np

from fatezoo.envs.core.kernels import SERIAL_BELOW, batch_random_actions, serial_random_actions
from fatezoo.envs.core.registry import get_spec
from fatezoo.envs.core.rng import rng_rows


def accepts_rng(method) -> bool:
    """Whether an ``act_batch`` / ``act_records`` method takes the ``rng`` keyword."""
    try:
        params = inspect.signature(method).parameters
    except (TypeError, ValueError):
        return False
    return "rng" in params or any(p.kind is p.VAR_KEYWORD for p in params.values())


def check_rng(rng, rows: int) -> np.ndarray:
    """``rng`` if it is a C-contiguous (rows, 4) int64 array, else a one-line error.

    Words are advanced in place, so nothing is converted: a converted copy would leave
    the caller's streams where they were and replay the same draws next time.
    """
    if not (isinstance(rng, np.ndarray) and rng.dtype == np.int64 and rng.shape == (rows, 4)
            and rng.flags.c_contiguous and rng.flags.writeable):
        got = (f"{rng.dtype} array of shape {rng.shape}" if isinstance(rng, np.ndarray)
               else type(rng).__name__)
        raise ValueError(f"rng must be a writable C-contiguous int64 array of shape "
                         f"({rows}, 4) (generator words, one row per action asked), got {got}")
    return rng


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

    def _words(self, rows: int, rng) -> np.ndarray:
        """The generator words for ``rows`` rows: the caller's ``rng`` or the agent's own."""
        return self._rng(rows) if rng is None else check_rng(rng, rows)

    def act(self, observation, action_mask, rng=None) -> int:
        """One action for one observation and its int8 mask.

        ``rng``: None (the agent's own generator) or a (4,) int64 array of generator words,
        advanced in place.
        """
        if rng is not None:
            rng = check_rng(rng.reshape(1, 4) if isinstance(rng, np.ndarray)
                            and rng.shape == (4,) else rng, 1)
        return int(self.act_batch(np.asarray(observation, np.float32)[None],
                                  np.asarray(action_mask, np.int8)[None], rng=rng)[0])

    def act_batch(self, obs: np.ndarray, masks: np.ndarray, rng=None) -> np.ndarray:
        """Actions (B,) int64 for observations (B, D) and masks (B, A).

        ``rng``: None (the agent's own generator) or (B, 4) int64 per-row generator words,
        advanced in place (see the module docs).
        """
        raise NotImplementedError

    def act_records(self, records: np.ndarray, masks: np.ndarray, rng=None) -> np.ndarray:
        """Actions (B,) for game records at decisions (only if ``needs_records``).

        ``rng`` as for :meth:`act_batch`.
        """
        raise NotImplementedError(f"{type(self).__name__} acts on observations")


class RandomAgent(Agent):
    """Uniform over the legal actions."""

    name = "random"

    def act_batch(self, obs, masks, rng=None):
        """Uniform legal actions."""
        masks = np.ascontiguousarray(masks, np.int8)
        out = np.empty(len(masks), np.int64)
        kernel = serial_random_actions if len(masks) < SERIAL_BELOW else batch_random_actions
        kernel(masks, self._words(len(masks), rng), out)
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

    def act_batch(self, obs, masks, rng=None):
        """Heuristic actions."""
        masks = np.ascontiguousarray(masks, np.int8)
        return self._policy(np.ascontiguousarray(obs, np.float32), masks,
                            self._words(len(masks), rng))


__all__ = ["Agent", "HeuristicAgent", "RandomAgent", "accepts_rng", "check_rng"]
