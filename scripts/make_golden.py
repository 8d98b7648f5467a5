"""Write golden playthroughs (tests/<game>/golden/*.txt, checked by tests/test_golden.py).

Usage, from the repository root::

    python scripts/make_golden.py                 # rewrite every game's golden files
    python scripts/make_golden.py GAME            # rewrite GAME's golden files
    python scripts/make_golden.py GAME --seed 3 --players 2 [--option seasons=1 ...]
                                                  # add (or rewrite) one golden game

A file is rewritten from the options and seed in its header; the actions come from the
fixed deterministic policy of tests/golden_util.py (no agent code, so agent changes
never touch the goldens). A rules change that alters a game changes its file: say why
in the game's RULES.md.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import fatezoo  # noqa: E402
from tests.golden_util import golden_dir, golden_files, parse, policy_actions, transcript  # noqa: E402,I001


def write(game: str, path: Path, options: dict, seed: int) -> None:
    text = transcript(game, options, seed, policy_actions(game, options, seed))
    path.parent.mkdir(parents=True, exist_ok=True)
    old = path.read_text(encoding="utf-8") if path.exists() else None
    path.write_text(text, encoding="utf-8")
    state = "unchanged" if old == text else ("changed" if old is not None else "new")
    print(f"wrote {path.relative_to(ROOT)} ({len(text)} bytes, {state})")


def option_value(text: str):
    """``seasons=1`` -> ("seasons", 1): the value is read as JSON, else kept as a string."""
    name, sep, raw = text.partition("=")
    if not sep or not name:
        raise argparse.ArgumentTypeError(f"option {text!r} must look like name=value")
    try:
        return name, json.loads(raw)
    except json.JSONDecodeError:
        return name, raw


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", nargs="?", choices=fatezoo.GAMES)
    parser.add_argument("--seed", type=int, help="add one golden game with this seed")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--option", type=option_value, action="append", default=[],
                        help="a game option, name=value (value read as JSON)")
    parser.add_argument("--name", help="file stem (default: <game>_<n>p_seed<seed>)")
    args = parser.parse_args(argv)
    if args.seed is None:
        if args.players is not None or args.option or args.name:
            parser.error("--players, --option and --name need --seed")
        games = fatezoo.GAMES if args.game is None else (args.game,)
        for game in games:
            for path in golden_files(game):
                options, seed, _ = parse(path.read_text(encoding="utf-8"))
                write(game, path, options, seed)
        return 0
    if args.game is None:
        parser.error("--seed needs a GAME")
    options = dict(args.option)
    if args.players is not None:
        options["num_players"] = args.players
    players = options.get("num_players", fatezoo.envs.get_spec(args.game).min_players)
    stem = args.name or f"{args.game}_{players}p_seed{args.seed}"
    write(args.game, golden_dir(args.game) / f"{stem}.txt", options, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
