"""The matchmaking aggregate: seeks waiting for opponents and challenges to a named player.

* ``arena_seeks``: one row per seek. ``token_hash`` is the sha256 of the seek's secret
  token, which only its owner holds (the same token becomes the owner's seat token in
  the game made for it, so the server never stores a usable seat token). ``pool`` is
  what must be equal for seeks to be compatible (game, options, player count, clock,
  rated); ``low``/``high`` a rating range the other players' ``rating`` must fall in.
  ``status``: ``open`` -> ``pairing`` (a process took the group, ``taken_by``, and makes the game;
  released after ``seeks.PAIRING_SECONDS`` if that process died) ->
  ``paired`` (``game_id``, ``seat``), or ``cancelled`` / ``expired``.
* ``arena_challenges``: a seek addressed to one account, accepted or declined by it.

:func:`take_group` is where the database decides: on PostgreSQL a transaction-scoped
advisory lock per pool serialises the pairings of one pool across the fleet (so the
second of two seeks always sees the first), and every state change is a conditional
UPDATE whose row count is checked, so no seek is ever taken by two groups. SQLite
serialises writers itself; the conditional UPDATE is the guard there too.
Blocking: call from a thread.
"""

from __future__ import annotations

import json
import secrets
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, replace

from sqlalchemy import (
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
    and_,
    func,
    or_,
    select,
    text,
    update,
)

from sudoku_arena.server.db.schema import metadata

OPEN, PAIRING, PAIRED, CANCELLED, EXPIRED = "open", "pairing", "paired", "cancelled", "expired"

seeks_table = Table(
    "arena_seeks",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("token_hash", String(64), nullable=False),
    Column("owner", String(80), nullable=True),  # account:<id>, NULL for a guest
    Column("name", String(64), nullable=False),
    Column("game", String(64), nullable=False),
    Column("params", Text, nullable=False),  # JSON object
    Column("players", Integer, nullable=False),
    Column("minutes", Float, nullable=True),
    Column("increment", Float, nullable=True),
    Column("rated", Boolean, nullable=False),
    Column("pool", String(400), nullable=False),  # equal for compatible seeks
    Column("rating", Integer, nullable=True),  # the seeker's rating when it seeks
    Column("low", Integer, nullable=True),
    Column("high", Integer, nullable=True),
    Column("created", Float, nullable=False),
    Column("expires", Float, nullable=False),
    Column("status", String(16), nullable=False),
    Column("game_id", String(32), nullable=True),
    Column("seat", Integer, nullable=True),
    Column("taken_by", String(32), nullable=True),  # the group that is pairing it
    Column("taken_at", Float, nullable=True),
    Column("days", Integer, nullable=True),  # a correspondence game's days per move
    Index("ix_arena_seeks_pool", "status", "pool", "created"),
)

challenges_table = Table(
    "arena_challenges",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("token_hash", String(64), nullable=False),  # the challenger's secret
    Column("challenger", String(80), nullable=False),  # account:<id>
    Column("challenger_name", String(64), nullable=False),
    Column("opponent", String(80), nullable=False),  # account:<id>
    Column("opponent_name", String(64), nullable=False),
    Column("body", Text, nullable=False),  # JSON: game, params, clock, rated
    Column("created", Float, nullable=False),
    Column("expires", Float, nullable=False),
    Column("status", String(16), nullable=False),  # open, accepted, declined, cancelled
    Column("game_id", String(32), nullable=True),
    Index("ix_arena_challenges_opponent", "opponent", "status"),
)


@dataclass(frozen=True)
class SeekRow:
    id: str
    token_hash: str
    owner: str | None
    name: str
    game: str
    params: str
    players: int
    minutes: float | None
    increment: float | None
    rated: bool
    pool: str
    rating: int | None
    low: int | None
    high: int | None
    created: float
    expires: float
    status: str
    game_id: str | None
    seat: int | None
    taken_by: str | None = None
    taken_at: float | None = None
    days: int | None = None  # a correspondence game: days per move (minutes None)

    def accepts(self, other: SeekRow) -> bool:
        """Whether ``other`` may play this seek: another owner, a rating in range."""
        if self.owner is not None and self.owner == other.owner:
            return False
        if self.low is not None and (other.rating is None or other.rating < self.low):
            return False
        return not (self.high is not None and (other.rating is None or other.rating > self.high))


def pool_of(
    game: str,
    params: dict[str, object],
    players: int,
    minutes: float | None,
    increment: float | None,
    rated: bool,
    days: int | None = None,
) -> str:
    """The text equal for exactly the seeks that may play one game together."""
    key: list[object] = [game, params, players, minutes, increment, rated]
    if days:  # a correspondence game's days per move (the key without them unchanged)
        key.append({"days": days})
    return json.dumps(key, sort_keys=True, separators=(",", ":"))[:400]


def insert_seek(engine: Engine, row: SeekRow) -> None:
    with engine.begin() as conn:
        conn.execute(seeks_table.insert().values(**row.__dict__))


def load_seek(engine: Engine, seek_id: str) -> SeekRow | None:
    t = seeks_table
    with engine.connect() as conn:
        row = conn.execute(select(t).where(t.c.id == seek_id)).first()
    return None if row is None else SeekRow(**row._mapping)


def keep_open(engine: Engine, seek_id: str, token_hash: str, expires: float) -> SeekRow | None:
    """The seek; its expiry moved to ``expires`` if it is open and ``token_hash`` is its
    owner's (the owner's polls keep it open)."""
    t = seeks_table
    with engine.begin() as conn:
        conn.execute(
            update(t)
            .where(
                t.c.id == seek_id,
                t.c.token_hash == token_hash,
                t.c.status == OPEN,
                t.c.expires < expires,
            )
            .values(expires=expires)
        )
        row = conn.execute(select(t).where(t.c.id == seek_id)).first()
    return None if row is None else SeekRow(**row._mapping)


def _lock_pool(conn: Connection, pool: str) -> None:
    if conn.dialect.name == "postgresql":  # one pairing of this pool at a time, fleet-wide
        conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": zlib.crc32(pool.encode())})


def take_group(engine: Engine, seek_id: str, now: float) -> list[SeekRow] | None:
    """If ``seek_id`` is open and enough compatible open seeks wait, mark them all
    ``pairing`` (oldest first, ``seek_id`` among them) and return them, seat order =
    the order returned; else ``None``. Exactly one caller ever gets a given seek."""
    t = seeks_table
    with engine.begin() as conn:
        me_row = conn.execute(select(t).where(t.c.id == seek_id)).first()
        if me_row is None or me_row.status != OPEN or me_row.expires <= now:
            return None
        me = SeekRow(**me_row._mapping)
        _lock_pool(conn, me.pool)
        rows = conn.execute(
            select(t)
            .where(t.c.status == OPEN, t.c.pool == me.pool, t.c.expires > now)
            .order_by(t.c.created, t.c.id)
            .limit(200)
        )
        waiting = [SeekRow(**r._mapping) for r in rows]
        if me.id not in {s.id for s in waiting}:
            return None  # taken meanwhile by another group
        group = [me]
        for s in waiting:
            if len(group) == me.players:
                break
            if s.id != me.id and all(g.accepts(s) and s.accepts(g) for g in group):
                group.append(s)
        if len(group) < me.players:
            return None
        group.sort(key=lambda s: (s.created, s.id))
        ids = [s.id for s in group]
        taken = secrets.token_hex(8)
        done = conn.execute(
            update(t)
            .where(t.c.id.in_(ids), t.c.status == OPEN)
            .values(status=PAIRING, taken_by=taken, taken_at=now)
        )
        if done.rowcount != len(ids):
            conn.rollback()  # another writer took one of them first: nothing changes
            return None
        return [replace(s, status=PAIRING, taken_by=taken, taken_at=now) for s in group]


def set_paired(engine: Engine, group: Sequence[SeekRow], game_id: str) -> bool:
    """The group's seeks are paired into ``game_id``; False (nothing written) if the
    group was released meanwhile (:func:`release_stale`) and is no longer this one."""
    t = seeks_table
    with engine.begin() as conn:
        for seat, s in enumerate(group):
            done = conn.execute(
                update(t)
                .where(t.c.id == s.id, t.c.status == PAIRING, t.c.taken_by == s.taken_by)
                .values(status=PAIRED, game_id=game_id, seat=seat)
            )
            if done.rowcount != 1:
                conn.rollback()
                return False
    return True


def release(engine: Engine, group: Sequence[SeekRow]) -> None:
    """The game could not be made: the group's seeks wait again."""
    t = seeks_table
    with engine.begin() as conn:
        conn.execute(
            update(t)
            .where(
                t.c.id.in_([s.id for s in group]),
                t.c.status == PAIRING,
                t.c.taken_by == group[0].taken_by,
            )
            .values(status=OPEN, taken_by=None, taken_at=None)
        )


def release_stale(engine: Engine, before: float) -> int:
    """Seeks a process took for pairing before ``before`` and never finished (it died
    between taking them and making the game) wait again."""
    t = seeks_table
    with engine.begin() as conn:
        done = conn.execute(
            update(t)
            .where(t.c.status == PAIRING, t.c.taken_at < before)
            .values(status=OPEN, taken_by=None, taken_at=None)
        )
    return int(done.rowcount)


def cancel(engine: Engine, seek_id: str) -> bool:
    """Cancel an open seek; False if it was no longer open (paired, gone)."""
    t = seeks_table
    with engine.begin() as conn:
        done = conn.execute(
            update(t).where(t.c.id == seek_id, t.c.status == OPEN).values(status=CANCELLED)
        )
    return done.rowcount == 1


def sweep_due(engine: Engine, now: float, before: float) -> bool:
    """Whether :func:`expire` or :func:`release_stale` has anything to change (a read:
    on SQLite a write that changes nothing still takes the lock the moves' writer needs)."""
    t = seeks_table
    with engine.connect() as conn:
        found = conn.execute(
            select(t.c.id)
            .where(
                or_(
                    and_(t.c.status == OPEN, t.c.expires <= now),
                    and_(t.c.status == PAIRING, t.c.taken_at < before),
                )
            )
            .limit(1)
        ).first()
    return found is not None


def expire(engine: Engine, now: float) -> int:
    t = seeks_table
    with engine.begin() as conn:
        done = conn.execute(
            update(t).where(t.c.status == OPEN, t.c.expires <= now).values(status=EXPIRED)
        )
    return int(done.rowcount)


def pools_waiting(engine: Engine, now: float) -> list[str]:
    """Open seeks (one per pool with at least two open) worth another pairing try."""
    t = seeks_table
    with engine.connect() as conn:
        rows = conn.execute(
            select(t.c.pool, func.min(t.c.id).label("id"))
            .where(t.c.status == OPEN, t.c.expires > now)
            .group_by(t.c.pool)
            .having(func.count() >= 2)
        )
        return [str(r.id) for r in rows]


def open_seeks(engine: Engine, now: float, limit: int = 50) -> list[SeekRow]:
    t = seeks_table
    with engine.connect() as conn:
        rows = conn.execute(
            select(t)
            .where(t.c.status == OPEN, t.c.expires > now)
            .order_by(t.c.created.desc())
            .limit(limit)
        )
        return [SeekRow(**r._mapping) for r in rows]


# -- challenges ---------------------------------------------------------------------------


@dataclass(frozen=True)
class ChallengeRow:
    id: str
    token_hash: str
    challenger: str
    challenger_name: str
    opponent: str
    opponent_name: str
    body: str
    created: float
    expires: float
    status: str
    game_id: str | None


def insert_challenge(engine: Engine, row: ChallengeRow) -> None:
    with engine.begin() as conn:
        conn.execute(challenges_table.insert().values(**row.__dict__))


def load_challenge(engine: Engine, challenge_id: str) -> ChallengeRow | None:
    t = challenges_table
    with engine.connect() as conn:
        row = conn.execute(select(t).where(t.c.id == challenge_id)).first()
    return None if row is None else ChallengeRow(**row._mapping)


def challenges_for(engine: Engine, opponent: str, now: float) -> list[ChallengeRow]:
    t = challenges_table
    with engine.connect() as conn:
        rows = conn.execute(
            select(t)
            .where(t.c.opponent == opponent, t.c.status == OPEN, t.c.expires > now)
            .order_by(t.c.created)
        )
        return [ChallengeRow(**r._mapping) for r in rows]


def answer_challenge(engine: Engine, challenge_id: str, status: str, now: float) -> bool:
    """Move an open, unexpired challenge to ``status``; True for the one caller that did."""
    t = challenges_table
    with engine.begin() as conn:
        done = conn.execute(
            update(t)
            .where(t.c.id == challenge_id, t.c.status == OPEN, t.c.expires > now)
            .values(status=status)
        )
    return done.rowcount == 1


def set_challenge_game(engine: Engine, challenge_id: str, game_id: str) -> None:
    t = challenges_table
    with engine.begin() as conn:
        conn.execute(update(t).where(t.c.id == challenge_id).values(game_id=game_id))
