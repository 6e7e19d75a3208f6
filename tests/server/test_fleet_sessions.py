"""Sessions end everywhere at once on a fleet: each process keeps the sessions it read
for a few seconds (server/sessions.py), and a sign-out or a new password on one process
ends the session on the others through the fan-out, long before that time is up."""

from __future__ import annotations

import secrets
import time

import httpx
import pytest
from arena_helpers import REDIS_URL, ServerProcess

from services import require_redis

pytestmark = pytest.mark.xdist_group("processes")

PASSWORD = "a long enough secret"


def _who(proc: ServerProcess, cookies: httpx.Cookies) -> bool:
    body = httpx.get(proc.url + "/api/account", cookies=cookies, timeout=20).json()
    return bool(body["signed_in"])


def _gone_within(procs: list[ServerProcess], cookies: httpx.Cookies, seconds: float) -> float:
    """Seconds until every process in ``procs`` takes ``cookies`` for a guest."""
    start = time.monotonic()
    while any(_who(p, cookies) for p in procs):
        assert time.monotonic() - start < seconds, "a process still takes the ended session"
        time.sleep(0.05)
    return time.monotonic() - start


def test_a_sign_out_and_a_new_password_end_sessions_on_every_process(pg_url: str) -> None:
    require_redis()
    channel = "arena-sessions-" + secrets.token_hex(4)
    extra = ("--redis-url", REDIS_URL, "--channel", channel, "--bot-workers", "0")
    procs = [ServerProcess(pg_url, *extra) for _ in range(3)]
    try:
        name = "s" + secrets.token_hex(4)
        made = httpx.post(
            procs[0].url + "/api/account/signup",
            json={"name": name, "password": PASSWORD},
            timeout=20,
        )
        assert made.status_code == 201, made.text
        first = made.cookies
        assert all(_who(p, first) for p in procs)  # each process now keeps the session
        out = httpx.post(
            procs[0].url + "/api/account/signout",
            json={},
            cookies=first,
            headers={"x-csrf-token": made.json()["csrf"]},
            timeout=20,
        )
        assert out.status_code == 200, out.text
        # Well within the time a process keeps a session (60 s): the fan-out told them.
        print("sign-out seen everywhere after", round(_gone_within(procs, first, 5.0), 3), "s")

        # Two browsers signed in; a new password on the first ends the second's session
        # on every process, and the first goes on.
        signin = {"name": name, "password": PASSWORD}
        a = httpx.post(procs[1].url + "/api/account/signin", json=signin, timeout=20)
        b = httpx.post(procs[2].url + "/api/account/signin", json=signin, timeout=20)
        assert a.status_code == b.status_code == 200
        assert all(_who(p, b.cookies) for p in procs)
        changed = httpx.post(
            procs[1].url + "/api/account/password",
            json={"old_password": PASSWORD, "new_password": PASSWORD + " 2"},
            cookies=a.cookies,
            headers={"x-csrf-token": a.json()["csrf"]},
            timeout=20,
        )
        assert changed.status_code == 200, changed.text
        _gone_within(procs, b.cookies, 5.0)
        assert all(_who(p, changed.cookies) for p in procs)  # the changer's new session
    finally:
        for p in procs:
            p.stop()
