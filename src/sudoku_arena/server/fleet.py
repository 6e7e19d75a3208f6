"""Keeping the games held here up to date with the other processes of a fleet.

Every process publishes what it stored on the fan-out (:mod:`sudoku_arena.server.fanout`)
and applies what the others published (:meth:`Fleet.on_event`, the arena's
``on_event``). The fan-out
is only a fast path: whatever it missed (a process killed between its commit and its
publish, Redis away) is read from the database, which stays the truth: a game is
caught up before a move is refused as stale, when a bot is about to think, and every
few seconds for the games somebody watches here.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING

from sudoku_arena.core.endings import OUTSIDE_RULES
from sudoku_arena.core.errors import ArenaError
from sudoku_arena.core.types import JsonDict, Outcome
from sudoku_arena.server import sessions
from sudoku_arena.server.clock import Clock
from sudoku_arena.server.db import games as games_db
from sudoku_arena.server.db import seats as seats_db
from sudoku_arena.server.live import GameUnavailable, LiveGame
from sudoku_arena.server.takeback import reload_game

if TYPE_CHECKING:
    from sudoku_arena.server.arena import Arena

log = logging.getLogger("sudoku_arena.server")


class Fleet:
    """One arena's view of the rest of the fleet: catching up from the database."""

    def __init__(self, arena: Arena) -> None:
        self.arena = arena
        self._warm_slots = asyncio.Semaphore(4)  # games opened ahead of their pages

    async def on_event(self, event: JsonDict) -> None:
        """Apply an event another process published to the games held here, and tell
        their connections; a game not held here is left alone (it is read from the
        database when it is opened). Nothing is published back."""
        arena = self.arena
        kind = event.get("kind")
        if kind == sessions.KIND:
            arena.sessions.on_event(event)
            return
        gid = event.get("game")
        if not isinstance(gid, str):
            return
        if kind in ("chat", "chat_mute"):
            await arena.chat.on_event(event)
            return
        if kind == "bots_due":
            await arena.botplay.due(gid)
            return
        if kind == "warm":  # a draining process's game: its pages come next
            if not arena.draining and gid not in arena.games:
                arena.background(self._warm(gid))
            return
        lg = arena.games.get(gid)
        if lg is None:
            return  # not held here: it is loaded from the database when needed
        if kind == "actions":
            async with lg.lock:
                start = int(event.get("from", -1))
                if start == lg.ply:
                    try:
                        lg.apply_entries([(int(p), a, str(t)) for p, a, t in event["entries"]])
                        if isinstance(event.get("clock"), dict):
                            lg.clock = Clock.from_json(event["clock"])
                    except (ArenaError, TypeError, ValueError, KeyError):
                        await self.catch_up(lg)
                elif start > lg.ply:
                    await self.catch_up(lg)
            arena.broadcast(lg)
        elif kind == "client_seeds" and isinstance(event.get("seeds"), list):
            with contextlib.suppress(KeyError, TypeError, ValueError):
                lg.set_client_seeds(event["seeds"])
        elif kind == "ended":
            async with lg.lock:
                await self.catch_up(lg)
            arena.after_move(lg)
        elif kind == "seats":
            await arena.seating.reload(lg)
            arena.seating.enforce(lg)
        elif kind == "draw_offer":
            offer = event.get("seat")
            lg.set_draw_offer(offer if isinstance(offer, int) else None)
            if isinstance(event.get("declined"), dict):
                arena.endings.tell_declined(lg, event["declined"])
            arena.broadcast(lg)
        elif kind == "rematch" and isinstance(event.get("rematch"), str):
            lg.rematch = event["rematch"]
            arena.rematches.announce(lg)
        elif kind == "takeback":
            await arena.takebacks.on_event(lg, event)

    async def _warm(self, gid: str) -> None:
        """Open ``gid`` ahead of the pages a draining process is about to send here."""
        async with self._warm_slots:
            with contextlib.suppress(GameUnavailable):
                await self.arena.get(gid)

    async def refresh(self, lg: LiveGame) -> None:
        """Bring ``lg`` up to date with the database (several processes only)."""
        arena = self.arena
        if arena.fanout is None and not arena.storage.shared:
            return
        async with lg.lock:
            await self.catch_up(lg)

    async def catch_up_if_shared(self, lg: LiveGame) -> None:
        """:meth:`catch_up`, where other processes may have stored something (``lg.lock``
        held)."""
        arena = self.arena
        if arena.fanout is not None or arena.storage.shared:
            await self.catch_up(lg)

    async def catch_up(self, lg: LiveGame) -> None:
        """Apply what other processes committed since our copy (from the database;
        ``lg.lock`` held)."""
        engine = self.arena.storage.engine
        rows, status, outcome, rematch = await asyncio.to_thread(
            games_db.actions_since, engine, lg.id, lg.ply
        )
        if rows:
            try:
                lg.apply_entries(rows)
            except ArenaError:
                log.exception("game %s: stored actions do not replay; reloading", lg.id)
                row = await asyncio.to_thread(games_db.load_game, engine, lg.id)
                if row is not None:
                    fresh = LiveGame(row)
                    lg.match = fresh.match
                    lg.status, lg.outcome = fresh.status, fresh.outcome
                    lg.bot_flag = fresh.bot_flag
        if lg.clock is not None and (rows or status == "finished"):
            stored_clock = await asyncio.to_thread(games_db.game_clock, engine, lg.id)
            if stored_clock is not None:
                lg.clock = Clock.from_json(stored_clock)
        if status == "finished" and not lg.over and outcome is not None:
            ending = Outcome.from_json(outcome)
            if ending.code in OUTSIDE_RULES:  # ended outside the rules elsewhere
                lg.end(ending)
        if rematch is not None:
            lg.rematch = rematch
        stored = await asyncio.to_thread(games_db.client_seeds, engine, lg.id)
        lg.set_client_seeds(stored)

    async def sweep_loop(self) -> None:
        """Catch up watched games that the fan-out left behind, and take over the bots
        of games whose thinker died (their lease expired)."""
        arena = self.arena
        while True:
            await asyncio.sleep(arena.sweep_seconds)
            await self.resync_watched()
            await arena.botplay.take_over()

    async def resync_watched(self) -> None:
        """Bring every game somebody watches here up to the database.

        The fan-out is a fast path: a process killed between committing a move and
        publishing it leaves the others behind with nothing to show them the gap. A
        cheap look at the stored ply counts and seat claims of the watched games closes
        it (a seat moved to another device is taken from the connection here)."""
        arena = self.arena
        watched = [gid for gid in arena.clients if gid in arena.games]
        try:
            stored = await asyncio.to_thread(games_db.plies, arena.storage.engine, watched)
            seats = await asyncio.to_thread(seats_db.seat_keys, arena.storage.engine, watched)
        except Exception as exc:  # the database is away: try again next round
            log.warning("resync failed: %s", exc)
            return
        for gid, keys in seats.items():
            lg = arena.games.get(gid)
            if lg is not None and keys != [(s.token_hash, s.claimed_by) for s in lg.seats]:
                await arena.seating.reload(lg)
                arena.seating.enforce(lg)
        for gid in watched:
            lg, count = arena.games.get(gid), stored.get(gid, 0)  # absent: none stored
            if lg is not None and count > lg.ply:
                await self.refresh(lg)
                arena.broadcast(lg)
                arena.schedule_bots(lg)
            elif lg is not None and count < lg.ply:
                await reload_game(arena, lg, only_if_shorter=True)  # taken back elsewhere
