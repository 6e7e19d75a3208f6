"""The WebSocket protocol: play, spectate, reconnect, bots, simultaneous phases, bad
input, and every registered game playable through its views and SVG."""

from __future__ import annotations

import json
import random
import socket
import threading
import time
from typing import Any

import pytest
from arena_helpers import LiveServer, Player, create
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from sudoku_arena.core.registry import load, registered_games
from sudoku_arena.server.db.games import load_game
from sudoku_arena.server.live import draw_page


def _tokens(made: dict[str, Any]) -> list[str]:
    return [s["token"] for s in made["seats"]]


def test_two_people_and_a_spectator_play_a_whole_game(server: LiveServer) -> None:
    made = create(server.url)
    gid = made["id"]
    t0, t1 = _tokens(made)
    p0 = Player(server.ws_url, gid, [t0])
    p1 = Player(server.ws_url, gid, [t1])
    watcher = Player(server.ws_url, gid)
    assert (p0.seats, p1.seats, watcher.seats) == ([0], [1], [])
    assert p0.welcome["game"]["name"] == "Tic-Tac-Sudoku"
    welcome = json.dumps(p0.welcome)
    assert '"seed"' not in welcome and "secret" not in welcome  # they stay on the server
    players = {0: p0, 1: p1}
    rng = random.Random(5)
    ply = 0
    while True:
        st = players[0].wait_ply(ply)
        if st["status"] == "finished":
            break
        seat = st["view"]["to_move"][0]
        me = players[seat]
        view = me.wait_ply(ply)["view"]
        action = rng.choice(view["legal"])
        ack = me.act(action, ply, msg_id=ply)
        assert ack == {"type": "ack", "id": ply, "ply": ply, "next_ply": ply + 1}
        ply += 1
    for who in (p0, p1, watcher):
        final = who.wait_ply(ply, seat=None if who is watcher else who.seats[0])
        assert final["status"] == "finished" and final["outcome"]["winners"] is not None
        assert final["svg"].startswith("<svg")
        # the log arrived in pieces: put together it is the whole game
        entries = [e for m in who.received if m["type"] == "state" for e in m["log"]]
        assert [e["ply"] for e in entries] == list(range(ply))
    stored = load_game(server.arena.storage.engine, gid)
    assert stored.status == "finished" and len(stored.actions) == ply
    for p in (p0, p1, watcher):
        p.close()


def test_reconnect_gets_the_full_position(server: LiveServer) -> None:
    made = create(server.url)
    gid, (t0, t1) = made["id"], _tokens(made)
    p0 = Player(server.ws_url, gid, [t0])
    legal = p0.state[0]["view"]["legal"]
    assert p0.act(legal[0], 0)["type"] == "ack"
    p0.close()
    p1 = Player(server.ws_url, gid, [t1])
    assert p1.act(p1.state[1]["view"]["legal"][0], 1)["type"] == "ack"
    again = Player(server.ws_url, gid, [t0])
    st = again.state[0]
    assert st["ply"] == 2 and st["log_from"] == 0
    stored = load_game(server.arena.storage.engine, gid).actions
    assert [e["action"] for e in st["log"]] == [a for _, _, a in stored]
    assert st["view"]["to_move"] == [0] and st["svg"].startswith("<svg")
    again.close()
    p1.close()


def test_bad_input_gets_a_clear_error_and_changes_nothing(server: LiveServer) -> None:
    made = create(server.url)
    gid, (t0, t1) = made["id"], _tokens(made)
    p0 = Player(server.ws_url, gid, [t0])
    legal = p0.state[0]["view"]["legal"]

    def error(raw: str | bytes, code: str) -> dict[str, Any]:
        p0.ws.send(raw)
        msg = p0.wait("error")
        assert msg["code"] == code, msg
        assert msg["message"] and "Traceback" not in msg["message"]
        return msg

    error("{not json", "bad_json")
    error("[1, 2]", "bad_message")
    error(json.dumps({"type": "launch"}), "bad_message")
    error(b"\x00\x01", "bad_message")
    error(json.dumps({"type": "act", "ply": 0, "action": "x" * 5000}), "too_large")
    error(json.dumps({"type": "act", "ply": "zero", "action": legal[0]}), "bad_message")
    error(json.dumps({"type": "act", "seat": 1, "ply": 0, "action": legal[0]}), "forbidden")
    stale = error(json.dumps({"type": "act", "ply": 7, "action": legal[0], "id": 3}), "stale")
    assert stale["id"] == 3 and "ply 7" in stale["message"]
    resync = p0.wait("state")  # refusals come with a fresh copy of the position
    assert resync["ply"] == 0 and resync["log_from"] == 0
    illegal = error(json.dumps({"type": "act", "ply": 0, "action": "r5c5"}), "illegal")
    assert "r5c5" in illegal["message"]
    error(json.dumps({"type": "act", "ply": 0, "action": "r0c0"}), "notation")
    # a wrong token: told so, and left watching
    intruder = Player(server.ws_url, gid, ["not-a-token"])
    assert intruder.seats == []
    assert any(m["type"] == "error" and m["code"] == "bad_token" for m in intruder.received)
    intruder.send(type="act", seat=0, ply=0, action=legal[0], id=9)
    assert intruder.wait("error")["code"] == "forbidden"
    # acting before hello
    from websockets.sync.client import connect

    with connect(f"{server.ws_url}/ws/{gid}") as raw:
        raw.send(json.dumps({"type": "act", "ply": 0, "action": legal[0]}))
        assert json.loads(raw.recv(timeout=5))["code"] == "hello_first"
    # over the transport's limit the connection is closed (1009 message too big)
    big = Player(server.ws_url, gid, [t1])
    big.ws.send("x" * 70_000)
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            big.recv(timeout=5)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
    # nothing changed anywhere
    assert load_game(server.arena.storage.engine, gid).actions == []
    p0.send(type="resync")
    assert p0.wait("state")["ply"] == 0
    assert p0.act(legal[0], 0)["type"] == "ack"  # and the game still works
    for p in (p0, intruder):
        p.close()
    with connect(f"{server.ws_url}/ws/nope") as raw:
        assert json.loads(raw.recv(timeout=5))["code"] == "not_found"


def test_bots_play_server_side(server: LiveServer) -> None:
    made = create(server.url, seats=[{"kind": "human"}, {"kind": "bot", "agent": "greedy"}])
    gid = made["id"]
    me = Player(server.ws_url, gid, [made["seats"][0]["token"]])
    assert made["seats"][1]["token"] is None
    rng = random.Random(2)
    for _ in range(200):
        st = me.state[0]
        if st["status"] == "finished":
            break
        if 0 in st["view"]["to_move"]:
            assert (
                me.act(rng.choice(st["view"]["legal"]), st["ply"], msg_id=st["ply"])["type"]
                == "ack"
            )
        me.wait_ply(st["ply"] + 1)
    assert me.state[0]["status"] == "finished"
    log = [e for m in me.received if m["type"] == "state" for e in m["log"]]
    assert {e["actor"] for e in log} == {0, 1}
    me.close()


def test_a_slow_bot_does_not_hold_up_other_games(server: LiveServer) -> None:
    from sudoku_arena.ai.agents import RandomAgent, register_agent

    class Sleepy(RandomAgent):
        name = "sleepy"

        def act(self, game: Any, state: Any, player: int) -> Any:
            time.sleep(3.0)
            return super().act(game, state, player)

    register_agent("sleepy", Sleepy)
    slow = create(server.url, seats=[{"kind": "bot", "agent": "sleepy"}, {"kind": "human"}])
    made = create(server.url)
    p0 = Player(server.ws_url, made["id"], _tokens(made))
    for ply in range(6):
        st = p0.state[ply % 2]
        assert p0.act(st["view"]["legal"][0], ply, msg_id=ply)["type"] == "ack"
        p0.wait_ply(ply + 1, seat=0)
        p0.wait_ply(ply + 1, seat=1)
    # Six moves stored and announced while the bot (3 s a move) has not moved yet.
    assert load_game(server.arena.storage.engine, slow["id"]).actions == []
    p0.close()


def test_hot_seat_client_gets_every_seat(server: LiveServer) -> None:
    made = create(server.url, mode="hotseat")
    both = Player(server.ws_url, made["id"], _tokens(made))
    assert both.seats == [0, 1] and set(both.state) == {0, 1}
    a = both.state[0]["view"]["legal"][0]
    assert both.act(a, 0)["type"] == "ack"  # the seat to move is implied
    b = both.wait_ply(1, seat=1)["view"]["legal"][0]
    assert both.act(b, 1, seat=1)["type"] == "ack"
    both.close()


def test_simultaneous_phase_accepts_each_seat_at_the_same_ply(server: LiveServer) -> None:
    spec = next(s for s in registered_games() if s.simultaneous and s.max_players >= 2)
    made = create(server.url, game=spec.id, mode="hotseat", params={"players": 2})
    both = Player(server.ws_url, made["id"], _tokens(made))
    rng = random.Random(1)
    for _ in range(100):  # reach a position where both seats are to move
        st = both.state[0]
        to_move = st["view"]["to_move"]
        if len(to_move) > 1:
            break
        seat = to_move[0]
        view = both.state[seat]["view"]
        assert both.act(rng.choice(view["legal"]), st["ply"], seat=seat)["type"] == "ack"
        both.wait_ply(st["ply"] + 1, seat=0)
        both.wait_ply(st["ply"] + 1, seat=1)
    else:
        pytest.fail("no simultaneous phase reached")
    ply = st["ply"]
    a0 = rng.choice(both.state[0]["view"]["legal"])
    a1 = rng.choice(both.state[1]["view"]["legal"])
    assert both.act(a0, ply, seat=0, msg_id=1)["type"] == "ack"
    # seat 1 acts on the position it saw, older by one ply: only seat 0 acted since
    assert both.act(a1, ply, seat=1, msg_id=2)["type"] == "ack"
    # but a seat that acted itself since cannot act on its old position again
    if 0 in both.wait_ply(ply + 2, seat=0)["view"]["to_move"]:
        again = both.act(a0, ply, seat=0, msg_id=3)
        assert again["type"] == "error" and again["code"] in ("stale", "illegal")
    both.close()


@pytest.mark.parametrize("game_id", [s.id for s in registered_games()])
def test_every_registered_game_is_playable(server: LiveServer, game_id: str) -> None:
    """Create each game with people in every seat and play it through the protocol,
    choosing among what the view lists as legal; the board is an SVG whose clickable
    elements name legal actions."""
    spec = next(s for s in registered_games() if s.id == game_id)
    n = max(spec.min_players, min(2, spec.max_players))
    made = create(server.url, game=game_id, seats=[{"kind": "human"}] * n, mode="hotseat")
    client = Player(server.ws_url, made["id"], _tokens(made))
    rng = random.Random(3)
    import re

    for _ in range(40):
        seat0 = client.state[client.seats[0]]
        if seat0["status"] == "finished":
            break
        seat = seat0["view"]["to_move"][0]
        st = client.state[seat]
        svg = st["svg"]
        assert svg.startswith("<svg") and "viewBox" in svg
        legal = st["view"]["legal"]
        clickable = set(re.findall(r'data-action="([^"]+)"', svg))
        assert clickable <= set(legal)
        ack = client.act(rng.choice(legal), st["ply"], seat=seat, msg_id=st["ply"])
        assert ack["type"] == "ack", ack
        for s in client.seats:
            client.wait_ply(ack["next_ply"], seat=s)
    client.close()


@pytest.mark.parametrize("game_id", [s.id for s in registered_games() if not s.hidden_information])
def test_boards_without_secrets_do_not_depend_on_the_observer(game_id: str) -> None:
    """The server draws one board per position for games without hidden information
    and sends it to every seat whose view matches apart from ``observer``."""
    game = load(game_id, seed=4)
    from sudoku_arena.core.match import Match

    m = Match(game, seed=4)
    rng = random.Random(4)
    for _ in range(15):
        if m.is_over:
            break
        views = [game.view(m.state, o) for o in [None, *range(game.num_players)]]
        for v in views[1:]:
            if {**v, "observer": None} == {**views[0], "observer": None}:
                assert draw_page(game, v) == draw_page(game, views[0])
        p = m.to_move().players[0]
        m.play(rng.choice(m.legal(p)), p)


def test_many_clients_at_once(server: LiveServer) -> None:
    """Twenty games played at the same time by forty connections, all moves stored."""
    games = [create(server.url) for _ in range(20)]
    errors: list[str] = []

    def play(made: dict[str, Any]) -> None:
        try:
            both = Player(server.ws_url, made["id"], _tokens(made))
            for ply in range(10):
                seat = ply % 2
                st = both.wait_ply(ply, seat=seat)
                ack = both.act(st["view"]["legal"][0], ply, seat=seat, msg_id=ply)
                if ack["type"] != "ack":
                    errors.append(str(ack))
            both.close()
        except Exception as exc:
            errors.append(repr(exc))

    threads = [threading.Thread(target=play, args=(g,)) for g in games]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert errors == []
    for g in games:
        assert len(load_game(server.arena.storage.engine, g["id"]).actions) == 10


def test_bots_alone_finish_their_game(server: LiveServer) -> None:
    made = create(server.url, seats=[{"kind": "bot", "agent": "random"}] * 2)
    watcher = Player(server.ws_url, made["id"])
    deadline = time.time() + 20
    while watcher.state[None]["status"] != "finished":
        watcher.recv(timeout=max(0.1, deadline - time.time()))
    assert load_game(server.arena.storage.engine, made["id"]).status == "finished"
    watcher.close()


def test_a_bot_in_a_simultaneous_phase_moves_whoever_acts_first(server: LiveServer) -> None:
    spec = next(s for s in registered_games() if s.simultaneous and s.max_players >= 2)
    made = create(
        server.url,
        game=spec.id,
        params={"players": 2},
        seats=[{"kind": "human"}, {"kind": "bot", "agent": "random"}],
    )
    me = Player(server.ws_url, made["id"], [made["seats"][0]["token"]])
    rng = random.Random(4)
    both_to_move = 0
    for _ in range(40):
        st = me.state[0]
        if st["status"] == "finished":
            break
        to_move = st["view"]["to_move"]
        if 0 in to_move:
            both_to_move += 1 in to_move
            ack = me.act(rng.choice(st["view"]["legal"]), st["ply"], msg_id=st["ply"])
            assert ack["type"] in ("ack", "error"), ack  # the bot may have moved first
            me.wait_ply(st["ply"] + 1)
        else:
            me.wait_ply(st["ply"] + 1)  # the bot is to move: it does
    log = [a for _, a, _ in load_game(server.arena.storage.engine, made["id"]).actions]
    assert both_to_move > 0 and 1 in log
    me.close()


def test_a_client_that_never_reads_is_let_go(server: LiveServer) -> None:
    """Errors pile up for a client that floods without reading: it is disconnected
    instead of growing the server's memory.

    The client's socket gets a tiny receive buffer and its WebSocket library a queue of
    one frame, so that "never reads" really stops the bytes at the client (otherwise
    the kernel's buffers would absorb thousands of replies first, and whether the
    server's queue overflows would depend on timing)."""
    made = create(server.url)
    host, port = server.url.removeprefix("http://").split(":")
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect((host, int(port)))
    with connect(f"{server.ws_url}/ws/{made['id']}", sock=sock, max_queue=1) as ws:
        ws.send(json.dumps({"type": "hello", "tokens": []}))
        closed = False
        for _ in range(50_000):
            try:
                ws.send("{not json")
            except ConnectionClosed:
                closed = True
                break
        if not closed:  # the server let go while the last sends were in flight
            with pytest.raises(ConnectionClosed):
                for _ in range(100_000):
                    ws.recv(timeout=10)
    deadline = time.monotonic() + 10
    while server.arena.clients.get(made["id"]) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not server.arena.clients.get(made["id"])
