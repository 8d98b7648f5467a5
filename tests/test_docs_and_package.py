"""Doc pages match the code; data files ship in the wheel."""

import importlib
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

import fatezoo
from fatezoo.envs.core.docs import fill
from fatezoo.envs.core.registry import get_spec

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("game", fatezoo.GAMES)
def test_doc_page_tables_match_code(game):
    spec = get_spec(game)
    doc = importlib.import_module(f"fatezoo.envs.{game}.env").__doc__
    assert doc == fill(doc, spec), "run scripts/gen_docs.py: the doc tables drifted"
    assert f"Discrete({spec.num_actions})" in doc
    assert f"({spec.obs_size},), float32)" in doc
    assert f"({spec.state_size},), float32)" in doc


@pytest.mark.parametrize("game", fatezoo.GAMES)
def test_doc_example_runs(game):
    import doctest

    mod = importlib.import_module(f"fatezoo.envs.{game}.env")
    result = doctest.testmod(mod, verbose=False)
    assert result.attempted > 0 and result.failed == 0


def test_wheel_ships_data_files(tmp_path):
    out = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                          "-w", str(tmp_path), str(ROOT)], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr[-2000:]
    wheel = next(tmp_path.glob("fatezoo-*.whl"))
    names = set(zipfile.ZipFile(wheel).namelist())
    for game in fatezoo.GAMES:
        data = [p for p in (ROOT / "envs" / game / "data").iterdir()]
        for p in data:
            assert f"fatezoo/envs/{game}/data/{p.name}" in names
        assert f"fatezoo/envs/{game}/RULES.md" in names
    assert "fatezoo/__init__.py" in names and "fatezoo/envs/core/kernels.py" in names
