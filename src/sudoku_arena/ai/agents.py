"""Agents by name: ``random`` for every game, plus what each game provides (``greedy``).

Search players exist for every game: ``mcts`` (``mcts:easy``, ``mcts:normal``,
``mcts:hard``, ``mcts:ITERATIONS``, ``mcts:SECONDSs``: the hand-written evaluation) and
the level names alone (``easy``, ``normal``, ``hard``): ``mcts:<level>``, except that
``normal`` and ``hard`` are ``learned:<level>`` in a game whose package ships learned
weights (:mod:`sudoku_arena.ai.learned`); see docs/bots.md.
The exploit panel's scripted strategies are ``panel:NAME`` (:mod:`sudoku_arena.ai.panel`);
they are not listed by :func:`agent_names`, which names the bots people play against.

``make_agent(spec, game, seed=...)`` is the one place names become agents, so the CLI, the
server and the analysis tools accept the same player names. A name may carry an
argument after a colon (``mcts:500``); factories receive it as ``arg``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping

from sudoku_arena.ai.hints import LEVELS
from sudoku_arena.ai.mcts import MCTSAgent, level_factory
from sudoku_arena.ai.panel import PREFIX, make_panel, panel_names
from sudoku_arena.core.agent import Agent
from sudoku_arena.core.entry import AgentFactory
from sudoku_arena.core.errors import ArenaError, UnknownGameError
from sudoku_arena.core.protocol import AnyGame
from sudoku_arena.core.registry import entry_of

#: The levels that play with the game's learned evaluation where its package ships
#: weights (``easy`` stays the hand-written search: a learner's first opponent).
LEARNED_LEVELS = ("normal", "hard")


def _level(level: str) -> AgentFactory:
    """The factory of a plain level name: ``learned:<level>`` where the game ships
    weights and the level is one of :data:`LEARNED_LEVELS`, else ``mcts:<level>`` (the
    hand-written evaluation, which ``mcts:<level>`` always names)."""
    plain = level_factory(level)

    def make(game: AnyGame | None = None, seed: int | None = None, arg: str | None = None) -> Agent:
        if level in LEARNED_LEVELS and game is not None and not arg:
            # Imported here: the learned module registers its own name in this one.
            from sudoku_arena.ai.learned import LearnedAgent, ships_weights

            if ships_weights(game):
                return LearnedAgent(game, seed, arg=level)
        return plain(game, seed, arg)

    return make


class RandomAgent:
    """Picks uniformly among the legal actions (seeded)."""

    name = "random"

    def __init__(self, game: AnyGame | None = None, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def act(self, game: AnyGame, state: object, player: int) -> object:
        return self._rng.choice(list(game.legal_actions(state, player)))


_GENERIC: dict[str, AgentFactory] = {
    "random": RandomAgent,
    "mcts": MCTSAgent,
    **{level: _level(level) for level in LEVELS},
}


#: Generic agents listed only for the games where the predicate holds (all can be made).
_LISTED: dict[str, Callable[[AnyGame], bool]] = {}


def register_agent(
    name: str, factory: AgentFactory, listed: Callable[[AnyGame], bool] | None = None
) -> None:
    """Make ``name`` available for every game (search agents register here). With
    ``listed``, :func:`agent_names` (the bots people are offered) names it only for the
    games where ``listed(game)`` holds; ``make_agent`` makes it for any game."""
    _GENERIC[name] = factory
    if listed is not None:
        _LISTED[name] = listed


def _own_agents(game: AnyGame) -> Mapping[str, AgentFactory]:
    """The game's own bots from its entry (none for a game that is not registered)."""
    try:
        return entry_of(game).agents
    except UnknownGameError:
        return {}


def agent_names(game: AnyGame) -> list[str]:
    """The agent names offered for ``game`` (see :func:`register_agent`'s ``listed``)."""
    generic = {n for n in _GENERIC if n not in _LISTED or _LISTED[n](game)}
    return sorted(generic | set(_own_agents(game)))


def make_agent(spec: str, game: AnyGame, *, seed: int | None = None) -> Agent:
    """The agent called ``spec`` (``random``, ``greedy``, ``name:arg``) for ``game``."""
    name, _, arg = spec.strip().partition(":")
    name = name.lower()
    if name == PREFIX:
        if not arg:
            raise ArenaError(
                f"{spec!r} names no panel strategy; allowed: {', '.join(panel_names(game))}"
            )
        return make_panel(arg, game, seed)
    factories: dict[str, AgentFactory] = {**_GENERIC, **_own_agents(game)}
    if name not in factories:
        raise ArenaError(
            f"no agent called {spec!r} for {game.spec.id}; allowed: "
            f"{', '.join(agent_names(game))} (or human where people play; the exploit "
            f"panel's strategies: sudoku-arena list {game.spec.id})"
        )
    factory = factories[name]
    if arg:
        return factory(game, seed, arg=arg)
    return factory(game, seed)
