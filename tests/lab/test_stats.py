"""The lab's statistics on inputs with known answers."""

from __future__ import annotations

import math

import numpy as np
import pytest

from sudoku_arena.lab.stats import ELO, bootstrap, bradley_terry, rate, spread, two_way_shares


def test_rate_is_the_share_with_its_wilson_interval() -> None:
    e = rate(50, 100)
    assert e.value == 0.5 and e.n == 100
    assert e.low == pytest.approx(0.4038, abs=1e-4) and e.high == pytest.approx(0.5962, abs=1e-4)
    shared = rate(2.5, 5)  # shared wins count fractions
    assert shared.value == 0.5
    assert math.isnan(rate(0, 0).value)


def test_bootstrap_of_a_constant_is_the_constant() -> None:
    e = bootstrap([3.0] * 20, seed=1)
    assert (e.value, e.low, e.high) == (3.0, 3.0, 3.0)


def test_bootstrap_interval_holds_the_mean_and_has_the_normal_width() -> None:
    values = [0.0, 1.0] * 100
    e = bootstrap(values, seed=2)
    assert e.value == 0.5
    half = 1.96 * 0.5 / math.sqrt(200)  # the normal interval's half width, 0.069
    assert e.low == pytest.approx(0.5 - half, abs=0.02)
    assert e.high == pytest.approx(0.5 + half, abs=0.02)
    assert bootstrap(values, seed=2) == e  # same seed, same interval


def test_bootstrap_takes_any_statistic_by_rows() -> None:
    e = bootstrap([1.0, 2.0, 9.0], seed=3, stat=lambda a: np.median(a, axis=1))
    assert e.value == 2.0 and e.low <= 2.0 <= e.high


def test_bradley_terry_recovers_the_odds_of_two_players() -> None:
    w = np.array([[0.0, 30.0], [10.0, 0.0]])
    r = bradley_terry(w, prior=0.0)
    assert r[0] - r[1] == pytest.approx(ELO * math.log(3), rel=1e-6)  # 3:1 is 190.8 Elo
    assert r.sum() == pytest.approx(0.0, abs=1e-9)


def test_bradley_terry_three_players_in_a_consistent_ladder() -> None:
    # Strengths 4 : 2 : 1, so i beats j with probability s_i / (s_i + s_j).
    s = [4.0, 2.0, 1.0]
    n = 600
    w = np.array([[n * s[i] / (s[i] + s[j]) if i != j else 0 for j in range(3)] for i in range(3)])
    r = bradley_terry(w, prior=0.0)
    assert r[0] - r[1] == pytest.approx(ELO * math.log(2), rel=1e-5)
    assert r[1] - r[2] == pytest.approx(ELO * math.log(2), rel=1e-5)
    assert spread(r) == pytest.approx(float(np.std(r)))


def test_a_clean_sweep_stays_finite_with_the_prior() -> None:
    r = bradley_terry(np.array([[0.0, 20.0], [0.0, 0.0]]))
    assert np.isfinite(r).all()
    assert r[0] - r[1] == pytest.approx(ELO * math.log(41), rel=1e-6)  # 20.5 : 0.5, 645 Elo


def test_two_way_shares_split_rows_columns_and_rest() -> None:
    by_deal = np.array([[1.0, 1.0], [0.0, 0.0], [1.0, 1.0], [0.0, 0.0]])
    assert two_way_shares(by_deal) == {"deal": 1.0, "players": 0.0, "rest": 0.0}
    by_seat = np.array([[1.0, 0.0]] * 4)
    assert two_way_shares(by_seat) == {"deal": 0.0, "players": 1.0, "rest": 0.0}
    mixed = np.array([[1.0, 0.0], [0.0, 1.0]])  # neither rows nor columns: all rest
    assert two_way_shares(mixed) == {"deal": 0.0, "players": 0.0, "rest": 1.0}
    assert two_way_shares(np.ones((3, 2)))["deal"] == 0.0
