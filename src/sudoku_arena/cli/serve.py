"""``serve``: run the web server (pages, JSON API, WebSocket play) on uvicorn."""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Annotated

import typer

from sudoku_arena.cli.app import app, console, fail


def _preflight(database_url: str, redis_url: str | None) -> None:
    """Fail at once, in one line, when the database or Redis cannot be used (rather than
    with a traceback from inside the server, or after a long time-out). Creates nothing:
    a SQLite file that does not exist yet is left for the server to create."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    from sudoku_arena.server.storage import normalise_url

    url = normalise_url(database_url)
    try:
        parsed = make_url(url)
    except ArgumentError:
        fail(
            f"--database-url {database_url}: not a database URL; allowed: "
            "sqlite:///FILE or postgresql://user@host/db"
        )
    connect = True
    if parsed.get_backend_name() == "sqlite" and parsed.database not in (None, "", ":memory:"):
        path = Path(parsed.database)
        folder = path.resolve().parent
        if path.is_dir():
            fail(f"--database-url {database_url}: {path} is a folder; give a file name")
        if not folder.is_dir():
            fail(f"--database-url {database_url}: the folder {folder} does not exist")
        if not os.access(folder, os.W_OK):
            fail(f"--database-url {database_url}: the folder {folder} is not writable")
        connect = path.exists()  # connecting would create the file
    if redis_url:
        _check_redis(redis_url)
    if connect:
        _check_database(database_url, url, parsed.get_backend_name())


def _check_redis(redis_url: str) -> None:
    import redis

    try:
        redis.Redis.from_url(redis_url, socket_connect_timeout=3, socket_timeout=3).ping()
    except (redis.RedisError, ValueError, OSError) as exc:
        fail(f"--redis-url {redis_url}: cannot reach Redis: {exc}")


def _check_database(database_url: str, url: str, backend: str) -> None:
    from sqlalchemy import create_engine
    from sqlalchemy.exc import SQLAlchemyError

    try:
        args = {"connect_timeout": 5} if backend == "postgresql" else {}
        engine = create_engine(url, connect_args=args)
        with engine.connect():
            pass
        engine.dispose()
    except (SQLAlchemyError, ImportError, ValueError) as exc:
        reason = str(getattr(exc, "orig", None) or exc).strip().splitlines()[0]
        fail(f"--database-url {database_url}: cannot connect: {reason}")


_UNITS = {"s": 1.0, "m": 60.0, "h": 3600.0, "d": 86400.0}


def parse_period(text: str, option: str = "--abandon-after", bare: str = "h") -> float | None:
    """``--abandon-after``: ``36h``, ``7d``, ``90m``, ``45s`` or a bare number counted in
    ``bare`` units (hours), in seconds; ``0`` or ``never``: ``None``. Raises
    ``ValueError`` naming ``option`` and what is allowed."""
    t = text.strip().lower()
    if t in ("0", "never", "off"):
        return None
    unit = _UNITS.get(t[-1:])
    number = t[:-1] if unit is not None else t
    try:
        value = float(number) * (unit or _UNITS[bare])
    except ValueError:
        value = -1.0
    if not 0 < value < float("inf"):
        words = {"s": "seconds", "m": "minutes", "h": "hours", "d": "days"}[bare]
        raise ValueError(
            f"{option} {text}: not a period; allowed: a number with s, m, h or d "
            f"(36h, 7d; a bare number counts {words}), or never"
        )
    return value


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="port to listen on (1-65535)")] = 8000,
    database_url: Annotated[
        str,
        typer.Option(help="SQLAlchemy URL: sqlite:///FILE (default) or postgresql://user@host/db"),
    ] = "sqlite:///sudoku-arena.sqlite3",
    redis_url: Annotated[
        str | None,
        typer.Option(help="redis://host:port to fan out moves between several processes"),
    ] = None,
    channel: Annotated[str, typer.Option(help="Redis channel shared by the processes")] = (
        "sudoku-arena"
    ),
    bot_workers: Annotated[
        int, typer.Option(min=0, help="processes for bots to think in (0: threads)")
    ] = 1,
    bot_delay: Annotated[
        float, typer.Option(min=0.0, help="least seconds a bot takes to move (for people)")
    ] = 0.4,
    bot_lease: Annotated[
        float,
        typer.Option(
            min=1.0,
            help="seconds a process may think for a game's bots before another takes over "
            "(several processes on PostgreSQL)",
        ),
    ] = 30.0,
    idle_minutes: Annotated[
        float, typer.Option(min=0.1, help="minutes without use before a game leaves memory")
    ] = 15.0,
    abandon_after: Annotated[
        str,
        typer.Option(
            help="end games with no move for this long as abandoned: 36h, 7d, 90m (a bare "
            "number counts hours), or never",
        ),
    ] = "7d",
    claim_after: Annotated[
        str,
        typer.Option(
            help="in an invite game without a clock, the last person left may claim the "
            "win once every other person has been away this long: 60s, 2m (a bare number "
            "counts seconds), or never",
        ),
    ] = "60s",
    log_level: Annotated[str, typer.Option(help="debug, info, warning or error")] = "info",
) -> None:
    """Serve the games in the browser: home page, new-game form, play, watch, replay."""
    import uvicorn

    from sudoku_arena.server import ServerConfig, create_app

    if not 1 <= port <= 65535:
        fail(f"--port {port}: no such port; allowed: 1-65535")
    try:
        abandon_seconds = parse_period(abandon_after)
        claim_seconds = parse_period(claim_after, "--claim-after", bare="s")
    except ValueError as exc:
        fail(str(exc))
    _preflight(database_url, redis_url)
    logging.basicConfig(level=log_level.upper(), format="%(levelname)s %(name)s: %(message)s")
    config = ServerConfig(
        database_url=database_url,
        redis_url=redis_url,
        channel=channel,
        bot_workers=bot_workers,
        bot_delay=bot_delay,
        bot_lease=bot_lease,
        idle_seconds=idle_minutes * 60,
        abandon_after=abandon_seconds,
        claim_after=claim_seconds,
    )
    console.print(f"Sudoku Arena on http://{host}:{port}/  (storage: {database_url})")
    uvicorn.run(
        create_app(config),
        host=host,
        port=port,
        log_level=log_level.lower(),
        access_log=False,
        ws_max_size=65536,
        ws_ping_interval=20.0,
        ws_ping_timeout=20.0,
        backlog=4096,
        timeout_graceful_shutdown=5,
    )
