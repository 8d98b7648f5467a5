"""One game record with its buffers: the single-game engine under the AEC env and gym."""

from __future__ import annotations

import numpy as np

from . import kernels as K
from .rng import check_seed, seed_words
from .spec import GameSpec, IllegalActionError


def as_action(spec: GameSpec, action, legal=None, who: str = "") -> int:
    """Return ``action`` as an int after checking type, range and legality.

    Args:
        spec: the game.
        action: a Python or numpy integer (a 0-d integer array is accepted too).
        legal: the current int8 mask, or None to skip the legality check.
        who: the agent, for the message.

    Raises:
        IllegalActionError: a non-integer, out-of-range or masked-out action.
    """
    if isinstance(action, np.ndarray) and action.ndim == 0 and action.dtype.kind in "iu":
        action = action[()]
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
        raise IllegalActionError(
            f"{spec.name}: {who or 'agent'} gave action {action!r} of type "
            f"{type(action).__name__}; expected an int in [0, {spec.num_actions})")
    a = int(action)
    if not 0 <= a < spec.num_actions:
        raise IllegalActionError(f"{spec.name}: {who or 'agent'} gave action {a}, "
                                 f"expected an int in [0, {spec.num_actions})")
    if legal is not None and not legal[a]:
        raise IllegalActionError(
            f"{spec.name}: {who or 'agent'} gave illegal action {a} "
            f"({spec.action_names[a]}); legal actions are {np.flatnonzero(legal).tolist()}")
    return a


class Session:
    """A single running game: record, mask and observation buffers, seeded resets."""

    def __init__(self, spec: GameSpec, fields: dict):
        self.spec = spec
        self.fields = dict(fields)
        self.num_players = fields["num_players"]
        self.states = spec.new_states(1, fields)
        # ndarray views of hot header fields: much cheaper to read than record fields
        self._cur = self.states["current_player"]
        self._term = self.states["terminated"]
        self._trunc = self.states["truncated"]
        self._rewards = self.states["rewards"][0]
        self.mask = np.zeros(spec.num_actions, np.int8)
        self.zero_mask = np.zeros(spec.num_actions, np.int8)
        self.obs = np.zeros(spec.obs_size, np.float32)
        self.started = False
        self.seed = None
        self._seeder = None
        self.actions: list[int] = []

    @property
    def record(self):
        """The live record (a view: writes change the game)."""
        return self.states[0]

    def reset(self, seed=None) -> None:
        """Deal a new game; a seed fixes it (and the seeds of later unseeded resets).

        Every game gets a concrete seed (drawn when None is given), so any game can be
        saved as (options, seed, actions) and replayed exactly.
        """
        if seed is not None:
            seed = check_seed(seed)
            self._seeder = np.random.default_rng(seed)
        elif self._seeder is None:
            self._seeder = np.random.default_rng()
        if seed is None:
            seed = int(self._seeder.integers(2**62))
        self.states[0]["rng"] = seed_words(seed, 0)
        self.seed = seed
        self.actions = []
        K.reset_one(self.states, 0, self.mask)
        self.started = True

    @property
    def done(self) -> bool:
        """Whether the game has ended (terminated or truncated)."""
        return bool(self._term[0] or self._trunc[0])

    @property
    def current_player(self) -> int:
        """Seat whose decision it is."""
        return int(self._cur[0])

    def legal_mask(self, player: int) -> np.ndarray:
        """The live mask for ``player`` (zeros if it is not their decision)."""
        if self._term[0] or self._trunc[0] or player != self._cur[0]:
            return self.zero_mask
        return self.mask

    def check(self, action, who: str = "") -> int:
        """Validate ``action`` for the current player; raise before anything changes."""
        if not self.started:
            raise RuntimeError(f"{self.spec.name}: call reset() before step()")
        if self._term[0] or self._trunc[0]:
            raise RuntimeError(f"{self.spec.name}: the game is over; call reset()")
        return as_action(self.spec, action, self.mask, who)

    def step(self, a: int) -> None:
        """Apply an already validated action ``a``."""
        self.actions.append(a)
        K.step_one(self.states, 0, a, self.mask)

    def observe(self, player: int) -> np.ndarray:
        """Write ``player``'s observation into the shared buffer and return it."""
        K.encode_one(self.states, 0, player, self.obs)
        return self.obs

    def rewards(self) -> np.ndarray:
        """Rewards of the last step, one per seat."""
        return self._rewards[: self.num_players]

    def save(self) -> bytes:
        """The record as bytes."""
        return self.states.tobytes()

    def load(self, data: bytes) -> None:
        """Restore a record saved by :meth:`save`, after validating it."""
        self.states[:] = load_records(self.spec, data, 1, self.fields)
        K.mask_one(self.states, 0, self.mask)
        self.started = True
        self.seed = None  # the history that led here is unknown
        self.actions = []


def load_records(spec: GameSpec, data, batch: int | None, fields: dict | None) -> np.ndarray:
    """Parse saved record bytes; raise ValueError naming what is wrong."""
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise TypeError(f"{spec.name}: saved state must be bytes, got {type(data).__name__}")
    size = spec.state_dtype.itemsize
    if len(data) % size or (batch is not None and len(data) != batch * size):
        want = f"{batch * size}" if batch is not None else f"a multiple of {size}"
        raise ValueError(f"{spec.name}: saved state has {len(data)} bytes, expected {want}")
    states = np.frombuffer(bytes(data), spec.state_dtype).copy()
    fmt = f"{spec.name}_format"
    for i, rec in enumerate(states):
        if rec[fmt] != spec.format_version:
            raise ValueError(f"{spec.name}: saved state {i} has format {rec[fmt]}, expected "
                             f"{spec.format_version} (a state of another game or version?)")
        if fields is not None:
            for name in ("num_players",):
                if rec[name] != fields[name]:
                    raise ValueError(f"{spec.name}: saved state {i} has {name}={rec[name]}, "
                                     f"this env has {fields[name]}")
        try:
            spec.check_record(rec)
        except ValueError as err:
            raise ValueError(f"{spec.name}: saved state {i} is corrupt: {err}") from None
    return states
