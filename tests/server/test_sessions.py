"""The sessions a process keeps in memory (server/sessions.py): used until they expire
or are ended, ended at once here and, through the fan-out's events, elsewhere; a read
begun before a session ended is not kept."""

from __future__ import annotations

import time

from sudoku_arena.core.types import JsonDict
from sudoku_arena.server.db.accounts import SessionRow
from sudoku_arena.server.sessions import KIND, SessionCache


def _row(sid: str, account: int | None = 1, expires: float | None = None) -> SessionRow:
    now = time.time()
    return SessionRow(sid, account, "csrf", now + 3600 if expires is None else expires, now, "ann")


def test_a_kept_session_is_used_until_its_time_or_its_expiry() -> None:
    cache = SessionCache(keep_seconds=60)
    cache.keep(_row("a"), cache.epoch)
    cache.keep(_row("b", expires=time.time() + 1), cache.epoch)
    assert cache.get("a") is not None and cache.get("b") is not None
    later = time.time() + 2
    assert cache.get("a", later) is not None
    assert cache.get("b", later) is None  # the session itself expired
    assert cache.get("a", time.time() + 61) is None  # kept long enough: read again
    assert cache.get("unknown") is None


def test_ended_sessions_go_here_and_are_told_to_the_fleet() -> None:
    told: list[JsonDict] = []
    cache = SessionCache(told.append, keep_seconds=60)
    for sid, account in (("a", 1), ("b", 1), ("c", 1), ("d", 2)):
        cache.keep(_row(sid, account), cache.epoch)
    cache.ended(["a"])
    assert cache.get("a") is None and cache.get("b") is not None
    cache.ended_of(1, keep="c")  # a new password: every other session of account 1
    assert cache.get("b") is None and cache.get("c") is not None and cache.get("d") is not None
    assert told == [
        {"kind": KIND, "sessions": ["a"]},
        {"kind": KIND, "account": 1, "keep": "c"},
    ]
    # Another process hears it: the same sessions end there, nothing is told again.
    other: list[JsonDict] = []
    there = SessionCache(other.append, keep_seconds=60)
    for sid, account in (("a", 1), ("b", 1), ("c", 1), ("d", 2)):
        there.keep(_row(sid, account), there.epoch)
    for event in told:
        there.on_event(event)
    assert [s for s in "abcd" if there.get(s) is not None] == ["c", "d"]
    assert other == []
    there.on_event({"kind": KIND, "account": 2})
    assert there.get("d") is None
    there.on_event({"kind": KIND, "sessions": "not a list", "account": "x"})  # ignored


def test_a_read_begun_before_a_session_ended_is_not_kept() -> None:
    cache = SessionCache(keep_seconds=60)
    epoch = cache.epoch  # a request starts reading session "a" from the database...
    cache.ended(["a"])  # ...meanwhile "a" signs out here
    cache.keep(_row("a"), epoch)  # the read comes back with the row as it was
    assert cache.get("a") is None
    cache.keep(_row("a"), cache.epoch)
    assert cache.get("a") is not None


def test_nothing_is_kept_when_keeping_is_off() -> None:
    cache = SessionCache(keep_seconds=0)
    cache.keep(_row("a"), cache.epoch)
    assert cache.get("a") is None
