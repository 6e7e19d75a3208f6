"""A player's home on the server: ratings, profiles, leaderboards, matchmaking and a
signed-in person's games (:mod:`~sudoku_arena.server.my_games`), added
to the app in one call (:func:`add_home`).

Start-up (wrapped around the app's own lifespan, after the arena started): the bots'
anchored ratings are written (:func:`~sudoku_arena.server.ratings.seed_bots`), the
ratings listen for ``GameEnded`` on the arena's events, and the matchmaker starts its
sweep (and its Redis channel on a fleet).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

from fastapi import FastAPI

from sudoku_arena.server.arena import Arena
from sudoku_arena.server.challenges import add_challenges
from sudoku_arena.server.models import GameId
from sudoku_arena.server.my_games import add_my_games
from sudoku_arena.server.openapi import documented
from sudoku_arena.server.profiles import add_profiles
from sudoku_arena.server.ratings import Ratings, bot_ratings
from sudoku_arena.server.seeks import Matchmaker, add_seeks, limit_seeks, signed_in_account


def add_home(
    app: FastAPI,
    the_arena: Callable[[], Arena],
    redis_url: str | None,
    channel: str,
    headers: dict[str, str],
) -> None:
    inner = app.router.lifespan_context

    @asynccontextmanager
    async def lifespan(a: object) -> AsyncIterator[None]:
        # The app's own lifespan keeps no state (it yields None), so neither does this.
        async with inner(a):
            arena = the_arena()
            ratings = Ratings(arena.storage.engine)
            await ratings.start()
            events = getattr(arena, "events", None)
            if events is not None:
                events.subscribe(ratings.on_event)
            app.state.ratings = ratings
            maker = Matchmaker(arena, redis_url, channel)
            app.state.matchmaker = maker
            await maker.start()
            try:
                yield
            finally:
                await maker.stop()

    app.router.lifespan_context = lifespan
    add_seeks(app, lambda: app.state.matchmaker)
    add_challenges(app, lambda: app.state.matchmaker, signed_in_account, limit_seeks)
    add_profiles(app, the_arena, headers)
    add_my_games(app, the_arena)  # a signed-in person's games, from any device

    @app.get("/api/bots/{game}/ratings", responses=documented(422))
    async def bots(game: GameId) -> dict[str, int]:
        """The rated bot levels of ``game`` and their anchored ratings ("normal": 1500)."""
        return await asyncio.to_thread(bot_ratings, the_arena().storage.engine, game)
