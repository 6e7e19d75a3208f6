"""A sequential probability ratio test of "agent A is stronger than agent B".

The test of the chess engine testing framework fishtest, after Michel Van den Bergh's
generalized SPRT (GSPRT), on the logistic Elo model:

* ``H0``: A's Elo over B is ``elo0``; ``H1``: it is ``elo1`` (``elo0 < elo1``). An Elo
  difference ``e`` is the expected score ``s(e) = 1 / (1 + 10^(-e / 400))`` per game
  (a win 1, a draw 1/2, a loss 0), so ``s0 = s(elo0)`` and ``s1 = s(elo1)``.
* After every observation the log-likelihood ratio ``LLR`` of ``H1`` against ``H0`` is
  compared with the bounds ``A = ln(beta / (1 - alpha))`` and
  ``B = ln((1 - beta) / alpha)`` (``-2.944`` and ``+2.944`` for
  ``alpha = beta = 0.05``): ``LLR >= B`` accepts ``H1`` (A is stronger), ``LLR <= A``
  accepts ``H0``, anything between says continue. With ``elo0 = 0, elo1 = 50`` the test
  decides "A is stronger than B" (``H1``) against "A is not stronger" (``H0``); an
  agent between 0 and 50 Elo stronger may go either way, with the error rates
  ``alpha`` (``H1`` accepted when the truth is ``elo0`` or less) and ``beta``
  (``H0`` accepted when it is ``elo1`` or more).

Observations, one model per test (mixing them is refused):

* **pentanomial** (:meth:`Sprt.add_pair`): a seat-balanced pair of games, the same
  deal played twice with the seats swapped (the blocks of
  :func:`sudoku_arena.ai.tournament.jobs`). Its score, A's points over the two games,
  is one of 0, 0.5, 1, 1.5, 2; the test works on the pair's mean per game (0, 1/4, 1/2,
  3/4, 1), whose expectation is ``s`` as for one game. Pairs are what the games are
  independent in: two games on one deal are not, and counting them as two
  independent games would overstate the evidence when the deal decides much.
* **trinomial** (:meth:`Sprt.add_game`): single games, a win, a draw or a loss.

The LLR is the exact GSPRT, not the normal approximation: for the observed
frequencies ``p_i`` of the values ``a_i``, the distribution of largest likelihood whose
mean is ``s`` is ``q_i = p_i / (1 + x (a_i - s))``, where ``x`` solves
``sum_i p_i (a_i - s) / (1 + x (a_i - s)) = 0`` (found by bisection: the sum falls
strictly in ``x`` on the interval where every ``1 + x (a_i - s)`` is positive); then

    LLR = sum_i c_i ln(q1_i / q0_i)   (c_i the counts, regularised as below; q0, q1 for s0, s1).

The approximation ``LLR ~ (s1 - s0) (2 m - s0 - s1) n / (2 v)`` (``m`` the mean,
``v`` the variance per observation, ``n`` the observations) agrees when the results are
balanced and the bounds are close, but not when one agent wins almost everything,
which our bots often do: a run of wins has no variance at all, and the approximation
would then accept ``H1`` after one pair. The exact form gains ``ln(s1 / s0)`` per straight
win, so it accepts after ``2.944 / ln(s1 / s0)`` of them, rounded up (23 pairs for 0, 50).

An empty category counts as ``REGULARISATION`` (1/1000) of an observation, for the
LLR and the estimate alike (as fishtest does): that keeps every ``q_i`` positive and
every figure finite however one-sided the results (all draws, all wins), and changes
nothing measurable otherwise. No observations at all is an ``LLR`` of exactly 0.

The Elo estimate (:meth:`Sprt.estimate`) is read from the same counts: the mean score
per game ``m`` with the normal 95% interval ``m +- 1.96 sqrt(v / n)``, each turned into
Elo by ``e(m) = -400 log10(1 / m - 1)``; an interval that reaches a score of 0 or 1 is
infinite at that end.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Literal

__all__ = [
    "CONTINUE",
    "H0",
    "H1",
    "PAIR_SCORES",
    "Decision",
    "EloEstimate",
    "PairedGames",
    "Sprt",
    "elo_of",
    "expected_score",
    "game_score",
    "parse_elo_bounds",
]

H1: Final = "H1 accepted"
H0: Final = "H0 accepted"
CONTINUE: Final = "continue"
Decision = Literal["H1 accepted", "H0 accepted", "continue"]
Model = Literal["pentanomial", "trinomial"]

#: The scores a pair of games can have (A's points over the two games).
PAIR_SCORES = (0.0, 0.5, 1.0, 1.5, 2.0)
#: The scores one game can have: a loss, a draw, a win.
GAME_SCORES = (0.0, 0.5, 1.0)
#: The weight of an empty category, in observations.
REGULARISATION = 1e-3
#: The 97.5% quantile of the normal distribution.
Z95 = 1.959963984540054


def expected_score(elo: float) -> float:
    """The expected score per game of a player ``elo`` points stronger (logistic)."""
    return 1 / (1 + 10 ** (-elo / 400))


def elo_of(score: float) -> float:
    """The Elo difference whose expected score is ``score``; infinite at 0 and 1."""
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return -400 * math.log10(1 / score - 1)


def game_score(returns: Sequence[float]) -> float:
    """The first agent's score in one two-player game from the game's returns by agent:
    1 for a win, 0 for a loss, 1/2 for a shared win or a game won by nobody (a
    turn-limit draw returns 0 to both)."""
    if len(returns) != 2:
        raise ValueError(f"a score is for a game of two agents; got returns {list(returns)}")
    total = returns[0] + returns[1]
    return 0.5 if total == 0 else returns[0] / total


def parse_elo_bounds(text: str) -> tuple[float, float]:
    """``"ELO0,ELO1"`` as two numbers with ``ELO0 < ELO1``; a ``ValueError`` saying
    what is allowed otherwise."""
    allowed = "give ELO0,ELO1, two Elo differences with ELO0 < ELO1, such as 0,50"
    parts = text.split(",")
    if len(parts) != 2:
        raise ValueError(f"--sprt {text!r}: {allowed}")
    try:
        elo0, elo1 = (float(p) for p in parts)
    except ValueError:
        raise ValueError(f"--sprt {text!r}: {allowed}") from None
    if not (math.isfinite(elo0) and math.isfinite(elo1)) or elo0 >= elo1:
        raise ValueError(f"--sprt {text!r}: {allowed}")
    return elo0, elo1


@dataclass(frozen=True, slots=True)
class EloEstimate:
    """A's Elo over B with its 95% interval, and the mean score per game behind it."""

    elo: float
    low: float
    high: float
    score: float


class Sprt:
    """The test of ``elo0`` against ``elo1`` (see the module doc), fed one
    observation at a time; every figure is read from the counts so far."""

    def __init__(self, elo0: float, elo1: float, alpha: float = 0.05, beta: float = 0.05):
        if not (math.isfinite(elo0) and math.isfinite(elo1)) or elo0 >= elo1:
            raise ValueError(f"elo0 must be below elo1; got {elo0}, {elo1}")
        if not (0 < alpha < 1 and 0 < beta < 1 and alpha + beta < 1):
            raise ValueError(
                f"alpha and beta lie in (0, 1) with a sum below 1; got {alpha}, {beta}"
            )
        self.elo0, self.elo1, self.alpha, self.beta = elo0, elo1, alpha, beta
        self.model: Model | None = None
        self._counts: list[int] = []

    # -- observations ----------------------------------------------------------------

    def add_pair(self, score: float) -> None:
        """One seat-swapped pair of games, A's points over both (0, 0.5, 1, 1.5 or 2)."""
        self._add("pentanomial", PAIR_SCORES, score, "a pair's score")

    def add_game(self, score: float) -> None:
        """One game, A's score: 1 a win, 0.5 a draw, 0 a loss."""
        self._add("trinomial", GAME_SCORES, score, "a game's score")

    def _add(self, model: Model, values: Sequence[float], score: float, what: str) -> None:
        if self.model not in (None, model):
            raise ValueError(f"this test counts {self.model} results; it cannot mix in {model}")
        if score not in values:
            allowed = ", ".join(f"{v:g}" for v in values)
            raise ValueError(f"{what} is one of {allowed}; got {score!r}")
        if self.model is None:
            self.model, self._counts = model, [0] * len(values)
        self._counts[values.index(score)] += 1

    @property
    def counts(self) -> tuple[int, ...]:
        """Observations per score, lowest score first (empty before the first one)."""
        return tuple(self._counts)

    @property
    def observations(self) -> int:
        """Pairs (pentanomial) or games (trinomial) counted."""
        return sum(self._counts)

    @property
    def games(self) -> int:
        """Games counted: two per pair."""
        return self.observations * (2 if self.model == "pentanomial" else 1)

    # -- the test --------------------------------------------------------------------

    @property
    def bounds(self) -> tuple[float, float]:
        """``(A, B)``: accept H0 at ``LLR <= A``, H1 at ``LLR >= B``."""
        return (math.log(self.beta / (1 - self.alpha)), math.log((1 - self.beta) / self.alpha))

    @property
    def llr(self) -> float:
        """The log-likelihood ratio of H1 against H0 on the counts so far."""
        if not self.observations:
            return 0.0
        values, weights = self._distribution()
        p = [w / sum(weights) for w in weights]
        s0, s1 = expected_score(self.elo0), expected_score(self.elo1)
        x0, x1 = _multiplier(values, p, s0), _multiplier(values, p, s1)
        # ln(q1_i / q0_i) = ln(1 + x0 (a_i - s0)) - ln(1 + x1 (a_i - s1)): the p_i cancel.
        return sum(
            w * (math.log1p(x0 * (a - s0)) - math.log1p(x1 * (a - s1)))
            for a, w in zip(values, weights, strict=True)
        )

    @property
    def decision(self) -> Decision:
        """``H1`` (A is stronger), ``H0`` (it is not) or ``CONTINUE``."""
        low, high = self.bounds
        llr = self.llr
        if llr >= high:
            return "H1 accepted"
        if llr <= low:
            return "H0 accepted"
        return "continue"

    def estimate(self) -> EloEstimate:
        """A's Elo over B with a 95% interval (see the module doc); nan before any
        observation."""
        if not self.observations:
            return EloEstimate(math.nan, math.nan, math.nan, math.nan)
        values, weights = self._distribution()
        total = sum(weights)
        mean = sum(a * w for a, w in zip(values, weights, strict=True)) / total
        var = sum((a - mean) ** 2 * w for a, w in zip(values, weights, strict=True)) / total
        half = Z95 * math.sqrt(var / self.observations)
        return EloEstimate(elo_of(mean), elo_of(mean - half), elo_of(mean + half), mean)

    def _distribution(self) -> tuple[list[float], list[float]]:
        """The values per game of each category (a pair's score halved) and the
        regularised counts."""
        top = len(self._counts) - 1
        values = [i / top for i in range(top + 1)]
        weights = [float(c) if c else REGULARISATION for c in self._counts]
        return values, weights


def _multiplier(values: Sequence[float], p: Sequence[float], s: float) -> float:
    """The ``x`` of ``q_i = p_i / (1 + x (a_i - s))``, the distribution of largest
    likelihood with mean ``s``: the root of ``f(x) = sum p_i d_i / (1 + x d_i)``
    (``d_i = a_i - s``) between ``-1 / max d`` and ``-1 / min d``, where ``f`` falls
    from plus to minus infinity. Needs ``min a < s < max a`` (every category is
    present after regularisation, and ``0 < s < 1``)."""
    d = [a - s for a in values]
    lo, hi = -1 / max(d), -1 / min(d)

    def f(x: float) -> float:
        total = 0.0
        for pi, di in zip(p, d, strict=True):
            denominator = 1 + x * di
            if denominator <= 0:  # rounding at the very edge: the sign of the pole there
                return math.inf if di > 0 else -math.inf
            total += pi * di / denominator
        return total

    # Bisection to the last representable step: at most ~1100 halvings in theory,
    # about 60 in practice, each a handful of terms.
    while True:
        mid = (lo + hi) / 2
        if mid in (lo, hi):
            return mid
        if f(mid) > 0:
            lo = mid
        else:
            hi = mid


class PairedGames:
    """Feeds the games of a two-agent tournament (:func:`sudoku_arena.ai.tournament.jobs`:
    games ``2b`` and ``2b + 1`` are deal ``b`` with the seats swapped) to ``test`` as
    pairs, in the order of the deals, however the games finish: the decision, and the
    games it rests on, are then the same for any number of workers.

    :meth:`add` takes each game as it ends and says whether the test has decided;
    games after the decision are not counted."""

    def __init__(self, test: Sprt) -> None:
        self.test = test
        self.pairs = 0  # deals counted: games 0 .. 2 * pairs - 1
        self._waiting: dict[int, float] = {}  # game index -> A's score

    def add(self, index: int, score: float) -> bool:
        """Game ``index`` ended with A scoring ``score`` (:func:`game_score`); whether
        the test has reached a decision."""
        if self.decided:
            return True
        if index < 2 * self.pairs or index in self._waiting:
            raise ValueError(f"game {index} was counted already")
        self._waiting[index] = score
        while not self.decided and {2 * self.pairs, 2 * self.pairs + 1} <= self._waiting.keys():
            first = self._waiting.pop(2 * self.pairs)
            self.test.add_pair(first + self._waiting.pop(2 * self.pairs + 1))
            self.pairs += 1
        return self.decided

    @property
    def decided(self) -> bool:
        return self.test.observations > 0 and self.test.decision != CONTINUE

    @property
    def games(self) -> int:
        """The games the test has counted: indices below this."""
        return 2 * self.pairs
