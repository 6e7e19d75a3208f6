"""``print``: a print-and-play sheet of a game with its rules, or a recorded game, as a
PDF file, or as an HTML page a browser prints (``--out FILE.html``: no extra needed)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from sudoku_arena import paper as pp
from sudoku_arena.cli.app import app, check_output, console, fail, game_params, read_text_param
from sudoku_arena.core.errors import ArenaError, RecordError
from sudoku_arena.core.record import Record, scan_records
from sudoku_arena.core.types import JsonDict


@app.command("print")
def print_cmd(
    out: Annotated[
        Path, typer.Option(help="the file to write: PDF, or .html to print from a browser")
    ],
    game: Annotated[str | None, typer.Argument(help="game id (see 'sudoku-arena list')")] = None,
    seed: Annotated[
        int | None, typer.Option(help="seed of the first copy's grid (copy i uses seed+i)")
    ] = None,
    grid: Annotated[str | None, typer.Option(help="the Sudoku grid as 81 digits")] = None,
    sheet: Annotated[Path | None, typer.Option(help="a sheet file (Cat Sudoku)")] = None,
    param: Annotated[list[str] | None, typer.Option("--param", help="NAME=VALUE")] = None,
    copies: Annotated[
        int, typer.Option(help=f"how many sheets (1 to {pp.MAX_COPIES}); new grids unless fixed")
    ] = 1,
    paper: Annotated[str, typer.Option(help="paper size: a4 or letter")] = "a4",
    record: Annotated[
        Path | None, typer.Option(help="print this recorded game (.json or .jsonl) instead")
    ] = None,
    game_index: Annotated[
        int, typer.Option("--game", help="with --record: which record of the file (0-based)")
    ] = 0,
) -> None:
    """Print a fresh sheet to play a game on paper (its rules follow), or a recorded
    game, as PDF.

    Sheets: sudoku-arena print tic-tac-sudoku --copies 4 --out sheets.pdf. Records:
    sudoku-arena print --record game.json --out game.pdf. Players: --param players=N.
    A file ending in .html is a page to print from a browser (no print extra needed).
    """
    page = out.suffix.lower() in (".html", ".htm")
    try:
        if not page:
            pp.require()
        size = pp.paper_of(paper)
    except pp.PrintUnavailable as exc:
        fail(f"{exc}; or write --out FILE.html and print that from a browser")
    except ArenaError as exc:
        fail(f"--paper: {exc}")
    if record is not None and game is not None:
        fail("give either a GAME to print its sheet or --record FILE, not both")
    if record is None and game is None:
        fail("give a GAME to print its sheet (see 'sudoku-arena list') or --record FILE")
    check_output(out, "--out")
    try:
        if record is not None:
            rec = _pick(record, game_index)
            pages = pp.record_pages(rec, size)
            title = f"{rec.game}: game record"
        else:
            assert game is not None
            extra: JsonDict = {"grid": grid}
            if sheet is not None:
                extra["sheet"] = read_text_param("--sheet", str(sheet))
            params = game_params(param, extra)
            if seed is None:
                seed = random.SystemRandom().randrange(2**31)
            pages = pp.sheet_pages(game, params, seed, copies, size)
            title = f"{game}: sheet and rules"
    except (RecordError, ArenaError) as exc:
        fail(str(exc))
    try:
        if page:
            pp.write_html(out, pages, size, title)
        else:
            pp.write_pdf(out, pages, title)
    except OSError as exc:
        fail(f"--out {out}: cannot write it: {exc.strerror}")
    how = " (print it from a browser)" if page else ""
    console.print(f"{len(pages)} page(s) written to {escape(str(out))}{how}")


def _pick(file: Path, index: int) -> Record:
    """Record ``index`` of ``file``; a line that is not a record is an error here (a
    printout of the wrong game would be worse than none)."""
    k = 0
    for lineno, item in scan_records(file):
        if isinstance(item, RecordError):
            raise RecordError(f"{file}, line {lineno}: not a record: {item}")
        if k == index:
            return item
        k += 1
    raise RecordError(f"{file} has no record {index} (it holds {k})")
