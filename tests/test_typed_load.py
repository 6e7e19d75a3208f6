"""The library is typed for its users: ``sudoku_arena.games.load`` with a literal id
gives the game's own class, so mypy checks code written for one game (the package ships
``py.typed``)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

USER_CODE = """
from sudoku_arena.games import load
game = load("citadel", size=9)
reveal_type(game)
state = game.initial_state()
reveal_type(state)
game.legal_actions(state, "not a seat")
"""


def test_mypy_knows_the_class_of_a_literal_game_id(tmp_path: Path) -> None:
    code = tmp_path / "user.py"
    code.write_text(USER_CODE)
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--strict",
            "--cache-dir",
            str(tmp_path / "cache"),
            str(code),
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    out = result.stdout
    assert 'Revealed type is "sudoku_arena.games.citadel.game.Citadel"' in out, out
    assert 'Revealed type is "sudoku_arena.games.citadel.game.CitadelState"' in out, out
    assert 'Argument 2 to "legal_actions" of "Citadel" has incompatible type "str"' in out, out
