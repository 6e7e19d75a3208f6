"""The coach in the browser's games: hints during a game, and whether a game allows them.

* ``GET /api/matches/{id}/coach``: whether the coach is on in that game, why, and the
  hints each seat asked for; public, so every player (and anybody watching) sees it.
* ``POST /api/matches/{id}/coach/answer`` with a seat's token: that person agrees to
  (or declines) the coach the creator turned on.
* ``POST /api/matches/{id}/hint`` with a seat's token: the search's three best moves for
  that seat now, each with its win chance, in notation and in words.

The coach is on in a game with at most one person (the others bots) unless its creator
turned it off, and off in a game between people unless the creator turned it on
(``coach`` when the game is created; the play page states it to everybody who opens
the game). Between people the creator's choice is an offer: each other person's seat
must agree (``POST /api/matches/{id}/coach/answer`` with its token) before anybody gets
a hint, and one refusal turns the coach off for the whole game for good (migration 0007
stores the answers). Each hint is counted per seat in ``arena_coach`` (migration 0006) and the
count is part of the game's record, so a game played with hints is told apart.

A hint is searched from the seat's own view only: the position is determinised for that
seat as a bot's is (everything it cannot see dealt anew), the search's generator is
seeded from a hash of its view, and the search itself re-deals the unseen at every
simulation. Two games that differ only in what the seat cannot see get the same hint.
The search runs in the bot workers (:meth:`~.bots.BotRunner.call`), never on the
event loop.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial

from fastapi import FastAPI, Request
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import Boolean, Column, Integer, String, Table, Text, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from sudoku_arena.ai.coach import hint_simulations, suggestions
from sudoku_arena.core.registry import entry_of
from sudoku_arena.core.types import JsonDict
from sudoku_arena.server.accounts import seat_by_token
from sudoku_arena.server.arena import HUMAN, Arena
from sudoku_arena.server.db.engine import Storage
from sudoku_arena.server.db.schema import metadata
from sudoku_arena.server.errors import ApiError
from sudoku_arena.server.live import LiveGame
from sudoku_arena.server.openapi import documented

coach_table = Table(
    "arena_coach",
    metadata,
    Column("game_id", String(32), primary_key=True),
    Column("enabled", Boolean, nullable=True),  # the creator's choice (None: default)
    Column("hints", Text, nullable=False),  # JSON {"seat": hints asked}
    Column("agreed", Text, nullable=False, server_default="[]"),  # JSON [seat, ...]
    Column("declined", Integer, nullable=True),  # the seat that refused the creator's coach
)


@dataclass
class CoachRow:
    """One game's row of ``arena_coach`` (no row: the defaults)."""

    enabled: bool | None = None
    hints: dict[int, int] = field(default_factory=dict)
    agreed: set[int] = field(default_factory=set)
    declined: int | None = None


class CoachStore:
    """Reads and writes of ``arena_coach`` (blocking: call from a thread)."""

    def __init__(self, storage: Storage) -> None:
        self.engine = storage.engine

    def _insert(self, game_id: str, enabled: bool | None) -> None:
        insert = pg_insert if self.engine.dialect.name == "postgresql" else sqlite_insert
        with self.engine.begin() as conn:
            conn.execute(
                insert(coach_table)
                .values(game_id=game_id, enabled=enabled, hints="{}")
                .on_conflict_do_nothing()
            )

    def set_enabled(self, game_id: str, enabled: bool) -> None:
        """The creator's choice, once, when the game is made."""
        self._insert(game_id, enabled)

    def load(self, game_id: str) -> tuple[bool | None, dict[int, int]]:
        row = self.load_row(game_id)
        return row.enabled, row.hints

    def load_row(self, game_id: str) -> CoachRow:
        t = coach_table
        with self.engine.connect() as conn:
            row = conn.execute(select(t).where(t.c.game_id == game_id)).first()
        if row is None:
            return CoachRow()
        counts = json.loads(row.hints or "{}")
        return CoachRow(
            enabled=row.enabled,
            hints={int(k): int(v) for k, v in counts.items()},
            agreed={int(x) for x in json.loads(row.agreed or "[]")},
            declined=row.declined,
        )

    def answer(self, game_id: str, seat: int, agree: bool) -> None:
        """``seat``'s answer to the creator's coach. A refusal is kept only if none came
        first (the first refusal is the one told); the check and the write are one
        transaction, so two answers at once do not lose one."""
        t = coach_table
        with self.engine.begin() as conn:
            if not agree:
                conn.execute(
                    update(t)
                    .where(t.c.game_id == game_id, t.c.declined.is_(None))
                    .values(declined=seat)
                )
                return
            # FOR UPDATE (PostgreSQL; SQLite writes one at a time anyway): two people
            # agreeing at once each add their seat, neither overwrites the other's.
            row = conn.execute(
                select(t.c.agreed).where(t.c.game_id == game_id).with_for_update()
            ).first()
            agreed = set(json.loads(row.agreed if row is not None else "[]")) | {seat}
            conn.execute(
                update(t).where(t.c.game_id == game_id).values(agreed=json.dumps(sorted(agreed)))
            )

    def add_hint(self, game_id: str, seat: int) -> int:
        """Count one hint for ``seat``; the seat's hints so far."""
        self._insert(game_id, None)
        t = coach_table
        with self.engine.begin() as conn:
            row = conn.execute(select(t.c.hints).where(t.c.game_id == game_id)).first()
            counts = json.loads(row.hints if row is not None else "{}")
            counts[str(seat)] = int(counts.get(str(seat), 0)) + 1
            conn.execute(update(t).where(t.c.game_id == game_id).values(hints=json.dumps(counts)))
        return int(counts[str(seat)])


def host_seat(lg: LiveGame) -> int | None:
    """The creator's seat: the first person's (as the arena's ``host_seat``)."""
    return next((s.seat for s in lg.seats if s.kind == HUMAN), None)


def still_asked(lg: LiveGame, row: CoachRow) -> list[int]:
    """The people's seats whose agreement the creator's coach still waits for: every
    person but the creator (whose creating it was the agreement); bots are not asked."""
    if row.enabled is not True or row.declined is not None:
        return []
    host = host_seat(lg)
    return [
        s.seat for s in lg.seats if s.kind == HUMAN and s.seat != host and s.seat not in row.agreed
    ]


def coach_on(lg: LiveGame, enabled: bool | None, row: CoachRow | None = None) -> tuple[bool, str]:
    """Whether the coach is on in ``lg`` and why, in words."""
    people = sum(1 for s in lg.seats if s.kind == HUMAN)
    row = row if row is not None else CoachRow(enabled=enabled)
    if enabled is True and row.declined is not None:
        return False, f"player {row.declined + 1} declined the coach, so it is off for everybody"
    if enabled is True and people > 1:
        asked = still_asked(lg, row)
        if asked:
            names = ", ".join(f"player {s + 1}" for s in asked)
            return False, f"the game's creator turned the coach on; waiting for {names} to agree"
        return True, "the game's creator turned the coach on and every player agreed"
    if enabled is True:
        return True, "the game's creator turned the coach on, for every player"
    if enabled is False:
        return False, "the game's creator turned the coach off"
    if people <= 1:
        return True, "a game against bots"
    # seeks and challenges make games too: no "creator" chose anything there
    return False, "a game between people, started without the coach"


# -- in the worker ---------------------------------------------------------------------------


def view_seed(view: JsonDict, seat: int) -> int:
    """A seed drawn from the seat's view alone (and nothing else of the game)."""
    text = json.dumps(view, sort_keys=True, separators=(",", ":")) + f"#{seat}"
    return int(hashlib.sha256(text.encode()).hexdigest()[:15], 16)


def hint_job(
    game_id: str, params_json: str, state: JsonDict, seat: int, simulations: int, seed: int
) -> list[tuple[str, int, float]]:
    """The hint (runs in a worker): ``(notation, visits, chance)`` per move, best first."""
    from sudoku_arena.server.bots import _game

    game = _game(game_id, params_json)
    s = game.load_state(state)
    return [
        (str(game.format_action(m.action)), m.visits, m.chance)
        for m in suggestions(game, s, seat, simulations, seed)
    ]


def hint_for(lg: LiveGame, seat: int, simulations: int) -> partial[list[tuple[str, int, float]]]:
    """The hint's job for ``seat`` now (to run in a worker): it gets the seat's world,
    never the true one, dealt from the seat's view with a generator seeded from that
    view only, and the search's seed comes from the same view."""
    game = lg.game
    seed = view_seed(lg.view(seat), seat)
    state = lg.state
    if lg.spec.hidden_information:
        state = game.determinize(state, seat, random.Random(seed))
    params = json.dumps(lg.row.params, sort_keys=True)
    return partial(hint_job, lg.spec.id, params, game.dump_state(state), seat, simulations, seed)


# -- the API -----------------------------------------------------------------------------------


class HintRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    token: str = Field(min_length=1, max_length=100, description="the asking seat's token")


class HintMove(BaseModel):
    rank: int = Field(description="1 for the search's best")
    action: str = Field(description="the move in the game's notation")
    says: str = Field(description="the move in words")
    chance: float = Field(ge=0, le=1, description="the seat's chance of winning after it")
    visits: int = Field(description="the search's simulations through the move")


class HintResponse(BaseModel):
    game_id: str
    seat: int
    ply: int = Field(description="the position the hint is for")
    simulations: int
    moves: list[HintMove] = Field(description="up to three moves, best first")
    hints: int = Field(description="hints this seat has asked for in this game")


class CoachInfo(BaseModel):
    game_id: str
    enabled: bool
    why: str
    hints: list[int] = Field(description="hints asked for, per seat")
    offered: bool = Field(
        default=False, description="the creator turned the coach on in a game between people"
    )
    agreed: list[int] = Field(
        default_factory=list, description="the seats that agreed (the creator's by creating it)"
    )
    asked: list[int] = Field(
        default_factory=list, description="the people's seats still asked to agree"
    )
    declined: int | None = Field(
        default=None, description="the seat that declined: the coach is then off for good"
    )


class CoachAnswer(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    token: str = Field(min_length=1, max_length=100, description="the answering seat's token")
    agree: bool = Field(description="true: agree to the coach; false: turn it off for good")


def add_coach(app: FastAPI, the_arena: Callable[[], Arena]) -> None:
    """Adds the coach's two routes to ``app``."""

    async def game_of(game_id: str) -> LiveGame:
        return await the_arena().require(game_id)

    async def info(lg: LiveGame) -> CoachInfo:
        row = await asyncio.to_thread(CoachStore(the_arena().storage).load_row, lg.id)
        on, why = coach_on(lg, row.enabled, row)
        hints = [row.hints.get(s.seat, 0) for s in lg.seats]
        people = [s.seat for s in lg.seats if s.kind == HUMAN]
        offered = row.enabled is True and len(people) > 1
        host = host_seat(lg)
        agreed = sorted((row.agreed | ({host} if host is not None else set())) & set(people))
        return CoachInfo(
            game_id=lg.id,
            enabled=on,
            why=why,
            hints=hints,
            offered=offered,
            agreed=agreed if offered else [],
            asked=still_asked(lg, row) if offered else [],
            declined=row.declined if offered else None,
        )

    @app.get("/api/matches/{game_id}/coach", responses=documented(404, 503))
    async def match_coach(game_id: str) -> CoachInfo:
        """Whether the coach (hints) is on in this game, why, and each seat's hints."""
        return await info(await game_of(game_id))

    @app.post(
        "/api/matches/{game_id}/coach/answer", responses=documented(400, 403, 404, 409, 413, 503)
    )
    async def match_coach_answer(game_id: str, body: CoachAnswer, request: Request) -> CoachInfo:
        """The answer of the seat the token names to the coach its creator turned on in
        a game between people: agree (hints wait for every person's), or decline (the
        coach is off for everybody, for good). Refused (409 ``not_asked``) for a seat
        that is not asked: the creator's, or once the coach was declined or was never
        offered."""
        lg = await game_of(game_id)
        seat = await seat_by_token(request, lg, body.token)
        before = await info(lg)
        if body.agree and seat in before.agreed and before.declined is None:
            return before  # agreeing twice changes nothing
        if seat not in before.asked:
            raise ApiError(
                409, "not_asked", f"this seat is not asked about the coach: {before.why}"
            )
        await asyncio.to_thread(CoachStore(the_arena().storage).answer, lg.id, seat, body.agree)
        return await info(lg)

    @app.post("/api/matches/{game_id}/hint", responses=documented(400, 403, 404, 409, 413, 503))
    async def match_hint(game_id: str, body: HintRequest, request: Request) -> HintResponse:
        """The search's three best moves for the seat the token names, from its own
        view, each with its chance of winning. Refused (403 ``coach_off``) in a game
        without the coach, (403 ``coach_not_agreed``) while a person has not yet agreed
        to the coach the creator turned on, and (409) when the seat is not to move or
        the game is over."""
        lg = await game_of(game_id)
        seat = await seat_by_token(request, lg, body.token)
        arena = the_arena()
        await arena.refresh(lg)
        if lg.over:
            raise ApiError(409, "game_over", "the game is over: the replay shows its mistakes")
        coach = await info(lg)
        if not coach.enabled and coach.asked:
            raise ApiError(403, "coach_not_agreed", f"no hints yet: {coach.why}")
        if not coach.enabled:
            raise ApiError(403, "coach_off", f"no hints in this game: {coach.why}")
        if seat not in lg.to_move():
            raise ApiError(409, "not_your_turn", "a hint is for the seat to move; wait your turn")
        game, ply = lg.game, lg.ply
        sims = hint_simulations(game)
        found = await arena.bots.call(hint_for(lg, seat, sims))
        used = await asyncio.to_thread(CoachStore(arena.storage).add_hint, lg.id, seat)
        explain = entry_of(game).explain
        return HintResponse(
            game_id=lg.id,
            seat=seat,
            ply=ply,
            simulations=sims,
            moves=[
                HintMove(
                    rank=i + 1,
                    action=a,
                    says=(explain(a) if explain is not None else "") or a,
                    chance=c,
                    visits=n,
                )
                for i, (a, n, c) in enumerate(found)
            ],
            hints=used,
        )
