"""Services some tests need (PostgreSQL, Redis, Debian's chromium), found or refused.

A test that needs a service calls :func:`require`. On a user's machine without the
service the test skips with a one-line reason; where ``SUDOKU_ARENA_REQUIRE_SERVICES=1``
(set by ``.ci/run``) its absence fails the test instead, so CI can never go green by
skipping.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from urllib.parse import urlsplit

import pytest

#: Where the services are (the environment may point elsewhere, or at nothing to try
#: the skips: ``ARENA_TEST_PG=postgresql://x@127.0.0.1:1/x``).
PG_URL = os.environ.get("ARENA_TEST_PG", "postgresql://postgres@127.0.0.1:5432/test")
REDIS_URL = os.environ.get("ARENA_TEST_REDIS", "redis://127.0.0.1:6379/0")
CHROMIUM = os.environ.get("SUDOKU_ARENA_CHROMIUM", "/usr/bin/chromium")
#: Chromium flags for this machine's closed network (no background connections).
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def required() -> bool:
    """Whether missing services fail tests instead of skipping them."""
    return os.environ.get("SUDOKU_ARENA_REQUIRE_SERVICES") == "1"


def require(what: str, available: bool, how: str = "") -> None:
    """Skip (or, under ``SUDOKU_ARENA_REQUIRE_SERVICES=1``, fail) unless ``available``."""
    if available:
        return
    reason = f"{what} is not available" + (f" ({how})" if how else "")
    if required():
        pytest.fail(reason + "; SUDOKU_ARENA_REQUIRE_SERVICES=1 demands it")
    pytest.skip(reason)


def reachable(host: str, port: int, timeout: float = 0.5) -> bool:
    """Whether a TCP connection to ``host:port`` opens."""
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return True
    except OSError:
        return False


def _host_port(url: str, default_port: int) -> tuple[str, int]:
    parts = urlsplit(url)
    return parts.hostname or "127.0.0.1", parts.port or default_port


def require_chromium() -> None:
    require(f"chromium at {CHROMIUM}", os.path.exists(CHROMIUM), "apt-get install chromium")


def require_postgres() -> None:
    host, port = _host_port(PG_URL, 5432)
    require(f"PostgreSQL at {host}:{port}", reachable(host, port), "or set ARENA_TEST_PG")


def require_redis() -> None:
    host, port = _host_port(REDIS_URL, 6379)
    require(f"Redis at {host}:{port}", reachable(host, port), "or set ARENA_TEST_REDIS")


@contextmanager
def chromium() -> Iterator[Any]:
    """A headless Debian chromium driven by Playwright (skips or fails when absent)."""
    require_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()
