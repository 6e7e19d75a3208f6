"""Learn to play in chromium: every game's lessons taken to their end by following the
page alone, on a desktop with a mouse (1280x800) and on a phone with taps (390x844).

The learner reads nothing but the page: on each step he presses what the page marks
for him (the ``asked`` places, for a two-step move first what to choose, or a marked
button), in the middle of it as a finger or a mouse does, then "Next step", and at a
lesson's end "Next lesson". Besides: a wrong move shows the step's explanation and an
illegal one the engine's reason (neither changes the board), progress survives a
reload, and the home, rules and play pages lead to the lessons.

``ARENA_SCREENS`` names a folder to keep a screenshot of a lesson step per size (the
README's docs/screens/learn-*.png are made this way).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from arena_helpers import LiveServer, create

from sudoku_arena.core.lessons import lessons

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
GAMES = ["tic-tac-sudoku", "sudoku-warriors", "cat-sudoku", "sudokuhex", "citadel"]

#: What the learner presses next: a marked place or button that plays, else a marked
#: thing to choose first (a die, a warrior, a village) that is not chosen yet.
_PLAYS = ".my-turn [data-action].asked.live:visible, #actions button.asked:visible"
_CHOOSE = ".my-turn [data-select].asked.live:not(.selected):visible"


@pytest.fixture(scope="module")
def browser(module_browser: Any) -> Any:
    return module_browser


@pytest.fixture(scope="module")
def server(bot_server: LiveServer) -> LiveServer:
    return bot_server


def _page(browser: Any, phone: bool) -> tuple[Any, list[str]]:
    page = browser.new_page(viewport=PHONE if phone else DESKTOP, has_touch=phone)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    return page, errors


def _press(page: Any, target: Any, phone: bool) -> None:
    """A click (a tap on a phone) at the middle of ``target``, on whatever is on top
    there, after scrolling it to the middle of the screen as a person would (the
    feedback bar keeps the screen's foot)."""
    target.evaluate("(e) => e.scrollIntoView({block: 'center', inline: 'center'})")
    box = target.bounding_box()
    assert box, "a marked target has no size"
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    if phone:
        page.touchscreen.tap(x, y)
    else:
        page.mouse.click(x, y)


def _heading(page: Any) -> str:
    return str(page.locator("#lesson-title").inner_text() + " / " + _step_heading(page))


def _step_heading(page: Any) -> str:
    return str(page.locator("#step-heading").inner_text())


def _wait_for_step(page: Any, before: str) -> None:
    page.wait_for_function(
        "(before) => document.querySelector('#board svg') && "
        "document.querySelector('#lesson-title').innerText + ' / ' + "
        "document.querySelector('#step-heading').innerText !== before",
        arg=before,
    )


def _do_the_step(page: Any, phone: bool) -> None:
    """Presses what the page marks until the step is done."""
    for _ in range(4):
        if page.locator("#feedback.done").is_visible():
            return
        plays = page.locator(_PLAYS)
        if plays.count():
            _press(page, plays.first, phone)
            page.wait_for_selector("#feedback:not([hidden])")
            continue
        choose = page.locator(_CHOOSE)
        assert choose.count(), f"{_heading(page)}: the page marks nothing to do"
        _press(page, choose.first, phone)
        page.wait_for_selector(".my-turn [data-select].selected")
    feedback = page.locator("#feedback").inner_text()
    assert page.locator("#feedback.done").is_visible(), f"{_heading(page)}: {feedback}"


def _no_sideways_scroll(page: Any) -> None:
    extra = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
    assert extra <= 0, f"the page scrolls sideways by {extra} px"


def _take_every_lesson(server: LiveServer, browser: Any, game: str, phone: bool) -> None:
    page, errors = _page(browser, phone)
    page.goto(f"{server.url}/learn/{game}")
    titles = [x.title for x in lessons(game)]
    assert page.locator(".lesson-item").count() == len(titles)
    start = page.locator("#lessons-next a")
    assert start.inner_text() == f"Start with “{titles[0]}”"
    _press(page, start, phone)
    page.wait_for_selector("#board svg")
    taken: list[str] = []
    steps = 0
    shot = not os.environ.get("ARENA_SCREENS") or game != "tic-tac-sudoku"
    while True:
        title = page.locator("#lesson-title").inner_text()
        if not taken or taken[-1] != title:
            taken.append(title)
        steps += 1
        if page.locator("#show-me").is_visible():  # a step asking for a move
            assert not page.locator("#next").is_visible(), "Next shows before the move"
            assert page.locator("#step-hint").inner_text().startswith("Marked in orange")
            if not shot and "Step 2" in _step_heading(page):
                folder = Path(os.environ["ARENA_SCREENS"])
                folder.mkdir(parents=True, exist_ok=True)
                size = "phone" if phone else "desktop"
                page.screenshot(path=str(folder / f"learn-{size}.png"))
                shot = True
            _do_the_step(page, phone)
        _no_sideways_scroll(page)
        before = _heading(page)
        if page.locator("#next").is_visible():
            _press(page, page.locator("#next"), phone)
        elif page.locator("#next-lesson").is_visible():
            _press(page, page.locator("#next-lesson"), phone)
        else:
            break
        _wait_for_step(page, before)
    assert taken == titles
    assert steps == sum(len(x.steps) for x in lessons(game))
    assert page.locator("#feedback.done #feedback-text").inner_text().endswith("Lesson complete!")
    assert page.locator("#all-lessons").inner_text() == "Every lesson done: play a game"
    # The list says so too.
    page.goto(f"{server.url}/learn/{game}")
    finished = page.locator(".lesson-item.finished")
    assert finished.count() == len(titles)
    assert page.locator("#lessons-next").inner_text().startswith("Every lesson finished")
    assert not errors, errors
    page.close()


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_every_lesson_by_mouse_on_a_desktop(server: LiveServer, browser: Any, game: str) -> None:
    _take_every_lesson(server, browser, game, phone=False)


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_every_lesson_by_taps_on_a_phone(server: LiveServer, browser: Any, game: str) -> None:
    _take_every_lesson(server, browser, game, phone=True)


def test_a_wrong_and_an_illegal_move_are_explained(server: LiveServer, browser: Any) -> None:
    """Tic-Tac-Sudoku's first move: r1c1 is legal but not asked for (the step's
    explanation); r5c5, in the centre box, is refused by the engine, typed as notation
    and clicked. Neither changes the board, and Next stays away."""
    (first, *_) = lessons("tic-tac-sudoku")
    step = first.steps[1]
    page, errors = _page(browser, phone=False)
    page.goto(f"{server.url}/learn/tic-tac-sudoku/{first.id}")
    page.wait_for_selector("#board svg")
    _press(page, page.locator("#next"), False)
    page.wait_for_selector('.my-turn [data-action="r7c5"].asked')
    board = page.locator("#board").inner_html()

    page.locator('#board [data-action="r1c1"]').click()
    page.wait_for_selector("#feedback.wrong")
    assert page.locator("#feedback-text").inner_text() == f"Not this one: {step.wrong}"
    assert page.locator("#board").inner_html() == board
    assert not page.locator("#next").is_visible()

    page.locator(".type-move summary").click()
    page.locator("#type-input").fill("r5c5")
    page.locator("#type-input").press("Enter")
    page.wait_for_selector("#feedback.refused")
    refusal = page.locator("#feedback-text").inner_text()
    assert refusal == (
        "Not allowed: r5c5 is not allowed: a first symbol may not go in the centre box b5"
    )
    assert page.locator("#feedback-text").get_attribute("title") == "rule TTS-3"
    assert not page.locator("#next").is_visible()

    # "Show me" plays the asked move; then the way on appears, and has the focus.
    page.locator("#show-me").click()
    page.wait_for_selector("#feedback.done")
    assert page.locator("#feedback-text").inner_text() == step.success
    assert page.evaluate("() => document.activeElement.id") == "next"
    assert not errors, errors
    page.close()


def test_the_keyboard_plays_a_step(server: LiveServer, browser: Any) -> None:
    """Tab onto the board puts the cursor on the marked place; Enter plays it, Enter
    again goes on (the focus is on Next)."""
    (first, *_) = lessons("tic-tac-sudoku")
    page, errors = _page(browser, phone=False)
    page.goto(f"{server.url}/learn/tic-tac-sudoku/{first.id}")
    page.wait_for_selector("#next:not([hidden])")
    page.locator("#next").focus()
    page.keyboard.press("Enter")
    page.wait_for_selector('.my-turn [data-action="r7c5"].asked')
    assert page.evaluate("() => document.activeElement.id") == "step-heading"
    page.locator("#board").focus()
    focused = page.evaluate("() => document.activeElement.getAttribute('data-action')")
    assert focused == "r7c5"
    page.keyboard.press("Enter")
    page.wait_for_selector("#feedback.done")
    page.keyboard.press("Enter")
    page.wait_for_function(
        "() => document.querySelector('#step-heading').innerText.startsWith('Step 3')"
    )
    assert not errors, errors
    page.close()


def test_progress_survives_a_reload(server: LiveServer, browser: Any) -> None:
    (first, second, *_) = lessons("tic-tac-sudoku")
    page, errors = _page(browser, phone=False)
    page.goto(f"{server.url}/learn/tic-tac-sudoku/{first.id}")
    page.wait_for_selector("#next:not([hidden])")
    page.locator("#next").click()
    page.wait_for_selector("#show-me:not([hidden])")
    page.locator("#show-me").click()
    page.wait_for_selector("#feedback.done")
    page.reload()
    # The lesson goes on where it was left: at the step after the one done.
    page.wait_for_function(
        "() => document.querySelector('#step-heading').innerText.startsWith('Step 3 of 3')"
    )
    page.goto(f"{server.url}/learn/tic-tac-sudoku")
    item = page.locator(f'.lesson-item[data-lesson="{first.id}"] .lesson-progress')
    assert item.inner_text() == " · step 3 of 3"
    assert page.locator("#lessons-next a").inner_text() == f"Go on with “{first.title}”"
    # Finishing it moves the list on to the next lesson.
    page.goto(f"{server.url}/learn/tic-tac-sudoku/{first.id}")
    page.wait_for_selector("#show-me:not([hidden])")
    page.locator("#show-me").click()
    page.wait_for_selector("#next-lesson:not([hidden])")
    page.goto(f"{server.url}/learn/tic-tac-sudoku")
    assert page.locator(".lesson-item.finished").count() == 1
    assert page.locator("#lessons-next a").inner_text() == f"Next: “{second.title}”"
    assert not errors, errors
    page.close()


def test_the_home_rules_and_first_play_pages_lead_to_the_lessons(
    server: LiveServer, browser: Any
) -> None:
    page, errors = _page(browser, phone=False)
    page.goto(server.url + "/")
    links = page.locator(".card a", has_text="Learn to play")
    page.wait_for_selector(".card h3")
    assert links.count() == len(GAMES)
    assert {links.nth(k).get_attribute("href") for k in range(len(GAMES))} == {
        f"/learn/{g}" for g in GAMES
    }
    page.goto(f"{server.url}/rules/citadel")
    assert page.locator("header a", has_text="Learn to play").get_attribute("href") == (
        "/learn/citadel"
    )
    # A first game of Tic-Tac-Sudoku offers the lessons; once a game of it ended on
    # this browser (here: resigned), the next one does not.
    seats = [{"kind": "human"}, {"kind": "bot", "agent": "random"}]
    made = create(server.url, game="tic-tac-sudoku", seats=seats)
    page.goto(server.url + made["seats"][0]["url"])
    offer = page.locator("#learn-offer")
    offer.wait_for()
    assert offer.locator("a").get_attribute("href") == "/learn/tic-tac-sudoku"
    page.on("dialog", lambda d: d.accept())
    page.locator("#resign").click()
    page.wait_for_selector("#result:not([hidden])")
    again = create(server.url, game="tic-tac-sudoku", seats=seats)
    page.goto(server.url + again["seats"][0]["url"])
    page.wait_for_selector("#board svg")
    assert page.locator("#learn-offer").is_hidden()
    # Nor does watching a game.
    page.evaluate("() => localStorage.clear()")
    page.goto(f"{server.url}/play/{again['id']}")
    page.wait_for_selector("#board svg")
    assert page.locator("#learn-offer").is_hidden()
    assert not errors, errors
    page.close()


def test_where_brings_a_marked_place_into_sight_on_a_phone(
    server: LiveServer, browser: Any
) -> None:
    """Cat Sudoku's wild box is on the Wild Counter, below the sheet on a phone: "Where?"
    scrolls it into sight and gives it the focus, so a tap or Enter plays it."""
    page, errors = _page(browser, phone=True)
    page.goto(f"{server.url}/learn/cat-sudoku/turn")
    marked = page.locator('#game-panel [data-action="wild 2+ 1"].asked')
    marked.wait_for()
    assert not _in_sight(page, marked)  # below the sheet, out of sight
    _press(page, page.locator("#step-where"), True)
    page.wait_for_function(
        "() => document.activeElement.getAttribute('data-action') === 'wild 2+ 1'"
    )
    page.wait_for_function(
        "() => { const r = document.activeElement.getBoundingClientRect();"
        " return r.top >= 0 && r.bottom <= window.innerHeight; }"
    )
    page.keyboard.press("Enter")
    page.wait_for_selector("#feedback.done")
    assert not errors, errors
    page.close()


def _in_sight(page: Any, target: Any) -> bool:
    box = target.bounding_box()
    return bool(box and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"])
