"""What a person meets first in the terminal: the bare command, ``--version`` after a
command, and refusals that keep their notation help."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from sudoku_arena.cli.words import clip_quotes
from sudoku_arena.core.errors import NotationError
from sudoku_arena.core.registry import load

#: The installed command beside this interpreter (the virtualenv's).
COMMAND = Path(sys.executable).with_name("sudoku-arena")


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    if not COMMAND.exists():
        pytest.fail(f"{COMMAND} is missing: install the package (pip install -e .)")
    return subprocess.run(
        [str(COMMAND), *args],
        capture_output=True,
        text=True,
        env={**os.environ, "COLUMNS": "100"},
    )


def test_the_bare_command_shows_the_help_and_no_error() -> None:
    run = _cli()
    assert run.returncode == 0, run.stderr
    assert "Usage: sudoku-arena" in run.stdout and "play" in run.stdout
    assert run.stderr == ""


@pytest.mark.parametrize("command", ["play", "serve", "analyze"])
def test_version_works_after_any_command(command: str) -> None:
    run = _cli(command, "--version")
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("sudoku-arena ")
    assert "compiled with mypyc" in run.stdout or "pure Python" in run.stdout


def test_a_refusal_keeps_the_notation_help_between_quoted_examples() -> None:
    game = load("sudokuhex", seed=3)
    with pytest.raises(NotationError) as refused:
        game.parse_action("H1")
    shown = clip_quotes(str(refused.value))
    assert "…" not in shown
    assert "a placement is a hex name" in shown and "such as C4" in shown


def test_a_long_echo_of_input_is_still_cut_and_apostrophes_open_nothing() -> None:
    long = "x" * 60
    shown = clip_quotes(f"'{long}' is not an action; the player's tile stays, see 'moves'")
    assert shown.startswith("'" + "x" * 40 + "…'")
    assert shown.endswith("the player's tile stays, see 'moves'")
