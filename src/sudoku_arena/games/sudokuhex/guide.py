"""SuDokuHex at the table: what the player to move is to do, and the notation in words
(see ``GameEntry.guide`` and ``GameEntry.explain``).

The guide reads only the seat's view: his own tile, the board and the lit hexes, never
another hand or the pile (SH-6).
"""

from __future__ import annotations

import math

from sudoku_arena.core.errors import NotationError
from sudoku_arena.core.types import JsonDict

# The engine's own readings of its notation (one place for it).
from sudoku_arena.games.sudokuhex.game import _DRAW_RE, _START_RE
from sudoku_arena.games.sudokuhex.render import points_at
from sudoku_arena.games.words import either
from sudoku_arena.grids.hex import HONEYCOMB_LETTERS, hex_center, parse_hex

#: Best hexes named by the guide at most.
_NAMED = 3

#: Where a point lies from a centre, by the angle of the drawing (y down): eight sectors
#: of 45 degrees, from the right counter-clockwise.
_SECTORS = (
    "right",
    "upper right",
    "top",
    "upper left",
    "left",
    "lower left",
    "bottom",
    "lower right",
)


def _toward(index: int, centre: int) -> str:
    """Which way hex ``index`` lies from hex ``centre`` on the board as drawn."""
    x, y = hex_center(index)
    cx, cy = hex_center(centre)
    angle = math.degrees(math.atan2(cy - y, x - cx)) % 360
    return _SECTORS[int((angle + 22.5) // 45) % 8]


def hex_words(index: int) -> str:
    """``C4`` -> ``the left hex of honeycomb C (bottom)``: the honeycomb's letter and
    where it lies from the middle one (A), and the hex's place in it (0 its middle)."""
    comb, pos = divmod(index, 7)
    letter = HONEYCOMB_LETTERS[comb]
    where = "the middle" if comb == 0 else _toward(7 * comb, 0)
    place = "middle" if pos == 0 else _toward(index, 7 * comb)
    return f"the {place} hex of honeycomb {letter} ({where})"


def guide(view: JsonDict) -> str:
    """Where the tile in hand may go (SH-4) and what the best lit hexes score."""
    legal: list[str] = view["legal"]
    hand = view["hand"]
    if not legal or hand is None:
        return ""
    board: list[int] = view["board"]
    points = {name: points_at(board, parse_hex(name)) for name in legal}
    best = max(points.values())
    top = [name for name in legal if points[name] == best]
    named = either(top) if len(top) <= _NAMED else ", ".join(top[:_NAMED]) + " and others"
    return (
        f"Place your {hand} on a lit hex; it scores a point per tile in line with it: "
        f"{best} on {named}"
    )


def explain(action: str) -> str:
    """``C4`` -> ``the left hex of honeycomb C (bottom)``; a starting tile and a draw
    (``draw`` when the tile is secret to the reader) likewise."""
    text = action.strip()
    try:
        if m := _START_RE.match(text):
            return f"a starting {m.group(1)} on {hex_words(parse_hex(m.group(2)))}"
        if m := _DRAW_RE.match(text):
            return f"draws a {m.group(1)}"
        if text == "draw":  # the public_action of a draw: which tile is secret (SH-6)
            return "draws a tile, kept secret"
        return f"place the tile on {hex_words(parse_hex(text))}"
    except NotationError:
        return ""
