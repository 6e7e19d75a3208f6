"""The approximate best response as a pseudo-strategy of the exploit panel.

``exploiter`` stands in an exploit line-up where a panel strategy would
(``(level, "exploiter")``, two players only). Such a game is played differently from
the rest (:func:`seat_agents`): the bot is a
:class:`~sudoku_arena.ai.permove.PerMoveBot` (a new agent every move, seeded from the
match's seed for its seat and the ply, as the web server plays bots) and the
exploiter a :class:`~sudoku_arena.ai.exploiter.BestResponse` at
:data:`~sudoku_arena.ai.exploiter.DEFAULT_FACTOR` times the bot's budget, handed the
same bot (name and seed) to ask inside its own search. Every other game is played with
``make_agent`` as before.
"""

from __future__ import annotations

from collections.abc import Sequence

from sudoku_arena.ai.agents import make_agent
from sudoku_arena.ai.exploiter import DEFAULT_FACTOR, BestResponse
from sudoku_arena.ai.permove import PerMoveBot, Seated
from sudoku_arena.core.agent import Agent
from sudoku_arena.core.errors import InvalidParameterError
from sudoku_arena.core.match import Match
from sudoku_arena.core.protocol import AnyGame
from sudoku_arena.core.registry import spec_of

#: The pseudo-strategy's name in line-ups and records.
EXPLOITER = "exploiter"
#: How reports call its row.
LABEL = f"approximate best response ({DEFAULT_FACTOR:g}x)"


def label(strategy: str) -> str:
    """How a report names the strategy ``strategy`` of a line-up."""
    return LABEL if strategy == EXPLOITER else strategy


def check_game(game_id: str) -> None:
    """Refuse a game the exploiter cannot play (chance or hidden information: the
    bot's reply would depend on what the exploiter cannot know)."""
    spec = spec_of(game_id)
    if spec.chance or spec.hidden_information:
        raise InvalidParameterError(
            f"--exploiter: {spec.id} has {'chance' if spec.chance else 'hidden information'}, "
            "so the bot's reply cannot be computed ahead; the approximate best response "
            "plays tic-tac-sudoku, sudoku-warriors and citadel"
        )


def seat_agents(names: Sequence[str], game: AnyGame, match: Match) -> list[Agent]:
    """The agents of ``match``, one per seat named in ``names``: ``make_agent`` seeded
    with ``match.bot_seed(seat)``, or, when a seat is :data:`EXPLOITER`, the bot and
    the exploiter described in the module doc (two seats only)."""
    if EXPLOITER not in names:
        return [make_agent(n, game, seed=match.bot_seed(s)) for s, n in enumerate(names)]
    if len(names) != 2 or names.count(EXPLOITER) != 1:
        raise InvalidParameterError(
            f"the exploiter plays one bot in a game of two; got the seats {', '.join(names)}"
        )
    me = names.index(EXPLOITER)
    bot = 1 - me
    # The bot's base seed is the match's seed for its seat, as for any bot in the lab;
    # the exploiter is handed the same bot (name and seed) to question.
    target = PerMoveBot(names[bot], match.bot_seed(bot))
    exploiter = BestResponse(
        PerMoveBot(names[bot], match.bot_seed(bot)), DEFAULT_FACTOR, seed=match.bot_seed(me)
    )
    agents: list[Agent] = [Seated(target, match), Seated(exploiter, match)]
    return agents if bot == 0 else agents[::-1]
