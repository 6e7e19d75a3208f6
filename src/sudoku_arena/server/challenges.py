"""Open challenges to a named player (see :mod:`sudoku_arena.server.seeks`).

The challenger (signed in) names an account; the challenged account sees it in
``GET /api/challenges`` and accepts or declines. Accepting makes the game: the
challenger's seat token is the challenge's secret token (only its hash is stored), the
accepting player's is answered to them once. Accept and decline are conditional
updates: a challenge is answered once, on any process.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Annotated

from fastapi import FastAPI, Header, Request
from pydantic import Field

from sudoku_arena.core.errors import ArenaError
from sudoku_arena.core.registry import load
from sudoku_arena.core.types import JsonDict
from sudoku_arena.server.accounts import Account
from sudoku_arena.server.arena import HUMAN, SeatSpec
from sudoku_arena.server.db import seeks as db
from sudoku_arena.server.errors import ApiError
from sudoku_arena.server.live import hash_token
from sudoku_arena.server.models import GameId, ParamValue, TimeControlRequest, _Strict
from sudoku_arena.server.openapi import documented
from sudoku_arena.server.ratings import account_key
from sudoku_arena.server.seeks import Matchmaker, account_ids, time_control

#: How long a challenge waits for its answer.
CHALLENGE_SECONDS = 86400.0


class NoFields(_Strict):
    """An empty body (``{}``): the answer is in the path."""


class ChallengeRequest(_Strict):
    opponent: str = Field(min_length=1, max_length=64, description="the account's name")
    game: GameId
    params: dict[str, ParamValue] = Field(default_factory=dict)
    clock: TimeControlRequest | None = Field(
        default=None, description="{minutes, increment}, or {days} per move (correspondence)"
    )
    rated: bool = False


def _json(row: db.ChallengeRow) -> JsonDict:
    body = json.loads(row.body)
    return {
        "id": row.id,
        "challenger": row.challenger_name,
        "opponent": row.opponent_name,
        "game": body["game"],
        "rated": body["rated"],
        "status": row.status,
        "game_id": row.game_id,
        "expires": row.expires,
    }


def add_challenges(
    app: FastAPI,
    maker: Callable[[], Matchmaker],
    account_of: Callable[[Request], Awaitable[Account | None]],
    limit: Callable[[Request, str], None],
) -> None:
    async def signed_in(request: Request) -> Account:
        account = await account_of(request)
        if account is None:
            raise ApiError(401, "sign_in_required", "challenges are between signed-in players")
        return account

    @app.post("/api/challenges", status_code=201, responses=documented(400, 401, 413, 422, 429))
    async def post_challenge(body: ChallengeRequest, request: Request) -> JsonDict:
        """Challenge the account called ``opponent``; answers the secret ``token``
        (your seat token once accepted)."""
        me = await signed_in(request)
        limit(request, f"account:{me.id}")
        if body.opponent.strip().lower() == str(me.name).lower():
            raise ApiError(400, "self_challenge", "opponent: name another player, not yourself")
        try:  # the game and options refused now, not when the opponent accepts
            await asyncio.to_thread(load, body.game, seed=0, **{**body.params, "players": 2})
        except ArenaError as exc:
            raise ApiError(422, "invalid", f"{body.game}: {exc}") from None
        token = secrets.token_urlsafe(18)
        now = time.time()
        row = db.ChallengeRow(
            id=secrets.token_urlsafe(9),
            token_hash=hash_token(token),
            challenger=account_key(int(me.id)),
            challenger_name=str(me.name)[:64],
            opponent="name:" + body.opponent.strip().lower(),
            opponent_name=body.opponent.strip()[:64],
            body=body.model_dump_json(),
            created=now,
            expires=now + CHALLENGE_SECONDS,
            status=db.OPEN,
            game_id=None,
        )
        await asyncio.to_thread(db.insert_challenge, maker().engine, row)
        return _json(row) | {"token": token}

    @app.get("/api/challenges", responses=documented(401))
    async def my_challenges(request: Request) -> list[JsonDict]:
        """The open challenges to the signed-in player."""
        me = await signed_in(request)
        rows = await asyncio.to_thread(
            db.challenges_for, maker().engine, "name:" + str(me.name).lower(), time.time()
        )
        return [_json(r) for r in rows]

    @app.get("/api/challenges/{challenge_id}", responses=documented(400, 404))
    async def challenge(
        challenge_id: str, x_challenge_token: Annotated[str, Header(max_length=100)]
    ) -> JsonDict:
        """The challenger's view: its status and, once accepted, the game to play."""
        row = await asyncio.to_thread(db.load_challenge, maker().engine, challenge_id)
        if row is None or not secrets.compare_digest(row.token_hash, hash_token(x_challenge_token)):
            raise ApiError(404, "no_challenge", "no challenge with this id and token")
        out = _json(row)
        if row.game_id is not None:
            out["url"] = f"/play/{row.game_id}#t={x_challenge_token}"
        return out

    async def answer(request: Request, challenge_id: str, status: str) -> db.ChallengeRow:
        me = await signed_in(request)
        m = maker()
        row = await asyncio.to_thread(db.load_challenge, m.engine, challenge_id)
        if row is None or row.opponent != "name:" + str(me.name).lower():
            raise ApiError(404, "no_challenge", "no challenge to you with this id")
        if not await asyncio.to_thread(
            db.answer_challenge, m.engine, challenge_id, status, time.time()
        ):
            raise ApiError(409, "challenge_closed", f"the challenge is {row.status} or expired")
        return row

    @app.post(
        "/api/challenges/{challenge_id}/decline", responses=documented(400, 401, 404, 409, 413)
    )
    async def decline(challenge_id: str, _body: NoFields, request: Request) -> JsonDict:
        """Decline a challenge to you."""
        row = await answer(request, challenge_id, "declined")
        return _json(row) | {"status": "declined"}

    @app.post(
        "/api/challenges/{challenge_id}/accept", responses=documented(400, 401, 404, 409, 413)
    )
    async def accept(challenge_id: str, _body: NoFields, request: Request) -> JsonDict:
        """Accept: the game is made; answers your seat's ``url`` (its token, once)."""
        me = await signed_in(request)
        row = await answer(request, challenge_id, "accepted")
        body = ChallengeRequest.model_validate_json(row.body)
        m = maker()
        mine = secrets.token_urlsafe(18)
        control = time_control(body.clock)
        lg, _ = await m.arena.create(
            body.game,
            {**body.params, "players": 2},
            [SeatSpec(HUMAN, None, row.challenger_name), SeatSpec(HUMAN, None, str(me.name))],
            mode="invite",
            token_hashes=[row.token_hash, hash_token(mine)],
            time_control=control,
            visibility="private",
            accounts=account_ids({0: row.challenger, 1: account_key(int(me.id))}),
            rated={
                0: (row.challenger, row.challenger_name),
                1: (account_key(int(me.id)), str(me.name)),
            }
            if body.rated
            else None,
        )
        await asyncio.to_thread(db.set_challenge_game, m.engine, challenge_id, lg.id)
        return _json(row) | {
            "status": "accepted",
            "game_id": lg.id,
            "seat": 1,
            "url": f"/play/{lg.id}#t={mine}",
        }
