"""The repository speaks about itself only: no file points at material outside it."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ["src", "docs", "scripts", "benchmarks", "tests", ".ci"]
OUTSIDE = re.compile(r"\.\./shared|RULINGS\.md|DESIGN\.md|RECIPES\.md")


def test_no_file_points_outside_the_repository() -> None:
    found = []
    files = [ROOT / "README.md", ROOT / "pyproject.toml"]
    for folder in FOLDERS:
        files += [p for p in (ROOT / folder).rglob("*") if p.is_file() and p.suffix != ".pyc"]
    for path in files:
        if path == Path(__file__):
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        for n, line in enumerate(text.splitlines(), 1):
            if OUTSIDE.search(line):
                found.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()[:80]}")
    assert not found, "\n".join(found)
