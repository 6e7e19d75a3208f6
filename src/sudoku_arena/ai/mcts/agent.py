"""The search as a player: budgets by level or by number, and memory of the game's
positions so that two searching players do not repeat the same moves for ever."""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Hashable, Iterable

from sudoku_arena.ai.hints import LEVELS, hints_for
from sudoku_arena.ai.mcts.search import MCTS
from sudoku_arena.ai.mcts.tree import SearchResult
from sudoku_arena.core.errors import ArenaError
from sudoku_arena.core.protocol import AnyGame
from sudoku_arena.core.search import Budget


def parse_budget(arg: str | None, game: AnyGame) -> tuple[str, Budget]:
    """Read an ``mcts`` argument: a level name, ``N`` simulations or ``Ts`` seconds.

    Returns a label (``normal``, ``500``, ``2s``) and the budget. Raises ``ArenaError``
    with what is allowed.
    """
    text = (arg or "normal").strip().lower()
    if text in LEVELS:
        return text, hints_for(game).budget(text)
    try:
        if text.endswith("s"):
            secs = float(text[:-1])
            if secs > 0 and math.isfinite(secs):
                return text, Budget(10**12, secs)
        else:
            n = int(text)
            if n >= 1:
                return text, Budget(n)
    except ValueError:
        pass
    raise ArenaError(
        f"mcts:{arg}: say a level ({', '.join(LEVELS)}), a number of simulations "
        "(mcts:2000) or seconds per move (mcts:1.5s)"
    )


class MCTSAgent:
    """An MCTS player for any game: ``mcts:hard``, ``mcts:2000``, ``mcts:1.5s``."""

    name = "mcts"

    def __init__(
        self,
        game: AnyGame | None = None,
        seed: int | None = None,
        *,
        arg: str | None = None,
        budget: Budget | None = None,
    ) -> None:
        self._rng = random.Random(seed)
        if budget is None:
            if game is None:
                raise ArenaError("an mcts agent needs the game to find its level's budget")
            label, budget = parse_budget(arg, game)
        else:
            label = arg or "custom"
        self.label = label
        self.budget = budget
        self.name = f"mcts:{label}"
        self._search: MCTS | None = None
        self._seen: set[Hashable] = set()
        self.last: SearchResult | None = None

    def act(self, game: AnyGame, state: object, player: int) -> object:
        """Search for ``player``; also remember the game's turn starts (``position_key``):
        the one it acts in and the one its action hands to the next player. One agent
        plays one game: a new game needs a new agent (or a new game object)."""
        if self._search is None or self._search.game is not game:
            if self._search is not None:
                self._seen = set()  # another game object: another game
            self._search = MCTS(game, rng=self._rng)
        key = self._search.hints.position_key
        if key is not None:
            self._remember(key(game, state))
        self.last = self._search.search(state, player, self.budget, self._seen)
        if key is not None:
            self._remember(key(game, game.apply(state, self.last.action, player)))
        return self.last.action

    def remember(self, keys: Iterable[Hashable]) -> None:
        """Add turn starts the game went through before this agent was made (see
        :func:`position_keys`): a caller that builds a new agent for every move (the
        server) hands it the game's history this way."""
        self._seen.update(keys)

    def _remember(self, k: Hashable | None) -> None:
        if k is not None:
            self._seen.add(k)


def position_keys(game: AnyGame, states: Iterable[object]) -> list[Hashable]:
    """The ``position_key`` of every turn start among ``states`` (a game's history), for
    :meth:`MCTSAgent.remember`; empty for games that do not name their positions or that
    hide information (the search ignores repetitions there)."""
    key = hints_for(game).position_key
    if key is None or game.spec.hidden_information:
        return []
    out: list[Hashable] = []
    for s in states:
        k = key(game, s)
        if k is not None:
            out.append(k)
    return out


def level_factory(level: str) -> Callable[..., MCTSAgent]:
    """A factory for the plain level names (``easy``, ``normal``, ``hard``)."""

    def make(
        game: AnyGame | None = None, seed: int | None = None, arg: str | None = None
    ) -> MCTSAgent:
        if arg:
            raise ArenaError(f"{level} takes no argument; say mcts:{arg} for a custom budget")
        return MCTSAgent(game, seed, arg=level)

    return make
