"""Print and play: PDF sheets and game records drawn by the games' own renderers.

``sheet_pages`` makes fresh sheets of a game (what a table needs to play it on paper,
see :mod:`~sudoku_arena.paper.sheets`) followed by its rules in full (see
:mod:`~sudoku_arena.paper.rules`), ``record_pages`` a recorded game (see
:mod:`~sudoku_arena.paper.record`). Pages are SVG documents laid out by
:mod:`~sudoku_arena.paper.page` around the games' own drawings; they are turned into
PDF by :mod:`~sudoku_arena.paper.pdf` (the optional ``print`` extra) or put in one HTML
page a browser prints (:mod:`~sudoku_arena.paper.browser`, no extra needed).

Layer: beside ``ai`` and ``testing``; imports ``core``, ``grids`` and the games'
registered entries, nothing above.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from sudoku_arena.core.errors import InvalidParameterError
from sudoku_arena.core.registry import load
from sudoku_arena.paper.browser import html_document, write_html
from sudoku_arena.paper.page import PAPERS, Paper
from sudoku_arena.paper.pdf import (
    INSTALL_COMMAND,
    INSTALL_HINT,
    PrintUnavailable,
    pdf_bytes,
    require,
    write_pdf,
)
from sudoku_arena.paper.record import game_pages, record_pages
from sudoku_arena.paper.rules import rules_pages
from sudoku_arena.paper.sheets import SHEETS, Copy, play_command, sheet_id

__all__ = [
    "INSTALL_COMMAND",
    "INSTALL_HINT",
    "MAX_COPIES",
    "PAPERS",
    "SHEETS",
    "Copy",
    "Paper",
    "PrintUnavailable",
    "game_pages",
    "games_pages",
    "html_document",
    "paper_of",
    "pdf_bytes",
    "play_command",
    "record_pages",
    "require",
    "rules_pages",
    "sheet_games",
    "sheet_id",
    "sheet_pages",
    "write_html",
    "write_pdf",
]

#: Most copies of a sheet in one PDF.
MAX_COPIES = 50


def paper_of(name: str) -> Paper:
    """The paper called ``name`` (``a4``, ``letter``; any case)."""
    paper = PAPERS.get(name.strip().lower())
    if paper is None:
        raise InvalidParameterError(f"paper {name!r} is not known; allowed: {', '.join(PAPERS)}")
    return paper


def sheet_games(game_id: str, params: Mapping[str, object], seed: int, copies: int) -> list[Copy]:
    """The games of ``copies`` sheets of ``game_id``. Copy ``i`` is set up from
    ``seed + i`` (as ``sudoku-arena play --seed`` would), so each copy has its own
    grid unless ``params`` fixes one. Raises ``ArenaError`` for an unknown game or a
    bad parameter."""
    if not 1 <= copies <= MAX_COPIES:
        raise InvalidParameterError(f"copies {copies} is out of range; allowed: 1 to {MAX_COPIES}")
    return [Copy(load(game_id, seed=seed + i, **params), seed + i) for i in range(copies)]


def games_pages(copies: Sequence[Copy], paper: Paper) -> list[str]:
    """The sheet pages of each of ``copies``, in order, then the game's rules once."""
    pages = [page for copy in copies for page in SHEETS[copy.game.spec.id](copy, paper)]
    return pages + (rules_pages(copies[0].game, paper) if copies else [])


def sheet_pages(
    game_id: str, params: Mapping[str, object], seed: int, copies: int, paper: Paper
) -> list[str]:
    """The pages of ``copies`` sheets of ``game_id`` (see :func:`sheet_games`) and of
    its rules."""
    return games_pages(sheet_games(game_id, params, seed, copies), paper)
