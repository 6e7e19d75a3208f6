"""Sudoku Warriors as registered: the rules with their renderers, bots and search knowledge."""

from __future__ import annotations

from sudoku_arena.core.entry import GameEntry
from sudoku_arena.core.lessons import packaged
from sudoku_arena.games.sudoku_warriors.agents import AGENTS
from sudoku_arena.games.sudoku_warriors.figures import figures
from sudoku_arena.games.sudoku_warriors.game import SudokuWarriors
from sudoku_arena.games.sudoku_warriors.guide import explain, guide
from sudoku_arena.games.sudoku_warriors.panel import PANEL
from sudoku_arena.games.sudoku_warriors.render import (
    LEGEND,
    button_words,
    render_panel,
    render_svg,
    render_text,
)
from sudoku_arena.games.sudoku_warriors.search import search_hints

ENTRY: GameEntry[SudokuWarriors] = GameEntry(
    spec=SudokuWarriors.spec,
    rules=SudokuWarriors,
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
    lessons=packaged("sudoku_arena.games.sudoku_warriors"),
)
