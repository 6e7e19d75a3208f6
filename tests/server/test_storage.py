"""Storage against SQLite and against the PostgreSQL server: one schema, group commit,
conflicts, and games resumed exactly by a new server on the same database."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest

from sudoku_arena.server.arena import Arena, SeatSpec
from sudoku_arena.server.bots import BotRunner
from sudoku_arena.server.db.engine import ConflictError, Storage
from sudoku_arena.server.db.games import (
    AppendActions,
    CreateGame,
    GameRow,
    SetRematch,
    actions_since,
    game_ids,
    load_game,
    recent_games,
)
from sudoku_arena.server.db.seats import SeatRow
from sudoku_arena.server.live import LiveGame


def _row(gid: str, actions: list[tuple[int, int | None, str]] | None = None) -> GameRow:
    now = time.time()
    return GameRow(
        id=gid,
        game="tic-tac-sudoku",
        game_version="1.0.0",
        params={"players": 2, "grid": "x" * 81, "target": 13},
        seed=7,
        players=["ann", "bob"],
        mode="invite",
        status="active",
        outcome=None,
        rematch=None,
        rematch_of=None,
        created=now,
        updated=now,
        seats=[SeatRow(0, "human", None, "ann", "h0"), SeatRow(1, "bot", "greedy", "bob", None)],
        actions=actions or [],
    )


def test_create_and_load_round_trip(db_url: str) -> None:
    st = Storage(db_url)
    try:
        st.write_sync(CreateGame(_row("g1", [(0, None, "roll 3")])))
        g = load_game(st.engine, "g1")
        assert g is not None
        assert g.params == {"players": 2, "grid": "x" * 81, "target": 13}
        assert [s.kind for s in g.seats] == ["human", "bot"]
        assert g.seats[0].token_hash == "h0" and g.seats[1].agent == "greedy"
        assert g.actions == [(0, None, "roll 3")]
        assert load_game(st.engine, "nope") is None
        assert game_ids(st.engine, "active") == ["g1"]
    finally:
        st.close()


def test_group_commit_batches_concurrent_writes(db_url: str) -> None:
    """Moves of many games arriving together are committed in few transactions, each
    game's plies in order, and every future resolves only once its move is stored."""

    async def run() -> Storage:
        st = Storage(db_url)
        st.start()
        games = [f"g{i}" for i in range(20)]
        for g in games:
            await st.write(CreateGame(_row(g)))
        before = st.commits

        async def play(g: str) -> None:
            for ply in range(10):
                await st.write(AppendActions(g, [(ply, ply % 2, f"r1c{ply % 9 + 1}")]))

        await asyncio.gather(*(play(g) for g in games))
        assert st.commits - before < 200  # 200 moves, fewer commits: batched
        return st

    st = asyncio.run(run())
    try:
        for i in range(20):
            g = load_game(st.engine, f"g{i}")
            assert g is not None
            assert [p for p, _, _ in g.actions] == list(range(10))
    finally:
        st.close()


def test_conflicting_write_fails_alone(db_url: str) -> None:
    async def run() -> tuple[Any, Any]:
        st = Storage(db_url)
        st.start()
        try:
            await st.write(CreateGame(_row("a")))
            await st.write(CreateGame(_row("b")))
            await st.write(AppendActions("a", [(0, 0, "r1c1")]))
            # Queue both before the writer runs: one batch, one conflict.
            results = await asyncio.gather(
                st.write(AppendActions("a", [(0, 1, "r9c9"), (1, None, "roll 2")])),
                st.write(AppendActions("b", [(0, 0, "r2c2")])),
                return_exceptions=True,
            )
            return results, (load_game(st.engine, "a"), load_game(st.engine, "b"))
        finally:
            st.close()

    results, (a, b) = asyncio.run(run())
    assert isinstance(results[0], ConflictError)
    assert results[1] is None
    assert a.actions == [(0, 0, "r1c1")]  # nothing of the refused write remains
    assert b.actions == [(0, 0, "r2c2")]


def test_finish_rematch_and_actions_since(db_url: str) -> None:
    st = Storage(db_url)
    try:
        st.write_sync(CreateGame(_row("f")))
        st.write_sync(AppendActions("f", [(0, 0, "r1c1"), (1, 1, "r1c2")]))
        outcome = {"winners": [0], "scores": [13.0, 2.0], "reason": "target"}
        st.write_sync(AppendActions("f", [(2, 0, "r1c3")], outcome=outcome))
        st.write_sync(SetRematch("f", "f2"))
        rows, status, out, rematch = actions_since(st.engine, "f", 1)
        assert rows == [(1, 1, "r1c2"), (2, 0, "r1c3")]
        assert (status, out, rematch) == ("finished", outcome, "f2")
        assert game_ids(st.engine, "finished") == ["f"] and game_ids(st.engine, "active") == []
        assert [r.id for r in recent_games(st.engine)] == ["f"]
    finally:
        st.close()
    again = Storage(db_url)  # a new process on the same database sees everything
    try:
        g = load_game(again.engine, "f")
        assert g is not None and g.status == "finished" and len(g.actions) == 3
    finally:
        again.close()


def test_restarted_arena_resumes_games_exactly(db_url: str) -> None:
    """A new server on the same database rebuilds every game from its stored actions:
    same states, same log; play goes on, chance included (Sudoku Warriors has none,
    SuDokuHex draws tiles)."""

    async def first() -> dict[str, list[Any]]:
        arena = Arena(Storage(db_url), bots=BotRunner(0))
        await arena.start()
        kept: dict[str, list[Any]] = {}
        for game_id in ("tic-tac-sudoku", "sudokuhex"):
            lg, _tokens = await arena.create(game_id, {}, [SeatSpec("human"), SeatSpec("human")])
            for _ in range(6):
                seat = lg.to_move()[0]
                action = lg.view(seat)["legal"][0]
                await arena.act(lg, seat, lg.ply, action)
            kept[lg.id] = [lg.log[:], lg.states[:]]
        await arena.stop()
        return kept

    async def second(kept: dict[str, list[Any]]) -> None:
        arena = Arena(Storage(db_url), bots=BotRunner(0))
        await arena.start()
        try:
            for gid, (log, states) in kept.items():
                lg = await arena.get(gid)
                assert lg is not None
                assert lg.log == log
                assert lg.states == states
                seat = lg.to_move()[0]
                await arena.act(lg, seat, lg.ply, lg.view(seat)["legal"][0])
                # chance after a resume is what it would have been without one
                fresh = LiveGame(await asyncio.to_thread(load_game, arena.storage.engine, gid))  # type: ignore[arg-type]
                assert fresh.log == lg.log
        finally:
            await arena.stop()

    kept = asyncio.run(first())
    asyncio.run(second(kept))


@pytest.mark.parametrize("game_id", ["sudokuhex"])
def test_chance_is_the_same_with_or_without_a_restart(sqlite_url: str, game_id: str) -> None:
    """Chance at ply p is derived from (secret, game id, p): a game reopened after a
    restart draws what it would have drawn without the restart."""
    import shutil

    first = Path(sqlite_url.removeprefix("sqlite:///"))
    second = first.with_name("b.sqlite3")

    async def create() -> str:
        arena = Arena(Storage(sqlite_url), bots=BotRunner(0))
        await arena.start()
        lg, _ = await arena.create(game_id, {}, [SeatSpec("human")] * 2)
        await arena.stop()
        return lg.id

    async def play(url: str, gid: str, restart_at: int | None) -> list[Any]:
        arena = Arena(Storage(url), bots=BotRunner(0))
        await arena.start()
        for i in range(8):
            if i == restart_at:
                await arena.stop()
                arena = Arena(Storage(url), bots=BotRunner(0))
                await arena.start()
            lg = await arena.get(gid)
            assert lg is not None
            seat = lg.to_move()[0]
            await arena.act(lg, seat, lg.ply, lg.view(seat)["legal"][0])
        log = list(lg.log)
        await arena.stop()
        return log

    gid = asyncio.run(create())
    shutil.copy(first, second)  # the same stored game, secret included, twice
    a = asyncio.run(play(sqlite_url, gid, None))
    b = asyncio.run(play(f"sqlite:///{second}", gid, 4))
    assert [(e.actor, e.action) for e in a] == [(e.actor, e.action) for e in b]
    assert any(e.actor is None for e in a[1:])  # chance was drawn during play
