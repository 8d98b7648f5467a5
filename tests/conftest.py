import pytest


def pytest_addoption(parser):
    parser.addoption("--long", action="store_true", default=False,
                     help="run long fuzz and soak tests (100,000 games per player count)")


def pytest_configure(config):
    config.addinivalue_line("markers", "long: only with --long")


@pytest.fixture
def long_run(request):
    return request.config.getoption("--long")
