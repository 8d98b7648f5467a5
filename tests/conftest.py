import pytest


def pytest_addoption(parser):
    parser.addoption("--long", action="store_true", default=False,
                     help="run long fuzz and soak tests (100,000 games per player count)")


def pytest_configure(config):
    config.addinivalue_line("markers", "long: only with --long")


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
