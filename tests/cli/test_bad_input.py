"""Every bad input a person may give the command line, run as they would run it.

Each case is a subprocess of ``sudoku-arena`` that must end with a non-zero exit, exactly
one line on stderr, no traceback, the person's own text echoed literally (never read as
Rich markup), and nothing left behind in the folder it was given.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from sudoku_arena.ai import make_agent
from sudoku_arena.core.match import Match

#: A case builds, in a fresh folder, the arguments, the text the error must echo
#: literally, and words the error must contain.
Case = Callable[[Path], tuple[list[str], str, str]]


def _records(n: int) -> list[str]:
    """``n`` finished Tic-Tac-Sudoku records as JSON lines (random play, fixed seeds)."""
    lines = []
    for seed in range(n):
        match = Match.new("tic-tac-sudoku", seed=seed, players=["random", "random"])
        match.run([make_agent("random", match.game, seed=k) for k in (0, 1)])
        lines.append(match.record().dumps())
    return lines


def play_save_into_missing_folder(tmp: Path) -> tuple[list[str], str, str]:
    target = tmp / "missing" / "game.json"
    args = ["play", "tic-tac-sudoku", "--players", "random,random", "--save", str(target)]
    return args, str(target.parent), "does not exist"


def selfplay_out_into_missing_folder(tmp: Path) -> tuple[list[str], str, str]:
    target = tmp / "no such folder" / "g.jsonl"
    return (
        ["selfplay", "tic-tac-sudoku", "--games", "2", "--out", str(target)],
        str(target.parent),
        "does not exist",
    )


def selfplay_out_into_a_folder(tmp: Path) -> tuple[list[str], str, str]:
    return ["selfplay", "tic-tac-sudoku", "--games", "2", "--out", str(tmp)], str(tmp), "folder"


def replay_of_a_folder(tmp: Path) -> tuple[list[str], str, str]:
    (tmp / "games").mkdir()
    return ["replay", str(tmp / "games")], str(tmp / "games"), "is a folder"


def replay_of_a_binary_file(tmp: Path) -> tuple[list[str], str, str]:
    (tmp / "game.bin").write_bytes(bytes(range(256)) * 4)
    return ["replay", str(tmp / "game.bin")], str(tmp / "game.bin"), "not a text file"


def verify_of_a_binary_file(tmp: Path) -> tuple[list[str], str, str]:
    args, echo, words = replay_of_a_binary_file(tmp)
    return ["replay", "--verify", args[1]], echo, words


def replay_of_a_missing_file(tmp: Path) -> tuple[list[str], str, str]:
    return ["replay", str(tmp / "nothing.jsonl")], str(tmp / "nothing.jsonl"), "no such file"


def verify_with_a_truncated_line(tmp: Path) -> tuple[list[str], str, str]:
    first, second = _records(2)
    path = tmp / "g.jsonl"
    path.write_text(f"{first}\n{second[: len(second) // 2]}\n{second}\n", encoding="utf-8")
    return ["replay", "--verify", str(path)], str(path), "line 2: not a record"


def verify_of_an_empty_file(tmp: Path) -> tuple[list[str], str, str]:
    (tmp / "empty.jsonl").write_text("")
    return ["replay", "--verify", str(tmp / "empty.jsonl")], str(tmp / "empty.jsonl"), "no records"


def _not_utf8(tmp: Path) -> Path:
    sheet = tmp / "cat [bold]sheet.txt"
    sheet.write_bytes(b"name: \xff\xfe cat\n")
    return sheet


def sheet_not_utf8(tmp: Path) -> tuple[list[str], str, str]:
    sheet = _not_utf8(tmp)
    return ["play", "cat-sudoku", "--players", "greedy", "--sheet", str(sheet)], str(sheet), "UTF-8"


def param_file_not_utf8(tmp: Path) -> tuple[list[str], str, str]:
    sheet = _not_utf8(tmp)
    args = ["play", "cat-sudoku", "--players", "greedy", "--param", f"sheet=@{sheet}"]
    return args, str(sheet), "UTF-8"


def _serve(*args: str) -> list[str]:
    return ["serve", "--port", "1", *args]


def serve_bad_database_url(tmp: Path) -> tuple[list[str], str, str]:
    return _serve("--database-url", "nosuch://x[bold]y"), "nosuch://x[bold]y", "cannot connect"


def serve_unreachable_database(tmp: Path) -> tuple[list[str], str, str]:
    url = "postgresql://nobody@127.0.0.1:1/x"
    return _serve("--database-url", url), url, "cannot connect"


def serve_sqlite_in_missing_folder(tmp: Path) -> tuple[list[str], str, str]:
    url = f"sqlite:///{tmp}/missing/a.sqlite3"
    return _serve("--database-url", url), url, "does not exist"


def serve_sqlite_under_a_file(tmp: Path) -> tuple[list[str], str, str]:
    (tmp / "notes.txt").write_text("a file, not a folder\n")
    url = f"sqlite:///{tmp}/notes.txt/a.sqlite3"
    return _serve("--database-url", url), url, "does not exist"


def serve_sqlite_on_a_folder(tmp: Path) -> tuple[list[str], str, str]:
    (tmp / "db").mkdir()
    url = f"sqlite:///{tmp}/db"
    return _serve("--database-url", url), url, "is a folder"


def serve_unreachable_redis(tmp: Path) -> tuple[list[str], str, str]:
    url = "redis://127.0.0.1:1"
    args = _serve("--database-url", f"sqlite:///{tmp}/a.sqlite3", "--redis-url", url)
    return args, url, "cannot reach Redis"


def serve_port_too_high(tmp: Path) -> tuple[list[str], str, str]:
    return ["serve", "--port", "99999"], "99999", "allowed: 1-65535"


def serve_port_zero(tmp: Path) -> tuple[list[str], str, str]:
    return ["serve", "--port", "0"], "0", "allowed: 1-65535"


def markup_in_an_agent_name(tmp: Path) -> tuple[list[str], str, str]:
    out = tmp / "g.jsonl"
    args = ["selfplay", "tic-tac-sudoku", "--players", "mcts[bold]x,random", "--out", str(out)]
    return args, "mcts[bold]x", "no agent called"


def markup_in_a_player_list(tmp: Path) -> tuple[list[str], str, str]:
    return ["play", "tic-tac-sudoku", "--players", "human,[red]wizard"], "[red]wizard", "agent"


def markup_in_a_game_id(tmp: Path) -> tuple[list[str], str, str]:
    return ["play", "[bold]chess"], "[bold]chess", "no game called"


def markup_in_a_parameter(tmp: Path) -> tuple[list[str], str, str]:
    args = ["play", "citadel", "--players", "random,random", "--param", "size=[b]9"]
    return args, "[b]9", "size"


def long_garbage_as_a_game(tmp: Path) -> tuple[list[str], str, str]:
    return ["play", "q" * 300], "'" + "q" * 40 + "…'", "no game called"


def unknown_option(tmp: Path) -> tuple[list[str], str, str]:
    return ["serve", "--prot", "8000"], "--prot", "No such option"


def not_a_number(tmp: Path) -> tuple[list[str], str, str]:
    return ["selfplay", "tic-tac-sudoku", "--games", "many"], "--games", "integer"


CASES: list[Case] = [
    play_save_into_missing_folder,
    selfplay_out_into_missing_folder,
    selfplay_out_into_a_folder,
    replay_of_a_folder,
    replay_of_a_binary_file,
    verify_of_a_binary_file,
    replay_of_a_missing_file,
    verify_with_a_truncated_line,
    verify_of_an_empty_file,
    sheet_not_utf8,
    param_file_not_utf8,
    serve_bad_database_url,
    serve_unreachable_database,
    serve_sqlite_in_missing_folder,
    serve_sqlite_under_a_file,
    serve_sqlite_on_a_folder,
    serve_unreachable_redis,
    serve_port_too_high,
    serve_port_zero,
    markup_in_an_agent_name,
    markup_in_a_player_list,
    markup_in_a_game_id,
    markup_in_a_parameter,
    long_garbage_as_a_game,
    unknown_option,
    not_a_number,
]


def _tree(folder: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(folder)): (p.read_bytes() if p.is_file() else b"")
        for p in sorted(folder.rglob("*"))
    }


@pytest.mark.parametrize("case", CASES, ids=[c.__name__ for c in CASES])
def test_bad_input_gives_one_clear_line(tmp_path: Path, case: Case) -> None:
    args, echo, words = case(tmp_path)
    before = _tree(tmp_path)
    result = subprocess.run(
        [sys.executable, "-m", "sudoku_arena.cli.main", *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
        env={**os.environ, "COLUMNS": "80"},
    )
    assert result.returncode != 0, result.stdout
    assert "Traceback" not in result.stderr + result.stdout
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr
    assert echo in lines[0], lines[0]
    assert words in lines[0], lines[0]
    assert _tree(tmp_path) == before  # nothing written, nothing half-written
    assert "wins" not in result.stdout  # refused before any game was played
