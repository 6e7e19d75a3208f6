"""The agent protocol: anything that picks actions for one seat."""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable


@runtime_checkable
class Agent(Protocol):
    """Picks actions for a seat.

    ``act`` receives the game, a state and the seat to act for, and returns one of
    ``game.legal_actions(state, player)``. For games with hidden information the runner
    passes a state already determinised for ``player`` (everything he cannot see
    re-dealt at random), so an agent cannot peek even by accident. Agents keep their own
    seeded generator: the same seed and the same states give the same actions.
    """

    name: str

    def act(self, game: Any, state: Any, player: int) -> Any:
        """The action this agent takes for ``player`` in ``state``."""
        ...
