"""Abandonment: a game with no move for ``abandon_after`` ends as abandoned, found by a
sweeper that runs in every process; the database decides, so a game that got a move
meanwhile goes on, and of several processes exactly one ends a game."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time
from typing import Any

import pytest

from sudoku_arena.cli.serve import parse_period
from sudoku_arena.core.record import Record
from sudoku_arena.core.verify import verify_record
from sudoku_arena.server.arena import Arena, SeatSpec, duration_words
from sudoku_arena.server.bots import BotRunner
from sudoku_arena.server.db.engine import Storage
from sudoku_arena.server.db.games import idle_games, load_game

IDLE = 0.4  # seconds without a move that count as abandoned here


def _arena(url: str, **kw: Any) -> Arena:
    # The background sweep is slowed right down: the tests sweep when they mean to.
    return Arena(
        Storage(url), bots=BotRunner(0), abandon_after=IDLE, timeout_sweep_seconds=3600, **kw
    )


def test_a_game_without_moves_ends_as_abandoned_and_a_moving_one_goes_on(db_url: str) -> None:
    async def run() -> None:
        arena = _arena(db_url)
        await arena.start()
        names = [SeatSpec("human", name="Ann"), SeatSpec("human", name="Bob")]
        idle, _ = await arena.create("tic-tac-sudoku", {}, names)
        busy, _ = await arena.create("tic-tac-sudoku", {}, names)
        await arena.act(idle, 0, 0, idle.view(0)["legal"][0])
        assert await arena.sweep_timeouts() == []  # nobody has been away long enough
        await asyncio.sleep(IDLE + 0.1)
        await arena.act(busy, 0, 0, busy.view(0)["legal"][0])  # just in time
        assert await arena.sweep_timeouts() == [idle.id]
        assert idle.over and not busy.over
        out = idle.outcome
        assert out is not None and out["code"] == "abandoned" and out["winners"] == []
        assert out["reason"].startswith("abandoned: no move for") and "Bob to move" in out["reason"]
        row = load_game(arena.storage.engine, idle.id)
        assert row is not None and row.status == "finished" and row.outcome == out
        verify_record(Record.from_json(idle.record_json()))
        await arena.stop()

    asyncio.run(run())


def test_a_move_stored_after_the_sweeper_looked_keeps_the_game_going(sqlite_url: str) -> None:
    async def run() -> None:
        arena = _arena(sqlite_url)
        await arena.start()
        lg, _ = await arena.create("tic-tac-sudoku", {}, [SeatSpec("human")] * 2)
        await asyncio.sleep(IDLE + 0.1)
        cutoff = time.time() - IDLE
        assert idle_games(arena.storage.engine, cutoff) == [lg.id]  # the sweeper sees it idle...
        await arena.act(lg, 0, 0, lg.view(0)["legal"][0])  # ...then a move comes
        assert not await arena.end_by_server(lg.id, time.time(), idle_before=cutoff)
        assert not lg.over and load_game(arena.storage.engine, lg.id).status == "active"  # type: ignore[union-attr]
        await arena.stop()

    asyncio.run(run())


def test_in_a_fleet_exactly_one_process_ends_an_abandoned_game(pg_url: str) -> None:
    async def run() -> None:
        a = _arena(pg_url)
        b = _arena(pg_url)
        await a.start()
        await b.start()
        lg, _ = await a.create("tic-tac-sudoku", {}, [SeatSpec("human")] * 2)
        theirs = await b.get(lg.id)
        assert theirs is not None
        await asyncio.sleep(IDLE + 0.1)
        ended = await asyncio.gather(a.sweep_timeouts(), b.sweep_timeouts())
        assert sorted(len(e) for e in ended) == [0, 1] and lg.id in ended[0] + ended[1]
        await a.refresh(lg)
        await b.refresh(theirs)
        assert lg.over and theirs.over and lg.outcome == theirs.outcome
        assert lg.outcome is not None and lg.outcome["code"] == "abandoned"
        await a.stop()
        await b.stop()

    asyncio.run(run())


@pytest.mark.parametrize(
    "text, seconds",
    [("36h", 36 * 3600.0), ("7d", 7 * 86400.0), ("90m", 5400.0), ("2", 7200.0), ("never", None)],
)
def test_abandon_after_reads_periods_in_words(text: str, seconds: float | None) -> None:
    assert parse_period(text) == seconds


def test_the_period_is_said_in_words() -> None:
    assert duration_words(7 * 86400) == "7 days"
    assert duration_words(36 * 3600) == "36 hours"
    assert duration_words(5400) == "90 minutes"
    assert duration_words(0.4) == "0.4 seconds"


@pytest.mark.parametrize("bad", ["soon", "-3h", "5x", "inf"])
def test_serve_refuses_a_bad_abandon_period(bad: str) -> None:
    with pytest.raises(ValueError, match=f"--abandon-after {bad}: not a period; allowed"):
        parse_period(bad)


def test_serve_says_so_in_one_line_without_a_traceback() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "sudoku_arena.cli.main", "serve", "--abandon-after", "soon"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode != 0 and "Traceback" not in run.stderr
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and "--abandon-after soon" in lines[0] and "allowed" in lines[0]
