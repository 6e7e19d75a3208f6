"""Chat: messages cleaned to plain text and capped, stored per room, muted per seat,
delivered only to their room (on every process of a fleet), sent again on reconnect,
rate-limited, and off in games against bots and at one screen."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from arena_helpers import REDIS_URL, LiveServer, Player, create, two_person_row

from sudoku_arena.server import ServerConfig
from sudoku_arena.server.chat import MAX_CHARS, ChatRefused, clean_text
from sudoku_arena.server.db import chat as db
from sudoku_arena.server.db import games as games_db
from sudoku_arena.server.db.engine import Storage

# -- the text ------------------------------------------------------------------------------


def test_controls_and_bidi_overrides_are_removed_and_breaks_become_spaces() -> None:
    assert clean_text("  good\x00 game\x07\x1b[31m  ") == "good game[31m"
    assert clean_text("line one\nline two\r\n\tend") == "line one line two end"
    assert clean_text("abc\u202edcba\u2066x\u2069") == "abcdcbax"  # no reordered text
    assert clean_text("\x85caf\u00e9 \U0001f44b") == "caf\u00e9 \U0001f44b"  # C1 gone, rest kept
    assert clean_text("<img src=x onerror=alert(1)>") == "<img src=x onerror=alert(1)>"


@pytest.mark.parametrize(
    ("text", "code"),
    [("", "empty"), (" \n\x00 ", "empty"), (5, "bad_message"), (None, "bad_message")],
)
def test_empty_and_non_text_messages_are_refused(text: object, code: str) -> None:
    with pytest.raises(ChatRefused) as refused:
        clean_text(text)
    assert refused.value.code == code


def test_a_long_message_is_refused_whole_not_cut() -> None:
    assert len(clean_text("x" * MAX_CHARS)) == MAX_CHARS
    with pytest.raises(ChatRefused) as refused:
        clean_text("x" * (MAX_CHARS + 1))
    assert refused.value.code == "too_long"
    assert f"at most {MAX_CHARS}" in refused.value.message and "301" in refused.value.message


# -- storage -------------------------------------------------------------------------------


def test_messages_and_mutes_are_stored_per_game_and_room(db_url: str) -> None:
    storage = Storage(db_url)
    engine = storage.engine
    try:
        for i in range(60):
            db.add_message(engine, "g1", "players", i % 2, f"p{i % 2}", f"m{i}", 1000.0 + i)
        db.add_message(engine, "g1", "spectators", None, "spectator ab", "hello", 2000.0)
        db.add_message(engine, "g2", "players", 0, "other", "elsewhere", 2000.0)
        last = db.history(engine, "g1", "players", 50)
        assert [m.text for m in last] == [f"m{i}" for i in range(10, 60)]  # oldest first
        assert [m.text for m in db.history(engine, "g1", "spectators")] == ["hello"]
        assert db.history(engine, "g1", "spectators")[0].seat is None
        with pytest.raises(ValueError):
            db.add_message(engine, "g1", "everybody", 0, "x", "y", 1.0)
        db.set_mute(engine, "g1", 0, 1, True)
        db.set_mute(engine, "g1", 0, 1, True)  # twice is once
        assert db.mutes(engine, "g1") == {0: {1}}
        assert db.mutes(engine, "g2") == {}
        db.set_mute(engine, "g1", 0, 1, False)
        assert db.mutes(engine, "g1") == {}
    finally:
        storage.close()


def test_a_database_at_0007_with_a_game_upgrades_and_keeps_it(tmp_path: Path) -> None:
    from alembic import command
    from sqlalchemy import create_engine, inspect

    from sudoku_arena.server import migrations

    url = f"sqlite:///{tmp_path}/old.sqlite3"
    engine = create_engine(url)
    with engine.begin() as conn:
        command.upgrade(migrations._config(conn), "0007")
    storage = Storage(url)  # upgrades to the head, 0011 among them
    gid = "kept"
    storage.write_sync(_game_op(storage, gid))
    storage.close()
    # back to before 0011 (no chat tables), a game in it; then upgrade again
    with engine.begin() as conn:
        command.downgrade(migrations._config(conn), "0010")
    assert "arena_chat" not in inspect(engine).get_table_names()
    storage = Storage(url)
    try:
        assert "arena_chat" in inspect(storage.engine).get_table_names()
        row = games_db.load_game(storage.engine, gid)
        assert row is not None and row.id == gid
    finally:
        storage.close()
        engine.dispose()


def _game_op(storage: Storage, gid: str) -> Any:
    from sudoku_arena.server.db.games import CreateGame

    row = two_person_row(gid)
    return CreateGame(row)


# -- over the game's WebSocket --------------------------------------------------------------


def _three(server: LiveServer, **kw: Any) -> tuple[str, Player, Player, Player]:
    made = create(server.url, **kw)
    tokens = [s["token"] for s in made["seats"]]
    p0 = Player(server.ws_url, made["id"], [tokens[0]], device="d0")
    p1 = Player(server.ws_url, made["id"], [tokens[1]], device="d1")
    spec = Player(server.ws_url, made["id"], [], device="watcher")
    return made["id"], p0, p1, spec


def _drain(*players: Player) -> None:
    """Read what each connection still has coming (until 0.5 s of quiet)."""
    for p in players:
        try:
            while True:
                p.recv(timeout=0.5)
        except TimeoutError:
            pass


def _history(p: Player) -> dict[str, Any]:
    for m in p.received:
        if m["type"] == "chat_history":
            return m
    return p.wait("chat_history")


def test_each_room_hears_only_itself_and_history_comes_back(server: LiveServer) -> None:
    gid, p0, p1, spec = _three(server)
    assert _history(p0)["enabled"] and _history(p0)["room"] == "players"
    assert _history(spec)["room"] == "spectators"
    p0.send(type="chat", text="good luck <b>!</b>")
    got = p1.wait("chat")
    assert got["text"] == "good luck <b>!</b>" and got["seat"] == 0 and got["room"] == "players"
    assert p0.wait("chat")["text"] == "good luck <b>!</b>"  # the author sees it stored
    spec.send(type="chat", text="nice opening")
    assert spec.wait("chat")["text"] == "nice opening"
    p1.send(type="chat", text="you too")
    assert p0.wait("chat", text="you too")["seat"] == 1
    _drain(spec, p0, p1)  # nothing of the other room reached anybody
    assert {m["room"] for m in spec.received if m["type"] == "chat"} == {"spectators"}
    for p in (p0, p1):
        assert {m["room"] for m in p.received if m["type"] == "chat"} == {"players"}
    # a new spectator gets the spectators' room's history, not the players'
    p0.close()
    back = Player(server.ws_url, gid, [], device="watcher2")
    assert [m["text"] for m in _history(back)["messages"]] == ["nice opening"]
    for p in (p1, spec, back):
        p.close()


def test_a_player_reconnecting_gets_his_rooms_history(server: LiveServer) -> None:
    made = create(server.url)
    tokens = [s["token"] for s in made["seats"]]
    p0 = Player(server.ws_url, made["id"], [tokens[0]], device="d0")
    p0.send(type="chat", text="first")
    p0.wait("chat")
    p0.close()
    again = Player(server.ws_url, made["id"], [tokens[0]], device="d0")
    h = _history(again)
    assert h["room"] == "players" and [m["text"] for m in h["messages"]] == ["first"]
    again.close()


def test_refusals_come_back_as_errors_and_nothing_is_stored(server: LiveServer) -> None:
    gid, p0, p1, spec = _three(server)
    p0.send(type="chat", text="y" * 301, id=3)
    err = p0.wait("error", id=3)
    assert err["code"] == "too_long" and "300" in err["message"]
    p0.send(type="chat", text="\x00\x01 \n", id=4)
    assert p0.wait("error", id=4)["code"] == "empty"
    p0.send(type="chat", text="a\x07b", id=5)
    assert p1.wait("chat")["text"] == "ab"
    assert [m.text for m in db.history(server.arena.storage.engine, gid, "players")] == ["ab"]
    for p in (p0, p1, spec):
        p.close()


def test_too_many_messages_are_refused_with_the_wait(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/a.sqlite3"
    with LiveServer(ServerConfig(database_url=url, bot_workers=0, bot_delay=0.0)) as server:
        server.arena.chat.limits = _limits("3/minute")
        _gid, p0, p1, spec = _three(server)
        for i in range(3):
            p0.send(type="chat", text=f"m{i}")
            p1.wait("chat", text=f"m{i}")
        p0.send(type="chat", text="one too many", id=9)
        err = p0.wait("error", id=9)
        assert err["code"] == "rate_limited" and err["retry_after"] >= 1
        p1.send(type="chat", text="my own count")  # per seat: the other is not limited
        assert p0.wait("chat")["text"] == "my own count"
        for p in (p0, p1, spec):
            p.close()


def _limits(rule: str) -> Any:
    from sudoku_arena.server.limits import RateLimits

    return RateLimits(rules={"chat": rule})


def test_a_muted_player_is_not_delivered_nor_in_history(server: LiveServer) -> None:
    made = create(server.url)
    tokens = [s["token"] for s in made["seats"]]
    p0 = Player(server.ws_url, made["id"], [tokens[0]], device="d0")
    p1 = Player(server.ws_url, made["id"], [tokens[1]], device="d1")
    p0.send(type="chat_mute", seat=1, mute=True)
    assert p0.wait("chat_muted")["muted"] == [1]
    p1.send(type="chat", text="spam")
    assert p1.wait("chat")["text"] == "spam"  # stored and told to its author
    p0.send(type="chat", text="after")
    got = p0.wait("chat")
    assert got["text"] == "after"  # p0 never got "spam" before his own
    p0.send(type="chat_mute", seat=0, mute=True, id=7)  # not his own seat
    assert p0.wait("error", id=7)["code"] == "bad_seat"
    p0.close()
    again = Player(server.ws_url, made["id"], [tokens[0]], device="d0")
    h = _history(again)
    assert h["muted"] == [1] and [m["text"] for m in h["messages"]] == ["after"]
    again.send(type="chat_mute", seat=1, mute=False)
    assert again.wait("chat_muted")["muted"] == []
    p1.send(type="chat", text="heard again")
    assert again.wait("chat")["text"] == "heard again"
    again.close()
    p1.close()


def test_chat_is_off_against_bots_and_at_one_screen(server: LiveServer) -> None:
    made = create(server.url, seats=[{"kind": "human"}, {"kind": "bot", "agent": "random"}])
    p0 = Player(server.ws_url, made["id"], [made["seats"][0]["token"]])
    h = _history(p0)
    assert not h["enabled"] and "bots" in h["off"] and h["messages"] == []
    p0.send(type="chat", text="hello bot", id=2)
    err = p0.wait("error", id=2)
    assert err["code"] == "chat_off" and "bots" in err["message"]
    p0.close()
    hot = create(server.url, mode="hotseat")
    both = [s["token"] for s in hot["seats"]]
    p = Player(server.ws_url, hot["id"], both)
    assert not _history(p)["enabled"]
    p.close()


def test_a_message_reaches_the_room_on_another_process(pg_url: str) -> None:
    """Two arenas on one database and one Redis: a player on each, a spectator on
    each; each message reaches its room on both, and only its room."""
    channel = "chat-test-" + str(time.time_ns())
    cfg = {"database_url": pg_url, "redis_url": REDIS_URL, "channel": channel}
    with (
        LiveServer(ServerConfig(**cfg, bot_workers=0, bot_delay=0.0)) as a,
        LiveServer(ServerConfig(**cfg, bot_workers=0, bot_delay=0.0)) as b,
    ):
        made = create(a.url)
        tokens = [s["token"] for s in made["seats"]]
        p0 = Player(a.ws_url, made["id"], [tokens[0]], device="d0")
        p1 = Player(b.ws_url, made["id"], [tokens[1]], device="d1")
        s_a = Player(a.ws_url, made["id"], [], device="wa")
        s_b = Player(b.ws_url, made["id"], [], device="wb")
        p0.send(type="chat", text="from a")
        assert p1.wait("chat")["text"] == "from a"
        s_b.send(type="chat", text="watching on b")
        assert s_a.wait("chat")["text"] == "watching on b"
        p1.send(type="chat_mute", seat=0, mute=True)
        p1.wait("chat_muted")
        time.sleep(0.3)
        p0.send(type="chat", text="muted now")
        p0.wait("chat", text="muted now")
        p0.send(type="chat", text="and again")
        p0.wait("chat", text="and again")
        _drain(p1, s_a, s_b)
        heard = [m["text"] for m in p1.received if m["type"] == "chat"]
        assert heard == ["from a"]  # the muted seat's later messages never came
        for p in (s_a, s_b):
            assert {m["room"] for m in p.received if m["type"] == "chat"} == {"spectators"}
        # b keeps the rooms' history it greeted with; what comes from a joins it.
        s_a.send(type="chat", text="late from a")
        s_b.wait("chat", text="late from a")
        s_b2 = Player(b.ws_url, made["id"], [], device="wb2")
        said = [m["text"] for m in _history(s_b2)["messages"]]
        assert said == ["watching on b", "late from a"]
        # a made the game, so it greets from memory from the start (never read): what
        # came from b is in it, and the players' room has p0's three messages.
        s_a2 = Player(a.ws_url, made["id"], [], device="wa2")
        assert [m["text"] for m in _history(s_a2)["messages"]] == said
        p0b = Player(a.ws_url, made["id"], [tokens[0]], device="d0")
        mine = [m["text"] for m in _history(p0b)["messages"]]
        assert mine == ["from a", "muted now", "and again"]
        for p in (p0, p1, s_a, s_b, s_b2, s_a2, p0b):
            p.close()


def test_cached_mutes_and_history_of_games_no_longer_held_are_forgotten(sqlite_url: str) -> None:
    import asyncio
    from types import SimpleNamespace

    from sudoku_arena.server import chat

    storage = Storage(sqlite_url)
    try:
        arena = SimpleNamespace(storage=storage, games={"held": object()}, clients={})
        rooms = chat.Chat(arena)  # type: ignore[arg-type]
        rooms._mutes = {f"g{i}": {} for i in range(chat._KEEP_MUTES)}
        rooms._mutes["held"] = {0: {1}}
        asyncio.run(rooms._mutes_of("new"))
        assert set(rooms._mutes) == {"held", "new"}
        rooms._history = {(f"g{i}", "players"): [] for i in range(2 * chat._KEEP_MUTES)}
        rooms._history[("held", "players")] = []
        asyncio.run(rooms._history_of("new", "players"))
        assert set(rooms._history) == {("held", "players"), ("new", "players")}
    finally:
        storage.close()
