"""Sudoku Warriors' value features: a position as numbers, for a learned evaluation.

The contract (``VERSION``, ``feature_size``, ``value_features`` from the mover's point
of view, ``symmetries``) is stated in :mod:`sudoku_arena.games.tic_tac_sudoku.features`.
The mover is the seat to act: the bidder while a battle is fought (SW-9, SW-10),
otherwise the placer. Seats are listed from the mover on, in turn order ("seat 0" is
the mover, "seat 1" the one after him, ...), so a feature set has one plane per seat
for two or three players and :func:`feature_size` depends on the number of players
(self-play and the learned evaluation take two seats for now: ``ai.features``).

The layout (:func:`fields`), for ``n`` players; floats are 0 or 1 unless said:

* hilltop planes (100 each, ``10 * i + j``): each seat's warriors (n), the X'd ones;
* village planes (81 each, row by row): the villages each seat controls (n, SW-5); the
  resource of each village not yet spent, over 9 (0 once spent, SW-11);
* province planes (9 each): held by each seat (n); empty hilltops over 16; each seat
  has a warrior around the capital (n, SW-7) and the empty capital hilltops over 4;
  each seat's warriors on the 16 hilltops over 16 (n, SW-8); the unspent resources
  each seat controls where he could add them in the province's battle, over all the
  resources there (n, SW-11); the hand-written evaluation's chance of each seat to win
  the province (n, 0 once held: ``search.py``'s estimate, so a network can start from
  it); the battles due (pending) and the battle being fought;
* per seat (n each): provinces held over the target, one province short of it, the
  hand-written expected provinces (held plus those chances) over 9; in a battle:
  fighting, still in, the battle score over 64 and that score plus the resources he
  may still add over 64 (both capped at 1); the placer (whose turn follows, SW-6);
* the phase (placing, choosing the next battle, bidding), the opening bid (SW-9), what
  the mover must add to lead, over 32 (in [-1, 1]), and the empty hilltops over 100.

Symmetries. The eight symmetries of the square (rotations and reflections of the whole
board, its numbers moving with their villages) are symmetries of the rules: they map
the 10x10 hilltops onto themselves, each village's four corners to the image village's
corners (so control, SW-5, follows), the 3x3 boxes to boxes with the 4x4 blocks of
hilltops, capitals (centre villages) and capital hilltops to theirs, and provinces
sharing a side to provinces sharing a side (so the battle villages, SW-11, follow).
Nothing else in the rules is geometric: turn order, bids and claims go by seat. The
mapped grid is another completed Sudoku, and since the resources are features the
position it gives is a legal, equivalent one. Hilltop, village and province planes
move; the rest stays.

Pure Python, no NumPy; computed at every leaf of the search, so the planes are read
with look-up tables made once per number of players.
"""

from __future__ import annotations

import math
from functools import cache
from operator import itemgetter, truediv
from typing import Final

from sudoku_arena.games.sudoku_warriors.game import SudokuWarriors, SWState
from sudoku_arena.games.sudoku_warriors.rules import (
    CAPITAL_HILLS,
    NEIGHBOURS,
    PROV_HILLS,
    XD,
)
from sudoku_arena.grids.square import sources, square_maps
from sudoku_arena.grids.sudoku import box_of

VERSION: Final = "sudoku-warriors/1"

#: The unit of each kind of field: a plane of hilltops, villages or provinces, or one
#: number per seat or per position. Symmetries permute within hilltop, village and
#: province planes.
UNITS: Final = {"hill": 100, "village": 81, "province": 9, "seat": 1, "scalar": 1}

#: Points of battle strength per factor e, as the greedy agent's and search's estimate
#: (``strength.SOFTNESS``); fixed here so that the features change only with VERSION.
_SOFTNESS: Final = 8.0
#: Scales of the battle figures (a score of 64 is more than any battle reaches).
_SCORE_SCALE: Final = 64.0
_NEED_SCALE: Final = 32.0

_BOX: Final = tuple(box_of(c) for c in range(81))
#: The provinces whose villages may be added in each province's battle (SW-11).
_REGION: Final = tuple((b, *NEIGHBOURS[b]) for b in range(9))
#: The resources of those villages together (each box holds 1..9 once: 45).
_REGION_TOTAL: Final = tuple(45.0 * len(r) for r in _REGION)
#: The codes of each province's 16 hilltops and of its capital's 4, read in one call.
_PROV_GET: Final = tuple(itemgetter(*hills) for hills in PROV_HILLS)
_CAPITAL_GET: Final = tuple(itemgetter(*hills) for hills in CAPITAL_HILLS)
_CROSSED: Final = tuple(1.0 if k == XD else 0.0 for k in range(XD + 1))


def fields(n: int) -> tuple[tuple[str, str, int], ...]:
    """The fields in order for ``n`` players: name, kind (:data:`UNITS`), repeats."""
    return (
        ("hill_warriors", "hill", n),
        ("hill_crossed", "hill", 1),
        ("village_control", "village", n),
        ("village_resource", "village", 1),
        ("province_held", "province", n),
        ("province_empty", "province", 1),
        ("capital_present", "province", n),
        ("capital_empty", "province", 1),
        ("province_warriors", "province", n),
        ("province_resources", "province", n),
        ("province_chance", "province", n),
        ("province_pending", "province", 1),
        ("province_battle", "province", 1),
        ("held", "seat", n),
        ("one_short", "seat", n),
        ("expected", "seat", n),
        ("fighting", "seat", n),
        ("still_in", "seat", n),
        ("battle_score", "seat", n),
        ("battle_reach", "seat", n),
        ("placer", "seat", n),
        ("phase", "scalar", 3),
        ("opening", "scalar", 1),
        ("need", "scalar", 1),
        ("free", "scalar", 1),
    )


def feature_size(game: SudokuWarriors) -> int:
    """How many floats :func:`value_features` returns (it depends on the players)."""
    return sum(UNITS[kind] * k for _, kind, k in fields(game.num_players))


@cache
def _tables(
    n: int, mover: int
) -> tuple[tuple[int, ...], tuple[tuple[float, ...], ...], tuple[tuple[float, ...], ...]]:
    """For ``n`` players and the seat ``mover``: the seats from the mover on; per seat
    a table of hilltop codes (0..4) giving 1.0 where his warrior stands; per seat a
    table of village controllers giving 1.0 where he controls (indexed by the
    controller: -1, nobody, reads the last entry, 0.0)."""
    order = tuple((mover + k) % n for k in range(n))
    hills = tuple(tuple(1.0 if k == q + 1 else 0.0 for k in range(XD + 1)) for q in order)
    ctrls = tuple(tuple(1.0 if c == q else 0.0 for c in range(n + 1)) for q in order)
    return order, hills, ctrls


#: The last grid seen and its resources over 9 (one grid per game: computed once).
_last_grid: list[tuple[tuple[int, ...], tuple[float, ...]]] = [((), ())]


def _resources(grid: tuple[int, ...]) -> tuple[float, ...]:
    """The grid's resources over 9, as floats."""
    last = _last_grid[0]
    if last[0] is not grid:
        last = (grid, tuple(g / 9.0 for g in grid))
        _last_grid[0] = last
    return last[1]


def value_features(game: SudokuWarriors, s: SWState) -> list[float]:
    """The fields of the non-terminal ``s`` as the seat to act sees them.

    Raises ``ValueError`` for a finished game (nobody is to move)."""
    if s.current < 0:
        raise ValueError("value_features: the game is over, nobody is to move")
    n = game.num_players
    battle = s.battle
    mover = s.actor if battle >= 0 else s.current
    order, hill_tables, ctrl_tables = _tables(n, mover)
    hill, ctrl, spent, owner, grid = s.hill, s.ctrl, s.spent, s.owner, game.grid
    out: list[float] = []
    # Comprehensions over the look-up tables: the fastest way to floats in CPython.
    for table in hill_tables:
        out += [table[k] for k in hill]
    out += [_CROSSED[k] for k in hill]
    for table in ctrl_tables:
        out += [table[q] for q in ctrl]
    res = _resources(grid)
    if spent:
        out.extend([0.0 if spent >> c & 1 else r for c, r in enumerate(res)])
    else:
        out.extend(res)

    # Per seat and province: warriors on its 16 hilltops (SW-8), a warrior around its
    # capital (SW-7), the unspent resources he could add in its battle (SW-11).
    blocks = [get(hill) for get in _PROV_GET]
    capitals = [get(hill) for get in _CAPITAL_GET]
    cap_empty = [codes.count(0) for codes in capitals]
    warriors = [[codes.count(q + 1) for codes in blocks] for q in range(n)]
    capital = [[q + 1 in codes for codes in capitals] for q in range(n)]
    box_res = [[0] * 9 for _ in range(n)]
    for c, q in enumerate(ctrl):
        if q >= 0 and not spent >> c & 1:
            box_res[q][_BOX[c]] += grid[c]
    region_res = [[sum(map(own.__getitem__, r)) for r in _REGION] for own in box_res]

    # The hand-written estimate (search.py): each seat's chance for each open province.
    chance = [[0.0] * 9 for _ in range(n)]
    bscore = s.bscore
    for b in range(9):
        if owner[b] >= 0:
            continue
        weights = [0.0] * n
        if b == battle:
            for q in s.active:
                weights[q] = math.exp((bscore[q] + region_res[q][b]) / _SOFTNESS)
        else:
            for q in range(n):
                if capital[q][b] or cap_empty[b]:
                    weights[q] = math.exp((warriors[q][b] + region_res[q][b]) / _SOFTNESS)
        total = math.fsum(weights)  # exact: the same whatever the seats' order
        if total > 0:
            for q in range(n):
                chance[q][b] = weights[q] / total
    # Summed exactly: the same in every symmetry, whatever the provinces' order.
    expected = [owner.count(q) + math.fsum(chance[q]) for q in range(n)]

    for q in order:
        out.extend([1.0 if o == q else 0.0 for o in owner])
    out.extend([e / 16.0 for e in s.empties])
    for q in order:
        out.extend([1.0 if x else 0.0 for x in capital[q]])
    out.extend([e / 4.0 for e in cap_empty])
    for q in order:
        out.extend([w / 16.0 for w in warriors[q]])
    for q in order:
        out.extend(map(truediv, region_res[q], _REGION_TOTAL))
    for q in order:
        out.extend(chance[q])
    pending = s.pending
    out.extend([1.0 if b in pending else 0.0 for b in range(9)])
    out.extend([1.0 if b == battle else 0.0 for b in range(9)])

    target = game.target
    held = [owner.count(q) for q in range(n)]
    out.extend([held[q] / target for q in order])
    out.extend([1.0 if held[q] == target - 1 else 0.0 for q in order])
    out.extend([expected[q] / 9.0 for q in order])
    fighters, active = s.fighters, s.active
    out.extend([1.0 if q in fighters else 0.0 for q in order])
    out.extend([1.0 if q in active else 0.0 for q in order])
    if battle >= 0:
        out.extend([min(bscore[q] / _SCORE_SCALE, 1.0) for q in order])
        out.extend(
            [
                min((bscore[q] + region_res[q][battle]) / _SCORE_SCALE, 1.0) if q in active else 0.0
                for q in order
            ]
        )
    else:
        out.extend([0.0] * (2 * n))
    out.extend([1.0 if q == s.current else 0.0 for q in order])

    out.append(1.0 if battle < 0 and not pending else 0.0)
    out.append(1.0 if battle < 0 and pending else 0.0)
    out.append(1.0 if battle >= 0 else 0.0)
    out.append(1.0 if battle >= 0 and not s.opened else 0.0)
    need = 0.0
    if battle >= 0 and s.opened:
        top = max(bscore[q] for q in active if q != mover)
        need = max(-1.0, min((top + 1 - bscore[mover]) / _NEED_SCALE, 1.0))
    out.append(need)
    out.append(len(s.free) / 100.0)
    return out


def symmetries(game: SudokuWarriors) -> list[list[int]]:
    """Feature permutations for the board's eight symmetries (see the module docstring)."""
    maps = zip(square_maps(10), square_maps(9), square_maps(3), strict=True)
    perms = []
    for hills, villages, boxes in maps:
        src = {"hill": sources(hills), "village": sources(villages), "province": sources(boxes)}
        perm: list[int] = []
        start = 0
        for _, kind, repeats in fields(game.num_players):
            unit = UNITS[kind]
            within = src.get(kind, list(range(unit)))
            for _ in range(repeats):
                perm += [start + k for k in within]
                start += unit
        perms.append(perm)
    return perms
