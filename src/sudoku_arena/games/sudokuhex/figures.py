"""Placeholder."""

from sudoku_arena.core.types import JsonDict


def figures() -> dict[str, JsonDict]:
    return {}
