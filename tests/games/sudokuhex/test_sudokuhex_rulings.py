"""One group of tests per ruling SH-1..6, written as scenarios in notation.

The main scenario (see ``sudokuhex_helpers``) sets starting tiles 1 E2, 2 F3, 3 G5,
4 B0, 5 C3, 6 D3, 7 A1; red draws a 4 and blue a 2.
"""

from __future__ import annotations

import sys
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudoku_arena.core import load
from sudoku_arena.core.errors import IllegalActionError, InvalidParameterError
from sudoku_arena.games.sudokuhex.game import MAX_TOTAL_SCORE, SuDokuHex
from sudoku_arena.games.sudokuhex.render import render_text
from sudoku_arena.grids.hex import (
    HEX_NAMES,
    HONEYCOMB_HEXES,
    HONEYCOMB_OF,
    LINE_DIRECTION,
    LINES,
    LINES_THROUGH,
    parse_hex,
)

sys.path.insert(0, str(Path(__file__).parent))
from sudokuhex_helpers import (
    SETUP,
    SEVENS,
    SOLO_STUCK,
    full_board_state,
    play,
    random_states,
)


def game(players: int = 2) -> SuDokuHex:
    g = load("sudokuhex", players=players)
    assert isinstance(g, SuDokuHex)
    return g


def refusal(g: SuDokuHex, moves: list[str], action: str) -> str:
    """The reason ``action`` is refused after ``moves``; the state stays unchanged."""
    s = play(g, moves)
    before = g.dump_state(s)
    tm = g.to_move(s)
    with pytest.raises(IllegalActionError) as info:
        g.apply(s, g.parse_action(action), None if tm.is_chance else tm.players[0])
    assert g.dump_state(s) == before
    return info.value.reason


# -- SH-1: the board -----------------------------------------------------------------------


def test_sh_1_board_has_49_hexes_in_7_honeycombs_and_27_lines() -> None:
    assert sorted(len(h) for h in HONEYCOMB_HEXES) == [7] * 7
    assert len(LINES) == 27
    for d in range(3):
        lengths = [len(ln) for ln, dd in zip(LINES, LINE_DIRECTION, strict=True) if dd == d]
        assert lengths == [2, 5, 7, 7, 7, 7, 7, 5, 2]


def test_sh_1_a_7_hex_line_refuses_a_repeated_number() -> None:
    # Blue's 2 on A5: honeycomb A has no 2, but the 7-hex line F4..C1 holds F3 = 2.
    reason = refusal(game(), [*SETUP, "A0", "draw 5"], "A5")
    assert "northwest-southeast line F4-C1 (7 hexes)" in reason
    assert "holds a 2 on F3" in reason and "SH-4" in reason


def test_sh_1_a_5_hex_line_refuses_a_repeated_number() -> None:
    # Blue's 3 on B6: honeycomb B has no 3, but the 5-hex line G5..B1 holds G5 = 3.
    moves = [*SETUP, "A0", "draw 5", "B2", "draw 3", "B1", "draw 6"]
    reason = refusal(game(), moves, "B6")
    assert "northwest-southeast line G5-B1 (5 hexes)" in reason
    assert "holds a 3 on G5" in reason


def test_sh_1_lines_of_2_5_and_7_hexes_all_score() -> None:
    # Red's 5 on B1 lies on the 7-hex line D5..B1 (B0 = 4), the 5-hex line G5..B1
    # (G5 = 3) and the 2-hex line B1-B2 (B2 = 2): three points.
    g = game()
    lengths = sorted(len(LINES[j]) for j in LINES_THROUGH[parse_hex("B1")])
    assert lengths == [2, 5, 7]
    s = play(g, [*SETUP, "A0", "draw 5", "B2", "draw 3"])
    assert s.scores == (4, 1)
    s = play(g, ["B1"], s)
    assert s.last_points == 3
    assert s.scores == (7, 1)


def test_sh_1_a_2_hex_line_repeat_is_refused_by_its_honeycomb_first() -> None:
    # Both hexes of a 2-hex line share a honeycomb, so the honeycomb is named.
    g = game()
    moves = [*SETUP, "A0", "draw 2"]  # red now holds another 2; blue holds a 2
    s = play(g, [*moves, "B2", "draw 6"])  # blue's 2 on B2
    assert s.hands[0] == 2
    with pytest.raises(IllegalActionError, match="honeycomb B already holds a 2 on B2"):
        g.apply(s, parse_hex("B1"), 0)


# -- SH-2: tiles and setup -------------------------------------------------------------------


def test_sh_2_setup_puts_one_of_each_number_in_a_different_honeycomb_at_random() -> None:
    g = game()
    s = g.initial_state()
    assert g.to_move(s).is_chance
    for v in range(1, 8):
        outcomes = g.chance_outcomes(s)
        free = 7 - (v - 1)
        assert len(outcomes) == 7 * free
        assert all(p == Fraction(1, 7 * free) for _, p in outcomes)
        texts = [g.format_action(a) for a, _ in outcomes]
        assert all(t.startswith(f"start {v} ") for t in texts)
        used = {HONEYCOMB_OF[h] for h in s.start if h >= 0}
        assert all(HONEYCOMB_OF[parse_hex(t.split()[2])] not in used for t in texts)
        s = g.apply(s, g.parse_action(SETUP[v - 1]), None)
    assert sorted(s.board[h] for h in s.start) == list(range(1, 8))
    assert sorted(HONEYCOMB_OF[h] for h in s.start) == list(range(7))


def test_sh_2_setup_refuses_a_used_honeycomb_and_the_wrong_number() -> None:
    g = game()
    assert "honeycomb E already has its starting tile" in refusal(g, SETUP[:1], "start 2 E5")
    assert "the next is 2" in refusal(g, SETUP[:1], "start 3 A3")
    assert "chance" in refusal(g, SETUP[:1], "A3")


def test_sh_2_the_other_42_tiles_form_the_pile_and_each_draw_is_count_over_remaining() -> None:
    g = game()
    s = play(g, SETUP[:7])
    assert s.pile == (6,) * 7 and sum(s.pile) == 42
    outcomes = dict(g.chance_outcomes(s))
    assert [g.format_action(a) for a in outcomes] == [f"draw {v}" for v in range(1, 8)]
    assert set(outcomes.values()) == {Fraction(6, 42)}
    s = play(g, ["draw 4"], s)
    probs = {g.format_action(a): p for a, p in g.chance_outcomes(s)}
    assert probs["draw 4"] == Fraction(5, 41)
    assert probs["draw 1"] == Fraction(6, 41)
    assert sum(probs.values()) == 1


def test_sh_2_an_exhausted_number_cannot_be_drawn() -> None:
    g = game()
    s = play(g, SEVENS)
    assert s.pile[6] == 0 and s.hands == (0, 7) and s.drawer == 0
    assert "draw 7" not in [g.format_action(a) for a, _ in g.chance_outcomes(s)]
    with pytest.raises(IllegalActionError, match="no 7 is left"):
        g.apply(s, g.parse_action("draw 7"), None)


def test_sh_2_sampled_setups_are_always_valid() -> None:
    g = game(3)
    for seed in range(20):
        s = random_states(g, seed, stride=1000)[-1]
        assert sorted(HONEYCOMB_OF[h] for h in s.start) == list(range(7))
        assert [s.board[h] for h in s.start] == list(range(1, 8))


# -- SH-3: players and the opening deal ---------------------------------------------------------


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_sh_3_one_to_four_players_each_draw_one_tile_then_seat_0_starts(n: int) -> None:
    g = game(n)
    s = play(g, SETUP[:7])
    for seat in range(n):
        assert g.to_move(s).is_chance and s.drawer == seat
        s = play(g, [f"draw {seat + 1}"], s)
    assert s.hands == tuple(range(1, n + 1))
    assert g.to_move(s).players == (0,)
    assert sum(s.pile) == 42 - n


@pytest.mark.parametrize("n", [0, 5])
def test_sh_3_other_player_counts_are_refused(n: int) -> None:
    with pytest.raises(InvalidParameterError, match="allowed"):
        load("sudokuhex", players=n)


def test_sh_3_each_hand_is_seen_only_by_its_owner() -> None:
    g = game()
    s = play(g, SETUP)
    assert g.view(s, 0)["hand"] == 4
    assert g.view(s, 1)["hand"] == 2
    assert g.view(s, None)["hand"] is None
    assert g.view(s, 0)["legal"] and not g.view(s, 1)["legal"]
    assert g.legal_actions(s, 1) == []


# -- SH-4: a turn ----------------------------------------------------------------------------


def test_sh_4_placement_refused_by_its_honeycomb() -> None:
    # Blue's 2 on F5: no line through F5 holds a 2, but honeycomb F does (F3).
    reason = refusal(game(), [*SETUP, "A0", "draw 5"], "F5")
    assert reason.startswith("honeycomb F already holds a 2 on F3 (SH-4")
    assert "your 2 may go on" in reason and "B2" in reason


def test_sh_4_placement_refused_by_a_line() -> None:
    reason = refusal(game(), [*SETUP, "A0", "draw 5"], "A5")
    assert reason.startswith("the northwest-southeast line F4-C1 (7 hexes) through A5")


def test_sh_4_only_empty_hexes() -> None:
    assert "A0 already holds a 4" in refusal(game(), [*SETUP, "A0", "draw 5"], "A0")
    assert "E2 already holds a 1" in refusal(game(), SETUP, "E2")


def test_sh_4_scoring_counts_tiles_on_all_three_lines() -> None:
    # Red's 4 on A0: E2 = 1 and A1 = 7 on the east-west line, F3 = 2 on the
    # north-west line, G5 = 3 on the north-east line: 4 points.
    g = game()
    s = play(g, SETUP)
    lines = [[HEX_NAMES[h] for h in LINES[j]] for j in LINES_THROUGH[parse_hex("A0")]]
    on_lines = [[h for h in ln if h in ("E2", "A1", "F3", "G5")] for ln in lines]
    assert on_lines == [["E2", "A1"], ["F3"], ["G5"]]
    s = play(g, ["A0"], s)
    assert s.last_points == 4 and s.scores == (4, 0)
    # Tiles elsewhere (B0, C3, D3) do not count, nor does the honeycomb.


def test_sh_4_each_tile_counted_once_on_a_full_board() -> None:
    # The last hex A0 of an otherwise full board sees 18 tiles on its three lines.
    g = game()
    s = full_board_state(g, "A0", hands=[4, 0], scores=[0, 0], turn=0)
    s = g.apply(s, parse_hex("A0"), 0)
    assert s.last_points == 18


def test_sh_4_the_placer_draws_a_new_tile_if_any_remain() -> None:
    g = game()
    s = play(g, [*SETUP, "A0"])
    assert g.to_move(s).is_chance and s.drawer == 0 and s.hands == (0, 2)
    assert s.turn == 1
    s = play(g, ["draw 5"], s)
    assert s.hands == (5, 2) and g.to_move(s).players == (1,)
    assert sum(s.pile) == 39


def test_sh_4_no_draw_when_the_pile_is_empty() -> None:
    # Only A0 (a 4) and B1 (a 2) are free; red holds the 4, blue the 2, the pile is out.
    g = game()
    s = full_board_state(g, "A0 B1", hands=[4, 2], scores=[0, 0], turn=0)
    s = g.apply(s, parse_hex("A0"), 0)
    assert s.hands == (0, 2) and s.drawer == -1
    assert g.to_move(s).players == (1,)  # straight to blue: no chance node
    s = g.apply(s, parse_hex("B1"), 1)
    assert s.hands == (0, 0) and g.to_move(s).is_terminal and s.end == "no-tile"


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(1, 4))
def test_sh_4_legal_hexes_are_exactly_those_the_sudoku_rule_allows(seed: int, players: int) -> None:
    g = game(players)
    for s in random_states(g, seed, stride=3):
        tm = g.to_move(s)
        if not tm.is_decision:
            continue
        p = tm.players[0]
        v = s.hands[p]
        brute = []
        for h in range(49):
            if s.board[h]:
                continue
            peers = set(HONEYCOMB_HEXES[HONEYCOMB_OF[h]])
            for j in LINES_THROUGH[h]:
                peers |= set(LINES[j])
            if all(s.board[x] != v for x in peers):
                brute.append(h)
        assert list(g.legal_actions(s, p)) == brute


# -- SH-5: the end ---------------------------------------------------------------------------


def test_sh_5_game_ends_when_the_player_to_move_has_no_legal_hex() -> None:
    g = game(1)
    before = play(g, SOLO_STUCK[:-1])
    assert g.to_move(before).is_chance and before.pile[6] == 2
    s = play(g, SOLO_STUCK[-1:], before)
    assert s.hands == (7,)
    assert g.legal_mask(s, 7) == 0
    assert g.to_move(s).is_terminal
    out = g.outcome(s)
    assert out is not None
    assert out.reason == f"final score {s.scores[0]} (red has no legal hex for the tile in hand)"
    assert g.returns(s) == (s.scores[0] / MAX_TOTAL_SCORE,)


def test_sh_5_game_ends_when_blue_cannot_place_the_last_7() -> None:
    # Six 7s are on the board; honeycomb B has none but every free hex of B is on a
    # line with a 7. Blue, to move with that 7, cannot place: the game ends at once.
    g = game()
    s = play(g, [*SEVENS, "draw 1"])
    assert s.turn == 1 and s.hands == (1, 7)
    assert g.to_move(s).is_terminal and s.end == "no-hex"
    assert g.legal_actions(s, 1) == []
    out = g.outcome(s)
    assert out is not None and "(blue has no legal hex for the tile in hand)" in out.reason


def test_sh_5_game_ends_when_the_player_to_move_has_no_tile() -> None:
    g = game()
    s = full_board_state(g, "A0", hands=[4, 0], scores=[10, 20], turn=0)
    assert g.to_move(s).players == (0,)
    s = g.apply(s, parse_hex("A0"), 0)
    assert g.to_move(s).is_terminal
    out = g.outcome(s)
    assert out is not None
    assert out.winners == (0,) and out.scores == (28.0, 20.0)
    assert out.reason == "red wins with 28 points (blue has no tile left)"
    assert g.returns(s) == (1.0, 0.0)


def test_sh_5_equal_top_scores_share_the_win() -> None:
    g = game()
    s = full_board_state(g, "A0", hands=[4, 0], scores=[2, 20], turn=0)
    s = g.apply(s, parse_hex("A0"), 0)
    out = g.outcome(s)
    assert out is not None and out.winners == (0, 1)
    assert "red and blue share the win with 20 points" in out.reason
    assert g.returns(s) == (0.5, 0.5)


def test_sh_5_solo_result_is_the_score_scaled() -> None:
    assert MAX_TOTAL_SCORE == 381  # 3 directions x (2*1 + 2*10 + 5*21) pairs
    g = game(1)
    s = play(g, SOLO_STUCK)
    assert g.outcome(s) is not None
    assert 0 < g.returns(s)[0] < 1


def test_sh_5_laps_of_the_60_space_track_are_shown() -> None:
    g = game()
    s = full_board_state(g, "A0", hands=[4, 0], scores=[57, 125], turn=0)
    v = g.view(s, 0)
    assert v["laps"] == [0, 2] and v["track"] == [57, 5] and v["lap_length"] == 60
    s = g.apply(s, parse_hex("A0"), 0)
    v = g.view(s, 1)
    assert v["scores"] == [75, 125] and v["laps"] == [1, 2] and v["track"] == [15, 5]
    text = render_text(v)
    assert "red: 75 (1 lap + 15)" in text and "blue: 125 (2 laps + 5)" in text


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(1, 4))
def test_sh_5_the_game_goes_on_exactly_while_the_mover_can_place(seed: int, players: int) -> None:
    g = game(players)
    states = random_states(g, seed)
    for s in states:
        tm = g.to_move(s)
        if tm.is_decision:
            v = s.hands[s.turn]
            assert v and g.legal_mask(s, v)
    end = states[-1]
    v = end.hands[end.turn]
    assert end.end == ("no-tile" if v == 0 else "no-hex")
    if v:
        assert g.legal_mask(end, v) == 0


# -- SH-6: secrecy ---------------------------------------------------------------------------


def test_sh_6_the_state_keeps_no_pile_order() -> None:
    # The pile is a count per number; drawing the same tiles in another order leads to
    # the same pile (the order is never decided before a draw happens).
    g = game(1)
    a = play(g, [*SETUP[:7], "draw 3", "A2", "draw 5"])
    b = play(g, [*SETUP[:7], "draw 5", "A2", "draw 3"])
    assert a.pile == b.pile
    assert not hasattr(a, "pile_order")


def test_sh_6_hands_never_appear_in_other_views() -> None:
    g = game(4)
    s = play(g, [*SETUP[:7], "draw 1", "draw 2", "draw 3", "draw 4"])
    for obs in (None, 0, 1, 2, 3):
        v = g.view(s, obs)
        assert v["hand"] == (None if obs is None else obs + 1)
        assert v["holding"] == [True] * 4
        assert v["tiles_left"] == 38
        # unseen = 7 of each minus the board (one of each) minus his own tile
        unseen = [6] * 7
        if obs is not None:
            unseen[obs] -= 1
        assert v["unseen"] == unseen
