"""The eight symmetries of a square board (rotations and reflections), as index maps.

Boards here are read row by row, so a symmetry is a permutation of ``0 .. n*n - 1``.
The learned evaluations show each training position in a random symmetry of its board
(each game's ``features.py``), which needs, for every symmetry, where each index of the
new board comes from.
"""

from __future__ import annotations


def square_maps(n: int) -> list[list[int]]:
    """The eight symmetries of an ``n x n`` square as maps of its indices (row by row):
    ``m[i]`` is where index ``i`` goes; the identity first."""
    out = []
    for turns in range(4):
        for mirror in (False, True):
            m = []
            for i in range(n * n):
                r, c = divmod(i, n)
                if mirror:
                    c = n - 1 - c
                for _ in range(turns):
                    r, c = c, n - 1 - r
                m.append(r * n + c)
            out.append(m)
    return out


def sources(m: list[int]) -> list[int]:
    """For a map ``m`` (index ``i`` goes to ``m[i]``), the index each new index comes
    from: ``new[j] = old[sources(m)[j]]``."""
    src = [0] * len(m)
    for i, j in enumerate(m):
        src[j] = i
    return src


def square_sources(n: int) -> list[list[int]]:
    """:func:`sources` of each of :func:`square_maps`, the identity first."""
    return [sources(m) for m in square_maps(n)]
