"""Post-game analysis: made in the background for a finished game of every game, stored
(it survives a restart), claimed by one process of a fleet, never made for a game that
is not over; and the graph on the replay page jumps to a swing's position."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from arena_helpers import LiveServer, create

from services import chromium, require_postgres
from sudoku_arena.ai.analysis import position_values
from sudoku_arena.server import ServerConfig
from sudoku_arena.server.analysis_store import DONE, PENDING, AnalysisStore
from sudoku_arena.server.db.engine import Storage
from sudoku_arena.server.db.games import load_game
from sudoku_arena.server.live import LiveGame

#: Simulations per position in these tests: the method, not its strength, is tested.
SIMS = 2

#: A short game of each kind (two random bots).
GAMES: list[tuple[str, dict[str, Any]]] = [
    ("tic-tac-sudoku", {}),
    ("sudoku-warriors", {}),
    ("cat-sudoku", {}),
    ("sudokuhex", {}),
    ("citadel", {"size": 9, "max_turns": 30}),
]
BOTS = [{"kind": "bot", "agent": "random"}, {"kind": "bot", "agent": "random"}]


def config(url: str) -> ServerConfig:
    return ServerConfig(database_url=url, bot_workers=0, bot_delay=0.0, analysis_simulations=SIMS)


def wait_finished(server: LiveServer, gid: str, timeout: float = 120) -> None:
    deadline = time.time() + timeout
    while time.time() < deadline:
        if httpx.get(f"{server.url}/api/matches/{gid}").json()["status"] == "finished":
            return
        time.sleep(0.1)
    raise AssertionError(f"game {gid} did not finish")


def analysis(server: LiveServer, gid: str) -> dict[str, Any]:
    resp = httpx.get(f"{server.url}/api/matches/{gid}/analysis", timeout=20)
    assert resp.status_code == 200, resp.text
    body: dict[str, Any] = resp.json()
    return body


def wait_done(server: LiveServer, gid: str, timeout: float = 180) -> dict[str, Any]:
    deadline = time.time() + timeout
    while time.time() < deadline:
        body = analysis(server, gid)
        if body["status"] == DONE:
            return body
        assert body["status"] == PENDING and body["values"] == []
        time.sleep(0.2)
    raise AssertionError(f"the analysis of {gid} was not done in {timeout} s")


def test_every_game_is_analysed_from_its_revealed_record(sqlite_url: str) -> None:
    with LiveServer(config(sqlite_url)) as server:
        ids = {g: create(server.url, game=g, seats=BOTS, params=p)["id"] for g, p in GAMES}
        for game, gid in ids.items():
            wait_finished(server, gid)
            body = wait_done(server, gid)
            row = load_game(server.arena.storage.engine, gid)
            lg = LiveGame(row)
            n = lg.game.num_players
            assert body["plies"] == len(row.actions) > 0, game
            assert body["simulations"] == SIMS
            values = body["values"]
            assert len(values) == len(row.actions) + 1
            assert all(len(v) == n and all(0.0 <= x <= 1.0 for x in v) for v in values)
            # The end of a game its rules ended is worth exactly what it returns.
            assert values[-1] == pytest.approx(list(lg.game.returns(lg.states[-1])), abs=1e-4)
            # Position i is the search from position i alone, seeded from the revealed
            # secret: anyone with the record gets the same numbers, and nothing later
            # in the game enters them.
            chance = lg.match.chance
            for i in (0, len(values) // 2, len(values) - 2):
                mine = position_values(
                    lg.game, lg.states[i], SIMS, chance.bot_seed(0, i, "analysis")
                )
                assert values[i] == pytest.approx(list(mine), abs=1e-4), (game, i)
            for s in body["swings"]:
                assert 1 <= s["ply"] <= len(row.actions)
                assert s["action"] == row.actions[s["ply"] - 1][2]
                assert s["actor"] == row.actions[s["ply"] - 1][1]
                before, after = values[s["ply"] - 1], values[s["ply"]]
                assert s["deltas"] == pytest.approx(
                    [a - b for a, b in zip(after, before, strict=True)], abs=1e-3
                )
                assert abs(s["deltas"][s["seat"]]) >= 0.1
        assert server.arena.analysis.positions == sum(
            len(load_game(server.arena.storage.engine, g).actions) + 1 for g in ids.values()
        )


def test_a_game_that_is_not_over_is_never_analysed(sqlite_url: str) -> None:
    with LiveServer(config(sqlite_url)) as server:
        made = create(server.url)
        gid = made["id"]
        token = made["seats"][0]["token"]
        moved = httpx.post(
            f"{server.url}/api/matches/{gid}/actions",
            json={"token": token, "ply": 0, "action": "r1c1"},
        )
        assert moved.status_code == 200, moved.text
        resp = httpx.get(f"{server.url}/api/matches/{gid}/analysis")
        assert resp.status_code == 409
        assert resp.json()["error"]["code"] == "not_over"
        time.sleep(0.5)
        assert AnalysisStore(server.arena.storage).load(gid) is None
        assert server.arena.analysis.positions == 0


@pytest.fixture
def gate() -> Iterator[threading.Event]:
    """Opened at the end whatever happens, so that no analysis thread is left waiting."""
    event = threading.Event()
    try:
        yield event
    finally:
        event.set()


def test_a_server_without_analysis_says_so_as_a_status(sqlite_url: str) -> None:
    # Not an error: the pages would log a failed request for every finished game.
    cfg = ServerConfig(database_url=sqlite_url, bot_workers=0, bot_delay=0.0, analysis=False)
    with LiveServer(cfg) as server:
        gid = create(server.url, seats=BOTS)["id"]
        wait_finished(server, gid)
        body = analysis(server, gid)
        assert body["status"] == "off" and body["values"] == [] and body["analysed"] == 0
        assert body["plies"] > 0 and len(body["seats"]) == 2


def test_pending_right_after_the_end_then_done_and_kept_across_restarts(
    tmp_path: Path, gate: threading.Event
) -> None:
    url = f"sqlite:///{tmp_path}/arena.sqlite3"
    chunk = 4  # fewer than a game has positions: three in a row takes five moves
    # First process: its worker evaluates one chunk of positions, then waits at the
    # gate. The game ends and the answer comes at once: pending. The process stops
    # with the analysis unfinished.
    with LiveServer(config(url)) as first:
        analyser = first.arena.analysis
        analyser.chunk = chunk
        real = analyser.evaluate
        calls: list[int] = []

        def gated(*args: Any) -> Any:
            calls.append(1)
            if len(calls) > 1:
                gate.wait(60)
            return real(*args)

        analyser.evaluate = gated
        gid = create(first.url, seats=BOTS)["id"]
        wait_finished(first, gid)
        body = analysis(first, gid)
        assert body["status"] == PENDING
        assert body["values"] == [] and body["swings"] == []
        assert body["analysed"] < body["plies"] + 1
        deadline = time.time() + 30
        while analysis(first, gid)["analysed"] < chunk:  # its progress is stored
            assert time.time() < deadline, "no progress stored"
            time.sleep(0.1)
        assert analysis(first, gid)["status"] == PENDING
        assert analyser.positions == chunk
    # Second process on the same database: takes the analysis over from the stored
    # progress and ends it.
    with LiveServer(config(url)) as second:
        done = wait_done(second, gid)
        assert len(done["values"]) == done["plies"] + 1
        assert second.arena.analysis.positions == done["plies"] + 1 - chunk
        lg = LiveGame(load_game(second.arena.storage.engine, gid))
        for i in (0, chunk - 1, chunk, done["plies"] - 1):  # both halves as if in one go
            seed = lg.match.chance.bot_seed(0, i, "analysis")
            mine = position_values(lg.game, lg.states[i], SIMS, seed)
            assert done["values"][i] == pytest.approx(list(mine), abs=1e-4)
    # Third: the analysis is stored; nothing is computed again.
    with LiveServer(config(url)) as third:
        again = analysis(third, gid)
        assert again == done
        time.sleep(0.5)
        assert third.arena.analysis.positions == 0


def test_one_process_of_a_fleet_holds_an_analysis(pg_url: str) -> None:
    """Claims are decided by the database: one holder at a time, the lease passes on
    when it expires, and a holder that lost it can no longer write."""
    require_postgres()
    a_side, b_side = Storage(pg_url), Storage(pg_url)
    try:
        a, b = AnalysisStore(a_side), AnalysisStore(b_side)
        a.enqueue("g1")
        b.enqueue("g1")  # asked twice: still one row
        assert a.due() == ["g1"]
        assert a.claim("g1", "A", 0.5)
        assert not b.claim("g1", "B", 30)
        assert b.due() == []  # held: nobody else's work
        assert a.progress("g1", "A", 0.3, SIMS, [[0.5, 0.5]])
        time.sleep(0.4)  # A's lease expires (A died)
        assert b.due() == ["g1"]
        assert b.claim("g1", "B", 30)
        assert not a.progress("g1", "A", 30, SIMS, [[0.1, 0.9]])  # A lost it
        row = b.load("g1")
        assert row is not None and row.result == {"values": [[0.5, 0.5]]}  # kept: B goes on
        assert row.attempts == 2
        assert b.finish("g1", "B", SIMS, {"values": [[0.5, 0.5], [1.0, 0.0]], "swings": []})
        assert not a.claim("g1", "A", 30)  # done is done
        done = a.load("g1")
        assert done is not None and done.status == DONE and done.simulations == SIMS
    finally:
        a_side.close()
        b_side.close()


def test_the_graph_shows_and_a_swing_moves_the_replay(sqlite_url: str) -> None:
    with LiveServer(config(sqlite_url)) as server:
        found = None
        for _ in range(4):  # random games nearly always swing; take one that does
            gid = create(server.url, seats=BOTS)["id"]
            wait_finished(server, gid)
            body = wait_done(server, gid)
            if body["swings"]:
                found = gid, body
                break
        assert found is not None, "no game with a swing in four random games"
        gid, body = found
        with chromium() as browser:
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            errors: list[str] = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(f"{server.url}/replay/{gid}")
            page.wait_for_selector("#analysis svg polyline")
            assert page.locator("#analysis svg polyline").count() == 2
            marks = page.locator("#analysis circle.swing")
            assert marks.count() == len(body["swings"])
            swing = body["swings"][-1]
            total = body["plies"]
            page.locator(f"#analysis circle.swing[data-ply='{swing['ply']}']").click()
            page.wait_for_function(
                "t => document.querySelector('#status').textContent.startsWith(t)",
                arg=f"Ply {swing['ply']} / {total}",
            )
            assert page.input_value("#r-slider") == str(swing["ply"])
            # The play page of the finished game shows it too; a swing there opens the
            # replay at that position.
            page.goto(f"{server.url}/play/{gid}")
            page.wait_for_selector("#analysis-panel:not([hidden]) #analysis svg")
            first = body["swings"][0]
            page.locator(f"#analysis .swings button[data-ply='{first['ply']}']").click()
            page.wait_for_url(f"**/replay/{gid}#ply={first['ply']}")
            page.wait_for_function(
                "t => document.querySelector('#status').textContent.startsWith(t)",
                arg=f"Ply {first['ply']} / {total}",
            )
            assert errors == []
