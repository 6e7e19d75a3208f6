"""The command line: list, play (scripted input), selfplay + replay --verify, check."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sudoku_arena.cli.main import app

runner = CliRunner()


def test_list_shows_every_registered_game() -> None:
    result = runner.invoke(app, ["list"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    assert "tic-tac-sudoku" in result.output and "Nine tic-tac-toe boards" in result.output


def test_selfplay_then_replay_verify(tmp_path: Path) -> None:
    out = tmp_path / "g.jsonl"
    result = runner.invoke(
        app,
        [
            "selfplay",
            "tic-tac-sudoku",
            "--players",
            "random,greedy",
            "--games",
            "30",
            "--out",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    assert "mean length" in result.output and "greedy" in result.output
    assert len(out.read_text().splitlines()) == 30
    result = runner.invoke(app, ["replay", "--verify", str(out)])
    assert result.exit_code == 0 and "30 record(s): 30 verified, 0 failed" in result.output


def test_replay_verify_names_the_bad_ply(tmp_path: Path) -> None:
    out = tmp_path / "g.jsonl"
    runner.invoke(app, ["selfplay", "tic-tac-sudoku", "--games", "2", "--out", str(out)])
    lines = out.read_text().splitlines()
    rec = json.loads(lines[1])
    rec["actions"][2]["action"] = rec["actions"][0]["action"]
    lines[1] = json.dumps(rec)
    out.write_text("\n".join(lines) + "\n")
    result = runner.invoke(app, ["replay", "--verify", str(out)])
    assert result.exit_code == 1
    assert "line 2" in result.output and "ply 2" in result.output
    assert "1 verified, 1 failed" in result.output


def test_replay_shows_a_game(tmp_path: Path) -> None:
    out = tmp_path / "g.jsonl"
    runner.invoke(app, ["selfplay", "tic-tac-sudoku", "--games", "1", "--out", str(out)])
    result = runner.invoke(app, ["replay", str(out)])
    text = result.output
    assert result.exit_code == 0 and "0.1:" in text and "wins" in text
    assert "scores: Circle " in text and ".0," not in text  # names and exact scores


def test_play_against_a_bot_with_bad_input_undo_and_quit(fixed_grid: str) -> None:
    script = "\n".join(
        ["help", "moves", "r5c5", "nonsense", "r1c1", "undo", "undo", "r1c1", "quit"]
    )
    result = runner.invoke(
        app,
        [
            "play",
            "tic-tac-sudoku",
            "--players",
            "human,greedy",
            "--seed",
            "3",
            "--grid",
            fixed_grid,
        ],
        input=script + "\n",
    )
    out = result.output
    assert result.exit_code == 0, out
    assert "take back your last action" in out  # help
    assert "centre box b5" in out  # r5c5 refused with the rule
    assert "is not a cell" in out  # nonsense refused
    assert "undone: Square (greedy): " in out and "; Circle (human): r1c1" in out
    assert out.count("Circle (human): r1c1") == 3  # played, undone, played again
    assert "nothing to undo for Circle" in out  # the seat's name, not "seat 0"
    assert "game left unfinished" in out


def test_play_hot_seat_to_the_end(fixed_grid: str, tmp_path: Path) -> None:
    # Two bots play; the record is saved and replays.
    save = tmp_path / "game.json"
    result = runner.invoke(
        app,
        [
            "play",
            "tic-tac-sudoku",
            "--players",
            "greedy,random",
            "--seed",
            "1",
            "--save",
            str(save),
        ],
    )
    assert result.exit_code == 0, result.output
    assert "Game over" in result.output
    verify = runner.invoke(app, ["replay", "--verify", str(save)])
    assert verify.exit_code == 0


def test_clear_errors_for_bad_options(fixed_grid: str) -> None:
    cases = [
        (["play", "chess"], "no game called 'chess'"),
        (["play", "tic-tac-sudoku", "--grid", "123"], "grid has 3 digits"),
        (["play", "tic-tac-sudoku", "--players", "human,wizard"], "no agent called 'wizard'"),
        (["play", "tic-tac-sudoku", "--players", "human"], "players=1 is out of range"),
        (["selfplay", "tic-tac-sudoku", "--param", "size"], "NAME=VALUE"),
        (["replay", "/nonexistent.jsonl"], "no such file"),
    ]
    for args, message in cases:
        result = runner.invoke(app, args)
        assert result.exit_code == 2, (args, result.output)
        assert message in result.output, (args, result.output)


def test_check_command_passes() -> None:
    result = runner.invoke(app, ["check", "tic-tac-sudoku", "--games", "3", "--jobs", "2"])
    assert result.exit_code == 0, result.output
    assert "tic-tac-sudoku: 3 games" in result.output and "all passed" in result.output
    assert "3 games checked" in result.output


def test_check_command_names_failures_and_how_to_replay_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from sudoku_arena.games.tic_tac_sudoku.game import TicTacSudoku

    original = TicTacSudoku.load_state

    def lossy(self: TicTacSudoku, data: dict[str, object]) -> object:
        return original(self, data)._replace(scores=(0, 0))

    monkeypatch.setattr(TicTacSudoku, "load_state", lossy)  # seen by this process only
    args = ["check", "tic-tac-sudoku", "--games", "2", "--seed", "40", "--jobs", "1"]
    result = runner.invoke(app, args, env={"COLUMNS": "300"})
    assert result.exit_code == 1, result.output
    assert "FAIL tic-tac-sudoku: 2 of 2 games failed" in result.output
    assert "tic-tac-sudoku players=2 seed=40 ply=" in result.output
    again = "sudoku-arena check tic-tac-sudoku --games 1 --seed 41 --param players=2"
    assert f"again: {again}" in result.output
    result = runner.invoke(app, [*again.split()[1:], "--jobs", "1"], env={"COLUMNS": "300"})
    assert result.exit_code == 1 and "1 of 1 games failed" in result.output
    assert "seed=41 ply=" in result.output and "seed=40" not in result.output


def _flat(text: str) -> str:
    """``text`` with every run of white space made one space: the console wraps prose at
    its width (set when the command's module is imported, not per invocation)."""
    return " ".join(text.split())


def test_check_command_depth_follows_the_run_and_failures_say_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import sudoku_arena.testing.runner as runner_module
    from sudoku_arena.games.tic_tac_sudoku.game import TicTacSudoku

    full = runner_module.FULL_GAMES
    result = runner.invoke(app, ["check", "--help"], env={"COLUMNS": "300"})
    assert f"fewer than {2 * full} games" in result.output
    assert f"GAMES // {full}" in result.output and f"what {full} whole games do" in result.output
    args = ["check", "tic-tac-sudoku", "--games", "2", "--jobs", "1"]
    result = runner.invoke(app, args, env={"COLUMNS": "300"})
    assert (
        "depth: every check on each of the first 150 plies of each game, and on its end"
        in _flat(result.output)
    )
    # A run large for the policy: the checks are spread over whole games, and a failure's
    # command repeats the depth so that the game is checked the same way again.
    monkeypatch.setattr(runner_module, "FULL_GAMES", 1)
    original = TicTacSudoku.load_state

    def lossy(self: TicTacSudoku, data: dict[str, object]) -> object:
        return original(self, data)._replace(scores=(0, 0))

    monkeypatch.setattr(TicTacSudoku, "load_state", lossy)
    result = runner.invoke(app, [*args, "--seed", "40"], env={"COLUMNS": "300"})
    assert "depth: every check on one in 2 of all plies of each game (a different one" in _flat(
        result.output
    )
    assert result.exit_code == 1, result.output
    again = "sudoku-arena check tic-tac-sudoku --games 1 --seed 41 --param players=2"
    assert f"again: {again} --deep-plies 200000 --every 2" in result.output
    result = runner.invoke(app, [*args, "--every", "3"], env={"COLUMNS": "300"})
    assert "depth: every check on one in 3 of the first 150 plies of each game" in _flat(
        result.output
    )


def test_check_command_refuses_bad_options() -> None:
    result = runner.invoke(app, ["check", "tic-tac-sudoku", "--jobs", "0"])
    assert result.exit_code == 2
    result = runner.invoke(app, ["check", "no-such-game"])
    assert result.exit_code == 2 and "no game called" in result.output


def test_acceptance_thousand_random_games_replay(tmp_path: Path) -> None:
    out = tmp_path / "g.jsonl"
    args = ["selfplay", "tic-tac-sudoku", "--players", "random,random", "--games", "1000"]
    result = runner.invoke(app, [*args, "--out", str(out)])
    assert result.exit_code == 0, result.output
    result = runner.invoke(app, ["replay", "--verify", str(out)])
    assert result.exit_code == 0 and "1000 record(s): 1000 verified, 0 failed" in result.output
