"""The tutorial's API and pages (server/tutorials.py), over HTTP in-process.

Every step of every game's lessons: its answer played through the API is ``done`` with
the position after it drawn, every move it asks for can be marked on the page (a place
in the drawings, or a legal move that gets a button), its wrong and illegal tries get
the step's explanation and the engine's reason, and a step to read takes no move. Bad
requests get the project's error shape with a 4xx, and the pages exist for every game
and lesson (and a clear 404 page otherwise). The browser side is
test_browser_tutorial.py's.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from sudoku_arena.core.errors import split_rulings
from sudoku_arena.core.lessons import Lesson, lessons
from sudoku_arena.core.registry import registered_games
from sudoku_arena.server import ServerConfig, create_app

GAMES = [s.id for s in registered_games()]
STEPS = [
    pytest.param(g, x, k, id=f"{g}/{x.id}/{k + 1}-{s.id}")
    for g in GAMES
    for x in lessons(g)
    for k, s in enumerate(x.steps)
]


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db = tmp_path_factory.mktemp("db") / "a.sqlite3"
    config = ServerConfig(database_url=f"sqlite:///{db}", bot_workers=0, bot_delay=0.0)
    with TestClient(create_app(config)) as c:
        yield c


def _path(game: str, lesson: str, step: int) -> str:
    return f"/api/games/{game}/lessons/{lesson}/steps/{step}"


def _chosen_first(svg: str, action: str) -> list[str]:
    """What is chosen before ``action``'s places can be clicked (their data-from)."""
    found = []
    for tag in re.findall(rf'<[^<>]*data-action="{re.escape(action)}"[^<>]*>', svg):
        key = re.search(r'data-from="([^"]*)"', tag)
        if key:
            found.append(key.group(1))
    return found


def test_each_game_lists_its_lessons_in_order(client: TestClient) -> None:
    for game in GAMES:
        r = client.get(f"/api/games/{game}/lessons")
        assert r.status_code == 200
        data = r.json()
        assert data["game"] == game and data["legend"]
        assert [x["id"] for x in data["lessons"]] == [x.id for x in lessons(game)]
        for listed, lesson in zip(data["lessons"], lessons(game), strict=True):
            assert listed["title"] == lesson.title and listed["steps"] == len(lesson.steps)
            assert listed["moves"] == sum(s.asks_move for s in lesson.steps) > 0


@pytest.mark.parametrize(("game", "lesson", "index"), STEPS)
def test_step(client: TestClient, game: str, lesson: Lesson, index: int) -> None:
    step = lesson.steps[index]
    path = _path(game, lesson.id, index)
    shown = client.get(path).json()
    assert (shown["step"], shown["steps"], shown["text"]) == (index, len(lesson.steps), step.text)
    assert shown["svg"].startswith("<svg") and shown["asks_move"] == step.asks_move
    after = lessons(game)[[x.id for x in lessons(game)].index(lesson.id) + 1 :]
    assert shown["next_lesson"] == (after[0].id if after else None)
    if not step.asks_move:
        assert shown["asked"] == [] and shown["answer"] is None
        out = client.post(path, json={"move": "anything"}).json()
        assert out["result"] == "refused" and "asks for no move" in out["message"]
        return
    # What the step asks for can be marked: the page makes a legal move's place live
    # (and what a two-step move chooses first), or gives it a button.
    drawn = shown["svg"] + shown["panel"]
    legal = shown["view"]["legal"]
    assert shown["answer"] in shown["asked"]
    for action in shown["asked"]:
        assert action in legal, f"{action} is not legal at this step"
        for first in _chosen_first(drawn, action):
            assert f'data-select="{first}"' in drawn, f"{action}: nothing selects {first}"
    for move in step.wrong_tries:
        out = client.post(path, json={"move": move}).json()
        assert (out["result"], out["message"], out["svg"]) == ("wrong", step.wrong, None)
    for move in step.illegal_tries:
        out = client.post(path, json={"move": move}).json()
        assert out["result"] == "refused" and out["svg"] is None
        assert not re.search(r"\b(TTS|SW|CS|SH|CI)-\d+", out["message"]), out["message"]
    done = client.post(path, json={"move": shown["answer"]}).json()
    assert (done["result"], done["message"]) == ("done", step.success)
    assert done["action"] == shown["answer"]
    assert done["svg"].startswith("<svg") and done["svg"] != shown["svg"]
    assert [e["action"] for e in done["log"]][-1] == shown["answer"]
    # Stateless: the step is where it was for the next request.
    assert client.get(path).json()["svg"] == shown["svg"]


def test_a_refusal_reads_as_in_play_with_its_rulings_apart(client: TestClient) -> None:
    path = _path("tic-tac-sudoku", "first-symbols", 1)
    out = client.post(path, json={"move": "r5c5"}).json()
    assert out == {
        "result": "refused",
        "message": "r5c5 is not allowed: a first symbol may not go in the centre box b5",
        "action": None,
        "rulings": ["TTS-3"],
        "view": None,
        "log": None,
        "svg": None,
        "panel": None,
    }
    assert split_rulings(out["message"]) == (out["message"], ())
    garbled = client.post(path, json={"move": "zz"}).json()
    assert garbled["result"] == "refused" and "is not a cell" in garbled["message"]


@pytest.mark.parametrize(
    ("method", "path", "body", "status", "code", "words"),
    [
        ("GET", "/api/games/chess/lessons", None, 422, "unknown_game", "known games"),
        ("GET", _path("chess", "x", 0), None, 422, "unknown_game", "no game called 'chess'"),
        ("GET", _path("citadel", "nope", 0), None, 404, "not_found", "its lessons: setup"),
        ("GET", _path("citadel", "setup", 9), None, 404, "not_found", "there is no step 9"),
        ("GET", _path("citadel", "setup", -1), None, 400, "bad_request", "step"),
        ("GET", _path("citadel", "x" * 65, 0), None, 400, "bad_request", "lesson"),
        ("POST", _path("citadel", "setup", 1), {}, 400, "bad_request", "move: Field required"),
        ("POST", _path("citadel", "setup", 1), {"move": ""}, 400, "bad_request", "move"),
        ("POST", _path("citadel", "setup", 1), {"move": 5}, 400, "bad_request", "move"),
        ("POST", _path("citadel", "setup", 1), {"move": "e5" * 101}, 400, "bad_request", "move"),
        ("POST", _path("citadel", "setup", 1), {"move": "e5", "x": 1}, 400, "bad_request", "x"),
        ("POST", _path("citadel", "setup", 1), [1], 400, "bad_json", "a JSON object"),
        ("POST", _path("citadel", "nope", 1), {"move": "e5"}, 404, "not_found", "no lesson"),
        ("PUT", _path("citadel", "setup", 1), None, 405, "method_not_allowed", "GET, POST"),
    ],
)
def test_bad_requests_are_refused_clearly(
    client: TestClient,
    method: str,
    path: str,
    body: object,
    status: int,
    code: str,
    words: str,
) -> None:
    r = client.request(method, path, json=body)
    assert r.status_code == status, r.text
    error = r.json()["error"]
    assert error["code"] == code and words in error["message"], error
    if status == 405:
        assert r.headers["allow"] == "GET, POST"


def test_the_pages(client: TestClient) -> None:
    for game in GAMES:
        page = client.get(f"/learn/{game}")
        assert (
            page.status_code == 200
            and "script-src 'self'" in page.headers["content-security-policy"]
        )
        for x in lessons(game):
            assert f'href="/learn/{game}/{x.id}"' in page.text
            assert html.escape(x.title) in page.text
            one = client.get(f"/learn/{game}/{x.id}")
            assert one.status_code == 200
            assert f'data-game="{game}" data-lesson="{x.id}"' in one.text
    assert client.get("/static/tutorial.css").headers["content-type"].startswith("text/css")
    for missing in ("/learn/chess", "/learn/citadel/nope"):
        r = client.get(missing)
        assert r.status_code == 404 and r.headers["content-type"].startswith("text/html")
    assert "citadel has no lesson &#x27;nope&#x27;" in client.get("/learn/citadel/nope").text
