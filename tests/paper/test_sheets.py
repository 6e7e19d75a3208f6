"""Every game's sheet on A4 and Letter: page count and size (pdfinfo), and each page
rasterised (pdftoppm) is drawn, inside its margins."""

from __future__ import annotations

from pathlib import Path

import pytest
from paper_helpers import GAMES, pdfinfo, raster
from PIL import Image

from sudoku_arena.paper import PAPERS, sheet_pages, write_pdf
from sudoku_arena.paper.page import MARGIN

#: Pages of one copy: Cat Sudoku one per player, SuDokuHex the board and the tiles.
PAGES = {"tic-tac-sudoku": 1, "sudoku-warriors": 1, "cat-sudoku": 2, "sudokuhex": 2, "citadel": 1}
DPI = 30


def ink(img: Image.Image, box: tuple[int, int, int, int] | None = None) -> float:
    """The share of pixels in ``box`` that are not white."""
    part = img.crop(box) if box else img
    hist = part.histogram()
    return 1 - sum(hist[250:]) / max(1, sum(hist))


def check_page(img: Image.Image) -> None:
    """Drawn (not blank), and nothing printed in the margins."""
    w, h = img.size
    m = int((MARGIN - 4) / 72 * DPI)  # the margin less a rounding pixel or two
    assert ink(img) > 0.02, "the page is blank"
    for band in ((0, 0, w, m), (0, h - m, w, h), (0, 0, m, h), (w - m, 0, w, h)):
        assert ink(img, band) == 0, f"ink in the margin {band}"


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
        check_page(raster(out, page, DPI))


def test_copies_are_separate_sheets(tmp_path: Path) -> None:
    out = tmp_path / "three.pdf"
    write_pdf(out, sheet_pages("cat-sudoku", {"players": 3}, 1, 2, PAPERS["a4"]))
    assert pdfinfo(out).pages == 6  # three players' sheets, twice
