"""The container recipe, run as processes (this machine has no container engine): the
service commands of compose.yaml (two ``serve --bots-elsewhere``, one ``bots``) are
started against the local PostgreSQL and Redis; each answers /readyz, and a person's
move on one ``serve`` gets its bot's answer from the ``bots`` process."""

from __future__ import annotations

import secrets
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import httpx
import pytest
import yaml
from arena_helpers import REDIS_URL, Player, create, free_port
from prometheus_client.parser import text_string_to_metric_families

from services import require_redis

# Processes of their own: these tests run one after another on one test worker
# (pytest -n 2 --dist loadgroup), never two fleets at once on a 2-core machine.
pytestmark = pytest.mark.xdist_group("processes")

ROOT = Path(__file__).resolve().parents[2]
COMPOSE_DB = "postgresql://arena:arena@postgres:5432/arena"
COMPOSE_REDIS = "redis://redis:6379/0"


def compose() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((ROOT / "compose.yaml").read_text())
    return data


def command(service: str, db_url: str, channel: str, port: int) -> list[str]:
    """The service's command from compose.yaml, pointed at this machine's services."""
    args = [str(a) for a in compose()["services"][service]["command"]]
    swap = {COMPOSE_DB: db_url, COMPOSE_REDIS: REDIS_URL, "0.0.0.0": "127.0.0.1"}
    args = [swap.get(a, a) for a in args]
    for option, value in (("--channel", channel), ("--port", str(port))):
        if option in args:
            args[args.index(option) + 1] = value
    if "--metrics-port" in args:
        args[args.index("--metrics-port") + 1] = str(port)
    return [sys.executable, "-m", "sudoku_arena.cli.main", *args]


LOGS: dict[int, IO[bytes]] = {}  # a process's standard error, by its pid


def wait_ready(url: str, proc: subprocess.Popen[bytes], timeout: float = 40) -> dict[str, Any]:
    deadline = time.time() + timeout
    while True:
        try:
            resp = httpx.get(url + "/readyz", timeout=2)
            if resp.status_code == 200:
                body: dict[str, Any] = resp.json()
                return body
        except httpx.HTTPError:
            pass
        if proc.poll() is not None or time.time() > deadline:
            raise AssertionError(f"not ready: {log_of(proc)[-2000:]}")
        time.sleep(0.2)


def log_of(proc: subprocess.Popen[bytes]) -> str:
    """What ``proc`` (started by :meth:`Fleet.start`) wrote to its standard error."""
    log = LOGS.get(proc.pid)
    if log is None:
        return ""
    log.seek(0)
    return log.read().decode(errors="replace")


def samples(url: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    text = httpx.get(url + "/metrics", timeout=10).text
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for f in text_string_to_metric_families(text)
        for s in f.samples
    }


@dataclass
class Fleet:
    pg_url: str
    channel: str
    procs: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)
    urls: dict[str, str] = field(default_factory=dict)

    def start(self, name: str, *extra: str) -> None:
        port = free_port()
        # The log goes to a file: an unread pipe fills up and then blocks the server.
        log = tempfile.TemporaryFile()  # noqa: SIM115 (lives as long as the process)
        proc = subprocess.Popen(
            [*command(name, self.pg_url, self.channel, port), *extra],
            stdout=subprocess.DEVNULL,
            stderr=log,
        )
        LOGS[proc.pid] = log
        self.procs[name] = proc
        self.urls[name] = f"http://127.0.0.1:{port}"

    def stop(self) -> None:
        """SIGTERM to every process (each drains), SIGKILL to any still there after 20 s."""
        for proc in self.procs.values():
            proc.terminate()
        for proc in self.procs.values():
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


@pytest.fixture
def fleet(pg_url: str) -> Iterator[Fleet]:
    require_redis()
    f = Fleet(pg_url, "deploy-" + secrets.token_hex(4))
    procs, urls = f.procs, f.urls
    try:
        for name in ("serve-1", "serve-2", "bots"):
            f.start(name)
        for name, proc in procs.items():
            body = wait_ready(urls[name], proc)
            assert body["checks"] == {
                "database": "ok",
                "migrations": "ok",
                "redis": "ok",
                "draining": "ok",
            }, name
        yield f
    finally:
        f.stop()


def test_compose_services_run_as_processes(fleet: Fleet) -> None:
    serve1, serve2, bots = fleet.urls["serve-1"], fleet.urls["serve-2"], fleet.urls["bots"]
    before = samples(bots)
    bot_seat = [{"kind": "human"}, {"kind": "bot", "agent": "random"}]
    made = create(serve1, seats=bot_seat)
    # The person plays on the other serve process; the bot answers from the bots one.
    ws2 = serve2.replace("http://", "ws://")
    person = Player(ws2, made["id"], [made["seats"][0]["token"]])
    try:
        assert person.act(person.state[0]["view"]["legal"][0], 0)["type"] == "ack"
        assert person.wait_ply(2, timeout=30)["ply"] == 2
        # The bots process restarted (SIGTERM drains it): the next one takes over.
        old = fleet.procs["bots"]
        old.send_signal(signal.SIGTERM)
        assert old.wait(timeout=30) in (0, -signal.SIGTERM)
        fleet.start("bots")
        wait_ready(fleet.urls["bots"], fleet.procs["bots"])
        assert person.act(person.state[0]["view"]["legal"][0], 2, msg_id=2)["type"] == "ack"
        assert person.wait_ply(4, timeout=30)["ply"] == 4
    finally:
        person.close()
    game = (("game", "tic-tac-sudoku"),)
    key = ("sudoku_arena_bot_move_seconds_count", game)
    assert before.get(key, 0.0) == 0.0
    assert samples(fleet.urls["bots"])[key] >= 1  # the new bots process moved
    for serve in (serve1, serve2):  # they thought for no bot
        assert samples(serve).get(key, 0.0) == 0.0
    assert httpx.get(fleet.urls["bots"] + "/healthz").text == "ok"


def test_a_bots_process_on_ray_moves_the_fleets_bots(pg_url: str) -> None:
    """``bots --backend ray``: the bots process takes the fleet's bot turns as before and
    has them thought as Ray tasks (here on a Ray instance of its own; on a cluster, given
    its address, on whichever machine has a free core)."""
    require_redis()
    f = Fleet(pg_url, "ray-" + secrets.token_hex(4))
    try:
        f.start("serve-1")
        f.start("bots", "--backend", "ray", "--bot-workers", "1")
        for name, proc in f.procs.items():
            wait_ready(f.urls[name], proc, timeout=120)
        serve, bots = f.urls["serve-1"], f.urls["bots"]
        made = create(serve, seats=[{"kind": "human"}, {"kind": "bot", "agent": "normal"}])
        person = Player(serve.replace("http://", "ws://"), made["id"], [made["seats"][0]["token"]])
        try:
            assert person.act(person.state[0]["view"]["legal"][0], 0)["type"] == "ack"
            assert person.wait_ply(2, timeout=60)["ply"] == 2
        finally:
            person.close()
        key = ("sudoku_arena_bot_move_seconds_count", (("game", "tic-tac-sudoku"),))
        assert samples(bots)[key] == 1  # thought for by the bots process, through Ray
        assert samples(serve).get(key, 0.0) == 0.0
        bots_proc = f.procs["bots"]
        bots_proc.send_signal(signal.SIGTERM)  # drains, then stops its Ray instance
        assert bots_proc.wait(timeout=60) in (0, -signal.SIGTERM)
    finally:
        f.stop()


def test_the_recipe_says_what_the_docs_say() -> None:
    docker = (ROOT / "Dockerfile").read_text()
    assert "USER arena" in docker and "HEALTHCHECK" in docker and "/healthz" in docker
    assert 'ENTRYPOINT ["sudoku-arena"]' in docker
    services = compose()["services"]
    assert {"postgres", "redis", "serve-1", "serve-2", "bots", "proxy"} <= set(services)
    assert all("--bots-elsewhere" in services[s]["command"] for s in ("serve-1", "serve-2"))
    assert services["bots"]["command"][0] == "bots"
    caddy = (ROOT / "deploy" / "Caddyfile").read_text()
    assert "health_uri /readyz" in caddy and "serve-1:8000 serve-2:8000" in caddy
