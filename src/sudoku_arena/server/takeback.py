"""Takebacks: a player asks to take back his last move; the opponent accepts or declines.

The rules, checked when asked and again when accepted:

* Unrated games between two people only: never in a rated game, never against a bot
  (bots do not agree to anything; they play on), never in games of three or more
  (one opponent cannot agree for another).
* Never across chance or secrets: a takeback that would remove a chance outcome (a die
  rolled, a tile drawn) is refused, since playing again would roll or draw again, or
  show what comes; games with hidden information refuse takebacks altogether, since a
  move taken back may have shown its player something.
* The request stands for the position it was made at: once anybody moves it is gone,
  and an answer to it is refused as stale.

On acceptance the log is cut back to before the requester's last move (and the
opponent's reply, if he replied), so it is the requester's turn again. The database
decides: the cut is stored only if the game is still active at the ply the request was
made at (:func:`sudoku_arena.server.db.takebacks.cut_back`). The clocks are not turned
back: each keeps the time it has now, and the requester's runs from the takeback.

Requests are kept in memory (like draw offers) and told to the players' connections
(``takeback`` messages) on every process through the fan-out; an accepted takeback
makes every other process that holds the game reload it from the database.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from typing import TYPE_CHECKING

from sudoku_arena.core.types import JsonDict
from sudoku_arena.server.db import games as games_db
from sudoku_arena.server.db import takebacks as db
from sudoku_arena.server.db.engine import ConflictError, StorageError
from sudoku_arena.server.live import ActionRefused, LiveGame

if TYPE_CHECKING:
    from sudoku_arena.server.arena import Arena, Client


@dataclass(frozen=True, slots=True)
class Request:
    """``seat`` asks to take back its last move; the game was at ``ply``."""

    seat: int
    ply: int


def takeback_cut(lg: LiveGame, seat: int) -> int:
    """The number of log entries kept if ``seat`` takes back its last move now (its
    move and any reply after it go). Raises :class:`ActionRefused` with the reason."""
    if lg.over:
        raise ActionRefused("game_over", "the game is over: nothing can be taken back")
    if lg.read_only:
        raise ActionRefused("read_only", lg.read_only)
    if lg.num_players != 2:
        raise ActionRefused("no_takeback", "takebacks are for games between two players")
    if any(s.kind == "bot" for s in lg.seats):
        raise ActionRefused("no_takeback", "bots do not take moves back: play on")
    if lg.spec.hidden_information:
        raise ActionRefused(
            "no_takeback",
            f"{lg.spec.name} has hidden information: a move taken back could have "
            "shown its player something, so moves cannot be taken back",
        )
    log = lg.log
    k = len(log)
    while k > 0:
        entry = log[k - 1]
        if entry.actor is None:
            raise ActionRefused(
                "no_takeback",
                "chance has spoken since your move (a roll or a draw): playing it again "
                "would change what chance brings, so it cannot be taken back",
            )
        if entry.actor == seat:
            return k - 1
        k -= 1
    raise ActionRefused("no_takeback", "you have no move to take back")


class Takebacks:
    """The standing takeback requests of the games this process holds."""

    def __init__(self, arena: Arena) -> None:
        self.arena = arena
        self.requests: dict[str, Request] = {}

    def standing(self, lg: LiveGame) -> Request | None:
        """The request standing in ``lg`` now (one made at an older ply is gone)."""
        req = self.requests.get(lg.id)
        if req is not None and req.ply != lg.ply:
            del self.requests[lg.id]
            return None
        return req

    def message(self, lg: LiveGame, event: str = "standing", by: int | None = None) -> str:
        """A ``takeback`` message: ``seat`` (who asks; null: no request), ``ply``,
        ``event`` (``asked``, ``declined``, ``accepted``, ``standing``), ``by``."""
        req = self.standing(lg)
        out: JsonDict = {
            "type": "takeback",
            "seat": None if req is None else req.seat,
            "ply": lg.ply if req is None else req.ply,
            "event": event,
            "by": by,
        }
        if event == "declined" and by is not None:
            out["text"] = f"{lg.seats[by].name} declines the takeback: play goes on."
        if event == "accepted" and by is not None:
            out["text"] = f"{lg.seats[by].name} accepts the takeback."
        return json.dumps(out)

    def greet(self, lg: LiveGame, client: Client) -> None:
        """Tell a player's new connection of the request standing (if any)."""
        if client.seats and self.standing(lg) is not None:
            client.push(self.message(lg))

    def _tell_players(self, lg: LiveGame, text: str) -> None:
        for c in self.arena.clients.get(lg.id, ()):
            if c.seats:
                c.push(text)

    # -- asking and answering ------------------------------------------------------------

    async def ask(self, lg: LiveGame, seat: int) -> None:
        """``seat`` asks to take back its last move. Raises :class:`ActionRefused`."""
        takeback_cut(lg, seat)
        if lg.rated:
            raise ActionRefused("rated", "this game is rated: moves cannot be taken back")
        req = self.standing(lg)
        if req is not None and req.seat != seat:
            raise ActionRefused(
                "request_stands", "your opponent asks for a takeback: accept or decline it"
            )
        for gid in [g for g in self.requests if g not in self.arena.games]:
            del self.requests[gid]  # left memory unanswered
        self.requests[lg.id] = Request(seat, lg.ply)
        self._publish(lg, "asked", seat)
        self._tell_players(lg, self.message(lg, "asked", seat))

    async def answer(self, lg: LiveGame, seat: int, accept: bool) -> None:
        """``seat`` accepts or declines the standing request of the other seat.
        Raises :class:`ActionRefused` (``stale`` when a move came first)."""
        req = self.requests.get(lg.id)
        if req is None or req.seat == seat:
            raise ActionRefused("no_request", "there is no takeback request from your opponent")
        if req.ply != lg.ply:
            self.requests.pop(lg.id, None)
            raise ActionRefused("stale", "a move was made since the takeback was asked")
        if not accept:
            self.requests.pop(lg.id, None)
            self._publish(lg, "declined", seat)
            self._tell_players(lg, self.message(lg, "declined", seat))
            return
        if lg.rated:
            raise ActionRefused("rated", "this game is rated: moves cannot be taken back")
        await self._take_back(lg, req, seat)

    async def _take_back(self, lg: LiveGame, req: Request, by: int) -> None:
        arena = self.arena
        async with lg.lock:
            if lg.ply != req.ply:
                self.requests.pop(lg.id, None)
                raise ActionRefused("stale", "a move was made since the takeback was asked")
            cut = takeback_cut(lg, req.seat)
            others = [s for s in range(lg.num_players) if s != req.seat]
            clock = None
            if lg.clock is not None:
                to_move = lg.game.to_move(lg.states[cut]).players
                clock = lg.clock.after((), to_move, arena.now(), False)
            op = db.CutBack(
                lg.id,
                req.ply,
                cut,
                None if clock is None else clock.to_json(),
                None if clock is None else clock.deadline(),
            )
            try:
                await arena.storage.write(op)
            except ConflictError:
                self.requests.pop(lg.id, None)
                raise ActionRefused(
                    "stale", "a move was made since the takeback was asked; nothing changed"
                ) from None
            except StorageError:
                raise ActionRefused(
                    "unavailable", "the takeback could not be saved; nothing changed"
                ) from None
            lg.match.undo(req.seat, along=others)
            if clock is not None:
                lg.clock = clock
            lg.draw_offer = None
            lg._forget_position()
            self.requests.pop(lg.id, None)
        self._publish(lg, "accepted", by)
        self._tell_players(lg, self.message(lg, "accepted", by))
        for c in arena.clients.get(lg.id, ()):
            c.resync()

    # -- the fan-out --------------------------------------------------------------------------

    def _publish(self, lg: LiveGame, event: str, by: int) -> None:
        fanout = self.arena.fanout
        if fanout is None:
            return
        req = self.requests.get(lg.id)
        fanout.publish(
            {
                "kind": "takeback",
                "game": lg.id,
                "event": event,
                "by": by,
                "seat": None if req is None else req.seat,
                "ply": lg.ply if req is None else req.ply,
            }
        )

    async def on_event(self, lg: LiveGame, event: JsonDict) -> None:
        """A takeback event from another process about ``lg`` (held here)."""
        kind, by = event.get("event"), event.get("by")
        seat, ply = event.get("seat"), event.get("ply")
        if not isinstance(by, int) or not 0 <= by < lg.num_players:
            return
        if kind == "asked" and isinstance(seat, int) and isinstance(ply, int):
            self.requests[lg.id] = Request(seat, ply)
        elif kind == "declined":
            self.requests.pop(lg.id, None)
        elif kind == "accepted":
            self.requests.pop(lg.id, None)
            await reload_game(self.arena, lg)
        else:
            return
        self._tell_players(lg, self.message(lg, str(kind), by))


async def reload_game(arena: Arena, lg: LiveGame, only_if_shorter: bool = False) -> None:
    """Replace ``lg``'s history with the database's (its log was cut elsewhere) and send
    every connection the whole position again. ``only_if_shorter``: only if fewer moves
    are stored than held here, counted under the game's lock (a sweep's count read
    before a move of this process was stored is no reason)."""
    async with lg.lock:
        engine = arena.storage.engine
        if only_if_shorter:
            count = await asyncio.to_thread(games_db.action_count, engine, lg.id)
            if count >= lg.ply:
                return
        row = await asyncio.to_thread(games_db.load_game, engine, lg.id)
        if row is None:
            return
        fresh = await asyncio.to_thread(LiveGame, row)
        lg.match = fresh.match
        lg.status, lg.outcome = fresh.status, fresh.outcome
        lg.clock = fresh.clock
        lg.bot_flag = fresh.bot_flag
        lg.draw_offer = None
        lg._forget_position()
    for c in arena.clients.get(lg.id, ()):
        c.resync()
