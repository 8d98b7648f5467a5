"""The ``fatezoo`` command line.

Commands (each works for every registered game)::

    fatezoo list                                   games, players, actions, obs size, options
    fatezoo docs GAME                              the game's doc page (spaces, options, cards)
    fatezoo play GAME [--players N] [--seat S]     a person against agents in the terminal
    fatezoo replay FILE [--seat S] [--last]        replay a saved game record (JSON)
    fatezoo arena GAME --agents a,b --games N      round robin: win rates and ratings
                   [--ray [ADDRESS]]               ... played on Ray workers (same results)
    fatezoo bench [GAME|all] [--envs B]            steps/s of the core, AEC loop, gym (all:
                                                   one table over every game)
    fatezoo bench GAME --training                  MaskablePPO steps/s: core vs gym wrapper
    fatezoo bench [GAME|all] --compile             cold and warm first use of each entry point
    fatezoo compile [GAME|all] [--jobs N]          compile every entry point ahead of use
    fatezoo train GAME [--timesteps N]             MaskablePPO self-play on the batched core
                   [--backend rllib]               ... or RLlib PPO on Ray, one policy for all seats
    fatezoo eval GAME AGENT [--protocol v1]        score card: AGENT against the protocol's suite
                   [--players N,M] [--games N]     (win rates, score margins, a fixed-scale rating)
    fatezoo eval GAME --calibrate                  the suite's anchor ratings for the protocol
    fatezoo export-baseline RUN_OR_ZIP [--out F]   a train checkpoint as a numpy baseline file

A game's own options (its ``option_defaults``) become flags of ``play``, ``arena`` and
``bench`` when the game is named: ``fatezoo play fatefell --advanced --seasons 2``. A
bool option is ``--name`` / ``--no-name``; any option can also be given as
``--option name=value`` (the value is read as JSON when it parses, else as a string).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys

from fatezoo.envs.core.docs import install_hint
from fatezoo.envs.core.registry import game_names, get_spec

from .options import add_game_options, add_train_arguments, game_options, train_reward_help

COMMANDS = ("list", "docs", "play", "replay", "arena", "bench", "train", "compile", "eval",
            "export-baseline")
PPO_NOTE = ("ppo:PATH loads a MaskablePPO checkpoint, which is a pickle: loading one can run "
            "any code it holds, so load only checkpoints you made or trust. rllib:PATH (a "
            "checkpoint of fatezoo train --backend rllib) holds pickles too.")
GAME_COMMANDS = ("play", "arena", "bench", "train", "eval")
CPU_LIMIT_HELP = ("stop {what} once this process has spent this many CPU seconds (all its "
                  "threads, compiling included): the games in progress finish and {result} "
                  "holds the first games played and says it was stopped; not with --ray "
                  "(default: no limit)")


def _find_game(argv: list[str]) -> str | None:
    """The game named in ``argv`` (the first token that is a registered game)."""
    names = game_names()
    for tok in argv[1:]:
        if tok in names:
            return tok
    return None


def build_parser(game: str | None = None) -> argparse.ArgumentParser:
    """The argument parser; ``game`` adds that game's option flags to the game commands."""
    games = ", ".join(game_names())
    parser = argparse.ArgumentParser(
        prog="fatezoo", description=f"fatezoo: RL environments for tabletop games ({games}).")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    p = sub.add_parser("list", help="list the games")
    p.add_argument("--json", action="store_true", help="print JSON")

    p = sub.add_parser("docs", help="print a game's doc page",
                       description="Print a game's doc page: observation and action tables, "
                                   "options with their meanings, how it ends, its cards.")
    p.add_argument("game", help=f"one of: {games}")

    p = sub.add_parser("play", help="play a game in the terminal against agents",
                       description="Play a game in the terminal against agents: type an "
                                   "action id, help (or ?) to explain the display, q to quit.",
                       epilog=PPO_NOTE)
    p.add_argument("game", help=f"one of: {games}")
    p.add_argument("--players", type=int, default=2, help="number of players (default 2)")
    p.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    p.add_argument("--opponent", default="heuristic",
                   help="agent spec for the other seats: random, heuristic (default), "
                        "ismcts[:sims=N,...], baseline[:v1|:FILE.npz], ppo:PATH or rllib:PATH "
                        "(pickles: trusted files only)")
    p.add_argument("--seed", type=int, default=None, help="game seed (default: random)")
    p.add_argument("--save", default=None, metavar="FILE",
                   help="write the game record JSON here at the end (for fatezoo replay)")
    add_game_options(p, game)

    p = sub.add_parser("replay", help="replay a game record JSON file")
    p.add_argument("file", help='JSON {"game", "options", "seed", "actions"}')
    p.add_argument("--seat", type=int, default=None,
                   help="show this seat's view (default: every card)")
    p.add_argument("--last", action="store_true", help="print only the final position")

    p = sub.add_parser("arena", help="round robin between agents: win rates and ratings",
                       description="Round robin between agents on the batched core: win-rate "
                                   "matrix with 95% CIs and ratings fitted to all games.",
                       epilog=PPO_NOTE)
    p.add_argument("game", help=f"one of: {games}")
    p.add_argument("--agents", default="random,heuristic",
                   help="comma-separated agent specs: random, heuristic, "
                        "ismcts[:sims=200,rollout=heuristic,c=1.4,depth=40,prior=10], "
                        "ismcts:prior=baseline[,prior_weight=1,rollout=baseline] (guided), "
                        "baseline[:v1|:FILE.npz], ppo:PATH, "
                        "rllib:PATH (pickles: trusted files only), human (key=value parts "
                        "continue "
                        "the agent before; default random,heuristic)")
    p.add_argument("--games", type=int, default=1000, help="total games (default 1000)")
    p.add_argument("--players", type=int, default=2, help="players per game (default 2)")
    p.add_argument("--seed", type=int, default=0, help="arena seed (default 0)")
    p.add_argument("--batch", type=int, default=256, help="games run at once (default 256)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--no-progress", action="store_true",
                   help="no progress (default: a bar on a terminal, else a line every 30 s)")
    p.add_argument("--plot", default=None, metavar="OUT.png",
                   help="also save the win-rate matrix and ratings as a PNG")
    p.add_argument("--ray", nargs="?", const="local", default=None, metavar="ADDRESS",
                   help="play the games on Ray workers (the ray extra): alone, "
                        "a local Ray for this run; with an address (auto, host:6379, "
                        "ray://host:10001), that cluster. Same results as without --ray")
    p.add_argument("--ray-workers", type=int, default=None, metavar="N",
                   help="with --ray: game chunks played at once (and a local Ray's CPUs; "
                        "default: every CPU)")
    p.add_argument("--cpu-time-limit", type=float, default=None, metavar="SECONDS",
                   help=CPU_LIMIT_HELP.format(what="the arena", result="the result"))
    p.add_argument("--save-games", default=None, metavar="FILE.jsonl",
                   help="append each finished batch's games to FILE; the same command "
                        "run again reads them and plays only the rest (a stopped arena "
                        "goes on; the result is the unbroken arena's)")
    add_game_options(p, game)

    p = sub.add_parser("bench", help="benchmark the core, the AEC loop and the gym wrapper")
    p.add_argument("game", nargs="?", default="all", help=f"one of: {games}, or all (default)")
    p.add_argument("--envs", type=int, default=1024, help="batch size (default 1024)")
    p.add_argument("--seconds", type=float, default=3.0,
                   help="timed seconds per measurement (default 3)")
    p.add_argument("--players", type=int, default=2, help="players (default 2)")
    p.add_argument("--seed", type=int, default=0, help="seed (default 0)")
    p.add_argument("--openspiel-game", default="leduc_poker",
                   help="OpenSpiel reference game (default leduc_poker)")
    p.add_argument("--json", action="store_true",
                   help="print JSON (all games: the reports, the table rows and the status)")
    p.add_argument("--strict", action="store_true",
                   help="exit 1 if any target is missed (core >= 0.25x the memory floor, "
                        "the game's own floor, AEC vs connect_four)")
    p.add_argument("--training", action="store_true",
                   help="instead: MaskablePPO training steps/s on the batched self-play env "
                        "vs the gym wrapper in a DummyVecEnv (same run, same settings)")
    p.add_argument("--rollouts", type=int, default=3,
                   help="with --training: PPO rollouts timed per side (default 3)")
    p.add_argument("--compile", action="store_true",
                   help="instead: seconds to the first AEC step, vector step, heuristic and "
                        "ISMCTS move from a fresh private numba cache (cold), peak memory, "
                        "and a second process on that cache (warm); one fresh process each")
    add_game_options(p, game if game != "all" else None)

    p = sub.add_parser("compile", help="compile every entry point of games ahead of use")
    p.add_argument("game", nargs="?", default="all", help=f"one of: {games}, or all (default)")
    p.add_argument("--jobs", type=int, default=None,
                   help="processes at once (default: every CPU)")

    p = sub.add_parser("train", help="train MaskablePPO by self-play on the batched core",
                       description="Train MaskablePPO by self-play on the batched core. "
                       "Defaults shown are the game's training preset where it has one.")
    add_train_arguments(p, game)
    g = p.add_argument_group("backend")
    g.add_argument("--backend", choices=("sb3", "rllib"), default="sb3",
                   help="sb3: MaskablePPO on the batched core (default); rllib: one shared "
                        "masked policy for every seat with RLlib PPO (the ray extra; checkpoints "
                        "play as rllib:PATH)")
    g.add_argument("--num-env-runners", type=int, default=None, metavar="N",
                   help="with --backend rllib: Ray actors sampling games (default 0: sample in "
                        "the training process, the fastest on 2 cores)")
    g.add_argument("--address", default=None, metavar="ADDRESS",
                   help="with --backend rllib: the Ray cluster to train on (auto, host:6379, "
                        "ray://host:10001; default: a local Ray for the run)")
    add_game_options(p, game, reward_default=train_reward_help(game))

    p = sub.add_parser("eval", help="score card of an agent against a fixed suite of opponents",
                       description="Score card of AGENT on a versioned protocol: it plays each "
                       "suite member (random, heuristic, ismcts:sims=200, baseline:v1) over "
                       "the protocol's seeds and every seating; win rate (ties half) with 95% "
                       "CIs, mean score margin, and one rating on the protocol's fixed scale. "
                       "docs/EVALUATION.md says what a protocol fixes.", epilog=PPO_NOTE)
    p.add_argument("game", help=f"one of: {games}")
    p.add_argument("agent", nargs="?", default=None,
                   help="any agent spec (random, heuristic, ismcts[:...], baseline[:v1|:FILE], "
                        "ppo:PATH, rllib:PATH)")
    p.add_argument("--protocol", default="v1", help="protocol version (default v1)")
    p.add_argument("--players", default=None, metavar="N[,M...]",
                   help="player counts, comma-separated (default: 2, the game's default)")
    p.add_argument("--games", type=int, default=None,
                   help="games per opponent instead of the protocol's (the card says so)")
    p.add_argument("--batch", type=int, default=256,
                   help="games run at once (the card does not depend on it; default 256)")
    p.add_argument("--calibrate", action="store_true",
                   help="instead of a card: the suite round robin that measures the "
                        "protocol's anchor ratings, printed as lines to declare")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--plot", default=None, metavar="OUT.png",
                   help="also save the card's win rates as a PNG")
    p.add_argument("--no-progress", action="store_true",
                   help="no progress (default: a bar on a terminal, else a line every 30 s)")
    p.add_argument("--ray", nargs="?", const="local", default=None, metavar="ADDRESS",
                   help="play the games on Ray workers (the ray extra), as fatezoo arena "
                        "--ray; same card")
    p.add_argument("--ray-workers", type=int, default=None, metavar="N",
                   help="with --ray: game chunks played at once")
    p.add_argument("--cpu-time-limit", type=float, default=None, metavar="SECONDS",
                   help=CPU_LIMIT_HELP.format(what="the card", result="the card"))
    p.add_argument("--save-games", default=None, metavar="FOLDER",
                   help="keep each arena's finished games in FOLDER (one file per arena); "
                        "the same command run again reads them and plays only the rest "
                        "(the card is the unbroken run's)")
    add_game_options(p, game)

    p = sub.add_parser("export-baseline", help="a train checkpoint as a numpy baseline file",
                       description="Write the policy network of a fatezoo train checkpoint "
                       "as a .npz that the baseline agent plays with numpy (no torch), and a "
                       "JSON sidecar with the training command. Loading the checkpoint "
                       "unpickles it: trusted files only.")
    p.add_argument("source", metavar="RUN_OR_ZIP",
                   help="a fatezoo train run folder (its checkpoints/final.zip) or a .zip")
    p.add_argument("--out", default=None, metavar="FILE.npz",
                   help="where to write (default: beside the checkpoint); the sidecar is "
                        "FILE.json. Ship one as agents/baselines/<game>_v1.npz")
    p.add_argument("--game", default=None,
                   help="the game, when neither the run folder nor the spaces tell it")
    return parser


def cmd_list(args) -> int:
    """``fatezoo list``: each game, then one line per option with its default and meaning."""
    from fatezoo.envs.core.docs import option_docs

    rows = []
    for name in game_names():
        s = get_spec(name)
        rows.append({"game": name, "min_players": s.min_players, "max_players": s.max_players,
                     "actions": s.num_actions, "obs_size": s.obs_size,
                     "state_size": s.state_size, "gym_id": s.gym_id,
                     "options": {k: v for k, v in s.option_defaults.items()},
                     "option_docs": option_docs(s)})
    if args.json:
        print(json.dumps(rows, indent=1))
        return 0
    print(f"{'game':<16} {'players':>7} {'actions':>7} {'obs':>6}  gym id; options")
    for r in rows:
        players = (f"{r['min_players']}" if r["min_players"] == r["max_players"]
                   else f"{r['min_players']}-{r['max_players']}")
        print(f"{r['game']:<16} {players:>7} {r['actions']:>7} {r['obs_size']:>6}  "
              f"{r['gym_id']}")
        for k, v in r["options"].items():
            print(f"{'':<16}   {k}={v!r}: {r['option_docs'][k]}".replace("``", ""))
    return 0


def cmd_docs(args) -> int:
    """``fatezoo docs GAME``: the page ``help(fatezoo.make(GAME))`` shows."""
    from fatezoo.envs.core.docs import game_page

    print(game_page(get_spec(args.game)), end="")
    return 0


def cmd_play(args) -> int:
    """``fatezoo play``."""
    from .play import play

    if args.save:
        check_output_path("--save", args.save, "game.json")  # before the game, not after
    return play(args.game, num_players=args.players, seat=args.seat, opponent=args.opponent,
                seed=args.seed, options=game_options(args), save=args.save)


def cmd_replay(args) -> int:
    """``fatezoo replay``."""
    from .replay import replay

    replay(args.file, seat=args.seat, last_only=args.last)
    return 0


def cmd_arena(args) -> int:
    """``fatezoo arena``."""
    from .arena import format_result, plot_result, run_arena, split_agents
    from .progress import NOT_WITH_RAY, CpuBudget

    agents = split_agents(args.agents)
    if len(agents) < 2:
        raise ValueError(f"--agents needs at least 2 comma-separated agents, got {args.agents!r}")
    if args.plot:
        check_plot_path(args.plot)  # before any game is played
    if args.save_games is not None and not os.path.exists(args.save_games):
        check_output_path("--save-games", args.save_games, "games.jsonl")
    kwargs = dict(games=args.games, num_players=args.players, seed=args.seed,
                  batch=args.batch, options=game_options(args),
                  progress=False if args.no_progress else None, save_games=args.save_games)
    if args.ray_workers is not None and args.ray is None:
        raise ValueError("--ray-workers needs --ray [ADDRESS]")
    if args.cpu_time_limit is not None:  # run_arena checks it too; run_ray_arena takes none
        CpuBudget(args.cpu_time_limit)  # a bad value fails here, naming it
        if args.ray is not None:
            raise ValueError(NOT_WITH_RAY)
    if args.ray is not None:
        from .ray_arena import run_ray_arena

        try:
            result = run_ray_arena(args.game, agents, address=args.ray,
                                   workers=args.ray_workers, **kwargs)
        except RuntimeError as err:  # a chunk lost more workers than it may rerun
            raise ValueError(one_line(err)) from None
    else:
        result = run_arena(args.game, agents, cpu_time_limit=args.cpu_time_limit, **kwargs)
    if args.json:
        print(json.dumps(result))
    else:
        print(format_result(result))
    if args.plot:
        plot_result(result, args.plot)
        print(f"plot written to {args.plot}", file=sys.stderr)
    return 0


def check_output_path(flag: str, path: str, example: str) -> None:
    """Raise ValueError unless a file can be written at ``path`` (folder exists, writable)."""
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        raise ValueError(f"{flag} {path!r} is a folder; give a file name such as "
                         f"{os.path.join(path, example)!r}")
    if not os.path.isdir(folder):
        raise ValueError(f"{flag} {path!r}: folder {folder!r} does not exist")
    if not os.access(folder, os.W_OK):
        raise ValueError(f"{flag} {path!r}: folder {folder!r} is not writable")


def check_plot_path(path: str) -> None:
    """Raise ValueError unless the arena PNG can be written at ``path``."""
    check_output_path("--plot", path, "arena.png")
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise ValueError(f"--plot needs matplotlib: {install_hint('train')}") from None


def cmd_bench(args) -> int:
    """``fatezoo bench``."""
    from .bench import format_bench, format_table, overall_status, run_bench, summary_row

    if args.training:
        return cmd_bench_training(args)
    games = _games(args.game)
    if args.compile:
        return cmd_bench_compile(games, args)
    if args.envs < 1 or not (math.isfinite(args.seconds) and args.seconds > 0):
        raise ValueError(f"--envs must be >= 1 and --seconds a number > 0, got {args.envs}, "
                         f"{args.seconds}")
    reports = []
    for g in games:
        reports.append(run_bench(g, envs=args.envs, seconds=args.seconds,
                                 num_players=args.players, seed=args.seed,
                                 options=game_options(args),
                                 openspiel_game=args.openspiel_game,
                                 log=lambda s: print(s, file=sys.stderr, flush=True)))
    status = overall_status({r["game"]: {"status": r["status"]} for r in reports})
    if args.json:
        out = reports[0] if args.game != "all" else {
            "games": reports, "table": [summary_row(r) for r in reports], "status": status}
        print(json.dumps(out))
    elif args.game == "all":
        print(format_table(reports))
    else:
        print(format_bench(reports[0]))
    return 1 if args.strict and status == "MISS" else 0


def _games(name: str) -> list[str]:
    """``all`` -> every game; else the one named (checked)."""
    games = list(game_names()) if name == "all" else [name]
    for g in games:
        get_spec(g)
    return games


def cmd_bench_compile(games: list[str], args) -> int:
    """``fatezoo bench --compile``."""
    from .firstuse import bench_compile, format_compile_bench, misses

    reports = [bench_compile(g, log=lambda s: print(s, file=sys.stderr, flush=True))
               for g in games]
    if args.json:
        print(json.dumps(reports))
    else:
        print(format_compile_bench(reports))
        for r in reports:
            for miss in misses(r):
                print(f"{r['game']}: target missed: {miss}")
    return 1 if args.strict and any(misses(r) for r in reports) else 0


def cmd_compile(args) -> int:
    """``fatezoo compile``."""
    from .firstuse import ENTRY_NAMES, compile_games
    from .progress import Progress

    games = _games(args.game)
    if args.jobs is not None and args.jobs < 1:
        raise ValueError(f"--jobs must be >= 1, got {args.jobs}")
    total = len(games) * len(ENTRY_NAMES)
    bar = Progress(total, "compile", stream=sys.stderr)
    lines = not bar.enabled

    def progress(done, total, label):
        bar.update(1)
        if lines:
            print(f"compiled {label} ({done}/{total})", file=sys.stderr, flush=True)

    with bar:
        compile_games(games, jobs=args.jobs, progress=progress)
    print(f"compiled every entry point of {', '.join(games)}; later runs load them from the "
          "numba cache")
    return 0


def cmd_bench_training(args) -> int:
    """``fatezoo bench GAME --training``."""
    from .bench_training import bench_training, format_training_bench

    if args.game == "all":
        raise ValueError("--training benchmarks one game: name it (fatezoo bench fatefell "
                         "--training)")
    envs = None if args.envs == 1024 else args.envs  # 1024 is the core bench's default
    result = bench_training(args.game, rollouts=args.rollouts, num_envs=envs,
                            num_players=args.players, seed=args.seed,
                            options=game_options(args) or None,
                            log=lambda s: print(s, file=sys.stderr, flush=True))
    print(json.dumps(result) if args.json else format_training_bench(result))
    return 0


def cmd_train(args) -> int:
    """``fatezoo train``."""
    if args.backend != "rllib":
        for flag, value in (("--num-env-runners", args.num_env_runners),
                            ("--address", args.address)):
            if value is not None:
                raise ValueError(f"{flag} needs --backend rllib")
        from .train import run_train_command

        return run_train_command(args)
    from .options import options_from_args

    opts = options_from_args(args)
    runners = 0 if args.num_env_runners is None else args.num_env_runners
    if runners < 0:
        raise ValueError(f"--num-env-runners must be >= 0, got {runners}")
    try:
        from .rllib_ppo import run_rllib_command
    except ImportError as e:
        raise ImportError(f"--backend rllib needs the ray extra: {install_hint('ray')} "
                          f"({e})") from None
    return run_rllib_command(opts, runners, args.address)


def _players(text: str | None) -> list[int] | None:
    """``--players 2,3`` as ints; a one-line error naming the bad part."""
    if text is None:
        return None
    try:
        return [int(p) for p in text.split(",") if p.strip()]
    except ValueError:
        raise ValueError(f"--players {text!r}: expected player counts such as 2 or 2,3,4") \
            from None


def cmd_eval(args) -> int:
    """``fatezoo eval``."""
    from .evaluation import (
        calibrate_protocol,
        evaluate_agent,
        format_anchors,
        format_card,
        plot_card,
    )

    if args.ray_workers is not None and args.ray is None:
        raise ValueError("--ray-workers needs --ray [ADDRESS]")
    kwargs = dict(protocol=args.protocol, players=_players(args.players), games=args.games,
                  batch=args.batch, progress=False if args.no_progress else None,
                  ray=args.ray, ray_workers=args.ray_workers, options=game_options(args),
                  cpu_time_limit=args.cpu_time_limit, save_games=args.save_games)
    if args.calibrate:
        if args.agent is not None or args.plot:
            raise ValueError("--calibrate measures the suite: give no AGENT and no --plot")
        anchors = calibrate_protocol(args.game, **kwargs)
        print(json.dumps({str(n): a for n, a in anchors.items()}) if args.json
              else format_anchors(args.game, anchors))
        return 0
    if args.agent is None:
        raise ValueError("eval: name the AGENT to score (e.g. fatezoo eval "
                         f"{args.game} heuristic), or give --calibrate")
    if args.plot:
        check_plot_path(args.plot)  # before any game is played
    try:
        card = evaluate_agent(args.game, args.agent, **kwargs)
    except RuntimeError as err:  # a Ray chunk lost more workers than it may rerun
        raise ValueError(one_line(err)) from None
    print(json.dumps(card) if args.json else format_card(card))
    if args.plot:
        plot_card(card, args.plot)
        print(f"plot written to {args.plot}", file=sys.stderr)
    return 0


def cmd_export_baseline(args) -> int:
    """``fatezoo export-baseline``."""
    from .baseline_export import export_baseline

    if args.game is not None:
        get_spec(args.game)
    if args.out is not None:
        check_output_path("--out", args.out, "baseline.npz")
    side = export_baseline(args.source, args.out, args.game)
    out = args.out or os.path.splitext(side["checkpoint"])[0] + ".npz"
    print(f"wrote {out} ({side['game']}, layers {side['layers']}) and its sidecar "
          f"{out[:-4]}.json; play it with: fatezoo arena {side['game']} "
          f"--agents heuristic,baseline:{out}")
    return 0


HANDLERS = {"list": cmd_list, "docs": cmd_docs, "play": cmd_play, "replay": cmd_replay,
            "arena": cmd_arena, "bench": cmd_bench, "train": cmd_train, "compile": cmd_compile,
            "eval": cmd_eval, "export-baseline": cmd_export_baseline}


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``fatezoo`` console script; returns the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    game = _find_game(argv) if argv and argv[0] in GAME_COMMANDS else None
    args = build_parser(game).parse_args(argv)
    from fatezoo.agents.human import Quit

    try:
        return HANDLERS[args.command](args)
    except BrokenPipeError:  # e.g. piped into head: stop quietly
        try:
            sys.stdout = open(os.devnull, "w")
        except OSError:
            pass
        return 1
    except KeyboardInterrupt:
        print(f"\nfatezoo {args.command}: interrupted", file=sys.stderr)
        return 130
    except (ValueError, TypeError, OSError, ImportError, Quit) as err:
        # expected failures (bad values, files, a missing extra, a person's input ending)
        # are one line naming the value; ReplayError is a ValueError
        print(f"fatezoo {args.command}: error: {one_line(err)}", file=sys.stderr)
        return 2


def one_line(err: BaseException) -> str:
    """An exception as one line: its message (first line), or its type if it has none."""
    text = str(err).strip()
    if isinstance(err, OSError) and err.strerror and err.filename is not None:
        text = f"{err.filename}: {err.strerror}"
    return text.splitlines()[0] if text else type(err).__name__


if __name__ == "__main__":
    sys.exit(main())
