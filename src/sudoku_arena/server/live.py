"""One game held in memory by the server: its committed states, log and messages.

A :class:`LiveGame` holds only what is committed to storage. An action is first checked
and applied on the side (:meth:`LiveGame.prepare`, which changes nothing), written to
storage, and only then added (:meth:`LiveGame.commit`); so whatever the server shows
anybody, at any moment, is on disk.

The rules, the log and chance live in a :class:`~sudoku_arena.core.match.Match`, the
same runner the command line and the library use: chance is derived from the game's
secret, its id and the ply (:mod:`sudoku_arena.core.fairness`), so a game rebuilt after
a restart draws exactly what it would have drawn without the restart. The secret never
leaves the server while the game goes on; only its commitment does.

What observers receive is built here and only from the game's ``view`` (and SVG drawn
from that view), plus the log, whose entries pass through the game's ``public_action``
unless the observer may see them: a chance outcome is shown in full only to an observer
whose own view tells it apart from every other possible outcome (a tile a player drew
reads ``draw 5`` to him, ``draw`` to everybody else).
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import time
from collections.abc import Sequence
from dataclasses import replace

import orjson

from sudoku_arena.core.endings import (
    OUTSIDE_RULES,
    abandoned,
    aborted,
    agreed_draw,
    lost_on_time,
    resignation,
)
from sudoku_arena.core.errors import (
    ArenaError,
    IllegalActionError,
    ReplayMismatchError,
    split_rulings,
)
from sudoku_arena.core.fairness import ClientSeed, secret_from_seed
from sudoku_arena.core.match import LogEntry, Match, Pending
from sudoku_arena.core.protocol import AnyGame
from sudoku_arena.core.registry import build, entry_of
from sudoku_arena.core.types import JsonDict, Outcome
from sudoku_arena.server.clock import Clock
from sudoku_arena.server.storage import GameRow, SeatRow

#: Largest number of messages kept for one position (views and boards are kept for the
#: current position only, one per observer).
_CACHE = 16


def _encode(value: object) -> str:
    """Compact JSON for what is sent on the wire (orjson: messages are most of a move's
    cost on the server)."""
    return orjson.dumps(value).decode()


class ActionRefused(Exception):
    """An action the server will not take; ``code`` is machine-readable, ``message`` a
    sentence for the player (no ruling IDs in it: those are in ``rulings``)."""

    def __init__(self, code: str, message: str) -> None:
        plain, rulings = split_rulings(message)
        super().__init__(plain)
        self.code = code
        self.message = plain
        self.rulings = rulings


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


class GameUnavailable(Exception):
    """A stored game that cannot be opened (set aside in the database); ``reason``
    says why."""

    def __init__(self, game_id: str, reason: str) -> None:
        super().__init__(reason)
        self.game_id = game_id
        self.reason = reason


class LiveGame:
    """A game's committed history and the messages observers get about it."""

    def __init__(
        self, row: GameRow, game: AnyGame | None = None, *, read_only: str | None = None
    ) -> None:
        """Rebuild the game stored as ``row`` by replaying its log (which checks every
        stored action); ``game`` (already built from ``row``'s parameters, as when it
        was just created) saves loading it again. A game opened ``read_only`` (with the
        reason) can be watched but takes no action and runs no bot."""
        self.id = row.id
        self.read_only = read_only
        self.last_used = time.monotonic()
        #: Whether the database says a bot is to move (``None``: not known).
        self.bot_flag: bool | None = row.bot_to_move
        self.row = replace(row, actions=[])  # the match below holds them
        self.seats: list[SeatRow] = sorted(row.seats, key=lambda s: s.seat)
        if game is None:
            game = build(row.game, row.params)
        # Games stored before commitments existed had only a seed: their secret is
        # derived from it (still never shown before the end).
        secret = bytes.fromhex(row.secret) if row.secret else secret_from_seed(row.seed)
        try:
            self.match = Match(
                game,
                secret=secret,
                match_id=row.id,
                client_seeds=[
                    ClientSeed(int(c["seat"]), str(c["seed"]), int(c["ply"]))
                    for c in row.client_seeds
                ],
                players=row.players,
                log=[LogEntry(p, a, t) for p, a, t in row.actions],
            )
        except ReplayMismatchError:
            raise
        except ArenaError as exc:
            raise ReplayMismatchError(0, f"the stored game cannot be set up: {exc}") from None
        self.game: AnyGame = game
        self.spec = game.spec
        self._shared_views = not (game.spec.hidden_information or game.spec.simultaneous)
        self.status = row.status
        self.outcome: JsonDict | None = row.outcome
        if self.over and row.outcome is not None:
            decided = Outcome.from_json(row.outcome)
            if decided.code in OUTSIDE_RULES:
                self.match.end(decided)
        #: The clocks of a timed game as stored with its last action (``None``: untimed).
        self.clock: Clock | None = None if row.clock is None else Clock.from_json(row.clock)
        #: The seat whose draw offer stands (cleared by the next move), or ``None``.
        self.draw_offer: int | None = None
        #: Grows with every change observers are sent (moves, offers, the end).
        self.version = 0
        self.rematch: str | None = row.rematch
        self._views: dict[tuple[int, int | None], JsonDict] = {}
        self._svgs: dict[tuple[int, str], str] = {}
        self._view_texts: list[tuple[JsonDict, str]] = []  # current position only
        self._msgs: dict[tuple[int, int | None, int], str] = {}
        self._visible: dict[tuple[int, int | None], str] = {}
        #: Held while an action on this game is checked and stored (one at a time).
        self.lock = asyncio.Lock()

    # -- reading --------------------------------------------------------------------------

    @property
    def ply(self) -> int:
        return self.match.ply

    @property
    def state(self) -> object:
        return self.match.state

    @property
    def states(self) -> Sequence[object]:
        return self.match.history

    @property
    def log(self) -> Sequence[LogEntry]:
        return self.match.entries

    @property
    def commitment(self) -> str:
        return self.match.commitment

    @property
    def num_players(self) -> int:
        return int(self.game.num_players)

    @property
    def over(self) -> bool:
        return self.status == "finished"

    def to_move(self) -> list[int]:
        return list(self.game.to_move(self.state).players)

    def seat_for_token(self, token: str) -> int | None:
        """The seat whose secret ``token`` is, or ``None`` (constant-time comparison)."""
        h = hash_token(token)
        found = None
        for s in self.seats:
            if s.token_hash is not None and hmac.compare_digest(s.token_hash, h):
                found = s.seat
        return found

    def seat_device(self, seat: int) -> str | None:
        """The sha256 of the device token that claimed ``seat`` (``None``: unclaimed)."""
        return self.seats[seat].claimed_by

    def set_seats(self, seats: Sequence[SeatRow]) -> None:
        """Take the seats as stored now (a claim or a new invite changed them)."""
        self.seats = sorted(seats, key=lambda s: s.seat)
        self._changed()

    def bots_to_move(self) -> list[int]:
        if self.over or self.read_only:
            return []
        return [p for p in self.to_move() if self.seats[p].kind == "bot"]

    def bot_due(self, state: object) -> bool:
        """Whether a bot is to move in ``state`` (stored with each action, so that a
        process opens at start only the games whose bots must move)."""
        tm = self.game.to_move(state)
        return not tm.is_terminal and any(self.seats[p].kind == "bot" for p in tm.players)

    def info(self) -> JsonDict:
        """Public facts about the game (no seed, no tokens)."""
        return {
            "id": self.id,
            "game": self.spec.id,
            "name": self.spec.name,
            "version": self.row.game_version,
            "params": self.row.params,
            "mode": self.row.mode,
            "seats": [
                {"seat": s.seat, "kind": s.kind, "agent": s.agent, "name": s.name}
                for s in self.seats
            ],
            "chance": self.spec.chance,
            "hidden_information": self.spec.hidden_information,
            "simultaneous": self.spec.simultaneous,
            "draws": self.spec.draws,
            "status": self.status,
            "ply": self.ply,
            "outcome": self.outcome,
            "rematch": self.rematch,
            "rematch_of": self.row.rematch_of,
            "created": self.row.created,
            "commitment": self.commitment,
            "read_only": self.read_only,
            "client_seeds": [c.to_json() for c in self.match.chance.client_seeds],
            "visibility": self.row.visibility,
            "host_seat": self.row.host_seat,
            "clock": self.time_control(),
            "claimed": [s.claimed_by is not None for s in self.seats],
        }

    def time_control(self) -> JsonDict | None:
        if self.clock is None:
            return None
        c = self.clock.control
        return {"minutes": c.minutes, "increment": c.increment, "words": c.words()}

    def clock_json(self) -> JsonDict | None:
        """The clocks as sent to clients: seconds ``left`` per seat as of ``since`` (the
        server time each running clock started; ``null`` while stopped). Clients count
        down from these with the ``server_time`` each message carries."""
        control = self.time_control()
        if self.clock is None or control is None:
            return None
        return {**control, "left": list(self.clock.left), "since": list(self.clock.since)}

    def clock_after(self, pending: Pending, now: float) -> Clock | None:
        """The clocks once ``pending`` is stored at ``now``."""
        if self.clock is None:
            return None
        last = pending.states[-1]
        actors = {e.actor for e in pending.entries if e.actor is not None}
        to_move = self.game.to_move(last).players
        return self.clock.after(actors, to_move, now, pending.outcome is not None)

    # -- acting -----------------------------------------------------------------------------

    def check_ply(self, seat: int, ply: int) -> None:
        """Refuse an action made at ``ply`` unless nothing the seat had not seen happened.

        The ply must be the current one; in a simultaneous phase an older ply is fine as
        long as only other seats have acted since and the seat is still to move (their
        actions do not change what this seat may do; the engine checks anyway).
        """
        if ply == self.ply:
            return
        if 0 <= ply < self.ply and seat in self.game.to_move(self.states[ply]).players:
            since = self.log[ply:]
            if all(e.actor is not None and e.actor != seat for e in since) and all(
                seat in self.game.to_move(s).players for s in self.states[ply:]
            ):
                return
        raise ActionRefused(
            "stale",
            f"your move was made at ply {ply} but the game is at ply {self.ply}; "
            "here is the current position",
        )

    def prepare(self, seat: int, ply: int, action: str) -> Pending:
        """Check ``action`` by ``seat`` made at ``ply``; return what it would add.

        Changes nothing. Raises :class:`ActionRefused` with a clear message.
        """
        if self.over:
            raise ActionRefused("game_over", "the game is over")
        if self.read_only:
            raise ActionRefused("read_only", self.read_only)
        if not 0 <= seat < self.num_players:
            raise ActionRefused("bad_seat", f"there is no seat {seat}")
        self.check_ply(seat, ply)
        tm = self.game.to_move(self.state)
        if seat not in tm.players:
            waiting = ", ".join(self.seats[p].name for p in tm.players) or "nobody"
            raise ActionRefused("not_your_turn", f"it is not your turn (to move: {waiting})")
        try:
            return self.match.preview(action, seat)
        except IllegalActionError as exc:
            raise ActionRefused("illegal", str(exc)) from None
        except ArenaError as exc:
            raise ActionRefused("notation", str(exc)) from None

    def _changed(self) -> None:
        """Something observers are sent changed (a draw offer, the status): the messages
        built so far are stale, and clients that saw this ply get the position again."""
        self.version += 1
        self._msgs.clear()

    def _forget_position(self) -> None:
        """Drop what was built for the previous position (views, boards, messages)."""
        self.version += 1
        self._views.clear()
        self._view_texts.clear()
        self._svgs.clear()
        self._msgs.clear()

    def commit(self, pending: Pending, clock: Clock | None = None) -> None:
        """Add a written ``pending`` to the history (with the clocks written with it)."""
        self._forget_position()
        if clock is not None:
            self.clock = clock
        self.draw_offer = None  # a move answers a draw offer
        self.match.commit(pending)
        if pending.outcome is not None:
            self.status = "finished"
            self.outcome = pending.outcome.to_json()

    def apply_entries(self, entries: list[tuple[int, int | None, str]]) -> None:
        """Add entries committed elsewhere (another server process); checks each one."""
        self.match.extend([LogEntry(p, a, t) for p, a, t in entries])
        self._forget_position()
        self.draw_offer = None
        self.bot_flag = None  # another process wrote it: state it again on the next move
        out = self.match.outcome()
        if out is not None:
            self.status = "finished"
            self.outcome = out.to_json()

    # -- endings the players decide ------------------------------------------------------------

    def decided_ending(self, seat: int, kind: str) -> Outcome:
        """The outcome if ``seat`` resigns, aborts or accepts a draw now (``kind``:
        ``resign``, ``abort``, ``draw``); raises :class:`ActionRefused` when not allowed."""
        if self.over:
            raise ActionRefused("game_over", "the game is over")
        if self.read_only:
            raise ActionRefused("read_only", self.read_only)
        names = [s.name for s in self.seats]
        if kind == "resign":
            return resignation(self.game, self.state, seat, names)
        if kind == "abort":
            if any(e.actor == seat for e in self.log):
                raise ActionRefused(
                    "too_late", "you have moved already: a game can be aborted only before that"
                )
            return aborted(self.game, self.state)
        if kind == "draw":
            if not self.spec.draws:
                raise ActionRefused("no_draws", f"{self.spec.name} has no draws")
            if self.draw_offer is None or self.draw_offer == seat:
                raise ActionRefused("no_offer", "there is no draw offer from another player")
            return agreed_draw(self.game, self.state)
        raise ActionRefused("bad_message", f"unknown ending {kind!r}; allowed: resign, abort, draw")

    def offer_draw(self, seat: int) -> None:
        """Record ``seat``'s draw offer (it stands until the next move)."""
        if self.over:
            raise ActionRefused("game_over", "the game is over")
        if not self.spec.draws:
            raise ActionRefused("no_draws", f"{self.spec.name} has no draws")
        if self.draw_offer is not None and self.draw_offer != seat:
            raise ActionRefused(
                "offer_stands", "another player offers a draw: accept or decline it"
            )
        self.draw_offer = seat
        self._changed()

    def decline_draw(self) -> None:
        self.set_draw_offer(None)

    def set_draw_offer(self, seat: int | None) -> None:
        """Take the standing draw offer as another process saw it."""
        self.draw_offer = seat
        self._changed()

    def flag_ending(self, now: float) -> tuple[Outcome, Clock] | None:
        """The loss on time if a clock ran out by ``now``, with the stopped clocks."""
        if self.clock is None or self.over or self.read_only:
            return None
        seat = self.clock.flagged(now)
        if seat is None:
            return None
        names = [s.name for s in self.seats]
        stopped = self.clock.stopped(now)
        return lost_on_time(self.game, self.state, seat, names), stopped

    def abandoned_ending(self, idle: str) -> Outcome:
        """The ending when nobody moved for ``idle`` (words)."""
        waiting = [self.seats[p].name for p in self.to_move()]
        return abandoned(self.game, self.state, idle, waiting)

    def end(self, outcome: Outcome, clock: Clock | None = None) -> None:
        """End the game outside its rules (already written to storage)."""
        if clock is not None:
            self.clock = clock
        self.match.end(outcome)
        self.status = "finished"
        self.outcome = outcome.to_json()
        self.draw_offer = None
        self._forget_position()

    def add_client_seed(self, seat: int, seed: str) -> ClientSeed:
        """Mix ``seat``'s ``seed`` into every chance draw from the next ply on.

        Allowed once per seat, before the game is over. Raises ``ActionRefused``."""
        if self.over:
            raise ActionRefused("game_over", "the game is over")
        try:
            return self.match.add_client_seed(seat, seed)
        except ValueError as exc:
            raise ActionRefused("bad_client_seed", str(exc)) from None

    def set_client_seeds(self, seeds: Sequence[JsonDict]) -> None:
        """Take the client seeds stored for this game (another process took one)."""
        self.match.chance.client_seeds = sorted(
            (ClientSeed(int(c["seat"]), str(c["seed"]), int(c["ply"])) for c in seeds),
            key=lambda c: c.seat,
        )

    # -- what observers see --------------------------------------------------------------------

    def view(self, observer: int | None) -> JsonDict:
        """``observer``'s view of the current position, built once per position.

        In games with neither hidden information nor simultaneous moves every view is the
        public one with its own ``observer`` field (``Game.view``'s contract), so the game
        builds one view per position, not one per seat.
        """
        key = (self.ply, observer)
        v = self._views.get(key)
        if v is None:
            if observer is None or not self._shared_views:
                v = self.game.view(self.state, observer)
            else:
                public = self.view(None)
                v = {**public, "observer": observer} if "observer" in public else public
            self._views[key] = v
        return v

    def view_json(self, observer: int | None) -> str:
        """``observer``'s view as JSON; seats whose views differ only in the
        ``observer`` field (every seat, in most games without secrets) share one
        encoding of the rest."""
        v = self.view(observer)
        if "observer" not in v:
            return _encode(v)
        rest = {k: x for k, x in v.items() if k != "observer"}
        text = next((t for seen, t in self._view_texts if seen == rest), None)
        if text is None:
            text = _encode(rest)
            self._view_texts.append((rest, text))
        head = '{"observer":' + _encode(v["observer"])
        return head + "}" if text == "{}" else head + "," + text[1:]

    def svg(self, observer: int | None) -> str:
        """The board and the panel beside it for ``observer``, drawn from his view, as two
        SVG documents on two lines (see :func:`draw_page`).

        Games without hidden information draw the same board for every observer whose
        view is the same apart from the ``observer`` field, so it is drawn once per
        position and shared (renderers must not depend on ``observer`` there).
        """
        v = self.view(observer)
        if self.spec.hidden_information:
            key = (self.ply, f"o{observer}")
        else:
            key = (self.ply, json.dumps({**v, "observer": None}, sort_keys=True))
        svg = self._svgs.get(key)
        if svg is None:
            svg = draw_page(self.game, v)
            self._svgs[key] = svg
        return svg

    def entry_text(self, index: int, observer: int | None) -> str:
        """The log entry ``index`` as ``observer`` may read it.

        Everything once the game is over, and a seat's own actions. Otherwise what the
        game's ``public_action`` makes of it (``draw`` for a secret ``draw 5``), except a
        chance outcome the observer's own view tells apart from every other possible
        outcome (the player who drew the tile sees ``draw 5``).
        """
        entry = self.log[index]
        if self.over or (entry.actor is not None and entry.actor == observer):
            return entry.action
        public = self._public(entry.action)
        if public == entry.action or entry.actor is not None:
            return public
        key = (index, observer)
        shown = self._visible.get(key)
        if shown is None:
            game = self.game
            before = self.states[index]
            mine = _canon(game.view(self.states[index + 1], observer))
            shown = entry.action
            for a, _p in game.chance_outcomes(before):
                if game.format_action(a) == entry.action:
                    continue
                if _canon(game.view(game.apply(before, a, None), observer)) == mine:
                    shown = public  # the observer cannot tell this outcome from another
                    break
            self._visible[key] = shown
        return shown

    def _public(self, text: str) -> str:
        redact = getattr(self.game, "public_action", None)
        return str(redact(text)) if redact is not None else text

    def log_json(
        self, observer: int | None, start: int = 0, shared: bool = False
    ) -> list[JsonDict]:
        """The log from ``start`` as ``observer`` may read it. On a ``shared`` screen (one
        device holding several seats, passed from hand to hand) chance entries read as
        everybody may read them: the next player's draw is not for the others' eyes."""
        log = self.log
        explain = entry_of(self.game).explain or _no_words
        out = []
        for i in range(start, self.ply):
            text = self.entry_text(i, None if shared and log[i].actor is None else observer)
            # ``says``: the text in words, read from the text as shown (nothing more).
            out.append({"ply": i, "actor": log[i].actor, "action": text, "says": explain(text)})
        return out

    def state_message(
        self, observer: int | None, log_from: int = 0, svg: bool = True, shared: bool = False
    ) -> str:
        """The message pushing the current position to ``observer``.

        One JSON object on the first line, then the SVG board and the SVG panel on a line
        each (JSON never contains a raw newline, so the first newline ends the header);
        without ``svg`` (clients that do not draw) the JSON line alone. ``buttons`` names
        in words the legal actions that are played by a button, not on the board. The
        log holds the entries from ``log_from`` on (``shared``: see :meth:`log_json`),
        each with ``says``, its notation in words. ``guide`` is for a seat that may act
        now: what to do and where, in a sentence drawn from its own view (``null`` for
        everybody else).
        """
        log_from = max(0, min(log_from, self.ply))
        key = (self.ply, observer, (log_from if svg else -1 - log_from) * 2 + int(shared))
        msg = self._msgs.get(key)
        if msg is not None:
            return msg
        header = {
            "type": "state",
            "game_id": self.id,
            "seat": observer,
            "ply": self.ply,
            "status": self.status,
            "outcome": self.outcome,
            "rematch": self.rematch,
            "draw_offer": self.draw_offer,
            "clock": self.clock_json(),
            "log_from": log_from,
            "log": self.log_json(observer, log_from, shared),
            "buttons": entry_of(self.game).buttons(self.view(observer)),
            "guide": self.guide(observer),
        }
        msg = _encode(header)[:-1] + ',"view":' + self.view_json(observer) + "}"
        if svg:
            msg += "\n" + self.svg(observer)
        if len(self._msgs) < _CACHE:
            self._msgs[key] = msg
        return msg

    def guide(self, observer: int | None) -> str | None:
        """What ``observer`` is to do now (the game's guide, from his own view), or
        ``None`` when he may not act: a spectator, a seat not to move, a game over."""
        found = entry_of(self.game).guide
        if found is None or observer is None or self.over or self.read_only:
            return None
        view = self.view(observer)
        if observer not in view.get("to_move", ()):
            return None
        return found(view) or None

    def record_json(self) -> JsonDict:
        """The record: in full once the game is over (secret revealed, so anyone can
        check every draw); while it runs, the public record: the commitment and every
        action as a spectator may read it, with no secret draw and no secret."""
        rec = self.match.record(reveal=self.over)
        data: JsonDict = rec.to_json()
        data["players"] = list(self.row.players)
        if not self.over:
            data["actions"] = [
                {"ply": e["ply"], "actor": e["actor"], "action": e["action"]}
                for e in self.log_json(None)
            ]
            for e in data["actions"]:
                if e["actor"] is None:
                    e["actor"] = "chance"
        return data


def draw_page(game: AnyGame, view: JsonDict) -> str:
    """The board and the panel beside it as two SVG documents, one line each.

    Newlines inside a drawing are only whitespace in SVG, so they are folded into
    spaces and the two drawings can travel newline-separated after a JSON header.
    """
    entry = entry_of(game)
    board = entry.render_svg(view).replace("\n", " ")
    panel = entry.render_panel(view).replace("\n", " ") if entry.render_panel else ""
    return board + "\n" + panel


def _no_words(text: str) -> str:
    """The explanation of a game that has none."""
    return ""


def _canon(view: JsonDict) -> str:
    return json.dumps(view, sort_keys=True, separators=(",", ":"))
