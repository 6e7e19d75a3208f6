"""Optional accounts: sign up, sign in and out, change the password, delete (the games
stay, anonymised), export; a guest's games join the account made in the same browser;
the allowed user names; migration 0008 keeps every game of a database at 0007."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from sudoku_arena.server import ServerConfig, create_app
from sudoku_arena.server.db import accounts as db
from sudoku_arena.server.db.schema import metadata

PASSWORD = "a long enough secret"


def _app(url: str, **options: Any) -> Any:
    cfg = ServerConfig(
        database_url=url, bot_workers=0, bot_delay=0.0, analysis=False, signin_slowdown=0.0
    )
    for k, v in options.items():
        setattr(cfg, k, v)
    return create_app(cfg)


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    with TestClient(_app(sqlite_url)) as c:
        yield c


def _csrf(c: TestClient) -> dict[str, str]:
    return {"x-csrf-token": c.get("/api/account").json()["csrf"]}


def _signup(c: TestClient, name: str = "ada", **extra: Any) -> dict[str, Any]:
    r = c.post("/api/account/signup", json={"name": name, "password": PASSWORD, **extra})
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def test_sign_up_in_and_out(client: TestClient) -> None:
    assert client.get("/api/account").json()["signed_in"] is False
    made = _signup(client, "Ada_1")
    assert made["signed_in"] and made["name"] == "Ada_1" and made["csrf"]
    me = client.get("/api/account").json()
    assert me["name"] == "Ada_1" and me["csrf"] == made["csrf"]
    r = client.post("/api/account/signout", json={}, headers={"x-csrf-token": made["csrf"]})
    assert r.status_code == 200 and r.json()["signed_in"] is False
    assert client.get("/api/account").json()["signed_in"] is False
    # Names are one whatever their case; the password is checked.
    again = client.post("/api/account/signin", json={"name": "ada_1", "password": PASSWORD})
    assert again.status_code == 200 and again.json()["name"] == "Ada_1"
    client.cookies.clear()
    wrong = client.post("/api/account/signin", json={"name": "ada_1", "password": "not it at all"})
    assert wrong.status_code == 401 and wrong.json()["error"]["code"] == "bad_credentials"
    nobody = client.post("/api/account/signin", json={"name": "nobody", "password": PASSWORD})
    assert nobody.status_code == 401 and nobody.json() == wrong.json()  # no name leaks


def test_names_outside_the_allowed_set_are_refused_clearly(client: TestClient) -> None:
    for bad in ("ab", "a" * 21, "has space", "<img src=x onerror=alert(1)>", "émile"):
        r = client.post("/api/account/signup", json={"name": bad, "password": PASSWORD})
        assert r.status_code == 400, bad
        error = r.json()["error"]
        assert error["code"] == "bad_request" and db.NAME_RULE in error["message"]
        assert error["message"].startswith("name: ")
    _signup(client, "Grace")
    client.cookies.clear()
    r = client.post("/api/account/signup", json={"name": "GRACE", "password": PASSWORD})
    assert r.status_code == 409 and r.json()["error"]["code"] == "name_taken"
    short = client.post("/api/account/signup", json={"name": "linus", "password": "short"})
    assert short.status_code == 400 and "password" in short.json()["error"]["message"]


def test_changing_the_password_signs_out_the_other_browsers(sqlite_url: str) -> None:
    app = _app(sqlite_url)
    with TestClient(app) as first:
        _signup(first, "hopper")
        second = TestClient(app)
        second.post("/api/account/signin", json={"name": "hopper", "password": PASSWORD})
        assert second.get("/api/account").json()["signed_in"]
        old_cookie = first.cookies["session"]
        body = {"old_password": "wrong password", "new_password": "a brand new secret"}
        refused = first.post("/api/account/password", json=body, headers=_csrf(first))
        assert refused.status_code == 401
        body["old_password"] = PASSWORD
        r = first.post("/api/account/password", json=body, headers=_csrf(first))
        assert r.status_code == 200 and r.json()["signed_in"]
        assert first.cookies["session"] != old_cookie  # a new session here
        assert first.get("/api/account").json()["name"] == "hopper"
        assert second.get("/api/account").json()["signed_in"] is False  # the other: out
        first.cookies.clear()
        old = first.post("/api/account/signin", json={"name": "hopper", "password": PASSWORD})
        assert old.status_code == 401
        new = first.post(
            "/api/account/signin", json={"name": "hopper", "password": "a brand new secret"}
        )
        assert new.status_code == 200


def test_deleting_the_account_keeps_its_games_anonymised(db_url: str) -> None:
    with TestClient(_app(db_url)) as client:
        _deleting_keeps_the_games(client)


def _deleting_keeps_the_games(client: TestClient) -> None:
    """On SQLite and PostgreSQL: the account, its sessions and links go, the games stay."""
    _signup(client, "turing")
    made = client.post(
        "/api/matches",
        json={"game": "tic-tac-sudoku", "seats": [{"name": "turing"}, {"name": "bob"}]},
        headers=_csrf(client),
    ).json()
    gid = made["id"]
    body = {"password": "not the password"}
    refused = client.request("DELETE", "/api/account", json=body, headers=_csrf(client))
    assert refused.status_code == 401
    r = client.request("DELETE", "/api/account", json={"password": PASSWORD}, headers=_csrf(client))
    assert r.status_code == 200 and r.json()["signed_in"] is False
    assert client.get("/api/account").json()["signed_in"] is False
    engine = client.app.state.arena.storage.engine  # type: ignore[attr-defined]
    assert db.account_by_name(engine, "turing") is None
    assert db.seat_accounts(engine, gid) == {}
    with engine.connect() as conn:
        names = conn.execute(
            text("SELECT name FROM arena_seats WHERE game_id = :g ORDER BY seat"), {"g": gid}
        ).scalars()
        assert list(names) == [db.DELETED_NAME, "bob"]
        players = conn.execute(
            text("SELECT players FROM arena_games WHERE id = :g"), {"g": gid}
        ).scalar()
        assert db.DELETED_NAME in players and "turing" not in players
        assert conn.execute(text("SELECT count(*) FROM arena_web_sessions")).scalar() == 0
    # The game is still there, and its name is free again.
    assert client.get(f"/api/matches/{gid}").status_code == 200
    _signup(client, "turing")


def _kept_rows(key: str, name: str, n: int) -> dict[str, list[dict[str, Any]]]:
    """A row of each table other features keep for a player ``key``."""
    return {
        "arena_ratings": [
            {"player": key, "game": "tic-tac-sudoku", "name": name, "mu": 25.0, "sigma": 8.0}
            | {"games": 1, "updated": 1.0}
        ],
        "arena_rating_history": [
            {"player": key, "game": "tic-tac-sudoku", "game_id": f"g{n}", "mu": 25.0}
            | {"sigma": 8.0, "display": 1500, "at": 1.0}
        ],
        "arena_seeks": [
            {"id": f"s{n}", "token_hash": "h", "owner": key, "name": name, "game": "t"}
            | {"params": "{}", "players": 2, "rated": True, "pool": "p", "created": 1.0}
            | {"expires": 2.0, "status": "open"}
        ],
        "arena_challenges": [
            {"id": f"c{n}{side}", "token_hash": "h", "challenger": key if side else "ip:x"}
            | {"challenger_name": name, "opponent": "ip:x" if side else key}
            | {"opponent_name": name, "body": "{}", "created": 1.0, "expires": 2.0}
            | {"status": "open"}
            for side in (0, 1)
        ],
        "arena_push_subscriptions": [
            {"owner": key, "endpoint": f"https://push.example.org/{n}", "p256dh": "k"}
            | {"auth": "a", "created": 1.0}
        ],
        "arena_alert_prefs": [{"owner": key, "email": f"{name}@example.org", "updated": 1.0}],
    }


def test_deleting_an_account_deletes_what_other_features_keep_for_it(db_url: str) -> None:
    """On SQLite and PostgreSQL: ratings, their history, seeks, challenges, push
    subscriptions and alert settings go with the account (another's stay); a rated
    game's record of its players forgets it; export gave each of them before."""
    with TestClient(_app(db_url)) as client:
        _signup(client, "shannon")
        me = client.get("/api/account").json()["id"]
        gid = client.post(
            "/api/matches", json={"game": "tic-tac-sudoku"}, headers=_csrf(client)
        ).json()["id"]
        engine = client.app.state.arena.storage.engine  # type: ignore[attr-defined]
        mine, other = f"account:{me}", f"account:{me + 1}"  # "account:1" vs "account:12"
        tables = metadata.tables
        recorded = {"0": [mine, "shannon"], "1": [other, "other"]}
        with engine.begin() as conn:
            for rows in (_kept_rows(mine, "shannon", 1), _kept_rows(other, "other", 2)):
                for name, values in rows.items():
                    conn.execute(tables[name].insert(), values)
            conn.execute(
                tables["arena_rated_games"].insert(),
                {"game_id": gid, "game": "tic-tac-sudoku", "rated": True}
                | {"seats": json.dumps(recorded), "created": 1.0},
            )
        exported = client.get("/api/account/export").json()["tables"]
        for name, rows in _kept_rows(mine, "shannon", 1).items():
            assert len(exported[name]) == len(rows), name
        assert [r["game_id"] for r in exported["arena_rated_games"]] == [gid]
        assert "other" not in json.dumps({k: v for k, v in exported.items() if "rated" not in k})
        r = client.request(
            "DELETE", "/api/account", json={"password": PASSWORD}, headers=_csrf(client)
        )
        assert r.status_code == 200
        with engine.connect() as conn:
            for name in _kept_rows(mine, "shannon", 1):
                left = json.dumps([list(x) for x in conn.execute(tables[name].select())])
                assert mine not in left.replace(other, ""), name  # mine gone
                assert other in left, name  # the other player's kept
            seats = conn.execute(
                text("SELECT seats FROM arena_rated_games WHERE game_id = :g"), {"g": gid}
            ).scalar()
        assert json.loads(seats) == {"0": ["", db.DELETED_NAME], "1": [other, "other"]}


def test_export_gives_the_account_and_its_games_never_the_hash(client: TestClient) -> None:
    assert client.get("/api/account/export").status_code == 401
    _signup(client, "lovelace")
    gid = client.post(
        "/api/matches", json={"game": "tic-tac-sudoku", "mode": "hotseat"}, headers=_csrf(client)
    ).json()["id"]
    me = client.get("/api/account").json()["id"]
    engine = client.app.state.arena.storage.engine  # type: ignore[attr-defined]
    with engine.begin() as conn:  # a rating another feature keeps for the account
        conn.execute(
            text(
                "INSERT INTO arena_ratings (player, game, name, mu, sigma, games, updated)"
                " VALUES (:p, 'tic-tac-sudoku', 'lovelace', 25.0, 8.0, 1, 1.0)"
            ),
            {"p": f"account:{me}"},
        )
    r = client.get("/api/account/export")
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    data = r.json()
    assert data["account"]["name"] == "lovelace"
    assert [(g["id"], g["seat"]) for g in data["games"]] == [(gid, 0), (gid, 1)]
    assert [row["player"] for row in data["tables"]["arena_ratings"]] == [f"account:{me}"]
    assert "argon2" not in r.text and "password" not in r.text


def test_a_guests_games_join_the_account_made_in_the_same_browser(client: TestClient) -> None:
    device = "this-browser-device-token"
    made = client.post("/api/matches", json={"game": "tic-tac-sudoku"}).json()
    gid, token = made["id"], made["seats"][0]["token"]
    claim = client.post(f"/api/matches/{gid}/claim", json={"token": token, "device": device})
    assert claim.status_code == 200
    joined = _signup(client, "guest2member", device=device)
    assert joined["linked_seats"] == 1
    engine = client.app.state.arena.storage.engine  # type: ignore[attr-defined]
    me = client.get("/api/account").json()["id"]
    assert db.seat_accounts(engine, gid) == {0: me}
    # Signing in again from there links nothing twice.
    client.post("/api/account/signout", json={}, headers=_csrf(client))
    again = client.post(
        "/api/account/signin", json={"name": "guest2member", "password": PASSWORD, "device": device}
    )
    assert again.json()["linked_seats"] == 0 and db.seat_accounts(engine, gid) == {0: me}


def test_passwords_are_stored_as_argon2id_hashes(client: TestClient) -> None:
    _signup(client, "knuth")
    engine = client.app.state.arena.storage.engine  # type: ignore[attr-defined]
    row = db.account_by_name(engine, "knuth")
    assert row is not None and row.password_hash.startswith("$argon2id$")
    assert PASSWORD not in row.password_hash
    with engine.connect() as conn:
        ids = list(conn.execute(text("SELECT id FROM arena_web_sessions")).scalars())
    assert ids and client.cookies["session"] not in ids  # only the secret's SHA-256


def test_a_database_at_0007_with_games_upgrades_keeping_them(tmp_path: Path) -> None:
    from alembic import command
    from alembic.config import Config

    from sudoku_arena.server import migrations

    url = f"sqlite:///{tmp_path}/old.sqlite3"
    engine = create_engine(url)
    with engine.begin() as conn:
        cfg = Config()
        cfg.set_main_option("script_location", str(migrations.HERE))
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0007")
        conn.execute(
            text(
                "INSERT INTO arena_games (id, game, game_version, params, seed, players, mode,"
                " status, created, updated, visibility) VALUES ('old1', 'tic-tac-sudoku', '1',"
                " '{}', 7, '[\"a\", \"b\"]', 'invite', 'finished', 1.0, 2.0, 'private')"
            )
        )
    engine.dispose()
    with TestClient(_app(url)) as c:  # the server upgrades every head at start
        eng = c.app.state.arena.storage.engine  # type: ignore[attr-defined]
        with eng.connect() as conn:
            assert conn.execute(text("SELECT id FROM arena_games")).scalars().all() == ["old1"]
            assert conn.execute(text("SELECT count(*) FROM arena_accounts")).scalar() == 0
        _signup(c, "newcomer")
