"""No link or path in the repository's docs points outside the repository."""

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
OUTSIDE = re.compile(r"(\.\./|shared/(seeds|DESIGN)|/work/|seeds/\d{3}_)")


def doc_files():
    out = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"],
                         cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    return [ROOT / p for p in out if p.endswith((".md", ".ipynb", ".py"))
            and (ROOT / p).is_file() and not p.startswith("tests/")]


def test_markdown_links_resolve_inside_the_repo():
    bad = []
    for path in doc_files():
        if path.suffix == ".py":
            continue
        for target in LINK.findall(path.read_text(encoding="utf-8")):
            if re.match(r"[a-z]+://|#|mailto:", target):
                continue
            resolved = (path.parent / target.split("#")[0]).resolve()
            if not resolved.is_relative_to(ROOT) or not resolved.exists():
                bad.append(f"{path.relative_to(ROOT)}: {target}")
    assert not bad, f"links that leave the repository or do not exist: {bad}"


def test_no_path_points_outside_the_repo():
    bad = []
    for path in doc_files():
        for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if OUTSIDE.search(line):
                bad.append(f"{path.relative_to(ROOT)}:{i}: {line.strip()[:80]}")
    assert not bad, "cite rules texts by their title, not by a path outside the repo:\n" + \
        "\n".join(bad)
