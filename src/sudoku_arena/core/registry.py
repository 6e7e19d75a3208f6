"""The registry of games: ids to implementations, loaded on first use.

Built-in games are listed by import path so that importing the package stays cheap and
so that a game's module is only imported when somebody plays it. ``register`` adds
games from outside the package (plugins, tests).
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Mapping
from typing import Any

from sudoku_arena.core.errors import UnknownGameError
from sudoku_arena.core.params import resolve_params
from sudoku_arena.core.types import GameSpec

_BUILTIN: dict[str, str] = {
    "citadel": "sudoku_arena.games.citadel:Citadel",
    "tic-tac-sudoku": "sudoku_arena.games.tic_tac_sudoku:TicTacSudoku",
    "cat-sudoku": "sudoku_arena.games.cat_sudoku:CatSudoku",
    "sudokuhex": "sudoku_arena.games.sudokuhex:SuDokuHex",
    "sudoku-warriors": "sudoku_arena.games.sudoku_warriors:SudokuWarriors",
}

_classes: dict[str, type[Any]] = {}


def register(cls: type[Any]) -> type[Any]:
    """Register a game class (usable as a decorator); its ``spec.id`` is the key."""
    _classes[cls.spec.id] = cls
    return cls


def game_class(game_id: str) -> type[Any]:
    """The class registered under ``game_id``; raises ``UnknownGameError``."""
    if game_id in _classes:
        return _classes[game_id]
    if game_id in _BUILTIN:
        module_name, _, attr = _BUILTIN[game_id].partition(":")
        cls: type[Any] = getattr(importlib.import_module(module_name), attr)
        _classes[game_id] = cls
        return cls
    known = ", ".join(sorted(set(_BUILTIN) | set(_classes)))
    raise UnknownGameError(f"no game called {game_id!r}; known games: {known}")


def registered_games() -> tuple[GameSpec, ...]:
    """The spec of every registered game, sorted by id."""
    ids = sorted(set(_BUILTIN) | set(_classes))
    return tuple(game_class(i).spec for i in ids)


def spec_of(game_id: str) -> GameSpec:
    """The spec of one game."""
    spec: GameSpec = game_class(game_id).spec
    return spec


def load(game_id: str, *, seed: int | None = None, **params: object) -> Any:
    """Build the game ``game_id`` with ``params``.

    Parameters not given take their defaults; random defaults (a Sudoku grid) are drawn
    from ``seed`` (0 when ``None``), so ``load(id)`` is reproducible. Strings are
    accepted for every parameter (command-line input) and converted. Raises
    ``UnknownGameError`` or ``InvalidParameterError`` with what is allowed.
    """
    return build(game_id, params, seed)


def build(game_id: str, params: Mapping[str, object], seed: int | None = None) -> Any:
    """Like :func:`load`, with the parameters as a mapping."""
    cls = game_class(game_id)
    resolved = resolve_params(cls.spec.params, params, random.Random(seed or 0))
    return cls(resolved)
