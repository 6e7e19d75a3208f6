"""Rated games end to end on a live server: two accounts seek a rated game, are paired,
one resigns, and both ratings move (profiles, leaderboard, history), once; and what a
rated game refuses at creation and to guests, each refusal saying what is allowed."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from arena_helpers import LiveServer, Player

from sudoku_arena.server import ServerConfig
from sudoku_arena.server.db import accounts as db_accounts
from sudoku_arena.server.db import ratings as rdb

PASSWORD = "a long enough password 1"


@pytest.fixture
def live(sqlite_url: str) -> Iterator[LiveServer]:
    config = ServerConfig(database_url=sqlite_url, bot_workers=0, bot_delay=0.0)
    with LiveServer(config) as s:
        yield s


def signed_up(live: LiveServer, name: str) -> httpx.Client:
    c = live.client()
    r = c.post("/api/account/signup", json={"name": name, "password": PASSWORD})
    assert r.status_code == 201, r.text
    c.headers["x-csrf-token"] = r.json()["csrf"]
    return c


def rated_seek(c: httpx.Client) -> dict[str, Any]:
    r = c.post("/api/seeks", json={"game": "tic-tac-sudoku", "rated": True})
    assert r.status_code == 201, r.text
    made: dict[str, Any] = r.json()
    seek: dict[str, Any] = c.get(
        f"/api/seeks/{made['id']}", params={"wait": 10}, headers={"X-Seek-Token": made["token"]}
    ).json()
    return {**seek, "token": made["token"]}


def rating(c: httpx.Client, name: str) -> dict[str, Any] | None:
    r = c.get(f"/api/players/{name}")
    if r.status_code == 404:
        return None
    games = {g["game"]: g for g in r.json()["ratings"]}
    return games.get("tic-tac-sudoku")


def test_a_rated_game_moves_both_ratings_once(live: LiveServer) -> None:
    ann, bob = signed_up(live, "ann"), signed_up(live, "bob")
    try:
        a = ann.post("/api/seeks", json={"game": "tic-tac-sudoku", "rated": True}).json()
        b = rated_seek(bob)
        assert b["status"] == "paired" and b["rated"] and b["rating"] == 1500
        a = {
            **ann.get(f"/api/seeks/{a['id']}", headers={"X-Seek-Token": a["token"]}).json(),
            "token": a["token"],
        }
        assert a["game_id"] == b["game_id"]
        gid = a["game_id"]
        # ann resigns from her seat (her seek's token)
        p = Player(live.ws_url, gid, [a["token"]])
        p.send(type="resign", seat=a["seat"])
        p.wait("state", timeout=10)
        deadline = time.time() + 15
        while (rating(ann, "bob") is None or rating(ann, "ann") is None) and time.time() < deadline:
            time.sleep(0.1)
        p.close()
        ra, rb = rating(ann, "ann"), rating(ann, "bob")
        assert ra is not None and rb is not None
        assert ra["rating"] < 1500 < rb["rating"] and ra["games"] == rb["games"] == 1
        assert ra["provisional"] and rb["provisional"]
        profile = ann.get("/api/players/bob").json()
        assert [g["id"] for g in profile["recent"]] == [gid]
        assert profile["recent"][0]["replay"] == f"/replay/{gid}"
        page = ann.get("/players/bob")
        assert page.status_code == 200 and "<svg" in page.text and f"/replay/{gid}" in page.text
        board = ann.get("/api/leaderboard/tic-tac-sudoku").json()
        names = [e["name"] for e in board]
        assert names.index("bob") < names.index("ann")
        assert {e["name"] for e in board if e["bot"]} == {"easy", "normal", "hard"}
        assert "bob" in ann.get("/leaderboard/tic-tac-sudoku").text
        # the result counts once: the game's end again changes nothing
        changed = live.app.state.ratings.apply(
            gid, "tic-tac-sudoku", {"winners": [0], "scores": [0, 0], "reason": "x"}
        )
        assert changed == [] and rating(ann, "bob") == rb
        # a deleted account's rating is shown nowhere again
        gone = bob.request("DELETE", "/api/account", json={"password": PASSWORD})
        assert gone.status_code == 200, gone.text
        assert ann.get("/api/players/bob").status_code == 404
        assert ann.get("/players/bob").status_code == 404
        board = ann.get("/api/leaderboard/tic-tac-sudoku").json()
        assert "bob" not in [e["name"] for e in board] and "ann" in [e["name"] for e in board]
    finally:
        ann.close()
        bob.close()


def test_a_paired_game_is_rated_from_its_first_commit(sqlite_url: str) -> None:
    """The game, its accounts' seats and its rating record are one commit: the server
    knows it is rated without asking the database again, takebacks are refused, and a
    server started afterwards on the same database knows it too."""
    config = ServerConfig(database_url=sqlite_url, bot_workers=0, bot_delay=0.0)
    with LiveServer(config) as live:
        ann, bob = signed_up(live, "ann"), signed_up(live, "bob")
        a = ann.post("/api/seeks", json={"game": "tic-tac-sudoku", "rated": True}).json()
        b = rated_seek(bob)
        gid = b["game_id"]
        lg = live.arena.games[gid]
        assert lg.rated and live.app.state.ratings is not None
        engine = live.arena.storage.engine
        assert rdb.is_rated(engine, gid)
        assert set(db_accounts.seat_accounts(engine, gid)) == {0, 1}
        assert ann.get(f"/api/matches/{gid}").json()["rated"] is True
        seen = ann.get(f"/api/seeks/{a['id']}", headers={"X-Seek-Token": a["token"]}).json()
        a = {**seen, "token": a["token"]}
        players = {s["seat"]: Player(live.ws_url, gid, [s["token"]]) for s in (a, b)}
        to_move = players[a["seat"]].state[a["seat"]]["view"]["to_move"][0]
        mover = players[to_move]
        legal = mover.state[to_move]["view"]["legal"]
        assert mover.act(legal[0], 0, to_move)["type"] == "ack"
        mover.send(type="takeback", answer="ask", id=5)
        err = mover.wait("error", id=5)
        assert err["code"] == "rated" and "rated" in err["message"]
        for pl in players.values():
            pl.close()
        ann.close()
        bob.close()
    with LiveServer(config) as again:
        assert httpx.get(f"{again.url}/api/matches/{gid}").json()["rated"] is True
        assert again.arena.games[gid].rated


def test_an_unrated_game_is_not_rated_after_a_restart(sqlite_url: str) -> None:
    config = ServerConfig(database_url=sqlite_url, bot_workers=0, bot_delay=0.0)
    with LiveServer(config) as live:
        gid = live.client().post("/api/matches", json={"game": "tic-tac-sudoku"}).json()["id"]
        assert not live.arena.games[gid].rated
    with LiveServer(config) as again:
        assert httpx.get(f"{again.url}/api/matches/{gid}").json()["rated"] is False
        assert not again.arena.games[gid].rated


def test_rated_games_refuse_what_they_cannot_be(live: LiveServer) -> None:
    body = {"game": "tic-tac-sudoku", "rated": True}
    with live.client() as guest:
        r = guest.post("/api/matches", json=body)
        assert r.status_code == 401 and "rated false" in r.json()["error"]["message"]
    ann = signed_up(live, "ann")
    try:
        bots = ann.get("/api/bots/tic-tac-sudoku/ratings").json()
        assert bots["normal"] == 1500 and set(bots) == {"easy", "normal", "hard"}
        r = ann.post(
            "/api/matches", json={**body, "seats": [{}, {"kind": "bot", "agent": "random"}]}
        )
        assert (
            r.status_code == 400
            and "rated levels: easy, hard, normal" in r.json()["error"]["message"]
            and r.json()["error"]["message"].startswith("seat 2: bot 'random'")  # counted from 1
        )
        r = ann.post("/api/matches", json={**body, "mode": "hotseat"})
        assert r.status_code == 400 and "mode invite" in r.json()["error"]["message"]
        r = ann.post("/api/matches", json={**body, "coach": True})
        assert r.status_code == 400 and "coach" in r.json()["error"]["message"]
        r = ann.post(
            "/api/matches", json={**body, "seats": [{}, {"kind": "bot", "agent": "normal"}]}
        )
        assert r.status_code == 201, r.text
        # against a bot the coach is on by default, but never in a rated game
        coach = ann.get(f"/api/matches/{r.json()['id']}/coach").json()
        assert coach["enabled"] is False
        r = ann.post("/api/matches", json=body)
        assert r.status_code == 201, r.text
        made = r.json()
        other = made["seats"][1]["token"]
    finally:
        ann.close()
    with live.client() as guest:
        r = guest.post(
            f"/api/matches/{made['id']}/claim", json={"token": other, "device": "guest-device-1"}
        )
        assert r.status_code == 403 and r.json()["error"]["code"] == "rated_needs_account"
        assert "sign in" in r.json()["error"]["message"]


def test_a_challenge_to_a_named_player_is_accepted_once_or_declined(live: LiveServer) -> None:
    ann, bob, cy = signed_up(live, "ann"), signed_up(live, "bob"), signed_up(live, "cyd")
    try:
        with live.client() as guest:
            r = guest.post("/api/challenges", json={"opponent": "bob", "game": "tic-tac-sudoku"})
            assert r.status_code == 401
        r = ann.post("/api/challenges", json={"opponent": "ann", "game": "tic-tac-sudoku"})
        assert r.status_code == 400 and r.json()["error"]["code"] == "self_challenge"
        made = ann.post(
            "/api/challenges", json={"opponent": "Bob", "game": "tic-tac-sudoku", "rated": True}
        ).json()
        mine = {"X-Challenge-Token": made["token"]}
        assert [c["id"] for c in bob.get("/api/challenges").json()] == [made["id"]]
        assert cy.get("/api/challenges").json() == []  # only the named player sees it
        assert cy.post(f"/api/challenges/{made['id']}/accept", json={}).status_code == 404
        assert ann.get(f"/api/challenges/{made['id']}", headers=mine).json()["status"] == "open"
        took = bob.post(f"/api/challenges/{made['id']}/accept", json={})
        assert took.status_code == 200, took.text
        again = bob.post(f"/api/challenges/{made['id']}/accept", json={})
        assert again.status_code == 409  # answered once
        seen = ann.get(f"/api/challenges/{made['id']}", headers=mine).json()
        gid = took.json()["game_id"]
        assert seen["status"] == "accepted" and seen["game_id"] == gid
        assert seen["url"] == f"/play/{gid}#t={made['token']}"
        assert took.json()["url"].startswith(f"/play/{gid}#t=")
        assert (
            ann.get(f"/api/challenges/{made['id']}", headers={"X-Challenge-Token": "x"}).status_code
            == 404
        )
        second = ann.post("/api/challenges", json={"opponent": "bob", "game": "tic-tac-sudoku"})
        declined = bob.post(f"/api/challenges/{second.json()['id']}/decline", json={})
        assert declined.status_code == 200 and declined.json()["status"] == "declined"
        assert bob.get("/api/challenges").json() == []
        # A correspondence challenge: days per move, validated as the create body's.
        body = {"opponent": "bob", "game": "tic-tac-sudoku"}
        bad = ann.post("/api/challenges", json={**body, "clock": {"days": 0}})
        assert bad.status_code in (400, 422) and "days" in bad.json()["error"]["message"]
        third = ann.post("/api/challenges", json={**body, "clock": {"days": 5}}).json()
        took = bob.post(f"/api/challenges/{third['id']}/accept", json={})
        clock = ann.get(f"/api/matches/{took.json()['game_id']}").json()["clock"]
        assert clock["days"] == 5 and clock["words"] == "5 days per move"
    finally:
        for c in (ann, bob, cy):
            c.close()


def test_a_rated_game_against_a_bot_moves_the_person_only(live: LiveServer) -> None:
    ann = signed_up(live, "ann")
    try:
        r = ann.post(
            "/api/matches",
            json={
                "game": "tic-tac-sudoku",
                "rated": True,
                "seats": [{}, {"kind": "bot", "agent": "hard"}],
            },
        )
        assert r.status_code == 201, r.text
        made = r.json()
        p = Player(live.ws_url, made["id"], [made["seats"][0]["token"]])
        p.send(type="resign", seat=0)
        deadline = time.time() + 15
        while rating(ann, "ann") is None and time.time() < deadline:
            time.sleep(0.1)
        p.close()
        mine = rating(ann, "ann")
        assert mine is not None and mine["rating"] < 1500 and mine["games"] == 1
        bots = ann.get("/api/bots/tic-tac-sudoku/ratings").json()
        assert bots["hard"] > 1500 and bots["normal"] == 1500  # the bots did not move
        board = {e["name"]: e for e in ann.get("/api/leaderboard/tic-tac-sudoku").json()}
        assert board["hard"]["bot"] and board["hard"]["rating"] == bots["hard"]
    finally:
        ann.close()
