"""What observers of a game receive: views, boards, the log, each position's message.

Everything is built only from the game's ``view`` (and SVG drawn from that view), plus
the log, whose entries pass through the game's ``public_action`` unless the observer
may see them: a chance outcome is shown in full only to an observer whose own view
tells it apart from every other possible outcome (a tile a player drew reads ``draw 5``
to him, ``draw`` to everybody else).

:class:`Views` is the messages half of :class:`~sudoku_arena.server.live.LiveGame`:
it builds each thing once per position and keeps it until the position changes.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING

import orjson

from sudoku_arena.core.match import LogEntry, Match
from sudoku_arena.core.protocol import AnyGame
from sudoku_arena.core.registry import entry_of
from sudoku_arena.core.types import JsonDict

if TYPE_CHECKING:
    from sudoku_arena.core.types import GameSpec
    from sudoku_arena.server.db.games import GameRow

#: Largest number of messages kept for one position (views and boards are kept for the
#: current position only, one per observer).
_CACHE = 16


def _encode(value: object) -> str:
    """Compact JSON for what is sent on the wire (orjson: messages are most of a move's
    cost on the server)."""
    return orjson.dumps(value).decode()


class Views:
    """Views, boards and messages of one game, cached for its current position."""

    if TYPE_CHECKING:  # provided by LiveGame
        id: str
        game: AnyGame
        spec: GameSpec
        row: GameRow
        match: Match
        status: str
        outcome: JsonDict | None
        rematch: str | None
        draw_offer: int | None
        read_only: str | None

        @property
        def ply(self) -> int: ...

        @property
        def state(self) -> object: ...

        @property
        def states(self) -> Sequence[object]: ...

        @property
        def log(self) -> Sequence[LogEntry]: ...

        @property
        def over(self) -> bool: ...

        def clock_json(self) -> JsonDict | None: ...

    def _start_views(self) -> None:
        spec = self.game.spec
        self._shared_views = not (spec.hidden_information or spec.simultaneous)
        self._views: dict[tuple[int, int | None], JsonDict] = {}
        self._svgs: dict[tuple[int, str], str] = {}
        self._view_texts: list[tuple[JsonDict, str]] = []  # current position only
        self._msgs: dict[tuple[int, int | None, int], str] = {}
        self._visible: dict[tuple[int, int | None], str] = {}

    def _forget_messages(self) -> None:
        self._msgs.clear()

    def _forget_views(self) -> None:
        self._views.clear()
        self._view_texts.clear()
        self._svgs.clear()
        self._msgs.clear()

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
