"""``db backup`` and ``db restore``: a database with finished, running and timed games is
copied while its server runs, restored elsewhere, and a server started on the copy goes
on with the running games. SQLite through the commands (its online backup); PostgreSQL
through pg_dump and pg_restore, the commands the docs and ``db backup`` give."""

from __future__ import annotations

import secrets
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from arena_helpers import PG_BASE, LiveServer, Player, create
from sqlalchemy import create_engine, text

from services import require_postgres
from sudoku_arena.server import ServerConfig


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sudoku_arena.cli.main", *args],
        capture_output=True,
        text=True,
        timeout=60,
    )


def config(url: str) -> ServerConfig:
    return ServerConfig(database_url=url, bot_workers=0, bot_delay=0.0, analysis=False)


def status(server: LiveServer, game_id: str) -> dict[str, Any]:
    resp = httpx.get(f"{server.url}/api/matches/{game_id}", timeout=20)
    assert resp.status_code == 200, resp.text
    info: dict[str, Any] = resp.json()
    return info


def first_move(server: LiveServer, made: dict[str, Any]) -> None:
    p = Player(server.ws_url, made["id"], [made["seats"][0]["token"]])
    try:
        assert p.act(p.state[0]["view"]["legal"][0], 0)["type"] == "ack"
    finally:
        p.close()


def play_games(server: LiveServer) -> dict[str, dict[str, Any]]:
    """A finished game (bots), a running invite and a running timed game, a move each."""
    bots = [{"kind": "bot", "agent": "random"}, {"kind": "bot", "agent": "random"}]
    games = {
        "finished": create(server.url, seats=bots),
        "running": create(server.url),
        "timed": create(server.url, clock={"minutes": 30, "increment": 5}),
    }
    first_move(server, games["running"])
    first_move(server, games["timed"])
    deadline = time.time() + 30
    while status(server, games["finished"]["id"])["status"] != "finished":
        assert time.time() < deadline, "the bots' game did not finish"
        time.sleep(0.1)
    return games


def check_restored(url: str, games: dict[str, dict[str, Any]]) -> None:
    """A server on the restored database: every game as it was, and play goes on."""
    with LiveServer(config(url)) as s:
        assert status(s, games["finished"]["id"])["status"] == "finished"
        for name in ("running", "timed"):
            made = games[name]
            info = status(s, made["id"])
            assert info["status"] == "active", (name, info)
            second = Player(s.ws_url, made["id"], [made["seats"][1]["token"]])
            try:
                view = second.state[1]
                assert view["ply"] == 1  # the move made before the backup is there
                ack = second.act(view["view"]["legal"][0], 1)
                assert ack["type"] == "ack", ack
            finally:
                second.close()
        assert status(s, games["timed"]["id"])["clock"] is not None


def test_sqlite_backup_while_serving_and_restore(tmp_path: Path) -> None:
    source = tmp_path / "live.sqlite3"
    copy = tmp_path / "backup.sqlite3"
    restored = tmp_path / "restored.sqlite3"
    with LiveServer(config(f"sqlite:///{source}")) as s:
        games = play_games(s)
        run = cli("db", "backup", str(copy), "--database-url", f"sqlite:///{source}")
        assert run.returncode == 0, run.stderr
        again = cli("db", "backup", str(copy), "--database-url", f"sqlite:///{source}")
        assert again.returncode == 2 and "already exists" in again.stderr
    run = cli("db", "restore", str(copy), "--database-url", f"sqlite:///{restored}")
    assert run.returncode == 0, run.stderr
    assert not list(tmp_path.glob("*.partial"))
    check_restored(f"sqlite:///{restored}", games)
    # A database that exists is replaced only when asked.
    run = cli("db", "restore", str(copy), "--database-url", f"sqlite:///{restored}")
    assert run.returncode == 2 and "--replace" in run.stderr
    not_ours = tmp_path / "other.sqlite3"
    not_ours.write_bytes(b"not a database at all" * 100)
    run = cli("db", "restore", str(not_ours), "--database-url", f"sqlite:///{restored}")
    assert run.returncode == 2 and "not a SQLite database" in run.stderr


@pytest.fixture
def fresh_database() -> Iterator[Callable[[], str]]:
    """Fresh PostgreSQL databases (``CREATE DATABASE``), dropped afterwards."""
    require_postgres()
    admin = create_engine(
        PG_BASE.replace("postgresql://", "postgresql+psycopg://", 1), isolation_level="AUTOCOMMIT"
    )
    made: list[str] = []

    def make() -> str:
        name = "arena_bk_" + secrets.token_hex(5)
        with admin.connect() as conn:
            conn.execute(text(f"CREATE DATABASE {name}"))
        made.append(name)
        return PG_BASE.rsplit("/", 1)[0] + "/" + name

    try:
        yield make
    finally:
        with admin.connect() as conn:
            for name in made:
                conn.execute(text(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
        admin.dispose()


def test_postgresql_backup_and_restore_with_its_tools(
    tmp_path: Path, fresh_database: Callable[[], str]
) -> None:
    source, target = fresh_database(), fresh_database()
    dump = tmp_path / "arena.dump"
    told = cli("db", "backup", str(dump), "--database-url", source)
    assert told.returncode == 2 and "pg_dump --format=custom" in told.stderr
    with LiveServer(config(source)) as s:
        games = play_games(s)
        # The command db backup names, run while the server runs.
        subprocess.run(
            ["pg_dump", "--format=custom", "--no-owner", "--file", str(dump), source],
            check=True,
            timeout=60,
        )
    told = cli("db", "restore", str(dump), "--database-url", target)
    assert told.returncode == 2 and "pg_restore" in told.stderr
    subprocess.run(
        ["pg_restore", "--no-owner", "--exit-on-error", "--dbname", target, str(dump)],
        check=True,
        timeout=60,
    )
    check_restored(target, games)
