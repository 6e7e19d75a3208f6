"""``bots``: a process that only moves bots, beside the ``serve`` processes of a fleet."""

from __future__ import annotations

from typing import Annotated

import typer

from sudoku_arena.cli.app import app, console, fail
from sudoku_arena.cli.serve import _preflight, configure_logs, require_fleet


@app.command()
def bots(
    database_url: Annotated[
        str, typer.Option(help="the fleet's PostgreSQL: postgresql://user@host/db")
    ] = "",
    redis_url: Annotated[str, typer.Option(help="the fleet's Redis: redis://host:port")] = "",
    channel: Annotated[str, typer.Option(help="Redis channel shared by the processes")] = (
        "sudoku-arena"
    ),
    bot_workers: Annotated[
        int | None,
        typer.Option(
            min=1, help="processes for bots to think in (default: one per CPU it may use)"
        ),
    ] = None,
    bot_delay: Annotated[
        float, typer.Option(min=0.0, help="least seconds a bot takes to move (for people)")
    ] = 0.4,
    bot_lease: Annotated[
        float,
        typer.Option(min=1.0, help="seconds a process may think for a game's bots unrenewed"),
    ] = 30.0,
    backend: Annotated[
        str,
        typer.Option(
            help="where bots think: local (worker processes) or ray (tasks on a Ray cluster)"
        ),
    ] = "local",
    address: Annotated[
        str | None,
        typer.Option(
            help="address of a running Ray cluster (with --backend ray; default: a Ray "
            "instance of its own with --bot-workers CPUs)"
        ),
    ] = None,
    host: Annotated[str, typer.Option(help="address of /healthz, /readyz, /metrics")] = (
        "127.0.0.1"
    ),
    metrics_port: Annotated[
        int, typer.Option(help="port of /healthz, /readyz and /metrics (1-65535)")
    ] = 9100,
    drain_grace: Annotated[
        float,
        typer.Option(min=0.0, help="on SIGTERM, the most seconds to finish bot moves"),
    ] = 10.0,
    log_level: Annotated[str, typer.Option(help="debug, info, warning or error")] = "info",
    log_format: Annotated[
        str, typer.Option(help="text or json; default: text in a terminal, json otherwise")
    ] = "auto",
) -> None:
    """Move bots for a fleet of 'serve --bots-elsewhere' processes (no web pages).

    Bot turns are taken through the fleet's leases, so more bots processes (on other
    machines too) mean more bot capacity; with --backend ray one process hands its
    bots' thinking to a Ray cluster's machines."""
    import uvicorn

    from sudoku_arena.core.workers import require_ray
    from sudoku_arena.server import ServerConfig
    from sudoku_arena.server.bots import BACKENDS, BotSetupError, machine_workers
    from sudoku_arena.server.botwork import create_bots_app
    from sudoku_arena.server.drain import DrainingServer

    if not 1 <= metrics_port <= 65535:
        fail(f"--metrics-port {metrics_port}: no such port; allowed: 1-65535")
    if backend not in BACKENDS:
        fail(f"--backend {backend}: no such backend; allowed: {', '.join(BACKENDS)}")
    if address is not None and backend != "ray":
        fail("--address names a Ray cluster: give it with --backend ray")
    if backend == "ray":
        try:
            require_ray(BotSetupError)
        except BotSetupError as exc:
            fail(str(exc))
    require_fleet(database_url, redis_url, "bots")
    _preflight(database_url, redis_url)
    configure_logs(log_format, log_level)
    config = ServerConfig(
        database_url=database_url,
        redis_url=redis_url,
        channel=channel,
        bot_workers=machine_workers() if bot_workers is None else bot_workers,
        bot_delay=bot_delay,
        bot_lease=bot_lease,
        analysis=False,  # finished games are analysed by the serve processes
        bot_backend=backend,
        ray_address=address,
    )
    where = f"Ray tasks on {address}" if address else f"{config.bot_workers} {backend} workers"
    console.print(
        f"Sudoku Arena bots: {where}; health and metrics on http://{host}:{metrics_port}/"
    )
    web = create_bots_app(config)
    uv = uvicorn.Config(
        web,
        host=host,
        port=metrics_port,
        log_level=log_level.lower(),
        access_log=False,
        log_config=None,
    )
    DrainingServer(uv, web, grace=drain_grace).run()
