"""How decisions and chance outcomes are keyed in the tree.

A perfect-information tree keys children by action index. A hidden-information tree is
keyed by what the searching seat sees (the game's ``action_key``/``chance_key``), so it
never branches on what that seat was not shown. The seat sits in the low 3 bits of a
decision key; chance keys end in 7; -1 is a chance outcome the observer does not see.
"""

from __future__ import annotations

from collections.abc import Sequence

from sudoku_arena.core.protocol import AnyGame
from sudoku_arena.core.search import ActionKeyFn, ChanceKeyFn


class IndexKeys:
    """Keys from the game's action indices (perfect information, or no key hints)."""

    def __init__(self, game: AnyGame) -> None:
        self._encode = game.encode_action

    def decision(self, s: object, action: object, seat: int) -> int:
        return int(self._encode(action)) * 8 + seat

    def decisions(self, s: object, actions: Sequence[object], seat: int) -> list[int]:
        """The keys of ``decision`` for each of ``actions``, in their order."""
        encode = self._encode
        return [int(encode(a)) * 8 + seat for a in actions]

    def chance(self, s: object, outcome: object, observer: int) -> int:
        return int(self._encode(outcome)) * 8 + 7


class ObserverKeys(IndexKeys):
    """Keys as the searching seat sees the game (hidden information)."""

    def __init__(
        self, game: AnyGame, action_key: ActionKeyFn | None, chance_key: ChanceKeyFn | None
    ) -> None:
        super().__init__(game)
        self._game = game
        self._action_key = action_key
        self._chance_key = chance_key

    def decision(self, s: object, action: object, seat: int) -> int:
        if self._action_key is None:
            return super().decision(s, action, seat)
        return int(self._action_key(self._game, s, action, seat)) * 8 + seat

    def decisions(self, s: object, actions: Sequence[object], seat: int) -> list[int]:
        key = self._action_key
        if key is None:
            return super().decisions(s, actions, seat)
        game = self._game
        return [int(key(game, s, a, seat)) * 8 + seat for a in actions]

    def chance(self, s: object, outcome: object, observer: int) -> int:
        if self._chance_key is None:
            return super().chance(s, outcome, observer)
        k = self._chance_key(self._game, s, outcome, observer)
        return -1 if k is None else int(k) * 8 + 7
