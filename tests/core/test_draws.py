"""The hot loops' random draws are those of ``random.Random``, number for number.

``core.draws.randbelow`` and ``shuffle`` replace ``rng.randrange(n)`` and
``rng.shuffle(x)`` in the search and in SuDokuHex's determinisation; fixed-seed
searches (the search golden) stay reproducible only if they consume the generator
exactly as those methods do.
"""

from __future__ import annotations

import random

import pytest

from sudoku_arena.core.draws import randbelow, shuffle

SIZES = [1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 31, 32, 33, 81, 100, 255, 256, 1000, 1 << 20]


@pytest.mark.parametrize("seed", range(8))
def test_randbelow_draws_what_randrange_draws(seed: int) -> None:
    ours, theirs = random.Random(seed), random.Random(seed)
    for n in SIZES:
        assert [randbelow(ours, n) for _ in range(30)] == [theirs.randrange(n) for _ in range(30)]
    assert ours.random() == theirs.random()  # the generators are in the same state


@pytest.mark.parametrize("seed", range(8))
def test_randbelow_picks_what_choice_picks(seed: int) -> None:
    # Cat Sudoku's greedy agent breaks its ties with seq[randbelow(rng, len(seq))].
    ours, theirs = random.Random(seed), random.Random(seed)
    for n in SIZES[:-1]:
        seq = list(range(n))
        assert [seq[randbelow(ours, n)] for _ in range(30)] == [
            theirs.choice(seq) for _ in range(30)
        ]
    assert ours.random() == theirs.random()


@pytest.mark.parametrize("seed", range(8))
def test_shuffle_permutes_as_random_shuffle(seed: int) -> None:
    ours, theirs = random.Random(seed), random.Random(seed)
    for n in [0, *SIZES[:-1]]:
        mine: list[object] = list(range(n))
        expected = list(range(n))
        shuffle(ours, mine)
        theirs.shuffle(expected)
        assert mine == expected
    assert ours.random() == theirs.random()


class Counting(random.Random):
    """A generator of another kind: the helpers must ask it, not assume its draws."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.asked = 0

    def randrange(self, *args: object, **kwargs: object) -> int:  # type: ignore[override]
        self.asked += 1
        return 0

    def shuffle(self, x: list[object]) -> None:  # type: ignore[override]
        self.asked += 1
        x.reverse()


def test_a_subclass_of_random_draws_its_own_way() -> None:
    rng = Counting(1)
    assert randbelow(rng, 10) == 0
    items: list[object] = [1, 2, 3]
    shuffle(rng, items)
    assert items == [3, 2, 1]
    assert rng.asked == 2
