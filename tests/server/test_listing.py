"""The games list and the lobby: private (invite) games are never listed; the list has
dates, filters by game and status, and pages; the lobby shows public games with a seat
nobody took, and one request joins one."""

from __future__ import annotations

import secrets
from collections.abc import Iterator

import httpx
import pytest
from arena_helpers import LiveServer, Player, create

from sudoku_arena.server import ServerConfig

PEOPLE = [{"kind": "human"}, {"kind": "human"}]


@pytest.fixture
def any_server(db_url: str) -> Iterator[LiveServer]:
    with LiveServer(ServerConfig(database_url=db_url, bot_workers=0, bot_delay=0.0)) as s:
        yield s


def _device() -> str:
    return secrets.token_urlsafe(16)


def test_private_games_are_never_listed_and_the_list_pages(any_server: LiveServer) -> None:
    url = any_server.url
    private = create(url)  # invite links: private unless asked otherwise
    assert private["game"]["visibility"] == "private"
    shown = create(url, mode="hotseat")
    public = [create(url, visibility="public") for _ in range(4)]
    citadel = create(url, "citadel", params={"size": 9}, visibility="public")
    with httpx.Client(base_url=url, timeout=20) as c:
        everything = c.get("/api/matches", params={"per_page": 100}).json()
        ids = [g["id"] for g in everything["games"]]
        assert private["id"] not in ids and shown["id"] in ids
        assert everything["total"] == 6 == len(ids)
        newest_first = [citadel["id"], *(g["id"] for g in reversed(public)), shown["id"]]
        assert ids == newest_first
        first = everything["games"][0]
        assert first["created"] > 1.7e9 and first["updated"] >= first["created"]  # dates
        pages = [c.get("/api/matches", params={"per_page": 4, "page": p}).json() for p in (1, 2)]
        assert [g["id"] for p in pages for g in p["games"]] == ids
        assert pages[1]["page"] == 2 and pages[1]["total"] == 6 and len(pages[1]["games"]) == 2
        only = c.get("/api/matches", params={"game": "citadel"}).json()
        assert [g["id"] for g in only["games"]] == [citadel["id"]]
        # Finish one game by resignation: the status filter sees it.
        token = shown["seats"][0]["token"]
        p = Player(any_server.ws_url, shown["id"], [s["token"] for s in shown["seats"]])
        p.send(type="resign", seat=0)
        p.wait("state", status="finished")
        p.close()
        done = c.get("/api/matches", params={"status": "finished"}).json()
        assert [g["id"] for g in done["games"]] == [shown["id"]] and done["total"] == 1
        assert done["games"][0]["outcome"]["code"] == "resign"
        active = c.get("/api/matches", params={"status": "active"}).json()
        assert active["total"] == 5 and token not in str(active)
        bad = c.get("/api/matches", params={"status": "sleeping"})
        assert bad.status_code == 400
        assert "status: Input should be 'active' or 'finished'" in bad.json()["error"]["message"]
        assert c.get("/api/matches", params={"page": 0}).status_code == 400
        unknown = c.get("/api/matches", params={"game": "chess"})
        assert unknown.status_code == 422 and "tic-tac-sudoku" in unknown.json()["error"]["message"]
        assert private["id"] not in str(c.get("/api/lobby").json())


def test_the_lobby_lists_open_public_seats_and_one_click_joins(any_server: LiveServer) -> None:
    url = any_server.url
    game = create(url, visibility="public", clock={"minutes": 3, "increment": 2})
    create(url, visibility="public", seats=[{"kind": "human"}, {"kind": "bot", "agent": "random"}])
    create(url)  # private: not in the lobby
    one_screen = create(url, mode="hotseat")  # public, but its seats are all on one device
    with httpx.Client(base_url=url, timeout=20) as c:
        lobby = c.get("/api/lobby").json()
        assert [g["id"] for g in lobby] == [game["id"]]  # the bot game has no open seat
        entry = lobby[0]
        assert entry["open_seats"] == [{"seat": 1, "name": "player 2"}]  # not the host's
        assert entry["clock"] == "3 min + 2 s" and entry["name"] == "Tic-Tac-Sudoku"
        me = _device()
        joined = c.post(f"/api/matches/{game['id']}/join", json={"device": me}).json()
        assert joined["seat"] == 1 and joined["url"] == f"/play/{game['id']}#t={joined['token']}"
        assert c.get("/api/lobby").json() == []  # taken
        again = c.post(f"/api/matches/{game['id']}/join", json={"device": me})
        assert again.status_code == 409 and again.json()["error"]["code"] == "already_seated"
        late = c.post(f"/api/matches/{game['id']}/join", json={"device": _device()})
        assert late.status_code == 409 and late.json()["error"]["code"] == "full"
        # The creator's old link for that seat died with the join; the new one plays.
        old = game["seats"][1]["token"]
        st = c.get(f"/api/matches/{game['id']}/state", headers={"authorization": f"Bearer {old}"})
        assert st.status_code == 403
        host = Player(any_server.ws_url, game["id"], [game["seats"][0]["token"]])
        assert host.act(host.state[0]["view"]["legal"][0], 0)["type"] == "ack"
        guest = Player(any_server.ws_url, game["id"], [joined["token"]], device=me)
        assert guest.seats == [1]
        assert guest.act(guest.wait_ply(1)["view"]["legal"][0], 1)["type"] == "ack"
        host.close()
        guest.close()
        shared = c.post(f"/api/matches/{one_screen['id']}/join", json={"device": _device()})
        assert shared.status_code == 409 and "one screen" in shared.json()["error"]["message"]
        private = create(url)
        refused = c.post(f"/api/matches/{private['id']}/join", json={"device": me})
        assert refused.status_code == 403 and refused.json()["error"]["code"] == "private"
