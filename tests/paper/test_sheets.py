"""Every game's sheet on A4 and Letter: page count and size (pdfinfo), and each page
rasterised (pdftoppm) is drawn, inside its margins."""

from __future__ import annotations

from pathlib import Path

import pytest
from paper_helpers import GAMES, check_page, pdfinfo, raster

from sudoku_arena.paper import PAPERS, sheet_pages, write_pdf

#: Pages of one copy: Cat Sudoku one per player, SuDokuHex the board and the tiles.
PAGES = {"tic-tac-sudoku": 1, "sudoku-warriors": 1, "cat-sudoku": 2, "sudokuhex": 2, "citadel": 1}


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("game_id", list(GAMES))
def test_sheet_pages_fit_the_paper(game_id: str, paper: str, tmp_path: Path) -> None:
    size = PAPERS[paper]
    out = tmp_path / f"{game_id}.pdf"
    write_pdf(out, sheet_pages(game_id, GAMES[game_id], 11, 1, size))
    info = pdfinfo(out)
    assert info.pages == PAGES[game_id]
    assert (round(info.width), round(info.height)) == (round(size.width), round(size.height))
    for page in range(1, info.pages + 1):
        check_page(raster(out, page))


def test_copies_are_separate_sheets(tmp_path: Path) -> None:
    out = tmp_path / "three.pdf"
    write_pdf(out, sheet_pages("cat-sudoku", {"players": 3}, 1, 2, PAPERS["a4"]))
    assert pdfinfo(out).pages == 6  # three players' sheets, twice
