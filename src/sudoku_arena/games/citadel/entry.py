"""Citadel as registered: the rules with their renderers, bots and search knowledge."""

from __future__ import annotations

from sudoku_arena.core.entry import GameEntry
from sudoku_arena.core.lessons import packaged
from sudoku_arena.games.citadel.agents import AGENTS
from sudoku_arena.games.citadel.figures import figures
from sudoku_arena.games.citadel.game import Citadel
from sudoku_arena.games.citadel.guide import explain, guide
from sudoku_arena.games.citadel.panel import PANEL
from sudoku_arena.games.citadel.render import (
    LEGEND,
    button_words,
    render_panel,
    render_svg,
    render_text,
)
from sudoku_arena.games.citadel.search import search_hints

ENTRY: GameEntry[Citadel] = GameEntry(
    spec=Citadel.spec,
    rules=Citadel,
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
    lessons=packaged("sudoku_arena.games.citadel"),
)
