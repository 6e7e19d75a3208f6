"""The server's printouts: a sheet from the new-game page, a game from its game-over
and replay pages, answered as PDF; bad parameters answered as the API's errors; and
without the print extra, a page a browser prints."""

from __future__ import annotations

import html
import re
import sys
import time
from collections.abc import Iterator
from importlib import resources
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from paper_helpers import pdfinfo, pdftext

from sudoku_arena.core.registry import load
from sudoku_arena.paper import INSTALL_COMMAND, PAPERS, rules_pages, sheet_pages
from sudoku_arena.server import ServerConfig
from sudoku_arena.server.app import create_app

#: What a browser asks for when it follows a link.
BROWSER = {"accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    config = ServerConfig(
        database_url=f"sqlite:///{tmp_path}/a.sqlite3", bot_workers=0, bot_delay=0.0
    )
    with TestClient(create_app(config)) as c:
        yield c


def _pdf(tmp_path: Path, body: bytes) -> Path:
    path = tmp_path / "answer.pdf"
    path.write_bytes(body)
    return path


def test_sheet_as_pdf_with_the_form_s_options(client: TestClient, tmp_path: Path) -> None:
    r = client.get("/print/sudoku-warriors?players=3&paper=letter&seed=4&copies=2")
    assert r.status_code == 200 and r.headers["content-type"] == "application/pdf"
    assert 'filename="sudoku-warriors-sheet.pdf"' in r.headers["content-disposition"]
    info = pdfinfo(_pdf(tmp_path, r.content))
    rules = rules_pages(load("sudoku-warriors", players=3), PAPERS["letter"])
    assert info.pages == 2 + len(rules) and round(info.width) == 612
    text = pdftext(tmp_path / "answer.pdf")
    assert "triangle" in text and "The goal" in text  # the third player's key; the rules


@pytest.mark.parametrize(
    ("query", "status", "words"),
    [
        ("/print/chess", 422, "chess"),
        ("/print/citadel?size=99", 422, "size"),
        ("/print/citadel?paper=a0", 422, "a0"),
        ("/print/citadel?copies=many", 422, "copies"),
        ("/print/citadel?copies=9", 422, "1 to 8"),
        ("/api/matches/NoSuchGame1/print", 404, "NoSuchGame1"),
    ],
)
def test_bad_requests_answer_one_message(
    client: TestClient, query: str, status: int, words: str
) -> None:
    r = client.get(query)
    assert r.status_code == status and words in r.json()["error"]["message"]


def test_a_running_game_prints_public_a_finished_one_whole(
    client: TestClient, tmp_path: Path
) -> None:
    people = [{"kind": "human"}, {"kind": "human"}]
    made = client.post("/api/matches", json={"game": "sudokuhex", "seats": people}).json()
    r = client.get(f"/api/matches/{made['id']}/print")
    assert r.status_code == 200 and r.headers["content-type"] == "application/pdf"
    text = pdftext(_pdf(tmp_path, r.content))
    assert "Not over" in text and "Your tile" not in text  # the hands are dealt, unseen
    assert not re.search(r"draw \d", text)
    bots = [{"kind": "bot", "agent": "random"}, {"kind": "bot", "agent": "random"}]
    made = client.post("/api/matches", json={"game": "sudokuhex", "seats": bots}).json()
    deadline = time.monotonic() + 60
    while client.get(f"/api/matches/{made['id']}").json()["status"] != "finished":
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.1)
    r = client.get(f"/api/matches/{made['id']}/print?paper=letter")
    text = pdftext(_pdf(tmp_path, r.content))
    assert "game record" in text and "as red saw it" in text and "Your tile" in text


def test_the_pages_link_to_the_printouts(client: TestClient) -> None:
    web = resources.files("sudoku_arena.web")
    assert 'id="f-print"' in client.get("/").text
    assert 'id="print-link"' in web.joinpath("play.html").read_text()
    assert 'id="r-print"' in web.joinpath("replay.html").read_text()
    # The page scripts are ES modules (arena.js imports the rest): read every one served.
    names = [f.name for f in web.iterdir() if f.name.endswith(".js")]
    script = "".join(client.get(f"/static/{name}").text for name in names)
    assert "/api/matches/${gameId}/print" in script and "/print/${encodeURIComponent" in script


def test_without_the_print_extra_a_browser_gets_the_pages_to_print(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The print links work after the README's install: a browser gets the same pages
    in one HTML page it prints itself, with a line saying how to get PDF files."""
    monkeypatch.setitem(sys.modules, "cairosvg", None)  # as if it were not installed
    r = client.get("/print/sudokuhex?seed=7&paper=letter", headers=BROWSER)
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    assert "script-src" not in r.headers["content-security-policy"]  # none is needed
    pages = sheet_pages("sudokuhex", {}, 7, 1, PAPERS["letter"])
    assert r.text.count('<svg class="sheet"') == len(pages)
    assert "size: 612.0pt 792.0pt" in r.text  # the print dialog's paper
    assert f"<code>{html.escape(INSTALL_COMMAND, quote=False)}</code>" in r.text
    assert "The goal" in r.text and "Set-up" in r.text and "Ctrl+P" in r.text
    made = client.post("/api/matches", json={"game": "citadel"}).json()
    r = client.get(f"/api/matches/{made['id']}/print", headers=BROWSER)
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    assert "Citadel: game record" in r.text and INSTALL_COMMAND in html.unescape(r.text)


def test_without_the_print_extra_a_program_gets_the_error(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "cairosvg", None)
    made = client.post("/api/matches", json={"game": "citadel"}).json()
    r = client.get(f"/api/matches/{made['id']}/print")
    assert r.status_code == 503 and INSTALL_COMMAND in r.json()["error"]["message"]
    r = client.get("/print/citadel", headers={"accept": "application/pdf"})
    assert r.status_code == 503 and INSTALL_COMMAND in html.unescape(r.text)
