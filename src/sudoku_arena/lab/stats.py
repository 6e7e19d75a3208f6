"""Small statistics for the balance lab, each with a 95% interval.

* :func:`wilson`: a proportion and its Wilson score interval (rates: wins, draws).
* :func:`bootstrap`: any statistic of a sample with a percentile bootstrap interval
  (lengths, branching, decisiveness, lead changes, scores, paired differences).
* :func:`bradley_terry`: ratings from pairwise results (minorisation-maximisation),
  on the Elo scale, with a small prior so that a clean sweep stays finite.
* :func:`two_way_shares`: the two-way analysis of variance without replication that
  splits duplicate-play outcomes into deal, players and the rest.

Every random draw comes from a generator seeded by the caller, so a summary is a pure
function of the records and the seed.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from sudoku_arena.ai.tournament import Z95, wilson

__all__ = [
    "ELO",
    "Z95",
    "Estimate",
    "bootstrap",
    "bradley_terry",
    "rate",
    "spread",
    "two_way_shares",
    "wilson",
]

#: Elo points per natural-log unit of Bradley-Terry strength (400 / ln 10).
ELO = 400 / math.log(10)
#: Bootstrap resamples for intervals (enough for stable 2.5%/97.5% percentiles).
RESAMPLES = 1000

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class Estimate:
    """A figure with its 95% interval and the number of observations behind it."""

    value: float
    low: float
    high: float
    n: int

    def to_json(self) -> dict[str, float | int | None]:
        def clean(x: float) -> float | None:
            return None if math.isnan(x) else round(x, 6)

        return {
            "value": clean(self.value),
            "low": clean(self.low),
            "high": clean(self.high),
            "n": self.n,
        }


NAN = Estimate(math.nan, math.nan, math.nan, 0)


def rate(successes: float, n: int) -> Estimate:
    """A proportion with its Wilson interval (``successes`` may be fractional: shared wins)."""
    if n == 0:
        return NAN
    p = successes / n
    lo, hi = wilson(p, n)
    return Estimate(p, lo, hi, n)


def bootstrap(
    values: Sequence[float] | FloatArray,
    seed: int,
    stat: Callable[[FloatArray], FloatArray] | None = None,
    resamples: int = RESAMPLES,
) -> Estimate:
    """``stat`` (default: the mean) of ``values`` with a 95% percentile bootstrap interval.

    ``stat`` maps an array of shape ``(resamples, n)`` to ``resamples`` values (one per
    row), so the resampling runs as one array operation. The interval of a constant
    sample is the constant itself.
    """
    x = np.asarray(values, dtype=np.float64)
    n = len(x)
    if n == 0:
        return NAN
    f = stat if stat is not None else _row_means
    point = float(f(x[None, :])[0])
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, n, size=(resamples, n))
    boot = f(x[idx])
    lo, hi = np.percentile(boot, [2.5, 97.5])
    return Estimate(point, float(lo), float(hi), n)


def _row_means(a: FloatArray) -> FloatArray:
    return np.asarray(a.mean(axis=1), dtype=np.float64)


def bradley_terry(
    wins: FloatArray, prior: float = 0.5, iterations: int = 10_000, tol: float = 1e-10
) -> FloatArray:
    """Bradley-Terry ratings (Elo scale, mean 0) from a matrix of wins.

    ``wins[i, j]`` is how often ``i`` beat ``j`` (a draw counts half to each). Each
    pair that met gets ``prior`` extra wins each way (a weak prior towards equality,
    which keeps ratings finite when one side won every game). Fitted by Hunter's
    minorisation-maximisation; players who never met anybody keep rating 0.
    """
    w = np.asarray(wins, dtype=np.float64)
    k = w.shape[0]
    games = w + w.T
    met = games > 0
    w = w + prior * met
    games = games + 2 * prior * met
    total_wins = w.sum(axis=1)
    strength = np.ones(k)
    active = total_wins > 0
    for _ in range(iterations):
        denom = (games / (strength[:, None] + strength[None, :])).sum(axis=1)
        new = np.where(active & (denom > 0), total_wins / np.where(denom > 0, denom, 1), 1.0)
        new = new / math.exp(float(np.log(new[active]).mean())) if active.any() else new
        if float(np.abs(new - strength).max()) < tol:
            strength = new
            break
        strength = new
    ratings = np.log(strength) * ELO
    ratings[~active] = 0.0
    return np.asarray(ratings - ratings[active].mean() if active.any() else ratings)


def spread(ratings: FloatArray) -> float:
    """The spread of a ladder: the standard deviation of its ratings (Elo points)."""
    return float(np.std(ratings))


def two_way_shares(table: FloatArray) -> Mapping[str, float]:
    """Shares of the variance of ``table[board, seating]`` (one outcome per cell).

    Two-way analysis of variance without replication: the sum of squares splits into
    rows (the deal: board and chance seed), columns (the players: who sits where) and
    the rest (the bots' own randomness and how deal and seating interact). Returns the
    three shares (summing to 1; all 0 when every outcome is the same).
    """
    y = np.asarray(table, dtype=np.float64)
    grand = y.mean()
    total = float(((y - grand) ** 2).sum())
    if total == 0:
        return {"deal": 0.0, "players": 0.0, "rest": 0.0}
    rows = float(y.shape[1] * ((y.mean(axis=1) - grand) ** 2).sum())
    cols = float(y.shape[0] * ((y.mean(axis=0) - grand) ** 2).sum())
    return {"deal": rows / total, "players": cols / total, "rest": 1 - (rows + cols) / total}
