"""Golden Fatefell playthroughs: replay each tests/golden/fatefell_*.txt and compare exactly.

Each file holds a seeded game's options, seed and actions, and the ansi render (every
card shown) after the reset and after every step. ``python scripts/make_golden.py``
plays new games with a fixed deterministic policy and rewrites the files; a rules change
that alters any game shows up here as a diff.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import fatezoo

GOLDEN = Path(__file__).resolve().parent / "golden"
HEADER = "# Fatefell golden playthrough; regenerate with: python scripts/make_golden.py"


def transcript(options: dict, seed: int, actions: list[int]) -> str:
    """Replay ``actions`` from ``reset(seed)`` and return the golden text of the game."""
    env = fatezoo.make("fatefell", render_mode="ansi", **options)
    env.reset(seed=seed)
    names = env.unwrapped.SPEC.action_names
    lines = [HEADER, f"options: {json.dumps(options, sort_keys=True)}", f"seed: {seed}",
             f"actions: {' '.join(str(a) for a in actions)}", "", "== reset", env.render()]
    for i, a in enumerate(actions, 1):
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            raise ValueError(f"step {i}: the game is already over")
        env.step(a)
        lines += ["", f"== step {i}: {agent} {a} ({names[a]})", env.render()]
    rec = env.unwrapped.record
    n = int(rec["num_players"])
    lines += ["", f"== end: terminated {int(rec['terminated'])} truncated {int(rec['truncated'])}"
              f" totals {rec['total'][:n].tolist()} returns "
              f"{[round(float(x), 6) for x in rec['returns'][:n]]}"]
    return "\n".join(lines) + "\n"


def parse(text: str) -> tuple[dict, int, list[int]]:
    """Options, seed and actions from a golden file's header."""
    head = dict(line.split(": ", 1) for line in text.splitlines()[1:4])
    return json.loads(head["options"]), int(head["seed"]), [int(a) for a in head["actions"].split()]


FILES = sorted(GOLDEN.glob("fatefell_*.txt"))


def test_golden_files_exist_and_are_small():
    assert len(FILES) >= 3
    assert sum(f.stat().st_size for f in FILES) < 300_000


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_golden_playthrough(path):
    text = path.read_text(encoding="utf-8")
    options, seed, actions = parse(text)
    got = transcript(options, seed, actions)
    if got != text:  # point at the first differing line
        for i, (a, b) in enumerate(zip(got.splitlines(), text.splitlines()), 1):
            assert a == b, f"{path.name} line {i} differs"
    assert got == text
    assert "== end: terminated 1" in text  # every golden game is played to its end
