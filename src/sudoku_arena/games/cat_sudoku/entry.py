"""Cat Sudoku as registered: the rules with their renderers, bots and search knowledge."""

from __future__ import annotations

from sudoku_arena.core.entry import GameEntry
from sudoku_arena.core.lessons import packaged
from sudoku_arena.games.cat_sudoku.agents import AGENTS
from sudoku_arena.games.cat_sudoku.figures import figures
from sudoku_arena.games.cat_sudoku.game import CatSudoku
from sudoku_arena.games.cat_sudoku.guide import explain, guide
from sudoku_arena.games.cat_sudoku.panel import PANEL
from sudoku_arena.games.cat_sudoku.render import (
    LEGEND,
    button_words,
    render_panel,
    render_svg,
    render_text,
)
from sudoku_arena.games.cat_sudoku.search import search_hints

ENTRY: GameEntry[CatSudoku] = GameEntry(
    spec=CatSudoku.spec,
    rules=CatSudoku,
    render_text=render_text,
    render_svg=render_svg,
    legend=LEGEND,
    render_panel=render_panel,
    button_words=button_words,
    agents=AGENTS,
    panel=PANEL,
    search_hints=search_hints,
    figures=figures,
    guide=guide,
    explain=explain,
    lessons=packaged("sudoku_arena.games.cat_sudoku"),
)
