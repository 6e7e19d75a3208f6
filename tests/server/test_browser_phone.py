"""The play page on a phone (390x844, touch) for every game at its usual player counts,
played against bots by taps:

- what a player decides with (the status line, the hand, tile or dice, the buttons of
  the step and the panel's places to tap) is on the first screen, without scrolling;
- every place of the board a finger can tap, and every button of the step, is at least
  40 px wide and high, after the tap that magnifies a board of small places (Citadel,
  Cat Sudoku), and that first tap plays nothing;
- the digits of the other players' Cat Sudoku sheets are at least 12 px, in the larger
  view a tap on a sheet opens;

and on a desktop (1280x800) the board and the panel stay side by side, on one screen,
with no Magnify button where the places are large. A magnified board still plays with
the keyboard, and a mouse plays a small place with one click.

``ARENA_SCREENS`` names a folder to keep a screenshot of Citadel's 19x19 board
magnified and of another player's Cat Sudoku sheet shown larger (docs/screens/ holds
them beside tests/server/test_browser_games.py's screenshot of each game).
"""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any

import pytest
from arena_helpers import LiveServer, create
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from sudoku_arena.server.db.games import load_game

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
#: The least a finger taps reliably, and the least text a phone reads, in CSS px.
MIN_TAP = 40
MIN_TEXT = 12

#: Game, parameters, players (one person, the rest bots): every game at its usual
#: counts, Citadel on its 19x19 board and on the small 9x9.
GAMES: list[tuple[str, dict[str, Any], int]] = [
    ("tic-tac-sudoku", {}, 2),
    ("sudoku-warriors", {"players": 2}, 2),
    ("sudoku-warriors", {"players": 3}, 3),
    ("cat-sudoku", {"players": 2}, 2),
    ("cat-sudoku", {"players": 4}, 4),
    ("sudokuhex", {"players": 2}, 2),
    ("sudokuhex", {"players": 4}, 4),
    ("citadel", {}, 2),
    ("citadel", {"size": 9}, 2),
]
IDS = [f"{g}-{n}" + ("-9x9" if p.get("size") == 9 else "") for g, p, n in GAMES]
#: The games whose panel draws what the player holds (marked class="hand").
HANDS = {"cat-sudoku", "sudokuhex"}
#: My actions each game is played for at least, and at most while it has not reached
#: its step that asks most of a phone (below).
TURNS = 8
MAX_TURNS = 80
#: That step, where a game has one beyond its first: Cat Sudoku's choice of the wild in
#: the Wild Counter (the panel's lowest places), a Sudoku Warriors bid (the villages,
#: 28-33 px to tap when drawn inset), Citadel's turn of warriors after the set-up.
REACH = {
    "cat-sudoku": "#game-panel.my-turn [data-action^='wild'].live",
    "sudoku-warriors": "#board.my-turn [data-select].live",
    "citadel": "#actions button, #board.my-turn [data-select].live",
}

#: The page scrolled to its top; what a player decides with, by name, top and bottom.
_DECIDE = """() => {
  window.scrollTo(0, 0);
  const out = [];
  const add = (name, e) => {
    const r = e.getBoundingClientRect();
    if (r.width && r.height) out.push([name, r.top, r.bottom]);
  };
  add('status', document.querySelector('#status'));
  for (const e of document.querySelectorAll('#game-panel .hand')) add('hand', e);
  for (const e of document.querySelectorAll('#actions button')) {
    add('button ' + e.textContent.trim(), e);
  }
  for (const e of document.querySelectorAll('#game-panel.my-turn .live')) {
    add('panel: ' + (e.getAttribute('aria-label') || e.textContent.trim()), e);
  }
  return out;
}"""

#: The width and height of every place of the board and of the panel that plays now
#: (Cat Sudoku's dice, wild values and Wild Counter boxes), in sight or not, and of the
#: step's buttons.
_TAPS = """() => Array.from(document.querySelectorAll(
    '#board.my-turn .live, #game-panel.my-turn .live, #actions button'))
  .filter((e) => e.getClientRects().length)
  .map((e) => { const r = e.getBoundingClientRect();
    return [e.getAttribute('aria-label') || e.textContent.trim(), r.width, r.height]; })
  .filter(([, w, h]) => w > 0 && h > 0)"""

#: Digits in a drawing, those inside a part that opens larger left out if asked: (the
#: digit, its font size in CSS px as drawn, the height of its box).
_DIGITS = """(root, skipZoomed) => Array.from(root.querySelectorAll('text'))
  .filter((t) => /^[1-9]$/.test(t.textContent.trim()) && t.getClientRects().length)
  .filter((t) => !(skipZoomed && t.closest('[data-zoom]')))
  .map((t) => [t.textContent.trim(),
    parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a,
    t.getBoundingClientRect().height])"""


@pytest.fixture(scope="module")
def browser(module_browser: Any) -> Any:
    return module_browser


@pytest.fixture(scope="module")
def server(bot_server: LiveServer) -> LiveServer:
    return bot_server


def _phone(browser: Any) -> Any:
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    return context.new_page()


#: Counts the moves the page sends (window.sent), so that a tap can be shown to send
#: none: other players move meanwhile (Cat Sudoku's write at the same time).
_COUNT_SENT = """(() => {
  const send = WebSocket.prototype.send;
  window.sent = 0;
  WebSocket.prototype.send = function (data) {
    if (JSON.parse(String(data)).type === 'act') window.sent += 1;
    return send.call(this, data);
  };
})()"""


def _start(server: LiveServer, page: Any, game: str, params: dict[str, Any], n: int) -> str:
    bots = [{"kind": "bot", "agent": "random"}] * (n - 1)
    made = create(server.url, game=game, seats=[{"kind": "human"}, *bots], params=params)
    page.goto(server.url + made["seats"][0]["url"])
    page.wait_for_selector("#board svg")
    return str(made["id"])


def _my_turn(page: Any) -> bool:
    """Waits for a place or button that plays; False once the game is over."""
    page.wait_for_function(
        "() => !document.querySelector('#result').hidden || "
        "[...document.querySelectorAll('.my-turn .live, #actions button')]"
        ".some((e) => e.getClientRects().length && e.getBoundingClientRect().width)",
        timeout=30_000,
    )
    return not page.locator("#result").is_visible()


def _moves(page: Any) -> int:
    return int(page.locator("#log li").count())


def _zoomed(page: Any) -> bool:
    return bool(page.evaluate("document.querySelector('#board').classList.contains('zoomed')"))


def _tap_board_place(page: Any, place: Any, found: dict[str, Any]) -> None:
    """Taps a place of the board as a finger does. On a board of small places the first
    tap only magnifies (nothing is played); the places are measured then, and the
    second tap plays."""
    before = page.evaluate("window.sent")
    place.tap(timeout=5_000)
    if found["magnify"] and not found["magnified"]:
        page.wait_for_selector("#board.zoomed", timeout=5_000)
        # A place that plays sends its move in the tap's own click handler.
        assert page.evaluate("window.sent") == before, "the tap that magnifies played a move"
        found["magnified"] = True
        found["sizes"].extend(page.evaluate(_TAPS))
        place.tap(timeout=5_000)


def _take_a_turn(page: Any, rng: random.Random, found: dict[str, Any]) -> None:
    """One action by taps: a button of the step, or a place of the board or the panel
    (a two-step move: what to choose first, then where); checks the first screen after
    each step."""
    for _ in range(4):
        found["screens"].append(page.evaluate(_DECIDE))
        if found["magnified"] or not found["magnify"]:
            found["sizes"].extend(page.evaluate(_TAPS))
        plays = page.locator(".my-turn [data-action].live:visible, #actions button:visible")
        count = plays.count()
        if count:
            target = plays.nth(rng.randrange(count))
            if target.evaluate("(e) => !!e.closest('#board')"):
                _tap_board_place(page, target, found)
            else:
                target.tap(timeout=5_000)
            return
        choices = page.locator(".my-turn [data-select].live:visible")
        count = choices.count()
        if not count:
            return
        choice = choices.nth(rng.randrange(count))
        if choice.evaluate("(e) => !!e.closest('#board')"):
            _tap_board_place(page, choice, found)
        else:
            choice.tap(timeout=5_000)


def _play(page: Any, seed: str, reach: str | None) -> dict[str, Any]:
    """Plays TURNS of my actions by taps, and on until the step ``reach`` selects is
    seen; what was on the first screen at each step and the sizes of the board's places
    measured on the way."""
    found: dict[str, Any] = {"screens": [], "sizes": [], "magnified": False}
    found["magnify"] = page.locator("#zoom").is_visible()
    found["reached"] = reach is None
    rng = random.Random(seed)
    for turn in range(MAX_TURNS):
        if turn >= TURNS and found["reached"]:
            break
        if not _my_turn(page):
            break
        if reach and page.locator(reach).count():
            found["reached"] = True
        before = _moves(page)
        try:
            _take_a_turn(page, rng, found)
            page.wait_for_function(
                f"() => document.querySelectorAll('#log li').length > {before} || "
                "!document.querySelector('#notice').hidden || "
                "!document.querySelector('#result').hidden",
                timeout=15_000,
            )
        except PlaywrightTimeout:
            # Another player's move redrew the board under the finger (Cat Sudoku
            # players write at the same time): look again.
            continue
    return found


@pytest.mark.slow
@pytest.mark.parametrize(("game", "params", "n"), GAMES, ids=IDS)
def test_a_phone_shows_what_a_player_decides_with_and_finger_sized_places(
    server: LiveServer, browser: Any, game: str, params: dict[str, Any], n: int
) -> None:
    page = _phone(browser)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.add_init_script(_COUNT_SENT)
    _start(server, page, game, params, n)
    assert _my_turn(page)
    found = _play(page, f"{game}-{n}-{params}", REACH.get(game))
    screens = found["screens"]
    assert len(screens) >= 3, f"only {len(screens)} steps were played"
    assert found["reached"], f"the game ended before this step: {REACH[game]}"
    height = PHONE["height"]
    below = sorted(
        {
            f"{name} (y {top:.0f}-{bottom:.0f})"
            for s in screens
            for name, top, bottom in s
            if top < 0 or bottom > height
        }
    )
    assert not below, f"not on the first {height} px of the page: {below[:6]}"
    if game in HANDS:
        assert all(any(name == "hand" for name, _, _ in s) for s in screens), "no hand drawn"
    sizes = found["sizes"]
    assert sizes, "no place of the board was measured"
    if game == "cat-sudoku":
        # The panel's places were measured too: the Wild Counter's boxes (its step is
        # reached above) and the dice.
        labels = {label for label, _, _ in sizes}
        assert any(label.startswith("make ") for label in labels), "no Wild Counter box measured"
        assert any(label.startswith("die ") for label in labels), "no die measured"
    small = sorted({f"{label}: {w:.0f}x{h:.0f}" for label, w, h in sizes if min(w, h) < MIN_TAP})
    assert not small, f"places under {MIN_TAP} px to tap: {small[:6]}"
    assert not errors, errors
    page.context.close()


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 4])
def test_other_players_cat_sudoku_sheets_are_readable_on_a_phone(
    server: LiveServer, browser: Any, players: int
) -> None:
    """Every digit of the panel is at least 12 px as shown, or inside a part that opens
    larger on a tap (the other players' sheets), where it is at least 12 px then."""
    page = _phone(browser)
    game_id = _start(server, page, "cat-sudoku", {"players": players}, players)
    # The bots write the setup roll at once: once each has written its four values and
    # the page has drawn the position after them, their sheets hold digits.
    for _ in range(300):
        row = load_game(server.arena.storage.engine, game_id)
        written = [sum(1 for _, actor, _ in row.actions if actor == p) for p in range(players)]
        if min(written[1:]) >= 4:
            break
        page.wait_for_timeout(100)
    else:
        pytest.fail(f"the bots did not write their setup roll: {written}")
    page.wait_for_function(
        f"() => document.querySelectorAll('#log li').length >= {len(row.actions)}"
    )
    shown = page.locator("#game-panel svg").evaluate(_DIGITS, True)
    larger: list[tuple[str, float, float]] = []
    sheets = page.locator("#game-panel [data-zoom]")
    for k in range(sheets.count()):
        sheets.nth(k).tap()
        page.wait_for_selector("#magnifier[open] svg")
        larger.extend(page.locator("#magnifier-view svg").evaluate(_DIGITS, False))
        page.locator("#magnifier button").tap()
        page.wait_for_selector("#magnifier:not([open])", state="attached")
    small = sorted({f"{d}: {size:.1f} px" for d, size, _ in shown + larger if size < MIN_TEXT})
    assert not small, f"digits under {MIN_TEXT} px: {small[:6]}"
    assert sheets.count() == players - 1, "not every other player's sheet opens larger"
    assert len(larger) >= 4 * (players - 1), "the larger sheets show fewer digits"
    assert min(h for _, _, h in larger) >= MIN_TEXT  # drawn that tall, not only sized
    # The keyboard's way in: a button per sheet under the drawing; Escape closes.
    buttons = page.locator("#game-panel .zoom-parts button")
    assert buttons.count() == players - 1
    buttons.last.focus()
    page.keyboard.press("Enter")
    page.wait_for_selector("#magnifier[open] svg")
    assert page.locator("#magnifier-title").inner_text() == buttons.last.inner_text()
    if os.environ.get("ARENA_SCREENS") and players == 4:
        folder = Path(os.environ["ARENA_SCREENS"])
        folder.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(folder / "cat-sudoku-phone-other-sheet.png"))
    page.keyboard.press("Escape")
    page.wait_for_selector("#magnifier:not([open])", state="attached")
    page.context.close()


@pytest.mark.slow
@pytest.mark.parametrize(
    ("game", "params", "n"),
    [g for g in GAMES if g[2] == 2],
    ids=[i for i, g in zip(IDS, GAMES, strict=True) if g[2] == 2],
)
def test_a_desktop_keeps_the_board_and_the_panel_side_by_side(
    server: LiveServer, browser: Any, game: str, params: dict[str, Any], n: int
) -> None:
    page = browser.new_page(viewport=DESKTOP)
    _start(server, page, game, params, n)
    assert _my_turn(page)
    boxes = page.evaluate(
        """() => Object.fromEntries(['#status', '#board svg', '#game-panel']
          .map((s) => { const r = document.querySelector(s).getBoundingClientRect();
            return [s, [r.left, r.top, r.right, r.bottom]]; }))"""
    )
    board, panel, status = boxes["#board svg"], boxes["#game-panel"], boxes["#status"]
    assert panel[0] >= board[2], "the panel is not beside the board"
    assert panel[1] < status[3] + 20, "the panel does not start at the top"
    assert max(board[3], status[3]) <= DESKTOP["height"], "the board runs below the screen"
    least = page.evaluate(
        """() => Math.min(...Array.from(document.querySelectorAll(
            '#board [data-action], #board [data-select], #board [data-try]'))
          .map((e) => e.getBoundingClientRect()).filter((r) => r.width && r.height)
          .map((r) => Math.min(r.width, r.height)))"""
    )
    if least >= MIN_TAP:  # places already large: no magnifier button
        assert not page.locator("#zoom").is_visible(), least
    page.close()


@pytest.mark.slow
def test_a_magnified_board_plays_by_keyboard_and_a_mouse_plays_small_places(
    server: LiveServer, browser: Any
) -> None:
    """Citadel 19x19 on a phone: magnified, the arrow keys and Enter still play; a
    mouse on a whole board plays a place at once, however small."""
    page = _phone(browser)
    _start(server, page, "citadel", {}, 2)
    assert _my_turn(page)
    page.locator("#zoom").tap()
    assert _zoomed(page)
    before = _moves(page)
    page.locator("#board").focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowDown")
    label = page.evaluate("() => document.activeElement.getAttribute('aria-label')")
    assert label and "citadel" in label
    # The focused place is scrolled into the magnified board's box.
    inside = page.evaluate(
        """() => { const a = document.activeElement.getBoundingClientRect();
          const b = document.querySelector('#board').getBoundingClientRect();
          return a.left >= b.left && a.right <= b.right &&
            a.top >= b.top && a.bottom <= b.bottom; }"""
    )
    assert inside
    page.keyboard.press("Enter")
    page.wait_for_function(f"() => document.querySelectorAll('#log li').length > {before}")
    assert _zoomed(page)  # the next position stays magnified
    if os.environ.get("ARENA_SCREENS"):
        folder = Path(os.environ["ARENA_SCREENS"])
        folder.mkdir(parents=True, exist_ok=True)
        assert _my_turn(page)
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(folder / "citadel-19x19-phone-magnified.png"))
    page.locator("#zoom").tap()
    assert not _zoomed(page)
    assert _my_turn(page)
    before = _moves(page)
    page.locator("#board.my-turn .live").first.click()  # a mouse click, 17 px place
    page.wait_for_function(f"() => document.querySelectorAll('#log li').length > {before}")
    assert not _zoomed(page)
    page.context.close()
