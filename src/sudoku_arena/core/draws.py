"""Random draws for hot loops: the same numbers as ``random.Random``, cheaper to call.

The search and the games' determinisation draw once per simulation or more; these
functions give exactly what ``Random.randrange`` and ``Random.shuffle`` give from the
same generator state (so fixed-seed searches are unchanged), without the method's
argument checks and lookups, and compiled by mypyc with the rest of the hot code.
"""

from __future__ import annotations

import random
from typing import Final, TypeVar

T = TypeVar("T")

_RANDOM: Final = random.Random


def randbelow(rng: random.Random, n: int) -> int:
    """``rng.randrange(n)`` for ``n > 0``: the same number from the same draws.

    ``random.Random`` draws ``n.bit_length()`` random bits until they fall below ``n``;
    this does the same without ``randrange``'s argument checks and method lookups
    (most of its cost). A subclass of ``Random`` may draw differently: it is asked
    itself. ``tests/core/test_draws.py`` checks the equality.
    """
    if type(rng) is not _RANDOM:
        return rng.randrange(n)
    k = n.bit_length()
    r: int = rng.getrandbits(k)
    while r >= n:
        r = rng.getrandbits(k)
    return r


def shuffle(rng: random.Random, x: list[T]) -> None:
    """``rng.shuffle(x)``: the same permutation from the same draws (see
    :func:`randbelow`), a few times faster."""
    if type(rng) is not _RANDOM:
        rng.shuffle(x)
        return
    getrandbits = rng.getrandbits
    for i in range(len(x) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j: int = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]
