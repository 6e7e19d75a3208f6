"""The word-split masks of rules.py agree with the lines and boxes they are built from."""

from __future__ import annotations

import random

from sudoku_arena.games.tic_tac_sudoku.rules import (
    BOX_SHIFT,
    COMMON_LINES,
    COMMON_WORDS,
    LOCAL,
    PATTERN_COUNT,
    SMALL_LINES,
    SMALL_LINES_FILLED,
    SPLIT,
    box_pattern,
    cells_of,
    join,
    short_points,
    split,
)
from sudoku_arena.grids.sudoku import BOX_CELLS, box_of


def _random_masks(count: int) -> list[int]:
    rng = random.Random(7)
    masks = [0, (1 << 81) - 1, 1 << 80, 1 << SPLIT, (1 << SPLIT) - 1]
    for _ in range(count):
        density = rng.random()
        masks.append(sum(1 << i for i in range(81) if rng.random() < density))
    return masks


def test_split_and_join_round_trip_and_fit_a_machine_word() -> None:
    for mask in _random_masks(200):
        lo, hi = split(mask)
        assert join(lo, hi) == mask
        assert lo < 1 << 62 and hi < 1 << 62


def test_cells_of_lists_a_masks_cells_in_order() -> None:
    for mask in _random_masks(300):
        assert cells_of(*split(mask)) == [i for i in range(81) if mask >> i & 1]


def test_box_patterns_count_each_boxs_cells() -> None:
    for mask in _random_masks(200):
        lo, hi = split(mask)
        for b in range(9):
            pattern = box_pattern(lo if b < 6 else hi, BOX_SHIFT[b])
            expected = [mask >> i & 1 for i in BOX_CELLS[b]]
            assert [pattern >> k & 1 for k in range(9)] == expected
            assert PATTERN_COUNT[pattern] == sum(expected)


def test_small_lines_filled_counts_the_lines_through_a_cell() -> None:
    for mask in _random_masks(200):
        lo, hi = split(mask)
        for i in range(81):
            b = box_of(i)
            pattern = box_pattern(lo if b < 6 else hi, BOX_SHIFT[b])
            full = sum(1 for line in SMALL_LINES[i] if all(mask >> c & 1 for c in line))
            assert SMALL_LINES_FILLED[LOCAL[i] << 9 | pattern] == full


def test_common_line_words_are_the_common_lines() -> None:
    for i in range(81):
        masks = [join(lo, hi) for lo, hi in COMMON_WORDS[i]]
        assert masks == [sum(1 << c for c in line) for line in COMMON_LINES[i]]
        assert all(i in line for line in COMMON_LINES[i])


def _short_by_lines(mine: int, occupied: int) -> int:
    """Points one symbol short, straight from the lines: each line (small 1, common 2)
    with two of ``mine`` and its third cell not ``occupied``."""
    lines = {tuple(sorted(ln)): 1 for i in range(81) for ln in SMALL_LINES[i]}
    lines |= {tuple(sorted(ln)): 2 for i in range(81) for ln in COMMON_LINES[i]}
    points = 0
    for line, value in lines.items():
        held = [c for c in line if mine >> c & 1]
        rest = [c for c in line if not mine >> c & 1]
        if len(held) == 2 and not occupied >> rest[0] & 1:
            points += value
    return points


def test_short_points_counts_the_lines_one_symbol_short() -> None:
    # A small line (r1c1, r1c2; r1c3 empty) is worth 1; r1c1 with r1c4 and r1c7 empty
    # is no pair; r1c1 and r1c4 with r1c7 empty is a common line, worth 2.
    def short(cells: list[int], taken: list[int]) -> int:
        lo, hi = split(sum(1 << c for c in cells))
        flo, fhi = split(((1 << 81) - 1) & ~sum(1 << c for c in cells + taken))
        return short_points(lo, hi, flo, fhi)

    assert short([0], []) == 0
    assert short([0, 1], []) == 1
    assert short([0, 1], [2]) == 0
    assert short([0, 3], []) == 2
    assert short([0, 3], [6]) == 0
    rng = random.Random(3)
    for mask in _random_masks(300):
        mine = mask & sum(1 << i for i in range(81) if rng.random() < 0.5)
        occupied = mask
        lo, hi = split(mine)
        flo, fhi = split(((1 << 81) - 1) & ~occupied)
        assert short_points(lo, hi, flo, fhi) == _short_by_lines(mine, occupied)
