"""Parameters and the registry: clear refusals that say what is allowed."""

from __future__ import annotations

import pytest

import sudoku_arena
from sudoku_arena.core.errors import InvalidParameterError, UnknownGameError
from sudoku_arena.core.params import parse_param_text


def test_unknown_game_lists_known_ones() -> None:
    with pytest.raises(UnknownGameError, match="tic-tac-sudoku"):
        sudoku_arena.load("chess")


def test_unknown_parameter_lists_allowed() -> None:
    with pytest.raises(InvalidParameterError, match="allowed: players, grid, target"):
        sudoku_arena.load("tic-tac-sudoku", colour="red")


@pytest.mark.parametrize(
    ("value", "message"),
    [("abc", "not a whole number"), ("0", "out of range"), (True, "not a whole number")],
)
def test_bad_values_are_refused(value: object, message: str) -> None:
    with pytest.raises(InvalidParameterError, match=message):
        sudoku_arena.load("tic-tac-sudoku", target=value)


def test_strings_are_converted() -> None:
    assert sudoku_arena.load("tic-tac-sudoku", target="9").target == 9


def test_players_out_of_range() -> None:
    with pytest.raises(InvalidParameterError, match="players=3 is out of range"):
        sudoku_arena.load("tic-tac-sudoku", players=3)


def test_param_text_parsing() -> None:
    assert parse_param_text(["size=13", " a = b "]) == {"size": "13", "a": "b"}
    with pytest.raises(InvalidParameterError, match="NAME=VALUE"):
        parse_param_text(["size"])


def test_registry_lists_specs() -> None:
    ids = [s.id for s in sudoku_arena.registered_games()]
    assert "tic-tac-sudoku" in ids and ids == sorted(ids)


def test_load_is_reproducible() -> None:
    a = sudoku_arena.load("tic-tac-sudoku", seed=5).params
    b = sudoku_arena.load("tic-tac-sudoku", seed=5).params
    c = sudoku_arena.load("tic-tac-sudoku", seed=6).params
    assert a == b and a["grid"] != c["grid"]
