"""Security at the HTTP layer, each test failing on a naive build: wrong passwords in a
row are refused with 429 (and answered ever more slowly), a signed-in browser's change
without its CSRF token is refused, user text is never markup and the pages' policy
forbids inline script, the session cookie is HttpOnly, SameSite and new at each sign-in,
an account cannot act in another account's seat, and a flood of new games from one
address gets 429 while everybody else plays on."""

from __future__ import annotations

import re
from collections.abc import Iterator
from importlib import resources
from typing import Any

import pytest
from fastapi.testclient import TestClient

from sudoku_arena.server import ServerConfig, create_app
from sudoku_arena.server import accounts as accounts_module
from sudoku_arena.server.limits import RULES

PASSWORD = "a long enough secret"
XSS = "<img src=x onerror=alert(1)>"


@pytest.fixture
def app(sqlite_url: str) -> Iterator[Any]:
    cfg = ServerConfig(
        database_url=sqlite_url, bot_workers=0, bot_delay=0.0, analysis=False, signin_slowdown=0.0
    )
    application = create_app(cfg)
    with TestClient(application):  # runs the start-up once for every client below
        yield application


def _client(app: Any, ip: str) -> TestClient:
    return TestClient(app, client=(ip, 40000))


def _signup(c: TestClient, name: str) -> dict[str, str]:
    r = c.post("/api/account/signup", json={"name": name, "password": PASSWORD})
    assert r.status_code == 201, r.text
    return {"x-csrf-token": r.json()["csrf"]}


def test_twenty_wrong_passwords_in_a_row_get_429(app: Any, monkeypatch: Any) -> None:
    c = _client(app, "10.0.0.1")
    _signup(c, "victim")
    c.cookies.clear()
    waits: list[float] = []

    async def no_wait(seconds: float) -> None:
        waits.append(seconds)

    monkeypatch.setattr(accounts_module, "_pause", no_wait)
    app.state.signin_slowdown = 0.25
    answers = [
        c.post("/api/account/signin", json={"name": "victim", "password": f"guess {i:04}"})
        for i in range(20)
    ]
    codes = [r.status_code for r in answers]
    assert codes[0] == 401 and codes[-1] == 429, codes
    limited = [r for r in answers if r.status_code == 429]
    assert len(limited) >= 10
    assert all(int(r.headers["retry-after"]) > 0 for r in limited)
    assert limited[0].json()["error"]["code"] == "too_many_requests"
    # Repeated failures were answered more and more slowly, up to a cap.
    assert waits == sorted(waits) and waits[0] < waits[-1] <= 0.25 * 8
    # Locked: even the right password waits (the name is limited, from any address).
    right = _client(app, "10.0.0.2").post(
        "/api/account/signin", json={"name": "victim", "password": PASSWORD}
    )
    assert right.status_code == 429
    # Another account is not locked by that.
    other = _client(app, "10.0.0.3")
    _signup(other, "bystander")


def test_a_change_without_the_csrf_token_is_refused(app: Any) -> None:
    c = _client(app, "10.0.1.1")
    token = _signup(c, "careful")
    game = {"game": "tic-tac-sudoku"}
    refused = c.post("/api/matches", json=game)
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "csrf_failed"
    wrong = c.post("/api/matches", json=game, headers={"x-csrf-token": "x" * 43})
    assert wrong.status_code == 403
    body = {"old_password": PASSWORD, "new_password": "changed by a forger"}
    assert c.post("/api/account/password", json=body).status_code == 403
    assert c.request("DELETE", "/api/account", json={"password": PASSWORD}).status_code == 403
    assert c.post("/api/account/signout", json={}).status_code == 403
    assert c.get("/api/account").json()["name"] == "careful"  # nothing changed
    assert c.post("/api/matches", json=game, headers=token).status_code == 201
    # A guest (no session cookie) needs no token: API clients and seat links as before.
    guest = _client(app, "10.0.1.2")
    made = guest.post("/api/matches", json=game)
    assert made.status_code == 201


def test_user_text_is_never_markup_and_the_policy_forbids_inline_script(app: Any) -> None:
    c = _client(app, "10.0.2.1")
    r = c.post("/api/account/signup", json={"name": XSS, "password": PASSWORD})
    assert r.status_code == 400  # names are letters, digits, _ and -
    made = c.post("/api/matches", json={"game": "tic-tac-sudoku", "seats": [{"name": XSS}, {}]})
    gid = made.json()["id"]
    state = c.get(f"/api/matches/{gid}/state").json()
    assert "<img" not in state["svg"] and "<img" not in state["panel"]  # drawn as text
    for path in ("/", f"/play/{gid}", "/account", "/api/games", "/nowhere", "/static/arena.js"):
        policy = c.get(path).headers["content-security-policy"]
        script = re.search(r"script-src ([^;]*)", policy)
        assert script and script.group(1).split() == ["'self'"], (path, policy)
        assert "object-src 'none'" in policy and "frame-ancestors 'none'" in policy
    # Only the API's documentation page (no user text on it) runs an inline script.
    docs = c.get("/api/docs")
    assert docs.status_code == 200 and "'unsafe-inline'" in docs.headers["content-security-policy"]
    headers = c.get("/").headers
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["x-frame-options"] == "DENY" and headers["referrer-policy"] == "no-referrer"
    # The pages themselves have no inline script the policy would have to allow.
    web = resources.files("sudoku_arena.web")
    for page in (f for f in web.iterdir() if f.name.endswith(".html")):
        for tag in re.findall(r"<script\b[^>]*>", page.read_text(encoding="utf-8")):
            assert "src=" in tag, (page.name, tag)
        assert not re.search(r"\son[a-z]+=", page.read_text(encoding="utf-8")), page.name


def test_the_session_cookie_is_httponly_samesite_and_new_at_each_sign_in(app: Any) -> None:
    c = _client(app, "10.0.3.1")
    planted = {"cookie": "session=planted-by-somebody-else"}  # a fixation attempt
    r = c.post(
        "/api/account/signup", json={"name": "cookie", "password": PASSWORD}, headers=planted
    )
    cookies = r.headers.get_list("set-cookie")
    session = next(h for h in cookies if h.startswith("session="))
    assert "HttpOnly" in session and "samesite=lax" in session.lower() and "Path=/" in session
    first = c.cookies["session"]
    assert first != "planted-by-somebody-else"
    csrf = next(h for h in cookies if h.startswith("csrf="))
    assert "HttpOnly" not in csrf  # the page reads it to send it back
    again = c.post(
        "/api/account/signin",
        json={"name": "cookie", "password": PASSWORD},
        headers={"x-csrf-token": r.json()["csrf"]},
    )
    assert again.status_code == 200
    second = c.cookies["session"]
    assert second != first
    stale = _client(app, "10.0.3.2")  # the old session ended with the sign-in
    assert stale.get("/api/account", headers={"cookie": f"session={first}"}).json() == {
        "signed_in": False,
        "id": None,
        "name": None,
        "csrf": None,
        "linked_seats": 0,
    }
    now = stale.get("/api/account", headers={"cookie": f"session={second}"}).json()
    assert now["name"] == "cookie"


def test_one_account_cannot_act_in_another_accounts_seat(app: Any) -> None:
    alice, bob = _client(app, "10.0.4.1"), _client(app, "10.0.4.2")
    a_csrf, b_csrf = _signup(alice, "alice"), _signup(bob, "bob")
    made = alice.post("/api/matches", json={"game": "tic-tac-sudoku"}, headers=a_csrf).json()
    gid, token = made["id"], made["seats"][0]["token"]
    move = alice.get(f"/api/matches/{gid}/state", headers={"authorization": f"Bearer {token}"})
    legal = move.json()["view"]["legal"]
    body = {"token": token, "ply": 0, "action": legal[0]}
    stolen = bob.post(f"/api/matches/{gid}/actions", json=body, headers=b_csrf)
    assert stolen.status_code == 403
    assert stolen.json()["error"]["code"] == "seat_of_another_account"
    assert stolen.json()["error"]["message"].startswith("seat 1 belongs")  # counted from 1
    claim = bob.post(
        f"/api/matches/{gid}/claim", json={"token": token, "device": "bob-device-1"}, headers=b_csrf
    )
    assert claim.status_code == 403
    assert alice.get(f"/api/matches/{gid}").json()["ply"] == 0  # nothing happened
    mine = alice.post(f"/api/matches/{gid}/actions", json=body, headers=a_csrf)
    assert mine.status_code == 200


def test_no_route_taking_a_seat_token_serves_another_accounts_seat(app: Any) -> None:
    """Every route a seat's token opens (read, rematch, chance, invites, the coach,
    alerts) refuses a browser signed in as another account; the holder and a guest with
    the token are served as before."""
    alice, bob = _client(app, "10.0.4.3"), _client(app, "10.0.4.4")
    a_csrf, b_csrf = _signup(alice, "alice2"), _signup(bob, "bob2")
    made = alice.post(
        "/api/matches", json={"game": "tic-tac-sudoku", "coach": True}, headers=a_csrf
    ).json()
    gid, token = made["id"], made["seats"][0]["token"]
    bearer = {"authorization": f"Bearer {token}"}
    push = {"endpoint": "https://push.example.org/x", "keys": {"p256dh": "k" * 20, "auth": "a" * 8}}
    tried = [
        bob.get(f"/api/matches/{gid}/state", headers=bearer | b_csrf),
        bob.post(f"/api/matches/{gid}/rematch", json={"token": token}, headers=b_csrf),
        bob.post(f"/api/matches/{gid}/rematch", json={"tokens": [token]}, headers=b_csrf),
        bob.post(
            f"/api/matches/{gid}/client-seed",
            json={"token": token, "client_seed": "bobs"},
            headers=b_csrf,
        ),
        bob.post(f"/api/matches/{gid}/seats/1/invite", json={"token": token}, headers=b_csrf),
        bob.post(f"/api/matches/{gid}/hint", json={"token": token}, headers=b_csrf),
        bob.post(
            f"/api/matches/{gid}/coach/answer", json={"token": token, "agree": True}, headers=b_csrf
        ),
        bob.post(
            "/api/push/subscribe",
            json={"subscription": push, "game_id": gid, "token": token},
            headers=b_csrf,
        ),
        bob.request(
            "DELETE",
            "/api/push/subscribe",
            json={"endpoint": push["endpoint"], "game_id": gid, "token": token},
            headers=b_csrf,
        ),
    ]
    for r in tried:
        assert r.status_code == 403, (r.request.url, r.text)
        assert r.json()["error"]["code"] == "seat_of_another_account", r.request.url
    # Nothing changed: no chance of Bob's, the invite link unchanged.
    record = alice.get(f"/api/matches/{gid}/record").json()
    assert "bobs" not in str(record)
    assert alice.get(f"/api/matches/{gid}/state", headers=bearer).status_code == 200
    guest = _client(app, "10.0.4.5")  # no account: the token alone, as ever
    assert guest.get(f"/api/matches/{gid}/state", headers=bearer).status_code == 200
    seed = {"token": token, "client_seed": "alices"}
    assert alice.post(f"/api/matches/{gid}/client-seed", json=seed, headers=a_csrf).is_success


def test_links_made_away_from_the_game_count_at_once_in_the_process_keeping_it(
    app: Any,
) -> None:
    """A process alone keeps each game's seat links in memory. Links made away from the
    game's own requests reach it too: a guest's seat joining the account made in that
    browser is refused to another account at once, and a deleted account's seat is
    nobody's any more (as the database says)."""
    guest, carol = _client(app, "10.0.4.5"), _client(app, "10.0.4.6")
    c_csrf = _signup(carol, "carol")
    made = guest.post("/api/matches", json={"game": "tic-tac-sudoku"}).json()
    gid, token = made["id"], made["seats"][0]["token"]
    device = "guest-device-to-join"
    claim = guest.post(f"/api/matches/{gid}/claim", json={"token": token, "device": device})
    assert claim.status_code == 200
    state = f"/api/matches/{gid}/state"
    bearer = {"authorization": f"Bearer {token}"}
    # Nobody's seat yet: not refused for its account, only because another device
    # holds it (checked after the account).
    first = carol.get(state, headers=bearer | c_csrf)
    assert first.status_code == 409 and first.json()["error"]["code"] == "seat_elsewhere"
    assert app.state.arena.games[gid].owners == {}  # the links, now known to this process
    joined = guest.post(
        "/api/account/signup", json={"name": "joiner", "password": PASSWORD, "device": device}
    )
    assert joined.status_code == 201 and joined.json()["linked_seats"] == 1
    refused = carol.get(state, headers=bearer | c_csrf)
    assert refused.status_code == 403
    assert refused.json()["error"]["code"] == "seat_of_another_account"
    gone = guest.request(
        "DELETE",
        "/api/account",
        json={"password": PASSWORD},
        headers={"x-csrf-token": joined.json()["csrf"]},
    )
    assert gone.status_code == 200, gone.text
    after = carol.get(state, headers=bearer | c_csrf)
    assert after.status_code == 409 and after.json()["error"]["code"] == "seat_elsewhere"


def test_a_flood_of_new_games_from_one_address_gets_429_others_play_on(app: Any) -> None:
    flood, other = _client(app, "10.0.5.1"), _client(app, "10.0.5.2")
    allowed = int(RULES["create"].split("/")[0])
    game = {"game": "tic-tac-sudoku", "mode": "hotseat"}
    first = flood.post("/api/matches", json=game).json()
    answers = [flood.post("/api/matches", json=game) for _ in range(allowed + 5)]
    codes = [r.status_code for r in answers]
    assert codes.count(201) == allowed - 1 and codes[-1] == 429
    assert int(answers[-1].headers["retry-after"]) > 0
    # The other address creates and plays; the flooder still plays the games it has.
    made = other.post("/api/matches", json=game)
    assert made.status_code == 201
    for c, g in ((other, made.json()), (flood, first)):
        token = g["seats"][0]["token"]
        state = c.get(
            f"/api/matches/{g['id']}/state", headers={"authorization": f"Bearer {token}"}
        ).json()
        act = {"token": token, "ply": 0, "action": state["view"]["legal"][0]}
        assert c.post(f"/api/matches/{g['id']}/actions", json=act).status_code == 200


def _until(ws: Any, kind: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The first message of type ``kind``, and the messages before it."""
    before: list[dict[str, Any]] = []
    for _ in range(20):
        message: dict[str, Any] = ws.receive_json()
        if message["type"] == kind:
            return message, before
        before.append(message)
    raise AssertionError(f"no {kind} message in {before}")


def test_a_flood_of_socket_connections_from_one_address_gets_429(sqlite_url: str) -> None:
    from starlette.testclient import WebSocketDenialResponse

    cfg = ServerConfig(
        database_url=sqlite_url,
        bot_workers=0,
        bot_delay=0.0,
        analysis=False,
        limit_rules={"socket": "3/minute"},
    )
    application = create_app(cfg)
    with TestClient(application):
        flood, other = _client(application, "10.0.6.1"), _client(application, "10.0.6.2")
        gid = flood.post("/api/matches", json={"game": "tic-tac-sudoku"}).json()["id"]
        for _ in range(3):
            with flood.websocket_connect(f"/ws/{gid}") as ws:
                ws.send_json({"type": "hello", "tokens": []})
                _until(ws, "welcome")
        with (
            pytest.raises(WebSocketDenialResponse) as refused,
            flood.websocket_connect(f"/ws/{gid}"),
        ):
            pass
        assert refused.value.status_code == 429
        assert int(refused.value.headers["retry-after"]) > 0
        with other.websocket_connect(f"/ws/{gid}") as ws:  # another address: served
            ws.send_json({"type": "hello", "tokens": []})
            _until(ws, "welcome")


def test_over_the_socket_an_account_cannot_take_another_accounts_seat(app: Any) -> None:
    alice, bob = _client(app, "10.0.7.1"), _client(app, "10.0.7.2")
    a_csrf, _ = _signup(alice, "alice7"), _signup(bob, "bob7")
    made = alice.post("/api/matches", json={"game": "tic-tac-sudoku"}, headers=a_csrf).json()
    gid, token = made["id"], made["seats"][0]["token"]
    with bob.websocket_connect(f"/ws/{gid}") as ws:
        ws.send_json({"type": "hello", "tokens": [token]})
        welcome, before = _until(ws, "welcome")
        assert [m["code"] for m in before if m["type"] == "error"] == ["seat_of_another_account"]
        assert welcome["seats"] == []  # watching only
    with alice.websocket_connect(f"/ws/{gid}") as ws:
        ws.send_json({"type": "hello", "tokens": [token]})
        assert _until(ws, "welcome")[0]["seats"] == [0]
    guest = _client(app, "10.0.7.3")  # a guest with the link: seat tokens keep working
    with guest.websocket_connect(f"/ws/{gid}") as ws:
        ws.send_json({"type": "hello", "tokens": [token]})
        assert _until(ws, "welcome")[0]["seats"] == [0]


def test_an_accounts_games_are_limited_from_every_address_together(app: Any) -> None:
    allowed = int(RULES["create"].split("/")[0])
    home, away = _client(app, "10.0.8.1"), _client(app, "10.0.8.2")
    csrf = _signup(home, "busy")
    signed = away.post("/api/account/signin", json={"name": "busy", "password": PASSWORD})
    away_csrf = {"x-csrf-token": signed.json()["csrf"]}
    game = {"game": "tic-tac-sudoku", "mode": "hotseat"}
    for i in range(allowed):
        c, h = (home, csrf) if i % 2 else (away, away_csrf)
        assert c.post("/api/matches", json=game, headers=h).status_code == 201
    assert home.post("/api/matches", json=game, headers=csrf).status_code == 429
    assert away.post("/api/matches", json=game, headers=away_csrf).status_code == 429


def test_the_session_cookie_is_secure_over_https(app: Any) -> None:
    c = TestClient(app, base_url="https://testserver", client=("10.0.9.1", 40000))
    r = c.post("/api/account/signup", json={"name": "secure", "password": PASSWORD})
    for header in r.headers.get_list("set-cookie"):
        assert "Secure" in header, header
    plain = _client(app, "10.0.9.2")
    r = plain.post("/api/account/signup", json={"name": "plain", "password": PASSWORD})
    assert all("Secure" not in h for h in r.headers.get_list("set-cookie"))
