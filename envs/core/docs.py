"""Doc-page tables generated from a game's ``OBS_LAYOUT`` and action names.

The meta table also states what every game shares: render modes, the mask of an ended
game (AEC: PettingZoo's dead-agent rule; vector and gym envs: every action legal and
ignored) and the illegal-action policies.

A game's ``env.py`` docstring holds these tables between ``.. meta-table``,
``.. obs-table`` or ``.. action-table`` markers and ``.. end``;
``scripts/gen_docs.py`` rewrites them and a test fails when they drift from the code.
"""

from __future__ import annotations

import re


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
