"""The batched vector env: B games of one kind stepped by one numba call.

``obs, mask, player = vec.reset()`` gives each game's current player's observation and
legal mask; ``vec.step(actions)`` takes one action per game. The returned arrays are
the env's own buffers, valid until the next call: copy what you keep.
"""

from __future__ import annotations

import numpy as np

from . import kernels as K
from .rng import check_seed, rng_rows, seed_words
from .session import load_records
from .spec import GameSpec, IllegalActionError
from .state import MAX_PLAYERS


class VecEnv:
    """``num_envs`` games of one kind on the batched core.

    Args:
        spec: the game.
        num_envs: batch size B.
        seed: int (game j depends only on (seed, j)), a sequence of B ints (game j is
            the game an AEC env deals with ``reset(seed=seeds[j])``), or None.
        auto_reset: when a game ends, report its final rewards and flags and deal the
            next game in the same step (its observation is returned; no action is
            dropped). Without it, pass -1 for ended games until :meth:`reset`.
        **options: ``num_players``, ``max_turns``, ``reward`` and the game's own options.
    """

    def __init__(self, spec: GameSpec, num_envs: int, seed=None, auto_reset=True, **options):
        if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)) \
                or num_envs < 1:
            raise ValueError(f"{spec.name}: num_envs must be a positive int, got {num_envs!r}")
        self.spec = spec
        self.num_envs = int(num_envs)
        self.auto_reset = bool(auto_reset)
        self.options = dict(options)
        self.fields = spec.options(**options)
        self.num_players = self.fields["num_players"]
        self.num_actions = spec.num_actions
        self.obs_size = spec.obs_size
        self.states = spec.new_states(self.num_envs, self.fields)
        b = self.num_envs
        self.mask, self.obs, self._rewards, self._term, self._trunc = K.empty_buffers(
            b, spec.num_actions, spec.obs_size, MAX_PLAYERS)
        self._actions = np.zeros(b, np.int64)
        self._seed = seed
        self.started = False

    def seed_states(self, seed=None) -> None:
        """Write the RNG words of every game for ``seed`` (see the class docs)."""
        b = self.num_envs
        if seed is None or isinstance(seed, (int, np.integer)) and not isinstance(seed, bool):
            if seed is None:
                seed = int(np.random.SeedSequence().entropy % (2**62))
            self.states["rng"] = rng_rows(check_seed(seed), b)
        else:
            seeds = list(seed)
            if len(seeds) != b:
                raise ValueError(f"{self.spec.name}: got {len(seeds)} seeds for {b} envs")
            self.states["rng"] = np.stack([seed_words(check_seed(s), 0) for s in seeds])

    def reset(self, seed=None):
        """Deal new games (``seed`` as in the constructor; None reuses the constructor's)."""
        self.seed_states(self._seed if seed is None and not self.started else seed)
        K.batch_reset(self.states, self.mask, self.obs)
        self._term[:] = 0
        self._trunc[:] = 0
        self.started = True
        return self.obs, self.mask, self.current_player

    @property
    def current_player(self) -> np.ndarray:
        """Seat whose decision it is, per game, as int64."""
        return self.states["current_player"].astype(np.int64)

    def check_actions(self, actions) -> np.ndarray:
        """Validate one action per game (shape, dtype, range, legality) before any game kernel."""
        name = self.spec.name
        if not self.started:
            raise RuntimeError(f"{name}: call reset() before step()")
        a = np.asarray(actions)
        if a.shape != (self.num_envs,):
            raise ValueError(f"{name}: actions must have shape ({self.num_envs},), got {a.shape}")
        if a.dtype.kind not in "iu":
            raise IllegalActionError(f"{name}: actions must be integers, got dtype {a.dtype}")
        i = K.first_bad_action(a, self.mask, self._term, self._trunc, self.auto_reset)
        if i >= 0:
            raise IllegalActionError(self._explain(i, a[i]))
        np.copyto(self._actions, a, casting="unsafe")
        return self._actions

    def _explain(self, i: int, a) -> str:
        """The error message for env ``i``'s bad action ``a``."""
        name = self.spec.name
        if not self.auto_reset and (self._term[i] or self._trunc[i]):
            return f"{name}: env {i} has ended; pass -1 for it or call reset(), got action {a}"
        if not 0 <= a < self.num_actions:
            return f"{name}: env {i} got action {a}, expected an int in [0, {self.num_actions})"
        return (f"{name}: env {i} got illegal action {a} ({self.spec.action_names[a]}); "
                f"legal actions are {np.flatnonzero(self.mask[i]).tolist()}")

    def step(self, actions):
        """Apply one action per game.

        Returns:
            obs (B, D) float32, mask (B, A) int8, player (B,) int64, rewards (B, n)
            float32, terminated (B,) bool, truncated (B,) bool.
        """
        acts = self.check_actions(actions)
        K.batch_step(self.states, acts, self.mask, self.obs, self._rewards,
                                     self._term, self._trunc, self.auto_reset)
        return (self.obs, self.mask, self.current_player, self._rewards[:, : self.num_players],
                self._term.view(bool), self._trunc.view(bool))

    def observe(self, players) -> np.ndarray:
        """Observations of every game for ``players`` (B,) seats (a new array)."""
        p = np.asarray(players, np.int64)
        if p.shape != (self.num_envs,) or (p < 0).any() or (p >= self.num_players).any():
            raise ValueError(f"{self.spec.name}: players must be ({self.num_envs},) seats in "
                             f"[0, {self.num_players}), got {players!r}")
        out = np.zeros((self.num_envs, self.obs_size), np.float32)
        K.batch_encode(self.states, p, out)
        return out

    def clone(self) -> "VecEnv":
        """An independent copy: same games, same RNG states, same buffers."""
        other = VecEnv.__new__(VecEnv)
        other.__dict__.update(self.__dict__)
        for k in ("states", "obs", "mask", "_rewards", "_term", "_trunc", "_actions"):
            setattr(other, k, getattr(self, k).copy())
        other.options = dict(self.options)
        return other

    def save_states(self) -> bytes:
        """Every record as bytes."""
        return self.states.tobytes()

    def load_states(self, data: bytes) -> None:
        """Restore records saved by :meth:`save_states` (validated)."""
        self.states[:] = load_records(self.spec, data, self.num_envs, self.fields)
        for i in range(self.num_envs):
            K.mask_one(self.states, i, self.mask[i])
        K.batch_encode(self.states, self.current_player, self.obs)
        self._term[:] = self.states["terminated"]
        self._trunc[:] = self.states["truncated"]
        self.started = True
