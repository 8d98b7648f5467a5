"""Play a game in the terminal: a person in one seat, fatezoo agents in the others.

The person sees the game from their own seat only (others' hidden cards are redacted by
the game's ``render_ansi(record, seat)``), picks an action id from the listed legal
actions, types ``help`` (or ``?``) for the commands and the display legend, and can type
``q`` (or end the input) to quit. Bad input gets a message and a new prompt; nothing is
guessed.

>>> import io
>>> from fatezoo.training.play import play
>>> out = io.StringIO()
>>> play("fatefell", seed=0, stdin=io.StringIO("q"), stdout=out)
0
"""

from __future__ import annotations

import sys

import numpy as np

import fatezoo
from fatezoo.agents import make_agent
from fatezoo.agents.human import HumanAgent, Quit, game_text
from fatezoo.envs.core.registry import get_spec

from .progress import warm_kernels


def play(game: str, num_players: int = 2, seat: int = 0, opponent: str = "heuristic",
         seed: int | None = None, options: dict | None = None, stdin=None, stdout=None,
         save: str | None = None) -> int:
    """Play one game with a person in ``seat``, reading actions from ``stdin``.

    Args:
        game: registered game name.
        num_players: seats at the table.
        seat: the person's seat.
        opponent: agent spec for every other seat (``random``, ``heuristic``,
            ``ismcts:sims=200``, ``ppo:PATH``).
        seed: game seed (None: a fresh one, printed so the game can be replayed).
        options: further env options (``max_turns``, ``reward``, the game's own).
        stdin: input stream (default ``sys.stdin``).
        stdout: output stream (default ``sys.stdout``).
        save: if given, write the game record JSON (for ``fatezoo replay``) there at the end.

    Returns:
        0 when the game ended or the person quit.
    """
    stdin = sys.stdin if stdin is None else stdin
    stdout = sys.stdout if stdout is None else stdout
    spec = get_spec(game)
    env = fatezoo.make(game, num_players=num_players, **(options or {}))
    n = len(env.possible_agents)
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
        raise ValueError(f"{game}: seat must be in [0, {n}), got {seat!r}")
    agent = make_agent(opponent, game, num_players=n, seed=seed)
    warm_kernels(game, n, options)  # a first use compiles here, and says so
    env.reset(seed=seed)
    me = env.possible_agents[seat]
    record = env.unwrapped.record

    def say(text=""):
        stdout.write(text + "\n")
        stdout.flush()

    say(f"{game}: you are {me} (seat {seat}) against {n - 1} {opponent} agent(s); "
        f"seed {env.unwrapped.game_record()['seed']}. Type an action id, help (or ?) to "
        "explain the display, card NAME for a card's text, q to quit.")
    win = game_text(spec, "how_to_win")
    if win:
        say(f"how to win: {win}")
    say("(the other players' actions are named from their own seats)")
    human = HumanAgent(game, stdin=stdin, stdout=stdout)
    quit_ = False
    for name in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        mask = obs["action_mask"]
        if name != me:
            if agent.needs_records:
                a = int(agent.act_records(np.array([record]), mask[None])[0])
            else:
                a = int(agent.act(obs["observation"], mask))
            env.step(a)
            say(f"{name}: {spec.action_names[a]}")
            continue
        try:
            a = human.ask(record, mask)
        except Quit:
            quit_ = True
            break
        env.step(a)
        say(f"{name} (you): {spec.action_names[a]}")
        if not (record["terminated"] or record["truncated"]) \
                and int(record["current_player"]) != seat:
            say(spec.render_ansi(record, seat))
    if not quit_:
        say()
        say(spec.render_ansi(record, seat))
        returns = record["returns"][:n]
        say("result: " + ", ".join(f"{p}{' (you)' if p == me else ''} {float(r):+.3g}"
                                   for p, r in zip(env.possible_agents, returns)))
        best = returns.max()
        winners = [p for p, r in zip(env.possible_agents, returns) if r == best]
        if record["truncated"]:
            say("the game was truncated (max_turns)")
        elif len(winners) == 1:
            say("you win!" if winners[0] == me else f"{winners[0]} wins")
        else:
            say(f"tie between {', '.join(winners)}")
    if save:
        env.unwrapped.save_game(save)
        say(f"game record written to {save} (fatezoo replay {save} --seat {seat})")
    return 0
