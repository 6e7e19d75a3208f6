"""The JSON API and the pages: game list, rules, creating games, acting over HTTP,
records and replays, and clear JSON errors that change nothing."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from arena_helpers import LiveServer, create

from sudoku_arena.core.registry import registered_games
from sudoku_arena.server.db.games import game_ids, load_game


def test_games_list_every_registered_game_with_options_and_bots(server: LiveServer) -> None:
    games = httpx.get(server.url + "/api/games").json()
    assert [g["id"] for g in games] == [s.id for s in registered_games()]
    tts = next(g for g in games if g["id"] == "tic-tac-sudoku")
    assert {"random", "greedy"} <= set(tts["agents"])
    assert any(p["name"] == "target" for p in tts["params"])
    assert all(p["name"] != "players" for p in tts["params"])
    assert tts["summary"] and tts["min_players"] == 2


def test_pages_and_rules(server: LiveServer) -> None:
    gid = create(server.url)["id"]
    with server.client() as c:
        for path in (
            "/",
            f"/play/{gid}",
            f"/replay/{gid}",
            "/static/arena.js",
            "/static/arena.css",
        ):
            r = c.get(path)
            assert r.status_code == 200, path
        assert "content-security-policy" in c.get("/").headers
        r = c.get("/rules/tic-tac-sudoku")
        assert r.status_code == 200 and "Tic-Tac-Sudoku" in r.text
        r = c.get("/rules/no-such-game")  # a person's page: answered with a page
        assert r.status_code == 404 and "no-such-game" in r.text
        assert r.headers["content-type"].startswith("text/html")
        assert c.get("/api/games/tic-tac-sudoku/rules").json()["game"] == "tic-tac-sudoku"


def test_markdown_rules_are_escaped() -> None:
    from sudoku_arena.server.pages import markdown_to_html

    html = markdown_to_html("# Title\n\nA <b>bold</b> `r5c3` move.\n\n- one\n- two\n")
    assert "<h2>Title</h2>" in html and "&lt;b&gt;" in html and "<code>r5c3</code>" in html
    assert html.count("<li>") == 2


@pytest.mark.parametrize(
    ("body", "code", "words"),
    [
        ({"game": "nope"}, "unknown_game", "known games"),
        ({"game": "tic-tac-sudoku", "params": {"target": 0}}, "invalid", "target"),
        ({"game": "tic-tac-sudoku", "params": {"colour": "red"}}, "invalid", "unknown parameter"),
        ({"game": "tic-tac-sudoku", "seats": [{"kind": "human"}]}, "invalid", "players=1"),
        (
            {"game": "tic-tac-sudoku", "params": {"players": 2}, "seats": [{"kind": "human"}] * 3},
            "invalid",
            "3 seats given for 2 players",
        ),
        (
            {"game": "tic-tac-sudoku", "seats": [{"kind": "human"}, {"kind": "bot", "agent": "x"}]},
            "invalid",
            "allowed",
        ),
        ({"game": "tic-tac-sudoku", "seats": [{"kind": "alien"}] * 2}, "bad_request", "kind"),
        ({"game": "tic-tac-sudoku", "mode": "telepathy"}, "bad_request", "hotseat"),
        ({"game": 5}, "bad_request", "game"),
    ],
)
def test_create_refuses_bad_requests_clearly(
    server: LiveServer, body: dict[str, Any], code: str, words: str
) -> None:
    r = httpx.post(server.url + "/api/matches", json=body)
    assert 400 <= r.status_code < 500
    err = r.json()["error"]
    assert err["code"] == code and words in err["message"]
    assert game_ids(server.arena.storage.engine) == []


def test_malformed_and_oversized_bodies(server: LiveServer) -> None:
    with server.client() as c:
        r = c.post(
            "/api/matches", content=b"{not json", headers={"content-type": "application/json"}
        )
        assert r.status_code == 400 and r.json()["error"]["code"] == "bad_json"
        r = c.post("/api/matches", content=b"[1, 2]")
        assert r.status_code == 400 and r.json()["error"]["code"] == "bad_json"
        r = c.post("/api/matches", content=b"x" * 70_000)
        assert r.status_code == 413 and r.json()["error"]["code"] == "too_large"
        r = c.get("/api/matches/nope")
        assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"
    assert game_ids(server.arena.storage.engine) == []


def test_act_over_http_with_tokens(server: LiveServer) -> None:
    made = create(server.url)
    gid = made["id"]
    t0, t1 = (s["token"] for s in made["seats"])
    assert made["hotseat_url"] == f"/play/{gid}#t={t0}.{t1}"
    with server.client() as c:
        st = c.get(f"/api/matches/{gid}/state", headers={"authorization": f"Bearer {t0}"}).json()
        assert st["seat"] == 0 and st["ply"] == 0 and st["svg"].startswith("<svg")
        legal = st["view"]["legal"]
        spectator = c.get(f"/api/matches/{gid}/state").json()
        assert spectator["seat"] is None

        def refused(body: dict[str, Any], status: int, code: str) -> str:
            r = c.post(f"/api/matches/{gid}/actions", json=body)
            assert r.status_code == status, r.text
            assert r.json()["error"]["code"] == code
            message: str = r.json()["error"]["message"]
            return message

        refused({"token": "wrong", "ply": 0, "action": legal[0]}, 403, "bad_token")
        assert "token" in refused({"ply": 0, "action": legal[0]}, 400, "bad_request")
        refused({"token": t1, "ply": 0, "action": legal[0]}, 409, "not_your_turn")
        assert "ply 0" in refused({"token": t0, "ply": 3, "action": legal[0]}, 409, "stale")
        assert "r5c5" in refused({"token": t0, "ply": 0, "action": "r5c5"}, 422, "illegal")
        refused({"token": t0, "ply": 0, "action": "zz"}, 422, "notation")
        refused({"token": t0, "ply": "0", "action": legal[0]}, 400, "bad_request")
        assert c.get(f"/api/matches/{gid}").json()["ply"] == 0
        assert load_game(server.arena.storage.engine, gid).actions == []

        r = c.post(f"/api/matches/{gid}/actions", json={"token": t0, "ply": 0, "action": legal[0]})
        assert r.status_code == 200 and r.json() == {
            "ply": 0,
            "next_ply": 1,
            "status": "active",
            "outcome": None,
        }
        assert load_game(server.arena.storage.engine, gid).actions == [(0, 0, legal[0])]
        # while the game runs the record is the public one: the commitment, no secret
        public = c.get(f"/api/matches/{gid}/record").json()
        assert public["chance"]["secret"] is None and public["seed"] is None
        assert public["chance"]["commitment"] == c.get(f"/api/matches/{gid}").json()["commitment"]
        assert [a["action"] for a in public["actions"]] == [legal[0]]
        assert c.get(f"/api/matches/{gid}/replay/0").status_code == 409


def _finish_over_http(c: httpx.Client, gid: str, tokens: list[str]) -> dict[str, Any]:
    for _ in range(200):
        st = c.get(f"/api/matches/{gid}/state").json()
        if st["status"] == "finished":
            return st
        seat = st["view"]["to_move"][0]
        action = st["view"]["legal"][-1]
        r = c.post(
            f"/api/matches/{gid}/actions",
            json={"token": tokens[seat], "ply": st["ply"], "action": action},
        )
        assert r.status_code == 200, r.text
    raise AssertionError("game did not end")


def test_record_replay_and_rematch(server: LiveServer) -> None:
    made = create(server.url, mode="hotseat")
    gid = made["id"]
    tokens = [s["token"] for s in made["seats"]]
    with server.client() as c:
        final = _finish_over_http(c, gid, tokens)
        record = c.get(f"/api/matches/{gid}/record").json()
        assert record["game"] == "tic-tac-sudoku" and len(record["actions"]) == final["ply"]
        assert record["outcome"] == final["outcome"]
        frame = c.get(f"/api/matches/{gid}/replay/1").json()
        assert frame["action"] == record["actions"][0]["action"] and frame["total"] == final["ply"]
        assert frame["svg"].startswith("<svg")
        assert c.get(f"/api/matches/{gid}/replay/{final['ply'] + 1}").status_code == 404
        # rematch: one game however many ask, each person keeps his token, seats rotate
        assert c.post(f"/api/matches/{gid}/rematch", json={"token": "bad"}).status_code == 403
        r1 = c.post(f"/api/matches/{gid}/rematch", json={"token": tokens[0]}).json()
        r2 = c.post(f"/api/matches/{gid}/rematch", json={"tokens": tokens}).json()
        assert r1["id"] == r2["id"] != gid
        new = c.get(f"/api/matches/{r1['id']}").json()
        assert new["rematch_of"] == gid and new["status"] == "active"
        st = c.get(
            f"/api/matches/{r1['id']}/state", headers={"authorization": f"Bearer {tokens[0]}"}
        ).json()
        assert st["seat"] == 1  # the first player of the last game now moves second
        recent = c.get("/api/matches").json()["games"]
        assert {g["id"] for g in recent} == {gid, r1["id"]}


def test_internal_errors_hide_details(server: LiveServer, monkeypatch: pytest.MonkeyPatch) -> None:
    async def boom(game_id: str) -> None:
        raise RuntimeError("secret database password in a traceback")

    monkeypatch.setattr(server.arena, "get", boom)
    r = httpx.get(server.url + "/api/matches/abc")
    assert r.status_code == 500
    assert r.json() == {
        "error": {"code": "internal", "message": "something went wrong on the server"}
    }


def test_the_openapi_document_describes_every_body(server: LiveServer) -> None:
    spec = httpx.get(server.url + "/api/openapi.json").json()
    schemas = spec["components"]["schemas"]
    for name in ("CreateMatchRequest", "ActionRequest", "MatchInfo", "RecordResponse"):
        assert name in schemas
    for path, methods in spec["paths"].items():
        if not path.startswith("/api/"):
            continue
        for method, op in methods.items():
            if method == "post":
                body = op["requestBody"]["content"]["application/json"]["schema"]
                assert "$ref" in body, (path, body)
            ok = op["responses"]["200" if method == "get" else next(iter(op["responses"]))]
            assert ok["content"]["application/json"]["schema"], (path, method)
    assert "seed" in schemas["CreateMatchRequest"]["properties"]  # documented as refused
