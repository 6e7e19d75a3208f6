"""Chess clocks for online games: minutes per player plus an increment per move.

A :class:`Clock` is a value: every change returns a new one, computed from timestamps
(seconds since the epoch) that the caller passes in, so the server that stores a clock
with each move can rebuild it after a restart and say exactly how much time is left.

Per seat the clock keeps the seconds ``left`` when its time last stopped or started,
and ``since``: when it started running (``None`` while stopped). A seat's clock runs
while that seat is to move; in simultaneous phases several run at once. Clocks start
with the first move a player makes (choosing the first move takes no time), and each
move adds the increment to the mover's time. A seat whose time runs out loses.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from sudoku_arena.core.errors import InvalidParameterError
from sudoku_arena.core.types import JsonDict

#: Bounds of a time control: up to 10 hours per player, up to 10 minutes per move.
MAX_MINUTES = 600.0
MAX_INCREMENT = 600.0


@dataclass(frozen=True, slots=True)
class TimeControl:
    """Minutes per player and seconds added after each of his moves."""

    minutes: float
    increment: float = 0.0

    def __post_init__(self) -> None:
        if not 0 < self.minutes <= MAX_MINUTES:
            raise InvalidParameterError(
                f"clock minutes {self.minutes:g}: allowed more than 0 and up to {MAX_MINUTES:g}"
            )
        if not 0 <= self.increment <= MAX_INCREMENT:
            raise InvalidParameterError(
                f"clock increment {self.increment:g}: allowed 0 to {MAX_INCREMENT:g} seconds"
            )

    def words(self) -> str:
        """``5 min + 3 s`` for people."""
        m = f"{self.minutes:g} min"
        return f"{m} + {self.increment:g} s" if self.increment else m


@dataclass(frozen=True, slots=True)
class Clock:
    """The clocks of one game at one moment of its history."""

    control: TimeControl
    left: tuple[float, ...]
    since: tuple[float | None, ...]
    started: bool = False

    @staticmethod
    def new(control: TimeControl, seats: int) -> Clock:
        full = control.minutes * 60
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
            if seat in actors:
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
            "minutes": self.control.minutes,
            "increment": self.control.increment,
            "left": list(self.left),
            "since": list(self.since),
            "started": self.started,
        }

    @staticmethod
    def from_json(data: JsonDict) -> Clock:
        left: Sequence[float] = data["left"]
        since: Sequence[float | None] = data["since"]
        return Clock(
            TimeControl(float(data["minutes"]), float(data["increment"])),
            tuple(float(x) for x in left),
            tuple(None if x is None else float(x) for x in since),
            bool(data.get("started", False)),
        )
