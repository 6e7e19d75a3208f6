"""The command line's first impressions: version, short help, a list that fits 80
columns, one game's options."""

from __future__ import annotations

import os
import subprocess
import sys

from sudoku_arena.core.registry import registered_games


def run(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "80"}
    return subprocess.run(
        [sys.executable, "-m", "sudoku_arena.cli.main", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )


def test_version_and_short_help() -> None:
    from importlib.metadata import version

    from sudoku_arena._build import build_description

    result = run("--version")
    expected = f"sudoku-arena {version('sudoku-arena')}, {build_description()}"
    assert result.returncode == 0 and result.stdout.strip() == expected
    assert run("version").stdout == result.stdout
    for args in (("-h",), ("play", "-h")):
        result = run(*args)
        assert result.returncode == 0 and "Usage:" in result.stdout


def test_list_fits_80_columns_with_one_line_per_game() -> None:
    result = run("list")
    assert result.returncode == 0
    lines = result.stdout.splitlines()
    assert all(len(line) <= 80 for line in lines)
    ids = [spec.id for spec in registered_games()]
    rows = [line for line in lines if line.split(" ", 1)[0] in ids]
    assert sorted(row.split()[0] for row in rows) == sorted(ids)
    assert len(lines) <= len(ids) + 3


def test_list_game_shows_its_options() -> None:
    result = run("list", "citadel")
    assert result.returncode == 0
    for name in (p.name for p in next(s for s in registered_games() if s.id == "citadel").params):
        assert name in result.stdout
    bad = run("list", "chess")
    assert bad.returncode != 0 and "chess" in bad.stderr and "Traceback" not in bad.stderr
