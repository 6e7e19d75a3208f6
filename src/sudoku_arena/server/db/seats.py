"""Seats and the devices holding them: who sits where in each game.

``arena_seats``: one row per seat with the SHA-256 of the seat's secret token (never
the token itself), the device that claimed the seat's link (SHA-256 of the device's
own token) and when a device holding it was last connected to any server process.
Every change is one conditional update, so of two devices or processes asking at once
the database lets one through (:class:`ClaimSeat`, :class:`ReissueSeat`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, Self

from sqlalchemy import (
    Column,
    Connection,
    Engine,
    Float,
    Integer,
    String,
    Table,
    or_,
    select,
    update,
)
from sqlalchemy.engine import RowMapping

from sudoku_arena.server.db.engine import Op, SeatTaken, placeholder
from sudoku_arena.server.db.schema import metadata

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


# -- writes ----------------------------------------------------------------------------------


def insert_seats(conn: Connection, game_id: str, seats: Sequence[SeatRow]) -> None:
    """Store the seats of a new game (part of creating it)."""
    conn.execute(
        seats_table.insert(),
        [
            {
                "game_id": game_id,
                "seat": s.seat,
                "kind": s.kind,
                "agent": s.agent,
                "name": s.name,
                "token_hash": s.token_hash,
                "claimed_by": s.claimed_by,
                "claimed_at": s.claimed_at,
            }
            for s in seats
        ],
    )


@dataclass(slots=True)
class ClaimSeat(Op):
    """The device ``device`` (sha256 of its token) claims ``seat``, whose token hash is
    ``token_hash``: refused with :class:`SeatTaken` when another device holds it (unless
    ``move``) or the token was re-issued meanwhile."""

    game_id: str
    seat: int
    token_hash: str
    device: str
    move: bool = False

    def apply(self, conn: Connection, now: float, shared: bool) -> None:
        t = seats_table
        where = [t.c.game_id == self.game_id, t.c.seat == self.seat]
        where.append(t.c.token_hash == self.token_hash)
        if not self.move:
            where.append(or_(t.c.claimed_by.is_(None), t.c.claimed_by == self.device))
        done = conn.execute(update(t).where(*where).values(claimed_by=self.device, claimed_at=now))
        if done.rowcount != 1:
            raise SeatTaken("the seat is held by another device, or its link changed")


@dataclass(slots=True)
class ReissueSeat(Op):
    """Give ``seat`` a new token (the old link dies), if no device claimed it; with
    ``device`` (a player joining from the lobby) the new token is claimed at once."""

    game_id: str
    seat: int
    token_hash: str
    device: str | None = None

    def apply(self, conn: Connection, now: float, shared: bool) -> None:
        t = seats_table
        done = conn.execute(
            update(t)
            .where(t.c.game_id == self.game_id, t.c.seat == self.seat, t.c.claimed_by.is_(None))
            .values(
                token_hash=self.token_hash,
                claimed_by=self.device,
                claimed_at=None if self.device is None else now,
            )
        )
        if done.rowcount != 1:
            raise SeatTaken("somebody already took that seat")


@dataclass(slots=True)
class ResumeSeat(Op):
    """Give ``seat`` a new token claimed by ``device`` at once, whoever held it: the
    seat's account takes it back on this device (the old link and device lose it)."""

    game_id: str
    seat: int
    token_hash: str
    device: str

    def apply(self, conn: Connection, now: float, shared: bool) -> None:
        t = seats_table
        done = conn.execute(
            update(t)
            .where(t.c.game_id == self.game_id, t.c.seat == self.seat)
            .values(token_hash=self.token_hash, claimed_by=self.device, claimed_at=now)
        )
        if done.rowcount != 1:
            raise SeatTaken("no such seat")


@dataclass(slots=True)
class MarkSeen(Op):
    """Devices holding ``seats`` were connected at ``at`` (a time only moves forward):
    every process reads it before it lets a player claim the win over those who left."""

    game_id: str
    seats: tuple[int, ...]
    at: float

    #: Marks come with every connection and every beat: consecutive ones of a batch
    #: go as one executemany of one hand-written statement (no statement built and
    #: looked up in the compiled cache per mark).
    batched: ClassVar[bool] = True

    def apply(self, conn: Connection, now: float, shared: bool) -> None:
        MarkSeen.apply_all(conn, [self], now, shared)

    @classmethod
    def apply_all(cls, conn: Connection, ops: Sequence[Self], now: float, shared: bool) -> None:
        rows = [(op.at, op.game_id, seat, op.at) for op in ops for seat in op.seats]
        if not rows:
            return
        mark = placeholder(conn)
        conn.exec_driver_sql(
            f"UPDATE {seats_table.name} SET seen_at = {mark} WHERE game_id = {mark} "
            f"AND seat = {mark} AND (seen_at IS NULL OR seen_at < {mark})",
            rows,
        )


# -- reads (blocking: call from a thread) ------------------------------------------------


def seat_row(m: RowMapping) -> SeatRow:
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


def read_seats(conn: Connection, game_id: str) -> list[SeatRow]:
    """The seats of ``game_id`` in seat order, on an open connection."""
    t = seats_table
    rows = conn.execute(select(t).where(t.c.game_id == game_id).order_by(t.c.seat))
    return [seat_row(r._mapping) for r in rows]


def load_seats(engine: Engine, game_id: str) -> list[SeatRow]:
    """The seats of ``game_id`` as stored now (claims and tokens change)."""
    with engine.connect() as conn:
        return read_seats(conn, game_id)


def seat_keys(
    engine: Engine, game_ids: Sequence[str]
) -> dict[str, list[tuple[str | None, str | None]]]:
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
    with engine.connect() as conn:
        for gid, token_hash, claimed_by in conn.execute(q):
            out.setdefault(gid, []).append((token_hash, claimed_by))
    return out
