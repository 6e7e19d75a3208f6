"""Building Citadel positions and driving them in notation, for the tests."""

from __future__ import annotations

from typing import Any

import sudoku_arena
from sudoku_arena.games.citadel import Citadel, CitadelState, from_diagram


def game(**params: Any) -> Citadel:
    g = sudoku_arena.load("citadel", **params)
    assert isinstance(g, Citadel)
    return g


def position(g: Citadel, diagram: str, **kw: Any) -> CitadelState:
    return from_diagram(g, diagram, **kw)


def play(g: Citadel, s: CitadelState, moves: list[str]) -> CitadelState:
    """Apply actions in notation, each by the seat to move."""
    for m in moves:
        s = g.apply(s, g.parse_action(m))
    return s


def legal(g: Citadel, s: CitadelState) -> set[str]:
    return {g.format_action(a) for a in g.legal_actions(s, s.current)}


def warrior(g: Citadel, s: CitadelState, cell: str) -> dict[str, Any] | None:
    """The view's entry for the warrior on ``cell`` (None when there is none)."""
    for w in g.view(s, None)["warriors"]:
        if w["cell"] == cell:
            return dict(w)
    return None


def cell(g: Citadel, s: CitadelState, name: str) -> int:
    return s.board[g.geo.cell(name)]


#: The nine citadel sites of a 9x9 board (the only way to fit nine there, CI-2).
NINE_BY_NINE_SITES = ["c3", "e3", "g3", "c5", "e5", "g5", "c7", "e7", "g7"]


def setup_9x9(g: Citadel, claims: list[str] | None = None) -> CitadelState:
    """A 9x9 game through setup and claims (seat 1 claims first)."""
    moves = [f"citadel {c}" for c in NINE_BY_NINE_SITES]
    claims = claims or ["c3", "g7", "e3", "e7", "g3", "c7"]
    moves += [f"claim {c}" for c in claims]
    return play(g, g.initial_state(), moves)


#: The seed's example: blue b13-c13, then c13xd13 at strength 2 against 1.
SEED_EXAMPLE = """
    a b c d e f g
15  . . . . . . .
14  . . . . . . .
13  . B . R r . .
12  . . B . # # .
11  . . . . # # .
"""
