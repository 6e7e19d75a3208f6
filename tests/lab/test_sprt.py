"""The sequential probability ratio test on known cases, the tournament's ``--sprt``
and the strength table's rows settled by it."""

from __future__ import annotations

import math
import random
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from sudoku_arena.ai.tournament import jobs, run_games
from sudoku_arena.cli.main import app
from sudoku_arena.lab import strength
from sudoku_arena.lab.sprt import (
    CONTINUE,
    H0,
    H1,
    PAIR_SCORES,
    PairedGames,
    Sprt,
    elo_of,
    expected_score,
    game_score,
    parse_elo_bounds,
)

#: The Elo difference whose expected score is exactly 3/4.
ELO_THREE_QUARTERS = 400 * math.log10(3)


def _games(test: Sprt, wins: int, draws: int, losses: int) -> Sprt:
    for score, count in ((1.0, wins), (0.5, draws), (0.0, losses)):
        for _ in range(count):
            test.add_game(score)
    return test


def _pairs(test: Sprt, counts: tuple[int, ...]) -> Sprt:
    for score, count in zip(PAIR_SCORES, counts, strict=True):
        for _ in range(count):
            test.add_pair(score)
    return test


def _game(rng: random.Random, win: float, draw: float) -> float:
    u = rng.random()
    return 1.0 if u < win else 0.5 if u < win + draw else 0.0


def _probabilities(elo: float, draw: float) -> tuple[float, float]:
    """Win and draw probabilities of a game whose expected score is ``s(elo)``."""
    return expected_score(elo) - draw / 2, draw


# -- the test on known cases ------------------------------------------------------------------


def test_bounds_for_alpha_and_beta_of_five_percent_are_2_944() -> None:
    low, high = Sprt(0, 50).bounds
    assert low == pytest.approx(-2.944, abs=5e-4) and high == pytest.approx(2.944, abs=5e-4)
    assert low == math.log(0.05 / 0.95) and high == math.log(0.95 / 0.05)
    low, high = Sprt(0, 50, alpha=0.01, beta=0.1).bounds
    assert (low, high) == (math.log(0.1 / 0.99), math.log(0.9 / 0.01))


def test_elo_and_expected_score_are_the_logistic_curve_and_its_inverse() -> None:
    assert expected_score(0) == 0.5
    assert expected_score(ELO_THREE_QUARTERS) == pytest.approx(0.75)
    assert expected_score(-400) == pytest.approx(1 / 11)
    assert elo_of(0.75) == pytest.approx(ELO_THREE_QUARTERS)
    assert (elo_of(0.0), elo_of(1.0)) == (-math.inf, math.inf)


def test_llr_of_a_small_case_equals_the_hand_computation() -> None:
    # 3 wins, 2 draws, 1 loss: p = (1/6, 2/6, 3/6) on the values (0, 1/2, 1); H0 s0 = 1/2,
    # H1 s1 = 3/4. The distribution of largest likelihood with mean s is
    # q_i = p_i / (1 + x (a_i - s)), x the root of sum p_i (a_i - s) / (1 + x (a_i - s)).
    #
    # s0 = 1/2: -(1/6)(1/2) / (1 - x/2) + (3/6)(1/2) / (1 + x/2) = 0
    #   => 3 (1 - x/2) = 1 + x/2 => x = 1 => q0 = (1/3, 1/3, 1/3).
    q0 = (1 / 3, 1 / 3, 1 / 3)
    # s1 = 3/4, u = x/4: -3 / (1 - 3u) - 2 / (1 - u) + 3 / (1 + u) = 0 (times 24)
    #   => 18u^2 - 8u - 2 = 0 => 9u^2 - 4u - 1 = 0 => u = (2 - sqrt 13) / 9
    #   (the other root, 0.62, makes 1 - 3u negative).
    u = (2 - math.sqrt(13)) / 9
    q1 = ((1 / 6) / (1 - 3 * u), (2 / 6) / (1 - u), (3 / 6) / (1 + u))
    assert sum(q1) == pytest.approx(1) and q1[1] / 2 + q1[2] == pytest.approx(0.75)
    # LLR = sum_i count_i ln(q1_i / q0_i) = 1 ln(3 q1_0) + 2 ln(3 q1_1) + 3 ln(3 q1_2)
    by_hand = sum(c * math.log(a / b) for c, a, b in zip((1, 2, 3), q1, q0, strict=True))
    assert by_hand == pytest.approx(0.35578, abs=1e-5)
    test = _games(Sprt(0, ELO_THREE_QUARTERS), wins=3, draws=2, losses=1)
    assert test.llr == pytest.approx(by_hand, rel=1e-12)
    assert test.counts == (1, 2, 3) and test.games == 6 and test.decision == CONTINUE


def test_estimate_of_the_small_case_is_its_mean_with_the_normal_interval() -> None:
    # Mean 4/6 = 2/3 per game, variance 7/12 - 4/9 = 5/36, 6 games.
    est = _games(Sprt(0, 50), wins=3, draws=2, losses=1).estimate()
    half = 1.959963984540054 * math.sqrt(5 / 36 / 6)
    assert est.score == pytest.approx(2 / 3)
    assert est.elo == pytest.approx(400 * math.log10(2))  # 2/3 is odds of 2 to 1
    assert est.low == pytest.approx(elo_of(2 / 3 - half))
    assert est.high == pytest.approx(elo_of(2 / 3 + half))
    assert math.isnan(Sprt(0, 50).estimate().elo)


def test_exact_llr_agrees_with_the_normal_approximation_on_balanced_pairs() -> None:
    counts = (100, 400, 800, 450, 120)
    test = _pairs(Sprt(-5, 5), counts)
    values = [i / 4 for i in range(5)]
    n = sum(counts)
    mean = sum(a * c for a, c in zip(values, counts, strict=True)) / n
    var = sum((a - mean) ** 2 * c for a, c in zip(values, counts, strict=True)) / n
    s0, s1 = expected_score(-5), expected_score(5)
    approx = (s1 - s0) * (2 * mean - s0 - s1) * n / (2 * var)
    assert test.llr == pytest.approx(approx, rel=0.01)
    assert test.llr > 0  # more 1.5s and 2s than 0.5s and 0s


def test_symmetric_results_leave_the_llr_in_the_middle() -> None:
    # Bounds symmetric about 0 Elo and results symmetric about a score of 1/2: no evidence
    # either way.
    assert abs(_games(Sprt(-20, 20), wins=40, draws=15, losses=40).llr) < 1e-9
    assert abs(_pairs(Sprt(-20, 20), (5, 20, 30, 20, 5)).llr) < 1e-9
    # For 0, 50 the midpoint of the hypotheses is above 1/2: an even score leans to H0,
    # but a handful of games decides nothing.
    test = _pairs(Sprt(0, 50), (1, 2, 4, 2, 1))
    low, high = test.bounds
    assert low < test.llr < 0 < high and test.decision == CONTINUE


def test_a_stronger_agent_is_accepted_as_stronger_within_the_cap() -> None:
    rng = random.Random(7)
    win, draw = _probabilities(200, draw=0.2)  # far above elo1 = 50
    for add in ("pairs", "games"):
        test = Sprt(0, 50)
        for _ in range(1000):
            if add == "pairs":
                test.add_pair(_game(rng, win, draw) + _game(rng, win, draw))
            else:
                test.add_game(_game(rng, win, draw))
            if test.decision != CONTINUE:
                break
        assert test.decision == H1 and test.observations < 1000, add
        assert test.llr >= test.bounds[1]
        assert test.estimate().low > 50, add  # its interval leaves out both hypotheses


def test_a_weaker_agent_is_accepted_as_not_stronger_within_the_cap() -> None:
    rng = random.Random(8)
    win, draw = _probabilities(-100, draw=0.3)  # well below elo0 = 0
    test = Sprt(0, 50)
    while test.decision == CONTINUE and test.observations < 1000:
        test.add_pair(_game(rng, win, draw) + _game(rng, win, draw))
    assert test.decision == H0 and test.observations < 1000
    assert test.llr <= test.bounds[0]
    est = test.estimate()
    assert est.elo < 0 and est.low < -100 < est.high  # the interval holds the truth


def test_all_draws_stay_finite_and_lose_ln_2_1_minus_s1_per_draw() -> None:
    # An empty category counts 1/1000 of a game, so nothing divides by zero. Under H0
    # (s0 = 1/2) draws are as likely as can be; under H1 the likeliest distribution moves
    # 2 (s1 - 1/2) of the mass from draws to wins, so each draw costs about
    # ln(1 - 2 (s1 - 1/2)) = ln(2 (1 - s1)) = -0.154, and the 20th draw accepts H0.
    s1 = expected_score(50)
    test = Sprt(0, 50)
    for _ in range(19):
        test.add_game(0.5)
    assert math.isfinite(test.llr) and test.decision == CONTINUE
    assert test.llr / 19 == pytest.approx(math.log(2 * (1 - s1)), rel=0.01)
    test.add_game(0.5)
    assert test.decision == H0
    est = test.estimate()
    assert est.elo == pytest.approx(0, abs=1e-6) and est.low < 0 < est.high
    pairs = _pairs(Sprt(0, 50), (0, 0, 30, 0, 0))
    assert math.isfinite(pairs.llr) and pairs.decision == H0


def test_straight_wins_accept_h1_after_2_944_over_ln_s1_over_s0_of_them() -> None:
    s0, s1 = expected_score(0), expected_score(50)
    needed = math.ceil(math.log(0.95 / 0.05) / math.log(s1 / s0))
    assert needed == 23
    test = _pairs(Sprt(0, 50), (0, 0, 0, 0, needed - 1))
    assert test.decision == CONTINUE
    test.add_pair(2)
    assert test.decision == H1
    assert test.estimate().high == math.inf  # the interval reaches a score of 1


def test_no_observations_is_an_llr_of_zero() -> None:
    test = Sprt(0, 50)
    assert (test.llr, test.decision, test.games, test.counts) == (0.0, CONTINUE, 0, ())


@pytest.mark.parametrize("score", [2.5, 0.25, -0.5, 3, math.nan])
def test_a_pair_score_outside_the_allowed_set_is_refused(score: float) -> None:
    with pytest.raises(ValueError, match=r"a pair's score is one of 0, 0\.5, 1, 1\.5, 2; got"):
        Sprt(0, 50).add_pair(score)


def test_a_game_score_outside_win_draw_loss_is_refused_and_models_do_not_mix() -> None:
    with pytest.raises(ValueError, match=r"a game's score is one of 0, 0\.5, 1; got 1\.5"):
        Sprt(0, 50).add_game(1.5)
    test = Sprt(0, 50)
    test.add_pair(1.5)
    with pytest.raises(ValueError, match="counts pentanomial results; it cannot mix"):
        test.add_game(1)
    assert test.counts == (0, 0, 0, 1, 0)


@pytest.mark.parametrize(
    ("elo0", "elo1", "alpha", "beta"),
    [(50, 0, 0.05, 0.05), (10, 10, 0.05, 0.05), (0, 50, 0, 0.05), (0, 50, 0.6, 0.5)],
)
def test_a_test_that_cannot_decide_is_refused(
    elo0: float, elo1: float, alpha: float, beta: float
) -> None:
    with pytest.raises(ValueError):
        Sprt(elo0, elo1, alpha, beta)


def test_elo_bounds_are_parsed_or_refused_saying_what_is_allowed() -> None:
    assert parse_elo_bounds("0,50") == (0.0, 50.0)
    assert parse_elo_bounds("-10, 5.5") == (-10.0, 5.5)
    for text in ("5", "a,b", "50,0", "0,0", "1,2,3", "nan,5", ""):
        with pytest.raises(ValueError, match=r"give ELO0,ELO1, .* with ELO0 < ELO1"):
            parse_elo_bounds(text)


def test_a_game_score_is_the_first_agent_s_share_and_nobody_s_win_a_draw() -> None:
    assert [game_score(r) for r in ((1, 0), (0, 1), (0.5, 0.5), (0, 0))] == [1, 0, 0.5, 0.5]
    with pytest.raises(ValueError):
        game_score((1, 0, 0))


counts5 = st.tuples(*[st.integers(0, 12)] * 5)
elos = st.tuples(st.floats(-300, 300), st.floats(1, 300))


@given(counts5, elos)
def test_llr_rises_with_every_win_added_and_falls_with_every_loss(
    counts: tuple[int, ...], bounds: tuple[float, float]
) -> None:
    elo0, width = bounds

    def llr(extra: float | None) -> float:
        test = _pairs(Sprt(elo0, elo0 + width), counts)
        if extra is not None:
            test.add_pair(extra)
        return test.llr

    assert llr(0.0) < llr(None) < llr(2.0)


@given(st.tuples(*[st.integers(0, 20)] * 3))
def test_trinomial_llr_rises_with_a_win_added(counts: tuple[int, int, int]) -> None:
    wins, draws, losses = counts
    before = _games(Sprt(0, 50), wins, draws, losses).llr
    assert _games(Sprt(0, 50), wins + 1, draws, losses).llr > before


# -- pairs fed in deal order, and games stopped at the decision ------------------------------


def test_paired_games_count_whole_deals_in_order_however_they_finish() -> None:
    feed = PairedGames(Sprt(0, 50))
    assert not feed.add(1, 1.0) and feed.pairs == 0  # deal 0 is not complete
    assert not feed.add(3, 1.0) and not feed.add(2, 0.5) and feed.pairs == 0
    assert not feed.add(0, 1.0)
    assert feed.pairs == 2 and feed.games == 4 and feed.test.counts == (0, 0, 0, 1, 1)
    with pytest.raises(ValueError, match="game 2 was counted already"):
        feed.add(2, 1.0)


def test_games_after_the_decision_do_not_count() -> None:
    feed = PairedGames(Sprt(0, 50))
    index = 0
    while not feed.add(index, 1.0):
        index += 1
    assert feed.pairs == 23 and feed.games == 46 == index + 1
    assert feed.add(46, 0.0) and feed.add(47, 0.0)  # decided: ignored
    assert feed.test.counts == (0, 0, 0, 0, 23)


@pytest.mark.parametrize("workers", [1, 2])
def test_run_games_stops_when_asked(workers: int) -> None:
    todo = jobs("tic-tac-sudoku", ["random", "random"], 40)
    seen: list[int] = []
    results = run_games(
        todo,
        workers=workers,
        on_result=lambda r: seen.append(r.index),
        stop=lambda r: len(seen) >= 3,
    )
    assert len(results) == 3 and sorted(seen) == [r.index for r in results]


# -- the tournament's --sprt --------------------------------------------------------------------


def _tournament(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(
        app, ["tournament", "tic-tac-sudoku", *args], env={"COLUMNS": "200"}
    )
    return result.exit_code, result.output


def _sprt_lines(output: str) -> list[str]:
    return output[output.index("SPRT of") :].splitlines()


def test_tournament_sprt_stops_early_with_greedy_accepted_as_stronger_than_random() -> None:
    code, out = _tournament(
        "--players", "greedy,random", "--games", "200", "--sprt", "0,50", "--workers", "1"
    )
    assert code == 0, out
    assert "H1 accepted: greedy is stronger than random" in out
    llr, low, high = (float(x) for x in re.findall(r"LLR (\S+), bounds (\S+) and (\S+)", out)[0])
    assert llr >= high == 2.94 and low == -2.94
    played = re.search(
        r"(\d+) games \((\d+) seat-swapped pairs, pentanomial\) of a cap of 200", out
    )
    assert played is not None, out
    games, pairs = int(played[1]), int(played[2])
    assert games == 2 * pairs < 200  # stopped early
    assert f"tic-tac-sudoku: {games} games" in out  # the table is over the same games
    elo = re.search(r"Elo of greedy over random: \+(\d+) \(95% CI \+(\d+) to ", out)
    assert elo is not None and int(elo[2]) > 50
    # The pairs are counted in deal order, so two workers decide on the same games.
    code, two = _tournament(
        "--players", "greedy,random", "--games", "200", "--sprt", "0,50", "--workers", "2"
    )
    assert code == 0 and _sprt_lines(two) == _sprt_lines(out)


def test_tournament_sprt_says_inconclusive_at_the_cap() -> None:
    code, out = _tournament(
        "--players", "greedy,random", "--games", "3", "--sprt", "0,50", "--workers", "1"
    )
    assert code == 0, out
    assert "inconclusive at the cap" in out and "4 games (2 seat-swapped pairs" in out


@pytest.mark.parametrize(
    ("players", "bounds", "words"),
    [
        ("greedy,random", "5", "give ELO0,ELO1"),
        ("greedy,random", "a,b", "give ELO0,ELO1"),
        ("greedy,random", "50,0", "ELO0 < ELO1"),
        ("greedy,random,random", "0,50", "--sprt compares two agents"),
    ],
)
def test_tournament_sprt_refuses_bad_input_in_one_line(
    players: str, bounds: str, words: str
) -> None:
    code, out = _tournament("--players", players, "--sprt", bounds)
    assert code == 2
    lines = out.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and words in lines[0], out


# -- the strength table's rows settled by SPRT --------------------------------------------------


def test_a_strength_row_played_as_an_sprt_is_stored_rendered_and_left_alone(tmp_path: Path) -> None:
    row = strength.Row("greedy-random", ("greedy", "random"))
    store = strength.load_store(tmp_path)
    strength.play_row(tmp_path, store, "tic-tac-sudoku", row, 200, 1, False, {}, sprt=(0, 50))
    entry = strength.load_store(tmp_path)["games"]["tic-tac-sudoku"]["greedy-random"]
    test = entry["sprt"]
    assert (test["elo0"], test["elo1"], test["decision"], test["cap"]) == (0, 50, H1, 200)
    assert test["llr"] >= 2.94 and test["games"] < 200 and test["model"] == "pentanomial"
    assert sorted(r["index"] for r in entry["results"]) == list(range(test["games"]))

    # A plain run leaves the tested row as it is; another test decides on its games.
    strength.play_row(tmp_path, store, "tic-tac-sudoku", row, 200, 1, False, {})
    strength.play_row(tmp_path, store, "tic-tac-sudoku", row, 200, 1, False, {}, sprt=(0, 50))
    again = strength.load_store(tmp_path)["games"]["tic-tac-sudoku"]["greedy-random"]
    assert again["results"] == entry["results"] and again["sprt"] == test

    # Rendered: the tested row says so; a stored row without the key is a fixed count.
    old = {"players": ["random", "greedy"], "results": entry["results"][:2]}
    store["games"]["tic-tac-sudoku"]["random-greedy"] = old
    text = strength.render(store)
    assert "| target | settled by |" in text
    tested = next(line for line in text.splitlines() if line.startswith("| greedy vs random |"))
    fixed = next(line for line in text.splitlines() if line.startswith("| random vs greedy |"))
    assert tested.endswith(
        f"| SPRT 0, 50: stronger (LLR {test['llr']:.2f}, {test['games']} games) |"
    )
    assert fixed.endswith("| fixed count |")
    assert "how-strength-claims-are-decided" in text


def test_the_strength_script_refuses_bad_sprt_bounds(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        strength.main(["--sprt", "50,0", "--render"], folder=Path("unused"))
    assert exit_.value.code == 2
    assert "give ELO0,ELO1" in capsys.readouterr().err
