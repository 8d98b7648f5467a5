"""Self-play training env: an SB3 ``VecEnv`` driving the batched numba core directly.

:class:`SelfPlayVecEnv` holds ``num_envs`` games of one kind in one record array. In
each game one seat belongs to the learner (the SB3 policy being trained); every other
seat is played inside the env by an opponent drawn from an :class:`OpponentPool`. The
learner sees only its own decisions: ``step(actions)`` applies one learner action per
game, then lets the opponents move, batched, until every game is back at a learner
decision (or has ended and been re-dealt).

Seats rotate: row ``i``'s ``k``-th game (counted since the last seeding) seats the
learner at ``(i + k) % num_players``, so every seat is trained equally often.

Opponent moves are batched: at each sub-step the rows waiting on an opponent are grouped
by the agent object owning the seat to move, each group is answered by one
``act_batch(obs, masks)`` call (``act_records`` for agents with ``needs_records``), and
one ``batch_step_some`` call applies every answer.

Rewards: a step's reward is the learner seat's reward summed over its own action and
every opponent move up to its next decision or the end of the game. Rewards earned in a
new game before the learner's first decision (opponents moving first, possibly with
shaping) are carried into that first step's reward; rewards written while a game is
dealt are not counted (as in the AEC env, whose ``reset`` starts every reward at 0).

>>> from fatezoo.training.selfplay import OpponentPool, SelfPlayVecEnv
>>> pool = OpponentPool("fatefell", {"random": 1.0}, seed=0)
>>> env = SelfPlayVecEnv("fatefell", num_envs=4, seed=0, opponents=pool)
>>> obs = env.reset()
>>> obs.shape, env.action_masks().shape
((4, 500), (4, 33))

The opponent pool lives in :mod:`~fatezoo.training.selfplay_pool`, the snapshot agents and
the shared trunk in :mod:`~fatezoo.training.selfplay_snapshots` (both re-exported here).
"""

from __future__ import annotations

import time

import numpy as np
from gymnasium import spaces
from stable_baselines3.common.vec_env import VecEnv as SB3VecEnv

import fatezoo
from fatezoo.envs.core import kernels as K
from fatezoo.envs.core.registry import get_spec
from fatezoo.envs.core.rng import check_seed
from fatezoo.envs.core.spec import IllegalActionError
from fatezoo.envs.core.state import MAX_PLAYERS

from .selfplay_pool import DEFAULT_WEIGHTS, SELF, OpponentPool
from .selfplay_snapshots import SharedMLP, SnapshotAgent

MAX_EMPTY_DEALS = 100  # re-deals in a row where the learner never got a decision


class SelfPlayVecEnv(SB3VecEnv):
    """One learner seat per game on the batched core; opponents move inside (module docs).

    Args:
        game: registered game name.
        num_envs: games run at once.
        num_players: seats per game.
        seed: seeds the games (row ``j`` depends only on ``(seed, j)``), the opponent
            pool built when ``opponents`` is None, and nothing else; None draws one
            (kept as ``seed_value``).
        opponents: an :class:`OpponentPool` (None: the default weights, seeded from
            ``seed``).
        record: keep every game's start record and applied (seat, action) pairs; finished
            games are appended to ``episodes`` (see :meth:`_finish_record`).
        **options: ``reward``, ``max_turns`` and the game's own options.

    Observations are float32 ``(num_envs, obs_size)`` in [-1, 1] for the learner's seat;
    ``action_masks()`` gives the learner's legal actions ``(num_envs, num_actions)``.
    On a game's end, ``infos[i]`` holds ``terminal_observation``, ``TimeLimit.truncated``,
    ``episode`` (``r`` return, ``l`` learner decisions, ``t`` seconds since the env was
    made, as SB3's Monitor writes them), ``seat``, ``opponent`` (the other seats'
    opponent names in seat order, comma-separated), ``terminated`` and ``truncated``.
    """

    def __init__(self, game: str, num_envs: int = 64, num_players: int = 2, seed: int | None = 0,
                 opponents: OpponentPool | None = None, record: bool = False, **options):
        self.spec = spec = get_spec(game)
        self.game = game
        self.seed_value = (int(np.random.SeedSequence().entropy % 2**62) if seed is None
                           else check_seed(seed))
        self.vec = fatezoo.make_vec(game, num_envs=num_envs, seed=self.seed_value,
                                    auto_reset=False, num_players=num_players, **options)
        self.options = dict(options)
        self.num_players = n = self.vec.num_players
        if opponents is None:
            opponents = OpponentPool(game, num_players=n, seed=self.seed_value + 1)
        if not isinstance(opponents, OpponentPool):
            raise TypeError(f"{game}: opponents must be an OpponentPool or None, got "
                            f"{type(opponents).__name__}")
        if opponents.game != game or opponents.num_players != n:
            raise ValueError(f"{game}: the opponent pool is for {opponents.game} with "
                             f"{opponents.num_players} players; this env is {game} with {n}")
        self.pool = opponents
        b = self.vec.num_envs
        self.states = self.vec.states
        self._cur = self.states["current_player"]
        self._term = self.states["terminated"]
        self._trunc = self.states["truncated"]
        self._masks, self._obs, self._rewards, self._step_term, self._step_trunc = \
            K.empty_buffers(b, spec.num_actions, spec.obs_size, MAX_PLAYERS)
        self._opp_obs = np.zeros((b, spec.obs_size), np.float32)
        self._actions = np.full(b, -1, np.int64)
        self._rows = np.arange(b)
        # the thread pool only pays for big batches (see kernels.PARALLEL_ROWS)
        par = b >= K.PARALLEL_ROWS
        self._step_some = K.batch_step_some if par else K.serial_step_some
        self._reset_some = K.batch_reset_some if par else K.serial_reset_some
        self._encode_rows = K.encode_rows if par else K.serial_encode_rows
        self._encode = K.batch_encode if par else K.serial_encode
        self.seat = np.zeros(b, np.int64)  # the learner's seat in each row
        self.owner = np.full((b, n), -1, np.int64)  # agent id per seat (-1: learner)
        self.deals = np.zeros(b, np.int64)  # games dealt per row since the last seeding
        self._pending = np.zeros(b, np.float32)  # learner reward not yet reported
        self._ep_return = np.zeros(b, np.float64)
        self._ep_len = np.zeros(b, np.int64)
        self.record = bool(record)
        self.episodes: list[dict] = []
        self._rec: list[dict | None] = [None] * b
        self.empty_deals = 0  # games that ended before the learner had a decision
        self._reseed: int | None = self.seed_value
        self._started = False
        self._step_actions = None
        self._t0 = time.time()
        self.render_mode = None
        self.num_envs = b
        super().__init__(b, spaces.Box(-1.0, 1.0, (spec.obs_size,), np.float32),
                         spaces.Discrete(spec.num_actions))

    # ------------------------------------------------------------------ SB3 VecEnv API

    def reset(self) -> np.ndarray:
        """Deal a new game in every row; return the learner's first observations.

        The games are reseeded first if :meth:`seed` was called (or on the first reset).
        """
        if self._reseed is not None:
            self.vec.seed_states(self._reseed)
            self.deals[:] = 0
            self._reseed = None
        self._pending[:] = 0.0
        self._deal(np.ones(self.num_envs, bool))
        self._settle_deals()
        self._started = True
        self.reset_infos = [{"seat": int(s)} for s in self.seat]
        return self._observe()

    def step_async(self, actions: np.ndarray) -> None:
        """Store the learner's actions for :meth:`step_wait`."""
        self._step_actions = actions

    def step_wait(self):
        """Apply the learner's actions, play the opponents, report, re-deal ended games.

        Returns:
            obs (B, D) float32, rewards (B,) float32, dones (B,) bool, infos (list of B
            dicts; see the class docs).

        Raises:
            IllegalActionError: an action is not an int legal for its row's learner
                (nothing is applied).
        """
        acts = self._check(self._step_actions)
        self._step_actions = None
        seat = self.seat
        if self.record:
            for i in range(self.num_envs):
                self._rec[i]["actions"].append((int(seat[i]), int(acts[i])))
        self._step_some(self.states, acts, self._masks, self._rewards, self._step_term,
                          self._step_trunc)
        self._pending += self._rewards[self._rows, seat]
        self._play_opponents()
        self._ep_len += 1
        rewards = self._pending.copy()
        self._pending[:] = 0.0
        self._ep_return += rewards
        dones = (self._term | self._trunc) != 0
        infos: list[dict] = [{} for _ in range(self.num_envs)]
        if dones.any():
            rows = np.flatnonzero(dones)
            final = np.empty((rows.size, self.spec.obs_size), np.float32)
            self._encode_rows(self.states, rows, seat[rows], final)
            now = round(time.time() - self._t0, 6)
            for j, i in enumerate(rows):
                term, trunc = bool(self._term[i]), bool(self._trunc[i])
                infos[i] = {
                    "terminal_observation": final[j],
                    "TimeLimit.truncated": trunc and not term,
                    "terminated": term, "truncated": trunc,
                    "episode": {"r": float(self._ep_return[i]), "l": int(self._ep_len[i]),
                                "t": now},
                    "seat": int(seat[i]), "opponent": self._opponent_names(i),
                }
                if self.record:
                    self._finish_record(i, term, trunc)
            self._deal(dones)
            self._settle_deals()
        return self._observe(), rewards, dones, infos

    def action_masks(self) -> np.ndarray:
        """(B, A) bool: the learner's legal actions in each row (a new array)."""
        return self._masks.astype(bool)

    def close(self) -> None:
        """Nothing to release (the games live in this process)."""

    def seed(self, seed: int | None = None) -> list:
        """Reseed the games at the next :meth:`reset` (the opponent pool keeps its seed).

        Args:
            seed: the new games seed (None: fresh entropy).

        Returns:
            ``[seed] * num_envs`` (every row derives from the one seed).
        """
        seed = int(np.random.SeedSequence().entropy % 2**62) if seed is None \
            else check_seed(seed)
        self._reseed = seed
        return [seed] * self.num_envs

    def get_attr(self, attr_name: str, indices=None) -> list:
        """``getattr(self, attr_name)`` once per selected row (one env holds every row)."""
        value = getattr(self, attr_name)
        return [value for _ in self._get_indices(indices)]

    def set_attr(self, attr_name: str, value, indices=None) -> None:
        """Set an attribute of the env (shared by every row)."""
        setattr(self, attr_name, value)

    def env_method(self, method_name: str, *method_args, indices=None, **method_kwargs):
        """Call a method of the env once for the selected rows.

        ``action_masks`` returns the selected rows' (k, A) array in one piece (what
        sb3-contrib's ``get_action_masks`` stacks); any other method is called once and
        its result repeated per row.
        """
        idx = list(self._get_indices(indices))
        if method_name == "action_masks":
            masks = self.action_masks()
            return masks if len(idx) == self.num_envs else masks[idx]
        result = getattr(self, method_name)(*method_args, **method_kwargs)
        return [result for _ in idx]

    def env_is_wrapped(self, wrapper_class, indices=None) -> list[bool]:
        """No row is wrapped by a gymnasium wrapper."""
        return [False for _ in self._get_indices(indices)]

    # ------------------------------------------------------------------ internals

    def _check(self, actions) -> np.ndarray:
        """Validate one learner action per row; return them as int64 (B,)."""
        name = self.game
        if not self._started:
            raise RuntimeError(f"{name}: call reset() before step()")
        a = np.asarray(actions)
        if a.ndim == 2 and a.shape[1] == 1:
            a = a[:, 0]
        if a.shape != (self.num_envs,):
            raise ValueError(f"{name}: actions must have shape ({self.num_envs},), got "
                             f"{a.shape}")
        if a.dtype.kind not in "iu":
            raise IllegalActionError(f"{name}: actions must be integers, got dtype {a.dtype}")
        i = K.first_bad_action(a, self._masks, self._step_term, self._step_trunc, True)
        if i >= 0:
            bad = int(a[i])
            if not 0 <= bad < self.spec.num_actions:
                raise IllegalActionError(f"{name}: env {i} (learner seat {self.seat[i]}) got "
                                         f"action {bad}, expected an int in "
                                         f"[0, {self.spec.num_actions})")
            raise IllegalActionError(
                f"{name}: env {i} (learner seat {self.seat[i]}) got illegal action {bad} "
                f"({self.spec.action_names[bad]}); legal actions are "
                f"{np.flatnonzero(self._masks[i]).tolist()}")
        np.copyto(self._actions, a, casting="unsafe")
        return self._actions

    def _observe(self) -> np.ndarray:
        """The learner's observation in every row (a new array)."""
        self._encode(self.states, self.seat, self._obs)
        return self._obs.copy()

    def _deal(self, flags: np.ndarray) -> None:
        """New games in the flagged rows: rotate seats, draw opponents, reset, record."""
        rows = np.flatnonzero(flags)
        n = self.num_players
        self.seat[rows] = (rows + self.deals[rows]) % n
        self.deals[rows] += 1
        others = np.ones((rows.size, n), bool)
        others[np.arange(rows.size), self.seat[rows]] = False
        owner = np.full((rows.size, n), -1, np.int64)
        owner[others] = self.pool.draw(int(others.sum()))
        self.owner[rows] = owner
        if len(self.pool.agents) > len(self.pool.fixed) + len(self.pool.snapshots):
            self.pool.collect(np.unique(self.owner))
        self._reset_some(self.states, flags, self._masks)
        self._pending[rows] = 0.0
        self._ep_return[rows] = 0.0
        self._ep_len[rows] = 0
        if self.record:
            for i in rows:
                self._rec[i] = {"row": int(i), "seat": int(self.seat[i]),
                                "start": self.states[i:i + 1].tobytes(), "actions": [],
                                "opponents": self._opponent_names(i)}

    def _settle_deals(self) -> None:
        """Play opponents up to the learner's first decision in newly dealt games.

        A game that ends before the learner ever decides is dealt again (counted in
        ``empty_deals``).
        """
        for _ in range(MAX_EMPTY_DEALS):
            self._play_opponents()
            ended = (self._term | self._trunc) != 0
            if not ended.any():
                return
            self.empty_deals += int(ended.sum())
            self._deal(ended)
        raise RuntimeError(f"{self.game}: {MAX_EMPTY_DEALS} games in a row ended before the "
                           "learner's first decision; check max_turns")

    def _play_opponents(self) -> None:
        """Let the opponents move, batched per agent, until every row waits on the learner.

        Rows that have ended are left alone; the learner seat's rewards are added to
        ``_pending``.
        """
        states, seat, masks = self.states, self.seat, self._masks
        agents = self.pool.agents
        while True:
            waiting = (self._cur != seat) & (self._term == 0) & (self._trunc == 0)
            rows = np.flatnonzero(waiting)
            if rows.size == 0:
                return
            players = self._cur[rows].astype(np.int64)
            owners = self.owner[rows, players]
            acts = self._actions
            acts.fill(-1)
            first = owners[0]
            groups = [first] if (owners == first).all() else np.unique(owners).tolist()
            obs = None
            for o in groups:
                agent = agents[int(o)]
                sel = rows if len(groups) == 1 else rows[owners == o]
                if agent.needs_records:
                    acts[sel] = agent.act_records(states[sel], masks[sel])
                    continue
                if obs is None:
                    obs = self._opp_obs[: rows.size]
                    self._encode_rows(states, rows, players, obs)
                part = obs if len(groups) == 1 else obs[owners == o]
                acts[sel] = agent.act_batch(part, masks[sel])
            chosen = acts[rows]
            ok = (chosen >= 0) & (chosen < self.spec.num_actions)
            ok[ok] = masks[rows[ok], chosen[ok]] != 0
            if not ok.all():
                j = int(np.argmin(ok))
                i = int(rows[j])
                raise IllegalActionError(
                    f"{self.game}: opponent {self.pool.label(int(owners[j]))} in seat "
                    f"{players[j]} of env {i} chose illegal action {int(chosen[j])}; legal "
                    f"actions are {np.flatnonzero(masks[i]).tolist()}")
            if self.record:
                for j, i in enumerate(rows):
                    self._rec[i]["actions"].append((int(players[j]), int(chosen[j])))
            self._step_some(states, acts, masks, self._rewards, self._step_term,
                              self._step_trunc)
            self._pending[rows] += self._rewards[rows, seat[rows]]

    def _opponent_names(self, i: int) -> str:
        return ",".join(self.pool.label(int(o)) for o in self.owner[i] if o >= 0)

    def _finish_record(self, i: int, terminated: bool, truncated: bool) -> None:
        """Append row ``i``'s finished game to ``episodes``.

        Each entry is a dict with ``row``, ``seat`` (the learner's), ``start`` (record
        bytes after the deal, for ``load_state``), ``actions`` (every applied (seat,
        action), in order), ``opponents``, ``terminated``, ``truncated`` and ``returns``
        (final per-seat returns).
        """
        rec = self._rec[i]
        rec.update(terminated=terminated, truncated=truncated,
                   returns=self.states["returns"][i, : self.num_players].tolist())
        self.episodes.append(rec)
        self._rec[i] = None


__all__ = ["DEFAULT_WEIGHTS", "OpponentPool", "SELF", "SelfPlayVecEnv", "SharedMLP",
           "SnapshotAgent"]
