"""Seeks: compatible seeks pair into one game (incompatible ones wait), each seeker gets
its own seat and nobody else's, a cancelled or expired seek never pairs, a long poll
answers when the seek pairs, and on PostgreSQL threads racing to pair the same seeks
make each seek part of one game at most."""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from arena_helpers import LiveServer
from sqlalchemy import Engine, create_engine, select, text

from sudoku_arena.server import ServerConfig, migrations
from sudoku_arena.server.db import seeks as db
from sudoku_arena.server.live import hash_token
from sudoku_arena.server.seeks import SEEK_SECONDS

TTT = {"game": "tic-tac-sudoku"}


@pytest.fixture
def live(sqlite_url: str) -> Iterator[LiveServer]:
    config = ServerConfig(database_url=sqlite_url, bot_workers=0, bot_delay=0.0)
    with LiveServer(config) as s:
        yield s


def seek(c: httpx.Client, **body: Any) -> dict[str, Any]:
    r = c.post("/api/seeks", json={**TTT, **body})
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


def look(
    c: httpx.Client, s: dict[str, Any], wait: float = 0, token: str | None = None
) -> httpx.Response:
    headers = {"X-Seek-Token": token or s["token"]}
    return c.get(f"/api/seeks/{s['id']}", params={"wait": wait}, headers=headers)


def test_two_compatible_seeks_pair_into_one_game_with_a_seat_each(live: LiveServer) -> None:
    with live.client() as c:
        a = seek(c, name="ann")
        assert a["status"] == "open"
        b = seek(c, name="bob")
        assert b["status"] == "paired"  # paired as it arrived
        ra, rb = look(c, a).json(), look(c, b).json()
        assert ra["game_id"] == rb["game_id"] is not None
        assert {ra["seat"], rb["seat"]} == {0, 1}
        assert ra["url"] == f"/play/{ra['game_id']}#t={a['token']}"
        # the seat's token is the seek's own token: only its owner has it
        with live.arena.storage.engine.connect() as conn:
            seats = conn.execute(
                text("SELECT token_hash, name FROM arena_seats WHERE game_id = :g ORDER BY seat"),
                {"g": ra["game_id"]},
            ).all()
        assert seats[ra["seat"]].token_hash == hash_token(a["token"])
        assert seats[rb["seat"]].token_hash == hash_token(b["token"])
        assert [s.name for s in seats] == ["ann", "bob"]
        # another's token reads nothing of a seek, and says so like an unknown id
        assert look(c, a, token=b["token"]).status_code == 404
        assert look(c, {"id": "nope", "token": a["token"]}).status_code == 404
        game = c.get(f"/api/matches/{ra['game_id']}").json()
        assert game["game"] == "tic-tac-sudoku"


def test_incompatible_seeks_wait(live: LiveServer) -> None:
    with live.client() as c:
        first = seek(c)
        others = [
            seek(c, clock={"minutes": 5, "increment": 2}),
            seek(c, players=2, clock={"minutes": 10}),
        ]
        assert all(s["status"] == "open" for s in [first, *others])
        assert look(c, first).json()["status"] == "open"
        listed = {s["id"] for s in c.get("/api/seeks").json()}
        assert {first["id"], *(s["id"] for s in others)} <= listed
        assert seek(c, clock={"minutes": 5, "increment": 2})["status"] == "paired"
        assert look(c, others[0]).json()["status"] == "paired"
        assert look(c, first).json()["status"] == "open"


def test_bad_seeks_are_refused_with_what_is_allowed(live: LiveServer) -> None:
    with live.client() as c:
        r = c.post("/api/seeks", json={**TTT, "rated": True})
        assert r.status_code == 401 and r.json()["error"]["code"] == "sign_in_required"
        assert "rated false" in r.json()["error"]["message"]
        r = c.post("/api/seeks", json={**TTT, "range": 200})
        assert r.status_code == 401 and "leave range out" in r.json()["error"]["message"]
        r = c.post("/api/seeks", json={**TTT, "players": 9})
        assert r.status_code == 400
        r = c.post("/api/seeks", json={"game": "chess"})
        assert r.status_code == 422 and "tic-tac-sudoku" in r.json()["error"]["message"]
        r = c.post("/api/seeks", json={**TTT, "params": {"grid": "huge"}})
        assert r.status_code == 422 and "grid" in r.json()["error"]["message"], r.text
        assert c.get("/api/seeks").json() == []  # nothing stored


def test_a_cancelled_seek_never_pairs(live: LiveServer) -> None:
    with live.client() as c:
        a = seek(c)
        url = f"/api/seeks/{a['id']}"
        assert c.delete(url, headers={"X-Seek-Token": "wrong"}).status_code == 404
        gone = c.delete(url, headers={"X-Seek-Token": a["token"]})
        assert gone.status_code == 200 and gone.json()["status"] == "cancelled"
        assert look(c, a).json()["status"] == "cancelled"
        r = c.delete(url, headers={"X-Seek-Token": a["token"]})
        assert r.status_code == 409 and "cancelled" in r.json()["error"]["message"]
        b = seek(c)
        assert b["status"] == "open"  # nobody left to play


def test_a_long_poll_answers_when_the_seek_pairs(live: LiveServer) -> None:
    with live.client() as c, live.client() as c2:
        a = seek(c)
        answer: dict[str, Any] = {}

        def wait() -> None:
            started = time.monotonic()
            answer.update(look(c2, a, wait=20).json())
            answer["seconds"] = time.monotonic() - started

        t = threading.Thread(target=wait)
        t.start()
        time.sleep(0.3)
        b = seek(c)
        t.join(timeout=25)
        assert answer["status"] == "paired" and answer["game_id"] == look(c, b).json()["game_id"]
        assert answer["seconds"] < 20  # answered by the pairing, not by the wait's end


# -- the database ---------------------------------------------------------------------------


def _engine(url: str) -> Engine:
    engine = create_engine(url.replace("postgresql://", "postgresql+psycopg://", 1))
    migrations.upgrade(engine)
    return engine


def _row(pool: str = "p", **kw: Any) -> db.SeekRow:
    now = time.time()
    values: dict[str, Any] = {
        "id": secrets.token_hex(6),
        "token_hash": hash_token(secrets.token_hex(8)),
        "owner": None,
        "name": "x",
        "game": "tic-tac-sudoku",
        "params": "{}",
        "players": 2,
        "minutes": None,
        "increment": None,
        "rated": False,
        "pool": pool,
        "rating": None,
        "low": None,
        "high": None,
        "created": now,
        "expires": now + SEEK_SECONDS,
        "status": db.OPEN,
        "game_id": None,
        "seat": None,
    }
    values.update(kw)
    return db.SeekRow(**values)


def test_rating_ranges_and_owners_decide_who_may_pair() -> None:
    me = _row(owner="account:1", rating=1500, low=1400, high=1600)
    assert me.accepts(_row(owner="account:2", rating=1550))
    assert not me.accepts(_row(owner="account:2", rating=1650))
    assert not me.accepts(_row(owner="account:2"))  # no rating: not in any range
    assert not me.accepts(_row(owner="account:1", rating=1500))  # not with oneself
    assert _row().accepts(_row())  # two guests without ranges


def test_expired_seeks_do_not_pair(sqlite_url: str) -> None:
    engine = _engine(sqlite_url)
    old, new = _row(), _row()
    db.insert_seek(engine, old)
    later = time.time() + SEEK_SECONDS + 1
    assert not db.sweep_due(engine, time.time(), time.time() - 60)  # nothing to write yet
    assert db.sweep_due(engine, later, time.time() - 60)
    assert db.expire(engine, later) == 1
    assert not db.sweep_due(engine, later, time.time() - 60)  # done: the sweep writes nothing
    assert db.load_seek(engine, old.id).status == db.EXPIRED  # type: ignore[union-attr]
    db.insert_seek(engine, new)
    assert db.take_group(engine, new.id, time.time()) is None
    assert db.take_group(engine, old.id, time.time()) is None
    engine.dispose()


def test_racing_pairings_take_each_seek_once(pg_url: str) -> None:
    engine = _engine(pg_url)
    rows = [_row() for _ in range(40)]
    for r in rows:
        db.insert_seek(engine, r)
    groups: list[list[str]] = []
    lock = threading.Lock()

    def pair(ids: list[str]) -> None:
        for i in ids:
            group = db.take_group(engine, i, time.time())
            if group is not None:
                with lock:
                    groups.append([s.id for s in group])

    ids = [r.id for r in rows]
    threads = [threading.Thread(target=pair, args=(ids[k:] + ids[:k],)) for k in range(0, 40, 5)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    taken = [i for g in groups for i in g]
    assert len(groups) == 20 and sorted(taken) == sorted(ids)  # every seek once
    t = db.seeks_table
    with engine.connect() as conn:
        statuses = set(conn.execute(select(t.c.status)).scalars())
    assert statuses == {db.PAIRING}
    engine.dispose()


def test_the_owners_polls_keep_a_seek_open_and_others_cannot(sqlite_url: str) -> None:
    engine = _engine(sqlite_url)
    row = _row()
    db.insert_seek(engine, row)
    later = row.expires + 30
    other = db.keep_open(engine, row.id, hash_token("not the token"), later)
    assert other is not None and other.expires == row.expires  # a stranger moves nothing
    kept = db.keep_open(engine, row.id, row.token_hash, later)
    assert kept is not None and kept.expires == later
    assert db.expire(engine, row.expires + 1) == 0  # still open: it was polled
    assert db.expire(engine, later + 1) == 1  # no poll since: gone
    assert db.keep_open(engine, row.id, row.token_hash, later + 100).expires == later  # type: ignore[union-attr]
    engine.dispose()


def test_a_group_whose_process_died_is_released_and_its_late_game_refused(
    sqlite_url: str,
) -> None:
    engine = _engine(sqlite_url)
    a, b = _row(), _row()
    db.insert_seek(engine, a)
    db.insert_seek(engine, b)
    group = db.take_group(engine, b.id, time.time())
    assert group is not None and {s.status for s in group} == {db.PAIRING}
    assert db.release_stale(engine, time.time() - 30) == 0  # taken just now: left alone
    assert db.release_stale(engine, time.time() + 1) == 2  # as if 30 s had passed
    again = db.take_group(engine, a.id, time.time())
    assert again is not None and again[0].taken_by != group[0].taken_by
    assert not db.set_paired(engine, group, "late")  # the first group's game comes too late
    assert db.set_paired(engine, again, "made")
    assert {db.load_seek(engine, s.id).game_id for s in (a, b)} == {"made"}  # type: ignore[union-attr]
    engine.dispose()


def test_correspondence_seeks_pair_into_a_game_of_days_per_move(live: LiveServer) -> None:
    """Play now makes correspondence games: ``clock: {days}``, validated as the create
    body's; such a seek pairs only with the same days."""
    with live.client() as c:
        r = c.post("/api/seeks", json={**TTT, "clock": {"days": 30}})
        assert r.status_code in (400, 422) and "days" in r.json()["error"]["message"], r.text
        untimed, minutes = seek(c), seek(c, clock={"minutes": 5})
        a = seek(c, name="ann", clock={"days": 3})
        assert a["status"] == "open"
        assert seek(c, name="cy", clock={"days": 2})["status"] == "open"  # other days wait
        listed = {s["id"]: s["clock"] for s in c.get("/api/seeks").json()}
        assert listed[a["id"]] == "3 days per move"
        assert seek(c, name="bob", clock={"days": 3})["status"] == "paired"
        game = c.get(f"/api/matches/{look(c, a).json()['game_id']}").json()
        assert game["clock"]["days"] == 3 and game["clock"]["words"] == "3 days per move"
        assert look(c, untimed).json()["status"] == look(c, minutes).json()["status"] == "open"


def test_a_database_at_0011_with_a_game_and_a_seek_upgrades_keeping_them(tmp_path: Any) -> None:
    """Migration 0012 adds ``arena_seeks.days``: a stored game and seek stay as they were."""
    from alembic import command
    from sqlalchemy import inspect

    engine = create_engine(f"sqlite:///{tmp_path}/old.sqlite3")
    with engine.begin() as conn:
        command.upgrade(migrations._config(conn), "0011")
        for table, key in (("arena_games", "kept"), ("arena_seeks", "seek")):
            values: dict[str, Any] = {}
            for col in inspect(conn).get_columns(table):
                kind = str(col["type"]).upper()
                numeric = "INT" in kind or "FLOAT" in kind or "BOOL" in kind
                values[col["name"]] = key if col["name"] == "id" else 0 if numeric else "x"
            names = ", ".join(values)
            marks = ", ".join(":" + k for k in values)
            conn.execute(text(f"INSERT INTO {table} ({names}) VALUES ({marks})"), values)
    migrations.upgrade(engine)
    with engine.connect() as conn:
        assert conn.execute(text("SELECT id FROM arena_games")).scalar_one() == "kept"
        row = conn.execute(text("SELECT id, days FROM arena_seeks")).one()
        assert tuple(row) == ("seek", None)
    engine.dispose()
