"""Which device holds which seat: a seat link is claimed by the first device that opens
it, moves to another device only when asked (the one that had it is told and loses it),
and can be re-issued by the game's creator while nobody has claimed it; a public game's
open seat is taken from the lobby.

A device is known by the SHA-256 of a secret token it keeps for itself (a browser keeps
one in its storage). The database decides every change by conditional updates
(:class:`~sudoku_arena.server.storage.ClaimSeat`,
:class:`~sudoku_arena.server.storage.ReissueSeat`); other processes hear of it through
the fan-out, or find it at their next look at the database.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
from collections.abc import Callable, Iterable, Mapping
from typing import Protocol

from sudoku_arena.server.fanout import RedisFanout
from sudoku_arena.server.live import ActionRefused, LiveGame, hash_token
from sudoku_arena.server.storage import (
    ClaimSeat,
    ReissueSeat,
    SeatTaken,
    Storage,
    StorageError,
)

HUMAN = "human"

SEAT_ELSEWHERE = (
    "this seat is being played on another device; move it here to play on this one "
    "(the other device is told)"
)


class Connection(Protocol):
    """What seating needs of a connection (:class:`sudoku_arena.server.arena.Client`)."""

    seats: list[int]
    auth: dict[int, str | None]
    device: str | None

    def push(self, text: str) -> None: ...

    def resync(self) -> None: ...


class Seating:
    """Claims, new invites and joins for the games of one server process."""

    def __init__(
        self,
        storage: Storage,
        fanout: RedisFanout | None,
        clients: Mapping[str, Iterable[Connection]],
        announce: Callable[[LiveGame], None],
    ) -> None:
        self.storage = storage
        self.fanout = fanout
        self.clients = clients
        self._announce = announce  # presence changed: a connection lost a seat

    async def reload(self, lg: LiveGame) -> None:
        """Take the seats as the database has them (several processes only)."""
        if self.fanout is None and not self.storage.shared:
            return
        lg.set_seats(await asyncio.to_thread(self.storage.load_seats, lg.id))

    async def claim(
        self, lg: LiveGame, seat: int, token_hash: str, device: str, *, move: bool = False
    ) -> bool:
        """The device whose token hashes to ``device`` claims ``seat`` with the seat's
        link (its token hashes to ``token_hash``); ``True`` when the seat moved here from
        another device (which is told, and loses it). Raises :class:`ActionRefused`
        (``seat_elsewhere``) when another device holds the seat and ``move`` is not set,
        (``bad_token``) when the link was replaced meanwhile."""
        await self.reload(lg)
        if lg.seats[seat].token_hash != token_hash:
            raise ActionRefused("bad_token", "that link was replaced by a new one")
        held = lg.seat_device(seat)
        if held == device:
            return False
        if held is not None and not move:
            raise ActionRefused("seat_elsewhere", SEAT_ELSEWHERE)
        try:
            await self.storage.write(ClaimSeat(lg.id, seat, token_hash, device, move=move))
        except SeatTaken:
            await self.reload(lg)
            raise ActionRefused("seat_elsewhere", SEAT_ELSEWHERE) from None
        except StorageError:
            raise ActionRefused("unavailable", "the seat could not be claimed; try again") from None
        lg.set_seats(await asyncio.to_thread(self.storage.load_seats, lg.id))
        self._changed(lg)
        return held is not None

    async def reissue(self, lg: LiveGame, by_seat: int, seat: int) -> str:
        """A new invite token for ``seat``, asked by the host's seat ``by_seat``: only for
        a person's seat that no device claimed; the old link stops working."""
        if by_seat != lg.row.host_seat:
            raise ActionRefused("forbidden", "only the person who created the game can do that")
        await self.reload(lg)
        if not 0 <= seat < lg.num_players or lg.seats[seat].kind != HUMAN or seat == by_seat:
            raise ActionRefused("bad_seat", "choose the seat of another person in this game")
        if lg.seats[seat].claimed_by is not None:
            raise ActionRefused(
                "seat_taken", "that player has opened the link already: it cannot be replaced"
            )
        return await self._new_token(lg, seat, None)

    async def join(self, lg: LiveGame, device: str) -> tuple[int, str]:
        """Take an open seat of a public game from the lobby for the device ``device``:
        the seat gets a new token, claimed by that device at once."""
        if lg.row.visibility != "public":
            raise ActionRefused("private", "this game is private: it is joined by invitation")
        if lg.row.mode != "invite":
            raise ActionRefused("full", "this game is played on one screen: nobody can join it")
        if lg.over or lg.read_only:
            raise ActionRefused("game_over", "the game is over")
        await self.reload(lg)
        if any(s.claimed_by == device for s in lg.seats):
            raise ActionRefused("already_seated", "you already have a seat in this game")
        for s in lg.seats:
            if s.kind == HUMAN and s.claimed_by is None and s.seat != lg.row.host_seat:
                with contextlib.suppress(ActionRefused):
                    return s.seat, await self._new_token(lg, s.seat, device)
        raise ActionRefused("full", "every seat of this game is taken")

    async def _new_token(self, lg: LiveGame, seat: int, device: str | None) -> str:
        token = secrets.token_urlsafe(18)
        try:
            await self.storage.write(ReissueSeat(lg.id, seat, hash_token(token), device))
        except SeatTaken:
            await self.reload(lg)
            raise ActionRefused("seat_taken", "somebody took that seat first") from None
        except StorageError:
            raise ActionRefused("unavailable", "that could not be saved; try again") from None
        lg.set_seats(await asyncio.to_thread(self.storage.load_seats, lg.id))
        self._changed(lg)
        return token

    def _changed(self, lg: LiveGame) -> None:
        if self.fanout is not None:
            self.fanout.publish({"kind": "seats", "game": lg.id})
        self.enforce(lg)

    def enforce(self, lg: LiveGame) -> None:
        """Take seats away from connections whose link was replaced or whose seat moved
        to another device, telling them; tell everybody which seats are claimed."""
        claimed = [s.claimed_by is not None for s in lg.seats]
        msg = json.dumps({"type": "seats", "claimed": claimed})
        changed = False
        for c in self.clients.get(lg.id, ()):
            lost = [
                seat
                for seat in c.seats
                if lg.seats[seat].token_hash != c.auth.get(seat)
                or lg.seats[seat].claimed_by not in (None, c.device)
            ]
            for seat in lost:
                c.seats.remove(seat)
                c.push(
                    json.dumps(
                        {
                            "type": "seat_moved",
                            "seat": seat,
                            "text": f"Your seat ({lg.seats[seat].name}) is now played on "
                            "another device. You are watching here.",
                        }
                    )
                )
                changed = True
            c.push(msg)
            if lost:
                c.resync()
        if changed:
            self._announce(lg)
