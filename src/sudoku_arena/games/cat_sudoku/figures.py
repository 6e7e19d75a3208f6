"""The positions drawn on Cat Sudoku's rules page (RULES.md), played through the engine.

A solo game on the Spring sheet: the dice are chance actions written out (``roll 4``),
the writes are chosen to show the penalties; every action is checked by ``apply``.
"""

from __future__ import annotations

from sudoku_arena.core.types import JsonDict
from sudoku_arena.games import load
from sudoku_arena.games.cat_sudoku.game import CatSudoku, CSState

#: Setup roll and writes, the first turn's roll, its wild, and writes that cost points.
SETUP_ROLL = "roll 2,roll 4,roll 3,roll 4"
SETUP_WRITES = "4 r1c2,4 r3c2,2 r4c5,3 r4c6"
TURN_ROLL = "roll 4,roll 1,roll 1,roll 6"
TURN_WILD = "wild 2+ 1"
TURN_WRITES = "4 r2c1,6 r2c3,5 r1c1,5 r2c2"


def _play(game: CatSudoku, state: CSState, moves: str) -> CSState:
    for text in moves.split(","):
        state = game.apply(state, game.parse_action(text))
    return state


def figures() -> dict[str, JsonDict]:
    """Name -> view: ``setup`` (the first roll, to be written on circled squares),
    ``wild`` (the first turn's roll: the Wild Counter boxes it can use are lit),
    ``scoring`` (a repeated 4 in a column, a diagonal set of three 4s and one of two 5s)."""
    game = load("cat-sudoku", players=1, sheet="spring")
    setup = _play(game, game.initial_state(), SETUP_ROLL)
    wild = _play(game, setup, ",".join((SETUP_WRITES, TURN_ROLL)))
    scoring = _play(game, wild, ",".join((TURN_WILD, TURN_WRITES)))
    return {
        "setup": game.view(setup, None),
        "wild": game.view(wild, None),
        "scoring": game.view(scoring, None),
    }
