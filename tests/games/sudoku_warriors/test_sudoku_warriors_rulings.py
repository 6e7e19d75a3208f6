"""One test (or more) per ruling SW-1..14, on the fixed grid:

    r1: 5 3 4 | 6 7 8 | 9 1 2      r4: 8 5 9 | 7 6 1 | 4 2 3      r7: 9 6 1 | 5 3 7 | 2 8 4
    r2: 6 7 2 | 1 9 5 | 3 4 8      r5: 4 2 6 | 8 5 3 | 7 9 1      r8: 2 8 7 | 4 1 9 | 6 3 5
    r3: 1 9 8 | 3 4 2 | 5 6 7      r6: 7 1 3 | 9 2 4 | 8 5 6      r9: 3 4 5 | 2 8 6 | 1 7 9

Positions are drawn as 10 rows of 10 hilltops (``h00`` top-left): ``.`` empty,
``o`` circle, ``s`` square, ``t`` triangle, ``x`` X'd.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import sudoku_arena
from sudoku_arena.core.errors import (
    IllegalActionError,
    InvalidGridError,
    InvalidParameterError,
    NotationError,
)
from sudoku_arena.games.sudoku_warriors.game import SudokuWarriors, SWState
from sudoku_arena.games.sudoku_warriors.rules import (
    BORDER_HILLS,
    CAPITAL,
    CAPITAL_HILLS,
    CELL_HILLS,
    HILL_PROVS,
    NUM_ACTIONS,
    PROV_HILLS,
    hill_name,
)
from sudoku_arena.grids.sudoku import cell_name, parse_cell

sys.path.insert(0, str(Path(__file__).parent))
from sw_helpers import B1_BATTLE, TWO_BATTLES, board, legal, mover, play

CIRCLE, SQUARE, TRIANGLE = 0, 1, 2


@pytest.fixture
def game(fixed_grid: str) -> SudokuWarriors:
    g = sudoku_arena.load("sudoku-warriors", grid=fixed_grid)
    assert isinstance(g, SudokuWarriors)
    return g


@pytest.fixture
def game3(fixed_grid: str) -> SudokuWarriors:
    g = sudoku_arena.load("sudoku-warriors", grid=fixed_grid, players=3)
    assert isinstance(g, SudokuWarriors)
    return g


def hills(game: SudokuWarriors, s: SWState, names: str) -> str:
    """The hilltop characters at the named hilltops, e.g. ``"oxs"``."""
    dump = game.dump_state(s)["hill"]
    return "".join(dump[int(n[1:])] for n in names.split())


@pytest.fixture
def b1_battle(game: SudokuWarriors) -> SWState:
    s = game.position(B1_BATTLE, to_move=SQUARE, spent=["r1c1"])
    return play(game, s, ["h03"])


# -- SW-1 / SW-2: the board ----------------------------------------------------------------


def test_sw_1_board_is_a_sudoku_of_villages_with_capitals(fixed_grid: str) -> None:
    g = sudoku_arena.load("sudoku-warriors", grid=fixed_grid)
    assert "".join(map(str, g.grid)) == fixed_grid
    # Capitals are the box centres; the resource is the number.
    assert [cell_name(c) for c in CAPITAL] == [
        "r2c2", "r2c5", "r2c8", "r5c2", "r5c5", "r5c8", "r8c2", "r8c5", "r8c8",
    ]  # fmt: skip
    assert g.grid[parse_cell("r5c5")] == 5
    bad = fixed_grid[:40] + ("1" if fixed_grid[40] != "1" else "2") + fixed_grid[41:]
    with pytest.raises(InvalidGridError, match="row 5"):
        sudoku_arena.load("sudoku-warriors", grid=bad)
    # A random grid comes from the seed and is kept in the parameters.
    a = sudoku_arena.load("sudoku-warriors", seed=9).params["grid"]
    assert a == sudoku_arena.load("sudoku-warriors", seed=9).params["grid"]


def test_sw_2_hilltops_are_the_100_intersections(game: SudokuWarriors) -> None:
    s = game.initial_state()
    assert len(game.legal_actions(s, 0)) == 100
    assert game.format_action(0) == "h00" and game.format_action(99) == "h99"
    assert game.parse_action("h37") == 37
    # Village rXcY is surrounded by h(X-1)(Y-1), h(X-1)Y, hX(Y-1), hXY.
    assert [hill_name(h) for h in CELL_HILLS[parse_cell("r4c5")]] == ["h34", "h35", "h44", "h45"]
    assert [hill_name(h) for h in CELL_HILLS[parse_cell("r1c1")]] == ["h00", "h01", "h10", "h11"]
    # A province owns the 4x4 block around its villages: 16 hilltops, 4 of its capital.
    assert all(len(PROV_HILLS[b]) == 16 and len(BORDER_HILLS[b]) == 12 for b in range(9))
    assert [hill_name(h) for h in CAPITAL_HILLS[4]] == ["h44", "h45", "h54", "h55"]
    assert hill_name(PROV_HILLS[4][0]) == "h33" and hill_name(PROV_HILLS[4][-1]) == "h66"
    # Border hilltops are shared by 2 or 4 provinces.
    touching = {
        name: len(HILL_PROVS[int(name[1:])]) for name in ("h11", "h01", "h13", "h03", "h33")
    }
    assert touching == {"h11": 1, "h01": 1, "h13": 2, "h03": 2, "h33": 4}


# -- SW-3: players and targets -------------------------------------------------------------


def test_sw_3_two_or_three_players_with_targets(fixed_grid: str) -> None:
    g2 = sudoku_arena.load("sudoku-warriors", grid=fixed_grid)
    g3 = sudoku_arena.load("sudoku-warriors", grid=fixed_grid, players=3)
    assert (g2.target, g3.target) == (5, 3)
    # Records hold the resolved target, and the params rebuild the same game.
    assert g2.params["target"] == 5 and g3.params["target"] == 3
    again = sudoku_arena.load("sudoku-warriors", **g3.params)
    assert again.params == g3.params
    assert g2.view(g2.initial_state(), None)["players"] == ["circle", "square"]
    assert g3.view(g3.initial_state(), None)["players"] == ["circle", "square", "triangle"]
    # Seat 0 starts; turns rotate.
    s = g3.initial_state()
    assert g3.to_move(s).players == (0,)
    s = play(g3, s, ["h00", "h01"])
    assert g3.to_move(s).players == (2,)
    # Option target.
    assert sudoku_arena.load("sudoku-warriors", grid=fixed_grid, target=2).target == 2
    with pytest.raises(InvalidParameterError):
        sudoku_arena.load("sudoku-warriors", players=4)
    with pytest.raises(InvalidParameterError):
        sudoku_arena.load("sudoku-warriors", target=10)


# -- SW-4: a turn --------------------------------------------------------------------------


def test_sw_4_a_turn_claims_one_empty_hilltop(game: SudokuWarriors) -> None:
    s = play(game, game.initial_state(), ["h37"])
    assert hills(game, s, "h37") == "o" and mover(game, s) == SQUARE
    before = s
    with pytest.raises(IllegalActionError, match=r"h37 is occupied by circle.*SW-4"):
        game.apply(s, game.parse_action("h37"))
    assert s == before
    x = game.position("x" + "." * 99, to_move=CIRCLE)
    with pytest.raises(IllegalActionError, match=r"X'd.*SW-12"):
        game.apply(x, game.parse_action("h00"))
    assert "h00" not in legal(game, x) and len(legal(game, x)) == 99
    with pytest.raises(IllegalActionError, match="no battle is being fought"):
        game.apply(s, game.parse_action("yield"))
    with pytest.raises(IllegalActionError, match="seat 0 may not act"):
        game.apply(s, game.parse_action("h00"), 0)


# -- SW-5: village control -----------------------------------------------------------------


def test_sw_5_village_control_needs_a_strict_majority(game3: SudokuWarriors) -> None:
    g = game3
    # r1c1 is surrounded by h00 h01 h10 h11. Each case: those four, then the controller.
    cases = {
        "o...": CIRCLE,  # a single warrior controls
        "os..": -1,  # tie
        "oos.": CIRCLE,
        "osst": SQUARE,  # 2 beats 1 and 1
        "ostx": -1,  # three-way tie; X counts for nobody
        "oxxx": CIRCLE,
        "xxxx": -1,
        "ssoo": -1,
        "tt.o": TRIANGLE,
    }
    for four, expected in cases.items():
        layout = four[:2] + "." * 8 + four[2:] + "." * 88
        s = g.position(layout)
        assert g.control(s, parse_cell("r1c1")) == expected, four
        assert g.view(s, None)["control"][0] == expected


# -- SW-6: battles due after a placement ---------------------------------------------------


def test_sw_6_two_battles_the_placer_picks_the_order(game: SudokuWarriors) -> None:
    s = game.position(board(TWO_BATTLES), to_move=CIRCLE)
    s = play(game, s, ["h13"])
    assert game.phase(s) == "choose" and mover(game, s) == CIRCLE
    assert legal(game, s) == ["battle b1", "battle b2"]
    assert game.view(s, None)["pending"] == ["b1", "b2"]
    with pytest.raises(IllegalActionError, match=r"placer picks.*SW-6"):
        game.apply(s, game.parse_action("h99"))
    with pytest.raises(IllegalActionError, match="battle b1, battle b2"):
        game.apply(s, game.parse_action("battle b5"))
    # Circle fights b2 first; b1 waits.
    s = play(game, s, ["battle b2"])
    view = game.view(s, None)
    assert view["battle"]["province"] == "b2" and view["pending"] == ["b1"]
    assert view["battle"]["scores"] == [6, 10]
    # All battles finish before the next turn.
    with pytest.raises(IllegalActionError, match="SW-6"):
        game.apply(s, game.parse_action("h99"))
    s = play(game, s, ["bid", "bid", "yield"])  # square, already ahead, bids nothing
    # b2 to square; b1 then follows at once (circle alone: SW-7); then square's turn.
    assert s.owner[1] == SQUARE and s.owner[0] == CIRCLE
    assert game.phase(s) == "place" and mover(game, s) == SQUARE


def test_sw_6_only_full_provinces_containing_the_new_hilltop(game: SudokuWarriors) -> None:
    s = game.position(board(TWO_BATTLES), to_move=CIRCLE)
    s = play(game, s, ["h99"])  # b9 is far from full: no battle
    assert game.phase(s) == "place" and mover(game, s) == SQUARE
    # With h16 still empty, h13 fills b1 only: one battle, no choice (circle alone).
    s = game.position(board(TWO_BATTLES.replace("ooo.oso", "ooo.os.", 1)), to_move=CIRCLE)
    s = play(game, s, ["h13"])
    assert s.owner == (CIRCLE, -1, -1, -1, -1, -1, -1, -1, -1)
    assert game.phase(s) == "place" and mover(game, s) == SQUARE
    # Square's h16 then fills b2 (and not b3): its battle is due.
    s = play(game, s, ["h16"])
    assert game.view(s, None)["battle"]["province"] == "b2"


# -- SW-7: participants --------------------------------------------------------------------


def test_sw_7_sole_participant_wins_without_a_battle(game: SudokuWarriors) -> None:
    # b1: circle holds the whole capital (h11 h12 h21 h22); square every border hilltop.
    layout = board("""
        sss.......
        soos......
        soos......
        ssss......
        ..........
        ..........
        ..........
        ..........
        ..........
        ..........
    """)
    s = game.position(layout, to_move=SQUARE)
    s = play(game, s, ["h03"])
    assert s.owner[0] == CIRCLE and game.phase(s) == "place" and mover(game, s) == CIRCLE
    assert s.spent == 0  # nothing was bid


def test_sw_7_participants_need_a_warrior_on_the_capital(game3: SudokuWarriors) -> None:
    # Triangle has 12 of b1's 16 hilltops but none of the capital's four.
    layout = board("""
        ttt.......
        toss......
        toos......
        tttt......
        ..........
        ..........
        ..........
        ..........
        ..........
        ..........
    """)
    s = game3.position(layout, to_move=TRIANGLE)
    s = play(game3, s, ["h03"])
    battle = game3.view(s, None)["battle"]
    assert battle["participants"] == [CIRCLE, SQUARE] and battle["actor"] == CIRCLE
    assert battle["scores"] == [3, 3, None]


# -- SW-8: starting scores: the seed's example ---------------------------------------------


def test_sw_8_seed_example_both_start_at_8(game: SudokuWarriors) -> None:
    # The centre province b5 (hilltops h33..h66): 8 circles, 7 squares, h66 empty.
    layout = board("""
        ..........
        ..........
        ..........
        ...osos...
        ...soso...
        ...osos...
        ...oos....
        ..........
        ..........
        ..........
    """)
    s = game.position(layout, to_move=SQUARE)
    s = play(game, s, ["h66"])  # square places the last hilltop
    battle = game.view(s, None)["battle"]
    assert battle["province"] == "b5" and battle["capital"] == "r5c5"
    assert battle["scores"] == [8, 8]
    assert battle["actor"] == SQUARE and battle["opening"]  # the placer starts


# -- SW-9: the opening bid -----------------------------------------------------------------


def test_sw_9_opening_adds_at_most_one_village(game: SudokuWarriors, b1_battle: SWState) -> None:
    s = b1_battle
    assert mover(game, s) == SQUARE
    assert legal(game, s) == [
        "bid", "bid r1c3", "bid r2c3", "bid r2c4", "bid r3c2", "bid r3c3", "bid r3c4",
        "bid r4c2", "bid r4c3", "yield",
    ]  # fmt: skip
    with pytest.raises(IllegalActionError, match=r"at most one village \(SW-9\)"):
        game.apply(s, game.parse_action("bid r3c2 r4c3"))
    # The opener needs no lead: square (9) could add nothing, circle is at 7 anyway.
    low = play(game, s, ["bid r2c4"])
    assert low.bscore == (7, 10)


def test_sw_9_opener_is_the_first_participant_from_the_placer(game3: SudokuWarriors) -> None:
    # b5's capital: circle, triangle, circle, circle; square places h65 with no capital
    # warrior, so triangle, next after square in turn order, opens.
    s = game3.position(THREE_WAY.replace("..ttsootto", "..ttoootto"), to_move=SQUARE)
    s = play(game3, s, ["h65"])
    battle = game3.view(s, None)["battle"]
    assert battle["participants"] == [TRIANGLE, CIRCLE] and battle["actor"] == TRIANGLE
    assert battle["scores"][SQUARE] is None


# -- SW-10: bidding to end strictly above --------------------------------------------------


def test_sw_10_every_bid_ends_strictly_above(game: SudokuWarriors, b1_battle: SWState) -> None:
    s = play(game, b1_battle, ["bid r2c3"])  # square 9 + 2 = 11, circle 7
    assert s.bscore == (7, 11) and mover(game, s) == CIRCLE
    offered = legal(game, s)
    assert "bid" not in offered  # not ahead, so must add something
    assert "bid r3c1" not in offered and "bid r5c1" not in offered  # 1 and 4 are too little
    assert "bid r2c6" in offered  # 5 makes 12
    assert "bid r3c1 r5c1" in offered  # 1 + 4 = 5 makes 12
    for text in offered[:-1]:
        after = game.apply(s, game.parse_action(text))
        assert after.bscore[CIRCLE] > after.bscore[SQUARE], text
    assert offered[-1] == "yield"
    with pytest.raises(IllegalActionError, match=r"would be 11.*strictly above.*SW-10"):
        game.apply(s, game.parse_action("bid r5c1"))  # a tie is not enough
    with pytest.raises(IllegalActionError, match="SW-10"):
        game.apply(s, game.parse_action("bid"))
    with pytest.raises(NotationError, match="at most two"):
        game.parse_action("bid r1c5 r1c6 r2c5")
    s = play(game, s, ["bid r2c1"])  # 13
    s = play(game, s, ["bid r3c4"])  # 14
    assert s.bscore == (13, 14)
    # A yield is always allowed; the last participant left wins.
    s = play(game, s, ["yield"])
    assert s.owner[0] == SQUARE and game.phase(s) == "place" and mover(game, s) == CIRCLE


def test_sw_10_already_ahead_may_add_nothing(game: SudokuWarriors) -> None:
    s = game.position(board(TWO_BATTLES), to_move=CIRCLE)
    s = play(game, s, ["h13", "battle b2", "bid"])  # circle opens at 6; square is at 10
    assert s.bscore == (6, 10) and legal(game, s)[0] == "bid"
    s = play(game, s, ["bid"])
    assert s.bscore == (6, 10) and mover(game, s) == CIRCLE


# b5 with all three: triangle 5, circle 5, square 6 after triangle places h65.
THREE_WAY = board("""
    ..........
    ..........
    ....oo....
    ..ssotsoo.
    ..tsotst..
    ..ttsootto
    ...os.t...
    ...ss.....
    ..........
    ..........
""")


def test_sw_10_three_players_one_drops_out_two_continue(game3: SudokuWarriors) -> None:
    g = game3
    s = g.position(THREE_WAY, to_move=TRIANGLE)
    s = play(g, s, ["h65"])
    battle = g.view(s, None)["battle"]
    assert battle["participants"] == [TRIANGLE, CIRCLE, SQUARE]
    assert battle["scores"] == [5, 6, 5] and battle["actor"] == TRIANGLE
    s = play(g, s, ["bid r5c8"])  # triangle 14
    s = play(g, s, ["bid r2c5 r3c4"])  # circle 5 + 9 + 3 = 17
    assert mover(g, s) == SQUARE
    s = play(g, s, ["yield"])  # square drops out
    view = g.view(s, None)["battle"]
    assert view["active"] == [TRIANGLE, CIRCLE] and view["actor"] == TRIANGLE
    assert view["eligible"][SQUARE] == []
    s = play(g, s, ["bid r5c7"])  # triangle 21
    assert mover(g, s) == CIRCLE  # square is skipped from now on
    s = play(g, s, ["bid r2c6"])  # circle 22
    assert mover(g, s) == TRIANGLE
    s = play(g, s, ["bid r6c8"])  # triangle 26
    assert s.bscore == (22, 6, 26)
    s = play(g, s, ["yield"])
    assert s.owner[4] == TRIANGLE
    # SW-12: the circle and square warriors on b5's capital are X'd.
    assert hills(g, s, "h44 h45 h54 h55") == "xtxx"
    # Next turn: the seat after the placer (triangle) is circle.
    assert mover(g, s) == CIRCLE


# -- SW-11: eligible villages --------------------------------------------------------------


def test_sw_11_eligible_villages(game: SudokuWarriors, b1_battle: SWState) -> None:
    s = b1_battle
    view = game.view(s, None)["battle"]
    # In b1 or a province sharing a side (b2, b4); controlled now; not spent.
    assert view["eligible"][SQUARE] == [
        "r1c3", "r2c3", "r2c4", "r3c2", "r3c3", "r3c4", "r4c2", "r4c3",
    ]  # fmt: skip
    assert view["eligible"][CIRCLE] == [
        "r1c5", "r1c6", "r2c1", "r2c5", "r2c6", "r3c1", "r4c1", "r5c1",
    ]  # fmt: skip
    # r4c4 is square's but in b5, only diagonal to b1.
    assert game.control(s, parse_cell("r4c4")) == SQUARE
    with pytest.raises(IllegalActionError, match=r"r4c4 is neither in b1.*SW-11"):
        game.apply(s, game.parse_action("bid r4c4"))
    # r1c1 is circle's but spent.
    assert game.control(s, parse_cell("r1c1")) == CIRCLE
    s2 = play(game, s, ["bid"])
    with pytest.raises(IllegalActionError, match=r"r1c1 is already spent.*SW-11"):
        game.apply(s2, game.parse_action("bid r1c1 r1c5"))
    # r1c4 was circle's until square took h03: control is taken now.
    with pytest.raises(IllegalActionError, match=r"r1c4 is controlled by nobody.*SW-11"):
        game.apply(s2, game.parse_action("bid r1c4 r1c5"))
    with pytest.raises(IllegalActionError, match=r"r1c3 is controlled by square"):
        game.apply(s2, game.parse_action("bid r1c3 r1c5"))


def test_sw_11_spent_resources_stay_spent_whoever_wins(
    game: SudokuWarriors, b1_battle: SWState
) -> None:
    s = play(game, b1_battle, ["bid r2c3", "bid r2c1", "bid r3c4", "yield"])
    view = game.view(s, None)
    spent = [cell_name(c) for c in range(81) if view["spent"][c]]
    assert spent == ["r1c1", "r2c1", "r2c3", "r3c4"]  # the loser's r2c1 too


# -- SW-12: claiming -----------------------------------------------------------------------

# Square places h02, the last hilltop of b1, and wins it (circle yields). b2 and b5 are
# square's; b4 is circle's or square's. Circle warriors around b1: h00 h01 (edge: b1
# only), h12 (capital), h13 (b1, b2), h31 (b1, b4), h33 (b1, b2, b4, b5).
REMOVAL = board("""
    oo.sxxx...
    ssoosxx...
    sssssxx...
    sosoxxx...
    xoxxsxx...
    xxxxxxx...
    xxxxxxx...
    ..........
    ..........
    ..........
""")


@pytest.mark.parametrize("b4_owner", [CIRCLE, SQUARE])
def test_sw_12_border_removal_touching_1_2_and_4_provinces(
    game: SudokuWarriors, b4_owner: int
) -> None:
    s = game.position(REMOVAL, owners={"b2": SQUARE, "b4": b4_owner, "b5": SQUARE}, to_move=SQUARE)
    s = play(game, s, ["h02", "bid", "yield"])
    assert s.owner[0] == SQUARE
    assert hills(game, s, "h12") == "x"  # capital hilltop: always
    assert hills(game, s, "h00 h01") == "xx"  # touches b1 only
    assert hills(game, s, "h13") == "x"  # b1 and b2, both square's
    expected = "x" if b4_owner == SQUARE else "o"
    assert hills(game, s, "h31") == expected  # b1 and b4
    assert hills(game, s, "h33") == expected  # b1, b2, b4 and b5
    assert hills(game, s, "h41") == "o"  # not on b1's border: untouched
    assert hills(game, s, "h03 h10 h11 h21 h22 h30") == "ssssss"  # the winner's stay
    # X'd hilltops change control: r1c1 (h00 h01 h10 h11) is now square's.
    assert game.control(s, parse_cell("r1c1")) == SQUARE


def test_sw_12_the_province_is_held_for_good(game: SudokuWarriors, b1_battle: SWState) -> None:
    s = play(game, b1_battle, ["bid", "yield"])
    assert s.owner[0] == SQUARE
    view = game.view(s, None)
    assert view["owners"][0] == SQUARE and view["scores"] == [0, 1]
    # Circle's capital warriors h11 and h21 are X'd; square keeps h12 and h22.
    assert hills(game, s, "h11 h12 h21 h22") == "xsxs"


# -- SW-13: the target ---------------------------------------------------------------------


def test_sw_13_target_reached_between_two_battles(game: SudokuWarriors) -> None:
    # As TWO_BATTLES, with circle already holding four provinces (b6..b9).
    layout = board(TWO_BATTLES, fill="b6 b7 b8 b9")
    owners = {"b6": CIRCLE, "b7": CIRCLE, "b8": CIRCLE, "b9": CIRCLE}
    s = game.position(layout, owners=owners, to_move=CIRCLE)
    s = play(game, s, ["h13", "battle b1"])  # circle alone in b1: the fifth province
    assert game.to_move(s).is_terminal
    out = game.outcome(s)
    assert out is not None and out.winners == (CIRCLE,) and "SW-13" in out.reason
    assert out.scores == (5.0, 0.0)
    assert s.owner[1] == -1  # b2's battle is never fought
    assert game.returns(s) == (1.0, 0.0)
    assert not game.legal_actions(s, CIRCLE) and not game.legal_actions(s, SQUARE)
    with pytest.raises(IllegalActionError, match="game is over"):
        game.apply(s, game.parse_action("battle b2"))


def test_sw_13_the_other_order_fights_both(game: SudokuWarriors) -> None:
    layout = board(TWO_BATTLES, fill="b6 b7 b8 b9")
    owners = {"b6": CIRCLE, "b7": CIRCLE, "b8": CIRCLE, "b9": CIRCLE}
    s = game.position(layout, owners=owners, to_move=CIRCLE)
    s = play(game, s, ["h13", "battle b2", "bid", "bid", "yield"])
    # Square won b2; b1 followed at once and gave circle the win.
    assert s.owner[1] == SQUARE and s.owner[0] == CIRCLE
    out = game.outcome(s)
    assert out is not None and out.winners == (CIRCLE,)


def test_sw_13_raised_target_board_full_most_provinces_wins(fixed_grid: str) -> None:
    import random

    g = sudoku_arena.load("sudoku-warriors", grid=fixed_grid, target=9)
    rng = random.Random(4)
    seen_full = False
    for _ in range(6):
        s = g.initial_state()
        while not g.to_move(s).is_terminal:
            p = mover(g, s)
            s = g.apply(s, rng.choice(list(g.legal_actions(s, p))), p)
        out = g.outcome(s)
        assert out is not None
        if s.end == "full":
            seen_full = True
            counts = g.provinces(s)
            assert sum(counts) == 9 and "." not in g.dump_state(s)["hill"]
            assert set(out.winners) == {q for q in range(2) if counts[q] == max(counts)}
    assert seen_full


# -- SW-14: notation -----------------------------------------------------------------------


def test_sw_14_notation(game: SudokuWarriors) -> None:
    fmt, parse = game.format_action, game.parse_action
    assert fmt(parse("h37")) == "h37"
    assert fmt(parse("  H 3 7 ")) == "h37"
    assert fmt(parse("battle b5")) == "battle b5"
    assert fmt(parse("Battle  B5")) == "battle b5"
    assert fmt(parse("bid")) == "bid"
    assert fmt(parse("bid r4c5")) == "bid r4c5"
    assert fmt(parse("bid r4c5 r5c4")) == "bid r4c5 r5c4"
    # Two villages in either order are the same bid; written in cell order.
    assert parse("bid r5c4 r4c5") == parse("bid r4c5 r5c4")
    assert fmt(parse("BID r5c4, r4c5")) == "bid r4c5 r5c4"
    assert fmt(parse("yield")) == "yield"
    for bad, hint in [
        ("h3", "hilltop"),
        ("h100", "hilltop"),
        ("battle b0", "box"),
        ("bid r4c5 r4c5", "twice"),
        ("bid r0c5", "cell"),
        ("attack", "Sudoku Warriors action"),
        ("", "empty"),
    ]:
        with pytest.raises(NotationError, match=hint):
            parse(bad)


def test_sw_14_every_index_round_trips(game: SudokuWarriors) -> None:
    assert game.spec.num_distinct_actions == NUM_ACTIONS
    texts = set()
    for i in range(NUM_ACTIONS):
        a = game.decode_action(i)
        assert game.encode_action(a) == i
        text = game.format_action(a)
        assert game.parse_action(text) == a
        texts.add(text)
    assert len(texts) == NUM_ACTIONS
    for bad in (-1, NUM_ACTIONS):
        with pytest.raises(NotationError, match="out of range"):
            game.decode_action(bad)
