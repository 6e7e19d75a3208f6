"""The ASGI application: pages (:mod:`sudoku_arena.server.routes_pages`), the JSON API
(games and matches: :mod:`sudoku_arena.server.routes_matches`; the rest added by the
modules named in :func:`create_app`), and the WebSocket play protocol
(:mod:`sudoku_arena.server.sockets`).

The OpenAPI document (``/api/openapi.json``, shown at ``/api/docs``) says what the API
accepts and answers, refusals included (:mod:`sudoku_arena.server.openapi`). Errors
never carry internals: HTTP errors are ``{"error": {"code", "message"}}``
(:mod:`sudoku_arena.server.errors`).
"""

from __future__ import annotations

import html
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

import swagger_ui_bundle  # type: ignore[import-untyped]  # ships no type hints
from fastapi import FastAPI
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.middleware.gzip import GZipMiddleware
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from sudoku_arena.core.types import JsonDict
from sudoku_arena.server import logs
from sudoku_arena.server.accounts import (
    CsrfGuard,
    add_accounts,
    current_account,
    socket_gate,
)
from sudoku_arena.server.alerts import AlertConfig, add_alerts
from sudoku_arena.server.analysis import Analyser
from sudoku_arena.server.arena import Arena
from sudoku_arena.server.bots import BotRunner
from sudoku_arena.server.coach import add_coach
from sudoku_arena.server.db import accounts as accounts_db
from sudoku_arena.server.db.engine import Storage
from sudoku_arena.server.errors import error_body, install
from sudoku_arena.server.fanout import RedisFanout
from sudoku_arena.server.health import add_health
from sudoku_arena.server.home import add_home
from sudoku_arena.server.limits import RateLimits
from sudoku_arena.server.openapi import as_served
from sudoku_arena.server.pages import (
    web_file,
)
from sudoku_arena.server.presence import CLAIM_AFTER
from sudoku_arena.server.printing import router as printing_router
from sudoku_arena.server.routes_matches import api_router
from sudoku_arena.server.routes_pages import router as pages_router
from sudoku_arena.server.security import HEADERS, SecurityHeaders
from sudoku_arena.server.sockets import serve_socket
from sudoku_arena.server.tutorials import add_tutorials


@dataclass(slots=True)
class ServerConfig:
    """How a server process runs (the ``serve`` command's options)."""

    database_url: str = "sqlite:///sudoku-arena.sqlite3"
    redis_url: str | None = None
    channel: str = "sudoku-arena"
    bot_workers: int = 1
    bot_delay: float = 0.4
    max_message: int = 4096
    max_body: int = 65536
    bot_lease: float = 30.0  # seconds a bot lease lasts unrenewed
    idle_seconds: float = 900.0  # a game unused this long leaves memory
    abandon_after: float | None = 7 * 86400.0  # seconds without a move (None: never)
    # Seconds every other person must have been gone (no device connected) before the
    # last one left may claim the win, in invite games without a clock (None: never).
    claim_after: float | None = CLAIM_AFTER
    timeout_sweep: float = 1.0  # seconds between looks at clocks and idle games
    analysis: bool = True  # analyse finished games in the background
    analysis_workers: int | None = None  # None: a process if bot_workers > 0, else a thread
    analysis_simulations: int | None = None  # per position (None: the game's default)
    # Bots think in ``sudoku-arena bots`` processes, not in this one (a fleet on
    # PostgreSQL and Redis).
    bots_elsewhere: bool = False
    # Where this process's bots think: "local" worker processes, or "ray" tasks on the
    # cluster at ``ray_address`` (None: a Ray instance of its own on this machine).
    bot_backend: str = "local"
    ray_address: str | None = None
    # Rate limits (server.limits): off only for benchmarks and tests that need floods;
    # ``limit_rules`` overrides rules by name ({"create": "600/minute"}).
    rate_limits: bool = True
    limit_rules: dict[str, str] | None = None
    signin_slowdown: float = 0.25  # seconds the 4th wrong password in a row waits (doubling)
    # "Your turn" alerts: Web Push (VAPID contact), e-mail over SMTP (off by default).
    alerts: AlertConfig = field(default_factory=AlertConfig)


def build_arena(cfg: ServerConfig) -> Arena:
    """The arena a process runs (``serve``, and ``bots`` with no HTTP around it)."""
    storage = Storage(cfg.database_url)
    return Arena(
        storage,
        fanout=RedisFanout(cfg.redis_url, cfg.channel) if cfg.redis_url else None,
        bots=BotRunner(cfg.bot_workers, cfg.bot_backend, cfg.ray_address),
        bot_delay=cfg.bot_delay,
        idle_seconds=cfg.idle_seconds,
        lease_seconds=cfg.bot_lease,
        abandon_after=cfg.abandon_after,
        claim_after=cfg.claim_after,
        timeout_sweep_seconds=cfg.timeout_sweep,
        analysis=_analyser(cfg, storage),
        bots_elsewhere=cfg.bots_elsewhere,
    )


def _analyser(cfg: ServerConfig, storage: Storage) -> Analyser | None:
    if not cfg.analysis:
        return None
    workers = cfg.analysis_workers
    if workers is None:
        # A process unless bots think in threads here (then a thread, as they do).
        workers = 1 if cfg.bot_workers > 0 or cfg.bots_elsewhere else 0
    return Analyser(storage, workers=workers, simulations=cfg.analysis_simulations)


class BodyLimit:
    """Refuse HTTP request bodies larger than ``limit`` bytes with a JSON 413."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", []):
            if name == b"content-length":
                try:
                    too_big = int(value) > self.limit
                except ValueError:
                    too_big = True
                if too_big:
                    await self._refuse(scope, receive, send)
                    return
        chunks: list[bytes] = []
        size = 0
        more = True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                break
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.limit:
                await self._refuse(scope, receive, send)
                return
            chunks.append(chunk)
            more = message.get("more_body", False)
        body = b"".join(chunks)
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        resp = JSONResponse(
            error_body("too_large", f"request body over {self.limit} bytes"), status_code=413
        )
        await resp(scope, receive, send)


# Every response gets them from SecurityHeaders too; the pages name them as well.
_SECURITY_HEADERS = HEADERS


def _message_page(
    title: str, message: str, status: int, headers: Mapping[str, str] | None = None
) -> HTMLResponse:
    text = (
        web_file("notfound.html")
        .replace("{{title}}", html.escape(title))
        .replace("{{message}}", html.escape(message))
    )
    return HTMLResponse(text, status_code=status, headers={**_SECURITY_HEADERS, **(headers or {})})


class ArenaApp(FastAPI):
    """FastAPI for pages and the JSON API; WebSocket connections to ``/ws/`` go
    straight to :func:`~sudoku_arena.server.sockets.serve_socket`."""

    max_message = 4096

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):  # the lifespan
            await super().__call__(scope, receive, send)
            return
        # Every log line of the request or connection names it (and its game).
        with logs.request_context(scope) as rid:
            if scope["type"] == "websocket" and str(scope.get("path", "")).startswith("/ws/"):
                # Limited per address; the session's account is known to the socket.
                if not await socket_gate(self, scope, receive, send):
                    await serve_socket(self.state.arena, self.max_message, scope, receive, send)
                return
            await super().__call__(scope, receive, logs.echo_request_id(send, rid))

    def openapi(self) -> JsonDict:
        """The document at ``/api/openapi.json`` (:mod:`sudoku_arena.server.openapi`)."""
        if self.openapi_schema is None:
            self.openapi_schema = as_served(super().openapi())
        return self.openapi_schema


def create_app(config: ServerConfig | None = None, *, arena: Arena | None = None) -> ArenaApp:
    """The web application; games are kept in ``app.state.arena``."""
    cfg = config or ServerConfig()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        nonlocal arena
        if arena is None:
            arena = build_arena(cfg)
        app.state.arena = arena
        arena.chat.limits = app.state.limits  # counted across the fleet (Redis)
        await arena.start()
        try:
            yield
        finally:
            await arena.stop()

    app = ArenaApp(
        title="Sudoku Arena",
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
        openapi_url="/api/openapi.json",
    )
    app.max_message = cfg.max_message
    # One set of counters per server; in Redis (shared by the fleet) when it has one.
    app.state.limits = RateLimits(
        cfg.redis_url, cfg.limit_rules, enabled=cfg.rate_limits, prefix=cfg.channel
    )
    app.state.signin_slowdown = cfg.signin_slowdown
    # The Swagger UI shipped by swagger-ui-bundle (4.15) reads OpenAPI 3.0 documents.
    app.openapi_version = "3.0.3"

    def the_arena() -> Arena:
        a: Arena = app.state.arena
        return a

    # -- errors as JSON, never internals --------------------------------------------------

    install(app, _message_page)

    # -- pages (server/routes_pages.py) ---------------------------------------------------

    app.include_router(pages_router)
    # Swagger UI from the installed swagger-ui-bundle package: /api/docs needs no network.
    app.mount(
        "/api/docs-assets",
        StaticFiles(directory=swagger_ui_bundle.swagger_ui_path),
        name="docs-assets",
    )

    # -- API: games and matches (server/routes_matches.py) ------------------------------

    app.include_router(api_router(the_arena))

    app.include_router(printing_router)  # print and play: sheets and games as PDF
    add_tutorials(app, _SECURITY_HEADERS)  # learn to play: the lessons' API and pages
    add_coach(app, the_arena)  # hints during a game (the coach)
    add_health(app, the_arena, cfg.redis_url)  # /healthz, /readyz, /metrics; refusals counted
    # ratings, profiles, leaderboards, seeks and challenges (a player's home)
    add_home(app, the_arena, cfg.redis_url, cfg.channel, _SECURITY_HEADERS)
    add_accounts(app)  # optional accounts (sign up, in, out...)
    # "your turn" alerts: Web Push and e-mail, /sw.js (per seat, or per account)
    add_alerts(app, the_arena, cfg.alerts, current_account, accounts_db.seat_accounts)
    app.add_middleware(CsrfGuard)  # a signed-in browser's changes carry its CSRF token
    app.add_middleware(GZipMiddleware, minimum_size=2048)
    app.add_middleware(BodyLimit, limit=cfg.max_body)
    app.add_middleware(SecurityHeaders)  # CSP and the rest on every answer, refusals too
    return app
