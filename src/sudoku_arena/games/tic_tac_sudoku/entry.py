"""Tic-Tac-Sudoku as registered: the rules with their renderers, bots and search knowledge."""

from __future__ import annotations

from sudoku_arena.core.entry import GameEntry
from sudoku_arena.core.lessons import packaged
from sudoku_arena.games.tic_tac_sudoku.agents import AGENTS
from sudoku_arena.games.tic_tac_sudoku.figures import figures
from sudoku_arena.games.tic_tac_sudoku.game import TicTacSudoku
from sudoku_arena.games.tic_tac_sudoku.guide import explain, guide
from sudoku_arena.games.tic_tac_sudoku.panel import PANEL
from sudoku_arena.games.tic_tac_sudoku.render import LEGEND, render_panel, render_svg, render_text
from sudoku_arena.games.tic_tac_sudoku.search import search_hints

ENTRY: GameEntry[TicTacSudoku] = GameEntry(
    spec=TicTacSudoku.spec,
    rules=TicTacSudoku,
    render_text=render_text,
    render_svg=render_svg,
    legend=LEGEND,
    render_panel=render_panel,
    agents=AGENTS,
    panel=PANEL,
    search_hints=search_hints,
    figures=figures,
    guide=guide,
    explain=explain,
    lessons=packaged("sudoku_arena.games.tic_tac_sudoku"),
)
