"""Hidden hands on one screen: a hot-seat SuDokuHex page never shows the tile of a player
who is not on turn. Two stored games identical except the waiting player's tile give
the same page, word for word and drawing for drawing; the mover's own tile is shown."""

from __future__ import annotations

import dataclasses
import re
import secrets
from collections.abc import Iterator
from typing import Any

import pytest
from arena_helpers import LiveServer, create

from services import chromium
from sudoku_arena.server import ServerConfig
from sudoku_arena.server.db.games import CreateGame, load_game
from sudoku_arena.server.live import LiveGame


@pytest.fixture
def browser() -> Iterator[Any]:
    with chromium() as b:
        yield b


def _page(browser: Any, url: str) -> tuple[str, str]:
    """What the device shows once the player on turn has taken it: the page's text,
    and every drawing's text (board and panel)."""
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(url)
    page.wait_for_selector("#cover-show:visible")
    cover = page.locator("#cover-text").inner_text()
    page.click("#cover-show")
    page.wait_for_selector("#board svg")
    page.wait_for_selector("#game-panel svg")
    text: str = page.locator("body").inner_text()
    drawings: str = page.evaluate(
        "() => Array.from(document.querySelectorAll('svg')).map((s) => s.textContent).join('|')"
    )
    page.close()
    return cover + "\n" + text, drawings


def _named(text: str, game_id: str) -> str:
    return re.sub(r"Commitment: \S+", "Commitment: C", text.replace(game_id, "ID"))


def test_a_hot_seat_page_hides_the_waiting_players_tile(sqlite_url: str, browser: Any) -> None:
    config = ServerConfig(database_url=sqlite_url, bot_workers=0, bot_delay=0.0)
    with LiveServer(config) as server:
        made = create(server.url, game="sudokuhex", mode="hotseat", params={"players": 2})
        storage = server.arena.storage
        row = load_game(storage.engine, made["id"])
        live = LiveGame(row)
        mover = live.to_move()[0]
        waiting = 1 - mover
        # The waiting player's draw, replaced by another number in a twin game.
        i = next(
            k
            for k, e in enumerate(live.log)
            if e.actor is None
            and e.action.startswith("draw ")
            and live.game.view(live.states[k + 1], waiting)["hand"] is not None
            and live.game.view(live.states[k], waiting)["hand"] is None
        )
        tile = int(live.log[i].action.split()[1])
        other = 1 + tile % 7
        actions = list(row.actions)
        actions[i] = (i, None, f"draw {other}")
        twin_id = "twin" + secrets.token_hex(4)
        twin = dataclasses.replace(row, id=twin_id, actions=actions)
        assert LiveGame(twin).game.view(LiveGame(twin).state, waiting)["hand"] == other
        storage.write_sync(CreateGame(twin))
        token = "t=" + ".".join(s["token"] for s in made["seats"])
        first = _page(browser, f"{server.url}/play/{made['id']}#{token}")
        second = _page(browser, f"{server.url}/play/{twin_id}#{token}")
        # The game's address and its commitment name the game, not the hands.
        commitment = made["game"]["commitment"][:16]
        assert commitment in first[0]
        first = tuple(_named(t, made["id"]) for t in first)
        second = tuple(_named(t, twin_id) for t in second)
        assert first == second
        mine = live.game.view(live.state, mover)["hand"]
        assert "Your tile" in first[1] and str(mine) in first[1]


@pytest.mark.parametrize("size", [(390, 844), (1280, 800)])
def test_the_cover_holds_its_button_and_its_words(
    sqlite_url: str, browser: Any, size: tuple[int, int]
) -> None:
    """The cover's text and "Show my board" lie inside the cover's box, on a phone and
    on a desktop (the button used to hang out of a cover shorter than itself)."""
    config = ServerConfig(database_url=sqlite_url, bot_workers=0, bot_delay=0.0)
    with LiveServer(config) as server:
        made = create(server.url, game="sudokuhex", mode="hotseat", params={"players": 2})
        page = browser.new_page(viewport={"width": size[0], "height": size[1]})
        page.goto(server.url + made["hotseat_url"])
        page.wait_for_selector("#cover-show:visible")
        cover = page.locator("#cover").bounding_box()
        assert cover is not None
        for part in ("#cover-show", "#cover-text"):
            box = page.locator(part).bounding_box()
            assert box is not None
            assert cover["x"] <= box["x"] and box["x"] + box["width"] <= cover["x"] + cover["width"]
            assert cover["y"] <= box["y"], (part, box, cover)
            assert box["y"] + box["height"] <= cover["y"] + cover["height"], (part, box, cover)
        # Nothing else is drawn over the button: a tap on its middle reaches it.
        page.click("#cover-show")
        page.wait_for_selector("#board svg")
        page.close()
