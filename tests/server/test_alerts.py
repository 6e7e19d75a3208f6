"""Alerts that it is your turn: the real pywebpush code path to a local push endpoint that
decrypts each message as a browser would; one alert per move even when two processes
try (SQLite and PostgreSQL); a subscription the push service says is gone is deleted;
the VAPID key is made once and shared by every process on the database."""

from __future__ import annotations

import asyncio
import base64
import socketserver
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import pytest
from arena_helpers import two_person_row
from cryptography.hazmat.primitives.asymmetric import ec
from fastapi.testclient import TestClient
from push_endpoint import PushEndpoint
from sqlalchemy import Engine, create_engine

from sudoku_arena.server import ServerConfig, create_app, migrations
from sudoku_arena.server.alerts import AlertConfig, Alerts, Turn
from sudoku_arena.server.db import alerts as db
from sudoku_arena.server.events import GameEnded, MoveCommitted

CONTACT = "mailto:operator@example.org"


def _engine(url: str) -> Engine:
    engine = create_engine(url.replace("postgresql://", "postgresql+psycopg://", 1))
    migrations.upgrade(engine)
    return engine


@pytest.fixture
def push() -> Iterator[PushEndpoint]:
    with PushEndpoint() as p:
        yield p


def _turn(correspondence: bool = True, connected: tuple[bool, ...] = (False, False)) -> Turn:
    return Turn(
        game_name="Tic-Tac-Sudoku",
        names=["Ann", "Bob"],
        alertable=[True, True],
        correspondence=correspondence,
        words="3 days per move" if correspondence else None,
        connected=list(connected),
    )


def _alerts(engine: Engine, turn: Turn | None = None) -> Alerts:
    async def facts(game_id: str, waiting: Sequence[int]) -> Turn | None:
        return turn or _turn()

    config = AlertConfig(contact=CONTACT, allow_http_endpoints=True, ttl=3600)
    return Alerts(engine, facts, config)


def _moved(ply: int, by: int, to_move: tuple[int, ...], game_id: str = "g1") -> MoveCommitted:
    return MoveCommitted(game_id, "tic-tac-sudoku", ply - 1, ply, by, to_move, False)


def _subscribe(engine: Engine, push: PushEndpoint, name: str, seat: int, **kw: bool) -> None:
    info = push.subscription(name, **kw)
    sub = db.Subscription(info["endpoint"], info["keys"]["p256dh"], info["keys"]["auth"])
    db.subscribe(engine, db.seat_owner("g1", seat), sub)


def test_the_waiting_player_gets_a_push_the_browser_can_decrypt(
    tmp_path: Path, push: PushEndpoint
) -> None:
    engine = _engine(f"sqlite:///{tmp_path}/a.sqlite3")
    _subscribe(engine, push, "bob", seat=1)
    _subscribe(engine, push, "ann", seat=0)

    async def run() -> Alerts:
        alerts = _alerts(engine)
        await alerts.start()
        await alerts.on_event(_moved(1, by=0, to_move=(1,)))
        return alerts

    alerts = asyncio.run(run())
    assert push.for_("ann") == []  # the mover is not told
    [got] = push.for_("bob")
    assert got.payload["game_id"] == "g1" and got.payload["url"] == "/play/g1"
    assert got.payload["title"] == "Your turn: Tic-Tac-Sudoku"
    assert "Your turn against Ann" in got.payload["body"] and "3 days" in got.payload["body"]
    assert got.ttl == "3600"
    # Signed with the server's key, for this push service, naming the operator.
    assert got.vapid_key == alerts.public_key
    assert got.claims["aud"] == push.url and got.claims["sub"] == CONTACT
    assert alerts.sent == 1


def test_one_alert_per_move_even_when_two_processes_try(db_url: str, push: PushEndpoint) -> None:
    one, two = _engine(db_url), _engine(db_url)
    _subscribe(one, push, "bob", seat=1)

    async def run() -> list[Alerts]:
        a, b = _alerts(one), _alerts(two)
        await asyncio.gather(a.start(), b.start())
        event = _moved(1, by=0, to_move=(1,))
        await asyncio.gather(a.on_event(event), b.on_event(event), a.on_event(event))
        await b.on_event(_moved(3, by=0, to_move=(1,)))  # the next move: a new alert
        await a.on_event(_moved(3, by=0, to_move=(1,)))
        return [a, b]

    a, b = asyncio.run(run())
    assert len(push.for_("bob")) == 2 and a.sent + b.sent == 2
    assert not db.claim(one, "g1", 1, 1) and not db.claim(two, "g1", 3, 1)


def test_who_is_alerted(tmp_path: Path, push: PushEndpoint) -> None:
    """Live games: only a player with no device connected; correspondence: always;
    never a bot, never after the game ended."""
    engine = _engine(f"sqlite:///{tmp_path}/a.sqlite3")
    _subscribe(engine, push, "ann", seat=0)
    _subscribe(engine, push, "bob", seat=1)
    live = _turn(correspondence=False, connected=(True, False))
    bot = Turn("Tic-Tac-Sudoku", ["Ann", "Bot"], [True, False], True, None, [False, False])

    async def run() -> None:
        await _alerts(engine, live).on_event(_moved(1, by=1, to_move=(0,)))  # Ann is here
        await _alerts(engine, live).on_event(_moved(2, by=0, to_move=(1,)))  # Bob is not
        await _alerts(engine, bot).on_event(_moved(3, by=0, to_move=(1,)))  # a bot
        await _alerts(engine).on_event(GameEnded("g1", "tic-tac-sudoku", {}))
        await _alerts(engine).on_event(MoveCommitted("g1", "x", 3, 4, 0, (1,), True))  # over

    asyncio.run(run())
    assert push.for_("ann") == [] and len(push.for_("bob")) == 1


def test_a_subscription_the_push_service_says_is_gone_is_deleted(
    tmp_path: Path, push: PushEndpoint
) -> None:
    engine = _engine(f"sqlite:///{tmp_path}/a.sqlite3")
    _subscribe(engine, push, "old-phone", seat=1, gone=True)
    _subscribe(engine, push, "laptop", seat=1)
    owner = [db.seat_owner("g1", 1)]
    assert len(db.subscriptions(engine, owner)) == 2

    async def run() -> Alerts:
        alerts = _alerts(engine)
        await alerts.start()
        await alerts.on_event(_moved(1, by=0, to_move=(1,)))
        return alerts

    alerts = asyncio.run(run())
    assert push.gone_hits == 1 and alerts.dropped == 1
    assert len(push.for_("laptop")) == 1
    assert [s.endpoint for s in db.subscriptions(engine, owner)] == [f"{push.url}/push/laptop"]


def test_the_vapid_key_is_made_once_and_every_process_signs_with_it(db_url: str) -> None:
    one, two = _engine(db_url), _engine(db_url)

    async def run() -> tuple[Alerts, Alerts]:
        a, b = _alerts(one), _alerts(two)
        await asyncio.gather(a.start(), b.start())  # two processes starting together
        return a, b

    a, b = asyncio.run(run())
    assert a.public_key == b.public_key and a.private_pem == b.private_pem
    # The public key is the private key's: a P-256 point browsers can subscribe with.
    point = base64.urlsafe_b64decode(a.public_key + "=" * (-len(a.public_key) % 4))
    assert len(point) == 65 and point[0] == 4
    ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    made: list[int] = []

    def never() -> tuple[str, str]:
        made.append(1)
        return "x", "y"

    assert db.vapid_keys(one, never) == (a.private_pem, a.public_key) and made == []


# -- the server: routes, and alerts from moves made through the API ----------------------


def _wait(check: Callable[[], bool], seconds: float = 10.0) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if check():
            return True
        time.sleep(0.05)
    return check()


def _config(url: str, **kw: bool) -> ServerConfig:
    alerts = AlertConfig(contact=CONTACT, allow_http_endpoints=kw.get("http", True))
    return ServerConfig(database_url=url, bot_workers=0, analysis=False, alerts=alerts)


def _move(c: TestClient, gid: str, token: str) -> None:
    st = c.get(f"/api/matches/{gid}/state", headers={"authorization": f"Bearer {token}"}).json()
    body = {"token": token, "ply": st["ply"], "action": st["view"]["legal"][0]}
    assert c.post(f"/api/matches/{gid}/actions", json=body).status_code == 200


def test_a_correspondence_game_alerts_the_subscribed_seat_at_each_turn(
    sqlite_url: str, push: PushEndpoint
) -> None:
    with TestClient(create_app(_config(sqlite_url))) as c:
        made = c.post("/api/matches", json={"game": "tic-tac-sudoku", "clock": {"days": 3}})
        gid, seats = made.json()["id"], made.json()["seats"]
        ann, bob = seats[0]["token"], seats[1]["token"]
        sub = push.subscription("bob")
        answer = c.post(
            "/api/push/subscribe", json={"subscription": sub, "game_id": gid, "token": bob}
        )
        assert answer.status_code == 200 and answer.json() == {"owner": "seat", "email": False}
        _move(c, gid, ann)  # Bob's turn: one push
        assert _wait(lambda: len(push.for_("bob")) == 1)
        _move(c, gid, bob)  # Ann's turn: Ann subscribed nothing, Bob gets nothing
        _move(c, gid, ann)  # Bob's turn again: a second push
        assert _wait(lambda: len(push.for_("bob")) == 2)
        first = push.for_("bob")[0]
        assert first.payload["game_id"] == gid and first.payload["title"].startswith("Your turn")
        assert first.vapid_key == c.get("/api/push/key").json()["key"]
        # Unsubscribed: the next turn reaches nobody.
        gone = c.request(
            "DELETE",
            "/api/push/subscribe",
            json={"endpoint": sub["endpoint"], "game_id": gid, "token": bob},
        )
        assert gone.json() == {"removed": 1}
        _move(c, gid, bob)
        _move(c, gid, ann)
        time.sleep(0.5)  # the alert would have gone out by now
        assert len(push.for_("bob")) == 2 and push.errors == []


def test_subscribing_is_refused_without_a_seat_or_with_a_plain_http_endpoint(
    sqlite_url: str, push: PushEndpoint
) -> None:
    with TestClient(create_app(_config(sqlite_url, http=False))) as c:
        made = c.post("/api/matches", json={"game": "tic-tac-sudoku"}).json()
        gid, token = made["id"], made["seats"][0]["token"]
        sub = push.subscription("x")
        https = {**sub, "endpoint": "https://push.example.org/x"}
        no_seat = c.post("/api/push/subscribe", json={"subscription": https})
        assert no_seat.status_code == 401 and "token" in no_seat.json()["error"]["message"]
        wrong = c.post(
            "/api/push/subscribe", json={"subscription": https, "game_id": gid, "token": "nope"}
        )
        assert wrong.status_code == 403
        plain = c.post(
            "/api/push/subscribe", json={"subscription": sub, "game_id": gid, "token": token}
        )
        assert plain.status_code == 400 and "https" in plain.json()["error"]["message"]
        nothing = {**sub, "endpoint": "file:///etc/passwd"}
        bad = c.post(
            "/api/push/subscribe", json={"subscription": nothing, "game_id": gid, "token": token}
        )
        assert bad.status_code == 400 and "endpoint" in bad.json()["error"]["message"]
        assert db.subscriptions(c.app.state.alerts.engine, [db.seat_owner(gid, 0)]) == []


def test_the_key_and_the_service_worker_are_served_and_shared_by_a_second_app(
    sqlite_url: str,
) -> None:
    with TestClient(create_app(_config(sqlite_url))) as c:
        answer = c.get("/api/push/key").json()
        key = answer["key"]
        assert list(answer) == ["key"] and "PRIVATE" not in str(answer)
        sw = c.get("/sw.js")
        assert sw.headers["content-type"].startswith("text/javascript")
        assert sw.headers["service-worker-allowed"] == "/" and "showNotification" in sw.text
        icon = c.get("/favicon-turn.svg")
        assert icon.headers["content-type"].startswith("image/svg+xml")
    with TestClient(create_app(_config(sqlite_url))) as c:  # a restart, or another process
        assert c.get("/api/push/key").json()["key"] == key


def test_a_database_without_the_alert_tables_upgrades_and_keeps_its_games(
    tmp_path: Path,
) -> None:
    from alembic import command
    from sqlalchemy import inspect

    from sudoku_arena.server.db import games as games_db
    from sudoku_arena.server.db.engine import Storage
    from sudoku_arena.server.db.games import CreateGame

    url = f"sqlite:///{tmp_path}/old.sqlite3"
    engine = create_engine(url)
    with engine.begin() as conn:
        command.upgrade(migrations._config(conn), "0007")
    storage = Storage(url)  # to the head, 0010 on the way
    row = two_person_row("kept")
    storage.write_sync(CreateGame(row))
    storage.close()
    tables = {"arena_vapid", "arena_push_subscriptions", "arena_alert_prefs", "arena_alerts_sent"}
    with engine.begin() as conn:  # back to before 0010, with the game in it
        command.downgrade(migrations._config(conn), "0009")
    assert not tables & set(inspect(engine).get_table_names())
    storage = Storage(url)
    try:
        assert tables <= set(inspect(storage.engine).get_table_names())
        kept = games_db.load_game(storage.engine, "kept")
        assert kept is not None and [s.name for s in kept.seats] == ["a", "b"]
    finally:
        storage.close()
        engine.dispose()


class _Mailbox(socketserver.ThreadingTCPServer):
    """The least SMTP server that accepts mail: each message's text is kept."""

    allow_reuse_address = True
    daemon_threads = True

    def __init__(self) -> None:
        self.messages: list[str] = []
        box = self

        class Handler(socketserver.StreamRequestHandler):
            def handle(self) -> None:
                self.wfile.write(b"220 test\r\n")
                while line := self.rfile.readline():
                    verb = line[:4].upper()
                    if verb == b"DATA":
                        self.wfile.write(b"354 go on\r\n")
                        body = b""
                        while (part := self.rfile.readline()) not in (b".\r\n", b""):
                            body += part
                        box.messages.append(body.decode())
                    elif verb == b"QUIT":
                        self.wfile.write(b"221 bye\r\n")
                        return
                    self.wfile.write(b"250 ok\r\n")

        super().__init__(("127.0.0.1", 0), Handler)


def test_an_email_goes_to_the_address_the_seat_gave_when_the_server_sends_mail(
    tmp_path: Path, push: PushEndpoint
) -> None:
    box = _Mailbox()
    threading.Thread(target=box.serve_forever, daemon=True).start()
    try:
        port = box.server_address[1]
        engine = _engine(f"sqlite:///{tmp_path}/a.sqlite3")
        db.set_email(engine, db.seat_owner("g1", 1), "bob@example.org")
        alerts = _alerts(engine)
        alerts.config.smtp_url = f"smtp://127.0.0.1:{port}?from=arena@example.org"
        alerts.config.public_url = "https://arena.example.org"
        asyncio.run(alerts.on_event(_moved(1, by=0, to_move=(1,))))
        assert len(box.messages) == 1
        text = box.messages[0]
        assert "To: bob@example.org" in text and "From: arena@example.org" in text
        assert "Subject: Your turn: Tic-Tac-Sudoku" in text
        assert "https://arena.example.org/play/g1" in text
        db.set_email(engine, db.seat_owner("g1", 1), None)  # taken back: no more e-mail
        asyncio.run(alerts.on_event(_moved(3, by=0, to_move=(1,))))
        assert len(box.messages) == 1
    finally:
        box.shutdown()
        box.server_close()


def test_a_signed_in_player_subscribes_once_for_every_seat_of_his_account(
    sqlite_url: str, push: PushEndpoint
) -> None:
    with TestClient(create_app(_config(sqlite_url))) as c:
        ann = c.post("/api/account/signup", json={"name": "ann_a", "password": "long enough"})
        csrf = {"x-csrf-token": ann.json()["csrf"]}
        sub = push.subscription("ann-account")
        answer = c.post("/api/push/subscribe", json={"subscription": sub}, headers=csrf)
        assert answer.status_code == 200 and answer.json()["owner"] == "account"
        # A game made while signed in: the creator's seat is the account's.
        made = c.post(
            "/api/matches", json={"game": "tic-tac-sudoku", "clock": {"days": 1}}, headers=csrf
        ).json()
        gid, tokens = made["id"], [s["token"] for s in made["seats"]]
        st = c.get(f"/api/matches/{gid}/state", headers={"authorization": f"Bearer {tokens[0]}"})
        body = {"token": tokens[0], "ply": 0, "action": st.json()["view"]["legal"][0]}
        assert c.post(f"/api/matches/{gid}/actions", json=body, headers=csrf).status_code == 200
        c.cookies.clear()  # Bob, on another device, without an account
        _move(c, gid, tokens[1])
        assert _wait(lambda: len(push.for_("ann-account")) == 1)
        got = push.for_("ann-account")[0].payload
        assert got["game_id"] == gid and got["seat"] == 0 and got["ply"] == 2


def test_an_owner_keeps_only_its_newest_browsers(tmp_path: Path, push: PushEndpoint) -> None:
    engine = _engine(f"sqlite:///{tmp_path}/a.sqlite3")
    for i in range(db.MAX_SUBSCRIPTIONS + 5):
        _subscribe(engine, push, f"b{i}", seat=1)
    _subscribe(engine, push, "b3", seat=1)  # the same browser again: its keys replaced
    kept = {
        s.endpoint.rsplit("/", 1)[1] for s in db.subscriptions(engine, [db.seat_owner("g1", 1)])
    }
    assert len(kept) == db.MAX_SUBSCRIPTIONS and "b3" in kept and "b14" in kept
    assert "b0" not in kept and "b5" not in kept


def test_a_player_connected_to_another_process_counts_as_here(sqlite_url: str) -> None:
    """In a live game the process storing the move knows its own connections; one held
    on another process of the fleet shows in the seat's seen_at, written every beat."""
    from sqlalchemy import update

    from sudoku_arena.server.alerts import from_arena
    from sudoku_arena.server.arena import Arena, SeatSpec
    from sudoku_arena.server.bots import BotRunner
    from sudoku_arena.server.clock import TimeControl
    from sudoku_arena.server.db.engine import Storage
    from sudoku_arena.server.db.seats import seats_table

    t0 = 1_800_000_000.0

    async def run() -> None:
        arena = Arena(
            Storage(sqlite_url), bots=BotRunner(0), now=lambda: t0, timeout_sweep_seconds=3600
        )
        await arena.start()
        live, _ = await arena.create("tic-tac-sudoku", {}, [SeatSpec("human")] * 2)
        days, _ = await arena.create(
            "tic-tac-sudoku", {}, [SeatSpec("human")] * 2, time_control=TimeControl(days=2)
        )
        facts = from_arena(arena)[0]
        beat = arena.attendance.beat
        for gid in (live.id, days.id):
            with arena.storage.engine.begin() as conn:
                conn.execute(
                    update(seats_table)
                    .where(seats_table.c.game_id == gid)
                    .values(seen_at=t0 - 1.5 * beat)  # seen by another process lately
                )
        turn = await facts(live.id, [0, 1])
        assert turn is not None and turn.connected == [True, True] and not turn.correspondence
        # Nobody waiting, nobody away: nothing to tell and nothing read (each move's
        # listener asks; most moves find the waiting person here).
        assert await facts(live.id, []) is None
        corr = await facts(days.id, [0])
        assert corr is not None and corr.correspondence and corr.words == "2 days per move"
        with arena.storage.engine.begin() as conn:
            conn.execute(update(seats_table).values(seen_at=t0 - 3 * beat))  # gone since
        turn = await facts(live.id, [0, 1])
        assert turn is not None and turn.connected == [False, False]
        assert await facts("no-such-game", [0]) is None
        await arena.stop()

    asyncio.run(run())
