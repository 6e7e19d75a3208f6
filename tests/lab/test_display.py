"""Display texts and verdicts: units, rounding and the one rule for a clear direction."""

from __future__ import annotations

import pytest

from sudoku_arena.lab.display import (
    ELO,
    FRACTION,
    MISSING,
    PERCENT,
    POINTS,
    Shown,
    ladder_rows,
    number,
    shown,
    variant_rows,
)
from sudoku_arena.lab.stats import Estimate
from sudoku_arena.lab.verdicts import base_verdicts, clear, level


def est(value: float, low: float, high: float) -> dict[str, float]:
    return {"value": value, "low": low, "high": high, "n": 100}


def test_a_difference_of_rates_is_in_points_and_a_rate_in_percent() -> None:
    assert shown(est(0.04, -0.012, 0.091), POINTS).text() == "4.0 pts (-1.2 to 9.1)"
    assert shown(est(0.52, 0.471, 0.569), PERCENT).text() == "52.0% (47.1 to 56.9)"
    assert shown(est(-680.84, -767.1, -579.5), ELO).text() == "-680.8 Elo (-767.1 to -579.5)"


def test_the_luck_index_keeps_a_small_value_visible() -> None:
    assert shown(est(0.04, 0.0, 0.17), FRACTION) == Shown("0.04", "0.00 to 0.17")


@pytest.mark.parametrize(
    ("x", "signed", "text"),
    [(-0.0004, False, "0.0"), (0.0, True, "0.0"), (1.26, True, "+1.3"), (-3.0, True, "-3.0")],
)
def test_a_value_that_rounds_to_zero_has_no_sign(x: float, signed: bool, text: str) -> None:
    assert number(x, signed=signed) == text


def test_a_missing_figure_is_a_dash() -> None:
    assert shown(None).text() == MISSING
    assert shown({"value": None, "low": None, "high": None, "n": 0}, POINTS).text() == MISSING


def test_rows_hold_one_cell_per_variant_and_bot_wins_only_in_their_own() -> None:
    base = {"games": 4, "seats": 2, "seat_advantage": est(0.1, -0.2, 0.4)}
    base["agent_win"] = {"random": est(0.25, 0.05, 0.7)}
    rows = {r.label: r.cells for r in variant_rows({"base": base, "b": {"games": 0}})}
    assert rows["games"] == (Shown("4"), Shown("0"))
    assert rows["seat 1 advantage"] == (Shown("10.0 pts", "-20.0 to 40.0"), Shown(MISSING))
    assert rows["base: random wins"] == (Shown("25.0%", "5.0 to 70.0"), Shown(""))
    assert "won by nobody" not in rows  # no variant has it


def test_the_ladder_rows_end_with_spread_and_luck() -> None:
    ladder = {"ratings": {"a": est(-10, -20, 0), "b": est(10, 0, 20)}, "spread": est(10, 5, 15)}
    assert [label for label, _ in ladder_rows(ladder)] == ["a", "b", "spread"]
    ladder["luck_index"] = {**est(0.04, 0.0, 0.1), "reference": "tic-tac-sudoku"}
    assert ladder_rows(ladder)[-1] == ("luck index", Shown("0.04", "0.00 to 0.10"))
    assert ladder_rows({"names": ["a"], "games": 0}) == []


def test_a_direction_is_claimed_only_when_the_interval_leaves_out_zero() -> None:
    assert clear(Estimate(0.1, 0.01, 0.2, 9)) and clear(Estimate(-0.1, -0.2, -0.01, 9))
    assert not clear(Estimate(0.1, 0.0, 0.2, 9)) and not clear(Estimate(0.1, -0.1, 0.2, 9))


def test_base_rules_verdicts_in_plain_words() -> None:
    metrics = {"seat_advantage": est(0.128, 0.089, 0.166), "draw": est(0.05, 0.021, 0.11)}
    ladder = {"luck_index": {**est(0.32, 0.12, 0.51), "reference": "tic-tac-sudoku"}}
    said = base_verdicts(metrics, ladder)
    assert said["seat_advantage"] == (
        "seat 1 wins 12.8 points more often than an even share under the base rules "
        "(95% interval 8.9 to 16.6 more)"
    )
    assert said["draw"] == (
        "games are won by nobody 5.0% of the time under the base rules (95% interval 2.1 to 11.0)"
    )
    assert said["luck_index"].endswith(
        "is 0.32 under the base rules (95% interval 0.12 to 0.51): more luck than tic-tac-sudoku"
    )


def test_base_rules_without_a_clear_edge_say_so() -> None:
    metrics = {"seat_advantage": est(0.02, -0.029, 0.069), "draw": est(0.0, 0.0, 0.161)}
    said = base_verdicts(metrics)
    assert said["seat_advantage"] == (
        "no clear difference from an even share: seat 1 wins +2.0 points under the base "
        "rules (95% interval -2.9 to +6.9)"
    )
    assert said["draw"].startswith(
        "no clear difference from no draws: games are won by nobody 0.0%"
    )
    assert "luck_index" not in said  # no ladder
    assert base_verdicts({"games": 5, "seats": 1}) == {}  # one seat: nothing to balance


def test_level_puts_the_value_where_the_words_say() -> None:
    text = level("{} of games end early", PERCENT, Estimate(0.5, 0.4, 0.6, 9), "here", "none")
    assert text == "50.0% of games end early here (95% interval 40.0 to 60.0)"
