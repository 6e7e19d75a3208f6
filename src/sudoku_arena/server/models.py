"""The JSON API's request and response bodies, as Pydantic models.

FastAPI validates every request against these (a refusal keeps the project's error
shape: ``{"error": {"code": "bad_request", "message": "seats.0.kind: ..."}}``) and
documents them at ``/api/docs``. Views, boards' options and records hold game-specific
JSON, which the engines define; they are typed here as JSON objects.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt

from sudoku_arena.core.fairness import MAX_CLIENT_SEED
from sudoku_arena.core.types import JsonDict

#: The longest action text accepted (notation is short; this bounds garbage).
MAX_ACTION = 200
#: The most seat tokens one request may carry (a hot-seat game's seats).
MAX_TOKENS = 8

JsonObject = JsonDict
ParamValue = str | int | bool | None


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


# -- requests ---------------------------------------------------------------------------------


class SeatRequest(_Strict):
    kind: Literal["human", "bot"] = "human"
    agent: str | None = Field(
        default=None, max_length=64, description="a bot's agent name: random, greedy, easy, ..."
    )
    name: str | None = Field(default=None, max_length=64, description="the name shown for the seat")
    client_seed: str | None = Field(
        default=None,
        min_length=1,
        max_length=MAX_CLIENT_SEED,
        description="text of this seat's own mixed into every chance draw (human seats)",
    )


class ClockRequest(_Strict):
    minutes: float = Field(gt=0, le=600, description="minutes on each player's clock")
    increment: float = Field(
        default=0, ge=0, le=600, description="seconds added to a player's clock per move"
    )


class CreateMatchRequest(_Strict):
    game: str = Field(max_length=64, description="a game id such as tic-tac-sudoku")
    params: dict[str, ParamValue] = Field(default_factory=dict)
    seats: list[SeatRequest] | None = Field(
        default=None, min_length=1, max_length=8, description="one entry per seat (default: people)"
    )
    mode: Literal["invite", "hotseat"] = "invite"
    clock: ClockRequest | None = Field(
        default=None, description="a time control (none: untimed); a player out of time loses"
    )
    visibility: Literal["public", "private"] | None = Field(
        default=None,
        description="public: listed, open seats joinable from the lobby; private: found "
        "only through its links (default: private for invite games, public on one screen)",
    )
    seed: object = Field(
        default=None,
        description="refused: online chance comes from a secret the server commits to",
    )


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
    minutes: float
    increment: float
    words: str


class MatchInfo(BaseModel):
    """Public facts about a game (no token, no secret)."""

    id: str
    game: str
    name: str
    version: str
    params: dict[str, ParamValue]
    mode: str
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
    visibility: str = Field(description="public (listed) or private")
    host_seat: int | None = Field(description="the creator's seat: may re-issue invites")
    clock: TimeControlInfo | None
    claimed: list[bool] = Field(description="per seat, whether a device claimed its link")


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
    mode: str
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


class SeatToken(BaseModel):
    seat: int
    token: str = Field(description="the seat's new secret token, given out once")
    url: str


class LogEntryOut(BaseModel):
    ply: int
    actor: int | None
    action: str


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


class AnalysisResponse(BaseModel):
    game_id: str
    status: Literal["pending", "done", "failed"]
    seats: list[str]
    plies: int = Field(description="actions in the game: positions are 0 to plies")
    analysed: int = Field(description="positions evaluated so far")
    simulations: int | None = Field(description="search simulations per position")
    values: list[list[float]] = Field(
        description="once done: per position, each seat's chance of winning (0 to 1; "
        "a shared win counts as a share, solo games their normalised score)"
    )
    swings: list[SwingInfo] = Field(description="once done: the largest swings, by ply")
