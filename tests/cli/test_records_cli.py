"""``selfplay``, ``replay`` and ``play`` records as a person runs them: ``--verify``
reports every bad record, and the seed of a chance game is shown only after it.
(Bad input of every command: ``test_bad_input.py``.)"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sudoku_arena.cli.main", *args],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=cwd,
    )


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
    err = result.stderr.splitlines()  # one line per bad record; the summary on stdout
    assert len(err) == 3
    assert err[0].startswith(f"{out}: line 2: (sudokuhex) recorded with sudokuhex version 0.1.0")
    assert err[1].startswith(f"{out}: line 3: (sudokuhex) ply {k}:")
    assert err[2].startswith(f"{out}: line 5: not a record")
    assert "5 record(s): 2 verified, 3 failed" in result.stdout


def test_play_shows_the_seed_of_a_chance_game_only_after_it(tmp_path: Path) -> None:
    result = run("play", "sudokuhex", "--players", "greedy,random", "--seed", "41")
    assert result.returncode == 0, result.stderr
    first, *_rest, last = [line for line in result.stdout.splitlines() if line.strip()]
    assert "41" not in first
    assert "seed 41" in last
    # The seed really reproduces the game: the same moves and the same end.
    again = run("play", "sudokuhex", "--players", "greedy,random", "--seed", "41")
    assert again.stdout == result.stdout
