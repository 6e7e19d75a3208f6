"""The PDF shows what the browser shows: a page rasterised by pdftoppm matches the same
page's SVG drawn by chromium, within a small tolerance for anti-aliasing and glyph
placement; a different page does not."""

from __future__ import annotations

import io
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from arena_helpers import LiveServer
from paper_helpers import GAMES, check_page, pdfinfo, pdftext, played, raster
from PIL import Image, ImageChops, ImageFilter

from services import chromium
from sudoku_arena.paper import PAPERS, pdf_bytes, record_pages, sheet_pages
from sudoku_arena.server import ServerConfig

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
    sheets = [sheet_pages(g, GAMES[g], 2, 1, a4)[0] for g in GAMES]
    game = record_pages(played("citadel"), PAPERS["letter"])[0]
    sheet = sheets[0]
    for svg in [*sheets, game]:
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


def test_the_new_game_form_links_to_the_sheet_as_chosen(browser: Any, tmp_path: Path) -> None:
    config = ServerConfig(database_url=f"sqlite:///{tmp_path}/a.sqlite3", bot_workers=0)
    with LiveServer(config) as server:
        page = browser.new_page()
        page.goto(server.url + "/")
        page.wait_for_selector("#f-game option", state="attached")
        page.select_option("#f-game", "citadel")
        page.fill("[data-param=size]", "13")
        # Click the link as a person would, but stay on the page to read where it led.
        href = page.evaluate(
            """() => { const a = document.getElementById('f-print');
                       a.addEventListener('click', (e) => e.preventDefault());
                       a.click(); return a.href; }"""
        )
        page.close()
        assert href.startswith(server.url + "/print/citadel?") and "size=13" in href
        answer = httpx.get(href, timeout=30)
        assert answer.headers["content-type"] == "application/pdf"
        (tmp_path / "sheet.pdf").write_bytes(answer.content)
        assert "board 13x13" in pdftext(tmp_path / "sheet.pdf")


def test_without_the_print_extra_the_browser_prints_the_sheet_itself(
    browser: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After the README's install (no print extra) the Print sheet link opens a page the
    browser prints: one printed page per sheet at the paper's size, in its margins, and
    the line that says how to print left off the paper."""
    monkeypatch.setitem(sys.modules, "cairosvg", None)  # as if it were not installed
    pages = sheet_pages("citadel", {"size": 9}, 2, 1, PAPERS["letter"])
    config = ServerConfig(database_url=f"sqlite:///{tmp_path}/a.sqlite3", bot_workers=0)
    with LiveServer(config) as server:
        page = browser.new_page()
        page.goto(server.url + "/print/citadel?size=9&seed=2&paper=letter")
        assert "Ctrl+P" in page.inner_text("body")
        printed = tmp_path / "printed.pdf"
        page.pdf(path=str(printed), prefer_css_page_size=True)
        page.close()
    info = pdfinfo(printed)
    assert info.pages == len(pages) and (round(info.width), round(info.height)) == (612, 792)
    text = pdftext(printed)
    assert "Ctrl+P" not in text
    sheets = text.split("\f")
    assert "Citadel: board 9x9" in sheets[0] and "How it ends" in "".join(sheets[1:])
    for k in range(1, info.pages + 1):
        check_page(raster(printed, k))
