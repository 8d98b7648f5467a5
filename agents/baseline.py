"""The shipped baseline policies: a MaskablePPO policy network played with numpy alone.

A baseline file (``.npz``, written by ``fatezoo export-baseline``) holds the weights of a
``fatezoo train`` policy's actor: the shared trunk if the run had one, the policy MLP and
the action head, as one chain of dense layers, each ``x @ w.T + b`` followed by its
activation (ReLU after every hidden layer, none after the head), and ``meta``, a JSON
string naming the game, the observation and action sizes and the activations. The agent
plays the most likely legal action: the logits of illegal actions are set to -1e8, as
sb3-contrib masks them, and the first largest logit wins (as ``torch.argmax``). No torch
is imported; the file is read with ``allow_pickle=False``, so it can hold no code.

Specs: ``baseline`` and ``baseline:v1`` play the file shipped in the package for the game
(``agents/baselines/<game>_v1.npz``, its training command beside it in
``<game>_v1.json``); ``baseline:PATH.npz`` plays any exported file.

>>> from fatezoo.agents import make_agent
>>> make_agent("baseline:runs/final.npz", "fatefell")  # doctest: +SKIP
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from fatezoo.envs.core.registry import get_spec

from .base import Agent

FORMAT = 1  # the file layout below; a newer file is refused with a one-line error
SHIPPED = Path(__file__).resolve().parent / "baselines"
VERSIONS = ("v1",)  # shipped baseline versions; ``baseline`` alone is the newest
ILLEGAL_LOGIT = -1e8  # what sb3-contrib's MaskableCategorical puts on illegal actions
ACTIVATIONS = {"relu": lambda x: np.maximum(x, 0.0), "tanh": np.tanh, None: lambda x: x}


def shipped_path(game: str, version: str = VERSIONS[-1]) -> Path:
    """Where the package keeps ``game``'s baseline of ``version`` (it may be absent)."""
    return SHIPPED / f"{game}_{version}.npz"


def load_network(path, game: str) -> tuple[dict, list]:
    """Read a baseline file: ``(meta, [(w float64 (out, in), b (out,), activation), ...])``.

    Raises ValueError (one line) for a file that is not a baseline of ``game``.
    """
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"baseline: no file at {str(path)!r}")
    try:
        with np.load(path, allow_pickle=False) as data:
            meta = json.loads(str(data["meta"]))
            arrays = {k: data[k] for k in data.files if k != "meta"}
    except (OSError, ValueError, KeyError) as err:
        raise ValueError(f"baseline: {str(path)!r} is not a baseline file "
                         f"(fatezoo export-baseline writes them): {type(err).__name__}") from None
    if meta.get("format") != FORMAT:
        raise ValueError(f"baseline: {str(path)!r} has format {meta.get('format')!r}; this "
                         f"fatezoo reads format {FORMAT}")
    spec = get_spec(game)
    if meta.get("game") != game or meta.get("obs_size") != spec.obs_size \
            or meta.get("num_actions") != spec.num_actions:
        raise ValueError(f"baseline: {str(path)!r} is for {meta.get('game')!r} "
                         f"({meta.get('obs_size')} observations, {meta.get('num_actions')} "
                         f"actions); {game} needs {spec.obs_size} and {spec.num_actions}")
    layers, size = [], spec.obs_size
    for i, act in enumerate(meta["activations"]):
        w, b = arrays.get(f"w{i}"), arrays.get(f"b{i}")
        if w is None or b is None or w.ndim != 2 or w.shape[1] != size \
                or b.shape != (w.shape[0],) or act not in ACTIVATIONS:
            raise ValueError(f"baseline: {str(path)!r}: layer {i} does not chain (expected "
                             f"w{i} (N, {size}), b{i} (N,) and an activation in "
                             f"{sorted(a for a in ACTIVATIONS if a)} or none)")
        layers.append((w.astype(np.float64), b.astype(np.float64), act))
        size = w.shape[0]
    if size != spec.num_actions:
        raise ValueError(f"baseline: {str(path)!r}: the last layer has {size} outputs; "
                         f"{game} has {spec.num_actions} actions")
    return meta, layers


def forward(layers: list, obs: np.ndarray) -> np.ndarray:
    """The policy's logits (B, A) float64 for observations (B, D), before masking."""
    x = np.asarray(obs, np.float64)
    for w, b, act in layers:
        x = ACTIVATIONS[act](x @ w.T + b)
    return x


def greedy_actions(layers: list, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """The most likely legal action of each row (B,) int64 (illegal logits set to -1e8)."""
    logits = np.where(np.asarray(masks, bool), forward(layers, obs), ILLEGAL_LOGIT)
    return logits.argmax(1).astype(np.int64)


def resolve(game: str, which: str = "") -> Path:
    """The file of a ``baseline[:v1|:PATH]`` spec; a one-line error when none is shipped."""
    which = which.strip()
    if which and which not in VERSIONS:
        return Path(which)
    version = which or VERSIONS[-1]
    path = shipped_path(game, version)
    if not path.is_file():
        raise ValueError(f"baseline: no {version} baseline is shipped for {game} (expected "
                         f"{path.name} in fatezoo/agents/baselines); make one from a "
                         "`fatezoo train` run with `fatezoo export-baseline RUN --out FILE.npz`"
                         " and play it as baseline:FILE.npz")
    return path


class BaselineAgent(Agent):
    """A baseline file's greedy policy (see the module docs); draws no randomness.

    Args:
        game: registered game name.
        which: ``""`` or a version (``"v1"``): the shipped file; else a path to a ``.npz``.
    """

    name = "baseline"

    def __init__(self, game: str, which: str = "", seed=None):
        super().__init__(seed)
        self.game = game
        self.path = resolve(game, which)
        self.meta, self.layers = load_network(self.path, game)

    def act_batch(self, obs, masks, rng=None):
        """Greedy legal actions (``rng`` is left as it was: nothing is drawn)."""
        return greedy_actions(self.layers, obs, masks)

    def __repr__(self):
        return f"BaselineAgent({self.game!r}, {str(self.path)!r})"


__all__ = ["BaselineAgent", "FORMAT", "SHIPPED", "VERSIONS", "forward", "greedy_actions",
           "load_network", "resolve", "shipped_path"]
