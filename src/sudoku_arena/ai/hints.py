"""Finding a game's search knowledge: its package's ``search.py`` (see
:mod:`sudoku_arena.core.search` for what it may declare, and the contracts)."""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

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
    "search_module",
]

DEFAULT_HINTS = SearchHints()

_modules: dict[type[Any], ModuleType | None] = {}


def search_module(game: Any) -> ModuleType | None:
    """The ``search`` module next to the game's class, or ``None`` when there is none."""
    cls = type(game)
    if cls in _modules:
        return _modules[cls]
    package = cls.__module__.rpartition(".")[0]
    module: ModuleType | None = None
    if package:
        name = f"{package}.search"
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise
    _modules[cls] = module
    return module


def hints_for(game: Any) -> SearchHints:
    """The search hints of ``game`` (its package's ``search.search_hints``, or defaults).

    Hints may depend on the game's parameters (player count, board size), so they are
    asked for per game object; finding the module is cached per class.
    """
    module = search_module(game)
    if module is None or not hasattr(module, "search_hints"):
        return DEFAULT_HINTS
    hints = module.search_hints(game)
    if not isinstance(hints, SearchHints):
        raise TypeError(f"{module.__name__}.search_hints must return SearchHints")
    return hints
