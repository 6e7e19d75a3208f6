"""Online etiquette: resign, abort before one's first move, draw offers where the game
has draws (a bot declines), presence of the seats and spectators, and endings decided
by the database against moves made at the same time by another process."""

from __future__ import annotations

import asyncio
import secrets
from typing import Any

import httpx
from arena_helpers import REDIS_URL, LiveServer, Player, create

from sudoku_arena.core.record import Record
from sudoku_arena.core.verify import verify_record
from sudoku_arena.server import ServerConfig
from sudoku_arena.server.arena import Arena, SeatSpec
from sudoku_arena.server.bots import BotRunner
from sudoku_arena.server.db.engine import Storage
from sudoku_arena.server.db.games import load_game
from sudoku_arena.server.live import ActionRefused


def _players(server: LiveServer, game: str = "tic-tac-sudoku", **kw: Any) -> tuple[Any, ...]:
    made = create(server.url, game, **kw)
    tokens = [s["token"] for s in made["seats"]]
    p0 = Player(server.ws_url, made["id"], [tokens[0]])
    p1 = Player(server.ws_url, made["id"], [tokens[1]])
    return made, p0, p1


def _ended(p: Player, seat: int) -> dict[str, Any]:
    p.wait("state", status="finished")
    st = p.state[seat]
    assert st["status"] == "finished"
    outcome: dict[str, Any] = st["outcome"]
    return outcome


def test_a_player_resigns_and_everybody_is_told(server: LiveServer) -> None:
    made, p0, p1 = _players(server)
    first = p0.state[0]["view"]["legal"][0]
    assert p0.act(first, 0)["type"] == "ack"
    p1.wait_ply(1)
    p1.send(type="resign")
    for p, seat in ((p0, 0), (p1, 1)):
        out = _ended(p, seat)
        assert out["code"] == "resign" and out["winners"] == [0]
        assert "resigned" in out["reason"]
    # No move after the end, and the record replays and verifies with its ending.
    answer = p0.act(
        p0.state[0]["view"]["legal"][0] if p0.state[0]["view"].get("legal") else "r1c1", 1, msg_id=2
    )
    assert answer["type"] == "error" and answer["code"] == "game_over"
    rec = httpx.get(f"{server.url}/api/matches/{made['id']}/record", timeout=10).json()
    record = Record.from_json(rec)
    assert record.outcome is not None and record.outcome.code == "resign"
    verify_record(record)
    p0.close()
    p1.close()


def test_abort_is_allowed_only_before_ones_first_move(server: LiveServer) -> None:
    _made, p0, p1 = _players(server)
    assert p0.act(p0.state[0]["view"]["legal"][0], 0)["type"] == "ack"
    p0.send(type="abort", id=5)
    err = p0.wait("error", id=5)
    assert err["code"] == "too_late"
    p1.wait_ply(1)
    p1.send(type="abort")  # seat 1 has not moved yet
    out = _ended(p1, 1)
    assert out["code"] == "abort" and out["winners"] == []
    p0.close()
    p1.close()


def test_a_draw_is_offered_and_accepted_where_the_game_has_draws(server: LiveServer) -> None:
    _made, p0, p1 = _players(server, "citadel", params={"size": 9})
    p0.send(type="draw", answer="offer")
    p1.wait("state", draw_offer=0)
    p1.send(type="draw", answer="decline")
    p0.wait("state", draw_offer=None)
    p0.send(type="draw", answer="offer")
    p1.wait("state", draw_offer=0)
    p0.send(type="draw", answer="accept", id=9)  # one cannot accept one's own offer
    assert p0.wait("error", id=9)["code"] == "no_offer"
    p1.send(type="draw", answer="accept")
    out = _ended(p0, 0)
    assert out["code"] == "agreed" and out["winners"] == []
    p0.close()
    p1.close()


def test_a_declined_draw_offer_is_told_to_the_player_who_made_it(server: LiveServer) -> None:
    _made, p0, p1 = _players(server, "citadel", params={"size": 9})
    p0.send(type="draw", answer="offer")
    p1.wait("state", draw_offer=0)
    p1.send(type="draw", answer="decline")
    told = p0.wait("notice", event="draw_declined")
    assert told["seat"] == 1 and "player 2 declines the draw" in told["text"]
    p0.wait("state", draw_offer=None)
    # Only the offering seat is told: the one who declined knows.
    p1.wait("state", draw_offer=None)
    assert not [m for m in p1.received if m.get("event") == "draw_declined"]
    p0.close()
    p1.close()


def test_a_declined_offer_is_told_across_processes(pg_url: str) -> None:
    """The offer made on one process, declined on another: told through the fan-out."""
    channel = "arena-test-" + secrets.token_hex(4)

    def config() -> ServerConfig:
        return ServerConfig(
            database_url=pg_url, redis_url=REDIS_URL, channel=channel, bot_workers=0
        )

    with LiveServer(config()) as a, LiveServer(config()) as b:
        made = create(a.url, "citadel", params={"size": 9})
        tokens = [s["token"] for s in made["seats"]]
        p0 = Player(a.ws_url, made["id"], [tokens[0]])
        p1 = Player(b.ws_url, made["id"], [tokens[1]])
        p0.send(type="draw", answer="offer")
        p1.wait("state", draw_offer=0)
        p1.send(type="draw", answer="decline")
        assert p0.wait("notice", event="draw_declined")["seat"] == 1
        p0.close()
        p1.close()


def test_no_draw_offers_in_a_game_without_draws_and_a_bot_declines(server: LiveServer) -> None:
    _made, p0, p1 = _players(server)
    p0.send(type="draw", answer="offer", id=3)
    assert p0.wait("error", id=3)["code"] == "no_draws"
    p0.close()
    p1.close()
    made = create(
        server.url,
        "citadel",
        seats=[{"kind": "human"}, {"kind": "bot", "agent": "random"}],
        params={"size": 9},
    )
    me = Player(server.ws_url, made["id"], [made["seats"][0]["token"]])
    me.send(type="draw", answer="offer")
    note = me.wait("notice")
    assert "declines" in note["text"] and note["event"] == "draw_declined"
    me.close()


def test_presence_tells_who_is_connected_and_how_many_watch(server: LiveServer) -> None:
    made = create(server.url)
    tokens = [s["token"] for s in made["seats"]]
    p0 = Player(server.ws_url, made["id"], [tokens[0]])
    p1 = Player(server.ws_url, made["id"], [tokens[1]])
    p0.wait("presence", seats=[True, True], watchers=0)
    watcher = Player(server.ws_url, made["id"])
    assert watcher.seats == []
    p0.wait("presence", seats=[True, True], watchers=1)
    p1.close()
    p0.wait("presence", seats=[True, False], watchers=1)
    watcher.close()
    p0.close()


def test_an_ending_and_a_move_at_the_same_ply_are_decided_by_the_database(pg_url: str) -> None:
    """Two processes: one stores a move while the other, not yet aware of it, stores a
    resignation at the same ply; exactly one wins, and the loser is told and catches up."""

    async def run() -> None:
        a = Arena(Storage(pg_url), bots=BotRunner(0))
        b = Arena(Storage(pg_url), bots=BotRunner(0))
        await a.start()
        await b.start()
        lg, _ = await a.create("tic-tac-sudoku", {}, [SeatSpec("human")] * 2)
        theirs = await b.get(lg.id)
        assert theirs is not None
        await a.act(lg, 0, 0, lg.view(0)["legal"][0])  # b has not heard of it
        try:
            await b.end_by_players(theirs, 0, "resign")
        except ActionRefused as exc:
            assert exc.code == "stale"
        else:
            raise AssertionError("the resignation at an old ply was stored")
        assert theirs.ply == 1 and not theirs.over  # caught up with the move
        # Now the resignation goes first, and a move at that ply is refused.
        await b.end_by_players(theirs, 1, "resign")
        try:
            await a.act(lg, 1, 1, lg.view(1)["legal"][0])
        except ActionRefused as exc:
            assert exc.code in ("stale", "game_over")
        else:
            raise AssertionError("a move after the resignation was stored")
        row = load_game(a.storage.engine, lg.id)
        assert row is not None and row.status == "finished" and len(row.actions) == 1
        assert row.outcome is not None and row.outcome["code"] == "resign"
        await a.stop()
        await b.stop()

    asyncio.run(run())
