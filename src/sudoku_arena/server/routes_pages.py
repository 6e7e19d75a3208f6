"""The site's HTML pages, its scripts and style, and the API's documentation page
(``router``, included by :func:`~sudoku_arena.server.app.create_app`). None of them is
in the OpenAPI document. A page for a game that does not exist, or cannot be opened,
is answered with a clear page (404, 503) by the app's error handlers.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from sudoku_arena.core.errors import UnknownGameError
from sudoku_arena.server.arena import Arena
from sudoku_arena.server.live import GameUnavailable
from sudoku_arena.server.pages import reference_page, rules_page, web_file, web_scripts
from sudoku_arena.server.security import HEADERS

router = APIRouter(include_in_schema=False)


def _page(name: str) -> HTMLResponse:
    return HTMLResponse(web_file(name), headers=HEADERS)


def _static(name: str, media: str) -> Response:
    return Response(
        web_file(name), media_type=media, headers={"cache-control": "no-cache", **HEADERS}
    )


@router.get("/")
async def home() -> HTMLResponse:
    return _page("index.html")


async def page_for_game(request: Request, game_id: str, name: str) -> HTMLResponse:
    """The page ``name`` for a game that exists; a clear page otherwise."""
    arena: Arena = request.app.state.arena
    try:
        found = await arena.get(game_id)
    except GameUnavailable as exc:
        raise StarletteHTTPException(503, exc.reason) from None
    if found is None:
        raise StarletteHTTPException(
            404, f"There is no game {game_id[:40]!r}: the link may be mistyped or cut short."
        )
    return _page(name)


@router.get("/account")
async def account_page() -> HTMLResponse:
    return _page("account.html")


@router.get("/play/{game_id}")
async def play_page(request: Request, game_id: str) -> HTMLResponse:
    return await page_for_game(request, game_id, "play.html")


@router.get("/replay/{game_id}")
async def replay_page(request: Request, game_id: str) -> HTMLResponse:
    return await page_for_game(request, game_id, "replay.html")


@router.get("/rules/{game}")
async def rules(game: str) -> HTMLResponse:
    try:
        text = rules_page(game)
    except UnknownGameError as exc:
        raise StarletteHTTPException(404, str(exc)) from None
    return HTMLResponse(text or "", headers=HEADERS)


@router.get("/rules/{game}/reference")
async def rules_reference(game: str) -> HTMLResponse:
    try:
        text = reference_page(game)
    except UnknownGameError as exc:
        raise StarletteHTTPException(404, str(exc)) from None
    if text is None:
        raise StarletteHTTPException(404, f"{game} has no reference page")
    return HTMLResponse(text, headers=HEADERS)


@router.get("/favicon.ico")
async def favicon() -> Response:
    return Response(
        web_file("favicon.svg"),
        media_type="image/svg+xml",
        headers={"cache-control": "max-age=86400"},
    )


# Swagger UI from the installed swagger-ui-bundle package (its files mounted by the app
# at /api/docs-assets): /api/docs needs no network.
@router.get("/api/docs")
async def api_docs() -> HTMLResponse:
    return get_swagger_ui_html(
        openapi_url="/api/openapi.json",
        title="Sudoku Arena API",
        swagger_js_url="/api/docs-assets/swagger-ui-bundle.js",
        swagger_css_url="/api/docs-assets/swagger-ui.css",
        swagger_favicon_url="/favicon.ico",
    )


# The pages load arena.js as an ES module, and it imports the others by relative URL
# (./board.js...): every script the package ships is served here, as JavaScript
# (browsers run a module only with a JavaScript type, and nosniff makes them check).
@router.get("/static/{name}.js")
async def script(name: str) -> Response:
    file = f"{name}.js"
    if file not in web_scripts():
        raise StarletteHTTPException(404, f"There is no script {file[:40]!r}.")
    return _static(file, "text/javascript")


@router.get("/static/arena.css")
async def style() -> Response:
    return _static("arena.css", "text/css")
