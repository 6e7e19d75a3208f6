"""The layer contracts (pyproject.toml, checked by import-linter in CI) hold, and would
catch an import against them: a game importing the AI layer above it, and a game's rules
importing its own renderer."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LINT = Path(sys.executable).parent / "lint-imports"


def _lint(tree: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(tree / "src")}
    return subprocess.run(
        [str(LINT), "--config", str(tree / "pyproject.toml"), "--no-cache"],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tree,
        env=env,
    )


def test_the_layers_are_kept() -> None:
    result = _lint(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert " kept, 0 broken" in result.stdout


def test_a_game_importing_the_ai_breaks_the_contract(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "src", tmp_path / "src", ignore=shutil.ignore_patterns("*.pyc"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    search = tmp_path / "src" / "sudoku_arena" / "games" / "tic_tac_sudoku" / "search.py"
    search.write_text(search.read_text() + "\nimport sudoku_arena.ai.mcts  # wrong way up\n")
    result = _lint(tmp_path)
    assert result.returncode != 0
    assert "BROKEN" in result.stdout
    assert "sudoku_arena.games.tic_tac_sudoku.search -> sudoku_arena.ai.mcts" in result.stdout


def test_rules_importing_their_renderer_break_the_contract(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "src", tmp_path / "src", ignore=shutil.ignore_patterns("*.pyc"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    rules = tmp_path / "src" / "sudoku_arena" / "games" / "citadel" / "rules.py"
    rules.write_text(rules.read_text() + "\nimport sudoku_arena.games.citadel.render  # no\n")
    result = _lint(tmp_path)
    assert result.returncode != 0
    assert "sudoku_arena.games.citadel.rules -> sudoku_arena.games.citadel.render" in result.stdout
