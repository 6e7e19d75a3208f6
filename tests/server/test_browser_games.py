"""Every game played to its end against a bot by clicks and taps only, on a desktop
(1280x800) or a phone (390x844), the sizes alternating between games: every control
inside the viewport, no sideways scrolling, phone-sized tap targets and text, and a
click on a place that cannot be played shows the engine's reason.

``ARENA_SCREENS`` names a folder to keep one screenshot per game and size (the README's
gallery in docs/screens/ is made this way).
"""

from __future__ import annotations

import os
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from arena_helpers import LiveServer, create
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from sudoku_arena.server.db.games import load_game

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}

#: Game, parameters that keep a whole game short, and whether its board is a 9x9 grid
#: (tap targets of at least 40 CSS px on a phone).
GAMES: list[tuple[str, dict[str, Any], bool]] = [
    ("tic-tac-sudoku", {}, True),
    ("sudoku-warriors", {"players": 2, "target": 2}, True),
    ("cat-sudoku", {"players": 2}, False),
    ("sudokuhex", {"players": 2}, False),
    ("citadel", {"size": 9, "max_turns": 8}, False),
]

#: What the page shows whatever the state: the things a player must reach.
_LAYOUT = """() => {
  const w = window.innerWidth;
  const out = { scroll: document.documentElement.scrollWidth - w, outside: [], small: [],
    below: [] };
  // The off-board action buttons and the notice are seen without scrolling.
  for (const e of document.querySelectorAll('#actions button, #notice:not([hidden])')) {
    const r = e.getBoundingClientRect();
    if (r.height && r.bottom > window.innerHeight + 1) out.below.push(e.id || e.textContent.trim());
  }
  for (const e of document.querySelectorAll('button, a, select, input, #status')) {
    const r = e.getBoundingClientRect();
    if (!r.width || !r.height || e.closest('[hidden]')) continue;
    if (r.left < -1 || r.right > w + 1) out.outside.push(e.id || e.textContent.trim());
  }
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const n = walker.currentNode;
    const p = n.parentElement;
    if (!n.textContent.trim() || p.closest('svg') || p.closest('.sr-only')) continue;
    if (!p.getClientRects().length) continue;
    const size = parseFloat(getComputedStyle(p).fontSize);
    if (size < 12) out.small.push(`${n.textContent.trim().slice(0, 20)}: ${size}px`);
  }
  return out;
}"""


@pytest.fixture(scope="module")
def browser(module_browser: Any) -> Any:
    return module_browser


@pytest.fixture(scope="module")
def server(bot_server: LiveServer) -> LiveServer:
    return bot_server


def _check_layout(page: Any, phone: bool) -> None:
    found = page.evaluate(_LAYOUT)
    assert found["scroll"] <= 0, f"the page scrolls sideways by {found['scroll']} px"
    assert not found["outside"], f"controls outside the viewport: {found['outside']}"
    assert not found["small"], f"text under 12 px: {found['small'][:5]}"
    if not phone:  # a phone scrolls to its buttons below the board; a desktop must not
        assert not found["below"], f"below the fold: {found['below']}"


def _tap_sizes(page: Any) -> list[float]:
    return list(
        page.evaluate(
            "() => Array.from(document.querySelectorAll('.board.my-turn .live'))"
            ".map((e) => e.getBoundingClientRect())"
            ".map((r) => Math.min(r.width, r.height))"
            ".filter((x) => x > 0)"
        )
    )


def _mine(server: LiveServer, game_id: str) -> int:
    """How many actions seat 0 (the person at the page) has stored."""
    row = load_game(server.arena.storage.engine, game_id)
    return sum(1 for _, actor, _ in row.actions if actor == 0)


def _try_illegal(page: Any, played: Callable[[], int]) -> str | None:
    """Click a place that cannot be played; the engine's reason, or None if there is none.
    ``played`` counts the person's stored actions (a bot may move meanwhile)."""
    tries = page.locator(".board.my-turn .tryable")
    if not tries.count():
        return None
    if "{sel}" in (tries.first.get_attribute("data-try") or ""):
        select = page.locator(".my-turn [data-select].live:visible")
        if not select.count():
            return None
        select.first.click()
    before = played()
    tries.first.dispatch_event("click")
    page.wait_for_selector("#notice:not([hidden])", timeout=10_000)
    assert played() == before  # nothing was played
    box = page.locator("#notice").bounding_box()
    assert box and box["y"] + box["height"] <= page.viewport_size["height"] + 1  # in view
    text: str = page.locator("#notice").inner_text()
    return text


def _game_sizes() -> list[Any]:
    """Each game on one size, the sizes alternating (a whole game is 20-45 s of a browser;
    test_browser_phone checks every game's phone layout besides). Making the gallery
    (``ARENA_SCREENS``) plays every game on both sizes."""
    both = bool(os.environ.get("ARENA_SCREENS"))
    out = []
    for i, (game, params, grid9) in enumerate(GAMES):
        for size in ("desktop", "phone"):
            if both or size == ("phone", "desktop")[i % 2]:
                out.append(pytest.param(game, params, grid9, size, id=f"{game}-{size}"))
    return out


@pytest.mark.slow
@pytest.mark.parametrize(("game", "params", "grid9", "size"), _game_sizes())
def test_a_whole_game_against_a_bot_by_clicks(
    server: LiveServer,
    browser: Any,
    game: str,
    params: dict[str, Any],
    grid9: bool,
    size: str,
) -> None:
    phone = size == "phone"
    made = create(
        server.url,
        game=game,
        seats=[{"kind": "human"}, {"kind": "bot", "agent": "random"}],
        params=params,
    )
    page = browser.new_page(viewport=PHONE if phone else DESKTOP, has_touch=phone)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.url + made["seats"][0]["url"])
    page.wait_for_selector("#board svg")
    rng = random.Random(f"{game}-{size}")
    reason: str | None = None
    taps: list[float] = []
    shot = False
    for _ in range(600):
        # My turn: a live place on the board, or only buttons (a Sudoku Warriors bid
        # with no village left to add offers just "Yield" and "Add no village").
        page.wait_for_function(
            "() => !document.querySelector('#result').hidden || "
            "document.querySelector('.my-turn .live') || "
            "[...document.querySelectorAll('#actions button')]"
            ".some(b => b.offsetParent !== null)",
            timeout=30_000,
        )
        if page.locator("#result").is_visible():
            break
        if reason is None:
            reason = _try_illegal(page, lambda: _mine(server, made["id"]))
            if reason is not None:
                page.wait_for_function("() => document.querySelector('.my-turn .live')")
        if not taps:
            taps = _tap_sizes(page)
        _check_layout(page, phone)
        before = page.locator("#log li").count()
        targets = page.locator(".my-turn [data-action].live:visible, #actions button:visible")
        n = targets.count()
        try:
            if n:
                targets.nth(rng.randrange(n)).click(timeout=5_000)
            else:
                selects = page.locator(".my-turn [data-select].live:visible")
                n = selects.count()
                if n:
                    selects.nth(rng.randrange(n)).click(timeout=5_000)
                continue
        except PlaywrightTimeout:
            # Another player's move redrew the board under the pointer (Cat Sudoku
            # players write at the same time): look again.
            continue
        page.wait_for_function(
            f"() => document.querySelectorAll('#log li').length > {before} || "
            "!document.querySelector('#notice').hidden || "
            "!document.querySelector('#result').hidden",
            timeout=30_000,
        )
        if not shot and before >= 6 and os.environ.get("ARENA_SCREENS"):
            folder = Path(os.environ["ARENA_SCREENS"])
            folder.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(folder / f"{game}-{size}.png"), full_page=False)
            shot = True
    else:
        pytest.fail("the game did not end within 600 clicks")
    assert page.locator("#result-title").inner_text()
    _check_layout(page, phone)
    # The finished game's replay page fits the same screen.
    page.goto(f"{server.url}/replay/{made['id']}")
    page.wait_for_selector("#board svg")
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]
    assert not errors, errors
    assert reason, "no place that cannot be played was found to click"
    assert reason.strip() and not re.search(r"\([A-Z]{2,3}-\d+\)", reason)  # words, no IDs
    if phone and grid9:
        assert taps and min(taps) >= 40, f"tap targets under 40 px: {min(taps):.1f}"
    page.close()


def test_keyboard_only_game_of_tic_tac_sudoku(server: LiveServer, browser: Any) -> None:
    """Tab onto the board, move the cursor with the arrow keys, play with Enter: a whole
    game against a bot without a mouse; Escape drops a selection."""
    made = create(
        server.url,
        game="tic-tac-sudoku",
        seats=[{"kind": "human"}, {"kind": "bot", "agent": "random"}],
    )
    page = browser.new_page(viewport=DESKTOP)
    page.goto(server.url + made["seats"][0]["url"])
    page.wait_for_selector(".board.my-turn .live")
    keys = ["ArrowRight", "ArrowDown", "ArrowLeft", "ArrowUp"]
    rng = random.Random(5)
    for _ in range(120):
        page.wait_for_function(
            "() => !document.querySelector('#result').hidden || "
            "document.querySelector('.board.my-turn .live')",
            timeout=30_000,
        )
        if page.locator("#result").is_visible():
            break
        before = page.locator("#log li").count()
        page.locator("#board").focus()
        page.keyboard.press(rng.choice(keys))  # the first arrow enters the board
        for _ in range(rng.randrange(3)):
            page.keyboard.press(rng.choice(keys))
        label = page.evaluate("() => document.activeElement.getAttribute('aria-label')")
        assert label and "play here" in label
        page.keyboard.press("Enter")
        page.wait_for_function(
            f"() => document.querySelectorAll('#log li').length > {before} || "
            "!document.querySelector('#result').hidden",
            timeout=30_000,
        )
    else:
        pytest.fail("the game did not end within 120 moves")
    assert page.locator("#result-title").inner_text()
    assert page.locator("#announce").inner_text().startswith("Game over") or "Game over" in (
        page.locator("#announce").inner_text()
    )
    page.close()
