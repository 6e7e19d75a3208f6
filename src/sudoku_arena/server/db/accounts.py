"""Accounts, web sessions, and the seats accounts hold (migration 0008).

* ``arena_accounts``: one row per account: the user name as typed (``name``), its
  lowercased form (``name_key``, unique, so "Ada" and "ada" are one name) and the
  argon2id hash of the password (never the password). A deleted account's row is
  removed; its games stay, their seats renamed :data:`DELETED_NAME`.
* ``arena_web_sessions``: one row per signed-in browser. ``id`` is the SHA-256 of the
  cookie's secret, never the secret, so a copy of the database signs nobody in. Each
  session has its CSRF token and expires (:data:`SESSION_SECONDS` after it was last
  seen). ``account_id`` NULL is a guest's session.
* ``arena_account_seats``: which account holds which seat of which game. A seat linked
  to an account is acted in only by that account (the seat's token alone is not enough
  for a browser signed in as another account).

User names: :data:`NAME_RULE` (letters, digits, ``_`` and ``-``, 3 to 20 characters).

Every function blocks: call it from a thread (``asyncio.to_thread``) in async code.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass

from sqlalchemy import (
    Column,
    ColumnElement,
    Engine,
    Float,
    Index,
    Integer,
    String,
    Table,
    and_,
    delete,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import Connection, RowMapping
from sqlalchemy.exc import IntegrityError

from sudoku_arena.core.types import JsonDict
from sudoku_arena.server.db.engine import Op
from sudoku_arena.server.db.schema import metadata

#: How long a session lasts after it was last seen (30 days).
SESSION_SECONDS = 30 * 86400.0
#: A session's ``last_seen`` (and expiry) is written at most this often.
TOUCH_SECONDS = 300.0
#: What a deleted account's seats are called in the games they played.
DELETED_NAME = "deleted player"
#: The user names allowed.
NAME_RULE = "3 to 20 characters: letters, digits, _ and -"
NAME_PATTERN = "^[A-Za-z0-9_-]{3,20}$"
_NAME = re.compile(NAME_PATTERN)

accounts_table = Table(
    "arena_accounts",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(20), nullable=False),  # as typed
    Column("name_key", String(20), nullable=False, unique=True),  # lowercased
    Column("password_hash", String(200), nullable=False),  # argon2id, encoded
    Column("created", Float, nullable=False),
)

sessions_table = Table(
    "arena_web_sessions",
    metadata,
    Column("id", String(64), primary_key=True),  # sha256 hex of the cookie's secret
    Column("account_id", Integer, nullable=True, index=True),  # NULL: a guest
    Column("csrf", String(64), nullable=False),
    Column("created", Float, nullable=False),
    Column("expires", Float, nullable=False, index=True),
    Column("last_seen", Float, nullable=False),
)

account_seats_table = Table(
    "arena_account_seats",
    metadata,
    Column("game_id", String(32), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("account_id", Integer, nullable=False),
)
Index("ix_arena_account_seats_account", account_seats_table.c.account_id)


class NameRefused(ValueError):
    """A user name outside :data:`NAME_RULE`, or one already taken."""


@dataclass(frozen=True, slots=True)
class AccountRow:
    id: int
    name: str
    password_hash: str
    created: float


@dataclass(frozen=True, slots=True)
class SessionRow:
    id: str
    account_id: int | None
    csrf: str
    expires: float
    last_seen: float
    #: The account's name, read with the session (``None``: a guest's session).
    account_name: str | None = None


def check_name(name: str) -> str:
    """``name`` if it is an allowed user name; :class:`NameRefused` saying why not."""
    if not _NAME.fullmatch(name):
        raise NameRefused(f"name: {name[:40]!r} is not allowed; a user name is {NAME_RULE}")
    return name


def _account(row: RowMapping) -> AccountRow:
    return AccountRow(
        int(row["id"]), str(row["name"]), str(row["password_hash"]), float(row["created"])
    )


# -- accounts -------------------------------------------------------------------------------


def create_account(engine: Engine, name: str, password_hash: str, now: float) -> AccountRow:
    """A new account; :class:`NameRefused` if the name is not allowed or taken."""
    check_name(name)
    try:
        with engine.begin() as conn:
            new_id = conn.execute(
                insert(accounts_table)
                .values(name=name, name_key=name.lower(), password_hash=password_hash, created=now)
                .returning(accounts_table.c.id)
            ).scalar_one()
    except IntegrityError:
        raise NameRefused(f"name: {name!r} is taken; choose another") from None
    return AccountRow(int(new_id), name, password_hash, now)


def account_by_name(engine: Engine, name: str) -> AccountRow | None:
    t = accounts_table
    with engine.connect() as conn:
        row = conn.execute(select(t).where(t.c.name_key == name.lower())).first()
    return None if row is None else _account(row._mapping)


def account_by_id(engine: Engine, account_id: int) -> AccountRow | None:
    t = accounts_table
    with engine.connect() as conn:
        row = conn.execute(select(t).where(t.c.id == account_id)).first()
    return None if row is None else _account(row._mapping)


def set_password_hash(engine: Engine, account_id: int, password_hash: str) -> None:
    t = accounts_table
    with engine.begin() as conn:
        conn.execute(update(t).where(t.c.id == account_id).values(password_hash=password_hash))


def delete_account(engine: Engine, account_id: int) -> list[tuple[str, int]]:
    """Remove the account and everything kept for it, in one transaction: its
    sessions, its seat links and every row other features keep for it
    (:func:`_kept_for`: ratings, rating history, seeks, challenges, push subscriptions,
    alert settings). Its games stay: the seats it held are renamed :data:`DELETED_NAME`
    (in ``arena_seats``, in the game's list of players and in a rated game's record of
    its players, whose key is blanked: a game still running is not rated for a player
    who is gone). Answers the (game id, seat) renamed."""
    seats = metadata.tables["arena_seats"]
    games = metadata.tables["arena_games"]
    links = account_seats_table
    with engine.begin() as conn:
        held = conn.execute(
            select(links.c.game_id, links.c.seat).where(links.c.account_id == account_id)
        ).all()
        for game_id, seat in held:
            conn.execute(
                update(seats)
                .where(seats.c.game_id == game_id, seats.c.seat == seat)
                .values(name=DELETED_NAME)
            )
            players = conn.execute(select(games.c.players).where(games.c.id == game_id)).scalar()
            names = json.loads(players) if players else []
            if 0 <= seat < len(names):
                names[seat] = DELETED_NAME
                conn.execute(
                    update(games).where(games.c.id == game_id).values(players=json.dumps(names))
                )
        rated = metadata.tables.get("arena_rated_games")
        if rated is not None:
            for game_id, data in conn.execute(
                select(rated.c.game_id, rated.c.seats).where(_names_in_seats(rated, account_id))
            ).all():
                recorded = json.loads(data or "{}")
                key = account_key(account_id)
                blank = {k: ["", DELETED_NAME] if v[0] == key else v for k, v in recorded.items()}
                conn.execute(
                    update(rated).where(rated.c.game_id == game_id).values(seats=json.dumps(blank))
                )
        for table, where in _kept_for(account_id):
            conn.execute(delete(table).where(where))
        conn.execute(delete(accounts_table).where(accounts_table.c.id == account_id))
    return [(str(g), int(s)) for g, s in held]


# -- sessions -------------------------------------------------------------------------------


def create_session(
    engine: Engine, session_id: str, account_id: int | None, csrf: str, now: float
) -> SessionRow:
    """A new session row (``session_id``: the SHA-256 of the cookie's secret)."""
    expires = now + SESSION_SECONDS
    with engine.begin() as conn:
        conn.execute(
            insert(sessions_table).values(
                id=session_id,
                account_id=account_id,
                csrf=csrf,
                created=now,
                expires=expires,
                last_seen=now,
            )
        )
    return SessionRow(session_id, account_id, csrf, expires, now)


def load_session(engine: Engine, session_id: str, now: float) -> SessionRow | None:
    """The live session ``session_id`` (``None`` if unknown or expired; an expired row
    is removed). Its expiry moves on when it was last seen over
    :data:`TOUCH_SECONDS` ago."""
    t, a = sessions_table, accounts_table
    with engine.connect() as conn:
        # The account's name in the same read: every signed-in request needs both.
        row = conn.execute(
            select(t, a.c.name.label("account_name"))
            .select_from(t.outerjoin(a, a.c.id == t.c.account_id))
            .where(t.c.id == session_id)
        ).first()
    if row is None:
        return None
    if row.expires <= now:
        delete_session(engine, session_id)
        return None
    account = None if row.account_id is None or row.account_name is None else int(row.account_id)
    found = SessionRow(
        str(row.id),
        account,
        str(row.csrf),
        float(row.expires),
        float(row.last_seen),
        None if account is None else str(row.account_name),
    )
    if now - found.last_seen > TOUCH_SECONDS:
        with engine.begin() as conn:
            conn.execute(
                update(t)
                .where(t.c.id == session_id)
                .values(last_seen=now, expires=now + SESSION_SECONDS)
            )
    return found


def delete_session(engine: Engine, session_id: str) -> None:
    with engine.begin() as conn:
        conn.execute(delete(sessions_table).where(sessions_table.c.id == session_id))


def delete_sessions_of(engine: Engine, account_id: int, keep: str | None = None) -> None:
    """Sign ``account_id`` out everywhere (but in session ``keep``)."""
    t = sessions_table
    where = t.c.account_id == account_id
    if keep is not None:
        where = and_(where, t.c.id != keep)
    with engine.begin() as conn:
        conn.execute(delete(t).where(where))


def delete_expired_sessions(engine: Engine, now: float) -> None:
    with engine.begin() as conn:
        conn.execute(delete(sessions_table).where(sessions_table.c.expires <= now))


# -- seats held by accounts ---------------------------------------------------------------


def seat_accounts(engine: Engine, game_id: str) -> dict[int, int]:
    """Seat -> account id, for the seats of ``game_id`` held by accounts."""
    t = account_seats_table
    with engine.connect() as conn:
        rows = conn.execute(select(t.c.seat, t.c.account_id).where(t.c.game_id == game_id))
        return {int(seat): int(account) for seat, account in rows}


def _link(conn: Connection, account_id: int, seats: Iterable[tuple[str, int]]) -> int:
    """Link each (game id, seat) to ``account_id`` unless some account holds it already
    (the first link stays: a conflict inserts nothing and fails nothing). Answers how
    many were linked."""
    insert_ = pg_insert if conn.dialect.name == "postgresql" else sqlite_insert
    linked = 0
    for game_id, seat in seats:
        done = conn.execute(
            insert_(account_seats_table)
            .values(game_id=game_id, seat=seat, account_id=account_id)
            .on_conflict_do_nothing()
        )
        linked += done.rowcount
    return linked


def link_seats(engine: Engine, account_id: int, seats: Iterable[tuple[str, int]]) -> int:
    """:func:`_link` in a transaction of its own (tools, and reads that link as they go)."""
    with engine.begin() as conn:
        return _link(conn, account_id, seats)


@dataclass(slots=True)
class LinkSeats(Op):
    """:func:`_link` by the storage's writer, in the transaction of whatever else is
    written then: on SQLite a second writer beside it waits for the lock, and the
    moves committed meanwhile wait with it. ``linked`` holds the count once written."""

    account_id: int
    seats: tuple[tuple[str, int], ...]
    linked: int = 0

    def apply(self, conn: Connection, now: float, shared: bool) -> None:
        self.linked = _link(conn, self.account_id, self.seats)


def link_device_seats(engine: Engine, account_id: int, device_hash: str) -> int:
    """Claim for ``account_id`` the seats the device ``device_hash`` (SHA-256 of the
    browser's device token) holds and no account does: a guest's games joining the
    account made or signed into from the same browser."""
    seats = metadata.tables["arena_seats"]
    with engine.connect() as conn:
        held = conn.execute(
            select(seats.c.game_id, seats.c.seat).where(seats.c.claimed_by == device_hash)
        ).all()
    return link_seats(engine, account_id, [(str(g), int(s)) for g, s in held])


# -- export ---------------------------------------------------------------------------------

#: Columns other features name an account in, as ``account:<id>``.
_ACCOUNT_KEY_COLUMNS = ("player", "owner", "challenger", "opponent")


def account_key(account_id: int) -> str:
    """How ratings, seeks, challenges and alerts name an account."""
    return f"account:{account_id}"


def _kept_for(account_id: int) -> list[tuple[Table, ColumnElement[bool]]]:
    """Every table keeping rows for the account, with the condition that finds them:
    its ``account_id``, or ``account:<id>`` in a column other features name players in
    (:data:`_ACCOUNT_KEY_COLUMNS`). What :func:`delete_account` deletes and
    :func:`export` gives (sessions aside) are these, so the two cannot drift apart."""
    key = account_key(account_id)
    out: list[tuple[Table, ColumnElement[bool]]] = []
    for _, table in sorted(metadata.tables.items()):
        if table is accounts_table:
            continue
        where = [table.c.account_id == account_id] if "account_id" in table.c else []
        where += [table.c[c] == key for c in _ACCOUNT_KEY_COLUMNS if c in table.c]
        if where:
            out.append((table, or_(*where)))
    return out


def _names_in_seats(rated: Table, account_id: int) -> ColumnElement[bool]:
    """A rated game whose record of players (JSON ``{"seat": [key, name]}``) names the
    account: the key in quotes, so ``account:1`` is not found in ``account:12``."""
    return rated.c.seats.contains(f'"{account_key(account_id)}"', autoescape=True)


def export(engine: Engine, account_id: int) -> JsonDict:
    """Everything kept about the account, as JSON: the account (not its password
    hash), its games with the seats it holds, and every row other tables keep under
    its ``account_id`` or as ``account:<id>`` (ratings, seeks, alerts...)."""
    account = account_by_id(engine, account_id)
    if account is None:
        return {}
    games = metadata.tables["arena_games"]
    links = account_seats_table
    out_games: list[JsonDict] = []
    other: dict[str, list[JsonDict]] = {}
    with engine.connect() as conn:
        rows = conn.execute(
            select(
                links.c.seat,
                games.c.id,
                games.c.game,
                games.c.players,
                games.c.mode,
                games.c.status,
                games.c.outcome,
                games.c.created,
                games.c.updated,
            )
            .join(games, games.c.id == links.c.game_id)
            .where(links.c.account_id == account_id)
            .order_by(games.c.created)
        ).all()
        for r in rows:
            out_games.append(
                {
                    "id": r.id,
                    "game": r.game,
                    "seat": int(r.seat),
                    "players": json.loads(r.players),
                    "mode": r.mode,
                    "status": r.status,
                    "outcome": json.loads(r.outcome) if r.outcome else None,
                    "created": r.created,
                    "updated": r.updated,
                }
            )
        # The rows deletion removes (sessions are secrets, the seats are in games).
        for table, where in _kept_for(account_id):
            if table is sessions_table or table is links:
                continue
            found = conn.execute(select(table).where(where)).all()
            if found:
                other[table.name] = [dict(row._mapping) for row in found]
        rated = metadata.tables.get("arena_rated_games")  # blanked, not deleted
        if rated is not None:
            found = conn.execute(select(rated).where(_names_in_seats(rated, account_id))).all()
            if found:
                other[rated.name] = [dict(row._mapping) for row in found]
    return {
        "account": {"id": account.id, "name": account.name, "created": account.created},
        "games": out_games,
        "tables": other,
    }
