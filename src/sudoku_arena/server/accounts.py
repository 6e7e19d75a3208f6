"""Optional accounts: sign up, sign in and out, change the password, delete the account
and export one's data; the session cookie and CSRF protection.

Playing needs no account: a guest plays with seat links exactly as before. An account
is a user name (:data:`~sudoku_arena.server.db.accounts.NAME_RULE`) and a password,
hashed with argon2id (argon2-cffi's :class:`~argon2.PasswordHasher`, rehashed when its
parameters change). Games a guest played in this browser (the seats its device token
holds) join the account when it is made or signed into from it.

**Sessions** are rows of ``arena_web_sessions`` (any process of a fleet knows them).
The browser keeps a random secret in the ``session`` cookie (HttpOnly, SameSite=Lax,
Secure over https, Path=/); the database keeps only its SHA-256. Signing in or up
always makes a new session (the old one is removed): a session id planted before
sign-in is worthless after it. Signing out removes the row; changing the password
removes every other session of the account.

**CSRF** (synchronizer token): each session has a random token, stored with it. The
page reads it from the ``csrf`` cookie (readable by script, useless to another site,
which can neither read it nor set it) or from ``GET /api/account``, and sends it back
as the ``X-CSRF-Token`` header. :class:`CsrfGuard` refuses (403 ``csrf_failed``) every
POST, PUT, PATCH and DELETE that carries a live session cookie without the session's
token. A request without a session cookie carries no authority a forger could borrow
(seat tokens travel in the body or a header, which another site cannot read), so guests
and API clients work unchanged. The JSON-only bodies add a second wall: a form posted
from another site cannot send ``application/json``.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import hmac
import json
import secrets
import time
from dataclasses import dataclass, replace
from http.cookies import SimpleCookie
from typing import Annotated

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from fastapi import Depends, FastAPI, Request, Response
from pydantic import AfterValidator, BaseModel, ConfigDict, Field
from sqlalchemy import Engine
from starlette.applications import Starlette
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from sudoku_arena.core.types import JsonDict
from sudoku_arena.server.db import accounts as db
from sudoku_arena.server.db.engine import Storage
from sudoku_arena.server.errors import ApiError, error_body
from sudoku_arena.server.limits import RateLimits, TooManyRequests
from sudoku_arena.server.live import LiveGame
from sudoku_arena.server.openapi import documented
from sudoku_arena.server.seating import Seating
from sudoku_arena.server.security import client_ip
from sudoku_arena.server.sessions import SessionCache

SESSION_COOKIE = "session"
CSRF_COOKIE = "csrf"
CSRF_HEADER = "x-csrf-token"
_UNSAFE = {"POST", "PUT", "PATCH", "DELETE"}
#: Wrong passwords (for a name or from an address) after which each refusal waits.
SLOW_AFTER = 3

HASHER = PasswordHasher()  # argon2id, the library's current recommended parameters


@functools.cache
def _dummy_hash() -> str:
    """Checked against when the name is unknown, so a refusal takes as long either way.
    Made on first use, not on import: a hash is 0.2 s of every start otherwise."""
    return HASHER.hash(secrets.token_urlsafe(16))


#: How a refusal waits (the tests count the waits instead).
_pause = asyncio.sleep


@dataclass(frozen=True, slots=True)
class Account:
    """A signed-in person: the account's id and user name."""

    id: int
    name: str


# -- bodies -----------------------------------------------------------------------------------


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


PASSWORD = Field(min_length=8, max_length=200, description="8 to 200 characters")


def _user_name(value: str) -> str:
    try:
        return db.check_name(value)
    except db.NameRefused:
        raise ValueError(f"{value[:40]!r} is not allowed; a user name is {db.NAME_RULE}") from None


#: A new account's name: the document states the pattern, the refusal says it in words.
UserName = Annotated[
    str,
    AfterValidator(_user_name),
    Field(description=db.NAME_RULE, json_schema_extra={"pattern": db.NAME_PATTERN}),
]


class Credentials(_Strict):
    """Sign-in: any name is looked up (a wrong one is a wrong name or password)."""

    name: str = Field(min_length=1, max_length=40, description="the account's user name")
    password: str = Field(min_length=1, max_length=200)
    device: str | None = Field(
        default=None,
        min_length=8,
        max_length=100,
        description="this browser's device token: the seats it holds join the account",
    )


class SignUp(Credentials):
    name: UserName  # narrower than a sign-in's name
    password: str = PASSWORD


class PasswordChange(_Strict):
    old_password: str = Field(min_length=1, max_length=200)
    new_password: str = PASSWORD


class DeleteRequest(_Strict):
    password: str = Field(min_length=1, max_length=200, description="the password, to confirm")


class SignOut(_Strict):
    """An empty object: nothing to say to sign out."""


class AccountInfo(BaseModel):
    signed_in: bool
    id: int | None = None
    name: str | None = None
    csrf: str | None = Field(default=None, description="send as X-CSRF-Token on changes")
    linked_seats: int = Field(default=0, description="a guest's seats joined just now")


# -- sessions ---------------------------------------------------------------------------------


def engine_of(request: Request) -> Engine:
    engine: Engine = request.app.state.arena.storage.engine
    return engine


def limits_of(request: Request) -> RateLimits:
    found = getattr(request.app.state, "limits", None)
    return found if isinstance(found, RateLimits) else RateLimits(enabled=False)


def _hash(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8", "replace")).hexdigest()


def _cookie_secret(scope: Scope) -> str | None:
    for name, value in scope.get("headers", []):
        if name == b"cookie":
            jar: SimpleCookie = SimpleCookie()
            try:
                jar.load(value.decode("latin-1"))
            except Exception:  # a malformed header is a request without cookies
                return None
            found = jar.get(SESSION_COOKIE)
            if found is not None and 0 < len(found.value) <= 100:
                return found.value
    return None


def _sessions(scope: Scope) -> SessionCache:
    cache: SessionCache = scope["app"].state.arena.sessions
    return cache


def _live_session(engine: Engine, session_id: str) -> db.SessionRow | None:
    """The live session ``session_id`` from the database (blocking: call from a thread)."""
    return db.load_session(engine, session_id, time.time())


async def _read_session(cache: SessionCache, engine: Engine, secret: str) -> db.SessionRow | None:
    """The live session of the cookie ``secret``, kept a few seconds by this process
    (:mod:`~sudoku_arena.server.sessions`)."""
    session_id = _hash(secret)
    found = cache.get(session_id)
    if found is not None:
        return found
    epoch = cache.epoch
    session = await asyncio.to_thread(_live_session, engine, session_id)
    if session is not None:
        cache.keep(session, epoch)
    return session


async def _session_in(scope: Scope, engine: Engine) -> db.SessionRow | None:
    """The live session of the request's cookie, looked up once per request."""
    state = scope.setdefault("state", {})
    if "arena_session" not in state:
        secret = _cookie_secret(scope)
        state["arena_session"] = (
            None if secret is None else await _read_session(_sessions(scope), engine, secret)
        )
    found: db.SessionRow | None = state["arena_session"]
    return found


async def current_account(request: Request) -> Account | None:
    """The signed-in account of the request (``None``: a guest)."""
    state = request.scope.setdefault("state", {})
    if "arena_account" not in state:
        session = await _session_in(request.scope, engine_of(request))
        state["arena_account"] = (
            None
            if session is None or session.account_id is None or session.account_name is None
            else Account(session.account_id, session.account_name)
        )
    found: Account | None = state["arena_account"]
    return found


async def require_account(request: Request) -> Account:
    """The signed-in account; 401 ``sign_in_required`` for a guest."""
    account = await current_account(request)
    if account is None:
        raise ApiError(401, "sign_in_required", "sign in first (POST /api/account/signin)")
    return account


class CsrfGuard:
    """ASGI middleware: a state-changing request with a live session cookie must carry
    that session's CSRF token in ``X-CSRF-Token`` (403 ``csrf_failed`` otherwise)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] in _UNSAFE:
            engine: Engine = scope["app"].state.arena.storage.engine
            session = await _session_in(scope, engine)
            if session is not None:
                given = ""
                for name, value in scope.get("headers", []):
                    if name == CSRF_HEADER.encode():
                        given = value.decode("latin-1")
                if not hmac.compare_digest(given.encode(), session.csrf.encode()):
                    refusal = JSONResponse(
                        error_body(
                            "csrf_failed",
                            "this browser is signed in: a change needs the X-CSRF-Token "
                            "header with the session's token (GET /api/account gives it)",
                        ),
                        status_code=403,
                    )
                    await refusal(scope, receive, send)
                    return
        await self.app(scope, receive, send)


def _set_cookies(request: Request, response: Response, secret: str, csrf: str) -> None:
    secure = request.url.scheme == "https"
    age = int(db.SESSION_SECONDS)
    response.set_cookie(
        SESSION_COOKIE, secret, max_age=age, path="/", httponly=True, samesite="lax", secure=secure
    )
    response.set_cookie(
        CSRF_COOKIE, csrf, max_age=age, path="/", httponly=False, samesite="lax", secure=secure
    )


def _clear_cookies(request: Request, response: Response) -> None:
    secure = request.url.scheme == "https"
    for name, http_only in ((SESSION_COOKIE, True), (CSRF_COOKIE, False)):
        response.delete_cookie(name, path="/", httponly=http_only, samesite="lax", secure=secure)


async def _start_session(
    request: Request, response: Response, account: db.AccountRow
) -> tuple[str, str]:
    """A new session for ``account`` (the request's old one removed): its CSRF token
    and its id."""
    engine = engine_of(request)
    old = await _session_in(request.scope, engine)
    if old is not None:
        await asyncio.to_thread(db.delete_session, engine, old.id)
        _sessions(request.scope).ended([old.id])
    # Sign-ins are rare enough to sweep the expired sessions (an indexed delete).
    await asyncio.to_thread(db.delete_expired_sessions, engine, time.time())
    secret, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
    session_id = _hash(secret)
    await asyncio.to_thread(db.create_session, engine, session_id, account.id, csrf, time.time())
    _set_cookies(request, response, secret, csrf)
    return csrf, session_id


def _seating(request: Request) -> Seating:
    seating: Seating = request.app.state.arena.seating
    return seating


def _games_in_memory(request: Request) -> dict[str, LiveGame]:
    games: dict[str, LiveGame] = request.app.state.arena.games
    return games


async def _link_device(request: Request, account_id: int, device: str | None) -> int:
    if device is None:
        return 0
    linked: int = await asyncio.to_thread(
        db.link_device_seats, engine_of(request), account_id, _hash(device)
    )
    if linked:  # seats of any game: the games held here read their links again
        Seating.forget_owners(_games_in_memory(request).values())
    return linked


def _verify(stored: str | None, password: str) -> bool:
    """Whether ``password`` matches the ``stored`` hash (blocking); None (no such
    account) is checked against a dummy hash and is never a match."""
    try:
        return HASHER.verify(stored or _dummy_hash(), password) and stored is not None
    except (VerificationError, InvalidHashError):
        return False


async def check_seat(
    request: Request, game_id: str, seats: list[int], lg: LiveGame | None = None
) -> None:
    """Refuse (403 ``seat_of_another_account``) a request signed in as one account for a
    seat linked to another. Guests (seat token alone) are not asked. With ``lg`` (the
    game, open here) its links are taken as this process keeps them."""
    account = await current_account(request)
    if account is None:
        return
    if lg is not None:
        owners = await _seating(request).owners(lg)
    else:
        owners = await asyncio.to_thread(db.seat_accounts, engine_of(request), game_id)
    for seat in seats:
        owner = owners.get(seat)
        if owner is not None and owner != account.id:
            raise ApiError(
                403,
                "seat_of_another_account",
                f"seat {seat + 1} belongs to another account; sign in as that account to play it",
            )


async def seat_by_token(request: Request, lg: LiveGame, token: object) -> int:
    """The seat of ``lg`` that ``token`` names, for every route that takes a seat's
    token: 403 ``bad_token`` when it names none, 403 ``seat_of_another_account`` when
    the request is signed in as an account other than the one holding the seat
    (:func:`check_seat`; a guest's token alone is enough, as always)."""
    seat = lg.seat_for_token(token) if isinstance(token, str) and 0 < len(token) <= 100 else None
    if seat is None:
        raise ApiError(403, "bad_token", "that token does not belong to a seat of this game")
    await check_seat(request, lg.id, [seat], lg)
    return seat


async def link_seats(request: Request, game_id: str, seats: list[int]) -> None:
    """Link ``seats`` of ``game_id`` to the signed-in account, if any (a seat already
    linked to an account stays with it)."""
    account = await current_account(request)
    if account is not None and seats:
        storage: Storage = request.app.state.arena.storage
        await storage.write(db.LinkSeats(account.id, tuple((game_id, s) for s in seats)))
        lg = _games_in_memory(request).get(game_id)
        if lg is not None:
            Seating.linked(lg, account.id, seats)


# -- routes -----------------------------------------------------------------------------------

Signed = Annotated[Account, Depends(require_account)]


def _info(account: db.AccountRow | Account, csrf: str, linked: int = 0) -> AccountInfo:
    return AccountInfo(
        signed_in=True, id=account.id, name=account.name, csrf=csrf, linked_seats=linked
    )


async def who_am_i(request: Request) -> AccountInfo:
    """The signed-in account and the session's CSRF token, or ``signed_in: false``."""
    account = await current_account(request)
    session = await _session_in(request.scope, engine_of(request))
    if account is None or session is None:
        return AccountInfo(signed_in=False)
    return _info(account, session.csrf)


async def signup(body: SignUp, request: Request, response: Response) -> AccountInfo:
    """Make an account and sign in; the seats this browser holds (``device``) join it."""
    limits_of(request).hit("signup", f"ip:{client_ip(request)}")
    hashed = await asyncio.to_thread(HASHER.hash, body.password)
    try:
        row = await asyncio.to_thread(
            db.create_account, engine_of(request), body.name, hashed, time.time()
        )
    except db.NameRefused as exc:
        raise ApiError(409, "name_taken", str(exc)) from None
    csrf, _ = await _start_session(request, response, row)
    return _info(row, csrf, await _link_device(request, row.id, body.device))


async def signin(body: Credentials, request: Request, response: Response) -> AccountInfo:
    """Sign in (a new session); the seats this browser holds (``device``) join the
    account. Wrong passwords are limited per name and per address, and answered more
    slowly as they repeat."""
    limits = limits_of(request)
    ip_key, name_key = f"ip:{client_ip(request)}", f"name:{body.name.lower()}"
    limits.hit("signin", ip_key)
    limits.check("signin_fail", name_key)  # before the password is looked at
    limits.check("signin_fail", ip_key)
    engine = engine_of(request)
    row = await asyncio.to_thread(db.account_by_name, engine, body.name)
    stored = row.password_hash if row is not None else None
    ok = await asyncio.to_thread(_verify, stored, body.password)
    if row is None or not ok:
        limits.hit("signin_fail", name_key)
        limits.hit("signin_fail", ip_key)
        failures = max(limits.used("signin_fail", name_key), limits.used("signin_fail", ip_key))
        if failures > SLOW_AFTER:  # each failure in a row waits longer
            slow: float = request.app.state.signin_slowdown
            await _pause(min(slow * 2 ** (failures - SLOW_AFTER - 1), slow * 8))
        raise ApiError(401, "bad_credentials", "wrong user name or password")
    if HASHER.check_needs_rehash(row.password_hash):
        rehashed = await asyncio.to_thread(HASHER.hash, body.password)
        await asyncio.to_thread(db.set_password_hash, engine, row.id, rehashed)
    csrf, _ = await _start_session(request, response, row)
    return _info(row, csrf, await _link_device(request, row.id, body.device))


async def signout(_body: SignOut, request: Request, response: Response) -> AccountInfo:
    """Sign out: the session is removed and its cookies cleared."""
    session = await _session_in(request.scope, engine_of(request))
    if session is not None:
        await asyncio.to_thread(db.delete_session, engine_of(request), session.id)
        _sessions(request.scope).ended([session.id])
    _clear_cookies(request, response)
    return AccountInfo(signed_in=False)


async def change_password(
    body: PasswordChange, account: Signed, request: Request, response: Response
) -> AccountInfo:
    """A new password (the old one to confirm): every other session is signed out, and
    this one gets a new id."""
    engine = engine_of(request)
    row = await asyncio.to_thread(db.account_by_id, engine, account.id)
    if row is None or not await asyncio.to_thread(_verify, row.password_hash, body.old_password):
        raise ApiError(401, "bad_credentials", "old_password: that is not the password")
    hashed = await asyncio.to_thread(HASHER.hash, body.new_password)
    await asyncio.to_thread(db.set_password_hash, engine, row.id, hashed)
    csrf, session_id = await _start_session(request, response, row)
    await asyncio.to_thread(db.delete_sessions_of, engine, row.id, session_id)
    _sessions(request.scope).ended_of(row.id, keep=session_id)
    return _info(row, csrf)


async def delete_account(
    body: DeleteRequest, account: Signed, request: Request, response: Response
) -> AccountInfo:
    """Delete the account (the password to confirm), with everything kept for it: its
    ratings and their history, seeks, challenges, push subscriptions and alert settings
    (what the export lists). Its games stay, its seats named "deleted player"; every
    session of it ends."""
    engine = engine_of(request)
    row = await asyncio.to_thread(db.account_by_id, engine, account.id)
    if row is None or not await asyncio.to_thread(_verify, row.password_hash, body.password):
        raise ApiError(401, "bad_credentials", "password: that is not the password")
    renamed = await asyncio.to_thread(db.delete_account, engine, row.id)
    _sessions(request.scope).ended_of(row.id)
    _rename_in_memory(request, renamed)
    _clear_cookies(request, response)
    return AccountInfo(signed_in=False)


def _rename_in_memory(request: Request, seats: list[tuple[str, int]]) -> None:
    """The deleted account's seats in the games this process holds open get the new
    name at once (the database has it already; other processes of a fleet read it
    when they next open the game)."""
    games = _games_in_memory(request)
    Seating.forget_owners(games[g] for g, _ in seats if g in games)  # its links are gone
    for game_id, seat in seats:
        lg = games.get(game_id)
        if lg is None or not 0 <= seat < len(lg.seats):
            continue
        lg.seats[seat] = replace(lg.seats[seat], name=db.DELETED_NAME)
        names = list(lg.match.players)
        names[seat] = db.DELETED_NAME
        lg.match.players = tuple(names)


async def export(account: Signed, request: Request, response: Response) -> JsonDict:
    """Everything kept about the account, as JSON: the account, its games and seats,
    and rows other features keep for it (ratings...). Never the password's hash."""
    response.headers["content-disposition"] = (
        f'attachment; filename="sudoku-arena-{account.name}.json"'
    )
    return await asyncio.to_thread(db.export, engine_of(request), account.id)


# -- WebSocket connections ------------------------------------------------------------------


async def socket_gate(app: Starlette, scope: Scope, receive: Receive, send: Send) -> bool:
    """Before a WebSocket connection is served: counts it against the ``socket`` limit
    of its address. Answers whether the connection was refused: with HTTP 429 and
    Retry-After where the server can say so (the ASGI denial-response extension), else
    closed with 1008 before it opened. (Its account is read when its hello names seats:
    :func:`foreign_seats`.)"""
    limits = getattr(app.state, "limits", None)
    try:
        if isinstance(limits, RateLimits):
            limits.hit("socket", f"ip:{client_ip(scope)}")
    except TooManyRequests as exc:
        await receive()  # the handshake's websocket.connect
        if "websocket.http.response" in scope.get("extensions", {}):
            body = json.dumps(
                error_body("too_many_requests", f"{exc}; connections are limited per address")
            ).encode()
            headers = [
                (b"content-type", b"application/json"),
                (b"retry-after", str(exc.retry_after).encode()),
            ]
            await send({"type": "websocket.http.response.start", "status": 429, "headers": headers})
            await send({"type": "websocket.http.response.body", "body": body})
        else:
            await send({"type": "websocket.close", "code": 1008, "reason": "too many connections"})
        return True
    return False


async def foreign_seats(
    scope: Scope, sessions: SessionCache, engine: Engine, seating: Seating, lg: LiveGame
) -> set[int]:
    """The seats of ``lg`` linked to an account other than the one the socket's session
    cookie signs in (none for a guest: seat tokens alone keep working)."""
    secret = _cookie_secret(scope)
    if secret is None:
        return set()
    session = await _read_session(sessions, engine, secret)
    if session is None or session.account_id is None:
        return set()
    owners = await seating.owners(lg)
    return {seat for seat, owner in owners.items() if owner != session.account_id}


def add_accounts(app: FastAPI) -> None:
    """Adds the account's routes (``/api/account...``) to ``app``."""
    app.add_api_route("/api/account", who_am_i, methods=["GET"])
    app.add_api_route(
        "/api/account/signup",
        signup,
        methods=["POST"],
        status_code=201,
        responses=documented(400, 409, 413, 429),
    )
    app.add_api_route(
        "/api/account/signin", signin, methods=["POST"], responses=documented(400, 401, 413, 429)
    )
    app.add_api_route(
        "/api/account/signout", signout, methods=["POST"], responses=documented(400, 403)
    )
    app.add_api_route(
        "/api/account/password",
        change_password,
        methods=["POST"],
        responses=documented(400, 401, 403, 413),
    )
    app.add_api_route(
        "/api/account", delete_account, methods=["DELETE"], responses=documented(400, 401, 403, 413)
    )
    app.add_api_route("/api/account/export", export, methods=["GET"], responses=documented(401))
