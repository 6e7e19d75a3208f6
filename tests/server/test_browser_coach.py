"""The coach in the browser, on a desktop (1280x800) and a phone (390x844, touch): in a
game against a bot the Hint button numbers the search's three best moves on the board
and lists them with their chances; after the game the replay's Mistakes list jumps to
the position before a mistake and marks the move played and the better one. Between
people, the invited person is asked to agree to the creator's coach, and agreeing gives
the creator the Hint.

``ARENA_SCREENS`` names a folder to keep screenshots of both (docs/screens/coach-*).
"""

from __future__ import annotations

import os
import random
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from arena_helpers import LiveServer, create

from sudoku_arena.server import ServerConfig

AXE = Path(__file__).resolve().parents[1] / "axe" / "node_modules" / "axe-core" / "axe.min.js"
_AUDIT = """async () => {
  const r = await axe.run(document, { resultTypes: ["violations"] });
  return r.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}): ${v.help}; ` +
      v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(" | "));
}"""
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    # Few simulations per analysed position: the page is tested, not the analysis. Even
    # so thin an analysis finds no person's move that lost 10 points in about one game
    # of random moves in 30 (the learned evaluator smooths the values).
    url = f"sqlite:///{tmp_path_factory.mktemp('db') / 'arena.sqlite3'}"
    cfg = ServerConfig(database_url=url, bot_workers=0, bot_delay=0.0, analysis_simulations=2)
    with LiveServer(cfg) as s:
        yield s


def _shot(page: Any, name: str, full: bool = False) -> None:
    if os.environ.get("ARENA_SCREENS"):
        folder = Path(os.environ["ARENA_SCREENS"])
        folder.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(folder / name), full_page=full)


def _audit(page: Any) -> list[str]:
    """axe-core's serious and critical violations on the page as it is now."""
    page.add_script_tag(path=str(AXE))
    found: list[str] = page.evaluate(_AUDIT)
    return found


def _analysis(server: LiveServer, gid: str) -> dict[str, Any]:
    """The finished game's analysis once it is done."""
    for _ in range(600):
        body: dict[str, Any] = httpx.get(f"{server.url}/api/matches/{gid}/analysis").json()
        if body["status"] == "done":
            return body
        time.sleep(0.25)
    raise AssertionError(f"the analysis of {gid} did not finish: {body}")


def _random_game_with_a_mistake(server: LiveServer) -> str:
    """A game of a person's random moves (over the API) against the random bot whose
    analysis lists a mistake of the person's; the first of at most ten games."""
    rng = random.Random(7)
    for _ in range(10):
        made = create(
            server.url,
            game="tic-tac-sudoku",
            seats=[{"kind": "human"}, {"kind": "bot", "agent": "random"}],
        )
        gid: str = made["id"]
        token = made["seats"][0]["token"]
        for _ in range(2000):
            st = httpx.get(
                f"{server.url}/api/matches/{gid}/state",
                headers={"authorization": f"Bearer {token}"},
            ).json()
            if st["status"] != "active":
                break
            if 0 not in st["view"]["to_move"]:
                time.sleep(0.02)  # the bot's turn
                continue
            action = rng.choice(st["view"]["legal"])
            httpx.post(
                f"{server.url}/api/matches/{gid}/actions",
                json={"token": token, "ply": st["ply"], "action": action},
            )
        if any(m["seat"] == 0 for m in _analysis(server, gid)["mistakes"]):
            return gid
    raise AssertionError("ten games of random moves without a mistake of 10 points")


def _my_turn(page: Any) -> None:
    page.wait_for_function(
        "() => !document.querySelector('#result').hidden || "
        "document.querySelector('.my-turn .live')",
        timeout=30_000,
    )


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_hint_then_the_mistakes_of_the_finished_game(
    server: LiveServer, module_browser: Any, size: str
) -> None:
    phone = size == "phone"
    made = create(
        server.url,
        game="tic-tac-sudoku",
        seats=[{"kind": "human"}, {"kind": "bot", "agent": "random"}],
    )
    # The pages forbid inline scripts; the axe audit is let in past that policy only.
    page = module_browser.new_page(
        viewport=PHONE if phone else DESKTOP, has_touch=phone, bypass_csp=True
    )
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.url + made["seats"][0]["url"])
    page.wait_for_selector("#board svg")
    assert "against bots" in page.locator("#coach-why").inner_text()
    _my_turn(page)
    hint = page.locator("#hint")
    if phone:
        hint.tap()
    else:
        hint.click()
    page.wait_for_function("() => document.querySelectorAll('#board .coach-badge').length === 3")
    items = page.locator("#hint-list li")
    assert items.count() == 3
    texts = [items.nth(i).inner_text() for i in range(3)]
    chances = [int(re.search(r"(\d+)% to win", t).group(1)) for t in texts]  # type: ignore[union-attr]
    assert chances == sorted(chances, reverse=True) and all(0 <= c <= 100 for c in chances)
    badges = page.locator("#board .coach-badge text:not(.chance)")
    assert sorted(badges.nth(i).text_content() for i in range(3)) == ["1", "2", "3"]
    # Each badge sits on a place the seat may play now.
    actions = "es => es.map(e => e.dataset.action || e.dataset.badge)"
    live = set(page.eval_on_selector_all(".my-turn .live[data-action]", actions))
    marked = page.eval_on_selector_all("#board .coach-badge", actions)
    assert set(marked) <= live
    page.locator("#board").scroll_into_view_if_needed()
    _shot(page, f"coach-hint-{size}.png", full=phone)
    assert _audit(page) == []
    # Play on (random places) to the end; the hint goes with the position it was for.
    rng = random.Random(size)
    for _ in range(200):
        _my_turn(page)
        if page.locator("#result").is_visible():
            break
        targets = page.locator(".my-turn [data-action].live:visible")
        before = page.locator("#log li").count()
        targets.nth(rng.randrange(targets.count())).click(timeout=5_000)
        page.wait_for_function(
            f"() => document.querySelectorAll('#log li').length > {before} || "
            "!document.querySelector('#result').hidden",
            timeout=30_000,
        )
        assert page.locator("#hint-list li").count() == 0
    else:
        pytest.fail("the game did not end")
    # The replay: the mistakes list, and one of them shown on the board.
    page.goto(f"{server.url}/replay/{made['id']}")
    page.wait_for_function(
        "() => !document.querySelector('#mistakes-said').textContent.startsWith('Waiting')",
        timeout=150_000,
    )
    said = page.locator("#mistakes-said").inner_text()
    if not any(m["seat"] == 0 for m in _analysis(server, made["id"])["mistakes"]):
        # Rare (see the fixture): the page says so, and a game with one is shown.
        assert said.startswith("No move lost 10 points"), said
        assert page.locator("#mistakes li").count() == 0
        page.goto(f"{server.url}/replay/{_random_game_with_a_mistake(server)}")
        page.wait_for_selector("#mistakes li button", timeout=30_000)
    assert page.locator("#mistakes li button").count(), said
    listed = page.locator("#mistakes li button").all_inner_texts()
    assert all(", player 1:" in t for t in listed), listed  # the person's, not the bot's
    first = page.locator("#mistakes li button").first
    ply = int(first.get_attribute("data-ply"))
    if phone:
        first.tap()
    else:
        first.click()
    page.wait_for_selector("#board .coach-badge.played")
    page.wait_for_selector("#board .coach-badge.better")
    assert page.locator("#r-slider").input_value() == str(ply - 1)
    assert first.get_attribute("aria-pressed") == "true"
    played = page.locator("#board .coach-badge.played").get_attribute("data-badge")
    assert played and played in first.inner_text()
    # The board is in sight (on a phone the list is far below it).
    box = page.locator("#board").bounding_box()
    assert box is not None and 0 <= box["y"] < page.viewport_size["height"] / 2
    _shot(page, f"coach-mistakes-{size}.png")
    assert _audit(page) == []
    assert not errors, errors
    page.close()


def test_a_game_between_people_states_the_coach_to_whoever_joins(
    server: LiveServer, module_browser: Any
) -> None:
    """The invited player reads on his page that the creator turned the coach on, and
    gets a Hint once it is his turn; without that choice the page says hints are off."""
    people = [{"kind": "human"}, {"kind": "human"}]
    on = create(server.url, seats=people, coach=True)
    off = create(server.url, seats=people)
    page = module_browser.new_page(viewport=DESKTOP)
    page.goto(server.url + on["seats"][1]["url"])
    page.wait_for_selector("#coach-why")
    assert "creator turned the coach on" in page.locator("#coach-why").inner_text()
    assert page.locator("#hint").is_hidden()  # not his turn yet
    page.goto(server.url + off["seats"][1]["url"])
    page.wait_for_selector("#coach-why")
    assert page.locator("#coach-why").inner_text().startswith("Hints are off")
    assert page.locator("#hint").count() == 0
    page.goto(f"{server.url}/play/{on['id']}")  # a spectator is told too
    page.wait_for_selector("#coach-why")
    assert "turned the coach on" in page.locator("#coach-why").inner_text()
    page.close()


def test_the_new_game_form_turns_the_coach_on_between_people(
    server: LiveServer, module_browser: Any
) -> None:
    """The creator ticks "Coach for everybody": the game between two people is made with
    the coach offered, and his own page says the creator turned it on and that it waits
    for the other person's agreement (no Hint until then)."""
    page = module_browser.new_page(viewport=DESKTOP)
    page.goto(server.url + "/")
    page.wait_for_selector("#f-seats .seat-row")
    page.select_option(".seat-kind[data-seat='1']", "human")
    page.check("#f-coach")
    page.click("#f-start")
    page.wait_for_url("**/play/**")
    gid = page.url.split("/play/")[1].split("#")[0]
    coach = httpx.get(f"{server.url}/api/matches/{gid}/coach").json()
    assert coach["offered"] is True and coach["asked"] == [1] and "creator" in coach["why"]
    page.wait_for_selector("#coach-why")
    why = page.locator("#coach-why").inner_text()
    assert "creator turned the coach on" in why and "waiting for player 2" in why
    _my_turn(page)  # the creator moves first, and still gets no Hint
    assert page.locator("#hint").is_hidden()
    page.close()


def test_the_invited_person_is_asked_and_agreeing_gives_the_creator_hints(
    server: LiveServer, module_browser: Any
) -> None:
    made = create(
        server.url, game="tic-tac-sudoku", seats=[{"kind": "human"}, {"kind": "human"}], coach=True
    )
    # Two pages, two browser contexts: two devices, each holding its own seat.
    creator = module_browser.new_page(viewport=DESKTOP, bypass_csp=True)
    invited = module_browser.new_page(viewport=DESKTOP, bypass_csp=True)
    errors: list[str] = []
    for page in (creator, invited):
        page.on("pageerror", lambda e: errors.append(str(e)))
    creator.goto(server.url + made["seats"][0]["url"])
    creator.wait_for_selector("#board svg")
    creator.wait_for_function(
        "() => /waiting for player 2/.test(document.querySelector('#coach-why').textContent)"
    )
    _my_turn(creator)
    assert not creator.locator("#hint").is_visible()
    assert not creator.locator("#coach-ask").is_visible()  # the creator agreed by creating it
    invited.goto(server.url + made["seats"][1]["url"])
    invited.wait_for_selector("#coach-ask:not([hidden])")
    assert (
        "The creator turned on the coach (hints for everybody)."
        in invited.locator("#coach-ask").inner_text()
    )
    assert _audit(invited) == []
    invited.locator("#coach-agree").click()
    invited.wait_for_selector("#coach-ask", state="hidden")
    assert "every player agreed" in invited.locator("#coach-why").inner_text()
    # The creator's page hears of it on its own and offers the Hint.
    creator.wait_for_selector("#hint:not([hidden])", timeout=15_000)
    assert "every player agreed" in creator.locator("#coach-why").inner_text()
    creator.locator("#hint").click()
    creator.wait_for_function("() => document.querySelectorAll('#board .coach-badge').length === 3")
    assert errors == []
    creator.close()
    invited.close()
