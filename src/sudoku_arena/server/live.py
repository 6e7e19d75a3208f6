"""One game held in memory by the server: its committed states, log and messages.

A :class:`LiveGame` holds only what is committed to storage. An action is first checked
and applied on the side (:meth:`LiveGame.prepare_move`, which changes nothing and builds
the write), written to storage by the arena, and only then added
(:meth:`LiveGame.commit_move`); so whatever the server shows anybody, at any moment, is
on disk.

The rules, the log and chance live in a :class:`~sudoku_arena.core.match.Match`, the
same runner the command line and the library use: chance is derived from the game's
secret, its id and the ply (:mod:`sudoku_arena.core.fairness`), so a game rebuilt after
a restart draws exactly what it would have drawn without the restart. The secret never
leaves the server while the game goes on; only its commitment does.

What observers receive is built in :mod:`sudoku_arena.server.views` (the messages
half of :class:`LiveGame`), only from the game's ``view``.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace

from sudoku_arena.core.endings import (
    OUTSIDE_RULES,
    abandoned,
    aborted,
    agreed_draw,
    lost_on_time,
    resignation,
)
from sudoku_arena.core.errors import (
    ArenaError,
    IllegalActionError,
    ReplayMismatchError,
    split_rulings,
)
from sudoku_arena.core.fairness import ClientSeed, secret_from_seed
from sudoku_arena.core.match import LogEntry, Match, Pending
from sudoku_arena.core.protocol import AnyGame
from sudoku_arena.core.registry import build
from sudoku_arena.core.types import JsonDict, Outcome
from sudoku_arena.server.clock import Clock
from sudoku_arena.server.db.games import AppendActions, EndGame, GameRow
from sudoku_arena.server.db.seats import SeatRow
from sudoku_arena.server.views import Views
from sudoku_arena.server.views import draw_page as draw_page  # where callers found it


class ActionRefused(Exception):
    """An action the server will not take; ``code`` is machine-readable, ``message`` a
    sentence for the player (no ruling IDs in it: those are in ``rulings``)."""

    def __init__(self, code: str, message: str) -> None:
        plain, rulings = split_rulings(message)
        super().__init__(plain)
        self.code = code
        self.message = plain
        self.rulings = rulings


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


class GameUnavailable(Exception):
    """A stored game that cannot be opened (set aside in the database); ``reason``
    says why."""

    def __init__(self, game_id: str, reason: str) -> None:
        super().__init__(reason)
        self.game_id = game_id
        self.reason = reason


@dataclass(frozen=True, slots=True)
class Move:
    """A checked move, not stored yet (:meth:`LiveGame.prepare_move`): ``op`` is the
    write that stores it; :meth:`LiveGame.commit_move` adds it once written."""

    seat: int
    pending: Pending
    clock: Clock | None  # the clocks once it is stored (timed games)
    bot_due: bool  # whether a bot is to move after it
    op: AppendActions


@dataclass(frozen=True, slots=True)
class Ending:
    """An ending outside the rules (resignation, abort, agreed draw, time, abandonment,
    a claimed win), not stored yet: ``op`` stores it if the database agrees;
    :meth:`LiveGame.commit_end` applies it once written."""

    outcome: Outcome
    clock: Clock | None  # the stopped clocks (timed games)
    op: EndGame


@dataclass(frozen=True, slots=True)
class Committed:
    """What a stored move or ending changed: plies ``start`` up to ``ply``; the seats
    to move now (``to_move``, empty once over) and the bots among them; the outcome
    once the game is over. What the arena tells everybody is built from it."""

    game_id: str
    game: str
    start: int
    ply: int
    by: int | None
    to_move: tuple[int, ...]
    bots: tuple[int, ...]
    outcome: JsonDict | None
    over: bool


class LiveGame(Views):
    """A game's committed history and (:class:`~sudoku_arena.server.views.Views`) the
    messages observers get about it."""

    def __init__(
        self, row: GameRow, game: AnyGame | None = None, *, read_only: str | None = None
    ) -> None:
        """Rebuild the game stored as ``row`` by replaying its log (which checks every
        stored action); ``game`` (already built from ``row``'s parameters, as when it
        was just created) saves loading it again. A game opened ``read_only`` (with the
        reason) can be watched but takes no action and runs no bot."""
        self.id = row.id
        self.read_only = read_only
        self.last_used = time.monotonic()
        #: Whether the database says a bot is to move (``None``: not known).
        self.bot_flag: bool | None = row.bot_to_move
        self.row = replace(row, actions=[])  # the match below holds them
        self.seats: list[SeatRow] = sorted(row.seats, key=lambda s: s.seat)
        #: Seat -> account id of the seats linked to accounts, as far as this process
        #: knows them (``None``: not known; see :meth:`Seating.owners`).
        self.owners: dict[int, int] | None = None
        if game is None:
            game = build(row.game, row.params)
        # Games stored before commitments existed had only a seed: their secret is
        # derived from it (still never shown before the end).
        secret = bytes.fromhex(row.secret) if row.secret else secret_from_seed(row.seed)
        try:
            self.match = Match(
                game,
                secret=secret,
                match_id=row.id,
                client_seeds=[
                    ClientSeed(int(c["seat"]), str(c["seed"]), int(c["ply"]))
                    for c in row.client_seeds
                ],
                players=row.players,
                log=[LogEntry(p, a, t) for p, a, t in row.actions],
            )
        except ReplayMismatchError:
            raise
        except ArenaError as exc:
            raise ReplayMismatchError(0, f"the stored game cannot be set up: {exc}") from None
        self.game: AnyGame = game
        self.spec = game.spec
        self.status = row.status
        self.outcome: JsonDict | None = row.outcome
        if self.over and row.outcome is not None:
            decided = Outcome.from_json(row.outcome)
            if decided.code in OUTSIDE_RULES:
                self.match.end(decided)
        #: The clocks of a timed game as stored with its last action (``None``: untimed).
        self.clock: Clock | None = None if row.clock is None else Clock.from_json(row.clock)
        #: The seat whose draw offer stands (cleared by the next move), or ``None``.
        self.draw_offer: int | None = None
        #: Grows with every change observers are sent (moves, offers, the end).
        self.version = 0
        self.rematch: str | None = row.rematch
        self._start_views()
        #: Held while an action on this game is checked and stored (one at a time).
        self.lock = asyncio.Lock()

    # -- reading --------------------------------------------------------------------------

    @property
    def rated(self) -> bool:
        """Made rated (decided in the game's first commit, so safe to keep in memory)."""
        return self.row.rated

    @property
    def ply(self) -> int:
        return self.match.ply

    @property
    def state(self) -> object:
        return self.match.state

    @property
    def states(self) -> Sequence[object]:
        return self.match.history

    @property
    def log(self) -> Sequence[LogEntry]:
        return self.match.entries

    @property
    def commitment(self) -> str:
        return self.match.commitment

    @property
    def num_players(self) -> int:
        return int(self.game.num_players)

    @property
    def over(self) -> bool:
        return self.status == "finished"

    def to_move(self) -> list[int]:
        return list(self.game.to_move(self.state).players)

    def seat_for_token(self, token: str) -> int | None:
        """The seat whose secret ``token`` is, or ``None`` (constant-time comparison)."""
        h = hash_token(token)
        found = None
        for s in self.seats:
            if s.token_hash is not None and hmac.compare_digest(s.token_hash, h):
                found = s.seat
        return found

    def seat_device(self, seat: int) -> str | None:
        """The sha256 of the device token that claimed ``seat`` (``None``: unclaimed)."""
        return self.seats[seat].claimed_by

    def set_seats(self, seats: Sequence[SeatRow]) -> None:
        """Take the seats as stored now (a claim or a new invite changed them)."""
        self.seats = sorted(seats, key=lambda s: s.seat)
        self._changed()

    def bots_to_move(self) -> list[int]:
        if self.over or self.read_only:
            return []
        return [p for p in self.to_move() if self.seats[p].kind == "bot"]

    def bot_due(self, state: object) -> bool:
        """Whether a bot is to move in ``state`` (stored with each action, so that a
        process opens at start only the games whose bots must move)."""
        tm = self.game.to_move(state)
        return not tm.is_terminal and any(self.seats[p].kind == "bot" for p in tm.players)

    def info(self) -> JsonDict:
        """Public facts about the game (no seed, no tokens)."""
        return {
            "id": self.id,
            "game": self.spec.id,
            "name": self.spec.name,
            "version": self.row.game_version,
            "params": self.row.params,
            "mode": self.row.mode,
            "seats": [
                {"seat": s.seat, "kind": s.kind, "agent": s.agent, "name": s.name}
                for s in self.seats
            ],
            "chance": self.spec.chance,
            "hidden_information": self.spec.hidden_information,
            "simultaneous": self.spec.simultaneous,
            "draws": self.spec.draws,
            "status": self.status,
            "ply": self.ply,
            "outcome": self.outcome,
            "rematch": self.rematch,
            "rematch_of": self.row.rematch_of,
            "created": self.row.created,
            "commitment": self.commitment,
            "read_only": self.read_only,
            "client_seeds": [c.to_json() for c in self.match.chance.client_seeds],
            "visibility": self.row.visibility,
            "host_seat": self.row.host_seat,
            "clock": self.time_control(),
            "claimed": [s.claimed_by is not None for s in self.seats],
        }

    def time_control(self) -> JsonDict | None:
        if self.clock is None:
            return None
        c = self.clock.control
        return {"minutes": c.minutes, "increment": c.increment, "days": c.days, "words": c.words()}

    def clock_json(self) -> JsonDict | None:
        """The clocks as sent to clients: seconds ``left`` per seat as of ``since`` (the
        server time each running clock started; ``null`` while stopped). Clients count
        down from these with the ``server_time`` each message carries."""
        control = self.time_control()
        if self.clock is None or control is None:
            return None
        return {**control, "left": list(self.clock.left), "since": list(self.clock.since)}

    def clock_after(self, pending: Pending, now: float) -> Clock | None:
        """The clocks once ``pending`` is stored at ``now``."""
        if self.clock is None:
            return None
        last = pending.states[-1]
        actors = {e.actor for e in pending.entries if e.actor is not None}
        to_move = self.game.to_move(last).players
        return self.clock.after(actors, to_move, now, pending.outcome is not None)

    # -- acting -----------------------------------------------------------------------------

    def check_ply(self, seat: int, ply: int) -> None:
        """Refuse an action made at ``ply`` unless nothing the seat had not seen happened.

        The ply must be the current one; in a simultaneous phase an older ply is fine as
        long as only other seats have acted since and the seat is still to move (their
        actions do not change what this seat may do; the engine checks anyway).
        """
        if ply == self.ply:
            return
        if 0 <= ply < self.ply and seat in self.game.to_move(self.states[ply]).players:
            since = self.log[ply:]
            if all(e.actor is not None and e.actor != seat for e in since) and all(
                seat in self.game.to_move(s).players for s in self.states[ply:]
            ):
                return
        raise ActionRefused(
            "stale",
            f"your move was made at ply {ply} but the game is at ply {self.ply}; "
            "here is the current position",
        )

    def prepare(self, seat: int, ply: int, action: str) -> Pending:
        """Check ``action`` by ``seat`` made at ``ply``; return what it would add.

        Changes nothing. Raises :class:`ActionRefused` with a clear message.
        """
        if self.over:
            raise ActionRefused("game_over", "the game is over")
        if self.read_only:
            raise ActionRefused("read_only", self.read_only)
        if not 0 <= seat < self.num_players:
            raise ActionRefused("bad_seat", f"there is no seat {seat}")
        self.check_ply(seat, ply)
        tm = self.game.to_move(self.state)
        if seat not in tm.players:
            waiting = ", ".join(self.seats[p].name for p in tm.players) or "nobody"
            raise ActionRefused("not_your_turn", f"it is not your turn (to move: {waiting})")
        try:
            return self.match.preview(action, seat)
        except IllegalActionError as exc:
            raise ActionRefused("illegal", str(exc)) from None
        except ArenaError as exc:
            raise ActionRefused("notation", str(exc)) from None

    def _changed(self) -> None:
        """Something observers are sent changed (a draw offer, the status): the messages
        built so far are stale, and clients that saw this ply get the position again."""
        self.version += 1
        self._forget_messages()

    def _forget_position(self) -> None:
        """Drop what was built for the previous position (views, boards, messages)."""
        self.version += 1
        self._forget_views()

    def commit(self, pending: Pending, clock: Clock | None = None) -> None:
        """Add a written ``pending`` to the history (with the clocks written with it)."""
        self._forget_position()
        if clock is not None:
            self.clock = clock
        self.draw_offer = None  # a move answers a draw offer
        self.match.commit(pending)
        if pending.outcome is not None:
            self.status = "finished"
            self.outcome = pending.outcome.to_json()

    def prepare_move(
        self, seat: int, ply: int, action: str, now: float, *, check_seeds: bool
    ) -> Move | Ending:
        """Check ``action`` by ``seat`` made at ``ply`` at time ``now`` and build its write.

        Changes nothing. Returns the :class:`Move` to store, or the :class:`Ending` on
        time to store instead when a clock ran out before the move came. With
        ``check_seeds`` (several processes, a game with chance) the write is refused if
        the stored client seeds differ from the ones the chance was drawn with. Raises
        :class:`ActionRefused` with a clear message.
        """
        flag = self.flag_ending(now)
        if flag is not None:
            return self.prepare_end(flag[0], flag[1], flag_at=now)
        pending = self.prepare(seat, ply, action)
        due = self.bot_due(pending.states[-1])
        clock = self.clock_after(pending, now)
        op = AppendActions(
            self.id,
            [(e.ply, e.actor, e.action) for e in pending.entries],
            None if pending.outcome is None else pending.outcome.to_json(),
            # Written only when it changes: most moves leave it as it was.
            bot_to_move=None if due == self.bot_flag else due,
            seeds=(
                [c.to_json() for c in self.match.chance.client_seeds]
                if check_seeds and self.spec.chance
                else None
            ),
            clock=None if clock is None else clock.to_json(),
            deadline=None if clock is None else clock.deadline(),
        )
        return Move(seat, pending, clock, due, op)

    def commit_move(self, move: Move) -> Committed:
        """Add ``move``, now stored; what it changed."""
        start = self.ply
        self.commit(move.pending, move.clock)
        self.bot_flag = move.bot_due
        return self._committed(start, move.seat)

    def prepare_end(
        self,
        outcome: Outcome,
        clock: Clock | None,
        *,
        flag_at: float | None = None,
        idle_before: float | None = None,
    ) -> Ending:
        """The write ending the game now with ``outcome`` (``flag_at``: a loss on time,
        stored only if the database's clock agrees it ran out; ``idle_before``:
        abandonment, stored only if nothing was stored since then)."""
        op = EndGame(
            self.id,
            self.ply,
            outcome.to_json(),
            flag_at=flag_at,
            idle_before=idle_before,
            clock=None if clock is None else clock.to_json(),
        )
        return Ending(outcome, clock, op)

    def commit_end(self, ending: Ending) -> Committed:
        """Apply ``ending``, now stored; what it changed."""
        self.end(ending.outcome, ending.clock)
        return self._committed(self.ply, None)

    def _committed(self, start: int, by: int | None) -> Committed:
        to_move = () if self.over else tuple(self.to_move())
        bots = () if self.read_only else tuple(p for p in to_move if self.seats[p].kind == "bot")
        return Committed(
            self.id, self.spec.id, start, self.ply, by, to_move, bots, self.outcome, self.over
        )

    def apply_entries(self, entries: list[tuple[int, int | None, str]]) -> None:
        """Add entries committed elsewhere (another server process); checks each one."""
        self.match.extend([LogEntry(p, a, t) for p, a, t in entries])
        self._forget_position()
        self.draw_offer = None
        self.bot_flag = None  # another process wrote it: state it again on the next move
        out = self.match.outcome()
        if out is not None:
            self.status = "finished"
            self.outcome = out.to_json()

    # -- endings the players decide ------------------------------------------------------------

    def decided_ending(self, seat: int, kind: str) -> Outcome:
        """The outcome if ``seat`` resigns, aborts or accepts a draw now (``kind``:
        ``resign``, ``abort``, ``draw``); raises :class:`ActionRefused` when not allowed."""
        if self.over:
            raise ActionRefused("game_over", "the game is over")
        if self.read_only:
            raise ActionRefused("read_only", self.read_only)
        names = [s.name for s in self.seats]
        if kind == "resign":
            return resignation(self.game, self.state, seat, names)
        if kind == "abort":
            if any(e.actor == seat for e in self.log):
                raise ActionRefused(
                    "too_late", "you have moved already: a game can be aborted only before that"
                )
            return aborted(self.game, self.state)
        if kind == "draw":
            if not self.spec.draws:
                raise ActionRefused("no_draws", f"{self.spec.name} has no draws")
            if self.draw_offer is None or self.draw_offer == seat:
                raise ActionRefused("no_offer", "there is no draw offer from another player")
            return agreed_draw(self.game, self.state)
        raise ActionRefused("bad_message", f"unknown ending {kind!r}; allowed: resign, abort, draw")

    def offer_draw(self, seat: int) -> None:
        """Record ``seat``'s draw offer (it stands until the next move)."""
        if self.over:
            raise ActionRefused("game_over", "the game is over")
        if not self.spec.draws:
            raise ActionRefused("no_draws", f"{self.spec.name} has no draws")
        if self.draw_offer is not None and self.draw_offer != seat:
            raise ActionRefused(
                "offer_stands", "another player offers a draw: accept or decline it"
            )
        self.draw_offer = seat
        self._changed()

    def decline_draw(self) -> None:
        self.set_draw_offer(None)

    def set_draw_offer(self, seat: int | None) -> None:
        """Take the standing draw offer as another process saw it."""
        self.draw_offer = seat
        self._changed()

    def flag_ending(self, now: float) -> tuple[Outcome, Clock] | None:
        """The loss on time if a clock ran out by ``now``, with the stopped clocks."""
        if self.clock is None or self.over or self.read_only:
            return None
        seat = self.clock.flagged(now)
        if seat is None:
            return None
        names = [s.name for s in self.seats]
        stopped = self.clock.stopped(now)
        return lost_on_time(self.game, self.state, seat, names), stopped

    def abandoned_ending(self, idle: str) -> Outcome:
        """The ending when nobody moved for ``idle`` (words)."""
        waiting = [self.seats[p].name for p in self.to_move()]
        return abandoned(self.game, self.state, idle, waiting)

    def end(self, outcome: Outcome, clock: Clock | None = None) -> None:
        """End the game outside its rules (already written to storage)."""
        if clock is not None:
            self.clock = clock
        self.match.end(outcome)
        self.status = "finished"
        self.outcome = outcome.to_json()
        self.draw_offer = None
        self._forget_position()

    def add_client_seed(self, seat: int, seed: str) -> ClientSeed:
        """Mix ``seat``'s ``seed`` into every chance draw from the next ply on.

        Allowed once per seat, before the game is over. Raises ``ActionRefused``."""
        if self.over:
            raise ActionRefused("game_over", "the game is over")
        try:
            return self.match.add_client_seed(seat, seed)
        except ValueError as exc:
            raise ActionRefused("bad_client_seed", str(exc)) from None

    def set_client_seeds(self, seeds: Sequence[JsonDict]) -> None:
        """Take the client seeds stored for this game (another process took one)."""
        self.match.chance.client_seeds = sorted(
            (ClientSeed(int(c["seat"]), str(c["seed"]), int(c["ply"])) for c in seeds),
            key=lambda c: c.seat,
        )
