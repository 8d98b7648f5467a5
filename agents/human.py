"""A person at the terminal as an agent (used by ``fatezoo play``).

The person sees the game from their own seat only (others' hidden cards are redacted by
the game's ``render_ansi(record, seat)``), picks an action id from the listed legal
actions, can type ``help`` (or ``?``) for the commands and the game's display legend,
``card NAME`` for a card's cost and text (the game's card glossary, as on its doc page),
and ``q`` (or end the input) to quit, which raises :class:`Quit`. Bad input gets a
message and a new prompt; nothing is guessed.

A game explains itself through two strings of its spec (``how_to_win``,
``legend``); a game without
them still plays, with a generic help.
"""

from __future__ import annotations

import sys

import numpy as np

from fatezoo.envs.core.docs import card_glossary, find_card
from fatezoo.envs.core.registry import get_spec

from .base import Agent

PROMPT = "action> "


class Quit(Exception):
    """The person asked to stop (``q``); :class:`EndOfInput` when the input ran out."""

    def __init__(self, message: str = "human agent: the person quit"):
        super().__init__(message)


class EndOfInput(Quit):
    """The person's input ended (stdin closed) while an action was asked for."""

    def __init__(self, message: str = "human agent: end of input (stdin closed) while "
                                      "asking for an action"):
        super().__init__(message)


HELP_WORDS = ("help", "?", "h")


def game_text(spec, name: str) -> str | None:
    """The game's ``name`` text (``how_to_win``, ``legend``), or None if it has none."""
    value = getattr(spec, name, "")
    return value if isinstance(value, str) and value.strip() else None


def help_text(spec) -> str:
    """What ``help`` shows: the prompt's commands, the display legend, how to win."""
    lines = ["commands:",
             "  <id>     play the legal action with that id (listed before each prompt)",
             "  help, ?  this help",
             "  card NAME  a card's cost and text (part of its name will do: card sw cha)",
             "  q        quit (so does the end of the input)"]
    legend = game_text(spec, "legend")
    if legend:
        lines += ["", legend]
    win = game_text(spec, "how_to_win")
    if win:
        lines += ["", f"how to win: {win}"]
    return "\n".join(lines)


def card_text(spec, query: str) -> str:
    """What ``card NAME`` shows: each matching card's name, cost and text, or why none."""
    if not card_glossary(spec):
        return f"{spec.name} has no card glossary"
    if not query.strip():
        return "type card NAME (part of a name will do)"
    found = find_card(spec, query)
    if not found:
        return f"no card named {query.strip()!r}; fatezoo docs {spec.name} lists them all"
    if len(found) > 8:
        names = ", ".join(n for n, _ in found[:8])
        return f"{len(found)} cards match {query.strip()!r} ({names}, ...): type more of the name"
    return "\n".join(f"{n}: {t}" for n, t in found)


def legal_listing(spec, mask) -> str:
    """The legal actions of ``mask`` as lines ``  id  name``."""
    return "\n".join(f"  {a:>3}  {spec.action_names[a]}" for a in np.flatnonzero(mask))


def parse_choice(text: str, mask) -> tuple[int | None, str | None]:
    """Parse one line of input against the legal ``mask``.

    Args:
        text: the line typed (without the newline).
        mask: the int8 legal-action mask.

    Returns:
        (action, None) for a legal action id, or (None, message) explaining what is wrong.
    """
    s = text.strip()
    legal = np.flatnonzero(mask).tolist()
    if not s:
        return None, f"please type an action id, one of {legal} (help, q quits)"
    try:
        a = int(s)
    except ValueError:
        return None, f"not an action id: {s!r}; type one of {legal} (help, q quits)"
    if not 0 <= a < len(mask):
        return None, f"action {a} is out of range [0, {len(mask)}); type one of {legal}"
    if not mask[a]:
        return None, f"action {a} is not legal now; type one of {legal}"
    return a, None


class HumanAgent(Agent):
    """Asks a person for each action, showing the game from the person's seat.

    Args:
        game: registered game name.
        stdin: input stream (default ``sys.stdin``).
        stdout: output stream (default ``sys.stdout``).
    """

    name = "human"
    needs_records = True

    def __init__(self, game: str, stdin=None, stdout=None):
        super().__init__(None)
        self.spec = get_spec(game)
        self.stdin = stdin
        self.stdout = stdout

    def say(self, text: str = "") -> None:
        """Write one line to the person."""
        out = self.stdout or sys.stdout
        out.write(text + "\n")
        out.flush()

    def ask(self, record, mask) -> int:
        """Show ``record`` from its current player's seat and read a legal action."""
        stdin = self.stdin or sys.stdin
        out = self.stdout or sys.stdout
        seat = int(record["current_player"])
        self.say()
        self.say(self.spec.render_ansi(record, seat))
        self.say("legal actions:")
        self.say(legal_listing(self.spec, mask))
        while True:
            out.write(PROMPT)
            out.flush()
            line = stdin.readline()
            if not line:
                self.say()
                self.say("end of input: quitting")
                raise EndOfInput
            if line.strip().lower() in ("q", "quit", "exit"):
                self.say("quitting")
                raise Quit
            if line.strip().lower() in HELP_WORDS:
                self.say(help_text(self.spec))
                self.say("legal actions:")
                self.say(legal_listing(self.spec, mask))
                continue
            word, _, rest = line.strip().partition(" ")
            if word.lower() == "card":
                self.say(card_text(self.spec, rest))
                continue
            a, err = parse_choice(line, mask)
            if err is None:
                return a
            self.say(f"error: {err}")

    def act_records(self, records, masks, rng=None):
        """One action per record, asked in turn (``rng`` is ignored: people choose)."""
        return np.array([self.ask(r, m) for r, m in zip(records, masks)], np.int64)

    def act_batch(self, obs, masks, rng=None):
        """A person needs the rendered game: use :meth:`act_records`."""
        raise TypeError("HumanAgent shows the game record: call act_records(records, masks)")
