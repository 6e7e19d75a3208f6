"""Finding a game's search knowledge: the ``search_hints`` of its registered entry (see
:mod:`sudoku_arena.core.search` for what a game may declare, and the contracts)."""

from __future__ import annotations

from sudoku_arena.core.errors import UnknownGameError
from sudoku_arena.core.protocol import AnyGame
from sudoku_arena.core.registry import entry_of
from sudoku_arena.core.search import (
    LEVELS,
    ActionKeyFn,
    Budget,
    ChanceKeyFn,
    EvaluateFn,
    PositionKeyFn,
    PriorFn,
    RolloutFn,
    SearchHints,
    StepFn,
)

__all__ = [
    "DEFAULT_HINTS",
    "LEVELS",
    "ActionKeyFn",
    "Budget",
    "ChanceKeyFn",
    "EvaluateFn",
    "PositionKeyFn",
    "PriorFn",
    "RolloutFn",
    "SearchHints",
    "StepFn",
    "hints_for",
]

DEFAULT_HINTS = SearchHints()


def hints_for(game: AnyGame) -> SearchHints:
    """The search hints of ``game`` (from its registered entry, or the defaults).

    Hints may depend on the game's parameters (player count, board size), so they are
    asked for per game object. Games that are not registered (test games, plug-ins
    built by hand) and games that declare nothing get :data:`DEFAULT_HINTS`.
    """
    try:
        make = entry_of(game).search_hints
    except UnknownGameError:
        return DEFAULT_HINTS
    return DEFAULT_HINTS if make is None else make(game)
