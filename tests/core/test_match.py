"""Match: chance handled and logged, seats checked, undo within a turn and along bots."""

from __future__ import annotations

import pytest

from sudoku_arena.ai import make_agent
from sudoku_arena.core.errors import IllegalActionError, NotationError, UndoError
from sudoku_arena.core.match import Match
from sudoku_arena.core.record import Record, replay


def test_chance_is_resolved_by_the_match_and_logged(toy: object) -> None:
    m = Match(toy, seed=3)  # type: ignore[arg-type]
    m.play("end")
    last = m.log[-1]
    assert last.actor is None and last.action in ("coin h", "coin t")
    assert m.to_move().players == (1,)


def test_same_seed_same_chance(toy: object) -> None:
    logs = []
    for _ in range(2):
        m = Match(toy, seed=11)  # type: ignore[arg-type]
        for _ in range(4):
            m.play("end")
        logs.append(m.log)
    assert logs[0] == logs[1]
    assert len({e.action for e in logs[0] if e.actor is None}) >= 1


def test_bad_input_leaves_the_match_unchanged(toy: object) -> None:
    m = Match(toy, seed=1)  # type: ignore[arg-type]
    m.play("inc")
    before = (m.state, m.log)
    with pytest.raises(NotationError, match="allowed"):
        m.play("jump")
    with pytest.raises(IllegalActionError, match="seat 1 may not act now"):
        m.play("inc", player=1)
    m.play("inc")
    with pytest.raises(IllegalActionError, match="not legal"):
        m.play("inc")
    assert m.log[:1] == before[1]


def test_undo_within_the_turn(toy: object) -> None:
    m = Match(toy, seed=1)  # type: ignore[arg-type]
    m.play("inc")
    m.play("inc")
    undone = m.undo(0)
    assert [e.action for e in undone] == ["inc"]
    assert m.state.scores == (1, 0)
    assert m.legal(0) == ["inc", "end"]


def test_undo_refused_after_a_chance_outcome(toy: object) -> None:
    m = Match(toy, seed=1)  # type: ignore[arg-type]
    m.play("inc")
    m.play("end")  # a coin follows: it must not be taken back
    state = m.state
    with pytest.raises(UndoError, match="chance"):
        m.undo(0)
    assert m.state == state


def test_undo_refused_when_nothing_to_undo(toy: object) -> None:
    m = Match(toy, seed=1)  # type: ignore[arg-type]
    with pytest.raises(UndoError, match="nothing to undo"):
        m.undo(0)


def test_undo_along_a_bot_takes_back_its_reply(fixed_grid: str) -> None:
    m = Match.new("tic-tac-sudoku", seed=1, grid=fixed_grid)
    m.play("r1c1")
    bot = make_agent("greedy", m.game, seed=2)
    m.step_agent(bot, 1)
    with pytest.raises(UndoError, match="seat 1 has acted"):
        m.undo(0)
    with pytest.raises(UndoError, match="turn is over"):
        m.undo(1)  # the bot's own move ended its turn
    undone = m.undo(0, along={1})
    assert [e.actor for e in undone] == [0, 1]
    assert m.ply == 0 and m.to_move().players == (0,)


def test_record_round_trip_and_replay(toy: object) -> None:
    m = Match(toy, seed=5)  # type: ignore[arg-type]
    while not m.is_over:
        m.play("inc")
        m.play("end")
    rec = Record.loads(m.record().dumps())
    assert rec == m.record()
    _, states = replay(rec)
    assert states[-1] == m.state


def test_run_with_agents_finishes(fixed_grid: str) -> None:
    m = Match.new("tic-tac-sudoku", seed=4, grid=fixed_grid, players=["random", "greedy"])
    out = m.run([make_agent("random", m.game, seed=1), make_agent("greedy", m.game, seed=2)])
    assert m.is_over and out == m.outcome()
    assert len(out.winners) == 1


def test_new_takes_the_player_count_from_the_names() -> None:
    m = Match.new("sudoku-warriors", seed=1, players=["a", "b", "c"])
    assert m.game.num_players == 3 and m.players == ("a", "b", "c")
