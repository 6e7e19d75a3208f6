"""Matchmaking on a fleet: three ``serve`` processes on one PostgreSQL and one Redis,
200 clients each seeking the same game at once on one of the processes. The database
pairs them: exactly 100 games, every seek in exactly one, each game's two seats held
by the two seeks' own tokens; every client learns of its game by a long poll on its own
process (the pairing process tells the others over Redis)."""

from __future__ import annotations

import asyncio
import secrets
import time
from collections import Counter
from typing import Any

import httpx
import pytest
from arena_helpers import REDIS_URL, ServerProcess
from sqlalchemy import create_engine, text

from services import require_redis
from sudoku_arena.server.live import hash_token

# Processes of their own: these tests run one after another on one test worker
# (pytest -n 2 --dist loadgroup), never two fleets at once on a 2-core machine.
pytestmark = pytest.mark.xdist_group("processes")

CLIENTS = 200


async def _seeker(url: str, i: int) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=url, timeout=40) as c:
        r = await c.post("/api/seeks", json={"game": "tic-tac-sudoku", "name": f"p{i}"})
        assert r.status_code == 201, r.text
        made = r.json()
        sent = time.monotonic()
        seek = made
        while seek["status"] in ("open", "pairing"):
            r = await c.get(
                f"/api/seeks/{made['id']}",
                params={"wait": 20},
                headers={"X-Seek-Token": made["token"]},
            )
            assert r.status_code == 200, r.text
            seek = r.json()
        return {**seek, "token": made["token"], "sent": sent, "told": time.monotonic()}


async def _all(urls: list[str]) -> list[dict[str, Any]]:
    return await asyncio.gather(*(_seeker(urls[i % len(urls)], i) for i in range(CLIENTS)))


def test_200_seeks_on_three_processes_make_exactly_100_games(pg_url: str) -> None:
    require_redis()
    extra = (
        "--redis-url",
        REDIS_URL,
        "--channel",
        "seeks-" + secrets.token_hex(4),
        "--bot-workers",
        "0",
        "--limit",
        "seek=10000/minute",
    )
    procs = [ServerProcess(pg_url, *extra) for _ in range(3)]
    try:
        seeks = asyncio.run(_all([p.url for p in procs]))
    finally:
        for p in procs:
            p.stop()
    assert all(s["status"] == "paired" for s in seeks)
    per_game = Counter(s["game_id"] for s in seeks)
    assert len(per_game) == CLIENTS // 2 and set(per_game.values()) == {2}
    assert len({s["id"] for s in seeks}) == CLIENTS
    engine = create_engine(pg_url.replace("postgresql://", "postgresql+psycopg://", 1))
    try:
        with engine.connect() as conn:
            games = conn.execute(text("SELECT count(*) FROM arena_games")).scalar_one()
            seats = {
                (r.game_id, r.seat): r.token_hash
                for r in conn.execute(text("SELECT game_id, seat, token_hash FROM arena_seats"))
            }
            statuses = Counter(conn.execute(text("SELECT status FROM arena_seeks")).scalars())
    finally:
        engine.dispose()
    assert games == CLIENTS // 2  # no game made twice, none for nobody
    assert statuses == {"paired": CLIENTS}
    for s in seeks:  # each seat is its own seeker's, by the seek's token
        assert seats[(s["game_id"], s["seat"])] == hash_token(s["token"])
    # how long after the second seek of a game arrived both seekers knew (a figure)
    pairs: dict[str, list[dict[str, Any]]] = {}
    for s in seeks:
        pairs.setdefault(s["game_id"], []).append(s)
    lags = sorted(max(x["told"] for x in p) - max(x["sent"] for x in p) for p in pairs.values())
    print(f"\nsecond seek -> both told: median {lags[len(lags) // 2]:.3f} s, max {lags[-1]:.3f} s")
