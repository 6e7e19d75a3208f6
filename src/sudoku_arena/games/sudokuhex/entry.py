"""SuDokuHex as registered: the rules with their renderers, bots and search knowledge."""

from __future__ import annotations

from sudoku_arena.core.entry import GameEntry
from sudoku_arena.core.lessons import packaged
from sudoku_arena.games.sudokuhex.agents import AGENTS
from sudoku_arena.games.sudokuhex.figures import figures
from sudoku_arena.games.sudokuhex.game import SuDokuHex
from sudoku_arena.games.sudokuhex.guide import explain, guide
from sudoku_arena.games.sudokuhex.panel import PANEL
from sudoku_arena.games.sudokuhex.render import LEGEND, render_panel, render_svg, render_text
from sudoku_arena.games.sudokuhex.search import search_hints

ENTRY: GameEntry[SuDokuHex] = GameEntry(
    spec=SuDokuHex.spec,
    rules=SuDokuHex,
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
    lessons=packaged("sudoku_arena.games.sudokuhex"),
)
