"""Refusals as the server answers them, and as the OpenAPI document describes them.

Every API refusal has one JSON shape, ``{"error": {"code", "message"}}``
(:class:`~sudoku_arena.server.models.ErrorResponse`, documented per route by
:func:`sudoku_arena.server.openapi.documented`); a person's pages answer a page.

* A request that does not match the document (a field's type or range, a value not
  in an enum, JSON that does not parse) is answered ``400 bad_request``/``bad_json``
  naming the field and what is allowed; a game id no game is registered under
  ``422 unknown_game`` with the known games.
* A rate limit's refusal (:class:`~sudoku_arena.server.limits.TooManyRequests`) is
  ``429 too_many_requests`` with ``Retry-After`` in seconds.
* A 405 carries ``Allow`` (RFC 9110) with every method the path takes: Starlette names
  only the first route on a path, and ``/api/matches`` has two.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping, Sequence

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import BaseRoute, Match, Mount
from starlette.types import Scope

from sudoku_arena.core.errors import ArenaError, UnknownGameError
from sudoku_arena.core.types import JsonDict
from sudoku_arena.server.limits import TooManyRequests
from sudoku_arena.server.live import ActionRefused
from sudoku_arena.server.models import UNKNOWN_GAME

log = logging.getLogger("sudoku_arena.server")


class ApiError(Exception):
    """A refusal with its HTTP status and machine-readable ``code``."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


def error_body(code: str, message: str) -> JsonDict:
    return {"error": {"code": code, "message": message}}


#: The status of each :class:`ActionRefused` code (others: 400).
STATUS_OF = {
    "stale": 409,
    "illegal": 422,
    "notation": 422,
    "not_your_turn": 409,
    "game_over": 409,
    "read_only": 409,
    "bad_seat": 422,
    "not_over": 409,
    "unavailable": 503,
    "seat_elsewhere": 409,
    "seat_taken": 409,
    "full": 409,
    "already_seated": 409,
    "forbidden": 403,
    "private": 403,
    "bad_token": 403,
}


#: The methods a 405's ``Allow`` can name.
_METHODS = ("DELETE", "GET", "HEAD", "OPTIONS", "PATCH", "POST", "PUT")


def allowed_methods(routes: Iterable[BaseRoute], scope: Scope) -> list[str]:
    """Every method some route (or static files: GET, HEAD) answers at the request's
    path, sorted.

    Each method is tried on each route through the route's own ``matches`` (a full
    match: the path and the method), so routers added with ``include_router`` count
    too: FastAPI keeps them as one route wrapping the router, without ``methods``."""
    # Matched as the app first saw the request: a mount (static files) that refused it
    # moved its own prefix into root_path.
    root = scope.get("app_root_path", scope.get("root_path", ""))

    def probe(method: str) -> Scope:
        return {"type": "http", "method": method, "path": scope["path"], "root_path": root}

    found: set[str] = set()
    for route in routes:
        if isinstance(route, Mount):  # a mount takes every method: only static files say
            if isinstance(route.app, StaticFiles) and route.matches(probe("GET"))[0] != Match.NONE:
                found |= {"GET", "HEAD"}
            continue
        found |= {m for m in _METHODS if route.matches(probe(m))[0] == Match.FULL}
    return sorted(found)


def validation_answer(errors: Sequence[Mapping[str, object]]) -> JSONResponse:
    """The answer to a request that does not match the document."""
    kinds = {(e.get("type"), _loc(e)) for e in errors}
    if any(t == "json_invalid" for t, _ in kinds):
        return JSONResponse(
            error_body("bad_json", "the request body is not valid JSON"), status_code=400
        )
    if any(loc == ("body",) for _, loc in kinds):
        return JSONResponse(
            error_body("bad_json", "the request body must be a JSON object"), status_code=400
        )
    parts = []
    for e in errors[:5]:
        # ("query", "page") reads "page", ("body", "clock", "minutes") "clock.minutes".
        loc = [str(x) for x in _loc(e)]
        where = ".".join(loc[1:] if loc and loc[0] in ("body", "query", "path") else loc)
        text = str(e.get("msg", "invalid"))
        if e.get("type") == "value_error":  # pydantic's "Value error, " says nothing to a person
            text = text.removeprefix("Value error, ")
        if _unknown_game(e):
            text = f"no game called {str(e.get('input'))[:40]!r}; {text}"
        elif e.get("type") == UNKNOWN_GAME:
            text = f"a game id (text); {text}"
        parts.append(f"{where or 'body'}: {text}")
    # A game nobody registered is refused by the rules (as the engine does), anything
    # else that does not match the document as a bad request.
    if all(_unknown_game(e) for e in errors):
        return JSONResponse(error_body(UNKNOWN_GAME, "; ".join(parts)), status_code=422)
    return JSONResponse(error_body("bad_request", "; ".join(parts)), status_code=400)


def _loc(error: Mapping[str, object]) -> tuple[object, ...]:
    """Where ``error`` is (pydantic's ``loc``: names and indexes), ``()`` if it says not."""
    loc = error.get("loc", ())
    return tuple(loc) if isinstance(loc, (tuple, list)) else ()


def _unknown_game(error: Mapping[str, object]) -> bool:
    """Whether ``error`` is a well-formed game id that no game is registered under."""
    return error.get("type") == UNKNOWN_GAME and isinstance(error.get("input"), str)


#: Draws a person's page for a refusal: title, message, status, extra headers.
PageMaker = Callable[[str, str, int, Mapping[str, str]], Response]


def install(app: FastAPI, page: PageMaker) -> None:
    """Answer every refusal of ``app`` in the project's shape (a page off ``/api/``)."""

    @app.exception_handler(ApiError)
    async def _api_error(_req: Request, exc: ApiError) -> JSONResponse:
        return JSONResponse(error_body(exc.code, exc.message), status_code=exc.status)

    @app.exception_handler(TooManyRequests)
    async def _too_many(_req: Request, exc: TooManyRequests) -> JSONResponse:
        # 429 with Retry-After (RFC 6585): how many seconds until the rule lets one more.
        return JSONResponse(
            error_body(
                "too_many_requests",
                f"too many requests ({exc.rule}); try again in {exc.retry_after} s",
            ),
            status_code=429,
            headers={"Retry-After": str(exc.retry_after)},
        )

    @app.exception_handler(ActionRefused)
    async def _refused(_req: Request, exc: ActionRefused) -> JSONResponse:
        return JSONResponse(
            error_body(exc.code, exc.message), status_code=STATUS_OF.get(exc.code, 400)
        )

    @app.exception_handler(ArenaError)
    async def _arena_error(_req: Request, exc: ArenaError) -> JSONResponse:
        code = UNKNOWN_GAME if isinstance(exc, UnknownGameError) else "invalid"
        return JSONResponse(error_body(code, str(exc)), status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(req: Request, exc: StarletteHTTPException) -> Response:
        headers = dict(exc.headers or {})
        detail = str(exc.detail)
        if exc.status_code == 405:
            allowed = allowed_methods(req.app.routes, req.scope)
            if allowed:
                headers["Allow"] = ", ".join(allowed)
                detail = f"{req.method} is not allowed here; allowed: {headers['Allow']}"
        if not req.url.path.startswith("/api/"):  # a person's page: answer with a page
            title = "Page not found" if exc.status_code == 404 else "Not available"
            if detail == "Not Found" or exc.status_code == 405:
                detail = "There is no page at this address."
            return page(title, detail, exc.status_code, headers)
        code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
        return JSONResponse(error_body(code, detail), status_code=exc.status_code, headers=headers)

    @app.exception_handler(RequestValidationError)
    async def _validation(_req: Request, exc: RequestValidationError) -> JSONResponse:
        return validation_answer(exc.errors())

    @app.exception_handler(Exception)
    async def _internal(_req: Request, exc: Exception) -> JSONResponse:
        log.exception("internal error", exc_info=exc)
        return JSONResponse(
            error_body("internal", "something went wrong on the server"), status_code=500
        )
