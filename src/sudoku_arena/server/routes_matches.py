"""The JSON API of games and matches (``/api/games``, ``/api/matches``, ``/api/lobby``):
an :class:`~fastapi.APIRouter` built by :func:`api_router` around the app's arena and
included by :func:`~sudoku_arena.server.app.create_app`. Every route checks its body
and the seat's token, then calls the arena (the move path: docs/architecture/server.md).
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from typing import Annotated, cast

from fastapi import APIRouter, Header, Path, Query, Request
from fastapi.responses import Response

from sudoku_arena.core.errors import ArenaError
from sudoku_arena.core.registry import spec_of
from sudoku_arena.core.types import JsonDict
from sudoku_arena.games.rulebook import rules_markdown
from sudoku_arena.server import metrics, rated
from sudoku_arena.server.accounts import (
    current_account,
    link_seats,
    seat_by_token,
)
from sudoku_arena.server.analysis_store import DONE
from sudoku_arena.server.arena import BOT, HUMAN, Arena, SeatSpec
from sudoku_arena.server.clock import TimeControl
from sudoku_arena.server.coach import CoachStore
from sudoku_arena.server.db import games as games_db
from sudoku_arena.server.errors import ApiError
from sudoku_arena.server.live import (
    ActionRefused,
    LiveGame,
    draw_page,
    hash_token,
)
from sudoku_arena.server.models import (
    ActionRequest,
    ActResponse,
    AnalysisResponse,
    BotSeat,
    ClaimRequest,
    ClaimResponse,
    ClientSeedRequest,
    ClientSeedResponse,
    CorrespondenceRequest,
    CreateMatchRequest,
    CreateMatchResponse,
    GameId,
    HumanSeat,
    InviteRequest,
    JoinRequest,
    ListedStatus,
    LobbyEntry,
    MatchInfo,
    MatchPage,
    MatchSummary,
    Mode,
    OpenSeat,
    RecordResponse,
    RematchRequest,
    RematchResponse,
    ReplayResponse,
    RulesResponse,
    SeatLink,
    SeatToken,
    StateResponse,
)
from sudoku_arena.server.openapi import documented
from sudoku_arena.server.pages import (
    games_json,
)
from sudoku_arena.server.seating import SEAT_ELSEWHERE
from sudoku_arena.server.security import client_ip

#: The last page of the games list that may be asked for: more than any server lists,
#: and it keeps the offset the database is asked for small.
MAX_PAGE = 100_000


def _clock_words(clock: JsonDict | None) -> str | None:
    if clock is None:
        return None
    return TimeControl.from_json(clock).words()


def _split_state(text: str) -> JsonDict:
    head, _, drawings = text.partition("\n")
    data: JsonDict = json.loads(head)
    data["svg"], _, data["panel"] = drawings.partition("\n")
    return data


def api_router(the_arena: Callable[[], Arena]) -> APIRouter:
    """The routes of games and matches; ``the_arena()``: the app's arena (set at start)."""
    router = APIRouter()

    # -- API: games --------------------------------------------------------------------------

    @router.get("/api/games")
    async def list_games() -> list[JsonDict]:
        """Every registered game with its options and bot names."""
        return games_json()

    @router.get("/api/games/{game}/rules", responses=documented(422))
    async def game_rules(game: GameId) -> RulesResponse:
        """The game's rules as implemented (Markdown)."""
        spec = spec_of(game)
        return RulesResponse(game=spec.id, markdown=rules_markdown(spec.id))

    # -- API: matches ------------------------------------------------------------------------

    async def get_game(game_id: str) -> LiveGame:
        return await the_arena().require(game_id)

    @router.post(
        "/api/matches", status_code=201, responses=documented(400, 401, 403, 413, 422, 429)
    )
    async def create_match(body: CreateMatchRequest, request: Request) -> CreateMatchResponse:
        """Start a game. Answers the human seats' secret tokens once, and the
        commitment to the game's chance secret.

        A ``seed`` is refused: chance in an online game comes from a secret nobody at
        the table may know or choose (``client_seed`` lets a seat add to it)."""
        request.app.state.limits.hit("create", f"ip:{client_ip(request)}")
        me = await current_account(request)
        if me is not None:  # an account's games count wherever it signs in from
            request.app.state.limits.hit("create", f"account:{me.id}")
        if "seed" in body.model_fields_set:
            raise ApiError(
                400,
                "seed_refused",
                "seed: online games take their chance from a secret the server commits to "
                "and reveals at the end, so nobody at the table knows or steers it; a "
                "chosen seed is refused. To replay a seeded game use the command line "
                "(sudoku-arena play --seed N) or the library. A seat may add randomness "
                "of its own with seats[i].client_seed.",
            )
        params: JsonDict = dict(body.params)
        seats_in = body.seats
        if seats_in is None:
            n = params.get("players", spec_of(body.game).min_players)
            try:
                count = int(n) if isinstance(n, int | str) and not isinstance(n, bool) else 0
            except ValueError:
                count = 0
            seats_in = [HumanSeat()] * count
        seats: list[SeatSpec] = []
        client_seeds: dict[int, str] = {}
        for i, s in enumerate(seats_in):
            if isinstance(s, BotSeat):
                seats.append(SeatSpec(BOT, s.agent, s.name))
                continue
            if s.client_seed is not None:
                client_seeds[i] = s.client_seed
            seats.append(SeatSpec(HUMAN, None, s.name))
        control = None
        if isinstance(body.clock, CorrespondenceRequest):
            control = TimeControl(days=body.clock.days)
        elif body.clock is not None:
            control = TimeControl(body.clock.minutes, body.clock.increment)
        kinds = [(s.kind, s.agent) for s in seats]
        engine = the_arena().storage.engine
        creator = None
        if body.rated:  # refused before anything is made, with what is allowed
            creator = await rated.check_rated(
                request, engine, body.game, kinds, body.mode, body.coach
            )
        lg, tokens = await the_arena().create(
            body.game,
            params,
            seats,
            mode=body.mode,
            client_seeds=client_seeds,
            time_control=control,
            visibility=body.visibility,
            owner=None if me is None else me.id,  # a signed-in creator's seats are his
            rated=None if creator is None else rated.rated_players(kinds, creator),
        )
        if body.coach is not None or body.rated:
            coach = bool(body.coach) and not body.rated  # no coach in a rated game
            await asyncio.to_thread(CoachStore(the_arena().storage).set_enabled, lg.id, coach)
        return CreateMatchResponse(
            id=lg.id,
            game=MatchInfo.model_validate(lg.info()),
            seats=[
                SeatLink(
                    seat=s.seat,
                    kind=s.kind,
                    name=s.name,
                    token=tokens.get(s.seat),
                    url=f"/play/{lg.id}#t={tokens[s.seat]}" if s.seat in tokens else None,
                )
                for s in lg.seats
            ],
            hotseat_url=f"/play/{lg.id}#t=" + ".".join(tokens[k] for k in sorted(tokens)),
            watch_url=f"/play/{lg.id}",
        )

    @router.get("/api/matches", responses=documented(400, 422))
    async def list_matches(
        game: GameId | None = None,
        status: ListedStatus | None = None,
        page: Annotated[int, Query(ge=1, le=MAX_PAGE)] = 1,
        per_page: Annotated[int, Query(ge=1, le=100)] = 20,
    ) -> MatchPage:
        """Public games, newest first: ``game`` and ``status`` filter, ``page`` and
        ``per_page`` page. Private games (invite links) are never listed."""
        rows, total = await asyncio.to_thread(
            games_db.list_games,
            the_arena().storage.engine,
            game=game,
            status=status,
            page=page,
            per_page=per_page,
        )
        return MatchPage(
            games=[
                MatchSummary(
                    id=r.id,
                    game=r.game,
                    players=r.players,
                    status=r.status,
                    outcome=r.outcome,
                    created=r.created,
                    updated=r.updated,
                    mode=cast(Mode, r.mode),  # the model checks it
                    clock=_clock_words(r.clock),
                )
                for r in rows
            ],
            total=total,
            page=page,
            per_page=per_page,
        )

    @router.get("/api/lobby")
    async def lobby() -> list[LobbyEntry]:
        """Public games still going with a seat nobody has taken: join one with
        ``POST /api/matches/{id}/join``."""
        rows = await asyncio.to_thread(games_db.lobby, the_arena().storage.engine)
        out = []
        for r in rows:
            try:
                name = spec_of(r.game).name
            except ArenaError:
                continue
            out.append(
                LobbyEntry(
                    id=r.id,
                    game=r.game,
                    name=name,
                    players=r.players,
                    open_seats=[
                        OpenSeat(seat=s.seat, name=s.name)
                        for s in r.seats
                        if s.kind == HUMAN and s.claimed_by is None and s.seat != r.host_seat
                    ],
                    created=r.created,
                    clock=_clock_words(r.clock),
                )
            )
        return out

    @router.get("/api/matches/{game_id}", responses=documented(404, 503))
    async def match_info(game_id: str) -> MatchInfo:
        """Public facts about a game, its chance commitment included."""
        lg = await get_game(game_id)
        out = MatchInfo.model_validate(lg.info())
        out.rated = lg.rated
        return out

    async def seat_of(
        request: Request, lg: LiveGame, token: object, device: str | bool | None = False
    ) -> int:
        """The seat ``token`` names, refused for a browser signed in as another account
        than the seat's (:func:`seat_by_token`, the rule every seat token meets); with
        ``device`` (not ``False``), refused when another device claimed that seat."""
        if not isinstance(token, str) or not 0 < len(token) <= 100:
            raise ApiError(403, "bad_token", "a seat's secret token is needed for that")
        seat = await seat_by_token(request, lg, token)
        held = lg.seat_device(seat)
        mismatch = not isinstance(device, str) or hash_token(device) != held
        if device is not False and held is not None and mismatch:
            raise ApiError(409, "seat_elsewhere", SEAT_ELSEWHERE)
        return seat

    @router.get("/api/matches/{game_id}/state", responses=documented(403, 404, 409, 503))
    async def match_state(
        game_id: str,
        request: Request,
        authorization: Annotated[
            str | None, Header(description="Bearer <a seat's token>; none: as a spectator")
        ] = None,
        x_device: Annotated[
            str | None, Header(description="this device's token, once it claimed the seat")
        ] = None,
    ) -> StateResponse:
        """The position as a seat sees it (``Authorization: Bearer <token>``) or as a
        spectator (no token): view, log, SVG."""
        lg = await get_game(game_id)
        auth = authorization or ""
        token = auth[7:].strip() if auth.lower().startswith("bearer ") else None
        observer = None if token is None else await seat_of(request, lg, token, x_device)
        if observer is not None:  # a player asking over HTTP is here
            the_arena().seen_over_http(lg, observer)
        await the_arena().refresh(lg)
        data = _split_state(lg.state_message(observer, 0))
        if lg.clock is not None:
            data["server_time"] = time.time()
        return StateResponse.model_validate(data)

    @router.post(
        "/api/matches/{game_id}/actions", responses=documented(400, 403, 404, 409, 413, 422, 503)
    )
    async def match_act(game_id: str, body: ActionRequest, request: Request) -> ActResponse:
        """Act for the seat the token names, at the ply the action was made at."""
        lg = await get_game(game_id)
        seat = await seat_of(request, lg, body.token, body.device)
        the_arena().seen_over_http(lg, seat)
        arrived = time.perf_counter()
        start, nxt = await the_arena().act(lg, seat, body.ply, body.action)
        metrics.move_acknowledged(lg.spec.id, time.perf_counter() - arrived)
        return ActResponse(ply=start, next_ply=nxt, status=lg.status, outcome=lg.outcome)

    @router.post(
        "/api/matches/{game_id}/rematch", responses=documented(400, 403, 404, 409, 413, 503)
    )
    async def match_rematch(
        game_id: str, body: RematchRequest, request: Request
    ) -> RematchResponse:
        """The rematch of a finished game (the token of a seat of it, or the tokens
        of every seat a hot-seat device holds); created once however often asked."""
        lg = await get_game(game_id)
        tokens = body.all_tokens()
        if not tokens:
            raise ApiError(400, "bad_request", "token: a seat's token (or tokens: several)")
        for t in tokens:
            await seat_of(request, lg, t)
        new = await the_arena().rematch(lg)
        return RematchResponse(id=new.id, url=f"/play/{new.id}#t=" + ".".join(tokens))

    @router.post("/api/matches/{game_id}/claim", responses=documented(400, 403, 404, 409, 413, 503))
    async def match_claim(game_id: str, body: ClaimRequest, request: Request) -> ClaimResponse:
        """Claim a seat's link for this device (the first device to open a link keeps
        it). Another device's claim is refused (409 ``seat_elsewhere``) unless ``move``:
        then the seat moves here and the other device is told it lost it. With ``ask``
        that refusal is the answer ``elsewhere`` (200, nothing changed)."""
        lg = await get_game(game_id)
        seat = await seat_of(request, lg, body.token)
        await rated.refuse_guest(request, lg)
        account = await current_account(request)  # a signed-in person's seat from now on
        try:
            moved = await the_arena().seating.claim(
                lg,
                seat,
                hash_token(body.token),
                hash_token(body.device),
                move=body.move,
                account=None if account is None else account.id,
            )
        except ActionRefused as exc:
            if body.ask and exc.code == "seat_elsewhere":
                return ClaimResponse(seat=seat, moved=False, elsewhere=True)
            raise
        return ClaimResponse(seat=seat, moved=moved)

    @router.post(
        "/api/matches/{game_id}/seats/{seat}/invite",
        responses=documented(400, 403, 404, 409, 413, 422, 503),
    )
    async def match_invite(
        game_id: str, seat: Annotated[int, Path(ge=0)], body: InviteRequest, request: Request
    ) -> SeatToken:
        """A new invite link for a seat whose link nobody opened yet, asked by the
        game's creator (with his own seat's token); the old link stops working."""
        lg = await get_game(game_id)
        host = await seat_of(request, lg, body.token, body.device)
        token = await the_arena().seating.reissue(lg, host, seat)
        return SeatToken(seat=seat, token=token, url=f"/play/{lg.id}#t={token}")

    @router.post("/api/matches/{game_id}/join", responses=documented(400, 403, 404, 409, 413, 503))
    async def match_join(game_id: str, body: JoinRequest, request: Request) -> SeatToken:
        """Take an open seat of a public game (from the lobby) for this device."""
        lg = await get_game(game_id)
        await rated.refuse_guest(request, lg)
        seat, token = await the_arena().seating.join(lg, hash_token(body.device))
        await link_seats(request, lg.id, [seat])
        return SeatToken(seat=seat, token=token, url=f"/play/{lg.id}#t={token}")

    @router.post(
        "/api/matches/{game_id}/client-seed", responses=documented(400, 403, 404, 409, 413, 503)
    )
    async def match_client_seed(
        game_id: str, body: ClientSeedRequest, request: Request
    ) -> ClientSeedResponse:
        """Add a seat's own randomness to chance (once per seat).

        It is mixed into every chance draw from the next ply on, and the finished
        record lists it so anybody can check the draws."""
        lg = await get_game(game_id)
        seat = await seat_of(request, lg, body.token)
        given = await the_arena().add_client_seed(lg, seat, body.client_seed)
        return ClientSeedResponse(seat=seat, client_seed=given.seed, from_ply=given.ply)

    @router.get("/api/matches/{game_id}/record", responses=documented(404, 503))
    async def match_record(game_id: str, response: Response) -> RecordResponse:
        """The game record. Once the game is over: complete, with the chance secret
        revealed (``sudoku-arena replay --verify`` checks every draw). While it runs:
        the public record, with the commitment and no secret draw."""
        lg = await get_game(game_id)
        # Opened from a link, it downloads as a file instead of showing as text.
        name = f"{lg.spec.id}-{lg.id}.json"
        response.headers["content-disposition"] = f'attachment; filename="{name}"'
        record = RecordResponse.model_validate(lg.record_json())
        _, counts = await asyncio.to_thread(CoachStore(the_arena().storage).load, lg.id)
        if counts:  # played with hints: the record says how many
            record.hints = [counts.get(s.seat, 0) for s in lg.seats]
        return record

    @router.get("/api/matches/{game_id}/replay/{ply}", responses=documented(400, 404, 409, 503))
    async def match_replay(game_id: str, ply: Annotated[int, Path(ge=0)]) -> ReplayResponse:
        """A finished game after ``ply`` actions, as a spectator sees it, with its SVG."""
        lg = await get_game(game_id)
        if not lg.over:
            raise ApiError(409, "not_over", "the replay is available once the game is over")
        if not 0 <= ply <= lg.ply:
            raise ApiError(404, "not_found", f"ply {ply} is out of range; allowed: 0 to {lg.ply}")
        view = lg.game.view(lg.states[ply], None)
        board, _, panel = draw_page(lg.game, view).partition("\n")
        return ReplayResponse(
            ply=ply,
            total=lg.ply,
            action=None if ply == 0 else lg.log[ply - 1].action,
            actor=None if ply == 0 else lg.log[ply - 1].actor,
            view=view,
            svg=board,
            panel=panel,
        )

    @router.get("/api/matches/{game_id}/analysis", responses=documented(404, 409, 503))
    async def match_analysis(game_id: str) -> AnalysisResponse:
        """The post-game analysis of a finished game: each seat's chance of winning at
        every position (the start and after each action), by the search, and the
        largest swings. Computed in the background once the game is over: ``pending``
        until then (ask again), ``done`` with the values, or ``failed``."""
        lg = await get_game(game_id)
        if not lg.over:
            raise ApiError(409, "not_over", "the analysis is made once the game is over")
        analyser = the_arena().analysis
        if analyser is None:  # a setting of the server, not a failure: said as a status
            return AnalysisResponse(
                game_id=lg.id,
                status="off",
                seats=[s.name for s in lg.seats],
                plies=lg.ply,
                analysed=0,
                simulations=None,
                values=[],
                swings=[],
            )
        row = await analyser.request(game_id)
        if row is None:
            raise ApiError(503, "unavailable", "the analysis could not be asked for; try again")
        done = row.status == DONE
        values = row.result.get("values", [])
        return AnalysisResponse.model_validate(
            {
                "game_id": lg.id,
                "status": row.status,
                "seats": [s.name for s in lg.seats],
                "plies": lg.ply,
                "analysed": len(values),
                "simulations": row.simulations,
                "values": values if done else [],
                "swings": row.result.get("swings", []) if done else [],
                "mistakes": row.result.get("mistakes", []) if done else [],
            }
        )

    return router
