"""Bots under load: N people each playing a bot at once, on three ways to run the bots.

For each game (Tic-Tac-Sudoku and Citadel, bot level ``normal``) and each N, starts a
fresh fleet on PostgreSQL, creates N person-against-bot games and connects N WebSocket
clients that play a random legal action as soon as it is their turn. Measured over
``--duration`` seconds:

- bot replies/s: the bots' moves that reached the people;
- reply p50/p95: from a person's acknowledgement to the bot's answer arriving (the
  deliberate ``--bot-delay``, 0.4 s as served, included);
- ack p99: from a person's action sent to its acknowledgement (the server's own pace).

Set-ups: ``serve --bot-workers 1``; ``serve --bot-workers 2``; ``serve
--bots-elsewhere`` beside one ``sudoku-arena bots --bot-workers 2`` (on Redis).

    python benchmarks/bot_load.py                           # N = 20, 80, 200; long
    python benchmarks/bot_load.py --n 20,80 --duration 15 --games tic-tac-sudoku
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import socket
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field

import httpx
from sqlalchemy import create_engine, text
from websockets.asyncio.client import connect

PG = os.environ.get("ARENA_TEST_PG", "postgresql://postgres@127.0.0.1:5432/test")
REDIS = os.environ.get("ARENA_TEST_REDIS", "redis://127.0.0.1:6379/0")
SETUPS = {
    "serve-1w": (["--bot-workers", "1"], None),  # one serve, one bot worker
    "serve-2w": (["--bot-workers", "2"], None),  # one serve, two bot workers
    "serve+bots-2w": (["--bot-workers", "0", "--bots-elsewhere"], 2),  # bots: 2 workers
}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "sudoku_arena.cli.main", *args]


def wait_ready(url: str, proc: subprocess.Popen[bytes]) -> None:
    deadline = time.time() + 60
    while time.time() < deadline:
        try:
            if httpx.get(url + "/readyz", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        if proc.poll() is not None:
            break
        time.sleep(0.2)
    raise RuntimeError(f"{url} did not become ready")


class Fleet:
    """A fresh schema on PostgreSQL, one ``serve`` and maybe one ``bots`` process."""

    def __init__(self, serve_args: list[str], bots_workers: int | None, delay: float) -> None:
        self.schema = "bench_" + secrets.token_hex(5)
        base = PG.replace("postgresql://", "postgresql+psycopg://", 1)
        self.admin = create_engine(base)
        with self.admin.begin() as conn:
            conn.execute(text(f"CREATE SCHEMA {self.schema}"))
        url = f"{PG}?options=-csearch_path%3D{self.schema}"
        channel = ["--redis-url", REDIS, "--channel", self.schema]
        common = ["--database-url", url, "--bot-delay", str(delay), "--log-level", "warning"]
        port = free_port()
        self.url = f"http://127.0.0.1:{port}"
        extra = channel if bots_workers is not None else []
        self.procs = [
            subprocess.Popen(
                cli("serve", "--port", str(port), "--no-rate-limits", *common, *extra, *serve_args),
                stdout=subprocess.DEVNULL,
            )
        ]
        wait_ready(self.url, self.procs[0])
        if bots_workers is not None:
            bport = free_port()
            self.procs.append(
                subprocess.Popen(
                    [
                        *cli("bots", "--metrics-port", str(bport)),
                        *["--bot-workers", str(bots_workers), *common, *channel],
                    ],
                    stdout=subprocess.DEVNULL,
                )
            )
            wait_ready(f"http://127.0.0.1:{bport}", self.procs[1])

    def close(self) -> None:
        for p in self.procs:
            p.terminate()
        for p in self.procs:
            try:
                p.wait(timeout=30)
            except subprocess.TimeoutExpired:
                p.kill()
        with self.admin.begin() as conn:
            conn.execute(text(f"DROP SCHEMA {self.schema} CASCADE"))
        self.admin.dispose()


@dataclass
class Figures:
    acks: list[float] = field(default_factory=list)
    replies: list[float] = field(default_factory=list)
    errors: int = 0


async def run_clients(url: str, game: str, n: int, warmup: float, duration: float) -> Figures:
    fig = Figures()
    start = time.monotonic()
    stop = start + warmup + duration
    await asyncio.gather(*(play(url, game, stop, fig, start + warmup) for _ in range(n)))
    return fig


async def play(url: str, game: str, stop: float, fig: Figures, measure_from: float) -> None:
    """One person: plays bot games one after another until ``stop``."""
    sent_at: list[float | None] = [None]
    async with httpx.AsyncClient(base_url=url, timeout=60) as http:
        while time.monotonic() < stop:
            made = (
                await http.post(
                    "/api/matches",
                    json={
                        "game": game,
                        "seats": [{"kind": "human"}, {"kind": "bot", "agent": "normal"}],
                    },
                )
            ).json()
            token = made["seats"][0]["token"]
            ws_url = url.replace("http://", "ws://") + f"/ws/{made['id']}"
            async with connect(ws_url, max_size=2**22) as ws:
                await ws.send(json.dumps({"type": "hello", "tokens": [token], "svg": False}))
                acked_at: float | None = None
                acked_next = 0
                msg_id = 0
                while time.monotonic() < stop:
                    try:
                        raw = await asyncio.wait_for(ws.recv(), stop - time.monotonic())
                    except TimeoutError:
                        return
                    msg = json.loads(str(raw).partition("\n")[0])
                    if msg["type"] == "error":
                        fig.errors += 1
                        continue
                    if msg["type"] != "state" or msg.get("seat") != 0:
                        continue
                    now = time.monotonic()
                    ack = msg.get("ack")
                    pending = sent_at[0]
                    if ack is not None and ack.get("id") == msg_id and pending is not None:
                        if now > measure_from:
                            fig.acks.append(now - pending)
                        acked_at, sent_at[0] = now, None
                        acked_next = int(ack.get("next_ply", msg["ply"]))
                    if msg["status"] == "finished":
                        break
                    view = msg["view"]
                    mine = 0 in view.get("to_move", []) and view.get("legal")
                    if mine and sent_at[0] is None:
                        # The bot answered (not: the person's own next step, as in
                        # Citadel's turns of several actions).
                        answered = acked_at is not None and msg["ply"] > acked_next
                        if answered and acked_at is not None and now > measure_from:
                            fig.replies.append(now - acked_at)
                        acked_at = None
                        msg_id += 1
                        sent_at[0] = time.monotonic()
                        action = view["legal"][msg_id * 7919 % len(view["legal"])]
                        await ws.send(
                            json.dumps(
                                {"type": "act", "ply": msg["ply"], "action": action, "id": msg_id}
                            )
                        )


def pct(xs: list[float], q: float) -> float:
    if not xs:
        return float("nan")
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] * 1000


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--n", default="20,80,200", help="concurrent games, comma-separated")
    ap.add_argument("--games", default="tic-tac-sudoku,citadel")
    ap.add_argument("--setups", default=",".join(SETUPS), help="which set-ups (names)")
    ap.add_argument("--duration", type=float, default=30.0, help="seconds measured")
    ap.add_argument("--warmup", type=float, default=5.0, help="seconds before measuring")
    ap.add_argument("--bot-delay", type=float, default=0.4)
    ap.add_argument("--json", action="store_true", help="also print each row as JSON")
    args = ap.parse_args()
    print(
        f"{'game':<15} {'N':>4} {'set-up':<14} {'replies/s':>9} {'reply p50':>9} "
        f"{'p95 ms':>7} {'ack p99':>8} {'errors':>6}"
    )
    for game in args.games.split(","):
        for n in [int(x) for x in args.n.split(",")]:
            for name in args.setups.split(","):
                serve_args, bots = SETUPS[name]
                fleet = Fleet(serve_args, bots, args.bot_delay)
                try:
                    fig = asyncio.run(run_clients(fleet.url, game, n, args.warmup, args.duration))
                finally:
                    fleet.close()
                row = {
                    "game": game,
                    "n": n,
                    "setup": name,
                    "replies_per_s": len(fig.replies) / args.duration,
                    "reply_p50_ms": pct(fig.replies, 0.5),
                    "reply_p95_ms": pct(fig.replies, 0.95),
                    "ack_p99_ms": pct(fig.acks, 0.99),
                    "ack_median_ms": statistics.median(fig.acks) * 1000 if fig.acks else None,
                    "errors": fig.errors,
                }
                print(
                    f"{game:<15} {n:>4} {name:<14} {row['replies_per_s']:>9.1f} "
                    f"{row['reply_p50_ms']:>9.0f} {row['reply_p95_ms']:>7.0f} "
                    f"{row['ack_p99_ms']:>8.1f} {fig.errors:>6}",
                    flush=True,
                )
                if args.json:
                    print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
