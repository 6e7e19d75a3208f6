"""Small things a person meets: the icon, pages for addresses that lead nowhere, the API
documentation offline, a record that downloads."""

from __future__ import annotations

import httpx
import pytest
from arena_helpers import LiveServer, create

from services import chromium


@pytest.mark.parametrize(
    ("path", "words"),
    [
        ("/no-such-page", "There is no page at this address"),
        ("/rules/no-such-game", "no-such-game"),
        ("/play/NoSuchGame123", "NoSuchGame123"),
        ("/replay/NoSuchGame123", "There is no game"),
    ],
)
def test_addresses_that_lead_nowhere_answer_a_page(
    server: LiveServer, path: str, words: str
) -> None:
    r = httpx.get(server.url + path)
    assert r.status_code == 404
    assert r.headers["content-type"].startswith("text/html")
    assert words in r.text and 'href="/"' in r.text


def test_the_api_keeps_answering_json(server: LiveServer) -> None:
    r = httpx.get(server.url + "/api/no-such-thing")
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"


def test_the_icon_and_an_existing_game_page(server: LiveServer) -> None:
    icon = httpx.get(server.url + "/favicon.ico")
    assert icon.status_code == 200 and icon.headers["content-type"] == "image/svg+xml"
    assert icon.text.startswith("<svg")
    made = create(server.url)
    assert httpx.get(server.url + f"/play/{made['id']}").status_code == 200


def test_the_record_downloads_as_a_file(server: LiveServer) -> None:
    made = create(server.url)
    r = httpx.get(server.url + f"/api/matches/{made['id']}/record")
    assert r.status_code == 200
    assert r.headers["content-disposition"] == (
        f'attachment; filename="tic-tac-sudoku-{made["id"]}.json"'
    )


def test_the_api_docs_render_with_every_outside_request_blocked(server: LiveServer) -> None:
    page_html = httpx.get(server.url + "/api/docs").text
    assert "/api/docs-assets/swagger-ui-bundle.js" in page_html
    assert httpx.get(server.url + "/api/docs-assets/swagger-ui-bundle.js").status_code == 200
    outside: list[str] = []
    with chromium() as browser:
        page = browser.new_page(viewport={"width": 1280, "height": 800})

        def only_local(route: object) -> None:
            url = route.request.url  # type: ignore[attr-defined]
            if url.startswith(server.url):
                route.continue_()  # type: ignore[attr-defined]
            else:
                outside.append(url)
                route.abort()  # type: ignore[attr-defined]

        page.route("**/*", only_local)
        page.goto(server.url + "/api/docs")
        page.wait_for_selector(".opblock-summary-path", timeout=15000)
        paths = page.locator(".opblock-summary-path").all_inner_texts()
        assert any("/api/matches" in p for p in paths)
        page.close()
