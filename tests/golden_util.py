"""Golden playthroughs for any game: seeded games replayed and compared exactly.

A golden file ``tests/<game>/golden/<stem>.txt`` holds a game's options, seed and
actions, the ansi render (every card shown) after the reset and after every step, and a
closing line with the game's own summary (``spec.golden_summary``) and the returns. A
rules change that alters any game shows up as a diff; ``python scripts/make_golden.py``
replays the policy below and rewrites the files (deliberately, with a note why).
"""

from __future__ import annotations

import json
from pathlib import Path

import fatezoo
from fatezoo.envs.core.registry import get_spec

TESTS = Path(__file__).resolve().parent
HEADER = "# {title} golden playthrough; regenerate with: python scripts/make_golden.py"


def golden_dir(game: str) -> Path:
    """Where ``game``'s golden files live."""
    return TESTS / game / "golden"


def golden_files(game: str | None = None) -> list[Path]:
    """Golden files of ``game`` (every game's if None), sorted."""
    games = fatezoo.GAMES if game is None else (game,)
    return [p for g in games for p in sorted(golden_dir(g).glob("*.txt"))]


def title(game: str) -> str:
    """The game's display name, from its gym id (``fatezoo/<Name>-v0`` -> <Name>)."""
    return get_spec(game).gym_id.split("/", 1)[1].rsplit("-", 1)[0]


def transcript(game: str, options: dict, seed: int, actions: list[int]) -> str:
    """Replay ``actions`` from ``reset(seed)`` and return the golden text of the game."""
    env = fatezoo.make(game, render_mode="ansi", **options)
    env.reset(seed=seed)
    spec = env.unwrapped.SPEC
    lines = [HEADER.format(title=title(game)), f"options: {json.dumps(options, sort_keys=True)}",
             f"seed: {seed}", f"actions: {' '.join(str(a) for a in actions)}", "", "== reset",
             env.render()]
    for i, a in enumerate(actions, 1):
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            raise ValueError(f"step {i}: the game is already over")
        env.step(a)
        lines += ["", f"== step {i}: {agent} {a} ({spec.action_names[a]})", env.render()]
    rec = env.unwrapped.record
    n = int(rec["num_players"])
    summary = f" {spec.golden_summary(rec)}" if spec.golden_summary is not None else ""
    lines += ["", f"== end: terminated {int(rec['terminated'])} truncated "
                  f"{int(rec['truncated'])}{summary} returns "
                  f"{[round(float(x), 6) for x in rec['returns'][:n]]}"]
    return "\n".join(lines) + "\n"


def parse(text: str) -> tuple[dict, int, list[int]]:
    """Options, seed and actions from a golden file's header."""
    head = dict(line.split(": ", 1) for line in text.splitlines()[1:4])
    return json.loads(head["options"]), int(head["seed"]), [int(a) for a in head["actions"].split()]


def policy_actions(game: str, options: dict, seed: int, max_steps: int = 100_000) -> list[int]:
    """Play one game with a fixed deterministic policy that needs no agent code.

    A 64-bit LCG seeded by the game seed picks among the legal actions; where action 0
    and others are legal it takes action 0 seven times out of eight (a game whose action
    0 is "draw from the draw pile" then keeps its golden games, and files, short).
    """
    env = fatezoo.make(game, **options)
    env.reset(seed=seed)
    x = seed + 1
    actions = []
    for _ in range(max_steps):
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            return actions
        legal = env.legal_actions()
        x = (x * 6364136223846793005 + 1442695040888963407) % 2**64
        r = x >> 33
        if legal[0] == 0 and len(legal) > 1:
            a = 0 if r % 8 else legal[1 + (r >> 3) % (len(legal) - 1)]
        else:
            a = legal[r % len(legal)]
        actions.append(a)
        env.step(a)
    raise ValueError(f"{game}: the golden game did not end within {max_steps} steps")
