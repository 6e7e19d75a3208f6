"""One alert per move on a fleet: three ``serve`` processes on one PostgreSQL and one
Redis, correspondence games whose moves are made through any of them, and a local push
endpoint subscribed for every seat. Each time a player's turn comes, exactly one Web
Push reaches that player (decrypted at the endpoint as a browser would), whichever
process stored the move; the player who moved gets none."""

from __future__ import annotations

import random
import secrets
import time
from collections import Counter

import httpx
import pytest
from arena_helpers import REDIS_URL, ServerProcess
from push_endpoint import PushEndpoint

from services import require_redis

# Processes of their own: these tests run one after another on one test worker
# (pytest -n 2 --dist loadgroup), never two fleets at once on a 2-core machine.
pytestmark = pytest.mark.xdist_group("processes")

GAMES = 4
MOVES = 5  # per game


def test_a_fleet_sends_one_push_per_move_to_the_waiting_player(pg_url: str) -> None:
    require_redis()
    rng = random.Random(35)
    extra = ("--redis-url", REDIS_URL, "--channel", "alerts-" + secrets.token_hex(4))
    extra += ("--bot-workers", "0", "--push-http-endpoints", "--push-contact", "mailto:op@x.org")
    procs = [ServerProcess(pg_url, *extra) for _ in range(3)]
    try:
        with PushEndpoint() as push, httpx.Client(timeout=20) as http:
            games: list[tuple[str, list[str]]] = []
            for g in range(GAMES):
                made = http.post(
                    procs[g % 3].url + "/api/matches",
                    json={"game": "tic-tac-sudoku", "clock": {"days": 2}},
                ).json()
                tokens = [s["token"] for s in made["seats"]]
                for seat, token in enumerate(tokens):
                    body = {
                        "subscription": push.subscription(f"{made['id']}/{seat}"),
                        "game_id": made["id"],
                        "token": token,
                    }
                    answer = http.post(rng.choice(procs).url + "/api/push/subscribe", json=body)
                    assert answer.status_code == 200, answer.text
                games.append((made["id"], tokens))
            expected: Counter[tuple[str, int, int]] = Counter()  # (game, ply, seat)
            for _ in range(MOVES):
                for gid, tokens in games:
                    base = rng.choice(procs).url
                    info = http.get(f"{base}/api/matches/{gid}").json()
                    if info["status"] != "active":
                        continue
                    auth = {"authorization": f"Bearer {tokens[0]}"}
                    view = http.get(f"{base}/api/matches/{gid}/state", headers=auth).json()
                    seat = view["view"]["to_move"][0]
                    state = http.get(
                        f"{base}/api/matches/{gid}/state",
                        headers={"authorization": f"Bearer {tokens[seat]}"},
                    ).json()
                    body = {
                        "token": tokens[seat],
                        "ply": state["ply"],
                        "action": rng.choice(state["view"]["legal"]),
                    }
                    done = http.post(f"{base}/api/matches/{gid}/actions", json=body).json()
                    if done["status"] == "active":
                        expected[(gid, done["next_ply"], 1 - seat)] += 1
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline and len(push.received) < len(expected):
                time.sleep(0.1)
            time.sleep(1.0)  # a duplicate would arrive by now
            got = Counter(
                (r.payload["game_id"], r.payload["ply"], r.payload["seat"]) for r in push.received
            )
            assert push.errors == []
            assert len(expected) >= GAMES * 3 and got == expected
            for r in push.received:  # each went to the subscription of the seat it names
                assert r.name == f"{r.payload['game_id']}/{r.payload['seat']}"
                assert r.claims["sub"] == "mailto:op@x.org"
            keys = {r.vapid_key for r in push.received}
            assert keys == {http.get(p.url + "/api/push/key").json()["key"] for p in procs}
            assert len(keys) == 1  # the whole fleet signs with one key
    finally:
        for p in procs:
            p.stop()
