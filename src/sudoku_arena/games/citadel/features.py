"""Citadel's value features: a position as numbers, for a learned evaluation.

The contract (``VERSION``, ``feature_size``, ``value_features`` from the mover's point
of view, ``symmetries``) is stated in :mod:`sudoku_arena.games.tic_tac_sudoku.features`.
"Mine" is the seat to act (CI-6: a turn is many actions, so the mover acts again and
again until ``end``); "theirs" the other seat. The board has ``size x size`` cells
(9 to 19, CI-1), so :func:`feature_size` depends on the game's ``size``.

The layout (:func:`fields`); floats are 0 or 1 unless said:

* cell planes (``size * size`` each, the board's cell order: row by row from the
  bottom): my warriors, theirs, walls (CI-4); the citadels I control, they control,
  nobody controls (CI-7, per the game's ``control`` option); the strength (CI-5) of my
  warriors and of theirs, over 6 (the most: four friends and a citadel); my warriors
  spent in an attack this turn (they may not attack again, CI-6); their warriors I may
  take by siege now (CI-6, CI-8; none once two were taken this turn); my warriors in a
  group without liberties (theirs to take on their turn);
* nine citadel blocks of :data:`CITADEL_FIELDS`, one per citadel: controlled by me, by
  them; occupied by my warrior, theirs; the occupant's strength over 6; my warriors,
  their warriors and walls next to it, each over 4 (its defenders and attackers);
  how near my nearest warrior is and their nearest, as ``exp(-steps / 3)`` (0 with
  none); besieged (CI-8); locked (mine, besieged when my turn began: no recruits
  there this turn). The blocks are sorted (largest first), so a citadel's block does
  not depend on the order the citadels were placed in; citadels not yet placed give
  zeros at the end;
* numbers: the phase (setup, claim, play), the mover is blue, citadels placed over 9;
  citadels each controls over 9, each two ahead (CI-9: the leader at the start of his
  turn wins); credits left over 9, siege captures left over 2; warriors each has over
  the warrior limit, the limit reached for me (no recruits); turns played over the
  turn limit (a draw at the end); and the hand-written evaluation's terms for each
  seat (``search.py``): the guard of its occupied citadels against the nearest enemy,
  over 9, and its reach toward the citadels it does not control, over 13.5.

Symmetries. The eight symmetries of the square (rotations and reflections of the whole
board) are symmetries of the rules: orthogonal neighbours, groups and liberties, the
2x2 wall blocks and which walls touch side by side (strengths, CI-5), the citadels'
distance from the edges and from each other (CI-2) all map to themselves; nothing in
the rules depends on a direction or on the cells' names. The cell planes move; the
citadel blocks (distances and counts, sorted) and the numbers stay.

Pure Python, no NumPy; computed at every leaf of the search, so planes are read with
code tables, and each citadel's distance to every cell is kept for the last layout.
"""

from __future__ import annotations

import math
from functools import cache
from typing import Final

from sudoku_arena.games.citadel.game import CLAIM, OVER, PLAY, SETUP, Citadel, CitadelState
from sudoku_arena.games.citadel.rules import WALL_LL, positions
from sudoku_arena.grids.square import square_sources

VERSION: Final = "citadel/1"

#: The cell planes, in order.
PLANES: Final = (
    "mine",
    "theirs",
    "wall",
    "citadel_mine",
    "citadel_theirs",
    "citadel_nobody",
    "strength_mine",
    "strength_theirs",
    "spent",
    "takeable",
    "captive_mine",
)
#: Each citadel's block, in order.
CITADEL_FIELDS: Final = (
    "held_mine",
    "held_theirs",
    "occupied_mine",
    "occupied_theirs",
    "occupant_strength",
    "next_mine",
    "next_theirs",
    "next_walls",
    "near_mine",
    "near_theirs",
    "besieged",
    "locked",
)
CITADELS: Final = 9
#: The numbers after the blocks, with their sizes.
NUMBERS: Final = (
    ("phase", 3),
    ("mover_is_blue", 1),
    ("placed", 1),
    ("held", 2),
    ("two_ahead", 2),
    ("credits", 1),
    ("sieges_left", 1),
    ("warriors", 2),
    ("cap_reached", 1),
    ("turns", 1),
    ("guard", 2),
    ("reach", 2),
)

#: Strongest warrior (CI-5): itself, four friends, a citadel.
_MOST_STRENGTH: Final = 6.0
#: Board codes (0 empty, 1/2 warriors, 3..6 wall quarters) to 1.0 where a wall stands.
_WALL: Final = tuple(1.0 if k >= WALL_LL else 0.0 for k in range(7))
#: ... and where a warrior of seat 0 or seat 1 stands.
_WARRIOR: Final = tuple(tuple(1.0 if k == p + 1 else 0.0 for k in range(7)) for p in (0, 1))
_BLOCK: Final = len(CITADEL_FIELDS)
_NO_BLOCK: Final = (0.0,) * _BLOCK


def fields(size: int) -> tuple[tuple[str, str, int], ...]:
    """The fields in order for a ``size`` board: name, kind (``cell`` planes of
    ``size * size``, or ``fixed``), length."""
    cells = size * size
    out = [(name, "cell", cells) for name in PLANES]
    out += [(f"citadel_{k}", "fixed", _BLOCK) for k in range(CITADELS)]
    out += [(name, "fixed", length) for name, length in NUMBERS]
    return tuple(out)


def feature_size(game: Citadel) -> int:
    """How many floats :func:`value_features` returns (it depends on the board size)."""
    return sum(length for _, _, length in fields(game.size))


@cache
def _distances(size: int, cell: int) -> tuple[int, ...]:
    """Steps (``|rows| + |columns|``, as the hand-written evaluation counts) from
    ``cell`` to every cell of a ``size`` board (one row per citadel site, kept)."""
    r, c = divmod(cell, size)
    return tuple(abs(r - i // size) + abs(c - i % size) for i in range(size * size))


def value_features(game: Citadel, s: CitadelState) -> list[float]:
    """The fields of the non-terminal ``s`` as the seat to act sees them.

    Raises ``ValueError`` for a finished game (nobody is to move)."""
    if s.phase == OVER:
        raise ValueError("value_features: the game is over, nobody is to move")
    p = s.current
    me, en = p + 1, 2 - p
    geo = game.geo
    n = game.size
    cells = n * n
    board = s.board
    nbrs = geo.nbrs
    cits = game.citadel_set(s)

    # Comprehensions over the code tables: the fastest way to floats in CPython.
    mine_table, their_table = _WARRIOR[p], _WARRIOR[1 - p]
    out = [mine_table[k] for k in board]
    out += [their_table[k] for k in board]
    out += [_WALL[k] for k in board]
    # The other eight planes are mostly empty: zeros, then the cells that hold one.
    base = len(out)
    out += [0.0] * (8 * cells)
    held = [0, 0]
    control = [game.controller(s, k) for k in range(len(s.citadels))]
    for c, ctl in zip(s.citadels, control, strict=True):
        plane = 2 if ctl < 0 else 0 if ctl == p else 1
        out[base + plane * cells + c] = 1.0
        if ctl >= 0:
            held[ctl] += 1
    mine, theirs = positions(board, me), positions(board, en)
    strength = [0] * cells
    for plane, code, warriors in ((3, me, mine), (4, en, theirs)):
        at = base + plane * cells
        for i in warriors:
            x = 1 + (i in cits)
            for j in nbrs[i]:
                if board[j] == code:
                    x += 1
            strength[i] = x
            out[at + i] = x / _MOST_STRENGTH
    at = base + 5 * cells
    for i in s.spent:
        out[at + i] = 1.0
    if s.sieges < 2:
        at = base + 6 * cells
        for group in geo.captive_groups(board, en):
            for i in group:
                out[at + i] = 1.0
        for i in s.sieged:
            if board[i] == en:
                out[at + i] = 1.0
    at = base + 7 * cells
    for group in geo.captive_groups(board, me):
        for i in group:
            out[at + i] = 1.0

    # The citadel blocks, and the hand-written evaluation's guard and reach (search.py).
    far = 2 * n  # the distance the evaluation assumes with no enemy warrior at all
    guard = [0.0, 0.0]
    reach = [0.0, 0.0]
    blocks: list[tuple[float, ...]] = []
    locked = s.locked
    for k, c in enumerate(s.citadels):
        ctl = control[k]
        row = _distances(n, c).__getitem__
        d_mine = min(map(row, mine), default=-1)
        d_theirs = min(map(row, theirs), default=-1)
        on = board[c]
        for q, d_own, d_enemy in ((p, d_mine, d_theirs), (1 - p, d_theirs, d_mine)):
            if ctl == q:
                if on == q + 1:
                    near = d_enemy if d_enemy >= 0 else far
                    guard[q] += math.exp(-(max(near, 1) - 1) / 2.0)
            elif d_own >= 0:
                # An enemy warrior standing on it must be fought first: count it farther.
                d = d_own + 3 if on and on != q + 1 else d_own
                reach[q] += math.exp(-d / 3.0) * (1.5 if ctl >= 0 else 1.0)
        next_mine = next_theirs = next_walls = 0
        for j in nbrs[c]:
            b = board[j]
            if b == me:
                next_mine += 1
            elif b == en:
                next_theirs += 1
            elif b >= WALL_LL:
                next_walls += 1
        blocks.append(
            (
                1.0 if ctl == p else 0.0,
                1.0 if ctl == 1 - p else 0.0,
                1.0 if on == me else 0.0,
                1.0 if on == en else 0.0,
                strength[c] / _MOST_STRENGTH,
                next_mine / 4.0,
                next_theirs / 4.0,
                next_walls / 4.0,
                math.exp(-d_mine / 3.0) if d_mine >= 0 else 0.0,
                math.exp(-d_theirs / 3.0) if d_theirs >= 0 else 0.0,
                1.0 if ctl >= 0 and game.citadel_siege(s, k) is not None else 0.0,
                1.0 if c in locked else 0.0,
            )
        )
    blocks.sort(reverse=True)
    for block in blocks:
        out += block
    for _ in range(CITADELS - len(blocks)):
        out += _NO_BLOCK

    phase = s.phase
    out += (
        1.0 if phase == SETUP else 0.0,
        1.0 if phase == CLAIM else 0.0,
        1.0 if phase == PLAY else 0.0,
    )
    out.append(1.0 if p == 0 else 0.0)
    out.append(len(s.citadels) / CITADELS)
    mine_held, their_held = held[p], held[1 - p]
    out += (mine_held / CITADELS, their_held / CITADELS)
    out += (
        1.0 if mine_held >= their_held + 2 else 0.0,
        1.0 if their_held >= mine_held + 2 else 0.0,
    )
    out.append(min(s.credits / CITADELS, 1.0) if phase == PLAY else 0.0)
    out.append((2 - s.sieges) / 2.0 if phase == PLAY else 0.0)
    cap = game.warrior_cap
    out += (min(len(mine) / cap, 1.0), min(len(theirs) / cap, 1.0))
    counted = len(mine) if game.cap_mode == "per_player" else len(mine) + len(theirs)
    out.append(1.0 if counted >= cap else 0.0)
    out.append(s.turn / game.max_turns)
    out += (guard[p] / CITADELS, guard[1 - p] / CITADELS)
    out += (reach[p] / (1.5 * CITADELS), reach[1 - p] / (1.5 * CITADELS))
    return out


def symmetries(game: Citadel) -> list[list[int]]:
    """Feature permutations for the board's eight symmetries (see the module docstring)."""
    perms = []
    for src in square_sources(game.size):
        perm: list[int] = []
        start = 0
        for _, kind, length in fields(game.size):
            perm += [start + k for k in (src if kind == "cell" else range(length))]
            start += length
        perms.append(perm)
    return perms
