"""A rolling restart under load: three ``serve`` processes on PostgreSQL and Redis, 200
WebSocket clients playing (60 games between two people, 80 people against bots, each
moving 0.3-0.8 s after its turn comes), and each process in turn gets SIGTERM and is
started again on its port.

Afterwards: every acknowledged move is in the database at its ply; no client saw an
error or a move left without an answer (:data:`LOST`), no process logged an error, and every
socket that closed closed with 1012 (service restart); every client was playing again
(its position received from another process); every game replays from the database,
so no bot moved twice for one ply (the turns alternate).

How soon a client plays again is a speed figure, not a rule: the gaps (p50, p90, max)
are printed and kept in docs/benchmarks.md, against the target of 2 s. The test only
bounds them by :data:`STUCK`, which catches a client left without a game, not a slow
machine (the 2 s bound asserted here failed on a busy or slow day while nothing was
wrong: 2.0-3.0 s at most, with a p90 of 0.9-1.6 s). So is how soon a move is answered:
a move is lost when no answer comes in :data:`LOST` seconds. A 10 s bound failed in CI
while the machine was saturated (the other test worker busy, a new server process taking
10-20 s to start): seven moves went unanswered for 10 s."""

from __future__ import annotations

import random
import secrets
import signal
import statistics
import threading
import time
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest
from arena_helpers import REDIS_URL, Player, ServerProcess, free_port
from sqlalchemy import text
from websockets.exceptions import ConnectionClosed

from services import require_redis
from sudoku_arena.server.db.engine import Storage
from sudoku_arena.server.db.games import load_game
from sudoku_arena.server.live import LiveGame

# Processes of their own: these tests run one after another on one test worker
# (pytest -n 2 --dist loadgroup), never two fleets at once on a 2-core machine.
pytestmark = pytest.mark.xdist_group("processes")

PEOPLE_GAMES = 60  # two clients each
BOT_GAMES = 80  # one client each
STUCK = 10.0  # seconds from a socket closing to playing again: more is a hang
LOST = 30.0  # seconds without an answer to a move: a lost move, not a slow one
START = time.monotonic()  # the clock of the times in error messages


@dataclass
class Seat:
    game: str
    seat: int
    token: str
    acked: list[tuple[str, int, str]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    closes: list[int] = field(default_factory=list)
    gaps: list[float] = field(default_factory=list)
    answers: list[float] = field(default_factory=list)  # seconds from a move to its answer
    finished: bool = False


class Fleet:
    def __init__(self, pg_url: str) -> None:
        self.pg_url = pg_url
        self.extra = (
            "--redis-url",
            REDIS_URL,
            "--channel",
            "arena-rolling-" + secrets.token_hex(4),
            "--bot-workers",
            "0",
            "--bot-lease",
            "3",
            "--no-rate-limits",
            "--log-level",
            "warning",
        )
        self.ports = [free_port() for _ in range(3)]
        self.procs = [ServerProcess(pg_url, *self.extra, port=p) for p in self.ports]
        self.logs: list[ServerProcess] = []  # the processes stopped, whose logs we read

    def restart(self, i: int) -> None:
        old = self.procs[i]
        t0 = time.monotonic()
        old.proc.send_signal(signal.SIGTERM)
        old.proc.wait(timeout=30)
        t1 = time.monotonic()
        self.logs.append(old)
        self.procs[i] = ServerProcess(self.pg_url, *self.extra, port=self.ports[i])
        print(
            f"  stopped in {t1 - t0:.1f} s, the new one answered in {time.monotonic() - t1:.1f} s"
        )

    def stop(self) -> None:
        for p in self.procs:
            p.stop()


def play(seat: Seat, ports: list[int], stop: threading.Event, seed: int) -> None:
    """One client: plays its seat until the game is over, reconnecting when closed.

    Whatever goes wrong is recorded in ``seat.errors`` (a thread's exception would
    otherwise only be a warning, and the test would pass without that client's moves)."""
    try:
        _play(seat, ports, stop, seed)
    except Exception as exc:
        seat.errors.append(f"{type(exc).__name__}: {exc}")


def _play(seat: Seat, ports: list[int], stop: threading.Event, seed: int) -> None:
    rng = random.Random(seed)

    def connect() -> Player:
        deadline = time.monotonic() + 10
        while True:
            for port in rng.sample(ports, len(ports)):
                try:
                    # Positions without the SVG drawings: the protocol is the same, and the
                    # test's 200 clients in one process parse less.
                    return Player(f"ws://127.0.0.1:{port}", seat.game, [seat.token], svg=False)
                except (OSError, ConnectionClosed, TimeoutError):
                    continue
            if time.monotonic() > deadline:
                raise AssertionError(f"{seat.game}: no process took the connection")
            time.sleep(0.05)

    player = connect()
    msg_id = 0
    while not stop.is_set():
        try:
            st = player.state[seat.seat]
            if st["status"] == "finished":
                seat.finished = True
                break
            if seat.seat in st["view"]["to_move"] and st["view"]["legal"]:
                time.sleep(rng.uniform(0.3, 0.8))  # a quick person's pace
                action = rng.choice(st["view"]["legal"])
                msg_id += 1
                sent = time.monotonic()
                try:
                    answer = player.act(action, st["ply"], msg_id=msg_id, timeout=LOST)
                except TimeoutError:  # the socket is open, but the move got no answer
                    seat.errors.append(
                        f"{player.url}: no answer in {LOST:.0f} s to {action} at ply "
                        f"{st['ply']} of {seat.game} (sent at {sent - START:.1f} s)"
                    )
                    break
                seat.answers.append(time.monotonic() - sent)
                if answer["type"] == "ack":
                    seat.acked.append((seat.game, answer["ply"], action))
                else:
                    seat.errors.append(str(answer.get("code")))
            else:
                try:
                    msg = player.recv(timeout=0.5)
                except TimeoutError:
                    continue
                if msg["type"] == "error":
                    seat.errors.append(str(msg.get("code")))
        except ConnectionClosed as exc:
            closed = time.monotonic()
            seat.closes.append(exc.rcvd.code if exc.rcvd is not None else 1006)
            player.close()
            player = connect()  # returns once the position arrived: playing again
            seat.gaps.append(time.monotonic() - closed)
    player.close()


def create(url: str, seats: list[dict[str, Any]]) -> dict[str, Any]:
    resp = httpx.post(
        url + "/api/matches", json={"game": "tic-tac-sudoku", "seats": seats}, timeout=30
    )
    assert resp.status_code == 201, resp.text
    made: dict[str, Any] = resp.json()
    return made


def test_rolling_restart_under_load_drops_nothing(pg_url: str) -> None:
    require_redis()
    fleet = Fleet(pg_url)
    stop = threading.Event()
    threads: list[threading.Thread] = []
    seats: list[Seat] = []
    try:
        people = [{"kind": "human"}, {"kind": "human"}]
        against_bot = [{"kind": "human"}, {"kind": "bot", "agent": "random"}]
        for n in range(PEOPLE_GAMES + BOT_GAMES):
            made = create(fleet.procs[n % 3].url, people if n < PEOPLE_GAMES else against_bot)
            for s in made["seats"]:
                if s["token"] is not None:
                    seats.append(Seat(made["id"], s["seat"], s["token"]))
        assert len(seats) == 200
        for k, seat in enumerate(seats):
            t = threading.Thread(target=play, args=(seat, fleet.ports, stop, k), daemon=True)
            t.start()
            threads.append(t)
        time.sleep(3)  # everybody playing
        for i in range(3):
            print(f"restarting {fleet.procs[i].url} at {time.monotonic() - START:.1f} s")
            fleet.restart(i)
            time.sleep(2.5)  # the fleet settles (the new process warms up)
        time.sleep(2)  # play on after the last restart
        stop.set()
        for t in threads:
            t.join(timeout=30)
        assert not any(t.is_alive() for t in threads)

        gaps = [g for s in seats for g in s.gaps]
        answers = [a for s in seats for a in s.answers]
        closes = [c for s in seats for c in s.closes]
        acked = [a for s in seats for a in s.acked]
        print(
            f"\nrolling restart: {len(acked)} moves acknowledged, {len(closes)} sockets "
            f"closed and reconnected ({len({s.token for s in seats if s.closes})} clients), "
            f"gap p50 {statistics.median(gaps) * 1000:.0f} ms, p90 "
            f"{statistics.quantiles(gaps, n=10)[-1] * 1000:.0f} ms, max {max(gaps) * 1000:.0f} ms; "
            f"answers to moves p50 {statistics.median(answers) * 1000:.0f} ms, p90 "
            f"{statistics.quantiles(answers, n=10)[-1] * 1000:.0f} ms, "
            f"max {max(answers) * 1000:.0f} ms"
        )
        assert len({s.token for s in seats if s.closes}) >= 100  # the restarts hit most
        assert set(closes) == {1012}, closes
        errors = [e for s in seats for e in s.errors]
        if errors:
            for proc in fleet.procs:
                print(f"--- {proc.url} log ---\n{proc.read_log()[-3000:]}")
        assert errors == []
        # Nor did any process log an error (a bot that failed, say), before or after
        # its restart: the log lines are JSON, one a line.
        logged = [ln for p in fleet.logs + fleet.procs for ln in p.read_log().splitlines()]
        assert [ln for ln in logged if '"level": "error"' in ln] == []
        assert max(gaps) < STUCK
        storage = Storage(pg_url)
        with storage.engine.connect() as conn:
            stored = {
                (r.game_id, r.ply): r.action
                for r in conn.execute(text("SELECT game_id, ply, action FROM arena_actions"))
            }
        for gid, ply, action in acked:
            assert stored[(gid, ply)] == action, (gid, ply)
        for gid in {s.game for s in seats}:
            row = load_game(storage.engine, gid)
            assert row is not None
            lg = LiveGame(row)  # replays: legal, in turn, one action per ply
            assert lg.ply == len(row.actions)
        storage.engine.dispose()
    finally:
        stop.set()
        fleet.stop()
