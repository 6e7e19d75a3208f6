"""Chat in a game: two rooms, text only, on the game's WebSocket.

* The players' room: the seated players of a game write and read it. Spectators never
  see it, during the game or after (what players say to each other stays theirs).
* The spectators' room: everybody watching writes and reads it. Players do not see it,
  during the game or after, so nothing a spectator says can help a player.

Messages are plain text: control characters (and the bidirectional overrides that make
text read in another order than it is stored) are removed, line breaks become spaces,
and a message longer than :data:`MAX_CHARS` characters is refused, not cut. Nothing is
ever stored or sent as HTML; the page inserts it as text. Each author may send
``limits.RULES["chat"]`` messages (per seat, or per spectator's device) in the window.

A player may mute another seat: that seat's messages are no longer delivered to him
(nor sent in his history). Chat is off in games with a bot seat and in hot-seat games
(one screen for everybody): the page shows no chat box, and messages are refused.

Every process of a fleet delivers a message to its own connections in the room: the
process that stored it publishes it on the fan-out (kind ``chat``; mutes: ``chat_mute``).
A connection gets the room's last :data:`HISTORY` messages when it says hello (again
after a reconnect), as ``chat_history``.

A message says nothing but what its author typed, his seat and his name.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from sqlalchemy import Engine

from sudoku_arena.core.types import JsonDict
from sudoku_arena.server.db import chat as db
from sudoku_arena.server.db.chat import ChatMessage
from sudoku_arena.server.limits import RateLimits, TooManyRequests

if TYPE_CHECKING:  # the arena holds the chat; this module only reads the arena's parts
    from sudoku_arena.server.arena import Arena, Client
    from sudoku_arena.server.live import LiveGame

#: Longest message, in characters once cleaned.
MAX_CHARS = 300
#: Messages a connection gets when it says hello.
HISTORY = 50

PLAYERS, SPECTATORS = "players", "spectators"
#: Games whose mutes are cached before those no longer held are forgotten.
_KEEP_MUTES = 1000

# C0 and C1 controls, DEL, and the bidirectional embeddings, overrides and isolates.
_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
_BREAKS = re.compile("[\t\n\r\u2028\u2029]+")


class ChatRefused(Exception):
    """A chat message or mute the server will not take; ``code`` for programs,
    ``message`` for people (what was wrong, what is allowed)."""

    def __init__(self, code: str, message: str, retry_after: int | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.retry_after = retry_after


def clean_text(text: object) -> str:
    """``text`` as a chat message: controls removed, line breaks as spaces, trimmed.

    Raises :class:`ChatRefused` for anything but text, an empty message, or one longer
    than :data:`MAX_CHARS` characters (refused whole: a cut message may say something
    else)."""
    if not isinstance(text, str):
        raise ChatRefused("bad_message", "chat: text is a string of 1-300 characters")
    out = _CONTROLS.sub("", _BREAKS.sub(" ", text)).strip()
    if not out:
        raise ChatRefused("empty", "that message is empty: write some text")
    if len(out) > MAX_CHARS:
        raise ChatRefused(
            "too_long",
            f"a chat message is at most {MAX_CHARS} characters; this one has {len(out)}",
        )
    return out


def chat_off(lg: LiveGame) -> str | None:
    """Why chat is off in ``lg`` (``None``: it is on)."""
    if any(s.kind == "bot" for s in lg.seats):
        return "chat is off in games against bots"
    if lg.row.mode == "hotseat":
        return "chat is off in a hot-seat game: everybody plays at one screen"
    return None


def room_of(client: Client) -> str:
    """The room a connection belongs to: players hold a seat, spectators none."""
    return PLAYERS if client.seats else SPECTATORS


class Chat:
    """The chat of every game this process holds connections to."""

    def __init__(
        self,
        arena: Arena,
        limits: RateLimits | None = None,
        now: Callable[[], float] = time.time,
    ) -> None:
        self.arena = arena
        self.limits = limits if limits is not None else RateLimits()
        self.now = now
        self._mutes: dict[str, dict[int, set[int]]] = {}
        # The last messages of each room greeted here, kept as messages come (posted
        # here or told by the fan-out, as the mutes are): a connection's greeting
        # reads the database once per game and room, not once per connection.
        self._history: dict[tuple[str, str], list[ChatMessage]] = {}

    @property
    def _engine(self) -> Engine:
        return self.arena.storage.engine

    def created(self, game_id: str) -> None:
        """A game made by this process has no messages and no mutes yet: its first
        connections are greeted without reading the database (what comes later, here
        or through the fan-out, is kept as for any game held here)."""
        self._mutes[game_id] = {}
        for room in (PLAYERS, SPECTATORS):
            self._history[(game_id, room)] = []

    # -- a connection arrives --------------------------------------------------------------

    async def greet(self, lg: LiveGame, client: Client) -> None:
        """Send ``client`` its room's history (``chat_history``: ``enabled``, ``off``
        saying why not, ``room``, ``messages`` oldest first, ``muted``: the seats the
        client's seat mutes)."""
        off = chat_off(lg)
        room = room_of(client)
        out: JsonDict = {"type": "chat_history", "enabled": off is None, "off": off, "room": room}
        messages: list[JsonDict] = []
        muted: set[int] = set()
        if off is None:
            found = await self._history_of(lg.id, room)
            mutes = await self._mutes_of(lg.id)
            muted = self._muted_by(client, mutes)
            messages = [m.to_json() for m in found if m.seat is None or m.seat not in muted]
        out["messages"] = messages
        out["muted"] = sorted(muted)
        client.push(json.dumps(out))

    # -- a message ------------------------------------------------------------------------

    async def post(self, lg: LiveGame, client: Client, text: object) -> ChatMessage:
        """Store ``client``'s message in its room and deliver it on every process.

        Raises :class:`ChatRefused` (nothing stored): chat off, bad text, too many."""
        off = chat_off(lg)
        if off is not None:
            raise ChatRefused("chat_off", off)
        clean = clean_text(text)
        room = room_of(client)
        if room == PLAYERS:
            seat: int | None = client.seats[0]
            author = lg.seats[client.seats[0]].name
            key = f"{lg.id}:seat:{seat}"
        else:
            seat = None
            tag = (client.device or "")[:4]
            author = f"spectator {tag}".strip()
            key = f"{lg.id}:device:{client.device or 'none'}"
        try:
            await asyncio.to_thread(self.limits.hit, "chat", key)
        except TooManyRequests as exc:
            raise ChatRefused(
                "rate_limited",
                f"too many messages: wait {exc.retry_after} s before the next one",
                exc.retry_after,
            ) from None
        msg = await asyncio.to_thread(
            db.add_message, self._engine, lg.id, room, seat, author, clean, self.now()
        )
        self._remember(msg)
        await self.deliver(lg.id, msg)
        fanout = self.arena.fanout
        if fanout is not None:
            fanout.publish({"kind": "chat", "game": lg.id, "message": msg.to_json()})
        return msg

    async def deliver(self, game_id: str, msg: ChatMessage) -> None:
        """Push ``msg`` to this process's connections in its room, except players who
        mute its author."""
        mutes = await self._mutes_of(game_id)
        text = json.dumps({"type": "chat", **msg.to_json()})
        for c in list(self.arena.clients.get(game_id, ())):
            if room_of(c) != msg.room:
                continue
            if msg.seat is not None and msg.seat in self._muted_by(c, mutes):
                continue
            c.push(text)

    # -- mutes -----------------------------------------------------------------------------

    async def mute(self, lg: LiveGame, client: Client, seat: object, on: object) -> list[int]:
        """``client``'s seat mutes (``on``) or hears again ``seat``; returns the seats
        it now mutes. Only players mute, and only other players' seats."""
        off = chat_off(lg)
        if off is not None:
            raise ChatRefused("chat_off", off)
        if not client.seats:
            raise ChatRefused("forbidden", "only players mute; spectators may simply not read")
        if (
            isinstance(seat, bool)
            or not isinstance(seat, int)
            or not 0 <= seat < lg.num_players
            or seat in client.seats
        ):
            raise ChatRefused("bad_seat", "seat: the number of another player's seat")
        if not isinstance(on, bool):
            raise ChatRefused("bad_message", "mute: true to mute, false to hear again")
        me = client.seats[0]
        await asyncio.to_thread(db.set_mute, self._engine, lg.id, me, seat, on)
        mutes = await self._mutes_of(lg.id)
        mine = mutes.setdefault(me, set())
        if on:
            mine.add(seat)
        else:
            mine.discard(seat)
        if self.arena.fanout is not None:
            event = {"kind": "chat_mute", "game": lg.id, "seat": me, "muted": sorted(mine)}
            self.arena.fanout.publish(event)
        return sorted(mine)

    async def _mutes_of(self, game_id: str) -> dict[int, set[int]]:
        found = self._mutes.get(game_id)
        if found is None:
            if len(self._mutes) >= _KEEP_MUTES:  # forget the games no longer held here
                for gid in [g for g in self._mutes if g not in self.arena.games]:
                    del self._mutes[gid]
            found = await asyncio.to_thread(db.mutes, self._engine, game_id)
            self._mutes[game_id] = found
        return found

    async def _history_of(self, game_id: str, room: str) -> list[ChatMessage]:
        """The last :data:`HISTORY` messages of ``room``, oldest first."""
        key = (game_id, room)
        found = self._history.get(key)
        if found is None:
            if len(self._history) >= 2 * _KEEP_MUTES:  # forget the games no longer held here
                for k in [k for k in self._history if k[0] not in self.arena.games]:
                    del self._history[k]
            found = await asyncio.to_thread(db.history, self._engine, game_id, room, HISTORY)
            self._history[key] = found
        return found

    def _remember(self, msg: ChatMessage) -> None:
        """Add ``msg`` to its room's kept history, if kept here (in id order: the
        fan-out may tell two processes' messages in another order)."""
        kept = self._history.get((msg.game_id, msg.room))
        if kept is not None and all(m.id != msg.id for m in kept):
            kept.append(msg)
            kept.sort(key=lambda m: m.id)
            del kept[:-HISTORY]

    @staticmethod
    def _muted_by(client: Client, mutes: dict[int, set[int]]) -> set[int]:
        """The seats a connection does not hear: those every seat it holds mutes."""
        if not client.seats:
            return set()
        sets = [mutes.get(s, set()) for s in client.seats]
        return set.intersection(*sets)

    def forget(self, game_id: str) -> None:
        """Drop what is cached of a game that left memory."""
        self._mutes.pop(game_id, None)
        for room in (PLAYERS, SPECTATORS):
            self._history.pop((game_id, room), None)

    # -- the fan-out -------------------------------------------------------------------------

    async def on_event(self, event: JsonDict) -> None:
        """A chat event another process published (``chat`` or ``chat_mute``)."""
        gid = event.get("game")
        if not isinstance(gid, str):
            return
        if event.get("kind") == "chat" and isinstance(event.get("message"), dict):
            try:
                msg = ChatMessage.from_json(gid, event["message"])
            except (KeyError, TypeError, ValueError):
                return
            self._remember(msg)
            if gid in self.arena.clients:
                await self.deliver(gid, msg)
        elif event.get("kind") == "chat_mute":
            seat, muted = event.get("seat"), event.get("muted")
            if gid in self._mutes and isinstance(seat, int) and isinstance(muted, list):
                self._mutes[gid][seat] = {m for m in muted if isinstance(m, int)}
