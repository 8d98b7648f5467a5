"""Fatefell, version 0: ``env()``, ``raw_env()``, ``vec()`` (see fatezoo.envs.fatefell)."""

from fatezoo.envs.fatefell import env, raw_env, vec

__all__ = ["env", "raw_env", "vec"]
