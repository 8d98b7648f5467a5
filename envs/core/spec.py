"""What a game folder hands the core: one :class:`GameSpec` per game, checked at import.

A game folder ``envs/<game>/`` defines ``SPEC = GameSpec(...)`` in its ``__init__``.
The spec checks itself when it is built (action names, observation layout, names,
options, kernels) and registers the game's kernels with the core, so a mistake fails at
import with a message naming the game and the problem.
"""

from __future__ import annotations

import inspect
import math
import re
from dataclasses import dataclass, field, fields
from typing import Any, Callable

import numpy as np

from .compile_notice import set_estimates
from .kernels import (
    SERIAL_BELOW,
    batch_policy_actions,
    register_game,
    serial_policy_actions,
)
from .layout import ObsLayout
from .state import MAX_PLAYERS, REWARD_MODES

COMMON_OPTIONS = ("num_players", "max_turns", "reward")


class IllegalActionError(ValueError):
    """An action that is out of range, of the wrong type, or masked out."""


@dataclass(frozen=True)
class Kernels:
    """A game's single-record numba kernels (see :mod:`fatezoo.envs.core.kernels`).

    Required: ``reset(rec)``, ``apply(rec, action)``, ``legal(rec, mask)``,
    ``encode(rec, player, omniscient, out)``, ``encode_state(rec, out)``. Optional, for
    search agents: ``determinize(rec, player, words)``, ``policy(obs, mask, words)``,
    ``evaluate(rec, values)``. Optional for any game: ``asks(rec) -> bool``, whether the
    current player is asked even with one legal action (default: never).
    """

    reset: Callable | None = None
    apply: Callable | None = None
    legal: Callable | None = None
    encode: Callable | None = None
    encode_state: Callable | None = None
    determinize: Callable | None = None
    policy: Callable | None = None
    evaluate: Callable | None = None
    asks: Callable | None = None

    REQUIRED = ("reset", "apply", "legal", "encode", "encode_state")

    def as_dict(self) -> dict:
        """Kernel name -> function (None where the game has none)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


def _is_int(x) -> bool:
    return isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_))


class KernelDeterminize:
    """A spec's ``determinize`` made from its ``determinize`` kernel.

    ``(record, player, np.random.Generator) -> None``: checks the seat, draws four
    generator words from ``rng`` and resamples in place everything ``player`` cannot see.
    """

    def __init__(self, game: str, kernel: Callable):
        self.game, self.kernel = game, kernel

    def __call__(self, rec, player, rng: np.random.Generator) -> None:
        """Resample ``rec`` in place for ``player``; raises ValueError for a bad seat."""
        n = int(rec["num_players"])
        if not _is_int(player) or not 0 <= player < n:
            raise ValueError(f"{self.game}: player must be in [0, {n}), got {player!r}")
        words = rng.integers(1, 2**32, size=4).astype(np.int64)
        self.kernel(rec, int(player), words)

    def __repr__(self):
        return f"KernelDeterminize({self.game!r}, {self.kernel!r})"


class KernelHeuristic:
    """A spec's ``heuristic`` made from its ``policy`` kernel, over a batch.

    ``(obs (B, D), masks (B, A), rng words (B, 4)) -> actions (B,)``; the rows run in
    parallel from ``SERIAL_BELOW`` rows up.
    """

    def __init__(self, state_dtype: np.dtype):
        self.sel = np.zeros(1, state_dtype)  # selects the game's policy kernel

    def __call__(self, obs: np.ndarray, masks: np.ndarray, rng: np.ndarray) -> np.ndarray:
        """The policy's action for each row; mutates ``rng``."""
        out = np.empty(obs.shape[0], np.int64)
        kernel = serial_policy_actions if len(obs) < SERIAL_BELOW else batch_policy_actions
        kernel(self.sel, obs, masks, rng, out)
        return out

    def __repr__(self):
        return f"KernelHeuristic({self.sel.dtype.names[0][:-len('_format')]!r})"


def _camel(name: str) -> str:
    return "".join(part.title() for part in name.split("_"))


@dataclass(frozen=True)
class EvalSettings:
    """How a game is tested, measured, trained and searched: not the game itself.

    Attributes:
        contract_options: option sets (dicts of ``make`` keyword arguments) the shared
            contract tests run the game with, besides the defaults.
        fuzz_games: random games the CI fuzz plays per player count with the default
            options (``pytest --long``: 100,000).
        fuzz_option_games: the same for each ``contract_options`` set.
        fuzz_sample_rows: running games whose record ``check_record`` checks at each step
            of the fuzz (every game is checked at its end besides).
        bench_floor: batched-core steps/s that ``fatezoo bench`` requires (0: none).
        arena_targets: ``(agent spec, opponent spec, min win rate)`` triples.
        train_preset: ``TrainOptions`` field overrides for ``fatezoo train GAME``.
        rollout_depth: ISMCTS rollout decisions before the game's ``evaluate`` scores
            the position (0: rollouts play to the end).
        ismcts_prior: ISMCTS's default weight of the rollout policy's action in the tree
            (``agents/ismcts.py``; 0: none; > 0 needs a ``policy`` kernel).
        compile_seconds: measured cold compile seconds per entry point (``aec``,
            ``vector``, ``heuristic``, ``ismcts``; ``fatezoo bench --compile``), quoted by
            the first-use notice on stderr.
    """

    contract_options: tuple = ()
    fuzz_games: int = 2000
    fuzz_option_games: int = 300
    fuzz_sample_rows: int = 4
    bench_floor: float = 0.0
    arena_targets: tuple = ()
    train_preset: dict = field(default_factory=dict)
    rollout_depth: int = 0
    ismcts_prior: float = 0.0
    compile_seconds: dict = field(default_factory=dict)

    def problems(self) -> list:
        """``(exception type, message)`` for each malformed setting; empty when sound.

        The game's spec raises the first, naming the game, when it is built.
        """
        out = []
        if not isinstance(self.contract_options, tuple) or not all(
                isinstance(o, dict) for o in self.contract_options):
            out.append((TypeError, "contract_options must be a tuple of dicts"))
        for attr in ("fuzz_games", "fuzz_option_games", "fuzz_sample_rows"):
            v = getattr(self, attr)
            if not _is_int(v) or v < 1:
                out.append((ValueError, f"{attr} must be an int >= 1, got {v!r}"))
        if isinstance(self.bench_floor, bool) or not isinstance(self.bench_floor, (int, float)) \
                or not self.bench_floor >= 0 or math.isinf(self.bench_floor):
            out.append((ValueError, f"bench_floor must be a finite number >= 0, got "
                                    f"{self.bench_floor!r}"))
        if not isinstance(self.arena_targets, tuple):
            out.append((TypeError, "arena_targets must be a tuple of (agent, opponent, "
                                   "min_win_rate)"))
        for t in self.arena_targets if isinstance(self.arena_targets, tuple) else ():
            ok = (isinstance(t, tuple) and len(t) == 3 and isinstance(t[0], str)
                  and isinstance(t[1], str) and isinstance(t[2], (int, float))
                  and not isinstance(t[2], bool) and 0.0 <= t[2] <= 1.0)
            if not ok:
                out.append((ValueError, f"arena target {t!r} must be (agent spec, opponent "
                                        "spec, min win rate in [0, 1])"))
        if not isinstance(self.train_preset, dict):
            out.append((TypeError, f"train_preset must be a dict, got "
                                   f"{type(self.train_preset).__name__}"))
        if not _is_int(self.rollout_depth) or self.rollout_depth < 0:
            out.append((ValueError, f"rollout_depth must be an int >= 0, got "
                                    f"{self.rollout_depth!r}"))
        if isinstance(self.ismcts_prior, bool) or not isinstance(
                self.ismcts_prior, (int, float)) or not 0 <= self.ismcts_prior < float("inf"):
            out.append((ValueError, f"ismcts_prior must be a finite number >= 0, got "
                                    f"{self.ismcts_prior!r}"))
        if not isinstance(self.compile_seconds, dict) or not all(
                _is_int(v) and v >= 0 for v in self.compile_seconds.values()):
            out.append((ValueError, f"compile_seconds must map entry points to whole "
                                    f"seconds >= 0, got {self.compile_seconds!r}"))
        return out


@dataclass(frozen=True)
class GameSpec:
    """The game itself, as the shared core needs to know it.

    Attributes:
        name: env name, snake_case, equal to the game's folder name (``"fatefell"``).
        gym_id: gymnasium id, ``"fatezoo/<Name>-v0"`` (``"fatezoo/Fatefell-v0"``).
        min_players: fewest seats.
        max_players: most seats.
        num_actions: size of the fixed ``Discrete`` action space.
        state_size: length of ``state_tensor`` vectors.
        state_dtype: the record dtype (first field ``<name>_format``).
        obs: the observation layout; ``obs_layout``, ``obs_size`` and ``obs_docs`` derive.
        action_names: one short name per action id.
        configure: ``(**options) -> dict`` of record fields; raises on bad options. Its
            signature is the one place the game's options and defaults are declared
            (``option_defaults`` derives from it). A parameter named ``num_players`` is
            not an option: the core passes it the validated player count, so an option
            can be checked against it (a list with one entry per seat).
        check_record: ``(record) -> None``; raises ValueError on a corrupt record.
        render_ansi: ``(record, seat | None) -> str``.
        render_svg: ``(record, seat | None) -> str``.
        kernels: the numba kernels; the spec registers them with the core.
        determinize: ``(record, player, np.random.Generator) -> None`` (in place);
            left out, it is made from the ``determinize`` kernel (:class:`KernelDeterminize`).
        heuristic: ``(obs (B, D), masks (B, A), rng words (B, 4)) -> actions (B,)``; left
            out, it is the ``policy`` kernel over a batch (:class:`KernelHeuristic`).
        default_max_turns: truncation limit in player turns.
        format_version: the record format, stored in each record's ``<game>_format``.
        golden_summary: ``(record) -> str``, the per-game closing line(s) of a golden
            transcript (scores, totals...); None: the returns only.
        how_to_win: one or two sentences on how the game is won (``fatezoo play`` says it).
        legend: how to read ``render_ansi``'s text (card codes...), for ``play``'s help.
        symmetric_information: every seat sees the same table (no hidden information
            between seats), so the contract's leak test has nothing to hide per seat.
        setup_split: ``(record) -> "train" | "test"``: which held-out split a dealt game's
            setup belongs to, decided from the record alone and written apart from the
            reset kernel that deals it (the tests' oracle: a ``split="train"`` env never
            deals a setup this calls ``"test"``, and the reverse). None: the game has no
            ``split`` option.
        evaluation: how the game is tested, measured, trained and searched
            (:class:`EvalSettings`).
    """

    name: str
    gym_id: str
    min_players: int
    max_players: int
    num_actions: int
    state_size: int
    state_dtype: np.dtype
    obs: ObsLayout
    action_names: tuple
    configure: Callable[..., dict]
    check_record: Callable[[Any], None]
    render_ansi: Callable
    render_svg: Callable
    kernels: Kernels
    determinize: Callable | None = None
    heuristic: Callable | None = None
    default_max_turns: int = 1000
    format_version: int = 1
    golden_summary: Callable | None = None
    how_to_win: str = ""
    legend: str = ""
    symmetric_information: bool = False
    setup_split: Callable | None = None
    evaluation: EvalSettings = field(default_factory=EvalSettings)

    # ------------------------------------------------------------------ self-checks

    def __post_init__(self):
        stale = isinstance(self.determinize, KernelDeterminize) and isinstance(
            self.kernels, Kernels) and self.determinize.kernel is not self.kernels.determinize
        if (self.determinize is None or stale) and isinstance(self.kernels, Kernels) \
                and self.kernels.determinize is not None:
            object.__setattr__(self, "determinize",
                               KernelDeterminize(self.name, self.kernels.determinize))
        if self.heuristic is None and isinstance(self.kernels, Kernels) \
                and self.kernels.policy is not None and isinstance(self.state_dtype, np.dtype):
            object.__setattr__(self, "heuristic", KernelHeuristic(self.state_dtype))
        for check in (self._check_names, self._check_sizes, self._check_obs,
                      self._check_callables, self._check_kernels, self._check_options,
                      self._check_declarations):
            check()
        register_game(self.state_dtype, **self.kernels.as_dict())
        set_estimates(self.name, self.evaluation.compile_seconds)

    def _fail(self, message, kind=ValueError):
        raise kind(f"{self.name}: {message}")

    def _check_names(self):
        if not isinstance(self.name, str) or not re.fullmatch(r"[a-z][a-z0-9_]*", self.name):
            raise ValueError(f"game name {self.name!r} must be snake_case (a-z, 0-9, _)")
        want = f"fatezoo/{_camel(self.name)}-v0"
        if self.gym_id != want:
            self._fail(f"gym_id is {self.gym_id!r}; expected {want!r} (the fatezoo/<Name>-v0 "
                       "form of the game's name)")

    def _check_sizes(self):
        for attr in ("min_players", "max_players", "num_actions", "state_size",
                     "default_max_turns", "format_version"):
            value = getattr(self, attr)
            if not _is_int(value) or value < 1:
                self._fail(f"{attr} must be a positive int, got {value!r}")
        if not self.min_players <= self.max_players <= MAX_PLAYERS:
            self._fail(f"players must satisfy min_players <= max_players <= {MAX_PLAYERS}, "
                       f"got {self.min_players} and {self.max_players}")
        if not isinstance(self.action_names, tuple) or not all(
                isinstance(a, str) for a in self.action_names):
            self._fail("action_names must be a tuple of str", TypeError)
        if len(self.action_names) != self.num_actions:
            self._fail(f"{len(self.action_names)} action_names for num_actions="
                       f"{self.num_actions}; expected one name per action")
        if not isinstance(self.state_dtype, np.dtype) or self.state_dtype.names is None:
            self._fail(f"state_dtype must be a structured numpy dtype, got {self.state_dtype!r}",
                       TypeError)
        fmt = f"{self.name}_format"
        if self.state_dtype.names[0] != fmt:
            self._fail(f"state_dtype's first field is {self.state_dtype.names[0]!r}; expected "
                       f"{fmt!r} (use make_state_dtype)")

    def _check_obs(self):
        if not isinstance(self.obs, ObsLayout):
            self._fail(f"obs must be an ObsLayout, got {type(self.obs).__name__}", TypeError)
        bad = self.obs.problems()
        if bad:
            self._fail("; ".join(bad))
        end = 0
        for name, sl in self.obs.slices.items():  # derived, but checked all the same
            if sl.start != end:
                self._fail(f"observation field {name!r} starts at {sl.start}, expected {end}")
            end = sl.stop
        if end != self.obs_size:
            self._fail(f"the observation fields end at {end}, not at obs_size={self.obs_size}")
        if self.obs_size > self.state_size:
            self._fail(f"state_size={self.state_size} is smaller than obs_size={self.obs_size}")

    def _check_callables(self):
        for attr in ("configure", "check_record", "render_ansi", "render_svg"):
            if not callable(getattr(self, attr)):
                self._fail(f"{attr} must be callable, got {getattr(self, attr)!r}", TypeError)
        for attr in ("determinize", "heuristic", "golden_summary", "setup_split"):
            value = getattr(self, attr)
            if value is not None and not callable(value):
                self._fail(f"{attr} must be callable or None, got {value!r}", TypeError)

    def _check_kernels(self):
        if not isinstance(self.kernels, Kernels):
            self._fail(f"kernels must be a Kernels(...), got {type(self.kernels).__name__}",
                       TypeError)
        missing = [k for k in Kernels.REQUIRED if getattr(self.kernels, k) is None]
        if missing:
            self._fail(f"missing required kernel(s) {missing}; Kernels needs "
                       f"{list(Kernels.REQUIRED)}", TypeError)
        for name, fn in self.kernels.as_dict().items():
            if fn is not None and not callable(fn):
                self._fail(f"kernel {name!r} must be callable, got {fn!r}", TypeError)

    def _check_options(self):
        try:
            sig = inspect.signature(self.configure)
        except (TypeError, ValueError):
            self._fail("configure's signature cannot be read; its keyword defaults declare "
                       "the game's options", TypeError)
        for p in sig.parameters.values():
            where = f"configure parameter {p.name!r}"
            if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
                self._fail(f"{where}: options must be named parameters with defaults (the "
                           "signature is the one place option defaults are declared)", TypeError)
            if p.kind == p.POSITIONAL_ONLY:
                self._fail(f"{where} is positional-only; options are keyword arguments",
                           TypeError)
            if p.name == "num_players":
                continue  # not an option: the core passes the validated player count
            if p.default is p.empty:
                self._fail(f"{where} has no default; every option needs one", TypeError)
            if p.name in COMMON_OPTIONS:
                self._fail(f"{where} shadows the common option {p.name!r}", TypeError)

    def _check_declarations(self):
        if not isinstance(self.evaluation, EvalSettings):
            self._fail(f"evaluation must be an EvalSettings(...), got "
                       f"{type(self.evaluation).__name__}", TypeError)
        for kind, message in self.evaluation.problems()[:1]:
            self._fail(message, kind)
        for opts in self.evaluation.contract_options:
            try:
                self.options(**dict({"num_players": self.min_players}, **opts))
            except (TypeError, ValueError) as err:
                self._fail(f"contract_options {opts!r} are not valid options: {err}")
        for attr in ("how_to_win", "legend"):
            if not isinstance(getattr(self, attr), str):
                self._fail(f"{attr} must be a str, got {getattr(self, attr)!r}", TypeError)
        if not isinstance(self.symmetric_information, bool):
            self._fail(f"symmetric_information must be a bool, got "
                       f"{self.symmetric_information!r}", TypeError)

    # ------------------------------------------------------------------ derived

    @property
    def obs_layout(self) -> dict:
        """Observation field name -> slice."""
        return self.obs.layout

    @property
    def obs_size(self) -> int:
        """Length of an observation vector."""
        return self.obs.size

    @property
    def obs_docs(self) -> dict:
        """Observation field name -> meaning."""
        return self.obs.docs

    @property
    def option_defaults(self) -> dict:
        """The game's own options and their defaults, read from ``configure``'s signature."""
        return {p.name: p.default
                for p in inspect.signature(self.configure).parameters.values()
                if p.name != "num_players"}

    # ------------------------------------------------------------------ options

    def options(self, num_players=2, max_turns=None, reward="win", **game_options) -> dict:
        """Validate the common and game options; return the record fields they set."""
        if isinstance(num_players, bool) or not isinstance(num_players, (int, np.integer)):
            raise TypeError(f"{self.name}: num_players must be an int, got {num_players!r}")
        if not self.min_players <= num_players <= min(self.max_players, MAX_PLAYERS):
            raise ValueError(f"{self.name}: num_players must be in "
                             f"[{self.min_players}, {self.max_players}], got {num_players!r}")
        if max_turns is None:
            max_turns = self.default_max_turns
        turns_cap = int(np.iinfo(self.state_dtype["max_turns"]).max)
        if isinstance(max_turns, bool) or not isinstance(max_turns, (int, np.integer)) \
                or not 1 <= max_turns <= turns_cap:
            raise ValueError(f"{self.name}: max_turns must be an int in [1, {turns_cap}], "
                             f"got {max_turns!r}")
        if not isinstance(reward, str) or reward not in REWARD_MODES:
            raise ValueError(f"{self.name}: reward must be one of {sorted(REWARD_MODES)}, "
                             f"got {reward!r}")
        unknown = set(game_options) - set(self.option_defaults)
        if unknown:
            raise TypeError(f"{self.name}: unknown option(s) {sorted(unknown)}; "
                            f"expected some of {sorted(self.option_defaults)}")
        fields_ = {"num_players": int(num_players), "max_turns": int(max_turns),
                   "reward_mode": REWARD_MODES[reward]}
        if "num_players" in inspect.signature(self.configure).parameters:
            game_options = dict(game_options, num_players=int(num_players))
        fields_.update(self.configure(**game_options))
        self._check_fields_fit(fields_)
        return fields_

    def _check_fields_fit(self, values: dict) -> None:
        """Raise ValueError where an option's record field cannot hold its value."""
        for name, value in values.items():
            if name not in self.state_dtype.names:
                raise ValueError(f"{self.name}: configure set {name!r}, which is not a record "
                                 "field")
            dt = self.state_dtype[name].base
            if dt.kind in "iu":
                arr = np.asarray(value)
                if arr.dtype.kind in "iub" and arr.size:
                    lo, hi = np.iinfo(dt).min, np.iinfo(dt).max
                    if int(arr.min()) < lo or int(arr.max()) > hi:
                        raise ValueError(f"{self.name}: option value {value!r} for {name!r} "
                                         f"is outside [{lo}, {hi}]")

    def new_states(self, batch: int, fields: dict) -> np.ndarray:
        """Return ``batch`` zeroed records with the option ``fields`` written in."""
        states = np.zeros(batch, self.state_dtype)
        states[f"{self.name}_format"] = self.format_version
        for name, value in fields.items():
            states[name] = value
        return states
