"""Accounts in the browser (Debian's chromium): sign up, out and in on /account, the
header naming the person, a game started from the lobby's form while signed in (its
request carries the CSRF token), and deleting the account, which leaves the game with
its seat called "deleted player". A user name that is markup is shown as text: no
element made of it, no script run, nothing the content security policy had to stop."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from arena_helpers import LiveServer

from services import chromium
from sudoku_arena.server import ServerConfig
from sudoku_arena.server.db import accounts as db

XSS = "<img src=x onerror=alert(1)>"
PASSWORD = "a long enough secret"


@pytest.fixture
def live(sqlite_url: str) -> Iterator[LiveServer]:
    cfg = ServerConfig(database_url=sqlite_url, bot_workers=0, bot_delay=0.0, analysis=False)
    with LiveServer(cfg) as s:
        yield s


@pytest.fixture
def browser() -> Iterator[Any]:
    with chromium() as b:
        yield b


def _fill(page: Any, form: str, name: str, password: str) -> None:
    page.fill(f"#{form}-name", name)
    page.fill(f"#{form}-password", password)
    page.click(f"#{form}-form button[type=submit]")


def test_sign_up_out_in_and_delete_in_the_browser(live: LiveServer, browser: Any) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    alerts: list[str] = []
    errors: list[str] = []
    policy: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: policy.append(m.text) if "Security Policy" in m.text else None)

    def on_dialog(d: Any) -> None:
        if d.type == "alert":
            alerts.append(d.message)
        d.accept()

    page.on("dialog", on_dialog)
    page.goto(live.url + "/account")
    page.wait_for_function(
        "() => document.querySelector('#account-status').textContent.includes('guest')"
    )
    assert page.text_content("#account-link") == "Sign in"

    # A name that is markup: refused, and the refusal shows it as text.
    _fill(page, "signup", XSS, PASSWORD)
    page.wait_for_selector("#account-error:not([hidden])")
    assert XSS in (page.text_content("#account-error") or "")
    assert page.locator("main img").count() == 0

    _fill(page, "signup", "ada_b", PASSWORD)
    page.wait_for_selector("#member-box:not([hidden])")
    assert page.text_content("#account-name") == "ada_b"
    assert page.text_content("#account-link") == "ada_b"
    session = next(c for c in context.cookies() if c["name"] == "session")
    assert session["httpOnly"] and session["sameSite"] == "Lax"

    page.click("#signout")
    page.wait_for_selector("#guest-box:not([hidden])")
    assert not any(c["name"] == "session" for c in context.cookies())
    _fill(page, "signin", "ada_b", PASSWORD)
    page.wait_for_selector("#member-box:not([hidden])")
    assert next(c for c in context.cookies() if c["name"] == "session") != session  # rotated

    # Signed in, the lobby's form starts a game (the page sends the CSRF token).
    page.goto(live.url + "/")
    page.wait_for_function("() => document.querySelector('#account-link').textContent === 'ada_b'")
    page.wait_for_selector("#f-game option", state="attached")
    page.click("#f-start")
    page.wait_for_url("**/play/*")
    game_id = page.url.split("/play/")[1].split("#")[0]
    engine = live.arena.storage.engine
    me = db.account_by_name(engine, "ada_b")
    assert me is not None and db.seat_accounts(engine, game_id) == {0: me.id}

    page.goto(live.url + "/account")
    page.wait_for_selector("#member-box:not([hidden])")
    page.fill("#delete-password", PASSWORD)
    page.click("#delete-form button[type=submit]")
    page.wait_for_selector("#guest-box:not([hidden])")
    assert db.account_by_name(engine, "ada_b") is None
    info = httpx.get(f"{live.url}/api/matches/{game_id}", timeout=10).json()
    assert info["seats"][0]["name"] == db.DELETED_NAME
    assert alerts == [] and errors == [] and policy == []
    context.close()
