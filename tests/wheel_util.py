"""Build the fatezoo wheel from a clean copy of the repository and install it elsewhere.

Used by the packaging tests (and reusable for "a new game folder copied into envs/
ships and registers"): :func:`build_and_install` copies the repository's files (tracked
and untracked-but-not-ignored, so no stale ``build/`` or egg-info), optionally adds an
extra game folder under ``envs/``, builds the wheel offline (``--no-build-isolation``)
and installs it with ``--no-deps --target``. :func:`run_installed` runs Python code in
a subprocess that imports fatezoo from that target, not from the editable checkout.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def repo_files(root: Path = ROOT) -> list[Path]:
    """Paths (relative) of the repository's tracked and untracked, not ignored files."""
    out = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
                         cwd=root, capture_output=True, check=True)
    return [Path(p) for p in out.stdout.decode().split("\0") if p and (root / p).is_file()]


def copy_repo(dest: Path, extra_game: Path | None = None, game_name: str | None = None) -> Path:
    """Copy the repository to ``dest``; with ``extra_game``, also to ``envs/<game_name>``."""
    for rel in repo_files():
        target = dest / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / rel, target)
    if extra_game is not None:
        name = game_name or Path(extra_game).name
        shutil.copytree(extra_game, dest / "envs" / name,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    return dest


def build_and_install(tmp: Path, extra_game: Path | None = None,
                      game_name: str | None = None) -> tuple[Path, Path]:
    """Build the wheel from a copy of the repo (plus ``extra_game``); install it.

    Returns ``(wheel path, install target dir)``. Raises AssertionError with pip's
    output if a step fails.
    """
    src = copy_repo(tmp / "src", extra_game, game_name)
    dist, target = tmp / "dist", tmp / "site"
    env = dict(os.environ, PIP_DISABLE_PIP_VERSION_CHECK="1", PIP_NO_INDEX="1")
    out = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps",
                          "--no-build-isolation", "-w", str(dist), str(src)],
                         capture_output=True, text=True, env=env)
    assert out.returncode == 0, f"pip wheel failed:\n{out.stdout[-2000:]}\n{out.stderr[-3000:]}"
    wheel = next(dist.glob("fatezoo-*.whl"))
    out = subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "--target",
                          str(target), str(wheel)], capture_output=True, text=True, env=env)
    assert out.returncode == 0, f"pip install failed:\n{out.stdout[-2000:]}\n{out.stderr[-3000:]}"
    return wheel, target


def run_installed(target: Path, code: str, timeout: float = 600) -> str:
    """Run ``code`` in a fresh interpreter importing fatezoo from ``target``; return stdout.

    ``target`` goes first on ``sys.path`` and the working directory is ``target``'s
    parent, so neither the checkout nor its editable install is imported (the code
    may check ``fatezoo.__file__``).
    """
    prelude = f"import sys; sys.path.insert(0, {str(target)!r})\n"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    out = subprocess.run([sys.executable, "-c", prelude + code], capture_output=True, text=True,
                         cwd=target.parent, env=env, timeout=timeout)
    assert out.returncode == 0, (f"installed fatezoo failed:\n{out.stdout[-2000:]}\n"
                                 f"{out.stderr[-4000:]}")
    return out.stdout
