"""The ratings aggregate: players' OpenSkill ratings per game, their history (for the
graphs) and which games are rated and already applied.

* ``arena_ratings``: one row per (player, game). ``player`` is a key: ``account:<id>``
  for a person's account, ``bot:<level>`` for a rated bot level. ``mu`` and ``sigma`` are
  OpenSkill's; ``games`` counts the rated games played; ``name`` is the name shown.
* ``arena_rating_history``: a row per player per rated game, the rating after it.
* ``arena_rated_games``: a row per game created rated (``rated``), with the players'
  keys by seat as far as known at creation (``seats``, JSON), and ``applied`` set by
  the one conditional update that wins the right to apply the result, so a fleet applies
  each result exactly once.

The queries here are blocking: call them from a thread (``asyncio.to_thread``).
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

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
    false,
    select,
    update,
)

from sudoku_arena.server.db.engine import Op, upsert
from sudoku_arena.server.db.schema import metadata

ratings_table = Table(
    "arena_ratings",
    metadata,
    Column("player", String(80), primary_key=True),  # account:<id> or bot:<level>
    Column("game", String(64), primary_key=True),
    Column("name", String(64), nullable=False),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("updated", Float, nullable=False),
    Index("ix_arena_ratings_game_updated", "game", "updated"),
)

history_table = Table(
    "arena_rating_history",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("player", String(80), nullable=False),
    Column("game", String(64), nullable=False),
    Column("game_id", String(32), nullable=False),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("display", Integer, nullable=False),
    Column("at", Float, nullable=False),
    Index("ix_arena_rating_history_player", "player", "game", "at"),
)

rated_games_table = Table(
    "arena_rated_games",
    metadata,
    Column("game_id", String(32), primary_key=True),
    Column("game", String(64), nullable=False),
    Column("rated", Boolean, nullable=False),
    Column("seats", Text, nullable=False, server_default="{}"),  # JSON {"seat": [key, name]}
    Column("applied", Boolean, nullable=False, server_default=false()),
    Column("created", Float, nullable=False),
)


#: A rated seat's player: (rating key, name shown).
Seat = tuple[str, str]


@dataclass(frozen=True)
class RatingRow:
    player: str
    game: str
    name: str
    mu: float
    sigma: float
    games: int
    updated: float


@dataclass(frozen=True)
class HistoryRow:
    game: str
    game_id: str
    mu: float
    sigma: float
    display: int
    at: float


def _mark_rated(conn: Connection, game_id: str, game: str, seats: Mapping[int, Seat]) -> None:
    data = json.dumps({str(k): list(v) for k, v in seats.items()})
    conn.execute(
        upsert(conn)(rated_games_table)
        .values(
            game_id=game_id, game=game, rated=True, seats=data, applied=False, created=time.time()
        )
        .on_conflict_do_nothing()
    )


def mark_rated(engine: Engine, game_id: str, game: str, seats: Mapping[int, Seat]) -> None:
    """Record ``game_id`` as rated, with the players known at creation (seat ->
    (key, name)); nothing happens if it is recorded already. (Games are made rated in
    their own commit, :class:`MarkRated`; this is for tools and tests.)"""
    with engine.begin() as conn:
        _mark_rated(conn, game_id, game, seats)


@dataclass(frozen=True, slots=True)
class MarkRated(Op):
    """:func:`mark_rated` in the transaction that creates the game (``Together`` with
    it): a game is rated from its first commit, so whoever loads it knows for good, and
    a server may keep that in memory."""

    game_id: str
    game: str
    seats: Mapping[int, Seat]

    def apply(self, conn: Connection, now: float, shared: bool) -> None:
        _mark_rated(conn, self.game_id, self.game, self.seats)


def rated_flag(conn: Connection, game_id: str) -> bool:
    """Whether ``game_id`` was made rated, read on ``conn``."""
    t = rated_games_table
    row = conn.execute(select(t.c.rated).where(t.c.game_id == game_id)).first()
    return bool(row is not None and row.rated)


def is_rated(engine: Engine, game_id: str) -> bool:
    """Whether ``game_id`` was created rated (no takebacks, no coach)."""
    with engine.connect() as conn:
        return rated_flag(conn, game_id)


def rated_seats(conn: Connection, game_id: str) -> dict[int, tuple[str, str]]:
    """The players recorded for ``game_id``'s seats, seat -> (key, name)."""
    t = rated_games_table
    row = conn.execute(select(t.c.seats).where(t.c.game_id == game_id)).first()
    if row is None:
        return {}
    return {int(k): (str(v[0]), str(v[1])) for k, v in json.loads(row.seats or "{}").items()}


def add_seat(engine: Engine, game_id: str, seat: int, key: str, name: str) -> None:
    """Record who holds ``seat`` of a rated game (an account took it after creation);
    read-modify-write under FOR UPDATE so two seats taken at once both stay."""
    t = rated_games_table
    with engine.begin() as conn:
        row = conn.execute(
            select(t.c.seats).where(t.c.game_id == game_id).with_for_update()
        ).first()
        if row is None:
            return
        seats = json.loads(row.seats or "{}")
        seats[str(seat)] = [key, name]
        conn.execute(update(t).where(t.c.game_id == game_id).values(seats=json.dumps(seats)))


def claim_apply(conn: Connection, game_id: str) -> bool:
    """Take the one right to apply ``game_id``'s result, inside the caller's
    transaction (the ratings are written in the same one): a conditional update only
    one caller in the whole fleet sees succeed. False: not rated, or applied already."""
    t = rated_games_table
    done = conn.execute(
        update(t)
        .where(t.c.game_id == game_id, t.c.rated.is_(True), t.c.applied.is_(False))
        .values(applied=True)
    )
    return done.rowcount == 1


def ensure_ratings(
    conn: Connection, game: str, players: Mapping[str, str], mu: float, sigma: float, now: float
) -> None:
    """Give each of ``players`` (key -> name) a row for ``game`` if it has none (a new
    player's), in key order: the rows then exist to be locked, so two first games of
    one player at once do not both start from nothing (the second insert waits for the
    first transaction and then does nothing)."""
    ins = upsert(conn)
    for key in sorted(players):
        conn.execute(
            ins(ratings_table)
            .values(
                player=key,
                game=game,
                name=players[key][:64],
                mu=mu,
                sigma=sigma,
                games=0,
                updated=now,
            )
            .on_conflict_do_nothing()
        )


def load_ratings(conn: Connection, game: str, players: Sequence[str]) -> dict[str, RatingRow]:
    """The rows of ``players`` for ``game``, locked (FOR UPDATE on PostgreSQL) until the
    transaction ends: two games of one player ending at once apply one after the other."""
    t = ratings_table
    rows = conn.execute(
        select(t)
        .where(t.c.game == game, t.c.player.in_(list(players)))
        .order_by(t.c.player)
        .with_for_update()
    )
    return {r.player: RatingRow(**r._mapping) for r in rows}


def store_ratings(
    conn: Connection, game: str, game_id: str | None, rows: Sequence[tuple[RatingRow, int]]
) -> None:
    """Write each (rating, display) and, with a ``game_id``, its history row."""
    ins = upsert(conn)
    t = ratings_table
    for r, display in rows:
        values = {
            "player": r.player,
            "game": game,
            "name": r.name,
            "mu": r.mu,
            "sigma": r.sigma,
            "games": r.games,
            "updated": r.updated,
        }
        conn.execute(
            ins(t)
            .values(**values)
            .on_conflict_do_update(
                index_elements=[t.c.player, t.c.game],
                set_={k: v for k, v in values.items() if k not in ("player", "game")},
            )
        )
        if game_id is not None:
            conn.execute(
                history_table.insert().values(
                    player=r.player,
                    game=game,
                    game_id=game_id,
                    mu=r.mu,
                    sigma=r.sigma,
                    display=display,
                    at=r.updated,
                )
            )


def player_ratings(engine: Engine, player: str) -> list[RatingRow]:
    t = ratings_table
    with engine.connect() as conn:
        rows = conn.execute(select(t).where(t.c.player == player).order_by(t.c.game))
        return [RatingRow(**r._mapping) for r in rows]


def player_history(engine: Engine, player: str, limit: int = 500) -> list[HistoryRow]:
    """The player's last ``limit`` rated games, oldest first."""
    t = history_table
    with engine.connect() as conn:
        rows = conn.execute(
            select(t.c.game, t.c.game_id, t.c.mu, t.c.sigma, t.c.display, t.c.at)
            .where(t.c.player == player)
            .order_by(t.c.at.desc(), t.c.id.desc())
            .limit(limit)
        )
        out = [HistoryRow(**r._mapping) for r in rows]
    return out[::-1]


def game_ratings(engine: Engine, game: str, since: float | None = None) -> list[RatingRow]:
    """The ratings of ``game`` (updated after ``since`` when given; bots always)."""
    t = ratings_table
    query = select(t).where(t.c.game == game)
    if since is not None:
        query = query.where((t.c.updated >= since) | t.c.player.like("bot:%"))
    with engine.connect() as conn:
        return [RatingRow(**r._mapping) for r in conn.execute(query)]
