"""The games, one package each; generic code reaches them through the registry.

``load`` here is the registry's ``load`` with precise types: for a literal game id mypy
knows the class it returns (``load("citadel")`` is a :class:`Citadel`), so code written
for one game is type-checked against that game's states and actions.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, overload

from sudoku_arena.core import registry
from sudoku_arena.core.protocol import AnyGame

if TYPE_CHECKING:  # the game modules are imported on first use, by the registry
    from sudoku_arena.games.cat_sudoku import CatSudoku
    from sudoku_arena.games.citadel import Citadel
    from sudoku_arena.games.sudoku_warriors import SudokuWarriors
    from sudoku_arena.games.sudokuhex import SuDokuHex
    from sudoku_arena.games.tic_tac_sudoku import TicTacSudoku


@overload
def load(
    game_id: Literal["tic-tac-sudoku"], *, seed: int | None = ..., **params: object
) -> TicTacSudoku: ...
@overload
def load(
    game_id: Literal["sudoku-warriors"], *, seed: int | None = ..., **params: object
) -> SudokuWarriors: ...
@overload
def load(
    game_id: Literal["cat-sudoku"], *, seed: int | None = ..., **params: object
) -> CatSudoku: ...
@overload
def load(
    game_id: Literal["sudokuhex"], *, seed: int | None = ..., **params: object
) -> SuDokuHex: ...
@overload
def load(game_id: Literal["citadel"], *, seed: int | None = ..., **params: object) -> Citadel: ...
@overload
def load(game_id: str, *, seed: int | None = ..., **params: object) -> AnyGame: ...
def load(game_id: str, *, seed: int | None = None, **params: object) -> AnyGame:
    """Build a game by id (see :func:`sudoku_arena.core.registry.load`)."""
    return registry.load(game_id, seed=seed, **params)


__all__ = ["load"]
