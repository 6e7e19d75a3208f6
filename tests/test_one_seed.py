"""One seed, one game: every door that takes a seed builds the same board from it.

The library (``load``, ``Match``), the command line (``play``, ``selfplay``, ``print``),
the balance lab, PettingZoo and OpenSpiel all go through ``core.registry.load``; this
test keeps them there. For each game it compares the generated set-up (the grid, the
sheet) and, where a door also draws chance from the seed, the opening draws (the first
dice, the tiles dealt) and the resulting view.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

import sudoku_arena
from services import require
from sudoku_arena.cli.main import app
from sudoku_arena.core.match import LogEntry, Match
from sudoku_arena.core.record import Record, read_records, replay
from sudoku_arena.core.types import JsonDict

SEED = 7
#: Each game at a small set-up, so the played doors finish quickly.
GAMES: dict[str, dict[str, str]] = {
    "tic-tac-sudoku": {},
    "sudoku-warriors": {},
    "cat-sudoku": {"players": "2"},
    "sudokuhex": {},
    "citadel": {"size": "9", "max_turns": "4"},
}
runner = CliRunner()


def _param_args(params: dict[str, str]) -> list[str]:
    return [a for k, v in params.items() for a in ("--param", f"{k}={v}")]


def _reference(game_id: str) -> tuple[JsonDict, list[LogEntry], JsonDict]:
    """The library's game: its parameters, its opening chance and seat 0's first view."""
    game = sudoku_arena.load(game_id, seed=SEED, **GAMES[game_id])
    match = Match(game, seed=SEED)
    return dict(game.params), list(match.log), game.view(match.state, 0)


def _opening(record: Record) -> tuple[list[LogEntry], JsonDict]:
    """A record's chance before the first decision, and seat 0's view at that point."""
    opening: list[LogEntry] = []
    for entry in record.actions:
        if entry.actor is not None:
            break
        opening.append(entry)
    game, states = replay(record)
    return opening, game.view(states[len(opening)], 0)


def _cli(*args: str) -> str:
    result = runner.invoke(app, list(args), env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    return result.stdout


@pytest.mark.parametrize("game_id", list(GAMES))
def test_the_command_line_plays_the_librarys_game_for_a_seed(game_id: str, tmp_path: Path) -> None:
    params, opening, view = _reference(game_id)
    extra = _param_args(GAMES[game_id])
    seats = "random,random"
    saved = tmp_path / "play.json"
    _cli("play", game_id, "--players", seats, "--seed", str(SEED), "--save", str(saved), *extra)
    many = tmp_path / "selfplay.jsonl"
    _cli("selfplay", game_id, "--players", seats, "--games", "1", "--seed", str(SEED),
         "--out", str(many), *extra)  # fmt: skip
    for path in (saved, many):
        record = next(read_records(path))
        assert record.params == params, path.name
        assert _opening(record) == (opening, view), path.name


@pytest.mark.parametrize("game_id", list(GAMES))
def test_the_lab_plays_the_librarys_game_for_a_seed(game_id: str, tmp_path: Path) -> None:
    params, opening, view = _reference(game_id)
    out = tmp_path / "run"
    _cli("analyze", game_id, "--players", "random,random", "--games", "1", "--seed", str(SEED),
         "--out", str(out), *_param_args(GAMES[game_id]))  # fmt: skip
    record = next(read_records(out / "games.jsonl"))
    assert record.params == params
    assert _opening(record) == (opening, view)


@pytest.mark.parametrize("game_id", ["tic-tac-sudoku", "sudoku-warriors", "cat-sudoku"])
def test_print_and_play_prints_the_librarys_set_up_for_a_seed(game_id: str, tmp_path: Path) -> None:
    require("pdftotext", shutil.which("pdftotext") is not None, "Debian's poppler-utils")
    params, _, _ = _reference(game_id)
    out = tmp_path / "sheet.pdf"
    _cli("print", game_id, "--seed", str(SEED), "--out", str(out), *_param_args(GAMES[game_id]))
    text = " ".join(
        subprocess.run(["pdftotext", str(out), "-"], capture_output=True, text=True).stdout.split()
    )
    if "grid" in params:
        assert set(re.findall(r"grid (\d{81})", text)) == {params["grid"]}
    else:
        assert f"sheet {params['sheet']}" in text


@pytest.mark.parametrize("game_id", list(GAMES))
def test_pettingzoo_resets_to_the_librarys_game_for_a_seed(game_id: str) -> None:
    pytest.importorskip("pettingzoo", reason="the rl extra is part of the test setup")
    from sudoku_arena.interop.pettingzoo import env as make_env

    params, _, view = _reference(game_id)
    e = make_env(game_id, **GAMES[game_id])
    e.reset(seed=SEED)
    raw = e.unwrapped  # the wrappers' own state() hides the engine's state
    assert dict(raw.game.params) == params
    assert raw.game.view(raw.state, 0) == view


@pytest.mark.parametrize("game_id", list(GAMES))
def test_openspiel_loads_the_librarys_set_up_for_a_seed(game_id: str) -> None:
    pytest.importorskip("pyspiel", reason="the openspiel extra is part of the test setup")
    import pyspiel

    from sudoku_arena.interop import openspiel as adapter

    params, _, _ = _reference(game_id)
    given: dict[str, object] = {"seed": SEED}
    for name, value in GAMES[game_id].items():
        given[name] = int(value)
    game = pyspiel.load_game(adapter.short_name(game_id), given)
    assert dict(game.new_initial_state().rules.params) == params


def test_different_seeds_give_different_boards() -> None:
    # Guards the tests above against a door that ignores its seed altogether.
    grids = {sudoku_arena.load("tic-tac-sudoku", seed=s).params["grid"] for s in range(5)}
    assert len(grids) == 5
