"""One connection to a game (a WebSocket): the seats it acts for and its outbox.

Messages go out in order from one task per connection, so a slow client never holds up
a move or the other clients: the arena only queues (:meth:`Client.push`,
:meth:`Client.push_state`), and a client that stops reading is let go once
:data:`MAX_OUTBOX` messages wait for it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections import deque
from collections.abc import Awaitable, Callable

import orjson

from sudoku_arena.core.types import JsonDict
from sudoku_arena.server.live import LiveGame

_STATE_PREFIX = '{"type":"state",'
#: Messages queued for one client before it counts as gone (it does not read).
MAX_OUTBOX = 256
#: Queued after everything else by :meth:`Client.close` (compared by identity).
_CLOSE = "\x00close"


class Client:
    """One connection: the seats it may act for (none: a spectator) and its outbox.

    Messages go out in order from one task per client. A pending position push is kept
    once in the queue and built when it is sent, so a slow client skips positions it
    has not yet received instead of piling them up (the log stays complete: it is sent
    from the last entry the client has).
    """

    def __init__(
        self,
        send: Callable[[str], Awaitable[None]],
        close: Callable[[int], Awaitable[None]] | None = None,
    ) -> None:
        self._send = send
        self._close = close  # closes the connection with a code
        self._close_code = 1000
        self.close_sent = False
        self.game: LiveGame | None = None
        self.seats: list[int] = []
        #: The token hash each seat was taken with, and the sha256 of the device's own
        #: token (``None``: a client that sent none): a seat whose link is re-issued or
        #: moved to another device is taken away (:meth:`Seating.enforce`).
        self.auth: dict[int, str | None] = {}
        self.device: str | None = None
        self.want_svg = True  # False for clients that do not draw (bots, scripts)
        self.sent: dict[int | None, int] = {}  # observer -> log entries delivered
        self.versions: dict[int | None, int] = {}  # observer -> game version delivered
        self._out: deque[str | None] = deque()
        self._acks: list[tuple[int, JsonDict]] = []
        self._state_queued = False
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self.closed = False

    def observers(self) -> list[int | None]:
        return list(self.seats) if self.seats else [None]

    def start(self) -> None:
        self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        self.closed = True
        self._wake.set()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task

    async def close(self, code: int, timeout: float = 5.0) -> None:
        """Send everything queued, then close the connection with ``code`` (once)."""
        if self.close_sent or self._close is None:
            return
        self._close_code = code
        task = self._task
        if task is None or task.done():
            await self._close_now()
            return
        self._out.append(_CLOSE)
        self._wake.set()
        await asyncio.wait([task], timeout=timeout)
        await self._close_now()  # the outbox never emptied (a client not reading)

    async def _close_now(self) -> None:
        if self.close_sent or self._close is None:
            return
        self.close_sent = True
        with contextlib.suppress(Exception):  # gone already
            await self._close(self._close_code)

    def push(self, text: str) -> None:
        if len(self._out) >= MAX_OUTBOX:  # not reading its messages: let it go
            self.closed = True
        self._out.append(text)
        self._wake.set()

    def push_state(self) -> None:
        if not self._state_queued:
            self._state_queued = True
            self._out.append(None)
            self._wake.set()

    def ack(self, seat: int, msg_id: object, ply: int, next_ply: int) -> None:
        """Acknowledge a stored action of ``seat``: the ``ack`` field of the next
        position sent for that seat (one frame, not two), else an ``ack`` message."""
        self._acks.append((seat, {"id": msg_id, "ply": ply, "next_ply": next_ply}))
        self.push_state()

    def resync(self) -> None:
        """Send the whole position and log again (after a refusal, or on request)."""
        self.sent = {}
        self.versions = {}
        self.push_state()

    async def _run(self) -> None:
        while not self.closed:
            await self._wake.wait()
            self._wake.clear()
            while self._out and not self.closed:
                item = self._out.popleft()
                try:
                    if item is _CLOSE:
                        await self._close_now()
                        return
                    if item is None:
                        self._state_queued = False
                        await self._send_states()
                    else:
                        await self._send(item)
                except Exception:
                    self.closed = True
                    return

    async def _send_states(self) -> None:
        g = self.game
        if g is None:
            return
        acks, self._acks = self._acks, []
        for obs in self.observers():
            have = self.sent.get(obs, -1)
            if have == g.ply and self.versions.get(obs) == g.version:
                continue
            # A device holding several seats is a shared screen (hot seat).
            shared = len(self.seats) > 1
            text = g.state_message(obs, max(have, 0), self.want_svg, shared)
            self.sent[obs] = g.ply
            self.versions[obs] = g.version
            mine = [a for seat, a in acks if seat == obs]
            if mine and text.startswith(_STATE_PREFIX):
                acks = [(seat, a) for seat, a in acks if seat != obs]
                ack = orjson.dumps(mine[-1]).decode()
                text = f'{_STATE_PREFIX}"ack":{ack},{text[len(_STATE_PREFIX) :]}'
            if g.clock is not None and text.startswith(_STATE_PREFIX):
                # Clients count the clocks down from the server's time, not their own.
                now = orjson.dumps(time.time()).decode()
                text = f'{_STATE_PREFIX}"server_time":{now},{text[len(_STATE_PREFIX) :]}'
            await self._send(text)
        for _seat, a in acks:
            await self._send(json.dumps({"type": "ack", **a}))
