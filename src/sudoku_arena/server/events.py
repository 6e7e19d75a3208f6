"""What happened to a game, told once per fleet to the parts that react to it.

The arena publishes an event in the process that committed the change, after the
commit and after that process's clients were told, so a fleet publishes each event
exactly once: ratings are updated once per finished game and a player is alerted once
per move. Other processes learn of the change through the fan-out, not through events.

Listeners run on the event loop side by side, each in its own guarded call: a listener
that fails is logged and the others still run, and a slow one (a push service taking
its time) does not hold the others back; nothing a listener does can undo or delay the
move (the arena publishes in the background).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from sudoku_arena.core.types import JsonDict

log = logging.getLogger("sudoku_arena.server")


@dataclass(frozen=True)
class GameCreated:
    """A new game was stored (``rematch_of``: the game it is a rematch of)."""

    game_id: str
    game: str
    rematch_of: str | None = None


@dataclass(frozen=True)
class MoveCommitted:
    """Plies ``start`` up to ``ply`` (exclusive) were stored; ``to_move``: the seats
    whose turn it is now (empty once over); ``by``: the seat that moved (``None``:
    the server, e.g. a chance outcome)."""

    game_id: str
    game: str
    start: int
    ply: int
    by: int | None
    to_move: tuple[int, ...]
    over: bool


@dataclass(frozen=True)
class GameEnded:
    """The game is over, by the rules or otherwise (resignation, time, abandonment);
    ``outcome``: :meth:`sudoku_arena.core.types.Outcome.to_json`."""

    game_id: str
    game: str
    outcome: JsonDict


Event = GameCreated | MoveCommitted | GameEnded
Listener = Callable[[Event], Awaitable[None]]


class Events:
    """A list of listeners and the one way to tell them all."""

    def __init__(self) -> None:
        self._listeners: list[Listener] = []

    def subscribe(self, listener: Listener) -> None:
        self._listeners.append(listener)

    async def publish(self, event: Event) -> None:
        """Tell every listener, all at once; returns when all have finished."""
        await asyncio.gather(*(_guarded(listener, event) for listener in self._listeners))


async def _guarded(listener: Listener, event: Event) -> None:
    try:
        await listener(event)
    except Exception:  # one listener's failure must not stop the others
        log.exception("event listener failed on %s", type(event).__name__)
