"""Verdicts: a figure said in plain words, with one rule for when a direction is claimed.

A figure is *clear* when its 95% interval leaves out its point of no effect (no
difference between two rules, an even share of the wins, no draws, as much skill as
the reference game): only then does a verdict say which way it goes; otherwise it
starts ``no clear difference``. Numbers are written by :mod:`~sudoku_arena.lab.display`
with one decimal (two for the luck index), as in the tables.

The variants get one verdict per paired figure (:func:`difference`, from
:mod:`~sudoku_arena.lab.variants`); the base rules get theirs from
:func:`base_verdicts`: seat advantage, draws and, with a ladder, luck.
"""

from __future__ import annotations

from sudoku_arena.core.types import JsonDict
from sudoku_arena.lab.display import FRACTION, PERCENT, PLAIN, Unit, number
from sudoku_arena.lab.stats import Estimate

#: Where the base rules' verdicts say they hold.
BASE_RULES = "under the base rules"


def clear(est: Estimate) -> bool:
    """Whether the 95% interval of ``est`` leaves out 0 (its point of no effect)."""
    return est.low > 0 or est.high < 0


def _interval(est: Estimate, unit: Unit, signed: bool = False) -> str:
    return f"95% interval {number(est.low, unit, signed)} to {number(est.high, unit, signed)}"


def difference(words: str, unit: str, est: Estimate, where: str, against: str = "") -> str:
    """A difference in plain words, e.g. ``seat 1 wins 8.1 points less often under
    short (95% interval 5.2 to 11.0 less)``.

    ``est`` is in ``unit`` (``points``, ``plies`` or ``""``); ``where`` says under which
    rules; ``against`` names what it differs from, when that is not said by ``where``
    (``an even share``). No direction is claimed when the interval holds 0.
    """
    often = " often" if unit == "points" else ""
    more, less = (f"more{often}", f"less{often}") if unit != "plies" else ("longer", "shorter")
    u = f" {unit}" if unit else ""
    if clear(est):
        word = more if est.value > 0 else less
        than = f" than {against}" if against else ""
        lo, hi = sorted((abs(est.low), abs(est.high)))
        return (
            f"{words} {number(abs(est.value))}{u} {word}{than} {where} "
            f"(95% interval {number(lo)} to {number(hi)} {word.split()[0]})"
        )
    return (
        f"no clear difference{f' from {against}' if against else ''}: {words} "
        f"{number(est.value, signed=True)}{u} {where} ({_interval(est, PLAIN, signed=True)})"
    )


def level(words: str, unit: Unit, est: Estimate, where: str, against: str, then: str = "") -> str:
    """A figure that cannot fall below its point of no effect (a rate, the luck index)
    in plain words, e.g. ``games are won by nobody 5.0% of the time under the base
    rules (95% interval 2.1 to 11.0)``; ``words`` holds ``{}`` where the value goes.

    ``against`` names the point of no effect for the unclear case (``no draws``);
    ``then`` says what a clear value means (``more luck than tic-tac-sudoku``).
    """
    value = number(est.value, unit) + unit.suffix
    said = f"{words.replace('{}', value, 1)} {where} ({_interval(est, unit)})"
    if clear(est):
        return f"{said}: {then}" if then else said
    return f"no clear difference from {against}: {said}"


def _estimate(e: JsonDict | None, scale: float = 1.0) -> Estimate | None:
    if not e or any(e.get(k) is None for k in ("value", "low", "high")):
        return None
    return Estimate(scale * e["value"], scale * e["low"], scale * e["high"], int(e.get("n", 0)))


def base_verdicts(metrics: JsonDict, ladder: JsonDict | None = None) -> dict[str, str]:
    """How balanced the base rules are, in plain words: the seat advantage, the draws
    and (when the run has a ladder with a luck index) the luck; keyed by figure, only
    the figures the run has (none for a game of one seat)."""
    out: dict[str, str] = {}
    advantage = _estimate(metrics.get("seat_advantage"), 100.0)  # points, as in the table
    if advantage is not None:
        out["seat_advantage"] = difference(
            "seat 1 wins", "points", advantage, BASE_RULES, against="an even share"
        )
    draw = _estimate(metrics.get("draw"))
    if draw is not None:
        words = "games are won by nobody {} of the time"
        out["draw"] = level(words, PERCENT, draw, BASE_RULES, against="no draws")
    index = (ladder or {}).get("luck_index")
    luck = _estimate(index)
    if index and luck is not None:
        ref = str(index.get("reference", "the reference"))
        out["luck_index"] = level(
            f"the luck index (0: as much skill as {ref}, 1: a coin flip) is {{}}",
            FRACTION,
            luck,
            BASE_RULES,
            against=ref,
            then=f"more luck than {ref}",
        )
    return out
