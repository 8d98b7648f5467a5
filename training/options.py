"""The options of a training run, per-game presets, and the command-line flags built from them.

:class:`TrainOptions` declares every knob once, with its game-neutral default and a one-line
meaning (the field's metadata). ``fatezoo train GAME`` builds its flags from those fields
(:func:`add_train_arguments`), so ``--help`` prints each flag's meaning and its default for
that game.

Per-game presets: a game may tune training in ``envs/<game>/presets.py`` as ``TRAIN_PRESET``
(a dict of :class:`TrainOptions` field overrides; the spec's ``train_preset`` when the game's
spec carries one). Precedence, lowest first: the neutral defaults, the game's preset, what
you pass (``TrainOptions("fatefell", n_steps=64)`` or a flag): a value you give always wins.

This module imports no torch and nothing else from ``fatezoo.training`` (the CLI builds its
parser from it). The game-option helpers used by every game command (``--reward``,
``--max-turns``, ``--option``, a game's own flags) live here too: :func:`add_game_options`
and :func:`game_options`.

>>> from fatezoo.training.options import TrainOptions
>>> TrainOptions("fatefell").num_envs, TrainOptions("fatefell", num_envs=8).num_envs
(256, 8)
"""

from __future__ import annotations

import argparse
import copy
import dataclasses
import json
from dataclasses import dataclass, field

import numpy as np

from fatezoo.envs.core.docs import option_docs
from fatezoo.envs.core.registry import game_names, get_spec

VECS = ("core", "gym", "gym-subproc")
LR_SCHEDULES = ("constant", "linear")
REWARDS = ("win", "score")
IMITATION_SHARE = 4  # auto imitation steps: min(imitation_max, timesteps // IMITATION_SHARE)


class _Unset:
    """Marks a field not given by the caller (filled from the preset or the neutral default)."""

    def __repr__(self):
        return "<preset or default>"


UNSET = _Unset()


def _opt(default, help: str, *, flag: str | None = None, group: str = "training",
         cli: bool = True, choices=None, metavar: str | None = None):
    """A :class:`TrainOptions` field: its neutral default and its meaning, kept as metadata."""
    meta = {"default": default, "help": help, "flag": flag, "group": group, "cli": cli,
            "choices": choices, "metavar": metavar}
    return field(default=UNSET, metadata=meta)


@dataclass
class TrainOptions:
    """Everything a training run depends on; every field but ``game`` has a default.

    Each field's meaning is in its metadata (``TrainOptions.docs()`` lists them, and
    ``fatezoo train GAME --help`` prints them with that game's defaults). A field you do
    not give takes the game's preset value (``train_preset(game)``) if there is one, else
    the game-neutral default (``TrainOptions.neutral_defaults()``).

    Not counted in ``timesteps``: the imitation warm start (``imitation_steps`` decisions of
    the game's heuristic, imitated before PPO; None = ``min(imitation_max, timesteps //
    4)``, rounded up to whole rollouts).
    """

    game: str
    timesteps: int = _opt(1_000_000, "learner decisions to train for (summed over all envs)")
    time_limit: float | None = _opt(
        None, "wall seconds the whole run may take, whatever --timesteps says: the warm "
        "start stops at a quarter of them, PPO early enough for the final checkpoint and "
        "eval (its first rollout always runs; none: no limit)", metavar="SECONDS")
    cpu_time_limit: float | None = _opt(
        None, "stop after this many CPU seconds of the training process, all its threads, "
        "warm start and evals included, shared out as for --time-limit (30 minutes on 2 "
        "cores: 3600): a budget that other jobs on the machine cannot shrink (none: no "
        "limit)", metavar="SECONDS")
    num_envs: int = _opt(64, "games played at once", flag="--envs")
    num_players: int = _opt(2, "seats per game (the learner takes one, opponents the rest)",
                            flag="--players")
    seed: int = _opt(0, "seeds the games, the opponent pool, torch and SB3")
    vec: str = _opt("core", "core: the batched self-play env; gym / gym-subproc: the gymnasium "
                    "wrapper in a DummyVecEnv / SubprocVecEnv (fixed opponents, no self-play)",
                    choices=VECS)
    out_dir: str = _opt("runs", "parent folder of run folders", metavar="DIR")
    run_name: str | None = _opt(None, "the run folder's name (none: "
                                "{game}__ppo__{seed}__{unix time})")
    torch_threads: int = _opt(2, "torch.set_num_threads (numba and torch take turns, so both "
                              "can use every core)", flag="--threads")
    progress: bool | None = _opt(
        None, "progress on stderr: a bar on a terminal, else a line every --log-every "
        "seconds and at each eval (--no-progress: none)", cli=False)
    log_every: float = _opt(30.0, "seconds between progress lines when stderr is not a "
                            "terminal", metavar="SECONDS")
    verbose: int = _opt(0, "SB3 verbosity (1 prints its tables to stdout)")
    device: str = _opt("cpu", "torch device")

    n_steps: int = _opt(128, "decisions per env per PPO rollout (rollout = n_steps * envs)",
                        group="PPO")
    batch_size: int = _opt(1024, "minibatch size of the PPO update", group="PPO")
    n_epochs: int = _opt(4, "passes over each rollout", group="PPO")
    learning_rate: float = _opt(3e-4, "Adam step size", group="PPO")
    lr_schedule: str = _opt("constant", "constant, or linear (decays to 0 at --timesteps)",
                            group="PPO", choices=LR_SCHEDULES)
    gamma: float = _opt(0.99, "discount per learner decision", group="PPO")
    gae_lambda: float = _opt(0.95, "GAE lambda", group="PPO")
    ent_coef: float = _opt(0.01, "entropy bonus", group="PPO")
    clip_range: float = _opt(0.2, "PPO clip range", group="PPO")
    vf_coef: float = _opt(0.5, "value loss weight", group="PPO")
    max_grad_norm: float = _opt(0.5, "gradient clipping (max norm)", group="PPO")
    target_kl: float | None = _opt(None, "stop an update's epochs early above this KL "
                                   "(none: never)", group="PPO")
    net_arch: tuple = _opt((64, 64), "hidden layers of the policy and value MLPs (each its "
                           "own network)", group="PPO", metavar="N,N")
    shared_layers: tuple = _opt((), "hidden layers of a trunk shared by policy and value "
                                "before --net-arch (none: no shared trunk)", group="PPO",
                                metavar="N,N")

    w_random: float = _opt(0.5, "opponent weight of the uniform random agent",
                           group="opponents and evaluation")
    w_heuristic: float = _opt(0.5, "opponent weight of the game's heuristic (dropped if it "
                              "has none)", group="opponents and evaluation")
    w_self: float = _opt(0.0, "opponent weight of frozen snapshots of the learner",
                         group="opponents and evaluation")
    pool_size: int = _opt(8, "snapshots kept for self-play", group="opponents and evaluation")
    snapshot_every: int = _opt(100_000, "timesteps between snapshots (the first is taken at "
                               "the start)", group="opponents and evaluation")
    eval_every: int = _opt(100_000, "timesteps between evaluations (0: only at the start and "
                           "the end)", group="opponents and evaluation")
    eval_games: int = _opt(200, "games per eval opponent at each periodic evaluation",
                           group="opponents and evaluation")
    final_eval_games: int = _opt(1000, "games per eval opponent in the final evaluation (0: "
                                 "no final evaluation)", group="opponents and evaluation")
    eval_opponents: tuple = _opt(("random", "heuristic"), "agent specs evaluated against, "
                                 "greedy policy and win reward (heuristic is skipped for "
                                 "games without one)", group="opponents and evaluation",
                                 metavar="A,B")
    checkpoint_every: int = _opt(500_000, "timesteps between checkpoints (0: only the final "
                                 "one)", group="opponents and evaluation")

    imitation_steps: int | None = _opt(
        None, "warm start: decisions of the game's heuristic the policy imitates before PPO "
        "(0: none; none: min(--imitation-max, timesteps // 4); a time limit stops it at a quarter "
        "of the limit)", group="imitation warm start")
    imitation_max: int = _opt(100_000, "the most decisions the automatic warm start imitates",
                              group="imitation warm start")
    imitation_epochs: int = _opt(2, "passes over each rollout of the warm start",
                                 group="imitation warm start")

    reward: str = _opt("win", "reward while training: win, or score (the game's shaping plus "
                       "the win reward)", cli=False)
    max_turns: int | None = _opt(None, "truncation limit (none: the game's default)", cli=False)
    game_options: dict = _opt({}, "the game's own options ({'seasons': 2}...), for training "
                              "and evaluation", cli=False)

    def __post_init__(self):
        preset = train_preset(self.game) if self.game in game_names() else {}
        for f in dataclasses.fields(self):
            if getattr(self, f.name) is UNSET:
                value = preset[f.name] if f.name in preset else f.metadata["default"]
                setattr(self, f.name, copy.deepcopy(value))
        for name in ("net_arch", "shared_layers", "eval_opponents"):
            if isinstance(getattr(self, name), list):
                setattr(self, name, tuple(getattr(self, name)))
        # a game with held-out setups trains on its train split unless told otherwise
        # (``--option split=all`` or ``--split test``), so its test setups stay unseen
        if isinstance(self.game_options, dict) and "split" not in self.game_options \
                and self.game in game_names() \
                and "split" in getattr(get_spec(self.game), "option_defaults", {}):
            self.game_options = dict(self.game_options, split="train")

    @staticmethod
    def neutral_defaults() -> dict:
        """Field -> game-neutral default (what a game without a preset trains with)."""
        return {f.name: copy.deepcopy(f.metadata["default"])
                for f in dataclasses.fields(TrainOptions) if f.name != "game"}

    @staticmethod
    def docs() -> dict:
        """Field -> its one-line meaning."""
        return {f.name: f.metadata["help"] for f in dataclasses.fields(TrainOptions)
                if f.name != "game"}

    def check(self) -> None:
        """Raise ValueError naming the first bad option and what was expected."""
        spec = get_spec(self.game)
        ints = {"timesteps": 1, "num_envs": 1, "n_steps": 1, "batch_size": 2, "n_epochs": 1,
                "pool_size": 1, "snapshot_every": 1, "eval_every": 0, "eval_games": 1,
                "final_eval_games": 0, "checkpoint_every": 0, "torch_threads": 1,
                "imitation_max": 0, "imitation_epochs": 1, "verbose": 0}
        if self.imitation_steps is not None:
            ints["imitation_steps"] = 0
        for name, low in ints.items():
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < low:
                raise ValueError(f"train: {name} must be an int >= {low}, got {v!r}")
        if not spec.min_players <= self.num_players <= spec.max_players:
            raise ValueError(f"train: {self.game} needs num_players in [{spec.min_players}, "
                             f"{spec.max_players}], got {self.num_players!r}")
        for name, allowed in (("vec", VECS), ("lr_schedule", LR_SCHEDULES),
                              ("reward", REWARDS)):
            if getattr(self, name) not in allowed:
                raise ValueError(f"train: {name} must be one of {allowed}, got "
                                 f"{getattr(self, name)!r}")
        weights = {"w_random": self.w_random, "w_heuristic": self.w_heuristic,
                   "w_self": self.w_self}
        for name, w in weights.items():
            if isinstance(w, bool) or not (isinstance(w, (int, float)) and np.isfinite(w)
                                           and w >= 0):
                raise ValueError(f"train: {name} must be a number >= 0, got {w!r}")
        if self.vec != "core" and self.w_random + self.w_heuristic <= 0:
            raise ValueError(f"train: vec={self.vec!r} has no self-play; give w_random or "
                             "w_heuristic a positive weight")
        for name in ("time_limit", "cpu_time_limit"):
            v = getattr(self, name)
            if v is not None and not (isinstance(v, (int, float)) and v > 0):
                raise ValueError(f"train: {name} must be > 0 seconds or None, got {v!r}")
        if not (isinstance(self.log_every, (int, float)) and self.log_every > 0):
            raise ValueError(f"train: log_every must be > 0 seconds, got {self.log_every!r}")
        for name in ("net_arch", "shared_layers"):
            v = getattr(self, name)
            if not all(isinstance(x, (int, np.integer)) and not isinstance(x, bool) and x >= 1
                       for x in v) or (name == "net_arch" and not v):
                raise ValueError(f"train: {name} must be positive layer sizes, got {v!r}")
        spec.options(num_players=self.num_players, max_turns=self.max_turns,
                     reward=self.reward, **self.game_options)

    def env_options(self, reward: str | None = None) -> dict:
        """The env options (``reward``, ``max_turns``, the game's own) for the envs."""
        opts = dict(self.game_options, reward=reward or self.reward)
        if self.max_turns is not None:
            opts["max_turns"] = self.max_turns
        return opts

    def weights(self) -> dict:
        """Opponent kind -> weight for the :class:`OpponentPool`."""
        return {"random": self.w_random, "heuristic": self.w_heuristic, "self": self.w_self}

    def rollout_size(self) -> int:
        """Timesteps per PPO rollout (``n_steps * num_envs``)."""
        return self.n_steps * self.num_envs

    def planned_timesteps(self) -> int:
        """The timesteps ``learn`` runs: ``timesteps`` rounded up to whole rollouts."""
        r = self.rollout_size()
        return -(-self.timesteps // r) * r

    def warm_start_steps(self) -> int:
        """Decisions the imitation warm start asks for (before rounding up to rollouts).

        ``imitation_steps`` if given, else ``min(imitation_max, timesteps // 4)``; 0 for a
        game without a heuristic.
        """
        if get_spec(self.game).heuristic is None:
            return 0
        if self.imitation_steps is not None:
            return int(self.imitation_steps)
        return int(min(self.imitation_max, self.timesteps // IMITATION_SHARE))


def train_preset(game: str) -> dict:
    """The game's training preset: :class:`TrainOptions` field -> value (may be empty).

    The spec's ``evaluation.train_preset`` (a game folder keeps it in ``presets.py``). Raises
    ValueError for a key that is no :class:`TrainOptions` field.
    """
    evaluation = getattr(get_spec(game), "evaluation", None)
    preset = getattr(evaluation, "train_preset", None) or {}
    names = {f.name for f in dataclasses.fields(TrainOptions)} - {"game"}
    for key in preset:
        if key not in names:
            raise ValueError(f"{game}: train_preset key {key!r} is no TrainOptions field; "
                             f"expected one of {sorted(names)}")
    return dict(preset)


# ---------------------------------------------------------------- game options (all commands


def _flag(name: str) -> str:
    return "--" + name.replace("_", "-")


def add_game_options(parser: argparse.ArgumentParser, game: str | None,
                     reward_default: str = "win") -> None:
    """Add the common env options and, if ``game`` is known, flags for its own options."""
    group = parser.add_argument_group("game options")
    group.add_argument("--max-turns", type=int, default=None,
                       help="truncation limit in player turns (default: the game's)")
    group.add_argument("--reward", choices=REWARDS, default=None,
                       help=f"reward mode (default: {reward_default})")
    group.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                       help="a game option by name (value parsed as JSON if possible)")
    if game not in game_names():
        return
    spec = get_spec(game)
    meanings = option_docs(spec)
    for name, default in spec.option_defaults.items():
        kwargs = {"dest": f"opt_{name}", "default": None}
        if isinstance(default, bool) or default is None:
            kwargs["action"] = argparse.BooleanOptionalAction
        elif isinstance(default, (int, float)):
            kwargs.update(type=type(default), metavar="N" if isinstance(default, int) else "X")
        shown = default if isinstance(default, (bool, int, float)) or default is None \
            else repr(default)
        text = f"{meanings[name].rstrip('.')} (default: {shown})".replace("``", "")
        group.add_argument(_flag(name), help=text.replace("%", "%%"), **kwargs)


def game_options(args: argparse.Namespace) -> dict:
    """The env options given on the command line (only those set)."""
    opts = {}
    for key, value in vars(args).items():
        if key.startswith("opt_") and value is not None:
            opts[key[4:]] = value
    for item in getattr(args, "option", None) or []:
        if "=" not in item:
            raise SystemExit(f"fatezoo: error: --option expects NAME=VALUE, got {item!r}")
        name, raw = item.split("=", 1)
        try:
            value = json.loads(raw)
        except json.JSONDecodeError:
            value = raw
        opts[name.strip().replace("-", "_")] = value
    if getattr(args, "max_turns", None) is not None:
        opts["max_turns"] = args.max_turns
    if getattr(args, "reward", None) is not None:
        opts["reward"] = args.reward
    return opts


# ---------------------------------------------------------------- fatezoo train flags


def _int_list(text: str) -> tuple:
    try:
        return tuple(int(x) for x in text.split(",") if x.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected comma-separated ints, got {text!r}") \
            from None


def _str_list(text: str) -> tuple:
    return tuple(x.strip() for x in text.split(",") if x.strip())


_NONE = "none"  # what an optional flag's parser returns for "none" (None means not given)


def _optional(kind):
    """A parser for ``kind`` that also reads ``none`` (kept apart from "not given")."""
    def parse(text: str):
        if text.strip().lower() == "none":
            return _NONE
        try:
            return kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {kind.__name__} or none, got "
                                             f"{text!r}") from None
    parse.__name__ = kind.__name__
    return parse


def _show(value) -> str:
    if value is None:
        return "none"
    if isinstance(value, tuple):
        return ",".join(map(str, value)) or "none"
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, int):
        return f"{value:_}"
    return str(value)


def add_train_arguments(parser: argparse.ArgumentParser, game: str | None = None) -> None:
    """Add ``fatezoo train``'s arguments: the game and one flag per :class:`TrainOptions` field.

    Each flag's help is the field's meaning and its default for ``game`` (its preset
    applied); flags default to "not given" (None), so :func:`options_from_args` lets the
    preset fill what the user left out. ``--reward``, ``--max-turns`` and the game's own
    flags come from :func:`add_game_options`.
    """
    parser.add_argument("game", help=f"one of: {', '.join(game_names())}")
    shown = TrainOptions(game) if game in game_names() else None
    preset = train_preset(game) if shown is not None else {}
    groups: dict[str, argparse._ArgumentGroup] = {}
    for f in dataclasses.fields(TrainOptions):
        meta = f.metadata
        if f.name == "game" or not meta["cli"]:
            continue
        group = groups.get(meta["group"]) or groups.setdefault(
            meta["group"], parser.add_argument_group(meta["group"]))
        default = getattr(shown, f.name) if shown is not None else meta["default"]
        origin = f"{game} preset" if f.name in preset else "default"
        help_text = f"{meta['help']} ({origin}: {_show(default)})"
        help_text = help_text.replace("%", "%%")
        base = meta["default"]
        kwargs = {"dest": f.name, "default": None, "help": help_text}
        if meta["choices"]:
            kwargs["choices"] = meta["choices"]
        elif isinstance(base, tuple):
            kwargs["type"] = _int_list if f.name in ("net_arch", "shared_layers") else _str_list
        elif f.name in ("time_limit", "cpu_time_limit", "target_kl"):
            kwargs["type"] = _optional(float)
            kwargs["metavar"] = "X"
        elif f.name == "imitation_steps":
            kwargs["type"] = _optional(int)
            kwargs["metavar"] = "N"
        elif f.name == "run_name":
            kwargs["type"] = str
            kwargs["metavar"] = "NAME"
        elif isinstance(base, bool):
            kwargs["action"] = argparse.BooleanOptionalAction
        elif isinstance(base, int):
            kwargs["type"] = int
        elif isinstance(base, float):
            kwargs["type"] = float
        if meta["metavar"]:
            kwargs["metavar"] = meta["metavar"]
        elif "metavar" not in kwargs and kwargs.get("type") in (int, float):
            kwargs["metavar"] = "N" if kwargs["type"] is int else "X"
        group.add_argument(meta["flag"] or _flag(f.name), **kwargs)
    groups["training"].add_argument("--no-progress", action="store_true",
                                    help="print no progress (default: a bar on a terminal, "
                                         "else a line every --log-every seconds)")


def train_reward_help(game: str | None) -> str:
    """The ``--reward`` default text of ``fatezoo train GAME`` (the preset's reward)."""
    reward = TrainOptions(game).reward if game in game_names() else "the game's preset"
    return f"{reward} while training; evals use win"


def options_from_args(args: argparse.Namespace) -> TrainOptions:
    """Build :class:`TrainOptions` from parsed ``fatezoo train`` arguments (checked).

    Only the flags the user gave are passed on (the game's preset fills the rest);
    ``--reward``, ``--max-turns`` and game flags are read when the parser has them.
    """
    names = {f.name for f in dataclasses.fields(TrainOptions)}
    kwargs = {k: v for k, v in vars(args).items() if k in names and v is not None}
    for key in ("time_limit", "cpu_time_limit", "target_kl", "imitation_steps"):
        if kwargs.get(key) is _NONE:  # "none" given explicitly
            kwargs[key] = None
    extra = game_options(args)
    for key in ("reward", "max_turns"):
        if key in extra:
            kwargs[key] = extra.pop(key)
    if extra:
        kwargs["game_options"] = extra
    if getattr(args, "no_progress", False):
        kwargs["progress"] = False
    opts = TrainOptions(**kwargs)
    opts.check()
    return opts


MACHINE_FIELDS = ("out_dir", "run_name", "progress", "log_every", "verbose")  # not the policy


def _arg(value) -> str:
    """A flag's value as the command line reads it back (ints without ``_``)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return _show(value)


def train_command(options: dict) -> str:
    """The ``fatezoo train`` command that trains with ``options`` (a run's options.json).

    Only the fields that differ from the game's preset are written (the rest are what the
    command takes without a flag), leaving out where the run was kept and how it logged
    (:data:`MACHINE_FIELDS`).
    """
    game = options["game"]
    preset = dataclasses.asdict(TrainOptions(game))
    words = ["fatezoo", "train", game]
    for f in dataclasses.fields(TrainOptions):
        if f.name == "game" or f.name in MACHINE_FIELDS or f.name not in options:
            continue
        value = options[f.name]
        value = tuple(value) if isinstance(value, list) else value
        if value == preset[f.name]:
            continue
        if f.name == "game_options":
            words += [f"--option {k}={json.dumps(v)}" for k, v in sorted(value.items())]
        elif f.name in ("reward", "max_turns"):
            words.append(f"{_flag(f.name)} {_arg(value)}")
        elif isinstance(value, bool):
            words.append(_flag(f.name) if value else "--no-" + _flag(f.name)[2:])
        else:
            flag = f.metadata["flag"] or _flag(f.name)
            words.append(f"{flag} {_arg(value)}")
    return " ".join(words)


__all__ = ["LR_SCHEDULES", "MACHINE_FIELDS", "REWARDS", "TrainOptions", "VECS",
           "add_game_options", "add_train_arguments", "game_options", "options_from_args",
           "train_command", "train_preset", "train_reward_help"]
