"""Kitgame: the rule kit's worked example (2-4 players; rules: RULES.md)."""

from fatezoo.envs.core.entry import entry_points

from . import SPEC

raw_env, env, vec = entry_points(SPEC, __doc__, __name__)
