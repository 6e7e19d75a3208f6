"""Alerts that it is your turn: Web Push (and, if configured, e-mail) to a player whose turn came.

The arena publishes :class:`~sudoku_arena.server.events.MoveCommitted` once per fleet,
in the process that stored the move; :meth:`Alerts.on_event` listens. For each person
now to move (not the one who just moved, not a bot, invite games only) it alerts:

* in a correspondence game (days per move), always: the player is probably not looking,
  and the service worker shows nothing while a visible page of that game is open;
* in any other game, when no device holding the seat is connected: not to this
  process, nor (as the seat's ``seen_at``, written every beat while a player stays,
  says) to another one of the fleet in the last two beats.

Each alert is claimed first: the row (game, ply, seat) of ``arena_alerts_sent`` is
inserted if absent, and only the process whose insert made it sends, so a player gets
one alert per move even if two processes try. Pushes go to the subscriptions of the
seat (``seat:<game>:<seat>``, from a page holding its token) and of the account holding
the seat (``account:<id>``), through pywebpush in a thread, signed with the fleet's
VAPID key (made once, kept in the database). A push service answering 404 or 410 means
the subscription is gone: it is deleted. E-mail goes over SMTP when the server has an
SMTP URL (off by default) to the addresses the owners gave.

Routes: ``GET /api/push/key``, ``POST``/``DELETE /api/push/subscribe``, and the service
worker at ``/sw.js`` (scope ``/``) with the second favicon ``/favicon-turn.svg``.
"""

from __future__ import annotations

import asyncio
import base64
import json
import logging
import smtplib
import ssl
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from email.message import EmailMessage
from functools import partial
from typing import Protocol, TypedDict
from urllib.parse import parse_qs, unquote, urlsplit

from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from fastapi import FastAPI, Request
from fastapi.responses import Response
from py_vapid import Vapid
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import Engine

from sudoku_arena.server.accounts import check_seat
from sudoku_arena.server.arena import HUMAN, Arena
from sudoku_arena.server.db import alerts as db
from sudoku_arena.server.db import seats as seats_db
from sudoku_arena.server.errors import ApiError
from sudoku_arena.server.events import Event, MoveCommitted
from sudoku_arena.server.live import GameUnavailable, LiveGame
from sudoku_arena.server.openapi import documented
from sudoku_arena.server.pages import web_file

log = logging.getLogger("sudoku_arena.server")

#: Seconds a push service keeps an alert for a device that is offline.
PUSH_TTL = 86400


@dataclass
class AlertConfig:
    """How a server alerts (the ``serve`` command's options)."""

    #: The VAPID ``sub`` claim: how a push service reaches the operator
    #: (``mailto:you@example.org`` or an https URL). Default: the server's own URL.
    contact: str | None = None
    #: The server's address as players reach it, for links in e-mail (and the default
    #: contact).
    public_url: str = "http://127.0.0.1:8000"
    #: ``smtp://user:pass@host:port?from=arena@example.org`` (``smtps://``: TLS from the
    #: start, ``smtp+starttls://``: STARTTLS); ``None``: no e-mail.
    smtp_url: str | None = None
    #: Push endpoints over plain http (tests with a local push endpoint only): a server
    #: that allowed them could be made to post to any address on its network.
    allow_http_endpoints: bool = False
    ttl: int = PUSH_TTL


@dataclass(frozen=True)
class Turn:
    """What an alert needs to know about a game whose turn changed."""

    game_name: str
    names: list[str]  # per seat
    alertable: list[bool]  # per seat: a person's seat in an invite game
    correspondence: bool
    words: str | None  # the time control in words
    connected: list[bool]  # per seat: a device holding it is connected to this process


class Notice(TypedDict):
    """A turn alert as sent (Web Push JSON; the e-mail uses its title, body and url)."""

    title: str
    body: str
    game_id: str
    ply: int
    seat: int
    url: str
    tag: str


#: The facts of a game for an alert to the ``waiting`` seats (whose turn it is now); from
#: the arena in the app. ``None``: nobody to tell (an unknown or ended game, or a game
#: without days per move whose waiting people are all here).
Facts = Callable[[str, Sequence[int]], Awaitable[Turn | None]]
#: The seats of a game held by accounts (seat -> account id); blocking.
SeatAccounts = Callable[[str], dict[int, int]]


def make_vapid_keys() -> tuple[str, str]:
    """A new P-256 key pair: (private key as PEM, public key as URL-safe base64 of the
    uncompressed point, the form browsers' ``applicationServerKey`` takes)."""
    v = Vapid()
    v.generate_keys()
    pem = v.private_pem().decode()
    raw = v.public_key.public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
    return pem, base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def _send_mail(smtp_url: str, to: list[str], subject: str, text: str) -> None:
    """One e-mail over SMTP as ``smtp_url`` says (blocking)."""
    u = urlsplit(smtp_url)
    sender = parse_qs(u.query).get("from", [f"arena@{u.hostname or 'localhost'}"])[0]
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = sender, ", ".join(to), subject
    msg.set_content(text)
    host = u.hostname or "localhost"
    if u.scheme == "smtps":
        smtp: smtplib.SMTP = smtplib.SMTP_SSL(
            host, u.port or 465, timeout=20, context=ssl.create_default_context()
        )
    else:
        smtp = smtplib.SMTP(host, u.port or 25, timeout=20)
    with smtp:
        if u.scheme == "smtp+starttls":
            smtp.starttls(context=ssl.create_default_context())
        if u.username:
            smtp.login(unquote(u.username), unquote(u.password or ""))
        smtp.send_message(msg)


@dataclass
class Alerts:
    """The alerts of one server process."""

    engine: Engine
    facts: Facts
    config: AlertConfig = field(default_factory=AlertConfig)
    seat_accounts: SeatAccounts | None = None
    private_pem: str = ""
    public_key: str = ""
    #: Pushes sent and subscriptions dropped by this process (for tests and logs).
    sent: int = 0
    dropped: int = 0

    async def start(self) -> None:
        """Read the fleet's VAPID key (made now if this is the first process)."""
        self.private_pem, self.public_key = await asyncio.to_thread(
            db.vapid_keys, self.engine, make_vapid_keys
        )

    # -- reacting to moves ----------------------------------------------------------------

    async def on_event(self, event: Event) -> None:
        """The arena's events listener: alert the people whose turn came."""
        if not isinstance(event, MoveCommitted) or event.over or not event.to_move:
            return
        waiting = [seat for seat in event.to_move if seat != event.by]  # the mover is here
        turn = await self.facts(event.game_id, waiting) if waiting else None
        if turn is None:
            return
        for seat in waiting:
            if not turn.alertable[seat]:
                continue  # bots need no alert
            if not turn.correspondence and turn.connected[seat]:
                continue
            await self.alert(event.game_id, event.ply, seat, turn)

    async def alert(self, game_id: str, ply: int, seat: int, turn: Turn) -> bool:
        """Claim and send the alert for ``seat`` at ``ply``; ``False`` if another
        process (or an earlier call) had claimed it."""
        if not await asyncio.to_thread(db.claim, self.engine, game_id, ply, seat):
            return False
        if not self.private_pem:
            await self.start()
        owners = [db.seat_owner(game_id, seat)]
        if self.seat_accounts is not None:
            held = await asyncio.to_thread(self.seat_accounts, game_id)
            if seat in held:
                owners.append(db.account_owner(held[seat]))
        payload = self.payload(game_id, ply, seat, turn)
        subs = await asyncio.to_thread(db.subscriptions, self.engine, owners)
        await asyncio.gather(*(asyncio.to_thread(self._push, s, payload) for s in subs))
        if self.config.smtp_url:
            to = await asyncio.to_thread(db.emails, self.engine, owners)
            if to:
                await asyncio.to_thread(self._mail, to, payload)
        return True

    def payload(self, game_id: str, ply: int, seat: int, turn: Turn) -> Notice:
        """What the notification says (the service worker shows it as it is)."""
        others = [n for i, n in enumerate(turn.names) if i != seat]
        body = f"Your turn against {', '.join(others)}" if others else "Your turn"
        if turn.words:
            body += f" ({turn.words})"
        return {
            "title": f"Your turn: {turn.game_name}",
            "body": body + ".",
            "game_id": game_id,
            "ply": ply,
            "seat": seat,
            "url": f"/play/{game_id}",
            "tag": f"turn-{game_id}",  # as the page's own: one replaces the other
        }

    def _push(self, sub: db.Subscription, payload: Notice) -> None:
        """One Web Push message (blocking); a subscription the service says is gone
        (404, 410) is deleted."""
        # Imported here, not at the top: it brings aiohttp and requests (0.4 s of every
        # server's start), and only a server that sends a push needs them.
        from pywebpush import WebPushException, webpush

        claims: dict[str, str | int] = {"sub": self.config.contact or self.config.public_url}
        try:
            webpush(
                sub.info(),
                json.dumps(payload),
                vapid_private_key=Vapid.from_pem(self.private_pem.encode()),
                vapid_claims=claims,
                ttl=self.config.ttl,
                timeout=10,
            )
            self.sent += 1
        except WebPushException as exc:
            status = exc.response.status_code if exc.response is not None else None
            if status in (404, 410):
                self.dropped += db.unsubscribe(self.engine, sub.endpoint)
            else:
                log.warning("push to %s failed: %s", urlsplit(sub.endpoint).hostname, status)
        except Exception as exc:  # an unreachable push service must not stop the others
            log.warning("push to %s failed: %s", urlsplit(sub.endpoint).hostname, exc)

    def _mail(self, to: list[str], payload: Notice) -> None:
        assert self.config.smtp_url is not None
        link = self.config.public_url.rstrip("/") + str(payload["url"])
        try:
            _send_mail(
                self.config.smtp_url, to, str(payload["title"]), f"{payload['body']}\n\n{link}\n"
            )
        except (OSError, smtplib.SMTPException) as exc:
            log.warning("alert e-mail failed: %s", exc)

    # -- subscriptions ----------------------------------------------------------------------

    def check_endpoint(self, endpoint: str) -> None:
        u = urlsplit(endpoint)
        allowed = ("https", "http") if self.config.allow_http_endpoints else ("https",)
        if u.scheme not in allowed or not u.hostname:
            raise ApiError(
                400,
                "bad_endpoint",
                f"subscription.endpoint: an {' or '.join(allowed)} URL of a push service",
            )


class PushKeys(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    p256dh: str = Field(min_length=16, max_length=256)
    auth: str = Field(min_length=8, max_length=64)


class PushSubscription(BaseModel):
    """As the browser's ``PushSubscription.toJSON()`` gives it."""

    model_config = ConfigDict(extra="ignore", strict=True)  # expirationTime and the like
    endpoint: str = Field(
        min_length=8,
        max_length=1024,
        pattern=r"^https?://[^/?#\s]+",
        description="the push service's URL for this browser (https)",
    )
    keys: PushKeys


class SubscribeRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    subscription: PushSubscription
    game_id: str | None = Field(
        default=None, max_length=32, description="with token: alerts for that seat"
    )
    token: str | None = Field(default=None, max_length=100, description="the seat's token")
    email: str | None = Field(
        default=None,
        max_length=320,
        pattern=r"^[^@\s]+@[^@\s]+$",
        description="also e-mail the alerts here (if the server sends e-mail)",
    )


class UnsubscribeRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    endpoint: str = Field(min_length=8, max_length=1024)
    game_id: str | None = Field(default=None, max_length=32)
    token: str | None = Field(default=None, max_length=100)


class PushKey(BaseModel):
    key: str = Field(description="the server's VAPID public key (applicationServerKey)")


class Subscribed(BaseModel):
    owner: str = Field(description="'seat' (this game's seat) or 'account' (every seat)")
    email: bool = Field(description="whether alerts are e-mailed too")


#: The seat a (game id, token) names, or ``None``; from the arena in the app.
SeatOf = Callable[[str, str], Awaitable[int | None]]


class HasId(Protocol):
    @property
    def id(self) -> int: ...


#: The signed-in account for a request (``None``: a guest), as ``accounts`` gives it.
AccountOf = Callable[[Request], Awaitable[HasId | None]]
#: ``db.accounts.seat_accounts``: seat -> account id of a game's seats held by accounts.
SeatAccountsOf = Callable[[Engine, str], dict[int, int]]


def add_alerts(
    app: FastAPI,
    the_arena: Callable[[], Arena],
    config: AlertConfig,
    account_of: AccountOf | None = None,
    seat_accounts: SeatAccountsOf | None = None,
) -> None:
    """The push routes and the service worker; once the arena has started, the alerts
    read the VAPID key and listen to the arena's events (``app.state.alerts``)."""
    holder: list[Alerts] = []
    inner = app.router.lifespan_context

    @asynccontextmanager
    async def lifespan(a: object) -> AsyncIterator[None]:
        # The app's own lifespan keeps no state (it yields None), so neither does this.
        async with inner(a):
            arena = the_arena()
            engine = arena.storage.engine
            held = None if seat_accounts is None else partial(seat_accounts, engine)
            made = Alerts(engine, from_arena(arena)[0], config, seat_accounts=held)
            await made.start()
            events = getattr(arena, "events", None)  # an arena made by a test may lack them
            if events is not None:
                events.subscribe(made.on_event)
            holder[:] = [made]
            app.state.alerts = made
            yield

    app.router.lifespan_context = lifespan

    def alerts() -> Alerts:
        if not holder:
            raise ApiError(503, "unavailable", "the server is starting; try again")
        return holder[0]

    async def seat_of(game_id: str, token: str) -> int | None:
        return await from_arena(the_arena())[1](game_id, token)

    async def account_id(request: Request) -> int | None:
        found = None if account_of is None else await account_of(request)
        return None if found is None else found.id

    # On the app itself, not an included router: the 405 answers' Allow header is
    # worked out from the app's own routes (server/errors.py).

    async def owner_of(request: Request, game_id: str | None, token: str | None) -> str:
        if game_id is not None and token is not None:
            seat = await seat_of(game_id, token)
            if seat is None:
                raise ApiError(403, "bad_token", "that token does not belong to a seat of game")
            await check_seat(request, game_id, [seat])
            return db.seat_owner(game_id, seat)
        account = await account_id(request)
        if account is None:
            raise ApiError(
                401, "sign_in_required", "game_id and token (a seat's), or sign in for every seat"
            )
        return db.account_owner(account)

    @app.get("/api/push/key", tags=["alerts"])
    async def push_key() -> PushKey:
        """The VAPID public key browsers subscribe with (``applicationServerKey``)."""
        return PushKey(key=alerts().public_key)

    @app.post("/api/push/subscribe", tags=["alerts"], responses=documented(400, 401, 403, 413))
    async def subscribe(body: SubscribeRequest, request: Request) -> Subscribed:
        """Alert this browser when it is the seat's turn (``game_id`` and ``token``) or
        any seat of the signed-in account's; ``email`` adds e-mail alerts."""
        a = alerts()
        owner = await owner_of(request, body.game_id, body.token)
        a.check_endpoint(body.subscription.endpoint)
        sub = db.Subscription(
            body.subscription.endpoint, body.subscription.keys.p256dh, body.subscription.keys.auth
        )
        await asyncio.to_thread(db.subscribe, a.engine, owner, sub)
        if body.email is not None:
            await asyncio.to_thread(db.set_email, a.engine, owner, body.email)
        mail = bool(a.config.smtp_url) and bool(
            await asyncio.to_thread(db.emails, a.engine, [owner])
        )
        return Subscribed(owner=owner.split(":", 1)[0], email=mail)

    @app.delete("/api/push/subscribe", tags=["alerts"], responses=documented(400, 401, 403, 413))
    async def unsubscribe(body: UnsubscribeRequest, request: Request) -> dict[str, int]:
        """Stop alerting this browser for the seat (or the account); e-mail too."""
        a = alerts()
        owner = await owner_of(request, body.game_id, body.token)
        gone = await asyncio.to_thread(db.unsubscribe, a.engine, body.endpoint, [owner])
        await asyncio.to_thread(db.set_email, a.engine, owner, None)
        return {"removed": gone}

    @app.get("/sw.js", include_in_schema=False)
    async def service_worker() -> Response:
        # Served from the root so that its scope is every page of the site.
        return Response(
            web_file("sw.js"),
            media_type="text/javascript",
            headers={"cache-control": "no-cache", "service-worker-allowed": "/"},
        )

    @app.get("/favicon-turn.svg", include_in_schema=False)
    async def favicon_turn() -> Response:
        return Response(
            web_file("favicon-turn.svg"),
            media_type="image/svg+xml",
            headers={"cache-control": "max-age=86400"},
        )


def from_arena(arena: Arena) -> tuple[Facts, SeatOf]:
    """The facts alerts need and the seat a token names, read from ``arena``."""

    async def game(game_id: str) -> LiveGame | None:
        try:
            return await arena.get(game_id)
        except GameUnavailable:
            return None

    async def facts(game_id: str, waiting: Sequence[int]) -> Turn | None:
        # In memory only. The process that committed the move publishes its event and
        # holds the game then; if it is gone by the time the listener runs, the game
        # ended and was retired (an idle eviction takes far longer than a listener's
        # lag), and nobody is to be told it is his turn. Loading it would replay the
        # whole game for nothing: under load at 500 clients, about one a second.
        lg = arena.games.get(game_id)
        if lg is None or lg.over:
            return None
        invite = lg.row.mode == "invite"
        control = None if lg.clock is None else lg.clock.control
        correspondence = control is not None and control.per_move
        here = arena.presence(lg)
        alertable = [invite and s.kind == HUMAN for s in lg.seats]
        away = any(alertable[s] and not here[s] for s in waiting)
        if not correspondence and not away:
            return None  # everyone whose turn came is here: nobody to tell (most moves)
        if not correspondence and arena.attendance.claim_after is not None:
            # Connected to another process: it writes the seat seen every beat.
            stored = await asyncio.to_thread(seats_db.load_seats, arena.storage.engine, game_id)
            recent = arena.now() - 2 * arena.attendance.beat
            for s in stored:
                if s.seen_at is not None and s.seen_at >= recent:
                    here[s.seat] = True
        return Turn(
            game_name=lg.spec.name,
            names=[s.name for s in lg.seats],
            alertable=alertable,
            correspondence=correspondence,
            words=None if control is None else control.words(),
            connected=here,
        )

    async def seat_of(game_id: str, token: str) -> int | None:
        lg = await game(game_id)
        return None if lg is None else lg.seat_for_token(token)

    return facts, seat_of
