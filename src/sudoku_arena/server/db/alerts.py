"""Alerts that it is your turn: the server's VAPID key, push subscriptions, alert preferences and
the alerts sent (migration 0010).

* ``arena_vapid``: the one key pair every process of a fleet signs Web Push messages
  with, made by whichever process starts first (one row, ``id`` 1; the first insert
  wins, the others read it). The private key (PEM) never leaves the server; the public
  key is what browsers subscribe with.
* ``arena_push_subscriptions``: a browser's push endpoint and its keys (``p256dh``,
  ``auth``) for an *owner*: ``account:<id>`` (every seat the account holds) or
  ``seat:<game>:<seat>`` (one seat of one game, for a player without an account).
  One row per (endpoint, owner).
* ``arena_alert_prefs``: per owner, the e-mail address to write to (none: no e-mail).
* ``arena_alerts_sent``: (game, ply, seat), the primary key: the alert for a move is
  claimed by inserting its row, so it is sent once even if two processes try.

Every function blocks: call it from a thread (``asyncio.to_thread``) in async code.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from sqlalchemy import (
    Column,
    Engine,
    Float,
    Integer,
    String,
    Table,
    Text,
    UniqueConstraint,
    delete,
    insert,
    select,
)

from sudoku_arena.server.db.engine import upsert
from sudoku_arena.server.db.schema import metadata

#: Browsers kept per owner (a seat or an account): the newest.
MAX_SUBSCRIPTIONS = 10

vapid_table = Table(
    "arena_vapid",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=False),
    Column("private_pem", Text, nullable=False),
    Column("public_key", String(128), nullable=False),  # URL-safe base64, uncompressed point
    Column("created", Float, nullable=False),
)

subscriptions_table = Table(
    "arena_push_subscriptions",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("owner", String(64), nullable=False, index=True),
    Column("endpoint", String(1024), nullable=False),
    Column("p256dh", String(256), nullable=False),
    Column("auth", String(64), nullable=False),
    Column("created", Float, nullable=False),
    UniqueConstraint("endpoint", "owner", name="uq_arena_push_endpoint_owner"),
)

prefs_table = Table(
    "arena_alert_prefs",
    metadata,
    Column("owner", String(64), primary_key=True),
    Column("email", String(320), nullable=True),
    Column("updated", Float, nullable=False),
)

sent_table = Table(
    "arena_alerts_sent",
    metadata,
    Column("game_id", String(32), primary_key=True),
    Column("ply", Integer, primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("sent_at", Float, nullable=False),
)


def account_owner(account_id: int) -> str:
    return f"account:{account_id}"


def seat_owner(game_id: str, seat: int) -> str:
    return f"seat:{game_id}:{seat}"


@dataclass(frozen=True)
class Subscription:
    """A browser's push subscription, as the Push API gives it."""

    endpoint: str
    p256dh: str
    auth: str

    def info(self) -> dict[str, object]:
        """The ``subscription_info`` pywebpush takes."""
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}


def vapid_keys(engine: Engine, make: Callable[[], tuple[str, str]]) -> tuple[str, str]:
    """The fleet's (private PEM, public key), made with ``make()`` if none is stored
    yet. Two processes starting at once both try to insert; the database keeps the
    first and both read it back, so every process signs with the same key."""
    t = vapid_table
    with engine.connect() as conn:
        row = conn.execute(select(t.c.private_pem, t.c.public_key).where(t.c.id == 1)).first()
    if row is None:
        pem, public = make()
        with engine.begin() as conn:
            conn.execute(
                upsert(engine)(t)
                .values(id=1, private_pem=pem, public_key=public, created=time.time())
                .on_conflict_do_nothing()
            )
        with engine.connect() as conn:
            row = conn.execute(select(t.c.private_pem, t.c.public_key).where(t.c.id == 1)).one()
    return str(row.private_pem), str(row.public_key)


def subscribe(engine: Engine, owner: str, sub: Subscription) -> None:
    """Keep ``sub`` for ``owner`` (its keys replaced if the endpoint was known); an
    owner keeps its :data:`MAX_SUBSCRIPTIONS` newest browsers, so a seat's token cannot
    make one move send pushes without end."""
    t = subscriptions_table
    with engine.begin() as conn:
        conn.execute(delete(t).where(t.c.owner == owner, t.c.endpoint == sub.endpoint))
        conn.execute(
            insert(t).values(
                owner=owner,
                endpoint=sub.endpoint,
                p256dh=sub.p256dh,
                auth=sub.auth,
                created=time.time(),
            )
        )
        newest = select(t.c.id).where(t.c.owner == owner).order_by(t.c.id.desc())
        kept = [r.id for r in conn.execute(newest.limit(MAX_SUBSCRIPTIONS))]
        conn.execute(delete(t).where(t.c.owner == owner, t.c.id.not_in(kept)))


def unsubscribe(engine: Engine, endpoint: str, owners: list[str] | None = None) -> int:
    """Forget ``endpoint`` (for ``owners`` only, or everywhere: the push service said it
    is gone); how many rows went."""
    t = subscriptions_table
    q = delete(t).where(t.c.endpoint == endpoint)
    if owners is not None:
        q = q.where(t.c.owner.in_(owners))
    with engine.begin() as conn:
        return int(conn.execute(q).rowcount or 0)


def subscriptions(engine: Engine, owners: list[str]) -> list[Subscription]:
    """The subscriptions of ``owners``, each endpoint once."""
    t = subscriptions_table
    with engine.connect() as conn:
        rows = conn.execute(
            select(t.c.endpoint, t.c.p256dh, t.c.auth).where(t.c.owner.in_(owners)).order_by(t.c.id)
        ).all()
    seen: dict[str, Subscription] = {}
    for r in rows:
        seen.setdefault(r.endpoint, Subscription(r.endpoint, r.p256dh, r.auth))
    return list(seen.values())


def set_email(engine: Engine, owner: str, email: str | None) -> None:
    """``owner``'s e-mail address for alerts (``None``: no e-mail)."""
    t = prefs_table
    ins = upsert(engine)(t).values(owner=owner, email=email, updated=time.time())
    with engine.begin() as conn:
        conn.execute(
            ins.on_conflict_do_update(
                index_elements=[t.c.owner], set_={"email": email, "updated": time.time()}
            )
        )


def emails(engine: Engine, owners: list[str]) -> list[str]:
    """The e-mail addresses of ``owners``, each once."""
    t = prefs_table
    with engine.connect() as conn:
        rows = conn.execute(select(t.c.email).where(t.c.owner.in_(owners), t.c.email.is_not(None)))
        return sorted({str(r.email) for r in rows})


def claim(engine: Engine, game_id: str, ply: int, seat: int) -> bool:
    """Claim the alert for ``seat`` at ``ply`` of ``game_id``: ``True`` for the one
    caller (of any process) whose insert made the row, ``False`` for everybody else."""
    t = sent_table
    with engine.begin() as conn:
        # RETURNING, not rowcount: drivers do not all count a skipped insert as 0.
        made = conn.execute(
            upsert(engine)(t)
            .values(game_id=game_id, ply=ply, seat=seat, sent_at=time.time())
            .on_conflict_do_nothing()
            .returning(t.c.game_id)
        ).first()
        return made is not None
