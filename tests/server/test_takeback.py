"""Takebacks: asked by a player, accepted (the log cut back so it is his turn again) or
declined by the opponent; a request answered after a move is stale; never in rated
games, against bots, across a chance outcome or in games with hidden information; the
database decides (a cut only at the ply asked), and another process reloads the game."""

from __future__ import annotations

import secrets
from types import SimpleNamespace
from typing import Any

import pytest
from arena_helpers import REDIS_URL, LiveServer, Player, create, two_person_row

from sudoku_arena.core.match import LogEntry
from sudoku_arena.server import ServerConfig
from sudoku_arena.server.db import games as games_db
from sudoku_arena.server.db.engine import ConflictError, Storage
from sudoku_arena.server.db.games import AppendActions, CreateGame, EndGame, GameRow
from sudoku_arena.server.db.takebacks import CutBack, CutRefused
from sudoku_arena.server.live import ActionRefused
from sudoku_arena.server.takeback import takeback_cut


def _pair(
    server: LiveServer, game: str = "tic-tac-sudoku", **kw: Any
) -> tuple[str, Player, Player]:
    made = create(server.url, game, **kw)
    tokens = [s["token"] for s in made["seats"]]
    p0 = Player(server.ws_url, made["id"], [tokens[0]], device="d0")
    p1 = Player(server.ws_url, made["id"], [tokens[1]], device="d1")
    return made["id"], p0, p1


def _move(p: Player, seat: int, ply: int) -> None:
    legal = p.wait_ply(ply, seat)["view"]["legal"]
    assert p.act(legal[0], ply, seat)["type"] == "ack"


def _stored(server: LiveServer, gid: str) -> int:
    return games_db.action_count(server.arena.storage.engine, gid)


def test_asked_and_accepted_it_is_the_askers_turn_again(server: LiveServer) -> None:
    gid, p0, p1 = _pair(server)
    _move(p0, 0, 0)
    _move(p1, 1, 1)  # the opponent replied: both go
    p0.wait_ply(2)
    p0.send(type="takeback", answer="ask")
    asked = p1.wait("takeback", event="asked")
    assert asked["seat"] == 0 and asked["ply"] == 2
    p1.send(type="takeback", answer="accept")
    for p in (p0, p1):
        p.wait("takeback", event="accepted")
        st = p.wait("state", ply=0)
        assert st["log"] == [] and st["view"]["to_move"] == [0]
    assert _stored(server, gid) == 0
    _move(p0, 0, 0)  # and play goes on from there
    assert _stored(server, gid) == 1
    p0.close()
    p1.close()


def test_the_askers_own_move_alone_goes_before_a_reply(server: LiveServer) -> None:
    gid, p0, p1 = _pair(server)
    _move(p0, 0, 0)
    p1.wait_ply(1)
    p0.send(type="takeback", answer="ask")
    p1.wait("takeback", event="asked")
    p0.send(type="takeback", answer="accept", id=4)  # not his own request
    assert p0.wait("error", id=4)["code"] == "no_request"
    p1.send(type="takeback", answer="accept")
    assert p0.wait("state", ply=0)["view"]["to_move"] == [0]
    assert _stored(server, gid) == 0
    p0.close()
    p1.close()


def test_clocks_keep_their_time_and_the_askers_runs_again(server: LiveServer) -> None:
    gid, p0, p1 = _pair(server, clock={"minutes": 5, "increment": 0})
    _move(p0, 0, 0)
    running = p1.wait_ply(1, 1)["clock"]
    assert running["since"][0] is None and running["since"][1] is not None
    p0.send(type="takeback", answer="ask")
    p1.wait("takeback", event="asked")
    p1.send(type="takeback", answer="accept")
    clock = p0.wait("state", ply=0)["clock"]
    assert clock["since"][0] is not None and clock["since"][1] is None  # the asker's runs
    assert clock["left"][0] == running["left"][0]  # nothing given back or taken
    assert clock["left"][1] <= running["left"][1]  # the opponent's thinking counted
    stored = games_db.game_clock(server.arena.storage.engine, gid)
    assert stored is not None and stored["since"] == clock["since"]
    p0.close()
    p1.close()


def test_declined_the_asker_is_told_and_nothing_changes(server: LiveServer) -> None:
    gid, p0, p1 = _pair(server)
    _move(p0, 0, 0)
    p0.send(type="takeback", answer="ask")
    p1.wait("takeback", event="asked")
    p1.send(type="takeback", answer="decline")
    told = p0.wait("takeback", event="declined")
    assert told["seat"] is None and told["by"] == 1 and "declines" in told["text"]
    assert _stored(server, gid) == 1
    p1.send(type="takeback", answer="accept", id=5)  # nothing stands any more
    assert p1.wait("error", id=5)["code"] == "no_request"
    p0.close()
    p1.close()


def test_a_request_answered_after_a_move_is_stale(server: LiveServer) -> None:
    gid, p0, p1 = _pair(server)
    _move(p0, 0, 0)
    p0.send(type="takeback", answer="ask")
    p1.wait("takeback", event="asked")
    _move(p1, 1, 1)  # the opponent moves instead of answering
    p1.send(type="takeback", answer="accept", id=6)
    err = p1.wait("error", id=6)
    assert err["code"] == "stale"
    assert _stored(server, gid) == 2
    p0.send(type="takeback", answer="ask", id=7)  # a new request at the new ply is fine
    assert p1.wait("takeback", event="asked")["ply"] == 2
    p0.close()
    p1.close()


def test_nothing_to_take_back_and_spectators_are_refused(server: LiveServer) -> None:
    gid, p0, p1 = _pair(server)
    p0.send(type="takeback", answer="ask", id=2)
    assert p0.wait("error", id=2)["code"] == "no_takeback"
    watcher = Player(server.ws_url, gid)
    watcher.send(type="takeback", answer="ask", id=3)
    assert watcher.wait("error", id=3)["code"] == "forbidden"
    for p in (p0, p1, watcher):
        p.close()


def test_never_against_a_bot(server: LiveServer) -> None:
    # (Nor in a rated game: tests/server/test_rated_games.py, with accounts.)
    made = create(server.url, seats=[{"kind": "human"}, {"kind": "bot", "agent": "random"}])
    me = Player(server.ws_url, made["id"], [made["seats"][0]["token"]])
    me.send(type="takeback", answer="ask", id=2)
    err = me.wait("error", id=2)
    assert err["code"] == "no_takeback" and "bots" in err["message"]
    me.close()


def test_refused_in_a_game_with_hidden_information(server: LiveServer) -> None:
    _gid, p0, p1 = _pair(server, "sudokuhex", params={"players": 2})
    p0.send(type="takeback", answer="ask", id=2)
    err = p0.wait("error", id=2)
    assert err["code"] == "no_takeback" and "hidden information" in err["message"]
    p0.close()
    p1.close()


def _fake(log: list[LogEntry], **kw: Any) -> Any:
    spec = SimpleNamespace(hidden_information=False, name="Game")
    seats = [SimpleNamespace(kind="human"), SimpleNamespace(kind="human")]
    base = {"over": False, "read_only": None, "num_players": 2, "seats": seats, "spec": spec}
    return SimpleNamespace(log=log, **{**base, **kw})


def test_the_cut_never_crosses_a_chance_outcome() -> None:
    roll, mine, theirs = LogEntry(0, None, "roll 3"), LogEntry(1, 0, "a"), LogEntry(2, 1, "b")
    assert takeback_cut(_fake([roll, mine]), 0) == 1
    assert takeback_cut(_fake([roll, mine, theirs]), 0) == 1
    with pytest.raises(ActionRefused) as refused:
        takeback_cut(_fake([roll, mine, LogEntry(2, None, "roll 5")]), 0)
    assert "chance" in refused.value.message
    with pytest.raises(ActionRefused):
        takeback_cut(_fake([roll]), 0)  # nothing of his to take back
    with pytest.raises(ActionRefused):
        takeback_cut(_fake([roll, mine], over=True), 0)


def test_refused_across_a_roll_in_cat_sudoku(server: LiveServer) -> None:
    """Two people play Cat Sudoku until the dice are rolled after seat 0's move; then
    his move cannot be taken back (the roll would come again)."""
    gid, p0, p1 = _pair(server, "cat-sudoku", params={"players": 2})
    players = {0: p0, 1: p1}
    for _ in range(40):
        lg = server.arena.games[gid]
        log = list(lg.log)
        mine = [i for i, e in enumerate(log) if e.actor == 0]
        if mine and any(e.actor is None for e in log[mine[-1] :]):
            break
        seat = lg.to_move()[0]
        ply = lg.ply
        st = players[seat].wait_ply(ply, seat)
        players[seat].act(st["view"]["legal"][0], ply, seat, msg_id=ply + 100)
    else:
        pytest.fail("no roll came after seat 0's move")
    p0.send(type="takeback", answer="ask", id=2)
    err = p0.wait("error", id=2)
    assert err["code"] == "no_takeback" and "chance" in err["message"]
    p0.close()
    p1.close()


# -- the database decides -------------------------------------------------------------------


def _row(gid: str, actions: list[tuple[int, int | None, str]]) -> GameRow:
    row: GameRow = two_person_row(gid, actions)
    return row


def test_the_cut_is_stored_only_at_the_ply_asked(db_url: str) -> None:
    storage = Storage(db_url)
    try:
        storage.write_sync(CreateGame(_row("g", [(0, 0, "a"), (1, 1, "b"), (2, 0, "c")])))
        with pytest.raises(CutRefused):
            storage.write_sync(CutBack("g", 2, 0))  # three are stored, not two
        assert games_db.action_count(storage.engine, "g") == 3
        storage.write_sync(CutBack("g", 3, 2))
        assert games_db.action_count(storage.engine, "g") == 2
        if storage.shared:
            # Another process's move prepared before the cut, for the ply after the
            # removed entry: refused (one process orders both under the game's lock).
            with pytest.raises(ConflictError):
                storage.write_sync(AppendActions("g", [(3, 1, "d")]))
            assert games_db.action_count(storage.engine, "g") == 2
        storage.write_sync(EndGame("g", 2, {"winners": [], "scores": [0, 0], "reason": "x"}))
        with pytest.raises(CutRefused):
            storage.write_sync(CutBack("g", 2, 0))  # over: nothing is taken back
    finally:
        storage.close()


def test_another_process_reloads_the_game_cut_back(pg_url: str) -> None:
    channel = "takeback-" + secrets.token_hex(4)

    def config() -> ServerConfig:
        return ServerConfig(
            database_url=pg_url, redis_url=REDIS_URL, channel=channel, bot_workers=0
        )

    with LiveServer(config()) as a, LiveServer(config()) as b:
        made = create(a.url)
        tokens = [s["token"] for s in made["seats"]]
        p0 = Player(a.ws_url, made["id"], [tokens[0]], device="d0")
        p1 = Player(b.ws_url, made["id"], [tokens[1]], device="d1")
        _move(p0, 0, 0)
        _move(p1, 1, 1)
        p0.wait_ply(2)
        p0.send(type="takeback", answer="ask")  # asked on a
        p1.wait("takeback", event="asked")
        p1.send(type="takeback", answer="accept")  # cut on b
        assert p0.wait("state", ply=0)["view"]["to_move"] == [0]  # a reloaded it
        assert a.arena.games[made["id"]].ply == 0
        _move(p0, 0, 0)  # and a plays on from the database's position
        p1.wait_ply(1)
        assert games_db.action_count(a.arena.storage.engine, made["id"]) == 1
        p0.close()
        p1.close()


def test_a_process_that_missed_the_fan_out_reloads_on_its_sweep(pg_url: str) -> None:
    """No Redis: the takeback is made on one process (both players there); a spectator
    of the other process sees the game cut back once that process's sweep finds fewer
    moves stored than it holds."""

    def config() -> ServerConfig:
        return ServerConfig(database_url=pg_url, bot_workers=0, bot_lease=3.0)

    with LiveServer(config()) as a, LiveServer(config()) as b:
        made = create(a.url)
        tokens = [s["token"] for s in made["seats"]]
        p0 = Player(a.ws_url, made["id"], [tokens[0]], device="d0")
        p1 = Player(a.ws_url, made["id"], [tokens[1]], device="d1")
        watcher = Player(b.ws_url, made["id"])
        _move(p0, 0, 0)
        _move(p1, 1, 1)
        assert watcher.wait_ply(2)["ply"] == 2  # b caught up through its sweep
        p0.send(type="takeback", answer="ask")
        p1.wait("takeback", event="asked")
        p1.send(type="takeback", answer="accept")
        p0.wait("state", ply=0)
        assert watcher.wait("state", ply=0, timeout=15)["log"] == []
        assert b.arena.games[made["id"]].ply == 0
        for p in (p0, p1, watcher):
            p.close()
