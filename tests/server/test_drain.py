"""SIGTERM drains a ``serve`` process: /readyz goes 503, moves in flight are stored and
acknowledged (or not taken at all), every socket closes with 1012 (service restart),
and a process started again on the database goes on with the game."""

from __future__ import annotations

import json
import signal
import time
from pathlib import Path

import httpx
import pytest
from arena_helpers import LiveServer, Player, ServerProcess, create
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from sudoku_arena.server.live import LiveGame

# Processes of their own: these tests run one after another on one test worker
# (pytest -n 2 --dist loadgroup), never two fleets at once on a 2-core machine.
pytestmark = pytest.mark.xdist_group("processes")


def closed_code(player: Player, timeout: float = 15) -> int:
    """Read until the server closes the socket; the close code."""
    deadline = time.time() + timeout
    while True:
        try:
            player.recv(timeout=max(0.01, deadline - time.time()))
        except ConnectionClosed as exc:
            assert exc.rcvd is not None, "closed without a close frame"
            return exc.rcvd.code


def test_sigterm_drains_then_play_goes_on(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/arena.sqlite3"
    first = ServerProcess(url, "--bot-workers", "0", "--drain-delay", "1.5")
    try:
        made = create(first.url)
        p0 = Player(first.ws_url, made["id"], [made["seats"][0]["token"]])
        p1 = Player(first.ws_url, made["id"], [made["seats"][1]["token"]])
        assert p0.act(p0.state[0]["view"]["legal"][0], 0)["type"] == "ack"
        assert httpx.get(first.url + "/readyz").status_code == 200
        first.proc.send_signal(signal.SIGTERM)
        ready = httpx.get(first.url + "/readyz", timeout=5)  # during the delay
        assert ready.status_code == 503
        assert ready.json()["failed"] == ["draining"]
        assert httpx.get(first.url + "/healthz").status_code == 200  # alive all the same
        # p1's move, sent while draining, is either acknowledged or not taken at all.
        p1.send(type="act", ply=1, action=p1.state[1]["view"]["legal"][0], id=5)
        acked = False
        try:
            while True:
                msg = p1.recv(timeout=15)
                acked = (
                    acked
                    or (msg.get("ack") or {}).get("id") == 5
                    or (msg["type"] == "ack" and msg.get("id") == 5)
                )
        except ConnectionClosed as exc:
            assert exc.rcvd is not None and exc.rcvd.code == 1012
        assert closed_code(p0) == 1012
        assert first.proc.wait(timeout=20) in (0, -signal.SIGTERM)
    finally:
        first.stop()
    again = ServerProcess(url, "--bot-workers", "0")
    try:
        p1 = Player(again.ws_url, made["id"], [made["seats"][1]["token"]])
        ply = p1.state[1]["ply"]
        assert ply == (2 if acked else 1)  # nothing acknowledged was lost
        to_move = 0 if ply == 2 else 1
        mover = (
            p1 if to_move == 1 else Player(again.ws_url, made["id"], [made["seats"][0]["token"]])
        )
        assert mover.act(mover.state[to_move]["view"]["legal"][0], ply)["type"] == "ack"
    finally:
        again.stop()


def test_a_draining_arena_takes_no_new_game_or_socket(server: LiveServer) -> None:
    made = create(server.url)
    server.arena.draining = True  # what Arena.drain sets first
    resp = httpx.post(server.url + "/api/matches", json={"game": "tic-tac-sudoku"})
    assert resp.status_code == 503
    assert resp.json()["error"]["code"] == "draining"
    assert httpx.get(server.url + "/readyz").json()["failed"] == ["draining"]
    with connect(f"{server.ws_url}/ws/{made['id']}") as ws:
        try:
            ws.recv(timeout=10)
            raise AssertionError("a draining process kept a new socket open")
        except ConnectionClosed as exc:
            assert exc.rcvd is not None and exc.rcvd.code == 1012
    server.arena.draining = False


def test_a_socket_greeted_while_the_drain_began_is_closed_too(
    server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The drain closes the sockets it knows; one whose hello was still being read (its
    seats loaded from the database) when the drain began is closed with 1012 as well,
    instead of being left open until the process exits (code 1006 for its page)."""
    made = create(server.url)
    arena = server.arena
    reload = arena.seating.reload

    async def drain_begins_meanwhile(lg: LiveGame) -> None:
        arena.draining = True
        await reload(lg)

    monkeypatch.setattr(arena.seating, "reload", drain_begins_meanwhile)
    try:
        with connect(f"{server.ws_url}/ws/{made['id']}") as ws:
            ws.send(json.dumps({"type": "hello", "tokens": [made["seats"][0]["token"]]}))
            kinds: list[str] = []
            try:
                while True:
                    kinds.append(json.loads(ws.recv(timeout=10))["type"])
            except ConnectionClosed as exc:
                assert exc.rcvd is not None and exc.rcvd.code == 1012
            assert "welcome" not in kinds and "state" not in kinds
        assert not arena.clients.get(made["id"])
    finally:
        arena.draining = False
