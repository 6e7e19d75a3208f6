"""Correspondence games: days per move on the same clocks as chess clocks. Each turn
gives the full days again, the deadline is stored with each move, so the game waits
across restarts and the sweeper ends it on time once a player's days ran out. Time is
injected: nothing here waits for a clock."""

from __future__ import annotations

import asyncio

import pytest
from fastapi.testclient import TestClient

from sudoku_arena.core.errors import InvalidParameterError
from sudoku_arena.server import ServerConfig, create_app
from sudoku_arena.server.arena import Arena, SeatSpec
from sudoku_arena.server.bots import BotRunner
from sudoku_arena.server.clock import DAY, Clock, TimeControl
from sudoku_arena.server.db.engine import Storage

T0 = 1_800_000_000.0


class FakeTime:
    def __init__(self, t: float = T0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


def test_each_turn_gives_the_full_days_and_time_does_not_carry_over() -> None:
    c = Clock.new(TimeControl(days=2), 2)
    assert c.left == (2 * DAY, 2 * DAY) and c.deadline() is None
    c = c.after({0}, {1}, T0, over=False)
    assert c.deadline() == T0 + 2 * DAY
    c = c.after({1}, {0}, T0 + 1.5 * DAY, over=False)  # seat 1 used 1.5 days: no carry
    assert c.left == (2 * DAY, 2 * DAY) and c.since == (T0 + 1.5 * DAY, None)
    assert c.flagged(T0 + 3.5 * DAY - 1) is None and c.flagged(T0 + 3.5 * DAY) == 0
    ended = c.after({0}, {1}, T0 + 2 * DAY, over=True)  # the clocks stop as they are
    assert ended.since == (None, None) and ended.left == (1.5 * DAY, 2 * DAY)
    assert Clock.from_json(c.to_json()) == c and c.to_json()["days"] == 2


def test_a_simultaneous_turn_keeps_running_for_the_seat_still_to_move() -> None:
    c = Clock.new(TimeControl(days=1), 3).after({0}, {0, 1, 2}, T0, over=False)
    c = c.after({1}, {0, 2}, T0 + 3600, over=False)
    # Seats 0 and 2 are still on the same turn: an hour of it is gone; seat 1 waits.
    assert c.left == (DAY - 3600, DAY, DAY - 3600) and c.since == (T0 + 3600, None, T0 + 3600)


@pytest.mark.parametrize("days", [0, 15])
def test_days_out_of_bounds_are_refused(days: int) -> None:
    with pytest.raises(InvalidParameterError, match="1 to 14 days"):
        TimeControl(days=days) if days else TimeControl(0, 0, -1)


def test_the_create_body_takes_days_and_refuses_too_many(sqlite_url: str) -> None:
    with TestClient(create_app(ServerConfig(database_url=sqlite_url, bot_workers=0))) as c:
        made = c.post("/api/matches", json={"game": "tic-tac-sudoku", "clock": {"days": 3}})
        assert made.status_code == 201, made.text
        assert made.json()["game"]["clock"]["words"] == "3 days per move"
        listed = c.post(
            "/api/matches",
            json={"game": "tic-tac-sudoku", "clock": {"days": 3}, "visibility": "public"},
        )
        assert listed.status_code == 201
        page = c.get("/api/matches").json()["games"]
        assert page[0]["clock"] == "3 days per move"
        bad = c.post("/api/matches", json={"game": "tic-tac-sudoku", "clock": {"days": 15}})
        assert bad.status_code == 400 and "days" in bad.text


def test_the_game_waits_across_a_restart_and_ends_when_the_days_run_out(db_url: str) -> None:
    now = FakeTime()

    def arena() -> Arena:
        return Arena(Storage(db_url), bots=BotRunner(0), now=now, timeout_sweep_seconds=3600)

    async def first() -> str:
        a = arena()
        await a.start()
        lg, _ = await a.create(
            "tic-tac-sudoku", {}, [SeatSpec("human")] * 2, time_control=TimeControl(days=3)
        )
        await a.act(lg, 0, 0, lg.view(0)["legal"][0])  # T0: seat 1 has 3 days
        await a.stop()
        return lg.id

    gid = asyncio.run(first())

    async def after_restart() -> None:
        now.t = T0 + 2 * DAY  # two days later, another server process
        a = arena()
        await a.start()
        lg = await a.get(gid)
        assert lg is not None and lg.clock is not None
        assert lg.clock.remaining(1, now()) == DAY
        assert await a.sweep_timeouts() == []
        await a.act(lg, 1, 1, lg.view(1)["legal"][0])  # in time: seat 0 gets 3 days
        assert lg.clock.remaining(0, now()) == 3 * DAY
        now.t = T0 + 5 * DAY  # seat 0's three days are over
        assert await a.sweep_timeouts() == [gid]
        assert lg.over and lg.outcome is not None and lg.outcome["winners"] == [1]
        assert lg.outcome["code"] == "time"
        await a.stop()

    asyncio.run(after_restart())


def test_a_correspondence_game_is_not_abandoned_while_its_clock_runs(sqlite_url: str) -> None:
    """The server ends games nobody moved in for a week; a game with 14 days per move
    waits for its clock instead."""
    now = FakeTime()

    async def run() -> None:
        a = Arena(
            Storage(sqlite_url),
            bots=BotRunner(0),
            now=now,
            timeout_sweep_seconds=3600,
            abandon_after=7 * DAY,
        )
        await a.start()
        lg, _ = await a.create(
            "tic-tac-sudoku", {}, [SeatSpec("human")] * 2, time_control=TimeControl(days=14)
        )
        untouched, _ = await a.create("tic-tac-sudoku", {}, [SeatSpec("human")] * 2)
        await a.act(lg, 0, 0, lg.view(0)["legal"][0])
        now.t = T0 + 10 * DAY
        assert await a.sweep_timeouts() == [untouched.id]  # a week idle: abandoned
        assert not lg.over
        now.t = T0 + 14 * DAY
        assert await a.sweep_timeouts() == [lg.id]
        assert lg.outcome is not None and lg.outcome["code"] == "time"
        await a.stop()

    asyncio.run(run())


def test_the_match_info_says_the_days_per_move(sqlite_url: str) -> None:
    with TestClient(create_app(ServerConfig(database_url=sqlite_url, bot_workers=0))) as c:
        made = c.post("/api/matches", json={"game": "tic-tac-sudoku", "clock": {"days": 3}})
        info = c.get(f"/api/matches/{made.json()['id']}").json()
        assert info["clock"] == {
            "minutes": 0,
            "increment": 0,
            "days": 3,
            "words": "3 days per move",
        }
        timed = c.post("/api/matches", json={"game": "tic-tac-sudoku", "clock": {"minutes": 5}})
        assert c.get(f"/api/matches/{timed.json()['id']}").json()["clock"]["days"] == 0
