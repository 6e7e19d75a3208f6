"""The arena's events: what a game went through, published once per fleet by the
process that stored it (a process that learns of a change through the fan-out
publishes nothing)."""

from __future__ import annotations

import asyncio
import secrets
from typing import Any

from arena_helpers import REDIS_URL

from services import require_redis
from sudoku_arena.server.arena import Arena, SeatSpec
from sudoku_arena.server.bots import BotRunner
from sudoku_arena.server.db.engine import Storage
from sudoku_arena.server.events import Event, GameCreated, GameEnded, MoveCommitted
from sudoku_arena.server.fanout import RedisFanout
from sudoku_arena.server.live import ActionRefused, LiveGame


def _listen(arena: Arena) -> list[Event]:
    seen: list[Event] = []

    async def listener(event: Event) -> None:
        seen.append(event)

    arena.events.subscribe(listener)
    return seen


async def _settled(*arenas: Arena) -> None:
    """Wait until every event published in the background reached its listeners."""
    for arena in arenas:
        while arena._chores:
            await asyncio.gather(*list(arena._chores), return_exceptions=True)


def _first_legal(lg: LiveGame, seat: int) -> str:
    legal: list[str] = lg.view(seat)["legal"]
    return legal[0]


def test_a_game_played_through_the_arena_publishes_its_events_in_order(sqlite_url: str) -> None:
    async def run() -> None:
        arena = Arena(Storage(sqlite_url), bots=BotRunner(0))
        await arena.start()
        seen = _listen(arena)
        lg, _ = await arena.create("tic-tac-sudoku", {}, [SeatSpec("human")] * 2, mode="hotseat")
        moves: list[tuple[int, int, int]] = []  # (start, ply, seat) as act answered
        while not lg.over:
            seat = lg.to_move()[0]
            if len(moves) == 1:  # a refused move publishes nothing
                try:
                    await arena.act(lg, 1 - seat, lg.ply, _first_legal(lg, seat))
                except ActionRefused as exc:
                    assert exc.code == "not_your_turn"
                else:
                    raise AssertionError("a move out of turn was taken")
            start, ply = await arena.act(lg, seat, lg.ply, _first_legal(lg, seat))
            moves.append((start, ply, seat))
        await _settled(arena)

        assert seen[0] == GameCreated(lg.id, "tic-tac-sudoku", None)
        committed = [e for e in seen if isinstance(e, MoveCommitted)]
        assert [(e.start, e.ply, e.by) for e in committed] == moves
        assert all(e.game_id == lg.id and e.game == "tic-tac-sudoku" for e in committed)
        assert all(not e.over and len(e.to_move) == 1 for e in committed[:-1])
        assert committed[-1].over and committed[-1].to_move == ()
        assert seen[1 : 1 + len(committed)] == committed  # in the order they were stored
        assert seen[-1] == GameEnded(lg.id, "tic-tac-sudoku", lg.outcome or {})
        assert len(seen) == len(committed) + 2

        # An ending outside the rules: a resignation in the rematch, which is created
        # (and announced) once.
        seen.clear()
        again = await arena.rematch(lg)
        assert await arena.rematch(lg) is again
        seat = again.to_move()[0]
        await arena.act(again, seat, 0, _first_legal(again, seat))
        await arena.end_by_players(again, 1 - seat, "resign")
        await _settled(arena)
        assert seen[0] == GameCreated(again.id, "tic-tac-sudoku", lg.id)
        assert isinstance(seen[1], MoveCommitted) and (seen[1].start, seen[1].ply) == (0, 1)
        assert isinstance(seen[2], GameEnded) and seen[2].outcome["code"] == "resign"
        assert len(seen) == 3
        await arena.stop()

    asyncio.run(run())


def test_two_processes_publish_each_move_once(pg_url: str) -> None:
    """Two arenas on one database and one fan-out take turns in one game: each move is
    published by the arena that stored it, never by the one that heard of it."""
    require_redis()
    channel = "arena-events-" + secrets.token_hex(4)

    async def run() -> None:
        a = Arena(Storage(pg_url), fanout=RedisFanout(REDIS_URL, channel), bots=BotRunner(0))
        b = Arena(Storage(pg_url), fanout=RedisFanout(REDIS_URL, channel), bots=BotRunner(0))
        await a.start()
        await b.start()
        on_a, on_b = _listen(a), _listen(b)
        lg, _ = await a.create("tic-tac-sudoku", {}, [SeatSpec("human")] * 2)
        theirs = await b.get(lg.id)
        assert theirs is not None
        copies = {0: (a, lg), 1: (b, theirs)}  # seat 0 plays on a, seat 1 on b
        made: dict[int, list[tuple[int, int]]] = {0: [], 1: []}
        ply = 0
        while True:
            for _ in range(500):  # the other process's move arrives through the fan-out
                if lg.ply == theirs.ply == ply:
                    break
                await asyncio.sleep(0.01)
            assert lg.ply == theirs.ply == ply
            if lg.over:
                break
            seat = lg.to_move()[0]
            arena, game = copies[seat]
            start, ply = await arena.act(game, seat, ply, _first_legal(game, seat))
            made[seat].append((start, ply))
        await _settled(a, b)

        def moves(seen: list[Event]) -> list[tuple[int, int]]:
            return [(e.start, e.ply) for e in seen if isinstance(e, MoveCommitted)]

        assert moves(on_a) == made[0] and moves(on_b) == made[1]
        assert sorted(moves(on_a) + moves(on_b)) == sorted(made[0] + made[1])
        assert [e for e in on_a + on_b if isinstance(e, GameCreated)] == [
            GameCreated(lg.id, "tic-tac-sudoku", None)
        ]
        ended: list[Any] = [e for e in on_a + on_b if isinstance(e, GameEnded)]
        assert len(ended) == 1 and ended[0].outcome == lg.outcome == theirs.outcome
        await a.stop()
        await b.stop()

    asyncio.run(run())


def test_listeners_run_side_by_side_and_one_failing_stops_none() -> None:
    """A listener still waiting (a slow push service) does not hold back the next one:
    here the first waits for what only the third does, which deadlocks if they ran one
    after another; the second fails and the third still runs."""
    from sudoku_arena.server.events import Events

    async def run() -> list[str]:
        events, done, heard = Events(), asyncio.Event(), []

        async def slow(event: Event) -> None:
            await done.wait()
            heard.append("slow")

        async def failing(event: Event) -> None:
            raise RuntimeError("a broken listener")

        async def quick(event: Event) -> None:
            heard.append("quick")
            done.set()

        for listener in (slow, failing, quick):
            events.subscribe(listener)
        await asyncio.wait_for(events.publish(GameCreated("g", "tic-tac-sudoku")), 5)
        return heard

    assert asyncio.run(run()) == ["quick", "slow"]
