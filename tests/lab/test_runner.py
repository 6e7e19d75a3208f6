"""Runs: records that replay, resume after an interruption, Ray gives what local gives."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sudoku_arena.core.record import Record, replay
from sudoku_arena.lab.plan import Plan, Variant
from sudoku_arena.lab.runner import run
from sudoku_arena.lab.store import GAMES, LabError, read_lines
from sudoku_arena.lab.summary import comparable, summarise_folder
from sudoku_arena.lab.trace import trace_of

PLAN = Plan(
    "tic-tac-sudoku",
    {},
    ("random", "random"),
    8,
    seed=3,
    variants=(Variant("t9", {"target": "9"}),),
)


def test_every_line_is_a_record_that_replays_to_its_trace(tmp_path: Path) -> None:
    result = run(tmp_path, PLAN, workers=2)
    assert (result.kept, result.played, result.interrupted) == (0, 16, False)
    lines = list(read_lines(tmp_path))
    assert len(lines) == 16 and len({x["lab"]["key"] for x in lines}) == 16
    for data in lines[:4]:
        record = Record.from_json(data)
        game, states = replay(record)
        assert trace_of(game, record.actions, states) == data["lab"]["trace"]
    assert {x["params"]["target"] for x in lines} == {13, 9}


def test_common_random_numbers_same_board_for_every_variant(tmp_path: Path) -> None:
    run(tmp_path, PLAN, workers=1)
    by = {(x["lab"]["variant"], x["lab"]["index"]): x for x in read_lines(tmp_path)}
    for i in range(8):
        a, b = by[("base", i)], by[("t9", i)]
        assert a["params"]["grid"] == b["params"]["grid"] and a["seed"] == b["seed"]


def test_resume_after_an_interruption_gives_the_same_summary(tmp_path: Path) -> None:
    whole, parts = tmp_path / "whole", tmp_path / "parts"
    run(whole, PLAN, workers=1)
    stored = 0

    def stop() -> None:
        nonlocal stored
        stored += 1
        if stored == 5:
            raise KeyboardInterrupt

    first = run(parts, PLAN, workers=2, on_game=stop)
    assert first.interrupted and first.played == 5
    with (parts / GAMES).open("a") as fh:  # a line torn by a crash
        fh.write('{"format": 2, "game": "tic-tac')
    second = run(parts, PLAN, workers=2)
    assert (second.kept, second.played, second.interrupted) == (5, 11, False)
    assert comparable(summarise_folder(parts)) == comparable(summarise_folder(whole))
    again = run(parts, PLAN, workers=2)
    assert again.played == 0 and again.kept == 16


def test_more_games_extend_a_run_and_other_options_are_refused(tmp_path: Path) -> None:
    run(tmp_path, PLAN, workers=1)
    bigger = Plan(PLAN.game, PLAN.params, PLAN.players, 10, seed=3, variants=PLAN.variants)
    assert run(tmp_path, bigger, workers=1).played == 4
    other = Plan(PLAN.game, PLAN.params, PLAN.players, 8, seed=4)
    with pytest.raises(LabError, match="other options"):
        run(tmp_path, other, workers=1)
    assert len(list(read_lines(tmp_path))) == 20


def test_ray_backend_gives_the_local_summary(tmp_path: Path) -> None:
    # Ray comes with the dev extra (and the ``ray`` extra), so this runs in CI: a local
    # Ray instance with two CPUs, started and stopped by the run.
    local, on_ray = tmp_path / "local", tmp_path / "ray"
    plan = Plan("tic-tac-sudoku", {}, ("random", "greedy"), 6, seed=5)
    run(local, plan, workers=2)
    result = run(on_ray, plan, workers=2, backend="ray")
    assert result.played == 6
    assert comparable(summarise_folder(on_ray)) == comparable(summarise_folder(local))


def test_ctrl_c_keeps_every_finished_game(tmp_path: Path) -> None:
    out = tmp_path / "run"
    cmd = [sys.executable, "-m", "sudoku_arena.cli.main", "analyze", "tic-tac-sudoku"]
    cmd += ["--players", "random,random", "--games", "100000", "--workers", "2", "--out", str(out)]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    games = out / GAMES
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not (games.exists() and games.stat().st_size > 5_000):
        time.sleep(0.2)
    os.kill(proc.pid, signal.SIGINT)
    output, _ = proc.communicate(timeout=60)
    assert proc.returncode == 130, output
    assert "interrupted" in output and "resume" in output
    text = games.read_text()
    assert text.endswith("\n")
    kept = [json.loads(x) for x in text.splitlines()]
    assert 0 < len(kept) < 100000
    summary = json.loads((out / "summary.json").read_text())
    assert summary["games"] == len(kept)
