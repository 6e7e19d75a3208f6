"""Tournaments: seat rotation, statistics, the command and the strength-table script."""

from __future__ import annotations

import importlib.util
import math
import re
import sys
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from sudoku_arena.ai.tournament import (
    GameResult,
    jobs,
    mean_ci,
    percentile,
    run_games,
    summarise,
    wilson,
)
from sudoku_arena.cli.main import app

ROOT = Path(__file__).resolve().parents[2]


def test_seats_rotate_over_blocks_that_share_a_board() -> None:
    todo = jobs("tic-tac-sudoku", ["a", "b"], 4)
    assert [j.seats for j in todo] == [(0, 1), (1, 0), (0, 1), (1, 0)]
    assert [j.seed for j in todo] == [0, 0, 1, 1]
    three = jobs("sudoku-warriors", ["a", "b", "c"], 3, seed=5)
    assert {j.seed for j in three} == {5}
    for seat in range(3):  # every agent sits in every seat once
        assert sorted(j.seats[seat] for j in three) == [0, 1, 2]


def test_games_run_and_summarise() -> None:
    players = ["random", "greedy"]
    results = run_games(jobs("tic-tac-sudoku", players, 4), workers=1)
    assert [r.index for r in results] == [0, 1, 2, 3]
    for r in results:
        assert sorted(r.returns) == [0.0, 1.0]
        assert r.plies > 0 and all(r.times)
    s = summarise("tic-tac-sudoku", players, results)
    assert s.games == 4
    assert math.isclose(sum(a.win_rate for a in s.agents), 1.0)
    assert all(a.win_ci[0] <= a.win_rate <= a.win_ci[1] for a in s.agents)
    assert s.agents[1].moves > 0 and s.agents[1].p95_seconds >= s.agents[1].median_seconds


def test_parallel_results_equal_serial_ones() -> None:
    todo = jobs("tic-tac-sudoku", ["random", "mcts:20"], 2)
    serial = [(r.returns, r.plies) for r in run_games(todo, workers=1)]
    parallel = [(r.returns, r.plies) for r in run_games(todo, workers=2)]
    assert serial == parallel


def test_games_won_by_nobody_are_counted_apart_from_shared_wins() -> None:
    def result(i: int, returns: tuple[float, float]) -> GameResult:
        return GameResult(i, 0, (0, 1), returns, (0.0, 0.0), 10, ((0.1,), (0.1,)), 1.0)

    games = [result(0, (0.0, 0.0)), result(1, (1.0, 0.0)), result(2, (0.5, 0.5))]
    s = summarise("citadel", ["hard", "greedy"], games)
    assert s.unwon == 1  # the turn-limit draw; the shared win was won by both
    assert math.isclose(s.agents[0].win_rate, 0.5)
    assert summarise("citadel", ["hard", "greedy"], games[1:]).unwon == 0


def test_statistics() -> None:
    lo, hi = wilson(0.5, 100)
    assert 0.40 < lo < 0.41 and 0.59 < hi < 0.60
    assert wilson(1.0, 200)[1] == 1.0 and wilson(1.0, 200)[0] > 0.98
    m, lo, hi = mean_ci([1.0, 2.0, 3.0])
    assert m == 2.0 and lo < 2.0 < hi
    assert percentile([3.0, 1.0, 2.0], 0.5) == 2.0
    assert math.isnan(percentile([], 0.5))


def test_tournament_command() -> None:
    result = CliRunner().invoke(
        app,
        ["tournament", "tic-tac-sudoku", "--players", "random,greedy", "--games", "2"],
        env={"COLUMNS": "200"},
    )
    assert result.exit_code == 0, result.output
    assert "greedy" in result.output and "win rate" in result.output
    assert "mean length" in result.output


def test_tournament_table_fits_an_80_column_terminal_without_splitting_intervals() -> None:
    result = CliRunner().invoke(
        app,
        ["tournament", "tic-tac-sudoku", "--players", "random,greedy", "--games", "2"],
        env={"COLUMNS": "80"},
    )
    assert result.exit_code == 0, result.output
    assert max(len(line) for line in result.output.splitlines()) <= 80
    rows = [line for line in result.output.splitlines() if "│" in line and "greedy" in line]
    assert len(rows) == 1  # one line per agent: nothing wrapped
    assert re.search(r"\d+\.\d%–\d+\.\d%", rows[0]), rows[0]


def test_tournament_command_refuses_unknown_agents() -> None:
    result = CliRunner().invoke(
        app, ["tournament", "tic-tac-sudoku", "--players", "random,wizard", "--games", "2"]
    )
    assert result.exit_code != 0
    assert "wizard" in result.output


def test_solo_tournament_reports_scores() -> None:
    result = CliRunner().invoke(
        app,
        ["tournament", "sudokuhex", "--players", "greedy", "--games", "2", "--workers", "1"],
        env={"COLUMNS": "200"},
    )
    assert result.exit_code == 0, result.output
    assert "mean score" in result.output and "win rate" not in result.output


def _script() -> Any:
    spec = importlib.util.spec_from_file_location(
        "strength_table", ROOT / "scripts/strength_table.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["strength_table"] = module
    spec.loader.exec_module(module)
    return module


def test_strength_table_renders_stored_rows() -> None:
    st = _script()
    results = run_games(jobs("tic-tac-sudoku", ["random", "greedy"], 2), workers=1)
    store = {
        "games": {
            "tic-tac-sudoku": {
                "normal-random": {
                    "players": ["normal", "random"],
                    "results": [r.to_json() for r in results],
                },
                "hard-greedy": {  # played by a search that has changed since
                    "players": ["hard", "greedy"],
                    "fingerprint": "0" * 16,
                    "results": [r.to_json() for r in results],
                },
            }
        }
    }
    text = st.render(store)
    assert "## Tic-Tac-Sudoku" in text and "normal vs random" in text
    assert "| won by nobody |" in text
    # A row played by an earlier search stays, marked as such; a current one is not.
    stale = next(line for line in text.splitlines() if line.startswith("| hard vs greedy |"))
    fresh = next(line for line in text.splitlines() if line.startswith("| normal vs random |"))
    assert "earlier search" in stale and "earlier search" not in fresh
    assert "do not replay the same games since: hard-greedy." in text
    assert "| normal |" in text  # the level's seconds per move
    keys = {
        r.key for r in st.rows_for(next(s for s in st.registered_games() if s.id == "sudokuhex"))
    }
    assert {"normal-random", "hard-greedy", "solo-hard"} <= keys


def test_strength_fingerprint_covers_rules_agents_and_search_not_drawings() -> None:
    st = _script()
    found = st.knowledge_modules(
        "sudoku_arena.games.citadel.game", ["sudoku_arena.games.citadel.search"]
    )
    for name in ("game", "rules", "agents", "search"):
        assert f"sudoku_arena.games.citadel.{name}" in found
    assert "sudoku_arena.ai.mcts.search" in found and "sudoku_arena.ai.mcts.selection" in found
    assert not any(name.endswith((".render", ".figures", ".entry")) for name in found)
    assert not any(name.startswith("sudoku_arena.games.cat_sudoku") for name in found)


def test_strength_row_that_replays_the_same_is_stamped_current(tmp_path: Path) -> None:
    st = _script()
    results = run_games(jobs("tic-tac-sudoku", ["greedy", "random"], 2), workers=1)
    entry = {
        "players": ["greedy", "random"],
        "fingerprint": "0" * 16,  # stamped by code that has changed since
        "results": [r.to_json() for r in results],
    }
    store = {"games": {"tic-tac-sudoku": {"greedy-random": entry}}}
    assert st.verify_row("tic-tac-sudoku", entry, 2) == []
    st.verify(
        tmp_path, store, "tic-tac-sudoku", st.Row("greedy-random", ("greedy", "random")), 2, {}
    )
    assert entry["fingerprint"] == st.fingerprint("tic-tac-sudoku", 2, {})
    on_disk = st.load_store(tmp_path)["games"]["tic-tac-sudoku"]["greedy-random"]
    assert on_disk["fingerprint"] == entry["fingerprint"]


def test_strength_row_that_replays_differently_stays_stale(tmp_path: Path) -> None:
    st = _script()
    results = run_games(jobs("tic-tac-sudoku", ["greedy", "random"], 2), workers=1)
    stored = [r.to_json() for r in results]
    stored[1]["plies"] += 1  # as if an earlier agent had played one move more
    entry = {"players": ["greedy", "random"], "fingerprint": "0" * 16, "results": stored}
    store = {"games": {"tic-tac-sudoku": {"greedy-random": entry}}}
    differ = st.verify_row("tic-tac-sudoku", entry, 2)
    assert len(differ) == 1 and differ[0].startswith("game 1:")
    st.verify(
        tmp_path, store, "tic-tac-sudoku", st.Row("greedy-random", ("greedy", "random")), 2, {}
    )
    assert entry["fingerprint"] == "0" * 16
