"""Matchmaking: seeks ("play Sudoku Warriors, 10+5, rated, around my rating") paired by
the database, and open challenges to a named player.

* ``POST /api/seeks`` -> ``{id, token, status}``. ``token`` is the seek's secret: it
  reads and cancels the seek and, once paired, is the owner's seat token in the new game
  (only its hash is stored), so nobody else ever gets the seat.
* ``GET /api/seeks/{id}?wait=25`` with header ``X-Seek-Token``: the seek, waiting up to
  ``wait`` seconds for it to pair; paired: ``game_id``, ``seat`` and ``url`` to play.
* ``DELETE /api/seeks/{id}`` (same header): cancel while open.
* ``POST /api/challenges`` (signed in) -> ``{id, token}``; ``GET /api/challenges``: the
  signed-in player's open challenges; ``POST /api/challenges/{id}/accept`` / ``decline``
  by the challenged account; ``GET /api/challenges/{id}`` with ``X-Challenge-Token``:
  the challenger's view (its game once accepted).

Pairing (:func:`sudoku_arena.server.db.seeks.take_group`) happens when a seek arrives
and in a sweep every :data:`SWEEP_SECONDS` on every process; the database lets exactly
one process take a group. The process that took it creates the game through the
arena and tells the seekers' waiters: its own at once, the fleet's over Redis (a
channel beside the fan-out's); without Redis, waiters re-read the database every
:data:`POLL_SECONDS`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections.abc import Callable, Mapping
from typing import Annotated

from fastapi import FastAPI, Header, Query, Request
from pydantic import Field

from sudoku_arena.core.errors import ArenaError
from sudoku_arena.core.registry import load
from sudoku_arena.core.types import JsonDict
from sudoku_arena.server.accounts import Account, current_account
from sudoku_arena.server.arena import HUMAN, Arena, SeatSpec
from sudoku_arena.server.clock import TimeControl
from sudoku_arena.server.db import ratings as rdb
from sudoku_arena.server.db import seeks as db
from sudoku_arena.server.errors import ApiError
from sudoku_arena.server.fanout import RedisFanout
from sudoku_arena.server.limits import RateLimits
from sudoku_arena.server.live import hash_token
from sudoku_arena.server.models import (
    CorrespondenceRequest,
    GameId,
    ParamValue,
    TimeControlRequest,
    _Strict,
)
from sudoku_arena.server.openapi import documented
from sudoku_arena.server.ratings import ACCOUNT, START, account_key, display
from sudoku_arena.server.security import client_ip

log = logging.getLogger("sudoku_arena.server")

#: How long a seek stays open after it is made or last polled (a page closed mid-seek
#: stops polling, so its seek is gone within this and nobody is paired with a ghost).
SEEK_SECONDS = 60.0
SWEEP_SECONDS = 0.5
#: A group taken for pairing this long ago and still not paired is released (its
#: process died between taking it and making the game).
PAIRING_SECONDS = 30.0
POLL_SECONDS = 0.5
MAX_WAIT = 25.0


def time_control(clock: TimeControlRequest | None) -> TimeControl | None:
    """The time control a seek's or challenge's ``clock`` asks for (validated as the
    create body's: a chess clock or days per move)."""
    if isinstance(clock, CorrespondenceRequest):
        return TimeControl(days=clock.days)
    return None if clock is None else TimeControl(clock.minutes, clock.increment)


class SeekRequest(_Strict):
    game: GameId = Field(description="the game's id")
    params: dict[str, ParamValue] = Field(default_factory=dict, description="the game's options")
    players: int = Field(default=2, ge=2, le=6, description="players in the game")
    clock: TimeControlRequest | None = Field(
        default=None,
        description="a time control (none: untimed): {minutes, increment} for a chess clock, "
        "or {days} per move for a correspondence game",
    )
    rated: bool = Field(default=False, description="a rated game (signed-in players only)")
    range: int | None = Field(
        default=None, ge=0, le=3000, description="opponents' rating within this of mine"
    )
    name: str | None = Field(default=None, max_length=40, description="the name shown (guests)")


async def signed_in_account(request: Request) -> Account | None:
    """The signed-in account (``id``, ``name``), ``None`` for a guest."""
    return await current_account(request)


def account_ids(seats: Mapping[int, str | None]) -> dict[int, int]:
    """The seats of ``seats`` (seat -> rating key or ``None``) that accounts hold, seat ->
    account id (the accounts' own record, which also keeps other accounts off them)."""
    return {
        seat: int(owner.removeprefix(ACCOUNT))
        for seat, owner in seats.items()
        if owner is not None and owner.startswith(ACCOUNT)
    }


def limit_seeks(request: Request, key: str) -> None:
    """Count one seek (or challenge) for ``key`` in the ``seek`` rule (429 when full)."""
    limits: RateLimits = request.app.state.limits
    limits.hit("seek", key)


class Matchmaker:
    """Seeks and challenges of one server process (the pairing itself is the fleet's)."""

    def __init__(self, arena: Arena, redis_url: str | None = None, channel: str = "") -> None:
        self.arena = arena
        self.engine = arena.storage.engine
        self._waiters: dict[str, set[asyncio.Event]] = {}
        self._fanout = RedisFanout(redis_url, channel + ":seeks") if redis_url else None
        self._task: asyncio.Task[None] | None = None
        self.paired_here = 0

    async def start(self) -> None:
        if self._fanout is not None:
            await self._fanout.start(self._on_fanout)
        self._task = asyncio.create_task(self._sweep_loop())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        if self._fanout is not None:
            await self._fanout.stop()

    async def _on_fanout(self, event: JsonDict) -> None:
        for seek_id in event.get("seeks", []):
            self._wake(str(seek_id))

    def _wake(self, seek_id: str) -> None:
        for waiter in self._waiters.get(seek_id, ()):
            waiter.set()

    async def _sweep_loop(self) -> None:
        while True:
            await asyncio.sleep(SWEEP_SECONDS)
            try:
                now = time.time()
                before = now - PAIRING_SECONDS
                if await asyncio.to_thread(db.sweep_due, self.engine, now, before):
                    await asyncio.to_thread(db.expire, self.engine, now)
                    await asyncio.to_thread(db.release_stale, self.engine, before)
                for seek_id in await asyncio.to_thread(db.pools_waiting, self.engine, now):
                    await self.try_pair(seek_id)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("seeks: sweep failed")

    # -- seeks ----------------------------------------------------------------------------

    async def seek(self, body: SeekRequest, account: Account | None) -> tuple[db.SeekRow, str]:
        """Store a new seek (refusing what cannot be played) and try to pair it."""
        params: JsonDict = {**body.params, "players": body.players}
        try:
            game = await asyncio.to_thread(load, body.game, seed=0, **params)
        except ArenaError as exc:
            raise ApiError(422, "invalid", f"{body.game}: {exc}") from None
        params = {k: v for k, v in game.params.items() if k in params}
        owner = None if account is None else account_key(int(account.id))
        if body.rated and account is None:
            raise ApiError(
                401,
                "sign_in_required",
                "rated: only signed-in players may seek a rated game; sign in, or seek "
                "with rated false",
            )
        rating = None
        if owner is not None:
            rating = await asyncio.to_thread(self.rating_of, owner, body.game)
        low = high = None
        if body.range is not None:
            if rating is None:
                raise ApiError(
                    401,
                    "sign_in_required",
                    "range: a rating range is around your rating; sign in, or leave range out",
                )
            low, high = rating - body.range, rating + body.range
        token = secrets.token_urlsafe(18)
        now = time.time()
        control = time_control(body.clock)
        days = control.days if control is not None and control.days else None
        minutes = control.minutes if control is not None and not days else None
        increment = control.increment if control is not None and not days else None
        name = (account.name if account is not None else body.name) or "guest"
        row = db.SeekRow(
            id=secrets.token_urlsafe(9),
            token_hash=hash_token(token),
            owner=owner,
            name=str(name)[:40],
            game=body.game,
            params=json.dumps(params, sort_keys=True),
            players=body.players,
            minutes=minutes,
            increment=increment,
            days=days,
            rated=body.rated,
            pool=db.pool_of(body.game, params, body.players, minutes, increment, body.rated, days),
            rating=rating,
            low=low,
            high=high,
            created=now,
            expires=now + SEEK_SECONDS,
            status=db.OPEN,
            game_id=None,
            seat=None,
        )
        await asyncio.to_thread(db.insert_seek, self.engine, row)
        await self.try_pair(row.id)
        return row, token

    def rating_of(self, player: str, game: str) -> int:
        with self.engine.connect() as conn:
            row = rdb.load_ratings(conn, game, [player]).get(player)
        return START if row is None else display(row.mu, row.sigma)

    async def try_pair(self, seek_id: str) -> str | None:
        """Pair ``seek_id`` if the database gives this process a group; the game's id."""
        group = await asyncio.to_thread(db.take_group, self.engine, seek_id, time.time())
        if group is None:
            return None
        first = group[0]
        control = None
        if first.days:
            control = TimeControl(days=first.days)
        elif first.minutes is not None:
            control = TimeControl(first.minutes, first.increment or 0.0)
        try:
            lg, _ = await self.arena.create(
                first.game,
                json.loads(first.params),
                [SeatSpec(HUMAN, None, s.name) for s in group],
                mode="invite",
                token_hashes=[s.token_hash for s in group],
                time_control=control,
                visibility="private",
                accounts=account_ids({i: s.owner for i, s in enumerate(group)}),
                rated={i: (s.owner or "", s.name) for i, s in enumerate(group)}
                if first.rated
                else None,
            )
        except Exception:
            await asyncio.to_thread(db.release, self.engine, group)
            raise
        if not await asyncio.to_thread(db.set_paired, self.engine, group, lg.id):
            log.warning("seeks: game %s made too late, its seeks were released", lg.id)
            return None
        self.paired_here += 1
        ids = [s.id for s in group]
        for i in ids:
            self._wake(i)
        if self._fanout is not None:
            self._fanout.publish({"kind": "seeks_paired", "seeks": ids})
        return lg.id

    async def wait(self, seek_id: str, token: str, wait: float) -> db.SeekRow:
        """The seek once paired or ``wait`` seconds passed (404: no such seek or not
        its token, said the same way so ids cannot be probed)."""
        deadline = time.monotonic() + min(wait, MAX_WAIT)
        hashed = hash_token(token)
        waiter = asyncio.Event()
        self._waiters.setdefault(seek_id, set()).add(waiter)
        try:
            while True:
                waiter.clear()  # before reading: a wake during the read is kept
                row = await asyncio.to_thread(
                    db.keep_open, self.engine, seek_id, hashed, time.time() + SEEK_SECONDS
                )
                if row is None or not secrets.compare_digest(row.token_hash, hashed):
                    raise ApiError(404, "no_seek", "no seek with this id and token")
                left = deadline - time.monotonic()
                if row.status not in (db.OPEN, db.PAIRING) or left <= 0:
                    return row
                step = 2.0 if self._fanout is not None else POLL_SECONDS
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(waiter.wait(), timeout=min(left, step))
        finally:
            waiting = self._waiters.get(seek_id, set())
            waiting.discard(waiter)
            if not waiting:
                self._waiters.pop(seek_id, None)


def seek_json(row: db.SeekRow, token: str | None = None) -> JsonDict:
    out: JsonDict = {
        "id": row.id,
        "status": row.status,
        "game": row.game,
        "players": row.players,
        "rated": row.rated,
        "rating": row.rating,
        "expires": row.expires,
        "game_id": row.game_id,
        "seat": row.seat,
    }
    if token is not None:
        out["token"] = token
    return out


def add_seeks(app: FastAPI, maker: Callable[[], Matchmaker]) -> None:
    """Add the seek and challenge routes (``maker``: the process's matchmaker)."""

    @app.post("/api/seeks", status_code=201, responses=documented(400, 401, 413, 422, 429))
    async def post_seek(body: SeekRequest, request: Request) -> JsonDict:
        """Seek a game; answers the seek's secret ``token`` (keep it: it reads and cancels
        the seek, and is your seat token once paired)."""
        account = await signed_in_account(request)
        who = f"account:{account.id}" if account is not None else f"ip:{client_ip(request)}"
        limit_seeks(request, who)
        row, token = await maker().seek(body, account)
        fresh = await asyncio.to_thread(db.load_seek, maker().engine, row.id)
        return seek_json(fresh or row, token)

    @app.get("/api/seeks/{seek_id}", responses=documented(400, 404))
    async def get_seek(
        seek_id: str,
        x_seek_token: Annotated[str, Header(min_length=1, max_length=100)],
        wait: Annotated[float, Query(ge=0, le=MAX_WAIT)] = 0.0,
    ) -> JsonDict:
        """The seek; with ``wait``, answered once it pairs or after that many seconds."""
        row = await maker().wait(seek_id, x_seek_token, wait)
        out = seek_json(row)
        if row.game_id is not None:
            out["url"] = f"/play/{row.game_id}#t={x_seek_token}"
        return out

    @app.delete("/api/seeks/{seek_id}", responses=documented(400, 404, 409))
    async def delete_seek(
        seek_id: str, x_seek_token: Annotated[str, Header(min_length=1, max_length=100)]
    ) -> JsonDict:
        """Cancel an open seek; answers it, cancelled."""
        row = await maker().wait(seek_id, x_seek_token, 0)
        if not await asyncio.to_thread(db.cancel, maker().engine, seek_id):
            raise ApiError(409, "seek_closed", f"the seek is {row.status}: only open seeks cancel")
        return seek_json(row) | {"status": db.CANCELLED}

    @app.get("/api/seeks")
    async def list_seeks() -> list[JsonDict]:
        """Open seeks (what people wait to play), newest first."""
        rows = await asyncio.to_thread(db.open_seeks, maker().engine, time.time())
        return [
            {k: v for k, v in seek_json(r).items() if k not in ("game_id", "seat")}
            | {
                "name": r.name,
                "clock": (
                    TimeControl(days=r.days).words()
                    if r.days
                    else None
                    if r.minutes is None
                    else f"{r.minutes:g}+{r.increment or 0:g}"
                ),
            }
            for r in rows
        ]
