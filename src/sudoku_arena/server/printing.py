"""Print and play on the web: a game's sheet and a played game, served as PDF.

``GET /print/{game}`` answers a fresh sheet and the game's rules (query: ``paper``
``a4``/``letter``, ``copies``, ``seed``, and any game parameter such as ``players=3`` or
``size=13``); ``GET /api/matches/{id}/print`` answers the game as a record on paper. A
running game is printed as a spectator sees it (public view, secret draws redacted);
its hands and draws appear only once it is over (:mod:`sudoku_arena.paper.record`).

Pages are made in a worker thread (CairoSVG is CPU-bound), from a snapshot of the game
taken on the event loop. Without the ``print`` extra there is no PDF, but a browser
(which asks for HTML) gets the same pages in one HTML page it prints itself, with a
line saying how to get PDF files; a program asking for the PDF gets 503 and that line.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from starlette.exceptions import HTTPException

from sudoku_arena import paper as pp
from sudoku_arena.core.errors import InvalidParameterError
from sudoku_arena.core.types import JsonDict, Outcome
from sudoku_arena.server.arena import Arena
from sudoku_arena.server.live import GameUnavailable

router = APIRouter()

#: Query names that are the printout's own options, not game parameters.
_OWN = {"paper", "copies", "seed"}
#: Most copies in one answer: a PDF is CPU work for the server (the command line
#: prints more).
WEB_COPIES = 8


#: The printable page's own policy: styles inline, pictures as data, no script at all.
_PAGE_HEADERS = {
    "content-security-policy": (
        "default-src 'none'; style-src 'unsafe-inline'; img-src data:; "
        "frame-ancestors 'none'; base-uri 'none'"
    ),
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
}


def _browser(request: Request) -> bool:
    """Whether a browser navigates here (it asks for a page), not a program fetching the
    PDF."""
    return "text/html" in request.headers.get("accept", "")


async def _printout(
    request: Request, pages: Callable[[], list[str]], paper: pp.Paper, title: str, name: str
) -> Response:
    """The PDF of ``pages`` named ``name``; without the ``print`` extra, the same pages
    as an HTML page for a browser to print, or 503 saying how to install the extra."""
    try:
        pp.require()
    except pp.PrintUnavailable as exc:
        if not _browser(request):
            raise HTTPException(503, str(exc)) from None
        note = f"For a PDF file instead (on the server): {exc}."
        text = await asyncio.to_thread(lambda: pp.html_document(pages(), paper, title, note))
        return HTMLResponse(text, headers=_PAGE_HEADERS)
    data = await asyncio.to_thread(lambda: pp.pdf_bytes(pages(), title))
    return Response(
        data,
        media_type="application/pdf",
        headers={"content-disposition": f'inline; filename="{name}"'},
    )


def _int(query: JsonDict, name: str, default: int) -> int:
    text = query.get(name)
    if text is None or text == "":
        return default
    try:
        return int(str(text))
    except ValueError:
        raise InvalidParameterError(f"{name} {text!r} is not a whole number") from None


@router.get("/print/{game}", include_in_schema=False)
async def print_sheet(game: str, request: Request) -> Response:
    """A fresh sheet of ``game`` as PDF (a new grid each time unless ``seed`` or
    ``grid`` is given)."""
    query: JsonDict = dict(request.query_params)
    size = pp.paper_of(str(query.get("paper") or "a4"))
    copies = _int(query, "copies", 1)
    if not 1 <= copies <= WEB_COPIES:
        raise InvalidParameterError(
            f"copies {copies} is out of range; allowed: 1 to {WEB_COPIES} "
            "(sudoku-arena print makes more)"
        )
    seed = _int(query, "seed", random.SystemRandom().randrange(2**31))
    params = {k: v for k, v in query.items() if k not in _OWN and v != ""}
    # Set up (and refuse bad parameters: 422) before going to the worker thread.
    games = pp.sheet_games(game, params, seed, copies)
    title = f"{games[0].game.spec.name}: sheet and rules"
    return await _printout(
        request, lambda: pp.games_pages(games, size), size, title, f"{game}-sheet.pdf"
    )


@router.get("/api/matches/{game_id}/print", include_in_schema=False)
async def print_match(game_id: str, request: Request) -> Response:
    """The game ``game_id`` on paper: final (or current) position, moves, outcome."""
    size = pp.paper_of(str(request.query_params.get("paper") or "a4"))
    arena: Arena = request.app.state.arena
    try:
        lg = await arena.get(game_id)
    except GameUnavailable as exc:
        raise HTTPException(503, exc.reason) from None
    if lg is None:
        raise HTTPException(404, f"there is no game {game_id!r}")
    outcome = Outcome.from_json(lg.outcome) if lg.over and lg.outcome is not None else None
    # A snapshot: the game may move on while the pages are drawn.
    game, state, log = lg.game, lg.state, list(lg.log)
    names = [s.name for s in lg.seats]
    return await _printout(
        request,
        lambda: pp.game_pages(game, state, log, names, outcome, size),
        size,
        f"{lg.spec.name}: game {lg.id}",
        f"{lg.spec.id}-{lg.id}.pdf",
    )
