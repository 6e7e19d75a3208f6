"""Driving Cat Sudoku games in notation for tests."""

from __future__ import annotations

from typing import Any

from sudoku_arena.core.registry import load
from sudoku_arena.games.cat_sudoku.game import STATE_FIELDS, CatSudoku, CSState
from sudoku_arena.games.cat_sudoku.sheet import parse_cell

#: A 4 x 4 sheet without blocked squares: rows and columns are segments of 4.
SQUARE4 = """\
name: Square
grid:
oo.o
o..o
.oo.
o..o
"""

#: Six fillable squares: the setup fills four, turn 1 is a partial turn of two.
SIX = """\
name: Six
grid:
ooo
ooo
"""


def replace(s: CSState, **changes: Any) -> CSState:
    """``s`` with the named fields changed (a new state: states are values)."""
    fields: dict[str, Any] = dict(zip(STATE_FIELDS, s.fields(), strict=True))
    assert set(changes) <= set(fields), set(changes) - set(fields)
    fields.update(changes)
    return CSState(**fields)


def new(sheet: str = "spring", players: int = 1, **params: object) -> CatSudoku:
    game: CatSudoku = load("cat-sudoku", sheet=sheet, players=players, **params)
    return game


def play(game: CatSudoku, steps: list[str], s: CSState | None = None) -> CSState:
    """Apply ``steps`` in notation. ``"roll 3"`` is a chance outcome; ``"1: 5 r3c4"``
    is an action of seat 1; a bare action is taken by the only seat to move."""
    s = game.initial_state() if s is None else s
    for step in steps:
        seat: int | None = None
        text = step
        head, sep, rest = step.partition(":")
        if sep and head.strip().isdigit():
            seat, text = int(head), rest
        s = game.apply(s, game.parse_action(text), seat)
    return s


def rolls(*values: int) -> list[str]:
    return [f"roll {v}" for v in values]


def with_values(game: CatSudoku, s: CSState, seat: int, values: dict[str, int]) -> CSState:
    """``s`` with the named squares of ``seat``'s sheet set to the given values."""
    vals = list(s.sheets[seat])
    for name, v in values.items():
        r, c = parse_cell(name)
        vals[r * game.sheet.cols + c] = v
    sheets = list(s.sheets)
    sheets[seat] = tuple(vals)
    return replace(s, sheets=tuple(sheets))


def value(game: CatSudoku, s: CSState, seat: int, name: str) -> int:
    r, c = parse_cell(name)
    return s.sheets[seat][r * game.sheet.cols + c]


def legal(game: CatSudoku, s: CSState, seat: int) -> list[str]:
    return [game.format_action(a) for a in game.legal_actions(s, seat)]
