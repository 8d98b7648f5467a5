import pytest


def pytest_addoption(parser):
    parser.addoption("--long", action="store_true", default=False,
                     help="run long fuzz and soak tests (100,000 games per player count)")


def pytest_configure(config):
    config.addinivalue_line("markers", "long: only with --long")


def pytest_collection_modifyitems(config, items):
    """Tests marked ``long`` run only with ``--long``."""
    if config.getoption("--long"):
        return
    skip = pytest.mark.skip(reason="long test: run with --long")
    for item in items:
        if "long" in item.keywords:
            item.add_marker(skip)


@pytest.fixture
def long_run(request):
    return request.config.getoption("--long")
