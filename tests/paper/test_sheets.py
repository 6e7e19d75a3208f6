"""Every game's sheet on A4 and Letter: page count and size (pdfinfo), and each page
rasterised (pdftoppm) is drawn, inside its margins; SuDokuHex's sheet sets up the game
the engine sets up from the same seed."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from paper_helpers import GAMES, check_page, pdfinfo, pdftext, raster

from sudoku_arena.core.match import Match
from sudoku_arena.core.registry import load
from sudoku_arena.grids.hex import HEX_NAMES
from sudoku_arena.paper import PAPERS, rules_pages, sheet_pages, write_pdf

#: Pages of one copy: Cat Sudoku one per player, SuDokuHex the board and the tiles.
PAGES = {"tic-tac-sudoku": 1, "sudoku-warriors": 1, "cat-sudoku": 2, "sudokuhex": 2, "citadel": 1}


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("game_id", list(GAMES))
def test_sheet_pages_fit_the_paper(game_id: str, paper: str, tmp_path: Path) -> None:
    size = PAPERS[paper]
    out = tmp_path / f"{game_id}.pdf"
    write_pdf(out, sheet_pages(game_id, GAMES[game_id], 11, 1, size))
    info = pdfinfo(out)
    rules = len(rules_pages(load(game_id, **GAMES[game_id]), size))
    assert rules >= 2  # the rules for players, with their diagrams, after the sheet
    assert info.pages == PAGES[game_id] + rules
    assert (round(info.width), round(info.height)) == (round(size.width), round(size.height))
    for page in range(1, info.pages + 1):
        check_page(raster(out, page))


def test_copies_are_separate_sheets_and_the_rules_come_once(tmp_path: Path) -> None:
    out = tmp_path / "three.pdf"
    write_pdf(out, sheet_pages("cat-sudoku", {"players": 3}, 1, 2, PAPERS["a4"]))
    rules = len(rules_pages(load("cat-sudoku", players=3), PAPERS["a4"]))
    assert pdfinfo(out).pages == 6 + rules  # three players' sheets, twice; the rules once
    assert pdftext(out).count("The goal") == 1


def test_sudokuhex_sheet_shows_the_engine_s_starting_tiles_and_the_set_up(
    tmp_path: Path,
) -> None:
    """``print sudokuhex --seed 7`` sets up what ``play sudokuhex --seed 7`` does: the
    seven starting tiles where the engine puts them, drawn on the board and listed in
    the set-up steps; the hands dealt with them stay unseen."""
    game = load("sudokuhex", seed=7)
    view = game.view(Match(game, seed=7).state, None)
    starts = {name: view["board"][HEX_NAMES.index(name)] for name in view["start"]}
    assert sorted(starts.values()) == [1, 2, 3, 4, 5, 6, 7]
    pages = sheet_pages("sudokuhex", {}, 7, 1, PAPERS["a4"])
    # The board as drawn: each starting tile on its hex, and no other tile.
    drawn = dict(re.findall(r"<title>(\w\d): starting tile (\d)</title>", pages[0]))
    assert {h: int(v) for h, v in drawn.items()} == starts
    assert not re.search(r"<title>\w\d: tile \d</title>", pages[0])
    out = tmp_path / "hex.pdf"
    write_pdf(out, pages)
    text = " ".join(pdftext(out).split())
    setup = text[text.index("Set-up") : text.index("SuDokuHex: tiles")]
    listed = dict((h, int(v)) for v, h in re.findall(r"\b(\d) on ([A-G]\d)\b", setup))
    assert listed == starts
    for step in ("1. Cut out the 42 tiles", "face down", "draws one tile", "Red plays first"):
        assert step in setup, step
    # The printed command sets up the same game; the sheet shows no hand.
    assert "sudoku-arena play sudokuhex --players human,human --seed 7" in text
    assert all("Your tile" not in page for page in pages[:2])
