"""Doc pages match the code; data files ship in the wheel."""

import ast
import importlib
import inspect
import json
import re
import zipfile
from pathlib import Path

import pytest

import fatezoo
from fatezoo.envs.core.aec import FatezooAEC
from fatezoo.envs.core.docs import fill
from fatezoo.envs.core.registry import get_spec

from .wheel_util import build_and_install, run_installed

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("game", fatezoo.GAMES)
def test_doc_page_tables_match_code(game):
    spec = get_spec(game)
    doc = importlib.import_module(f"fatezoo.envs.{game}.env").__doc__
    assert doc == fill(doc, spec), "run scripts/gen_docs.py: the doc tables drifted"
    assert f"Discrete({spec.num_actions})" in doc
    assert f"({spec.obs_size},), float32)" in doc
    assert f"({spec.state_size},), float32)" in doc


def doc_arguments(doc: str) -> tuple[set, dict]:
    """The doc page's ``## Arguments`` section: every backticked name, and each
    ``name=default`` it gives (the default as a Python value)."""
    section = doc.split("## Arguments", 1)[1].split("\n## ", 1)[0]
    names, defaults = set(), {}
    for item in re.findall(r"`([^`]+)`", section):
        name, eq, value = item.partition("=")
        if re.fullmatch(r"[a-z_]+", name):
            names.add(name)
            if eq:
                defaults[name] = ast.literal_eval(value)
    return names, defaults


@pytest.mark.parametrize("game", fatezoo.GAMES)
def test_doc_page_arguments_match_configure(game):
    # every option of the game's configure is on its doc page, with its true default,
    # and every `name=default` the page gives is a real argument of the env
    spec = get_spec(game)
    doc = importlib.import_module(f"fatezoo.envs.{game}.env").__doc__
    names, defaults = doc_arguments(doc)
    missing = set(spec.option_defaults) - names
    assert not missing, f"{game}: the doc page's Arguments omit {sorted(missing)}"
    real = dict(spec.option_defaults)
    for p in inspect.signature(FatezooAEC.__init__).parameters.values():
        if p.default is not inspect.Parameter.empty:
            real[p.name] = p.default
    for name, value in defaults.items():
        assert name in real, f"{game}: the doc page documents `{name}`, not an argument"
        assert value == real[name], (f"{game}: the doc page gives `{name}={value!r}`, the "
                                     f"default is {real[name]!r}")


@pytest.mark.parametrize("game", fatezoo.GAMES)
def test_doc_example_runs(game):
    import doctest

    mod = importlib.import_module(f"fatezoo.envs.{game}.env")
    result = doctest.testmod(mod, verbose=False)
    assert result.attempted > 0 and result.failed == 0


def spec_folders(root: Path = ROOT) -> set[str]:
    """Folders ``envs/<name>/`` whose ``__init__.py`` defines ``SPEC`` (read as text)."""
    out = set()
    for init in (root / "envs").glob("*/__init__.py"):
        if re.search(r"^SPEC\s*[:=]", init.read_text(encoding="utf-8"), re.M):
            out.add(init.parent.name)
    return out


def game_data_files(root: Path = ROOT) -> dict[str, list[str]]:
    """Per game folder, its RULES.md and data files, relative to the folder."""
    files = {}
    for game in spec_folders(root):
        folder = root / "envs" / game
        data = sorted(p.relative_to(folder).as_posix() for p in (folder / "data").rglob("*")
                      if p.is_file() and "__pycache__" not in p.parts)
        files[game] = ["RULES.md"] + data
    return files


INSTALLED_REPORT = """
import json, pathlib
import fatezoo
from fatezoo.envs.core.registry import get_module
report = {"file": fatezoo.__file__, "games": list(fatezoo.GAMES), "files": {}}
for game in fatezoo.GAMES:
    folder = pathlib.Path(get_module(game).__file__).parent
    report["files"][game] = sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*")
                                   if p.is_file() and "__pycache__" not in p.parts)
print(json.dumps(report))
"""


@pytest.mark.wheel
def test_installed_wheel_has_every_game_and_its_data(tmp_path):
    """A non-editable install (what CI tests) registers every game folder with its data."""
    wheel, target = build_and_install(tmp_path)
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "fatezoo/__init__.py" in names and "fatezoo/envs/core/kernels.py" in names
    report = json.loads(run_installed(target, INSTALLED_REPORT).splitlines()[-1])
    assert Path(report["file"]).resolve().is_relative_to(target.resolve()), report["file"]
    expected = spec_folders()
    assert expected and set(report["games"]) == expected
    for game, files in game_data_files().items():
        missing = set(files) - set(report["files"][game])
        assert not missing, f"{game}: the installed package lacks {sorted(missing)}"


def test_evaluation_md_declares_the_anchors_the_protocol_declares():
    from fatezoo.training.evaluation import PROTOCOLS

    protocol = PROTOCOLS["v1"]
    text = (ROOT / "docs" / "EVALUATION.md").read_text()
    rows = re.findall(r"^\| `(\w+)`, (\d+) \| ((?:[\d.]+ \| ){%d})" % len(protocol.suite),
                      text, re.M)
    table = {(game, int(n)): dict(zip(protocol.suite, map(float, cells.split(" | ")[:-1])))
             for game, n, cells in rows}
    assert table == protocol.anchors
