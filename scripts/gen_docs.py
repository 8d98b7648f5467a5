"""Rewrite the generated tables in every game's env.py doc page from the code."""

import importlib
import sys
from pathlib import Path

from fatezoo.envs import GAMES
from fatezoo.envs.core.docs import fill

ROOT = Path(__file__).resolve().parent.parent

for game in GAMES:
    mod = importlib.import_module(f"fatezoo.envs.{game}.env")
    path = ROOT / "envs" / game / "env.py"
    text = path.read_text()
    doc = mod.__doc__
    new = fill(doc, importlib.import_module(f"fatezoo.envs.{game}").SPEC)
    if new != doc:
        path.write_text(text.replace(doc, new, 1))
        print(f"updated {path}", file=sys.stderr)
