"""Operations endpoints: ``/healthz``, ``/readyz`` and ``/metrics``.

- ``/healthz``: the process lives and answers (200 ``ok``); nothing else is looked at,
  so a database outage never gets a healthy process restarted.
- ``/readyz``: whether this process should be sent players: the database answers, its
  migrations are the ones this server knows (every head applied), Redis answers when
  the server uses one, and the process is not draining (shutting down on SIGTERM).
  200 when all hold, else 503; both with a JSON body naming each check's result and the
  ones that failed.
- ``/metrics``: Prometheus text (:mod:`sudoku_arena.server.metrics`).

All three are cheap (one small query, one Redis PING) and count against no rate limit:
none of them calls :class:`~sudoku_arena.server.limits.RateLimits`. Refusals of the
other routes are counted here too, by wrapping the app's error handlers.
"""

from __future__ import annotations

import asyncio
import inspect
import json
from collections.abc import Awaitable, Callable, Mapping, Set
from functools import lru_cache, partial
from typing import TYPE_CHECKING, Protocol

from alembic.config import Config
from alembic.script import ScriptDirectory
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, PlainTextResponse, Response
from sqlalchemy import Engine, func, select, text
from sqlalchemy.exc import SQLAlchemyError

from sudoku_arena.server import metrics
from sudoku_arena.server.analysis_store import PENDING, analysis_table
from sudoku_arena.server.migrations import HERE as MIGRATIONS

if TYPE_CHECKING:
    from redis.asyncio import Redis

OK = "ok"
#: Seconds a readiness check may take before it counts as failed.
CHECK_TIMEOUT = 2.0


class _Storage(Protocol):
    @property
    def engine(self) -> Engine: ...


class _Arena(Protocol):
    @property
    def storage(self) -> _Storage: ...
    @property
    def games(self) -> Mapping[str, object]: ...
    @property
    def clients(self) -> Mapping[str, Set[object]]: ...


@lru_cache(maxsize=1)
def _script() -> ScriptDirectory:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    return ScriptDirectory.from_config(cfg)


@lru_cache(maxsize=1)
def known_heads() -> frozenset[str]:
    """The migration heads this server's code has (read once: the files do not change)."""
    return frozenset(_script().get_heads())


@lru_cache(maxsize=1)
def known_revisions() -> frozenset[str]:
    """Every migration this server's code has."""
    return frozenset(r.revision for r in _script().walk_revisions())


def check_database(engine: Engine) -> tuple[str, str]:
    """``(database, migrations)`` results: ``ok`` or what is wrong (blocking)."""
    try:
        with engine.connect() as conn:
            try:
                rows = conn.execute(text("SELECT version_num FROM alembic_version")).all()
            except SQLAlchemyError:
                return OK, "not migrated: the database has no alembic_version table"
    except SQLAlchemyError as exc:
        reason = str(getattr(exc, "orig", None) or exc).strip().splitlines()[0]
        return f"unreachable: {reason[:200]}", "unknown"
    have = frozenset(str(r[0]) for r in rows)
    want = known_heads()
    if have == want:
        return OK, OK
    unknown = sorted(have - known_revisions())
    missing = sorted(want - have) if not unknown else []
    parts = []
    if missing:
        parts.append("not applied: " + ", ".join(missing))
    if unknown:
        parts.append("newer than this server: " + ", ".join(unknown))
    return OK, "; ".join(parts)


def analysis_backlog(engine: Engine) -> int:
    """Finished games whose analysis is still pending (blocking)."""
    query = select(func.count()).select_from(analysis_table)
    with engine.connect() as conn:
        return int(conn.execute(query.where(analysis_table.c.status == PENDING)).scalar_one())


class RedisCheck:
    """PING the fleet's Redis, on one client kept between checks."""

    def __init__(self, url: str | None) -> None:
        self.url = url
        self._client: Redis | None = None

    async def __call__(self) -> str:
        if not self.url:
            return "not used"
        import redis.asyncio as aioredis
        from redis.exceptions import RedisError

        if self._client is None:
            self._client = aioredis.Redis.from_url(
                self.url, socket_connect_timeout=CHECK_TIMEOUT, socket_timeout=CHECK_TIMEOUT
            )
        try:
            await self._client.ping()
        except (RedisError, OSError) as exc:
            return f"unreachable: {str(exc)[:200]}"
        return OK


async def readiness(
    engine: Engine, redis: Callable[[], Awaitable[str]], draining: bool
) -> dict[str, str]:
    """Each check's result: ``ok`` (``not used`` for Redis without one) or the problem."""
    try:
        database, migrations = await asyncio.wait_for(
            asyncio.to_thread(check_database, engine), CHECK_TIMEOUT
        )
    except TimeoutError:
        database, migrations = f"no answer in {CHECK_TIMEOUT:g} s", "unknown"
    try:
        redis_state = await asyncio.wait_for(redis(), CHECK_TIMEOUT)
    except TimeoutError:
        redis_state = f"no answer in {CHECK_TIMEOUT:g} s"
    return {
        "database": database,
        "migrations": migrations,
        "redis": redis_state,
        "draining": "draining: shutting down, send players elsewhere" if draining else OK,
    }


def add_health(app: FastAPI, the_arena: Callable[[], _Arena], redis_url: str | None) -> None:
    """Add ``/healthz``, ``/readyz`` and ``/metrics`` to ``app``, and count its refusals.

    Call it once every error handler is installed. ``app.state.draining`` (set on
    SIGTERM) makes ``/readyz`` answer 503."""
    redis = RedisCheck(redis_url)

    @app.get("/healthz", include_in_schema=False)
    async def healthz() -> PlainTextResponse:
        return PlainTextResponse("ok", headers={"cache-control": "no-store"})

    @app.get("/readyz", include_in_schema=False)
    async def readyz(request: Request) -> JSONResponse:
        arena = the_arena()
        draining = bool(getattr(request.app.state, "draining", False)) or bool(
            getattr(arena, "draining", False)
        )
        checks = await readiness(arena.storage.engine, redis, draining)
        failed = [name for name, state in checks.items() if state not in (OK, "not used")]
        return JSONResponse(
            {"ready": not failed, "failed": failed, "checks": checks},
            status_code=503 if failed else 200,
            headers={"cache-control": "no-store"},
        )

    @app.get("/metrics", include_in_schema=False)
    async def prometheus() -> Response:
        arena = the_arena()
        metrics.watch(arena, backlog=partial(analysis_backlog, arena.storage.engine))
        body = await asyncio.to_thread(metrics.render)
        return Response(body, media_type=metrics.CONTENT_TYPE_LATEST)

    count_refusals(app)


def count_refusals(app: FastAPI) -> None:
    """Count every error answer of ``app`` by its code: 4xx as refusals, 5xx as errors.

    Each installed handler is wrapped: the code is the one in the answer's JSON body
    (``{"error": {"code": ...}}``), or ``http_<status>`` for a page."""
    for key, handler in list(app.exception_handlers.items()):
        app.exception_handlers[key] = _counted(handler)


#: An installed HTTP error handler, as Starlette keeps them: plain or async.
_Handler = Callable[[Request, Exception], Response | Awaitable[Response]]


def _counted(handler: _Handler) -> Callable[[Request, Exception], Awaitable[Response]]:
    async def counted(request: Request, exc: Exception) -> Response:
        answer = handler(request, exc)
        response = await answer if inspect.isawaitable(answer) else answer
        status = response.status_code
        if status >= 400:
            code = _code_of(response) or f"http_{status}"
            (metrics.failed if status >= 500 else metrics.refused)(code)
        return response

    return counted


def _code_of(response: Response) -> str | None:
    if not response.media_type or "json" not in response.media_type:
        return None
    try:
        body = json.loads(bytes(response.body))
        code = body["error"]["code"]
    except (ValueError, KeyError, TypeError):
        return None
    return code if isinstance(code, str) else None
