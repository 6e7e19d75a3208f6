"""A win claimed over players who left: in an invite game without a clock, the last
person still there may claim the win once every other person has had no device
connected for ``claim_after`` seconds. The server checks it (connections here, and what
every process wrote to the database: ``seen_at``), whatever the client says; the
outcome is stored with the code ``left`` and the record replays. Time is injected:
nothing here waits for the period."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import httpx
import pytest
from arena_helpers import LiveServer, Player, create

from sudoku_arena.cli.serve import parse_period
from sudoku_arena.core.record import Record
from sudoku_arena.core.verify import verify_record
from sudoku_arena.server import ServerConfig
from sudoku_arena.server.arena import Arena, Client, SeatSpec
from sudoku_arena.server.bots import BotRunner
from sudoku_arena.server.clock import TimeControl
from sudoku_arena.server.db.engine import Storage
from sudoku_arena.server.db.games import load_game
from sudoku_arena.server.live import ActionRefused, LiveGame, hash_token

CLAIM_AFTER = 60.0


class FakeTime:
    """The time the arena reads, set by the test (from the real time: the database
    stamps a claimed link with the real one)."""

    def __init__(self) -> None:
        self.t = time.time()

    def __call__(self) -> float:
        return self.t


def _arena(url: str, now: FakeTime, **kw: Any) -> Arena:
    kw.setdefault("claim_after", CLAIM_AFTER)
    return Arena(Storage(url), bots=BotRunner(0), now=now, timeout_sweep_seconds=3600, **kw)


async def _written(arena: Arena) -> None:
    """Wait for the presence writes the arena left running in the background."""
    while arena._chores:
        await asyncio.gather(*list(arena._chores), return_exceptions=True)


async def _nothing(_text: str) -> None:
    return None


def _connect(arena: Arena, lg: LiveGame, seat: int) -> Client:
    """A connection holding ``seat`` (what a browser's hello leads to)."""
    c = Client(_nothing)
    c.seats = [seat]
    arena.attach(lg, c)
    return c


async def _game(arena: Arena, **kw: Any) -> LiveGame:
    """Ann and Bob, each of whom opened his link on his own device."""
    seats = [SeatSpec("human", name="Ann"), SeatSpec("human", name="Bob")]
    lg, tokens = await arena.create("tic-tac-sudoku", {}, seats, **kw)
    for seat, token in tokens.items():
        await arena.seating.claim(lg, seat, hash_token(token), hash_token(f"device {seat}"))
    return lg


async def _refused(arena: Arena, lg: LiveGame, seat: int = 0) -> ActionRefused:
    with pytest.raises(ActionRefused) as info:
        await arena.claim_win(lg, seat)
    assert not lg.over
    return info.value


def test_the_win_is_claimed_once_the_opponent_has_been_gone_long_enough(db_url: str) -> None:
    now = FakeTime()

    async def run() -> None:
        arena = _arena(db_url, now)
        await arena.start()
        lg = await _game(arena)
        ann, bob = _connect(arena, lg, 0), _connect(arena, lg, 1)
        await arena.act(lg, 0, 0, lg.view(0)["legal"][0])
        now.t += 1000
        refused = await _refused(arena, lg)
        assert refused.code == "not_away" and "Bob is connected" in refused.message
        arena.detach(bob)
        await _written(arena)
        now.t += CLAIM_AFTER - 1
        refused = await _refused(arena, lg)
        assert refused.code == "not_away" and "59 seconds" in refused.message
        now.t += 1
        await arena.claim_win(lg, 0)
        out = lg.outcome
        assert out is not None and out["code"] == "left" and out["winners"] == [0]
        assert out["reason"] == "Bob left the game; Ann claimed the win"
        row = load_game(arena.storage.engine, lg.id)
        assert row is not None and row.status == "finished" and row.outcome == out
        verify_record(Record.from_json(lg.record_json()))
        arena.detach(ann)
        await arena.stop()

    asyncio.run(run())


def test_coming_back_starts_the_count_again_and_an_http_player_is_here(sqlite_url: str) -> None:
    now = FakeTime()

    async def run() -> None:
        arena = _arena(sqlite_url, now)
        await arena.start()
        lg = await _game(arena)
        _connect(arena, lg, 0)
        bob = _connect(arena, lg, 1)
        arena.detach(bob)
        now.t += CLAIM_AFTER - 10
        arena.detach(_connect(arena, lg, 1))  # back for a moment, gone again
        now.t += 30
        assert (await _refused(arena, lg)).code == "not_away"
        # A player on the HTTP API has no connection: asking for the position is
        # being here.
        now.t += CLAIM_AFTER
        arena.seen_over_http(lg, 1)
        now.t += 10
        assert (await _refused(arena, lg)).code == "not_away"
        now.t += CLAIM_AFTER
        await arena.claim_win(lg, 0)
        assert lg.over
        await arena.stop()

    asyncio.run(run())


def test_no_claim_where_nobody_can_leave_or_the_clock_decides(sqlite_url: str) -> None:
    now = FakeTime()

    async def run() -> None:
        arena = _arena(sqlite_url, now)
        await arena.start()
        humans = [SeatSpec("human", name="Ann"), SeatSpec("human", name="Bob")]
        hotseat, _ = await arena.create("tic-tac-sudoku", {}, humans, mode="hotseat")
        timed = await _game(arena, time_control=TimeControl(5))
        unopened, _ = await arena.create("tic-tac-sudoku", {}, humans)
        with_bot, _ = await arena.create(
            "tic-tac-sudoku", {}, [SeatSpec("human", name="Ann"), SeatSpec("bot", "random")]
        )
        now.t += 10 * CLAIM_AFTER
        for lg, code, words in (
            (hotseat, "no_claim", "one screen"),
            (timed, "no_claim", "loses on time"),
            (unopened, "not_away", "has not opened his link"),
            (with_bot, "no_claim", "no other person"),
        ):
            refused = await _refused(arena, lg)
            assert (refused.code, words in refused.message) == (code, True), refused.message
        await arena.stop()
        # A server told not to end games for players who left never does.
        never = _arena(sqlite_url, now, claim_after=None)
        await never.start()
        lg = await _game(never)
        now.t += 10 * CLAIM_AFTER
        refused = await _refused(never, lg)
        assert refused.code == "no_claim" and "does not end games" in refused.message
        await never.stop()

    asyncio.run(run())


def test_a_player_connected_to_another_process_has_not_left(pg_url: str) -> None:
    """Bob is on process B, Ann claims on A, which never saw Bob: A goes by what B
    wrote (seen while connected, beat after beat, and when he went)."""
    now = FakeTime()

    async def run() -> None:
        a, b = _arena(pg_url, now), _arena(pg_url, now)
        await a.start()
        await b.start()
        lg = await _game(a)
        theirs = await b.get(lg.id)
        assert theirs is not None
        _connect(a, lg, 0)
        bob = _connect(b, theirs, 1)
        await _written(b)
        for _ in range(10):  # Bob stays on B for 500 s; B writes that he is there
            now.t += 50
            await b.sweep_timeouts()
        now.t += 30
        refused = await _refused(a, lg)
        assert refused.code == "not_away" and "30 seconds" in refused.message
        b.detach(bob)
        await _written(b)
        now.t += CLAIM_AFTER - 1
        assert (await _refused(a, lg)).code == "not_away"
        now.t += 1
        await a.claim_win(lg, 0)
        await b.refresh(theirs)
        assert theirs.over and theirs.outcome == lg.outcome
        await a.stop()
        await b.stop()

    asyncio.run(run())


def test_over_the_socket_presence_counts_the_time_away_and_a_refusal_says_why(
    sqlite_url: str,
) -> None:
    config = ServerConfig(database_url=sqlite_url, bot_workers=0, claim_after=CLAIM_AFTER)
    with LiveServer(config) as server:
        made = create(server.url)
        t0, t1 = (s["token"] for s in made["seats"])
        for token, device in ((t0, "ann's phone"), (t1, "bob's phone")):  # as a browser does
            claim = {"token": token, "device": device}
            httpx.post(f"{server.url}/api/matches/{made['id']}/claim", json=claim, timeout=10)
        ann = Player(server.ws_url, made["id"], [t0], device="ann's phone")
        bob = Player(server.ws_url, made["id"], [t1], device="bob's phone")
        ann.wait("presence", seats=[True, True])
        bob.close()
        gone = ann.wait("presence", seats=[True, False])
        assert gone["claim_after"] == CLAIM_AFTER
        assert gone["away"][0] is None and 0 <= gone["away"][1] < CLAIM_AFTER
        ann.send(type="claim_win", id=4)
        refused = ann.wait("error", id=4)
        assert refused["code"] == "not_away"
        assert "player 2 has been away for" in refused["message"]
        state = httpx.get(f"{server.url}/api/matches/{made['id']}", timeout=10).json()
        assert state["status"] == "active"
        ann.close()


def test_the_period_is_a_server_setting() -> None:
    assert ServerConfig().claim_after == CLAIM_AFTER  # the default, as lichess offers
    assert parse_period("90", "--claim-after", bare="s") == 90.0  # a bare number: seconds
    assert parse_period("2m", "--claim-after", bare="s") == 120.0
    assert parse_period("never", "--claim-after", bare="s") is None
    with pytest.raises(ValueError, match=r"--claim-after soon: not a period.*counts seconds"):
        parse_period("soon", "--claim-after", bare="s")


def test_seen_times_of_one_batch_only_move_forward(db_url: str) -> None:
    """The marks of a batch go as one statement: each seat keeps the latest time it
    was seen, whatever order the marks came in."""
    from arena_helpers import two_person_row

    from sudoku_arena.server.db.games import CreateGame
    from sudoku_arena.server.db.seats import MarkSeen, load_seats

    storage = Storage(db_url)
    try:
        storage.write_sync(CreateGame(two_person_row("seen")))
        marks = [MarkSeen("seen", (0, 1), 100.0), MarkSeen("seen", (0,), 50.0)]
        with storage.engine.begin() as conn:
            MarkSeen.apply_all(conn, marks, 0.0, storage.shared)
        storage.write_sync(MarkSeen("seen", (1,), 200.0))
        seen = {s.seat: s.seen_at for s in load_seats(storage.engine, "seen")}
        assert seen == {0: 100.0, 1: 200.0}
    finally:
        storage.close()
