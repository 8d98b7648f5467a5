"""The batched vector env: B games of one kind stepped by one numba call.

``obs, mask, player = vec.reset()`` gives each game's current player's observation and
legal mask; ``vec.step(actions)`` takes one action per game. As in gymnasium's vector
envs, ``step`` returns new arrays by default; ``step(actions, copy=False)`` returns the
env's own buffers instead (no copies; overwritten by the next call), and ``reset``
always returns the buffers.

A game that has ended (without auto-reset, or restored as ended by ``load_states``) has
every action marked legal in its mask, as Pgx does: a masked policy evaluated on it gets
a proper distribution, and whatever action it gets (or -1) is ignored.
"""

from __future__ import annotations

import sys

import numpy as np

from . import kernels as K
from .rng import check_seed, rng_rows, seed_words
from .session import load_records
from .spec import GameSpec, IllegalActionError
from .state import MAX_PLAYERS
from .worlds import sample_records

# Whether sys.getrefcount can tell that nothing outside the env holds an array (CPython with
# its GIL: a temporary's count is exactly its one argument reference).
_REFCOUNTS = (sys.implementation.name == "cpython" and getattr(sys, "_is_gil_enabled",
                                                               lambda: True)()
              and sys.getrefcount(np.empty(0)) == 1)


COUNT_STREAM = 1  # SeedSequence spawn key of drawn player counts (the game's RNG words: 0)


def common_fields(by_players: dict) -> dict:
    """The option fields every player count sets alike (``num_players`` never)."""
    first, *others = by_players.values()
    return {k: v for k, v in first.items() if k != "num_players"
            and all(np.array_equal(v, o[k]) for o in others)}


class PlayerCounts:
    """A vector env's ``num_players``: one count, one per game, or weights to draw from."""

    def __init__(self, spec: GameSpec, batch: int, value):
        name, lo, hi = spec.name, spec.min_players, min(spec.max_players, MAX_PLAYERS)
        self.batch = batch
        self.rows = self.draw = None
        if isinstance(value, dict):
            if not value:
                raise ValueError(f"{name}: num_players weights must name at least one count")
            counts = [self._count(name, n, lo, hi) for n in value]
            weights = np.array([self._weight(name, n, w) for n, w in value.items()])
            if weights.sum() <= 0:
                raise ValueError(f"{name}: num_players weights must not all be 0, got {value!r}")
            keep = weights > 0
            self.values = tuple(np.array(counts)[keep].tolist())
            self.draw = np.cumsum(weights[keep]) / weights[keep].sum()
        elif isinstance(value, (list, tuple, np.ndarray)):
            if len(value) != batch:
                raise ValueError(f"{name}: num_players must be an int, {batch} ints (one per "
                                 f"game) or {{count: weight}}, got {len(value)} values")
            self.rows = np.array([self._count(name, n, lo, hi) for n in value], np.int64)
            self.values = tuple(sorted(set(self.rows.tolist())))
        else:
            self.values = (value,)  # checked by spec.options, as for every env
        self.mixed = self.rows is not None or self.draw is not None

    @staticmethod
    def _count(name, n, lo, hi) -> int:
        if isinstance(n, (bool, np.bool_)) or not isinstance(n, (int, np.integer)) \
                or not lo <= n <= hi:
            raise ValueError(f"{name}: each player count must be an int in [{lo}, {hi}], "
                             f"got {n!r}")
        return int(n)

    @staticmethod
    def _weight(name, n, w) -> float:
        if isinstance(w, (bool, np.bool_)) or not isinstance(w, (int, float, np.integer,
                                                                  np.floating)) \
                or not np.isfinite(w) or w < 0:
            raise ValueError(f"{name}: the weight of {n} players must be a finite number "
                             f">= 0, got {w!r}")
        return float(w)

    def drawn(self, seed) -> np.ndarray:
        """Each game's drawn count for ``seed`` (an int, or one int per game)."""
        keys = ([(seed, j) for j in range(self.batch)] if isinstance(seed, int)
                else [(s, 0) for s in seed])
        u = np.array([np.random.SeedSequence(s, spawn_key=(j, COUNT_STREAM)).generate_state(
            1, np.uint64)[0] for s, j in keys], np.float64) / 2.0**64
        return np.array(self.values, np.int64)[np.searchsorted(self.draw, u, side="right")
                                               .clip(0, len(self.values) - 1)]


class VecEnv:
    """``num_envs`` games of one kind on the batched core.

    Args:
        spec: the game.
        num_envs: batch size B.
        seed: int (game j depends only on (seed, j)), a sequence of B ints (game j is
            the game an AEC env deals with ``reset(seed=seeds[j])``), or None.
        auto_reset: when a game ends, report its final rewards and flags and deal the
            next game in the same step (its observation is returned; no action is
            dropped). Without it, an ended game stays ended until :meth:`reset`: its mask
            marks every action legal and its action (any in [-1, num_actions)) is ignored.
        **options: ``num_players``, ``max_turns``, ``reward`` and the game's own options.
            ``num_players`` may mix counts in one batch (see below).

    Mixed player counts: ``num_players=[2, 3, 4, ...]`` gives game ``i`` its own count
    (B ints), and ``num_players={2: 0.5, 4: 0.5}`` draws each game's count from those
    weights at every :meth:`reset` (from the reset's seed: game ``j`` depends only on
    ``(seed, j)``); an auto-reset keeps the game's count. Observation and action spaces
    are the game's own, sized for its most seats: each observation marks the seats in its
    game. ``reset`` and ``step`` then also return each game's seats, ``rewards`` has a
    column per seat of the largest count, and :attr:`row_players` holds the counts. Game
    ``j`` with ``n`` seats is the game ``j`` of a ``num_players=n`` env of the same seed.
    """

    def __init__(self, spec: GameSpec, num_envs: int, seed=None, auto_reset=True, **options):
        if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)) \
                or num_envs < 1:
            raise ValueError(f"{spec.name}: num_envs must be a positive int, got {num_envs!r}")
        self.spec = spec
        self.num_envs = int(num_envs)
        self.auto_reset = bool(auto_reset)
        self.options = dict(options)
        counts = PlayerCounts(spec, self.num_envs, options.get("num_players", 2))
        rest = {k: v for k, v in options.items() if k != "num_players"}
        self._counts = counts
        self.fields_by_players = {n: spec.options(num_players=n, **rest) for n in counts.values}
        self.mixed = counts.mixed
        self.fields = (self.fields_by_players[counts.values[0]] if not self.mixed else
                       common_fields(self.fields_by_players))
        self.num_players = max(counts.values)
        self.num_actions = spec.num_actions
        self.obs_size = spec.obs_size
        self.states = spec.new_states(self.num_envs, self.fields)
        self._write_counts(counts.rows if counts.rows is not None else
                           np.full(self.num_envs, counts.values[0]))
        b = self.num_envs
        self.mask, self.obs, self._rewards, self._term, self._trunc = K.empty_buffers(
            b, spec.num_actions, spec.obs_size, MAX_PLAYERS)
        self._actions = np.zeros(b, np.int64)
        self._obs_given = False  # self.obs was returned by step(copy=True): the caller owns it
        self._pool = {"obs": [], "mask": []}  # arrays step(copy=True) handed out (see _fresh)
        self._seed = self._check_seed(seed)
        self._reset_next = None  # rows loaded as ended games, reset by the next auto-reset step
        self.started = False

    def _write_counts(self, rows: np.ndarray) -> None:
        """Give row ``i`` ``rows[i]`` seats and the option fields of that count."""
        if not self.mixed:
            return
        for n in self._counts.values:
            sel = rows == n
            for name, value in self.fields_by_players[n].items():
                self.states[name][sel] = value

    @property
    def row_players(self) -> np.ndarray:
        """Seats of each game, (B,) int64 (all equal unless ``num_players`` was mixed)."""
        return self.states["num_players"].astype(np.int64)

    def _check_seed(self, seed):
        """``seed`` as None, an int or a list of ``num_envs`` ints; raise naming the value."""
        name, b = self.spec.name, self.num_envs
        if seed is None:
            return None
        if isinstance(seed, (int, np.integer)) and not isinstance(seed, (bool, np.bool_)):
            try:
                return check_seed(seed)
            except ValueError:
                raise ValueError(f"{name}: seed must be a non-negative int, got {seed!r}") from None
        if isinstance(seed, (str, bytes, bytearray, dict, set)) or not hasattr(seed, "__len__"):
            raise TypeError(f"{name}: seed must be None, a non-negative int or a sequence of "
                            f"{b} non-negative ints, got {seed!r}")
        seeds = list(seed)
        if len(seeds) != b:
            raise ValueError(f"{name}: seed must be a sequence of {b} ints (one per env), "
                             f"got {len(seeds)}")
        for s in seeds:
            if isinstance(s, (bool, np.bool_)) or not isinstance(s, (int, np.integer)):
                raise TypeError(f"{name}: seed must be a sequence of non-negative ints, got "
                                f"{s!r} in it")
            if s < 0:
                raise ValueError(f"{name}: seed must be a sequence of non-negative ints, got "
                                 f"{s!r} in it")
        return [int(s) for s in seeds]

    def seed_states(self, seed=None) -> None:
        """Write the RNG words of every game for ``seed`` (see the class docs).

        With a drawn player count (``num_players={count: weight}``) this also draws each
        game's count from ``seed``: game ``j`` depends only on ``(seed, j)``.
        """
        seed = self._check_seed(seed)
        if seed is None:
            seed = int(np.random.SeedSequence().entropy % (2**62))
        if isinstance(seed, int):
            self.states["rng"] = rng_rows(seed, self.num_envs)
        else:
            self.states["rng"] = np.stack([seed_words(s, 0) for s in seed])
        if self._counts.draw is not None:
            self._write_counts(self._counts.drawn(seed))

    def reset(self, seed=None):
        """Deal new games (``seed`` as in the constructor; None reuses the constructor's).

        Returns ``obs, mask, player``, and with mixed player counts also ``num_players``
        (each game's seats, (B,) int64).
        """
        self.seed_states(self._seed if seed is None and not self.started else seed)
        K.batch_reset(self.states, self.mask, self._obs_buffer())
        self._term[:] = 0
        self._trunc[:] = 0
        self._rewards[:] = 0  # a row dealt fewer seats than before reports 0 for the others
        self._reset_next = None
        self.started = True
        if self.mixed:
            return self.obs, self.mask, self.current_player, self.row_players
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
        if self._reset_next is not None:  # loaded ended games: their actions are ignored
            a = np.where(self._reset_next, -1, a)
            i = K.first_bad_action(a, self.mask, self._reset_next.view(np.int8),
                                   np.zeros_like(self._trunc), False)
        else:
            if not self.auto_reset:  # ended games: any action id (or -1) is ignored
                ended = self._ended()
                if ended is not None:
                    a = a.astype(np.int64)  # (a uint array cannot hold the -1)
                    a[ended & (a >= 0) & (a < self.num_actions)] = -1
            i = K.first_bad_action(a, self.mask, self._term, self._trunc, self.auto_reset)
        if i >= 0:
            raise IllegalActionError(self._explain(i, a[i]))
        np.copyto(self._actions, a, casting="unsafe")
        return self._actions

    def _ended(self):
        """(B,) bool of the games that have ended, or None when none has."""
        ended = np.logical_or(self._term, self._trunc)
        return ended if ended.any() else None

    def _mark_ended_legal(self) -> None:
        """Every action legal in the mask of each ended game (its action is ignored)."""
        ended = self._ended()
        if ended is not None:
            self.mask[ended] = 1

    def _explain(self, i: int, a) -> str:
        """The error message for env ``i``'s bad action ``a``."""
        name = self.spec.name
        if not self.auto_reset and (self._term[i] or self._trunc[i]):
            return (f"{name}: env {i} has ended; its action is ignored but must be an int in "
                    f"[-1, {self.num_actions}), got {a}")
        if not 0 <= a < self.num_actions:
            return f"{name}: env {i} got action {a}, expected an int in [0, {self.num_actions})"
        return (f"{name}: env {i} got illegal action {a} ({self.spec.action_names[a]}); "
                f"legal actions are {np.flatnonzero(self.mask[i]).tolist()}")

    def step(self, actions, copy: bool = True):
        """Apply one action per game.

        Args:
            actions: (B,) ints. Without auto-reset, a game that has ended takes any int
                in [-1, num_actions) and ignores it. With auto-reset, a game restored as
                ended by :meth:`load_states` is dealt anew by this step and its action is
                ignored (it reports reward 0, not ended).
            copy: return new arrays (the default, as gymnasium's vector envs do); False
                returns the env's own buffers, which the next call overwrites (faster:
                for loops that use each step's arrays before the next).

        Returns:
            obs (B, D) float32, mask (B, A) int8, player (B,) int64, rewards (B, n)
            float32, terminated (B,) bool, truncated (B,) bool; with mixed player counts
            also num_players (B,) int64, each game's seats (``n`` is then the largest
            count, and a game's absent seats get reward 0).
        """
        acts = self.check_actions(actions)
        if self._reset_next is not None:
            K.batch_reset_some(self.states, self._reset_next.view(np.int8), self.mask)
            self._reset_next = None
        # every row's observation is encoded whole, so with copy=True the kernel writes
        # straight into the new array it returns (no second pass over B x D floats)
        obs = self._fresh("obs") if copy else self._obs_buffer()
        K.batch_step(self.states, acts, self.mask, obs, self._rewards,
                     self._term, self._trunc, self.auto_reset)
        self.obs, self._obs_given = obs, bool(copy)
        if not self.auto_reset:
            self._mark_ended_legal()
        rewards = self._rewards[:, : self.num_players]
        term, trunc = self._term.view(bool), self._trunc.view(bool)
        more = (self.row_players,) if self.mixed else ()
        if copy:
            mask = self._fresh("mask")
            np.copyto(mask, self.mask)
            return (obs, mask, self.current_player, rewards.copy(), term.copy(), trunc.copy(),
                    *more)
        return (obs, self.mask, self.current_player, rewards, term, trunc, *more)

    def _fresh(self, kind: str) -> np.ndarray:
        """An array like ``self.obs`` or ``self.mask`` (``kind``) for ``step(copy=True)``.

        One of the last two it handed out of this kind where nothing outside the env holds
        it any more (no variable, view or tensor of the caller's: sys.getrefcount sees the
        pool's slot, ``self.obs`` for the latest observation and the call's own argument),
        else a new one. A caller keeping a step's arrays never sees them change; a caller
        that drops them gets their memory back, which saves the page faults of a fresh
        13 MB allocation per step (12-18% of a batched Fathoming step, one thread).
        """
        pool = self._pool[kind]
        if _REFCOUNTS:
            for k in range(len(pool)):
                if sys.getrefcount(pool[k]) == 2 + (pool[k] is self.obs):
                    return pool[k]
        arr = np.empty_like(self.obs if kind == "obs" else self.mask)
        pool.append(arr)
        if len(pool) > 2:
            del pool[0]
        return arr

    def _obs_buffer(self) -> np.ndarray:
        """``self.obs`` to write into; a new one where step() handed the last one out."""
        if self._obs_given:
            self.obs = np.empty_like(self.obs)
            self._obs_given = False
        return self.obs

    def observe(self, players) -> np.ndarray:
        """Observations of every game for ``players`` (B,) seats (a new array)."""
        p = np.asarray(players)
        if p.shape != (self.num_envs,) or p.dtype.kind not in "iu" or (p < 0).any() \
                or (p >= self.row_players).any():
            seats = f"[0, {self.num_players})" if not self.mixed else "[0, its game's seats)"
            raise ValueError(f"{self.spec.name}: players must be ({self.num_envs},) seats in "
                             f"{seats}, got {players!r}")
        p = p.astype(np.int64)
        out = np.zeros((self.num_envs, self.obs_size), np.float32)
        K.batch_encode(self.states, p, out)
        return out

    def sample_worlds(self, viewers, rng=None, samples: int = 1) -> np.ndarray:
        """Full records, one per game, resampled from what each row's viewer has seen.

        Row ``i`` is a copy of game ``i`` in which everything seat ``viewers[i]`` cannot
        see (other hands, face-down stacks, the RNG that decides what comes next) is
        redrawn by the game's ``determinize`` kernel, the one ISMCTS searches with; the
        viewer's observation and legal mask are the same on every sample. The env's own
        games are not changed. Play a sample on with ``load_states(worlds.tobytes())`` on
        an env of the same options (a :meth:`clone`, say)::

            worlds = vec.sample_worlds(vec.current_player, rng=np.random.default_rng(0))
            sim = vec.clone()
            sim.load_states(worlds.tobytes())

        Args:
            viewers: one seat for every game, or (B,) seats (``current_player``, say).
            rng: a ``numpy.random.Generator``, an int seed (record ``j`` of the result then
                depends only on the seed, ``j`` and its game) or None (fresh entropy).
            samples: worlds per game.

        Returns:
            (B * samples,) records of the game's ``state_dtype``: game ``i``'s samples
            at ``i * samples`` .. ``(i + 1) * samples - 1``.
        """
        if not self.started:
            raise RuntimeError(f"{self.spec.name}: call reset() before sample_worlds()")
        return sample_records(self.spec, self.states, viewers, rng, samples)

    def clone(self) -> "VecEnv":
        """An independent copy: same games, same RNG states, same buffers."""
        other = VecEnv.__new__(VecEnv)
        other.__dict__.update(self.__dict__)
        for k in ("states", "obs", "mask", "_rewards", "_term", "_trunc", "_actions"):
            setattr(other, k, getattr(self, k).copy())
        other._obs_given = False
        other._pool = {"obs": [], "mask": []}
        if self._reset_next is not None:
            other._reset_next = self._reset_next.copy()
        other.options = dict(self.options)
        return other

    def save_states(self) -> bytes:
        """Every record as bytes."""
        return self.states.tobytes()

    def load_states(self, data: bytes) -> None:
        """Restore records saved by :meth:`save_states`, validated before any kernel runs.

        Every record is checked (header, the game's ``check_record``, a legal action in
        each running game); the records must carry this env's options (``num_players``,
        ``max_turns``, ``reward`` and the game's own): a save made with other options is
        refused with a ValueError naming the option, and nothing changes.

        Ended games stay ended, with every action marked legal: without auto-reset their
        actions are ignored; with auto-reset the next :meth:`step` deals them anew.
        """
        states = load_records(self.spec, data, self.num_envs, self.fields,
                              self.fields_by_players if self.mixed else None)
        self.states[:] = states
        for i in range(self.num_envs):
            K.mask_one(self.states, i, self.mask[i])
        K.batch_encode(self.states, self.current_player, self._obs_buffer())
        self._term[:] = self.states["terminated"]
        self._trunc[:] = self.states["truncated"]
        ended = (self._term | self._trunc).astype(bool)
        self._reset_next = ended if self.auto_reset and ended.any() else None
        self._mark_ended_legal()
        self.started = True
