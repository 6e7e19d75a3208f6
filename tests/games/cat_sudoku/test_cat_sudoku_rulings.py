"""One test (or more) per Cat Sudoku ruling, CS-1..8, driven in notation."""

from __future__ import annotations

import re
import statistics
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from sudoku_arena.ai import make_agent
from sudoku_arena.core.errors import IllegalActionError, InvalidParameterError
from sudoku_arena.core.match import Match
from sudoku_arena.core.registry import load
from sudoku_arena.games.cat_sudoku.game import OVER, ROLL, WILD, WRITE
from sudoku_arena.games.cat_sudoku.sheet import (
    MAX_SEGMENT,
    MIN_SEGMENT,
    SHEET_NAMES,
    SheetError,
    load_sheet,
    parse_cell,
    parse_sheet,
    standard_problems,
)

sys.path.insert(0, str(Path(__file__).parent))
from cs_helpers import SIX, SQUARE4, legal, new, play, replace, rolls, value, with_values

# The four setup writes used by most scenarios on SQUARE4 (seat prefix added per test).
SETUP4 = ["1 r1c1", "2 r1c2", "3 r1c4", "4 r2c1"]
# The twelve squares left after SETUP4, in the order scenarios fill them.
REST4 = ["r1c3", "r2c2", "r2c3", "r2c4", "r3c1", "r3c2", "r3c3", "r3c4",
         "r4c1", "r4c2", "r4c3", "r4c4"]  # fmt: skip


# -- CS-1: sheets -------------------------------------------------------------------------


@pytest.mark.parametrize("name", SHEET_NAMES)
def test_cs_1_shipped_sheets_meet_the_standard(name: str) -> None:
    sheet = load_sheet(name)
    assert standard_problems(sheet) == []
    assert len(sheet.fillable) % 4 == 0
    assert len(sheet.starting) >= 8
    rows, cols = sheet.segments()
    assert all(MIN_SEGMENT <= len(seg) <= MAX_SEGMENT for seg in rows + cols)
    assert sheet.name.lower() == name
    has_printed = any(sheet.printed)
    assert has_printed == (name == "winter")


def test_cs_1_levels_go_from_spring_to_winter() -> None:
    levels = [load_sheet(n).level for n in SHEET_NAMES]
    assert levels == [1, 2, 2, 3]


def test_cs_1_difficulty_order_shows_in_play() -> None:
    """The shipped sheets get harder from spring to winter, measured by playing: 40 solo
    games per sheet with the greedy agent on fixed seeds (so the figures never vary):
    spring scores above summer and autumn, which score above winter."""
    means = {}
    for sheet in SHEET_NAMES:
        scores = []
        for seed in range(40):
            m = Match(load("cat-sudoku", seed=seed, sheet=sheet, players=1), seed=seed)
            scores.append(m.run([make_agent("greedy", m.game, seed=m.bot_seed(0))]).scores[0])
        means[sheet] = statistics.fmean(scores)
    others = [means["summer"], means["autumn"]]
    assert means["spring"] > max(others) and min(others) > means["winter"]


MALFORMED = [
    ("name: X\ngrid:\noo.x\noooo\n", 3, 4, "unknown square 'x'"),
    ("name: X\ngrid:\noooooooo\noooooooo\n", 3, 1, "row segment r1c1-r1c8 has 8 squares"),
    ("name: X\ngrid:\noo#o\noo#o\n", 3, 4, "row segment r1c4 has 1 square"),
    ("name: X\ngrid:\noo.\n..#\n", 3, 3, "column segment r1c3 has 1 square"),
    ("grid:\noo\noo\n", 1, 0, "needs a name"),
    ("name: X\noo\noo\n", 2, 1, "expected 'key: value'"),
    ("name: X\ncolour: red\ngrid:\noo\noo\n", 2, 1, "unknown key 'colour'"),
    ("name: X\n", 2, 0, "no 'grid:' line"),
    ("name: X\ngrid:\n..\n..\n", 2, 0, "0 starting squares"),
    ("name: X\ngrid:\noo1\noo1\n", 4, 3, "pre-printed 1 repeats in its column segment"),
    ("name: X\ngrid:\noo.\n.1o\n1.o\n", 5, 1, "pre-printed 1 repeats on a diagonal"),
    ("name: X\ngrid:\noo\n\noo\n", 4, 0, "blank line inside the grid"),
]


@pytest.mark.parametrize(("text", "line", "column", "message"), MALFORMED)
def test_cs_1_malformed_sheet_is_refused_naming_line_and_column(
    text: str, line: int, column: int, message: str
) -> None:
    with pytest.raises(SheetError) as info:
        parse_sheet(text)
    assert info.value.line == line and info.value.column == column
    assert message in str(info.value)
    if column:
        assert f"line {line}, column {column}" in str(info.value)
    # The same text given as the game parameter is refused the same way.
    with pytest.raises(InvalidParameterError, match=re.escape(message)):
        load("cat-sudoku", sheet=text)


def test_cs_1_sheet_parameter_takes_a_name_or_a_text() -> None:
    assert load("cat-sudoku", sheet=" Winter ").params["sheet"] == "winter"
    game = load("cat-sudoku", sheet=SQUARE4)
    assert game.params["sheet"] == SQUARE4 and game.sheet.name == "Square"
    with pytest.raises(InvalidParameterError, match="spring, summer, autumn, winter"):
        load("cat-sudoku", sheet="easter")


def test_cs_1_background_and_short_rows() -> None:
    sheet = parse_sheet("name: X\ngrid:\n oo\noooo\noooo\n oo\n")
    assert sheet.layout() == [" oo ", "oooo", "oooo", " oo "]
    assert len(sheet.fillable) == 12 and sheet.rows == 4 and sheet.cols == 4


# -- CS-2: pre-printed numbers ------------------------------------------------------------


def test_cs_2_preprinted_number_cannot_be_written_over() -> None:
    game = new("winter")  # r1c2 holds a pre-printed 1
    s = play(game, rolls(5, 1, 2, 3))
    with pytest.raises(IllegalActionError, match=r"r1c2 is pre-printed \(CS-2\)"):
        game.apply(s, game.parse_action("1 r1c2"), 0)


def test_cs_2_preprinted_number_causes_a_duplicate() -> None:
    game = new("winter")  # pre-printed: 1 in r1c2, 2 in r2c3
    assert value(game, game.initial_state(), 0, "r1c2") == 1
    s = play(game, [*rolls(1, 2, 3, 4), "1 r1c1", "2 r3c2", "3 r1c14", "4 r3c13"])
    sc = game.view(s, 0)["scoring"][0]
    # The 1 in r1c1 repeats the printed 1 of its row segment r1c1-r1c2: both circled.
    assert [(c["square"], c["value"]) for c in sc["circled"]] == [("r1c1", 1), ("r1c2", 1)]
    # The 2 in r3c2 is a diagonal neighbour of the printed 2 in r2c3: a set of two.
    assert sc["sets"] == [{"squares": ["r2c3", "r3c2"], "value": 2, "size": 2, "penalty": 2}]
    assert game.score(s, 0) == 100 - 4 - 2


# -- CS-3: setup roll and rotation ----------------------------------------------------------


def test_cs_3_setup_roll_goes_on_starting_squares_without_wild() -> None:
    game = new(SQUARE4, players=2)
    s = game.initial_state()
    assert game.to_move(s).is_chance
    assert list(game.chance_outcomes(s)) == [(v, Fraction(1, 6)) for v in range(6)]
    s = play(game, rolls(6, 6, 6, 6))
    assert s.phase == WRITE and s.wild == 0
    assert game.to_move(s).players == (0, 1)
    squares = {a.split()[1] for a in legal(game, s, 0)}
    assert squares == {"r1c1", "r1c2", "r1c4", "r2c1", "r2c4", "r3c2", "r3c3", "r4c1", "r4c4"}
    assert {a.split()[0] for a in legal(game, s, 0)} == {"6"}  # no wild at the setup
    with pytest.raises(IllegalActionError, match="not a starting square"):
        game.apply(s, game.parse_action("6 r1c3"), 0)


@pytest.mark.parametrize(("players", "actives"), [(1, [0, 0, 0]), (2, [1, 0, 1]), (3, [1, 2, 0])])
def test_cs_3_active_player_rotates_from_seat_1(players: int, actives: list[int]) -> None:
    game = new(SQUARE4, players=players)
    s = play(game, rolls(1, 2, 3, 4))
    s = play(game, [f"{p}: {w}" for p in range(players) for w in SETUP4], s)
    seen = []
    for turn in range(3):
        assert s.phase == ROLL and s.turn == turn + 1
        seen.append(s.active)
        s = play(game, rolls(1, 2, 3, 5), s)
        assert game.to_move(s).players == (s.active,)  # the wild is the active player's
        s = play(game, ["wild 1+ blank 5"], s)
        chunk = REST4[4 * turn : 4 * turn + 4]
        writes = [f"{v} {q}" for v, q in zip((1, 2, 3, 5), chunk, strict=True)]
        s = play(game, [f"{p}: {w}" for p in range(players) for w in writes], s)
    assert seen == actives


# -- CS-4: the Wild Counter -------------------------------------------------------------------


def _turn1(game_sheet: str = SQUARE4, players: int = 1, **params: object) -> tuple:
    game = new(game_sheet, players=players, **params)
    s = play(game, rolls(1, 2, 3, 4))
    s = play(game, [f"{p}: {w}" for p in range(players) for w in SETUP4], s)
    return game, s


def test_cs_4_roll_1123_offers_the_seed_example_boxes() -> None:
    game, s = _turn1()
    s = play(game, rolls(1, 1, 2, 3), s)
    assert s.phase == WILD
    assert legal(game, s, 0) == [
        "wild 1+ 1", "wild 1+ 2", "wild 1+ 3",
        "wild 1+ blank 1", "wild 1+ blank 2", "wild 1+ blank 3",
        "wild 2+ 1", "wild 2+ blank 1",
    ]  # fmt: skip


def test_cs_4_2plus_box_refused_when_the_value_shows_on_one_die() -> None:
    game, s = _turn1()
    s = play(game, rolls(1, 1, 2, 3), s)
    with pytest.raises(IllegalActionError, match="needs 2 on at least two dice; it shows on 1"):
        play(game, ["wild 2+ 2"], s)
    with pytest.raises(IllegalActionError, match="needs 2 on at least two dice"):
        play(game, ["wild 2+ blank 2"], s)
    with pytest.raises(IllegalActionError, match="needs 4 on at least one die"):
        play(game, ["wild 1+ 4"], s)


def test_cs_4_blank_box_takes_a_value_whose_column_is_used_up() -> None:
    game, s = _turn1()
    s = play(game, [*rolls(3, 1, 2, 5), "wild 1+ 3", "3 r1c3", "1 r2c2", "2 r2c3", "5 r2c4"], s)
    assert game.view(s, 0)["counter"][0]["boxes"][2]["used"]
    s = play(game, rolls(3, 4, 4, 6), s)
    with pytest.raises(IllegalActionError, match="already crossed off; a blank box may take it"):
        play(game, ["wild 1+ 3"], s)
    assert "wild 1+ blank 3" in legal(game, s, 0)
    s = play(game, ["wild 1+ blank 3"], s)
    assert s.wild == 3
    blanks = game.view(s, 0)["counter"][0]["boxes"][6:]
    assert [b["written"] for b in blanks] == [3, None, None]
    assert blanks[0]["this_turn"]


def test_cs_4_each_box_once_and_three_blanks_per_row() -> None:
    game = new(SQUARE4)
    s = game.initial_state()
    s = replace(s, turn=1, counter=(1, 0, 0, 0, 0, 0, 2, 4, 6) + (0,) * 9)
    s = play(game, rolls(1, 2, 2, 5), s)
    # Row 1+: numbered 1 used, blanks used up; row 2+: only 2 has two dice.
    assert legal(game, s, 0) == [
        "wild 1+ 2", "wild 1+ 5", "wild 2+ 2", "wild 2+ blank 2",
    ]  # fmt: skip
    with pytest.raises(IllegalActionError, match="three blank boxes of row 1\\+ are used up"):
        play(game, ["wild 1+ blank 5"], s)


def test_cs_4_wild_is_compulsory_unless_optional() -> None:
    game, s = _turn1()
    s = play(game, rolls(1, 2, 3, 4), s)
    with pytest.raises(IllegalActionError, match="not optional"):
        play(game, ["nowild"], s)
    game, s = _turn1(wild_optional=True)
    s = play(game, rolls(1, 2, 3, 4), s)
    assert legal(game, s, 0)[0] == "nowild"
    s = play(game, ["nowild"], s)
    assert s.phase == WRITE and s.wild == 0 and s.box == -1
    assert game.view(s, 0)["counter"] == game.view(game.initial_state(), 0)["counter"]


def test_cs_4_no_usable_box_means_no_wild() -> None:
    game = new(SQUARE4)
    used = (1, 1, 1, 1, 1, 1, 1, 1, 1)
    s = replace(game.initial_state(), turn=1, counter=used + (0,) * 9)
    s = play(game, rolls(1, 2, 3, 4), s)  # no pair: the 2+ row cannot be used either
    assert s.phase == WRITE and s.wild == 0
    s2 = play(game, rolls(1, 1, 3, 4), replace(s, phase=ROLL, dice=()))
    assert s2.phase == WILD  # a pair opens the 2+ row


def test_cs_4_counter_is_shared_between_players() -> None:
    game, s = _turn1(players=2)
    s = play(game, [*rolls(6, 6, 2, 5), "1: wild 2+ 6"], s)
    s = play(
        game, [f"{p}: {w}" for p in (0, 1) for w in ("6 r1c3", "5 r2c2", "2 r2c3", "6 r2c4")], s
    )
    assert s.active == 0
    s = play(game, rolls(6, 6, 1, 3), s)
    assert "wild 2+ 6" not in legal(game, s, 0) and "wild 1+ 6" in legal(game, s, 0)


# -- CS-5: wild dice ---------------------------------------------------------------------------


def test_cs_5_roll_1112_with_1_wild_gives_three_free_values_plus_a_2() -> None:
    game, s = _turn1(players=2)
    s = play(game, [*rolls(1, 1, 1, 2), "1: wild 2+ 1"], s)
    assert game.view(s, 0)["left"][0] == {"wild": 3, "plain": [2]}
    # Seat 0 writes three different values with the wild dice, then the 2.
    s = play(game, ["0: 6 r1c3", "0: 3 r2c2", "0: 5 r2c3"], s)
    assert {a.split()[0] for a in legal(game, s, 0)} == {"2"}
    with pytest.raises(IllegalActionError, match="no die left for 4: the dice left to write are 2"):
        play(game, ["0: 4 r2c4"], s)
    s = play(game, ["0: 2 r2c4"], s)
    # Seat 1 independently writes the wild dice as 1s (their own value) and the 2 first.
    s = play(game, ["1: 2 r1c3", "1: 1 r2c2", "1: 1 r2c3", "1: 1 r2c4"], s)
    assert [value(game, s, 0, q) for q in ("r1c3", "r2c2", "r2c3", "r2c4")] == [6, 3, 5, 2]
    assert [value(game, s, 1, q) for q in ("r1c3", "r2c2", "r2c3", "r2c4")] == [2, 1, 1, 1]
    assert s.phase == ROLL


def test_cs_5_a_plain_die_is_used_before_a_wild_one() -> None:
    game, s = _turn1()
    s = play(game, [*rolls(2, 2, 3, 4), "wild 2+ 2", "3 r1c3"], s)
    assert game.view(s, 0)["left"][0] == {"wild": 2, "plain": [4]}
    s = play(game, ["4 r2c2", "4 r2c3"], s)  # the second 4 comes from a wild die
    assert game.view(s, 0)["left"][0] == {"wild": 1, "plain": []}


# -- CS-6: simultaneous writing ---------------------------------------------------------------


def test_cs_6_players_write_in_any_order_and_the_turn_ends_when_all_have() -> None:
    game, s = _turn1(players=2)
    s = play(game, [*rolls(1, 2, 3, 5), "1: wild 1+ 5"], s)
    assert game.to_move(s).players == (0, 1)
    with pytest.raises(IllegalActionError, match="several players may act"):
        game.apply(s, game.parse_action("1 r1c3"))
    s = play(game, ["1: 1 r1c3", "0: 2 r2c2", "1: 2 r2c2", "1: 3 r2c3", "1: 5 r2c4"], s)
    assert game.to_move(s).players == (0,)
    with pytest.raises(IllegalActionError, match="seat 1 may not act now"):
        play(game, ["1: 1 r3c1"], s)
    s = play(game, ["0: 5 r1c3", "0: 3 r2c3"], s)
    assert s.phase == WRITE
    s = play(game, ["0: 1 r2c4"], s)
    assert s.phase == ROLL and s.turn == 2
    assert game.view(s, None)["empty"] == [8, 8]


def test_cs_6_what_is_written_is_final() -> None:
    game, s = _turn1()
    s = play(game, [*rolls(1, 2, 3, 5), "wild 1+ 5"], s)
    with pytest.raises(IllegalActionError, match="r1c1 already holds 1; what is written is final"):
        play(game, ["1 r1c1"], s)


def test_cs_6_option_adjacent() -> None:
    sheet = "name: Strip\ngrid:\noo.##..\noo.##..\n"
    game = new(sheet, adjacent=True)
    s = play(game, [*rolls(1, 2, 3, 4), "1 r1c1", "2 r1c2", "3 r2c1", "4 r2c2"])
    s = play(game, [*rolls(1, 2, 3, 5), "wild 1+ 5"], s)
    assert {a.split()[1] for a in legal(game, s, 0)} == {"r1c3", "r2c3"}
    with pytest.raises(IllegalActionError, match="touches no filled square"):
        play(game, ["5 r1c6"], s)
    s = play(game, ["5 r1c3", "1 r2c3"], s)
    # Nothing empty touches a filled square now: any empty square is allowed.
    assert {a.split()[1] for a in legal(game, s, 0)} == {"r1c6", "r1c7", "r2c6", "r2c7"}
    s = play(game, ["2 r1c6"], s)
    assert {a.split()[1] for a in legal(game, s, 0)} == {"r1c7", "r2c6"}
    s = play(game, ["3 r1c7"], s)
    assert s.phase == ROLL


def test_cs_6_final_partial_turn_fills_the_last_squares() -> None:
    game = new(SIX, players=2)
    assert standard_problems(game.sheet) == [
        "6 fillable squares, not a multiple of 4",
        "6 starting squares, fewer than 8",
    ]
    setup = ["1 r1c1", "2 r1c2", "3 r1c3", "4 r2c1"]
    s = play(game, [*rolls(1, 2, 3, 4), *(f"{p}: {w}" for p in (0, 1) for w in setup)])
    s = play(game, [*rolls(4, 5, 6, 6), "1: wild 1+ 4"], s)
    # Each player chooses which two of the four dice to write.
    s = play(game, ["0: 6 r2c2", "0: 5 r2c3"], s)
    assert game.to_move(s).players == (1,)
    assert game.view(s, None)["left"][0] == {"wild": 0, "plain": []}
    s = play(game, ["1: 1 r2c2", "1: 6 r2c3"], s)  # a wild 4 written as 1
    assert game.to_move(s).is_terminal


# -- CS-7: the end ---------------------------------------------------------------------------


def test_cs_7_game_ends_when_the_sheets_are_full_at_the_end_of_a_turn() -> None:
    game = new(SQUARE4, players=2)
    s = play(game, [*rolls(1, 2, 3, 4), *(f"{p}: {w}" for p in (0, 1) for w in SETUP4)])
    for turn in range(3):
        assert game.outcome(s) is None
        s = play(game, [*rolls(1, 2, 3, 5), f"{s.active}: wild 1+ blank 5"], s)
        chunk = REST4[4 * turn : 4 * turn + 4]
        s = play(game, [f"0: {v} {q}" for v, q in zip((1, 2, 3, 5), chunk, strict=True)], s)
        if turn == 2:
            assert not game.to_move(s).is_terminal  # seat 1 has not written yet
        s = play(game, [f"1: {v} {q}" for v, q in zip((1, 2, 3, 5), chunk, strict=True)], s)
    assert game.to_move(s).is_terminal
    out = game.outcome(s)
    assert out is not None and out.winners == (0, 1) and "share the win" in out.reason
    with pytest.raises(IllegalActionError, match="game is over"):
        game.apply(s, game.parse_action("1 r1c1"), 0)


# -- CS-8: scoring ----------------------------------------------------------------------------


def test_cs_8_square_duplicated_in_both_its_row_and_column_segment() -> None:
    for per_segment, circles in ((False, 1), (True, 2)):
        game = new(SQUARE4, circle_per_segment=per_segment)
        s = with_values(game, game.initial_state(), 0, {"r1c1": 5, "r1c3": 5, "r3c1": 5})
        sc = game.view(s, 0)["scoring"][0]
        assert {c["square"]: c["circles"] for c in sc["circled"]} == {
            "r1c1": circles, "r1c3": 1, "r3c1": 1,
        }  # fmt: skip
        assert game.score(s, 0) == 100 - 2 * (2 + circles)


def test_cs_8_numbers_repeat_freely_in_separate_segments() -> None:
    game = new("name: Split\ngrid:\noo#oo\noo#oo\n")
    s = with_values(game, game.initial_state(), 0, {"r1c1": 4, "r1c4": 4})
    assert game.score(s, 0) == 100


@pytest.mark.parametrize(
    ("squares", "penalty"),
    [
        (["r1c1", "r2c2"], 2),
        (["r1c1", "r2c2", "r3c3"], 5),
        (["r1c1", "r2c2", "r3c3", "r4c4"], 10),
        (["r2c2", "r1c1", "r1c3", "r3c1", "r3c3"], 10),  # a set of five still costs 10
    ],
)
def test_cs_8_diagonal_sets_of_2_3_and_4(squares: list[str], penalty: int) -> None:
    game = new(SQUARE4)
    s = with_values(game, game.initial_state(), 0, dict.fromkeys(squares, 2))
    sc = game.view(s, 0)["scoring"][0]
    circles = sc["circle_penalty"]
    assert sc["sets"] == [
        {"squares": sorted(squares, key=_order), "value": 2, "size": len(squares),
         "penalty": penalty}
    ]  # fmt: skip
    assert game.score(s, 0) == 100 - penalty - circles


def _order(name: str) -> tuple[int, int]:
    r, c = name[1:].split("c")
    return int(r), int(c)


def test_cs_8_separate_sets_count_separately_and_values_must_match() -> None:
    game = new(SQUARE4)
    s = with_values(
        game, game.initial_state(), 0, {"r1c1": 3, "r2c2": 3, "r3c3": 4, "r4c4": 4, "r1c3": 5}
    )
    sets = game.view(s, 0)["scoring"][0]["sets"]
    assert [(x["value"], x["size"], x["penalty"]) for x in sets] == [(3, 2, 2), (4, 2, 2)]
    assert game.score(s, 0) == 96


def test_cs_8_write_delta_matches_the_score() -> None:
    game = new(SQUARE4)
    s = with_values(game, game.initial_state(), 0, {"r1c1": 2, "r3c3": 2, "r2c4": 2})
    b = game.board
    for name in ("r2c2", "r1c2", "r4c4", "r2c3"):
        r, c = parse_cell(name)
        for v in range(1, 7):
            s2 = with_values(game, s, 0, {name: v})
            delta = b.write_delta(s.sheets[0], r * 4 + c, v, False)
            assert delta == game.penalty(s2, 0) - game.penalty(s, 0)


def test_cs_8_highest_score_wins_ties_share_and_solo_scales() -> None:
    game = new(SQUARE4, players=3)
    s = with_values(game, game.initial_state(), 2, {"r1c1": 5, "r1c2": 5})
    s = replace(s, phase=OVER)
    assert [game.score(s, p) for p in range(3)] == [100, 100, 96]
    out = game.outcome(s)
    assert out is not None and out.winners == (0, 1) and out.scores == (100.0, 100.0, 96.0)
    assert game.returns(s) == (0.5, 0.5, 0.0)
    solo = new(SQUARE4)
    s1 = replace(with_values(solo, solo.initial_state(), 0, {"r1c1": 5, "r1c2": 5}), phase=OVER)
    assert solo.returns(s1) == (0.96,)
    out = solo.outcome(s1)
    assert out is not None and out.winners == (0,) and "96 points" in out.reason
