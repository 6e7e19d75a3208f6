"""Endings outside the rules: the players' (resignation, abort, an agreed draw, a win
claimed over players who left) and the server's (a loss on time, abandonment).

Each goes the way a move does (see docs/architecture/server.md): under the game's lock
the live game builds the ending (:meth:`LiveGame.prepare_end`), the arena stores it
(:meth:`Arena.write_end`; the database refuses it when a move was stored first) and
tells everybody (:meth:`Arena.after_move`, which publishes ``GameEnded``).
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import TYPE_CHECKING

from sudoku_arena.core.endings import left_game
from sudoku_arena.core.types import JsonDict
from sudoku_arena.server.db import games as games_db
from sudoku_arena.server.db import seats as seats_db
from sudoku_arena.server.live import ActionRefused, GameUnavailable, LiveGame

if TYPE_CHECKING:
    from sudoku_arena.server.arena import Arena

log = logging.getLogger("sudoku_arena.server")

BOT = "bot"


def duration_words(seconds: float) -> str:
    """``2 days``, ``5 hours``, ``90 minutes``, ``30 seconds``: for people."""
    for unit, size in (("day", 86400.0), ("hour", 3600.0), ("minute", 60.0)):
        if seconds >= size and (seconds % size == 0 or seconds >= 2 * size):
            n = round(seconds / size, 1)
            return f"{n:g} {unit}{'' if n == 1 else 's'}"
    return f"{seconds:g} second{'' if seconds == 1 else 's'}"


class Endings:
    """The endings outside the rules of one arena's games, and the sweeper that ends
    games whose clock ran out or that nobody plays any more."""

    def __init__(self, arena: Arena) -> None:
        self.arena = arena
        #: When idle games were last looked for (a benchmark sets it back to sweep again).
        self.last_idle_sweep = 0.0

    # -- the players' -------------------------------------------------------------------

    async def by_players(self, lg: LiveGame, seat: int, kind: str) -> None:
        """``seat`` resigns, aborts, or accepts the standing draw offer (``kind``:
        ``resign``, ``abort``, ``draw``). Decided by the database against moves made
        meanwhile by any process; raises :class:`ActionRefused` (nothing changed)."""
        arena = self.arena
        async with lg.lock:
            outcome = lg.decided_ending(seat, kind)
            clock = None if lg.clock is None else lg.clock.stopped(arena.now())
            done = await arena.write_end(lg, lg.prepare_end(outcome, clock))
        arena.after_move(lg, done)

    def draw_offer(self, lg: LiveGame, seat: int, answer: str) -> None:
        """``seat`` offers a draw (``offer``) or declines the standing one
        (``decline``); a bot in another seat declines at once. The offering player is
        told of a refusal (on every process), not left to notice the offer gone."""
        arena = self.arena
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
        if arena.fanout is not None:
            event = {"kind": "draw_offer", "game": lg.id, "seat": lg.draw_offer}
            arena.fanout.publish(event if declined is None else {**event, "declined": declined})
        if declined is not None:
            self.tell_declined(lg, declined)
        arena.broadcast(lg)

    def tell_declined(self, lg: LiveGame, declined: JsonDict) -> None:
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
        for c in self.arena.clients.get(lg.id, ()):
            if offer in c.seats:
                c.push(msg)

    async def claim_win(self, lg: LiveGame, seat: int) -> None:
        """``seat``, the last person still at ``lg``, claims the win over every other
        person: allowed once each of them has had no device connected to any process
        for ``claim_after`` seconds (:class:`~sudoku_arena.server.presence.Attendance`
        decides from the seats as stored now). Raises :class:`ActionRefused`."""
        arena = self.arena
        await arena.refresh(lg)
        stored = await asyncio.to_thread(seats_db.load_seats, arena.storage.engine, lg.id)
        async with lg.lock:
            gone = arena.attendance.gone(lg, seat, stored, arena.presence(lg))
            names = [s.name for s in lg.seats]
            outcome = left_game(lg.game, lg.state, gone, seat, names)
            done = await arena.write_end(lg, lg.prepare_end(outcome, None))
        arena.after_move(lg, done)

    # -- the server's: clocks and abandoned games ---------------------------------------------

    async def timeout_loop(self) -> None:
        while True:
            await asyncio.sleep(self.arena.timeout_sweep_seconds)
            try:
                await self.sweep()
            except Exception as exc:  # the database is away: try again next round
                log.warning("timeout sweep failed: %s", exc)

    async def sweep(self) -> list[str]:
        """End the games whose clock ran out and, every so often, those nobody moved in
        for ``abandon_after`` seconds; return their ids. Every process of a fleet sweeps;
        the database decides which one ends a game (the others are refused and catch
        up), and never ends a game in which a move was stored meanwhile."""
        arena = self.arena
        engine = arena.storage.engine
        now = arena.now()
        ended: list[str] = []
        beats = arena.attendance.beat_due()
        if beats:  # the seats held here are still here (for the other processes' claims)
            await asyncio.gather(*(arena.write_seen(op) for op in beats))
        for gid in await asyncio.to_thread(games_db.out_of_time, engine, now):
            if await self.by_server(gid, now):
                ended.append(gid)
        period = max(0.2, min(60.0, (arena.abandon_after or 0) / 10))
        if arena.abandon_after is not None and now - self.last_idle_sweep >= period:
            self.last_idle_sweep = now
            cutoff = now - arena.abandon_after
            for gid in await asyncio.to_thread(games_db.idle_games, engine, cutoff):
                if await self.by_server(gid, now, idle_before=cutoff):
                    ended.append(gid)
        return ended

    async def by_server(self, gid: str, now: float, idle_before: float | None = None) -> bool:
        """End ``gid`` on time if a clock ran out by ``now``, or (``idle_before``) as
        abandoned if nothing was stored since then; ``False`` when the database says
        otherwise (a move, or another process, came first)."""
        arena = self.arena
        try:
            lg = await arena.get(gid)
        except GameUnavailable:
            return False
        if lg is None or lg.read_only:
            return False
        await arena.refresh(lg)
        try:
            async with lg.lock:
                if lg.over:
                    return False
                if idle_before is not None:
                    words = duration_words(now - idle_before)
                    clock = None if lg.clock is None else lg.clock.stopped(now)
                    outcome = lg.abandoned_ending(words)
                    ending = lg.prepare_end(outcome, clock, idle_before=idle_before)
                else:
                    flag = lg.flag_ending(now)
                    if flag is None:
                        return False
                    ending = lg.prepare_end(flag[0], flag[1], flag_at=now)
                done = await arena.write_end(lg, ending)
        except ActionRefused:
            return False  # a move, or another process, came first
        arena.after_move(lg, done)
        return True
