"""``fatezoo eval GAME AGENT``: a score card on a fixed, versioned evaluation protocol.

A protocol (:data:`PROTOCOLS`) fixes everything a card depends on: the suite of opponents,
the arena seed (so every lab plays the same deals), the games per opponent at each player
count, the env options, the ratings' prior and the suite's anchor ratings. The agent plays
each suite member in an arena of its own (:func:`~fatezoo.training.arena.run_arena`, two
agents: every seating, balanced; the games rounded up to whole sets of seatings), on the
same game seeds for every opponent. A card reports, per player count and opponent, the
agent's win rate (ties count half) with its 95% Wilson interval, its mean final score
margin where the game keeps a score (:data:`SCORE_FIELDS`), and one rating: the agent's
Plackett-Luce strength fitted to all its games with the suite members held at their anchor
ratings (:func:`~fatezoo.training.ratings.fit_outcomes`), so cards of different agents, made
anywhere, sit on one scale.

Anchors: a suite round robin (every pair of members, :attr:`Protocol.anchor_games` games
each, the protocol's seed) fitted with ``random`` pinned at :data:`RANDOM_RATING`. The
round robin's games are the same everywhere, so its anchors are constants: a protocol
declares them per game and player count once measured (``fatezoo eval GAME --calibrate``);
until then a card measures them in its own run and says so.

Suite members that cannot play the game (no heuristic, no baseline shipped) are left out,
and the card names them and why. Results depend only on the protocol, the agent and the
game counts: not on the batch size, the machine or Ray (the arena guarantees it).

>>> from fatezoo.training.evaluation import evaluate_agent
>>> card = evaluate_agent("fatefell", "heuristic", games=8)  # doctest: +SKIP
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
import sys
import time
from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from fatezoo.agents import make_agent
from fatezoo.envs.core.registry import get_spec

from .arena import make_lineups, run_arena
from .progress import NOT_WITH_RAY, CpuBudget, cpu_clock
from .ratings import ELO_BASE, fit_outcomes

RANDOM_RATING = 1000.0  # the scale's zero point: the uniform random agent's rating
DEFAULT_PLAYERS = 2  # fatezoo.make's default player count


@dataclass(frozen=True)
class Protocol:
    """What a score card fixes (see the module docs).

    Attributes:
        name: the version (``v1``).
        suite: the opponents' agent specs, in card order.
        seed: the arena seed of every arena of the card.
        games: games against each opponent at each player count (rounded up to whole
            sets of seatings).
        anchor_games: games of each pair of suite members in the calibration round robin.
        options: env options of every game (the game's own options keep their defaults).
        prior_games: the ratings' prior (virtual drawn games against strength 0).
        anchors: ``(game, players) -> {suite member: rating}``, measured once with
            ``fatezoo eval GAME --calibrate``.
    """

    name: str
    suite: tuple
    seed: int
    games: int
    anchor_games: int
    options: dict = field(default_factory=dict)
    prior_games: float = 1.0
    anchors: dict = field(default_factory=dict)


PROTOCOLS = {
    "v1": Protocol(
        name="v1",
        suite=("random", "heuristic", "ismcts:sims=200", "baseline:v1"),
        seed=29,
        games=1000,  # 95% interval about +-3 points at a 50% win rate
        anchor_games=1000,
        options={"reward": "win"},
        prior_games=1.0,
        # `fatezoo eval GAME --calibrate` (the suite round robin, 1,000 games a pair): a
        # game and player count not listed here measures them in each card's own run
        anchors={
            ("fatefell", 2): {"random": 1000.0, "heuristic": 2413.2, "ismcts:sims=200": 2583.8,
                              "baseline:v1": 2605.5},
            ("fathoming", 2): {"random": 1000.0, "heuristic": 1516.1, "ismcts:sims=200": 1779.7,
                               "baseline:v1": 1720.2},
            ("foretold", 2): {"random": 1000.0, "heuristic": 2422.4, "ismcts:sims=200": 2484.5,
                              "baseline:v1": 2824.8},
            ("forgotten_city", 2): {"random": 1000.0, "heuristic": 1327.0,
                                    "ismcts:sims=200": 1855.9, "baseline:v1": 1857.8},
            ("villainous", 2): {"random": 1000.0, "heuristic": 1772.2,
                                "ismcts:sims=200": 1831.8, "baseline:v1": 1884.1},
        },
    ),
}

# the record field holding each seat's final score, what it counts, and +1 where more is
# better or -1 where less is (None: the game keeps no score). A card's margin is in the
# agent's favour: (agent's score - opponent's) * sign, averaged over their pairings
SCORE_FIELDS = {
    "fatefell": ("total", "points", -1),  # the lowest total wins
    "foretold": ("life", "Life", +1),
    "fathoming": ("loot", "Loot", +1),
    "forgotten_city": ("vp", "VP", +1),
    "villainous": None,
}


def get_protocol(name: str) -> Protocol:
    """The protocol of version ``name``; a one-line error naming the known ones."""
    if name not in PROTOCOLS:
        raise ValueError(f"--protocol {name!r}: expected one of {sorted(PROTOCOLS)}")
    return PROTOCOLS[name]


def score_field(game: str) -> tuple[str | None, str, int]:
    """``(record field, unit, sign)`` of the game's score, or ``(None, why not, 0)``."""
    entry = SCORE_FIELDS.get(game)
    names = get_spec(game).state_dtype.names
    if entry is None or entry[0] not in names:
        return None, f"{game} keeps no score (its result is who met the objective)", 0
    return entry


def round_games(games: int, num_players: int, agents: int = 2) -> int:
    """``games`` rounded up to whole sets of the arena's balanced seatings."""
    per = len(make_lineups(agents, num_players))
    return -(-int(games) // per) * per


def check_players(game: str, players) -> list[int]:
    """The player counts of a card (default: the game's default), checked."""
    spec = get_spec(game)
    players = [DEFAULT_PLAYERS] if not players else [int(p) for p in players]
    for p in players:
        if not spec.min_players <= p <= spec.max_players:
            raise ValueError(f"--players {p}: {game} takes {spec.min_players} to "
                             f"{spec.max_players} players")
    return sorted(set(players))


def available_suite(protocol: Protocol, game: str, num_players: int) -> tuple[list, list]:
    """``(members that can play, [{"opponent", "reason"}, ...] of those left out)``."""
    members, skipped = [], []
    for member in protocol.suite:
        try:
            make_agent(member, game, num_players=num_players)
        except (ValueError, OSError, ImportError) as err:
            reason = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
            skipped.append({"opponent": member, "reason": reason})
        else:
            members.append(member)
    return members, skipped


class _Arenas:
    """Plays the card's arenas: here, or on Ray (one Ray session for all of them)."""

    def __init__(self, game: str, protocol: Protocol, batch: int, progress, ray, workers,
                 options: dict | None = None, cpu_time_limit: float | None = None,
                 save_games: str | None = None):
        self.game, self.protocol, self.batch, self.progress = game, protocol, batch, progress
        self.save_games, self.resumed = save_games, 0
        if save_games is not None:
            check_save_folder(save_games)
        self.options = dict(protocol.options, **(options or {}))
        self.ray, self.workers, self.started = ray, workers, False
        self.budget = CpuBudget(cpu_time_limit)
        if ray is not None and self.budget.limit is not None:
            raise ValueError(NOT_WITH_RAY)
        self.stopped = False  # the CPU time limit cut an arena or left one unplayed

    def __enter__(self):
        if self.ray is not None:
            from .ray_arena import _init_ray

            self.started = _init_ray(self.ray, self.workers)
        return self

    def __exit__(self, *exc):
        if self.started:
            import ray

            ray.shutdown()

    def run(self, agents: list, games: int, num_players: int, what: str,
            **kwargs) -> dict | None:
        """The arena's result; None when the CPU time limit is spent before it starts."""
        if self.budget.over():
            self.stopped = True
            if self.progress is not False:
                print(f"fatezoo eval: {self.game}, {num_players} players, {what}: not played "
                      f"(--cpu-time-limit {self.budget.limit:g} is spent)", file=sys.stderr,
                      flush=True)
            return None
        runner = None
        if self.ray is not None:
            from .ray_arena import ray_runner

            runner = ray_runner(self.workers)
        if self.progress is not False:
            print(f"fatezoo eval: {self.game}, {num_players} players, {what}: {games:,} games",
                  file=sys.stderr, flush=True)
        own = {k: v for k, v in self.options.items() if self.protocol.options.get(k) != v}
        save = (None if self.save_games is None else os.path.join(
            self.save_games, saved_games_name(self.game, agents, num_players, own)))
        result = run_arena(self.game, agents, games=games, num_players=num_players,
                           seed=self.protocol.seed, batch=self.batch,
                           options=self.options, progress=self.progress,
                           prior_games=self.protocol.prior_games, runner=runner,
                           cpu_time_limit=None if runner else self.budget, save_games=save,
                           **kwargs)
        self.stopped |= result["stopped"]
        self.resumed += result["games_resumed"]
        return result

    def out_of_time(self) -> str:
        """Why an arena was not played: the limit, spent."""
        return f"--cpu-time-limit {self.budget.limit:g} was spent"


def check_save_folder(path: str) -> None:
    """Make the ``--save-games`` folder (its parent must exist), or a one-line error."""
    where = str(path)
    if os.path.exists(where) and not os.path.isdir(where):
        raise ValueError(f"--save-games {where!r} is a file; eval saves one file per arena "
                         "in a folder: give a folder")
    parent = os.path.dirname(os.path.abspath(where))
    if not os.path.isdir(parent):
        raise ValueError(f"--save-games {where!r}: folder {parent!r} does not exist")
    try:
        os.makedirs(where, exist_ok=True)
    except OSError as err:
        raise ValueError(f"--save-games {where!r}: {err.strerror or err}") from None


def saved_games_name(game: str, agents: list, num_players: int,
                     options: dict | None = None) -> str:
    """The file of one card arena in the ``--save-games`` folder.

    ``fathoming-2p-heuristic-vs-random.jsonl``: the specs with characters outside
    ``[A-Za-z0-9._=-]`` replaced, a hash of the specs where that changed them, and the
    card's own ``options`` (beyond the protocol's) as ``-split=test`` (the file's first
    line names the arena exactly, so a clash is refused, never mixed).
    """
    own = sorted((options or {}).items())
    text = "-vs-".join(agents) + "".join(
        f"-{k}={v if isinstance(v, str) else json.dumps(v, separators=(',', ':'))}"
        for k, v in own)
    slug = re.sub(r"[^A-Za-z0-9._=-]+", "_", text)[:120]
    if slug != text:
        slug += "-" + hashlib.sha256(text.encode()).hexdigest()[:8]
    return f"{game}-{int(num_players)}p-{slug}.jsonl"


def calibrate(arenas: _Arenas, members: list, num_players: int, games: int) -> dict | None:
    """Anchor ratings of ``members`` from their round robin, ``random`` pinned.

    None when the CPU time limit is spent before the round robin starts.
    """
    if len(members) < 2:
        return {m: RANDOM_RATING for m in members}
    pairs = math.comb(len(members), 2)
    total = round_games(games * pairs, num_players, len(members))
    result = arenas.run(list(members), total, num_players, "suite round robin (anchors)")
    if result is None:
        return None
    ratings = {m: result["ratings"][m]["rating"] for m in members}
    shift = RANDOM_RATING - ratings.get("random", ELO_BASE)
    return {m: r + shift for m, r in ratings.items()}


def card_for_players(arenas: _Arenas, agent: str, num_players: int, games: int) -> dict:
    """One player count's part of the card (see :func:`evaluate_agent`)."""
    protocol, game = arenas.protocol, arenas.game
    members, skipped = available_suite(protocol, game, num_players)
    field_name, unit, sign = score_field(game)
    more = {"score_field": field_name} if field_name else {}
    outcomes: Counter = Counter()
    rows = []
    played = []
    for i, member in enumerate(members, start=1):
        res = arenas.run([agent, member], games, num_players,
                         f"{agent} vs {member} (opponent {i} of {len(members)})", **more)
        if res is None:
            skipped.append({"opponent": member, "reason": "not played: "
                            + arenas.out_of_time()})
            continue
        played.append(member)
        m = len(played)
        me, them = res["agents"]
        for groups, n in res["outcomes"]:  # arena indices 0, 1 -> card indices 0, m
            outcomes[tuple(tuple(sorted(m * a for a in g)) for g in groups)] += n
        rows.append({"opponent": member, "games": res["games"], "stopped": res["stopped"],
                     "pairings": res["counts"][me][them], "win_rate": res["matrix"][me][them],
                     "ci": res["ci"][me][them], "wins": res["wins"][me][them],
                     "ties": res["ties"][me][them], "losses": res["losses"][me][them],
                     "score_margin": None if not field_name or res["score_margin"][me][them]
                     is None else sign * res["score_margin"][me][them],
                     "truncated": res["truncated"]})
    labels = ["agent"] + played
    own = arenas.options == protocol.options  # declared anchors hold for these options only
    declared = protocol.anchors.get((game, num_players), {}) if own else {}
    if members and all(m in declared for m in members):
        anchors = {m: float(declared[m]) for m in played}
        source = f"declared by protocol {protocol.name}"
    else:
        anchors = calibrate(arenas, members, num_players, protocol.anchor_games
                            if games >= protocol.games else games)
        source = ("measured in this run (suite round robin; not yet declared by the protocol)"
                  if own else "measured in this run (suite round robin with this card's "
                  "options; the protocol's anchors hold for its own)")
        if anchors is None:
            source = "not measured: " + arenas.out_of_time()
        elif arenas.stopped:  # the agent's arenas ran whole (else no time was left)
            source += "; its round robin was cut by --cpu-time-limit"
    rating = None
    if played and anchors is not None:
        fit = fit_outcomes(labels, outcomes, protocol.prior_games,
                           anchors={m: anchors[m] for m in played})["agent"]
        rating = {"rating": fit["rating"], "se": fit["se"], "ci": fit["ci"]}
    return {"num_players": num_players, "opponents": rows, "skipped": skipped,
            "score": {"field": field_name, "unit": unit, "sign": sign} if field_name
            else {"field": None, "note": unit},
            "rating": rating, "anchors": {"ratings": anchors, "source": source}}


def check_count(name: str, value, low: int = 1) -> int:
    """``value`` if it is an int >= ``low``, else a one-line error naming ``name``."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < low:
        raise ValueError(f"{name} must be an int >= {low}, got {value!r}")
    return int(value)


def check_options(game: str, proto: Protocol, options) -> dict:
    """The card's own env options: game options the protocol does not fix, checked."""
    options = dict(options or {})
    for name in ("num_players", *proto.options):
        if name in options:
            fixed = ("--players sets the player counts" if name == "num_players" else
                     f"protocol {proto.name} fixes {name}={proto.options[name]!r}")
            raise ValueError(f"eval: option {name}={options[name]!r} is not the card's to set: "
                             f"{fixed}")
    get_spec(game).options(**dict(proto.options, **options))  # a bad option fails here
    return options


def evaluate_agent(game: str, agent: str, protocol: str = "v1", players=None,
                   games: int | None = None, batch: int = 256, progress: bool | None = False,
                   ray: str | None = None, ray_workers: int | None = None,
                   options: dict | None = None, cpu_time_limit: float | None = None,
                   save_games: str | None = None) -> dict:
    """The score card of ``agent`` on ``game`` under ``protocol`` (see the module docs).

    Args:
        game: registered game name.
        agent: any agent spec :func:`fatezoo.agents.make_agent` accepts.
        protocol: the protocol version (:data:`PROTOCOLS`).
        players: player counts (default: the game's default, 2).
        games: games per opponent instead of the protocol's (the card says it is short).
        batch: games run at once (the card does not depend on it).
        progress: as for :func:`~fatezoo.training.arena.run_arena`.
        ray: a Ray address (``"local"``: a local Ray) to play the games on Ray workers.
        ray_workers: with ``ray``: chunks in flight at once.
        options: game options on top of the protocol's (``{"split": "test"}``: held-out
            setups); the card records them, and measures its anchors in its own run
            (the protocol's declared anchors hold for its own options only).
        cpu_time_limit: CPU seconds of this process (all threads, compiling included)
            after which the card stops: the arena in progress ends after its batch and
            keeps the first games played, the opponents not reached are listed as
            skipped, and the card says it is not the protocol's full count. Its game
            counts then depend on the machine's speed. Not with ``ray``.
        save_games: a folder (made if missing) where each arena keeps its finished games
            (:mod:`.saved_games`, one file per arena, :func:`saved_games_name`): the same
            command run again reads them and plays the rest, and gives the unbroken card.

    Returns:
        A JSON-able card: ``protocol``, ``game``, ``agent``, ``seed``, ``options``,
        ``games_per_opponent``, ``protocol_games``, ``full_protocol``, ``cpu_time_limit``,
        ``stopped`` (the limit cut the card), ``cards`` (one per player count:
        ``opponents`` rows with ``games``, ``stopped``, ``win_rate``, ``ci``, ``pairings``,
        ``wins``/``ties``/``losses``, ``score_margin``; ``skipped``; ``score``; ``rating``;
        ``anchors``), ``save_games`` and ``games_resumed`` (the games read from it),
        ``seconds`` and ``cpu_seconds`` (this process's; None with ``ray``): the entries
        that differ between runs.
    """
    proto = get_protocol(protocol)
    get_spec(game)
    if agent.partition(":")[0].strip() == "human":
        raise ValueError("eval: a human cannot play a protocol's games; give an agent spec")
    make_agent(agent, game)  # a bad spec fails here, before any game is played
    counts = check_players(game, players)
    per = proto.games if games is None else check_count("--games", games)
    check_count("--batch", batch)
    extra = check_options(game, proto, options)
    start, cpu_start = time.perf_counter(), cpu_clock()
    cards = []
    with _Arenas(game, proto, batch, progress, ray, ray_workers, extra,
                 cpu_time_limit, save_games) as arenas:
        for n in counts:
            cards.append(card_for_players(arenas, agent, n, round_games(per, n)))
    return {"protocol": proto.name, "game": game, "agent": agent, "seed": proto.seed,
            "options": dict(arenas.options), "own_options": extra, "games_per_opponent": per,
            "protocol_games": proto.games,
            "full_protocol": per >= proto.games and not arenas.stopped,
            "cpu_time_limit": arenas.budget.limit, "stopped": arenas.stopped,
            "suite": list(proto.suite), "cards": cards,
            "save_games": save_games, "games_resumed": arenas.resumed,
            "seconds": time.perf_counter() - start,
            "cpu_seconds": None if ray is not None else cpu_clock() - cpu_start}


def _pct(x) -> str:
    return "n/a" if x is None else f"{100 * x:.1f}%"


def eval_command(card: dict) -> str:
    """The command line that makes ``card``."""
    players = ",".join(str(c["num_players"]) for c in card["cards"])
    short = ("" if card["games_per_opponent"] >= card["protocol_games"]
             else f" --games {card['games_per_opponent']}")
    if card.get("cpu_time_limit") is not None:
        short += f" --cpu-time-limit {card['cpu_time_limit']:g}"
    own = "".join(f" --option {k}={json.dumps(v, separators=(',', ':'))}"
                  for k, v in card.get("own_options", {}).items())
    return (f"fatezoo eval {card['game']} {card['agent']} --protocol {card['protocol']} "
            f"--players {players}{short}{own}")


def format_card(card: dict) -> str:
    """The card as text: one table per player count, then the rating."""
    count = ("the protocol's full count" if card["full_protocol"] else
             f"NOT the protocol's full count of {card['protocol_games']:,}: "
             + (f"stopped by --cpu-time-limit {card['cpu_time_limit']:g} after "
                f"{card['cpu_seconds']:.0f} CPU s (its game counts depend on the machine)"
                if card.get("stopped") else "a short run"))
    lines = [f"score card: {card['agent']} on {card['game']}, protocol {card['protocol']} "
             f"(seed {card['seed']}, every seating, ties count half)",
             f"games per opponent: {card['games_per_opponent']:,}, {count}",
             *([f"options beyond the protocol's: {card['own_options']}"]
               if card.get("own_options") else []),
             f"command: {eval_command(card)}",
             *([f"{card['games_resumed']:,} games read from {card['save_games']} (saved by "
                "an earlier run of this command)"] if card.get("games_resumed") else [])]
    for c in card["cards"]:
        unit = c["score"].get("unit")
        lines += ["", f"{c['num_players']} players:",
                  f"  {'opponent':<18} {'games':>6}  {'win rate':>8}  {'95% CI':>14}  "
                  + (f"{unit} margin (+: agent ahead)" if c["score"]["field"] else "")]
        for r in c["opponents"]:
            lo, hi = r["ci"]
            margin = ("-" if r["score_margin"] is None else f"{r['score_margin']:+.2f}")
            lines.append(f"  {r['opponent']:<18} {r['games']:>6}  {_pct(r['win_rate']):>8}  "
                         f"[{100 * lo:5.1f}, {100 * hi:5.1f}]  {margin}")
        if not c["score"]["field"]:
            lines.append(f"  no score margin: {c['score']['note']}")
        for s in c["skipped"]:
            lines.append(f"  skipped {s['opponent']}: {s['reason']}")
        if c["rating"] is None:
            why = ("no suite member played" if c["anchors"]["ratings"] is not None
                   else f"anchors {c['anchors']['source']}")
            lines.append(f"  rating: none ({why})")
            continue
        lo, hi = c["rating"]["ci"]
        anchors = ", ".join(f"{m} {r:.0f}" for m, r in c["anchors"]["ratings"].items())
        lines.append(f"  rating: {c['rating']['rating']:.0f} [{lo:.0f}, {hi:.0f}] on the "
                     f"{card['protocol']} scale (random = {RANDOM_RATING:.0f}; 400 points = "
                     "10:1 odds)")
        lines.append(f"  anchors ({c['anchors']['source']}): {anchors}")
    return "\n".join(lines)


def plot_card(card: dict, path: str) -> None:
    """Save the card's win rates (95% CIs) per opponent and player count as one PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    cards = card["cards"]
    fig, axes = plt.subplots(1, len(cards), figsize=(5 * len(cards), 3.2), squeeze=False)
    for ax, c in zip(axes[0], cards):
        rows = [r for r in c["opponents"] if r["win_rate"] is not None]
        mid = np.array([r["win_rate"] for r in rows]) * 100
        err = np.array([[m - 100 * r["ci"][0], 100 * r["ci"][1] - m]
                        for m, r in zip(mid, rows)]).T.reshape(2, len(rows))
        ax.barh(range(len(rows)), mid, xerr=err, color="tab:blue", capsize=4)
        ax.axvline(50, color="grey", lw=0.8, ls="--")
        ax.set_yticks(range(len(rows)), [r["opponent"] for r in rows], fontsize=8)
        ax.set_xlim(0, 100)
        ax.set_xlabel("win rate % (ties half), 95% CI")
        rating = "" if c["rating"] is None else f", rating {c['rating']['rating']:.0f}"
        ax.set_title(f"{card['agent']} on {card['game']}, {c['num_players']} players"
                     f"{rating}", fontsize=9)
    short = "" if card["full_protocol"] else " (short run)"
    fig.suptitle(f"protocol {card['protocol']}, {card['games_per_opponent']} games per "
                 f"opponent{short}", fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def format_anchors(game: str, anchors: dict) -> str:
    """Calibrated anchors as the lines to declare in :data:`PROTOCOLS`.

    A player count the CPU time limit left without anchors (None) is a comment line.
    """
    return "\n".join(f"    # ({game!r}, {n}): not measured, --cpu-time-limit was spent"
                     if a is None else f"    ({game!r}, {n}): {{"
                     + ", ".join(f"{m!r}: {r:.1f}" for m, r in a.items()) + "},"
                     for n, a in anchors.items())


def calibrate_protocol(game: str, protocol: str = "v1", players=None, games=None,
                       batch: int = 256, progress: bool | None = False, ray=None,
                       ray_workers=None, options: dict | None = None,
                       cpu_time_limit: float | None = None,
                       save_games: str | None = None) -> dict:
    """Measure the suite's anchor ratings: player count -> {member: rating}.

    ``cpu_time_limit`` and ``save_games`` as for :func:`evaluate_agent`; a player count
    whose round robin the limit cuts or leaves unplayed maps to None (anchors come from
    whole round robins only).
    """
    proto = get_protocol(protocol)
    per = proto.anchor_games if games is None else check_count("--games", games)
    extra = check_options(game, proto, options)
    out = {}
    with _Arenas(game, proto, check_count("--batch", batch), progress, ray,
                 ray_workers, extra, cpu_time_limit, save_games) as arenas:
        for n in check_players(game, players):
            members, _ = available_suite(proto, game, n)
            anchors = calibrate(arenas, members, n, per)
            out[n] = None if arenas.stopped else anchors
    return out


__all__ = ["PROTOCOLS", "Protocol", "RANDOM_RATING", "SCORE_FIELDS", "calibrate_protocol",
           "eval_command", "evaluate_agent", "format_anchors", "format_card", "get_protocol",
           "plot_card", "round_games", "saved_games_name", "score_field"]
