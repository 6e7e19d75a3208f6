"""One test per ruling TTS-1..8, on the fixed grid:

r1: 5 3 4 | 6 7 8 | 9 1 2      r4: 8 5 9 | 7 6 1 | 4 2 3      r7: 9 6 1 | 5 3 7 | 2 8 4
r2: 6 7 2 | 1 9 5 | 3 4 8      r5: 4 2 6 | 8 5 3 | 7 9 1      r8: 2 8 7 | 4 1 9 | 6 3 5
r3: 1 9 8 | 3 4 2 | 5 6 7      r6: 7 1 3 | 9 2 4 | 8 5 6      r9: 3 4 5 | 2 8 6 | 1 7 9
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import sudoku_arena
from sudoku_arena.core.errors import IllegalActionError, InvalidGridError, InvalidParameterError
from sudoku_arena.games.tic_tac_sudoku.game import TicTacSudoku

sys.path.insert(0, str(Path(__file__).parent))
from helpers import play, position


@pytest.fixture
def game(fixed_grid: str) -> TicTacSudoku:
    g = sudoku_arena.load("tic-tac-sudoku", grid=fixed_grid)
    assert isinstance(g, TicTacSudoku)
    return g


def test_tts_1_board_is_a_completed_sudoku(fixed_grid: str) -> None:
    g = sudoku_arena.load("tic-tac-sudoku", grid=fixed_grid)
    assert "".join(map(str, g.grid)) == fixed_grid
    generated = sudoku_arena.load("tic-tac-sudoku", seed=42).params["grid"]
    assert generated == sudoku_arena.load("tic-tac-sudoku", seed=42).params["grid"]
    bad = fixed_grid[:40] + ("1" if fixed_grid[40] != "1" else "2") + fixed_grid[41:]
    with pytest.raises(InvalidGridError, match="row 5"):
        sudoku_arena.load("tic-tac-sudoku", grid=bad)


def test_tts_2_two_players_circle_first(game: TicTacSudoku) -> None:
    s = game.initial_state()
    assert game.to_move(s).players == (0,)
    assert game.view(s, None)["players"] == ["circle", "square"]
    with pytest.raises(InvalidParameterError):
        sudoku_arena.load("tic-tac-sudoku", players=3)
    s = play(game, ["r1c1"])
    assert game.to_move(s).players == (1,)


def test_tts_3_first_placement_outside_b5(game: TicTacSudoku) -> None:
    s = game.initial_state()
    legal = {game.format_action(a) for a in game.legal_actions(s, 0)}
    assert len(legal) == 72 and "r5c5" not in legal and "r4c4" not in legal
    with pytest.raises(IllegalActionError, match="centre box b5"):
        game.apply(s, game.parse_action("r5c5"))


def test_tts_3_next_placement_n_minus_1_to_n_plus_1(game: TicTacSudoku) -> None:
    s = play(game, ["r1c2", "r9c9"])  # circle open on 3
    legal = {game.grid[a] for a in game.legal_actions(s, 0)}
    assert legal == {2, 3, 4}
    with pytest.raises(IllegalActionError, match=r"holds 5.*may place on 2, 3, 4"):
        game.apply(s, game.parse_action("r1c1"))


def test_tts_3_numbers_wrap_between_9_and_1(game: TicTacSudoku) -> None:
    s = play(game, ["r1c7", "r1c8"])  # circle on 9, square on 1
    assert {game.grid[a] for a in game.legal_actions(s, 0)} == {8, 9, 1}
    assert {game.grid[a] for a in game.legal_actions(play(game, ["r2c9"], s), 1)} == {9, 1, 2}
    with pytest.raises(IllegalActionError, match="holds 7"):
        game.apply(s, game.parse_action("r2c2"))


def test_tts_3_empty_means_no_symbol_of_any_kind(game: TicTacSudoku) -> None:
    s = position(game, circles="r1c1", squares="r1c3", xs="r2c1", open_=("r1c1", "r1c3"))
    # circle on 5 may go on 4, 5, 6: r1c3 (4, square) and r2c1 (6, X'd) are not empty.
    legal = {game.format_action(a) for a in game.legal_actions(s, 0)}
    assert "r1c3" not in legal and "r2c1" not in legal and "r1c4" in legal
    for cell in ("r1c3", "r2c1"):
        with pytest.raises(IllegalActionError, match="already taken"):
            game.apply(s, game.parse_action(cell))


def test_tts_4_previous_symbol_is_filled_and_still_scores(game: TicTacSudoku) -> None:
    s = play(game, ["r1c2", "r9c9", "r1c3"])  # circle 3 then 4
    v = game.view(s, None)
    assert v["cells"][1] == "circle-filled" and v["cells"][2] == "circle-open"
    # r1c1 then completes the row with the filled r1c2 and the open r1c3.
    s = position(game, circles="r1c2 r1c3", open_=("r1c3", None), squares="r9c9")
    s = game.apply(s, game.parse_action("r1c1"))
    assert s.scores == (1, 0)


def test_tts_5_first_centre_placement_xs_previous_once(game: TicTacSudoku) -> None:
    s = play(game, ["r1c1", "r9c9"])  # circle on 5
    s = play(game, ["r5c5"], s)  # first into b5: r1c1 is X'd
    v = game.view(s, None)
    assert v["cells"][0] == "x" and v["cells"][40] == "circle-open" and s.centre_used
    # square on 9 goes to b5 second: no X.
    s = play(game, ["r4c6"], s)  # holds 1, next to 9
    v = game.view(s, None)
    assert v["cells"][80] == "square-filled"
    # The X'd space belongs to nobody and stays occupied.
    assert 0 not in game.legal_actions(s, 0)


def test_tts_5_xd_symbol_never_scores(game: TicTacSudoku) -> None:
    s = position(game, circles="r1c2", xs="r1c1", open_=("r1c2", None), squares="r9c9")
    s = game.apply(s, game.parse_action("r1c3"))  # r1c1 X, r1c2 O, r1c3 O: no line
    assert s.scores == (0, 0)


def test_tts_6_small_board_line(game: TicTacSudoku) -> None:
    s = position(game, circles="r1c1 r1c2", open_=("r1c2", None), squares="r9c9")
    s = game.apply(s, game.parse_action("r1c3"))
    assert s.scores == (1, 0)


def test_tts_6_common_space_line(game: TicTacSudoku) -> None:
    # Top-left corners of b1, b2, b3: r1c1, r1c4, r1c7.
    s = position(game, circles="r1c1 r1c4 r1c6", open_=("r1c6", None), squares="r9c9")
    s = game.apply(s, game.parse_action("r1c7"))
    assert s.scores == (2, 0)


def test_tts_6_all_three_at_once_like_the_seed_example(game: TicTacSudoku) -> None:
    # r1c3 completes row 1 and column 3 of b1 (2), the top-right corners of b1-b3 (2)
    # and is the fifth circle in b1 (map).
    s = position(
        game,
        circles="r1c1 r1c2 r2c3 r3c3 r1c6 r1c9",
        open_=("r1c2", None),
        squares="r9c9",
    )
    s = game.apply(s, game.parse_action("r1c3"))
    assert s.scores == (4, 0)
    assert s.map[0] == 0


def test_tts_6_map_mark_is_permanent(game: TicTacSudoku) -> None:
    s = position(game, circles="r1c1 r1c2 r2c1 r2c2", open_=("r1c2", None), squares="r9c9")
    s = game.apply(s, game.parse_action("r1c3"))
    assert s.map[0] == 0
    # Into b5 first: r1c3 is X'd, so circle holds only 4 in b1 now; the mark stays.
    s = play(game, ["r8c9", "r5c5"], s)
    assert game.view(s, None)["cells"][2] == "x"
    assert s.map[0] == 0


def test_tts_7_map_line_wins(game: TicTacSudoku) -> None:
    m = (0, 0) + (-1,) * 7
    s = position(game, circles="r1c7 r1c8 r2c9 r3c7", open_=("r2c9", None), squares="r9c1", map=m)
    s = game.apply(s, game.parse_action("r3c9"))
    out = game.outcome(s)
    assert out is not None and out.winners == (0,) and "map" in out.reason
    assert game.to_move(s).is_terminal and game.returns(s) == (1.0, 0.0)


def test_tts_7_target_wins_and_is_an_option(fixed_grid: str) -> None:
    for target, over in ((13, True), (14, False)):
        g = sudoku_arena.load("tic-tac-sudoku", grid=fixed_grid, target=target)
        s = position(g, circles="r1c1 r1c2", open_=("r1c2", None), squares="r9c9", scores=(12, 0))
        s = g.apply(s, g.parse_action("r1c3"))
        assert (g.outcome(s) is not None) is over


def _blocked_position(game: TicTacSudoku, scores: tuple[int, int]) -> object:
    # Everything X'd but r1c1 (5) and r1c3 (4); circle open on r1c2 (3), square on r2c2 (7).
    xs = " ".join(
        f"r{r}c{c}"
        for r in range(1, 10)
        for c in range(1, 10)
        if (r, c) not in {(1, 1), (1, 2), (1, 3), (2, 2)}
    )
    return position(
        game, circles="r1c2", squares="r2c2", xs=xs, open_=("r1c2", "r2c2"), scores=scores
    )


def test_tts_7_blocked_higher_score_wins(game: TicTacSudoku) -> None:
    s = _blocked_position(game, (0, 3))
    s = game.apply(s, game.parse_action("r1c3"))  # circle 3 -> 4; square (7) is stuck
    assert game.to_move(s).players == (0,)
    s = game.apply(s, game.parse_action("r1c1"))  # circle 4 -> 5; now nobody can move
    out = game.outcome(s)
    assert out is not None and out.winners == (1,) and "neither" in out.reason


def test_tts_7_blocked_tie_goes_to_last_placer(game: TicTacSudoku) -> None:
    s = _blocked_position(game, (1, 2))
    s = play(game, ["r1c3", "r1c1"], s)  # circle moves twice; r1c1-r1c2-r1c3 scores 1
    out = game.outcome(s)
    assert s.scores == (2, 2)
    assert out is not None and out.winners == (0,)


def test_tts_8_stuck_player_is_skipped(game: TicTacSudoku) -> None:
    s = _blocked_position(game, (0, 0))
    s = game.apply(s, game.parse_action("r1c3"))
    assert s.stuck == (False, True)
    assert game.legal_actions(s, 1) == ()
    assert game.to_move(s).players == (0,)
    with pytest.raises(IllegalActionError, match="seat 1 may not act"):
        game.apply(s, game.parse_action("r1c1"), 1)
