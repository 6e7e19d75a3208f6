"""Endings the players decide (resignation, abort, agreed draw): the match ends, refuses
further moves, and its record replays and verifies with the ending it carries."""

from __future__ import annotations

import pytest

from sudoku_arena.core.endings import aborted, agreed_draw, resignation
from sudoku_arena.core.errors import ArenaError, IllegalActionError, ReplayMismatchError, UndoError
from sudoku_arena.core.match import Match
from sudoku_arena.core.record import Record, replay
from sudoku_arena.core.types import Outcome
from sudoku_arena.core.verify import verify_record


def _match() -> Match:
    m = Match.new("tic-tac-sudoku", seed=3, players=["Ann", "Bob"])
    m.play(m.legal(0)[0], 0)
    return m


def test_a_resignation_ends_the_match_and_the_others_win() -> None:
    m = _match()
    m.end(resignation(m.game, m.state, 1, m.players))
    out = m.outcome()
    assert m.is_over and out is not None
    assert out.winners == (0,) and out.code == "resign" and out.reason == "Bob resigned"
    with pytest.raises(IllegalActionError, match="the game is over: Bob resigned"):
        m.play(m.legal(1)[0] if m.legal(1) else "r1c1", 1)
    with pytest.raises(UndoError):
        m.undo(0)
    with pytest.raises(ArenaError):
        m.end(aborted(m.game, m.state))


def test_only_endings_the_players_decide_can_be_declared() -> None:
    m = _match()
    with pytest.raises(ValueError):
        m.end(Outcome((0,), (0.0, 0.0), "three in a row", "line"))


@pytest.mark.parametrize("make", [aborted, agreed_draw])
def test_records_of_decided_endings_replay_and_verify(make: object) -> None:
    m = _match()
    m.end(make(m.game, m.state))  # type: ignore[operator]
    rec = m.record()
    again = Record.loads(rec.dumps())
    assert again.outcome == m.outcome()
    game, states = replay(again)
    assert len(states) == m.ply + 1 and game.outcome(states[-1]) is None
    verify_record(again)  # raises on any failure


def test_a_record_claiming_a_resignation_after_the_rules_ended_the_game_is_refused() -> None:
    m = Match.new("tic-tac-sudoku", seed=3, players=["Ann", "Bob"])
    while not m.is_over:
        p = m.to_move().players[0]
        m.play(m.legal(p)[0], p)
    rec = m.record()
    assert rec.outcome is not None
    text = rec.dumps()
    assert f'"code":"{rec.outcome.code}"' in text
    forged = Record.loads(text.replace(f'"code":"{rec.outcome.code}"', '"code":"resign"'))
    with pytest.raises(ReplayMismatchError, match="rules had ended the game"):
        replay(forged)


def test_a_loss_on_time_and_an_abandoned_game_end_the_match_and_verify() -> None:
    from sudoku_arena.core.endings import abandoned, lost_on_time

    m = _match()
    out = lost_on_time(m.game, m.state, 1, m.players)
    assert out.winners == (0,) and out.code == "time" and out.reason == "Bob ran out of time"
    m.end(out)
    verify_record(Record.loads(m.record().dumps()))
    m = _match()
    out = abandoned(m.game, m.state, "2 days", ["Bob"])
    assert out.winners == () and out.code == "abandoned"
    assert out.reason == "abandoned: no move for 2 days (Bob to move)"
    m.end(out)
    game, states = replay(Record.loads(m.record().dumps()))
    assert len(states) == m.ply + 1 and game.outcome(states[-1]) is None


def test_a_win_claimed_over_players_who_left_ends_the_match_and_verifies() -> None:
    from sudoku_arena.core.endings import left_game

    m = _match()
    out = left_game(m.game, m.state, [1], 0, m.players)
    assert out.winners == (0,) and out.code == "left"
    assert out.reason == "Bob left the game; Ann claimed the win"
    m.end(out)
    again = Record.loads(m.record().dumps())
    assert again.outcome == out
    verify_record(again)
