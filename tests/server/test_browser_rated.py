"""A rated game in the browser (Debian's chromium), two browser contexts: each signs up
on /account, seeks a rated Tic-Tac-Sudoku from the home page's "Play now", the server
pairs the two seeks and both pages open the game; one player resigns, and both players'
ratings have moved on their profiles and on the leaderboard. The time from the second
seek to both pages on the game is measured and printed (a figure, not an assert). Three
contexts seek a three-player Sudoku Warriors game: the first two wait, the third's seek
pairs all three into one game; one resigns, the other two share the win."""

from __future__ import annotations

import re
import time
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


def _person(browser: Any, live: LiveServer, name: str) -> Any:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.on("dialog", lambda d: d.accept())
    page.goto(live.url + "/account")
    page.fill("#signup-name", name)
    page.fill("#signup-password", PASSWORD)
    page.click("#signup-form button[type=submit]")
    page.wait_for_selector("#member-box:not([hidden])")
    page.goto(live.url + "/")
    page.wait_for_selector("#seek-game option[value=tic-tac-sudoku]", state="attached")
    page.select_option("#seek-game", "tic-tac-sudoku")
    page.select_option("#seek-clock", "")
    page.check("#seek-rated")
    return page


def _number(text: str) -> int:
    found = re.match(r"\d+", text)
    assert found is not None, text
    return int(found.group())


def _rating(page: Any, live: LiveServer, name: str) -> str:
    page.goto(f"{live.url}/players/{name}")
    return str(page.text_content("table.ratings td.rating") or "")


def test_two_people_seek_play_rated_and_see_both_ratings_move(
    live: LiveServer, browser: Any
) -> None:
    ann = _person(browser, live, "ann_r")
    bob = _person(browser, live, "bob_r")
    # the new-game form names the bots' levels with their ratings
    assert "Bot: normal, about 1500" in (ann.text_content("#f-seats") or "")
    ann.click("#seek-start")
    ann.wait_for_function(
        "() => document.querySelector('#seek-status').textContent.includes('Waiting')"
    )
    started = time.monotonic()
    bob.click("#seek-start")
    for page in (ann, bob):
        page.wait_for_url(re.compile(r"/play/"), timeout=10_000)
    both = time.monotonic() - started
    for page in (ann, bob):
        page.wait_for_selector("#board svg")
    assert ann.url.split("#")[0] == bob.url.split("#")[0]  # one game, a seat each
    assert ann.url.split("#t=")[1] != bob.url.split("#t=")[1]
    print(f"\nsecond seek clicked -> both pages on the game: {both:.3f} s")

    ann.wait_for_selector("#resign:visible")
    ann.click("#resign")
    for page in (ann, bob):
        page.wait_for_selector("#result:not([hidden])")
        assert "resigned" in (page.text_content("#result-reason") or "")

    # the ratings move once the game's end is applied (in the background)
    deadline = time.time() + 15
    while time.time() < deadline:
        a, b = _rating(ann, live, "ann_r"), _rating(bob, live, "bob_r")
        if a and b:
            break
        time.sleep(0.2)
    assert _number(a) < 1500 < _number(b)
    assert "(provisional)" in a and "(provisional)" in b  # after one game
    assert ann.locator("svg.rating-graph").count() == 1
    assert bob.locator("ul.recent a[href^='/replay/']").count() == 2  # replay, analysis

    ann.goto(live.url + "/leaderboard/tic-tac-sudoku")
    rows = [r.split("\t") for r in ann.locator("table.leaderboard tr").all_inner_texts()[1:]]
    names = [r[1] for r in rows]
    assert names.index("bob_r") < names.index("ann_r")
    assert {"normal (bot)", "hard (bot)", "easy (bot)"} <= set(names)
    ratings = {r[1]: r[2] for r in rows}
    assert ratings["bob_r"] == f"{_number(b)}?" and ratings["ann_r"] == f"{_number(a)}?"
    assert ratings["normal (bot)"] == "1500"
    assert ann.errors == [] and bob.errors == []


def test_three_people_seek_a_three_player_game_and_are_paired_together(
    live: LiveServer, browser: Any
) -> None:
    people = [_person(browser, live, name) for name in ("cat_r", "dan_r", "eve_r")]
    for page in people:
        page.select_option("#seek-game", "sudoku-warriors")
        page.select_option("#seek-players", "3")
    for page in people[:2]:
        page.click("#seek-start")
        page.wait_for_function(
            "() => document.querySelector('#seek-status').textContent.includes('Waiting')"
        )
    assert all("/play/" not in page.url for page in people)  # two of three wait
    started = time.monotonic()
    people[2].click("#seek-start")
    for page in people:
        page.wait_for_url(re.compile(r"/play/"), timeout=10_000)
    print(f"\nthird seek clicked -> three pages on the game: {time.monotonic() - started:.3f} s")
    games = {page.url.split("#")[0] for page in people}
    assert len(games) == 1  # one game for the three
    assert len({page.url.split("#t=")[1] for page in people}) == 3  # a seat each
    cat = people[0]
    cat.wait_for_selector("#resign:visible")
    cat.click("#resign")
    for page in people:
        page.wait_for_selector("#result:not([hidden])")
    deadline = time.time() + 15
    while time.time() < deadline and not _rating(cat, live, "eve_r"):
        time.sleep(0.2)
    after = {name: _number(_rating(cat, live, name)) for name in ("cat_r", "dan_r", "eve_r")}
    assert after["cat_r"] < 1500 < after["dan_r"] == after["eve_r"]  # the two share the win
    assert all(page.errors == [] for page in people)
