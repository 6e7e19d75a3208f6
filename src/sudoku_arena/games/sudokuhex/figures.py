"""The positions drawn on SuDokuHex's rules page (RULES.md), played through the engine.

A two-player game whose chance events (starting tiles, draws) are written out as
actions (``start 1 D1``, ``draw 4``) and played with the placements, each checked by
``apply``. The first figure is red's own view, hand included: it is a made-up example
on a page, not a game anybody plays, so nothing secret is shown.
"""

from __future__ import annotations

from sudoku_arena.core.types import JsonDict
from sudoku_arena.games import load
from sudoku_arena.games.sudokuhex.game import HexState, SuDokuHex

#: The set-up (seven starting tiles) and each seat's first draw: red holds a 4.
SETUP = "start 1 D1,start 2 E2,start 3 G4,start 4 B6,start 5 C3,start 6 F1,start 7 A1,draw 4,draw 5"
#: Four turns, each placement followed by the placer's new draw.
TURNS = "C4,draw 6,A0,draw 1,E5,draw 6,B5,draw 1"
RED = 0


def _play(game: SuDokuHex, state: HexState, moves: str) -> HexState:
    for text in moves.split(","):
        state = game.apply(state, game.parse_action(text))
    return state


def figures() -> dict[str, JsonDict]:
    """Name -> view: ``setup`` (the starting tiles; red to place a 4, where it may go
    lit), ``scoring`` (blue's 6 on B5 has just scored 7 points)."""
    game = load("sudokuhex", players=2)
    setup = _play(game, game.initial_state(), SETUP)
    scoring = _play(game, setup, TURNS)
    return {"setup": game.view(setup, RED), "scoring": game.view(scoring, None)}
