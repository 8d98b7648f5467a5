"""Arena: agents play each other on the batched core; win-rate matrix and ratings.

Seatings ("lineups") are balanced so that every agent plays every seat equally often:

- 2 players: every ordered pair of distinct agents (a round robin, both seat orders).
- 3+ players, at least as many agents as seats: every combination of ``num_players``
  agents, in each of its ``num_players`` cyclic seat rotations.
- 3+ players, fewer agents than seats: the agents repeat cyclically around the table,
  for every rotation of the agent order and every seat rotation.

``games`` is the total number of games; game ``g`` uses lineup ``g % len(lineups)``
and is the game an AEC env deals with ``reset(seed=game_seeds[g])``. The agent in seat
``s`` of game ``g`` draws all its randomness from its own generator stream,
``seat_rng_words(game_seeds[g], num_players)[s]``, advanced only by that seat's own
decisions: so any arena game can be replayed alone (:func:`replay_game`), and the results
are the same, bit for bit, whatever the ``batch`` size and however the games are split
into batches. Games run ``batch`` at a time on ``fatezoo.make_vec``; at each step the rows
are grouped by the agent that owns the current player's seat and each agent answers its
rows with one ``act_batch`` call (``act_records`` for search agents), given those rows'
seat streams as ``rng``. (An agent spec's own ``seed=`` only matters outside the arena.)

Results: for every pair of seats held by different agents, the agent with the higher
total reward beats the other (equal totals: half a win each). The win-rate matrix
holds, for row agent A and column agent B, A's score against B over all their pairings,
with a 95% Wilson interval. Ratings are one Plackett-Luce (two players: Bradley-Terry)
maximum-likelihood fit to every game's finishing order at once (:mod:`.ratings`), on an
Elo-like scale with 95% intervals: they do not depend on the order the games were played in.

>>> from fatezoo.training.arena import run_arena
>>> result = run_arena("fatefell", ["random", "heuristic"], games=8, seed=0)
>>> result["counts"]["heuristic"]["random"]
8
"""

from __future__ import annotations

import itertools
import math
import time
from collections import Counter

import numpy as np

import fatezoo
from fatezoo.agents import make_agent
from fatezoo.agents.base import accepts_rng
from fatezoo.envs.core.docs import install_hint
from fatezoo.envs.core.registry import get_spec

from .progress import (
    NOT_WITH_RAY,
    CpuBudget,
    Progress,
    ProgressReport,
    cpu_clock,
    warm_kernels,
)
from .ratings import MODEL, finishing_groups, fit_outcomes
from .saved_games import SavedGames, arena_header

RATING_MODEL = MODEL

Z95 = 1.959963984540054


def wilson_interval(score: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a win rate (ties counted as half wins).

    Args:
        score: wins plus half the ties.
        n: games (or pairings) played.
        z: the normal quantile (1.96 for 95%).

    Returns:
        (low, high) bounds in [0, 1]; (0, 1) when ``n`` is 0.
    """
    if n <= 0:
        return 0.0, 1.0
    p = score / n
    denom = 1.0 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(max(p * (1 - p) / n + z * z / (4 * n * n), 0.0)) / denom
    low = 0.0 if score <= 0 else max(0.0, centre - half)
    high = 1.0 if score >= n else min(1.0, centre + half)
    return low, high


def make_lineups(num_agents: int, num_players: int) -> list[tuple[int, ...]]:
    """Balanced seatings: tuples of agent indices, one per seat (see the module docs).

    Args:
        num_agents: how many distinct agents take part (at least 2).
        num_players: seats at the table.

    Returns:
        The lineups; across them every agent holds every seat equally often.
    """
    k, n = int(num_agents), int(num_players)
    if k < 2:
        raise ValueError(f"an arena needs at least 2 agents, got {k}")
    if n < 2:
        raise ValueError(f"an arena needs at least 2 players, got {n}")
    if n == 2:
        return [(i, j) for i in range(k) for j in range(k) if i != j]
    lineups = []
    if k >= n:
        for combo in itertools.combinations(range(k), n):
            for r in range(n):
                lineups.append(tuple(combo[(s + r) % n] for s in range(n)))
    else:
        for shift in range(k):
            base = [(s + shift) % k for s in range(n)]
            for r in range(n):
                lineups.append(tuple(base[(s + r) % n] for s in range(n)))
    return lineups


def unique_labels(specs: list[str]) -> list[str]:
    """Agent labels for the tables: the specs, with ``#2``, ``#3`` added to repeats."""
    seen: dict[str, int] = {}
    labels = []
    for s in specs:
        seen[s] = seen.get(s, 0) + 1
        labels.append(s if seen[s] == 1 else f"{s}#{seen[s]}")
    return labels


def game_seeds(seed: int, games: int) -> np.ndarray:
    """Distinct per-game seeds (below 2**62) derived from the arena ``seed``."""
    words = np.random.SeedSequence(int(seed)).generate_state(max(games, 1) * 2, np.uint32)
    seeds = (words[0::2].astype(np.uint64) << np.uint64(30)) ^ words[1::2].astype(np.uint64)
    return seeds[:games].astype(np.int64)


AGENT_STREAM = 0x6167656E74  # spawn-key tag of the agents' streams ("agent")


def seat_rng_words(game_seed: int, num_players: int) -> np.ndarray:
    """(num_players, 4) int64 generator words: the agent stream of each seat of a game.

    Seat ``s``'s stream depends only on ``(game_seed, s)`` (a :class:`numpy.random.SeedSequence`
    spawn key tagged apart from the game's own dealing stream).
    """
    words = np.empty((int(num_players), 4), np.int64)
    for s in range(int(num_players)):
        seq = np.random.SeedSequence(int(game_seed), spawn_key=(AGENT_STREAM, s))
        words[s] = seq.generate_state(4, np.uint32).astype(np.int64)
        if not words[s].any():  # xorshift's one fixed point
            words[s, 0] = 1
    return words


def _asker(agent):
    """``ask(data, masks, words)``: the agent's ``act_records`` or ``act_batch``.

    ``rng=words`` is passed when the method takes that keyword, decided once per agent
    (inspecting a signature every step would cost more than a small batch's step).
    """
    method = agent.act_records if agent.needs_records else agent.act_batch
    if accepts_rng(method):
        return lambda data, masks, words: method(data, masks, rng=words)
    return lambda data, masks, words: method(data, masks)


def play_batch(game: str, agents: list, seat_agents: np.ndarray, seeds: np.ndarray,
               num_players: int, options: dict | None = None, progress: Progress | None = None,
               rng: np.ndarray | None = None, score_field: str | None = None):
    """Play one batch of games to the end on a vector env.

    Every row's result depends only on its seed, its seating and its agents' streams, not
    on the other rows (see the module docs).

    Args:
        game: registered game name.
        agents: agent objects with ``act_batch(obs, masks, rng=None)`` (or
            ``act_records``, with ``needs_records``); objects whose method takes no
            ``rng`` are called without it (and then depend on the batching).
        seat_agents: (B, n) index into ``agents`` of the agent in each seat of each game.
        seeds: (B,) game seeds.
        num_players: seats per game.
        options: further env options (``max_turns``, ``reward``, the game's own).
        progress: a bar advanced by one per finished game, and by 0 at each step (its
            lines keep their time while a searching batch's games all run).
        rng: (B, n, 4) int64 generator words of each seat's agent stream, advanced in
            place; None: :func:`seat_rng_words` of each seed.
        score_field: a record field holding each seat's score (``"total"``, ``"vp"``...):
            its final values come back as a fourth array.

    Returns:
        (returns (B, n) float32 total rewards per seat, truncated (B,) bool, lengths (B,)
        int64 decisions asked of the agents in each game), and with ``score_field`` the
        final scores (B, n) float64.
    """
    b = len(seeds)
    if rng is None:
        rng = np.stack([seat_rng_words(s, num_players) for s in seeds]) if b else \
            np.zeros((0, num_players, 4), np.int64)
    elif not (isinstance(rng, np.ndarray) and rng.dtype == np.int64
              and rng.shape == (b, num_players, 4)):
        got = rng.shape if isinstance(rng, np.ndarray) else type(rng).__name__
        raise ValueError(f"rng must be an int64 array of shape ({b}, {num_players}, 4), "
                         f"got {got}")
    vec = fatezoo.make_vec(game, num_envs=b, auto_reset=False, seed=[int(s) for s in seeds],
                           num_players=num_players, **(options or {}))
    obs, mask, player = vec.reset()
    rows = np.arange(b)
    done = np.zeros(b, bool)
    truncated = np.zeros(b, bool)
    actions = np.full(b, -1, np.int64)
    lengths = np.zeros(b, np.int64)
    ask = [_asker(agent) for agent in agents]
    while not done.all():
        owner = seat_agents[rows, player]
        actions.fill(-1)
        live = ~done
        for k, agent in enumerate(agents):
            sel = np.flatnonzero(live & (owner == k))
            if not sel.size:
                continue
            words = rng[sel, player[sel]]  # a copy: written back below
            data = vec.states[sel] if agent.needs_records else obs[sel]
            actions[sel] = ask[k](data, mask[sel], words)
            rng[sel, player[sel]] = words
        # views of the env's buffers: read (above) before the next step overwrites them
        obs, mask, player, _, term, trunc = vec.step(actions, copy=False)
        lengths += live
        newly = (term | trunc) & ~done
        truncated |= trunc & newly
        done |= newly
        if progress is not None:  # every step, so a long batch's lines still come
            progress.update(int(newly.sum()))
    returns = vec.states["returns"][:, :num_players].astype(np.float32)
    if score_field is not None:
        scores = vec.states[score_field][:, :num_players].astype(np.float64)
        return returns, truncated, lengths, scores
    return returns, truncated, lengths


def played_arrays(games: int, num_players: int, score_field: str | None = None) -> list:
    """Zeroed per-game result arrays as :func:`play_games` returns them (to fill by rows)."""
    out = [np.zeros((games, num_players), np.float32), np.zeros(games, bool),
           np.zeros(games, np.int64)]
    return out + [np.zeros((games, num_players), np.float64)] if score_field else out


def play_games(game: str, agents: list, seat_agents: np.ndarray, seeds: np.ndarray,
               num_players: int, options: dict | None = None, batch: int = 256,
               progress: Progress | None = None, score_field: str | None = None,
               budget: CpuBudget | None = None, whole: int = 1, on_rows=None):
    """Play games ``batch`` at a time with :func:`play_batch`; per-game results.

    Row ``g`` of the results depends only on ``seeds[g]``, ``seat_agents[g]`` and the
    agents, so any split of the rows (batch sizes, workers) gives the same rows.

    ``budget``: once it is spent, play stops after the batch in progress and the results
    are the first games played, a multiple of ``whole`` of them (the arena's whole sets of
    seatings; a batch's games beyond the last whole set are dropped).

    ``on_rows(lo, hi, rows)``: called with each batch's rows (``rows[i][lo:hi]`` of the
    results) as soon as they are played (:mod:`.saved_games` writes them to disk).

    Returns:
        (returns (G, n) float32, truncated (G,) bool, lengths (G,) int64) and with
        ``score_field`` the final scores (G, n), as :func:`play_batch`; G is
        ``len(seeds)`` unless the budget stopped play.
    """
    out = played_arrays(len(seeds), num_players, score_field)
    for lo in range(0, len(seeds), batch):
        hi = min(lo + batch, len(seeds))
        rows = play_batch(game, agents, seat_agents[lo:hi], seeds[lo:hi], num_players,
                          options, progress, score_field=score_field)
        for array, part in zip(out, rows):
            array[lo:hi] = part
        if on_rows is not None:
            on_rows(lo, hi, rows)
        if budget is not None and hi < len(seeds) and hi >= whole and budget.over():
            return tuple(array[:hi - hi % whole] for array in out)
    return tuple(out)


def replay_game(game: str, agents: list, seating, game_seed: int, num_players: int = 2,
                options: dict | None = None):
    """Play one arena game alone, through the AEC env, as :func:`play_batch` plays it.

    Args:
        game: registered game name.
        agents: agent objects, as for :func:`play_batch`.
        seating: the index into ``agents`` of each seat's agent (a row of ``seat_agents``).
        game_seed: the game's seed (``game_seeds(arena_seed, games)[g]`` for arena game g).
        num_players: seats.
        options: further env options, as given to the arena.

    Returns:
        (returns (n,) float32 total rewards per seat, the env's ``game_record()``: a JSON-able
        record that ``fatezoo replay`` shows).
    """
    env = fatezoo.make(game, num_players=num_players, **(options or {}))
    env.reset(seed=int(game_seed))
    words = seat_rng_words(game_seed, num_players)
    while env.agents:
        name = env.agent_selection
        if env.terminations[name] or env.truncations[name]:
            env.step(None)
            continue
        seat = env.possible_agents.index(name)
        agent = agents[int(seating[seat])]
        view = env.observe(name)
        mask = view["action_mask"][None]
        w = words[seat:seat + 1]  # a view: the agent advances the seat's stream in place
        data = np.array([env.record]) if agent.needs_records else view["observation"][None]
        action = _asker(agent)(data, mask, w)
        env.step(int(action[0]))
    returns = np.asarray(env.record["returns"][:num_players], np.float32)
    return returns, env.game_record()


def run_arena(game: str, agents: list[str], games: int = 1000, num_players: int = 2,
              seed: int = 0, batch: int = 256, options: dict | None = None,
              progress: bool | None = False, prior_games: float = 1.0,
              runner=None, score_field: str | None = None,
              cpu_time_limit: float | CpuBudget | None = None,
              save_games: str | None = None) -> dict:
    """Play ``games`` games between ``agents`` and return matrices and ratings.

    Args:
        game: registered game name.
        agents: agent specs for :func:`fatezoo.agents.make_agent` (at least 2).
        games: total games, spread evenly over the balanced lineups.
        num_players: seats per game.
        seed: arena seed (per-game seeds, and from them every seat's agent stream,
            derive from it).
        batch: games played at once on the vector env.
        options: further env options (``max_turns``, ``reward``, the game's own options).
        progress: False: none; True or None: on stderr, a bar on a terminal, else a line
            every 30 seconds (so ``nohup`` runs and CI logs show it).
        prior_games: the ratings' prior: virtual drawn games of each agent against a
            virtual agent of strength 0, keeping perfect records finite (see
            :func:`fatezoo.training.ratings.fit_ratings`).
        runner: who plays the games: None plays them here (:func:`play_games`); else a
            callable ``runner(game, specs, agent_seeds, seat_agents, seeds, num_players,
            options, batch, progress, score_field=None[, on_rows])`` returning what
            :func:`play_games` returns for the agents ``make_agent(specs[i], game,
            num_players, seed=agent_seeds[i])`` and calling ``on_rows`` (given only with
            ``save_games``) as it does
            (:mod:`fatezoo.training.ray_arena` plays them on Ray workers); its optional
            ``eta_after(games, batch)`` says after how many games the progress gives an
            ETA (default: one batch).
        score_field: a record field holding each seat's score: the result then has
            ``score_margin`` (row agent -> column agent -> mean of the row seat's final
            score minus the column seat's, over their pairings).
        cpu_time_limit: CPU seconds of this process (compiling included) after which play
            stops at the end of the batch in progress, or a :class:`.progress.CpuBudget`
            shared with other work; the result then holds the first games played, in
            whole sets of seatings (at least one batch), and says it was stopped. Not
            with ``runner`` (its games run in other processes).
        save_games: a file (:mod:`.saved_games`) that every finished batch's games are
            appended to; the games already in it (a stopped run of the same arena) are
            read, not played again. The result is the unbroken arena's; ``seconds`` and
            ``cpu_seconds`` count this call's games only.

    Returns:
        A JSON-able dict: ``agents``, ``matrix`` / ``counts`` / ``ci`` (row agent ->
        column agent -> score rate / pairings / [low, high]), ``scores`` (row -> column
        -> wins + ties/2), ``wins``/``ties``/``losses`` (same shape), ``games`` (played)
        and ``games_asked``, ``stopped`` (True when the CPU time limit cut the arena),
        ``cpu_time_limit``, ``cpu_seconds`` (this process's, the whole call, compiling
        included; None with ``runner``), ``save_games`` and ``games_resumed`` (the games
        read from it), ``ratings`` (label -> rating, se, ci, theta),
        ``rating_model``,
        ``prior_games``, ``per_agent`` (games and overall
        score rate), ``lineups``, ``truncated``, ``steps``, ``seconds`` and ``outcomes``
        (``[finishing groups of agent indices, games]`` pairs, what the ratings are fitted
        to).
    """
    spec = get_spec(game)
    if isinstance(games, bool) or not isinstance(games, (int, np.integer)) or games < 1:
        raise ValueError(f"games must be a positive int, got {games!r}")
    if isinstance(batch, bool) or not isinstance(batch, (int, np.integer)) or batch < 1:
        raise ValueError(f"batch must be a positive int, got {batch!r}")
    if not spec.min_players <= num_players <= spec.max_players:
        raise ValueError(f"{game}: num_players must be in [{spec.min_players}, "
                         f"{spec.max_players}], got {num_players!r}")
    cpu_start = cpu_clock()
    budget = (cpu_time_limit if isinstance(cpu_time_limit, CpuBudget)
              else CpuBudget(cpu_time_limit))
    if runner is not None and budget.limit is not None:
        raise ValueError(NOT_WITH_RAY)
    asked = games
    specs = list(agents)
    labels = unique_labels(specs)
    agent_seeds = [int(seed) * 1000 + i for i in range(len(specs))]
    players = [make_agent(s, game, num_players=num_players, seed=agent_seeds[i])
               for i, s in enumerate(specs)]
    warm_kernels(game, num_players, options)  # before the clock and the progress bar start
    lineups = make_lineups(len(players), num_players)
    seeds = game_seeds(seed, games)
    lineup_of = np.arange(games) % len(lineups)
    table = np.asarray(lineups, np.int64)
    k = len(players)
    wins = np.zeros((k, k), np.int64)
    ties = np.zeros((k, k), np.int64)
    losses = np.zeros((k, k), np.int64)
    seat_games = np.zeros((k, num_players), np.int64)
    outcomes: Counter = Counter()
    seat_table = table[lineup_of]
    more = {} if score_field is None else {"score_field": score_field}
    played = played_arrays(games, num_players, score_field)
    saved, save = None, None
    if save_games is not None:
        header = arena_header(game, specs, num_players, seed, games, options, score_field)
        saved = SavedGames(save_games, header, played)
    have = np.zeros(games, bool) if saved is None else saved.have
    resumed = int(have.sum())
    todo = np.flatnonzero(~have)
    if saved is not None:
        def save(lo, hi, rows):
            saved.save(todo[lo:hi], rows)
    start = time.perf_counter()
    # the games of a batch end together: no ETA before the first batch (compiling included)
    desc = f"{game} arena" + (f" ({resumed} games read from {save_games})" if resumed else "")
    eta_after = getattr(runner, "eta_after", lambda g, b: min(b, g))(len(todo), batch)
    bar = ProgressReport(len(todo), desc, enabled=progress, unit="games",
                         eta_after=max(eta_after, 1), time_left=budget.left)
    try:
        if runner is None:
            rows = play_games(game, players, seat_table[todo], seeds[todo], num_players,
                              options, batch, bar, **more, budget=budget, whole=len(lineups),
                              on_rows=save)
        else:
            saving = {} if save is None else {"on_rows": save}  # else a runner needs none
            rows = runner(game, specs, agent_seeds, seat_table[todo], seeds[todo],
                          num_players, options, batch, bar, **more, **saving)
    finally:
        bar.close()
        if saved is not None:
            saved.close()
    for array, part in zip(played, rows):
        array[todo[:len(part)]] = part
    have[todo[:len(rows[0])]] = True
    if not have.all():  # the CPU time limit stopped play: the first games, in whole sets
        games = int(np.argmin(have))
        games -= games % len(lineups)
    returns, trunc, lengths = (array[:games] for array in played[:3])
    margins = np.zeros((k, k))
    truncated = int(trunc.sum())
    for g in range(games):
        seats = tuple(int(a) for a in seat_table[g])
        ret = returns[g]
        for s, a in enumerate(seats):
            seat_games[a, s] += 1
        for s, t in itertools.permutations(range(num_players), 2):
            a, b = seats[s], seats[t]
            if a == b:
                continue
            if score_field is not None:
                margins[a, b] += played[3][g, s] - played[3][g, t]
            if ret[s] > ret[t]:
                wins[a, b] += 1
            elif ret[s] == ret[t]:
                ties[a, b] += 1
            else:
                losses[a, b] += 1
        outcomes[finishing_groups(seats, ret)] += 1
    seconds = time.perf_counter() - start
    cpu_seconds = None if runner is not None else cpu_clock() - cpu_start  # Ray: elsewhere
    ratings = fit_outcomes(labels, outcomes, prior_games)
    counts = wins + ties + losses
    score = wins + 0.5 * ties
    matrix, ci, cnt, sc = {}, {}, {}, {}
    w, t_, l_ = {}, {}, {}
    for i, a in enumerate(labels):
        matrix[a], ci[a], cnt[a], sc[a], w[a], t_[a], l_[a] = {}, {}, {}, {}, {}, {}, {}
        for j, b in enumerate(labels):
            if i == j:
                continue
            n = int(counts[i, j])
            matrix[a][b] = float(score[i, j] / n) if n else None
            ci[a][b] = list(wilson_interval(float(score[i, j]), n))
            cnt[a][b] = n
            sc[a][b] = float(score[i, j])
            w[a][b], t_[a][b], l_[a][b] = int(wins[i, j]), int(ties[i, j]), int(losses[i, j])
    if score_field is not None:
        mean = np.divide(margins, counts, out=np.full((k, k), np.nan), where=counts > 0)
        more["score_margin"] = {a: {b: None if np.isnan(mean[i, j]) else float(mean[i, j])
                                    for j, b in enumerate(labels) if j != i}
                                for i, a in enumerate(labels)}
    per_agent = {}
    for i, a in enumerate(labels):
        n = int(counts[i].sum())
        s = float(score[i].sum())
        per_agent[a] = {"games": int(seat_games[i].sum()), "seat_games": seat_games[i].tolist(),
                        "pairings": n, "score": s / n if n else None,
                        "ci": list(wilson_interval(s, n))}
    return {
        "game": game, "num_players": int(num_players), "games": int(games),
        "games_asked": int(asked), "stopped": games < asked,
        "cpu_time_limit": budget.limit, "cpu_seconds": cpu_seconds, "seed": int(seed),
        "save_games": None if save_games is None else str(save_games),
        "games_resumed": resumed,
        "batch": int(batch), "options": dict(options or {}), "agents": labels,
        "lineups": [[labels[a] for a in lu] for lu in lineups],
        "matrix": matrix, "ci": ci, "counts": cnt, "scores": sc,
        "wins": w, "ties": t_, "losses": l_, "per_agent": per_agent,
        "ratings": ratings, "rating_model": RATING_MODEL, "prior_games": float(prior_games),
        "truncated": truncated, "steps": int(lengths.sum()), "seconds": seconds,
        "game_length": {"median": float(np.median(lengths)), "mean": float(lengths.mean()),
                        "min": int(lengths.min()), "max": int(lengths.max())},
        "outcomes": [[[list(group) for group in groups], int(n)]
                     for groups, n in sorted(outcomes.items())],
        **more,
    }


def _timing(result: dict) -> str:
    """The run's seconds, and its speed unless some games were read from a saved file."""
    resumed = result.get("games_resumed", 0)
    if resumed:
        return (f"{resumed:,} games read from {result['save_games']}, the rest played in "
                f"{result['seconds']:.1f}s")
    speed = result["steps"] / max(result["seconds"], 1e-9)
    return f"{result['seconds']:.1f}s ({speed:,.0f} steps/s)"


def format_result(result: dict) -> str:
    """The arena result as text: win-rate matrix with 95% CIs and counts, then ratings."""
    labels = result["agents"]
    stopped = ([f"stopped by --cpu-time-limit {result['cpu_time_limit']:g} after "
                f"{result['cpu_seconds']:.0f} CPU s: {result['games']:,} of the "
                f"{result['games_asked']:,} games asked (the first ones, whole sets of "
                "seatings)"] if result.get("stopped") else [])
    lines = [*stopped,
             f"{result['game']}: {result['games']} games, {result['num_players']} players, "
             f"seed {result['seed']}, {len(result['lineups'])} lineups, "
             f"{result['truncated']} truncated, " + _timing(result),
             "game length (decisions asked of the agents): median {median:g}, mean {mean:.1f}, "
             "min {min}, max {max}".format(**result["game_length"]),
             "",
             "win rate of row vs column (ties count half), 95% Wilson CI, pairings:"]
    cells = {}
    for a in labels:
        for b in labels:
            if a == b:
                cells[a, b] = "-"
                continue
            m = result["matrix"][a][b]
            lo, hi = result["ci"][a][b]
            n = result["counts"][a][b]
            cells[a, b] = ("n/a" if m is None else
                           f"{100 * m:5.1f}% [{100 * lo:4.1f}, {100 * hi:4.1f}] n={n}")
    first = max(len(a) for a in labels + ["agent"])
    widths = {b: max(len(b), *(len(cells[a, b]) for a in labels)) for b in labels}
    lines.append("  ".join(["agent".ljust(first)] + [b.rjust(widths[b]) for b in labels]))
    for a in labels:
        lines.append("  ".join([a.ljust(first)] + [cells[a, b].rjust(widths[b]) for b in labels]))
    lines += ["", f"ratings ({result['rating_model']} fit to all games at once, Elo scale: "
                  "400 points = 10:1 odds):"]
    lines.append(f"{'agent'.ljust(first)}  {'rating':>7}  {'95% CI':>15}  {'score':>6}  games")
    ranked = sorted(labels, key=lambda a: -result["ratings"][a]["rating"])
    for a in ranked:
        r = result["ratings"][a]
        lo, hi = r["ci"]
        ci = f"[{lo:.0f}, {hi:.0f}]" if math.isfinite(lo) and math.isfinite(hi) else "-"
        pa = result["per_agent"][a]
        score = "-" if pa["score"] is None else f"{100 * pa['score']:.1f}%"
        lines.append(f"{a.ljust(first)}  {r['rating']:7.0f}  {ci:>15}  {score:>6}  "
                     f"{pa['games']}")
    return "\n".join(lines)


def split_agents(text: str) -> list[str]:
    """Split an ``--agents`` list on commas; ``key=value`` parts continue the agent before.

    >>> split_agents("ismcts:sims=200,rollout=random,heuristic,ppo:runs/a.zip")
    ['ismcts:sims=200,rollout=random', 'heuristic', 'ppo:runs/a.zip']
    """
    agents: list[str] = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        head = part.split("=", 1)[0]
        if agents and "=" in part and ":" not in head and ":" in agents[-1]:
            agents[-1] += "," + part
        else:
            agents.append(part)
    return agents


def plot_result(result: dict, path: str) -> None:
    """Save the win-rate matrix (with 95% CIs) and the ratings as one PNG at ``path``."""
    try:
        import matplotlib
    except ImportError as e:  # pragma: no cover - depends on the install
        raise ImportError(f"--plot needs matplotlib: {install_hint('train')}") from e
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    labels = result["agents"]
    k = len(labels)
    short = {a: a if len(a) <= 28 else a[:12] + "..." + a[-13:] for a in labels}
    grid = np.full((k, k), np.nan)
    for i, a in enumerate(labels):
        for j, b in enumerate(labels):
            if i != j and result["matrix"][a][b] is not None:
                grid[i, j] = result["matrix"][a][b]
    fig, (ax, bx) = plt.subplots(1, 2, figsize=(6 + 1.6 * k, 2.5 + 0.9 * k),
                                 gridspec_kw={"width_ratios": [1.3, 1]})
    im = ax.imshow(grid, vmin=0.0, vmax=1.0, cmap="RdYlGn")
    for i, a in enumerate(labels):
        for j, b in enumerate(labels):
            if i == j or np.isnan(grid[i, j]):
                continue
            lo, hi = result["ci"][a][b]
            ax.text(j, i, f"{100 * grid[i, j]:.1f}%\n[{100 * lo:.0f}, {100 * hi:.0f}]",
                    ha="center", va="center", fontsize=8)
    ax.set_xticks(range(k), [short[a] for a in labels], rotation=30, ha="right", fontsize=8)
    ax.set_yticks(range(k), [short[a] for a in labels], fontsize=8)
    ax.set_xlabel("opponent")
    ax.set_title("win rate of row vs column (95% CI)", fontsize=9)
    fig.colorbar(im, ax=ax, fraction=0.046)
    ranked = sorted(labels, key=lambda a: result["ratings"][a]["rating"])
    mid = np.array([result["ratings"][a]["rating"] for a in ranked])
    lo = np.array([result["ratings"][a]["ci"][0] for a in ranked])
    hi = np.array([result["ratings"][a]["ci"][1] for a in ranked])
    err = np.nan_to_num(np.vstack([mid - lo, hi - mid]), posinf=0.0)
    bx.errorbar(mid, range(k), xerr=err, fmt="o", color="tab:blue", capsize=4)
    bx.set_yticks(range(k), [short[a] for a in ranked], fontsize=8)
    bx.set_xlabel("rating (Elo scale, fitted to all games), 95% CI")
    bx.set_title(f"{result['game']}: {result['games']} games", fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
