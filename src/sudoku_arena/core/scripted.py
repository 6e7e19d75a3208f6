"""Scripted agents: a fixed rule instead of a search (the exploit panel's strategies).

A scripted agent plays by one rule, written as a key over the legal actions: it takes
an action with the lowest key. Equal keys are broken by the agent's own seeded
generator, so the same seed and the same states give the same actions (the
:class:`~sudoku_arena.core.agent.Agent` contract) while games from different seeds
still differ. A position with one legal action is answered without asking the rule.

The generic strategies (``panel:lowest``, ``panel:highest``) live in
``sudoku_arena.ai.panel``, each game's own in ``sudoku_arena.games.<game>.panel``; both
build on :class:`Scripted`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar

from sudoku_arena.core.protocol import AnyGame

A = TypeVar("A")


class Key(Protocol):
    """What keys compare by: a number or a tuple of numbers (anything with ``<``)."""

    def __lt__(self, other: Any, /) -> bool: ...


class Scripted:
    """Base of the scripted strategies: ``act`` asks :meth:`choose` unless there is
    only one legal action. Subclasses set ``name`` and implement :meth:`choose`,
    usually as ``self.lowest(legal, key)``."""

    name = "panel"

    def __init__(self, game: object = None, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def act(self, game: AnyGame, state: object, player: int) -> object:
        legal = list(game.legal_actions(state, player))
        if len(legal) == 1:
            return legal[0]
        return self.choose(game, state, player, legal)

    # Any here, so that each game's strategies take its own rules, state and actions.
    def choose(self, game: Any, state: Any, player: int, legal: list[Any]) -> Any:
        """The action for ``player`` among ``legal`` (two or more)."""
        raise NotImplementedError

    def lowest(self, actions: Sequence[A], key: Callable[[A], Key]) -> A:
        """An action of ``actions`` with the lowest ``key``; ties at random (seeded)."""
        keys = [key(a) for a in actions]
        low = min(keys)
        tied = [a for a, k in zip(actions, keys, strict=True) if k == low]
        return tied[0] if len(tied) == 1 else self._rng.choice(tied)
