"""Post-game analysis: every position's value per seat, and the moves that swung it.

A finished game is analysed position by position (the start, then after every action,
chance outcomes included) with :func:`~sudoku_arena.ai.mcts.evaluate.position_values`:
the search, from the true (revealed) position, for :func:`simulations_for` simulations.
Each position is searched on its own with its own seed, so the work can be split,
interrupted and resumed anywhere, and gives the same numbers wherever it runs.

:func:`swings` picks the actions after which some seat's value moved most.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from sudoku_arena.ai.hints import hints_for
from sudoku_arena.ai.mcts.evaluate import position_values
from sudoku_arena.core.protocol import AnyGame

#: Fewest simulations per position: fewer make the values mostly noise.
MIN_SIMULATIONS = 4
#: Swings reported per game, and the least change (of some seat's value) that counts.
TOP_SWINGS = 5
LEAST_SWING = 0.1

__all__ = ["Swing", "analyse", "position_values", "simulations_for", "swings"]


def simulations_for(game: AnyGame) -> int:
    """Simulations per position: the game's ``easy`` level (the cheapest search its
    author tuned: its cost per simulation is known to be bearable), at least
    :data:`MIN_SIMULATIONS`. That takes milliseconds a position in most games, so a
    whole game analyses in seconds; in Cat Sudoku, whose every simulation plays the
    game out to its end, about 0.2 s a position (five simulations)."""
    return max(MIN_SIMULATIONS, hints_for(game).budget("easy").iterations)


def analyse(
    game: AnyGame,
    states: Sequence[object],
    seed_of: Callable[[int], int],
    simulations: int | None = None,
) -> list[tuple[float, ...]]:
    """The values of ``states`` (position ``i`` searched with ``seed_of(i)``)."""
    n = simulations_for(game) if simulations is None else simulations
    return [position_values(game, s, n, seed_of(i)) for i, s in enumerate(states)]


@dataclass(frozen=True, slots=True)
class Swing:
    """The action that led to position ``ply`` (its ``actor``, ``None`` for chance)
    changed every seat's value by ``deltas``; ``seat`` is the seat it changed most."""

    ply: int
    actor: int | None
    seat: int
    deltas: tuple[float, ...]

    @property
    def size(self) -> float:
        return abs(self.deltas[self.seat])


def swings(
    values: Sequence[Sequence[float]],
    actors: Sequence[int | None],
    top: int = TOP_SWINGS,
    least: float = LEAST_SWING,
) -> list[Swing]:
    """The ``top`` largest swings of at least ``least``, in the order they happened.

    ``values[i]`` are the seats' values at position ``i`` and ``actors[i]`` who took
    the action from position ``i`` to ``i + 1``.
    """
    found: list[Swing] = []
    for ply in range(1, len(values)):
        before, after = values[ply - 1], values[ply]
        deltas = tuple(a - b for a, b in zip(after, before, strict=True))
        if not deltas:
            continue
        seat = max(range(len(deltas)), key=lambda i: abs(deltas[i]))
        swing = Swing(ply, actors[ply - 1], seat, deltas)
        if swing.size >= least:
            found.append(swing)
    found.sort(key=lambda s: (-s.size, s.ply))
    return sorted(found[:top], key=lambda s: s.ply)
