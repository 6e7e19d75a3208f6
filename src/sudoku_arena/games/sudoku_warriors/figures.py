"""The positions drawn on Sudoku Warriors' rules page (RULES.md), played through the engine.

``control`` is the start of a game; the battle figures start from the position of the
README's worked battle, set out with the engine's ``position`` (its hilltops and one
spent village), and play the placement and the bids from there, each checked by
``apply``. A view whose highlights would distract has its legal list emptied.
"""

from __future__ import annotations

from sudoku_arena.core.types import JsonDict
from sudoku_arena.games import load
from sudoku_arena.games.sudoku_warriors.game import SudokuWarriors, SWState

GRID = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"

#: The worked battle's position before square takes h03 (rows of hilltops h0. to h9.).
BATTLE = """
    oos.o.....
    oossoo....
    ooss......
    osss......
    o.........
    ..........
    ..........
    ..........
    ..........
    ..........
"""
SQUARE = 1


def _play(game: SudokuWarriors, state: SWState, moves: str) -> SWState:
    for text in moves.split(","):
        state = game.apply(state, game.parse_action(text))
    return state


def figures() -> dict[str, JsonDict]:
    """Name -> view: ``control`` (five warriors: shaded villages are controlled),
    ``battle`` (square took the last hilltop of the top-left province and opens the
    bidding), ``claimed`` (square won it: circle's warriors there are X'd and the
    villages bid are crossed out)."""
    game = load("sudoku-warriors", grid=GRID)
    control = game.view(_play(game, game.initial_state(), "h44,h46,h45,h56,h55"), None)
    control["legal"] = []
    start = game.position(BATTLE, to_move=SQUARE, spent=["r1c1"])
    battle = _play(game, start, "h03")
    claimed = _play(game, battle, "bid r2c3,bid r2c1,bid r3c4,yield")
    claimed_view = game.view(claimed, None)
    claimed_view["legal"] = []
    return {"control": control, "battle": game.view(battle, None), "claimed": claimed_view}
