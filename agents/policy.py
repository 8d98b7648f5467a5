"""A trained MaskablePPO policy as an agent.

SB3 checkpoints (``.zip``) hold pickled Python objects: loading one can run arbitrary
code. Load only checkpoints you made or otherwise trust; :class:`PolicyAgent` loads only
from the path you give it and never downloads anything.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from fatezoo.envs.core.docs import install_hint
from fatezoo.envs.core.jit import njit
from fatezoo.envs.core.kernels import random_legal
from fatezoo.envs.core.registry import get_spec
from fatezoo.envs.core.rng import next_u32

from .base import Agent


@njit(cache=True)
def sample_legal(probs, masks, words, out):
    """Draw row ``i``'s action from ``probs[i]`` restricted to ``masks[i]``, with ``words[i]``.

    One 32-bit draw per row (mutates ``words``), inverse-CDF over the legal actions in id
    order; a row whose legal probabilities sum to 0 takes a uniform legal action.
    """
    for i in range(probs.shape[0]):
        total = 0.0
        last = -1
        for a in range(probs.shape[1]):
            if masks[i, a]:
                total += probs[i, a]
                last = a
        if not total > 0.0:
            out[i] = random_legal(masks[i], words[i])
            continue
        u = next_u32(words[i]) / 4294967296.0 * total
        out[i] = last
        cum = 0.0
        for a in range(probs.shape[1]):
            if masks[i, a]:
                cum += probs[i, a]
                if u < cum:
                    out[i] = a
                    break


def policy_actions(policy, obs: np.ndarray, masks: np.ndarray, deterministic: bool = True,
                   generator=None, rng=None) -> np.ndarray:
    """Actions of an sb3-contrib ``MaskableActorCriticPolicy`` for a batch.

    The masked softmax of the policy's logits (illegal logits set to -1e8, as sb3-contrib
    masks them), computed straight from the actor network of an actor-critic policy:
    search and self-play call this for a few rows many times a step, and building
    distribution objects would cost more than the network.

    Args:
        policy: the policy (``model.policy``).
        obs: (B, D) float32 observations.
        masks: (B, A) legal-action masks.
        deterministic: take the most likely legal action instead of sampling.
        generator: a ``torch.Generator`` for sampling (None: torch's global one).
        rng: instead of ``generator``, (B, 4) int64 generator words, one stream per row
            (advanced in place): row ``i``'s draw then depends only on its own row.

    Returns:
        (B,) int64 actions, each legal in its mask.
    """
    import torch

    with torch.no_grad():
        x = torch.as_tensor(np.asarray(obs, np.float32), device=policy.device)
        legal = np.asarray(masks, bool)
        if hasattr(policy, "pi_features_extractor"):
            features = policy.pi_features_extractor(x)
            logits = policy.action_net(policy.mlp_extractor.forward_actor(features))
        else:
            logits = policy.get_distribution(x, action_masks=legal).distribution.logits
        logits = logits.masked_fill(~torch.as_tensor(legal, device=logits.device), -1e8)
        if deterministic:
            actions = logits.argmax(1)
        elif rng is not None:
            probs = torch.softmax(logits.double(), 1).cpu().numpy()
            out = np.empty(len(legal), np.int64)
            sample_legal(probs, np.ascontiguousarray(masks, np.int8), rng, out)
            return out
        else:
            probs = torch.softmax(logits, 1)
            actions = torch.multinomial(probs, 1, generator=generator).squeeze(1)
    return actions.cpu().numpy().astype(np.int64)


class PolicyAgent(Agent):
    """A MaskablePPO checkpoint (see the module docs on trusting checkpoint files).

    Args:
        path: the ``.zip`` written by ``fatezoo train`` (or ``model.save``).
        game: the game it was trained on (its spaces are checked against the game's).
        deterministic: play the most likely legal action (default) or sample.
        seed: seed of the sampling generator (only used when not deterministic and no
            ``rng`` words are given).
    """

    name = "ppo"

    def __init__(self, path, game: str, deterministic: bool = True, seed=None):
        super().__init__(seed)
        path = Path(path)
        if not path.is_file():
            raise FileNotFoundError(f"ppo: no checkpoint file at {str(path)!r}")
        try:
            from sb3_contrib import MaskablePPO
        except ImportError as e:  # pragma: no cover - depends on the install
            raise ImportError(f"ppo agents need the train extra: {install_hint('train')}") \
                from e
        import torch

        self.spec = spec = get_spec(game)
        self.path = str(path)
        try:
            self.model = MaskablePPO.load(str(path), device="cpu")
        except Exception as err:  # not a zip, a corrupt or foreign pickle, ...
            detail = str(err).splitlines()[0] if str(err) else ""
            raise ValueError(f"ppo: cannot load checkpoint {str(path)!r}: "
                             f"{type(err).__name__}{': ' + detail if detail else ''}") from None
        shape = self.model.observation_space.shape
        n = getattr(self.model.action_space, "n", None)
        if shape != (spec.obs_size,) or n != spec.num_actions:
            raise ValueError(f"ppo: checkpoint {str(path)!r} has observations {shape} and "
                             f"{n} actions; {game} needs ({spec.obs_size},) and "
                             f"{spec.num_actions}")
        self.deterministic = bool(deterministic)
        self._generator = torch.Generator()
        self._generator.manual_seed(0 if seed is None else int(seed))

    def act_batch(self, obs, masks, rng=None):
        """The policy's actions (masked to the legal ones).

        Sampling (``deterministic=False``) draws from ``rng`` rows when given (see
        :class:`~fatezoo.agents.base.Agent`), else from the agent's torch generator; the
        most likely action needs no randomness and leaves ``rng`` as it was.
        """
        words = None if rng is None or self.deterministic else self._words(len(masks), rng)
        return policy_actions(self.model.policy, obs, masks, self.deterministic,
                              self._generator, rng=words)

    def __repr__(self):
        return f"PolicyAgent({self.path!r})"
