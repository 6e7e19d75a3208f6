"""Building Tic-Tac-Sudoku positions for tests from short descriptions."""

from __future__ import annotations

from sudoku_arena.games.tic_tac_sudoku.game import TicTacSudoku, TTSState
from sudoku_arena.grids.sudoku import parse_cell


def position(
    game: TicTacSudoku,
    circles: str = "",
    squares: str = "",
    xs: str = "",
    open_: tuple[str | None, str | None] = (None, None),
    **changes: object,
) -> TTSState:
    """A state with circles, squares and X's on the named cells (space-separated)."""
    masks = [0, 0, 0]
    for k, names in enumerate((circles, squares, xs)):
        for name in names.split():
            masks[k] |= 1 << parse_cell(name)
    opens = tuple(-1 if o is None else parse_cell(o) for o in open_)
    s = game.initial_state()._replace(
        marks=(masks[0], masks[1]), xs=masks[2], open=(opens[0], opens[1])
    )
    return s._replace(**changes)  # type: ignore[arg-type]


def play(game: TicTacSudoku, moves: list[str], s: TTSState | None = None) -> TTSState:
    """Apply moves in notation, each by the seat to move."""
    s = game.initial_state() if s is None else s
    for m in moves:
        s = game.apply(s, game.parse_action(m))
    return s
