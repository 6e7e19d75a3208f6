"""The coach: the search's best moves for a seat, and the mistakes of a finished game.

:func:`suggestions` searches a position *for one seat* with the ordinary search
(:class:`~sudoku_arena.ai.mcts.MCTS`, not revealed): in a game with hidden information
every simulation re-deals what that seat cannot see, so the moves it suggests are those
the seat could have found itself. The caller hands it a state already determinised
from the seat's view (as the server does for its bots), and the seeds come from that
view, so nothing else can enter a hint.

:func:`mistakes` reads a stored analysis (each seat's value per position, and the
search's best move at each decision) and picks the moves that lost their mover the most
win chance, each with the move the search preferred there.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from sudoku_arena.ai.hints import hints_for
from sudoku_arena.ai.mcts.evaluate import position_values
from sudoku_arena.ai.mcts.search import MCTS
from sudoku_arena.core.protocol import AnyGame
from sudoku_arena.core.search import Budget
from sudoku_arena.core.types import MoveKind

#: Moves a hint suggests.
TOP = 3
#: Mistakes shown per seat after a game, and the least loss of win chance that counts.
TOP_MISTAKES = 5
LEAST_LOSS = 0.1
#: Fewest simulations behind a best move of the analysis (the game's ``normal`` level
#: when it is more): one search per decision of a finished game, in the background.
MIN_SIMULATIONS = 400
#: Fewest simulations behind a hint (the game's ``hard`` level when it is more): with
#: them the top move's chance differs by at most about 5 points from one seed to
#: another in every game (docs/bots.md, the coach); a hint takes up to a few seconds.
HINT_SIMULATIONS = 2000


@dataclass(frozen=True, slots=True)
class Suggestion:
    """A move the search suggests, its visits and the mover's win chance after it."""

    action: object
    visits: int
    chance: float


def coach_simulations(game: AnyGame) -> int:
    """Simulations behind the analysis's best move at a position: the game's ``normal``
    level, at least :data:`MIN_SIMULATIONS`."""
    return max(MIN_SIMULATIONS, hints_for(game).budget("normal").iterations)


def hint_simulations(game: AnyGame) -> int:
    """Simulations behind a hint: the game's ``hard`` level, at least
    :data:`HINT_SIMULATIONS`."""
    return max(HINT_SIMULATIONS, hints_for(game).budget("hard").iterations)


def suggestions(
    game: AnyGame, state: object, seat: int, simulations: int, seed: int, top: int = TOP
) -> list[Suggestion]:
    """The search's ``top`` moves for ``seat`` in ``state``, best first (by the win
    chance it found, then visits). ``state`` must hold nothing ``seat`` may not see
    beyond a deal consistent with his view: the search re-deals it anyway."""
    tm = game.to_move(state)
    if tm.kind is not MoveKind.DECISION or seat not in tm.players:
        return []
    legal = list(game.legal_actions(state, seat))
    if len(legal) == 1:  # nothing to choose: the chance is the position's
        value = position_values(game, state, simulations, seed)[seat]
        return [Suggestion(legal[0], simulations, _clamp(value))]
    result = MCTS(game, rng=random.Random(seed)).search(state, seat, Budget(simulations))
    found = sorted(result.stats, key=lambda st: (-st[1], -st[2]))[:top]
    out = [Suggestion(a, n, _clamp(v)) for a, n, v in found]
    out.sort(key=lambda s: (-s.chance, -s.visits))
    return out


def best_move(game: AnyGame, state: object, simulations: int, seed: int) -> Suggestion | None:
    """The search's best move at a decision of one seat with a choice, searched from
    that seat's view (``None`` elsewhere: chance, the end, a move without choice, a
    simultaneous phase)."""
    tm = game.to_move(state)
    if tm.kind is not MoveKind.DECISION or len(tm.players) != 1:
        return None
    seat = tm.players[0]
    if len(list(game.legal_actions(state, seat))) < 2:
        return None
    found = suggestions(game, state, seat, simulations, seed, top=1)
    return found[0] if found else None


def _clamp(v: float) -> float:
    return round(min(1.0, max(0.0, float(v))), 4)


@dataclass(frozen=True, slots=True)
class Mistake:
    """The move at ``ply`` (from position ``ply - 1``) by ``seat`` lost ``loss`` of his
    win chance (``before`` to ``after``); the search preferred ``better``."""

    ply: int
    seat: int
    action: str
    before: float
    after: float
    better: str
    better_chance: float | None

    @property
    def loss(self) -> float:
        return self.before - self.after


def mistakes(
    values: Sequence[Sequence[float]],
    actions: Sequence[tuple[int, int | None, str]],
    best: Sequence[Mapping[str, object] | None],
    seats: Sequence[int] | None = None,
    top: int = TOP_MISTAKES,
    least: float = LEAST_LOSS,
) -> list[Mistake]:
    """The moves of ``seats`` (all seats: ``None``) that lost their mover at least
    ``least`` win chance and were not the search's best move, the ``top`` largest per
    seat, in the order they were played.

    ``values[i]`` are the seats' values at position ``i``, ``actions[i]`` the action
    ``(ply, actor, notation)`` from position ``i`` to ``i + 1`` and ``best[i]`` the
    search's best move at position ``i`` (``{"action", "chance"}``, or ``None``).
    """
    found: list[Mistake] = []
    for i, (_ply, actor, action) in enumerate(actions):
        if actor is None or (seats is not None and actor not in seats):
            continue
        if i + 1 >= len(values) or i >= len(best):
            break
        b = best[i]
        if b is None or b.get("action") == action:
            continue
        before, after = float(values[i][actor]), float(values[i + 1][actor])
        if before - after < least:
            continue
        chance = b.get("chance")
        found.append(
            Mistake(
                i + 1,
                actor,
                action,
                before,
                after,
                str(b["action"]),
                float(chance) if isinstance(chance, int | float) else None,
            )
        )
    kept: list[Mistake] = []
    for seat in sorted({m.seat for m in found}):
        mine = sorted((m for m in found if m.seat == seat), key=lambda m: (-m.loss, m.ply))
        kept.extend(mine[:top])
    return sorted(kept, key=lambda m: (m.ply, m.seat))
