"""Games and their moves: what was set up, and the log of every ply.

``arena_games``: one row per game (game id, resolved parameters, seed, the chance
secret, seats' names, status, outcome, clocks, rematch). ``arena_actions``: the log,
one row per ply (chance outcomes included), keyed by ``(game_id, ply)``. A game is
rebuilt by replaying its actions (:func:`sudoku_arena.core.record.replay`), so the log
is the only truth; the primary key is what refuses a ply two processes both wrote.

Writes are :class:`~sudoku_arena.server.db.engine.Op` values for the storage writer;
reads are functions of the engine (blocking: call them from a thread).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import ClassVar, Self

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Connection,
    Engine,
    Float,
    Index,
    Integer,
    String,
    Table,
    Text,
    func,
    or_,
    select,
    tuple_,
    update,
)
from sqlalchemy.engine import RowMapping

from sudoku_arena.core.types import JsonDict
from sudoku_arena.server.db.engine import GameOver, Op, RematchTaken, SeedsConflict, placeholder
from sudoku_arena.server.db.ratings import rated_flag
from sudoku_arena.server.db.schema import metadata
from sudoku_arena.server.db.seats import SeatRow, insert_seats, read_seats, seat_row, seats_table

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

actions_table = Table(
    "arena_actions",
    metadata,
    Column("game_id", String(32), primary_key=True),
    Column("ply", Integer, primary_key=True),
    Column("actor", Integer, nullable=True),  # seat, NULL for chance
    Column("action", String(200), nullable=False),
    Column("at", Float, nullable=False),
)

Entry = tuple[int, int | None, str]  # (ply, actor, action)


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
    actions: list[Entry] = field(default_factory=list)
    secret: str | None = None  # hex; None only in games stored before commitments
    client_seeds: list[JsonDict] = field(default_factory=list)
    bot_to_move: bool | None = None
    problem: str | None = None
    visibility: str = "private"
    host_seat: int | None = None
    clock: JsonDict | None = None
    rated: bool = False  # made rated (in the game's own commit): never changes


# -- writes ----------------------------------------------------------------------------------


@dataclass(slots=True)
class CreateGame(Op):
    row: GameRow

    def apply(self, conn: Connection, now: float, shared: bool) -> None:
        r = self.row
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
        insert_seats(conn, r.id, r.seats)
        rows = [
            {"game_id": r.id, "ply": p, "actor": a, "action": t, "at": now} for p, a, t in r.actions
        ]
        if rows:
            conn.execute(actions_table.insert(), rows)


@dataclass(slots=True)
class CreateRematch(Op):
    """Create ``row`` as the rematch of ``row.rematch_of``, unless another process
    already did: decided in the database by one conditional update."""

    row: GameRow

    def apply(self, conn: Connection, now: float, shared: bool) -> None:
        g = games_table
        taken = conn.execute(
            update(g)
            .where(g.c.id == self.row.rematch_of, g.c.rematch.is_(None))
            .values(rematch=self.row.id, updated=now)
        )
        if taken.rowcount != 1:
            existing = conn.execute(
                select(g.c.rematch).where(g.c.id == self.row.rematch_of)
            ).scalar()
            raise RematchTaken(str(existing))
        CreateGame(self.row).apply(conn, now, shared)


@dataclass(slots=True)
class AppendActions(Op):
    """Store the plies ``entries``: refused (the whole write) if any of them exists."""

    batched: ClassVar[bool] = True

    game_id: str
    entries: Sequence[Entry]
    outcome: JsonDict | None = None  # set when these actions end the game
    bot_to_move: bool | None = None  # None: unchanged
    #: The client seeds the chance in ``entries`` was drawn with (games with chance):
    #: the write is refused as a conflict if the stored ones differ (another process
    #: took a seed meanwhile), so no draw is ever stored under the wrong seeds.
    seeds: list[JsonDict] | None = None
    #: The game's clocks after these actions (timed games), stored with them.
    clock: JsonDict | None = None
    deadline: float | None = None

    def apply(self, conn: Connection, now: float, shared: bool) -> None:
        AppendActions.apply_all(conn, [self], now, shared)

    @classmethod
    def apply_all(cls, conn: Connection, ops: Sequence[Self], now: float, shared: bool) -> None:
        """The moves of a whole batch: their action rows in one multi-row insert, their
        clocks in one statement (in order: the last one wins)."""
        rows: list[tuple[object, ...]] = []
        for op in ops:
            op._check_seeds(conn)
            _check_running(conn, op.game_id, shared)
            rows.extend((op.game_id, p, a, t, now) for p, a, t in op.entries)
        if shared:
            _check_follows(conn, ops)
        _insert_actions(conn, rows)
        clocks: list[tuple[object, ...]] = []
        for op in ops:
            if op.outcome is not None:
                conn.execute(
                    update(games_table)
                    .where(games_table.c.id == op.game_id)
                    .values(status="finished", outcome=json.dumps(op.outcome), updated=now)
                )
            if op.bot_to_move is not None:
                conn.execute(
                    update(games_table)
                    .where(games_table.c.id == op.game_id)
                    .values(bot_to_move=op.bot_to_move)
                )
            if op.clock is not None:
                clocks.append((json.dumps(op.clock), op.deadline, op.game_id))
        if clocks:
            mark = placeholder(conn)
            conn.exec_driver_sql(
                f"UPDATE {games_table.name} SET clock = {mark}, clock_deadline = {mark} "
                f"WHERE id = {mark}",
                clocks,
            )

    def _check_seeds(self, conn: Connection) -> None:
        if self.seeds is None:
            return
        text = conn.execute(
            select(games_table.c.client_seeds).where(games_table.c.id == self.game_id)
        ).scalar()
        if (json.loads(text) if text else []) != self.seeds:
            raise SeedsConflict("the client seeds changed")


def _insert_actions(conn: Connection, rows: list[tuple[object, ...]]) -> None:
    """Insert action rows with one multi-row statement per 500 rows.

    One statement, not ``executemany``: the database driver then leaves Python once
    per batch instead of once per row, which matters while the event loop thread
    competes for the interpreter.
    """
    mark = placeholder(conn)
    one = "(" + ",".join([mark] * 5) + ")"
    for i in range(0, len(rows), 500):
        chunk = rows[i : i + 500]
        sql = (
            f"INSERT INTO {actions_table.name} (game_id, ply, actor, action, at) VALUES "
            + ",".join([one] * len(chunk))
        )
        conn.exec_driver_sql(sql, tuple(v for row in chunk for v in row))


def _check_running(conn: Connection, game_id: str, shared: bool) -> None:
    """Refuse moves of a game that has ended. Several processes: the game's row is read
    under a share lock, so a move and an ending (:class:`EndGame`, which updates the
    row first) are ordered by the database; one process orders them itself."""
    if not shared:
        return
    q = select(games_table.c.status).where(games_table.c.id == game_id).with_for_update(read=True)
    if conn.execute(q).scalar() != "active":
        raise GameOver("the game is over")


def _check_follows(conn: Connection, ops: Sequence[AppendActions]) -> None:
    """Refuse a batch whose moves do not follow a stored entry (or one of the batch).
    Several processes: a takeback (``db.takebacks.CutBack``, which locks the game's row)
    may have cut the log while a move of another process waited for that lock. One
    statement for the whole batch."""
    here = {(op.game_id, p) for op in ops for p, _a, _t in op.entries}
    need = {(op.game_id, op.entries[0][0] - 1) for op in ops if op.entries and op.entries[0][0]}
    need -= here
    if not need:
        return
    a = actions_table
    found = conn.execute(
        select(func.count()).select_from(a).where(tuple_(a.c.game_id, a.c.ply).in_(need))
    ).scalar()
    if found != len(need):
        raise GameOver("the moves before this one were taken back")


@dataclass(slots=True)
class EndGame(Op):
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

    def apply(self, conn: Connection, now: float, shared: bool) -> None:
        # The row lock comes first (the update), then the count of stored moves in a
        # statement of its own, so a move committed meanwhile is counted.
        g, a = games_table, actions_table
        where = [g.c.id == self.game_id, g.c.status == "active"]
        if self.flag_at is not None:  # only if the stored clock says time ran out
            where += [g.c.clock_deadline.is_not(None), g.c.clock_deadline <= self.flag_at]
        if self.idle_before is not None:
            where.append(g.c.created < self.idle_before)
        values: dict[str, object] = {
            "status": "finished",
            "outcome": json.dumps(self.outcome),
            "bot_to_move": False,
            "updated": now,
            "clock_deadline": None,
        }
        if self.clock is not None:
            values["clock"] = json.dumps(self.clock)
        ended = conn.execute(update(g).where(*where).values(**values))
        if ended.rowcount != 1:
            raise GameOver("the game is already over, or its clock was not out")
        count = conn.execute(
            select(func.count()).select_from(a).where(a.c.game_id == self.game_id)
        ).scalar()
        if count != self.ply:
            raise GameOver("a move was stored first")
        if (
            self.idle_before is not None
            and conn.execute(
                select(func.count())
                .select_from(a)
                .where(a.c.game_id == self.game_id, a.c.at >= self.idle_before)
            ).scalar()
        ):
            raise GameOver("a move was stored since")


@dataclass(slots=True)
class Quarantine(Op):
    """Set a stored game aside: it cannot be opened (``problem`` says why)."""

    game_id: str
    problem: str

    def apply(self, conn: Connection, now: float, shared: bool) -> None:
        conn.execute(
            update(games_table)
            .where(games_table.c.id == self.game_id)
            .values(status="quarantined", problem=self.problem[:2000], updated=now)
        )


@dataclass(slots=True)
class SetClientSeeds(Op):
    """Store the client seeds, if the game is still at ``ply`` (no move was stored since:
    a seed never takes effect in the past)."""

    game_id: str
    client_seeds: list[JsonDict]
    ply: int

    def apply(self, conn: Connection, now: float, shared: bool) -> None:
        a = actions_table
        stored = (
            select(func.coalesce(func.max(a.c.ply) + 1, 0))
            .where(a.c.game_id == self.game_id)
            .scalar_subquery()
        )
        done = conn.execute(
            update(games_table)
            .where(games_table.c.id == self.game_id, stored == self.ply)
            .values(client_seeds=json.dumps(self.client_seeds), updated=now)
        )
        if done.rowcount != 1:
            raise SeedsConflict("moves were stored meanwhile")


@dataclass(slots=True)
class SetRematch(Op):
    game_id: str
    rematch: str

    def apply(self, conn: Connection, now: float, shared: bool) -> None:
        conn.execute(
            update(games_table)
            .where(games_table.c.id == self.game_id)
            .values(rematch=self.rematch, updated=now)
        )


# -- reads (blocking: call from a thread) ------------------------------------------------


def game_row(m: RowMapping) -> GameRow:
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


def load_game(engine: Engine, game_id: str) -> GameRow | None:
    """The game with its seats and actions, or ``None``."""
    a = actions_table
    with engine.connect() as conn:
        row = conn.execute(select(games_table).where(games_table.c.id == game_id)).first()
        if row is None:
            return None
        g = game_row(row._mapping)
        g.seats = read_seats(conn, game_id)
        g.rated = rated_flag(conn, game_id)
        g.actions = [
            (r.ply, r.actor, r.action)
            for r in conn.execute(
                select(a.c.ply, a.c.actor, a.c.action)
                .where(a.c.game_id == game_id)
                .order_by(a.c.ply)
            )
        ]
        return g


def game_clock(engine: Engine, game_id: str) -> JsonDict | None:
    """The clocks stored for ``game_id`` (``None``: untimed or unknown)."""
    with engine.connect() as conn:
        text = conn.execute(select(games_table.c.clock).where(games_table.c.id == game_id)).scalar()
    return None if text is None else dict(json.loads(text))


def client_seeds(engine: Engine, game_id: str) -> list[JsonDict]:
    """The client seeds stored for ``game_id`` (``[]`` if none or unknown)."""
    with engine.connect() as conn:
        text = conn.execute(
            select(games_table.c.client_seeds).where(games_table.c.id == game_id)
        ).scalar()
    return list(json.loads(text)) if text else []


def actions_since(
    engine: Engine, game_id: str, ply: int
) -> tuple[list[Entry], str, JsonDict | None, str | None]:
    """Actions from ``ply`` on, with the game's status, outcome and rematch."""
    g, a = games_table, actions_table
    with engine.connect() as conn:
        found = conn.execute(
            select(g.c.status, g.c.outcome, g.c.rematch).where(g.c.id == game_id)
        ).first()
        rows = conn.execute(
            select(a.c.ply, a.c.actor, a.c.action)
            .where(a.c.game_id == game_id, a.c.ply >= ply)
            .order_by(a.c.ply)
        ).all()
    if found is None:
        return [], "missing", None, None
    outcome = None if found.outcome is None else json.loads(found.outcome)
    return [(r.ply, r.actor, r.action) for r in rows], found.status, outcome, found.rematch


def action_count(engine: Engine, game_id: str) -> int:
    """How many actions ``game_id`` has stored."""
    a = actions_table
    with engine.connect() as conn:
        return int(
            conn.execute(select(func.count()).select_from(a).where(a.c.game_id == game_id)).scalar()
            or 0
        )


def plies(engine: Engine, game_ids: Sequence[str]) -> dict[str, int]:
    """How many actions each of ``game_ids`` has stored (games without any: absent)."""
    if not game_ids:
        return {}
    a = actions_table
    q = (
        select(a.c.game_id, func.max(a.c.ply))
        .where(a.c.game_id.in_(list(game_ids)))
        .group_by(a.c.game_id)
    )
    with engine.connect() as conn:
        return {gid: int(top) + 1 for gid, top in conn.execute(q)}


def list_games(
    engine: Engine,
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
    with engine.connect() as conn:
        total = conn.execute(select(func.count()).select_from(g).where(*where)).scalar()
        return [game_row(r._mapping) for r in conn.execute(q)], int(total or 0)


def lobby(engine: Engine, limit: int = 50) -> list[GameRow]:
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
        .where(g.c.visibility == "public", g.c.status == "active", g.c.mode == "invite", open_seat)
        .order_by(g.c.created)
        .limit(limit)
    )
    with engine.connect() as conn:
        rows = [game_row(r._mapping) for r in conn.execute(q)]
        for row in rows:
            seats = conn.execute(select(t).where(t.c.game_id == row.id).order_by(t.c.seat))
            row.seats = [seat_row(s._mapping) for s in seats]
    return rows


def out_of_time(engine: Engine, now: float, limit: int = 50) -> list[str]:
    """Games still going whose stored clock says a player's time ran out by ``now``."""
    g = games_table
    q = (
        select(g.c.id)
        .where(g.c.status == "active", g.c.clock_deadline <= now)
        .order_by(g.c.clock_deadline)
        .limit(limit)
    )
    with engine.connect() as conn:
        return [r.id for r in conn.execute(q)]


def idle_games(engine: Engine, before: float, limit: int = 50) -> list[str]:
    """Games still going with no action stored since ``before`` (and created before
    it), the longest idle first. A game whose clock runs is never idle: its clock ends
    it (a correspondence game may wait up to 14 days for a move)."""
    g, a = games_table, actions_table
    last = (
        select(a.c.at).where(a.c.game_id == g.c.id).order_by(a.c.ply.desc()).limit(1)
    ).scalar_subquery()
    since = func.coalesce(last, g.c.created)
    q = (
        select(g.c.id)
        .where(
            g.c.status == "active",
            g.c.created < before,
            since < before,
            g.c.clock_deadline.is_(None),
        )
        .order_by(since)
        .limit(limit)
    )
    with engine.connect() as conn:
        return [r.id for r in conn.execute(q)]


def games_to_open(engine: Engine) -> list[str]:
    """Active games a process must open at start: a bot is to move (or it is not
    known, for games stored by an older version), oldest first."""
    g = games_table
    q = (
        select(g.c.id)
        .where(g.c.status == "active", or_(g.c.bot_to_move.is_(True), g.c.bot_to_move.is_(None)))
        .order_by(g.c.created)
    )
    with engine.connect() as conn:
        return [r.id for r in conn.execute(q)]


def game_ids(engine: Engine, status: str | None = None) -> list[str]:
    """Ids of every game (with ``status``), oldest first."""
    q = select(games_table.c.id).order_by(games_table.c.created)
    if status is not None:
        q = q.where(games_table.c.status == status)
    with engine.connect() as conn:
        return [r.id for r in conn.execute(q)]


def recent_games(engine: Engine, limit: int = 20) -> list[GameRow]:
    """The most recently changed games, without seats and actions."""
    q = select(games_table).order_by(games_table.c.updated.desc()).limit(limit)
    with engine.connect() as conn:
        return [game_row(r._mapping) for r in conn.execute(q)]
