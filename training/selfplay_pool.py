"""Who plays the seats that are not the learner's: :class:`OpponentPool`.

Fixed kinds (agent specs such as ``random`` or ``heuristic``, one agent object per spec)
and frozen snapshots of the learner (``self``), drawn by weight for each seat when a game
is dealt (the rule is in the class docs).
"""

from __future__ import annotations

from collections import deque

import numpy as np

from fatezoo.agents import make_agent
from fatezoo.agents.base import Agent
from fatezoo.envs.core.registry import get_spec
from fatezoo.envs.core.rng import check_seed

from .selfplay_snapshots import SELF, SnapshotAgent

DEFAULT_WEIGHTS = {"random": 0.2, "heuristic": 0.8}


class OpponentPool:
    """Who plays the seats that are not the learner's.

    Sampling rule: when a game is dealt, each non-learner seat independently gets an
    opponent. A kind is drawn with probability proportional to ``weights``; a kind is
    an agent spec for :func:`fatezoo.agents.make_agent` (``"random"``, ``"heuristic"``,
    ``"ismcts:sims=50"``, ...; one agent object per spec, shared by all rows) or
    ``"self"``: a frozen snapshot of the learner, uniform among the last ``pool_size``
    added with :meth:`add_snapshot`. While there is no snapshot, ``"self"`` is dropped and
    the other kinds keep their relative weights (with only ``"self"`` weighted, the
    first snapshot must be added before the env is reset). ``"heuristic"`` is dropped
    for games without a heuristic.

    Args:
        game: registered game name.
        weights: kind -> non-negative weight (default: random 0.2, heuristic 0.8).
        num_players: seats per game (passed to the agents).
        pool_size: snapshots kept for ``"self"``.
        seed: seeds the sampling generator, every agent and every snapshot.
        deterministic_snapshots: snapshots play their most likely action instead of
            sampling.
    """

    def __init__(self, game: str, weights: dict | None = None, num_players: int = 2,
                 pool_size: int = 8, seed: int | None = 0,
                 deterministic_snapshots: bool = False):
        self.spec = get_spec(game)
        self.game = game
        weights = dict(DEFAULT_WEIGHTS if weights is None else weights)
        if not weights:
            raise ValueError(f"{game}: opponent weights must name at least one kind, got {{}}")
        for kind, w in weights.items():
            if not isinstance(kind, str):
                raise TypeError(f"{game}: opponent kinds must be agent spec strings or "
                                f"'self', got {kind!r}")
            if isinstance(w, bool) or not isinstance(w, (int, float, np.integer, np.floating)) \
                    or not np.isfinite(w) or w < 0:
                raise ValueError(f"{game}: opponent weight of {kind!r} must be a finite "
                                 f"number >= 0, got {w!r}")
        given = dict(weights)
        if self.spec.heuristic is None:
            weights.pop("heuristic", None)
        weights = {k: float(w) for k, w in weights.items() if w > 0}
        if not weights:
            raise ValueError(f"{game}: every opponent weight is 0 (or names a kind this "
                             f"game lacks); got {given!r}")
        if isinstance(pool_size, bool) or not isinstance(pool_size, (int, np.integer)) \
                or pool_size < 1:
            raise ValueError(f"{game}: pool_size must be a positive int, got {pool_size!r}")
        self.weights = weights
        self.num_players = int(num_players)
        self.pool_size = int(pool_size)
        self.deterministic_snapshots = bool(deterministic_snapshots)
        self.seed_value = (int(np.random.SeedSequence().entropy % 2**62) if seed is None
                           else check_seed(seed))
        seq = np.random.SeedSequence(self.seed_value)
        self._rng = np.random.default_rng(seq.spawn(1)[0])
        self._agent_seeds = np.random.default_rng(seq.spawn(1)[0])
        self.agents: dict[int, Agent] = {}  # id -> agent (fixed kinds, live snapshots)
        self._next_id = 0
        self.fixed: dict[str, int] = {}  # kind -> id
        for kind in weights:
            if kind == SELF:
                continue
            agent = make_agent(kind, game, num_players=self.num_players,
                               seed=self._next_seed())
            self.fixed[kind] = self._register(agent)
        self.snapshots: deque[int] = deque(maxlen=self.pool_size)  # ids of sampled snapshots
        self.snapshots_added = 0

    def _next_seed(self) -> int:
        return int(self._agent_seeds.integers(2**62))

    def _register(self, agent) -> int:
        i = self._next_id
        self._next_id += 1
        self.agents[i] = agent
        return i

    def add_snapshot(self, policy, name: str | None = None) -> SnapshotAgent:
        """Freeze a copy of ``policy`` and make it drawable as ``"self"``.

        Args:
            policy: the learner's ``model.policy`` (copied; training goes on unaffected).
            name: label (default ``self#k`` for the k-th snapshot).

        Returns:
            The new :class:`SnapshotAgent`. The oldest of more than ``pool_size``
            snapshots is no longer drawn (games already using it finish with it).
        """
        self.snapshots_added += 1
        agent = SnapshotAgent(policy, name or f"{SELF}#{self.snapshots_added}",
                              seed=self._next_seed(), deterministic=self.deterministic_snapshots)
        self.snapshots.append(self._register(agent))
        return agent

    def collect(self, in_use) -> None:
        """Forget retired snapshots that no game in ``in_use`` (agent ids) still needs."""
        keep = set(self.fixed.values()) | set(self.snapshots) | {int(i) for i in in_use}
        for i in [i for i in self.agents if i not in keep]:
            del self.agents[i]

    def probabilities(self) -> dict[str, float]:
        """The kind -> probability a seat gets now (``"self"`` only once snapshots exist)."""
        w = {k: v for k, v in self.weights.items() if k != SELF or self.snapshots}
        total = sum(w.values())
        if total <= 0:
            raise RuntimeError(f"{self.game}: the opponent pool has only 'self' and no "
                               "snapshot yet; call add_snapshot(model.policy) first")
        return {k: v / total for k, v in w.items()}

    def draw(self, count: int) -> np.ndarray:
        """Agent ids for ``count`` seats, drawn by the sampling rule (class docs)."""
        probs = self.probabilities()
        kinds = list(probs)
        pick = self._rng.choice(len(kinds), size=count, p=np.array([probs[k] for k in kinds]))
        ids = np.empty(count, np.int64)
        snaps = np.asarray(self.snapshots, np.int64)
        for j, kind in enumerate(kinds):
            sel = pick == j
            if not sel.any():
                continue
            if kind == SELF:
                ids[sel] = snaps[self._rng.integers(len(snaps), size=int(sel.sum()))]
            else:
                ids[sel] = self.fixed[kind]
        return ids

    def label(self, agent_id: int) -> str:
        """The name of agent ``agent_id`` (its spec, or the snapshot's name)."""
        for kind, i in self.fixed.items():
            if i == agent_id:
                return kind
        return self.agents[agent_id].name


__all__ = ["DEFAULT_WEIGHTS", "OpponentPool", "SELF"]
