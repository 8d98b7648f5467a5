"""Named observation layouts: a list of (name, size, meaning) -> name -> slice."""

from __future__ import annotations


def build_layout(fields):
    """Return ``(layout, size, docs)`` for ``fields`` = [(name, size, meaning), ...].

    ``layout`` maps each name to its slice of the observation vector and ``docs`` maps
    it to its meaning, so docs tables are generated from the same list as the kernel.
    """
    layout, docs, start = {}, {}, 0
    for name, size, meaning in fields:
        if name in layout:
            raise ValueError(f"duplicate observation field {name!r}")
        layout[name] = slice(start, start + size)
        docs[name] = meaning
        start += size
    return layout, start, docs
