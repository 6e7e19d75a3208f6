"""A fleet: three ``serve`` processes on one PostgreSQL and one Redis, players connected
to any of them, one process killed with SIGKILL mid-run and started again.

20 games are played to the end: 6 SuDokuHex games between bots, 6 SuDokuHex games of a
person against a bot, 8 Tic-Tac-Sudoku invites between two people (more games took three
minutes of a 2-core machine and found nothing these do not). Afterwards: every
acknowledged action is in the database exactly once, at its ply; every game replays from
the database; a rematch asked on two processes at once exists exactly once; and every
player's last position is the one the database gives."""

from __future__ import annotations

import contextlib
import random
import secrets
import threading
import time
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest
from arena_helpers import REDIS_URL, Player, ServerProcess
from sqlalchemy import create_engine, text

from services import require_redis
from sudoku_arena.server.db.engine import Storage, normalise_url
from sudoku_arena.server.db.games import load_game
from sudoku_arena.server.live import LiveGame

# Processes of their own: these tests run one after another on one test worker
# (pytest -n 2 --dist loadgroup), never two fleets at once on a 2-core machine.
pytestmark = pytest.mark.xdist_group("processes")

TIMEOUT = 20.0


@dataclass
class Seat:
    game: str
    seat: int
    token: str
    server: int
    player: Player | None = None


@dataclass
class Game:
    id: str
    kind: str  # "bots", "human-bot", "invite"
    seats: list[Seat] = field(default_factory=list)
    done: bool = False


class Fleet:
    def __init__(self, pg_url: str, channel: str) -> None:
        self.extra = (
            "--redis-url",
            REDIS_URL,
            "--channel",
            channel,
            "--bot-workers",
            "0",
            "--bot-lease",
            "3",
            # Every player here connects from 127.0.0.1, reconnecting after the kill:
            # limits on, set for the test's load (test_fleet_limits checks them).
            "--limit",
            "create=600/minute",
            "--limit",
            "socket=2000/minute",
        )
        self.pg_url = pg_url
        self.procs: list[ServerProcess | None] = [
            ServerProcess(pg_url, *self.extra) for _ in range(3)
        ]

    def alive(self, rng: random.Random) -> int:
        return rng.choice([i for i, p in enumerate(self.procs) if p is not None])

    def proc(self, i: int) -> ServerProcess:
        p = self.procs[i]
        assert p is not None
        return p

    def stop(self) -> None:
        for p in self.procs:
            if p is not None:
                p.stop()


def _drain(player: Player) -> None:
    with contextlib.suppress(TimeoutError):
        while True:
            player.recv(timeout=0.003)


def _connect(fleet: Fleet, seat: Seat, rng: random.Random) -> Player:
    for _ in range(20):
        seat.server = fleet.alive(rng)
        try:
            seat.player = Player(fleet.proc(seat.server).ws_url, seat.game, [seat.token])
            return seat.player
        except Exception:
            time.sleep(0.2)
    raise AssertionError(f"cannot reconnect to game {seat.game}")


def _position(fleet: Fleet, seat: Seat, rng: random.Random) -> dict[str, Any]:
    """The seat's latest position, reconnecting if its process died."""
    for _ in range(5):
        try:
            player = seat.player or _connect(fleet, seat, rng)
            _drain(player)
            return player.state[seat.seat]
        except Exception:
            seat.player = None
    raise AssertionError("no position")


def _step(fleet: Fleet, g: Game, rng: random.Random, acked: list[tuple[str, int, str]]) -> None:
    """Let the person to move in ``g`` play one action (or note that ``g`` is over)."""
    for seat in g.seats:
        st = _position(fleet, seat, rng)
        if st["status"] == "finished":
            g.done = True
            return
        if seat.seat in st["view"]["to_move"] and st["view"]["legal"]:
            action = rng.choice(st["view"]["legal"])
            try:
                assert seat.player is not None
                answer = seat.player.act(action, st["ply"], msg_id=st["ply"])
            except Exception:
                seat.player = None  # its process died: unacknowledged, reconnect later
                return
            if answer["type"] == "ack":
                acked.append((g.id, answer["ply"], action))
            return
    time.sleep(0.01)  # a bot or another process is still on it


def _describe(fleet: Fleet, stuck: list[Game], rng: random.Random) -> str:
    out = []
    for g in stuck[:5]:
        info = httpx.get(fleet.proc(fleet.alive(rng)).url + f"/api/matches/{g.id}").json()
        out.append(f"{g.kind} {g.id} ply {info.get('ply')} {info.get('status')}")
    return "; ".join(out)


def test_a_fleet_of_three_processes_loses_nothing_when_one_is_killed(pg_url: str) -> None:
    require_redis()
    rng = random.Random(2026)
    fleet = Fleet(pg_url, "arena-fleet-" + secrets.token_hex(4))
    try:
        games: list[Game] = []
        plan = ["bots"] * 6 + ["human-bot"] * 6 + ["invite"] * 8
        for kind in plan:
            seats: list[dict[str, Any]] = {
                "bots": [{"kind": "bot", "agent": "greedy"}, {"kind": "bot", "agent": "random"}],
                "human-bot": [{"kind": "human"}, {"kind": "bot", "agent": "random"}],
                "invite": [{"kind": "human"}, {"kind": "human"}],
            }[kind]
            game = "tic-tac-sudoku" if kind == "invite" else "sudokuhex"
            server = fleet.proc(fleet.alive(rng))
            made = httpx.post(
                server.url + "/api/matches", json={"game": game, "seats": seats}, timeout=TIMEOUT
            ).json()
            g = Game(made["id"], kind)
            for s in made["seats"]:
                if s["token"] is not None:
                    g.seats.append(Seat(g.id, s["seat"], s["token"], fleet.alive(rng)))
            games.append(g)
        acked: list[tuple[str, int, str]] = []
        killed = False
        people = [g for g in games if g.seats]
        deadline = time.time() + 150
        while any(not g.done for g in people):
            if time.time() > deadline:
                stuck = [g for g in people if not g.done]
                raise AssertionError(f"games did not end: {_describe(fleet, stuck, rng)}")
            g = rng.choice([g for g in people if not g.done])
            _step(fleet, g, rng, acked)
            if not killed and len(acked) > 60:
                fleet.proc(1).kill()  # SIGKILL mid-run: no shutdown code runs
                fleet.procs[1] = None
                killed = True
                fleet.procs[1] = ServerProcess(pg_url, *fleet.extra)  # and back
        assert killed
        # Bot games finish on whichever process holds their lease (taken over from the
        # killed one when its lease expired).
        for g in games:
            while True:
                assert time.time() < deadline, f"game {g.id} ({g.kind}) did not end"
                info = httpx.get(
                    fleet.proc(fleet.alive(rng)).url + f"/api/matches/{g.id}", timeout=TIMEOUT
                ).json()
                if info["status"] == "finished":
                    break
                time.sleep(0.2)

        storage = Storage(pg_url)
        engine = storage.engine
        # Every acknowledged action is stored exactly once, at its ply.
        with engine.connect() as conn:
            rows = {
                (r.game_id, r.ply): r.action
                for r in conn.execute(text("SELECT game_id, ply, action FROM arena_actions"))
            }
        assert len(acked) > 120
        for gid, ply, action in acked:
            assert rows[(gid, ply)] == action
        # Every game replays from the database and is over.
        for g in games:
            row = load_game(storage.engine, g.id)
            assert row is not None and row.status == "finished"
            lg = LiveGame(row)
            assert lg.over and lg.ply == len(row.actions)
        # A rematch asked on two processes at once exists exactly once.
        invites = [g for g in games if g.kind == "invite"]
        for g in invites:
            urls = [fleet.proc(i).url for i in range(3)]
            answers: list[str] = []

            def ask(url: str, token: str, gid: str = g.id, answers: list[str] = answers) -> None:
                r = httpx.post(f"{url}/api/matches/{gid}/rematch", json={"token": token})
                assert r.status_code == 200, r.text
                answers.append(r.json()["id"])

            threads = [
                threading.Thread(target=ask, args=(urls[k], g.seats[k].token)) for k in (0, 1)
            ]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            assert len(set(answers)) == 1
        with engine.connect() as conn:
            counts = dict(
                conn.execute(
                    text(
                        "SELECT rematch_of, COUNT(*) FROM arena_games "
                        "WHERE rematch_of IS NOT NULL GROUP BY rematch_of"
                    )
                ).all()
            )
        assert counts == {g.id: 1 for g in invites}
        # Every player's last position is the database's.
        for g in people:
            for seat in g.seats:
                st = _position(fleet, seat, rng)
                server = fleet.proc(fleet.alive(rng))
                fresh = httpx.get(
                    f"{server.url}/api/matches/{g.id}/state",
                    headers={"authorization": f"Bearer {seat.token}"},
                    timeout=TIMEOUT,
                ).json()
                assert st["ply"] == fresh["ply"] == len(load_game(storage.engine, g.id).actions)
                assert st["view"] == fresh["view"]
        storage.close()
        dispose = create_engine(normalise_url(pg_url))
        dispose.dispose()
    finally:
        for g in games:
            for seat in g.seats:
                if seat.player is not None:
                    seat.player.close()
        fleet.stop()
