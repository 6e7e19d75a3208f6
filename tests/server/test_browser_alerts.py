"""Your-turn alerts in the browser: a correspondence game between two browser contexts.
The waiting player's page is in the background (its visibility reported hidden, as a
tab behind another is) with notifications allowed; when the other player moves, its
title and icon change and a Notification is shown; once the page is seen again, they
are put back. Headless chromium has no push service, so Web Push itself is tested from
the server's side (test_alerts.py, test_fleet_alerts.py) against a local endpoint."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from arena_helpers import LiveServer, create

from sudoku_arena.server import ServerConfig

#: Runs before the page's scripts: a switch for the page's visibility, and a record of
#: every Notification the page constructs (the real one is still made).
_INIT = """
(() => {
  window.__hidden = false;
  const proto = Document.prototype;
  Object.defineProperty(proto, "visibilityState", {
    configurable: true, get() { return window.__hidden ? "hidden" : "visible"; } });
  Object.defineProperty(proto, "hidden", {
    configurable: true, get() { return window.__hidden; } });
  const Real = window.Notification;
  window.__shown = [];
  class Watched extends Real {
    constructor(title, options) {
      super(title, options);
      window.__shown.push({ title, body: (options && options.body) || "" });
    }
  }
  Object.defineProperty(Watched, "permission", { get: () => Real.permission });
  Watched.requestPermission = (...a) => Real.requestPermission(...a);
  window.Notification = Watched;
})();
"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    url = f"sqlite:///{tmp_path_factory.mktemp('db') / 'arena.sqlite3'}"
    with LiveServer(ServerConfig(database_url=url, bot_workers=0, bot_delay=0.0)) as s:
        yield s


def _set_hidden(page: Any, hidden: bool) -> None:
    page.evaluate(
        "(h) => { window.__hidden = h; document.dispatchEvent(new Event('visibilitychange')); }",
        hidden,
    )


def test_the_waiting_page_in_the_background_is_told_it_is_its_turn(
    server: LiveServer, module_browser: Any
) -> None:
    made = create(server.url, clock={"days": 3})
    ann_ctx = module_browser.new_context()
    bob_ctx = module_browser.new_context(permissions=["notifications"])
    bob_ctx.add_init_script(_INIT)
    try:
        ann = ann_ctx.new_page()
        bob = bob_ctx.new_page()
        bob.goto(server.url + made["seats"][1]["url"])
        bob.wait_for_selector("#board svg")
        clocks = bob.locator("#clocks").inner_text()
        assert clocks.count("3d 0h") == 2  # days left, each
        assert "Clock 3 days per move" in clocks  # the time control, in words
        bob.click("#alerts-on")  # the click that may ask for permission
        bob.wait_for_function("() => document.querySelector('#alerts-status').textContent")
        title = bob.title()
        assert not title.startswith("(your turn)")
        _set_hidden(bob, True)  # another tab is in front
        ann.goto(server.url + made["seats"][0]["url"])
        ann.wait_for_selector(".my-turn [data-action].live")
        ann.locator(".my-turn [data-action].live").first.click()
        bob.wait_for_function("() => document.title.startsWith('(your turn)')", timeout=20_000)
        shown = bob.evaluate("() => window.__shown")
        assert len(shown) == 1 and shown[0]["title"].startswith("Your turn")
        icon = bob.evaluate("() => document.querySelector(\"link[rel~='icon']\").href")
        assert icon.endswith("/favicon-turn.svg")
        _set_hidden(bob, False)  # the player looks: everything is put back
        assert bob.title() == title
        icon = bob.evaluate("() => document.querySelector(\"link[rel~='icon']\").href")
        assert icon.endswith("/favicon.ico")
        # The page that moved was visible and is not to move: it was told nothing.
        assert not ann.title().startswith("(your turn)")
    finally:
        ann_ctx.close()
        bob_ctx.close()
