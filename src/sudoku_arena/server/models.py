"""The JSON API's request and response bodies, as Pydantic models.

FastAPI validates every request against these (a refusal keeps the project's error
shape: ``{"error": {"code": "bad_request", "message": "seats.0.kind: ..."}}``) and
documents them at ``/api/docs``. Views, boards' options and records hold game-specific
JSON, which the engines define; they are typed here as JSON objects.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    GetCoreSchemaHandler,
    StrictInt,
    Tag,
)
from pydantic.json_schema import WithJsonSchema
from pydantic_core import CoreSchema, core_schema

from sudoku_arena.core.fairness import MAX_CLIENT_SEED
from sudoku_arena.core.registry import registered_games
from sudoku_arena.core.types import JsonDict

#: The longest action text accepted (notation is short; this bounds garbage).
MAX_ACTION = 200
#: The most seat tokens one request may carry (a hot-seat game's seats).
MAX_TOKENS = 8
#: The validation error type (and API error code) of a game id nobody registered.
UNKNOWN_GAME = "unknown_game"

JsonObject = JsonDict
ParamValue = str | int | bool | None

#: How a game is played: a link per person (``invite``) or one screen (``hotseat``).
Mode = Literal["invite", "hotseat"]
#: Who finds a game: listed in the lobby (``public``) or only through its links.
Visibility = Literal["public", "private"]
#: The games list's status filter.
ListedStatus = Literal["active", "finished"]


class RegisteredGame:
    """Pydantic metadata: the value is the id of a registered game.

    The ids are read from the registry when a schema using this is built (a request
    model when it is defined, a path or query parameter when its route is added), so
    the OpenAPI document lists them as an enum. Any other value fails validation with
    the error type :data:`UNKNOWN_GAME`, whose message lists the known games.
    """

    def __get_pydantic_core_schema__(
        self, source: object, handler: GetCoreSchemaHandler
    ) -> CoreSchema:
        ids = [spec.id for spec in registered_games()]
        return core_schema.custom_error_schema(
            core_schema.literal_schema(ids),
            custom_error_type=UNKNOWN_GAME,
            custom_error_message="known games: " + ", ".join(ids),
        )


#: A registered game's id (``tic-tac-sudoku``, ``citadel``, ...).
GameId = Annotated[str, RegisteredGame()]


class _Strict(BaseModel):
    """A request body: exactly the fields and JSON types the document lists (no
    unknown field, no ``"5"`` or ``true`` for a number)."""

    model_config = ConfigDict(extra="forbid", strict=True)


# -- requests ---------------------------------------------------------------------------------


class HumanSeat(_Strict):
    """A person's seat (the default)."""

    kind: Literal["human"] = "human"
    name: str | None = Field(default=None, max_length=64, description="the name shown for the seat")
    client_seed: str | None = Field(
        default=None,
        min_length=1,
        max_length=MAX_CLIENT_SEED,
        description="text of this seat's own mixed into every chance draw",
    )


class BotSeat(_Strict):
    """A bot's seat."""

    kind: Literal["bot"]
    agent: str = Field(
        min_length=1,
        max_length=64,
        description="the bot's agent name (GET /api/games lists each game's: random, greedy, ...)",
    )
    name: str | None = Field(default=None, max_length=64, description="the name shown for the seat")


def _seat_kind(seat: object) -> str | None:
    """The kind of seat a request asks for (none given: a person's)."""
    kind = seat.get("kind", "human") if isinstance(seat, dict) else getattr(seat, "kind", None)
    return kind if isinstance(kind, str) else None


#: One seat of a new game: which fields apply depends on ``kind``.
SeatRequest = Annotated[
    Annotated[HumanSeat, Tag("human")] | Annotated[BotSeat, Tag("bot")],
    Discriminator(
        _seat_kind,
        custom_error_type="seat_kind",
        custom_error_message="kind should be 'human' or 'bot'",
    ),
]


class ClockRequest(_Strict):
    minutes: float = Field(gt=0, le=600, description="minutes on each player's clock")
    increment: float = Field(
        default=0, ge=0, le=600, description="seconds added to a player's clock per move"
    )


class CorrespondenceRequest(_Strict):
    days: int = Field(
        ge=1,
        le=14,
        description="a correspondence game: days each player has for each move (the game "
        "waits across restarts; a player whose days run out loses)",
    )


def _clock_kind(clock: object) -> str:
    """A body with ``days`` asks for a correspondence game, any other a chess clock."""
    has_days = "days" in clock if isinstance(clock, dict) else hasattr(clock, "days")
    return "days" if has_days else "minutes"


#: A chess clock or days per move, told apart by ``days`` (errors name the right fields).
TimeControlRequest = Annotated[
    Annotated[ClockRequest, Tag("minutes")] | Annotated[CorrespondenceRequest, Tag("days")],
    Discriminator(_clock_kind),
]


class CreateMatchRequest(_Strict):
    game: GameId = Field(description="the game's id")
    params: dict[str, ParamValue] = Field(default_factory=dict)
    seats: list[SeatRequest] | None = Field(
        default=None, min_length=1, max_length=8, description="one entry per seat (default: people)"
    )
    mode: Mode = "invite"
    clock: TimeControlRequest | None = Field(
        default=None,
        description="a time control (none: untimed): {minutes, increment} for a chess clock, "
        "or {days} per move for a correspondence game; a player out of time loses",
    )
    visibility: Visibility | None = Field(
        default=None,
        description="public: listed, open seats joinable from the lobby; private: found "
        "only through its links (default: private for invite games, public on one screen)",
    )
    coach: bool | None = Field(
        default=None,
        description="hints from the search during the game (default: on against bots, "
        "off between people; turned on between people, it waits for every other "
        "person's agreement); stated to everybody who opens the game",
    )
    rated: bool = Field(
        default=False,
        description="a rated game: made by a signed-in person, every person's seat held by "
        "an account, bots only at rated levels (GET /api/bots/{game}/ratings), no coach, "
        "no takebacks; the result moves the ratings",
    )
    # Documented as matching no value (any seed makes the request not match), and read
    # only to answer seed_refused, which says why online chance cannot be chosen.
    seed: Annotated[
        object,
        WithJsonSchema(
            {
                "not": {},
                "description": "refused: online chance comes from a secret the server "
                "commits to (seed_refused)",
            }
        ),
    ] = None


DEVICE = Field(
    min_length=8, max_length=100, description="the secret token this device keeps for itself"
)


class ActionRequest(_Strict):
    token: str = Field(min_length=1, max_length=100, description="the acting seat's token")
    device: str | None = Field(
        default=None,
        min_length=8,
        max_length=100,
        description="needed once a device claimed the seat",
    )
    ply: StrictInt = Field(description="the ply the action was made at")
    action: str = Field(min_length=1, max_length=MAX_ACTION, description="in the game's notation")


class RematchRequest(_Strict):
    token: str | None = Field(default=None, min_length=1, max_length=100)
    tokens: list[str] | None = Field(default=None, min_length=1, max_length=MAX_TOKENS)

    def all_tokens(self) -> list[str]:
        return list(self.tokens) if self.tokens else [self.token] if self.token else []


class ClaimRequest(_Strict):
    token: str = Field(min_length=1, max_length=100, description="the seat's token (its link)")
    device: str = DEVICE
    move: bool = Field(default=False, description="take the seat from the device holding it")
    ask: bool = Field(
        default=False,
        description="when another device holds the seat (and not `move`), answer 200 with "
        "`elsewhere` instead of refusing with 409 `seat_elsewhere`: a browser asks its user "
        "whether to move the seat, an expected answer that is no error",
    )


class InviteRequest(_Strict):
    token: str = Field(min_length=1, max_length=100, description="the host's own seat token")
    device: str | None = Field(default=None, min_length=8, max_length=100)


class JoinRequest(_Strict):
    device: str = DEVICE


class ClientSeedRequest(_Strict):
    token: str = Field(min_length=1, max_length=100)
    client_seed: str = Field(min_length=1, max_length=MAX_CLIENT_SEED)


# -- responses --------------------------------------------------------------------------------


class ErrorDetail(BaseModel):
    code: str
    message: str


class ErrorResponse(BaseModel):
    error: ErrorDetail


class SeatInfo(BaseModel):
    seat: int
    kind: str
    agent: str | None
    name: str


class ClientSeedInfo(BaseModel):
    seat: int
    seed: str
    ply: int


class TimeControlInfo(BaseModel):
    """A game's time control: a chess clock (``minutes`` + ``increment`` seconds per move,
    ``days`` 0) or a correspondence game's ``days`` per move (``minutes`` and
    ``increment`` 0)."""

    minutes: float = Field(description="a chess clock's minutes per player (0: correspondence)")
    increment: float = Field(description="seconds added per move (0: correspondence)")
    days: int = Field(default=0, description="a correspondence game's days per move (0: a clock)")
    words: str = Field(description="for people: '5 min + 3 s' or '3 days per move'")


class MatchInfo(BaseModel):
    """Public facts about a game (no token, no secret)."""

    id: str
    game: str
    name: str
    version: str
    params: dict[str, ParamValue]
    mode: Mode
    seats: list[SeatInfo]
    chance: bool
    hidden_information: bool
    simultaneous: bool
    draws: bool = Field(description="whether the game can be drawn (then draws may be offered)")
    status: str
    ply: int
    outcome: JsonObject | None
    rematch: str | None
    rematch_of: str | None
    created: float
    commitment: str = Field(description="SHA-256 commitment to the game's chance secret")
    read_only: str | None
    client_seeds: list[ClientSeedInfo]
    visibility: Visibility = Field(description="public (listed) or private")
    host_seat: int | None = Field(description="the creator's seat: may re-issue invites")
    clock: TimeControlInfo | None
    claimed: list[bool] = Field(description="per seat, whether a device claimed its link")
    rated: bool = Field(
        default=False,
        description="a rated game (GET /api/matches/{id} only): the result moves the "
        "players' ratings; no takebacks, no coach",
    )


class SeatLink(BaseModel):
    seat: int
    kind: str
    name: str
    token: str | None = Field(description="the seat's secret token, given out once")
    url: str | None


class CreateMatchResponse(BaseModel):
    id: str
    game: MatchInfo
    seats: list[SeatLink]
    hotseat_url: str
    watch_url: str


class MatchSummary(BaseModel):
    id: str
    game: str
    players: list[str]
    status: str
    outcome: JsonObject | None
    created: float = Field(description="when it was created (seconds since 1970, UTC)")
    updated: float = Field(description="when it last changed state (finished, rematch)")
    mode: Mode
    clock: str | None = Field(description="the time control in words, or null")


class MatchPage(BaseModel):
    """One page of the public games, newest first."""

    games: list[MatchSummary]
    total: int
    page: int
    per_page: int


class OpenSeat(BaseModel):
    seat: int
    name: str


class LobbyEntry(BaseModel):
    """A public game still going with a seat nobody has taken."""

    id: str
    game: str
    name: str
    players: list[str]
    open_seats: list[OpenSeat]
    created: float
    clock: str | None


class ClaimResponse(BaseModel):
    seat: int
    moved: bool = Field(description="the seat was taken from another device (which was told)")
    elsewhere: bool = Field(
        default=False,
        description="asked with `ask`: another device holds the seat, nothing changed (claim "
        "again with `move` to take it)",
    )


class SeatToken(BaseModel):
    seat: int
    token: str = Field(description="the seat's new secret token, given out once")
    url: str


class LogEntryOut(BaseModel):
    ply: int
    actor: int | None
    action: str
    says: str = Field(default="", description="the action's notation in words")


class StateResponse(BaseModel):
    """The position as one observer sees it."""

    type: str
    game_id: str
    seat: int | None
    ply: int
    status: str
    outcome: JsonObject | None
    rematch: str | None
    log_from: int
    log: list[LogEntryOut]
    buttons: dict[str, tuple[str, str]] = {}
    guide: str | None = Field(
        default=None,
        description="for a seat that may act now: what to do and where, in one sentence",
    )
    view: JsonObject
    svg: str
    clock: JsonObject | None = None
    server_time: float | None = None
    panel: str = ""


class ActResponse(BaseModel):
    ply: int
    next_ply: int
    status: str
    outcome: JsonObject | None


class RematchResponse(BaseModel):
    id: str
    url: str


class ClientSeedResponse(BaseModel):
    seat: int
    client_seed: str
    from_ply: int


class RecordAction(BaseModel):
    ply: int
    actor: int | Literal["chance"]
    action: str


class ChanceInfo(BaseModel):
    scheme: str
    match_id: str
    commitment: str
    secret: str | None = Field(description="hex; null until the game is over")
    client_seeds: list[ClientSeedInfo]


class RecordResponse(BaseModel):
    """A game record (see docs/fairness.md); ``sudoku-arena replay --verify`` checks it."""

    format: int
    game: str
    game_version: str
    params: dict[str, ParamValue]
    seed: int | None
    players: list[str]
    actions: list[RecordAction]
    outcome: JsonObject | None
    chance: ChanceInfo | None = None
    hints: list[int] | None = Field(
        default=None, description="hints each seat asked the coach for (none: no coach)"
    )


class ReplayResponse(BaseModel):
    ply: int
    total: int
    action: str | None
    actor: int | None
    view: JsonObject
    svg: str
    panel: str = ""


class RulesResponse(BaseModel):
    game: str
    markdown: str | None


class SwingInfo(BaseModel):
    ply: int = Field(description="the position after the action that swung the game")
    actor: int | None = Field(description="the seat that acted (null: chance)")
    action: str
    seat: int = Field(description="the seat whose chance changed most")
    deltas: list[float] = Field(description="each seat's change of its chance of winning")


class MistakeInfo(BaseModel):
    ply: int = Field(description="the position after the move")
    seat: int = Field(description="the seat that made it")
    action: str = Field(description="the move played")
    before: float = Field(description="the seat's chance of winning before it")
    after: float = Field(description="the seat's chance of winning after it")
    better: str = Field(description="the search's best move there (from the seat's view)")
    better_chance: float | None = Field(description="the seat's chance after that move")


class AnalysisResponse(BaseModel):
    game_id: str
    status: Literal["pending", "done", "failed", "off"] = Field(
        description="pending (ask again), done, failed, or off: this server does not "
        "analyse games (its operator turned analysis off)"
    )
    seats: list[str]
    plies: int = Field(description="actions in the game: positions are 0 to plies")
    analysed: int = Field(description="positions evaluated so far")
    simulations: int | None = Field(description="search simulations per position")
    values: list[list[float]] = Field(
        description="once done: per position, each seat's chance of winning (0 to 1; "
        "a shared win counts as a share, solo games their normalised score)"
    )
    swings: list[SwingInfo] = Field(description="once done: the largest swings, by ply")
    mistakes: list[MistakeInfo] = Field(
        default_factory=list,
        description="once done: each seat's moves that lost it the most chance of winning "
        "(10 points or more, five at most), by ply, with the search's better move",
    )
