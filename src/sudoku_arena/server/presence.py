"""Who is at a game, and since when a player is gone: the last person left in a game
without a clock may claim the win once every other person has been away for the
server's set time (``claim_after``, as lichess offers when an opponent leaves).

A connection is known only to the process it came to. A fleet shares the rest through
the database: each process writes, for the seats its connections hold, the time it saw
them (``arena_seats.seen_at``) when a player comes or goes and every ``beat`` seconds
while he stays, and a claim is checked against what is stored, never against what a
client says. A script or bot playing over HTTP counts as here whenever it asks for the
position or acts. Whatever a process has not seen itself it counts from when it opened
the game, so a restart gives everybody the whole time to come back.

:class:`Attendance` keeps the times and decides claims; :class:`Presence` is the
arena's side (its ``presence``, ``announce_presence``, ``seen_over_http``,
``write_seen``): the seats connected here, what the connections are told, the writes.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from sudoku_arena.server.db.engine import StorageError
from sudoku_arena.server.db.seats import MarkSeen, SeatRow
from sudoku_arena.server.live import ActionRefused, LiveGame
from sudoku_arena.server.seating import BOT, HUMAN

if TYPE_CHECKING:
    from sudoku_arena.server.arena import Arena

#: Seconds away after which the win may be claimed, unless the server is told otherwise.
CLAIM_AFTER = 60.0


class Attendance:
    """When each seat of the games held here was last seen, and the claims it allows."""

    def __init__(self, now: Callable[[], float], claim_after: float | None) -> None:
        self.now = now
        #: Seconds every other person must have been gone (``None``: no claims).
        self.claim_after = claim_after
        #: Seconds between writes of the seats held here: a few per ``claim_after``, so
        #: another process never takes a player who is here for one who left.
        self.beat = 15.0 if claim_after is None else max(0.2, min(15.0, claim_after / 4))
        self._here: dict[str, list[bool]] = {}
        self._seen: dict[str, list[float]] = {}
        self._written: dict[str, list[float]] = {}
        self._last_beat = float("-inf")

    def _track(self, gid: str, n: int) -> list[float]:
        seen = self._seen.get(gid)
        if seen is None or len(seen) != n:
            seen = self._seen[gid] = [self.now()] * n  # nobody seen here yet: from now
            self._here[gid] = [False] * n
            self._written[gid] = [float("-inf")] * n
        return seen

    def opened(self, gid: str, n: int) -> None:
        """The game is held here from now on (created, or loaded from the database)."""
        self._track(gid, n)

    def forget(self, gid: str) -> None:
        """The game left memory."""
        for d in (self._seen, self._here, self._written):
            d.pop(gid, None)

    def update(self, gid: str, here: Sequence[bool]) -> MarkSeen | None:
        """The seats a connection here holds now; the write that records who came or
        went (``None``: nobody did, or claims are off)."""
        seen = self._track(gid, len(here))
        before = self._here[gid]
        now = self.now()
        moved = tuple(s for s in range(len(here)) if here[s] != before[s])
        for s in range(len(here)):
            if here[s] or before[s]:
                seen[s] = now
        self._here[gid] = list(here)
        return self._write(gid, moved, now)

    def seen(self, gid: str, n: int, seat: int) -> MarkSeen | None:
        """A client without a connection (HTTP) asked or acted for ``seat`` now; written
        at most twice a beat."""
        seen = self._track(gid, n)
        now = self.now()
        seen[seat] = now
        if now - self._written[gid][seat] < self.beat / 2:
            return None
        return self._write(gid, (seat,), now)

    def beat_due(self) -> list[MarkSeen]:
        """Every ``beat`` seconds: the writes that keep the seats held here seen."""
        now = self.now()
        if self.claim_after is None or now - self._last_beat < self.beat:
            return []
        self._last_beat = now
        out = []
        for gid, here in self._here.items():
            held = tuple(s for s, h in enumerate(here) if h)
            for s in held:
                self._seen[gid][s] = now
            op = self._write(gid, held, now)
            if op is not None:
                out.append(op)
        return out

    def _write(self, gid: str, seats: tuple[int, ...], now: float) -> MarkSeen | None:
        if self.claim_after is None or not seats:
            return None
        for s in seats:
            self._written[gid][s] = now
        return MarkSeen(gid, seats, now)

    def away(self, gid: str, here: Sequence[bool]) -> list[float | None]:
        """Seconds each seat has been gone as this process knows (``None``: here)."""
        seen = self._track(gid, len(here))
        now = self.now()
        return [None if here[s] else max(0.0, now - seen[s]) for s in range(len(here))]

    # -- claims -------------------------------------------------------------------------

    def window(self, lg: LiveGame) -> float | None:
        """The seconds after which a claim is allowed in ``lg`` (``None``: never: a game
        on one screen, a timed game, whose clock decides, or a server without claims)."""
        if self.claim_after is None or lg.row.mode != "invite" or lg.clock is not None:
            return None
        return self.claim_after

    def gone(
        self, lg: LiveGame, seat: int, stored: Sequence[SeatRow], here: Sequence[bool]
    ) -> list[int]:
        """The seats ``seat`` claims the win over: every other person, each of whom
        opened his link and has had no device connected anywhere for ``claim_after``
        seconds (``stored``: the seats as the database has them now). Raises
        :class:`ActionRefused` saying why not."""
        if lg.over:
            raise ActionRefused("game_over", "the game is over")
        if lg.read_only:
            raise ActionRefused("read_only", lg.read_only)
        window = self.window(lg)
        if window is None:
            why = (
                "everybody plays on this one screen"
                if lg.row.mode != "invite"
                else "a player who leaves a timed game loses on time"
                if lg.clock is not None
                else "this server does not end games for players who left"
            )
            raise ActionRefused("no_claim", f"no win can be claimed here: {why}")
        others = [s for s in stored if s.kind == HUMAN and s.seat != seat]
        if not others:
            raise ActionRefused("no_claim", "there is no other person in this game")
        seen = self._track(lg.id, lg.num_players)
        now = self.now()
        for s in others:
            if s.claimed_by is None:
                raise ActionRefused(
                    "not_away", f"{s.name} has not opened his link yet: nobody left the game"
                )
            if here[s.seat]:
                raise ActionRefused("not_away", f"{s.name} is connected")
            last = max(seen[s.seat], s.seen_at or 0.0, s.claimed_at or 0.0)
            if now - last < window:
                raise ActionRefused(
                    "not_away",
                    f"{s.name} has been away for {max(0.0, now - last):.0f} seconds; the win "
                    f"can be claimed after {window:g}",
                )
        return [s.seat for s in others]


class Presence:
    """Who is connected to one arena's games, told to their connections and written
    for the fleet (through the arena's :class:`Attendance`)."""

    def __init__(self, arena: Arena) -> None:
        self.arena = arena

    def here(self, lg: LiveGame) -> list[bool]:
        """For each seat, whether a device holding it is connected to this process."""
        here = [False] * lg.num_players
        for c in self.arena.clients.get(lg.id, ()):
            for s in c.seats:
                here[s] = True
        return here

    def announce(self, lg: LiveGame) -> None:
        """Tell every connection who is here: ``seats`` (connected here), ``away`` (the
        seconds each person's seat has been gone, ``null`` while here) and
        ``claim_after`` (the seconds after which the last person left may claim the
        win; ``null``: not in this game)."""
        attendance = self.arena.attendance
        here = self.changed(lg)
        clients = self.arena.clients.get(lg.id, ())
        watchers = sum(1 for c in clients if not c.seats)
        away = attendance.away(lg.id, here)
        msg = {
            "type": "presence",
            "seats": here,
            "watchers": watchers,
            "away": [None if s.kind == BOT else a for s, a in zip(lg.seats, away, strict=True)],
            "claim_after": attendance.window(lg),
        }
        text = json.dumps(msg)
        for c in clients:
            c.push(text)

    def changed(self, lg: LiveGame) -> list[bool]:
        """Record who is here now (written for the other processes if anybody came or
        went); the seats held here."""
        here = self.here(lg)
        self._mark_seen(self.arena.attendance.update(lg.id, here))
        return here

    def seen_over_http(self, lg: LiveGame, seat: int) -> None:
        """A client without a connection asked or acted for ``seat``: he is here."""
        self._mark_seen(self.arena.attendance.seen(lg.id, lg.num_players, seat))

    def _mark_seen(self, op: MarkSeen | None) -> None:
        if op is not None:
            self.arena.background(self.write_seen(op))

    async def write_seen(self, op: MarkSeen) -> None:
        with contextlib.suppress(StorageError):  # the next beat writes it again
            await self.arena.storage.write(op)
