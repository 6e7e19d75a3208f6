"""The positions drawn on Tic-Tac-Sudoku's rules page (RULES.md), played through the engine.

Every figure is a short game on one fixed grid, each move checked by ``apply``; a view
whose highlights would distract has its legal list emptied (it is a drawing, not play).
"""

from __future__ import annotations

from sudoku_arena.core.types import JsonDict
from sudoku_arena.games import load
from sudoku_arena.games.tic_tac_sudoku.game import TicTacSudoku, TTSState

GRID = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"

#: A game between two greedy players on GRID, as far as the figures need it.
MOVES = (
    "r7c5,r3c1,r9c2,r6c2,r5c5,r6c4,r1c3,r9c7,r4c2,r9c9,r7c4,r5c8,r7c2,r5c4,r7c6,r9c8,"
    "r7c8,r4c4,r8c2,r8c7,r5c7,r8c9"
)


def _after(game: TicTacSudoku, plies: int) -> TTSState:
    state = game.initial_state()
    for text in MOVES.split(",")[:plies]:
        state = game.apply(state, game.parse_action(text))
    return state


def figures() -> dict[str, JsonDict]:
    """Name -> view: ``a-turn`` (circle to move, its spaces lit), ``centre`` (the first
    symbol in the centre box X'd circle's previous one), ``across`` (square's three
    bottom-left corners on a diagonal of boxes: 2 points), ``map`` (square's fifth
    symbol in the bottom-right box marks it on the Map)."""
    game = load("tic-tac-sudoku", grid=GRID)
    out: dict[str, JsonDict] = {"a-turn": game.view(_after(game, 4), None)}
    for name, plies in (("centre", 5), ("across", 8), ("map", 22)):
        view = game.view(_after(game, plies), None)
        view["legal"] = []
        out[name] = view
    return out
