"""Frozen copies of the learner: :class:`SnapshotAgent` and the shared trunk :class:`SharedMLP`.

A snapshot is rebuilt from a MaskablePPO policy's constructor parameters and weights, on
CPU, without an optimizer; training the live policy never moves it. :class:`SharedMLP` is
the features extractor behind ``shared_layers`` in training.
"""

from __future__ import annotations

import numpy as np
import torch
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor

from fatezoo.agents.base import Agent
from fatezoo.agents.policy import policy_actions

SELF = "self"


class SnapshotAgent(Agent):
    """A frozen copy of a MaskablePPO policy, sampling its actions (not the mode).

    Args:
        policy: a ``MaskableActorCriticPolicy`` (rebuilt from its constructor
            parameters and weights, on CPU; no optimizer).
        name: label in ``info["opponent"]`` (e.g. ``"self@40960"``).
        seed: seed of the torch sampling generator.
        deterministic: play the most likely legal action instead of sampling.
    """

    name = SELF

    def __init__(self, policy, name: str = SELF, seed: int = 0, deterministic: bool = False):
        super().__init__(seed)
        snap = policy.__class__(**policy._get_constructor_parameters())  # as SB3's load does
        snap.load_state_dict(policy.state_dict())
        snap.optimizer = None
        self.policy = snap.to("cpu")
        self.policy.set_training_mode(False)
        for p in self.policy.parameters():
            p.requires_grad_(False)
        self.name = str(name)
        self.deterministic = bool(deterministic)
        self._generator = torch.Generator()
        self._generator.manual_seed(int(seed))

    def act_batch(self, obs, masks):
        """The snapshot's actions (legal in ``masks``)."""
        return policy_actions(self.policy, obs, masks, self.deterministic, self._generator)

    def __repr__(self):
        return f"SnapshotAgent({self.name!r})"


class SharedMLP(BaseFeaturesExtractor):
    """A ReLU MLP trunk shared by the policy and value heads (``shared_layers`` in training).

    Args:
        observation_space: a flat Box.
        layers: hidden sizes; the features are the last layer's output.
    """

    def __init__(self, observation_space, layers=(128,)):
        layers = [int(x) for x in layers]
        if not layers or min(layers) < 1:
            raise ValueError(f"SharedMLP: layers must be positive sizes, got {layers!r}")
        super().__init__(observation_space, layers[-1])
        mods, size = [], int(np.prod(observation_space.shape))
        for h in layers:
            mods += [torch.nn.Linear(size, h), torch.nn.ReLU()]
            size = h
        self.net = torch.nn.Sequential(torch.nn.Flatten(), *mods)

    def forward(self, observations):
        """Features of a batch of observations."""
        return self.net(observations)


__all__ = ["SELF", "SharedMLP", "SnapshotAgent"]
