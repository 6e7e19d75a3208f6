"""A server that stays up and correct: a game that no longer replays is set aside, a game
of another rules version opens read-only, games open lazily and leave memory when idle,
a rematch is created once across processes, and a database of an older schema opens."""

from __future__ import annotations

import asyncio
import logging
import random
import time
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, text

from sudoku_arena.server.arena import Arena, Client, SeatSpec
from sudoku_arena.server.bots import BotRunner
from sudoku_arena.server.db import leases as leases_db
from sudoku_arena.server.db.engine import Storage, normalise_url
from sudoku_arena.server.db.games import action_count, load_game
from sudoku_arena.server.db.leases import take_lease
from sudoku_arena.server.live import ActionRefused, GameUnavailable, LiveGame


def _arena(url: str, **kw: Any) -> Arena:
    return Arena(Storage(url), bots=BotRunner(0), **kw)


async def _play_to_end(arena: Arena, lg: LiveGame, rng: random.Random) -> None:
    while not lg.over:
        seat = lg.to_move()[0]
        await arena.act(lg, seat, lg.ply, rng.choice(lg.view(seat)["legal"]))


def _sql(url: str, statement: str, **params: Any) -> None:
    engine = create_engine(normalise_url(url))
    with engine.begin() as conn:
        conn.execute(text(statement), params)
    engine.dispose()


async def _stored_game(url: str) -> str:
    """A Tic-Tac-Sudoku game between two people, one move in, stored at ``url``."""
    arena = _arena(url)
    await arena.start()
    lg, _ = await arena.create("tic-tac-sudoku", {}, [SeatSpec("human")] * 2)
    await arena.act(lg, 0, 0, lg.view(0)["legal"][0])
    await arena.stop()
    return lg.id


def test_a_game_that_no_longer_replays_is_set_aside_and_the_rest_goes_on(
    sqlite_url: str,
) -> None:
    async def setup() -> tuple[str, str]:
        arena = _arena(sqlite_url)
        await arena.start()
        bad, _ = await arena.create("tic-tac-sudoku", {}, [SeatSpec("human")] * 2)
        good, _ = await arena.create("tic-tac-sudoku", {}, [SeatSpec("human")] * 2)
        for lg in (bad, good):
            for _ in range(3):
                seat = lg.to_move()[0]
                await arena.act(lg, seat, lg.ply, lg.view(seat)["legal"][0])
        await arena.stop()
        return bad.id, good.id

    bad, good = asyncio.run(setup())
    _sql(sqlite_url, "UPDATE arena_actions SET action='q0' WHERE game_id=:g AND ply=1", g=bad)

    async def reopen() -> None:
        arena = _arena(sqlite_url)
        await arena.start()  # starts although a stored game is broken
        with pytest.raises(GameUnavailable, match="cannot be opened") as err:
            await arena.get(bad)
        assert "ply 1" in err.value.reason and "q0" in err.value.reason
        row = load_game(arena.storage.engine, bad)
        assert row.status == "quarantined" and row.problem
        with pytest.raises(GameUnavailable):  # stays aside without replaying again
            await arena.get(bad)
        lg = await arena.get(good)
        assert lg is not None and lg.ply == 3
        seat = lg.to_move()[0]
        await arena.act(lg, seat, lg.ply, lg.view(seat)["legal"][0])
        await arena.stop()

    asyncio.run(reopen())


def test_the_api_says_a_set_aside_game_is_unavailable(sqlite_url: str) -> None:
    import httpx
    from arena_helpers import LiveServer

    from sudoku_arena.server import ServerConfig

    gid = asyncio.run(_stored_game(sqlite_url))
    _sql(sqlite_url, "UPDATE arena_actions SET action='nonsense' WHERE game_id=:g", g=gid)
    config = ServerConfig(database_url=sqlite_url, bot_workers=0, bot_delay=0.0)
    with LiveServer(config) as server:
        r = httpx.get(f"{server.url}/api/matches/{gid}", timeout=20)
        assert r.status_code == 503
        assert r.json()["error"]["code"] == "unavailable"
        assert "operators" in r.json()["error"]["message"]
        assert httpx.get(f"{server.url}/api/games", timeout=20).status_code == 200


def test_a_game_of_another_rules_version_opens_read_only(sqlite_url: str) -> None:
    gid = asyncio.run(_stored_game(sqlite_url))
    _sql(sqlite_url, "UPDATE arena_games SET game_version='0.0.1' WHERE id=:g", g=gid)

    async def reopen() -> None:
        arena = _arena(sqlite_url)
        await arena.start()
        lg = await arena.get(gid)
        assert lg is not None and lg.read_only and "version 0.0.1" in lg.read_only
        assert lg.info()["read_only"] == lg.read_only
        seat = lg.to_move()[0]
        with pytest.raises(ActionRefused) as refused:
            await arena.act(lg, seat, lg.ply, lg.view(seat)["legal"][0])
        assert refused.value.code == "read_only"
        assert action_count(arena.storage.engine, gid) == 1  # nothing was stored
        await arena.stop()

    asyncio.run(reopen())


def test_games_open_lazily_and_idle_ones_leave_memory(sqlite_url: str) -> None:
    async def setup() -> tuple[str, str]:
        arena = _arena(sqlite_url, bot_delay=60.0)  # the bot will not move before stop
        await arena.start()
        people, _ = await arena.create("tic-tac-sudoku", {}, [SeatSpec("human")] * 2)
        bot, _ = await arena.create(
            "tic-tac-sudoku", {}, [SeatSpec("bot", "random"), SeatSpec("human")]
        )
        assert bot.ply == 0 and bot.bots_to_move() == [0]
        await arena.stop()
        return people.id, bot.id

    people, bot = asyncio.run(setup())

    async def reopen() -> None:
        arena = _arena(sqlite_url)
        await arena.start()
        assert set(arena.games) == {bot}  # only the game whose bot must move
        for _ in range(200):
            if arena.games[bot].ply > 0:
                break
            await asyncio.sleep(0.02)
        assert arena.games[bot].ply == 1  # ...and its bot moved
        lg = await arena.get(people)
        assert lg is not None and set(arena.games) == {people, bot}
        watched = Client(lambda _text: asyncio.sleep(0))
        arena.attach(arena.games[bot], watched)
        arena.idle_seconds = 10.0
        later = lg.last_used + 11.0
        await arena.chat._mutes_of(people)  # its chat's mutes read and kept
        assert arena.evict_idle(later) == [people]  # the watched game stays
        assert set(arena.games) == {bot}
        assert people not in arena.chat._mutes  # what the chat kept goes with the game
        again = await arena.get(people)  # and a left game comes back on access
        assert again is not None and again.ply == 0
        arena.detach(watched)
        await arena.stop()

    asyncio.run(reopen())


def test_a_rematch_is_created_once_across_processes(db_url: str) -> None:
    async def run() -> None:
        a, b = _arena(db_url), _arena(db_url)
        await a.start()
        await b.start()
        lg, _ = await a.create("tic-tac-sudoku", {}, [SeatSpec("human")] * 2)
        await _play_to_end(a, lg, random.Random(1))
        other = await b.get(lg.id)  # the second process's own copy
        assert other is not None and other is not lg and other.over
        first, second = await asyncio.gather(a.rematch(lg), b.rematch(other))
        assert first.id == second.id
        again = await b.rematch(other)
        assert again.id == first.id
        with a.storage.engine.connect() as conn:
            count = conn.execute(
                text("SELECT COUNT(*) FROM arena_games WHERE rematch_of = :g"), {"g": lg.id}
            ).scalar()
        assert count == 1
        await a.stop()
        await b.stop()

    asyncio.run(run())


OLD_SCHEMA = [
    """CREATE TABLE arena_games (id VARCHAR(32) PRIMARY KEY, game VARCHAR(64) NOT NULL,
    game_version VARCHAR(32) NOT NULL, params TEXT NOT NULL, seed BIGINT NOT NULL,
    players TEXT NOT NULL, mode VARCHAR(16) NOT NULL, status VARCHAR(16) NOT NULL,
    outcome TEXT, rematch VARCHAR(32), rematch_of VARCHAR(32), created FLOAT NOT NULL,
    updated FLOAT NOT NULL)""",
    """CREATE TABLE arena_seats (game_id VARCHAR(32) NOT NULL, seat INTEGER NOT NULL,
    kind VARCHAR(16) NOT NULL, agent VARCHAR(64), name VARCHAR(64) NOT NULL,
    token_hash VARCHAR(64), PRIMARY KEY (game_id, seat))""",
    """CREATE TABLE arena_actions (game_id VARCHAR(32) NOT NULL, ply INTEGER NOT NULL,
    actor INTEGER, action VARCHAR(200) NOT NULL, at FLOAT NOT NULL,
    PRIMARY KEY (game_id, ply))""",
]


def test_a_database_of_the_previous_schema_opens_and_its_games_play_on(
    tmp_path: Path,
) -> None:
    url = f"sqlite:///{tmp_path}/old.sqlite3"
    for ddl in OLD_SCHEMA:
        _sql(url, ddl)
    _sql(
        url,
        "INSERT INTO arena_games VALUES ('old1', 'cat-sudoku', '1.0.0', :p, 77, :pl, "
        "'hotseat', 'active', NULL, NULL, NULL, 1.0, 1.0)",
        p='{"players": 1, "sheet": "spring"}',
        pl='["me"]',
    )
    _sql(url, "INSERT INTO arena_seats VALUES ('old1', 0, 'human', NULL, 'me', 'x')")
    for ply, roll in enumerate(["roll 1", "roll 2", "roll 3", "roll 4"]):
        _sql(url, "INSERT INTO arena_actions VALUES ('old1', :p, NULL, :a, 1.0)", p=ply, a=roll)

    async def run() -> None:
        arena = _arena(url)
        await arena.start()
        lg = await arena.get("old1")
        assert lg is not None and lg.ply == 4 and not lg.read_only
        # it plays on: the setup writes, then chance from a secret derived for it
        for _ in range(8):
            seat = lg.to_move()[0]
            await arena.act(lg, seat, lg.ply, lg.view(seat)["legal"][0])
        assert any(e.actor is None for e in lg.log[4:])
        await arena.stop()
        reopened = _arena(url)
        await reopened.start()
        again = await reopened.get("old1")
        assert again is not None and [e.action for e in again.log] == [e.action for e in lg.log]
        await reopened.stop()

    asyncio.run(run())


def _lease_holder(arena: Arena, gid: str) -> str | None:
    with arena.storage.engine.connect() as conn:
        holder = conn.execute(
            text("SELECT holder FROM arena_bot_leases WHERE game_id = :g"), {"g": gid}
        ).scalar()
    return None if holder is None else str(holder)


def test_one_process_thinks_for_a_bot_and_another_takes_over_when_it_dies(
    pg_url: str,
) -> None:
    async def run() -> None:
        a = _arena(pg_url, bot_delay=3600.0, lease_seconds=2.0)  # thinks, never acts
        b = _arena(pg_url, lease_seconds=2.0)
        await a.start()
        await b.start()
        lg, _ = await a.create("tic-tac-sudoku", {}, [SeatSpec("bot", "random"), SeatSpec("human")])
        gid = lg.id
        for _ in range(200):  # a takes the lease and starts thinking
            if _lease_holder(b, gid) == a.holder:
                break
            await asyncio.sleep(0.02)
        else:
            raise AssertionError("the first process never took the lease")
        assert not take_lease(b.storage.engine, gid, b.holder, 2.0, 0)
        theirs = await b.get(gid)
        assert theirs is not None
        b.schedule_bots(theirs)  # b is asked too, but a holds the lease: b does not think
        await asyncio.sleep(0.5)
        assert action_count(b.storage.engine, gid) == 0
        await a.stop()  # a dies while thinking: its lease is not released
        for _ in range(300):  # b's sweeper sees the lease expire and takes over
            if action_count(b.storage.engine, gid) == 1:
                break
            await asyncio.sleep(0.05)
        assert action_count(b.storage.engine, gid) == 1
        row = load_game(b.storage.engine, gid)
        assert [a[1] for a in row.actions] == [0]  # the bot's move, once
        await asyncio.sleep(0.5)
        assert action_count(b.storage.engine, gid) == 1  # nobody moved it twice
        await b.stop()

    asyncio.run(run())


def test_a_bot_whose_move_was_made_while_it_took_the_lease_does_not_move_again(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Two calls to think for one bot (in a fleet: the "bots due" news and the sweeper):
    the second gets its lease only once the first's move is stored. It must see the new
    position and stand down, not think for a seat that has nothing to play (found in the
    rolling restart test: "bot failed", choosing from no legal actions)."""
    asked: list[int] = []

    def take_lease(engine: Any, gid: str, holder: str, seconds: float, ply: int) -> bool:
        asked.append(ply)
        if len(asked) == 2:  # the second asker waits until the first one's move is in
            deadline = time.monotonic() + 20
            while action_count(engine, gid) == 0 and time.monotonic() < deadline:
                time.sleep(0.01)
        return True

    monkeypatch.setattr(leases_db, "take_lease", take_lease)
    caplog.set_level(logging.ERROR, logger="sudoku_arena.server")

    async def run() -> None:
        arena = _arena(sqlite_url)
        await arena.start()
        bot_first = [SeatSpec("bot", "random"), SeatSpec("human")]
        lg, _ = await arena.create("tic-tac-sudoku", {}, bot_first)
        first = arena.botplay.tasks[(lg.id, 0)]
        second = asyncio.create_task(arena.botplay._move(lg, 0))
        await asyncio.gather(first, second)
        assert asked == [0, 0]  # both thought the bot was due at ply 0
        row = load_game(arena.storage.engine, lg.id)
        assert row is not None and [a[1] for a in row.actions] == [0]  # one move, the bot's
        assert lg.to_move() == [1]
        await arena.stop()

    asyncio.run(run())
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []


def test_migrations_build_exactly_the_schema_the_code_uses(db_url: str) -> None:
    from alembic.autogenerate import compare_metadata
    from alembic.config import Config
    from alembic.runtime.migration import MigrationContext
    from alembic.script import ScriptDirectory

    from sudoku_arena.server import migrations
    from sudoku_arena.server.db.schema import metadata

    cfg = Config()
    cfg.set_main_option("script_location", str(migrations.HERE))
    storage = Storage(db_url)  # upgrades an empty database from nothing
    assert migrations.current(storage.engine) == ScriptDirectory.from_config(cfg).get_current_head()
    with storage.engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), metadata)
    assert diff == []
    Storage(db_url).close()  # opening again changes nothing
    storage.close()


def test_processes_catch_up_from_the_database_without_the_fan_out(pg_url: str) -> None:
    """Redis down (here: no fan-out at all): a move stored by one process reaches the
    players watching on another within a few rounds of its resync."""

    async def run() -> None:
        a, b = _arena(pg_url, lease_seconds=1.0), _arena(pg_url, lease_seconds=1.0)
        await a.start()
        await b.start()
        lg, _ = await a.create("tic-tac-sudoku", {}, [SeatSpec("human")] * 2)
        theirs = await b.get(lg.id)
        assert theirs is not None
        seen: list[str] = []

        async def keep(text: str) -> None:
            seen.append(text)

        watcher = Client(keep)
        watcher.start()
        b.attach(theirs, watcher)
        await a.act(lg, 0, 0, lg.view(0)["legal"][0])
        for _ in range(100):
            if theirs.ply == 1 and any('"ply":1' in t for t in seen):
                break
            await asyncio.sleep(0.05)
        assert theirs.ply == 1 and theirs.log[0].action == lg.log[0].action
        assert any('"ply":1' in t for t in seen)  # and the watcher was told
        await watcher.stop()
        b.detach(watcher)
        await a.stop()
        await b.stop()

    asyncio.run(run())


def test_two_processes_moving_at_one_ply_are_decided_by_the_database(pg_url: str) -> None:
    """Both processes accept the move on their own copy (neither has heard of the
    other's); the (game, ply) key lets the first write win and refuses the second as
    stale, and the refused process catches up with the winner."""

    async def run() -> None:
        a, b = _arena(pg_url), _arena(pg_url)
        await a.start()
        await b.start()
        lg, _ = await a.create("tic-tac-sudoku", {}, [SeatSpec("human")] * 2)
        theirs = await b.get(lg.id)
        assert theirs is not None and theirs is not lg
        first, second = lg.view(0)["legal"][:2]
        await a.act(lg, 0, 0, first)
        assert theirs.ply == 0  # b has not heard of it: its own check passes...
        with pytest.raises(ActionRefused) as refused:
            await b.act(theirs, 0, 0, second)
        assert refused.value.code == "stale"  # ...and the database refuses it
        assert theirs.ply == 1 and theirs.log[0].action == first
        assert action_count(b.storage.engine, lg.id) == 1
        await a.stop()
        await b.stop()

    asyncio.run(run())


def test_a_client_seed_and_a_move_on_two_processes_never_mix(pg_url: str) -> None:
    """A seed taken on one process while another, not yet aware of it, accepts a move:
    the move is refused (its draws would ignore the seed) and played again with it; a
    seed given on a copy that is behind counts from the stored ply, never earlier. The
    finished record verifies."""
    from sudoku_arena.core.record import Record
    from sudoku_arena.core.verify import verify_record

    async def run() -> None:
        a, b = _arena(pg_url), _arena(pg_url)
        await a.start()
        await b.start()
        lg, _ = await a.create("sudokuhex", {}, [SeatSpec("human")] * 2)
        theirs = await b.get(lg.id)
        assert theirs is not None
        await a.add_client_seed(lg, 1, "from seat 1")
        seat = theirs.to_move()[0]
        move = theirs.view(seat)["legal"][0]
        with pytest.raises(ActionRefused) as refused:
            await b.act(theirs, seat, theirs.ply, move)  # b drew without the seed
        assert refused.value.code == "stale"
        assert [c.seed for c in theirs.match.chance.client_seeds] == ["from seat 1"]
        await b.act(theirs, seat, theirs.ply, move)  # again, now with it
        given = await a.add_client_seed(lg, 0, "after the move")  # a's copy was behind:
        assert given.ply == theirs.ply == lg.ply  # it catches up first, never back-dates
        rng = random.Random(3)
        stale = 0
        while not theirs.over:
            s = theirs.to_move()[0]
            try:
                await b.act(theirs, s, theirs.ply, rng.choice(theirs.view(s)["legal"]))
            except ActionRefused as exc:  # b learns of a's second seed this way
                assert exc.code == "stale"
                stale += 1
        assert stale == 1
        record = Record.from_json(theirs.record_json())
        assert verify_record(record).chance_checked > 5
        assert record.chance is not None
        assert [c.seed for c in record.chance.client_seeds] == ["after the move", "from seat 1"]
        await a.stop()
        await b.stop()

    asyncio.run(run())
