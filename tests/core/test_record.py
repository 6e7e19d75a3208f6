"""Records: malformed input refused clearly; a replay mismatch names its first ply."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sudoku_arena.core.errors import RecordError, ReplayMismatchError
from sudoku_arena.core.match import Match
from sudoku_arena.core.record import Record, read_records, replay, write_records


def _finished(grid: str, seed: int = 2) -> Match:
    from sudoku_arena.ai import make_agent

    m = Match.new("tic-tac-sudoku", seed=seed, grid=grid)
    m.run([make_agent("greedy", m.game, seed=1), make_agent("random", m.game, seed=2)])
    return m


def test_record_holds_what_the_issue_asks(fixed_grid: str) -> None:
    data = _finished(fixed_grid).record().to_json()
    assert data["format"] == 2 and data["game"] == "tic-tac-sudoku"
    assert data["params"]["grid"] == fixed_grid
    assert {"ply", "actor", "action"} <= set(data["actions"][0])
    assert data["outcome"]["winners"] and len(data["outcome"]["scores"]) == 2


def test_changed_action_names_the_first_bad_ply(fixed_grid: str) -> None:
    data = _finished(fixed_grid).record().to_json()
    data["actions"][3]["action"] = data["actions"][0]["action"]  # an occupied cell
    with pytest.raises(ReplayMismatchError) as info:
        replay(Record.from_json(data))
    assert info.value.ply == 3
    assert "ply 3" in str(info.value)


def test_changed_outcome_is_a_mismatch_at_the_end(fixed_grid: str) -> None:
    data = _finished(fixed_grid).record().to_json()
    data["outcome"]["scores"] = [99, 99]
    with pytest.raises(ReplayMismatchError, match="outcome differs") as info:
        replay(Record.from_json(data))
    assert info.value.ply == len(data["actions"])


def test_truncated_record_is_a_mismatch(fixed_grid: str) -> None:
    data = _finished(fixed_grid).record().to_json()
    data["actions"] = data["actions"][:-1]
    with pytest.raises(ReplayMismatchError, match="not over"):
        replay(Record.from_json(data))


def test_wrong_actor_is_named(fixed_grid: str) -> None:
    data = _finished(fixed_grid).record().to_json()
    data["actions"][1]["actor"] = 0
    with pytest.raises(ReplayMismatchError, match="ply 1: recorded seat 0"):
        replay(Record.from_json(data))


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "JSON object"),
        ({"format": 1}, "lacks"),
        (
            {
                "format": 9,
                "game": "x",
                "game_version": "1",
                "params": {},
                "players": [],
                "actions": [],
            },
            "not supported",
        ),
        (
            {
                "format": 1,
                "game": "x",
                "game_version": "1",
                "params": {},
                "players": [],
                "actions": [{"ply": 0}],
            },
            "action 0",
        ),
    ],
)
def test_malformed_records_are_refused(data: object, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        Record.from_json(data)


def test_jsonl_round_trip_and_line_numbers(tmp_path: Path, fixed_grid: str) -> None:
    recs = [_finished(fixed_grid, seed).record() for seed in range(3)]
    path = tmp_path / "g.jsonl"
    assert write_records(path, recs) == 3
    assert list(read_records(path)) == recs
    path.write_text(path.read_text() + "{not json\n")
    with pytest.raises(RecordError, match="line 4"):
        list(read_records(path))


def test_single_pretty_printed_record_reads(tmp_path: Path, fixed_grid: str) -> None:
    rec = _finished(fixed_grid).record()
    path = tmp_path / "g.json"
    path.write_text(json.dumps(rec.to_json(), indent=2))
    assert list(read_records(path)) == [rec]
