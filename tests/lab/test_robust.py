"""The lab's default players for balance figures: each game's robust level."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sudoku_arena.cli import analyze as analyze_cli
from sudoku_arena.cli.main import app
from sudoku_arena.core.types import JsonDict
from sudoku_arena.lab import robust
from sudoku_arena.lab.robust import Choice, choose, choose_all, shipped_choices

STRENGTH_JSON = Path(__file__).resolve().parents[2] / "docs" / "strength.json"


def _group(level: str, wins: dict[str, tuple[float, int]], players: int = 2) -> JsonDict:
    """An exploit group (as in the strength store) of games won or lost."""
    rows = [
        {"strategy": s, "games": n, "win": {"value": w}, "margin": {"low": 0.0}}
        for s, (w, n) in wins.items()
    ]
    return {"level": level, "measure": "win", "players": players, "rows": rows}


def _scored(level: str, lows: dict[str, float], players: int) -> JsonDict:
    rows = [
        {"strategy": s, "games": 40, "win": {"value": 0.5}, "margin": {"low": low}}
        for s, low in lows.items()
    ]
    return {"level": level, "measure": "margin", "players": players, "rows": rows}


def test_the_strongest_level_that_passes_is_chosen_over_a_stronger_one_that_fails() -> None:
    groups = {
        "easy/2p": _group("easy", {"panel:a": (0.99, 100), "panel:b": (0.96, 100)}),
        "normal/2p": _group("normal", {"panel:a": (1.0, 100), "panel:b": (0.95, 120)}),
        "hard/2p": _group("hard", {"panel:a": (1.0, 100), "panel:b": (0.94, 100)}),
    }
    choice = choose(groups)
    assert choice == Choice("normal", True, "win", 0.95, "panel:b", 2, 120)


def test_a_share_over_too_few_games_does_not_pass() -> None:
    # 40 of 40 games won is not evidence of 95%: fewer than MIN_GAMES never pass.
    groups = {"hard/2p": _group("hard", {"panel:a": (1.0, robust.MIN_GAMES - 1)})}
    choice = choose(groups)
    assert choice is not None and not choice.passed


def test_without_a_pass_the_best_worst_line_up_is_chosen_and_ties_go_to_the_stronger() -> None:
    groups = {
        "normal/2p": _group("normal", {"panel:a": (0.85, 100), "panel:b": (0.99, 100)}),
        "hard/2p": _group("hard", {"panel:a": (0.95, 100), "panel:b": (0.80, 100)}),
    }
    choice = choose(groups)
    assert choice is not None and (choice.level, choice.passed) == ("normal", False)
    assert (choice.strategy, choice.figure) == ("panel:a", 0.85)
    groups["hard/2p"] = _group("hard", {"panel:a": (0.85, 100), "panel:b": (0.90, 100)})
    assert choose(groups) == Choice("hard", False, "win", 0.85, "panel:a", 2, 100)


def test_a_scored_game_passes_only_with_every_interval_above_zero_at_every_count() -> None:
    groups = {
        "normal/2p": _scored("normal", {"panel:a": 0.4}, 2),
        "normal/3p": _scored("normal", {"panel:a": 0.2}, 3),
        "hard/2p": _scored("hard", {"panel:a": 1.5}, 2),
        "hard/3p": _scored("hard", {"panel:a": -0.1}, 3),  # fails at three players
    }
    assert choose(groups) == Choice("normal", True, "margin", 0.2, "panel:a", 3, 40)
    assert choose({}) is None


def test_the_shipped_choices_are_those_of_todays_strength_table() -> None:
    """``src/sudoku_arena/lab/balance_agents.json`` must follow the strength table:
    after the table changes, ``python scripts/fit_bot_ratings.py`` writes it again."""
    assert shipped_choices() == choose_all(json.loads(STRENGTH_JSON.read_text()))


def test_analyze_seats_the_robust_level_by_default_and_says_why(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A cheap level stands in for the shipped one so that the run is quick.
    monkeypatch.setattr(analyze_cli, "balance_level", lambda game_id: "random")
    out = tmp_path / "run"
    args = ["analyze", "tic-tac-sudoku", "--games", "2", "--workers", "1", "--out", str(out)]
    result = CliRunner().invoke(app, args, env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    shown = " ".join(result.output.split())  # the console may wrap the line anywhere
    assert f"players: {robust.describe('tic-tac-sudoku')}" in shown
    assert "choose others with --players" in shown
    plan = json.loads((out / "run.json").read_text())
    assert plan["players"] == ["random", "random"]


def test_a_game_without_a_measured_panel_falls_back_to_greedy(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(robust, "shipped_choices", lambda: {})
    assert robust.balance_level("tic-tac-sudoku") == robust.FALLBACK == "greedy"
    assert "greedy in every seat" in robust.describe("tic-tac-sudoku")
