"""The server's authority over games: create, load, act, run bots, push to clients.

:class:`Arena` keeps the games in play in memory (:class:`LiveGame`), writes every
action to :class:`Storage` before anybody hears of it, and pushes each connected
:class:`Client` the position from its own seats' views. Each game has a lock, so
actions on one game are taken one at a time while other games go on; the storage
writer commits the actions of all games together.

The parts around the moves live beside it, and the arena keeps their public names:
connections (:mod:`~sudoku_arena.server.clients`), who is connected
(:mod:`~sudoku_arena.server.presence`), a new game's seats
(:mod:`~sudoku_arena.server.seating`), the bots (:mod:`~sudoku_arena.server.botplay`),
rematches (:mod:`~sudoku_arena.server.rematch`), the other processes' events and
catching up with them (:mod:`~sudoku_arena.server.fleet`), endings outside the rules
and the sweeper of clocks and abandoned games (:mod:`~sudoku_arena.server.endings`),
which games stay in memory (:mod:`~sudoku_arena.server.resident`), draining on
SIGTERM (:mod:`~sudoku_arena.server.drain`). How a move flows:
docs/architecture/server.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import os
import secrets
import socket
import time
from collections import deque
from collections.abc import Awaitable, Callable, Mapping, Sequence

from sudoku_arena.core.errors import InvalidParameterError
from sudoku_arena.core.fairness import ClientSeed, new_secret
from sudoku_arena.core.match import Match
from sudoku_arena.core.registry import load, spec_of
from sudoku_arena.core.types import JsonDict
from sudoku_arena.server.analysis import Analyser
from sudoku_arena.server.botplay import BotPlay
from sudoku_arena.server.bots import BotRunner
from sudoku_arena.server.chat import Chat
from sudoku_arena.server.clients import Client
from sudoku_arena.server.clock import Clock, TimeControl
from sudoku_arena.server.db import games as games_db
from sudoku_arena.server.db import leases as leases_db
from sudoku_arena.server.db.accounts import LinkSeats
from sudoku_arena.server.db.engine import ConflictError, Op, Storage, StorageError, Together
from sudoku_arena.server.db.games import (
    CreateGame,
    CreateRematch,
    GameRow,
    Quarantine,
    SetClientSeeds,
)
from sudoku_arena.server.db.ratings import MarkRated, Seat
from sudoku_arena.server.db.seats import MarkSeen
from sudoku_arena.server.drain import drain_arena
from sudoku_arena.server.endings import Endings, duration_words
from sudoku_arena.server.errors import ApiError
from sudoku_arena.server.events import Event, Events, GameCreated, GameEnded, MoveCommitted
from sudoku_arena.server.fanout import RedisFanout
from sudoku_arena.server.fleet import Fleet
from sudoku_arena.server.live import (
    ActionRefused,
    Committed,
    Ending,
    GameUnavailable,
    LiveGame,
    Move,
)
from sudoku_arena.server.presence import CLAIM_AFTER, Attendance, Presence
from sudoku_arena.server.rematch import Rematches
from sudoku_arena.server.resident import Resident
from sudoku_arena.server.seating import BOT, HUMAN, Seating, SeatSpec, creators_seeds, new_seats
from sudoku_arena.server.sessions import SessionCache
from sudoku_arena.server.takeback import Takebacks

#: ``Client`` (server/clients.py), ``duration_words`` (server/endings.py), ``HUMAN``,
#: ``BOT`` and ``SeatSpec`` (server/seating.py) are offered here too, where callers
#: found them.
__all__ = ["BOT", "HUMAN", "MODES", "VISIBILITIES", "Arena", "Client", "SeatSpec", "duration_words"]

log = logging.getLogger("sudoku_arena.server")

QUARANTINED = "quarantined"


def _unavailable(problem: str) -> str:
    return (
        f"this game cannot be opened: its stored moves no longer replay ({problem[:300]}); "
        "it is kept aside for the site's operators, and every other game goes on"
    )


MODES = ("hotseat", "invite")
VISIBILITIES = ("public", "private")


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
        bots_elsewhere: bool = False,
    ) -> None:
        self.storage = storage
        #: Bots think in ``sudoku-arena bots`` processes, not here: this process only
        #: tells the fleet a bot is due (``bots_due`` on the fan-out).
        self.bots_elsewhere = bots_elsewhere
        #: Set by :meth:`drain` (SIGTERM): no new games, sockets or bot moves here.
        self.draining = False
        self.in_flight = 0  # actions being checked and stored now
        #: Post-game analysis in the background (``None``: none).
        self.analysis = analysis
        self.fanout = fanout
        self.bots = bots or BotRunner(workers=1)
        self.bot_delay = bot_delay
        self.games: dict[str, LiveGame] = {}
        self.clients: dict[str, set[Client]] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        #: Seconds without use after which a game leaves memory (it stays stored); which
        #: games stay (server/resident.py).
        self.idle_seconds = idle_seconds
        self.resident = Resident(self)
        self._evictor: asyncio.Task[None] | None = None
        self._sweeper: asyncio.Task[None] | None = None
        self._chores: set[asyncio.Future[None]] = set()
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
        self.presences = Presence(self)
        #: Endings outside the rules and the sweeper of clocks and abandoned games
        #: (server/endings.py).
        self.endings = Endings(self)
        #: The bots thinking here (server/botplay.py); rematches (server/rematch.py).
        self.botplay = BotPlay(self)
        #: Catching up with the other processes (server/fleet.py).
        self.fleet = Fleet(self)
        self.rematches = Rematches(self)
        #: What happened to games, told once per fleet (by the process that stored it);
        #: subscribe at start-up (see :mod:`sudoku_arena.server.events`).
        self.events = Events()
        self._events_due: deque[Event] = deque()
        self._publisher: asyncio.Future[None] | None = None
        #: Each game's chat rooms, and the players' takeback requests (server/chat.py,
        #: server/takeback.py); the app gives the chat its rate limits.
        self.chat = Chat(self)
        self.sessions = SessionCache(None if fanout is None else fanout.publish)
        self.takebacks = Takebacks(self)

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
        # (nobody would open them otherwise), unless the bots think elsewhere.
        ids = (
            []
            if self.bots_elsewhere
            else await asyncio.to_thread(games_db.games_to_open, self.storage.engine)
        )
        for gid in ids:
            try:
                lg = await self.get(gid)
            except GameUnavailable:
                continue  # set aside; logged where it was found
            if lg is not None:
                self.schedule_bots(lg)
        if ids:
            log.info("opened %d active games whose bots are due", len(ids))
        self._evictor = asyncio.create_task(self.resident.evict_idle_loop())
        if self.storage.shared:
            self._sweeper = asyncio.create_task(self.fleet.sweep_loop())
        self._timeouts = asyncio.create_task(self.endings.timeout_loop())
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
        self.botplay.cancel()
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
                    row = await asyncio.to_thread(games_db.load_game, self.storage.engine, game_id)
                    if row is None:
                        return None
                    lg = await self._open(row)
                    self.games[game_id] = lg
                    self.attendance.opened(game_id, lg.num_players)
                    if lg.over:
                        self.resident.retire(lg)  # loaded to be looked at: one of the recent few
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

    def evict_idle(self, now: float | None = None) -> list[str]:
        """Drop games nobody used for ``idle_seconds``; they reopen on next access
        (:meth:`~sudoku_arena.server.resident.Resident.evict_idle`)."""
        return self.resident.evict_idle(now)

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
        owner: int | None = None,
        accounts: Mapping[int, int] | None = None,
        rated: Mapping[int, Seat] | None = None,
    ) -> tuple[LiveGame, dict[int, str]]:
        """Set up and store a new game; return it with the human seats' secret tokens.

        Generated parameters (the Sudoku grid) come from a fresh public seed; chance
        from a fresh secret that shares nothing with it and that nobody learns before
        the game is over (its commitment is public at once). ``client_seeds`` are the
        creator's contributions to chance, by seat. ``time_control``: a clock per seat.
        ``visibility``: ``public`` (listed; open seats joinable from the lobby) or
        ``private`` (default for invite games). The first person's seat is the host's,
        who may re-issue the invites of seats nobody claimed. Refused while draining
        (503 ``draining``: another process takes it). Raises ``ArenaError``
        subclasses with what is allowed when the game, a parameter, the seats or an
        agent name is wrong. ``owner``: the signed-in creator's account, which gets the
        first person's seat (every person's seat on one screen) in the game's own commit.
        ``accounts``: seat -> the account that holds it from the start (matched seekers),
        also linked in the game's own commit. ``rated``: the game is rated, with these
        players known at creation (seat -> (rating key, name)), recorded in that commit
        too: a game is rated from its first commit or never.
        """
        self.refuse_if_draining()
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
        seat_rows, tokens = new_seats(game, seats, token_hashes, claims)
        seeds = creators_seeds(client_seeds, seat_rows)
        row_id = secrets.token_urlsafe(9)
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
            rated=rated is not None,
        )
        lg = LiveGame(row, game)
        if lg.outcome is not None:  # over before anybody moved (degenerate set-up)
            row.status, row.outcome = "finished", lg.outcome
        row.bot_to_move = lg.bot_flag = lg.bot_due(lg.state)
        # A rematch is created only if no other process created it first: the
        # database decides, in the same transaction as the game's row.
        ops: list[Op] = [CreateGame(row) if rematch_of is None else CreateRematch(row)]
        held: dict[int, list[int]] = {}
        if owner is not None and tokens:
            held[owner] = sorted(tokens) if mode == "hotseat" else sorted(tokens)[:1]
        for seat, account in (accounts or {}).items():
            held.setdefault(account, []).append(seat)
        ops += [LinkSeats(a, tuple((row.id, s) for s in seats)) for a, seats in held.items()]
        if rated is not None:
            ops.append(MarkRated(row.id, row.game, dict(rated)))
        await self.storage.write(ops[0] if len(ops) == 1 else Together(tuple(ops)))
        lg.owners = {}  # a new game's links are the ones just written
        for account, linked in held.items():
            self.seating.linked(lg, account, linked)
        self.games[row.id] = lg
        self.attendance.opened(row.id, n)
        self.chat.created(row.id)
        self._publish(GameCreated(row.id, row.game, rematch_of))
        self.schedule_bots(lg)
        return lg, tokens

    async def rematch(self, lg: LiveGame) -> LiveGame:
        """The rematch of a finished game, created on first request
        (:meth:`~sudoku_arena.server.rematch.Rematches.rematch`)."""
        return await self.rematches.rematch(lg)

    async def add_client_seed(self, lg: LiveGame, seat: int, text: object) -> ClientSeed:
        """Store ``seat``'s client seed (once per seat); it counts from the next ply."""
        if not isinstance(text, str):
            raise ActionRefused("bad_client_seed", "client_seed: text of 1-64 characters")
        async with lg.lock:
            await self.fleet.catch_up_if_shared(lg)
            before = [c.to_json() for c in lg.match.chance.client_seeds]
            given = lg.add_client_seed(seat, text)
            seeds = [c.to_json() for c in lg.match.chance.client_seeds]
            try:
                await self.storage.write(SetClientSeeds(lg.id, seeds, lg.ply))
            except ConflictError:
                lg.set_client_seeds(before)
                await self.fleet.catch_up(lg)
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
        self.in_flight += 1  # a drain waits for it to be stored and acknowledged
        try:
            async with lg.lock:
                step = lg.prepare_move(
                    seat, ply, action, self.now(), check_seeds=self.storage.shared
                )
                if isinstance(step, Ending):  # too late: the time ran out before this move
                    done = await self.write_end(lg, step)
                else:
                    done = await self._write_move(lg, step)
        finally:
            self.in_flight -= 1
        if isinstance(step, Ending):
            self.after_move(lg, done)
            raise ActionRefused("game_over", f"the game is over: {step.outcome.reason}")
        if ack is not None:
            ack(done.start, done.ply)
        self.after_move(lg, done)
        return done.start, done.ply

    async def _write_move(self, lg: LiveGame, move: Move) -> Committed:
        """Store ``move`` and add it to ``lg`` (``lg.lock`` held); the other processes
        are told through the fan-out, in ply order (under the lock)."""
        try:
            await self.storage.write(move.op)
        except ConflictError:
            await self.fleet.catch_up(lg)
            raise ActionRefused(
                "stale", "another move was made first; here is the current position"
            ) from None
        except StorageError:
            raise ActionRefused(
                "unavailable", "the move could not be saved; nothing changed, try again"
            ) from None
        done = lg.commit_move(move)
        self.moves += 1
        if self.fanout is not None:
            self.fanout.publish(
                {
                    "kind": "actions",
                    "game": lg.id,
                    "from": done.start,
                    "entries": move.op.entries,
                    "clock": move.op.clock,
                }
            )
        return done

    async def write_end(self, lg: LiveGame, ending: Ending) -> Committed:
        """Store ``ending`` and apply it to ``lg`` (``lg.lock`` held); refused (nothing
        changed) when the database says a move, or another process, came first."""
        try:
            await self.storage.write(ending.op)
        except ConflictError:
            await self.fleet.catch_up(lg)
            raise ActionRefused(
                "stale", "a move was made first; here is the current position"
            ) from None
        except StorageError:
            raise ActionRefused(
                "unavailable", "that could not be saved; nothing changed, try again"
            ) from None
        done = lg.commit_end(ending)
        if self.fanout is not None:
            self.fanout.publish({"kind": "ended", "game": lg.id})
        return done

    # -- endings outside the rules (server/endings.py) ---------------------------------

    async def end_by_players(self, lg: LiveGame, seat: int, kind: str) -> None:
        """``seat`` resigns, aborts or accepts the standing draw offer
        (:meth:`~sudoku_arena.server.endings.Endings.by_players`)."""
        await self.endings.by_players(lg, seat, kind)

    def draw_offer(self, lg: LiveGame, seat: int, answer: str) -> None:
        """``seat`` offers a draw or declines the standing one
        (:meth:`~sudoku_arena.server.endings.Endings.draw_offer`)."""
        self.endings.draw_offer(lg, seat, answer)

    async def claim_win(self, lg: LiveGame, seat: int) -> None:
        """``seat`` claims the win over every other person, gone long enough
        (:meth:`~sudoku_arena.server.endings.Endings.claim_win`)."""
        await self.endings.claim_win(lg, seat)

    async def sweep_timeouts(self) -> list[str]:
        """End the games whose clock ran out, or nobody plays any more; their ids
        (:meth:`~sudoku_arena.server.endings.Endings.sweep`)."""
        return await self.endings.sweep()

    async def end_by_server(self, gid: str, now: float, idle_before: float | None = None) -> bool:
        """End ``gid`` on time, or as abandoned (``idle_before``)
        (:meth:`~sudoku_arena.server.endings.Endings.by_server`)."""
        return await self.endings.by_server(gid, now, idle_before)

    # -- presence (server/presence.py) -------------------------------------------------

    def presence(self, lg: LiveGame) -> list[bool]:
        """For each seat, whether a device holding it is connected to this process."""
        return self.presences.here(lg)

    def announce_presence(self, lg: LiveGame) -> None:
        """Tell every connection who is here
        (:meth:`~sudoku_arena.server.presence.Presence.announce`)."""
        self.presences.announce(lg)

    def seen_over_http(self, lg: LiveGame, seat: int) -> None:
        """A client without a connection asked or acted for ``seat``: he is here."""
        self.presences.seen_over_http(lg, seat)

    async def write_seen(self, op: MarkSeen) -> None:
        await self.presences.write_seen(op)

    # -- after a change ------------------------------------------------------------------

    def broadcast(self, lg: LiveGame) -> None:
        for c in self.clients.get(lg.id, ()):
            c.push_state()

    def after_move(self, lg: LiveGame, done: Committed | None = None) -> None:
        """Tell everybody of a change to ``lg``: its clients, its bots, and (``done``:
        this process stored the change) the events' listeners, in the background."""
        self.broadcast(lg)
        bots = lg.bots_to_move() if done is None else list(done.bots)
        self.schedule_bots(lg, bots)
        if not bots and self.storage.shared:
            self.background(
                asyncio.to_thread(leases_db.release_lease, self.storage.engine, lg.id, self.holder)
            )
        over = lg.over if done is None else done.over
        if over:
            if self.analysis is not None:
                self.analysis.finished(lg.id)
            self.resident.retire(lg, over)
        if done is not None:
            self._publish_committed(done)

    def _publish_committed(self, done: Committed) -> None:
        events: list[Event] = []
        if done.ply > done.start:
            events.append(
                MoveCommitted(
                    done.game_id, done.game, done.start, done.ply, done.by, done.to_move, done.over
                )
            )
        if done.outcome is not None:
            events.append(GameEnded(done.game_id, done.game, done.outcome))
        self._publish(*events)

    def _publish(self, *events: Event) -> None:
        """Tell the events' listeners, in the background and in order."""
        self._events_due.extend(events)
        if self._events_due and (self._publisher is None or self._publisher.done()):
            self._publisher = asyncio.ensure_future(self._publish_due())
            self._chores.add(self._publisher)
            self._publisher.add_done_callback(self._chores.discard)

    async def _publish_due(self) -> None:
        while self._events_due:
            await self.events.publish(self._events_due.popleft())

    def background(self, work: Awaitable[None]) -> None:
        """Run ``work`` without waiting for it (kept referenced until it is done)."""
        task = asyncio.ensure_future(work)
        self._chores.add(task)
        task.add_done_callback(self._chores.discard)

    # -- the rest of the fleet (server/fleet.py) -----------------------------------------

    async def refresh(self, lg: LiveGame) -> None:
        """Bring ``lg`` up to date with the database (several processes only;
        :meth:`~sudoku_arena.server.fleet.Fleet.refresh`)."""
        await self.fleet.refresh(lg)

    async def on_event(self, event: JsonDict) -> None:
        """An event another process published
        (:meth:`~sudoku_arena.server.fleet.Fleet.on_event`)."""
        await self.fleet.on_event(event)

    # -- draining (SIGTERM; server/drain.py) ---------------------------------------------

    def refuse_if_draining(self) -> None:
        if self.draining:
            raise ApiError(503, "draining", "this server is restarting: try again at once")

    async def drain(self, grace: float = 10.0) -> None:
        """Hand this process's games to the rest of the fleet before it stops
        (:func:`~sudoku_arena.server.drain.drain_arena`)."""
        await drain_arena(self, grace)

    # -- bots (server/botplay.py) ---------------------------------------------------------

    def schedule_bots(self, lg: LiveGame, seats: Sequence[int] | None = None) -> None:
        """Start the bots due to move in ``lg`` (``seats``: known already), or tell the
        fleet they are due (:meth:`~sudoku_arena.server.botplay.BotPlay.schedule`)."""
        self.botplay.schedule(lg, seats)

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
                    self.presences.changed(client.game)  # nobody left to tell
                    self.resident.retire(client.game)
                else:
                    self.announce_presence(client.game)
