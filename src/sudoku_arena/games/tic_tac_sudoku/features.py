"""Tic-Tac-Sudoku's value features: a position as numbers, for a learned evaluation.

A learned value function (``sudoku_arena.ai.value``) scores a position from the
features below, and the trainer (``sudoku_arena.learn``) records them in self-play.
Every game that wants a learned evaluation provides a module ``features.py`` in its
package with the same three names (the contract the AI layer looks them up by):

* ``VERSION``: the name of this feature set; weights record it, and weights made from
  another feature set are refused. Change it whenever a feature changes.
* ``feature_size(game) -> int``: how many floats ``value_features`` returns.
* ``value_features(game, state) -> list[float]``: the features of a non-terminal
  ``state`` from the point of view of the seat to move ("mine" is the mover's).

and may add

* ``symmetries(game) -> list[list[int]]``: index permutations ``perm`` of the features
  such that ``[f[i] for i in perm]`` are the features of an equivalent position (a
  symmetry of the rules), the identity first. Training shows each position in all of
  them (augmentation); the value of a position must not change under any.

Pure Python, no NumPy: the games layer stays free of heavy dependencies.

The layout (:data:`FIELDS`), 437 floats, each 0 or 1 unless said:

* five planes of 81 cells, row by row: the mover's symbols that count, the opponent's,
  the X'd spaces (the empty ones are the rest), where the mover may place now, and
  where the opponent could place from his open symbol (TTS-3);
* the Map: per box, marked by the mover, marked by the opponent (18);
* scores: each seat's score over the target, and whether each is one point short;
* each seat stuck for good (TTS-8), the centre box used (TTS-5), the mover is circle;
* mobility: the number of spaces each seat may place on, over 27 (at most 1);
* each seat's points one symbol short (lines holding two of his symbols and an empty
  third space, TTS-6), over 20 (at most 1);
* each seat's nearest Map line: the symbols he still needs for its three marks (five
  in each box, TTS-6) over 15, 1 when every Map line is closed to him.

The eight symmetries of the square (rotations and reflections of the whole board) are
symmetries of the rules: they map boxes to boxes, each box's lines to lines, common
spaces to common spaces, Map lines to Map lines and keep the centre box; the numbers
travel with their cells, so the reach planes follow. Only cell and box planes move.
"""

from __future__ import annotations

from typing import Final

from sudoku_arena.games.tic_tac_sudoku.game import TicTacSudoku, TTSState
from sudoku_arena.games.tic_tac_sudoku.rules import ROW_BITS, SPLIT, short_points
from sudoku_arena.games.tic_tac_sudoku.rules import map_need as rules_map_need
from sudoku_arena.grids.square import square_sources

VERSION: Final = "tic-tac-sudoku/2"

#: The fields in order, with their sizes.
FIELDS: Final[tuple[tuple[str, int], ...]] = (
    ("mine", 81),
    ("theirs", 81),
    ("crossed", 81),
    ("reach_mine", 81),
    ("reach_theirs", 81),
    ("map_mine", 9),
    ("map_theirs", 9),
    ("scores", 2),
    ("one_short", 2),
    ("stuck", 2),
    ("centre_used", 1),
    ("mover_is_circle", 1),
    ("mobility", 2),
    ("short", 2),
    ("map_need", 2),
)
SIZE: Final = sum(n for _, n in FIELDS)

#: A row's 9 bits as 9 floats (bit k is column k): planes are built a row at a time.
_ROW_FLOATS: Final[tuple[tuple[float, ...], ...]] = tuple(
    tuple(float(bits >> k & 1) for k in range(9)) for bits in range(512)
)
#: Most spaces a seat can reach at once: three numbers, nine of each.
_MOST_REACH: Final = 27.0
#: Points one symbol short that count as "many" (the feature's 1).
_MANY_SHORT: Final = 20.0
#: Symbols a Map line needs from an empty board: five in each of three boxes.
_LINE_SYMBOLS: Final = 15.0


def feature_size(game: TicTacSudoku) -> int:
    """How many floats :func:`value_features` returns (the same for every grid)."""
    return SIZE


def _plane(out: list[float], lo: int, hi: int) -> None:
    """Append the 81 cells of the mask ``(lo, hi)`` (see ``rules.split``) as floats."""
    for _ in range(SPLIT // 9):
        out.extend(_ROW_FLOATS[lo & ROW_BITS])
        lo >>= 9
    for _ in range((81 - SPLIT) // 9):
        out.extend(_ROW_FLOATS[hi & ROW_BITS])
        hi >>= 9


def _count(lo: int, hi: int) -> int:
    """How many cells the mask ``(lo, hi)`` holds."""
    return lo.bit_count() + hi.bit_count()


def map_need(s: TTSState, p: int) -> int:
    """The fewest symbols seat ``p`` still needs for a Map line (see
    :func:`~sudoku_arena.games.tic_tac_sudoku.rules.map_need`)."""
    lo, hi = (s.m0_lo, s.m0_hi) if p == 0 else (s.m1_lo, s.m1_hi)
    return rules_map_need(lo, hi, s.occ_lo, s.occ_hi, s.map, p)


def value_features(game: TicTacSudoku, s: TTSState) -> list[float]:
    """The :data:`FIELDS` of the non-terminal ``s`` as the seat to move sees them.

    Raises ``ValueError`` for a finished game (nobody is to move)."""
    p = s.current
    if p < 0:
        raise ValueError("value_features: the game is over, nobody is to move")
    if p == 0:
        mine_lo, mine_hi, their_lo, their_hi = s.m0_lo, s.m0_hi, s.m1_lo, s.m1_hi
        my_open, their_open = s.open0, s.open1
        my_score, their_score = s.score0, s.score1
        my_stuck, their_stuck = s.stuck0, s.stuck1
    else:
        mine_lo, mine_hi, their_lo, their_hi = s.m1_lo, s.m1_hi, s.m0_lo, s.m0_hi
        my_open, their_open = s.open1, s.open0
        my_score, their_score = s.score1, s.score0
        my_stuck, their_stuck = s.stuck1, s.stuck0
    occ_lo, occ_hi = s.occ_lo, s.occ_hi
    free_lo, free_hi = ~occ_lo, ~occ_hi
    # The reach tables are indexed by the open cell; -1 (no symbol yet) reads the
    # first placement's entry at the end, as the engine does.
    reach_lo, reach_hi = game._reach_lo, game._reach_hi
    my_lo, my_hi = reach_lo[my_open] & free_lo, reach_hi[my_open] & free_hi
    th_lo, th_hi = reach_lo[their_open] & free_lo, reach_hi[their_open] & free_hi
    out: list[float] = []
    _plane(out, mine_lo, mine_hi)
    _plane(out, their_lo, their_hi)
    _plane(out, occ_lo & ~(mine_lo | their_lo), occ_hi & ~(mine_hi | their_hi))
    _plane(out, my_lo, my_hi)
    _plane(out, th_lo, th_hi)
    out.extend(1.0 if m == p else 0.0 for m in s.map)
    out.extend(1.0 if m >= 0 and m != p else 0.0 for m in s.map)
    target = float(game.target)
    out.append(min(my_score / target, 1.0))
    out.append(min(their_score / target, 1.0))
    out.append(1.0 if my_score >= game.target - 1 else 0.0)
    out.append(1.0 if their_score >= game.target - 1 else 0.0)
    out.append(1.0 if my_stuck else 0.0)
    out.append(1.0 if their_stuck else 0.0)
    out.append(1.0 if s.centre_used else 0.0)
    out.append(1.0 if p == 0 else 0.0)
    # A first placement may go anywhere but the centre box (72 spaces): capped at 1.
    out.append(min(_count(my_lo, my_hi) / _MOST_REACH, 1.0))
    out.append(min(_count(th_lo, th_hi) / _MOST_REACH, 1.0))
    out.append(min(short_points(mine_lo, mine_hi, free_lo, free_hi) / _MANY_SHORT, 1.0))
    out.append(min(short_points(their_lo, their_hi, free_lo, free_hi) / _MANY_SHORT, 1.0))
    out.append(min(map_need(s, p) / _LINE_SYMBOLS, 1.0))
    out.append(min(map_need(s, 1 - p) / _LINE_SYMBOLS, 1.0))
    return out


def symmetries(game: TicTacSudoku) -> list[list[int]]:
    """Feature permutations for the board's eight symmetries (see the module docstring)."""
    perms = []
    # The permutation reads, for each new index, its source.
    for cell_src, box_src in zip(square_sources(9), square_sources(3), strict=True):
        perm: list[int] = []
        start = 0
        for _, size in FIELDS:
            src = cell_src if size == 81 else box_src if size == 9 else list(range(size))
            perm += [start + k for k in src]
            start += size
        perms.append(perm)
    return perms
