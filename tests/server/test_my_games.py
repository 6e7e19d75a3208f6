"""A signed-in person's games from any device: GET /api/account/games lists them (whose
turn, the clock, the opponents), and POST .../seats/{seat}/resume takes a seat back on
this browser with a fresh token (the old one stops working); refused for anybody else."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from sudoku_arena.server import ServerConfig, create_app

PASSWORD = "a long enough secret"


@pytest.fixture
def app(sqlite_url: str) -> Any:
    cfg = ServerConfig(
        database_url=sqlite_url, bot_workers=0, bot_delay=0.0, analysis=False, signin_slowdown=0.0
    )
    return create_app(cfg)


@pytest.fixture
def browsers(app: Any) -> Iterator[tuple[TestClient, TestClient, TestClient]]:
    """Two browsers signed in as the same account, and one signed in as another."""
    with TestClient(app) as a, TestClient(app) as b, TestClient(app) as other:
        r = a.post("/api/account/signup", json={"name": "emmy", "password": PASSWORD})
        assert r.status_code == 201, r.text
        r = b.post("/api/account/signin", json={"name": "emmy", "password": PASSWORD})
        assert r.status_code == 200, r.text
        r = other.post("/api/account/signup", json={"name": "sofia", "password": PASSWORD})
        assert r.status_code == 201, r.text
        yield a, b, other


def _csrf(c: TestClient) -> dict[str, str]:
    return {"x-csrf-token": c.get("/api/account").json()["csrf"]}


def test_an_accounts_games_are_listed_and_taken_back_on_another_browser(
    browsers: tuple[TestClient, TestClient, TestClient],
) -> None:
    a, b, other = browsers
    body = {"game": "tic-tac-sudoku", "clock": {"days": 2}}
    made = a.post("/api/matches", json=body, headers=_csrf(a)).json()
    gid, old = made["id"], made["seats"][0]["token"]
    assert a.post(
        f"/api/matches/{gid}/claim",
        json={"token": old, "device": "device-a-0001"},
        headers=_csrf(a),
    ).is_success

    listed = b.get("/api/account/games")
    assert listed.status_code == 200, listed.text
    [game] = listed.json()
    assert game["id"] == gid and game["seats"] == [0] and game["status"] == "active"
    assert game["your_turn"] is True and game["clock"] and "day" in game["clock"]
    assert game["opponents"] == [made["seats"][1]["name"]]
    assert other.get("/api/account/games").json() == []

    # Another account (and a guest) cannot take the seat.
    refused = other.post(
        f"/api/matches/{gid}/seats/0/resume", json={"device": "device-x-0001"}, headers=_csrf(other)
    )
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "not_your_seat"
    assert "seat 1 " in refused.json()["error"]["message"]
    # Without the CSRF token a signed-in POST is refused.
    assert (
        b.post(f"/api/matches/{gid}/seats/0/resume", json={"device": "device-b-0001"}).status_code
        == 403
    )

    r = b.post(
        f"/api/matches/{gid}/seats/0/resume", json={"device": "device-b-0001"}, headers=_csrf(b)
    )
    assert r.status_code == 200, r.text
    new = r.json()["token"]
    assert new != old and r.json()["url"] == f"/play/{gid}#t={new}"

    # The new token plays on this device; the old one stops working.
    state = b.get(
        f"/api/matches/{gid}/state",
        headers={"authorization": f"Bearer {new}", "x-device": "device-b-0001"},
    )
    assert state.status_code == 200, state.text
    gone = a.get(f"/api/matches/{gid}/state", headers={"authorization": f"Bearer {old}"})
    assert gone.status_code == 403


def test_the_list_needs_a_signed_in_person(app: Any) -> None:
    with TestClient(app) as guest:
        r = guest.get("/api/account/games")
        assert r.status_code == 401 and r.json()["error"]["code"] == "sign_in_required"
        r = guest.post("/api/matches/x/seats/0/resume", json={"device": "device-guest"})
        assert r.status_code == 401
