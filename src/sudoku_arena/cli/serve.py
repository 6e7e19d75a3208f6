"""``serve``: run the web server (pages, JSON API, WebSocket play) on uvicorn."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from sudoku_arena.cli.app import app, console, fail

if TYPE_CHECKING:
    from sudoku_arena.server.alerts import AlertConfig


def _preflight(database_url: str, redis_url: str | None) -> None:
    """Fail at once, in one line, when the database or Redis cannot be used (rather than
    with a traceback from inside the server, or after a long time-out). Creates nothing:
    a SQLite file that does not exist yet is left for the server to create."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    from sudoku_arena.server.db.engine import normalise_url

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


def _limit_rules(given: list[str]) -> dict[str, str]:
    """``--limit RULE=N/PERIOD`` options as rules, or a clear failure naming the one
    that is wrong and what is allowed."""
    from limits import parse

    from sudoku_arena.server.limits import RULES

    rules: dict[str, str] = {}
    for text in given:
        name, _, value = text.partition("=")
        if name not in RULES:
            fail(f"--limit {text}: no rule {name!r}; rules: {', '.join(RULES)}")
        try:
            parse(value)
        except ValueError:
            fail(f"--limit {text}: not a limit; allowed: N/PERIOD (60/minute, 10/hour)")
        rules[name] = value
    return rules


def _alert_config(
    public_url: str, contact: str | None, smtp_url: str | None, http_endpoints: bool
) -> AlertConfig:
    """The "your turn" alerts' options, or a clear failure naming what is allowed."""
    from urllib.parse import urlsplit

    from sudoku_arena.server.alerts import AlertConfig

    if urlsplit(public_url).scheme not in ("http", "https"):
        fail(f"--public-url {public_url}: allowed: an http:// or https:// address")
    if contact is not None and not contact.startswith(("mailto:", "https://")):
        fail(f"--push-contact {contact}: allowed: mailto:ADDRESS or an https:// URL")
    if smtp_url is not None:
        u = urlsplit(smtp_url)
        if u.scheme not in ("smtp", "smtps", "smtp+starttls") or not u.hostname:
            fail(
                f"--smtp-url {smtp_url}: allowed: smtp://[user:pass@]host[:port]"
                "[?from=ADDRESS] (or smtps://, smtp+starttls://)"
            )
    return AlertConfig(
        contact=contact,
        public_url=public_url,
        smtp_url=smtp_url,
        allow_http_endpoints=http_endpoints,
    )


def require_fleet(database_url: str, redis_url: str | None, what: str) -> None:
    """Refuse ``what`` (bots in other processes) without a database several processes
    share (PostgreSQL) and the Redis that tells them a bot is due."""
    if not database_url.startswith(("postgresql", "postgres:")):
        fail(f"{what}: bots in other processes need a PostgreSQL --database-url")
    if not redis_url:
        fail(f"{what}: bots in other processes need --redis-url (to hear a bot is due)")


def configure_logs(log_format: str, log_level: str) -> None:
    """``--log-format`` and ``--log-level``: the process's logging (``server.logs``), or
    a clear failure naming what is allowed."""
    from sudoku_arena.server import logs

    if log_format not in ("auto", "text", "json"):
        fail(f"--log-format {log_format}: not a log format; allowed: text, json or auto")
    if log_level.lower() not in ("debug", "info", "warning", "error", "critical"):
        fail(f"--log-level {log_level}: not a level; allowed: debug, info, warning, error")
    fmt: logs.LogFormat = "json" if log_format == "json" else "text"
    logs.configure(logs.default_format() if log_format == "auto" else fmt, log_level)


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
        int | None,
        typer.Option(
            min=0,
            help="processes for bots to think in (0: threads; default: one per CPU this "
            "process may use)",
        ),
    ] = None,
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
    public_url: Annotated[
        str | None,
        typer.Option(
            help="the address players reach this server at, for links in alert e-mails "
            "(default: http://HOST:PORT)",
        ),
    ] = None,
    push_contact: Annotated[
        str | None,
        typer.Option(
            help="how push services reach the operator, sent with every Web Push alert: "
            "mailto:you@example.org or an https URL (default: the public URL)",
        ),
    ] = None,
    smtp_url: Annotated[
        str | None,
        typer.Option(
            help="e-mail players whose turn it is (if they gave an address): "
            "smtp://user:pass@host:port?from=arena@example.org (smtps:// for TLS, "
            "smtp+starttls:// for STARTTLS); default: no e-mail",
        ),
    ] = None,
    push_http_endpoints: Annotated[
        bool,
        typer.Option(hidden=True, help="accept push endpoints over plain http (tests)"),
    ] = False,
    log_level: Annotated[str, typer.Option(help="debug, info, warning or error")] = "info",
    log_format: Annotated[
        str,
        typer.Option(
            help="text or json (one object a line, with the request, game and seat); "
            "default: text in a terminal, json otherwise",
        ),
    ] = "auto",
    bots_elsewhere: Annotated[
        bool,
        typer.Option(
            help="think for no bot here: 'sudoku-arena bots' processes do (a fleet on "
            "PostgreSQL and Redis)",
        ),
    ] = False,
    drain_delay: Annotated[
        float,
        typer.Option(
            min=0.0,
            help="on SIGTERM, seconds /readyz answers 503 before the sockets close (the "
            "time a proxy takes to notice)",
        ),
    ] = 0.0,
    drain_grace: Annotated[
        float,
        typer.Option(min=0.0, help="on SIGTERM, the most seconds to finish moves in flight"),
    ] = 10.0,
    rate_limits: Annotated[
        bool,
        typer.Option(help="rate limits per address and account (off only for benchmarks)"),
    ] = True,
    limit: Annotated[
        list[str] | None,
        typer.Option(
            help="override a rate limit: RULE=N/PERIOD, e.g. create=120/minute (rules: "
            "signup, signin, signin_fail, create, seek, chat, socket); repeatable",
        ),
    ] = None,
) -> None:
    """Serve the games in the browser: home page, new-game form, play, watch, replay."""
    import uvicorn

    from sudoku_arena.server import ServerConfig, create_app
    from sudoku_arena.server.bots import machine_workers
    from sudoku_arena.server.drain import DrainingServer

    if not 1 <= port <= 65535:
        fail(f"--port {port}: no such port; allowed: 1-65535")
    try:
        abandon_seconds = parse_period(abandon_after)
        claim_seconds = parse_period(claim_after, "--claim-after", bare="s")
    except ValueError as exc:
        fail(str(exc))
    alerts = _alert_config(
        public_url or f"http://{host}:{port}", push_contact, smtp_url, push_http_endpoints
    )
    rules = _limit_rules(limit or [])
    if bots_elsewhere:
        require_fleet(database_url, redis_url, "--bots-elsewhere")
    _preflight(database_url, redis_url)
    configure_logs(log_format, log_level)
    config = ServerConfig(
        database_url=database_url,
        redis_url=redis_url,
        channel=channel,
        bot_workers=machine_workers() if bot_workers is None else bot_workers,
        bots_elsewhere=bots_elsewhere,
        bot_delay=bot_delay,
        bot_lease=bot_lease,
        idle_seconds=idle_minutes * 60,
        abandon_after=abandon_seconds,
        claim_after=claim_seconds,
        alerts=alerts,
        rate_limits=rate_limits,
        limit_rules=rules,
    )
    console.print(f"Sudoku Arena on http://{host}:{port}/  (storage: {database_url})")
    web = create_app(config)
    uv = uvicorn.Config(
        web,
        host=host,
        port=port,
        log_level=log_level.lower(),
        access_log=False,
        log_config=None,  # configure_logs did it: text or JSON, with the context
        ws_max_size=65536,
        ws_ping_interval=20.0,
        ws_ping_timeout=20.0,
        backlog=4096,
        timeout_graceful_shutdown=5,
    )
    # SIGTERM drains first: nothing in flight is dropped (server/drain.py).
    DrainingServer(uv, web, delay=drain_delay, grace=drain_grace).run()
