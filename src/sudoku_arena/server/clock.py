"""Clocks for online games: chess clocks (minutes per player plus an increment per
move) and correspondence games (days per move).

A :class:`Clock` is a value: every change returns a new one, computed from timestamps
(seconds since the epoch) that the caller passes in, so the server that stores a clock
with each move can rebuild it after a restart and say exactly how much time is left.

Per seat the clock keeps the seconds ``left`` when its time last stopped or started,
and ``since``: when it started running (``None`` while stopped). A seat's clock runs
while that seat is to move; in simultaneous phases several run at once. Clocks start
with the first move a player makes (choosing the first move takes no time), and each
move adds the increment to the mover's time. A seat whose time runs out loses.

A correspondence game (``days`` per move) uses the same clocks, with one difference:
time does not carry over. Each time a seat's turn comes (and after each move it makes
while still to move), its clock is set to the full days; while it waits its turn it
shows the full days. The deadline is stored with each move like a chess clock's, so
the game waits across restarts and the arena's sweeper ends it on time the same way.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from sudoku_arena.core.errors import InvalidParameterError
from sudoku_arena.core.types import JsonDict

#: Bounds of a time control: up to 10 hours per player, up to 10 minutes per move;
#: a correspondence game allows 1 to 14 days per move.
MAX_MINUTES = 600.0
MAX_INCREMENT = 600.0
MAX_DAYS = 14
DAY = 86400.0


@dataclass(frozen=True, slots=True)
class TimeControl:
    """Minutes per player and seconds added after each of his moves; or, with
    ``days`` (minutes and increment 0), a correspondence game's days per move."""

    minutes: float = 0.0
    increment: float = 0.0
    days: int = 0

    def __post_init__(self) -> None:
        if self.days:
            if not 1 <= self.days <= MAX_DAYS or self.minutes or self.increment:
                raise InvalidParameterError(
                    f"clock days {self.days}: allowed 1 to {MAX_DAYS} days per move, "
                    "without minutes or increment"
                )
            return
        if not 0 < self.minutes <= MAX_MINUTES:
            raise InvalidParameterError(
                f"clock minutes {self.minutes:g}: allowed more than 0 and up to {MAX_MINUTES:g}"
            )
        if not 0 <= self.increment <= MAX_INCREMENT:
            raise InvalidParameterError(
                f"clock increment {self.increment:g}: allowed 0 to {MAX_INCREMENT:g} seconds"
            )

    @property
    def per_move(self) -> bool:
        """Whether this is a correspondence game's time per move."""
        return self.days > 0

    def full(self) -> float:
        """Seconds on a clock at the start (per move in a correspondence game)."""
        return self.days * DAY if self.days else self.minutes * 60

    def words(self) -> str:
        """``5 min + 3 s`` or ``3 days per move`` for people."""
        if self.days:
            return f"{self.days} day{'s' if self.days > 1 else ''} per move"
        m = f"{self.minutes:g} min"
        return f"{m} + {self.increment:g} s" if self.increment else m

    def to_json(self) -> JsonDict:
        """As stored and sent: ``minutes``, ``increment`` and, for correspondence, ``days``."""
        out: JsonDict = {"minutes": self.minutes, "increment": self.increment}
        if self.days:
            out["days"] = self.days
        return out

    @staticmethod
    def from_json(data: JsonDict) -> TimeControl:
        return TimeControl(
            float(data.get("minutes", 0)), float(data.get("increment", 0)), int(data.get("days", 0))
        )


@dataclass(frozen=True, slots=True)
class Clock:
    """The clocks of one game at one moment of its history."""

    control: TimeControl
    left: tuple[float, ...]
    since: tuple[float | None, ...]
    started: bool = False

    @staticmethod
    def new(control: TimeControl, seats: int) -> Clock:
        full = control.full()
        return Clock(control, (full,) * seats, (None,) * seats)

    def remaining(self, seat: int, now: float) -> float:
        """Seconds ``seat`` has left at ``now`` (negative once its time ran out)."""
        since = self.since[seat]
        return self.left[seat] - (now - since if since is not None else 0.0)

    def flagged(self, now: float) -> int | None:
        """The first seat whose time ran out by ``now``, or ``None``."""
        for seat in range(len(self.left)):
            if self.since[seat] is not None and self.remaining(seat, now) <= 0:
                return seat
        return None

    def deadline(self) -> float | None:
        """When the first running clock runs out (``None``: none runs)."""
        ends = [s + left for s, left in zip(self.since, self.left, strict=True) if s is not None]
        return min(ends) if ends else None

    def after(
        self, actors: Collection[int], to_move: Collection[int], now: float, over: bool
    ) -> Clock:
        """The clock once ``actors`` moved at ``now`` and ``to_move`` are to move next
        (``over``: the game ended, every clock stops)."""
        started = self.started or bool(actors)
        if not started:
            return self
        left: list[float] = []
        since: list[float | None] = []
        for seat in range(len(self.left)):
            t = self.remaining(seat, now)
            if self.control.per_move:
                # A turn that comes, or a move made, gives the full days again; a seat
                # still on the same turn (a simultaneous phase) keeps what it has left,
                # and so does every seat when the game ends (the clocks stop as they are).
                same_turn = self.since[seat] is not None and seat not in actors
                if not over and not (same_turn and seat in to_move):
                    t = self.control.full()
            elif seat in actors:
                t += self.control.increment
            left.append(t)
            since.append(now if seat in to_move and not over else None)
        return Clock(self.control, tuple(left), tuple(since), True)

    def stopped(self, now: float) -> Clock:
        """Every clock stopped at ``now`` (the game ended)."""
        left = tuple(self.remaining(s, now) for s in range(len(self.left)))
        return Clock(self.control, left, (None,) * len(self.left), self.started)

    # -- storage and the wire -----------------------------------------------------------

    def to_json(self) -> JsonDict:
        return {
            **self.control.to_json(),
            "left": list(self.left),
            "since": list(self.since),
            "started": self.started,
        }

    @staticmethod
    def from_json(data: JsonDict) -> Clock:
        left: Sequence[float] = data["left"]
        since: Sequence[float | None] = data["since"]
        return Clock(
            TimeControl.from_json(data),
            tuple(float(x) for x in left),
            tuple(None if x is None else float(x) for x in since),
            bool(data.get("started", False)),
        )
