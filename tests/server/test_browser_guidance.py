"""In the browser (Debian's chromium): the status line tells the player whose turn it
is what to do and where (the server's guide, inside the status line's live region),
and each entry of the move log carries its notation in words, on hover (its title) and
as its name for a screen reader."""

from __future__ import annotations

import re
from typing import Any

import pytest
from arena_helpers import LiveServer, create


@pytest.fixture(scope="module")
def browser(module_browser: Any) -> Any:
    return module_browser


def test_the_status_line_guides_and_the_log_reads_in_words(
    server: LiveServer, browser: Any
) -> None:
    made = create(server.url, game="tic-tac-sudoku")
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(server.url + made["seats"][0]["url"])
        guide = page.locator("#status[aria-live='polite'] #status-text .guide")
        guide.wait_for()
        assert guide.text_content() == (
            "Place your first circle on any lit space outside the centre box"
        )
        assert (page.text_content("#status-text") or "").startswith("Your turn: Place")
        page.click("#board [data-action='r1c1']")
        page.wait_for_selector("#log li")
        entry = page.locator("#log li").first
        assert entry.get_attribute("title") == "r1c1: row 1, column 1 (top-left box)"
        named = page.get_by_role("listitem", name=re.compile(r": r1c1: row 1, column 1 \("))
        assert named.count() == 1
        # Not our turn: no guide. The opponent's move (over HTTP) brings it back, with
        # the number under our open circle.
        assert page.locator("#status .guide").count() == 0
        with server.client() as c:
            r = c.post(
                f"/api/matches/{made['id']}/actions",
                json={"token": made["seats"][1]["token"], "ply": 1, "action": "r9c9"},
            )
            assert r.status_code == 200, r.text
        page.wait_for_selector("#status .guide")
        text = page.text_content("#status .guide") or ""
        assert re.fullmatch(
            r"Place a circle next to your open \d: on a \d, \d or \d \(lit\).*", text
        )
        second = page.locator("#log li").nth(1)
        assert second.get_attribute("title") == "r9c9: row 9, column 9 (bottom-right box)"
        assert not errors, errors
    finally:
        page.close()
