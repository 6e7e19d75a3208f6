"""Fan-out between server processes that share one database, over Redis pub/sub.

Every process publishes what it committed (new log entries of a game, a rematch) on one
channel; every other process applies the entries to its copy of the game, if it holds
one, and pushes the new position to its own connections. A process that sees a gap
(missed messages) reloads the game from the database, so Redis is only a fast path:
the database stays the truth.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import uuid
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from sudoku_arena.core.types import JsonDict

if TYPE_CHECKING:  # redis is imported when fan-out starts, not with the server
    from redis.asyncio import Redis

log = logging.getLogger("sudoku_arena.server")

Handler = Callable[[JsonDict], Awaitable[None]]


class RedisFanout:
    """Publish and receive game events on a Redis channel."""

    def __init__(self, url: str, channel: str = "sudoku-arena") -> None:
        self.url = url
        self.channel = channel
        self.origin = uuid.uuid4().hex
        self._redis: Redis | None = None
        self._task: asyncio.Task[None] | None = None
        self._sender: asyncio.Task[None] | None = None
        self._outbox: asyncio.Queue[str] = asyncio.Queue()
        self._ready = asyncio.Event()
        self._sending = False

    async def start(self, handler: Handler) -> None:
        import redis.asyncio as aioredis

        self._redis = aioredis.from_url(self.url)
        self._task = asyncio.create_task(self._listen(handler))
        self._sender = asyncio.create_task(self._send())
        await asyncio.wait_for(self._ready.wait(), timeout=10)

    async def flush(self, timeout: float = 2.0) -> None:
        """Wait until every event published so far is sent (at most ``timeout`` s)."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while (not self._outbox.empty() or self._sending) and loop.time() < end:
            if self._sender is None or self._sender.done():
                return
            await asyncio.sleep(0.005)

    async def stop(self) -> None:
        await self.flush()  # what this process stored last reaches the others
        for task in (self._task, self._sender):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        self._task = self._sender = None
        if self._redis is not None:
            await self._redis.aclose()
            self._redis = None

    def _client(self) -> Redis:
        if self._redis is None:
            raise RuntimeError("fan-out is not started")
        return self._redis

    def publish(self, event: JsonDict) -> None:
        """Queue ``event``; one task sends the queue in order, many per round trip."""
        if self._redis is None:
            return
        self._outbox.put_nowait(json.dumps({**event, "origin": self.origin}, separators=(",", ":")))

    async def _send(self) -> None:
        while True:
            batch = [await self._outbox.get()]
            while not self._outbox.empty() and len(batch) < 500:
                batch.append(self._outbox.get_nowait())
            self._sending = True
            try:
                pipe = self._client().pipeline(transaction=False)
                for data in batch:
                    pipe.publish(self.channel, data)
                await pipe.execute()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the database has it all; others catch up on reload
                log.warning("fan-out: publish failed: %s", exc)
                await asyncio.sleep(0.2)
            finally:
                self._sending = False

    async def _listen(self, handler: Handler) -> None:
        while True:
            try:
                pubsub = self._client().pubsub()
                await pubsub.subscribe(self.channel)
                self._ready.set()
                async for message in pubsub.listen():
                    if message.get("type") != "message":
                        continue
                    try:
                        event = json.loads(message["data"])
                    except (TypeError, ValueError):
                        continue
                    if event.get("origin") == self.origin:
                        continue
                    try:
                        await handler(event)
                    except Exception:
                        log.exception("fan-out: handling %s failed", event.get("kind"))
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("fan-out: connection lost (%s); reconnecting", exc)
                await asyncio.sleep(0.5)
