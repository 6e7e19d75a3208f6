"""Clocks: minutes plus an increment, kept by the server with each move, a loss on time,
bots' time counted, and every clock right after a restart (computed from the stored
timestamps) on SQLite and PostgreSQL. Time is injected: nothing here waits for a clock."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest
from arena_helpers import LiveServer, Player, create

from sudoku_arena.core.errors import InvalidParameterError
from sudoku_arena.core.record import Record
from sudoku_arena.core.verify import verify_record
from sudoku_arena.server.arena import Arena, SeatSpec
from sudoku_arena.server.bots import BotRunner
from sudoku_arena.server.clock import Clock, TimeControl
from sudoku_arena.server.db.engine import GameOver, Storage
from sudoku_arena.server.db.games import EndGame, action_count, load_game, out_of_time
from sudoku_arena.server.live import ActionRefused

T0 = 1_800_000_000.0


class FakeTime:
    """The time an arena's clocks read: set by the test."""

    def __init__(self, t: float = T0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


def _arena(url: str, now: FakeTime, **kw: Any) -> Arena:
    # The sweeper's own loop is slowed right down: the tests sweep when they mean to.
    return Arena(Storage(url), bots=BotRunner(0), now=now, timeout_sweep_seconds=3600, **kw)


# -- the clock itself --------------------------------------------------------------------


def test_clocks_start_with_the_first_move_and_add_the_increment() -> None:
    c = Clock.new(TimeControl(1, 2), 2)
    assert c.deadline() is None and c.flagged(T0 + 10_000) is None  # nothing runs yet
    c = c.after({0}, {1}, T0, over=False)  # the first move took no time
    assert c.left == (62.0, 60.0) and c.since == (None, T0)
    assert c.remaining(1, T0 + 15) == 45.0 and c.deadline() == T0 + 60
    c = c.after({1}, {0}, T0 + 15, over=False)
    assert c.left == (62.0, 47.0) and c.since == (T0 + 15, None)
    assert c.flagged(T0 + 15 + 61.9) is None and c.flagged(T0 + 15 + 62) == 0
    stopped = c.after({0}, {1}, T0 + 20, over=True)
    assert stopped.since == (None, None) and stopped.left == (59.0, 47.0)
    assert Clock.from_json(c.to_json()) == c


def test_in_a_simultaneous_phase_every_seat_to_move_runs() -> None:
    c = Clock.new(TimeControl(1), 3).after({0}, {0, 1, 2}, T0, over=False)
    c = c.after({1}, {0, 2}, T0 + 10, over=False)
    assert c.left == (50.0, 50.0, 50.0) and c.since == (T0 + 10, None, T0 + 10)


@pytest.mark.parametrize("minutes, increment", [(0, 0), (601, 0), (5, -1), (5, 601)])
def test_a_time_control_out_of_bounds_is_refused(minutes: float, increment: float) -> None:
    with pytest.raises(InvalidParameterError, match="allowed"):
        TimeControl(minutes, increment)


# -- the server ----------------------------------------------------------------------------


def test_the_clock_survives_a_restart_and_the_player_out_of_time_loses(db_url: str) -> None:
    now = FakeTime()

    async def first() -> str:
        arena = _arena(db_url, now)
        await arena.start()
        lg, _ = await arena.create(
            "tic-tac-sudoku", {}, [SeatSpec("human")] * 2, time_control=TimeControl(1, 2)
        )
        await arena.act(lg, 0, 0, lg.view(0)["legal"][0])  # T0: seat 1's clock starts
        now.t = T0 + 10
        await arena.act(lg, 1, 1, lg.view(1)["legal"][0])  # seat 1 used 10 s, gets 2
        assert lg.clock is not None and lg.clock.left == (62.0, 52.0)
        await arena.stop()
        return lg.id

    gid = asyncio.run(first())

    async def after_restart() -> None:
        now.t = T0 + 40  # the server was down for a while: seat 0's clock ran on
        arena = _arena(db_url, now)
        await arena.start()
        lg = await arena.get(gid)
        assert lg is not None and lg.clock is not None
        assert lg.clock.remaining(0, now()) == 32.0 and lg.clock.remaining(1, now()) == 52.0
        assert await arena.sweep_timeouts() == []  # nobody is out of time yet
        now.t = T0 + 10 + 62  # seat 0's flag falls
        assert await arena.sweep_timeouts() == [gid]
        assert lg.over and lg.outcome is not None
        assert lg.outcome["code"] == "time" and lg.outcome["winners"] == [1]
        assert "ran out of time" in lg.outcome["reason"]
        row = load_game(arena.storage.engine, gid)
        assert row is not None and row.status == "finished" and row.outcome == lg.outcome
        assert row.clock is not None and row.clock["since"] == [None, None]
        assert out_of_time(arena.storage.engine, now() + 1000) == []
        verify_record(Record.from_json(lg.record_json()))
        await arena.stop()

    asyncio.run(after_restart())


def test_a_move_after_the_flag_fell_is_refused_and_ends_the_game(sqlite_url: str) -> None:
    now = FakeTime()

    async def run() -> None:
        arena = _arena(sqlite_url, now)
        await arena.start()
        lg, _ = await arena.create(
            "tic-tac-sudoku", {}, [SeatSpec("human")] * 2, time_control=TimeControl(0.5)
        )
        await arena.act(lg, 0, 0, lg.view(0)["legal"][0])
        now.t = T0 + 31  # seat 1 had 30 s
        with pytest.raises(ActionRefused, match="ran out of time") as refused:
            await arena.act(lg, 1, 1, lg.view(1)["legal"][0])
        assert refused.value.code == "game_over"
        assert lg.over and lg.outcome is not None and lg.outcome["winners"] == [0]
        assert action_count(arena.storage.engine, lg.id) == 1  # the late move was not stored
        await arena.stop()

    asyncio.run(run())


def test_a_bots_thinking_time_counts(sqlite_url: str) -> None:
    now = FakeTime()

    async def run() -> None:
        arena = Arena(
            Storage(sqlite_url),
            bots=BotRunner(0),
            now=now,
            timeout_sweep_seconds=3600,
            bot_delay=0.3,
        )
        await arena.start()
        lg, _ = await arena.create(
            "tic-tac-sudoku",
            {},
            [SeatSpec("human"), SeatSpec("bot", "random")],
            time_control=TimeControl(1),
        )
        await arena.act(lg, 0, 0, lg.view(0)["legal"][0])
        now.t = T0 + 20  # the bot is still thinking (at least 0.3 s): 20 s pass for it
        for _ in range(200):
            if lg.ply >= 2:
                break
            await asyncio.sleep(0.02)
        assert lg.ply == 2 and lg.clock is not None
        assert lg.clock.left == (60.0, 40.0) and lg.clock.since == (T0 + 20, None)
        await arena.stop()

    asyncio.run(run())


def test_only_the_database_decides_a_loss_on_time_in_a_fleet(pg_url: str) -> None:
    """A process whose copy is behind (it missed a move that gave the player more time)
    cannot end the game on time: the stored deadline moved."""
    now = FakeTime()

    async def run() -> None:
        a = _arena(pg_url, now)
        b = _arena(pg_url, now)
        await a.start()
        await b.start()
        lg, _ = await a.create(
            "tic-tac-sudoku", {}, [SeatSpec("human")] * 2, time_control=TimeControl(1, 30)
        )
        await a.act(lg, 0, 0, lg.view(0)["legal"][0])
        theirs = await b.get(lg.id)
        assert theirs is not None
        now.t = T0 + 50
        await a.act(lg, 1, 1, lg.view(1)["legal"][0])  # b has not heard: no fan-out
        now.t = T0 + 50 + 61
        flag = theirs.flag_ending(now())
        assert flag is not None and flag[0].winners == (0,)  # b's stale copy: seat 1 is out
        with pytest.raises(ActionRefused, match="first"):
            async with theirs.lock:
                await b.write_end(theirs, theirs.prepare_end(flag[0], flag[1], flag_at=now()))
        assert not theirs.over and theirs.ply == 2  # refused, and b caught up
        # At the right ply too, the stored deadline (seat 0's 90 s) decides.
        with pytest.raises(GameOver):
            b.storage.write_sync(EndGame(lg.id, 2, flag[0].to_json(), flag_at=now()))
        now.t = T0 + 50 + 90  # now seat 0 (90 s) is really out of time: one process ends it
        results = await asyncio.gather(a.end_by_server(lg.id, now()), b.sweep_timeouts())
        assert [bool(results[0]), bool(results[1])].count(True) == 1
        row = load_game(a.storage.engine, lg.id)
        assert row is not None and row.outcome is not None and row.outcome["winners"] == [1]
        await a.stop()
        await b.stop()

    asyncio.run(run())


def test_clocks_are_sent_with_every_position(server: LiveServer) -> None:
    made = create(server.url, clock={"minutes": 5, "increment": 2})
    assert made["game"]["clock"] == {
        "minutes": 5.0,
        "increment": 2.0,
        "days": 0,  # a chess clock, not days per move
        "words": "5 min + 2 s",
    }
    tokens = [s["token"] for s in made["seats"]]
    p0 = Player(server.ws_url, made["id"], [tokens[0]])
    st = p0.state[0]
    assert st["clock"]["left"] == [300.0, 300.0] and st["clock"]["since"] == [None, None]
    assert isinstance(st["server_time"], float)
    assert p0.act(st["view"]["legal"][0], 0)["type"] == "ack"
    st = p0.wait_ply(1)
    assert st["clock"]["left"] == [302.0, 300.0]  # the first move is free, plus 2 s
    assert st["clock"]["since"][0] is None and st["clock"]["since"][1] <= st["server_time"]
    http = httpx.get(
        f"{server.url}/api/matches/{made['id']}/state",
        headers={"authorization": f"Bearer {tokens[1]}"},
        timeout=10,
    ).json()
    assert (
        http["clock"]["left"] == [302.0, 300.0] and http["server_time"] >= http["clock"]["since"][1]
    )
    bad = httpx.post(
        server.url + "/api/matches",
        json={"game": "tic-tac-sudoku", "clock": {"minutes": 0}},
        timeout=10,
    )
    assert bad.status_code == 400 and "clock.minutes" in bad.json()["error"]["message"]
    untimed = Player(server.ws_url, create(server.url)["id"])
    assert untimed.state[None]["clock"] is None and "server_time" not in untimed.state[None]
    p0.close()
    untimed.close()
