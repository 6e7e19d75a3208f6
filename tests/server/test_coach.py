"""The coach: hints in a game against bots (the search's three best moves with their
chances, from the seat's own view only), refused where the coach is off, when the seat
is not to move and after the end; counted in the record; and the mistakes of a finished
game read from its stored analysis, each with the search's better move."""

from __future__ import annotations

import time
from typing import Any

import httpx
import pytest
from arena_helpers import LiveServer, create

from sudoku_arena.ai import make_agent
from sudoku_arena.ai.coach import hint_simulations, mistakes
from sudoku_arena.core.fairness import new_secret
from sudoku_arena.core.match import LogEntry, Match
from sudoku_arena.core.registry import load
from sudoku_arena.server import ServerConfig
from sudoku_arena.server.analysis_store import AnalysisStore
from sudoku_arena.server.coach import hint_for
from sudoku_arena.server.db.games import GameRow, load_game
from sudoku_arena.server.db.seats import SeatRow
from sudoku_arena.server.live import LiveGame

BOT = {"kind": "bot", "agent": "random"}
ME = {"kind": "human", "name": "me"}


def _hint(server: LiveServer, gid: str, token: str) -> httpx.Response:
    return httpx.post(f"{server.url}/api/matches/{gid}/hint", json={"token": token}, timeout=60)


def test_a_hint_against_a_bot_is_three_legal_moves_best_first(server: LiveServer) -> None:
    made = create(server.url, seats=[ME, BOT])
    gid, token = made["id"], made["seats"][0]["token"]
    coach = httpx.get(f"{server.url}/api/matches/{gid}/coach").json()
    assert coach["enabled"] is True and coach["hints"] == [0, 0]
    resp = _hint(server, gid, token)
    assert resp.status_code == 200, resp.text
    body = resp.json()
    moves = body["moves"]
    assert [m["rank"] for m in moves] == [1, 2, 3]
    lg = server.arena.games[gid]
    legal = {lg.game.format_action(a) for a in lg.game.legal_actions(lg.state, 0)}
    assert {m["action"] for m in moves} <= legal
    assert len({m["action"] for m in moves}) == 3
    chances = [m["chance"] for m in moves]
    assert all(0.0 <= c <= 1.0 for c in chances)
    assert chances == sorted(chances, reverse=True)
    assert all(m["says"] for m in moves)
    assert body["hints"] == 1 and body["ply"] == 0
    # Counted: the coach's info and the record say a hint was taken.
    assert httpx.get(f"{server.url}/api/matches/{gid}/coach").json()["hints"] == [1, 0]
    assert httpx.get(f"{server.url}/api/matches/{gid}/record").json()["hints"] == [1, 0]


def _answer(server: LiveServer, gid: str, token: str, agree: bool) -> httpx.Response:
    resp = httpx.post(
        f"{server.url}/api/matches/{gid}/coach/answer",
        json={"token": token, "agree": agree},
        timeout=60,
    )
    return resp


def _coach(server: LiveServer, gid: str) -> dict[str, Any]:
    info: dict[str, Any] = httpx.get(f"{server.url}/api/matches/{gid}/coach").json()
    return info


def test_between_people_the_creators_coach_waits_for_the_other_persons_agreement(
    server: LiveServer,
) -> None:
    made = create(server.url, seats=[ME, {"kind": "human"}], coach=True)
    gid, mine, theirs = made["id"], made["seats"][0]["token"], made["seats"][1]["token"]
    coach = _coach(server, gid)
    assert coach["enabled"] is False and coach["offered"] is True
    assert coach["agreed"] == [0] and coach["asked"] == [1] and coach["declined"] is None
    assert "player 2" in coach["why"]
    refused = _hint(server, gid, mine)
    assert refused.status_code == 403
    error = refused.json()["error"]
    assert error["code"] == "coach_not_agreed" and "player 2" in error["message"]
    # Not asked yet, so no hint was taken: the record shows no coach.
    assert httpx.get(f"{server.url}/api/matches/{gid}/record").json()["hints"] is None
    # The creator agreed by creating it and cannot answer for the other person (nor
    # decline afterwards); a wrong token is refused.
    assert _answer(server, gid, mine, agree=True).json()["asked"] == [1]
    assert _answer(server, gid, mine, agree=False).status_code == 409
    bad = _answer(server, gid, "not-a-token", agree=True)
    assert bad.status_code == 403 and bad.json()["error"]["code"] == "bad_token"
    assert _coach(server, gid)["asked"] == [1]
    agreed = _answer(server, gid, theirs, agree=True)
    assert agreed.status_code == 200, agreed.text
    assert agreed.json()["enabled"] is True and agreed.json()["asked"] == []
    assert _coach(server, gid)["agreed"] == [0, 1]
    assert _answer(server, gid, theirs, agree=True).status_code == 200  # twice: no change
    hint = _hint(server, gid, mine)
    assert hint.status_code == 200, hint.text
    assert httpx.get(f"{server.url}/api/matches/{gid}/record").json()["hints"] == [1, 0]


def test_one_decline_turns_the_creators_coach_off_for_everybody_for_good(
    server: LiveServer,
) -> None:
    made = create(server.url, seats=[ME, {"kind": "human"}], coach=True)
    gid, tokens = made["id"], [s["token"] for s in made["seats"]]
    declined = _answer(server, gid, tokens[1], agree=False)
    assert declined.status_code == 200, declined.text
    coach = _coach(server, gid)
    assert coach["enabled"] is False and coach["declined"] == 1 and coach["asked"] == []
    assert "player 2 declined" in coach["why"]
    for token in tokens:
        off = _hint(server, gid, token)
        assert off.status_code in (403, 409)
        if off.status_code == 403:
            assert off.json()["error"]["code"] == "coach_off"
    off = _hint(server, gid, tokens[0])
    assert off.status_code == 403 and "declined" in off.json()["error"]["message"]
    # For good: agreeing afterwards changes nothing.
    assert _answer(server, gid, tokens[1], agree=True).status_code == 409
    assert _coach(server, gid)["enabled"] is False


def test_one_person_with_bots_needs_no_agreement(server: LiveServer) -> None:
    for coach in (True, None):
        made = create(server.url, seats=[ME, BOT], **({"coach": coach} if coach else {}))
        gid, token = made["id"], made["seats"][0]["token"]
        info = _coach(server, gid)
        assert info["enabled"] is True and info["asked"] == [] and info["offered"] is False
        assert _answer(server, gid, token, agree=True).status_code == 409
        assert _hint(server, gid, token).status_code == 200


def test_hints_are_refused_between_people_for_the_waiting_seat_and_after_the_end(
    server: LiveServer,
) -> None:
    people = create(server.url, seats=[ME, {"kind": "human"}])
    gid = people["id"]
    off = _hint(server, gid, people["seats"][0]["token"])
    assert off.status_code == 403 and off.json()["error"]["code"] == "coach_off"
    assert "between people" in off.json()["error"]["message"]
    assert httpx.get(f"{server.url}/api/matches/{gid}/record").json()["hints"] is None
    agreed = create(server.url, seats=[ME, {"kind": "human"}], coach=True)
    _answer(server, agreed["id"], agreed["seats"][1]["token"], agree=True)
    coach = httpx.get(f"{server.url}/api/matches/{agreed['id']}/coach").json()
    assert coach["enabled"] is True and "creator" in coach["why"]
    waiting = _hint(server, agreed["id"], agreed["seats"][1]["token"])
    assert waiting.status_code == 409 and waiting.json()["error"]["code"] == "not_your_turn"
    assert _hint(server, agreed["id"], "not-a-token").status_code == 403
    made = create(server.url, seats=[ME, BOT])
    token = made["seats"][0]["token"]
    play_out(server, made["id"], token)
    over = _hint(server, made["id"], token)
    assert over.status_code == 409 and over.json()["error"]["code"] == "game_over"
    gone = _hint(server, "nosuchgame", token)
    assert gone.status_code == 404


def play_out(server: LiveServer, gid: str, token: str, timeout: float = 120) -> None:
    """Play the human seat's first legal move each turn until the game is over."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        state = httpx.get(
            f"{server.url}/api/matches/{gid}/state", headers={"authorization": f"Bearer {token}"}
        ).json()
        if state["status"] != "active":
            return
        lg = server.arena.games[gid]
        if 0 in state["view"].get("to_move", []) and lg.ply == state["ply"]:
            legal = list(lg.game.legal_actions(lg.state, 0))
            action = lg.game.format_action(legal[0])
            httpx.post(
                f"{server.url}/api/matches/{gid}/actions",
                json={"token": token, "ply": state["ply"], "action": action},
            )
        else:
            time.sleep(0.05)
    raise AssertionError(f"game {gid} did not end")


def _row(params: dict[str, Any], log: list[LogEntry]) -> GameRow:
    n = int(params["players"])
    return GameRow(
        id="twin",
        game="sudokuhex",
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
        secret=new_secret().hex(),
    )


def _hint_of(lg: LiveGame, seat: int) -> list[tuple[str, int, float]]:
    """The hint exactly as the server's route computes it (the job it hands a worker),
    with fewer simulations: the method is tested, not the strength."""
    return hint_for(lg, seat, hint_simulations(lg.game) // 10)()


def test_sudokuhex_twin_deals_that_differ_only_in_secrets_get_the_same_hint() -> None:
    game = load("sudokuhex", seed=11, players=3)
    m = Match(game, secret=bytes([11] * 32), match_id="twin")
    m.run([make_agent("random", game, seed=s) for s in range(3)])
    log = list(m.log)
    compared = 0
    for ply in range(4, len(log)):
        mover = m.states[ply]
        tm = game.to_move(mover)
        if not tm.is_decision:
            continue
        seat = tm.players[0]
        # Another seat's hand, and the pile, dealt differently: a draw changed.
        for index in range(ply - 1, -1, -1):
            e = log[index]
            if e.actor is None and e.action.startswith("draw") and mover.drawer != seat:
                break
        else:
            continue
        for value in range(1, 8):
            other = [*log[:index], LogEntry(index, None, f"draw {value}"), *log[index + 1 : ply]]
            if other[index].action == log[index].action:
                continue
            try:
                b = LiveGame(_row(game.params, other))
            except Exception:
                continue
            a = LiveGame(_row(game.params, log[:ply]))
            if b.over or a.view(seat) != b.view(seat) or a.state == b.state:
                continue
            hint = _hint_of(a, seat)
            assert hint and hint == _hint_of(b, seat)
            compared += 1
            break
        if compared >= 3:
            break
    assert compared >= 3


def test_the_mistakes_of_a_stored_analysis_are_the_moves_that_lost_most() -> None:
    # Seat 0 moves at positions 0, 2, 4; seat 1 at 1, 3. At position 2 seat 0 threw
    # away 40 points (0.6 -> 0.2) where the search preferred r5c5; at 4 it played the
    # search's own best move, which loses nothing to count.
    values = [[0.5, 0.5], [0.55, 0.45], [0.6, 0.4], [0.2, 0.8], [0.25, 0.75], [0.0, 1.0]]
    actions = [(0, 0, "r1c1"), (1, 1, "r1c2"), (2, 0, "r9c9"), (3, 1, "r2c2"), (4, 0, "r3c3")]
    best: list[dict[str, object] | None] = [
        {"action": "r1c1", "chance": 0.55},
        {"action": "r1c2", "chance": 0.45},
        {"action": "r5c5", "chance": 0.62},
        {"action": "r2c3", "chance": 0.8},
        {"action": "r3c3", "chance": 0.3},
    ]
    found = mistakes(values, actions, best)
    assert [(m.ply, m.seat, m.action, m.better) for m in found] == [(3, 0, "r9c9", "r5c5")]
    assert found[0].loss == pytest.approx(0.4)
    assert found[0].better_chance == 0.62
    # Only seat 1: none of its moves lost 10 points.
    assert mistakes(values, actions, best, seats=[1]) == []
    # With 5 points seat 1's r2c2 (0.8 -> 0.75, the search preferred r2c3) counts
    # too; seat 0's last move lost 25 points but was the search's best: never a mistake.
    assert [m.ply for m in mistakes(values, actions, best, least=0.05)] == [3, 4]


def test_a_finished_game_against_a_bot_gets_its_mistakes_with_better_moves(
    sqlite_url: str,
) -> None:
    cfg = ServerConfig(
        database_url=sqlite_url, bot_workers=0, bot_delay=0.0, analysis_simulations=40
    )
    with LiveServer(cfg) as server:
        made = create(server.url, seats=[BOT, {"kind": "bot", "agent": "greedy"}])
        gid = made["id"]
        deadline = time.time() + 120
        body: dict[str, Any] = {}
        while time.time() < deadline:
            if httpx.get(f"{server.url}/api/matches/{gid}").json()["status"] == "finished":
                body = httpx.get(f"{server.url}/api/matches/{gid}/analysis", timeout=30).json()
                if body["status"] == "done":
                    break
            time.sleep(0.3)
        assert body.get("status") == "done"
        row = load_game(server.arena.storage.engine, gid)
        stored = AnalysisStore(server.arena.storage).load(gid)
        assert stored is not None
        best = stored.result["best"]
        lg = LiveGame(row)
        assert len(best) == len(body["values"]) == len(row.actions) + 1
        for i, b in enumerate(best):
            tm = lg.game.to_move(lg.states[i])
            if not tm.is_decision or len(tm.players) != 1:
                assert b is None
                continue
            legal = {
                lg.game.format_action(a) for a in lg.game.legal_actions(lg.states[i], tm.players[0])
            }
            assert b is None if len(legal) == 1 else b["action"] in legal
        # The mistakes served are those of the stored values and best moves.
        again = mistakes(body["values"], row.actions, best)
        assert [(m.ply, m.seat, m.action, m.better) for m in again] == [
            (m["ply"], m["seat"], m["action"], m["better"]) for m in body["mistakes"]
        ]
        for m in body["mistakes"]:
            assert m["before"] - m["after"] >= 0.1 - 1e-9
            assert row.actions[m["ply"] - 1][2] == m["action"] != m["better"]


def test_coach_answers_are_stored_on_sqlite_and_postgresql(db_url: str) -> None:
    """Migration 0007's columns on both databases: agreements add up, the first refusal
    is the one kept, and a row from before the answers reads as nobody answered."""
    from sudoku_arena.server.coach import CoachStore
    from sudoku_arena.server.db.engine import Storage

    st = Storage(db_url)
    try:
        store = CoachStore(st)
        store.set_enabled("g1", True)
        assert store.load_row("g1").agreed == set() and store.load_row("g1").declined is None
        store.answer("g1", 1, True)
        store.answer("g1", 2, True)
        assert store.load_row("g1").agreed == {1, 2}
        store.answer("g1", 3, False)
        store.answer("g1", 2, False)
        row = store.load_row("g1")
        assert row.enabled is True and row.declined == 3 and row.agreed == {1, 2}
    finally:
        st.close()
