"""Positions from text diagrams, for tests, examples and analysis.

A diagram is one line per board row, top row first, cells separated by spaces::

        a b c d e
     5  . . . . .
     4  . B # # .
     3  . B # # o
     2  R* . . . r
     1  . . . . .

Tokens: ``.`` empty, ``B``/``R`` a blue (seat 0) / red (seat 1) warrior, ``#`` a wall
cell (four ``#`` in a 2x2 block make one wall), ``o`` a neutral citadel, ``b``/``r`` an
empty citadel owned by blue/red, ``B*``/``R*`` a warrior standing on its own citadel.

An optional header line of column letters says which columns the tokens are in, and an
optional number before each row says which row it is; so a diagram may show only part
of the board (the rest is empty). Without them the diagram starts at column ``a`` and
its last line is row 1. Setup rules (citadel spacing) are not checked: diagrams are for
play positions.
"""

from __future__ import annotations

from collections.abc import Iterable

from sudoku_arena.core.errors import NotationError, StateFormatError
from sudoku_arena.games.citadel.game import PLAY, Citadel, CitadelState
from sudoku_arena.games.citadel.rules import COLUMNS, EMPTY, WALL_LL, parse_cell

_WARRIOR = {"B": 1, "R": 2}
_CITADEL_OWNER = {"o": -1, "b": 0, "r": 1, "B*": 0, "R*": 1}


def from_diagram(
    game: Citadel,
    diagram: str,
    *,
    to_move: int = 0,
    credits: int | None = None,
    turn: int = 0,
    spent: Iterable[str] = (),
    sieges: int = 0,
    sieged: Iterable[str] = (),
) -> CitadelState:
    """A play-phase state of ``game`` drawn by ``diagram``, with ``to_move`` to act.

    ``credits`` defaults to what ``to_move`` would get at the start of a turn (one per
    citadel he controls); ``spent``, ``sieges`` and ``sieged`` set the turn's attack and
    siege bookkeeping (cells by name). The position is taken as the start of the turn
    for CI-8: the mover's citadels besieged now stay besieged for the turn.
    """
    n = game.size
    lines = [ln.split() for ln in diagram.strip("\n").splitlines() if ln.strip()]
    columns: list[int] | None = None
    if lines and all(len(t) == 1 and t in COLUMNS for t in lines[0]):
        columns = [COLUMNS.index(t) for t in lines[0]]
        lines = lines[1:]
    rows: list[tuple[int, list[str]]] = []
    for k, toks in enumerate(lines):
        if toks and toks[0].isdigit():
            rows.append((int(toks[0]) - 1, toks[1:]))
        else:
            rows.append((len(lines) - 1 - k, toks))
    board = [EMPTY] * (n * n)
    wall_cells: set[int] = set()
    cits: dict[int, int] = {}
    for r, toks in rows:
        cols = columns if columns is not None else list(range(len(toks)))
        if len(toks) != len(cols):
            raise StateFormatError(f"row {r + 1} has {len(toks)} cells, expected {len(cols)}")
        if not 0 <= r < n:
            raise StateFormatError(f"row {r + 1} is off the {n}x{n} board")
        for c, tok in zip(cols, toks, strict=True):
            if c >= n:
                raise StateFormatError(f"column {COLUMNS[c]} is off the {n}x{n} board")
            i = r * n + c
            if tok == ".":
                continue
            if tok == "#":
                wall_cells.add(i)
            elif tok in _WARRIOR:
                board[i] = _WARRIOR[tok]
            elif tok in _CITADEL_OWNER:
                cits[i] = _CITADEL_OWNER[tok]
                if tok.endswith("*"):
                    board[i] = _WARRIOR[tok[0]]
            else:
                raise StateFormatError(
                    f"unknown token {tok!r} in row {r + 1}; use . B R # o b r B* R*"
                )
    # The lowest, leftmost wall cell left is always the lower-left cell of its wall.
    for i in sorted(wall_cells):
        if i not in wall_cells:
            continue
        block = game.geo.block[i]
        if not block or any(x not in wall_cells for x in block):
            raise StateFormatError(f"the wall cells at {game.geo.name(i)} do not form 2x2 walls")
        for x, q in zip(block, range(WALL_LL, WALL_LL + 4), strict=True):
            board[x] = q
            wall_cells.discard(x)
    citadels = tuple(sorted(cits))
    s = CitadelState(
        board=bytes(board),
        citadels=citadels,
        owners=tuple(cits[c] for c in citadels),
        phase=PLAY,
        current=to_move,
        turn=turn,
        sieges=sieges,
    )
    try:
        spent_set = frozenset(game.geo.cell(x) for x in spent)
        sieged_set = frozenset(game.geo.cell(x) for x in sieged)
    except NotationError as exc:
        raise StateFormatError(str(exc)) from None
    if credits is None:
        credits = len(game.controlled(s, to_move))
    s = CitadelState(
        board=s.board,
        citadels=s.citadels,
        owners=s.owners,
        phase=PLAY,
        current=to_move,
        credits=credits,
        spent=spent_set,
        sieges=sieges,
        sieged=sieged_set,
        turn=turn,
    )
    # As at the start of a turn: the mover's besieged citadels stay so for the turn.
    return game.with_turn_sieges(s)


def to_diagram(game: Citadel, s: CitadelState) -> str:
    """The whole board of ``s`` as a diagram that :func:`from_diagram` reads back."""
    n = game.size
    owners = dict(zip(s.citadels, s.owners, strict=True))
    lines = ["    " + " ".join(f"{c:<2}" for c in COLUMNS[:n]).rstrip()]
    for r in range(n - 1, -1, -1):
        toks = []
        for c in range(n):
            i = r * n + c
            v = s.board[i]
            if i in owners:
                tok = "obr"[owners[i] + 1]
                if v in (1, 2):
                    tok = "BR"[v - 1] + "*"
            elif v in (1, 2):
                tok = "BR"[v - 1]
            elif v >= WALL_LL:
                tok = "#"
            else:
                tok = "."
            toks.append(f"{tok:<2}")
        lines.append(f"{r + 1:>2}  " + " ".join(toks).rstrip())
    return "\n".join(lines)


__all__ = ["from_diagram", "parse_cell", "to_diagram"]
