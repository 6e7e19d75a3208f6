"""The connection to the games database and its one writer (group commit).

:func:`make_engine` opens SQLite (WAL, fully synchronous commits) or PostgreSQL (the
psycopg 3 driver). :class:`Storage` owns the engine and the writer thread: writes are
:class:`Op` values, each defined beside its tables in its aggregate's module
(:mod:`~sudoku_arena.server.db.games`, :mod:`~sudoku_arena.server.db.seats`, ...), and
each knows how to apply itself to a connection. Reads are plain functions of those
modules taking the engine (blocking: call them from a thread).

:meth:`Storage.submit` hands a write to the writer thread, which takes everything
queued since its last commit and writes it in one transaction (group commit): under
load a single fsync acknowledges many moves, while a lone move is committed at once. A
future resolves only after the commit returned, so nobody is told about a move that is
not on disk. A write refused by the database (another server process was first) fails
alone with :class:`ConflictError` (or :class:`RematchTaken`); the rest of its batch is
written normally.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import queue
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import ClassVar, Self

from sqlalchemy import Connection, Engine, Table, create_engine, event
from sqlalchemy.dialects.postgresql import Insert as PgInsert
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import Insert as SqliteInsert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine.interfaces import DBAPIConnection
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.pool import ConnectionPoolEntry

from sudoku_arena.server import metrics, migrations

log = logging.getLogger("sudoku_arena.server")


class StorageError(Exception):
    """The database refused or failed a write (the game is unchanged)."""


class ConflictError(StorageError):
    """Some of the plies written already exist: another process moved first."""


class SeedsConflict(ConflictError):
    """The client seeds changed under a write (another process took one, or moved)."""


class GameOver(ConflictError):
    """The game ended (or moved on) under a write: another process was first."""


class SeatTaken(ConflictError):
    """The seat's claim or token changed under a write (another device or process was
    first)."""


class RematchTaken(StorageError):
    """Another process created the rematch first; ``rematch`` is its id."""

    def __init__(self, rematch: str) -> None:
        super().__init__(f"the rematch is {rematch}")
        self.rematch = rematch


class Op:
    """A write, applied by the writer thread inside its transaction.

    ``apply`` makes the change on ``conn`` at time ``now``; ``shared`` says whether
    several processes share the database (PostgreSQL), where some writes lock rows to
    be ordered against the other processes' writes. A write the database refuses
    raises a :class:`StorageError` (its transaction is rolled back, nothing changed).
    """

    __slots__ = ()

    #: Whether consecutive writes of this kind in one batch go through one
    #: :meth:`apply_all` (one multi-row statement instead of one per write).
    batched: ClassVar[bool] = False

    def apply(self, conn: Connection, now: float, shared: bool) -> None:
        raise NotImplementedError

    @classmethod
    def apply_all(cls, conn: Connection, ops: Sequence[Self], now: float, shared: bool) -> None:
        """Apply ``ops`` (consecutive writes of this kind in one batch) in order."""
        for op in ops:
            op.apply(conn, now, shared)


@dataclass(frozen=True, slots=True)
class Together(Op):
    """Writes that stand or fall together: applied in order in one transaction (one
    commit instead of one per write; a refused one leaves none of them written)."""

    ops: tuple[Op, ...]

    def apply(self, conn: Connection, now: float, shared: bool) -> None:
        for op in self.ops:
            op.apply(conn, now, shared)


Done = Callable[[BaseException | None], None]


def normalise_url(url: str) -> str:
    """Accept ``postgresql://`` and ``postgres://`` URLs and use the psycopg 3 driver."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def is_shared(engine: Engine) -> bool:
    """Whether several processes may share this database (PostgreSQL, not SQLite)."""
    return engine.dialect.name != "sqlite"


def upsert(bind: Engine | Connection) -> Callable[[Table], PgInsert | SqliteInsert]:
    """The dialect's INSERT, which has ``on_conflict_do_nothing`` / ``_do_update`` on
    both databases (SQLAlchemy's generic one has neither)."""
    return pg_insert if bind.dialect.name == "postgresql" else sqlite_insert


def placeholder(conn: Connection) -> str:
    """The driver's parameter mark (``?`` or ``%s``), for hand-written batch SQL."""
    return "?" if conn.dialect.paramstyle == "qmark" else "%s"


def make_engine(url: str) -> Engine:
    """An engine for ``url``; SQLite files get WAL and fully synchronous commits."""
    url = normalise_url(url)
    if url.startswith("sqlite"):
        engine = create_engine(
            url, connect_args={"check_same_thread": False, "timeout": 30}, pool_size=8
        )

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn: DBAPIConnection, _record: ConnectionPoolEntry) -> None:
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            # FULL: the WAL is fsynced at every commit, so an acknowledged move survives
            # a power cut, not only a crash of the process.
            cur.execute("PRAGMA synchronous=FULL")
            cur.execute("PRAGMA busy_timeout=30000")
            # Checkpoints run in their own thread (Storage._checkpointer), not inside
            # the commit of whichever move happens to fill the WAL.
            cur.execute("PRAGMA wal_autocheckpoint=0")
            cur.close()

        return engine
    return create_engine(url, pool_size=8, max_overflow=8, pool_pre_ping=True)


class Storage:
    """The games database: the engine (reads: the aggregates' functions) and the one
    group-commit writer (writes: :class:`Op` values)."""

    def __init__(self, url: str, *, max_batch: int = 1000) -> None:
        self.url = normalise_url(url)
        self.engine = make_engine(self.url)
        #: Whether several processes may share this database (PostgreSQL).
        self.shared = is_shared(self.engine)
        migrations.upgrade(self.engine)
        self._max_batch = max_batch
        self._queue: queue.SimpleQueue[tuple[Op, Done] | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._checkpoints: threading.Thread | None = None
        self._conn: Connection | None = None  # the writer thread's own
        self._stop = threading.Event()
        self.commits = 0  # transactions committed by the writer (for tests and stats)
        self.written = 0  # operations written

    # -- writer thread -------------------------------------------------------------------

    def start(self) -> None:
        if self._thread is None:
            self._stop.clear()
            self._thread = threading.Thread(
                target=self._writer, name="arena-storage-writer", daemon=True
            )
            self._thread.start()
            if self.url.startswith("sqlite"):
                self._checkpoints = threading.Thread(
                    target=self._checkpointer, name="arena-storage-checkpoint", daemon=True
                )
                self._checkpoints.start()

    def close(self) -> None:
        """Write what is queued, stop the writer and release connections."""
        self._stop.set()
        if self._thread is not None:
            self._queue.put(None)
            self._thread.join()
            self._thread = None
        if self._checkpoints is not None:
            self._checkpoints.join()
            self._checkpoints = None
        if self.url.startswith("sqlite"):
            self._checkpoint("TRUNCATE")
        self.engine.dispose()

    def _checkpointer(self) -> None:
        """Copy the WAL into the database file now and then, beside the writer.

        A PASSIVE checkpoint never blocks the writer, so no commit (and no move
        waiting for it) pays for copying the log.
        """
        while not self._stop.wait(1.0):
            self._checkpoint("PASSIVE")

    def _checkpoint(self, mode: str) -> None:
        try:
            with self.engine.connect() as conn:
                conn.exec_driver_sql(f"PRAGMA wal_checkpoint({mode})")
        except Exception as exc:  # pragma: no cover - best effort, retried next time
            log.warning("storage: checkpoint failed: %s", exc)

    def submit(self, op: Op, done: Done) -> None:
        """Queue ``op``; ``done(error)`` is called from the writer thread once committed
        (``error`` is ``None``) or refused."""
        if self._thread is None:
            self.start()
        self._queue.put((op, done))

    async def write(self, op: Op) -> None:
        """Queue ``op`` and wait until it is committed; raises ``StorageError``."""
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[None] = loop.create_future()
        self.submit(op, _Waiter(loop, fut))
        await fut

    def write_sync(self, op: Op) -> None:
        """Write ``op`` in its own transaction now (tools and tests)."""
        with self.engine.begin() as conn:
            op.apply(conn, time.time(), self.shared)

    def _writer(self) -> None:
        stop = False
        try:
            while not stop:
                stop = self._write_next()
        finally:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    def _connection(self) -> Connection:
        """The writer's own connection, kept across batches (no pool round trip and no
        reset per commit); replaced after an error."""
        if self._conn is None or self._conn.invalidated or self._conn.closed:
            self._conn = self.engine.connect()
        return self._conn

    def _drop_connection(self) -> None:
        if self._conn is not None:
            with contextlib.suppress(Exception):
                self._conn.close()
            self._conn = None

    def _write_next(self) -> bool:
        """Write the next batch; ``True`` once told to stop."""
        item = self._queue.get()
        if item is None:
            return True
        stop = False
        batch = [item]
        while len(batch) < self._max_batch:
            try:
                nxt = self._queue.get_nowait()
            except queue.Empty:
                break
            if nxt is None:
                stop = True
                break
            batch.append(nxt)
        self._write_batch(batch)
        return stop

    def _write_batch(self, batch: list[tuple[Op, Done]]) -> None:
        """Write ``batch`` and report each outcome; the waiters of one event loop are
        woken together, with one call into that loop per batch."""
        results: list[tuple[Done, BaseException | None]] = []
        self._write_all(batch, results)
        by_loop: dict[asyncio.AbstractEventLoop, list[tuple[_Waiter, BaseException | None]]] = {}
        for done, err in results:
            if isinstance(done, _Waiter):
                by_loop.setdefault(done.loop, []).append((done, err))
            else:
                done(err)
        for loop, waiters in by_loop.items():
            with contextlib.suppress(RuntimeError):  # a closed loop: nobody waits
                loop.call_soon_threadsafe(_settle_all, waiters)

    def _write_all(
        self, batch: list[tuple[Op, Done]], results: list[tuple[Done, BaseException | None]]
    ) -> None:
        for attempt in range(5):
            try:
                conn = self._connection()
                with metrics.commit_timer(), conn.begin():
                    self._apply_many(conn, [op for op, _ in batch])
                self.commits += 1
                self.written += len(batch)
                results.extend((done, None) for _, done in batch)
                return
            except (IntegrityError, RematchTaken, ConflictError):
                break  # another process was first: retry one by one below
            except OperationalError as exc:  # locked or connection lost: retry
                log.warning("storage: write failed (attempt %d): %s", attempt + 1, exc)
                self._drop_connection()
                time.sleep(0.05 * (attempt + 1))
            except Exception as exc:  # pragma: no cover - unexpected database error
                log.exception("storage: write failed")
                self._drop_connection()
                err = StorageError(f"storage failed: {type(exc).__name__}")
                results.extend((done, err) for _, done in batch)
                return
        else:
            results.extend((done, StorageError("storage is unavailable")) for _, done in batch)
            return
        shared = self.shared
        for op, done in batch:
            try:
                conn = self._connection()
                with conn.begin():
                    op.apply(conn, time.time(), shared)
                self.commits += 1
                self.written += 1
                results.append((done, None))
            except IntegrityError:
                results.append((done, ConflictError("those plies were already written")))
            except (RematchTaken, ConflictError) as exc:
                results.append((done, exc))
            except Exception as exc:
                log.exception("storage: write failed")
                self._drop_connection()
                results.append((done, StorageError(f"storage failed: {type(exc).__name__}")))

    def _apply_many(self, conn: Connection, ops: list[Op]) -> None:
        """One transaction for a whole batch, in order; consecutive writes of a batched
        kind (moves) go through one :meth:`Op.apply_all`."""
        now = time.time()
        shared = self.shared
        for kind, run in itertools.groupby(ops, key=_kind):
            if kind.batched:
                kind.apply_all(conn, list(run), now, shared)
            else:
                for op in run:
                    op.apply(conn, now, shared)


def _kind(op: Op) -> type[Op]:
    return type(op)


class _Waiter:
    """A coroutine waiting in ``loop`` for its write (see ``Storage.write``)."""

    __slots__ = ("fut", "loop")

    def __init__(self, loop: asyncio.AbstractEventLoop, fut: asyncio.Future[None]) -> None:
        self.loop = loop
        self.fut = fut

    def __call__(self, err: BaseException | None) -> None:
        self.loop.call_soon_threadsafe(_settle_all, [(self, err)])


def _settle_all(waiters: list[tuple[_Waiter, BaseException | None]]) -> None:
    for w, err in waiters:
        if w.fut.done():
            continue
        if err is None:
            w.fut.set_result(None)
        else:
            w.fut.set_exception(err)
