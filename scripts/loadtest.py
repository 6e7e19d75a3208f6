#!/usr/bin/env python3
"""Load test: N concurrent WebSocket clients playing random games against the server.

Clients play in pairs: one of each pair creates a game (two people, invite links) over
the JSON API, both connect with their seat's token, and each plays a random legal
action whenever it is its turn, over the same protocol as the browser (every position
arrives with its SVG board). When a game ends the pair starts another. The latency of
a move is the time from sending it to receiving the server's acknowledgement, which the
server sends only after the move is committed to storage.

    python scripts/loadtest.py --serve --clients 500 --duration 20
    python scripts/loadtest.py --serve --clients 500 --duration 20 --accounts
    python scripts/loadtest.py --url http://127.0.0.1:8000 --clients 100

``--serve`` starts ``sudoku-arena serve`` on a fresh SQLite file (every move durably
committed: WAL with synchronous=FULL) and stops it afterwards. Clients run in
``--procs`` processes. They play as guests (seat tokens alone) unless ``--accounts``:
then every client signs up first and plays signed in (session cookie on every request
and WebSocket, CSRF token on changes, the invited player claims its seat), against a
server with its rate limits on (``--limits``: raised so one address's crowd passes).
``--claims``: both players of a game claim their seat's link over HTTP before
connecting, as the play page does for every link it opens (the creator's too).
Prints moves/s, p50/p90/p99/max acknowledgement latency and errors; ``--json`` prints
the figures as JSON as well.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import multiprocessing
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
from typing import Any

MAX_ERRORS_SHOWN = 5


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class _Http:
    """A kept-alive HTTP/1.1 connection for creating games (cheaper than a full client:
    the load generator should spend its time on the games)."""

    def __init__(self, url: str) -> None:
        parts = urllib.parse.urlsplit(url)
        self.host, self.port = parts.hostname or "127.0.0.1", parts.port or 80
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.lock = asyncio.Lock()
        self.cookies: dict[str, str] = {}

    async def post(
        self, path: str, body: dict[str, Any], signed: Browser | None = None
    ) -> dict[str, Any]:
        """POST ``body`` as JSON; ``signed``: as that account (its session cookie and
        CSRF token). The answer's JSON; the cookies it sets land in ``self.cookies``."""
        data = json.dumps(body).encode()
        extra = "" if signed is None else signed.headers()
        request = (
            f"POST {path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n{extra}"
            f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n\r\n"
        ).encode() + data
        async with self.lock:
            for _attempt in range(3):
                if self.writer is None:
                    self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
                assert self.reader is not None
                self.writer.write(request)
                try:
                    head = await self.reader.readuntil(b"\r\n\r\n")
                except (asyncio.IncompleteReadError, ConnectionError):
                    self.writer.close()
                    self.writer = None
                    continue
                lines = head.decode("latin-1").split("\r\n")
                status = int(lines[0].split(" ", 2)[1])
                length = next(
                    int(v)
                    for k, _, v in (x.partition(":") for x in lines[1:])
                    if k.strip().lower() == "content-length"
                )
                payload = await self.reader.readexactly(length)
                for k, _, v in (x.partition(":") for x in lines[1:]):
                    if k.strip().lower() == "set-cookie":
                        name, _, value = v.strip().partition(";")[0].partition("=")
                        self.cookies[name] = value
                if status >= 400:
                    raise RuntimeError(f"HTTP {status}: {payload[:200]!r}")
                result: dict[str, Any] = json.loads(payload)
                return result
        raise RuntimeError("the server closed the connection")

    async def aclose(self) -> None:
        if self.writer is not None:
            self.writer.close()


class Browser:
    """A guest's browser: its device token, sent when claiming a seat and in the
    socket's hello (the play page keeps one per browser)."""

    def __init__(self) -> None:
        self.device = base64.urlsafe_b64encode(os.urandom(18)).decode()

    def cookie(self) -> str:
        return ""

    def headers(self) -> str:
        return ""


class Signed(Browser):
    """A signed-in account, as a browser keeps it: the session cookie (sent on every
    request and on the WebSocket's handshake), the CSRF token (sent on every change)
    and the device token."""

    def __init__(self, session: str, csrf: str) -> None:
        super().__init__()
        self.session, self.csrf = session, csrf

    def cookie(self) -> str:
        return f"Cookie: session={self.session}; csrf={self.csrf}\r\n"

    def headers(self) -> str:
        return f"{self.cookie()}X-CSRF-Token: {self.csrf}\r\n"


async def _sign_up(http: _Http, name: str) -> Signed:
    """A new account, signed in (``POST /api/account/signup``)."""
    info = await http.post("/api/account/signup", {"name": name, "password": _PASSWORD})
    return Signed(http.cookies.pop("session"), str(info["csrf"]))


_PASSWORD = "load-test-password-1"


async def _create(http: _Http, game: str, signed: Browser | None = None) -> dict[str, Any]:
    body = {"game": game, "seats": [{"kind": "human"}, {"kind": "human"}], "mode": "invite"}
    return await http.post("/api/matches", body, signed)


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.moves = 0
        self.errors = 0
        self.error_samples: list[str] = []
        self.games = 0
        self.measuring = False

    def error(self, text: str) -> None:
        if self.measuring:
            self.errors += 1
        if len(self.error_samples) < MAX_ERRORS_SHOWN:
            self.error_samples.append(text[:200])


_STATE = '{"type":"state",'
_STATE_ACK = '{"type":"state","ack":'
_TO_MOVE = re.compile(r'"to_move":\[([0-9,]*)\]')


class _Seat(asyncio.Protocol):
    """One seat's WebSocket connection, as a plain asyncio protocol.

    A load generator has to cost less than the server it measures, so this is a
    minimal RFC 6455 client: it sends masked text frames, reads the server's unmasked
    frames (answering pings) and reacts to each message in a callback.
    """

    def __init__(
        self,
        token: str,
        rng: random.Random,
        stats: Stats,
        boards: bool,
        think: float,
        host: str,
        path: str,
        signed: Browser | None = None,
    ) -> None:
        self.token, self.rng, self.stats, self.boards = token, rng, stats, boards
        self.signed = signed
        self.think = think
        self.host, self.path = host, path
        self.done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.transport: Any = None
        self.buf = bytearray()
        self.upgraded = False
        self.fragments: list[bytes] = []
        self.seat: int | None = None
        self.sent_at: float | None = None
        self.sent_ply = -1
        self.next_id = 0

    # -- transport ------------------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport
        key = base64.b64encode(os.urandom(16)).decode()
        self.transport.write(
            (
                f"GET {self.path} HTTP/1.1\r\nHost: {self.host}\r\nUpgrade: websocket\r\n"
                f"{'' if self.signed is None else self.signed.cookie()}"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                "Sec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.done.done():
            self.done.set_result(None)

    def send_text(self, text: str, opcode: int = 1) -> None:
        data = text.encode()
        n = len(data)
        if n < 126:
            head = bytes([0x80 | opcode, 0x80 | n])
        elif n < 65536:
            head = bytes([0x80 | opcode, 0x80 | 126]) + n.to_bytes(2, "big")
        else:
            head = bytes([0x80 | opcode, 0x80 | 127]) + n.to_bytes(8, "big")
        mask = os.urandom(4)
        reps = (mask * (n // 4 + 1))[:n]
        masked = (int.from_bytes(data, "big") ^ int.from_bytes(reps, "big")).to_bytes(n, "big")
        assert self.transport is not None
        self.transport.write(head + mask + masked)

    def data_received(self, data: bytes) -> None:
        self.buf += data
        if not self.upgraded:
            end = self.buf.find(b"\r\n\r\n")
            if end < 0:
                return
            status = bytes(self.buf[:end]).split(b"\r\n", 1)[0]
            del self.buf[: end + 4]
            if b" 101 " not in status:
                self.stats.error(f"handshake refused: {status.decode(errors='replace')}")
                self.close()
                return
            self.upgraded = True
            hello: dict[str, Any] = {"type": "hello", "tokens": [self.token], "svg": self.boards}
            if self.signed is not None:
                hello["device"] = self.signed.device
            self.send_text(json.dumps(hello))
        buf = self.buf
        while len(buf) >= 2:
            fin, opcode, n = buf[0] & 0x80, buf[0] & 0x0F, buf[1] & 0x7F
            at = 2
            if n == 126:
                if len(buf) < 4:
                    return
                n, at = int.from_bytes(buf[2:4], "big"), 4
            elif n == 127:
                if len(buf) < 10:
                    return
                n, at = int.from_bytes(buf[2:10], "big"), 10
            if len(buf) < at + n:
                return
            payload = bytes(buf[at : at + n])
            del buf[: at + n]
            if opcode == 9:  # ping
                self.send_text(payload.decode(errors="replace"), opcode=10)
            elif opcode == 8:  # close
                self.close()
                return
            elif opcode in (0, 1, 2):
                self.fragments.append(payload)
                if fin:
                    message = b"".join(self.fragments).decode()
                    self.fragments = []
                    self.on_message(message)

    def close(self) -> None:
        if self.transport is not None:
            self.transport.close()
        if not self.done.done():
            self.done.set_result(None)

    # -- playing ------------------------------------------------------------------------------

    def act(self, ply: int, action: str) -> None:
        if self.done.done():
            return
        self.next_id += 1
        act = {"type": "act", "seat": self.seat, "ply": ply, "action": action, "id": self.next_id}
        self.sent_at = time.perf_counter()
        self.send_text(json.dumps(act))

    def on_message(self, text: str) -> None:
        line = text.partition("\n")[0]
        if (
            line.startswith(_STATE)
            and not line.startswith(_STATE_ACK)
            and '"status":"finished"' not in line
        ):
            m = _TO_MOVE.search(line)
            if m is not None and str(self.seat) not in m.group(1).split(","):
                return  # not our turn: nothing to do (most positions, no need to parse)
        head = json.loads(line)
        kind = head.get("type")
        stats = self.stats
        if kind == "ack" or head.get("ack") is not None:
            if self.sent_at is not None and stats.measuring:
                stats.latencies.append(time.perf_counter() - self.sent_at)
                stats.moves += 1
            self.sent_at = None
        if kind == "state":
            view = head["view"]
            if head["status"] == "finished" or view.get("outcome"):
                self.close()
                return
            ply = head["ply"]
            if (
                self.seat in view["to_move"]
                and view["legal"]
                and self.sent_at is None
                and ply > self.sent_ply
            ):
                self.sent_ply = ply
                action = self.rng.choice(view["legal"])
                if self.think > 0:
                    delay = self.think * (0.5 + self.rng.random())
                    asyncio.get_running_loop().call_later(delay, self.act, ply, action)
                else:
                    self.act(ply, action)
        elif kind == "welcome":
            self.seat = head["seats"][0] if head["seats"] else None
        elif kind == "error":
            stats.error(f"{head.get('code')}: {head.get('message')}")
            self.sent_at = None


async def _seat_loop(
    url: str,
    game_id: str,
    token: str,
    rng: random.Random,
    stats: Stats,
    stop: asyncio.Event,
    boards: bool,
    think: float,
    signed: Browser | None,
) -> None:
    """Play one seat until the game ends or the test stops."""
    parts = urllib.parse.urlsplit(url)
    host, port = parts.hostname or "127.0.0.1", parts.port or 80
    loop = asyncio.get_running_loop()
    _, seat = await loop.create_connection(
        lambda: _Seat(token, rng, stats, boards, think, f"{host}:{port}", f"/ws/{game_id}", signed),
        host,
        port,
    )
    stopping: asyncio.Future[Any] = asyncio.ensure_future(stop.wait())
    done: asyncio.Future[Any] = seat.done
    try:
        await asyncio.wait([done, stopping], timeout=120, return_when="FIRST_COMPLETED")
        if not seat.done.done() and not stop.is_set():
            stats.error("a game made no progress for 120 s")
    finally:
        stopping.cancel()
        seat.close()


async def _pair(
    url: str,
    game: str,
    rng: random.Random,
    stats: Stats,
    stop: asyncio.Event,
    http: _Http,
    boards: bool,
    think: float,
    accounts: list[Signed] | None,
    claims: bool,
) -> None:
    """Play games, one after another. ``accounts``: the two players are signed in as
    these; the first creates the game (its seat links to its account), the second
    claims the other seat's invite link for its account, as a browser opening it does.
    ``claims``: both players claim their seat's link before connecting, as the play
    page does for every link it opens (guests with a device token of their own)."""
    players: list[Browser | None] = [None, None]
    if accounts is not None:
        players = list(accounts)
    elif claims:
        players = [Browser(), Browser()]
    claiming = [0, 1] if claims else [1] if accounts is not None else []
    while not stop.is_set():
        try:
            made = await _create(http, game, players[0])
            tokens = [s["token"] for s in made["seats"]]
            for k in claiming:
                who = players[k]
                assert who is not None
                claim = {"token": tokens[k], "device": who.device}
                await http.post(f"/api/matches/{made['id']}/claim", claim, who)
            await asyncio.gather(
                *(
                    _seat_loop(url, made["id"], t, rng, stats, stop, boards, think, s)
                    for t, s in zip(tokens, players, strict=True)
                )
            )
            stats.games += 1
        except Exception as exc:
            stats.error(f"{type(exc).__name__}: {exc}")
            await asyncio.sleep(0.5)


async def _run_clients(
    urls: list[str],
    game: str,
    pairs: int,
    warmup: float,
    duration: float,
    seed: int,
    boards: bool,
    think: float,
    accounts: bool,
    claims: bool = False,
    marks: Any = None,
    go: Any = None,
) -> dict[str, Any]:
    stats = Stats()
    stop = asyncio.Event()
    # A kept-alive connection per pair, as each person's browser has its own: one shared
    # by all the pairs of a process made every new game wait for the others' requests,
    # so a game that needs two (create, then claim) was started later for that alone.
    https = [_Http(urls[i % len(urls)]) for i in range(pairs)]
    try:
        signed: list[list[Signed] | None] = [None] * pairs
        tag = os.urandom(2).hex()  # names new on a server that has seen earlier runs
        if accounts:  # every player signs up before any game (a password hash is slow)
            hashing = asyncio.Semaphore(4)  # a few at a time: the server hashes each

            async def sign_up_pair(i: int) -> None:
                async with hashing:
                    names = [f"L{tag}{seed % 1000}_{i}{side}" for side in "ab"]
                    signed[i] = [await _sign_up(https[i], name) for name in names]

            await asyncio.gather(*(sign_up_pair(i) for i in range(pairs)))
        if marks is not None and go is not None:
            # Every client process signs up before any plays: the server hashing the
            # others' passwords would otherwise be measured as the cost of moves.
            marks.put("signed")
            await asyncio.to_thread(go.wait)
        tasks = []
        for i in range(pairs):
            rng = random.Random(seed * 100_003 + i)
            # Each game lives on one server process (as behind a proxy routing by game).
            k = i % len(urls)
            play = _pair(
                urls[k], game, rng, stats, stop, https[i], boards, think, signed[i], claims
            )
            tasks.append(asyncio.create_task(play))
            if i % 25 == 24:
                await asyncio.sleep(0.05)  # do not open every connection in one burst
        await asyncio.sleep(warmup)
        stats.measuring = True
        if marks is not None:
            marks.put("start")
        t0 = time.perf_counter()
        await asyncio.sleep(duration)
        stats.measuring = False
        elapsed = time.perf_counter() - t0
        if marks is not None:
            marks.put("stop")
        stop.set()
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    finally:
        for h in https:
            await h.aclose()
    return {
        "latencies": stats.latencies,
        "moves": stats.moves,
        "errors": stats.errors,
        "error_samples": stats.error_samples,
        "games": stats.games,
        "elapsed": elapsed,
    }


def _worker(
    args: tuple[list[str], str, int, float, float, int, bool, float, bool, bool],
    out: Any,
    marks: Any = None,
    go: Any = None,
) -> None:
    try:
        import uvloop  # the clients' own overhead, kept low

        out.put(uvloop.run(_run_clients(*args, marks, go)))
    except ImportError:
        out.put(asyncio.run(_run_clients(*args, marks, go)))


def _cpu_seconds(pid: int) -> float:
    """User and system CPU seconds the process ``pid`` has used (Linux's /proc; 0 where
    there is none): what a server spends per move, whatever else shares the cores."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _percentile(sorted_values: list[float], q: float) -> float:
    if not sorted_values:
        return float("nan")
    k = min(len(sorted_values) - 1, max(0, round(q * (len(sorted_values) - 1))))
    return sorted_values[k]


REFERENCE = os.path.join(
    os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "benchmarks", "reference_server.py"
)


#: ``--limits``: the rate limits stay on, raised so that one address's crowd of players
#: (every simulated player connects from this machine) passes: the limiter is consulted
#: on every sign-up, game creation and WebSocket connection, and refuses none.
LOAD_LIMITS = {"signup": "5000/hour", "create": "30000/minute", "socket": "60000/minute"}


def _serve_options(source: str) -> str:
    """The text of another checkout's ``serve`` command (a server from before the rate
    limits has no ``--no-rate-limits``)."""
    path = os.path.join(source, "src", "sudoku_arena", "cli", "serve.py")
    with open(path, encoding="utf-8") as f:
        return f.read()


def _start_server(
    port: int,
    db_dir: str,
    redis_url: str | None,
    reference: bool = False,
    limits: bool = False,
    source: str | None = None,
) -> subprocess.Popen[bytes]:
    exe = shutil.which("sudoku-arena") or os.path.join(
        os.path.dirname(sys.executable), "sudoku-arena"
    )
    db = f"sqlite:///{db_dir}/load.sqlite3"
    cmd = [exe, "serve", "--port", str(port), "--database-url", db]
    env = None
    if source:  # another checkout's server, on this interpreter and its packages
        env = {**os.environ, "PYTHONPATH": os.path.join(source, "src")}
        cmd = [sys.executable, "-m", "sudoku_arena.cli.main", *cmd[1:]]
    # One bot worker process, as a served site has (the default is one per CPU): with none,
    # bots and the post-game analysis of every finished game think in threads of the
    # server process and take the event loop's time (331 against 486 moves/s at 100
    # clients on a quiet machine, p99 142 against 12 ms).
    cmd += ["--bot-workers", "1", "--log-level", "warning"]
    if limits:
        cmd += [f"--limit={rule}={value}" for rule, value in LOAD_LIMITS.items()]
    elif not source or "no-rate-limits" in _serve_options(source):
        cmd.append("--no-rate-limits")  # every simulated player connects from this machine
    if reference:  # the bare server: same I/O and group commit, no engine
        cmd = [sys.executable, REFERENCE, "--port", str(port), "--database-url", db]
    if redis_url:
        cmd += ["--redis-url", redis_url, "--channel", f"arena-load-{os.getpid()}"]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, env=env)
    deadline = time.time() + 30
    while time.time() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return proc
        except OSError:
            time.sleep(0.2)
    proc.kill()
    raise SystemExit("the server did not start")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument(
        "--url",
        default="http://127.0.0.1:8000",
        help="server base URL; several, comma-separated, for several server processes "
        "sharing one database (each game is played on one of them)",
    )
    ap.add_argument("--serve", action="store_true", help="start a server on a fresh SQLite file")
    ap.add_argument(
        "--servers",
        type=int,
        default=1,
        help="with --serve: server processes sharing the SQLite file (more than one needs "
        "--redis-url for their fan-out)",
    )
    ap.add_argument("--redis-url", default=None, help="with --serve: Redis for the fan-out")
    ap.add_argument(
        "--reference",
        action="store_true",
        help="with --serve: start the bare reference server (benchmarks/reference_server.py) "
        "instead of sudoku-arena serve",
    )
    ap.add_argument(
        "--source",
        default=None,
        help="with --serve: the server of another checkout (its src/ first on PYTHONPATH, "
        "this interpreter's packages), e.g. a `git worktree` of an earlier commit, to "
        "compare two builds on one machine in one run",
    )
    ap.add_argument(
        "--accounts",
        action="store_true",
        help="every client is a signed-in account (signs up first, then sends its session "
        "cookie on the WebSocket and on its HTTP calls, with the CSRF token on changes; "
        "the second player of a game claims its seat); implies --limits",
    )
    ap.add_argument(
        "--claims",
        action="store_true",
        help="both players claim their seat's link over HTTP before connecting, as the "
        "play page does (guests too, each with a device token)",
    )
    ap.add_argument(
        "--limits",
        action="store_true",
        help="with --serve: rate limits on, at values one address's crowd passes "
        f"({', '.join(f'{k}={v}' for k, v in LOAD_LIMITS.items())}); default: off",
    )
    ap.add_argument("--clients", type=int, default=100, help="WebSocket clients (even)")
    ap.add_argument("--procs", type=int, default=2, help="client processes")
    ap.add_argument("--game", default="tic-tac-sudoku", help="game id")
    ap.add_argument("--warmup", type=float, default=5.0, help="seconds before measuring")
    ap.add_argument("--duration", type=float, default=20.0, help="seconds measured")
    ap.add_argument(
        "--think",
        type=float,
        default=100.0,
        help="milliseconds a client thinks before each move (uniform 0.5x-1.5x); "
        "0 sends each move the moment the position arrives",
    )
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--boards",
        action="store_true",
        help="ask for the SVG board with every position, as the browser does "
        "(default: positions as JSON only, as bots and scripts do)",
    )
    ap.add_argument("--json", action="store_true", help="also print the figures as JSON")
    args = ap.parse_args()
    if args.clients < 2 or args.duration <= 0 or args.duration > 3600:
        ap.error("--clients must be at least 2 and --duration in (0, 3600]")
    if args.source and (args.reference or not os.path.isdir(os.path.join(args.source, "src"))):
        ap.error("--source needs a checkout's folder (with src/) and the real server")
    if (args.accounts or args.claims) and args.reference:
        ap.error("--accounts and --claims need the real server (the reference has neither)")
    if args.servers > 1 and not args.redis_url:
        ap.error("--servers above 1 needs --redis-url")
    servers: list[subprocess.Popen[bytes]] = []
    tmp = None
    urls = [u.strip().rstrip("/") for u in args.url.split(",") if u.strip()]
    if args.serve:
        tmp = tempfile.mkdtemp(prefix="arena-load-")
        urls = []
        for _ in range(args.servers):
            port = _free_port()
            limits = (args.limits or args.accounts) and not args.reference
            servers.append(
                _start_server(port, tmp, args.redis_url, args.reference, limits, args.source)
            )
            urls.append(f"http://127.0.0.1:{port}")
    try:
        pairs = args.clients // 2
        procs = max(1, min(args.procs, pairs))
        ctx = multiprocessing.get_context("spawn")
        out = ctx.Queue()
        # The client processes say when their measured window opens and closes; the
        # servers' CPU time is read at the first of each (see _cpu_seconds).
        marks = ctx.Queue()
        go = ctx.Event()
        workers = []
        for k in range(procs):
            share = pairs // procs + (1 if k < pairs % procs else 0)
            a = (
                urls,
                args.game,
                share,
                args.warmup,
                args.duration,
                args.seed * 31 + k,
                args.boards,
                args.think / 1000,
                args.accounts,
                args.claims,
            )
            p = ctx.Process(target=_worker, args=(a, out, marks, go))
            p.start()
            workers.append(p)
        signing_up = 0.5 * args.clients if args.accounts else 0.0  # hashes on a busy machine
        wait = signing_up + args.warmup + args.duration + 120
        for _ in workers:  # every process signed its players up: all start together
            marks.get(timeout=wait)  # "signed"
        go.set()
        marks.get(timeout=wait)  # the first "start"
        cpu_start = sum(_cpu_seconds(s.pid) for s in servers)
        while marks.get(timeout=wait) != "stop":
            pass
        cpu_used = sum(_cpu_seconds(s.pid) for s in servers) - cpu_start
        results = [out.get(timeout=wait) for _ in workers]
        for p in workers:
            p.join(timeout=30)
    finally:
        for server in servers:
            server.send_signal(signal.SIGINT)
        for server in servers:
            try:
                server.wait(timeout=20)
            except subprocess.TimeoutExpired:
                server.kill()
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)
    lat = sorted(x for r in results for x in r["latencies"])
    moves = sum(r["moves"] for r in results)
    errors = sum(r["errors"] for r in results)
    elapsed = max(r["elapsed"] for r in results)
    figures = {
        "clients": pairs * 2,
        "servers": len(urls),
        "reference": args.reference,
        "accounts": args.accounts,
        "claims": args.claims,
        "limits": (args.limits or args.accounts) and not args.reference,
        "game": args.game,
        "boards": args.boards,
        "think_ms": args.think,
        "duration_s": round(elapsed, 2),
        "moves": moves,
        "moves_per_s": round(moves / elapsed, 1),
        "p50_ms": round(_percentile(lat, 0.50) * 1000, 2),
        "p90_ms": round(_percentile(lat, 0.90) * 1000, 2),
        "p99_ms": round(_percentile(lat, 0.99) * 1000, 2),
        "max_ms": round((lat[-1] if lat else float("nan")) * 1000, 2),
        "errors": errors,
        "games_finished": sum(r["games"] for r in results),
        # The server processes' own CPU (not their bot or analysis workers') in the window:
        # cores busy, and milliseconds per acknowledged move (comparable on a busy machine).
        "server_cores": round(cpu_used / elapsed, 2) if servers else None,
        "server_cpu_ms_per_move": round(cpu_used * 1000 / moves, 3) if servers and moves else None,
        "load_average": os.getloadavg()[0],
    }
    print(
        f"{figures['clients']} {'signed-in ' if figures['accounts'] else ''}clients, "
        f"{figures['game']}"
        f"{' with SVG boards' if args.boards else ''}, think {args.think:g} ms, "
        f"{figures['duration_s']} s: "
        f"{figures['moves_per_s']} moves/s; ack latency p50 {figures['p50_ms']} ms, "
        f"p90 {figures['p90_ms']} ms, p99 {figures['p99_ms']} ms, max {figures['max_ms']} ms; "
        f"errors {errors}; games finished {figures['games_finished']}"
        + (
            f"; server CPU {figures['server_cores']} cores, "
            f"{figures['server_cpu_ms_per_move']} ms per move"
            if servers
            else ""
        )
    )
    samples = [s for r in results for s in r["error_samples"]][:MAX_ERRORS_SHOWN]
    for s in samples:
        print("  error:", s)
    if args.json:
        print(json.dumps(figures))


if __name__ == "__main__":
    main()
