"""The positions drawn on Citadel's rules page (RULES.md), played through the engine.

All on a 9x9 board. ``start`` plays the whole set-up; the others set out a small scene
with the engine's ``from_diagram`` (the notation of this package's README) and play the
turn's actions from there, each checked by ``apply``. A view whose many highlights
would distract has its legal list emptied.
"""

from __future__ import annotations

from sudoku_arena.core.types import JsonDict
from sudoku_arena.games import load
from sudoku_arena.games.citadel.diagram import from_diagram
from sudoku_arena.games.citadel.game import Citadel, CitadelState

#: On 9x9 the nine citadel sites are forced; red claims first, then the players alternate.
SETUP = (
    "citadel c3,citadel e3,citadel g3,citadel c5,citadel e5,citadel g5,citadel c7,"
    "citadel e7,citadel g7,claim g7,claim c3,claim e7,claim e3,claim c7,claim g3"
)
#: The README's example: blue steps next to a friend, then attacks the lone red warrior.
ATTACK = """
    a b c d e f g
 8  . . . . . . .
 7  . B . R r . .
 6  . . B . # # .
 5  . . . . # # .
"""
#: A red group with no empty cell next to it.
SIEGE = """
    a b c d e
 5  . B B . .
 4  B R R B .
 3  . B B . .
"""
BLUE = 0


def _play(game: Citadel, state: CitadelState, moves: str) -> CitadelState:
    for text in moves.split(","):
        state = game.apply(state, game.parse_action(text))
    return state


def _quiet(view: JsonDict) -> JsonDict:
    view["legal"] = []
    return view


def figures() -> dict[str, JsonDict]:
    """Name -> view: ``start`` (after the set-up, blue to play), ``step`` (blue moved
    b7-c7: strength 2 beside its friend), ``attack`` (c7 took the lone red warrior on
    d7), ``siege`` (red's group has no liberties: blue may take two by siege)."""
    game = load("citadel", size=9)
    start = _play(game, game.initial_state(), SETUP)
    scene = from_diagram(game, ATTACK, to_move=BLUE, credits=2)
    step = _play(game, scene, "b7-c7")
    attack = _play(game, step, "c7xd7")
    siege = from_diagram(game, SIEGE, to_move=BLUE, credits=0)
    return {
        "start": _quiet(game.view(start, None)),
        "step": _quiet(game.view(step, None)),
        "attack": _quiet(game.view(attack, None)),
        "siege": game.view(siege, None),
    }
