"""``serve``: run the web server (pages, JSON API, WebSocket play) on uvicorn."""

from __future__ import annotations

import logging
from typing import Annotated

import typer

from sudoku_arena.cli.app import app, console


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535, help="port to listen on (1-65535)")] = 8000,
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
    log_level: Annotated[str, typer.Option(help="debug, info, warning or error")] = "info",
) -> None:
    """Serve the games in the browser: home page, new-game form, play, watch, replay."""
    import uvicorn

    from sudoku_arena.server import ServerConfig, create_app

    logging.basicConfig(level=log_level.upper(), format="%(levelname)s %(name)s: %(message)s")
    config = ServerConfig(
        database_url=database_url,
        redis_url=redis_url,
        channel=channel,
        bot_workers=bot_workers,
        bot_delay=bot_delay,
        bot_lease=bot_lease,
        idle_seconds=idle_minutes * 60,
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
