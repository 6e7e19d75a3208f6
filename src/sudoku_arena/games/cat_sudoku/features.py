"""Cat Sudoku's value features: a position as numbers, for a learned evaluation.

The contract (``VERSION``, ``feature_size``, ``value_features`` from the mover's point
of view, ``symmetries``) is stated in :mod:`sudoku_arena.games.tic_tac_sudoku.features`.
Learned evaluations are for two seats. The mover is ``game.to_move(s).players[0]``, as
the search's leaf evaluator takes it: the active player while he picks the wild (WILD),
the first seat still writing in the simultaneous writing phase (WRITE, CS-6; seat 0
while both write). "Mine" is the mover's, "theirs" the other seat's. Only positions
with a seat to move have features (no ROLL, no finished game).

The layout (:func:`fields`); ``F`` is the number of fillable squares of the sheet (56
on spring, 72 on summer and winter, 76 on autumn), so :func:`feature_size` is
``14 * F + 100`` (884 on spring, 1108 on summer and winter, 1164 on autumn) and depends
on the sheet. Floats are 0 or 1 unless said, all in [0, 1] but ``lead`` (in [-1, 1]):

* two sheet blocks, mine then theirs (``7 * F`` each): for every fillable square in
  square order (row by row), :data:`SQUARE_FIELDS`: the value written there one-hot
  (six floats, all 0 while empty), then for an empty square the values that are safe
  there (would add no penalty: not in its row or column segment nor on a diagonal
  neighbour, pre-printed numbers included, CS-2, CS-8) over 6, 0 for a filled square;
* two seat blocks, mine then theirs, :data:`SEAT_FIELDS`: the deductions now (CS-8,
  the game's own scoring): ``penalty``, ``circles`` and ``sets`` over 100 (capped at
  1); ``empty`` squares over ``F``; ``safe_hist``: the empty squares with 0, 1, .. 6
  safe values, over ``F``; ``dead``: the empty squares with no safe value (each will
  cost 2 or more) over 8, capped; ``room``: for each value 1-6 the share of the empty
  squares where it is safe; ``cheapest``: for each value the least penalty writing it
  now adds on a square it may go to (``write_delta``; 0 when a safe one is left, or
  when a write would lower the penalty by joining diagonal sets) over 10, capped;
  ``left``: the dice still to write this turn (wild, then plain 1-6) over 4;
  ``writing``: he still writes this turn;
* the shared numbers, :data:`SHARED_FIELDS`: the ``phase`` (wild, write); the setup
  turn (CS-3); the wild is picked by me (``active_mine``: this turn's active player,
  so the other seat picks the next wild); the ``dice`` (how many show each value,
  over 4); the ``wild`` value one-hot (none, 1-6; none while it is being picked); the
  Wild Counter (CS-4): its twelve numbered boxes crossed off ("1+" row then "2+", values
  1-6) and the blank boxes used in each row over 3; ``turn`` over the last turn; the
  ``last_turn`` (the sheets are full at its end, CS-7); the scores: my ``lead`` over
  20 (clipped to [-1, 1]), I am ``ahead``, we are ``tied``.

The seats have no other asymmetry in the rules (the active player alternates, CS-3),
so no feature says which seat the mover is: the same position with the seats'
sheets, dice and roles exchanged has the same features.

Symmetries (:func:`symmetries`). Renaming the values by a permutation of 1-6 is a
symmetry of the rules on a sheet without pre-printed numbers: penalties (CS-8) only ask
whether values are equal, the dice are fair, and the Wild Counter's numbered boxes and
blank boxes' values are renamed with them (CS-4, CS-5). Mirroring the sheet left to
right is one when the sheet is its own mirror image (blocked squares, starting squares
and pre-printed numbers): segments, diagonal and orthogonal neighbours (the option
``adjacent``) map to themselves. Of the 720 renamings :data:`RENAMINGS` keeps twelve
(the value turned round the circle 1-6 and reversed): all of them times the mirror
would be 1,440 permutations of some 900 features, 90 ms and 10 MB to build for every
bot, and augmentation needs no more than a few. So a sheet gets the twelve (when
nothing is pre-printed) times the mirror (when symmetric): 24 on spring and summer,
12 on autumn, only the identity on winter. Square blocks move with the mirror and their six
value floats with the renaming, as do ``room``, ``cheapest``, ``left``, ``dice``,
``wild`` and the numbered counter boxes; the rest stays.

Pure Python, no NumPy; computed at every leaf of the search, so each square's seven
floats come from a table, and the segment and diagonal look-ups are the compiled
:class:`~sudoku_arena.games.cat_sudoku.rules.Board`'s.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final

from sudoku_arena.games.cat_sudoku.game import WILD, WRITE, CatSudoku, CSState
from sudoku_arena.games.cat_sudoku.rules import CIRCLE_PENALTY, explain
from sudoku_arena.games.cat_sudoku.sheet import OPEN_KINDS, PRINTED, Sheet

VERSION: Final = "cat-sudoku/1"

#: Each fillable square's floats, in order.
SQUARE_FIELDS: Final[tuple[tuple[str, int], ...]] = (("value", 6), ("safe", 1))
SQUARE: Final = sum(n for _, n in SQUARE_FIELDS)
#: Each seat's numbers, in order, with their sizes.
SEAT_FIELDS: Final[tuple[tuple[str, int], ...]] = (
    ("penalty", 1),
    ("circles", 1),
    ("sets", 1),
    ("empty", 1),
    ("safe_hist", 7),
    ("dead", 1),
    ("room", 6),
    ("cheapest", 6),
    ("left", 7),
    ("writing", 1),
)
#: The numbers both seats share, in order, with their sizes.
SHARED_FIELDS: Final[tuple[tuple[str, int], ...]] = (
    ("phase", 2),
    ("setup", 1),
    ("active_mine", 1),
    ("dice", 6),
    ("wild", 7),
    ("counter_numbered", 12),
    ("counter_blank", 2),
    ("turn", 1),
    ("last_turn", 1),
    ("lead", 1),
    ("ahead", 1),
    ("tied", 1),
)
#: How the value symmetries move the entries of a field: ``value`` fields have one entry
#: per value 1-6, ``die`` fields one for "wild" or "none" then one per value, the
#: counter one per row and value; square blocks start with one entry per value.
_KINDS: Final = {
    "room": "value",
    "cheapest": "value",
    "dice": "value",
    "left": "die",
    "wild": "die",
    "counter_numbered": "counter",
}

#: Deductions that count as "many" (the features' 1).
_MANY_POINTS: Final = 100.0
#: Dead squares that count as "many".
_MANY_DEAD: Final = 8.0
#: The penalty of a write that counts as "high" (a set of three growing to four adds 5;
#: more when circles come with it).
_HIGH_WRITE: Final = 10.0
#: The lead (points) that counts as decisive.
_LEAD: Final = 20.0

#: A filled square's floats by its value: one-hot, then "safe" 0.
_FILLED: Final[tuple[tuple[float, ...], ...]] = tuple(
    (*(1.0 if k == v else 0.0 for k in range(1, 7)), 0.0) for v in range(7)
)
#: The values safe at a square, by its blocked-value mask (bits 1-6, ``Board.blocked``).
_SAFE_VALUES: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(v for v in range(1, 7) if not m >> v & 1) for m in range(128)
)
#: An empty square's floats by its blocked-value mask: no value, then safe values / 6.
_EMPTY: Final[tuple[tuple[float, ...], ...]] = tuple(
    (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, len(_SAFE_VALUES[m]) / 6.0) for m in range(128)
)


def fields(game: CatSudoku) -> tuple[tuple[str, int], ...]:
    """The fields in order for ``game``'s sheet: name and length."""
    plane = SQUARE * len(game.board.fillable)
    out = [("sheet_mine", plane), ("sheet_theirs", plane)]
    for seat in ("mine", "theirs"):
        out += [(f"{name}_{seat}", n) for name, n in SEAT_FIELDS]
    out += SHARED_FIELDS
    return tuple(out)


def feature_size(game: CatSudoku) -> int:
    """How many floats :func:`value_features` returns (it depends on the sheet)."""
    return sum(n for _, n in fields(game))


def last_turn(game: CatSudoku) -> int:
    """The turn at whose end the sheets are full (CS-7): the setup (turn 0) and every
    turn after it write four squares, the last one the squares left (CS-6)."""
    return max(0, (len(game.board.fillable) + 3) // 4 - 1)


def _seat(
    game: CatSudoku, s: CSState, p: int, sheet_out: list[float], seat_out: list[float]
) -> int:
    """Append seat ``p``'s sheet block to ``sheet_out`` and its numbers to ``seat_out``;
    return his score now (CS-8)."""
    board = game.board
    vals = s.sheets[p]
    fillable = board.fillable
    masks = board.blocked_all(vals)
    hist = [0, 0, 0, 0, 0, 0, 0]
    room = [0, 0, 0, 0, 0, 0, 0]
    empty: list[int] = []
    for i in fillable:
        v = vals[i]
        if v:
            sheet_out += _FILLED[v]
        else:
            m = masks[i] & 0x7E
            sheet_out += _EMPTY[m]
            safe = _SAFE_VALUES[m]
            hist[len(safe)] += 1
            for u in safe:
                room[u] += 1
            empty.append(i)
    scoring = explain(board, vals, game.per_segment)
    total = scoring.total
    circles = CIRCLE_PENALTY * sum(k for _, k in scoring.circled)
    n = float(len(fillable))
    seat_out += (
        min(total / _MANY_POINTS, 1.0),
        min(circles / _MANY_POINTS, 1.0),
        min((total - circles) / _MANY_POINTS, 1.0),
        len(empty) / n,
    )
    seat_out += [k / n for k in hist]
    seat_out.append(min(hist[0] / _MANY_DEAD, 1.0))
    share = 1.0 / max(len(empty), 1)
    seat_out += [room[u] * share for u in range(1, 7)]
    # The cheapest write of each value now, on the squares it may go to: 0 where the
    # value is safe on one of them (most of the game), else the least write_delta.
    setup = s.turn == 0
    if game.every_empty_open(setup):
        allowed = empty
        free = room
    else:
        allowed = game.open_squares(vals, setup)
        free = [0, 0, 0, 0, 0, 0, 0]
        for i in allowed:
            for u in _SAFE_VALUES[masks[i] & 0x7E]:
                free[u] += 1
    per = game.per_segment
    for u in range(1, 7):
        if free[u] or not allowed:
            seat_out.append(0.0)
        else:
            least = min(board.write_delta(vals, i, u, per) for i in allowed)
            seat_out.append(min(max(least, 0) / _HIGH_WRITE, 1.0))
    d = s.left[p]
    seat_out += [x / 4.0 for x in d]
    seat_out.append(1.0 if any(d) else 0.0)
    return 100 - total


def value_features(game: CatSudoku, s: CSState) -> list[float]:
    """The fields of ``s`` (a WILD or WRITE position) as the mover sees them: the seat
    ``game.to_move(s).players[0]``, as for the search's leaf evaluator.

    Raises ``ValueError`` for a position where no seat is to move (the dice are
    being rolled, or the game is over)."""
    if s.phase != WILD and s.phase != WRITE:
        raise ValueError("value_features: no seat is to move (dice rolling or game over)")
    p = game.to_move(s).players[0]
    q = 1 - p
    out: list[float] = []
    theirs_sheet: list[float] = []
    seats: list[float] = []
    mine = _seat(game, s, p, out, seats)
    theirs = _seat(game, s, q, theirs_sheet, seats)
    out += theirs_sheet
    out += seats

    out += (1.0 if s.phase == WILD else 0.0, 1.0 if s.phase == WRITE else 0.0)
    out.append(1.0 if s.turn == 0 else 0.0)
    out.append(1.0 if s.active == p else 0.0)
    dice = [0, 0, 0, 0, 0, 0, 0]
    for x in s.dice:
        dice[x] += 1
    out += [dice[v] / 4.0 for v in range(1, 7)]
    out += [1.0 if s.wild == v else 0.0 for v in range(7)]
    counter = s.counter
    out += [1.0 if counter[9 * row + k] else 0.0 for row in (0, 1) for k in range(6)]
    for row in (0, 1):
        out.append(sum(1 for k in (6, 7, 8) if counter[9 * row + k]) / 3.0)
    last = last_turn(game)
    out.append(min(s.turn / last, 1.0) if last else 1.0)
    out.append(1.0 if s.turn >= last else 0.0)
    out.append(max(-1.0, min((mine - theirs) / _LEAD, 1.0)))
    out.append(1.0 if mine > theirs else 0.0)
    out.append(1.0 if mine == theirs else 0.0)
    return out


def mirror_symmetric(sheet: Sheet) -> bool:
    """Whether ``sheet`` is its own mirror image, left to right: the same squares
    blocked (drawn or background alike), starting and pre-printed with the same number."""

    def kind(i: int) -> int:
        k = sheet.kinds[i]
        return k if k in OPEN_KINDS else -1

    cols = sheet.cols
    for i in range(sheet.size):
        j = i - i % cols + cols - 1 - i % cols  # the same row, the mirrored column
        if kind(i) != kind(j) or sheet.printed[i] != sheet.printed[j]:
            return False
    return True


#: The renamings of the values used as symmetries (value ``v`` becomes ``r[v - 1]``): the
#: six turns of 1-6 round a circle, then the same reversed; the identity first.
RENAMINGS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple((sign * (v - 1) + k) % 6 + 1 for v in range(1, 7)) for sign in (1, -1) for k in range(6)
)


def renamings_allowed(sheet: Sheet) -> bool:
    """Whether renaming the values is a symmetry: nothing is pre-printed (CS-2)."""
    return PRINTED not in sheet.kinds


def symmetries(game: CatSudoku) -> list[list[int]]:
    """Feature permutations for the value renamings and the mirror the sheet allows
    (see the module docstring): without the mirror, then with it when the sheet is
    symmetric; within each, the :data:`RENAMINGS` in order (value ``v`` becomes the
    ``v``-th entry), the identity first."""
    return [list(p) for p in _symmetries(game.sheet, tuple(fields(game)))]


@lru_cache(maxsize=4)
def _symmetries(sheet: Sheet, layout: tuple[tuple[str, int], ...]) -> tuple[tuple[int, ...], ...]:
    # Kept for the last sheets: made once. Their entries are the int objects of one
    # list (``index``), not one object per entry.
    index = list(range(sum(n for _, n in layout)))
    cols = sheet.cols
    fillable = sheet.fillable
    mirrors = (False, True) if mirror_symmetric(sheet) else (False,)
    at = {sq: k for k, sq in enumerate(fillable)}
    # Where each fillable square's mirror image is, in square order (itself if none).
    mirrored = [at.get(sq - sq % cols + cols - 1 - sq % cols, k) for k, sq in enumerate(fillable)]
    renamings = RENAMINGS if renamings_allowed(sheet) else RENAMINGS[:1]
    out = []
    for mirror in mirrors:
        for sigma in renamings:
            to = (0, *sigma)  # value v goes to to[v]; 0 (none, wild) stays
            perm = [0] * len(index)
            start = 0
            for name, n in layout:
                # perm[new index] = old index: write each old entry where it goes.
                if name.startswith("sheet_"):
                    for k in range(len(fillable)):
                        dest = start + SQUARE * (mirrored[k] if mirror else k)
                        src = start + SQUARE * k
                        for v in range(1, 7):
                            perm[dest + to[v] - 1] = index[src + v - 1]
                        perm[dest + 6] = index[src + 6]
                else:
                    kind = _KINDS.get(name.removesuffix("_mine").removesuffix("_theirs"))
                    for j in range(n):
                        if kind == "value":
                            d = to[j + 1] - 1
                        elif kind == "die":
                            d = to[j]
                        elif kind == "counter":
                            d = 6 * (j // 6) + to[j % 6 + 1] - 1
                        else:
                            d = j
                        perm[start + d] = index[start + j]
                start += n
            out.append(tuple(perm))
    # The identity first: no mirror and the identity renaming come first above.
    return tuple(out)
