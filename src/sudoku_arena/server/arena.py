"""The server's authority over games: create, load, act, run bots, push to clients.

:class:`Arena` keeps the games in play in memory (:class:`LiveGame`), writes every
action to :class:`Storage` before anybody hears of it, and pushes each connected
:class:`Client` the position from its own seats' views. Each game has a lock, so
actions on one game are taken one at a time while other games go on; the storage
writer commits the actions of all games together.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import logging
import os
import random
import secrets
import socket
import time
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import orjson

from sudoku_arena.ai import make_agent
from sudoku_arena.ai.mcts import position_keys
from sudoku_arena.core.endings import OUTSIDE_RULES, left_game
from sudoku_arena.core.errors import ArenaError, InvalidParameterError
from sudoku_arena.core.fairness import ClientSeed, check_client_seed, new_secret
from sudoku_arena.core.match import Match
from sudoku_arena.core.registry import load, spec_of
from sudoku_arena.core.types import JsonDict, Outcome
from sudoku_arena.server.analysis import Analyser
from sudoku_arena.server.bots import BotRunner
from sudoku_arena.server.clock import Clock, TimeControl
from sudoku_arena.server.errors import ApiError
from sudoku_arena.server.fanout import RedisFanout
from sudoku_arena.server.live import ActionRefused, GameUnavailable, LiveGame, hash_token
from sudoku_arena.server.presence import CLAIM_AFTER, Attendance
from sudoku_arena.server.seating import Seating
from sudoku_arena.server.storage import (
    AppendActions,
    ConflictError,
    CreateGame,
    CreateRematch,
    EndGame,
    GameRow,
    MarkSeen,
    Quarantine,
    RematchTaken,
    SeatRow,
    SetClientSeeds,
    Storage,
    StorageError,
)

log = logging.getLogger("sudoku_arena.server")

HUMAN, BOT = "human", "bot"
QUARANTINED = "quarantined"


def _unavailable(problem: str) -> str:
    return (
        f"this game cannot be opened: its stored moves no longer replay ({problem[:300]}); "
        "it is kept aside for the site's operators, and every other game goes on"
    )


MODES = ("hotseat", "invite")
VISIBILITIES = ("public", "private")


def duration_words(seconds: float) -> str:
    """``2 days``, ``5 hours``, ``90 minutes``, ``30 seconds``: for people."""
    for unit, size in (("day", 86400.0), ("hour", 3600.0), ("minute", 60.0)):
        if seconds >= size and (seconds % size == 0 or seconds >= 2 * size):
            n = round(seconds / size, 1)
            return f"{n:g} {unit}{'' if n == 1 else 's'}"
    return f"{seconds:g} second{'' if seconds == 1 else 's'}"


@dataclass(slots=True)
class SeatSpec:
    """Who sits in a seat when a game is created."""

    kind: str  # "human" or "bot"
    agent: str | None = None  # bot: agent name (random, greedy, easy, ...)
    name: str | None = None


_STATE_PREFIX = '{"type":"state",'
#: Messages queued for one client before it counts as gone (it does not read).
MAX_OUTBOX = 256


class Client:
    """One connection: the seats it may act for (none: a spectator) and its outbox.

    Messages go out in order from one task per client. A pending position push is kept
    once in the queue and built when it is sent, so a slow client skips positions it
    has not yet received instead of piling them up (the log stays complete: it is sent
    from the last entry the client has).
    """

    def __init__(self, send: Callable[[str], Awaitable[None]]) -> None:
        self._send = send
        self.game: LiveGame | None = None
        self.seats: list[int] = []
        #: The token hash each seat was taken with, and the sha256 of the device's own
        #: token (``None``: a client that sent none): a seat whose link is re-issued or
        #: moved to another device is taken away (:meth:`Seating.enforce`).
        self.auth: dict[int, str | None] = {}
        self.device: str | None = None
        self.want_svg = True  # False for clients that do not draw (bots, scripts)
        self.sent: dict[int | None, int] = {}  # observer -> log entries delivered
        self.versions: dict[int | None, int] = {}  # observer -> game version delivered
        self._out: deque[str | None] = deque()
        self._acks: list[tuple[int, JsonDict]] = []
        self._state_queued = False
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self.closed = False

    def observers(self) -> list[int | None]:
        return list(self.seats) if self.seats else [None]

    def start(self) -> None:
        self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        self.closed = True
        self._wake.set()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task

    def push(self, text: str) -> None:
        if len(self._out) >= MAX_OUTBOX:  # not reading its messages: let it go
            self.closed = True
        self._out.append(text)
        self._wake.set()

    def push_state(self) -> None:
        if not self._state_queued:
            self._state_queued = True
            self._out.append(None)
            self._wake.set()

    def ack(self, seat: int, msg_id: object, ply: int, next_ply: int) -> None:
        """Acknowledge a stored action of ``seat``: the ``ack`` field of the next
        position sent for that seat (one frame, not two), else an ``ack`` message."""
        self._acks.append((seat, {"id": msg_id, "ply": ply, "next_ply": next_ply}))
        self.push_state()

    def resync(self) -> None:
        """Send the whole position and log again (after a refusal, or on request)."""
        self.sent = {}
        self.versions = {}
        self.push_state()

    async def _run(self) -> None:
        while not self.closed:
            await self._wake.wait()
            self._wake.clear()
            while self._out and not self.closed:
                item = self._out.popleft()
                try:
                    if item is None:
                        self._state_queued = False
                        await self._send_states()
                    else:
                        await self._send(item)
                except Exception:
                    self.closed = True
                    return

    async def _send_states(self) -> None:
        g = self.game
        if g is None:
            return
        acks, self._acks = self._acks, []
        for obs in self.observers():
            have = self.sent.get(obs, -1)
            if have == g.ply and self.versions.get(obs) == g.version:
                continue
            # A device holding several seats is a shared screen (hot seat).
            shared = len(self.seats) > 1
            text = g.state_message(obs, max(have, 0), self.want_svg, shared)
            self.sent[obs] = g.ply
            self.versions[obs] = g.version
            mine = [a for seat, a in acks if seat == obs]
            if mine and text.startswith(_STATE_PREFIX):
                acks = [(seat, a) for seat, a in acks if seat != obs]
                ack = orjson.dumps(mine[-1]).decode()
                text = f'{_STATE_PREFIX}"ack":{ack},{text[len(_STATE_PREFIX) :]}'
            if g.clock is not None and text.startswith(_STATE_PREFIX):
                # Clients count the clocks down from the server's time, not their own.
                now = orjson.dumps(time.time()).decode()
                text = f'{_STATE_PREFIX}"server_time":{now},{text[len(_STATE_PREFIX) :]}'
            await self._send(text)
        for _seat, a in acks:
            await self._send(json.dumps({"type": "ack", **a}))


class Arena:
    """Every game this server process holds, and the rules for touching them."""

    def __init__(
        self,
        storage: Storage,
        *,
        fanout: RedisFanout | None = None,
        bots: BotRunner | None = None,
        bot_delay: float = 0.0,
        idle_seconds: float = 900.0,
        lease_seconds: float = 30.0,
        abandon_after: float | None = None,
        timeout_sweep_seconds: float = 1.0,
        now: Callable[[], float] = time.time,
        analysis: Analyser | None = None,
        claim_after: float | None = CLAIM_AFTER,
    ) -> None:
        self.storage = storage
        #: Post-game analysis in the background (``None``: none).
        self.analysis = analysis
        self.fanout = fanout
        self.bots = bots or BotRunner(workers=1)
        self.bot_delay = bot_delay
        self.games: dict[str, LiveGame] = {}
        self.clients: dict[str, set[Client]] = {}
        self._bot_tasks: dict[tuple[str, int], asyncio.Task[None]] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        self._rematch_lock = asyncio.Lock()
        self._finished: OrderedDict[str, None] = OrderedDict()
        self.keep_finished = 64
        #: Seconds without use after which a game leaves memory (it stays stored).
        self.idle_seconds = idle_seconds
        self._evictor: asyncio.Task[None] | None = None
        self._sweeper: asyncio.Task[None] | None = None
        self._chores: set[asyncio.Future[Any]] = set()
        #: This process, as the holder of bot leases; how long a lease lasts unrenewed,
        #: and how often the other processes look for leases whose holder died.
        self.holder = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"
        self.lease_seconds = lease_seconds
        self.sweep_seconds = max(0.5, lease_seconds / 6)
        self.moves = 0  # actions committed by this process (stats)
        #: Seconds without any move after which a game ends as abandoned (None: never);
        #: how often clocks and idle games are looked at; the time clocks read.
        self.abandon_after = abandon_after
        self.timeout_sweep_seconds = timeout_sweep_seconds
        self.now = now
        self._timeouts: asyncio.Task[None] | None = None
        #: Which device holds which seat (claims, new invites, joins from the lobby).
        self.seating = Seating(storage, fanout, self.clients, self.announce_presence)
        #: When each seat's player was last here; the win claimed over those who left
        #: (after ``claim_after`` seconds away; ``None``: never).
        self.attendance = Attendance(now, claim_after)
        self._last_idle_sweep = 0.0

    # -- life cycle ------------------------------------------------------------------------

    async def start(self) -> None:
        """Start the writer, the bot pool and the fan-out; resume every active game."""
        self.storage.start()
        self.bots.start()
        if self.analysis is not None:
            await self.analysis.start()
        if self.fanout is not None:
            await self.fanout.start(self.on_event)
        # Games open lazily, on first access; at start only those whose bot must move
        # (nobody would open them otherwise).
        ids = await asyncio.to_thread(self.storage.games_to_open)
        for gid in ids:
            try:
                lg = await self.get(gid)
            except GameUnavailable:
                continue  # set aside; logged where it was found
            if lg is not None:
                self.schedule_bots(lg)
        if ids:
            log.info("opened %d active games whose bots are due", len(ids))
        self._evictor = asyncio.create_task(self._evict_idle_loop())
        if self.storage.shared:
            self._sweeper = asyncio.create_task(self._sweep_loop())
        self._timeouts = asyncio.create_task(self._timeout_loop())
        # Everything loaded so far lives as long as the process: keep it out of the
        # collector's full passes, whose pauses would otherwise stall every game. A
        # move allocates views and messages by the hundred; collecting the young
        # generation every 700 allocations cost five times more (measured) than
        # every 10,000.
        gc.collect()
        gc.freeze()
        gc.set_threshold(10_000, 20, 100)

    async def stop(self) -> None:
        for loop_task in (self._evictor, self._sweeper, self._timeouts, *self._chores):
            if loop_task is not None:
                loop_task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await loop_task
        for task in list(self._bot_tasks.values()):
            task.cancel()
        for clients in list(self.clients.values()):
            for c in list(clients):
                await c.stop()
        if self.fanout is not None:
            await self.fanout.stop()
        self.bots.stop()
        if self.analysis is not None:
            await self.analysis.stop()
        await asyncio.to_thread(self.storage.close)

    # -- games -------------------------------------------------------------------------------

    async def require(self, game_id: str) -> LiveGame:
        """The game ``game_id`` for an API route: :meth:`get`, with the answers a client
        gets (:class:`ApiError` 404 for an unknown game, 503 for one set aside)."""
        try:
            lg = await self.get(game_id)
        except GameUnavailable as exc:
            raise ApiError(503, "unavailable", exc.reason) from None
        if lg is None:
            raise ApiError(404, "not_found", f"there is no game {game_id!r}")
        return lg

    async def get(self, game_id: str) -> LiveGame | None:
        """The game ``game_id``, loaded from storage on first use; ``None`` if unknown.

        Raises :class:`GameUnavailable` for a stored game that cannot be replayed: it is
        set aside in the database (status ``quarantined``), logged, and everything else
        goes on. A game stored by another version of its rules opens read-only.
        """
        lg = self.games.get(game_id)
        if lg is not None:
            lg.last_used = time.monotonic()
            return lg
        if not (0 < len(game_id) <= 32) or not game_id.replace("-", "").replace("_", "").isalnum():
            return None
        lock = self._loading.setdefault(game_id, asyncio.Lock())
        try:
            async with lock:
                lg = self.games.get(game_id)
                if lg is None:
                    row = await asyncio.to_thread(self.storage.load_game, game_id)
                    if row is None:
                        return None
                    lg = await self._open(row)
                    self.games[game_id] = lg
                    self.attendance.opened(game_id, lg.num_players)
                    if lg.over:
                        self._retire(lg)  # loaded to be looked at: one of the recent few
        finally:
            self._loading.pop(game_id, None)
        return lg

    async def _open(self, row: GameRow) -> LiveGame:
        """Replay a stored game, or set it aside if it cannot be replayed."""
        if row.status == QUARANTINED:
            raise GameUnavailable(row.id, _unavailable(row.problem or "it does not replay"))
        read_only = None
        try:
            spec = spec_of(row.game)
            if row.game_version != spec.version:
                read_only = (
                    f"this game was played with {spec.name} version {row.game_version}; "
                    f"this server runs version {spec.version}, so it can be watched and "
                    "replayed but not played on"
                )
            return await asyncio.to_thread(LiveGame, row, read_only=read_only)
        except Exception as exc:
            problem = f"{type(exc).__name__}: {exc}"
            log.exception("game %s cannot be replayed; setting it aside", row.id)
            with contextlib.suppress(StorageError):
                await self.storage.write(Quarantine(row.id, problem))
            raise GameUnavailable(row.id, _unavailable(problem)) from None

    async def _evict_idle_loop(self) -> None:
        while True:
            await asyncio.sleep(max(1.0, self.idle_seconds / 4))
            self.evict_idle()

    def evict_idle(self, now: float | None = None) -> list[str]:
        """Drop games nobody used for ``idle_seconds`` (no client, no bot thinking, no
        action under way); the database has them, and they reopen on next access."""
        now = time.monotonic() if now is None else now
        busy = {gid for gid, _seat in self._bot_tasks}
        gone = [
            gid
            for gid, lg in self.games.items()
            if now - lg.last_used >= self.idle_seconds
            and not self.clients.get(gid)
            and gid not in busy
            and not lg.lock.locked()
        ]
        for gid in gone:
            del self.games[gid]
            self._finished.pop(gid, None)
            self.attendance.forget(gid)
        return gone

    async def create(
        self,
        game_id: str,
        params: JsonDict,
        seats: Sequence[SeatSpec],
        *,
        mode: str = "invite",
        rematch_of: str | None = None,
        token_hashes: Sequence[str | None] | None = None,
        client_seeds: Mapping[int, str] | None = None,
        time_control: TimeControl | None = None,
        visibility: str | None = None,
        claims: Sequence[str | None] | None = None,
    ) -> tuple[LiveGame, dict[int, str]]:
        """Set up and store a new game; return it with the human seats' secret tokens.

        Generated parameters (the Sudoku grid) come from a fresh public seed; chance
        from a fresh secret that shares nothing with it and that nobody learns before
        the game is over (its commitment is public at once). ``client_seeds`` are the
        creator's contributions to chance, by seat. ``time_control``: a clock per seat.
        ``visibility``: ``public`` (listed; open seats joinable from the lobby) or
        ``private`` (default for invite games). The first person's seat is the host's,
        who may re-issue the invites of seats nobody claimed. Raises ``ArenaError``
        subclasses with what is allowed when the game, a parameter, the seats or an
        agent name is wrong.
        """
        if mode not in MODES:
            raise InvalidParameterError(f"mode {mode!r} is not offered; allowed: hotseat, invite")
        if visibility is None:
            visibility = "private" if mode == "invite" else "public"
        if visibility not in VISIBILITIES:
            raise InvalidParameterError(
                f"visibility {visibility!r} is not offered; allowed: public, private"
            )
        params = dict(params)
        if "players" not in params:
            params["players"] = len(seats)
        setup_seed = secrets.randbits(62)  # load derives the set-up from it
        game = load(game_id, seed=setup_seed, **params)
        n = game.num_players
        if len(seats) != n:
            raise InvalidParameterError(f"{len(seats)} seats given for {n} players")
        seat_rows: list[SeatRow] = []
        tokens: dict[int, str] = {}
        for i, s in enumerate(seats):
            if s.kind == BOT:
                agent = (s.agent or "").strip()
                make_agent(agent, game, seed=0)  # refuses unknown names with the list
                name = (s.name or f"{agent} (bot)").strip()[:40]
                seat_rows.append(SeatRow(i, BOT, agent, name, None))
            elif s.kind == HUMAN:
                if token_hashes is not None and token_hashes[i] is not None:
                    th = token_hashes[i]
                else:
                    tokens[i] = secrets.token_urlsafe(18)
                    th = hash_token(tokens[i])
                name = (s.name or f"player {i + 1}").strip()[:40] or f"player {i + 1}"
                claim = claims[i] if claims is not None else None
                seat_rows.append(SeatRow(i, HUMAN, None, name, th, claim))
            else:
                raise InvalidParameterError(
                    f"seat {i}: kind {s.kind!r} is not offered; allowed: human, bot"
                )
        row_id = secrets.token_urlsafe(9)
        seeds: list[ClientSeed] = []
        for seat, text in sorted((client_seeds or {}).items()):
            if not 0 <= seat < n or seat_rows[seat].kind != HUMAN:
                raise InvalidParameterError(f"client seed for seat {seat}: not a human seat")
            try:
                seeds.append(ClientSeed(seat, check_client_seed(text), 0))
            except ValueError as exc:
                raise InvalidParameterError(f"client seed for seat {seat}: {exc}") from None
        secret = new_secret()
        match = Match(game, secret=secret, match_id=row_id, client_seeds=seeds)
        now = time.time()
        row = GameRow(
            id=row_id,
            game=game.spec.id,
            game_version=game.spec.version,
            params=game.params,
            seed=setup_seed,
            players=[r.name for r in seat_rows],
            mode=mode,
            status="active",
            outcome=None,
            rematch=None,
            rematch_of=rematch_of,
            created=now,
            updated=now,
            seats=seat_rows,
            actions=[(e.ply, e.actor, e.action) for e in match.log],
            secret=secret.hex(),
            client_seeds=[c.to_json() for c in seeds],
            visibility=visibility,
            host_seat=next((r.seat for r in seat_rows if r.kind == HUMAN), None),
            clock=None if time_control is None else Clock.new(time_control, n).to_json(),
        )
        lg = LiveGame(row, game)
        if lg.outcome is not None:  # over before anybody moved (degenerate set-up)
            row.status, row.outcome = "finished", lg.outcome
        row.bot_to_move = lg.bot_flag = lg.bot_due(lg.state)
        # A rematch is created only if no other process created it first: the
        # database decides, in the same transaction as the game's row.
        await self.storage.write(CreateGame(row) if rematch_of is None else CreateRematch(row))
        self.games[row.id] = lg
        self.attendance.opened(row.id, n)
        self.schedule_bots(lg)
        return lg, tokens

    async def rematch(self, lg: LiveGame) -> LiveGame:
        """The rematch of a finished game, created on first request.

        Same game and options (generated ones such as the grid drawn anew); everybody
        moves one seat on, so the first player changes; each person keeps his token.
        """
        if not lg.over:
            raise ActionRefused("not_over", "a rematch can start once the game is over")
        async with self._rematch_lock:
            if lg.rematch is not None:
                existing = await self.get(lg.rematch)
                if existing is not None:
                    return existing
            n = lg.num_players
            order = [lg.seats[(j - 1) % n] for j in range(n)]
            generated = {p.name for p in lg.spec.params if p.generate is not None}
            params = {k: v for k, v in lg.row.params.items() if k not in generated}
            try:
                new, _ = await self.create(
                    lg.spec.id,
                    params,
                    [SeatSpec(s.kind, s.agent, s.name) for s in order],
                    mode=lg.row.mode,
                    rematch_of=lg.id,
                    token_hashes=[s.token_hash for s in order],
                    time_control=None if lg.clock is None else lg.clock.control,
                    visibility=lg.row.visibility,
                    claims=[s.claimed_by for s in order],
                )
            except RematchTaken as taken:  # another process was first: that one it is
                lg.rematch = taken.rematch
                found = await self.get(taken.rematch)
                if found is None:
                    raise ActionRefused("unavailable", "the rematch could not be found") from None
                self._announce_rematch(lg)
                return found
            lg.rematch = new.id
        if self.fanout is not None:
            self.fanout.publish({"kind": "rematch", "game": lg.id, "rematch": new.id})
        self._announce_rematch(lg)
        return new

    async def add_client_seed(self, lg: LiveGame, seat: int, text: object) -> ClientSeed:
        """Store ``seat``'s client seed (once per seat); it counts from the next ply."""
        if not isinstance(text, str):
            raise ActionRefused("bad_client_seed", "client_seed: text of 1-64 characters")
        async with lg.lock:
            await self._catch_up_if_shared(lg)
            before = [c.to_json() for c in lg.match.chance.client_seeds]
            given = lg.add_client_seed(seat, text)
            seeds = [c.to_json() for c in lg.match.chance.client_seeds]
            try:
                await self.storage.write(SetClientSeeds(lg.id, seeds, lg.ply))
            except ConflictError:
                lg.set_client_seeds(before)
                await self._catch_up(lg)
                raise ActionRefused(
                    "stale", "a move was made meanwhile; nothing changed, send it again"
                ) from None
            except StorageError:
                lg.set_client_seeds(before)
                raise ActionRefused(
                    "unavailable", "the client seed could not be saved; nothing changed"
                ) from None
        if self.fanout is not None:
            self.fanout.publish({"kind": "client_seeds", "game": lg.id, "seeds": seeds})
        return given

    async def _catch_up_if_shared(self, lg: LiveGame) -> None:
        if self.fanout is not None or self.storage.shared:
            await self._catch_up(lg)

    def _announce_rematch(self, lg: LiveGame) -> None:
        msg = json.dumps({"type": "rematch", "game_id": lg.id, "rematch": lg.rematch})
        for c in self.clients.get(lg.id, ()):
            c.push(msg)

    # -- acting -------------------------------------------------------------------------------

    async def act(
        self,
        lg: LiveGame,
        seat: int,
        ply: int,
        action: str,
        ack: Callable[[int, int], None] | None = None,
    ) -> tuple[int, int]:
        """Take ``action`` for ``seat`` made at ``ply``: check, store, then tell everyone.

        Once the action is committed, ``ack(ply, next_ply)`` runs first (so the actor
        hears of it before the new position arrives), then every client gets the new
        position and bots due to move are started. Returns ``(ply of the action, next
        ply)``. Raises :class:`ActionRefused` (nothing changed) with a code and a clear
        message.
        """
        async with lg.lock:
            now = self.now()
            flag = lg.flag_ending(now)
            if flag is not None:  # too late: the time ran out before this move came
                await self._end_locked(lg, flag[0], flag[1], flag_at=now)
                raise ActionRefused("game_over", f"the game is over: {flag[0].reason}")
            pending = lg.prepare(seat, ply, action)
            due = lg.bot_due(pending.states[-1])
            clock = lg.clock_after(pending, now)
            op = AppendActions(
                lg.id,
                [(e.ply, e.actor, e.action) for e in pending.entries],
                None if pending.outcome is None else pending.outcome.to_json(),
                # Written only when it changes: most moves leave it as it was.
                bot_to_move=None if due == lg.bot_flag else due,
                seeds=(
                    [c.to_json() for c in lg.match.chance.client_seeds]
                    if lg.spec.chance and self.storage.shared
                    else None
                ),
                clock=None if clock is None else clock.to_json(),
                deadline=None if clock is None else clock.deadline(),
            )
            try:
                await self.storage.write(op)
            except ConflictError:
                await self._catch_up(lg)
                raise ActionRefused(
                    "stale", "another move was made first; here is the current position"
                ) from None
            except StorageError:
                raise ActionRefused(
                    "unavailable", "the move could not be saved; nothing changed, try again"
                ) from None
            start = lg.ply
            lg.commit(pending, clock)
            lg.bot_flag = due
            self.moves += 1
            if self.fanout is not None:
                self.fanout.publish(
                    {
                        "kind": "actions",
                        "game": lg.id,
                        "from": start,
                        "entries": op.entries,
                        "clock": op.clock,
                    }
                )
            end = lg.ply
        if ack is not None:
            ack(start, end)
        self.after_move(lg)
        return start, end

    # -- endings the players decide, draw offers -------------------------------------------

    async def end_by_players(self, lg: LiveGame, seat: int, kind: str) -> None:
        """``seat`` resigns, aborts, or accepts the standing draw offer (``kind``:
        ``resign``, ``abort``, ``draw``). Decided by the database against moves made
        meanwhile by any process; raises :class:`ActionRefused` (nothing changed)."""
        async with lg.lock:
            outcome = lg.decided_ending(seat, kind)
            clock = None if lg.clock is None else lg.clock.stopped(self.now())
            await self._end_locked(lg, outcome, clock)
        self.after_move(lg)

    def draw_offer(self, lg: LiveGame, seat: int, answer: str) -> None:
        """``seat`` offers a draw (``offer``) or declines the standing one
        (``decline``); a bot in another seat declines at once. The offering player is
        told of a refusal (on every process), not left to notice the offer gone."""
        declined: JsonDict | None = None
        if answer == "offer":
            lg.offer_draw(seat)
            bot = next((s.seat for s in lg.seats if s.seat != seat and s.kind == BOT), None)
            if bot is not None:
                lg.decline_draw()  # bots play on
                declined = {"offer": seat, "by": bot}
        elif answer == "decline":
            if lg.draw_offer is None or lg.draw_offer == seat:
                raise ActionRefused("no_offer", "there is no draw offer from another player")
            declined = {"offer": lg.draw_offer, "by": seat}
            lg.decline_draw()
        else:
            raise ActionRefused("bad_message", "draw: say offer, accept or decline")
        if self.fanout is not None:
            event = {"kind": "draw_offer", "game": lg.id, "seat": lg.draw_offer}
            self.fanout.publish(event if declined is None else {**event, "declined": declined})
        if declined is not None:
            self._tell_declined(lg, declined)
        self.broadcast(lg)

    def _tell_declined(self, lg: LiveGame, declined: JsonDict) -> None:
        """A ``notice`` to the connections holding the seat whose draw offer was
        declined: ``event`` ``draw_declined``, ``seat`` the one who declined."""
        offer, by = declined.get("offer"), declined.get("by")
        if not isinstance(offer, int) or not isinstance(by, int) or not 0 <= by < len(lg.seats):
            return
        msg = json.dumps(
            {
                "type": "notice",
                "event": "draw_declined",
                "seat": by,
                "text": f"{lg.seats[by].name} declines the draw: play goes on.",
            }
        )
        for c in self.clients.get(lg.id, ()):
            if offer in c.seats:
                c.push(msg)

    # -- a win claimed over players who left -------------------------------------------

    async def claim_win(self, lg: LiveGame, seat: int) -> None:
        """``seat``, the last person still at ``lg``, claims the win over every other
        person: allowed once each of them has had no device connected to any process
        for ``claim_after`` seconds (:class:`~sudoku_arena.server.presence.Attendance`
        decides from the seats as stored now). Raises :class:`ActionRefused`."""
        await self.refresh(lg)
        stored = await asyncio.to_thread(self.storage.load_seats, lg.id)
        async with lg.lock:
            gone = self.attendance.gone(lg, seat, stored, self.presence(lg))
            names = [s.name for s in lg.seats]
            await self._end_locked(lg, left_game(lg.game, lg.state, gone, seat, names), None)
        self.after_move(lg)

    def seen_over_http(self, lg: LiveGame, seat: int) -> None:
        """A client without a connection asked or acted for ``seat``: he is here."""
        self._mark_seen(self.attendance.seen(lg.id, lg.num_players, seat))

    def _mark_seen(self, op: MarkSeen | None) -> None:
        if op is not None:
            self._background(self._write_seen(op))

    async def _write_seen(self, op: MarkSeen) -> None:
        with contextlib.suppress(StorageError):  # the next beat writes it again
            await self.storage.write(op)

    async def _end_locked(
        self,
        lg: LiveGame,
        outcome: Outcome,
        clock: Clock | None,
        flag_at: float | None = None,
        idle_before: float | None = None,
    ) -> None:
        """Store and apply an ending outside the rules (``lg.lock`` held); ``flag_at``:
        a loss on time, stored only if the database's clock agrees it ran out;
        ``idle_before``: abandonment, stored only if nothing was stored since then."""
        op = EndGame(
            lg.id,
            lg.ply,
            outcome.to_json(),
            flag_at=flag_at,
            idle_before=idle_before,
            clock=None if clock is None else clock.to_json(),
        )
        try:
            await self.storage.write(op)
        except ConflictError:
            await self._catch_up(lg)
            raise ActionRefused(
                "stale", "a move was made first; here is the current position"
            ) from None
        except StorageError:
            raise ActionRefused(
                "unavailable", "that could not be saved; nothing changed, try again"
            ) from None
        lg.end(outcome, clock)
        if self.fanout is not None:
            self.fanout.publish({"kind": "ended", "game": lg.id})

    # -- clocks and abandoned games -------------------------------------------------------

    async def _timeout_loop(self) -> None:
        while True:
            await asyncio.sleep(self.timeout_sweep_seconds)
            try:
                await self.sweep_timeouts()
            except Exception as exc:  # the database is away: try again next round
                log.warning("timeout sweep failed: %s", exc)

    async def sweep_timeouts(self) -> list[str]:
        """End the games whose clock ran out and, every so often, those nobody moved in
        for ``abandon_after`` seconds; return their ids. Every process of a fleet sweeps;
        the database decides which one ends a game (the others are refused and catch
        up), and never ends a game in which a move was stored meanwhile."""
        now = self.now()
        ended: list[str] = []
        beats = self.attendance.beat_due()
        if beats:  # the seats held here are still here (for the other processes' claims)
            await asyncio.gather(*(self._write_seen(op) for op in beats))
        for gid in await asyncio.to_thread(self.storage.out_of_time, now):
            if await self.end_by_server(gid, now):
                ended.append(gid)
        period = max(0.2, min(60.0, (self.abandon_after or 0) / 10))
        if self.abandon_after is not None and now - self._last_idle_sweep >= period:
            self._last_idle_sweep = now
            cutoff = now - self.abandon_after
            for gid in await asyncio.to_thread(self.storage.idle_games, cutoff):
                if await self.end_by_server(gid, now, idle_before=cutoff):
                    ended.append(gid)
        return ended

    async def end_by_server(self, gid: str, now: float, idle_before: float | None = None) -> bool:
        """End ``gid`` on time if a clock ran out by ``now``, or (``idle_before``) as
        abandoned if nothing was stored since then; ``False`` when the database says
        otherwise (a move, or another process, came first)."""
        try:
            lg = await self.get(gid)
        except GameUnavailable:
            return False
        if lg is None or lg.read_only:
            return False
        await self.refresh(lg)
        try:
            async with lg.lock:
                if lg.over:
                    return False
                if idle_before is not None:
                    words = duration_words(now - idle_before)
                    clock = None if lg.clock is None else lg.clock.stopped(now)
                    ending = lg.abandoned_ending(words)
                    await self._end_locked(lg, ending, clock, idle_before=idle_before)
                else:
                    flag = lg.flag_ending(now)
                    if flag is None:
                        return False
                    await self._end_locked(lg, flag[0], flag[1], flag_at=now)
        except ActionRefused:
            return False  # a move, or another process, came first
        self.after_move(lg)
        return True

    # -- presence -------------------------------------------------------------------------------

    def presence(self, lg: LiveGame) -> list[bool]:
        """For each seat, whether a device holding it is connected to this process."""
        here = [False] * lg.num_players
        for c in self.clients.get(lg.id, ()):
            for s in c.seats:
                here[s] = True
        return here

    def announce_presence(self, lg: LiveGame) -> None:
        """Tell every connection who is here: ``seats`` (connected here), ``away`` (the
        seconds each person's seat has been gone, ``null`` while here) and
        ``claim_after`` (the seconds after which the last person left may claim the
        win; ``null``: not in this game)."""
        here = self._presence_changed(lg)
        clients = self.clients.get(lg.id, ())
        watchers = sum(1 for c in clients if not c.seats)
        away = self.attendance.away(lg.id, here)
        msg = {
            "type": "presence",
            "seats": here,
            "watchers": watchers,
            "away": [None if s.kind == BOT else a for s, a in zip(lg.seats, away, strict=True)],
            "claim_after": self.attendance.window(lg),
        }
        text = json.dumps(msg)
        for c in clients:
            c.push(text)

    def _presence_changed(self, lg: LiveGame) -> list[bool]:
        """Record who is here now (written for the other processes if anybody came or
        went); the seats held here."""
        here = self.presence(lg)
        self._mark_seen(self.attendance.update(lg.id, here))
        return here

    def broadcast(self, lg: LiveGame) -> None:
        for c in self.clients.get(lg.id, ()):
            c.push_state()

    async def _resync_watched(self) -> None:
        """Bring every game somebody watches here up to the database.

        The fan-out is a fast path: a process killed between committing a move and
        publishing it leaves the others behind with nothing to show them the gap. A
        cheap look at the stored ply counts and seat claims of the watched games closes
        it (a seat moved to another device is taken from the connection here)."""
        watched = [gid for gid in self.clients if gid in self.games]
        try:
            stored = await asyncio.to_thread(self.storage.plies, watched)
            seats = await asyncio.to_thread(self.storage.seat_keys, watched)
        except Exception as exc:  # the database is away: try again next round
            log.warning("resync failed: %s", exc)
            return
        for gid, keys in seats.items():
            lg = self.games.get(gid)
            if lg is not None and keys != [(s.token_hash, s.claimed_by) for s in lg.seats]:
                await self.seating.reload(lg)
                self.seating.enforce(lg)
        for gid, count in stored.items():
            lg = self.games.get(gid)
            if lg is not None and count > lg.ply:
                await self.refresh(lg)
                self.broadcast(lg)
                self.schedule_bots(lg)

    def after_move(self, lg: LiveGame) -> None:
        self.broadcast(lg)
        self.schedule_bots(lg)
        if not lg.bots_to_move() and self.storage.shared:
            self._background(asyncio.to_thread(self.storage.release_lease, lg.id, self.holder))
        if lg.over:
            if self.analysis is not None:
                self.analysis.finished(lg.id)
            self._retire(lg)

    def _background(self, work: Awaitable[Any]) -> None:
        """Run ``work`` without waiting for it (kept referenced until it is done)."""
        task = asyncio.ensure_future(work)
        self._chores.add(task)
        task.add_done_callback(self._chores.discard)

    async def _sweep_loop(self) -> None:
        """Take over the bots of games whose thinker died (their lease expired), and
        catch up watched games that the fan-out left behind."""
        while True:
            await asyncio.sleep(self.sweep_seconds)
            await self._resync_watched()
            try:
                ids = await asyncio.to_thread(self.storage.orphaned_bot_games)
            except Exception as exc:  # the database is away: try again next round
                log.warning("bot sweep failed: %s", exc)
                continue
            for gid in ids:
                try:
                    lg = await self.get(gid)
                except GameUnavailable:
                    continue
                if lg is not None:
                    await self.refresh(lg)
                    self.schedule_bots(lg)

    def _retire(self, lg: LiveGame) -> None:
        """Keep a finished game in memory only while somebody looks at it, and a few
        recent ones for replays; the database has them all."""
        if lg.over and not self.clients.get(lg.id):
            self._finished.pop(lg.id, None)
            self._finished[lg.id] = None
            while len(self._finished) > self.keep_finished:
                old, _ = self._finished.popitem(last=False)
                if not self.clients.get(old):
                    self.games.pop(old, None)
                    self.attendance.forget(old)

    async def _catch_up(self, lg: LiveGame) -> None:
        """Apply what other processes committed since our copy (from the database)."""
        rows, status, outcome, rematch = await asyncio.to_thread(
            self.storage.actions_since, lg.id, lg.ply
        )
        if rows:
            try:
                lg.apply_entries(rows)
            except ArenaError:
                log.exception("game %s: stored actions do not replay; reloading", lg.id)
                row = await asyncio.to_thread(self.storage.load_game, lg.id)
                if row is not None:
                    fresh = LiveGame(row)
                    lg.match = fresh.match
                    lg.status, lg.outcome = fresh.status, fresh.outcome
                    lg.bot_flag = fresh.bot_flag
        if lg.clock is not None and (rows or status == "finished"):
            stored_clock = await asyncio.to_thread(self.storage.game_clock, lg.id)
            if stored_clock is not None:
                lg.clock = Clock.from_json(stored_clock)
        if status == "finished" and not lg.over and outcome is not None:
            ending = Outcome.from_json(outcome)
            if ending.code in OUTSIDE_RULES:  # ended outside the rules elsewhere
                lg.end(ending)
        if rematch is not None:
            lg.rematch = rematch
        stored = await asyncio.to_thread(self.storage.client_seeds, lg.id)
        lg.set_client_seeds(stored)

    async def refresh(self, lg: LiveGame) -> None:
        """Bring ``lg`` up to date with the database (several processes only)."""
        if self.fanout is None and not self.storage.shared:
            return
        async with lg.lock:
            await self._catch_up(lg)

    async def on_event(self, event: JsonDict) -> None:
        """An event another process published."""
        gid = event.get("game")
        if not isinstance(gid, str):
            return
        lg = self.games.get(gid)
        if lg is None:
            return  # not held here: it is loaded from the database when needed
        kind = event.get("kind")
        if kind == "actions":
            async with lg.lock:
                start = int(event.get("from", -1))
                if start == lg.ply:
                    try:
                        lg.apply_entries([(int(p), a, str(t)) for p, a, t in event["entries"]])
                        if isinstance(event.get("clock"), dict):
                            lg.clock = Clock.from_json(event["clock"])
                    except (ArenaError, TypeError, ValueError, KeyError):
                        await self._catch_up(lg)
                elif start > lg.ply:
                    await self._catch_up(lg)
            self.broadcast(lg)
        elif kind == "client_seeds" and isinstance(event.get("seeds"), list):
            with contextlib.suppress(KeyError, TypeError, ValueError):
                lg.set_client_seeds(event["seeds"])
        elif kind == "ended":
            async with lg.lock:
                await self._catch_up(lg)
            self.after_move(lg)
        elif kind == "seats":
            await self.seating.reload(lg)
            self.seating.enforce(lg)
        elif kind == "draw_offer":
            offer = event.get("seat")
            lg.set_draw_offer(offer if isinstance(offer, int) else None)
            if isinstance(event.get("declined"), dict):
                self._tell_declined(lg, event["declined"])
            self.broadcast(lg)
        elif kind == "rematch" and isinstance(event.get("rematch"), str):
            lg.rematch = event["rematch"]
            self._announce_rematch(lg)

    # -- bots ---------------------------------------------------------------------------------

    def schedule_bots(self, lg: LiveGame) -> None:
        for seat in lg.bots_to_move():
            key = (lg.id, seat)
            task = self._bot_tasks.get(key)
            if task is None or task.done():
                self._bot_tasks[key] = asyncio.create_task(self._bot_move(lg, seat))

    async def _bot_move(self, lg: LiveGame, seat: int) -> None:
        """Let the bot in ``seat`` think and act; then start whichever bot is due.

        The action carries the ply the bot thought at: in a simultaneous phase it still
        counts when only other seats acted meanwhile; otherwise it is refused as stale
        and the bot thinks again on the new position.
        """
        key = (lg.id, seat)
        loop = asyncio.get_running_loop()
        t0 = loop.time()
        again = True
        try:
            # Exactly one process thinks for a game's bots: the holder of its lease.
            await self.refresh(lg)  # think on the position the database has
            if seat not in lg.bots_to_move():
                return
            if not await asyncio.to_thread(
                self.storage.take_lease, lg.id, self.holder, self.lease_seconds, lg.ply
            ):
                again = False  # another process thinks; the sweeper watches it lives
                return
            ply = lg.ply
            text = await self._bot_choice(lg, seat, ply)
            wait = self.bot_delay - (loop.time() - t0)
            if wait > 0:
                await asyncio.sleep(wait)
            try:
                await self.act(lg, seat, ply, text)
            except ActionRefused as exc:
                if exc.code in ("stale", "game_over", "not_your_turn"):
                    return
                log.error("game %s: bot %s chose %r: %s", lg.id, seat, text, exc.message)
                legal = lg.game.legal_actions(lg.state, seat)
                if legal:
                    rng = random.Random(lg.match.bot_seed(seat, lg.ply))
                    choice = rng.choice(list(legal))
                    await self.act(lg, seat, lg.ply, lg.game.format_action(choice))
        except asyncio.CancelledError:
            again = False
            raise
        except ActionRefused:
            pass
        except Exception:
            log.exception("game %s: bot for seat %d failed", lg.id, seat)
            again = False  # do not spin on a broken agent
        finally:
            if self._bot_tasks.get(key) is asyncio.current_task():
                del self._bot_tasks[key]
            if again:
                self.schedule_bots(lg)

    async def _bot_choice(self, lg: LiveGame, seat: int, ply: int) -> str:
        game = lg.game
        state = lg.state
        if lg.spec.hidden_information:
            # The bot sees a world consistent with its own view, never the true one.
            # Its generator is derived apart from chance (core.fairness), so neither the
            # bot's world nor its choice tells anything about the secret.
            det = random.Random(lg.match.chance.bot_seed(seat, ply, "determinize"))
            state = game.determinize(state, seat, det)
        agent = lg.seats[seat].agent or "random"
        seed = lg.match.bot_seed(seat, ply)
        try:
            return await self.bots.think(
                lg.spec.id,
                lg.row.params,
                game.dump_state(state),
                seat,
                agent,
                seed,
                position_keys(game, lg.states),
            )
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("game %s: agent %s failed; playing a random move", lg.id, agent)
            legal = list(game.legal_actions(lg.state, seat))
            return str(game.format_action(random.Random(seed).choice(legal)))

    # -- clients ------------------------------------------------------------------------------

    def attach(self, lg: LiveGame, client: Client) -> None:
        client.game = lg
        self.clients.setdefault(lg.id, set()).add(client)
        self.announce_presence(lg)

    def detach(self, client: Client) -> None:
        if client.game is not None:
            clients = self.clients.get(client.game.id)
            if clients is not None:
                clients.discard(client)
                if not clients:
                    del self.clients[client.game.id]
                    self._presence_changed(client.game)  # nobody left to tell
                    self._retire(client.game)
                else:
                    self.announce_presence(client.game)
