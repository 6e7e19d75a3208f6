"""docs/interop.md says what runs: its Python examples run as written, and its tables
of action indices and notation are the engines'."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

import sudoku_arena

DOC = Path(__file__).parents[2] / "docs" / "interop.md"
TEXT = DOC.read_text(encoding="utf-8")
BLOCKS = re.findall(r"```python\n(.*?)```", TEXT, re.DOTALL)

#: Section title -> game id.
SECTIONS = {
    "Tic-Tac-Sudoku": "tic-tac-sudoku",
    "Sudoku Warriors": "sudoku-warriors",
    "Cat Sudoku": "cat-sudoku",
    "SuDokuHex": "sudokuhex",
    "Citadel": "citadel",
}


def test_the_doc_has_an_example_per_library() -> None:
    assert len(BLOCKS) >= 3
    assert any("pettingzoo" in b and "for episode" in b for b in BLOCKS)
    assert any("rl_environment" in b and "for episode" in b for b in BLOCKS)


@pytest.mark.parametrize("k", range(len(BLOCKS)))
def test_each_example_runs_as_written(k: int, tmp_path: Path) -> None:
    script = tmp_path / f"example_{k}.py"
    script.write_text(BLOCKS[k], encoding="utf-8")
    done = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip()  # every example prints what it did


def _examples(game_title: str) -> list[tuple[int, str]]:
    """The (index, notation) rows of a game's example table."""
    section = TEXT.split(f"### {game_title} (")[1].split("\n### ")[0]
    rows = re.findall(r"^\| (\d+) \| `([^`]+)` \|$", section, re.MULTILINE)
    return [(int(i), n) for i, n in rows]


@pytest.mark.parametrize("title", SECTIONS)
def test_the_index_tables_are_the_engines(title: str) -> None:
    game = sudoku_arena.load(SECTIONS[title])
    rows = _examples(title)
    assert len(rows) >= 3
    for index, notation in rows:
        assert game.format_action(game.decode_action(index)) == notation
        assert game.encode_action(game.parse_action(notation)) == index
    count = TEXT.split(f"### {title} (")[1].split(" actions)")[0].replace(",", "")
    assert int(count) == game.spec.num_distinct_actions


def test_the_core_imports_neither_library() -> None:
    code = (
        "import sys, sudoku_arena, sudoku_arena.interop, sudoku_arena.interop.features\n"
        "from sudoku_arena.ai import make_agent\n"
        "bad = [m for m in ('pyspiel', 'pettingzoo', 'gymnasium') if m in sys.modules]\n"
        "print(bad)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
