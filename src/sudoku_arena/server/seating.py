"""Which device holds which seat: a seat link is claimed by the first device that opens
it, moves to another device only when asked (the one that had it is told and loses it),
and can be re-issued by the game's creator while nobody has claimed it; a public game's
open seat is taken from the lobby.

A device is known by the SHA-256 of a secret token it keeps for itself (a browser keeps
one in its storage). The database decides every change by conditional updates
(:class:`~sudoku_arena.server.db.seats.ClaimSeat`,
:class:`~sudoku_arena.server.db.seats.ReissueSeat`); other processes hear of it through
the fan-out, or find it at their next look at the database.

A new game's seats are set up here too (:func:`new_seats`, :func:`creators_seeds`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Protocol

from sudoku_arena.ai import make_agent
from sudoku_arena.core.errors import InvalidParameterError
from sudoku_arena.core.fairness import ClientSeed, check_client_seed
from sudoku_arena.core.protocol import AnyGame
from sudoku_arena.server.db.accounts import LinkSeats, seat_accounts
from sudoku_arena.server.db.engine import SeatTaken, Storage, StorageError, Together
from sudoku_arena.server.db.seats import ClaimSeat, ReissueSeat, ResumeSeat, SeatRow, load_seats
from sudoku_arena.server.fanout import RedisFanout
from sudoku_arena.server.live import ActionRefused, LiveGame, hash_token

HUMAN, BOT = "human", "bot"

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

    def _alone(self) -> bool:
        """Whether this process is the only one writing the seats (no fleet)."""
        return self.fanout is None and not self.storage.shared

    async def reload(self, lg: LiveGame) -> None:
        """Take the seats as the database has them (several processes only)."""
        if self._alone():
            return
        lg.set_seats(await asyncio.to_thread(load_seats, self.storage.engine, lg.id))

    async def owners(self, lg: LiveGame) -> dict[int, int]:
        """Seat -> account id of ``lg``'s seats linked to accounts. A process alone keeps
        them with the game once known (every link is made through it, and told here:
        :meth:`linked`, :meth:`forget_owners`); a fleet's process reads them each time."""
        if lg.owners is not None and self._alone():
            return lg.owners
        owners = await asyncio.to_thread(seat_accounts, self.storage.engine, lg.id)
        if self._alone():
            lg.owners = owners
        return owners

    @staticmethod
    def linked(lg: LiveGame, account: int, seats: Iterable[int]) -> None:
        """``seats`` of ``lg`` were just linked to ``account`` (the first link of a seat
        stays, as in the database)."""
        if lg.owners is not None:
            for seat in seats:
                lg.owners.setdefault(seat, account)

    @staticmethod
    def forget_owners(games: Iterable[LiveGame]) -> None:
        """Links changed outside these games' own requests (a device's guest seats joined
        an account, an account was deleted): read them again when next asked."""
        for lg in games:
            lg.owners = None

    async def claim(
        self,
        lg: LiveGame,
        seat: int,
        token_hash: str,
        device: str,
        *,
        move: bool = False,
        account: int | None = None,
    ) -> bool:
        """The device whose token hashes to ``device`` claims ``seat`` with the seat's
        link (its token hashes to ``token_hash``); ``True`` when the seat moved here from
        another device (which is told, and loses it). Raises :class:`ActionRefused`
        (``seat_elsewhere``) when another device holds the seat and ``move`` is not set,
        (``bad_token``) when the link was replaced meanwhile. With ``account`` (a
        signed-in person's) the seat is linked to that account in the same commit
        (a seat linked to an account already stays with it)."""
        await self.reload(lg)
        if lg.seats[seat].token_hash != token_hash:
            raise ActionRefused("bad_token", "that link was replaced by a new one")
        link = None if account is None else LinkSeats(account, ((lg.id, seat),))
        if self._alone() and lg.owners is not None and seat in lg.owners:
            link = None  # linked already (the creator's own seat): the first link stays
        held = lg.seat_device(seat)
        if held == device:
            if link is not None:
                await self.storage.write(link)
                self.linked(lg, link.account_id, [seat])
            return False
        if held is not None and not move:
            raise ActionRefused("seat_elsewhere", SEAT_ELSEWHERE)
        claim = ClaimSeat(lg.id, seat, token_hash, device, move=move)
        try:
            await self.storage.write(claim if link is None else Together((claim, link)))
        except SeatTaken:
            await self.reload(lg)
            raise ActionRefused("seat_elsewhere", SEAT_ELSEWHERE) from None
        except StorageError:
            raise ActionRefused("unavailable", "the seat could not be claimed; try again") from None
        if link is not None:
            self.linked(lg, link.account_id, [seat])
        if self._alone():  # the seats in memory are the stored ones, but for this claim
            claimed = replace(lg.seats[seat], claimed_by=device, claimed_at=time.time())
            lg.set_seats([claimed if s.seat == seat else s for s in lg.seats])
        else:
            lg.set_seats(await asyncio.to_thread(load_seats, self.storage.engine, lg.id))
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

    async def resume(self, lg: LiveGame, seat: int, device: str) -> str:
        """A fresh token for ``seat``, claimed by ``device`` at once: its account takes
        the seat back on this device (the caller checked the account). As with a move to
        this device, the device that held it is told and loses it; its old link stops
        working too (the new token replaces it)."""
        token = secrets.token_urlsafe(18)
        try:
            await self.storage.write(ResumeSeat(lg.id, seat, hash_token(token), device))
        except StorageError:
            raise ActionRefused("unavailable", "that could not be saved; try again") from None
        lg.set_seats(await asyncio.to_thread(load_seats, self.storage.engine, lg.id))
        self._changed(lg)
        return token

    async def _new_token(self, lg: LiveGame, seat: int, device: str | None) -> str:
        token = secrets.token_urlsafe(18)
        try:
            await self.storage.write(ReissueSeat(lg.id, seat, hash_token(token), device))
        except SeatTaken:
            await self.reload(lg)
            raise ActionRefused("seat_taken", "somebody took that seat first") from None
        except StorageError:
            raise ActionRefused("unavailable", "that could not be saved; try again") from None
        lg.set_seats(await asyncio.to_thread(load_seats, self.storage.engine, lg.id))
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


# -- a new game's seats ---------------------------------------------------------------


@dataclass(slots=True)
class SeatSpec:
    """Who sits in a seat when a game is created."""

    kind: str  # "human" or "bot"
    agent: str | None = None  # bot: agent name (random, greedy, easy, ...)
    name: str | None = None


def new_seats(
    game: AnyGame,
    seats: Sequence[SeatSpec],
    token_hashes: Sequence[str | None] | None = None,
    claims: Sequence[str | None] | None = None,
) -> tuple[list[SeatRow], dict[int, str]]:
    """The stored seats of a new ``game``, and the secret tokens of the human seats
    not given a token's hash (``token_hashes``) by seat; ``claims``: the devices that
    hold seats already. Raises :class:`InvalidParameterError` for a wrong number of
    seats, kind or bot name (with what is allowed)."""
    n = game.num_players
    if len(seats) != n:
        raise InvalidParameterError(f"{len(seats)} seats given for {n} players")
    rows: list[SeatRow] = []
    tokens: dict[int, str] = {}
    for i, s in enumerate(seats):
        if s.kind == BOT:
            agent = (s.agent or "").strip()
            make_agent(agent, game, seed=0)  # refuses unknown names with the list
            name = (s.name or f"{agent} (bot)").strip()[:40]
            rows.append(SeatRow(i, BOT, agent, name, None))
        elif s.kind == HUMAN:
            if token_hashes is not None and token_hashes[i] is not None:
                th = token_hashes[i]
            else:
                tokens[i] = secrets.token_urlsafe(18)
                th = hash_token(tokens[i])
            name = (s.name or f"player {i + 1}").strip()[:40] or f"player {i + 1}"
            claim = claims[i] if claims is not None else None
            rows.append(SeatRow(i, HUMAN, None, name, th, claim))
        else:
            raise InvalidParameterError(
                f"seat {i}: kind {s.kind!r} is not offered; allowed: human, bot"
            )
    return rows, tokens


def creators_seeds(
    client_seeds: Mapping[int, str] | None, rows: Sequence[SeatRow]
) -> list[ClientSeed]:
    """The creator's contributions to chance (text by seat), checked: human seats
    only, each a valid client seed (:class:`InvalidParameterError` says which not)."""
    seeds: list[ClientSeed] = []
    for seat, text in sorted((client_seeds or {}).items()):
        if not 0 <= seat < len(rows) or rows[seat].kind != HUMAN:
            raise InvalidParameterError(f"client seed for seat {seat}: not a human seat")
        try:
            seeds.append(ClientSeed(seat, check_client_seed(text), 0))
        except ValueError as exc:
            raise InvalidParameterError(f"client seed for seat {seat}: {exc}") from None
    return seeds
