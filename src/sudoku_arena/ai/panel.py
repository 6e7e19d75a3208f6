"""The exploit panel: scripted strategies that probe where the bots are weak.

A bot that only ever meets ``random``, ``greedy`` and the level below can lose to a
simple fixed rule that none of them plays (in Tic-Tac-Sudoku "always the lowest legal
cell" beat ``greedy`` in 168 of 200 games). The panel is a set of such rules per game,
each a deterministic :class:`~sudoku_arena.core.scripted.Scripted` agent (ties broken
by its seeded generator), named ``panel:NAME``, so they never collide with a bot's
name:

* every game: ``panel:lowest`` and ``panel:highest`` (here: they need only the action
  index);
* each game's own (``GameEntry.panel``, from ``games/<game>/panel.py``): centre,
  mirror, score-only, block-only and the game's bid, tile or wild policies.

``make_agent("panel:lowest", game)`` builds one (:func:`make_panel`); the lab's
``--preset exploit`` plays each bot level against all of :func:`panel_names`. The
panel is a measuring instrument, not a set of opponents: the server's list of bots
(``agent_names``) leaves it out.
"""

from __future__ import annotations

from collections.abc import Mapping

from sudoku_arena.core.agent import Agent
from sudoku_arena.core.entry import AgentFactory
from sudoku_arena.core.errors import ArenaError, UnknownGameError
from sudoku_arena.core.protocol import AnyGame
from sudoku_arena.core.registry import entry_of
from sudoku_arena.core.scripted import Scripted

#: The prefix of every panel strategy's name (``panel:lowest``).
PREFIX = "panel"


class LowestIndex(Scripted):
    """Always the legal action with the lowest action index.

    Probes: a fixed order over the board. In Tic-Tac-Sudoku it builds compact lines
    from the top-left corner, which the search's random play-outs barely see; a bot
    must beat a player whose every move is predictable."""

    name = "panel:lowest"

    def choose(self, game: AnyGame, state: object, player: int, legal: list[object]) -> object:
        return min(legal, key=game.encode_action)


class HighestIndex(Scripted):
    """Always the legal action with the highest action index.

    Probes: the same fixed order from the other end (the bottom-right corner, the
    last kinds of action: in Sudoku Warriors ``yield`` before any bid, in Citadel razes
    and attacks before moves)."""

    name = "panel:highest"

    def choose(self, game: AnyGame, state: object, player: int, legal: list[object]) -> object:
        return max(legal, key=game.encode_action)


#: The strategies every game has, by bare name.
GENERIC: Mapping[str, AgentFactory] = {"lowest": LowestIndex, "highest": HighestIndex}


def panel_factories(game: AnyGame) -> dict[str, AgentFactory]:
    """The game's panel by bare name: the generic strategies, then its own."""
    try:
        own = entry_of(game).panel
    except UnknownGameError:  # a game registered without an entry of ours
        own = {}
    return {**GENERIC, **own}


def panel_names(game: AnyGame) -> list[str]:
    """The names of ``game``'s panel strategies (``panel:lowest`` ...), generic first."""
    return [f"{PREFIX}:{name}" for name in panel_factories(game)]


def make_panel(name: str, game: AnyGame, seed: int | None = None) -> Agent:
    """The panel strategy called ``name`` (bare: ``lowest``) for ``game``."""
    factories = panel_factories(game)
    factory = factories.get(name.strip().lower())
    if factory is None:
        raise ArenaError(
            f"no panel strategy called {name!r} for {game.spec.id}; allowed: "
            f"{', '.join(panel_names(game))}"
        )
    return factory(game, seed)
