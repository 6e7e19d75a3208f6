"""Exact chance probabilities that samplers read cheaply.

Games give their chance outcomes with exact ``Fraction`` probabilities (the protocol);
samplers (``core.match.sample_outcome``, the search) convert each to ``float`` at every
chance node, which for a plain ``Fraction`` is a division through two properties.
:func:`probability` makes a ``Fraction`` that keeps its float beside it: games build
their probabilities once, with it, and share them.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from mypy_extensions import mypyc_attr


@mypyc_attr(native_class=False)
class _Probability(Fraction):
    """An exact chance outcome probability that also keeps its value as a float.

    It is a :class:`~fractions.Fraction` in every respect (equality, hashing,
    arithmetic, ``str``); only ``float()``, which samplers call at every chance node,
    is a stored value instead of a division through two properties. Immutable:
    copies are itself. Made by :func:`probability` only."""

    __slots__ = ("_float",)
    _float: float

    def __float__(self) -> float:
        return self._float

    def __repr__(self) -> str:
        return f"Fraction({self.numerator}, {self.denominator})"

    def __copy__(self) -> _Probability:
        return self

    def __deepcopy__(self, memo: object) -> _Probability:
        return self

    def __reduce__(self) -> tuple[Callable[[int, int], Fraction], tuple[int, int]]:
        return probability, (self.numerator, self.denominator)


def probability(numerator: int, denominator: int) -> Fraction:
    """``Fraction(numerator, denominator)`` that converts to float without arithmetic."""
    p = _Probability(numerator, denominator)
    p._float = numerator / denominator
    return p
