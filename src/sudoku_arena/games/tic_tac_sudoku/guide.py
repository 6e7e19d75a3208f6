"""Tic-Tac-Sudoku at the table: what the player to move is to do, and the notation in
words (see ``GameEntry.guide`` and ``GameEntry.explain``)."""

from __future__ import annotations

from sudoku_arena.core.errors import NotationError
from sudoku_arena.core.types import JsonDict
from sudoku_arena.games.tic_tac_sudoku.rules import CENTRE_BOX, near
from sudoku_arena.games.words import BOX_WORDS, cell_words, either
from sudoku_arena.grids.sudoku import box_of, parse_cell


def guide(view: JsonDict) -> str:
    """Where the seat to move may place (TTS-3): next to the number under his open
    symbol, or anywhere outside the centre box for his first symbol."""
    legal: list[str] = view["legal"]
    if not legal or not view["to_move"]:
        return ""
    me = int(view["to_move"][0])
    symbol = view["players"][me]
    cells: list[str] = view["cells"]
    grid: list[int] = view["grid"]
    mine = next((i for i, code in enumerate(cells) if code == f"{symbol}-open"), None)
    if mine is None:
        text = f"Place your first {symbol} on any lit space outside the centre box"
    else:
        n = grid[mine]
        numbers = either([str(v) for v in near(n)])
        text = f"Place a {symbol} next to your open {n}: on a {numbers} (lit)"
        centre = any(box_of(parse_cell(a)) == CENTRE_BOX for a in legal)
        if centre and not view["centre_used"]:
            text += "; the first symbol in the centre box crosses out your open one"
    other = view["players"][1 - me]
    if view["stuck"][1 - me]:
        text += f" ({other} cannot move: you play on)"
    return text


def explain(action: str) -> str:
    """``r7c5`` -> ``row 7, column 5 (bottom-middle box)``."""
    try:
        i = parse_cell(action)
    except NotationError:
        return ""
    r, c = divmod(i, 9)
    return f"{cell_words(r + 1, c + 1)} ({BOX_WORDS[box_of(i)]} box)"
