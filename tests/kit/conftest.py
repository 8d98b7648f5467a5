"""Name the kit's test game (tests/kitgame) for every test in tests/kit."""

from pathlib import Path

from fatezoo.envs.core.registry import register_game_package

register_game_package("kitgame", "kitgame", path=str(Path(__file__).resolve().parent.parent))
