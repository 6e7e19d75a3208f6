"""The PDF shows what the browser shows: a page rasterised by pdftoppm matches the same
page's SVG drawn by chromium, within a small tolerance for anti-aliasing and glyph
placement; a different page does not."""

from __future__ import annotations

import io
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from paper_helpers import played
from PIL import Image, ImageChops, ImageFilter

from services import chromium
from sudoku_arena.paper import PAPERS, pdf_bytes, record_pages, sheet_pages

DPI = 96  # CSS pixels: the browser draws a point as 96/72 px


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as b:
        yield b


def pdf_raster(svg: str, tmp_path: Path) -> Image.Image:
    path = tmp_path / "page.pdf"
    path.write_bytes(pdf_bytes([svg]))
    png = subprocess.run(
        ["pdftoppm", "-r", str(DPI), "-gray", "-png", str(path)], capture_output=True, check=True
    ).stdout
    return Image.open(io.BytesIO(png)).convert("L")


def browser_raster(browser: Any, svg: str, size: tuple[int, int]) -> Image.Image:
    page = browser.new_page(viewport={"width": size[0], "height": size[1]})
    try:
        page.set_content(f'<html><body style="margin:0">{svg}</body></html>')
        shot = page.screenshot()
    finally:
        page.close()
    return Image.open(io.BytesIO(shot)).convert("L")


def difference(a: Image.Image, b: Image.Image) -> tuple[float, float]:
    """Mean grey-level difference and the share of pixels off by more than a quarter,
    after a 2 px blur (anti-aliasing and sub-pixel glyph placement differ)."""
    d = ImageChops.difference(a.filter(ImageFilter.BoxBlur(2)), b.filter(ImageFilter.BoxBlur(2)))
    hist = d.histogram()
    n = sum(hist)
    return sum(i * v for i, v in enumerate(hist)) / n, sum(hist[64:]) / n


def test_pdf_pages_match_the_browser(browser: Any, tmp_path: Path) -> None:
    a4 = PAPERS["a4"]
    sheet = sheet_pages("tic-tac-sudoku", {}, 2, 1, a4)[0]
    game = record_pages(played("citadel"), PAPERS["letter"])[0]
    for svg in (sheet, game):
        printed = pdf_raster(svg, tmp_path)
        shown = browser_raster(browser, svg, printed.size)
        assert shown.size == printed.size
        mean, off = difference(printed, shown)
        assert mean < 4 and off < 0.01, (mean, off)
    # The tolerance has teeth: the board drawn 2 pt (under a millimetre) to the right
    # does not pass.
    x = re.search(r'<svg x="([\d.]+)"', sheet)
    assert x is not None
    moved = sheet.replace(x.group(0), f'<svg x="{float(x.group(1)) + 2:.2f}"', 1)
    printed = pdf_raster(sheet, tmp_path)
    mean, off = difference(printed, browser_raster(browser, moved, printed.size))
    assert off > 0.01 or mean > 4, (mean, off)
