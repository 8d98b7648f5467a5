"""Baseline agents and the command-line agent specs.

Specs (``fatezoo arena --agents``, ``fatezoo play --opponents``, :func:`make_agent`)::

    random                              uniform over legal actions
    heuristic                           the game's hand-written policy
    ismcts[:sims=200,rollout=heuristic,c=1.4,depth=40,prior=10,seed=0]
                                        information-set MCTS (any subset of the options)
    ismcts:prior=baseline[:v1|:FILE.npz][,prior_weight=1,rollout=baseline,...]
                                        ISMCTS guided by a baseline policy network
                                        (rollout=baseline: the network plays the rollouts)
    ppo:path/to/model.zip               a MaskablePPO checkpoint (a pickle: trusted files only)
    baseline[:v1]                       the game's shipped baseline policy, played with numpy
    baseline:path/to/file.npz           a policy exported by ``fatezoo export-baseline``
    rllib:path/to/checkpoint            an RLlib checkpoint of ``fatezoo train --backend rllib``
                                        (the ray extra; pickles: trusted files only)
    human                               a person at the terminal
"""

from __future__ import annotations

from .base import Agent, HeuristicAgent, RandomAgent
from .baseline import BaselineAgent
from .human import HumanAgent
from .ismcts import ISMCTSAgent
from .policy import PolicyAgent
from .rllib import RllibAgent

AGENTS = {"random": RandomAgent, "heuristic": HeuristicAgent, "ismcts": ISMCTSAgent,
          "ppo": PolicyAgent, "rllib": RllibAgent, "human": HumanAgent,
          "baseline": BaselineAgent}


def _prior(raw: str) -> float | str:
    """An ismcts ``prior``: a number, or a ``baseline[:v1|:FILE.npz]`` network."""
    if raw == "baseline" or raw.startswith("baseline:"):
        return raw
    return float(raw)


_prior.expected = "a number or baseline[:v1|:FILE.npz]"
_ISMCTS_OPTIONS = {"sims": int, "rollout": str, "c": float, "depth": int, "prior": _prior,
                   "prior_weight": float, "seed": int}


def parse_options(name: str, text: str, types: dict) -> dict:
    """Parse ``key=value,key=value`` into typed options; errors name the bad part."""
    opts = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        if "=" not in part:
            raise ValueError(f"{name}: expected key=value, got {part!r}")
        key, raw = (s.strip() for s in part.split("=", 1))
        if key not in types:
            raise ValueError(f"{name}: unknown option {key!r}; expected some of {sorted(types)}")
        try:
            opts[key] = types[key](raw)
        except ValueError:
            expected = getattr(types[key], "expected", types[key].__name__)
            raise ValueError(f"{name}: option {key} must be {expected}, got {raw!r}") from None
    return opts


def make_agent(spec: str, game: str, num_players: int = 2, seed=None) -> Agent:
    """Build an agent from a command-line spec (see the module docs).

    Args:
        spec: the agent spec.
        game: registered game name.
        num_players: seats in the game.
        seed: the agent's own generator seed (an ``ismcts`` spec's own ``seed=`` wins),
            used when the caller passes no per-row ``rng`` words (the arena does).
    """
    if not isinstance(spec, str):
        raise TypeError(f"an agent spec must be a str, got {spec!r}")
    name, _, rest = spec.partition(":")
    name = name.strip()
    if name == "random" and not rest:
        return RandomAgent(seed)
    if name == "heuristic" and not rest:
        return HeuristicAgent(game, seed)
    if name == "human" and not rest:
        return HumanAgent(game)
    if name == "ismcts":
        opts = {"seed": seed, **parse_options("ismcts", rest, _ISMCTS_OPTIONS)}
        return ISMCTSAgent(game, **opts)
    if name == "ppo":
        if not rest:
            raise ValueError("ppo: give the checkpoint path, e.g. ppo:runs/model.zip")
        return PolicyAgent(rest, game, seed=seed)
    if name == "baseline":
        return BaselineAgent(game, rest, seed=seed)
    if name == "rllib":
        if not rest:
            raise ValueError("rllib: give the checkpoint folder, e.g. rllib:runs/<run>/checkpoint")
        return RllibAgent(rest, game, seed=seed)
    raise ValueError(f"unknown agent spec {spec!r}; expected one of random, heuristic, "
                     "ismcts[:sims=N,...], ppo:PATH, baseline[:v1|:FILE.npz], rllib:PATH, "
                     "human")


__all__ = ["AGENTS", "Agent", "BaselineAgent", "HeuristicAgent", "HumanAgent", "ISMCTSAgent",
           "PolicyAgent", "RandomAgent", "RllibAgent", "make_agent", "parse_options"]
