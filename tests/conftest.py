import json
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# The session's numba cache: built one game per process before the workers start (below)
GAME_CACHE = ROOT / ".test-numba-cache"
DIGESTS_ENV = "FATEZOO_TEST_GAME_DIGESTS"  # where that build's per-game digests are


def pytest_addoption(parser):
    parser.addoption("--long", action="store_true", default=False,
                     help="run long fuzz and soak tests (100,000 games per player count)")


def pytest_configure(config):
    config.addinivalue_line("markers", "long: only with --long")
    if _builds_game_cache(config):
        build_game_cache(int(config.getoption("numprocesses")))


def _builds_game_cache(config) -> bool:
    """Whether this is the controller of xdist workers in a run of the whole suite.

    Such a run first builds every game's kernels one game per process into ``GAME_CACHE``
    (``tests/test_compile_layer.py`` then checks every game in one process on that cache),
    and its workers and notebooks run on that cache, so that the suite compiles each game
    once. A user's own ``NUMBA_CACHE_DIR`` is left alone.
    """
    if hasattr(config, "workerinput") or "NUMBA_CACHE_DIR" in os.environ:
        return False
    jobs = config.getoption("numprocesses", None)
    if not isinstance(jobs, int) or jobs < 1:
        return False
    whole = {ROOT / "tests", ROOT / "tests" / "test_compile_layer.py"}
    args = [Path(a.split("::")[0]).resolve() for a in config.args] or [ROOT / "tests"]
    return any(a in whole for a in args)


def game_digests(games, cache, jobs: int, done=None) -> dict:
    """Every entry point of each game run in a fresh process on ``cache``, ``jobs`` at once.

    Returns game -> the entry points' digests, or ``{"error": ...}`` for a process that
    failed (the compile-layer test reports it); ``done(game)`` is called as each ends.
    """
    from fatezoo.training.firstuse import ENTRY_NAMES, child

    def one(game):
        try:
            out = child(game, ENTRY_NAMES, str(cache))["digests"]
        except RuntimeError as e:
            out = {"error": str(e)}
        if done:
            done(game)
        return game, out

    with ThreadPoolExecutor(jobs) as pool:
        return dict(pool.map(one, games))


def build_game_cache(jobs: int) -> None:
    """Run every entry point of each game in a process of its own, ``jobs`` at once.

    The processes share ``GAME_CACHE`` (fresh in CI; later runs load from it), their
    digests go to ``GAME_CACHE/digests.json``, and this process's environment then points
    the workers at both.
    """
    from fatezoo.envs.core.registry import game_names, get_spec

    GAME_CACHE.mkdir(exist_ok=True)
    # the longest first, so that the two lanes end together
    games = sorted(game_names(),
                   key=lambda g: -sum(get_spec(g).evaluation.compile_seconds.values()))
    start = time.perf_counter()
    print(f"building every game's kernels one game per process, {jobs} at once, into "
          f"{GAME_CACHE.name}/ (minutes on a fresh checkout)", file=sys.stderr, flush=True)

    def done(game):
        print(f"  {game}: {time.perf_counter() - start:.0f} s", file=sys.stderr, flush=True)

    digests = game_digests(games, GAME_CACHE, jobs, done)
    path = GAME_CACHE / "digests.json"
    path.write_text(json.dumps(digests, indent=1))
    os.environ["NUMBA_CACHE_DIR"] = str(GAME_CACHE)
    os.environ[DIGESTS_ENV] = str(path)


def _game_of(item, games):
    """The game a test item is about (its ``game`` parameter, folder or notebook), or None."""
    params = getattr(getattr(item, "callspec", None), "params", {})
    if isinstance(params.get("game"), str):
        return params["game"]
    parts = item.path.parts
    if "tests" in parts and parts.index("tests") + 1 < len(parts) - 1:
        folder = parts[parts.index("tests") + 1]
        if folder in games:
            return folder
    if item.path.suffix == ".ipynb":
        return next((g for g in games if item.path.stem.endswith("_" + g)), None)
    return None


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the groups
def pytest_collection_modifyitems(config, items):
    """Tests marked ``long`` run only with ``--long``; a game's tests share an xdist group.

    Under pytest-xdist (``--dist loadgroup``) a game's tests run in one worker: a game's
    first test compiles its numba kernels (minutes in a fresh environment), so each game
    is compiled once per run and two games compile side by side.
    """
    if not config.getoption("--long"):
        skip = pytest.mark.skip(reason="long test: run with --long")
        for item in items:
            if "long" in item.keywords:
                item.add_marker(skip)
    if not config.pluginmanager.hasplugin("xdist"):
        return
    from fatezoo.envs.core.registry import game_names

    games = set(game_names())
    for item in items:
        if item.get_closest_marker("xdist_group") is None:
            game = _game_of(item, games)
            if game is not None:
                item.add_marker(pytest.mark.xdist_group(game))
    # the cold builds of every game (tests/test_compile_layer.py) are the longest tests:
    # scheduled first, they run beside the rest instead of after it
    items.sort(key=lambda item: not _cold_build(item))


def _cold_build(item) -> bool:
    marker = item.get_closest_marker("xdist_group")
    return marker is not None and str(marker.args[0] if marker.args else
                                      marker.kwargs.get("name", "")).startswith("compile_")


@pytest.fixture
def long_run(request):
    return request.config.getoption("--long")
