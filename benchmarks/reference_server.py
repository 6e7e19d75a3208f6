"""A bare reference server for the load benchmark: the real one with nothing but I/O.

It speaks the slice of the game protocol the load clients use (create a game over
HTTP; ``hello``, ``act``, ``welcome``, ``state``, ``ack`` over a WebSocket) and commits
every action through the same SQLite group commit (:class:`Storage`) before it
acknowledges it, but runs no rules engine: a "game" is 40 alternating plies of the
action ``x``, and a position is a fixed JSON message as large as a real one. What the
real server costs beyond this is the price of the engine, the views, the boards and
the bookkeeping.

    python benchmarks/reference_server.py --port 8001 --database-url sqlite:///ref.db
"""

from __future__ import annotations

import argparse
import json
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

import uvicorn
from fastapi import FastAPI, WebSocket, WebSocketDisconnect

from sudoku_arena.server.db.engine import Storage
from sudoku_arena.server.db.games import AppendActions, CreateGame, GameRow
from sudoku_arena.server.db.seats import SeatRow

PLIES = 40


@dataclass
class RefGame:
    id: str
    tokens: list[str]
    ply: int = 0
    sockets: dict[int, WebSocket] = field(default_factory=dict)

    def state(self, seat: int, ack: dict[str, Any] | None = None) -> str:
        """A position message as large as the real server's for Tic-Tac-Sudoku (about
        1.1 KB: the log's last entry and a view padded like a board), so that the
        clients spend on it what they spend on the real one."""
        over = self.ply >= PLIES
        head: dict[str, Any] = {"type": "state"}
        if ack is not None:
            head["ack"] = ack
        last = [{"ply": self.ply - 1, "actor": (self.ply - 1) % 2, "action": "x"}]
        head.update(
            {
                "game_id": self.id,
                "seat": seat,
                "ply": self.ply,
                "status": "finished" if over else "active",
                "outcome": None,
                "rematch": None,
                "log_from": max(0, self.ply - 1),
                "log": last if self.ply else [],
                "view": {
                    "observer": seat,
                    "game": "reference",
                    "board": BOARD,
                    "to_move": [] if over else [self.ply % 2],
                    "legal": [] if over or self.ply % 2 != seat else ["x"],
                },
            }
        )
        return json.dumps(head, separators=(",", ":"))


#: Stands for the board part of a real view (81 cells' worth of JSON).
BOARD = ["cell"] * 81 + list(range(81))


def create_reference_app(database_url: str) -> FastAPI:
    storage = Storage(database_url)
    games: dict[str, RefGame] = {}
    app = FastAPI(on_startup=[storage.start], on_shutdown=[storage.close])

    @app.post("/api/matches", status_code=201)
    async def create() -> dict[str, Any]:
        gid = secrets.token_urlsafe(9)
        tokens = [secrets.token_urlsafe(18) for _ in range(2)]
        now = time.time()
        row = GameRow(
            id=gid,
            game="reference",
            game_version="0",
            params={},
            seed=0,
            players=["a", "b"],
            mode="invite",
            status="active",
            outcome=None,
            rematch=None,
            rematch_of=None,
            created=now,
            updated=now,
            seats=[SeatRow(i, "human", None, "p", t) for i, t in enumerate(tokens)],
        )
        await storage.write(CreateGame(row))
        games[gid] = RefGame(gid, tokens)
        return {"id": gid, "seats": [{"seat": i, "token": t} for i, t in enumerate(tokens)]}

    @app.websocket("/ws/{game_id}")
    async def play(ws: WebSocket, game_id: str) -> None:
        await ws.accept()
        g = games[game_id]
        seat = -1
        try:
            while True:
                msg = json.loads(await ws.receive_text())
                if msg.get("type") == "hello":
                    seat = g.tokens.index(msg["tokens"][0])
                    g.sockets[seat] = ws
                    await ws.send_text(json.dumps({"type": "welcome", "seats": [seat]}))
                    await ws.send_text(g.state(seat))
                elif msg.get("type") == "act" and msg.get("ply") == g.ply and g.ply < PLIES:
                    ply = g.ply
                    await storage.write(AppendActions(g.id, [(ply, seat, str(msg["action"]))]))
                    g.ply += 1
                    ack = {"id": msg.get("id"), "ply": ply, "next_ply": g.ply}
                    for other, sock in list(g.sockets.items()):
                        text = g.state(other, ack if other == seat else None)
                        await sock.send_text(text)
        except (WebSocketDisconnect, RuntimeError):
            g.sockets.pop(seat, None)

    return app


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--port", type=int, default=8001)
    ap.add_argument("--database-url", default="sqlite:///reference.sqlite3")
    args = ap.parse_args()
    uvicorn.run(
        create_reference_app(args.database_url),
        port=args.port,
        log_level="warning",
        access_log=False,
        backlog=4096,
    )


if __name__ == "__main__":
    main()
