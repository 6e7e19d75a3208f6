"""Durable storage of games with SQLAlchemy 2: one schema for SQLite and PostgreSQL.

Three tables: ``games`` (what was set up: game id, resolved parameters, seed, seats,
status, outcome), ``seats`` (who sits where, with the SHA-256 of each seat's secret
token, never the token itself) and ``actions`` (the log: one row per ply, chance
outcomes included, keyed by ``(game_id, ply)``). A game is rebuilt by replaying its
actions (:func:`sudoku_arena.core.record.replay`), so the log is the only truth.

Writes go through :class:`Storage.submit`, which hands them to one writer thread. The
thread takes everything queued since its last commit and writes it in one transaction
(group commit): under load a single fsync acknowledges many moves, while a lone move
is committed at once. A future resolves only after the commit returned, so nobody is
told about a move that is not on disk. A write whose plies already exist (another
server process was first) fails alone with :class:`ConflictError`; the rest of its
batch is written normally.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import queue
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Connection,
    Engine,
    Float,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    event,
    func,
    or_,
    select,
    update,
)
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.engine import RowMapping
from sqlalchemy.engine.interfaces import DBAPIConnection
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.pool import ConnectionPoolEntry

from sudoku_arena.core.types import JsonDict
from sudoku_arena.server import migrations

log = logging.getLogger("sudoku_arena.server")

metadata = MetaData()

games_table = Table(
    "arena_games",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(64), nullable=False),
    Column("game_version", String(32), nullable=False),
    Column("params", Text, nullable=False),  # JSON object, resolved values
    Column("seed", BigInteger, nullable=False),  # public set-up (grid) seed
    # The chance secret (hex): never sent to anybody before the game is over.
    Column("secret", String(64), nullable=True),
    Column("client_seeds", Text, nullable=True),  # JSON list of {seat, seed, ply}
    # Whether a bot is to move: the games a process must open at start (NULL: unknown,
    # a game stored by an older version; opened to find out).
    Column("bot_to_move", Boolean, nullable=True),
    # Why a stored game cannot be opened (status "quarantined"), for the operators.
    Column("problem", Text, nullable=True),
    Column("players", Text, nullable=False),  # JSON list of display names
    Column("mode", String(16), nullable=False),  # "hotseat" or "invite"
    Column("status", String(16), nullable=False, index=True),  # "active" or "finished"
    Column("outcome", Text, nullable=True),  # JSON object once finished
    Column("rematch", String(32), nullable=True),  # id of the rematch game, if any
    Column("rematch_of", String(32), nullable=True),
    Column("created", Float, nullable=False),
    Column("updated", Float, nullable=False),
    # "public": listed, and its open seats can be joined from the lobby; "private": only
    # people with a link find it.
    Column("visibility", String(16), nullable=False, server_default="private"),
    Column("host_seat", Integer, nullable=True),  # the creator's seat (re-issues invites)
    Column("clock", Text, nullable=True),  # JSON (server.clock.Clock), NULL: untimed
    # When the first running clock runs out (NULL: none runs): the sweeper's index.
    Column("clock_deadline", Float, nullable=True),
)
Index("ix_arena_games_clock_deadline", games_table.c.clock_deadline)
Index(
    "ix_arena_games_listing",
    games_table.c.visibility,
    games_table.c.status,
    games_table.c.created,
)

seats_table = Table(
    "arena_seats",
    metadata,
    Column("game_id", String(32), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(16), nullable=False),  # "human" or "bot"
    Column("agent", String(64), nullable=True),  # bot agent name
    Column("name", String(64), nullable=False),
    Column("token_hash", String(64), nullable=True),  # sha256 hex of the seat token
    # sha256 hex of the token of the device (browser) that claimed the seat's link.
    Column("claimed_by", String(64), nullable=True),
    Column("claimed_at", Float, nullable=True),
    # When a device holding the seat was last connected to some server process (kept
    # while connected, written as it goes): whether the player left the game.
    Column("seen_at", Float, nullable=True),
)

actions_table = Table(
    "arena_actions",
    metadata,
    Column("game_id", String(32), primary_key=True),
    Column("ply", Integer, primary_key=True),
    Column("actor", Integer, nullable=True),  # seat, NULL for chance
    Column("action", String(200), nullable=False),
    Column("at", Float, nullable=False),
)


leases_table = Table(
    "arena_bot_leases",
    metadata,
    Column("game_id", String(32), primary_key=True),
    Column("holder", String(64), nullable=False),  # the server process thinking
    Column("ply", Integer, nullable=False),  # the position it thinks on
    Column("expires", Float, nullable=False),  # time.time() after which others may
)


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


# -- rows ------------------------------------------------------------------------------------


@dataclass(slots=True)
class SeatRow:
    seat: int
    kind: str
    agent: str | None
    name: str
    token_hash: str | None
    claimed_by: str | None = None  # sha256 of the claiming device's token
    claimed_at: float | None = None
    seen_at: float | None = None  # a device holding the seat was last connected then


@dataclass(slots=True)
class GameRow:
    id: str
    game: str
    game_version: str
    params: JsonDict
    seed: int
    players: list[str]
    mode: str
    status: str
    outcome: JsonDict | None
    rematch: str | None
    rematch_of: str | None
    created: float
    updated: float
    seats: list[SeatRow] = field(default_factory=list)
    actions: list[tuple[int, int | None, str]] = field(default_factory=list)
    secret: str | None = None  # hex; None only in games stored before commitments
    client_seeds: list[JsonDict] = field(default_factory=list)
    bot_to_move: bool | None = None
    problem: str | None = None
    visibility: str = "private"
    host_seat: int | None = None
    clock: JsonDict | None = None


# -- write operations ------------------------------------------------------------------------


@dataclass(slots=True)
class CreateGame:
    row: GameRow


@dataclass(slots=True)
class AppendActions:
    game_id: str
    entries: Sequence[tuple[int, int | None, str]]  # (ply, actor, action)
    outcome: JsonDict | None = None  # set when these actions end the game
    bot_to_move: bool | None = None  # None: unchanged
    #: The client seeds the chance in ``entries`` was drawn with (games with chance):
    #: the write is refused as a conflict if the stored ones differ (another process
    #: took a seed meanwhile), so no draw is ever stored under the wrong seeds.
    seeds: list[JsonDict] | None = None
    #: The game's clocks after these actions (timed games), stored with them.
    clock: JsonDict | None = None
    deadline: float | None = None


@dataclass(slots=True)
class CreateRematch:
    """Create ``row`` as the rematch of ``row.rematch_of``, unless another process
    already did: decided in the database by one conditional update."""

    row: GameRow


@dataclass(slots=True)
class Quarantine:
    """Set a stored game aside: it cannot be opened (``problem`` says why)."""

    game_id: str
    problem: str


@dataclass(slots=True)
class SetClientSeeds:
    """Store the client seeds, if the game is still at ``ply`` (no move was stored since:
    a seed never takes effect in the past)."""

    game_id: str
    client_seeds: list[JsonDict]
    ply: int


@dataclass(slots=True)
class EndGame:
    """End a running game as its players decided (resignation, abort, agreed draw),
    if it is still at ``ply``: decided in the database, so that a move stored first by
    any process wins over the ending, and an ending stored first stops every later move
    (see :func:`_check_running`)."""

    game_id: str
    ply: int
    outcome: JsonDict
    #: A loss on time: refused unless a clock stored in the database ran out by then.
    flag_at: float | None = None
    #: Abandonment: refused if the game was created, or any action stored, since then.
    idle_before: float | None = None
    clock: JsonDict | None = None  # the stopped clocks, for timed games


@dataclass(slots=True)
class ClaimSeat:
    """The device ``device`` (sha256 of its token) claims ``seat``, whose token hash is
    ``token_hash``: refused with :class:`SeatTaken` when another device holds it (unless
    ``move``) or the token was re-issued meanwhile."""

    game_id: str
    seat: int
    token_hash: str
    device: str
    move: bool = False


@dataclass(slots=True)
class ReissueSeat:
    """Give ``seat`` a new token (the old link dies), if no device claimed it; with
    ``device`` (a player joining from the lobby) the new token is claimed at once."""

    game_id: str
    seat: int
    token_hash: str
    device: str | None = None


@dataclass(slots=True)
class MarkSeen:
    """Devices holding ``seats`` were connected at ``at`` (a time only moves forward):
    every process reads it before it lets a player claim the win over those who left."""

    game_id: str
    seats: tuple[int, ...]
    at: float


@dataclass(slots=True)
class SetRematch:
    game_id: str
    rematch: str


Op = (
    CreateGame
    | AppendActions
    | SetRematch
    | SetClientSeeds
    | CreateRematch
    | Quarantine
    | EndGame
    | ClaimSeat
    | ReissueSeat
    | MarkSeen
)
Done = Callable[[BaseException | None], None]


def normalise_url(url: str) -> str:
    """Accept ``postgresql://`` and ``postgres://`` URLs and use the psycopg 3 driver."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


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
    """The games database: reads on demand, writes through one group-commit thread."""

    def __init__(self, url: str, *, max_batch: int = 1000) -> None:
        self.url = normalise_url(url)
        self.engine = make_engine(self.url)
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
            self._apply(conn, op)

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
                with conn.begin():
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
        for op, done in batch:
            try:
                conn = self._connection()
                with conn.begin():
                    self._apply(conn, op)
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
        """One transaction for a whole batch: action rows go in one multi-row insert."""
        rows: list[tuple[object, ...]] = []
        now = time.time()
        for op in ops:
            if isinstance(op, AppendActions):
                _check_seeds(conn, op)
                _check_running(conn, op.game_id, self.shared)
                rows.extend((op.game_id, p, a, t, now) for p, a, t in op.entries)
            else:
                self._insert_actions(conn, rows)
                rows = []
                self._apply(conn, op)
        self._insert_actions(conn, rows)
        clocks: list[tuple[object, ...]] = []
        for op in ops:
            if isinstance(op, AppendActions):
                if op.outcome is not None:
                    _finish(conn, op, now)
                if op.bot_to_move is not None:
                    _set_bot_to_move(conn, op)
                if op.clock is not None:
                    clocks.append((json.dumps(op.clock), op.deadline, op.game_id))
        if clocks:  # one statement for the batch's clocks, in order (the last one wins)
            mark = "?" if self.engine.dialect.paramstyle == "qmark" else "%s"
            conn.exec_driver_sql(
                f"UPDATE {games_table.name} SET clock = {mark}, clock_deadline = {mark} "
                f"WHERE id = {mark}",
                clocks,
            )

    def _insert_actions(self, conn: Connection, rows: list[tuple[object, ...]]) -> None:
        """Insert action rows with one multi-row statement per 500 rows.

        One statement, not ``executemany``: the database driver then leaves Python once
        per batch instead of once per row, which matters while the event loop thread
        competes for the interpreter.
        """
        mark = "?" if self.engine.dialect.paramstyle == "qmark" else "%s"
        one = "(" + ",".join([mark] * 5) + ")"
        for i in range(0, len(rows), 500):
            chunk = rows[i : i + 500]
            sql = (
                f"INSERT INTO {actions_table.name} (game_id, ply, actor, action, at) VALUES "
                + ",".join([one] * len(chunk))
            )
            conn.exec_driver_sql(sql, tuple(v for row in chunk for v in row))

    def _apply(self, conn: Connection, op: Op) -> None:
        now = time.time()
        if isinstance(op, CreateRematch):
            taken = conn.execute(
                update(games_table)
                .where(games_table.c.id == op.row.rematch_of, games_table.c.rematch.is_(None))
                .values(rematch=op.row.id, updated=now)
            )
            if taken.rowcount != 1:
                existing = conn.execute(
                    select(games_table.c.rematch).where(games_table.c.id == op.row.rematch_of)
                ).scalar()
                raise RematchTaken(str(existing))
            self._apply(conn, CreateGame(op.row))
        elif isinstance(op, Quarantine):
            conn.execute(
                update(games_table)
                .where(games_table.c.id == op.game_id)
                .values(status="quarantined", problem=op.problem[:2000], updated=now)
            )
        elif isinstance(op, CreateGame):
            r = op.row
            conn.execute(
                games_table.insert(),
                {
                    "id": r.id,
                    "game": r.game,
                    "game_version": r.game_version,
                    "params": json.dumps(r.params),
                    "seed": r.seed,
                    "secret": r.secret,
                    "client_seeds": json.dumps(r.client_seeds),
                    "bot_to_move": r.bot_to_move,
                    "players": json.dumps(r.players),
                    "mode": r.mode,
                    "status": r.status,
                    "outcome": None if r.outcome is None else json.dumps(r.outcome),
                    "rematch": r.rematch,
                    "rematch_of": r.rematch_of,
                    "created": r.created,
                    "updated": r.updated,
                    "visibility": r.visibility,
                    "host_seat": r.host_seat,
                    "clock": None if r.clock is None else json.dumps(r.clock),
                    "clock_deadline": None,
                },
            )
            conn.execute(
                seats_table.insert(),
                [
                    {
                        "game_id": r.id,
                        "seat": s.seat,
                        "kind": s.kind,
                        "agent": s.agent,
                        "name": s.name,
                        "token_hash": s.token_hash,
                        "claimed_by": s.claimed_by,
                        "claimed_at": s.claimed_at,
                    }
                    for s in r.seats
                ],
            )
            rows = [
                {"game_id": r.id, "ply": p, "actor": a, "action": t, "at": now}
                for p, a, t in r.actions
            ]
            if rows:
                conn.execute(actions_table.insert(), rows)
        elif isinstance(op, AppendActions):
            _check_seeds(conn, op)
            _check_running(conn, op.game_id, self.shared)
            rows = _action_rows(op, now)
            if rows:
                conn.execute(actions_table.insert(), rows)
            if op.outcome is not None:
                _finish(conn, op, now)
            if op.bot_to_move is not None:
                _set_bot_to_move(conn, op)
            if op.clock is not None:
                _set_clock(conn, op)
        elif isinstance(op, EndGame):
            # The row lock comes first (the update), then the count of stored moves in
            # a statement of its own, so a move committed meanwhile is counted.
            g = games_table
            where = [g.c.id == op.game_id, g.c.status == "active"]
            if op.flag_at is not None:  # only if the stored clock says time ran out
                where += [g.c.clock_deadline.is_not(None), g.c.clock_deadline <= op.flag_at]
            if op.idle_before is not None:
                where.append(g.c.created < op.idle_before)
            values: dict[str, object] = {
                "status": "finished",
                "outcome": json.dumps(op.outcome),
                "bot_to_move": False,
                "updated": now,
                "clock_deadline": None,
            }
            if op.clock is not None:
                values["clock"] = json.dumps(op.clock)
            ended = conn.execute(update(g).where(*where).values(**values))
            if ended.rowcount != 1:
                raise GameOver("the game is already over, or its clock was not out")
            count = conn.execute(
                select(func.count())
                .select_from(actions_table)
                .where(actions_table.c.game_id == op.game_id)
            ).scalar()
            if count != op.ply:
                raise GameOver("a move was stored first")
            if (
                op.idle_before is not None
                and conn.execute(
                    select(func.count())
                    .select_from(actions_table)
                    .where(
                        actions_table.c.game_id == op.game_id, actions_table.c.at >= op.idle_before
                    )
                ).scalar()
            ):
                raise GameOver("a move was stored since")
        elif isinstance(op, ClaimSeat):
            t = seats_table
            where = [
                t.c.game_id == op.game_id,
                t.c.seat == op.seat,
                t.c.token_hash == op.token_hash,
            ]
            if not op.move:
                where.append(or_(t.c.claimed_by.is_(None), t.c.claimed_by == op.device))
            done = conn.execute(
                update(t).where(*where).values(claimed_by=op.device, claimed_at=now)
            )
            if done.rowcount != 1:
                raise SeatTaken("the seat is held by another device, or its link changed")
        elif isinstance(op, ReissueSeat):
            t = seats_table
            done = conn.execute(
                update(t)
                .where(t.c.game_id == op.game_id, t.c.seat == op.seat, t.c.claimed_by.is_(None))
                .values(
                    token_hash=op.token_hash,
                    claimed_by=op.device,
                    claimed_at=None if op.device is None else now,
                )
            )
            if done.rowcount != 1:
                raise SeatTaken("somebody already took that seat")
        elif isinstance(op, MarkSeen):
            t = seats_table
            conn.execute(
                update(t)
                .where(
                    t.c.game_id == op.game_id,
                    t.c.seat.in_(op.seats),
                    or_(t.c.seen_at.is_(None), t.c.seen_at < op.at),
                )
                .values(seen_at=op.at)
            )
        elif isinstance(op, SetClientSeeds):
            a = actions_table
            stored = (
                select(func.coalesce(func.max(a.c.ply) + 1, 0))
                .where(a.c.game_id == op.game_id)
                .scalar_subquery()
            )
            done = conn.execute(
                update(games_table)
                .where(games_table.c.id == op.game_id, stored == op.ply)
                .values(client_seeds=json.dumps(op.client_seeds), updated=now)
            )
            if done.rowcount != 1:
                raise SeedsConflict("moves were stored meanwhile")
        else:
            conn.execute(
                update(games_table)
                .where(games_table.c.id == op.game_id)
                .values(rematch=op.rematch, updated=now)
            )

    # -- reads (blocking: call from a thread) ------------------------------------------------

    def load_game(self, game_id: str) -> GameRow | None:
        """The game with its seats and actions, or ``None``."""
        with self.engine.connect() as conn:
            row = conn.execute(select(games_table).where(games_table.c.id == game_id)).first()
            if row is None:
                return None
            g = _game_row(row._mapping)
            for s in conn.execute(
                select(seats_table)
                .where(seats_table.c.game_id == game_id)
                .order_by(seats_table.c.seat)
            ):
                g.seats.append(_seat_row(s._mapping))
            g.actions = [
                (a.ply, a.actor, a.action)
                for a in conn.execute(
                    select(actions_table.c.ply, actions_table.c.actor, actions_table.c.action)
                    .where(actions_table.c.game_id == game_id)
                    .order_by(actions_table.c.ply)
                )
            ]
            return g

    def load_seats(self, game_id: str) -> list[SeatRow]:
        """The seats of ``game_id`` as stored now (claims and tokens change)."""
        t = seats_table
        with self.engine.connect() as conn:
            rows = conn.execute(select(t).where(t.c.game_id == game_id).order_by(t.c.seat))
            return [_seat_row(r._mapping) for r in rows]

    def game_clock(self, game_id: str) -> JsonDict | None:
        """The clocks stored for ``game_id`` (``None``: untimed or unknown)."""
        with self.engine.connect() as conn:
            text = conn.execute(
                select(games_table.c.clock).where(games_table.c.id == game_id)
            ).scalar()
        return None if text is None else dict(json.loads(text))

    def list_games(
        self,
        *,
        game: str | None = None,
        status: str | None = None,
        page: int = 1,
        per_page: int = 20,
    ) -> tuple[list[GameRow], int]:
        """Public games, newest first, one page of them (from 1), with how many match."""
        g = games_table
        where = [g.c.visibility == "public", g.c.status != "quarantined"]
        if game is not None:
            where.append(g.c.game == game)
        if status is not None:
            where.append(g.c.status == status)
        q = (
            select(g)
            .where(*where)
            .order_by(g.c.created.desc(), g.c.id)
            .limit(per_page)
            .offset((page - 1) * per_page)
        )
        with self.engine.connect() as conn:
            total = conn.execute(select(func.count()).select_from(g).where(*where)).scalar()
            return [_game_row(r._mapping) for r in conn.execute(q)], int(total or 0)

    def lobby(self, limit: int = 50) -> list[GameRow]:
        """Public invite games still going with a person's seat nobody has claimed (the
        host's own seat aside; games on one screen have none), oldest first, with their
        seats."""
        g, t = games_table, seats_table
        open_seat = (
            select(t.c.game_id)
            .where(
                t.c.game_id == g.c.id,
                t.c.kind == "human",
                t.c.claimed_by.is_(None),
                or_(g.c.host_seat.is_(None), t.c.seat != g.c.host_seat),
            )
            .exists()
        )
        q = (
            select(g)
            .where(
                g.c.visibility == "public", g.c.status == "active", g.c.mode == "invite", open_seat
            )
            .order_by(g.c.created)
            .limit(limit)
        )
        with self.engine.connect() as conn:
            rows = [_game_row(r._mapping) for r in conn.execute(q)]
            for row in rows:
                seats = conn.execute(select(t).where(t.c.game_id == row.id).order_by(t.c.seat))
                row.seats = [_seat_row(s._mapping) for s in seats]
        return rows

    def out_of_time(self, now: float, limit: int = 50) -> list[str]:
        """Games still going whose stored clock says a player's time ran out by ``now``."""
        g = games_table
        q = (
            select(g.c.id)
            .where(g.c.status == "active", g.c.clock_deadline <= now)
            .order_by(g.c.clock_deadline)
            .limit(limit)
        )
        with self.engine.connect() as conn:
            return [r.id for r in conn.execute(q)]

    def idle_games(self, before: float, limit: int = 50) -> list[str]:
        """Games still going with no action stored since ``before`` (and created before
        it), the longest idle first."""
        g, a = games_table, actions_table
        last = (
            select(a.c.at)
            .where(a.c.game_id == g.c.id)
            .order_by(a.c.ply.desc())
            .limit(1)
            .scalar_subquery()
        )
        since = func.coalesce(last, g.c.created)
        q = (
            select(g.c.id)
            .where(g.c.status == "active", g.c.created < before, since < before)
            .order_by(since)
            .limit(limit)
        )
        with self.engine.connect() as conn:
            return [r.id for r in conn.execute(q)]

    def games_to_open(self) -> list[str]:
        """Active games a process must open at start: a bot is to move (or it is not
        known, for games stored by an older version), oldest first."""
        q = (
            select(games_table.c.id)
            .where(
                games_table.c.status == "active",
                or_(games_table.c.bot_to_move.is_(True), games_table.c.bot_to_move.is_(None)),
            )
            .order_by(games_table.c.created)
        )
        with self.engine.connect() as conn:
            return [r.id for r in conn.execute(q)]

    def game_ids(self, status: str | None = None) -> list[str]:
        """Ids of every game (with ``status``), oldest first."""
        q = select(games_table.c.id).order_by(games_table.c.created)
        if status is not None:
            q = q.where(games_table.c.status == status)
        with self.engine.connect() as conn:
            return [r.id for r in conn.execute(q)]

    def recent_games(self, limit: int = 20) -> list[GameRow]:
        """The most recently changed games, without seats and actions."""
        q = select(games_table).order_by(games_table.c.updated.desc()).limit(limit)
        with self.engine.connect() as conn:
            return [_game_row(r._mapping) for r in conn.execute(q)]

    def actions_since(
        self, game_id: str, ply: int
    ) -> tuple[list[tuple[int, int | None, str]], str, JsonDict | None, str | None]:
        """Actions from ``ply`` on, with the game's status, outcome and rematch."""
        with self.engine.connect() as conn:
            g = conn.execute(
                select(games_table.c.status, games_table.c.outcome, games_table.c.rematch).where(
                    games_table.c.id == game_id
                )
            ).first()
            rows = conn.execute(
                select(actions_table.c.ply, actions_table.c.actor, actions_table.c.action)
                .where(actions_table.c.game_id == game_id, actions_table.c.ply >= ply)
                .order_by(actions_table.c.ply)
            ).all()
        if g is None:
            return [], "missing", None, None
        outcome = None if g.outcome is None else json.loads(g.outcome)
        return [(r.ply, r.actor, r.action) for r in rows], g.status, outcome, g.rematch

    # -- bot leases -----------------------------------------------------------------------

    @property
    def shared(self) -> bool:
        """Whether several processes may share this database (PostgreSQL)."""
        return not self.url.startswith("sqlite")

    def take_lease(self, game_id: str, holder: str, seconds: float, ply: int) -> bool:
        """Let ``holder`` think for the bots of ``game_id`` at ``ply`` for ``seconds``;
        ``False`` while another live holder thinks on that position.

        PostgreSQL decides across processes: the lease row is locked with ``FOR UPDATE
        SKIP LOCKED``, so of two processes asking at once one gets it and the other is
        told no at once. A lease passes to the asker when it expired (its holder died)
        or was taken for an earlier ply (that position is gone, so its holder's move
        would be refused as stale anyway). SQLite serves one process, whose lease is
        always granted.
        """
        if not self.shared:
            return True
        now = time.time()
        t = leases_table
        with self.engine.begin() as conn:
            conn.execute(
                pg_insert(t)
                .values(game_id=game_id, holder=holder, ply=ply, expires=now + seconds)
                .on_conflict_do_nothing(index_elements=["game_id"])
            )
            row = conn.execute(
                select(t.c.holder, t.c.ply, t.c.expires)
                .where(t.c.game_id == game_id)
                .with_for_update(skip_locked=True)
            ).first()
            if row is None:
                return False  # another process is deciding right now
            if row.holder != holder and row.expires > now and row.ply >= ply:
                return False
            conn.execute(
                update(t)
                .where(t.c.game_id == game_id)
                .values(holder=holder, ply=ply, expires=now + seconds)
            )
            return True

    def release_lease(self, game_id: str, holder: str) -> None:
        """Give up ``holder``'s lease on ``game_id`` (no bot is due there)."""
        if not self.shared:
            return
        with self.engine.begin() as conn:
            conn.execute(
                leases_table.delete().where(
                    leases_table.c.game_id == game_id, leases_table.c.holder == holder
                )
            )

    def orphaned_bot_games(self, limit: int = 50) -> list[str]:
        """Active games whose bot is due and whose lease is missing or expired (their
        thinker died, or nobody holds them): another process should take them over."""
        now = time.time()
        g, t = games_table, leases_table
        q = (
            select(g.c.id)
            .select_from(g.outerjoin(t, t.c.game_id == g.c.id))
            .where(
                g.c.status == "active",
                g.c.bot_to_move.is_(True),
                or_(t.c.game_id.is_(None), t.c.expires < now),
            )
            .order_by(g.c.updated)
            .limit(limit)
        )
        with self.engine.connect() as conn:
            return [r.id for r in conn.execute(q)]

    def plies(self, game_ids: Sequence[str]) -> dict[str, int]:
        """How many actions each of ``game_ids`` has stored (games without any: absent)."""
        if not game_ids:
            return {}
        a = actions_table
        q = (
            select(a.c.game_id, func.max(a.c.ply))
            .where(a.c.game_id.in_(list(game_ids)))
            .group_by(a.c.game_id)
        )
        with self.engine.connect() as conn:
            return {gid: int(top) + 1 for gid, top in conn.execute(q)}

    def seat_keys(self, game_ids: Sequence[str]) -> dict[str, list[tuple[str | None, str | None]]]:
        """Per game, each seat's token hash and claiming device, in seat order."""
        if not game_ids:
            return {}
        t = seats_table
        q = (
            select(t.c.game_id, t.c.token_hash, t.c.claimed_by)
            .where(t.c.game_id.in_(list(game_ids)))
            .order_by(t.c.game_id, t.c.seat)
        )
        out: dict[str, list[tuple[str | None, str | None]]] = {}
        with self.engine.connect() as conn:
            for gid, token_hash, claimed_by in conn.execute(q):
                out.setdefault(gid, []).append((token_hash, claimed_by))
        return out

    def client_seeds(self, game_id: str) -> list[JsonDict]:
        """The client seeds stored for ``game_id`` (``[]`` if none or unknown)."""
        with self.engine.connect() as conn:
            text = conn.execute(
                select(games_table.c.client_seeds).where(games_table.c.id == game_id)
            ).scalar()
        return list(json.loads(text)) if text else []

    def action_count(self, game_id: str) -> int:
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(actions_table.c.ply).where(actions_table.c.game_id == game_id)
            ).all()
            return len(rows)


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


def _action_rows(op: AppendActions, now: float) -> list[JsonDict]:
    return [
        {"game_id": op.game_id, "ply": p, "actor": a, "action": t, "at": now}
        for p, a, t in op.entries
    ]


def _check_seeds(conn: Connection, op: AppendActions) -> None:
    if op.seeds is None:
        return
    text = conn.execute(
        select(games_table.c.client_seeds).where(games_table.c.id == op.game_id)
    ).scalar()
    if (json.loads(text) if text else []) != op.seeds:
        raise SeedsConflict("the client seeds changed")


def _check_running(conn: Connection, game_id: str, shared: bool) -> None:
    """Refuse moves of a game that has ended. Several processes: the game's row is read
    under a share lock, so a move and an ending (:class:`EndGame`, which updates the
    row first) are ordered by the database; one process orders them itself."""
    if not shared:
        return
    q = select(games_table.c.status).where(games_table.c.id == game_id).with_for_update(read=True)
    if conn.execute(q).scalar() != "active":
        raise GameOver("the game is over")


def _set_bot_to_move(conn: Connection, op: AppendActions) -> None:
    conn.execute(
        update(games_table).where(games_table.c.id == op.game_id).values(bot_to_move=op.bot_to_move)
    )


def _set_clock(conn: Connection, op: AppendActions) -> None:
    conn.execute(
        update(games_table)
        .where(games_table.c.id == op.game_id)
        .values(clock=json.dumps(op.clock), clock_deadline=op.deadline)
    )


def _seat_row(m: RowMapping) -> SeatRow:
    return SeatRow(
        m["seat"],
        m["kind"],
        m["agent"],
        m["name"],
        m["token_hash"],
        m["claimed_by"],
        None if m["claimed_at"] is None else float(m["claimed_at"]),
        None if m["seen_at"] is None else float(m["seen_at"]),
    )


def _finish(conn: Connection, op: AppendActions, now: float) -> None:
    conn.execute(
        update(games_table)
        .where(games_table.c.id == op.game_id)
        .values(status="finished", outcome=json.dumps(op.outcome), updated=now)
    )


def _game_row(m: RowMapping) -> GameRow:
    return GameRow(
        id=m["id"],
        game=m["game"],
        game_version=m["game_version"],
        params=json.loads(m["params"]),
        seed=int(m["seed"]),
        players=json.loads(m["players"]),
        mode=m["mode"],
        status=m["status"],
        outcome=None if m["outcome"] is None else json.loads(m["outcome"]),
        rematch=m["rematch"],
        rematch_of=m["rematch_of"],
        created=float(m["created"]),
        updated=float(m["updated"]),
        secret=m["secret"],
        client_seeds=json.loads(m["client_seeds"] or "[]"),
        bot_to_move=m["bot_to_move"],
        problem=m["problem"],
        visibility=m["visibility"],
        host_seat=m["host_seat"],
        clock=None if m["clock"] is None else json.loads(m["clock"]),
    )
