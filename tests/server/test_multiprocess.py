"""Several server processes sharing PostgreSQL, fanning out moves over Redis: players
connected to different processes play one game and see each other's moves live."""

from __future__ import annotations

import random
import secrets

import httpx
import pytest
from arena_helpers import REDIS_URL, Player, ServerProcess, create

from services import require_redis

# Processes of their own: these tests run one after another on one test worker
# (pytest -n 2 --dist loadgroup), never two fleets at once on a 2-core machine.
pytestmark = pytest.mark.xdist_group("processes")


def test_two_processes_share_games_through_postgresql_and_redis(pg_url: str) -> None:
    require_redis()
    channel = "arena-test-" + secrets.token_hex(4)
    extra = ("--redis-url", REDIS_URL, "--channel", channel, "--bot-workers", "0")
    a = ServerProcess(pg_url, *extra)
    b = ServerProcess(pg_url, *extra)
    try:
        made = create(a.url)
        gid = made["id"]
        t0, t1 = (s["token"] for s in made["seats"])
        p0 = Player(a.ws_url, gid, [t0])  # on process A
        p1 = Player(b.ws_url, gid, [t1])  # on process B, which loads the game itself
        watcher = Player(b.ws_url, gid)
        players = {0: p0, 1: p1}
        rng = random.Random(8)
        ply = 0
        while True:
            st = p0.wait_ply(ply)
            if st["status"] == "finished":
                break
            seat = st["view"]["to_move"][0]
            view = players[seat].wait_ply(ply)["view"]  # arrives through the fan-out
            ack = players[seat].act(rng.choice(view["legal"]), ply, msg_id=ply)
            assert ack["type"] == "ack", ack
            ply = ack["next_ply"]
        assert p1.wait_ply(ply)["outcome"] == p0.state[0]["outcome"]
        assert watcher.wait_ply(ply)["status"] == "finished"
        # a move refused on one process because the other moved first is a clean stale
        for server in (a, b):
            info = httpx.get(f"{server.url}/api/matches/{gid}").json()
            assert info["ply"] == ply and info["status"] == "finished"
        for p in (p0, p1, watcher):
            p.close()

        # Both processes accept moves for one game: the second is refused as stale (by
        # its own copy if the fan-out was quicker, else by the database; the database
        # alone decides in test_resilience.py).
        made = create(b.url, mode="hotseat")
        gid = made["id"]
        tokens = [s["token"] for s in made["seats"]]
        on_a = Player(a.ws_url, gid, tokens)
        on_b = Player(b.ws_url, gid, tokens)
        legal = on_a.state[0]["view"]["legal"]
        first = on_a.act(legal[0], 0, seat=0, msg_id=1)
        second = on_b.act(legal[1], 0, seat=0, msg_id=2)  # same ply, other process
        assert first["type"] == "ack"
        assert second["type"] == "error" and second["code"] == "stale"
        assert on_b.wait_ply(1, seat=0)["log"][-1]["action"] == legal[0]
        on_a.close()
        on_b.close()
    finally:
        a.stop()
        b.stop()
