"""Kill the server process (SIGKILL) in the middle of games, start it again: every
acknowledged move is still there and play goes on."""

from __future__ import annotations

import random
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from arena_helpers import Player, ServerProcess, create
from websockets.exceptions import ConnectionClosed

from procs import HAS_PROC, alive, children

# Processes of their own: these tests run one after another on one test worker
# (pytest -n 2 --dist loadgroup), never two fleets at once on a 2-core machine.
pytestmark = pytest.mark.xdist_group("processes")


def _play_until_killed(
    ws_url: str, made: dict[str, Any], acked: list[tuple[int, str]], stop: threading.Event
) -> None:
    tokens = [s["token"] for s in made["seats"] if s["token"]]
    rng = random.Random(made["id"])
    try:
        p = Player(ws_url, made["id"], tokens)
        while not stop.is_set():
            st = p.state[p.seats[0]]
            if st["status"] == "finished":
                return
            mine = [s for s in st["view"]["to_move"] if s in p.seats]
            if not mine:
                p.wait_ply(st["ply"] + 1, timeout=10)
                continue
            seat = mine[0]
            view = p.wait_ply(st["ply"], seat=seat)["view"]
            action = rng.choice(view["legal"])
            ack = p.act(action, st["ply"], seat=seat, msg_id=st["ply"])
            if ack["type"] == "ack":
                acked.append((st["ply"], action))
            for s in p.seats:
                p.wait_ply(ack.get("next_ply", st["ply"]), seat=s)
    except (ConnectionClosed, OSError, TimeoutError):
        return


def test_sigkill_mid_game_loses_no_acknowledged_move(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/crash.sqlite3"
    first = ServerProcess(url)
    games = [create(first.url, mode="hotseat") for _ in range(4)]
    games.append(create(first.url, seats=[{"kind": "human"}, {"kind": "bot", "agent": "random"}]))
    acked: dict[str, list[tuple[int, str]]] = {g["id"]: [] for g in games}
    stop = threading.Event()
    threads = [
        threading.Thread(target=_play_until_killed, args=(first.ws_url, g, acked[g["id"]], stop))
        for g in games
    ]
    for t in threads:
        t.start()
    deadline = time.time() + 20
    while sum(len(a) for a in acked.values()) < 30 and time.time() < deadline:
        time.sleep(0.02)
    first.kill()  # mid-game: moves are in flight right now
    stop.set()
    for t in threads:
        t.join(timeout=20)
    total = sum(len(a) for a in acked.values())
    assert total >= 30

    second = ServerProcess(url, port=first.port)
    try:
        with httpx.Client(base_url=second.url, timeout=10) as c:
            for g in games:
                gid = g["id"]
                st = c.get(f"/api/matches/{gid}/state").json()
                log = {e["ply"]: (e["actor"], e["action"]) for e in st["log"]}
                for ply, action in acked[gid]:
                    assert log[ply][1] == action, (gid, ply)
                assert st["ply"] >= (max(p for p, _ in acked[gid]) + 1 if acked[gid] else 0)
        # play goes on, to the end
        for g in games:
            done: list[tuple[int, str]] = []
            _play_until_killed(second.ws_url, g, done, threading.Event())
            st = httpx.get(f"{second.url}/api/matches/{g['id']}").json()
            assert st["status"] == "finished", st
    finally:
        second.stop()


@pytest.mark.skipif(not HAS_PROC, reason="reads /proc (Linux)")
def test_a_killed_server_leaves_no_worker_processes_behind(tmp_path: Path) -> None:
    server = ServerProcess(f"sqlite:///{tmp_path}/orphans.sqlite3", "--bot-workers", "1")
    # A bot game makes the bot pool and the analysis pool start their workers.
    made = create(server.url, seats=[{"kind": "bot", "agent": "random"}] * 2)
    deadline = time.time() + 20
    workers: set[int] = set()
    while time.time() < deadline:
        workers = children(server.proc.pid)
        status = httpx.get(f"{server.url}/api/matches/{made['id']}").json()["status"]
        if len(workers) >= 2 and status == "finished":
            break
        time.sleep(0.1)
    assert len(workers) >= 2, "the bot and analysis pools did not start their workers"
    server.kill()  # SIGKILL: the server's shutdown code never runs
    deadline = time.time() + 10
    while any(alive(w) for w in workers) and time.time() < deadline:
        time.sleep(0.05)
    assert not [w for w in workers if alive(w)], "worker processes outlived the server"
