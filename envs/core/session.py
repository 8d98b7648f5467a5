"""One game record with its buffers: the single-game engine under the AEC env and gym."""

from __future__ import annotations

import numpy as np

from . import kernels as K
from .rng import check_seed, seed_words
from .spec import GameSpec, IllegalActionError
from .state import MAX_PLAYERS, REWARD_MODES


def as_action(spec: GameSpec, action, legal=None, who: str = "") -> int:
    """Return ``action`` as an int after checking type, range and legality.

    Args:
        spec: the game.
        action: a Python or numpy integer (a 0-d integer array is accepted too).
        legal: the current int8 mask, or None to skip the legality check.
        who: the agent, for the message.

    Raises:
        TypeError: a value that is not an action at all (None, a string, a float, a bool,
            an array of more than one value): an agent bug, whatever the illegal-move policy.
        IllegalActionError: a well-typed action out of range or masked out.
    """
    if isinstance(action, np.ndarray) and action.ndim == 0 and action.dtype.kind in "iu":
        action = action[()]
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
        raise TypeError(
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
        """Restore a record saved by :meth:`save` (validated by :func:`load_records`)."""
        self.states[:] = load_records(self.spec, data, 1, self.fields)
        K.mask_one(self.states, 0, self.mask)
        self.started = True
        self.seed = None  # the history that led here is unknown
        self.actions = []


MAX_STEPS = 2**30  # far above any game's length, far below the int32 counter's overflow


def _need(ok, what: str) -> None:
    if not ok:
        raise ValueError(what)


def check_header(spec: GameSpec, rec) -> None:
    """Raise ValueError naming the first header field of ``rec`` out of its range.

    The header is what the core kernels read: the generator words (xorshift needs
    words in [0, 2**32), not all zero), the seats, the end flags (0/1, never both),
    the turn counters, and finite, zero-sum rewards and returns (0 for absent seats).
    """
    words = rec["rng"]
    _need(((words >= 0) & (words < 2**32)).all() and words.any(),
          f"rng must be four words in [0, 2**32), not all 0, got {words.tolist()}")
    n = int(rec["num_players"])
    lo, hi = spec.min_players, min(spec.max_players, MAX_PLAYERS)
    _need(lo <= n <= hi, f"num_players must be in [{lo}, {hi}], got {n}")
    cur = int(rec["current_player"])
    _need(0 <= cur < n, f"current_player must be in [0, {n}), got {cur}")
    for name in ("terminated", "truncated"):
        _need(rec[name] in (0, 1), f"{name} must be 0 or 1, got {int(rec[name])}")
    _need(not (rec["terminated"] and rec["truncated"]),
          "terminated and truncated must not both be 1")
    mode = int(rec["reward_mode"])
    _need(mode in REWARD_MODES.values(),
          f"reward_mode must be one of {sorted(REWARD_MODES.values())}, got {mode}")
    max_turns, turn, steps = int(rec["max_turns"]), int(rec["turn"]), int(rec["steps"])
    _need(max_turns >= 1, f"max_turns must be >= 1, got {max_turns}")
    running = not (rec["terminated"] or rec["truncated"])
    top = max_turns - 1 if running else max_turns
    _need(0 <= turn <= top, f"turn must be in [0, {top}] "
          f"({'a running' if running else 'an ended'} game, max_turns={max_turns}), got {turn}")
    _need(not rec["truncated"] or turn == max_turns,
          f"a truncated game must have turn == max_turns={max_turns}, got {turn}")
    _need(0 <= steps <= MAX_STEPS, f"steps must be in [0, {MAX_STEPS}], got {steps}")
    for name in ("rewards", "returns"):
        v = rec[name]
        _need(np.isfinite(v).all(), f"{name} must be finite, got {v.tolist()}")
        _need(not v[n:].any(), f"{name} must be 0 for seats >= {n}, got {v.tolist()}")
        _need(abs(float(v.astype(np.float64).sum())) <= 1e-3,
              f"{name} must sum to 0 (zero-sum games), got {v.tolist()}")


def _corrupt(spec: GameSpec, i: int, err: ValueError) -> ValueError:
    """The loader's one-line refusal of record ``i``, naming the game once."""
    msg = str(err)
    own = f"{spec.name}: "
    if msg.startswith(own):  # a game-side check that names its game itself
        msg = msg[len(own):]
    return ValueError(f"{own}saved state {i} is corrupt: {msg}")


def load_records(spec: GameSpec, data, batch: int | None, fields: dict | None,
                 by_players: dict | None = None) -> np.ndarray:
    """Parse and validate saved record bytes before any kernel reads them.

    Each record is checked in this order: its format, the header (:func:`check_header`),
    the options it carries against ``fields`` (the env's: a record made with other
    options is refused, naming the option), the game's own ``check_record`` (every
    field the kernels index with), and last that a running game has a legal action.
    ``by_players`` (an env of mixed player counts: count -> its option fields) admits a
    record of any of those counts and checks it against its count's fields.

    Raises:
        TypeError: ``data`` is not bytes.
        ValueError: a wrong length or a record that fails a check, naming the record
            and the field.
    """
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise TypeError(f"{spec.name}: saved state must be bytes, got {type(data).__name__}")
    data = bytes(data)
    size = spec.state_dtype.itemsize
    if not data or len(data) % size or (batch is not None and len(data) != batch * size):
        want = f"{batch * size}" if batch is not None else f"a multiple of {size}"
        raise ValueError(f"{spec.name}: saved state has {len(data)} bytes, expected {want}")
    states = np.frombuffer(data, spec.state_dtype).copy()
    fmt = f"{spec.name}_format"
    mask = np.zeros(spec.num_actions, np.int8)
    for i, rec in enumerate(states):
        if rec[fmt] != spec.format_version:
            raise ValueError(f"{spec.name}: saved state {i} has format {rec[fmt]}, expected "
                             f"{spec.format_version} (a state of another game or version?)")
        try:
            check_header(spec, rec)
        except ValueError as err:
            raise _corrupt(spec, i, err) from None
        own = fields or {}
        if by_players is not None:
            n = int(rec["num_players"])
            if n not in by_players:
                raise ValueError(f"{spec.name}: saved state {i} has num_players={n}, this env "
                                 f"plays {sorted(by_players)}; make the env with the options "
                                 "of the save")
            own = by_players[n]
        for name, want in own.items():
            got = rec[name]
            if not np.array_equal(got, want):
                got = got.tolist() if isinstance(got, np.ndarray) else int(got)
                want = want.tolist() if isinstance(want, np.ndarray) else want
                raise ValueError(f"{spec.name}: saved state {i} has {name}={got}, this env has "
                                 f"{name}={want}; make the env with the options of the save")
        try:
            spec.check_record(rec)
        except ValueError as err:
            raise _corrupt(spec, i, err) from None
        if not (rec["terminated"] or rec["truncated"]):
            K.mask_one(states, i, mask)  # safe: every field legal() reads was checked
            if not mask.any():
                raise ValueError(f"{spec.name}: saved state {i} is corrupt: a running game "
                                 "with no legal action")
    return states
