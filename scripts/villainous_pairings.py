"""Villainous results per villain pairing: two agents, every (villain, villain) pair.

    python scripts/villainous_pairings.py heuristic heuristic --games 100
    python scripts/villainous_pairings.py ismcts:sims=200 heuristic --games 20

Agent A sits in seat 0 and plays the first villain of the pair, agent B seat 1 and the
second; each pair plays ``--games`` 2-player games with the arena's seeds
(``game_seeds(--seed, games)``). Prints A's wins / truncated games (ties) / B's wins and
the median game length (decisions asked). RULES.md section 17 reports the runs.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from fatezoo.agents import make_agent  # noqa: E402
from fatezoo.training.arena import game_seeds, play_games  # noqa: E402

VILLAINS = ("scar", "yzma", "ratigan")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("a", help="agent spec of seat 0 (e.g. heuristic, ismcts:sims=200)")
    parser.add_argument("b", help="agent spec of seat 1")
    parser.add_argument("--games", type=int, default=100, help="games per pairing")
    parser.add_argument("--seed", type=int, default=0, help="arena seed")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error(f"--games must be >= 1, got {args.games}")
    try:
        agents = [make_agent(args.a, "villainous"), make_agent(args.b, "villainous")]
    except ValueError as e:
        parser.error(str(e))
    seeds = game_seeds(args.seed, args.games)
    seating = np.tile(np.array([0, 1], np.int64), (args.games, 1))
    print(f"{'A villain':>9} {'B villain':>9}  A won  ties  B won  median length")
    for va in VILLAINS:
        for vb in VILLAINS:
            ret, trunc, length = play_games("villainous", agents, seating, seeds, 2,
                                            {"villains": [va, vb]}, batch=args.games)
            a_won = int(((ret[:, 0] > ret[:, 1]) & ~trunc).sum())
            b_won = int(((ret[:, 1] > ret[:, 0]) & ~trunc).sum())
            print(f"{va:>9} {vb:>9}  {a_won:5d} {int(trunc.sum()):5d} {b_won:6d}  "
                  f"{int(np.median(length)):6d}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
