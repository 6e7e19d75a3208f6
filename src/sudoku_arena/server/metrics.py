"""Prometheus metrics of one server process, served at ``/metrics``.

Every number here is observed in the process that serves ``/metrics``: the moves and
their acknowledgements, the sockets and games in memory, the bot queue, the storage's
commits. The bot and analysis workers are other processes, but they only compute (a
state in, an action or values out): the serving process times each job around the
call, so nothing is counted in a worker, and prometheus-client's multiprocess mode (a
directory of memory-mapped files shared by forked workers) is not needed. A fleet is
several such processes (``serve`` runs one uvicorn process, no forked workers; the
``bots`` command serves its own ``/metrics`` on ``--metrics-port``): Prometheus
scrapes each one as its own target and sums across them.

The observation points call the one-line helpers below (:func:`move_acknowledged`,
:func:`commit_timer`...); gauges that describe memory (sockets open, games in memory)
and the analysis backlog (a count in the database, the same for the whole fleet) are
read when scraped, from the arenas :func:`watch` was given.
"""

from __future__ import annotations

import time
import weakref
from collections.abc import Callable, Iterable, Iterator, Mapping, Set
from contextlib import contextmanager
from typing import Protocol

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.gc_collector import GCCollector
from prometheus_client.platform_collector import PlatformCollector
from prometheus_client.process_collector import ProcessCollector
from prometheus_client.registry import Collector

__all__ = ["CONTENT_TYPE_LATEST", "REGISTRY", "render"]

#: This process's metrics (not prometheus-client's global registry, so that importing
#: the module twice in tests, or a library's own metrics, never collide with ours).
REGISTRY = CollectorRegistry()
ProcessCollector(registry=REGISTRY)
PlatformCollector(registry=REGISTRY)
GCCollector(registry=REGISTRY)

#: Acknowledgements are quick (a commit); bots and commits are spread wider.
_ACK_BUCKETS = (0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
_BOT_BUCKETS = (0.05, 0.1, 0.25, 0.5, 1.0, 1.5, 2.0, 3.0, 5.0, 10.0, 30.0)
_COMMIT_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)

MOVES = Counter(
    "sudoku_arena_moves_acknowledged",
    "Actions of people acknowledged to them (committed), by game",
    ["game"],
    registry=REGISTRY,
)
ACK_SECONDS = Histogram(
    "sudoku_arena_ack_seconds",
    "Seconds from a person's action arriving to its acknowledgement, by game",
    ["game"],
    buckets=_ACK_BUCKETS,
    registry=REGISTRY,
)
BOT_QUEUE = Gauge(
    "sudoku_arena_bot_queue_length",
    "Bot moves asked of the workers and not answered yet (waiting or thinking)",
    registry=REGISTRY,
)
BOT_SECONDS = Histogram(
    "sudoku_arena_bot_move_seconds",
    "Seconds a bot move took in the workers, queue included, by game",
    ["game"],
    buckets=_BOT_BUCKETS,
    registry=REGISTRY,
)
COMMIT_SECONDS = Histogram(
    "sudoku_arena_commit_seconds",
    "Seconds the storage took to commit a move (or several written together)",
    buckets=_COMMIT_BUCKETS,
    registry=REGISTRY,
)
REFUSALS = Counter(
    "sudoku_arena_refusals",
    "Requests and socket messages refused (4xx, or a socket error), by error code",
    ["code"],
    registry=REGISTRY,
)
ERRORS = Counter(
    "sudoku_arena_errors",
    "Requests that failed on the server (5xx), by error code",
    ["code"],
    registry=REGISTRY,
)


class _Arena(Protocol):
    """What the scrape reads of an arena (:class:`~sudoku_arena.server.arena.Arena`)."""

    @property
    def games(self) -> Mapping[str, object]: ...
    @property
    def clients(self) -> Mapping[str, Set[object]]: ...


class _Memory(Collector):
    """Sockets open, games in memory and the analysis backlog, read when scraped."""

    def __init__(self) -> None:
        self.arenas: weakref.WeakSet[_Arena] = weakref.WeakSet()
        self.backlog: Callable[[], int] | None = None

    def collect(self) -> Iterable[Metric]:
        arenas = list(self.arenas)
        sockets = sum(len(c) for a in arenas for c in list(a.clients.values()))
        yield GaugeMetricFamily(
            "sudoku_arena_open_sockets", "WebSocket connections open to games", value=sockets
        )
        yield GaugeMetricFamily(
            "sudoku_arena_games_in_memory",
            "Games this process holds in memory",
            value=sum(len(a.games) for a in arenas),
        )
        if self.backlog is not None:
            try:
                value = float(self.backlog())
            except Exception:  # a database down must not fail the scrape
                value = float("nan")
            yield GaugeMetricFamily(
                "sudoku_arena_analysis_backlog",
                "Finished games waiting for their analysis (the fleet's, from the database)",
                value=value,
            )


_MEMORY = _Memory()
REGISTRY.register(_MEMORY)


def watch(arena: _Arena, backlog: Callable[[], int] | None = None) -> None:
    """Report ``arena``'s sockets and games (while it lives), and ``backlog()`` as the
    analysis backlog (a blocking call: the scrape runs in a thread)."""
    _MEMORY.arenas.add(arena)
    if backlog is not None:
        _MEMORY.backlog = backlog


def render() -> bytes:
    """The text exposition of every metric (blocking: run it in a thread)."""
    return generate_latest(REGISTRY)


# -- observation points: one call each ---------------------------------------------------------


def move_acknowledged(game: str, seconds: float) -> None:
    """A person's action in a ``game`` (its kind: ``tic-tac-sudoku``) acknowledged
    ``seconds`` after it arrived."""
    MOVES.labels(game).inc()
    ACK_SECONDS.labels(game).observe(seconds)


@contextmanager
def bot_move(game: str) -> Iterator[None]:
    """Around a bot move asked of the workers: the queue and the move's seconds."""
    BOT_QUEUE.inc()
    start = time.perf_counter()
    try:
        yield
    finally:
        BOT_QUEUE.dec()
        BOT_SECONDS.labels(game).observe(time.perf_counter() - start)


@contextmanager
def commit_timer() -> Iterator[None]:
    """Around the storage's commit of moves."""
    with COMMIT_SECONDS.time():
        yield


def refused(code: str) -> None:
    """A refusal answered with ``code`` (``not_your_turn``, ``too_many_requests``...)."""
    REFUSALS.labels(code).inc()


def failed(code: str) -> None:
    """A failure on the server answered with ``code`` (``internal``, ``unavailable``)."""
    ERRORS.labels(code).inc()
