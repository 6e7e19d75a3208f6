"""Secrets stay secret: in SuDokuHex nothing sent to one seat or to a spectator tells
another seat's tile (views, boards and the move log alike)."""

from __future__ import annotations

import json
import random
import time
from typing import Any

from arena_helpers import LiveServer, Player, create

from sudoku_arena.server.db.games import GameRow, load_game
from sudoku_arena.server.live import LiveGame, draw_page


def _drawer(state: Any) -> int:
    return int(state.drawer)


def test_nothing_sent_to_a_seat_or_spectator_shows_another_seats_tile(
    server: LiveServer,
) -> None:
    made = create(server.url, game="sudokuhex")
    gid = made["id"]
    tokens = [s["token"] for s in made["seats"]]
    seats = {0: Player(server.ws_url, gid, [tokens[0]]), 1: Player(server.ws_url, gid, [tokens[1]])}
    watcher = Player(server.ws_url, gid)
    rng = random.Random(11)
    ply = seats[0].state[0]["ply"]
    for _ in range(80):
        st = seats[0].wait_ply(ply)
        if st["status"] == "finished":
            break
        mover = st["view"]["to_move"][0]
        view = seats[mover].wait_ply(ply)["view"]
        ack = seats[mover].act(rng.choice(view["legal"]), ply, msg_id=ply)
        assert ack["type"] == "ack"
        ply = ack["next_ply"]
    time.sleep(0.2)
    for p in (*seats.values(), watcher):
        while True:  # take in whatever is still on its way
            try:
                p.recv(timeout=0.2)
            except TimeoutError:
                break

    lg = server.arena.games[gid]
    game = lg.game
    checked = 0
    for observer, client in ((0, seats[0]), (1, seats[1]), (None, watcher)):
        for msg in client.received:
            if msg["type"] != "state":
                continue
            state = lg.states[msg["ply"]]
            view = msg["view"]
            # The board and the panel beside it are drawn from the view alone.
            assert msg["svg"] + "\n" + msg["panel"] == draw_page(game, view)
            # Re-deal everything this observer cannot see: he gets the same view.
            finished = msg["status"] == "finished"
            for k in range(3):
                det_rng = random.Random(k)
                if observer is None:
                    for other in range(2):
                        alt = game.determinize(state, other, det_rng)
                        if not finished:
                            assert game.view(alt, None) == view
                else:
                    alt = game.determinize(state, observer, det_rng)
                    assert game.view(alt, observer) == view
            # Draws are shown to the drawer only (until the game is over).
            for entry in msg["log"]:
                true = lg.log[entry["ply"]]
                if true.actor is not None or not true.action.startswith("draw"):
                    assert entry["action"] == true.action
                    continue
                drawer = _drawer(lg.states[entry["ply"]])
                if finished or drawer == observer:
                    assert entry["action"] == true.action
                else:
                    assert entry["action"] == game.public_action(true.action) == "draw"
                    checked += 1
    assert checked > 10  # other seats' draws really were withheld
    for p in (*seats.values(), watcher):
        p.close()


def test_two_deals_differing_in_one_hand_look_the_same_to_the_others(server: LiveServer) -> None:
    """Two games identical except seat 0's tile: every byte sent to seat 1 and to a
    spectator is the same in both; seat 0's own message differs."""
    made = create(server.url, game="sudokuhex")
    row = load_game(server.arena.storage.engine, made["id"])
    first = LiveGame(row)
    i = next(k for k, e in enumerate(first.log) if e.action.startswith("draw"))
    assert _drawer(first.states[i]) == 0
    tile = int(first.log[i].action.split()[1])
    other = 1 + tile % 7  # another number: the pile still holds six of each
    actions = list(row.actions)
    actions[i] = (i, None, f"draw {other}")
    twin = LiveGame(
        GameRow(**{**{f: getattr(row, f) for f in row.__dataclass_fields__}, "actions": actions})
    )
    assert first.state != twin.state
    for observer in (1, None):
        assert first.state_message(observer, 0) == twin.state_message(observer, 0)
    assert first.state_message(0, 0) != twin.state_message(0, 0)


def test_seat_rows_and_the_secret_never_leave_the_server(server: LiveServer) -> None:
    made = create(server.url, game="sudokuhex")
    watcher = Player(server.ws_url, made["id"])
    seat = Player(server.ws_url, made["id"], [made["seats"][0]["token"]])
    text = "".join(watcher.raw) + "".join(seat.raw) + json.dumps(made)
    row = load_game(server.arena.storage.engine, made["id"])
    assert row.secret and row.secret not in text  # the chance secret stays on the server
    assert made["game"]["commitment"] in text  # only its commitment is public
    for s in made["seats"]:
        assert s["token"] not in "".join(watcher.raw)
        assert row.seats[s["seat"]].token_hash not in text
    assert "token_hash" not in text and '"seed"' not in text
    watcher.close()
    seat.close()


def test_a_shared_screen_never_lists_a_draw_for_the_next_player(server: LiveServer) -> None:
    """Hot seat: one device holds both seats and is passed between the players, so its
    move list shows draws only as everybody may read them (never ``draw 5``)."""
    made = create(server.url, game="sudokuhex", mode="hotseat")
    tokens = [s["token"] for s in made["seats"]]
    device = Player(server.ws_url, made["id"], tokens)
    rng = random.Random(4)
    for _ in range(12):
        st = device.state[device.seats[0]]
        if st["status"] == "finished":
            break
        mover = st["view"]["to_move"][0]
        mine = device.wait_ply(st["ply"], seat=mover)
        answer = device.act(rng.choice(mine["view"]["legal"]), mine["ply"], seat=mover)
        assert answer["type"] == "ack"
        device.wait_ply(answer["next_ply"], seat=mover)
    states = [m for m in device.received if m["type"] == "state" and m["status"] != "finished"]
    draws = [e["action"] for m in states for e in m["log"] if e["actor"] is None]
    assert any(d == "draw" for d in draws)
    assert not any(d.startswith("draw ") for d in draws)
    # A device holding one seat still reads its own draws.
    alone = Player(server.ws_url, made["id"], [tokens[0]])
    own = [e["action"] for e in alone.state[0]["log"] if e["actor"] is None]
    assert any(d.startswith("draw ") for d in own)
    device.close()
    alone.close()
