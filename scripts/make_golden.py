"""Write the golden Fatefell playthroughs in tests/golden/ (checked by test_fatefell_golden).

Usage: ``python scripts/make_golden.py`` from the repository root.

Each game is played through the AEC env by a fixed deterministic policy that needs no
agent code (so agent changes never touch the goldens): a 64-bit LCG seeded by the game
seed picks among the legal actions; a draw is from the draw pile seven times out of eight
(this keeps the games, and the files, short), else from a discard pile.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import fatezoo  # noqa: E402
from tests.test_fatefell_golden import GOLDEN, transcript  # noqa: E402

GAMES = [  # file stem, env options, seed
    ("fatefell_2p_seed0", {"num_players": 2, "seasons": 1}, 0),
    # advanced play: seed 1 spins Autumn (two discard piles), seed 9 Summer (top 3 discards)
    ("fatefell_3p_advanced_seed1", {"num_players": 3, "seasons": 1, "advanced": True}, 1),
    ("fatefell_4p_advanced_seed9", {"num_players": 4, "seasons": 1, "advanced": True}, 9),
]


def policy_actions(options: dict, seed: int) -> list[int]:
    """Play one game with the deterministic policy; return its actions."""
    env = fatezoo.make("fatefell", **options)
    env.reset(seed=seed)
    x = seed + 1
    actions = []
    while True:
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            return actions
        legal = env.legal_actions()
        x = (x * 6364136223846793005 + 1442695040888963407) % 2**64
        r = x >> 33
        if legal[0] == 0 and len(legal) > 1:  # a draw: the draw pile 7 times out of 8
            a = 0 if r % 8 else legal[1 + (r >> 3) % (len(legal) - 1)]
        else:
            a = legal[r % len(legal)]
        actions.append(a)
        env.step(a)


def main() -> None:
    GOLDEN.mkdir(exist_ok=True)
    for stem, options, seed in GAMES:
        text = transcript(options, seed, policy_actions(options, seed))
        path = GOLDEN / f"{stem}.txt"
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path.relative_to(ROOT)} ({len(text)} bytes)")


if __name__ == "__main__":
    main()
