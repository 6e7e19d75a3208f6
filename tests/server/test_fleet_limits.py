"""Rate limits hold across a fleet: three ``serve`` processes on one PostgreSQL and one
Redis count one address's new games together (the counters are in Redis, named by the
fleet's channel), so spreading a flood over the processes does not multiply it; a
sign-in's wrong passwords are counted fleet-wide the same way."""

from __future__ import annotations

import secrets

import httpx
import pytest
from arena_helpers import REDIS_URL, ServerProcess

from services import require_redis

# Processes of their own: these tests run one after another on one test worker
# (pytest -n 2 --dist loadgroup), never two fleets at once on a 2-core machine.
pytestmark = pytest.mark.xdist_group("processes")

ALLOWED = 6


def test_rate_limits_hold_across_three_processes(pg_url: str) -> None:
    require_redis()
    channel = "arena-limits-" + secrets.token_hex(4)  # counters of this fleet only
    extra = ("--redis-url", REDIS_URL, "--channel", channel, "--bot-workers", "0")
    limits = ("--limit", f"create={ALLOWED}/minute", "--limit", "signin_fail=3/minute")
    procs = [ServerProcess(pg_url, *extra, *limits) for _ in range(3)]
    try:
        game = {"game": "tic-tac-sudoku", "mode": "hotseat"}
        codes = [
            httpx.post(procs[i % 3].url + "/api/matches", json=game, timeout=20).status_code
            for i in range(ALLOWED + 3)
        ]
        # Each process alone would have allowed ALLOWED: together they allow it once.
        assert codes == [201] * ALLOWED + [429] * 3, codes
        refused = httpx.post(procs[1].url + "/api/matches", json=game, timeout=20)
        assert refused.status_code == 429 and int(refused.headers["retry-after"]) > 0

        made = httpx.post(
            procs[0].url + "/api/account/signup",
            json={"name": "fleetuser", "password": "a long enough secret"},
            timeout=20,
        )
        assert made.status_code == 201  # the session is in the database...
        me = httpx.get(procs[2].url + "/api/account", cookies=made.cookies, timeout=20).json()
        assert me["name"] == "fleetuser"  # ...so every process knows it
        wrong = {"name": "fleetuser", "password": "not the password"}
        answers = [
            httpx.post(procs[i % 3].url + "/api/account/signin", json=wrong, timeout=20)
            for i in range(4)
        ]
        assert [r.status_code for r in answers] == [401, 401, 401, 429]
    finally:
        for p in procs:
            p.stop()
