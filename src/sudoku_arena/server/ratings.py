"""Ratings per game with OpenSkill (Plackett-Luce: 1 to 6 players, ties allowed).

**The display scale.** OpenSkill keeps ``mu`` (the skill estimate) and ``sigma`` (its
uncertainty); a new player has mu 25, sigma 25/3. A rating is shown as
``1500 + SCALE * (mu - 25)`` with ``SCALE = 200 / beta`` (beta = 25/6, OpenSkill's
per-game spread): a new player shows **1500**, and one beta of skill is 200 points
(about 3 games in 4 won, as 200 points in chess). The uncertainty is shown instead of
being subtracted: a rating is **provisional** (marked "?") until
:data:`PROVISIONAL_GAMES` rated games.

**Ranks.** Winners share rank 1. In the games with scores (:data:`SCORED_GAMES`: Cat
Sudoku, SuDokuHex) the other players follow by score, equal scores sharing a rank; in
the others every non-winner shares rank 2; a game nobody won (draw) ranks everybody 1
(or by score). A game ended by ``abort`` or ``abandoned`` is not rated.

**Bots.** The rated levels (:data:`RATED_LEVELS`, the levels the lobby offers) get a
rating per game fitted from the bots' own games in ``docs/strength.json`` (each played
game replayed once through OpenSkill; in a game whose table has only solo rows, they
compare the levels' scores on the same deal as one game), then shifted so
``normal``'s mu is a new player's (25): it shows exactly 1500 ("normal, about 1500"),
and a new player and ``normal`` are expected to be even.

The server reads the fitted ratings from ``bot_ratings.json`` beside this module
(:data:`BOT_RATINGS_JSON`), not the strength table: the table lives in ``docs/``,
outside the package, so a server installed from a wheel would have no bot ratings (and
refuse rated games against bots); shipping the table instead would add 7.7 MB of games
to the package and replay them all at each start-up, for a few numbers per game. The
file is written by ``scripts/fit_bot_ratings.py`` (:func:`write_bot_ratings`) whenever
the strength table changes, and a test checks that it equals the fit of today's table,
so it cannot go stale unnoticed.

Those ratings are **anchored**: a game against a person moves the person's rating
(against the bot's fixed one) and never the bot's, so nobody can farm a bot down or up;
repeated wins over a bot far below you earn almost nothing, as OpenSkill expects them.

A result is applied once per fleet: the :class:`~sudoku_arena.server.events.GameEnded`
listener takes the right with a conditional update in the transaction that writes
the new ratings (:func:`sudoku_arena.server.db.ratings.claim_apply`).
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import NotRequired, TypedDict

from openskill.models import PlackettLuce, PlackettLuceRating
from sqlalchemy import Engine

from sudoku_arena.core.endings import ABANDONED, ABORT, OUTSIDE_RULES
from sudoku_arena.core.types import JsonDict, Outcome
from sudoku_arena.server.db import accounts
from sudoku_arena.server.db import ratings as db
from sudoku_arena.server.events import Event, GameEnded

log = logging.getLogger("sudoku_arena.server")

MODEL = PlackettLuce()
BETA = 25 / 6
SCALE = 200 / BETA
START = 1500
#: Rated games before a rating stops being provisional.
PROVISIONAL_GAMES = 10
#: The bot levels a rated game may seat (the lobby's levels).
RATED_LEVELS = ("easy", "normal", "hard")
#: Games whose outcome scores order the players behind the winners.
SCORED_GAMES = frozenset({"cat-sudoku", "sudokuhex"})
#: Endings that leave ratings alone (nobody really played).
UNRATED_ENDINGS = frozenset({ABORT, ABANDONED})
#: The project's strength table in a checkout: what the bots' ratings are fitted from
#: (by the script and the tests; the server does not read it).
STRENGTH_JSON = Path(__file__).resolve().parents[3] / "docs" / "strength.json"
#: The bots' fitted ratings, shipped in the package: what the server reads.
BOT_RATINGS_JSON = Path(__file__).with_name("bot_ratings.json")

BOT = "bot:"
ACCOUNT = "account:"


def display(mu: float, sigma: float) -> int:
    """The rating shown: ``1500 + SCALE * (mu - 25)`` (see the module doc); ``sigma``
    is not part of it (provisional marks it)."""
    return round(START + SCALE * (mu - MODEL.mu))


def provisional(games: int, player: str) -> bool:
    return not player.startswith(BOT) and games < PROVISIONAL_GAMES


def account_key(account_id: int) -> str:
    return f"{ACCOUNT}{account_id}"


def bot_key(level: str) -> str:
    return f"{BOT}{level}"


def ranks(game: str, outcome: Outcome) -> list[int] | None:
    """OpenSkill ranks by seat (1 best, ties share), or ``None``: not rated."""
    if outcome.code in UNRATED_ENDINGS:
        return None
    n = len(outcome.scores)
    by_score = game in SCORED_GAMES and outcome.code not in OUTSIDE_RULES
    winners = set(outcome.winners)

    def key(seat: int) -> tuple[int, float]:
        return (seat in winners, outcome.scores[seat] if by_score else 0.0)

    order = sorted({key(s) for s in range(n)}, reverse=True)
    return [order.index(key(s)) + 1 for s in range(n)]


# -- the bots' anchored ratings --------------------------------------------------------


class StrengthResult(TypedDict):
    """What the fit reads of one game in ``docs/strength.json`` (it holds more)."""

    seed: int
    returns: list[float]  # per seat


class StrengthRow(TypedDict):
    """One pairing (or one solo level) of a game in the strength table."""

    players: list[str]  # levels, per seat
    results: list[StrengthResult]


class StrengthTable(TypedDict):
    """``docs/strength.json``: per game, its rows by name."""

    games: NotRequired[dict[str, dict[str, StrengthRow]]]


def _games_of(rows: Mapping[str, StrengthRow]) -> Iterable[tuple[list[str], list[float]]]:
    """Each bots' game of one game's strength rows as (levels, returns), the rows'
    games interleaved (one of each row in turn) so no pairing is replayed all at once.

    Solo rows' games on the same deal (``seed``) become one game of their levels, but
    only in a game whose table has no games between levels: a rating is used in games
    against people, and a level may play otherwise alone than with opponents
    (SuDokuHex's ``hard`` searches alone and plays ``normal``'s rule with one or two
    opponents)."""
    pairs: list[list[tuple[list[str], list[float]]]] = []
    solo: dict[int, tuple[list[str], list[float]]] = {}
    for row in rows.values():
        players = [str(p) for p in row["players"]]
        if len(players) == 1:
            for r in row["results"]:
                levels, returns = solo.setdefault(int(r["seed"]), ([], []))
                levels.append(players[0])
                returns.append(float(r["returns"][0]))
        else:
            pairs.append([(players, [float(x) for x in r["returns"]]) for r in row["results"]])
    for i in range(max((len(p) for p in pairs), default=0)):
        for p in pairs:
            if i < len(p):
                yield p[i]
    if any(pairs):
        return
    for _, (levels, returns) in sorted(solo.items()):
        if len(levels) >= 2:
            yield levels, returns


def fit_bots(strength: StrengthTable) -> dict[str, dict[str, tuple[float, float]]]:
    """Per game, per rated level: (mu, sigma) fitted from the bots' games and shifted so
    that ``normal`` shows 1500. A game without ``normal`` in its rows has no bots rated."""
    out: dict[str, dict[str, tuple[float, float]]] = {}
    for game, rows in strength.get("games", {}).items():
        model: dict[str, PlackettLuceRating] = {}
        for levels, returns in _games_of(rows):
            teams = [[model.setdefault(lv, MODEL.rating(name=lv))] for lv in levels]
            order = sorted(set(returns), reverse=True)
            rated = MODEL.rate(teams, ranks=[float(order.index(r) + 1) for r in returns])
            for lv, (new,) in zip(levels, rated, strict=True):
                model[lv] = new
        if "normal" not in model:
            continue
        normal = model["normal"]
        shift = normal.mu - MODEL.mu  # normal's mu becomes a new player's: 1500 shown
        out[game] = {
            lv: (float(r.mu - shift), float(r.sigma))
            for lv, r in model.items()
            if lv in RATED_LEVELS
        }
    return out


Fitted = dict[str, dict[str, tuple[float, float]]]


def write_bot_ratings(strength: Path = STRENGTH_JSON, out: Path = BOT_RATINGS_JSON) -> Fitted:
    """Fit the bots' ratings from the strength table ``strength`` and write them to
    ``out`` (the packaged file); answers them."""
    fitted = fit_bots(json.loads(strength.read_text()))
    data = {
        "about": "the bots' anchored ratings, (mu, sigma) per game and level, fitted from "
        "docs/strength.json by scripts/fit_bot_ratings.py",
        "games": {
            g: {lv: list(r) for lv, r in sorted(ls.items())} for g, ls in sorted(fitted.items())
        },
    }
    out.write_text(json.dumps(data, indent=1) + "\n")
    return fitted


def packaged_bot_ratings(path: Path = BOT_RATINGS_JSON) -> Fitted:
    """The bots' fitted ratings as shipped (:data:`BOT_RATINGS_JSON`)."""
    games = json.loads(path.read_text())["games"]
    return {
        str(g): {str(lv): (float(r[0]), float(r[1])) for lv, r in levels.items()}
        for g, levels in games.items()
    }


def seed_bots(engine: Engine, path: Path = BOT_RATINGS_JSON) -> int:
    """Write the bots' anchored ratings (start-up) from the packaged file; returns how
    many were written. No file, or an unreadable one: nothing (logged)."""
    try:
        fitted = packaged_bot_ratings(path)
    except (OSError, ValueError, KeyError, IndexError, TypeError, AttributeError) as exc:
        log.warning("ratings: no bot ratings (%s)", exc)
        return 0
    now = time.time()
    written = 0
    with engine.begin() as conn:
        for game, levels in fitted.items():
            rows = [
                (db.RatingRow(bot_key(lv), game, lv, mu, sigma, 0, now), display(mu, sigma))
                for lv, (mu, sigma) in sorted(levels.items())
            ]
            db.store_ratings(conn, game, None, rows)
            written += len(rows)
    return written


# -- applying results ---------------------------------------------------------------------


@dataclass(frozen=True)
class Change:
    player: str
    name: str
    before: int
    after: int


def apply_result(
    engine: Engine,
    game_id: str,
    game: str,
    outcome: Outcome,
    seats: Mapping[int, tuple[str, str]] | None = None,
) -> list[Change]:
    """Apply a finished rated game's result once (the fleet's first caller does; the
    others get ``[]``). ``seats``: players known elsewhere (accounts' seats), added to
    those recorded with the game. A game with a seat nobody rated holds is marked
    applied without changing anybody (it cannot be rated)."""
    order = ranks(game, outcome)
    with engine.begin() as conn:
        if not db.claim_apply(conn, game_id):
            return []
        players = {**db.rated_seats(conn, game_id), **(seats or {})}
        n = len(outcome.scores)
        if order is None or n < 2 or sorted(players) != list(range(n)):
            return []
        keys = [players[s][0] for s in range(n)]
        if len(set(keys)) != n or not all(keys):
            return []  # one player in two seats: not a rated game
        now = time.time()
        people = {k: players[s][1] for s, k in enumerate(keys) if not k.startswith(BOT)}
        db.ensure_ratings(conn, game, people, MODEL.mu, MODEL.sigma, now)
        known = db.load_ratings(conn, game, keys)
        current = [
            known.get(k) or db.RatingRow(k, game, players[s][1], MODEL.mu, MODEL.sigma, 0, now)
            for s, k in enumerate(keys)
        ]
        if any(k.startswith(BOT) and k not in known for k in keys):
            return []  # a level without an anchored rating in this game
        teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in current]
        rated = MODEL.rate(teams, ranks=[float(r) for r in order])
        changes: list[Change] = []
        rows: list[tuple[db.RatingRow, int]] = []
        for s, (old, (new,)) in enumerate(zip(current, rated, strict=True)):
            if old.player.startswith(BOT):
                continue  # anchored: a bot's rating never moves in games with people
            row = db.RatingRow(
                old.player, game, players[s][1][:64], new.mu, new.sigma, old.games + 1, now
            )
            after = display(new.mu, new.sigma)
            rows.append((row, after))
            changes.append(Change(old.player, row.name, display(old.mu, old.sigma), after))
        db.store_ratings(conn, game, game_id, rows)
    return changes


def seat_players(engine: Engine, game_id: str) -> dict[int, tuple[str, str]]:
    """The seats held by accounts (the accounts' own record), as rating keys."""
    out: dict[int, tuple[str, str]] = {}
    for seat, account_id in accounts.seat_accounts(engine, game_id).items():
        row = accounts.account_by_id(engine, account_id)
        if row is not None:
            out[seat] = (account_key(account_id), row.name)
    return out


class Ratings:
    """The app's ratings: the GameEnded listener and the bots' seeding at start-up."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    async def start(self) -> None:
        await asyncio.to_thread(seed_bots, self.engine)

    async def on_event(self, event: Event) -> None:
        if isinstance(event, GameEnded):
            await asyncio.to_thread(self.apply, event.game_id, event.game, event.outcome)

    def apply(self, game_id: str, game: str, outcome: JsonDict) -> list[Change]:
        if not db.is_rated(self.engine, game_id):
            return []
        return apply_result(
            self.engine,
            game_id,
            game,
            Outcome.from_json(outcome),
            seat_players(self.engine, game_id),
        )


def bot_ratings(engine: Engine, game: str) -> dict[str, int]:
    """The anchored rating shown for each rated level of ``game`` (the lobby's)."""
    rows = db.game_ratings(engine, game)
    return {
        r.player.removeprefix(BOT): display(r.mu, r.sigma) for r in rows if r.player.startswith(BOT)
    }


def levels_rated(engine: Engine, game: str) -> Sequence[str]:
    return sorted(bot_ratings(engine, game))
