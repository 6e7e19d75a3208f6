"""Boards: completed 9x9 Sudoku grids (generation, validation, cell names)."""

from sudoku_arena.grids.sudoku import (
    BOX_CELLS,
    COL_CELLS,
    ROW_CELLS,
    box_of,
    cell_name,
    format_grid,
    generate_grid,
    grid_param,
    parse_cell,
    parse_grid,
    validate_grid,
)

__all__ = [
    "BOX_CELLS",
    "COL_CELLS",
    "ROW_CELLS",
    "box_of",
    "cell_name",
    "format_grid",
    "generate_grid",
    "grid_param",
    "parse_cell",
    "parse_grid",
    "validate_grid",
]
