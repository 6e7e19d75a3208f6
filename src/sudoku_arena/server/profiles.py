"""A player's home and the leaderboards: pages drawn on the server and their JSON.

* ``GET /api/players/{name}``: the player's rating per game (``provisional`` until
  :data:`~sudoku_arena.server.ratings.PROVISIONAL_GAMES` rated games), the rating after
  each rated game (the graph's points) and the recent rated games with their replay (and
  analysis) page. ``/players/{name}`` is the same as a page with an SVG graph per game.
* ``GET /api/leaderboard/{game}``: the players active in the last
  :data:`ACTIVE_DAYS` days (a rated game played), best first, and the rated bot levels
  with their anchored ratings (``bot: true``). ``/leaderboard/{game}`` is the page.

The pages are HTML written here with every name escaped, and SVG drawn here: nothing
runs in the browser, and nothing is fetched from anywhere else.
"""

from __future__ import annotations

import asyncio
import html
import time
from collections.abc import Callable, Sequence
from typing import Annotated
from urllib.parse import quote

from fastapi import FastAPI, Query
from fastapi.responses import HTMLResponse
from sqlalchemy import Engine

from sudoku_arena.core.registry import registered_games, spec_of
from sudoku_arena.core.types import JsonDict
from sudoku_arena.server.arena import Arena
from sudoku_arena.server.db import accounts
from sudoku_arena.server.db import ratings as db
from sudoku_arena.server.errors import ApiError
from sudoku_arena.server.models import GameId
from sudoku_arena.server.openapi import documented
from sudoku_arena.server.ratings import BOT, display, provisional

#: A player is on a leaderboard if a rated game of theirs ended this many days ago or less.
ACTIVE_DAYS = 30
#: Recent rated games listed on a profile.
RECENT = 20


def _key_of(engine: Engine, name: str) -> str | None:
    """The rating key of the account called ``name`` (none: no such account)."""
    # Accounts only: a deleted account's ratings are never shown again.
    row = accounts.account_by_name(engine, name)
    return None if row is None else f"account:{row.id}"


def profile(engine: Engine, name: str) -> JsonDict | None:
    key = _key_of(engine, name)
    if key is None:
        return None
    rows = db.player_ratings(engine, key)
    history = db.player_history(engine, key)
    shown = rows[0].name if rows else name
    recent = sorted(history, key=lambda h: h.at, reverse=True)[:RECENT]
    return {
        "name": shown,
        "ratings": [
            {
                "game": r.game,
                "rating": display(r.mu, r.sigma),
                "provisional": provisional(r.games, r.player),
                "games": r.games,
                "mu": round(r.mu, 3),
                "sigma": round(r.sigma, 3),
            }
            for r in rows
        ],
        "history": {
            r.game: [{"at": h.at, "rating": h.display} for h in history if h.game == r.game]
            for r in rows
        },
        "recent": [
            {
                "id": h.game_id,
                "game": h.game,
                "rating": h.display,
                "at": h.at,
                "replay": f"/replay/{h.game_id}",
                "analysis": f"/replay/{h.game_id}#analysis",
            }
            for h in recent
        ],
    }


def leaderboard(engine: Engine, game: str, days: int = ACTIVE_DAYS) -> list[JsonDict]:
    since = time.time() - days * 86400.0
    rows = [
        r
        for r in db.game_ratings(engine, game, since)
        if r.player.startswith(BOT)  # people: only accounts that still exist
        or accounts.account_by_id(engine, int(r.player.removeprefix("account:"))) is not None
    ]
    board: list[JsonDict] = [
        {
            "name": r.name,
            "rating": display(r.mu, r.sigma),
            "provisional": provisional(r.games, r.player),
            "games": r.games,
            "bot": r.player.startswith(BOT),
        }
        for r in rows
    ]
    board.sort(key=lambda e: (-float(e["rating"]), str(e["name"])))
    return board


# -- pages ----------------------------------------------------------------------------------


def graph_svg(points: Sequence[int], width: int = 360, height: int = 120) -> str:
    """A line of the ratings after each game, axes labelled with the lowest and highest."""
    if not points:
        return ""
    values = [1500, *points]  # every player starts at 1500
    low, high = min(values), max(values)
    span = max(high - low, 1)
    step = (width - 60) / max(len(values) - 1, 1)
    xy = " ".join(
        f"{50 + i * step:.1f},{10 + (height - 20) * (high - v) / span:.1f}"
        for i, v in enumerate(values)
    )
    return (
        f'<svg class="rating-graph" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" role="img" '
        f'aria-label="rating after each rated game: from {values[0]} to {values[-1]}">'
        f'<text x="2" y="14" font-size="11" fill="currentColor">{high}</text>'
        f'<text x="2" y="{height - 4}" font-size="11" fill="currentColor">{low}</text>'
        f'<polyline points="{xy}" fill="none" stroke="currentColor" stroke-width="2"/></svg>'
    )


def _game_name(game: str) -> str:
    try:
        return spec_of(game).name
    except Exception:
        return game


def _leaderboard_links() -> str:
    """Links to every leaderboard (the games played by two or more)."""
    links = " · ".join(
        f'<a href="/leaderboard/{html.escape(g.id)}">{html.escape(g.name)}</a>'
        for g in registered_games()
        if g.max_players >= 2
    )
    return f'<nav class="panel" aria-label="leaderboards"><h2>Leaderboards</h2>{links}</nav>'


def _shell(title: str, body: str) -> str:
    # arena.js only names the signed-in person in the header here (no data-page).
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{html.escape(title)} · Sudoku Arena</title>"
        '<link rel="icon" href="/favicon.ico"><link rel="stylesheet" href="/static/arena.css">'
        '<script type="module" src="/static/arena.js"></script>'
        '</head><body><header class="top"><a class="brand" href="/">Sudoku Arena</a>'
        '<a id="account-link" class="button" href="/account">Sign in</a></header>'
        f'<main class="page"><section class="panel"><h1>{html.escape(title)}</h1>{body}'
        f"</section>{_leaderboard_links()}</main>"
        '<footer class="foot muted small">Sudoku Arena · <a href="/">Games</a> · '
        '<a href="/account">Your account</a></footer></body></html>'
    )


def _rating_text(rating: object, prov: object) -> str:
    return f"{rating}{'?' if prov else ''}"


def profile_page(data: JsonDict) -> str:
    e = html.escape
    parts = ["<h2>Ratings</h2>"]
    if not data["ratings"]:  # a table of headers alone said nothing
        parts.append(
            '<p class="muted no-rating">No rating yet: a rated game gives one (on the '
            '<a href="/">home page</a>, Play now or a new game against a bot, with Rated '
            "ticked).</p>"
        )
    else:
        parts.append(
            '<table class="ratings"><tr><th>Game</th><th>Rating</th><th>Rated games</th></tr>'
        )
    for r in data["ratings"]:
        mark = " (provisional)" if r["provisional"] else ""
        parts.append(
            f'<tr><td><a href="/leaderboard/{e(r["game"])}">{e(_game_name(r["game"]))}</a></td>'
            f'<td class="rating">{e(_rating_text(r["rating"], r["provisional"]))}{mark}</td>'
            f"<td>{r['games']}</td></tr>"
        )
    if data["ratings"]:
        parts.append("</table>")
    for game, points in data["history"].items():
        parts.append(f"<h3>{e(_game_name(game))}</h3>")
        parts.append(graph_svg([int(p["rating"]) for p in points]))
    parts.append('<h2>Recent rated games</h2><ul class="recent">')
    for g in data["recent"]:
        when = time.strftime("%Y-%m-%d %H:%M", time.gmtime(g["at"]))
        parts.append(
            f"<li>{e(_game_name(g['game']))}, {when} UTC, rating after: {g['rating']} · "
            f'<a href="{e(g["replay"])}">replay</a> · '
            f'<a href="{e(g["analysis"])}">analysis</a></li>'
        )
    if not data["recent"]:
        parts.append('<li class="muted">No rated game yet.</li>')
    parts.append("</ul>")
    name = str(data["name"])
    parts.append(
        f'<p><a class="button" href="/?challenge={e(quote(name))}#play-now">Challenge {e(name)}'
        "</a></p>"
    )
    return _shell(name, "".join(parts))


def leaderboard_page(game: str, board: list[JsonDict]) -> str:
    e = html.escape
    parts = [
        f'<p class="muted">Players with a rated game in the last {ACTIVE_DAYS} days, and the '
        "bots' levels at their anchored ratings. A rating marked ? is provisional.</p>",
        '<table class="leaderboard"><tr><th>#</th><th>Player</th><th>Rating</th>'
        "<th>Rated games</th></tr>",
    ]
    for i, r in enumerate(board, 1):
        who = (
            f"{e(str(r['name']))} (bot)"
            if r["bot"]
            else f'<a href="/players/{e(str(r["name"]))}">{e(str(r["name"]))}</a>'
        )
        games = "" if r["bot"] else str(r["games"])
        parts.append(
            f'<tr><td>{i}</td><td>{who}</td><td class="rating">'
            f"{e(_rating_text(r['rating'], r['provisional']))}</td><td>{games}</td></tr>"
        )
    parts.append("</table>")
    return _shell(f"{_game_name(game)} leaderboard", "".join(parts))


def add_profiles(
    app: FastAPI,
    the_arena: Callable[[], Arena],
    headers: dict[str, str],
) -> None:
    def engine() -> Engine:
        return the_arena().storage.engine

    async def load_profile(name: str) -> JsonDict:
        data = await asyncio.to_thread(profile, engine(), name)
        if data is None:
            raise ApiError(404, "no_player", f"no rated player called {name!r}")
        return data

    @app.get("/api/players/{name}", responses=documented(404))
    async def player(name: str) -> JsonDict:
        """A player's ratings per game, their history and recent rated games."""
        return await load_profile(name)

    @app.get("/api/leaderboard/{game}", responses=documented(400, 422))
    async def board(
        game: GameId, days: Annotated[int, Query(ge=1, le=365)] = ACTIVE_DAYS
    ) -> list[JsonDict]:
        """The game's active players (a rated game in ``days``) and rated bots, best first."""
        return await asyncio.to_thread(leaderboard, engine(), game, days)

    @app.get("/players/{name}", include_in_schema=False)
    async def player_page(name: str) -> HTMLResponse:
        data = await asyncio.to_thread(profile, engine(), name)
        if data is None:  # a page for a person, not the API's JSON refusal
            body = (
                f"<p>Nobody is called {html.escape(name)} here: the name may be mistyped, "
                "or the account was deleted.</p>"
            )
            return HTMLResponse(_shell("No such player", body), 404, headers=headers)
        return HTMLResponse(profile_page(data), headers=headers)

    @app.get("/leaderboard/{game}", include_in_schema=False)
    async def board_page(game: GameId) -> HTMLResponse:
        rows = await asyncio.to_thread(leaderboard, engine(), game)
        return HTMLResponse(leaderboard_page(game, rows), headers=headers)
