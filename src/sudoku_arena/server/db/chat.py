"""Chat storage: each game's messages (``arena_chat``) and who mutes whom
(``arena_chat_mutes``).

A message belongs to one room of one game: ``players`` (written by a seat) or
``spectators`` (written by somebody watching, ``seat`` NULL). Its text is stored as the
author typed it once cleaned (:func:`sudoku_arena.server.chat.clean_text`): plain text,
never HTML. A mute is a seat's own choice for a game: the seats whose messages it does
not want delivered.

Blocking functions on the games database's engine: call them from a thread.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import Column, Engine, Float, Index, Integer, String, Table, Text, delete, select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from sudoku_arena.core.types import JsonDict
from sudoku_arena.server.db.schema import metadata

ROOMS = ("players", "spectators")

chat_table = Table(
    "arena_chat",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("game_id", String(32), nullable=False),
    Column("room", String(16), nullable=False),  # "players" or "spectators"
    Column("seat", Integer, nullable=True),  # the author's seat; NULL: a spectator
    Column("author", String(64), nullable=False),  # the name shown
    Column("text", Text, nullable=False),  # plain text, cleaned; never HTML
    Column("at", Float, nullable=False),
)
Index("ix_arena_chat_game_room", chat_table.c.game_id, chat_table.c.room, chat_table.c.id)

mutes_table = Table(
    "arena_chat_mutes",
    metadata,
    Column("game_id", String(32), primary_key=True),
    Column("seat", Integer, primary_key=True),  # the seat that mutes
    Column("muted", Integer, primary_key=True),  # the seat it no longer hears
)


@dataclass(frozen=True, slots=True)
class ChatMessage:
    """One stored message."""

    id: int
    game_id: str
    room: str
    seat: int | None
    author: str
    text: str
    at: float

    def to_json(self) -> JsonDict:
        """The message as clients get it (no game id: they know it)."""
        return {
            "id": self.id,
            "room": self.room,
            "seat": self.seat,
            "name": self.author,
            "text": self.text,
            "at": self.at,
        }

    @staticmethod
    def from_json(game_id: str, data: JsonDict) -> ChatMessage:
        seat = data.get("seat")
        return ChatMessage(
            int(data["id"]),
            game_id,
            str(data["room"]),
            None if seat is None else int(seat),
            str(data["name"]),
            str(data["text"]),
            float(data["at"]),
        )


def add_message(
    engine: Engine, game_id: str, room: str, seat: int | None, author: str, text: str, at: float
) -> ChatMessage:
    """Store a message; return it with its id."""
    if room not in ROOMS:
        raise ValueError(f"room {room!r}: allowed {', '.join(ROOMS)}")
    with engine.begin() as conn:
        new_id = conn.execute(
            chat_table.insert()
            .values(game_id=game_id, room=room, seat=seat, author=author, text=text, at=at)
            .returning(chat_table.c.id)
        ).scalar_one()
    return ChatMessage(int(new_id), game_id, room, seat, author, text, at)


def history(engine: Engine, game_id: str, room: str, limit: int = 50) -> list[ChatMessage]:
    """The last ``limit`` messages of ``game_id``'s ``room``, oldest first."""
    t = chat_table
    with engine.connect() as conn:
        rows = conn.execute(
            select(t)
            .where(t.c.game_id == game_id, t.c.room == room)
            .order_by(t.c.id.desc())
            .limit(limit)
        ).all()
    return [
        ChatMessage(r.id, r.game_id, r.room, r.seat, r.author, r.text, r.at) for r in reversed(rows)
    ]


def mutes(engine: Engine, game_id: str) -> dict[int, set[int]]:
    """Per seat of ``game_id``, the seats it mutes."""
    t = mutes_table
    with engine.connect() as conn:
        rows = conn.execute(select(t.c.seat, t.c.muted).where(t.c.game_id == game_id)).all()
    out: dict[int, set[int]] = {}
    for r in rows:
        out.setdefault(int(r.seat), set()).add(int(r.muted))
    return out


def set_mute(engine: Engine, game_id: str, seat: int, muted: int, on: bool) -> None:
    """``seat`` mutes (``on``) or hears again ``muted`` in ``game_id``; idempotent."""
    t = mutes_table
    with engine.begin() as conn:
        if on:
            insert = pg_insert if engine.dialect.name == "postgresql" else sqlite_insert
            conn.execute(
                insert(t).values(game_id=game_id, seat=seat, muted=muted).on_conflict_do_nothing()
            )
        else:
            conn.execute(
                delete(t).where(t.c.game_id == game_id, t.c.seat == seat, t.c.muted == muted)
            )
