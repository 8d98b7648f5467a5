"""Doc-page tables generated from a game's ``OBS_LAYOUT`` and action names.

A game's ``env.py`` docstring holds these tables between ``.. obs-table`` /
``.. action-table`` markers and ``.. end``; ``scripts/gen_docs.py`` rewrites them and a
test fails when they drift from the code.
"""

from __future__ import annotations

import re


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
    for marker, table in (("obs-table", obs_table(spec)), ("action-table", action_table(spec))):
        pattern = re.compile(rf"(\.\. {marker}\n)(.*?)(\.\. end)", re.S)
        if not pattern.search(doc):
            raise ValueError(f"{spec.name}: doc page has no '.. {marker}' ... '.. end' block")
        doc = pattern.sub(lambda m, t=table: m.group(1) + t + "\n" + m.group(3), doc)
    return doc
