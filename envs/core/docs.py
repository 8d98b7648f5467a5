"""Doc-page tables generated from a game's ``OBS_LAYOUT`` and action names.

The meta table also states what every game shares: render modes, the mask of an ended
game (AEC: PettingZoo's dead-agent rule; vector and gym envs: every action legal and
ignored) and the illegal-action policies.

A game's ``env.py`` docstring holds these tables between ``.. meta-table``,
``.. obs-table`` or ``.. action-table`` markers and ``.. end``;
``scripts/gen_docs.py`` rewrites them and a test fails when they drift from the code.

Each game option's meaning is declared once, in the ``Args:`` section of the game's
``configure`` docstring; :func:`option_docs` reads it for ``--help``, ``fatezoo list`` and
the doc page. :func:`game_page` is the page ``help()`` and ``fatezoo docs GAME`` show: the
``env.py`` docstring, the options with their meanings and the card glossary (a game's
``render.cards()``: card name -> cost and text).
"""

from __future__ import annotations

import csv
import functools
import importlib
import inspect
import re
from pathlib import Path


def install_hint(extra: str) -> str:
    """How to install the ``extra``: from PyPI, and from a checkout as the README does."""
    return (f"pip install 'fatezoo[{extra}]' (from PyPI) or, in a checkout, "
            f"pip install -c constraints.txt \".[{extra}]\"")


def meta_table(spec) -> str:
    """Markdown table of the env's import, spaces and agents."""
    rows = [
        "| | |", "|---|---|",
        f"| Import | `from fatezoo.envs import {spec.name}_v0` |",
        f"| Actions | Discrete({spec.num_actions}) |",
        "| Parallel API | No; PettingZoo's `turn_based_aec_to_parallel` wraps it |",
        f"| Agents | `player_0` .. `player_{{n-1}}`, n in {spec.min_players}-{spec.max_players} |",
        f"| Observation | Dict: `observation` Box(-1, 1, ({spec.obs_size},), float32), "
        f"`action_mask` Box(0, 1, ({spec.num_actions},), int8) |",
        f"| State | Box(-1, 1, ({spec.state_size},), float32) |",
        "| Render modes | `ansi`, `human`, `rgb_array` (the SVG view as (H, W, 3) uint8) |",
        "| Ended game | AEC: the mask is all zeros and the agents step with None (PettingZoo's "
        "rule); vector and gym envs: every action is marked legal and is ignored |",
        "| Illegal action | `illegal='raise'` (default) raises; `illegal='lose'` ends the "
        "game with -1 for the offender (for mask-blind tools that sample actions) |",
        f"| Rules | `envs/{spec.name}/RULES.md` |",
    ]
    return "\n".join(rows)


def obs_table(spec) -> str:
    """Markdown table ``Index | Name | Meaning | Values`` of the observation."""
    rows = ["| Index | Name | Meaning | Values |", "|---|---|---|---|"]
    for name, sl in spec.obs_layout.items():
        idx = f"{sl.start}" if sl.stop - sl.start == 1 else f"{sl.start}-{sl.stop - 1}"
        rows.append(f"| {idx} | {name} | {spec.obs_docs[name]} | [0, 1] |")
    return "\n".join(rows)


def action_table(spec) -> str:
    """Markdown table ``ID | Meaning`` of every action."""
    rows = ["| ID | Meaning |", "|---|---|"]
    rows += [f"| {a} | {name} |" for a, name in enumerate(spec.action_names)]
    return "\n".join(rows)


def fill(doc: str, spec) -> str:
    """Return ``doc`` with its generated tables rewritten from ``spec``."""
    tables = (("meta-table", meta_table(spec)), ("obs-table", obs_table(spec)),
              ("action-table", action_table(spec)))
    for marker, table in tables:
        pattern = re.compile(rf"(\.\. {marker}\n)(.*?)(\.\. end)", re.S)
        if not pattern.search(doc):
            raise ValueError(f"{spec.name}: doc page has no '.. {marker}' ... '.. end' block")
        doc = pattern.sub(lambda m, t=table: m.group(1) + t + "\n" + m.group(3), doc)
    return doc


_ARG = re.compile(r"^(\w+)(?: \([^)]*\))?:\s*(.*)$")


def option_docs(spec) -> dict:
    """Option -> its meaning, from the ``Args:`` section of ``spec.configure``'s docstring.

    Raises ValueError naming the first option of ``configure``'s signature that the
    section does not explain.
    """
    lines = inspect.getdoc(spec.configure).splitlines() if spec.configure.__doc__ else []
    docs, name, indent = {}, None, None
    inside = False
    for line in lines:
        if line.strip() == "Args:":
            inside, name = True, None
            continue
        if not inside:
            continue
        if line.strip() and not line.startswith(" "):
            break  # the next section
        body = line.strip()
        here = len(line) - len(line.lstrip())
        m = _ARG.match(body)
        if m and (indent is None or here <= indent):
            indent, name = here, m.group(1)
            docs[name] = m.group(2)
        elif name and body:
            docs[name] += " " + body
    missing = [o for o in spec.option_defaults if o not in docs]
    if missing:
        raise ValueError(f"{spec.name}: configure's docstring has no 'Args:' entry for "
                         f"option {missing[0]!r}")
    return {o: docs[o] for o in spec.option_defaults}


def options_table(spec) -> str:
    """Markdown table ``Option | Default | Meaning`` of the game's own options."""
    docs = option_docs(spec)
    if not docs:
        return "No options of its own (the common ones: `num_players`, `max_turns`, `reward`)."
    rows = ["| Option | Default | Meaning |", "|---|---|---|"]
    rows += [f"| `{o}` | `{d!r}` | {docs[o]} |" for o, d in spec.option_defaults.items()]
    return "\n".join(rows)


def card_glossary(spec) -> dict:
    """Card name -> its cost and text (the game's ``render.cards()``; empty without one)."""
    try:
        render = importlib.import_module(f"fatezoo.envs.{spec.name}.render")
    except ImportError:
        return {}
    cards = getattr(render, "cards", None)
    return dict(cards()) if cards is not None else {}


def find_card(spec, name: str) -> list:
    """``(name, text)`` of the cards whose name is ``name`` or starts with it (any case).

    An exact match alone wins over prefixes; words may be given in part
    (``"sw cha"`` finds "Sword of Chaos").
    """
    cards = card_glossary(spec)
    want = name.strip().lower()
    exact = [(n, t) for n, t in cards.items() if n.lower() == want]
    if exact:
        return exact
    words = want.split()
    return [(n, t) for n, t in cards.items()
            if all(any(w.startswith(x) for w in n.lower().split()) for x in words)
            or n.lower().startswith(want)]


def game_page(spec) -> str:
    """The game's doc page: ``env.py``'s docstring, its options and its card glossary."""
    module = importlib.import_module(f"fatezoo.envs.{spec.name}.env")
    text = inspect.cleandoc(module.__doc__ or spec.name)
    text = re.sub(r"^\.\. (meta-table|obs-table|action-table|end)\n", "", text, flags=re.M)
    parts = [text, "## Options\n\n"
             + options_table(spec)]
    cards = card_glossary(spec)
    if cards:
        parts.append("## Cards\n\n" + "\n".join(f"- **{n}**: {t}" for n, t in cards.items()))
    return "\n\n".join(parts) + "\n"


@functools.lru_cache(maxsize=None)
def _rows(path: str) -> tuple:
    with open(path, newline="") as f:
        return tuple(csv.DictReader(f))


def csv_cards(folder, files: dict) -> dict:
    """Card name -> text from a game's ``data/`` CSVs, for its ``render.cards()``.

    Args:
        folder: the game's data folder.
        files: CSV file stem -> ``describe(row) -> str`` (the row's cost and text); a
            name already seen (a card in two sets) keeps its first text.
    """
    out = {}
    for stem, describe in files.items():
        for row in _rows(str(Path(folder) / f"{stem}.csv")):
            out.setdefault(row["name"], describe(row))
    return out


def attach_page(spec, alias=None) -> str:
    """Make :func:`game_page` what ``help()`` shows for the game; returns the page.

    It becomes the docstring of the game's AEC class (``help(fatezoo.make(GAME))``), of its
    ``env()`` (``fatezoo.envs.GAME.env`` is that function, which hides the ``env.py``
    module) and of the generated ``fatezoo.envs.GAME_v0`` module ``alias``.
    """
    page = game_page(spec)
    package = importlib.import_module(f"fatezoo.envs.{spec.name}")
    for name in ("raw_env", "env"):
        obj = getattr(package, name, None)
        if obj is not None:
            obj.__doc__ = page
    if alias is not None:
        alias.__doc__ = page
    return page
