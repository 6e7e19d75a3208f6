"""Helpers for the server tests: a live server in a thread, server processes, and a
small synchronous WebSocket client."""

from __future__ import annotations

import contextlib
import json
import socket
import subprocess
import sys
import tempfile
import threading
import time
from typing import Any

import httpx
import uvicorn
from websockets.sync.client import ClientConnection, connect

import services
from sudoku_arena.server import ServerConfig, create_app

#: The services the multi-process tests use (see tests/services.py).
PG_BASE = services.PG_URL
REDIS_URL = services.REDIS_URL


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class LiveServer:
    """The app on uvicorn in a background thread (real HTTP and WebSocket)."""

    def __init__(self, config: ServerConfig) -> None:
        # The socket is bound here and handed to uvicorn: a port found free and let go
        # could be taken (by any client's outgoing connection) before uvicorn binds it.
        self._socket = socket.socket()
        self._socket.bind(("127.0.0.1", 0))
        self.port = int(self._socket.getsockname()[1])
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}"
        self.app = create_app(config)
        self._server = uvicorn.Server(
            uvicorn.Config(
                self.app, port=self.port, log_level="warning", ws_max_size=65536, lifespan="on"
            )
        )
        self._thread = threading.Thread(
            target=self._server.run, kwargs={"sockets": [self._socket]}, daemon=True
        )

    @property
    def arena(self) -> Any:
        return self.app.state.arena

    def __enter__(self) -> LiveServer:
        self._thread.start()
        deadline = time.time() + 20
        while not self._server.started:
            if time.time() > deadline or not self._thread.is_alive():
                raise RuntimeError("server did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.should_exit = True
        self._thread.join(timeout=20)
        self._socket.close()

    def client(self) -> httpx.Client:
        return httpx.Client(base_url=self.url, timeout=20)


class ServerProcess:
    """``sudoku-arena serve`` in its own process (for crash and multi-process tests)."""

    def __init__(self, database_url: str, *extra: str, port: int | None = None) -> None:
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}"
        cmd = [
            sys.executable,
            "-m",
            "sudoku_arena.cli.main",
            "serve",
            "--port",
            str(self.port),
            "--database-url",
            database_url,
            "--bot-delay",
            "0",
            "--log-level",
            "warning",
            *extra,
        ]
        # Its log goes to a file: a pipe nobody reads fills up (64 KiB), and then the
        # server blocks on its next log line and answers nothing more.
        self.log = tempfile.TemporaryFile()  # noqa: SIM115 (lives as long as the process)
        self.proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=self.log)
        deadline = time.time() + 30
        while True:
            try:
                if httpx.get(self.url + "/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if self.proc.poll() is not None or time.time() > deadline:
                self.proc.kill()
                err = self.read_log()
                raise RuntimeError(f"server process did not start: {err[-2000:]}")
            time.sleep(0.1)

    def read_log(self) -> str:
        """What the process wrote to its standard error so far."""
        self.log.seek(0)
        return self.log.read().decode(errors="replace")

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs."""
        self.proc.kill()
        self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


# -- a small synchronous WebSocket client ------------------------------------------------------


def parse(frame: str | bytes) -> dict[str, Any]:
    text = frame if isinstance(frame, str) else frame.decode()
    head, sep, drawings = text.partition("\n")
    data: dict[str, Any] = json.loads(head)
    if sep:  # the board, then the panel beside it, a line each
        data["svg"], _, data["panel"] = drawings.partition("\n")
    return data


class Player:
    """A WebSocket connection to one game, keeping every message it received."""

    def __init__(self, ws_url: str, game_id: str, tokens: list[str] | None = None, **hello: Any):
        self.url = ws_url
        self._cm = connect(f"{ws_url}/ws/{game_id}", max_size=2**22)
        self.ws: ClientConnection = self._cm.__enter__()
        self.received: list[dict[str, Any]] = []
        self.raw: list[str] = []
        self.state: dict[int | None, dict[str, Any]] = {}
        self.welcome: dict[str, Any] = {}
        self.ws.send(json.dumps({"type": "hello", "tokens": tokens or [], **hello}))
        self.welcome = self.wait("welcome")
        self.seats: list[int] = self.welcome["seats"]
        for _ in self.seats or [None]:
            self.wait("state")

    def recv(self, timeout: float = 10) -> dict[str, Any]:
        frame = self.ws.recv(timeout=timeout)
        text = frame if isinstance(frame, str) else frame.decode()
        self.raw.append(text)
        msg = parse(text)
        self.received.append(msg)
        if msg["type"] == "state":
            self.state[msg["seat"]] = msg
        return msg

    def wait(self, kind: str, timeout: float = 10, **match: Any) -> dict[str, Any]:
        deadline = time.time() + timeout
        while True:
            msg = self.recv(timeout=max(0.01, deadline - time.time()))
            if msg["type"] == kind and all(msg.get(k) == v for k, v in match.items()):
                return msg

    def wait_ply(self, ply: int, seat: int | None = None, timeout: float = 10) -> dict[str, Any]:
        key = seat if seat is not None else (self.seats[0] if self.seats else None)
        deadline = time.time() + timeout
        while key not in self.state or self.state[key]["ply"] < ply:
            self.recv(timeout=max(0.01, deadline - time.time()))
        return self.state[key]

    def send(self, **msg: Any) -> None:
        self.ws.send(json.dumps(msg))

    def act(
        self,
        action: str,
        ply: int,
        seat: int | None = None,
        msg_id: int = 1,
        timeout: float = 10,
    ) -> dict[str, Any]:
        """Send an action; return the ack or error answering it (``TimeoutError`` when
        none came within ``timeout`` seconds)."""
        payload: dict[str, Any] = {"type": "act", "ply": ply, "action": action, "id": msg_id}
        if seat is not None:
            payload["seat"] = seat
        self.ws.send(json.dumps(payload))
        deadline = time.time() + timeout
        while True:
            msg = self.recv(timeout=max(0.01, deadline - time.time()))
            if msg["type"] in ("ack", "error") and msg.get("id") == msg_id:
                return msg
            ack = msg.get("ack")
            if msg["type"] == "state" and ack is not None and ack.get("id") == msg_id:
                return {"type": "ack", **ack}

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.ws.close()


def create(
    base_url: str,
    game: str = "tic-tac-sudoku",
    seats: list[dict[str, Any]] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    body = {"game": game, "seats": seats or [{"kind": "human"}, {"kind": "human"}], **extra}
    resp = httpx.post(base_url + "/api/matches", json=body, timeout=20)
    assert resp.status_code == 201, resp.text
    made: dict[str, Any] = resp.json()
    return made


def two_person_row(gid: str, actions: list[tuple[int, int | None, str]] | None = None) -> Any:
    """A stored Tic-Tac-Sudoku game between two people "a" and "b" (a ``GameRow``), for
    tests that write games straight into a database."""
    from sudoku_arena.server.db.games import GameRow
    from sudoku_arena.server.db.seats import SeatRow

    now = time.time()
    return GameRow(
        id=gid,
        game="tic-tac-sudoku",
        game_version="1",
        params={"players": 2},
        seed=1,
        players=["a", "b"],
        mode="invite",
        status="active",
        outcome=None,
        rematch=None,
        rematch_of=None,
        created=now,
        updated=now,
        seats=[SeatRow(0, "human", None, "a", None), SeatRow(1, "human", None, "b", None)],
        actions=actions or [],
    )
