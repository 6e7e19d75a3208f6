"""Rate limits: how often one IP address or account may do a thing, with the ``limits``
library (a moving window), counted in Redis when a fleet shares one (so the limits hold
across processes) and in memory otherwise.

Rules are named (``RULES``); a caller asks :meth:`RateLimits.hit` with the rule and a
key (``ip:1.2.3.4``, ``account:7``) and gets :class:`TooManyRequests` with the seconds
to wait once the window is full. The HTTP layer answers that with 429 and Retry-After.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping

from limits import RateLimitItem, parse
from limits.storage import MemoryStorage, storage_from_string
from limits.strategies import MovingWindowRateLimiter

#: Default rules: ``limits`` notation ("N/period"). A server can override any of them.
RULES: dict[str, str] = {
    "signup": "10/hour",  # accounts made from one address
    "signin": "30/minute",  # sign-in attempts from one address
    "signin_fail": "10/15minutes",  # wrong passwords for one account name or address
    "create": "60/minute",  # games made by one address
    "seek": "60/minute",
    "chat": "20/minute",  # messages one player sends in one game
    "socket": "120/minute",  # WebSocket connections opened from one address
}


#: Seconds between two sweeps of the expired entries of the in-process counters.
SWEEP_SECONDS = 1.0


class _LoopMemory(MemoryStorage):
    """The library's in-process storage, without its timer thread.

    The library starts a ``threading.Timer`` on each hit to sweep expired entries 10 ms
    later, and ``Thread.start`` waits until the new thread runs: on a busy machine that
    held the event loop for milliseconds on every WebSocket connection and game
    creation (under load, a tenth of the loop's time at 500 clients). The moving window
    reads the entries' times, so an entry not yet swept never counts: here the hits
    themselves sweep, at most once every :data:`SWEEP_SECONDS`, and no thread is made.
    """

    _swept = 0.0

    # Replaces the library's private ``__schedule_expiry`` (called on every hit).
    def _MemoryStorage__schedule_expiry(self) -> None:
        now = time.monotonic()
        if now - self._swept >= SWEEP_SECONDS:
            self._swept = now
            self._MemoryStorage__expire_events()  # type: ignore[attr-defined]


class TooManyRequests(Exception):
    """The rule's window is full for this key: wait ``retry_after`` seconds."""

    def __init__(self, rule: str, retry_after: int) -> None:
        super().__init__(f"too many requests ({rule}): try again in {retry_after} s")
        self.rule = rule
        self.retry_after = retry_after


class RateLimits:
    """Named moving-window limits, in Redis (``redis_url``) or in this process."""

    def __init__(
        self,
        redis_url: str | None = None,
        rules: Mapping[str, str] | None = None,
        *,
        enabled: bool = True,
        prefix: str = "LIMITS",
    ) -> None:
        """``prefix`` names the counters in Redis: the processes of one fleet share it
        (the ``serve`` command's ``--channel``), another fleet on the same Redis does not."""
        self.enabled = enabled
        self._items: dict[str, RateLimitItem] = {
            name: parse(text) for name, text in {**RULES, **(rules or {})}.items()
        }
        if redis_url:
            self._storage = storage_from_string(redis_url, key_prefix=prefix)
        else:
            self._storage = _LoopMemory()
        self._limiter = MovingWindowRateLimiter(self._storage)

    def hit(self, rule: str, key: str) -> None:
        """Count one ``rule`` event for ``key``; raises :class:`TooManyRequests`
        (nothing counted) when the window is already full."""
        if not self.enabled:
            return
        item = self._items[rule]
        if not self._limiter.hit(item, rule, key):
            raise TooManyRequests(rule, self.retry_after(rule, key))

    def check(self, rule: str, key: str) -> None:
        """Raise :class:`TooManyRequests` if ``rule`` is full for ``key``, counting
        nothing (e.g. before checking a password, whose failures alone count)."""
        if not self.enabled:
            return
        if not self._limiter.test(self._items[rule], rule, key):
            raise TooManyRequests(rule, self.retry_after(rule, key))

    def used(self, rule: str, key: str) -> int:
        """How many ``rule`` events ``key`` has in the window now (0 when disabled)."""
        if not self.enabled:
            return 0
        item = self._items[rule]
        stats = self._limiter.get_window_stats(item, rule, key)
        return max(0, item.amount - stats.remaining)

    def retry_after(self, rule: str, key: str) -> int:
        stats = self._limiter.get_window_stats(self._items[rule], rule, key)
        return max(1, math.ceil(stats.reset_time - time.time()))

    def reset(self) -> None:
        """Forget every count (tests, and an operator's command)."""
        self._storage.reset()
