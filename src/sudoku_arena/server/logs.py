"""Structured logs: every line says which request, game and seat it is about.

The standard library's logging, configured by :func:`configure`: plain text for a
person at a terminal, one JSON object a line for a log collector (``serve
--log-format json``). The request id, game id and seat live in context variables: the
app sets them for each HTTP request and WebSocket connection (:func:`request_context`),
the socket handler adds the seat once a hello names it (:func:`bind`), and asyncio
copies them into every task started from there, so a line logged anywhere below says
which request it belongs to. A request's id is the ``X-Request-ID`` it came with (a
proxy's) or a new one, and it is sent back in the answer's ``X-Request-ID``.
"""

from __future__ import annotations

import json
import logging
import random
import re
import secrets
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Literal

from starlette.types import Message, Scope, Send

LogFormat = Literal["text", "json"]

request_id: ContextVar[str | None] = ContextVar("request_id", default=None)
game_id: ContextVar[str | None] = ContextVar("game_id", default=None)
seat: ContextVar[int | None] = ContextVar("seat", default=None)

#: Paths whose second part is a game's id.
_GAME_PATH = re.compile(r"^/(?:api/matches|play|replay|ws)/([A-Za-z0-9_-]{1,40})(?:/|$)")
#: A request id a proxy may give: short, printable, no spaces (anything else: a new one).
_GOOD_ID = re.compile(r"^[A-Za-z0-9._:-]{1,64}$")


class ContextFilter(logging.Filter):
    """Put the request id, game id and seat of the current context on each record."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = request_id.get()
        record.game_id = game_id.get()
        record.seat = seat.get()
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time (UTC, ISO 8601), level, logger, message, context."""

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, object] = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        for key in ("request_id", "game_id", "seat"):
            value = getattr(record, key, None)
            if value is not None:
                out[key] = value
        if record.exc_info:
            out["exception"] = self.formatException(record.exc_info)
        return json.dumps(out, ensure_ascii=False, default=str)


class TextFormatter(logging.Formatter):
    """``INFO sudoku_arena.server: message [game=abc seat=1 request=f00]``."""

    def format(self, record: logging.LogRecord) -> str:
        line = f"{record.levelname} {record.name}: {record.getMessage()}"
        context = [
            f"{name}={value}"
            for name, value in (
                ("game", getattr(record, "game_id", None)),
                ("seat", getattr(record, "seat", None)),
                ("request", getattr(record, "request_id", None)),
            )
            if value is not None
        ]
        if context:
            line += " [" + " ".join(context) + "]"
        if record.exc_info:
            line += "\n" + self.formatException(record.exc_info)
        return line


def default_format() -> LogFormat:
    """Text for a person at a terminal, JSON when the output goes elsewhere (a file, a
    container's log collector)."""
    return "text" if sys.stderr.isatty() else "json"


def configure(fmt: LogFormat, level: str = "info") -> None:
    """Send every logger's records (uvicorn's too) to stderr in ``fmt``."""
    handler = logging.StreamHandler(sys.stderr)
    handler.addFilter(ContextFilter())
    handler.setFormatter(JsonFormatter() if fmt == "json" else TextFormatter())
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level.upper())
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        # uvicorn's own handlers would print its lines a second time, unformatted.
        logger = logging.getLogger(name)
        logger.handlers.clear()
        logger.propagate = True


def game_of(path: str) -> str | None:
    """The game id in a path (``/api/matches/ID/...``, ``/play/ID``, ``/ws/ID``)."""
    m = _GAME_PATH.match(path)
    return m.group(1) if m else None


#: Request ids need to be unique, not secret: drawn from a generator seeded once, because
#: ``secrets`` asks the kernel each time, and that call lets go of the interpreter lock,
#: which a busy database thread then holds for up to 5 ms (2% of a loaded server's time).
_ids = random.Random(secrets.randbits(64))


@contextmanager
def request_context(scope: Scope) -> Iterator[str]:
    """Set the request id and the path's game for the duration of one request or
    connection; yields the request id."""
    given = None
    for name, value in scope.get("headers", ()):
        if name == b"x-request-id":
            given = value.decode("latin-1")
    rid = given if given and _GOOD_ID.match(given) else f"{_ids.getrandbits(64):016x}"
    tokens = (
        request_id.set(rid),
        game_id.set(game_of(str(scope.get("path", "")))),
        seat.set(None),
    )
    try:
        yield rid
    finally:
        seat.reset(tokens[2])
        game_id.reset(tokens[1])
        request_id.reset(tokens[0])


def bind(*, game: str | None = None, seat_number: int | None = None) -> None:
    """Add what the handler learned (the seat a hello names) to the current context."""
    if game is not None:
        game_id.set(game)
    if seat_number is not None:
        seat.set(seat_number)


def echo_request_id(send: Send, rid: str) -> Send:
    """``send`` that adds ``X-Request-ID: rid`` to an HTTP answer's headers."""
    header = (b"x-request-id", rid.encode("latin-1"))

    async def sending(message: Message) -> None:
        if message["type"] == "http.response.start":
            message = {**message, "headers": [*message.get("headers", []), header]}
        await send(message)

    return sending
