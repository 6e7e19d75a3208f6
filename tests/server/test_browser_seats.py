"""In the browser (Debian's chromium): clocks shown and counting down, a game joined from
the lobby with one click, a seat link opened on a second device asks before moving the
seat and the first device is told, and the creator's browser keeps only its own seat
(a lost invite is replaced from the game page)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from arena_helpers import LiveServer, create

from services import chromium
from sudoku_arena.server import ServerConfig


@pytest.fixture
def browser() -> Iterator[Any]:
    with chromium() as b:
        yield b


@pytest.fixture
def live(sqlite_url: str) -> Iterator[LiveServer]:
    with LiveServer(ServerConfig(database_url=sqlite_url, bot_workers=0, bot_delay=0.0)) as s:
        yield s


def _page(browser: Any, url: str, *, accept: bool = True) -> Any:
    """A page in a browser context of its own: another device, with its own storage."""
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("dialog", lambda d: d.accept() if accept else d.dismiss())
    # What the console shows as errors, failed requests included ("the server
    # responded with a status of 409"): an expected situation must not look like one.
    console: list[str] = []
    page.on("console", lambda m: console.append(m.text) if m.type == "error" else None)
    page.goto(url)
    page.errors = errors
    page.console_errors = console
    return page


def test_clocks_show_and_count_down(live: LiveServer, browser: Any) -> None:
    made = create(live.url, clock={"minutes": 5, "increment": 2})
    page = _page(browser, live.url + made["seats"][0]["url"])
    page.wait_for_selector("#clocks:not([hidden]) .clock")
    assert page.locator("#clocks .clock").count() == 2
    assert "5 min + 2 s" in (page.text_content("#clocks") or "")
    assert page.locator("#clocks .clock b").all_text_contents() == ["5:00", "5:00"]
    page.locator(".board.my-turn .live").first.click()
    page.wait_for_selector("#clocks .clock.running")
    assert page.locator("#clocks .clock b").first.text_content() == "5:02"  # the increment
    page.wait_for_function(
        "() => document.querySelector('#clocks .clock.running b').textContent !== '5:00'"
    )
    assert page.errors == []


def test_a_game_is_joined_from_the_lobby_with_one_click(live: LiveServer, browser: Any) -> None:
    made = create(live.url, visibility="public")
    create(live.url)  # private: never shown
    home = _page(browser, live.url + "/")
    home.wait_for_selector("#lobby button")
    assert home.locator("#lobby li").count() == 1
    assert home.locator("#recent li a").count() == 1  # the games list: the public one only
    home.click("#lobby button")
    home.wait_for_url(f"**/play/{made['id']}#t=*")
    home.wait_for_selector("#board svg")
    home.wait_for_function(
        "() => document.querySelector('#status').textContent.includes('Waiting')"
    )
    assert not home.locator("#watching").is_visible()
    info = httpx.get(f"{live.url}/api/matches/{made['id']}", timeout=10).json()
    assert info["claimed"] == [False, True]
    assert home.errors == []


def test_a_second_device_asks_before_taking_the_seat(live: LiveServer, browser: Any) -> None:
    made = create(live.url)
    link = live.url + made["seats"][1]["url"]
    phone = _page(browser, link)
    phone.wait_for_selector("#board svg")
    phone.wait_for_selector("#resign:visible")
    refusing = _page(browser, link, accept=False)  # says no: watches, the phone keeps it
    refusing.wait_for_selector("#board svg")
    assert refusing.locator("#watching").is_visible()
    assert phone.locator("#resign").is_visible()
    laptop = _page(browser, link)  # says yes: the seat moves, the phone is told
    laptop.wait_for_selector("#board svg")
    laptop.wait_for_selector("#resign:visible")
    phone.wait_for_selector("#notice:not([hidden])")
    assert "another device" in (phone.text_content("#notice") or "")
    phone.wait_for_selector("#watching:visible")
    assert not phone.locator("#resign").is_visible()
    for page in (phone, refusing, laptop):
        assert page.errors == []
        assert page.console_errors == []


def test_the_creator_keeps_only_his_own_seat_and_replaces_a_lost_invite(
    live: LiveServer, browser: Any
) -> None:
    page = _page(browser, live.url + "/")
    page.wait_for_selector("#f-seats .seat-row")
    page.select_option(".seat-kind[data-seat='1']", "human")
    page.click("#f-start")
    page.wait_for_url("**/play/**")
    page.wait_for_selector("#invites:not([hidden]) input")
    link = page.input_value("#invite-list input")
    friend_token = link.split("#t=")[1]
    kept = page.evaluate("() => JSON.stringify(localStorage) + JSON.stringify(sessionStorage)")
    assert friend_token not in kept  # the friend's link is nowhere in this browser
    page.reload()
    page.wait_for_selector("#invites:not([hidden]) button")
    assert "has not opened the link yet" in (page.text_content("#invite-list") or "")
    assert page.locator("#invite-list input").count() == 0
    page.click("#invite-list button")
    page.wait_for_selector("#invite-list input")
    new_link = page.input_value("#invite-list input")
    assert new_link != link and "#t=" in new_link
    gid = page.url.split("/play/")[1].split("#")[0]
    old = httpx.get(
        f"{live.url}/api/matches/{gid}/state",
        headers={"authorization": f"Bearer {friend_token}"},
        timeout=10,
    )
    assert old.status_code == 403  # the lost link no longer works
    assert page.errors == []


def _continue_link(page: Any) -> None:
    page.wait_for_selector("#continue-show:visible")
    page.click("#continue-show")
    page.wait_for_selector("#continue-link button")


def test_copy_says_copied_and_a_refusing_clipboard_says_so(live: LiveServer, browser: Any) -> None:
    made = create(live.url)
    link = live.url + made["seats"][0]["url"]
    context = browser.new_context(permissions=["clipboard-read", "clipboard-write"])
    page = context.new_page()
    page.goto(link)
    _continue_link(page)
    button = page.locator("#continue-link button")
    assert button.inner_text() == "Copy"
    button.click()
    page.wait_for_function(
        "() => document.querySelector('#continue-link button').textContent === 'Copied'"
    )
    # A screen reader hears it too (the live region), and the clipboard has the link.
    assert page.inner_text("#announce") == "Link copied."
    copied = page.evaluate("() => navigator.clipboard.readText()")
    assert copied == page.input_value("#continue-link input") and "#t=" in copied
    assert not page.locator("#notice").is_visible()
    context.close()

    # A clipboard that refuses: the link stays selected and the page says what to do.
    context = browser.new_context()
    context.add_init_script(
        "Object.defineProperty(navigator, 'clipboard', {value: {writeText: () =>"
        " Promise.reject(new Error('not allowed'))}})"
    )
    page = context.new_page()
    page.on("dialog", lambda d: d.accept())  # another device: it takes the seat over
    page.goto(link)
    _continue_link(page)
    page.click("#continue-link button")
    page.wait_for_selector("#notice:not([hidden])")
    assert "could not be copied" in page.inner_text("#notice")
    assert page.locator("#continue-link button").inner_text() == "Copy"
    # The link is selected, ready for Ctrl+C.
    assert page.evaluate("() => document.activeElement.tagName") == "INPUT"
    context.close()
