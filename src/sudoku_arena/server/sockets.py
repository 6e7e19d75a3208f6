"""The WebSocket play protocol, served as plain ASGI (``/ws/{game_id}``).

JSON text messages, at most ``max_message`` bytes each:

* client ``{"type": "hello", "tokens": ["..."], "device": "..."}`` first: the seats
  whose secret tokens are given (none: a spectator), for the device whose own secret
  ``device`` token is given (browsers keep one; it is what a seat's link is claimed
  with, see ``POST /api/matches/{id}/claim``). A seat claimed by another device is not
  given (error ``seat_elsewhere``). Answer ``welcome`` (game facts, your seats, the
  board's ``legend``), then the position. ``"svg": false`` asks for positions without
  the SVG board (clients that do not draw: bots, scripts).
* client ``{"type": "act", "seat": 0, "ply": 12, "action": "r5c3", "id": 7}``: the
  action in notation, made at ``ply``. Once it is stored everybody gets the new
  position, and the actor's carries ``"ack": {"id", "ply", "next_ply"}`` (a separate
  ``{"type": "ack", ...}`` message when no position follows); or ``error`` (``code``,
  ``message``, ``id``) and a fresh copy of the position.
* client ``{"type": "resign", "seat": 0}``, ``{"type": "abort", "seat": 0}`` (before
  that seat's first move), ``{"type": "draw", "seat": 0, "answer": "offer"}`` (or
  ``accept``, ``decline``; games with draws): endings the players decide. The state
  messages carry ``draw_offer`` (the offering seat, or null) and, once it is over,
  the ``outcome`` with its ``code`` (``resign``, ``abort``, ``agreed``...). A declined
  offer is told to the offering seat: server ``notice`` with ``event``
  ``draw_declined``, ``seat`` (who declined) and ``text``.
* client ``{"type": "chat", "text": "..."}``, ``{"type": "chat_mute", "seat": 1,
  "mute": true}``; server ``chat_history`` (after ``welcome``), ``chat``,
  ``chat_muted``: the game's chat (see :mod:`sudoku_arena.server.chat`).
* client ``{"type": "takeback", "seat": 0, "answer": "ask"}`` (or ``accept``,
  ``decline``); server ``takeback``: see :mod:`sudoku_arena.server.takeback`.
* client ``{"type": "claim_win", "seat": 0}``: in an invite game without a clock, the
  last person still there claims the win once every other person has been away (no
  device connected) for the server's ``claim_after`` seconds; the outcome's ``code``
  is ``left``. Refused (``not_away``, ``no_claim``) otherwise: the server checks.
* server ``seats``: ``claimed`` (whether a device claimed each seat's link), whenever
  that changes; ``seat_moved``: ``seat`` and ``text``, this connection lost that seat
  (its link was claimed on another device, or re-issued).
* server ``presence``: ``seats`` (whether a device holding each seat is connected),
  ``watchers`` (spectators), ``away`` (per seat the seconds it has been gone, null
  while here and for bots) and ``claim_after`` (null where no win can be claimed),
  sent whenever somebody comes or goes.
* client ``{"type": "resync"}``: send the whole position again; ``{"type": "ping"}``.
* server ``state``: one JSON line (``seat``, ``ply``, ``view``, ``log`` from
  ``log_from`` with each entry's notation in words (``says``), ``status``,
  ``outcome``, ``rematch``, ``buttons``: words for the legal actions played by a
  button, ``guide``: what a seat that may act now is to do, ``clock``), then the SVG
  board and the SVG panel drawn from that view, a line each. In timed games ``clock``
  holds ``minutes``,
  ``increment``, per seat the seconds ``left`` as of ``since`` (the server time at which
  that seat's clock started running, or null while it is stopped), and the message
  carries ``server_time``: a seat has ``left - (server_time - since)`` seconds then. A
  client holding several seats (hot seat) gets one per seat.
* server ``rematch``: the id of the rematch game.

It is served below the web framework (see :class:`sudoku_arena.server.app.ArenaApp`):
a connection carries thousands of messages, and none of them needs the framework's
routing or middleware.
"""

from __future__ import annotations

import json
import time

import orjson
from starlette.types import Receive, Scope, Send

from sudoku_arena.core.registry import entry_of
from sudoku_arena.core.types import JsonDict
from sudoku_arena.server import logs, metrics
from sudoku_arena.server.accounts import foreign_seats
from sudoku_arena.server.arena import Arena, Client
from sudoku_arena.server.chat import ChatRefused
from sudoku_arena.server.live import ActionRefused, GameUnavailable, LiveGame, hash_token
from sudoku_arena.server.models import MAX_ACTION, MAX_TOKENS
from sudoku_arena.server.seating import SEAT_ELSEWHERE


def ws_error(code: str, message: str, msg_id: object = None, rulings: tuple[str, ...] = ()) -> str:
    """An error message for the client; ``rulings``: the IDs of the rules behind it."""
    metrics.refused(code)
    out: JsonDict = {"type": "error", "code": code, "message": message, "id": msg_id}
    if rulings:
        out["rulings"] = list(rulings)
    return json.dumps(out)


async def serve_socket(
    arena: Arena, max_message: int, scope: Scope, receive: Receive, send: Send
) -> None:
    """One WebSocket connection to the game named in the path."""
    first = await receive()
    if first["type"] != "websocket.connect":
        return
    await send({"type": "websocket.accept"})
    if arena.draining:  # shutting down: the page reconnects at once, to another process
        await send({"type": "websocket.close", "code": 1012})
        return
    game_id = str(scope["path"])[len("/ws/") :]
    try:
        lg = await arena.get(game_id)
    except GameUnavailable as exc:
        await send({"type": "websocket.send", "text": ws_error("unavailable", exc.reason)})
        await send({"type": "websocket.close", "code": 4503})
        return
    if lg is None:
        await send(
            {
                "type": "websocket.send",
                "text": ws_error("not_found", f"there is no game {game_id[:40]!r}"),
            }
        )
        await send({"type": "websocket.close", "code": 4404})
        return

    async def send_text(text: str) -> None:
        await send({"type": "websocket.send", "text": text})

    async def close(code: int) -> None:
        await send({"type": "websocket.close", "code": code})

    client = Client(send_text, close)
    client.start()
    greeted = False
    try:
        while not client.closed:
            message = await receive()
            if message["type"] != "websocket.receive":
                break
            arrived = time.perf_counter()
            if arena.draining:  # not taken here: sent again to the next process
                break
            text = message.get("text")
            if text is None:
                client.push(ws_error("bad_message", "send JSON text messages, not binary"))
                continue
            if len(text) > max_message:
                client.push(ws_error("too_large", f"messages are limited to {max_message} bytes"))
                continue
            try:
                data = orjson.loads(text)
            except ValueError:
                client.push(ws_error("bad_json", "that message is not valid JSON"))
                continue
            if not isinstance(data, dict):
                client.push(ws_error("bad_message", "a message is a JSON object with a type"))
                continue
            kind = data.get("type")
            msg_id = data.get("id")
            if not isinstance(msg_id, int | str | None) or isinstance(msg_id, bool):
                msg_id = None
            if kind == "act":
                if not greeted:
                    client.push(ws_error("hello_first", "send hello first", msg_id))
                    continue
                await _act(arena, lg, client, data, msg_id, arrived)
            elif kind == "hello":
                client.want_svg = data.get("svg", True) is not False
                device = data.get("device")
                if isinstance(device, str) and 0 < len(device) <= 100:
                    client.device = hash_token(device)
                await _hello(arena, lg, client, data.get("tokens"), scope)
                greeted = True
            elif kind in ("resign", "abort", "draw", "claim_win"):
                if not greeted:
                    client.push(ws_error("hello_first", "send hello first", msg_id))
                    continue
                await _ending(arena, lg, client, str(kind), data, msg_id)
            elif kind in ("chat", "chat_mute", "takeback"):
                if not greeted:
                    client.push(ws_error("hello_first", "send hello first", msg_id))
                    continue
                await _social(arena, lg, client, str(kind), data, msg_id)
            elif kind == "resync":
                client.resync()
            elif kind == "ping":
                client.push(json.dumps({"type": "pong", "id": msg_id, "t": time.time()}))
            else:
                client.push(
                    ws_error(
                        "bad_message",
                        f"unknown message type {str(kind)[:40]!r}; "
                        "allowed: hello, act, resign, abort, draw, claim_win, chat, "
                        "chat_mute, takeback, resync, ping",
                        msg_id,
                    )
                )
        if client.closed and not client.close_sent:  # it stopped reading its messages
            await send({"type": "websocket.close", "code": 1008, "reason": "not reading"})
        elif arena.draining:
            await client.close(1012)
    finally:
        arena.detach(client)
        await client.stop()


async def _hello(arena: Arena, lg: LiveGame, client: Client, tokens: object, scope: Scope) -> None:
    if tokens is None:
        tokens = []
    if isinstance(tokens, str):
        tokens = [t for t in tokens.split(".") if t]
    seats: list[int] = []
    if not isinstance(tokens, list) or len(tokens) > MAX_TOKENS:
        client.push(ws_error("bad_message", f"tokens: a list of at most {MAX_TOKENS} strings"))
        tokens = []
    await arena.seating.reload(lg)
    # A browser signed in as one account does not play another account's seats.
    theirs = set()
    if tokens:
        theirs = await foreign_seats(scope, arena.sessions, arena.storage.engine, arena.seating, lg)
    for t in tokens:
        seat = lg.seat_for_token(t) if isinstance(t, str) and len(t) <= 100 else None
        if seat is not None and seat in theirs:
            client.push(
                ws_error(
                    "seat_of_another_account",
                    f"seat {seat + 1} belongs to another account; sign in as that account "
                    "to play it (you can watch)",
                )
            )
        elif seat is not None and lg.seat_device(seat) not in (None, client.device):
            client.push(ws_error("seat_elsewhere", f"seat {seat + 1}: " + SEAT_ELSEWHERE))
        elif seat is None:
            client.push(
                ws_error(
                    "bad_token",
                    "a token in this link does not belong to any seat of this game; "
                    "you can watch, but not act for that seat",
                )
            )
        elif seat not in seats:
            seats.append(seat)
            client.auth[seat] = lg.seats[seat].token_hash
    client.seats = sorted(seats)
    if client.seats:  # the connection's log lines name its seat from here on
        logs.bind(seat_number=client.seats[0])
    if arena.draining:  # began while we read the seats: the drain never saw this socket
        await client.close(1012)
        return
    arena.attach(lg, client)
    await arena.refresh(lg)
    legend = [{"icon": icon, "text": text} for icon, text in entry_of(lg.game).legend]
    welcome = {"type": "welcome", "game": lg.info(), "seats": client.seats, "legend": legend}
    client.push(json.dumps(welcome))
    client.resync()
    await arena.chat.greet(lg, client)
    arena.takebacks.greet(lg, client)


async def _act(
    arena: Arena, lg: LiveGame, client: Client, data: JsonDict, msg_id: object, arrived: float
) -> None:
    seat = data.get("seat")
    ply = data.get("ply")
    action = data.get("action")
    if seat is None:
        mine = [s for s in client.seats if s in lg.to_move()]
        seat = mine[0] if len(mine) == 1 else client.seats[0] if len(client.seats) == 1 else None
        if seat is None:
            client.push(ws_error("bad_seat", "say which of your seats acts", msg_id))
            return
    if isinstance(seat, bool) or not isinstance(seat, int):
        client.push(ws_error("bad_message", "seat: a seat number", msg_id))
        return
    if isinstance(ply, bool) or not isinstance(ply, int):
        client.push(ws_error("bad_message", "ply: the ply the action was made at", msg_id))
        return
    if not isinstance(action, str) or not 0 < len(action) <= MAX_ACTION:
        client.push(ws_error("bad_message", "action: the action in the game's notation", msg_id))
        return
    if seat not in client.seats:
        client.push(
            ws_error(
                "forbidden",
                f"you hold no token for seat {seat}"
                + ("; spectators cannot act" if not client.seats else ""),
                msg_id,
            )
        )
        return

    def ack(start: int, nxt: int) -> None:
        client.ack(seat, msg_id, start, nxt)
        metrics.move_acknowledged(lg.spec.id, time.perf_counter() - arrived)

    try:
        await arena.act(lg, seat, ply, action, ack=ack)
    except ActionRefused as exc:
        client.push(ws_error(exc.code, exc.message, msg_id, exc.rulings))
        client.resync()


async def _ending(
    arena: Arena, lg: LiveGame, client: Client, kind: str, data: JsonDict, msg_id: object
) -> None:
    """Resign, abort, offer / accept / decline a draw, or claim the win over players who
    left, for one of the client's seats."""
    seat = data.get("seat")
    if seat is None and len(client.seats) == 1:
        seat = client.seats[0]
    if isinstance(seat, bool) or not isinstance(seat, int) or seat not in client.seats:
        client.push(ws_error("forbidden", "say which of your seats this is for", msg_id))
        return
    try:
        if kind == "draw" and data.get("answer") != "accept":
            arena.draw_offer(lg, seat, str(data.get("answer", "")))
        elif kind == "claim_win":
            await arena.claim_win(lg, seat)
        else:
            await arena.end_by_players(lg, seat, "draw" if kind == "draw" else kind)
    except ActionRefused as exc:
        client.push(ws_error(exc.code, exc.message, msg_id, exc.rulings))
        client.resync()


async def _social(
    arena: Arena, lg: LiveGame, client: Client, kind: str, data: JsonDict, msg_id: object
) -> None:
    """A chat message, a mute, or a takeback asked, accepted or declined."""
    try:
        if kind == "chat":
            await arena.chat.post(lg, client, data.get("text"))
        elif kind == "chat_mute":
            muted = await arena.chat.mute(lg, client, data.get("seat"), data.get("mute"))
            client.push(json.dumps({"type": "chat_muted", "muted": muted, "id": msg_id}))
        else:
            seat = data.get("seat")
            if seat is None and len(client.seats) == 1:
                seat = client.seats[0]
            if isinstance(seat, bool) or not isinstance(seat, int) or seat not in client.seats:
                client.push(ws_error("forbidden", "say which of your seats this is for", msg_id))
                return
            answer = data.get("answer")
            if answer == "ask":
                await arena.takebacks.ask(lg, seat)
            elif answer in ("accept", "decline"):
                await arena.takebacks.answer(lg, seat, answer == "accept")
            else:
                client.push(
                    ws_error("bad_message", "takeback: answer ask, accept or decline", msg_id)
                )
    except ChatRefused as exc:
        out: JsonDict = {"type": "error", "code": exc.code, "message": exc.message, "id": msg_id}
        if exc.retry_after is not None:
            out["retry_after"] = exc.retry_after
        client.push(json.dumps(out))
    except ActionRefused as exc:
        client.push(ws_error(exc.code, exc.message, msg_id, exc.rulings))
