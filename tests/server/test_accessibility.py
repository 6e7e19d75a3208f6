"""An accessibility audit with axe-core on every kind of page of every game: the home
page, the new-game form, a game being played, the replay of a finished game, the
rules page and the lessons (their list, and a lesson's step asking for a move). No
serious or critical violation is allowed.

axe-core comes from npm (``tests/axe/package.json``; ``npm ci --prefix tests/axe``, which
``scripts/test.sh`` runs) and is injected into the page by the test.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from arena_helpers import LiveServer, create

from services import require
from sudoku_arena.core.lessons import lessons

AXE = Path(__file__).resolve().parents[1] / "axe" / "node_modules" / "axe-core" / "axe.min.js"

GAMES: dict[str, dict[str, Any]] = {
    "tic-tac-sudoku": {},
    "sudoku-warriors": {"players": 2, "target": 1},
    "cat-sudoku": {"players": 2},
    "sudokuhex": {"players": 2},
    "citadel": {"size": 9, "max_turns": 8},
}

_AUDIT = """async () => {
  const r = await axe.run(document, { resultTypes: ["violations"] });
  return r.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}): ${v.help}; ` +
      v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(" | "));
}"""


@pytest.fixture(scope="module")
def browser(module_browser: Any) -> Any:
    require("axe-core", AXE.exists(), "npm ci --prefix tests/axe")
    return module_browser


@pytest.fixture(scope="module")
def server(bot_server: LiveServer) -> LiveServer:
    return bot_server


@pytest.fixture(scope="module")
def finished(server: LiveServer) -> dict[str, str]:
    """One game of each between two bots (played side by side), by game, once over."""
    made = {
        game: create(
            server.url,
            game=game,
            seats=[{"kind": "bot", "agent": "random"}, {"kind": "bot", "agent": "random"}],
            params=params,
        )["id"]
        for game, params in GAMES.items()
    }
    deadline = time.time() + 180
    waiting = dict(made)
    while waiting and time.time() < deadline:
        for game, gid in list(waiting.items()):
            if httpx.get(f"{server.url}/api/matches/{gid}").json()["status"] == "finished":
                del waiting[game]
        time.sleep(0.2)
    assert not waiting, f"games between bots did not finish: {sorted(waiting)}"
    return {game: str(gid) for game, gid in made.items()}


def _audit(browser: Any, url: str, ready: str) -> list[str]:
    # The pages forbid inline scripts; the audit is let in past that policy only.
    page = browser.new_page(viewport={"width": 1280, "height": 800}, bypass_csp=True)
    page.goto(url)
    page.wait_for_selector(ready)
    page.add_script_tag(path=str(AXE))
    found: list[str] = page.evaluate(_AUDIT)
    page.close()
    return found


def test_home_and_new_game_form(server: LiveServer, browser: Any) -> None:
    assert _audit(browser, server.url + "/", ".card h3") == []
    for game in GAMES:
        assert _audit(browser, f"{server.url}/?game={game}#new-game", "#f-seats .seat-row") == []


def test_account_page(server: LiveServer, browser: Any) -> None:
    assert _audit(browser, server.url + "/account", "#signin-form") == []


@pytest.mark.parametrize("game", list(GAMES))
def test_play_replay_and_rules_pages(
    server: LiveServer, browser: Any, finished: dict[str, str], game: str
) -> None:
    made = create(
        server.url,
        game=game,
        seats=[{"kind": "human"}, {"kind": "bot", "agent": "random"}],
        params=GAMES[game],
    )
    asks = next(x.id for x in lessons(game) if x.steps[0].asks_move)
    problems = {
        "play": _audit(browser, server.url + made["seats"][0]["url"], "#board svg"),
        "watch": _audit(browser, f"{server.url}/play/{made['id']}", "#board svg"),
        "replay": _audit(browser, f"{server.url}/replay/{finished[game]}", "#board svg"),
        "rules": _audit(browser, f"{server.url}/rules/{game}", "main"),
        "lessons": _audit(browser, f"{server.url}/learn/{game}", ".lesson-item"),
        # A lesson that opens on a move: the asked-for place is marked.
        "lesson": _audit(browser, f"{server.url}/learn/{game}/{asks}", ".my-turn .asked"),
    }
    assert {k: v for k, v in problems.items() if v} == {}
