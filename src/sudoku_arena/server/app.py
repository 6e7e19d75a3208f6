"""The ASGI application: pages, the JSON API, and the WebSocket play protocol
(:mod:`sudoku_arena.server.sockets`).

The OpenAPI document (``/api/openapi.json``, shown at ``/api/docs``) says what the API
accepts and answers, refusals included (:mod:`sudoku_arena.server.openapi`). Errors
never carry internals: HTTP errors are ``{"error": {"code", "message"}}``
(:mod:`sudoku_arena.server.errors`).
"""

from __future__ import annotations

import asyncio
import html
import json
import time
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Annotated, Any, cast

import swagger_ui_bundle  # type: ignore[import-untyped]  # ships no type hints
from fastapi import FastAPI, Header, Path, Query
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware.gzip import GZipMiddleware
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from sudoku_arena.core.errors import ArenaError, UnknownGameError
from sudoku_arena.core.registry import spec_of
from sudoku_arena.core.types import JsonDict
from sudoku_arena.games.rulebook import rules_markdown
from sudoku_arena.server.analysis import Analyser
from sudoku_arena.server.analysis_store import DONE
from sudoku_arena.server.arena import BOT, HUMAN, Arena, SeatSpec
from sudoku_arena.server.bots import BotRunner
from sudoku_arena.server.clock import TimeControl
from sudoku_arena.server.coach import CoachStore, add_coach
from sudoku_arena.server.errors import ApiError, error_body, install
from sudoku_arena.server.fanout import RedisFanout
from sudoku_arena.server.live import (
    ActionRefused,
    GameUnavailable,
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
from sudoku_arena.server.openapi import as_served, documented
from sudoku_arena.server.pages import (
    games_json,
    reference_page,
    rules_page,
    web_file,
    web_scripts,
)
from sudoku_arena.server.presence import CLAIM_AFTER
from sudoku_arena.server.printing import router as printing_router
from sudoku_arena.server.seating import SEAT_ELSEWHERE
from sudoku_arena.server.sockets import serve_socket
from sudoku_arena.server.storage import Storage
from sudoku_arena.server.tutorials import add_tutorials


@dataclass(slots=True)
class ServerConfig:
    """How a server process runs (the ``serve`` command's options)."""

    database_url: str = "sqlite:///sudoku-arena.sqlite3"
    redis_url: str | None = None
    channel: str = "sudoku-arena"
    bot_workers: int = 1
    bot_delay: float = 0.4
    max_message: int = 4096
    max_body: int = 65536
    bot_lease: float = 30.0  # seconds a bot lease lasts unrenewed
    idle_seconds: float = 900.0  # a game unused this long leaves memory
    abandon_after: float | None = 7 * 86400.0  # seconds without a move (None: never)
    # Seconds every other person must have been gone (no device connected) before the
    # last one left may claim the win, in invite games without a clock (None: never).
    claim_after: float | None = CLAIM_AFTER
    timeout_sweep: float = 1.0  # seconds between looks at clocks and idle games
    analysis: bool = True  # analyse finished games in the background
    analysis_workers: int | None = None  # None: a process if bot_workers > 0, else a thread
    analysis_simulations: int | None = None  # per position (None: the game's default)


def _analyser(cfg: ServerConfig, storage: Storage) -> Analyser | None:
    if not cfg.analysis:
        return None
    workers = cfg.analysis_workers
    if workers is None:
        workers = 1 if cfg.bot_workers > 0 else 0
    return Analyser(storage, workers=workers, simulations=cfg.analysis_simulations)


#: The last page of the games list that may be asked for: more than any server lists,
#: and it keeps the offset the database is asked for small.
MAX_PAGE = 100_000


class BodyLimit:
    """Refuse HTTP request bodies larger than ``limit`` bytes with a JSON 413."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", []):
            if name == b"content-length":
                try:
                    too_big = int(value) > self.limit
                except ValueError:
                    too_big = True
                if too_big:
                    await self._refuse(scope, receive, send)
                    return
        chunks: list[bytes] = []
        size = 0
        more = True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                break
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.limit:
                await self._refuse(scope, receive, send)
                return
            chunks.append(chunk)
            more = message.get("more_body", False)
        body = b"".join(chunks)
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        resp = JSONResponse(
            error_body("too_large", f"request body over {self.limit} bytes"), status_code=413
        )
        await resp(scope, receive, send)


_SECURITY_HEADERS = {
    "content-security-policy": (
        "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
        "img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'"
    ),
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
}


def _page(name: str) -> HTMLResponse:
    return HTMLResponse(web_file(name), headers=_SECURITY_HEADERS)


def _message_page(
    title: str, message: str, status: int, headers: Mapping[str, str] | None = None
) -> HTMLResponse:
    text = (
        web_file("notfound.html")
        .replace("{{title}}", html.escape(title))
        .replace("{{message}}", html.escape(message))
    )
    return HTMLResponse(text, status_code=status, headers={**_SECURITY_HEADERS, **(headers or {})})


def _static(name: str, media: str) -> Response:
    return Response(
        web_file(name), media_type=media, headers={"cache-control": "no-cache", **_SECURITY_HEADERS}
    )


def _clock_words(clock: JsonDict | None) -> str | None:
    if clock is None:
        return None
    return TimeControl(float(clock["minutes"]), float(clock["increment"])).words()


def _split_state(text: str) -> JsonDict:
    head, _, drawings = text.partition("\n")
    data: JsonDict = json.loads(head)
    data["svg"], _, data["panel"] = drawings.partition("\n")
    return data


class ArenaApp(FastAPI):
    """FastAPI for pages and the JSON API; WebSocket connections to ``/ws/`` go
    straight to :func:`~sudoku_arena.server.sockets.serve_socket`."""

    max_message = 4096

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket" and str(scope.get("path", "")).startswith("/ws/"):
            await serve_socket(self.state.arena, self.max_message, scope, receive, send)
            return
        await super().__call__(scope, receive, send)

    def openapi(self) -> dict[str, Any]:
        """The document at ``/api/openapi.json`` (:mod:`sudoku_arena.server.openapi`)."""
        if self.openapi_schema is None:
            self.openapi_schema = as_served(super().openapi())
        return self.openapi_schema


def create_app(config: ServerConfig | None = None, *, arena: Arena | None = None) -> ArenaApp:
    """The web application; games are kept in ``app.state.arena``."""
    cfg = config or ServerConfig()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        nonlocal arena
        if arena is None:
            storage = Storage(cfg.database_url)
            fanout = RedisFanout(cfg.redis_url, cfg.channel) if cfg.redis_url else None
            arena = Arena(
                storage,
                fanout=fanout,
                bots=BotRunner(cfg.bot_workers),
                bot_delay=cfg.bot_delay,
                idle_seconds=cfg.idle_seconds,
                lease_seconds=cfg.bot_lease,
                abandon_after=cfg.abandon_after,
                claim_after=cfg.claim_after,
                timeout_sweep_seconds=cfg.timeout_sweep,
                analysis=_analyser(cfg, storage),
            )
        app.state.arena = arena
        await arena.start()
        try:
            yield
        finally:
            await arena.stop()

    app = ArenaApp(
        title="Sudoku Arena",
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
        openapi_url="/api/openapi.json",
    )
    app.max_message = cfg.max_message
    # The Swagger UI shipped by swagger-ui-bundle (4.15) reads OpenAPI 3.0 documents.
    app.openapi_version = "3.0.3"

    def the_arena() -> Arena:
        a: Arena = app.state.arena
        return a

    # -- errors as JSON, never internals --------------------------------------------------

    install(app, _message_page)

    # -- pages ------------------------------------------------------------------------------

    @app.get("/", include_in_schema=False)
    async def home() -> HTMLResponse:
        return _page("index.html")

    async def page_for_game(game_id: str, name: str) -> HTMLResponse:
        """The page ``name`` for a game that exists; a clear page otherwise."""
        try:
            found = await the_arena().get(game_id)
        except GameUnavailable as exc:
            raise StarletteHTTPException(503, exc.reason) from None
        if found is None:
            raise StarletteHTTPException(
                404, f"There is no game {game_id[:40]!r}: the link may be mistyped or cut short."
            )
        return _page(name)

    @app.get("/play/{game_id}", include_in_schema=False)
    async def play_page(game_id: str) -> HTMLResponse:
        return await page_for_game(game_id, "play.html")

    @app.get("/replay/{game_id}", include_in_schema=False)
    async def replay_page(game_id: str) -> HTMLResponse:
        return await page_for_game(game_id, "replay.html")

    @app.get("/rules/{game}", include_in_schema=False)
    async def rules(game: str) -> HTMLResponse:
        try:
            text = rules_page(game)
        except UnknownGameError as exc:
            raise StarletteHTTPException(404, str(exc)) from None
        return HTMLResponse(text or "", headers=_SECURITY_HEADERS)

    @app.get("/rules/{game}/reference", include_in_schema=False)
    async def rules_reference(game: str) -> HTMLResponse:
        try:
            text = reference_page(game)
        except UnknownGameError as exc:
            raise StarletteHTTPException(404, str(exc)) from None
        if text is None:
            raise StarletteHTTPException(404, f"{game} has no reference page")
        return HTMLResponse(text, headers=_SECURITY_HEADERS)

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> Response:
        return Response(
            web_file("favicon.svg"),
            media_type="image/svg+xml",
            headers={"cache-control": "max-age=86400"},
        )

    # Swagger UI from the installed swagger-ui-bundle package: /api/docs needs no network.
    app.mount(
        "/api/docs-assets",
        StaticFiles(directory=swagger_ui_bundle.swagger_ui_path),
        name="docs-assets",
    )

    @app.get("/api/docs", include_in_schema=False)
    async def api_docs() -> HTMLResponse:
        return get_swagger_ui_html(
            openapi_url="/api/openapi.json",
            title="Sudoku Arena API",
            swagger_js_url="/api/docs-assets/swagger-ui-bundle.js",
            swagger_css_url="/api/docs-assets/swagger-ui.css",
            swagger_favicon_url="/favicon.ico",
        )

    # The pages load arena.js as an ES module, and it imports the others by relative URL
    # (./board.js...): every script the package ships is served here, as JavaScript
    # (browsers run a module only with a JavaScript type, and nosniff makes them check).
    @app.get("/static/{name}.js", include_in_schema=False)
    async def script(name: str) -> Response:
        file = f"{name}.js"
        if file not in web_scripts():
            raise StarletteHTTPException(404, f"There is no script {file[:40]!r}.")
        return _static(file, "text/javascript")

    @app.get("/static/arena.css", include_in_schema=False)
    async def style() -> Response:
        return _static("arena.css", "text/css")

    @app.get("/healthz", include_in_schema=False)
    async def health() -> PlainTextResponse:
        return PlainTextResponse("ok")

    # -- API: games --------------------------------------------------------------------------

    @app.get("/api/games")
    async def list_games() -> list[JsonDict]:
        """Every registered game with its options and bot names."""
        return games_json()

    @app.get("/api/games/{game}/rules", responses=documented(422))
    async def game_rules(game: GameId) -> RulesResponse:
        """The game's rules as implemented (Markdown)."""
        spec = spec_of(game)
        return RulesResponse(game=spec.id, markdown=rules_markdown(spec.id))

    # -- API: matches ------------------------------------------------------------------------

    async def get_game(game_id: str) -> LiveGame:
        return await the_arena().require(game_id)

    @app.post("/api/matches", status_code=201, responses=documented(400, 413, 422))
    async def create_match(body: CreateMatchRequest) -> CreateMatchResponse:
        """Start a game. Answers the human seats' secret tokens once, and the
        commitment to the game's chance secret.

        A ``seed`` is refused: chance in an online game comes from a secret nobody at
        the table may know or choose (``client_seed`` lets a seat add to it)."""
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
        if body.clock is not None:
            control = TimeControl(body.clock.minutes, body.clock.increment)
        lg, tokens = await the_arena().create(
            body.game,
            params,
            seats,
            mode=body.mode,
            client_seeds=client_seeds,
            time_control=control,
            visibility=body.visibility,
        )
        if body.coach is not None:
            await asyncio.to_thread(CoachStore(the_arena().storage).set_enabled, lg.id, body.coach)
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

    @app.get("/api/matches", responses=documented(400, 422))
    async def list_matches(
        game: GameId | None = None,
        status: ListedStatus | None = None,
        page: Annotated[int, Query(ge=1, le=MAX_PAGE)] = 1,
        per_page: Annotated[int, Query(ge=1, le=100)] = 20,
    ) -> MatchPage:
        """Public games, newest first: ``game`` and ``status`` filter, ``page`` and
        ``per_page`` page. Private games (invite links) are never listed."""
        rows, total = await asyncio.to_thread(
            the_arena().storage.list_games,
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

    @app.get("/api/lobby")
    async def lobby() -> list[LobbyEntry]:
        """Public games still going with a seat nobody has taken: join one with
        ``POST /api/matches/{id}/join``."""
        rows = await asyncio.to_thread(the_arena().storage.lobby)
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

    @app.get("/api/matches/{game_id}", responses=documented(404, 503))
    async def match_info(game_id: str) -> MatchInfo:
        """Public facts about a game, its chance commitment included."""
        return MatchInfo.model_validate((await get_game(game_id)).info())

    def seat_of(lg: LiveGame, token: object, device: str | bool | None = False) -> int:
        """The seat ``token`` names; with ``device`` (not ``False``), refused when
        another device claimed that seat."""
        if not isinstance(token, str) or not 0 < len(token) <= 100:
            raise ApiError(403, "bad_token", "a seat's secret token is needed for that")
        seat = lg.seat_for_token(token)
        if seat is None:
            raise ApiError(403, "bad_token", "that token does not belong to a seat of this game")
        held = lg.seat_device(seat)
        mismatch = not isinstance(device, str) or hash_token(device) != held
        if device is not False and held is not None and mismatch:
            raise ApiError(409, "seat_elsewhere", SEAT_ELSEWHERE)
        return seat

    @app.get("/api/matches/{game_id}/state", responses=documented(403, 404, 409, 503))
    async def match_state(
        game_id: str,
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
        observer = None if token is None else seat_of(lg, token, x_device)
        if observer is not None:  # a player asking over HTTP is here
            the_arena().seen_over_http(lg, observer)
        await the_arena().refresh(lg)
        data = _split_state(lg.state_message(observer, 0))
        if lg.clock is not None:
            data["server_time"] = time.time()
        return StateResponse.model_validate(data)

    @app.post(
        "/api/matches/{game_id}/actions", responses=documented(400, 403, 404, 409, 413, 422, 503)
    )
    async def match_act(game_id: str, body: ActionRequest) -> ActResponse:
        """Act for the seat the token names, at the ply the action was made at."""
        lg = await get_game(game_id)
        seat = seat_of(lg, body.token, body.device)
        the_arena().seen_over_http(lg, seat)
        start, nxt = await the_arena().act(lg, seat, body.ply, body.action)
        return ActResponse(ply=start, next_ply=nxt, status=lg.status, outcome=lg.outcome)

    @app.post("/api/matches/{game_id}/rematch", responses=documented(400, 403, 404, 409, 413, 503))
    async def match_rematch(game_id: str, body: RematchRequest) -> RematchResponse:
        """The rematch of a finished game (the token of a seat of it, or the tokens
        of every seat a hot-seat device holds); created once however often asked."""
        lg = await get_game(game_id)
        tokens = body.all_tokens()
        if not tokens:
            raise ApiError(400, "bad_request", "token: a seat's token (or tokens: several)")
        for t in tokens:
            seat_of(lg, t)
        new = await the_arena().rematch(lg)
        return RematchResponse(id=new.id, url=f"/play/{new.id}#t=" + ".".join(tokens))

    @app.post("/api/matches/{game_id}/claim", responses=documented(400, 403, 404, 409, 413, 503))
    async def match_claim(game_id: str, body: ClaimRequest) -> ClaimResponse:
        """Claim a seat's link for this device (the first device to open a link keeps
        it). Another device's claim is refused (409 ``seat_elsewhere``) unless ``move``:
        then the seat moves here and the other device is told it lost it. With ``ask``
        that refusal is the answer ``elsewhere`` (200, nothing changed)."""
        lg = await get_game(game_id)
        seat = seat_of(lg, body.token)
        try:
            moved = await the_arena().seating.claim(
                lg, seat, hash_token(body.token), hash_token(body.device), move=body.move
            )
        except ActionRefused as exc:
            if body.ask and exc.code == "seat_elsewhere":
                return ClaimResponse(seat=seat, moved=False, elsewhere=True)
            raise
        return ClaimResponse(seat=seat, moved=moved)

    @app.post(
        "/api/matches/{game_id}/seats/{seat}/invite",
        responses=documented(400, 403, 404, 409, 413, 422, 503),
    )
    async def match_invite(
        game_id: str, seat: Annotated[int, Path(ge=0)], body: InviteRequest
    ) -> SeatToken:
        """A new invite link for a seat whose link nobody opened yet, asked by the
        game's creator (with his own seat's token); the old link stops working."""
        lg = await get_game(game_id)
        host = seat_of(lg, body.token, body.device)
        token = await the_arena().seating.reissue(lg, host, seat)
        return SeatToken(seat=seat, token=token, url=f"/play/{lg.id}#t={token}")

    @app.post("/api/matches/{game_id}/join", responses=documented(400, 403, 404, 409, 413, 503))
    async def match_join(game_id: str, body: JoinRequest) -> SeatToken:
        """Take an open seat of a public game (from the lobby) for this device."""
        lg = await get_game(game_id)
        seat, token = await the_arena().seating.join(lg, hash_token(body.device))
        return SeatToken(seat=seat, token=token, url=f"/play/{lg.id}#t={token}")

    @app.post(
        "/api/matches/{game_id}/client-seed", responses=documented(400, 403, 404, 409, 413, 503)
    )
    async def match_client_seed(game_id: str, body: ClientSeedRequest) -> ClientSeedResponse:
        """Add a seat's own randomness to chance (once per seat).

        It is mixed into every chance draw from the next ply on, and the finished
        record lists it so anybody can check the draws."""
        lg = await get_game(game_id)
        seat = seat_of(lg, body.token)
        given = await the_arena().add_client_seed(lg, seat, body.client_seed)
        return ClientSeedResponse(seat=seat, client_seed=given.seed, from_ply=given.ply)

    @app.get("/api/matches/{game_id}/record", responses=documented(404, 503))
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

    @app.get("/api/matches/{game_id}/replay/{ply}", responses=documented(400, 404, 409, 503))
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

    @app.get("/api/matches/{game_id}/analysis", responses=documented(404, 409, 503))
    async def match_analysis(game_id: str) -> AnalysisResponse:
        """The post-game analysis of a finished game: each seat's chance of winning at
        every position (the start and after each action), by the search, and the
        largest swings. Computed in the background once the game is over: ``pending``
        until then (ask again), ``done`` with the values, or ``failed``."""
        lg = await get_game(game_id)
        if not lg.over:
            raise ApiError(409, "not_over", "the analysis is made once the game is over")
        analyser = the_arena().analysis
        if analyser is None:
            raise ApiError(503, "unavailable", "this server does not analyse games")
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

    app.include_router(printing_router)  # print and play: sheets and games as PDF
    add_tutorials(app, _SECURITY_HEADERS)  # learn to play: the lessons' API and pages
    add_coach(app, the_arena)  # hints during a game (the coach)
    app.add_middleware(GZipMiddleware, minimum_size=2048)
    app.add_middleware(BodyLimit, limit=cfg.max_body)
    return app
