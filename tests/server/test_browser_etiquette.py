"""In the browser (Debian's chromium): a person resigns and both players' pages say so;
a declined draw offer is told to the player who made it; the win is claimed, after a
countdown, over an opponent who left; a spectator is told he is watching; a board whose
connection is lost refuses input, says it is reconnecting, and plays on once the server
is back (the time it took is printed for docs/benchmarks.md, not asserted)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from arena_helpers import LiveServer, ServerProcess, create

from services import chromium
from sudoku_arena.server import ServerConfig


@pytest.fixture
def browser() -> Iterator[Any]:
    with chromium() as b:
        yield b


def _page(browser: Any, url: str) -> Any:
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("dialog", lambda d: d.accept())
    page.goto(url)
    page.wait_for_selector("#board svg")
    page.errors = errors
    return page


def test_resigning_in_the_browser_ends_the_game_for_both(sqlite_url: str, browser: Any) -> None:
    with LiveServer(ServerConfig(database_url=sqlite_url, bot_workers=0)) as server:
        made = create(server.url)
        blue = _page(browser, server.url + made["seats"][0]["url"])
        red = _page(browser, server.url + made["seats"][1]["url"])
        watcher = _page(browser, server.url + made["watch_url"])
        assert watcher.locator("#watching").is_visible()
        assert not blue.locator("#watching").is_visible()
        assert blue.locator("#resign").is_visible() and blue.locator("#abort").is_visible()
        assert not watcher.locator("#resign").is_visible()
        # Presence: each player sees the other online, and one person watching.
        blue.wait_for_function("() => document.querySelectorAll('.presence.on').length === 2")
        assert "1 person watching" in (blue.text_content("#watchers") or "")
        red.click("#resign")
        for page in (blue, red, watcher):
            page.wait_for_selector("#result:not([hidden])")
            assert "resigned" in (page.text_content("#result-reason") or "")
        assert blue.text_content("#result-title") in ("player 1 wins", "You won!") or "wins" in (
            blue.text_content("#result-title") or ""
        )
        assert not blue.locator("#resign").is_visible()
        for page in (blue, red, watcher):
            assert page.errors == []


def test_the_player_who_offered_a_draw_reads_that_it_was_declined(
    sqlite_url: str, browser: Any
) -> None:
    with LiveServer(ServerConfig(database_url=sqlite_url, bot_workers=0)) as server:
        made = create(server.url, "citadel", params={"size": 9})
        blue = _page(browser, server.url + made["seats"][0]["url"])
        red = _page(browser, server.url + made["seats"][1]["url"])
        blue.click("#offer-draw")
        red.wait_for_selector("#draw-decline:visible")
        red.click("#draw-decline")
        blue.wait_for_function(
            "() => document.querySelector('#notice').textContent.includes('declines the draw')"
        )
        assert blue.locator("#notice").is_visible()
        assert not blue.locator("#draw-offer").is_visible()  # no offer waits any more
        for page in (blue, red):
            assert page.errors == []


def test_the_win_can_be_claimed_after_a_countdown_once_the_opponent_left(
    sqlite_url: str, browser: Any
) -> None:
    """The button shows only once the server would allow the claim (a short period
    here), after a countdown; while the opponent is connected there is neither."""
    config = ServerConfig(database_url=sqlite_url, bot_workers=0, claim_after=3.0)
    with LiveServer(config) as server:
        made = create(server.url)
        blue = _page(browser, server.url + made["seats"][0]["url"])
        red = _page(browser, server.url + made["seats"][1]["url"])
        blue.wait_for_function("() => document.querySelectorAll('.presence.on').length === 2")
        assert not blue.locator("#left-box").is_visible()
        assert not blue.locator("#claim-win").is_visible()
        red.close()
        blue.wait_for_selector("#left-box:visible")
        assert "claim the win in" in blue.inner_text("#left-text")
        assert not blue.locator("#claim-win").is_visible()
        blue.wait_for_selector("#claim-win:visible", timeout=15000)
        assert "left the game" in blue.inner_text("#left-text")
        blue.click("#claim-win")
        blue.wait_for_selector("#result:not([hidden])")
        assert blue.inner_text("#result-title") == "You won!"
        assert "player 2 left the game" in blue.inner_text("#result-reason")
        assert not blue.locator("#left-box").is_visible()
        assert blue.errors == []


def test_a_lost_connection_blocks_the_board_and_play_resumes_after(
    tmp_path: Path, browser: Any
) -> None:
    url = f"sqlite:///{tmp_path}/arena.sqlite3"
    server = ServerProcess(url)
    port = server.port
    try:
        made = create(server.url)
        page = _page(browser, server.url + made["seats"][0]["url"])
        page.wait_for_selector(".board.my-turn .target.live")
        server.kill()
        page.wait_for_selector("#offline:not([hidden])")
        assert "offline" in (page.get_attribute("#board", "class") or "")
        # A click while offline does nothing to the game and says why.
        page.evaluate(
            "document.querySelector('.board .target.live')"
            ".dispatchEvent(new MouseEvent('click', {bubbles: true}))"
        )
        assert page.locator("#log li").count() == 0
        assert "Not connected" in (page.text_content("#notice") or "")
        server = ServerProcess(url, port=port)  # returns once it answers HTTP
        t0 = time.monotonic()
        page.wait_for_selector("#offline", state="hidden", timeout=15000)
        back = time.monotonic() - t0
        page.wait_for_selector(".board.my-turn .target.live")
        page.click(".board.my-turn .target.live >> nth=0")
        page.wait_for_function("() => document.querySelectorAll('#log li').length >= 1")
        print(f"\nreconnected {back:.2f} s after the server answered again")
        assert page.errors == []
    finally:
        server.stop()
