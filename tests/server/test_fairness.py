"""Online chance is committed, unknowable and checkable: no client-chosen seed, a
commitment at creation, the secret in the finished record, twin deals that send the
same bytes, and one runner shared with the command line and the library."""

from __future__ import annotations

import hashlib
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest
from arena_helpers import LiveServer

from sudoku_arena.ai import make_agent
from sudoku_arena.core.fairness import ClientSeed, new_secret
from sudoku_arena.core.match import LogEntry, Match
from sudoku_arena.core.record import Record, replay
from sudoku_arena.core.registry import load
from sudoku_arena.core.verify import verify_record
from sudoku_arena.server.db.games import GameRow
from sudoku_arena.server.db.seats import SeatRow
from sudoku_arena.server.live import LiveGame

FIXTURE = Path(__file__).parent / "data" / "online-sudokuhex.json"


def _create(c: httpx.Client, game: str, **extra: Any) -> dict[str, Any]:
    body = {"game": game, "seats": [{"kind": "human"}, {"kind": "human"}], **extra}
    r = c.post("/api/matches", json=body)
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def _play_out(c: httpx.Client, made: dict[str, Any], rng: random.Random) -> None:
    gid = made["id"]
    tokens = {s["seat"]: s["token"] for s in made["seats"]}
    for _ in range(500):
        st = c.get(f"/api/matches/{gid}/state").json()
        if st["status"] == "finished":
            return
        seat = st["view"]["to_move"][0]
        mine = c.get(
            f"/api/matches/{gid}/state", headers={"authorization": f"Bearer {tokens[seat]}"}
        ).json()
        action = rng.choice(mine["view"]["legal"])
        r = c.post(
            f"/api/matches/{gid}/actions",
            json={"token": tokens[seat], "ply": mine["ply"], "action": action},
        )
        assert r.status_code == 200, r.text
    raise AssertionError("the game did not end")


def _verify_with_the_cli(path: Path) -> None:
    """``sudoku-arena replay --verify`` accepts the one record in ``path``."""
    cli = subprocess.run(
        [sys.executable, "-m", "sudoku_arena.cli.main", "replay", "--verify", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert cli.returncode == 0, cli.stderr
    assert "1 verified, 0 failed" in cli.stdout


def test_the_api_refuses_a_client_chosen_seed(server: LiveServer) -> None:
    with server.client() as c:
        r = c.post(
            "/api/matches",
            json={"game": "sudokuhex", "seats": [{"kind": "human"}] * 2, "seed": 7},
        )
        assert r.status_code == 400
        err = r.json()["error"]
        assert err["code"] == "seed_refused" and "client_seed" in err["message"]
        assert c.get("/api/matches").json()["total"] == 0  # nothing was created


def test_identical_parameters_give_different_secret_draws(server: LiveServer) -> None:
    with server.client() as c:
        games = [_create(c, "sudokuhex") for _ in range(4)]
    assert len({json.dumps(g["game"]["params"]) for g in games}) == 1
    assert len({g["game"]["commitment"] for g in games}) == 4
    deals = set()
    for g in games:
        lg = server.arena.games[g["id"]]
        deals.add(tuple(e.action for e in lg.log if e.actor is None))
    assert len(deals) == 4


def test_the_commitment_matches_the_secret_revealed_at_the_end(
    server: LiveServer, tmp_path: Path
) -> None:
    with server.client() as c:
        made = _create(c, "sudokuhex")
        gid = made["id"]
        committed = made["game"]["commitment"]
        tokens = {s["seat"]: s["token"] for s in made["seats"]}
        r = c.post(
            f"/api/matches/{gid}/client-seed", json={"token": tokens[1], "client_seed": "abc"}
        )
        assert r.status_code == 200 and r.json()["seat"] == 1
        again = c.post(
            f"/api/matches/{gid}/client-seed", json={"token": tokens[1], "client_seed": "x"}
        )
        assert again.status_code == 400 and "already" in again.json()["error"]["message"]
        running = c.get(f"/api/matches/{gid}/record").json()
        assert running["chance"]["secret"] is None
        assert running["chance"]["commitment"] == committed
        assert not any(
            a["action"].startswith("draw ") for a in running["actions"] if a["actor"] == "chance"
        )
        _play_out(c, made, random.Random(3))
        record = c.get(f"/api/matches/{gid}/record").json()
    chance = record["chance"]
    secret = bytes.fromhex(chance["secret"])
    recomputed = hashlib.sha256(b"sudoku-arena/commit/v1\0" + gid.encode() + b"\0" + secret)
    assert recomputed.hexdigest() == committed == chance["commitment"]
    assert chance["client_seeds"] == [
        {"seat": 1, "seed": "abc", "ply": chance["client_seeds"][0]["ply"]}
    ]
    done = verify_record(Record.from_json(record))
    assert done.chance_checked > 10
    # The downloaded record verifies offline, with the command line, as a user would.
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    _verify_with_the_cli(path)


def test_a_record_downloaded_from_an_online_game_verifies_offline() -> None:
    """The fixture was downloaded from a finished online SuDokuHex game (made by
    ``python scripts/online_record_fixture.py``); no server runs here."""
    _verify_with_the_cli(FIXTURE)
    rec = Record.loads(FIXTURE.read_text())
    assert rec.chance is not None and rec.chance.secret and rec.seed is None


# -- twin deals -----------------------------------------------------------------------------


def _row(game_id: str, params: dict[str, Any], log: list[LogEntry], secret: bytes) -> GameRow:
    n = int(params["players"])
    return GameRow(
        id="twin",
        game=game_id,
        game_version="",
        params=params,
        seed=0,
        players=[f"p{i}" for i in range(n)],
        mode="invite",
        status="active",
        outcome=None,
        rematch=None,
        rematch_of=None,
        created=0.0,
        updated=0.0,
        seats=[SeatRow(i, "human", None, f"p{i}", None) for i in range(n)],
        actions=[(e.ply, e.actor, e.action) for e in log],
        secret=secret.hex(),
    )


def _in_hand(game: Any, states: list[Any], log: list[LogEntry], ply: int) -> dict[int, int]:
    """For each seat, the index of the draw whose tile it holds at ``ply``."""
    held: dict[int, int] = {}
    for i in range(ply):
        e = log[i]
        if e.actor is None and e.action.startswith("draw"):
            held[int(states[i].drawer)] = i
        elif e.actor is not None:
            held.pop(e.actor, None)  # placing a tile shows it (and a new one is drawn)
    return {s: i for s, i in held.items() if int(states[ply].hands[s]) != 0}


def _redeal(
    game_id: str, params: dict[str, Any], log: list[LogEntry], index: int
) -> list[LogEntry] | None:
    """``log`` with the draw at ``index`` changed to another tile, if one replays."""
    true = log[index].action
    for value in range(1, 8):
        if f"draw {value}" == true:
            continue
        other = [*log[:index], LogEntry(index, None, f"draw {value}"), *log[index + 1 :]]
        try:
            twin = Match(load(game_id, seed=0, **params), seed=0, log=other)
        except Exception:
            continue
        # A tile that leaves its holder no legal hex ends the game, which the rules
        # announce to all (and then everything is shown): not a twin of a running game.
        if not twin.is_over:
            return other
    return None


def _messages(lg: LiveGame, observers: list[int | None]) -> list[str]:
    return [lg.state_message(o, 0) for o in observers]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_sudokuhex_twin_deals_send_the_same_bytes_at_every_ply(players: int) -> None:
    """Two games identical in everything public but the tiles in some hands (and their
    secrets): at every ply, every byte sent to a spectator and to each seat that does
    not hold those tiles is the same."""
    params = load("sudokuhex", seed=11, players=players).params
    m = Match(load("sudokuhex", seed=11, players=players), secret=bytes([11] * 32), match_id="twin")
    m.run([make_agent("random", m.game, seed=s) for s in range(players)])
    log = list(m.log)
    states = list(m.states)
    compared = 0
    for ply in range(1, len(log)):
        held = _in_hand(m.game, states, log, ply)
        for holder, index in held.items():
            twin_log = _redeal("sudokuhex", params, log[:ply], index)
            if twin_log is None:
                continue
            a = LiveGame(_row("sudokuhex", params, log[:ply], new_secret()))
            b = LiveGame(_row("sudokuhex", params, twin_log, new_secret()))
            assert a.state != b.state
            others: list[int | None] = [None, *(s for s in range(players) if s != holder)]
            assert _messages(a, others) == _messages(b, others)
            assert a.state_message(holder, 0) != b.state_message(holder, 0)
            compared += 1
    assert compared > 20


def test_cat_sudoku_twin_deals_send_the_same_bytes_at_every_ply() -> None:
    """Cat Sudoku hides only future dice: two games with the same public history and
    different secrets send the same bytes to everybody at every ply."""
    params = load("cat-sudoku", seed=5, players=2).params
    m = Match(load("cat-sudoku", seed=5, players=2), secret=bytes([11] * 32), match_id="twin")
    m.run([make_agent("random", m.game, seed=s) for s in range(2)])
    log = list(m.log)
    observers: list[int | None] = [None, 0, 1]
    for ply in range(1, len(log)):
        a = LiveGame(_row("cat-sudoku", params, log[:ply], new_secret()))
        b = LiveGame(_row("cat-sudoku", params, log[:ply], new_secret()))
        assert a.commitment != b.commitment
        assert _messages(a, observers) == _messages(b, observers)
        assert a.record_json() == {**b.record_json(), "chance": a.record_json()["chance"]}


# -- one runner --------------------------------------------------------------------------------


def test_the_same_record_replays_identically_in_library_cli_and_server(tmp_path: Path) -> None:
    m = Match(load("sudokuhex", seed=21), seed=21, client_seeds=[ClientSeed(0, "me", 0)])
    agents = [make_agent("greedy", m.game, seed=m.bot_seed(s)) for s in range(2)]
    for _ in range(12):
        p = m.to_move().players[0]
        m.step_agent(agents[p], p)
    rec = m.record()
    # library
    _game, lib_states = replay(Record.loads(rec.dumps()))
    # server: the stored game is the record's log under the record's secret and id
    chance = rec.chance
    assert chance is not None and chance.secret is not None
    row = _row("sudokuhex", dict(rec.params), list(rec.actions), bytes.fromhex(chance.secret))
    row.id = chance.match_id
    row.client_seeds = [c.to_json() for c in chance.client_seeds]
    lg = LiveGame(row)
    assert list(lg.states) == lib_states
    # ...and both runners draw the same chance for what comes next
    seat = m.to_move().players[0]
    action = m.legal(seat)[0]
    pending = lg.prepare(seat, lg.ply, action)
    m.play(action, seat)
    assert [e.action for e in pending.entries] == [e.action for e in m.log[lg.ply :]]
    # CLI
    path = tmp_path / "r.json"
    path.write_text(rec.dumps())
    _verify_with_the_cli(path)
