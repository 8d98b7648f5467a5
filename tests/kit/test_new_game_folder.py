"""A game is one folder: the kit's test game copied into envs/ ships, registers and passes.

The repository is copied with ``tests/kitgame`` added as ``envs/kitgame`` and nothing
else changed; the wheel built from that copy is installed non-editable, and a fresh
interpreter that imports fatezoo only from the install (its spawned workers too) finds
the game in ``fatezoo.GAMES``, with its gymnasium id and ``kitgame_v0`` alias, and runs
the whole contract on it.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ..wheel_util import build_and_install

KITGAME = Path(__file__).resolve().parent.parent / "kitgame"

CODE = """
import json
import gymnasium
import fatezoo
from fatezoo.envs import kitgame_v0
from fatezoo.envs.core import testing
testing.check_game("kitgame", num_players=3, fuzz_games=100, mutations=300)
env = gymnasium.make("fatezoo/Kitgame-v0", opponent="random")
env.reset(seed=0)
print(json.dumps({"file": fatezoo.__file__, "games": list(fatezoo.GAMES),
                  "alias": kitgame_v0.env().metadata["name"]}))
"""


@pytest.mark.wheel
def test_kitgame_copied_into_envs_ships_registers_and_passes_the_contract(tmp_path):
    wheel, target = build_and_install(tmp_path, extra_game=KITGAME)
    env = {k: v for k, v in os.environ.items() if k not in ("FATEZOO_GAME_PACKAGES",)}
    env["PYTHONPATH"] = str(target)  # spawned contract workers import the install too
    out = subprocess.run([sys.executable, "-c", CODE], capture_output=True, text=True,
                         cwd=tmp_path, env=env, timeout=900)
    assert out.returncode == 0, out.stderr[-4000:]
    report = json.loads(out.stdout.strip().splitlines()[-1])
    assert Path(report["file"]).resolve().is_relative_to(target.resolve())
    assert "kitgame" in report["games"] and "fatefell" in report["games"]
    assert report["alias"] == "kitgame_v0"
