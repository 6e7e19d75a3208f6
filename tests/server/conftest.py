"""Fixtures for the server tests: databases (SQLite and the PostgreSQL server) and a
live server in a thread."""

from __future__ import annotations

import secrets
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from sudoku_arena.server import ServerConfig

sys.path.insert(0, str(Path(__file__).parent))
from arena_helpers import PG_BASE, LiveServer

from services import chromium, require_postgres


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path}/arena.sqlite3"


@pytest.fixture
def pg_url() -> Iterator[str]:
    """A fresh schema in the PostgreSQL test database, dropped afterwards."""
    from sqlalchemy import create_engine, text

    require_postgres()  # skips with the reason, or fails under REQUIRE_SERVICES=1
    schema = "arena_t_" + secrets.token_hex(6)
    base = PG_BASE.replace("postgresql://", "postgresql+psycopg://", 1)
    engine = create_engine(base)
    try:
        with engine.begin() as conn:
            conn.execute(text(f"CREATE SCHEMA {schema}"))
    except Exception as exc:  # the storage tests must run against the real server
        pytest.fail(f"PostgreSQL at {PG_BASE} is not reachable: {exc}")
    sep = "&" if "?" in PG_BASE else "?"
    try:
        yield f"{PG_BASE}{sep}options=-csearch_path%3D{schema}"
    finally:
        with engine.begin() as conn:
            conn.execute(text(f"DROP SCHEMA {schema} CASCADE"))
        engine.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path}/arena.sqlite3"
    url: str = request.getfixturevalue("pg_url")
    return url


@pytest.fixture
def server(sqlite_url: str) -> Iterator[LiveServer]:
    with LiveServer(ServerConfig(database_url=sqlite_url, bot_workers=0, bot_delay=0.0)) as s:
        yield s


@pytest.fixture(scope="module")
def bot_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A live server whose bots move at once, shared by a module's browser tests."""
    url = f"sqlite:///{tmp_path_factory.mktemp('db') / 'arena.sqlite3'}"
    with LiveServer(ServerConfig(database_url=url, bot_workers=1, bot_delay=0.0)) as s:
        yield s


@pytest.fixture(scope="module")
def module_browser() -> Iterator[Any]:
    """Debian's chromium, shared by a module's tests (see services.chromium)."""
    with chromium() as b:
        yield b
