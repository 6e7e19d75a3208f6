"""A player's home used as a person would (Debian's chromium): the ways between the home
page, the account, a profile and the leaderboards; a rated game against a bot started
from the new-game form; a challenge to a named player, sent from that player's profile and
accepted on their home page (two browser contexts); the profile and leaderboard pages
at a phone's width; a mistyped player's name answered with a page, not JSON. No page
logs an error or a content-security-policy violation. ``ARENA_SCREENS`` names a folder to
keep screenshots of these pages on a desktop and a phone (docs/screens/home-*)."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from arena_helpers import LiveServer

from services import chromium
from sudoku_arena.server import ServerConfig

PASSWORD = "a long enough secret"
#: The header names the signed-in person (not "Sign in", nor nothing yet).
NAMED = "() => !['', 'Sign in'].includes(document.querySelector('#account-link').textContent)"


@pytest.fixture
def live(sqlite_url: str) -> Iterator[LiveServer]:
    cfg = ServerConfig(database_url=sqlite_url, bot_workers=0, bot_delay=0.0, analysis=False)
    with LiveServer(cfg) as s:
        yield s


@pytest.fixture
def browser() -> Iterator[Any]:
    with chromium() as b:
        yield b


def _person(browser: Any, live: LiveServer, name: str, width: int = 1280) -> Any:
    """A browser context of its own, signed up as ``name``; its errors and CSP reports kept."""
    context = browser.new_context(viewport={"width": width, "height": 844})
    page = context.new_page()
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
    page.dialogs = []
    page.on("dialog", lambda d: (page.dialogs.append(d.message), d.accept()))
    page.goto(live.url + "/account")
    page.fill("#signup-name", name)
    page.fill("#signup-password", PASSWORD)
    page.click("#signup-form button[type=submit]")
    page.wait_for_selector("#member-box:not([hidden])")
    return page


def _screen(page: Any, name: str, full: bool = False) -> None:
    if os.environ.get("ARENA_SCREENS"):
        folder = Path(os.environ["ARENA_SCREENS"])
        folder.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(folder / name), full_page=full)


def _home(page: Any, live: LiveServer) -> None:
    page.goto(live.url + "/")
    page.wait_for_selector("#seek-game option[value=citadel]", state="attached")


def test_links_between_home_account_profile_and_leaderboards(
    live: LiveServer, browser: Any
) -> None:
    ann = _person(browser, live, "ann_h", width=390)
    ann.click("#profile-link")  # the account page leads to one's own profile
    ann.wait_for_url("**/players/ann_h")
    assert "No rating yet" in (ann.text_content("main") or "")
    assert ann.locator("table.ratings").count() == 0  # not a table of headers alone
    # the profile's header names the person and leads back to the account
    ann.wait_for_function("() => document.querySelector('#account-link').textContent === 'ann_h'")
    ann.click("nav[aria-label=leaderboards] >> text=Citadel")
    ann.wait_for_url("**/leaderboard/citadel")
    assert ann.locator("table.leaderboard td", has_text="normal (bot)").count() == 1
    assert ann.evaluate("() => document.documentElement.scrollWidth") <= 390
    panel = ann.locator("main .panel").first.bounding_box()
    assert panel is not None and panel["x"] >= 8  # not pressed against the screen's edge
    ann.click("footer >> text=Games")
    ann.wait_for_url(live.url + "/")
    ann.click("header >> text=Leaderboards")
    ann.wait_for_url("**/leaderboard/*")
    assert ann.problems == []
    # a mistyped name: a page with the way home, not the API's JSON
    answer = ann.goto(live.url + "/players/nobody_here")
    assert answer is not None and answer.status == 404
    assert "text/html" in answer.headers["content-type"]
    assert "Nobody is called nobody_here" in (ann.text_content("main") or "")
    assert ann.locator("footer a[href='/']").count() == 1


def test_a_rated_game_against_a_bot_from_the_new_game_form(live: LiveServer, browser: Any) -> None:
    ann = _person(browser, live, "ann_b")
    _home(ann, live)
    ann.select_option("#f-game", "tic-tac-sudoku")
    ann.check("#f-rated")
    ann.click("#f-start")
    ann.wait_for_url("**/play/*")
    ann.wait_for_selector("#resign:visible")
    ann.wait_for_selector("#rated-badge:visible")  # the header says the game is rated
    assert ann.text_content("#rated-badge") == "Rated"
    ann.click("#resign")
    ann.wait_for_selector("#result:not([hidden])")
    assert ann.dialogs == ["Resign this game? Your opponent wins."]  # one opponent, a sentence
    for _ in range(50):  # the rating moves once the end is applied (in the background)
        ann.goto(live.url + "/players/ann_b")
        if ann.locator("table.ratings td.rating").count():
            break
        ann.wait_for_timeout(200)
    assert int(re.findall(r"\d+", ann.text_content("table.ratings td.rating") or "")[0]) < 1500
    assert ann.problems == []


def test_a_challenge_from_a_profile_accepted_on_the_home_page(
    live: LiveServer, browser: Any
) -> None:
    ann = _person(browser, live, "ann_c")
    bob = _person(browser, live, "bob_c", width=390)
    _home(ann, live)
    ann.fill("#challenge-name", "bob_typo")  # nobody: said at once, not waited for
    ann.click("#challenge-start")
    ann.wait_for_function(
        "() => document.querySelector('#challenge-status').textContent.includes('Nobody')"
    )
    ann.problems.clear()  # the browser logs the lookup's 404
    ann.goto(live.url + "/players/bob_c")
    ann.click("text=Challenge bob_c")
    ann.wait_for_selector("#seek-game option[value=citadel]", state="attached")
    assert ann.input_value("#challenge-name") == "bob_c"
    ann.select_option("#seek-game", "citadel")
    ann.select_option("#seek-clock", "")
    ann.click("#challenge-start")
    ann.wait_for_function(
        "() => document.querySelector('#challenge-status').textContent.includes('waiting')"
    )
    _home(bob, live)
    bob.wait_for_selector("#challenges li")
    assert "ann_c challenges you: Citadel" in (bob.text_content("#challenges") or "")
    bob.click("#challenges button:has-text('Accept')")
    for page in (ann, bob):
        page.wait_for_url(re.compile(r"/play/"), timeout=10_000)
        page.wait_for_selector("#board svg")
    assert ann.url.split("#")[0] == bob.url.split("#")[0]  # one game, a seat each
    assert ann.url.split("#t=")[1] != bob.url.split("#t=")[1]
    assert ann.problems == [] and bob.problems == []


def test_play_now_fits_a_phone_on_a_few_rows(live: LiveServer, browser: Any) -> None:
    bob = _person(browser, live, "bob_p", width=390)
    _home(bob, live)
    assert bob.evaluate("() => document.documentElement.scrollWidth") <= 390
    rated = bob.locator("label:has(#seek-rated)").bounding_box()
    opponent = bob.locator("label:has(#seek-range)").bounding_box()
    assert rated is not None and opponent is not None
    assert abs(rated["y"] - opponent["y"]) < 20  # "Rated" is not a row of its own
    # Play now comes before the long new-game form
    above = bob.locator("#play-now").bounding_box()
    below = bob.locator("#new-game").bounding_box()
    assert above is not None and below is not None and above["y"] < below["y"]
    assert bob.problems == []


def test_account_page_speaks_plainly_and_the_creator_keeps_the_name(
    live: LiveServer, browser: Any
) -> None:
    # a refused user name: the rule in words, without pydantic's "Value error, "
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(live.url + "/account")
    page.fill("#signup-name", "ab")
    page.fill("#signup-password", PASSWORD)
    page.click("#signup-form button[type=submit]")
    page.wait_for_selector("#account-error:not([hidden])")
    refusal = page.text_content("#account-error") or ""
    assert "3 to 20 characters" in refusal and "Value error" not in refusal
    page.close()
    cy = _person(browser, live, "cy_h")
    # a wrong "password now": said in the page's words, not the API's field name
    cy.fill("#old-password", "not my password")
    cy.fill("#new-password", "another long secret")
    cy.click("#password-form button[type=submit]")
    cy.wait_for_selector("#account-error:not([hidden])")
    assert cy.text_content("#account-error") == "That is not your password: nothing was changed."
    cy.fill("#old-password", PASSWORD)
    cy.click("#password-form button[type=submit]")
    cy.wait_for_selector("#account-news:not([hidden])")
    assert cy.input_value("#old-password") == "" and cy.input_value("#new-password") == ""
    # a game from the form: the creator's unnamed seat carries the account's name
    _home(cy, live)
    cy.select_option("#f-game", "tic-tac-sudoku")
    cy.click("#f-start")
    cy.wait_for_url("**/play/*")
    cy.wait_for_selector("#board svg")
    cy.wait_for_function("() => document.querySelector('#players').textContent.includes('cy_h')")
    problems = [p for p in cy.problems if "401" not in p]  # the refused password's answer
    assert problems == []


def test_a_players_home_on_a_desktop_and_a_phone(live: LiveServer, browser: Any) -> None:
    """Play now pairs a desktop and a phone in a rated game; they chat, one resigns; the
    account, the profiles, the leaderboard and the home page fit both screens."""
    ann = _person(browser, live, "ann")
    bob = _person(browser, live, "bob", width=390)
    for page in (ann, bob):
        _home(page, live)
        page.select_option("#seek-game", "tic-tac-sudoku")
        page.select_option("#seek-clock", "")
        page.check("#seek-rated")
    ann.locator("#play-now").scroll_into_view_if_needed()
    ann.click("#seek-start")
    ann.wait_for_function(
        "() => document.querySelector('#seek-status').textContent.includes('Waiting')"
    )
    _screen(ann, "home-play-now-desktop.png")
    bob.locator("#play-now").scroll_into_view_if_needed()
    _screen(bob, "home-play-now-phone.png")
    bob.click("#seek-start")
    for page in (ann, bob):
        page.wait_for_url(re.compile(r"/play/"), timeout=10_000)
        page.wait_for_selector("#chat:not([hidden])")
    mover = ann if ann.locator(".board.my-turn").count() else bob
    mover.locator(".board.my-turn [data-action].live:visible").first.click()
    ann.fill("#chat-input", "good luck!")
    ann.click("#chat-form button[type=submit]")
    bob.wait_for_function("() => document.querySelectorAll('#chat-log li').length === 1")
    bob.fill("#chat-input", "thanks, you too")
    bob.click("#chat-form button[type=submit]")
    ann.wait_for_function("() => document.querySelectorAll('#chat-log li').length === 2")
    # a rated game offers no takeback (the server refuses it; the button was shown)
    assert mover.locator("#resign:visible").count() == 1
    assert not mover.locator("#takeback-ask").is_visible()
    # nobody "created" a game Play now paired: the coach's reason does not say so
    assert "creator" not in (bob.text_content("#coach-why") or "creator")
    _screen(ann, "home-play-chat-desktop.png")
    bob.locator("#chat").scroll_into_view_if_needed()
    _screen(bob, "home-play-chat-phone.png")
    bob.click("#resign")
    for page in (ann, bob):
        page.wait_for_selector("#result:not([hidden])")
    for _ in range(50):  # the ratings move once the end is applied (in the background)
        ann.goto(live.url + "/players/ann")
        if ann.locator("svg.rating-graph").count():
            break
        ann.wait_for_timeout(200)
    _screen(ann, "home-profile-desktop.png", full=True)
    pages = {
        "profile": "/players/ann",
        "leaderboard": "/leaderboard/tic-tac-sudoku",
        "account": "/account",
        "home": "/",
    }
    for what, path in pages.items():
        for page, device in ((ann, "desktop"), (bob, "phone")):
            page.goto(live.url + path)
            page.wait_for_function(NAMED)
            assert page.evaluate("() => document.documentElement.scrollWidth") <= (
                390 if device == "phone" else 1280
            ), (what, device)
            if what in ("leaderboard", "account") or (what, device) == ("profile", "phone"):
                _screen(page, f"home-{what}-{device}.png", full=True)
    # the ended game's page asks for its analysis, which this server does not make (503)
    for page in (ann, bob):
        assert [p for p in page.problems if "503" not in p] == []


def test_a_guest_asking_for_a_rated_game_is_told_to_sign_in(live: LiveServer, browser: Any) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    _home(page, live)
    page.wait_for_timeout(300)
    assert problems == []  # a guest's home page asks for no challenges (it was a 401)
    page.check("#seek-rated")
    page.click("#seek-start")
    page.wait_for_function("() => document.querySelector('#seek-status').textContent !== ''")
    said = page.text_content("#seek-status") or ""
    assert said.startswith("Rated games are for signed-in players: sign in (top right)"), said
    assert "rated false" not in said
    page.select_option("#f-game", "tic-tac-sudoku")
    page.check("#f-rated")
    page.click("#f-start")
    page.wait_for_selector("#f-error:not([hidden])")
    said = page.text_content("#f-error") or ""
    assert said.startswith("Rated games are for signed-in players"), said
    assert "/play/" not in page.url
    context.close()


def test_a_signed_in_header_never_shows_sign_in_first(live: LiveServer, browser: Any) -> None:
    dee = _person(browser, live, "dee_h")
    seen: list[str] = []

    def slow(route: Any) -> None:  # the header's question answered late, as on a slow line
        # what the header shows before the answer
        seen.append(dee.evaluate(SHOWN))
        route.continue_()

    SHOWN = (
        "() => { const a = document.querySelector('#account-link');"
        " return getComputedStyle(a).visibility === 'visible' ? a.textContent : ''; }"
    )
    dee.route("**/api/account", slow)
    for path in ("/", "/players/dee_h"):
        dee.goto(live.url + path, wait_until="domcontentloaded")
        dee.wait_for_function(NAMED)
    assert seen and "Sign in" not in seen, seen
    assert dee.evaluate(SHOWN) == "dee_h"
