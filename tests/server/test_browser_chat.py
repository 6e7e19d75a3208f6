"""In the browser (Debian's chromium), three contexts: two players chat both ways, a
message of markup shows as the characters typed and runs nothing, a spectator sees the
spectators' room and not the players'; a takeback asked by one player and accepted by
the other gives the move back on both pages. The chat panel fits a phone's width."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from arena_helpers import LiveServer, create

from services import chromium
from sudoku_arena.server import ServerConfig

XSS = "<img src=x onerror=alert(1)>"


@pytest.fixture
def browser() -> Iterator[Any]:
    with chromium() as b:
        yield b


def _page(browser: Any, url: str, width: int = 1280, height: int = 800) -> Any:
    """A page in a context of its own (its own device, its own storage)."""
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.errors = []
    page.dialogs = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.on("dialog", lambda d: (page.dialogs.append(d.message), d.dismiss()))
    page.goto(url)
    page.wait_for_selector("#board svg")
    return page


def _say(page: Any, text: str) -> None:
    page.fill("#chat-input", text)
    page.click("#chat-form button[type=submit]")


def _lines(page: Any) -> list[str]:
    texts: list[str] = page.eval_on_selector_all(
        "#chat-log .chat-text", "els => els.map(e => e.textContent)"
    )
    return texts


def test_chat_both_ways_markup_as_text_and_rooms_apart(sqlite_url: str, browser: Any) -> None:
    with LiveServer(ServerConfig(database_url=sqlite_url, bot_workers=0)) as server:
        made = create(server.url)
        blue = _page(browser, server.url + made["seats"][0]["url"])
        red = _page(browser, server.url + made["seats"][1]["url"])
        watcher = _page(browser, server.url + made["watch_url"])
        for page in (blue, red, watcher):
            page.wait_for_selector("#chat:not([hidden])")
        assert "opponent" in (blue.text_content("#chat-title") or "")
        assert "Spectators" in (watcher.text_content("#chat-title") or "")
        _say(blue, "good luck")
        red.wait_for_function("() => document.querySelectorAll('#chat-log li').length === 1")
        _say(red, XSS)
        blue.wait_for_function("() => document.querySelectorAll('#chat-log li').length === 2")
        assert _lines(blue) == ["good luck", XSS]
        assert _lines(red) == ["good luck", XSS]
        # The markup is text: no <img> was made from it, no handler ran, no dialog.
        for page in (blue, red):
            assert page.locator("#chat-log img").count() == 0
            assert page.dialogs == []
        _say(watcher, "nice game")
        watcher.wait_for_function("() => document.querySelectorAll('#chat-log li').length === 1")
        assert _lines(watcher) == ["nice game"]  # the players' words are not here
        blue.wait_for_timeout(500)
        assert "nice game" not in _lines(blue) and "nice game" not in _lines(red)
        # The counter counts, and the field takes no more than 300 characters.
        blue.fill("#chat-input", "x" * 400)
        assert len(blue.input_value("#chat-input")) == 300
        assert blue.text_content("#chat-count") == "300/300"
        # The pages' policy forbids inline script.
        policy = red.evaluate(
            "() => fetch(location.href).then(r => r.headers.get('content-security-policy'))"
        )
        scripts = policy.split("script-src", 1)[1].split(";", 1)[0]
        assert "'unsafe-inline'" not in scripts
        for page in (blue, red, watcher):
            assert page.errors == []


def test_a_takeback_asked_and_accepted(sqlite_url: str, browser: Any) -> None:
    with LiveServer(ServerConfig(database_url=sqlite_url, bot_workers=0)) as server:
        made = create(server.url)
        blue = _page(browser, server.url + made["seats"][0]["url"])
        red = _page(browser, server.url + made["seats"][1]["url"])
        assert not blue.locator("#takeback-ask").is_visible()  # nothing to take back yet
        blue.locator(".board.my-turn [data-action].live:visible").first.click()
        red.wait_for_selector(".board.my-turn")
        blue.wait_for_selector("#takeback-ask:visible")
        blue.click("#takeback-ask")
        red.wait_for_selector("#takeback-accept:visible")
        assert "take back" in (red.text_content("#takeback-text") or "")
        assert "waiting" in (blue.text_content("#takeback-text") or "")
        red.click("#takeback-accept")
        blue.wait_for_selector(".board.my-turn")  # blue's turn again
        for page in (blue, red):
            page.wait_for_function("() => document.querySelectorAll('#log li').length === 0")
            assert not page.locator("#takeback-box").is_visible()
            assert page.errors == []
        assert not red.locator(".board.my-turn").count()


def test_the_chat_fits_a_phone(sqlite_url: str, browser: Any) -> None:
    with LiveServer(ServerConfig(database_url=sqlite_url, bot_workers=0)) as server:
        made = create(server.url)
        phone = _page(browser, server.url + made["seats"][0]["url"], 390, 844)
        phone.wait_for_selector("#chat:not([hidden])")
        box = phone.locator("#chat").bounding_box()
        send = phone.locator("#chat-form button").bounding_box()
        assert box is not None and send is not None
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390
        assert send["x"] + send["width"] <= 390 and send["height"] >= 40
        width = phone.evaluate("() => document.documentElement.scrollWidth")
        assert width <= 390
        assert phone.errors == []


def test_no_chat_box_against_a_bot(sqlite_url: str, browser: Any) -> None:
    with LiveServer(ServerConfig(database_url=sqlite_url, bot_workers=1)) as server:
        made = create(server.url, seats=[{"kind": "human"}, {"kind": "bot", "agent": "random"}])
        page = _page(browser, server.url + made["seats"][0]["url"])
        page.wait_for_timeout(500)
        assert page.locator("#chat:visible").count() == 0
        assert page.errors == []
