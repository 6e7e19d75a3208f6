"""Building Sudoku Warriors positions for tests, and driving them in notation."""

from __future__ import annotations

from sudoku_arena.games.sudoku_warriors.game import SudokuWarriors, SWState
from sudoku_arena.games.sudoku_warriors.rules import PROV_HILLS


def board(text: str, *, fill: str = "", with_: str = "x") -> str:
    """Ten rows of ten hilltop characters; every empty hilltop of the provinces named in
    ``fill`` (``"b2 b4"``) becomes ``with_``."""
    rows = [r.strip() for r in text.strip().splitlines()]
    assert len(rows) == 10 and all(len(r) == 10 for r in rows), rows
    chars = list("".join(rows))
    for name in fill.split():
        for h in PROV_HILLS[int(name[1]) - 1]:
            if chars[h] == ".":
                chars[h] = with_
    return "\n".join("".join(chars[10 * i : 10 * i + 10]) for i in range(10))


def play(game: SudokuWarriors, s: SWState, moves: list[str]) -> SWState:
    """Apply moves in notation, each by the seat to move."""
    for m in moves:
        s = game.apply(s, game.parse_action(m))
    return s


def legal(game: SudokuWarriors, s: SWState) -> list[str]:
    """The mover's legal actions in notation."""
    tm = game.to_move(s)
    return [game.format_action(a) for a in game.legal_actions(s, tm.players[0])]


def mover(game: SudokuWarriors, s: SWState) -> int:
    return game.to_move(s).players[0]


# The b1 battle used by SW-9..12: square places h03 and opens; circle has r1c1 spent.
B1_BATTLE = board("""
    oos.o.....
    oossoo....
    ooss......
    osss......
    o.........
    ..........
    ..........
    ..........
    ..........
    ..........
""")

# Circle places h13, the last hilltop of both b1 and b2. Circle alone holds b1's capital;
# b2's capital is shared with square (circle 6 warriors in b2 after h13, square 10).
TWO_BATTLES = """
    ooossos...
    ooo.oso...
    ooossos...
    sssssoso..
    ..........
    ..........
    ..........
    ..........
    ..........
    ..........
"""
