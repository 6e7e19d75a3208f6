"""Seats and links: an invite link is claimed by the first device that opens it; another
device must ask to move the seat, and the device that had it is told and loses it; the
creator can re-issue the invite of a seat nobody claimed (the old link dies); all of it
across server processes too."""

from __future__ import annotations

import secrets
from typing import Any

import httpx
import pytest
from arena_helpers import REDIS_URL, LiveServer, Player, create

from sudoku_arena.server import ServerConfig


def _device() -> str:
    return secrets.token_urlsafe(16)


def _claim(
    c: httpx.Client, gid: str, token: str, device: str, move: bool = False, ask: bool = False
) -> Any:
    body = {"token": token, "device": device, "move": move}
    if ask:
        body["ask"] = True
    return c.post(f"/api/matches/{gid}/claim", json=body)


def _state(c: httpx.Client, gid: str, token: str, device: str | None = None) -> httpx.Response:
    headers = {"authorization": f"Bearer {token}"}
    if device is not None:
        headers["x-device"] = device
    return c.get(f"/api/matches/{gid}/state", headers=headers)


def test_a_link_is_claimed_once_and_moving_it_tells_the_other_device(server: LiveServer) -> None:
    made = create(server.url)
    gid = made["id"]
    t0, t1 = (s["token"] for s in made["seats"])
    phone, laptop = _device(), _device()
    with server.client() as c:
        mine = {"seat": 1, "moved": False, "elsewhere": False}
        assert _claim(c, gid, t1, phone).json() == mine
        assert _claim(c, gid, t1, phone).json() == mine  # same device
        assert c.get(f"/api/matches/{gid}").json()["claimed"] == [False, True]
        taken = _claim(c, gid, t1, laptop)
        assert taken.status_code == 409 and taken.json()["error"]["code"] == "seat_elsewhere"
        assert "another device" in taken.json()["error"]["message"]
        # A browser asks first: the same news as an answer (no error in its console),
        # and nothing changes.
        asked = _claim(c, gid, t1, laptop, ask=True)
        assert asked.status_code == 200
        assert asked.json() == {"seat": 1, "moved": False, "elsewhere": True}
        assert _claim(c, gid, t1, laptop).status_code == 409  # the phone still holds it
        # Holding the link is not enough on another device: not over the socket...
        other = Player(server.ws_url, gid, [t1], device=laptop)
        assert other.seats == []
        assert any(m.get("code") == "seat_elsewhere" for m in other.received)
        other.close()
        # ...nor over HTTP.
        assert _state(c, gid, t1, laptop).status_code == 409
        assert _state(c, gid, t1).status_code == 409
        assert _state(c, gid, t1, phone).json()["seat"] == 1
        on_phone = Player(server.ws_url, gid, [t1], device=phone)
        assert on_phone.seats == [1]
        host = Player(server.ws_url, gid, [t0])
        assert host.act(host.state[0]["view"]["legal"][0], 0)["type"] == "ack"
        on_phone.wait_ply(1)
        # The player moves the seat to the laptop: the phone is told, and watches.
        moving = _claim(c, gid, t1, laptop, move=True).json()
        assert moving == {"seat": 1, "moved": True, "elsewhere": False}
        moved = on_phone.wait("seat_moved")
        assert moved["seat"] == 1 and "another device" in moved["text"]
        refused = on_phone.act(on_phone.state[1]["view"]["legal"][0], 1, seat=1, msg_id=4)
        assert refused["type"] == "error" and refused["code"] == "forbidden"
        on_laptop = Player(server.ws_url, gid, [t1], device=laptop)
        assert on_laptop.seats == [1]
        assert on_laptop.act(on_laptop.state[1]["view"]["legal"][0], 1)["type"] == "ack"
        for p in (on_phone, host, on_laptop):
            p.close()


def test_the_creator_reissues_an_unclaimed_invite_and_the_old_link_dies(
    server: LiveServer,
) -> None:
    made = create(server.url, seats=[{"kind": "human"}] * 3, game="sudoku-warriors")
    gid = made["id"]
    t0, t1, t2 = (s["token"] for s in made["seats"])
    host_device = _device()
    with server.client() as c:
        assert c.get(f"/api/matches/{gid}").json()["host_seat"] == 0
        _claim(c, gid, t0, host_device)
        lost = Player(server.ws_url, gid, [t1])  # somebody opened the old link in a script
        assert lost.seats == [1]
        url = f"/api/matches/{gid}/seats/1/invite"
        new = c.post(url, json={"token": t0, "device": host_device}).json()
        assert new["seat"] == 1 and new["token"] != t1
        assert new["url"] == f"/play/{gid}#t={new['token']}"
        assert lost.wait("seat_moved")["seat"] == 1  # the old link holds nothing any more
        assert _state(c, gid, t1).status_code == 403
        assert _state(c, gid, new["token"]).json()["seat"] == 1
        # Only the creator may, only for a seat nobody claimed, never his own.
        not_host = c.post(f"/api/matches/{gid}/seats/2/invite", json={"token": t2})
        assert not_host.status_code == 403 and not_host.json()["error"]["code"] == "forbidden"
        no_device = c.post(f"/api/matches/{gid}/seats/2/invite", json={"token": t0})
        assert no_device.status_code == 409  # the host's seat is claimed: his device it is
        _claim(c, gid, t2, _device())
        claimed = c.post(
            f"/api/matches/{gid}/seats/2/invite", json={"token": t0, "device": host_device}
        )
        assert claimed.status_code == 409 and claimed.json()["error"]["code"] == "seat_taken"
        own = c.post(
            f"/api/matches/{gid}/seats/0/invite", json={"token": t0, "device": host_device}
        )
        assert own.status_code == 422
    lost.close()


def test_a_rematch_keeps_each_seat_on_its_device(server: LiveServer) -> None:
    made = create(server.url)
    gid = made["id"]
    t0, t1 = (s["token"] for s in made["seats"])
    d0, d1 = _device(), _device()
    with server.client() as c:
        _claim(c, gid, t0, d0)
        _claim(c, gid, t1, d1)
        p = Player(server.ws_url, gid, [t0], device=d0)
        p.send(type="resign", seat=0)
        p.wait("state", status="finished")
        p.close()
        rematch = c.post(f"/api/matches/{gid}/rematch", json={"token": t0}).json()["id"]
        assert c.get(f"/api/matches/{rematch}").json()["claimed"] == [True, True]
        assert _state(c, rematch, t0, d0).status_code == 200
        assert _state(c, rematch, t0, d1).status_code == 409


@pytest.mark.parametrize("fanout", [True, False], ids=["redis", "database-only"])
def test_a_seat_moved_on_one_process_is_taken_from_the_device_on_another(
    pg_url: str, fanout: bool
) -> None:
    """Told through the fan-out, or without it by the look every process takes at the
    games watched on it."""
    channel = "arena-test-" + secrets.token_hex(4)

    def config() -> ServerConfig:
        return ServerConfig(
            database_url=pg_url,
            redis_url=REDIS_URL if fanout else None,
            channel=channel,
            bot_workers=0,
            bot_lease=3.0,  # the database look every half second
        )

    with LiveServer(config()) as a, LiveServer(config()) as b:
        made = create(a.url)
        gid = made["id"]
        t1 = made["seats"][1]["token"]
        phone, laptop = _device(), _device()
        with httpx.Client(base_url=a.url, timeout=20) as on_a:
            assert _claim(on_a, gid, t1, phone).json()["moved"] is False
        player = Player(a.ws_url, gid, [t1], device=phone)
        assert player.seats == [1]
        with httpx.Client(base_url=b.url, timeout=20) as on_b:
            refused = _claim(on_b, gid, t1, laptop)  # b reads the claim from the database
            assert refused.status_code == 409
            assert _claim(on_b, gid, t1, laptop, move=True).json()["moved"] is True
        assert player.wait("seat_moved")["seat"] == 1
        player.close()
