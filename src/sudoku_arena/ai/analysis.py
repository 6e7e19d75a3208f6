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

#: Fewest simulations per position: enough that evaluating a position twice with two
#: seeds differs by under 10 points of win chance in every game (measured with
#: ``scripts/analysis_precision.py``, figures in docs/web.md); Cat Sudoku's five (its
#: ``easy`` level) differed by up to 70.
MIN_SIMULATIONS = 400
#: Swings reported per game, and the least change (of some seat's value) that counts.
TOP_SWINGS = 5
LEAST_SWING = 0.1

__all__ = ["Swing", "analyse", "position_values", "simulations_for", "swings"]


def simulations_for(game: AnyGame) -> int:
    """Simulations per position: :data:`MIN_SIMULATIONS`, or the game's ``easy`` level
    if that is more. That takes from 2 ms a position (Tic-Tac-Sudoku) to 0.4 s (Cat
    Sudoku, whose simulations play the dice out), so a whole game analyses in the
    background in seconds to a minute or so."""
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
