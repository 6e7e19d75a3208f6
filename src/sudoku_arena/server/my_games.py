"""A signed-in person's games, from any device: ``GET /api/account/games`` lists the
games whose seats their account holds (``arena_account_seats``), in progress and
recently finished; ``POST /api/matches/{id}/seats/{seat}/resume`` takes such a seat
back on this browser with a fresh token (:meth:`Seating.resume
<sudoku_arena.server.seating.Seating.resume>`: the device that held it is told and
loses it, and its old link stops working, as when a seat moves to another device).

A seat's token lives only in the browser that got it; these let an account that
holds the seat get back to it after clearing the browser or on another device.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Annotated

from fastapi import FastAPI, Path, Request
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import Engine, select

from sudoku_arena.core.registry import spec_of
from sudoku_arena.core.types import JsonDict
from sudoku_arena.server.accounts import Signed, engine_of
from sudoku_arena.server.arena import Arena
from sudoku_arena.server.clock import TimeControl
from sudoku_arena.server.db.accounts import account_seats_table, seat_accounts
from sudoku_arena.server.db.games import games_table
from sudoku_arena.server.errors import ApiError
from sudoku_arena.server.live import ActionRefused, hash_token
from sudoku_arena.server.models import DEVICE, SeatToken
from sudoku_arena.server.openapi import documented

#: How many finished games the list shows (the newest).
RECENT_FINISHED = 10


class MyGame(BaseModel):
    id: str
    game: str = Field(description="the game's id")
    name: str = Field(description="the game's name")
    seats: list[int] = Field(description="the account's seats in it (0-based)")
    opponents: list[str] = Field(description="the other seats' names")
    status: str = Field(description='"active" or "finished"')
    your_turn: bool = Field(description="one of the account's seats is to move")
    clock: str | None = Field(description="the time control in words; null: untimed")
    updated: float
    url: str = Field(description="the game's page (a seat is taken back with resume)")


class ResumeRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    device: str = DEVICE


def _rows(engine: Engine, account_id: int) -> list[JsonDict]:
    g, a = games_table, account_seats_table
    out: list[JsonDict] = []
    with engine.connect() as conn:
        for active in (True, False):
            q = (
                select(g.c.id, g.c.game, g.c.players, g.c.status, g.c.clock, g.c.updated, a.c.seat)
                .join(a, a.c.game_id == g.c.id)
                .where(a.c.account_id == account_id)
                .where(g.c.status == "active" if active else g.c.status == "finished")
                .order_by(g.c.updated.desc())
            )
            rows = [dict(r) for r in conn.execute(q).mappings()]
            if not active:  # the newest finished games, each with all its seats
                ids: list[str] = []
                for r in rows:
                    if r["id"] not in ids:
                        ids.append(r["id"])
                keep = set(ids[:RECENT_FINISHED])
                rows = [r for r in rows if r["id"] in keep]
            out.extend(rows)
    return out


def _clock(text: str | None) -> str | None:
    return None if text is None else TimeControl.from_json(json.loads(text)).words()


async def my_games(arena: Arena, engine: Engine, account_id: int) -> list[MyGame]:
    """The account's games in progress (most recently moved first), then its newest
    finished ones."""
    games: dict[str, MyGame] = {}
    players: dict[str, list[str]] = {}
    for r in await asyncio.to_thread(_rows, engine, account_id):
        mine = games.get(r["id"])
        if mine is not None:
            mine.seats.append(int(r["seat"]))
            continue
        players[r["id"]] = [str(n) for n in json.loads(r["players"])]
        games[r["id"]] = MyGame(
            id=r["id"],
            game=r["game"],
            name=spec_of(r["game"]).name,
            seats=[int(r["seat"])],
            opponents=[],
            status=r["status"],
            your_turn=False,
            clock=_clock(r["clock"]),
            updated=float(r["updated"]),
            url=f"/play/{r['id']}",
        )
    for g in games.values():
        g.seats.sort()
        g.opponents = [n for i, n in enumerate(players[g.id]) if i not in g.seats]
        if g.status == "active":
            try:
                lg = await arena.require(g.id)
            except (ApiError, ActionRefused):
                continue  # not to be opened now: listed without the turn
            g.your_turn = not lg.over and any(s in g.seats for s in lg.to_move())
    return list(games.values())


def add_my_games(app: FastAPI, the_arena: Callable[[], Arena]) -> None:
    """Adds ``GET /api/account/games`` and ``POST /api/matches/{id}/seats/{seat}/resume``."""

    @app.get("/api/account/games", responses=documented(401))
    async def account_games(account: Signed, request: Request) -> list[MyGame]:
        """The signed-in account's games: in progress (whose turn, the clock) and the
        newest finished ones. A seat is taken back on this device with ``resume``."""
        return await my_games(the_arena(), engine_of(request), account.id)

    @app.post(
        "/api/matches/{game_id}/seats/{seat}/resume",
        responses=documented(400, 401, 403, 404, 413, 422, 503),
    )
    async def resume_seat(
        game_id: str,
        seat: Annotated[int, Path(ge=0)],
        body: ResumeRequest,
        account: Signed,
        request: Request,
    ) -> SeatToken:
        """Take a seat the signed-in account holds back on this device: a fresh token,
        claimed by this device. The device that held the seat is told and loses it, and
        its old link stops working. Refused (403) for a seat of another account or none."""
        lg = await the_arena().require(game_id)
        owners = await asyncio.to_thread(seat_accounts, engine_of(request), lg.id)
        if owners.get(seat) != account.id:
            raise ApiError(
                403,
                "not_your_seat",
                f"seat {seat + 1} of this game is not held by your account; "
                "only the account that plays a seat can take it back",
            )
        token = await the_arena().seating.resume(lg, seat, hash_token(body.device))
        return SeatToken(seat=seat, token=token, url=f"/play/{lg.id}#t={token}")
