""" "Your games" used as a person would (Debian's chromium): a game started in one
browser is found on the home page of another browser signed in as the same account
(marked "your turn"), opened there (its seat taken back on that device) and played; the
account page lists it too. No page logs an error or a content-security-policy violation."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from arena_helpers import LiveServer

from services import chromium
from sudoku_arena.server import ServerConfig

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


def _page(browser: Any) -> Any:
    page = browser.new_context(viewport={"width": 1280, "height": 844}).new_page()
    page.problems = []
    page.on("pageerror", lambda e: page.problems.append(str(e)))
    page.on(
        "console",
        lambda m: (
            page.problems.append(m.text)
            if m.type == "error" or "Security Policy" in m.text
            else None
        ),
    )
    return page


def _account(page: Any, live: LiveServer, form: str) -> None:
    page.goto(live.url + "/account")
    page.fill(f"#{form}-name", "ann_g")
    page.fill(f"#{form}-password", PASSWORD)
    page.click(f"#{form}-form button[type=submit]")
    page.wait_for_selector("#member-box:not([hidden])")


def test_a_game_started_in_one_browser_is_played_in_another(live: LiveServer, browser: Any) -> None:
    first, second = _page(browser), _page(browser)
    _account(first, live, "signup")
    first.goto(live.url + "/")
    first.wait_for_selector("#f-game option[value=tic-tac-sudoku]", state="attached")
    first.select_option("#f-game", "tic-tac-sudoku")
    first.click("#f-start")
    first.wait_for_url("**/play/*")
    first.wait_for_selector(".my-turn [data-action].live")
    game_id = first.url.split("/play/")[1].split("#")[0]

    _account(second, live, "signin")
    second.wait_for_selector(f"#my-games li[data-game='{game_id}']")  # the account page
    second.goto(live.url + "/")
    item = second.locator(f"#my-games li[data-game='{game_id}']")
    item.wait_for()
    assert "your turn" in (item.text_content() or "")
    item.locator("a").click()
    second.wait_for_url(f"**/play/{game_id}#t=*")
    second.wait_for_selector(".board.my-turn [data-action].live:visible")
    second.locator(".board.my-turn [data-action].live:visible").first.click()
    for _ in range(50):
        if second.request.get(f"{live.url}/api/matches/{game_id}").json()["ply"] >= 1:
            break
        second.wait_for_timeout(200)
    assert second.request.get(f"{live.url}/api/matches/{game_id}").json()["ply"] >= 1
    # The first browser lost the seat (told so), as when a seat moves to another device.
    first.wait_for_selector("text=played on another device")
    assert second.locator("#rated-badge").is_hidden()  # an unrated game says nothing
    assert first.problems == [] and second.problems == []


def test_play_now_makes_a_correspondence_game(live: LiveServer, browser: Any) -> None:
    """Play now offers days per move: two guests seeking 3 days are paired, and the play
    page shows the correspondence clock."""
    pages = [_page(browser), _page(browser)]
    for page in pages:
        page.goto(live.url + "/")
        page.wait_for_selector("#seek-game option[value=tic-tac-sudoku]", state="attached")
        page.select_option("#seek-game", "tic-tac-sudoku")
        page.select_option("#seek-clock", "3d")
    pages[0].click("#seek-start")
    pages[0].wait_for_function(
        "() => document.querySelector('#seek-status').textContent.includes('Waiting')"
    )
    pages[1].click("#seek-start")
    for page in pages:
        page.wait_for_url("**/play/*", timeout=10_000)
        page.wait_for_selector(".clock-control")
        assert page.text_content(".clock-control") == "Clock 3 days per move"
        assert page.problems == []
