"""The README's Python examples run as written."""

import re
from pathlib import Path

import pytest

README = (Path(__file__).resolve().parent.parent / "README.md").read_text()
BLOCKS = re.findall(r"```python\n(.*?)```", README, re.S)


def test_readme_has_examples():
    assert len(BLOCKS) >= 2


@pytest.mark.parametrize("code", BLOCKS, ids=[f"block{i}" for i in range(len(BLOCKS))])
def test_readme_example_runs(code, capsys):
    exec(compile(code, "README.md", "exec"), {})


def test_readme_starts_with_the_two_commands():
    commands = re.findall(r"<!-- (main|test)-command -->\n```bash\n(.*?)\n```", README)
    assert [kind for kind, _ in commands] == ["main", "test"]
    assert "fatezoo arena fatefell" in commands[0][1]
    assert "pytest" in commands[1][1] and "constraints.txt" in commands[1][1]
