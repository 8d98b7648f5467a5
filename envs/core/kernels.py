"""Kernels shared by every game: forced decisions, rewards, truncation and the drivers.

A game's spec (``GameSpec(kernels=Kernels(...))``) registers five single-record kernels
with :func:`register_game`:

- ``reset(rec)``: deal a new game from the options and RNG already in ``rec``.
- ``apply(rec, action)``: apply one legal decision (chance resolves inside).
- ``legal(rec, mask)``: write the current player's legal actions into ``mask``.
- ``encode(rec, player, omniscient, out)``: write ``player``'s observation into ``out``.
- ``encode_state(rec, out)``: write the full state vector into ``out``.

optionally ``asks(rec) -> bool``: whether the current player is asked even when only one
action is legal (default: never, so ``settle`` applies every lone legal action itself). A
game whose rules ask a seat with nothing to play, so that being asked reveals nothing,
returns True there (``tests/kitgame/rules.py::asks``);

and, for search agents (ISMCTS), up to three more:

- ``determinize(rec, player, words)``: resample in place everything ``player`` cannot
  see, drawing from the generator ``words`` (and reseed the record's own RNG from it).
- ``policy(obs, mask, words) -> int``: a cheap rollout policy reading one observation
  (default: uniform over ``mask``).
- ``evaluate(rec, values)``: per-seat value estimates in [-1, 1] of a running game, for
  rollouts cut short (default: the returns so far).

The drivers below (``step_one``, ``batch_step``, ...) are written once and compiled
once per record dtype: ``game_apply(rec, a)`` and friends resolve, at compile time, to
the kernels registered for ``rec``'s dtype (numba ``overload``), and in plain Python
(``NUMBA_DISABLE_JIT=1``) by a dictionary lookup. Record dtypes of different games must
not be prefixes of each other: each starts with its own ``<game>_format`` field.

Under ``NUMBA_DISABLE_JIT=1`` record fields are numpy scalars of their own width, and
``int8 field + 400`` overflows instead of widening as in numba: game kernels wrap small
fields in ``int()`` before using them in offsets (see fatefell's ``encode``).
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
from numba import prange
from numba.extending import overload
from numba.np import numpy_support

from . import state as _state  # noqa: F401  (memoizes numba typing of record dtypes)
from .jit import njit
from .rng import randint

_GAMES: dict = {}  # record dtype -> SimpleNamespace(reset, apply, legal, encode, encode_state)


def register_game(state_dtype, reset, apply, legal, encode, encode_state,
                  determinize=None, policy=None, evaluate=None, asks=None) -> None:
    """Register a game's single-record kernels for records of ``state_dtype``.

    Called by ``GameSpec`` itself; registering other kernels for a dtype that already
    has some raises (compiled drivers would silently keep the first ones).
    """
    game = SimpleNamespace(
        reset=reset, apply=apply, legal=legal, encode=encode, encode_state=encode_state,
        determinize=determinize, policy=policy, evaluate=evaluate, asks=asks)
    dtype = np.dtype(state_dtype)
    old = _GAMES.get(dtype)
    if old is not None and vars(old) != vars(game):
        changed = sorted(k for k in vars(game) if vars(old)[k] is not vars(game)[k])
        raise ValueError(f"fatezoo: record dtype {dtype.names[0]!r} already has other kernels "
                         f"registered ({changed} differ)")
    _GAMES[dtype] = game


def has_kernel(state_dtype, name: str) -> bool:
    """Whether the game of ``state_dtype`` registered the optional kernel ``name``."""
    game = _GAMES.get(np.dtype(state_dtype))
    return game is not None and getattr(game, name, None) is not None


def _kernels(rec_type):
    dtype = numpy_support.as_dtype(rec_type)
    if dtype not in _GAMES:
        raise TypeError(f"fatezoo: no game registered for record dtype {dtype}")
    return _GAMES[dtype]


def game_reset(rec):
    """Deal a new game in ``rec`` (the registered game's ``reset``)."""
    _GAMES[rec.dtype].reset(rec)


def game_apply(rec, action):
    """Apply one decision (the registered game's ``apply``)."""
    _GAMES[rec.dtype].apply(rec, action)


def game_legal(rec, mask):
    """Write the legal mask (the registered game's ``legal``)."""
    _GAMES[rec.dtype].legal(rec, mask)


def game_encode(rec, player, omniscient, out):
    """Write an observation (the registered game's ``encode``)."""
    _GAMES[rec.dtype].encode(rec, player, omniscient, out)


def game_encode_state(rec, out):
    """Write the full state vector (the registered game's ``encode_state``)."""
    _GAMES[rec.dtype].encode_state(rec, out)


def game_determinize(rec, player, words):
    """Resample ``player``'s unseen information (the registered ``determinize``)."""
    fn = _GAMES[rec.dtype].determinize
    if fn is None:
        raise TypeError("fatezoo: this game registered no determinize kernel")
    fn(rec, player, words)


def game_policy(obs, mask, words, rec):
    """Rollout policy action for ``obs``/``mask`` (``rec`` only selects the game)."""
    fn = _GAMES[rec.dtype].policy
    return random_legal(mask, words) if fn is None else fn(obs, mask, words)


def game_evaluate(rec, values):
    """Per-seat value estimates of a running game (the registered ``evaluate``)."""
    fn = _GAMES[rec.dtype].evaluate
    if fn is None:
        values[: rec["num_players"]] = rec["returns"][: rec["num_players"]]
    else:
        fn(rec, values)


def game_asks(rec):
    """Whether a lone legal action is still asked of the player (the registered ``asks``)."""
    fn = _GAMES[rec.dtype].asks
    return False if fn is None else bool(fn(rec))


@overload(game_reset, inline="always", jit_options={"cache": True})
def _ov_reset(rec):
    fn = _kernels(rec).reset
    return lambda rec: fn(rec)


@overload(game_apply, inline="always", jit_options={"cache": True})
def _ov_apply(rec, action):
    fn = _kernels(rec).apply
    return lambda rec, action: fn(rec, action)


@overload(game_legal, inline="always", jit_options={"cache": True})
def _ov_legal(rec, mask):
    fn = _kernels(rec).legal
    return lambda rec, mask: fn(rec, mask)


@overload(game_encode, inline="always", jit_options={"cache": True})
def _ov_encode(rec, player, omniscient, out):
    fn = _kernels(rec).encode
    return lambda rec, player, omniscient, out: fn(rec, player, omniscient, out)


@overload(game_encode_state, inline="always", jit_options={"cache": True})
def _ov_encode_state(rec, out):
    fn = _kernels(rec).encode_state
    return lambda rec, out: fn(rec, out)


@overload(game_determinize, inline="always", jit_options={"cache": True})
def _ov_determinize(rec, player, words):
    fn = _kernels(rec).determinize
    if fn is None:
        raise TypeError("fatezoo: this game registered no determinize kernel")
    return lambda rec, player, words: fn(rec, player, words)


@overload(game_policy, inline="always", jit_options={"cache": True})
def _ov_policy(obs, mask, words, rec):
    fn = _kernels(rec).policy
    if fn is None:
        return lambda obs, mask, words, rec: random_legal(mask, words)
    return lambda obs, mask, words, rec: fn(obs, mask, words)


@overload(game_evaluate, inline="always", jit_options={"cache": True})
def _ov_evaluate(rec, values):
    fn = _kernels(rec).evaluate
    if fn is None:
        def copy_returns(rec, values):
            for p in range(rec["num_players"]):
                values[p] = rec["returns"][p]
        return copy_returns
    return lambda rec, values: fn(rec, values)


@overload(game_asks, inline="always", jit_options={"cache": True})
def _ov_asks(rec):
    fn = _kernels(rec).asks
    if fn is None:
        return lambda rec: False
    return lambda rec: fn(rec)


@njit(cache=True, inline="always")
def clear_mask(mask):
    """Zero ``mask``."""
    for a in range(mask.shape[0]):
        mask[a] = 0


@njit(cache=True, inline="always")
def settle(rec, mask):
    """Apply every forced decision until a real choice or the end; writes ``mask``.

    A decision is forced when one action is legal and the game's ``asks`` does not ask it.
    """
    while True:
        if rec["terminated"] or rec["truncated"]:
            clear_mask(mask)
            return
        if rec["turn"] >= rec["max_turns"]:
            rec["truncated"] = 1
            clear_mask(mask)
            return
        game_legal(rec, mask)
        count = 0
        for a in range(mask.shape[0]):  # branch-free count: ~4x faster than tracking the index
            count += mask[a] != 0
        if count == 1 and not game_asks(rec):
            only = 0
            while mask[only] == 0:
                only += 1
            game_apply(rec, only)
        elif count == 0:
            raise RuntimeError("fatezoo: a running game has no legal action (rules bug)")
        else:
            return


@njit(cache=True, inline="always")
def begin_step(rec):
    """Zero the per-step rewards before a decision is applied."""
    for p in range(rec["rewards"].shape[0]):
        rec["rewards"][p] = 0.0


@njit(cache=True, inline="always")
def end_step(rec):
    """Add this step's rewards to the returns."""
    for p in range(rec["rewards"].shape[0]):
        rec["returns"][p] += rec["rewards"][p]


@njit(cache=True, inline="always")
def reset_record(rec, mask):
    """Start a new game in ``rec`` (options and RNG kept) and settle forced decisions."""
    rec["terminated"] = 0
    rec["truncated"] = 0
    rec["turn"] = 0
    rec["steps"] = 0
    for p in range(rec["returns"].shape[0]):
        rec["returns"][p] = 0.0
    begin_step(rec)
    game_reset(rec)
    settle(rec, mask)
    end_step(rec)


@njit(cache=True, inline="always")
def step_record(rec, action, mask):
    """Apply one agent decision, then every forced one; writes ``mask`` and rewards."""
    begin_step(rec)
    rec["steps"] += 1
    game_apply(rec, action)
    settle(rec, mask)
    end_step(rec)


@njit(cache=True, inline="always")
def act_row(states, i, actions, masks, rewards, terminated, truncated):
    """Apply ``actions[i]`` to row ``i`` (none if < 0) and report its rewards and flags."""
    rec = states[i]
    if actions[i] >= 0:
        step_record(rec, actions[i], masks[i])
        for p in range(rec["num_players"]):
            rewards[i, p] = rec["rewards"][p]
    else:
        for p in range(rec["num_players"]):
            rewards[i, p] = 0.0
    terminated[i] = rec["terminated"]
    truncated[i] = rec["truncated"]


@njit(cache=True, inline="always")
def step_row(states, i, actions, masks, obs, rewards, terminated, truncated, auto_reset):
    """One row of a batch step: act, report, optionally auto-reset, encode the next obs.

    An action < 0 is a no-op for a row that has already ended (no auto-reset).
    """
    rec = states[i]
    act_row(states, i, actions, masks, rewards, terminated, truncated)
    if auto_reset and (rec["terminated"] or rec["truncated"]):
        reset_record(rec, masks[i])
    game_encode(rec, rec["current_player"], 0, obs[i])


@njit(cache=True)
def split_rewards(rec, scores, lower_is_better):
    """End the game: write zero-sum win rewards from final ``scores`` into ``rec``.

    Sole winner +1, each loser -1/(n-1); k tied winners share: each gets
    (n-k)/(k(n-1)), so the rewards always sum to zero and an all-way tie gives 0.
    """
    n = rec["num_players"]
    best = scores[0]
    for p in range(1, n):
        if (scores[p] < best) if lower_is_better else (scores[p] > best):
            best = scores[p]
    k = 0
    for p in range(n):
        if scores[p] == best:
            k += 1
    for p in range(n):
        if scores[p] == best:
            rec["rewards"][p] += (n - k) / (k * (n - 1.0))
        else:
            rec["rewards"][p] += -1.0 / (n - 1.0)
    rec["terminated"] = 1


@njit(cache=True)
def random_legal(mask, rng):
    """A uniform legal action of ``mask`` (-1 if none); mutates ``rng``."""
    count = 0
    for a in range(mask.shape[0]):
        count += mask[a]
    if count == 0:
        return -1
    k = randint(rng, count)
    for a in range(mask.shape[0]):
        if mask[a]:
            if k == 0:
                return a
            k -= 1
    return -1


@njit(cache=True, parallel=True)
def batch_random_actions(masks, rng, out):
    """Write a uniform legal action per row into ``out`` (-1 where none); mutates ``rng``."""
    for i in prange(masks.shape[0]):
        out[i] = random_legal(masks[i], rng[i])


@njit(cache=True)
def serial_random_actions(masks, rng, out):
    """:func:`batch_random_actions` without threads (cheaper for a few rows)."""
    for i in range(masks.shape[0]):
        out[i] = random_legal(masks[i], rng[i])


@njit(cache=True, parallel=True)
def batch_policy_actions(sel, obs, masks, rng, out):
    """The game's policy kernel (its heuristic) for each row; mutates ``rng``.

    ``sel`` is one record of the game's dtype: it only selects the game's ``policy``.
    """
    for i in prange(obs.shape[0]):
        out[i] = game_policy(obs[i], masks[i], rng[i], sel[0])


@njit(cache=True)
def serial_policy_actions(sel, obs, masks, rng, out):
    """:func:`batch_policy_actions` without threads (cheaper for a few rows)."""
    for i in range(obs.shape[0]):
        out[i] = game_policy(obs[i], masks[i], rng[i], sel[0])


SERIAL_BELOW = 64  # batches smaller than this skip the thread pool (~20 us to wake)
# a caller making several batched calls per step (the self-play env) uses the serial
# twins below this many rows: measured here at 256 rows, 60 k steps/s with the 2-thread
# pool against 200 k without it
PARALLEL_ROWS = 1024


@njit(cache=True)
def first_bad_action(actions, masks, terminated, truncated, auto_reset):
    """Index of the first row whose action is not legal now, or -1 if every row is fine.

    Without auto-reset an ended row must get -1; every other row a legal action id.
    """
    num_actions = masks.shape[1]
    for i in range(actions.shape[0]):
        a = actions[i]
        if not auto_reset and (terminated[i] or truncated[i]):
            if a != -1:
                return i
        elif a < 0 or a >= num_actions or masks[i, a] == 0:
            return i
    return -1


def empty_buffers(batch: int, num_actions: int, obs_size: int, max_players: int):
    """Return zeroed (mask, obs, rewards, terminated, truncated) buffers for a batch."""
    return (
        np.zeros((batch, num_actions), np.int8),
        np.zeros((batch, obs_size), np.float32),
        np.zeros((batch, max_players), np.float32),
        np.zeros(batch, np.int8),
        np.zeros(batch, np.int8),
    )


# ---------------------------------------------------------------- drivers (called from Python)
# Every top-level kernel compiled for a game links the game's whole call graph into its
# own module and runs LLVM over all of it (numba re-optimizes linked callees so that they
# can be inlined); a parallel kernel does this about three times (body, gufunc, wrapper),
# and so does every jitted function on the way down for what it calls. So the drivers
# share two kernels per game for the batched core, one parallel and one serial over rows
# (``_rows_parallel``, ``_rows_serial``: ``batch_step`` is the parallel one's ``_STEP``
# op), and one for a single row (``_row``: the AEC env and the gym wrapper), each picking
# its work by an op code; the per-step drivers above (``settle``, ``step_record``, ...)
# are inlined into them (``inline="always"``), so they add no LLVM module of their own.
# Arguments an op does not use are empty arrays of the one type every call uses, so each
# kernel has one signature per game.

_ROW_RESET, _ROW_STEP, _ROW_ENCODE, _ROW_STATE, _ROW_MASK = 0, 1, 2, 3, 4
_NO_MASK = np.zeros(0, np.int8)
_NO_OUT = np.zeros(0, np.float32)


@njit(cache=True)
def _row(op, states, i, arg, mask, out):
    """Single-row driver: ``arg`` is the action (step) or the seat (encode)."""
    rec = states[i]
    if op == _ROW_RESET:
        reset_record(rec, mask)
    elif op == _ROW_STEP:
        step_record(rec, arg, mask)
    elif op == _ROW_ENCODE:
        game_encode(rec, arg, 0, out)
    elif op == _ROW_STATE:
        game_encode_state(rec, out)
    elif rec["terminated"] or rec["truncated"]:
        clear_mask(mask)
    else:
        game_legal(rec, mask)


def reset_one(states, i, mask):
    """Deal a new game in row ``i`` and write its first legal mask."""
    _row(_ROW_RESET, states, i, 0, mask, _NO_OUT)


def step_one(states, i, action, mask):
    """Apply ``action`` (validated by the caller) to row ``i``; settle forced decisions."""
    _row(_ROW_STEP, states, i, action, mask, _NO_OUT)


def encode_one(states, i, player, out):
    """Write ``player``'s observation of row ``i`` into ``out``."""
    _row(_ROW_ENCODE, states, i, player, _NO_MASK, out)


def state_one(states, i, out):
    """Write the full state vector of row ``i`` into ``out``."""
    _row(_ROW_STATE, states, i, 0, _NO_MASK, out)


def mask_one(states, i, mask):
    """Write row ``i``'s current legal mask (zeros once the game is over)."""
    _row(_ROW_MASK, states, i, 0, mask, _NO_OUT)


_RESET, _RESET_ENCODE, _ACT, _ENCODE, _STEP, _STEP_AUTO = 0, 1, 2, 3, 4, 5
_NO_I64 = np.zeros(0, np.int64)
_NO_I8 = np.zeros(0, np.int8)
_NO_MASKS = np.zeros((0, 0), np.int8)
_NO_F32 = np.zeros((0, 0), np.float32)


def _all_rows(n: int) -> np.ndarray:
    """Every row index of a batch of ``n``, as the row kernels take it."""
    return np.arange(n, dtype=np.int64)


@njit(cache=True)
def _rows_body(op, states, j, rows, players, actions, masks, obs, rewards, terminated,
               truncated):
    """Work ``op`` on row ``rows[j]``: per-row arrays by row, ``players``/``obs`` by ``j``."""
    i = rows[j]
    if op == _STEP or op == _STEP_AUTO:  # every row: j == i
        step_row(states, i, actions, masks, obs, rewards, terminated, truncated,
                 op == _STEP_AUTO)
    elif op == _ACT:
        act_row(states, i, actions, masks, rewards, terminated, truncated)
    elif op == _ENCODE:
        game_encode(states[i], players[j], 0, obs[j])
    else:
        rec = states[i]
        reset_record(rec, masks[i])
        if op == _RESET_ENCODE:
            game_encode(rec, rec["current_player"], 0, obs[j])


@njit(cache=True, parallel=True)
def _rows_parallel(op, states, rows, players, actions, masks, obs, rewards, terminated,
                   truncated):
    for j in prange(rows.shape[0]):
        _rows_body(op, states, np.int64(j), rows, players, actions, masks, obs, rewards, terminated,
                   truncated)


# With OMP_WAIT_POLICY=PASSIVE every parallel region wakes its threads (tens of us); a
# caller making several small batched calls per step (the self-play env: a few hundred
# rows, several calls a step) runs 3x faster on the serial twins. Same row work, a plain loop.
@njit(cache=True)
def _rows_serial(op, states, rows, players, actions, masks, obs, rewards, terminated,
                 truncated):
    for j in range(rows.shape[0]):
        _rows_body(op, states, j, rows, players, actions, masks, obs, rewards, terminated,
                   truncated)


def _i64(a) -> np.ndarray:
    return np.ascontiguousarray(a, dtype=np.int64)


def batch_reset(states, masks, obs):
    """Reset every row and encode each current player's observation."""
    _rows_parallel(_RESET_ENCODE, states, _all_rows(states.shape[0]), _NO_I64, _NO_I64,
                   masks, obs, _NO_F32, _NO_I8, _NO_I8)


def batch_step(states, actions, masks, obs, rewards, terminated, truncated, auto_reset):
    """Step every row (action < 0: no-op for an ended row) and encode the next observations."""
    _rows_parallel(_STEP_AUTO if auto_reset else _STEP, states, _all_rows(states.shape[0]),
                   _NO_I64, _i64(actions), masks, obs, rewards, terminated, truncated)


def _step_some(kernel, states, actions, masks, rewards, terminated, truncated):
    kernel(_ACT, states, _all_rows(states.shape[0]), _NO_I64, _i64(actions), masks, _NO_F32,
           rewards, terminated, truncated)


def _reset_some(kernel, states, flags, masks):
    kernel(_RESET, states, np.flatnonzero(flags), _NO_I64, _NO_I64, masks, _NO_F32, _NO_F32,
           _NO_I8, _NO_I8)


def _encode_rows(kernel, states, rows, players, obs):
    kernel(_ENCODE, states, _i64(rows), _i64(players), _NO_I64, _NO_MASKS, obs, _NO_F32,
           _NO_I8, _NO_I8)


def batch_step_some(states, actions, masks, rewards, terminated, truncated):
    """Step only the rows whose action is >= 0 (no observations encoded).

    Rows with action < 0 are left untouched except that their ``rewards`` are zeroed;
    ``terminated``/``truncated`` are written for every row.
    """
    _step_some(_rows_parallel, states, actions, masks, rewards, terminated, truncated)


def batch_reset_some(states, flags, masks):
    """Deal a new game in every row with ``flags[i]`` set (options and RNG kept)."""
    _reset_some(_rows_parallel, states, flags, masks)


def encode_rows(states, rows, players, obs):
    """Write the observation of row ``rows[j]`` for seat ``players[j]`` into ``obs[j]``."""
    _encode_rows(_rows_parallel, states, rows, players, obs)


def batch_encode(states, players, obs):
    """Encode row ``i`` for seat ``players[i]`` into ``obs[i]``."""
    _encode_rows(_rows_parallel, states, _all_rows(states.shape[0]), players, obs)


def serial_step_some(states, actions, masks, rewards, terminated, truncated):
    """:func:`batch_step_some` without threads."""
    _step_some(_rows_serial, states, actions, masks, rewards, terminated, truncated)


def serial_reset_some(states, flags, masks):
    """:func:`batch_reset_some` without threads."""
    _reset_some(_rows_serial, states, flags, masks)


def serial_encode_rows(states, rows, players, obs):
    """:func:`encode_rows` without threads."""
    _encode_rows(_rows_serial, states, rows, players, obs)


def serial_encode(states, players, obs):
    """:func:`batch_encode` without threads."""
    _encode_rows(_rows_serial, states, _all_rows(states.shape[0]), players, obs)


# A kernel of its own, not an op of the row kernels: a game compiles its determinize only
# where something samples worlds (``VecEnv.sample_worlds``, the AEC env's ``sample_world``),
# not for every env. ISMCTS inlines the same ``game_determinize`` into its search.
@njit(cache=True)
def _determinize_rows(states, viewers, words):
    for i in range(states.shape[0]):
        game_determinize(states[i], viewers[i], words[i])


def determinize_rows(states, viewers, words):
    """Resample, in place, row ``i`` for seat ``viewers[i]`` from generator ``words[i]``.

    The game's ``determinize``: everything the seat cannot see is redrawn, and the row's
    own RNG is reseeded from the words. Seats and words are checked by the caller.
    """
    _determinize_rows(states, _i64(viewers), np.ascontiguousarray(words, dtype=np.int64))
