"""The ``analyze`` command: a run, its report, re-rendering, and bad input refused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sudoku_arena.cli.main import app
from sudoku_arena.lab.presets import PRESETS, preset_plan


def analyze(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, ["analyze", *args], env={"COLUMNS": "200"})
    return result.exit_code, result.output


def test_a_run_writes_records_summary_and_report(tmp_path: Path) -> None:
    out = tmp_path / "run"
    code, output = analyze(
        "tic-tac-sudoku", "--players", "random,greedy", "--games", "4", "--workers", "1",
        "--variant", "t9:target=9", "--out", str(out),
    )  # fmt: skip
    assert code == 0, output
    assert "seat 1 advantage" in output and "under t9" in output
    summary = json.loads((out / "summary.json").read_text())
    assert summary["games"] == 8 and set(summary["variants"]) == {"base", "t9"}
    assert summary["variants"]["base"]["agent_win"].keys() == {"random", "greedy"}
    page = (out / "report.html").read_text()
    assert "<svg" in page and "sudoku-arena analyze tic-tac-sudoku" in page
    (out / "report.html").unlink()
    code, output = analyze("--report", str(out))
    assert code == 0, output
    assert (out / "report.html").read_text() == page  # the same page from the records
    code, output = analyze("tic-tac-sudoku", "--players", "random,greedy", "--games", "4",
                           "--variant", "t9:target=9", "--out", str(out))  # fmt: skip
    assert code == 0 and "resuming" in output and "played" not in output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["chess"], "no game called 'chess'"),
        (["tic-tac-sudoku", "--players", "random,wizard"], "no agent called 'wizard'"),
        (["tic-tac-sudoku", "--variant", "short"], "NAME:PARAM=VALUE"),
        (["tic-tac-sudoku", "--variant", "x:target=banana"], "--variant x: target"),
        (["tic-tac-sudoku", "--variant", "three:players=3"], "--variant three: players=3"),
        (["tic-tac-sudoku", "--backend", "spark"], "allowed: local, ray"),
        (["tic-tac-sudoku", "--ladder", "random"], "two or more different bots"),
        (["tic-tac-sudoku", "--preset", "chess"], "allowed: cat-sheets"),
        (["--report", "nowhere"], "holds no lab run"),
        ([], "give a game id"),
    ],
)
def test_bad_input_is_one_clear_line_and_leaves_nothing(
    tmp_path: Path, args: list[str], message: str
) -> None:
    out = tmp_path / "run"
    code, output = analyze(*args, "--games", "2", "--out", str(out))
    assert code != 0
    assert message in output, output
    assert "Traceback" not in output
    assert not out.exists()


def test_an_out_folder_that_is_not_a_run_is_refused(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("mine")
    code, output = analyze("tic-tac-sudoku", "--games", "2", "--out", str(tmp_path))
    assert code != 0 and "not empty" in output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]


def test_presets_name_their_studies() -> None:
    cats = preset_plan("cat-sheets", 10, 0)
    assert cats.game == "cat-sudoku" and [v.name for v in cats.variants] == [
        "summer",
        "autumn",
        "winter",
    ]
    assert preset_plan("ladder", 10, 0, "citadel").ladder[-1] == "hard"
    assert set(PRESETS) == {"cat-sheets", "sudokuhex-duplicate", "ladder", "exploit"}


def test_the_strength_table_is_built_into_the_out_folder(tmp_path: Path) -> None:
    from sudoku_arena.ai.tournament import jobs, run_games
    from sudoku_arena.lab.strength import build, save_store

    results = run_games(jobs("tic-tac-sudoku", ["random", "greedy"], 2), workers=1)
    rows = {
        "easy-greedy": {"players": ["easy", "greedy"], "results": [r.to_json() for r in results]}
    }
    save_store(tmp_path, {"games": {"tic-tac-sudoku": rows}})
    md = build(tmp_path, render_only=True)
    assert md == tmp_path / "strength.md"
    assert "easy vs greedy" in md.read_text()
    code, output = analyze("chess", "--preset", "strength", "--out", str(tmp_path))
    assert code != 0 and "no game called 'chess'" in output
