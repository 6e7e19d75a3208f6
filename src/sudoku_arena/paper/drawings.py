"""The games' own drawings, made for paper.

Every board on paper is the game's registered ``render_svg`` drawing of a view, with
its panel (``render_panel``: scores, the Map, dice, hands) beside it as on a screen.
Paper leaves out what only a screen needs: a view with no legal actions (nobody clicks
on paper, so no renderer draws targets), and the panel lines that speak to the person
at the screen (:func:`for_paper`).
"""

from __future__ import annotations

import html
import re

from sudoku_arena.core.protocol import AnyGame
from sudoku_arena.core.registry import entry_of
from sudoku_arena.core.types import JsonDict
from sudoku_arena.paper.page import embed, svg_size

#: The marker a panel puts before the player to move: the screen's cursor (on paper the
#: players know whose turn it is, and the mark would be wrong after one move).
TURN_MARKER = "▶ "
#: Panel lines written for the person at the screen: what to click or pick now, what the
#: program is doing, whose turn or whose choice it is now. On paper they would be wrong
#: after the first move, and nothing is clicked.
SCREEN_LINES = re.compile(
    r"click|pick any value|^To move: |^Setting up: |draws a tile$|, active: "
    r"|^place citadel \d+ of \d+$|^claim a neutral citadel$"
)
_TEXT = re.compile(r"(<text\b[^>]*>)([^<]*)(</text>)")


def for_paper(svg: str) -> str:
    """``svg`` without the screen's turn marker and the lines of :data:`SCREEN_LINES`."""

    def one(m: re.Match[str]) -> str:
        words = html.unescape(m.group(2))
        if SCREEN_LINES.search(words):
            return ""
        if words.startswith(TURN_MARKER):
            return m.group(1) + m.group(2).replace(TURN_MARKER, "", 1) + m.group(3)
        return m.group(0)

    return _TEXT.sub(one, svg)


def paper_view(game: AnyGame, state: object, observer: int | None) -> JsonDict:
    """``game.view(state, observer)`` with no legal actions: paper has nothing to click,
    so no renderer draws targets or highlights for them."""
    view = dict(game.view(state, observer))
    view["legal"] = []
    return view


def beside(board: str, panel: str | None) -> str:
    """``board`` with ``panel`` to its right, as one drawing fit for paper."""
    if panel is None:
        return for_paper(board)
    bw, bh = svg_size(board)
    pw, ph = svg_size(panel)
    gap = 12.0
    width, height = bw + gap + pw, max(bh, ph)
    return for_paper(
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:.2f} {height:.2f}">'
        + embed(board, 0, 0, bw, bh)
        + embed(panel, bw + gap, 0, pw, ph)
        + "</svg>"
    )


def drawing(game: AnyGame, view: JsonDict) -> str:
    """The game's own SVG drawing of ``view``: its board, with its panel (scores, hands,
    dice) beside it as on a screen, in one drawing fit for paper."""
    entry = entry_of(game)
    panel = None if entry.render_panel is None else entry.render_panel(view)
    return beside(entry.render_svg(view), panel)
