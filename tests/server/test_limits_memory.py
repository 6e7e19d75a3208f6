"""The in-process rate limits (no Redis) start no thread on a hit, yet keep counting a
moving window and forget old entries.

The library's own in-process storage started a timer thread on every hit and waited for
it to run, which held the server's event loop on every WebSocket connection and game
creation; the server's storage sweeps from the hits instead."""

from __future__ import annotations

from typing import Any

import pytest
from limits.storage import memory

from sudoku_arena.server import limits as limits_module
from sudoku_arena.server.limits import SWEEP_SECONDS, RateLimits, TooManyRequests


class _Clock:
    """Stands for the ``time`` module of the library's storage and of ``limits.py``."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def time(self) -> float:
        return self.now

    def monotonic(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> _Clock:
    fake = _Clock()
    monkeypatch.setattr(memory, "time", fake)
    monkeypatch.setattr(limits_module, "time", fake)
    return fake


def _no_thread(*args: Any, **kwargs: Any) -> Any:
    raise AssertionError("a rate limit hit started a thread")


def test_a_hit_starts_no_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    limits = RateLimits(rules={"socket": "1000/minute"})
    stored = limits._storage
    assert isinstance(stored, memory.MemoryStorage)
    stored.timer.join()  # the one the library starts when made; a hit would start another
    monkeypatch.setattr("limits.storage.memory.threading.Timer", _no_thread)
    for n in range(200):
        limits.hit("socket", f"ip:10.0.0.{n % 7}")
    assert limits.used("socket", "ip:10.0.0.0") == 29


def test_the_window_holds_then_moves_on(clock: _Clock) -> None:
    limits = RateLimits(rules={"create": "3/minute"})
    for _ in range(3):
        limits.hit("create", "ip:1.2.3.4")
        clock.now += 10
    with pytest.raises(TooManyRequests) as refused:
        limits.hit("create", "ip:1.2.3.4")
    assert refused.value.retry_after == 30  # the first hit leaves the window 60 s after it
    limits.hit("create", "ip:5.6.7.8")  # another address is counted apart
    clock.now += 31
    limits.hit("create", "ip:1.2.3.4")  # the first hit has left the window
    assert limits.used("create", "ip:1.2.3.4") == 3


def test_old_entries_are_swept_by_later_hits(clock: _Clock) -> None:
    limits = RateLimits(rules={"socket": "100/minute"})
    for _ in range(50):
        limits.hit("socket", "ip:1.2.3.4")
    limits.hit("socket", "ip:9.9.9.9")
    stored = limits._storage
    assert isinstance(stored, memory.MemoryStorage)
    assert len(stored.events["LIMITER/socket/ip:1.2.3.4/100/1/minute"]) == 50
    clock.now += 61 + SWEEP_SECONDS
    limits.hit("socket", "ip:9.9.9.9")  # this hit sweeps every key's expired entries
    assert not stored.events.get("LIMITER/socket/ip:1.2.3.4/100/1/minute")
    assert len(stored.events["LIMITER/socket/ip:9.9.9.9/100/1/minute"]) == 1
