"""Shared fixtures: a fixed grid, and a toy game with chance for core tests."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from sudoku_arena.core import registry
from toygame import TOY_ENTRY, ToyGame

#: A completed Sudoku used by scenario tests (rows top to bottom).
FIXED_GRID = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"


@pytest.fixture
def fixed_grid() -> str:
    return FIXED_GRID


@pytest.fixture
def toy() -> Iterator[ToyGame]:
    """The toy game, registered under ``toy`` for the duration of one test."""
    registry.register(TOY_ENTRY)
    try:
        yield ToyGame({"players": 2})
    finally:
        registry.unregister("toy")
