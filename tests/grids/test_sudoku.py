"""Sudoku grids: generation is seeded, valid and varied; validation names the bad unit."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudoku_arena.core.errors import InvalidGridError, NotationError
from sudoku_arena.grids.sudoku import (
    BOX_CELLS,
    cell_name,
    format_grid,
    generate_grid,
    parse_box,
    parse_cell,
    parse_grid,
    validate_grid,
)


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=0, max_value=2**32))
def test_generated_grids_are_valid_and_seeded(seed: int) -> None:
    g = generate_grid(random.Random(seed))
    validate_grid(g)
    assert g == generate_grid(random.Random(seed))


def test_many_distinct_grids_not_relabellings() -> None:
    grids = [generate_grid(random.Random(s)) for s in range(300)]
    assert len(set(grids)) == 300

    # Relabel each grid so its first row reads 1..9: relabellings of one grid collapse.
    def normal(g: tuple[int, ...]) -> tuple[int, ...]:
        label = {d: i + 1 for i, d in enumerate(g[:9])}
        return tuple(label[d] for d in g)

    assert len({normal(g) for g in grids}) >= 295


def test_parse_grid_accepts_spacing(fixed_grid: str) -> None:
    spaced = "\n".join(fixed_grid[i : i + 9] for i in range(0, 81, 9))
    assert format_grid(parse_grid(spaced)) == fixed_grid


def test_column_error_named(fixed_grid: str) -> None:
    # Swapping r1c2 and r1c3 keeps row 1 and box 1 whole but breaks columns 2 and 3.
    bad = fixed_grid[0] + fixed_grid[2] + fixed_grid[1] + fixed_grid[3:]
    with pytest.raises(InvalidGridError, match="column 2") as info:
        parse_grid(bad)
    assert info.value.where == "column 2"


def test_row_error_named(fixed_grid: str) -> None:
    bad = "1" + fixed_grid[1:]  # r1c1 5 -> 1: row 1 holds 1 twice
    with pytest.raises(InvalidGridError, match="row 1 holds 1 twice") as info:
        parse_grid(bad)
    assert info.value.where == "row 1"


def test_box_error_named() -> None:
    # Rows are permutations and columns too, but boxes repeat: a cyclic Latin square.
    rows = ["".join(str((r + c) % 9 + 1) for c in range(9)) for r in range(9)]
    with pytest.raises(InvalidGridError, match="box 1") as info:
        parse_grid("".join(rows))
    assert info.value.where == "box 1"


@pytest.mark.parametrize(
    ("text", "message"),
    [("12", "has 2 digits"), ("0" * 81, "not a digit 1-9"), ("x" + "1" * 80, "position 1")],
)
def test_malformed_text(text: str, message: str) -> None:
    with pytest.raises(InvalidGridError, match=message):
        parse_grid(text)


def test_cell_and_box_names() -> None:
    assert [cell_name(i) for i in (0, 8, 80)] == ["r1c1", "r1c9", "r9c9"]
    assert parse_cell(" R5C3 ") == 38
    assert parse_box("b5") == 4
    assert BOX_CELLS[4][4] == 40
    with pytest.raises(NotationError, match="r5c3"):
        parse_cell("r0c1")
    with pytest.raises(NotationError, match="b1 to b9"):
        parse_box("b10")
