"""A two-step move made by clicking, in chromium: a Sudoku Warriors bid of two villages
(and a Cat Sudoku square clicked before its value: the request to choose one goes once
chosen).

The bid is made as a player makes it: a click in the middle of the first village, then
one in the middle of the second (not on the thin outline drawn for the second step),
on a desktop with a mouse and on a phone with taps. Between the two, the first village
stays chosen and the status line says what the next click does; after the second, the
bid must be in the server's record.
"""

from __future__ import annotations

import random
import time
from typing import Any

import pytest
from arena_helpers import LiveServer, create

from sudoku_arena.server.db.games import load_game

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def browser(module_browser: Any) -> Any:
    return module_browser


def _two_village_bid(server: LiveServer, rng: random.Random) -> tuple[dict[str, Any], str]:
    """A game of two people where seat 0 is to bid and may bid two villages, reached by
    playing both seats over HTTP (each bids a single village while it can, so battles
    go on until seat 0 needs two); the game and one two-village bid of seat 0."""
    for _ in range(10):  # a game that ends first is given up for a new one
        made = create(server.url, game="sudoku-warriors", params={"players": 2})
        tokens = [s["token"] for s in made["seats"]]
        with server.client() as c:
            for _ in range(600):
                states = [
                    c.get(
                        f"/api/matches/{made['id']}/state",
                        headers={"authorization": f"Bearer {t}"},
                    ).json()
                    for t in tokens
                ]
                if states[0]["status"] == "finished":
                    break
                seat = states[0]["view"]["to_move"][0]
                legal: list[str] = states[seat]["view"]["legal"]
                bids = [a.split() for a in legal if a.startswith("bid ")]
                pairs = [" ".join(b) for b in bids if len(b) == 3]
                singles = [" ".join(b) for b in bids if len(b) == 2]
                if seat == 0 and pairs:
                    return made, rng.choice(pairs)
                action = rng.choice(singles or pairs or [a for a in legal if a != "yield"] or legal)
                r = c.post(
                    f"/api/matches/{made['id']}/actions",
                    json={"token": tokens[seat], "ply": states[seat]["ply"], "action": action},
                )
                assert r.status_code == 200, r.text
    pytest.fail("no game reached a bid of two villages")


def _press_middle(page: Any, selector: str, phone: bool) -> None:
    """A click (a tap on a phone) at the middle of an element, on whatever is on top
    there, as a person's finger or mouse does."""
    target = page.locator(selector)
    target.scroll_into_view_if_needed()
    box = target.bounding_box()
    assert box, selector
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    if phone:
        page.touchscreen.tap(x, y)
    else:
        page.mouse.click(x, y)


def _bids_of_seat_0(server: LiveServer, game_id: str) -> list[str]:
    row = load_game(server.arena.storage.engine, game_id)
    return [a for _, actor, a in row.actions if actor == 0 and a.startswith("bid")]


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_two_village_bid_by_clicking_the_middle_of_both_villages(
    server: LiveServer, browser: Any, size: str
) -> None:
    phone = size == "phone"
    made, bid = _two_village_bid(server, random.Random(size))
    first, second = bid.split()[1:]
    before = _bids_of_seat_0(server, made["id"])
    page = browser.new_page(viewport=PHONE if phone else DESKTOP, has_touch=phone)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.url + made["seats"][0]["url"])
    page.wait_for_selector(f'.board.my-turn [data-select="{first}"].live')

    _press_middle(page, f'#board [data-select="{first}"]', phone)
    # The first village stays chosen, and the status line says what comes next.
    page.wait_for_selector(f'#board [data-select="{first}"].selected')
    step = page.locator("#step")
    assert step.is_visible()
    assert step.inner_text().startswith(f"{first} chosen:")
    assert "Escape cancels" in step.inner_text()
    assert _bids_of_seat_0(server, made["id"]) == before  # the first click sent nothing

    _press_middle(page, f'#board [data-select="{second}"]', phone)
    deadline = time.monotonic() + 15
    while bid not in _bids_of_seat_0(server, made["id"]):
        if time.monotonic() > deadline:
            chosen = page.locator("#board .selected").first.get_attribute("data-select")
            pytest.fail(f"{bid!r} did not reach the server; the page has {chosen!r} chosen")
        time.sleep(0.1)
    # The move is played: the step line is gone with the selection.
    page.wait_for_function("() => document.querySelector('#step').hidden")
    assert not errors, errors
    page.close()


def test_the_step_line_goes_with_escape(server: LiveServer, browser: Any) -> None:
    """Escape drops the first village: nothing stays selected and the line is hidden."""
    made, bid = _two_village_bid(server, random.Random(7))
    first = bid.split()[1]
    before = _bids_of_seat_0(server, made["id"])
    page = browser.new_page(viewport=DESKTOP)
    page.goto(server.url + made["seats"][0]["url"])
    page.wait_for_selector(f'.board.my-turn [data-select="{first}"].live')
    _press_middle(page, f'#board [data-select="{first}"]', False)
    page.wait_for_selector("#step:not([hidden])")
    page.locator("#board").press("Escape")
    page.wait_for_selector("#step", state="hidden")
    assert page.locator("#board .selected").count() == 0
    assert _bids_of_seat_0(server, made["id"]) == before  # and nothing was played
    page.close()


def test_choosing_the_value_clears_the_request_to_choose_one(
    server: LiveServer, browser: Any
) -> None:
    """Cat Sudoku: a square clicked before a value asks for the value first; choosing
    one takes that request off the screen (it used to stay until something else)."""
    made = create(server.url, game="cat-sudoku", params={"players": 2})
    page = browser.new_page(viewport=DESKTOP)
    page.goto(server.url + made["seats"][0]["url"])
    page.wait_for_selector("#game-panel [data-select].live")
    page.locator("#board .tryable").first.click()
    page.wait_for_selector("#notice:not([hidden])")
    assert "Choose a value first" in page.inner_text("#notice")
    page.locator("#game-panel [data-select].live").first.click()
    page.wait_for_selector("#game-panel [data-select].selected")
    page.wait_for_selector("#notice", state="hidden")
    page.close()
