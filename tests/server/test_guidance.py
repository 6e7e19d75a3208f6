"""What the server sends to guide people at the table: the seat that may act gets the
game's guide with its position (over the WebSocket and over HTTP), the others and
spectators get none, and every log entry comes with its notation in words, read from
the entry as that observer sees it (a secret draw stays secret)."""

from __future__ import annotations

from typing import Any

from arena_helpers import LiveServer, Player, create


def _state(server: LiveServer, game_id: str, token: str | None) -> dict[str, Any]:
    headers = {} if token is None else {"authorization": f"Bearer {token}"}
    with server.client() as c:
        r = c.get(f"/api/matches/{game_id}/state", headers=headers)
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def test_only_the_seat_to_move_is_guided(server: LiveServer) -> None:
    made = create(server.url, game="tic-tac-sudoku")
    gid = made["id"]
    t0, t1 = (s["token"] for s in made["seats"])
    p0 = Player(server.ws_url, gid, [t0])
    p1 = Player(server.ws_url, gid, [t1])
    watcher = Player(server.ws_url, gid)
    try:
        assert p0.state[0]["guide"] == (
            "Place your first circle on any lit space outside the centre box"
        )
        assert p1.state[1]["guide"] is None
        assert watcher.state[None]["guide"] is None
        assert p0.act("r1c1", 0)["type"] == "ack"
        after = p1.wait_ply(1)
        assert after["guide"] == "Place your first square on any lit space outside the centre box"
        assert p0.wait_ply(1)["guide"] is None
        # The first placement is read in words by everybody's log.
        for seen in (after, p0.state[0], watcher.wait_ply(1)):
            assert seen["log"][-1]["says"] == "row 1, column 1 (top-left box)"
        assert p1.act("r9c9", 1)["type"] == "ack"
        guide = p0.wait_ply(2)["guide"]
        n = p0.state[0]["view"]["grid"][0]
        assert guide.startswith(f"Place a circle next to your open {n}: on a "), guide
    finally:
        for p in (p0, p1, watcher):
            p.close()
    # The same over HTTP, which answers with the same message.
    assert _state(server, gid, t0)["guide"].startswith("Place a circle next to your open")
    assert _state(server, gid, t1)["guide"] is None
    assert _state(server, gid, None)["guide"] is None
    assert _state(server, gid, None)["log"][1]["says"] == "row 9, column 9 (bottom-right box)"


def test_seats_writing_at_the_same_time_are_each_guided(server: LiveServer) -> None:
    """Cat Sudoku's set-up roll: both players write at once, each told his own dice."""
    made = create(server.url, game="cat-sudoku", params={"players": 2})
    states = [_state(server, made["id"], s["token"]) for s in made["seats"]]
    for seat, st in enumerate(states):
        assert st["view"]["to_move"] == [0, 1]
        dice = ", ".join(str(d) for d in sorted(st["view"]["left"][seat]["plain"]))
        assert st["guide"].startswith(f"Write the four values {dice} into your empty dashed")
    assert _state(server, made["id"], None)["guide"] is None
    rolls = [e for e in states[0]["log"] if e["actor"] is None]
    assert rolls and all(e["says"] == f"a die shows {e['action'][-1]}" for e in rolls)


def test_a_secret_draw_is_explained_without_its_tile(server: LiveServer) -> None:
    """SuDokuHex: each seat reads his own draw in full and the other's as a secret."""
    made = create(server.url, game="sudokuhex", params={"players": 2})
    tokens = [s["token"] for s in made["seats"]]
    for seat, token in enumerate(tokens):
        st = _state(server, made["id"], token)
        draws = [e for e in st["log"] if e["action"].startswith("draw")]
        assert len(draws) == 2
        hand = st["view"]["hand"]
        said = sorted(e["says"] for e in draws)
        assert said == sorted(["draws a tile, kept secret", f"draws a {hand}"]), (seat, said)
        if seat == 0:
            assert st["guide"].startswith(f"Place your {hand} on a lit hex")
        else:
            assert st["guide"] is None
