"""A bot rebuilt for every move, as the web server plays bots: a policy others can query.

The server builds a new agent for each of a bot's moves, seeded from the match, the
seat and the ply, and hands it the turn starts the game has been through
(:mod:`sudoku_arena.server.bots`). :class:`PerMoveBot` does the same from a base seed,
so its reply to a position is a pure function of the position and the game's history:
anyone holding the bot's name and seed (the approximate best response,
:mod:`sudoku_arena.ai.exploiter`) can compute exactly what it will answer to any move,
before the move is played.

Two things make the reply pure:

* the agent's seed is :func:`move_seed` of the base seed and the ply (the length of
  the history), never a generator carried from move to move;
* a search bot's time cap is dropped: it searches its level's number of simulations
  whatever the machine's load (a cap that binds would make the reply depend on speed).

:class:`Seated` puts such a policy at a match's table: an ordinary agent whose ``act``
reads the match's history.
"""

from __future__ import annotations

import hashlib
from collections.abc import Hashable, Sequence
from dataclasses import replace
from typing import Protocol

from sudoku_arena.ai.agents import make_agent
from sudoku_arena.ai.mcts import MCTSAgent, position_keys
from sudoku_arena.core.agent import Agent
from sudoku_arena.core.match import Match
from sudoku_arena.core.protocol import AnyGame

#: Replies a bot keeps (a long Citadel game asks a few thousand); older ones are dropped.
CACHE_LIMIT = 200_000


def move_seed(seed: int, ply: int) -> int:
    """The seed of the agent that plays ``ply`` for a bot with base seed ``seed``
    (63 bits, independent from ply to ply)."""
    digest = hashlib.blake2b(f"sudoku-arena/per-move/{seed}/{ply}".encode(), digest_size=8)
    return int.from_bytes(digest.digest(), "big") >> 1


class HistoryPolicy(Protocol):
    """Something that picks ``player``'s action from the position and the history."""

    name: str

    def reply(
        self, game: AnyGame, state: object, player: int, history: Sequence[object]
    ) -> object: ...


class PerMoveBot:
    """The bot ``spec`` (any name ``make_agent`` takes) with base seed ``seed``, a new
    agent for every move.

    :meth:`reply` is a pure function of ``(state, player, history)``: equal arguments
    give equal actions, in this instance or a fresh one. ``history`` is the states the
    game went through before ``state``, oldest first (``Match.states[:ply]``); its
    length is the ply, and its turn starts are what a search bot remembers
    (:func:`~sudoku_arena.ai.mcts.position_keys`). Replies are cached (the same
    question is answered without a second search).
    """

    def __init__(self, spec: str, seed: int) -> None:
        self.spec = spec
        self.seed = seed
        self.name = spec
        #: Replies computed (a search each) and replies answered from the cache.
        self.computed = 0
        self.cached = 0
        self._cache: dict[tuple[Hashable, ...], object] = {}
        self._game: AnyGame | None = None  # the game the cache is about

    def agent(self, game: AnyGame, ply: int) -> Agent:
        """The agent that plays ``ply``: ``spec`` seeded by :func:`move_seed`, a search
        bot without its time cap. Raises ``ArenaError`` for an unknown name."""
        agent = make_agent(self.spec, game, seed=move_seed(self.seed, ply))
        if isinstance(agent, MCTSAgent) and agent.budget.seconds is not None:
            budget = replace(agent.budget, seconds=None)
            agent = MCTSAgent(game, move_seed(self.seed, ply), arg=agent.label, budget=budget)
        return agent

    def simulations(self, game: AnyGame) -> int | None:
        """The simulations one reply costs (a search bot's budget), or ``None`` for a
        bot that does not search (``greedy``, a panel strategy)."""
        agent = self.agent(game, 0)
        return agent.budget.iterations if isinstance(agent, MCTSAgent) else None

    def reply(self, game: AnyGame, state: object, player: int, history: Sequence[object]) -> object:
        """The action the bot takes for ``player`` in ``state`` after ``history``."""
        if game is not self._game:
            self._cache.clear()  # another game object: another board, other answers
            self._game = game
        keys = position_keys(game, [*history, state])
        key = (state, player, len(history), frozenset(keys))
        if key in self._cache:
            self.cached += 1
            return self._cache[key]
        agent = self.agent(game, len(history))
        remember = getattr(agent, "remember", None)
        if keys and remember is not None:
            remember(keys)
        action = agent.act(game, state, player)
        self.computed += 1
        if len(self._cache) >= CACHE_LIMIT:
            self._cache.clear()  # a rare reset; a miss only costs a search again
        self._cache[key] = action
        return action


class Seated:
    """``policy`` playing at ``match``'s table: an agent whose ``act`` passes the
    match's history (every state before the current one) to ``policy.reply``."""

    def __init__(self, policy: HistoryPolicy, match: Match) -> None:
        self.policy = policy
        self.match = match
        self.name = policy.name

    def act(self, game: AnyGame, state: object, player: int) -> object:
        history = self.match.history
        return self.policy.reply(game, state, player, history[: len(history) - 1])
