"""``selfplay`` and ``replay`` as a person runs them: bad input gives one clear line and
no traceback, nothing is left behind, and ``--verify`` reports every bad record."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sudoku_arena.cli.main", *args],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=cwd,
    )


def _one_clear_line(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode != 0
    assert "Traceback" not in result.stderr + result.stdout
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr
    return lines[0]


def test_selfplay_into_a_missing_folder_is_refused_before_playing(tmp_path: Path) -> None:
    out = tmp_path / "no such folder" / "g.jsonl"
    line = _one_clear_line(run("selfplay", "tic-tac-sudoku", "--games", "2", "--out", str(out)))
    assert "does not exist" in line and str(out.parent) in line
    assert not out.parent.exists()


def test_selfplay_into_a_folder_is_refused(tmp_path: Path) -> None:
    line = _one_clear_line(run("selfplay", "tic-tac-sudoku", "--out", str(tmp_path)))
    assert "is a folder" in line


def test_selfplay_with_a_bad_agent_name_echoes_it_literally(tmp_path: Path) -> None:
    out = tmp_path / "g.jsonl"
    result = run("selfplay", "tic-tac-sudoku", "--players", "mcts[bold]x,random", "--out", str(out))
    line = _one_clear_line(result)
    assert "mcts[bold]x" in line
    assert not out.exists() and list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("kind", ["folder", "binary", "missing"])
def test_replay_of_what_is_not_a_record_file_is_refused(tmp_path: Path, kind: str) -> None:
    target = tmp_path / "thing"
    if kind == "folder":
        target.mkdir()
    elif kind == "binary":
        target.write_bytes(bytes(range(256)) * 4)
    line = _one_clear_line(run("replay", str(target)))
    expected = {"folder": "is a folder", "binary": "not a text file", "missing": "no such file"}
    assert expected[kind] in line
    line = _one_clear_line(run("replay", "--verify", str(target)))
    assert expected[kind] in line


def test_verify_reports_every_bad_record_and_sums_up(tmp_path: Path) -> None:
    out = tmp_path / "g.jsonl"
    assert run("selfplay", "sudokuhex", "--games", "4", "--out", str(out)).returncode == 0
    lines = out.read_text().splitlines()
    assert len(lines) == 4
    other_version = json.loads(lines[1])
    other_version["game_version"] = "0.1.0"
    lines[1] = json.dumps(other_version)
    bad_draw = json.loads(lines[2])
    k = next(i for i, a in enumerate(bad_draw["actions"]) if a["action"].startswith("draw"))
    tile = int(bad_draw["actions"][k]["action"].split()[1])
    bad_draw["actions"][k]["action"] = f"draw {1 + tile % 7}"
    lines[2] = json.dumps(bad_draw)
    lines.append(lines[0][: len(lines[0]) // 2])  # a truncated last line
    out.write_text("\n".join(lines) + "\n")
    result = run("replay", "--verify", str(out))
    assert result.returncode == 1 and "Traceback" not in result.stderr
    err = result.stderr
    assert "line 2 (sudokuhex): recorded with sudokuhex version 0.1.0" in err
    assert f"line 3 (sudokuhex): ply {k}:" in err
    assert "line 5: not a record" in err
    assert "5 record(s): 2 verified, 3 failed" in err


def test_verify_of_an_empty_file_fails_clearly(tmp_path: Path) -> None:
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    assert "no records" in _one_clear_line(run("replay", "--verify", str(empty)))


def test_play_shows_the_seed_of_a_chance_game_only_after_it(tmp_path: Path) -> None:
    result = run("play", "sudokuhex", "--players", "greedy,random", "--seed", "41")
    assert result.returncode == 0, result.stderr
    first, *_rest, last = [line for line in result.stdout.splitlines() if line.strip()]
    assert "41" not in first
    assert "seed 41" in last
    # The seed really reproduces the game: the same moves and the same end.
    again = run("play", "sudokuhex", "--players", "greedy,random", "--seed", "41")
    assert again.stdout == result.stdout


def test_play_save_into_a_missing_folder_is_refused_before_the_game(tmp_path: Path) -> None:
    target = tmp_path / "missing" / "game.json"
    result = run("play", "tic-tac-sudoku", "--players", "random,random", "--save", str(target))
    line = _one_clear_line(result)
    assert "--save" in line and "does not exist" in line
    assert "wins" not in result.stdout  # refused before any move was played


@pytest.mark.parametrize("how", ["--sheet", "--param"])
def test_a_sheet_file_that_is_not_utf8_is_refused(tmp_path: Path, how: str) -> None:
    sheet = tmp_path / "cat.sheet"
    sheet.write_bytes(b"name: \xff\xfe cat\n")
    args = ["--sheet", str(sheet)] if how == "--sheet" else ["--param", f"sheet=@{sheet}"]
    result = run("play", "cat-sudoku", "--players", "greedy", *args)
    line = _one_clear_line(result)
    assert str(sheet) in line and "UTF-8" in line
