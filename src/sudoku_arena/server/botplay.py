"""The bots of the games a server process holds: when they think, and what they play.

A bot's move goes the way a person's does (:meth:`Arena.act`); only the thinking is
different. Exactly one process of a fleet thinks for a game's bots, the holder of its
lease (:mod:`sudoku_arena.server.db.leases`); the others take a game over once its
holder's lease expires (:meth:`BotPlay.take_over`) or when told its bots are due
(``bots_due`` on the fan-out: :meth:`BotPlay.due`). A process serving with
``--bots-elsewhere`` thinks for none and tells the fleet instead.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from sudoku_arena.ai.mcts import position_keys
from sudoku_arena.server.db import leases as leases_db
from sudoku_arena.server.live import ActionRefused, GameUnavailable, LiveGame

if TYPE_CHECKING:
    from sudoku_arena.server.arena import Arena

log = logging.getLogger("sudoku_arena.server")


class BotPlay:
    """The thinking bots of one arena: one task per game and seat."""

    def __init__(self, arena: Arena) -> None:
        self.arena = arena
        self.tasks: dict[tuple[str, int], asyncio.Task[None]] = {}

    def busy(self) -> set[str]:
        """The games in which a bot is thinking now (they stay in memory)."""
        return {gid for gid, _seat in self.tasks}

    def cancel(self) -> list[asyncio.Task[None]]:
        """Stop every bot thinking here; the tasks stopped (a bot move already being
        stored is finished and told)."""
        thinking = list(self.tasks.values())
        for task in thinking:
            task.cancel()
        return thinking

    def schedule(self, lg: LiveGame, seats: Sequence[int] | None = None) -> None:
        """Start the bots due to move in ``lg`` (``seats``: known already); where the
        bots think elsewhere, tell the fleet they are due instead."""
        arena = self.arena
        if arena.draining:
            return
        if arena.bots_elsewhere:
            due = lg.bots_to_move() if seats is None else seats
            if due and arena.fanout is not None:
                arena.fanout.publish({"kind": "bots_due", "game": lg.id, "ply": lg.ply})
            return
        for seat in lg.bots_to_move() if seats is None else seats:
            key = (lg.id, seat)
            task = self.tasks.get(key)
            if task is None or task.done():
                self.tasks[key] = asyncio.create_task(self._move(lg, seat))

    async def due(self, gid: str) -> None:
        """Another process says a bot is due in ``gid``: think for it, if bots think
        here (the lease decides which process of the fleet does)."""
        arena = self.arena
        if arena.bots_elsewhere or arena.draining:
            return
        try:
            lg = await arena.get(gid)
        except GameUnavailable:
            return
        if lg is not None:
            await arena.refresh(lg)
            self.schedule(lg)

    async def take_over(self) -> None:
        """Take over the bots of games whose thinker died (their lease expired)."""
        arena = self.arena
        if arena.bots_elsewhere or arena.draining:
            return
        try:
            ids = await asyncio.to_thread(leases_db.orphaned_bot_games, arena.storage.engine)
        except Exception as exc:  # the database is away: try again next round
            log.warning("bot sweep failed: %s", exc)
            return
        for gid in ids:
            try:
                lg = await arena.get(gid)
            except GameUnavailable:
                continue
            if lg is not None:
                await arena.refresh(lg)
                self.schedule(lg)

    async def _move(self, lg: LiveGame, seat: int) -> None:
        """Let the bot in ``seat`` think and act; then start whichever bot is due.

        The action carries the ply the bot thought at: in a simultaneous phase it still
        counts when only other seats acted meanwhile; otherwise it is refused as stale
        and the bot thinks again on the new position.
        """
        arena = self.arena
        key = (lg.id, seat)
        loop = asyncio.get_running_loop()
        t0 = loop.time()
        again = True
        try:
            # Exactly one process thinks for a game's bots: the holder of its lease.
            await arena.refresh(lg)  # think on the position the database has
            if seat not in lg.bots_to_move():
                return
            ply = lg.ply
            if not await asyncio.to_thread(
                leases_db.take_lease,
                arena.storage.engine,
                lg.id,
                arena.holder,
                arena.lease_seconds,
                ply,
            ):
                again = False  # another process thinks; the sweeper watches it lives
                return
            if lg.ply != ply:  # a move came in meanwhile (another process's bot, a
                return  # fleet catch-up): think again on the new position, if due
            text = await self.choice(lg, seat, ply)
            wait = arena.bot_delay - (loop.time() - t0)
            if wait > 0:
                await asyncio.sleep(wait)
            try:
                # Once started, the move is stored and told even if a drain cancels
                # this task: a move stored but not told would leave the fleet behind.
                await asyncio.shield(arena.act(lg, seat, ply, text))
            except ActionRefused as exc:
                if exc.code in ("stale", "game_over", "not_your_turn"):
                    return
                log.error("game %s: bot %s chose %r: %s", lg.id, seat, text, exc.message)
                legal = lg.game.legal_actions(lg.state, seat)
                if legal:
                    rng = random.Random(lg.match.bot_seed(seat, lg.ply))
                    choice = rng.choice(list(legal))
                    await arena.act(lg, seat, lg.ply, lg.game.format_action(choice))
        except asyncio.CancelledError:
            again = False
            raise
        except ActionRefused:
            pass
        except Exception:
            log.exception("game %s: bot for seat %d failed", lg.id, seat)
            again = False  # do not spin on a broken agent
        finally:
            if self.tasks.get(key) is asyncio.current_task():
                del self.tasks[key]
            if again:
                self.schedule(lg)

    async def choice(self, lg: LiveGame, seat: int, ply: int) -> str:
        """What the bot in ``seat`` plays at ``ply`` (thought in the bot workers)."""
        game = lg.game
        state = real = lg.state  # ``lg`` moves on while the bot thinks
        if lg.spec.hidden_information:
            # The bot sees a world consistent with its own view, never the true one.
            # Its generator is derived apart from chance (core.fairness), so neither the
            # bot's world nor its choice tells anything about the secret.
            det = random.Random(lg.match.chance.bot_seed(seat, ply, "determinize"))
            state = game.determinize(state, seat, det)
        agent = lg.seats[seat].agent or "random"
        seed = lg.match.bot_seed(seat, ply)
        try:
            return await self.arena.bots.think(
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
            legal = list(game.legal_actions(real, seat))
            return str(game.format_action(random.Random(seed).choice(legal)))
