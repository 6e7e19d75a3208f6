#!/usr/bin/env python3
"""Load test: N concurrent WebSocket clients playing random games against the server.

Clients play in pairs: one of each pair creates a game (two people, invite links) over
the JSON API, both connect with their seat's token, and each plays a random legal
action whenever it is its turn, over the same protocol as the browser (every position
arrives with its SVG board). When a game ends the pair starts another. The latency of
a move is the time from sending it to receiving the server's acknowledgement, which the
server sends only after the move is committed to storage.

    python scripts/loadtest.py --serve --clients 500 --duration 20
    python scripts/loadtest.py --url http://127.0.0.1:8000 --clients 100

``--serve`` starts ``sudoku-arena serve`` on a fresh SQLite file (every move durably
committed: WAL with synchronous=FULL) and stops it afterwards. Clients run in
``--procs`` processes. Prints moves/s, p50/p90/p99/max acknowledgement latency and
errors; ``--json`` prints the figures as JSON as well.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from typing import Any

MAX_ERRORS_SHOWN = 5


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def _create(http: Any, game: str) -> dict[str, Any]:
    body = {"game": game, "seats": [{"kind": "human"}, {"kind": "human"}], "mode": "invite"}
    resp = await http.post("/api/matches", json=body)
    resp.raise_for_status()
    made: dict[str, Any] = resp.json()
    return made


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


async def _seat_loop(
    url: str,
    game_id: str,
    token: str,
    rng: random.Random,
    stats: Stats,
    stop: asyncio.Event,
    boards: bool,
) -> None:
    """Play one seat until the game ends or the test stops."""
    from websockets.asyncio.client import connect

    ws_url = url.replace("http", "ws", 1) + f"/ws/{game_id}"
    async with connect(ws_url, compression=None, max_size=2**22, open_timeout=60) as ws:
        await ws.send(json.dumps({"type": "hello", "tokens": [token], "svg": boards}))
        seat: int | None = None
        sent_at: float | None = None
        sent_ply = -1
        next_id = 0
        while not stop.is_set():
            try:
                data = await asyncio.wait_for(ws.recv(), timeout=30)
            except TimeoutError:
                stats.error("no message for 30 s")
                return
            text = data if isinstance(data, str) else data.decode()
            head = json.loads(text.partition("\n")[0])
            kind = head.get("type")
            if kind == "welcome":
                seat = head["seats"][0] if head["seats"] else None
                continue
            if kind == "ack":
                if sent_at is not None and stats.measuring:
                    stats.latencies.append(time.perf_counter() - sent_at)
                    stats.moves += 1
                sent_at = None
                continue
            if kind == "error":
                stats.error(f"{head.get('code')}: {head.get('message')}")
                sent_at = None
                continue
            if kind != "state":
                continue
            view = head["view"]
            if head["status"] == "finished" or view.get("outcome"):
                return
            ply = head["ply"]
            if seat in view["to_move"] and view["legal"] and sent_at is None and ply > sent_ply:
                action = rng.choice(view["legal"])
                sent_ply = ply
                sent_at = time.perf_counter()
                next_id += 1
                await ws.send(
                    json.dumps(
                        {"type": "act", "seat": seat, "ply": ply, "action": action, "id": next_id}
                    )
                )


async def _pair(
    url: str,
    game: str,
    rng: random.Random,
    stats: Stats,
    stop: asyncio.Event,
    http: Any,
    boards: bool,
) -> None:
    while not stop.is_set():
        try:
            made = await _create(http, game)
            tokens = [s["token"] for s in made["seats"]]
            await asyncio.gather(
                *(_seat_loop(url, made["id"], t, rng, stats, stop, boards) for t in tokens)
            )
            stats.games += 1
        except Exception as exc:
            stats.error(f"{type(exc).__name__}: {exc}")
            await asyncio.sleep(0.5)


async def _run_clients(
    url: str, game: str, pairs: int, warmup: float, duration: float, seed: int, boards: bool
) -> dict[str, Any]:
    import httpx

    stats = Stats()
    stop = asyncio.Event()
    limits = httpx.Limits(max_connections=64)
    async with httpx.AsyncClient(base_url=url, timeout=60, limits=limits) as http:
        tasks = []
        for i in range(pairs):
            rng = random.Random(seed * 100_003 + i)
            tasks.append(asyncio.create_task(_pair(url, game, rng, stats, stop, http, boards)))
            if i % 25 == 24:
                await asyncio.sleep(0.05)  # do not open every connection in one burst
        await asyncio.sleep(warmup)
        stats.measuring = True
        t0 = time.perf_counter()
        await asyncio.sleep(duration)
        stats.measuring = False
        elapsed = time.perf_counter() - t0
        stop.set()
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    return {
        "latencies": stats.latencies,
        "moves": stats.moves,
        "errors": stats.errors,
        "error_samples": stats.error_samples,
        "games": stats.games,
        "elapsed": elapsed,
    }


def _worker(args: tuple[str, str, int, float, float, int, bool], out: Any) -> None:
    out.put(asyncio.run(_run_clients(*args)))


def _percentile(sorted_values: list[float], q: float) -> float:
    if not sorted_values:
        return float("nan")
    k = min(len(sorted_values) - 1, max(0, round(q * (len(sorted_values) - 1))))
    return sorted_values[k]


def _start_server(port: int, db_dir: str) -> subprocess.Popen[bytes]:
    exe = shutil.which("sudoku-arena") or os.path.join(
        os.path.dirname(sys.executable), "sudoku-arena"
    )
    cmd = [
        exe,
        "serve",
        "--port",
        str(port),
        "--database-url",
        f"sqlite:///{db_dir}/load.sqlite3",
        "--bot-workers",
        "0",
        "--log-level",
        "warning",
    ]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
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
    ap.add_argument("--url", default="http://127.0.0.1:8000", help="server base URL")
    ap.add_argument("--serve", action="store_true", help="start a server on a fresh SQLite file")
    ap.add_argument("--clients", type=int, default=100, help="WebSocket clients (even)")
    ap.add_argument("--procs", type=int, default=2, help="client processes")
    ap.add_argument("--game", default="tic-tac-sudoku", help="game id")
    ap.add_argument("--warmup", type=float, default=5.0, help="seconds before measuring")
    ap.add_argument("--duration", type=float, default=20.0, help="seconds measured")
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
    server = None
    tmp = None
    url = args.url.rstrip("/")
    if args.serve:
        tmp = tempfile.mkdtemp(prefix="arena-load-")
        port = _free_port()
        server = _start_server(port, tmp)
        url = f"http://127.0.0.1:{port}"
    try:
        pairs = args.clients // 2
        procs = max(1, min(args.procs, pairs))
        ctx = multiprocessing.get_context("spawn")
        out = ctx.Queue()
        workers = []
        for k in range(procs):
            share = pairs // procs + (1 if k < pairs % procs else 0)
            a = (url, args.game, share, args.warmup, args.duration, args.seed * 31 + k, args.boards)
            p = ctx.Process(target=_worker, args=(a, out))
            p.start()
            workers.append(p)
        results = [out.get(timeout=args.warmup + args.duration + 120) for _ in workers]
        for p in workers:
            p.join(timeout=30)
    finally:
        if server is not None:
            server.send_signal(signal.SIGINT)
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
        "game": args.game,
        "boards": args.boards,
        "duration_s": round(elapsed, 2),
        "moves": moves,
        "moves_per_s": round(moves / elapsed, 1),
        "p50_ms": round(_percentile(lat, 0.50) * 1000, 2),
        "p90_ms": round(_percentile(lat, 0.90) * 1000, 2),
        "p99_ms": round(_percentile(lat, 0.99) * 1000, 2),
        "max_ms": round((lat[-1] if lat else float("nan")) * 1000, 2),
        "errors": errors,
        "games_finished": sum(r["games"] for r in results),
        "load_average": os.getloadavg()[0],
    }
    print(
        f"{figures['clients']} clients, {figures['game']}"
        f"{' with SVG boards' if args.boards else ''}, {figures['duration_s']} s: "
        f"{figures['moves_per_s']} moves/s; ack latency p50 {figures['p50_ms']} ms, "
        f"p90 {figures['p90_ms']} ms, p99 {figures['p99_ms']} ms, max {figures['max_ms']} ms; "
        f"errors {errors}; games finished {figures['games_finished']}"
    )
    samples = [s for r in results for s in r["error_samples"]][:MAX_ERRORS_SHOWN]
    for s in samples:
        print("  error:", s)
    if args.json:
        print(json.dumps(figures))


if __name__ == "__main__":
    main()
