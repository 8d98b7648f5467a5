"""An RLlib policy trained by ``fatezoo train GAME --backend rllib`` as an agent (``rllib:PATH``).

``PATH`` is the run's ``checkpoint`` folder (an RLlib algorithm checkpoint), the folder of
the trained module inside it (``learner_group/learner/rl_module/learner``), or any RLModule
checkpoint folder of the masked module of :mod:`fatezoo.training.rllib_ppo`. Loading one
imports Ray and RLlib (``pip install 'fatezoo[ray]'``).

RLlib checkpoints hold pickled Python objects (the module's class and constructor
arguments): loading one can run arbitrary code. Load only checkpoints you made or trust.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from fatezoo.envs.core.docs import install_hint
from fatezoo.envs.core.registry import get_spec

from .base import Agent
from .policy import sample_legal

MODULE_ID = "learner"  # the trained module's id in a fatezoo RLlib run
MODULE_IN_CHECKPOINT = Path("learner_group", "learner", "rl_module", MODULE_ID)


def module_dir(path) -> Path:
    """The RLModule checkpoint folder for ``path`` (see the module docs); ValueError if none."""
    path = Path(path)
    if not path.exists():
        raise FileNotFoundError(f"rllib: no checkpoint folder at {str(path)!r}")
    for candidate in (path / MODULE_IN_CHECKPOINT, path / "rl_module" / MODULE_ID, path):
        if (candidate / "class_and_ctor_args.pkl").is_file():
            return candidate
    raise ValueError(f"rllib: {str(path)!r} is no RLlib checkpoint of a fatezoo run (no "
                     f"{MODULE_IN_CHECKPOINT}/class_and_ctor_args.pkl under it)")


def masked_logits(module, obs: np.ndarray, masks: np.ndarray):
    """(B, A) float64 logits of an RLlib masked module, illegal actions at -inf."""
    import torch
    from ray.rllib.core.columns import Columns

    with torch.no_grad():
        batch = {Columns.OBS: {"observations": torch.as_tensor(np.asarray(obs, np.float32)),
                               "action_mask": torch.as_tensor(np.asarray(masks, np.float32))}}
        logits = module.forward_inference(batch)[Columns.ACTION_DIST_INPUTS]
    logits = logits.double().numpy()
    return np.where(np.asarray(masks, bool), logits, -np.inf)


class RllibAgent(Agent):
    """A policy trained with RLlib (see the module docs on trusting checkpoint files).

    Args:
        path: a checkpoint folder (see the module docs); or None with ``module``.
        game: the game it was trained on (its spaces are checked against the game's).
        deterministic: play the most likely legal action (default) or sample.
        seed: seed of the agent's own streams (sampling without ``rng`` words).
        module: an RLModule object to use instead of loading ``path`` (a live run).
    """

    name = "rllib"

    def __init__(self, path, game: str, deterministic: bool = True, seed=None, module=None):
        super().__init__(seed)
        self.game_spec = spec = get_spec(game)
        self.path = None if path is None else str(path)
        if module is None:
            folder = module_dir(path)
            try:
                from ray.rllib.core.rl_module.rl_module import RLModule
            except ImportError as e:  # pragma: no cover - depends on the install
                raise ImportError("rllib agents need the ray extra: "
                                  f"{install_hint('ray')}") from e
            try:
                module = RLModule.from_checkpoint(str(folder.resolve()))
            except Exception as err:  # a corrupt or foreign checkpoint
                detail = str(err).strip().splitlines()[0] if str(err).strip() else ""
                raise ValueError(f"rllib: cannot load checkpoint {str(path)!r}: "
                                 f"{type(err).__name__}{': ' + detail if detail else ''}") \
                    from None
        space = getattr(module, "observation_space", None)
        inner = space["observations"] if hasattr(space, "spaces") and \
            "observations" in space.spaces else space
        shape = getattr(inner, "shape", None)
        n = getattr(module.action_space, "n", None)
        if shape != (spec.obs_size,) or n != spec.num_actions:
            raise ValueError(f"rllib: checkpoint {self.path!r} has observations {shape} and "
                             f"{n} actions; {game} needs ({spec.obs_size},) and "
                             f"{spec.num_actions}")
        self.module = module
        self.deterministic = bool(deterministic)

    def act_batch(self, obs, masks, rng=None):
        """The policy's actions, masked to the legal ones.

        Sampling (``deterministic=False``) draws row ``i`` from ``rng[i]`` when given, else
        from the agent's own streams; the most likely action leaves ``rng`` as it was.
        """
        logits = masked_logits(self.module, obs, masks)
        if self.deterministic:
            return logits.argmax(1).astype(np.int64)
        probs = np.exp(logits - logits.max(1, keepdims=True))
        out = np.empty(len(probs), np.int64)
        sample_legal(probs, np.ascontiguousarray(masks, np.int8),
                     self._words(len(probs), rng), out)
        return out

    def __repr__(self):
        return f"RllibAgent({self.path!r})"


__all__ = ["MODULE_ID", "RllibAgent", "masked_logits", "module_dir"]
