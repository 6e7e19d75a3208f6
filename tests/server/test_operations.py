"""Running it for real: /healthz, /readyz, /metrics, structured logs with their context."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import subprocess
import sys
import time
from collections.abc import Iterator

import httpx
import pytest
from arena_helpers import REDIS_URL, LiveServer, Player, create
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy import text

from services import require_redis
from sudoku_arena.server import ServerConfig, logs
from sudoku_arena.server.health import RedisCheck, known_heads
from sudoku_arena.server.limits import RULES


def scrape(base_url: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of ``/metrics``, parsed by prometheus-client's own parser."""
    resp = httpx.get(base_url + "/metrics", timeout=20)
    assert resp.status_code == 200
    assert resp.headers["content-type"].startswith("text/plain")
    out = {}
    for family in text_string_to_metric_families(resp.text):
        for s in family.samples:
            out[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return out


def test_healthz_and_readyz_answer_when_all_is_well(server: LiveServer) -> None:
    resp = httpx.get(server.url + "/healthz")
    assert (resp.status_code, resp.text) == (200, "ok")
    ready = httpx.get(server.url + "/readyz")
    assert ready.status_code == 200, ready.text
    body = ready.json()
    assert body["ready"] is True and body["failed"] == []
    assert body["checks"] == {
        "database": "ok",
        "migrations": "ok",
        "redis": "not used",
        "draining": "ok",
    }


def test_readyz_names_the_check_that_fails(server: LiveServer) -> None:
    engine = server.arena.storage.engine
    with engine.begin() as conn:  # a newer server migrated the database further
        conn.execute(text("INSERT INTO alembic_version (version_num) VALUES ('9999')"))
    resp = httpx.get(server.url + "/readyz")
    assert resp.status_code == 503
    body = resp.json()
    assert body["failed"] == ["migrations"]
    assert body["checks"]["migrations"] == "newer than this server: 9999"
    with engine.begin() as conn:  # and one head of ours is missing
        conn.execute(text("DELETE FROM alembic_version"))
        conn.execute(text("INSERT INTO alembic_version (version_num) VALUES ('0001')"))
    body = httpx.get(server.url + "/readyz").json()
    assert body["checks"]["migrations"].startswith("not applied: ")
    assert set(body["checks"]["migrations"][len("not applied: ") :].split(", ")) == set(
        known_heads()
    )
    with engine.begin() as conn:
        conn.execute(text("DELETE FROM alembic_version"))
        for head in known_heads():
            conn.execute(text("INSERT INTO alembic_version VALUES (:v)"), {"v": head})
    assert httpx.get(server.url + "/readyz").status_code == 200
    server.app.state.draining = True  # what SIGTERM sets
    resp = httpx.get(server.url + "/readyz")
    assert resp.status_code == 503
    assert resp.json()["failed"] == ["draining"]
    assert httpx.get(server.url + "/healthz").status_code == 200  # alive all the same


def test_redis_check_answers_ok_or_unreachable() -> None:
    require_redis()
    assert asyncio.run(RedisCheck(REDIS_URL)()) == "ok"
    assert asyncio.run(RedisCheck("redis://127.0.0.1:1/0")()).startswith("unreachable: ")
    assert asyncio.run(RedisCheck(None)()) == "not used"


def test_operations_endpoints_count_against_no_rate_limit(sqlite_url: str) -> None:
    tight = {name: "2/minute" for name in RULES}
    cfg = ServerConfig(database_url=sqlite_url, bot_workers=0, limit_rules=tight)
    with LiveServer(cfg) as s:
        with s.client() as c:
            for _ in range(20):
                for path in ("/healthz", "/readyz", "/metrics"):
                    assert c.get(path).status_code == 200, path
        limits = s.app.state.limits
        assert all(limits.used(rule, "ip:127.0.0.1") == 0 for rule in RULES)
        create(s.url)  # the limits are on: a game may still be made, twice
        create(s.url)
        third = httpx.post(s.url + "/api/matches", json={"game": "tic-tac-sudoku"})
        assert third.status_code == 429


def test_metrics_after_a_played_game(server: LiveServer) -> None:
    before = scrape(server.url)
    assert httpx.get(server.url + "/api/matches/nosuchgame").status_code == 404
    made = create(server.url, seats=[{"kind": "human"}, {"kind": "bot", "agent": "random"}])
    player = Player(server.ws_url, made["id"], [made["seats"][0]["token"]])
    try:
        assert player.act(player.state[0]["view"]["legal"][0], 0)["type"] == "ack"
        player.wait_ply(2)  # the bot answered
        after = scrape(server.url)
        key = ("sudoku_arena_refusals_total", (("code", "not_found"),))
        assert after[key] == before.get(key, 0.0) + 1
        assert after[("sudoku_arena_open_sockets", ())] >= 1
        assert after[("sudoku_arena_games_in_memory", ())] >= 1
        game = (("game", "tic-tac-sudoku"),)
        moves = ("sudoku_arena_moves_acknowledged_total", game)
        assert after[moves] == before.get(moves, 0.0) + 1  # the person's move, not the bot's
        acks = ("sudoku_arena_ack_seconds_count", game)
        assert after[acks] == before.get(acks, 0.0) + 1
        assert after[("sudoku_arena_ack_seconds_sum", game)] > before.get(
            ("sudoku_arena_ack_seconds_sum", game), 0.0
        )
        commits = ("sudoku_arena_commit_seconds_count", ())
        assert after[commits] >= before.get(commits, 0.0) + 2  # the move and the bot's
        bot = ("sudoku_arena_bot_move_seconds_count", game)
        assert after[bot] >= before.get(bot, 0.0) + 1
        assert after[("sudoku_arena_bot_queue_length", ())] == 0
        assert after[("sudoku_arena_analysis_backlog", ())] >= 0
    finally:
        player.close()


def test_request_id_is_echoed_or_made(server: LiveServer) -> None:
    given = httpx.get(server.url + "/healthz", headers={"x-request-id": "edge-42.a"})
    assert given.headers["x-request-id"] == "edge-42.a"
    made = httpx.get(server.url + "/healthz", headers={"x-request-id": "no spaces please"})
    assert made.headers["x-request-id"] != "no spaces please"
    assert len(made.headers["x-request-id"]) == 16


@pytest.fixture
def captured() -> Iterator[io.StringIO]:
    out = io.StringIO()
    root = logging.getLogger()
    saved = (list(root.handlers), root.level)
    logs.configure("json", "info")
    root.handlers[0].setStream(out)  # type: ignore[attr-defined]
    try:
        yield out
    finally:
        root.handlers[:] = saved[0]
        root.setLevel(saved[1])


def test_json_log_lines_carry_request_game_and_seat(captured: io.StringIO) -> None:
    scope = {"type": "websocket", "path": "/ws/abc123", "headers": [(b"x-request-id", b"r-1")]}
    log = logging.getLogger("sudoku_arena.server")
    with logs.request_context(scope):
        logs.bind(seat_number=1)
        log.info("move %s", "c3")

        async def in_a_task() -> None:  # tasks started from here keep the context
            log.warning("late")

        asyncio.run(in_a_task())
    log.info("outside")
    lines = [json.loads(line) for line in captured.getvalue().splitlines()]
    assert lines[0]["message"] == "move c3"
    assert (lines[0]["request_id"], lines[0]["game_id"], lines[0]["seat"]) == ("r-1", "abc123", 1)
    assert lines[1]["level"] == "warning" and lines[1]["game_id"] == "abc123"
    assert "game_id" not in lines[2] and "request_id" not in lines[2]
    assert time.strptime(lines[0]["time"][:19], "%Y-%m-%dT%H:%M:%S")


def test_text_log_lines_name_the_context() -> None:
    record = logging.LogRecord("sudoku_arena.server", logging.INFO, "", 0, "hello", (), None)
    record.game_id, record.seat, record.request_id = "g1", 0, "r9"
    line = logs.TextFormatter().format(record)
    assert line == "INFO sudoku_arena.server: hello [game=g1 seat=0 request=r9]"


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["serve", "--log-format", "xml"], "--log-format xml: not a log format; allowed: text"),
        (["serve", "--bots-elsewhere"], "--bots-elsewhere: bots in other processes need a Postg"),
        (["bots", "--database-url", "sqlite:///x.sqlite3"], "bots: bots in other processes need"),
    ],
)
def test_operations_options_refused_clearly(args: list[str], says: str) -> None:
    run = subprocess.run(
        [sys.executable, "-m", "sudoku_arena.cli.main", *args],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 2
    assert says in " ".join(run.stderr.split()), run.stderr
    assert "Traceback" not in run.stderr
