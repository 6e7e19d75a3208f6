"""The server's printouts: a sheet from the new-game page, a game from its game-over
and replay pages, answered as PDF; bad parameters answered as the API's errors."""

from __future__ import annotations

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
from sudoku_arena.paper import PAPERS, rules_pages
from sudoku_arena.server import ServerConfig
from sudoku_arena.server.app import create_app


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


def test_without_the_print_extra_the_answer_says_how_to_install_it(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "cairosvg", None)  # as if it were not installed
    r = client.get("/print/citadel")
    assert r.status_code == 503 and "sudoku-arena[print]" in r.text
    made = client.post("/api/matches", json={"game": "citadel"}).json()
    r = client.get(f"/api/matches/{made['id']}/print")
    assert r.status_code == 503 and "sudoku-arena[print]" in r.json()["error"]["message"]
