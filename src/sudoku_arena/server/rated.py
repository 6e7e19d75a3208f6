"""Rated games made with the create body's ``rated: true``: what is refused, and how the
game is recorded for the ratings (:mod:`sudoku_arena.server.ratings`).

A rated game is made by a signed-in person, played through links (not on one screen),
with bots only at the game's rated levels (those with an anchored rating), without the
coach; no takebacks (``LiveGame.rated``, known from the game's first commit). Every person's seat
must be held by an account: a guest taking one (claim or join) is refused
(:func:`refuse_guest`), and a seat no account holds when the game ends leaves it unrated.
Each refusal says what was wrong and what is allowed.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from fastapi import Request
from sqlalchemy import Engine

from sudoku_arena.core.registry import spec_of
from sudoku_arena.server.accounts import Account, current_account
from sudoku_arena.server.errors import ApiError
from sudoku_arena.server.live import LiveGame
from sudoku_arena.server.ratings import account_key, bot_key, bot_ratings

HUMAN, BOT = "human", "bot"


async def _account(request: Request) -> Account | None:
    return await current_account(request)


async def check_rated(
    request: Request,
    engine: Engine,
    game: str,
    seats: Sequence[tuple[str, str | None]],
    mode: str,
    coach: bool | None,
) -> Account:
    """The creator's account if a rated game with ``seats`` ((kind, agent) each) may be
    made; else an :class:`ApiError` saying why and what is allowed."""
    account = await _account(request)
    if account is None:
        raise ApiError(
            401,
            "sign_in_required",
            "rated: only a signed-in person may make a rated game; "
            "sign in, or make it with rated false",
        )
    if mode != "invite":
        raise ApiError(
            400,
            "rated_refused",
            "rated: a rated game is played through links (mode invite), "
            "each person at their own account, not on one screen",
        )
    if coach:
        raise ApiError(
            400, "rated_refused", "rated: the coach is off in rated games; leave coach out or false"
        )
    if not any(kind == HUMAN for kind, _ in seats):
        raise ApiError(400, "rated_refused", "rated: a rated game needs a person's seat")
    if len(seats) < 2:
        raise ApiError(400, "rated_refused", "rated: a rated game needs two players or more")
    levels = await asyncio.to_thread(bot_ratings, engine, game)
    for i, (kind, agent) in enumerate(seats):
        if kind == BOT and (agent or "").strip().lower() not in levels:
            allowed = ", ".join(sorted(levels)) or "none (no level of this game is rated yet)"
            raise ApiError(
                400,
                "rated_refused",
                f"seat {i + 1}: bot {agent!r} has no rating in {spec_of(game).name}; rated "
                f"levels: {allowed}",
            )
    return account


def rated_players(
    seats: Sequence[tuple[str, str | None]], account: Account
) -> dict[int, tuple[str, str]]:
    """The players a rated game records at creation (seat -> (rating key, name)): its
    bots' levels and the creator's (first person's) seat; the others as they claim."""
    keys: dict[int, tuple[str, str]] = {}
    creator = True
    for i, (kind, agent) in enumerate(seats):
        if kind == BOT and agent:
            level = agent.strip().lower()
            keys[i] = (bot_key(level), level)
        elif kind == HUMAN and creator:
            keys[i] = (account_key(int(account.id)), str(account.name))
            creator = False
    return keys


async def refuse_guest(request: Request, lg: LiveGame) -> None:
    """A guest (nobody signed in) may not take a seat of a rated game."""
    if lg.rated and await _account(request) is None:
        raise ApiError(
            403,
            "rated_needs_account",
            "this is a rated game: each seat is played by a signed-in account; sign in "
            "(or sign up) and open the link again",
        )
