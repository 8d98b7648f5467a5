"""Packages and package data found from the folders (pyproject.toml holds the rest).

A game is one folder ``envs/<game>/``: it is shipped as ``fatezoo.envs.<game>`` (with
its subpackages), its ``RULES.md`` and everything under its ``data/`` folder, without
a line per game anywhere.
"""

from pathlib import Path

from setuptools import setup

HERE = Path(__file__).resolve().parent
ROOTS = {  # import package -> folder
    "fatezoo": "src/fatezoo",
    "fatezoo.envs": "envs",
    "fatezoo.agents": "agents",
    "fatezoo.training": "training",
}
GAME_FILES = ["RULES.md", "data/*", "data/**/*"]
# the shipped baseline policies (``baseline`` agent spec): weights and training command
AGENT_FILES = ["baselines/*.npz", "baselines/*.json"]


def discover():
    """Return ``(packages, package_dir, package_data)`` for every package under ROOTS."""
    packages, package_dir, package_data = [], dict(ROOTS), {}
    for name, folder in ROOTS.items():
        root = HERE / folder
        packages.append(name)
        # every folder holding Python files is a package (an ``__init__.py`` or not, so a
        # game's ``rules/`` split into modules ships too)
        for path in sorted(root.rglob("*.py")):
            rel = path.parent.relative_to(root)
            if rel.parts and "__pycache__" not in rel.parts:
                sub = ".".join((name,) + rel.parts)
                if sub not in packages:
                    packages.append(sub)
    for game in sorted(p for p in packages if p.count(".") == 2 and p.startswith("fatezoo.envs.")
                       and p != "fatezoo.envs.core"):
        package_data[game] = GAME_FILES
    package_data["fatezoo.agents"] = AGENT_FILES
    return packages, package_dir, package_data


PACKAGES, PACKAGE_DIR, PACKAGE_DATA = discover()

setup(packages=PACKAGES, package_dir=PACKAGE_DIR, package_data=PACKAGE_DATA)
