"""The ``learned`` bot: the search with a learned evaluation at its leaves.

``learned`` is the search bot (:class:`~sudoku_arena.ai.mcts.MCTSAgent`) with the game's
own search hints, except that ``evaluate`` is a value network trained by self-play
(:mod:`sudoku_arena.ai.value`; ``sudoku-arena train``). Names::

    learned                  learned:normal with the game's shipped weights
    learned:hard             a level (easy, normal, hard), the game's shipped weights
    learned:800              800 simulations per decision
    learned:normal@DIR/value.npz   weights from a file (any level or budget before @)

When no weights exist for the game (none shipped, no file given), or NumPy is missing,
the bot plays with the hand-written evaluation, exactly as the plain search bot at the
same budget, and says so once per game and process (a warning on the log). A weights
file that was named but cannot be used is an error, never a silent fallback.

Importing this module registers the name (``sudoku_arena.ai`` imports it); NumPy is
only imported when a learned bot is made.
"""

from __future__ import annotations

import dataclasses
import logging
from importlib.resources import files
from pathlib import Path

from sudoku_arena.ai.agents import register_agent
from sudoku_arena.ai.features import (
    PACKAGE_FILE,
    NoFeaturesError,
    features_for,
    features_module,
    has_features,
)
from sudoku_arena.ai.hints import hints_for
from sudoku_arena.ai.mcts import MCTS, MCTSAgent, parse_budget
from sudoku_arena.core.errors import ArenaError
from sudoku_arena.core.protocol import AnyGame
from sudoku_arena.core.search import EvaluateFn, SearchHints

NAME = "learned"
log = logging.getLogger(__name__)
#: The games (ids) whose fallback was already announced in this process.
_announced: set[str] = set()


def parse_spec(arg: str | None) -> tuple[str, Path | None]:
    """``normal@path/to/w.npz`` as the budget text and the weights path (or ``None``)."""
    budget, at, path = (arg or "").partition("@")
    if at and not path.strip():
        raise ArenaError(
            f"{NAME}:{arg}: give the weights file after @ (learned:normal@DIR/value.npz)"
        )
    return budget.strip() or "normal", Path(path.strip()) if at else None


def with_learned(hints: SearchHints, evaluate: EvaluateFn) -> SearchHints:
    """``hints`` with a learned ``evaluate`` at the leaves, never taken at a chance node
    (the features describe a seat to move; the play-out resolves chance first)."""
    return dataclasses.replace(hints, evaluate=evaluate, evaluate_chance=False)


def learned_evaluate(game: AnyGame, weights: Path | None) -> tuple[EvaluateFn | None, str]:
    """The learned evaluation for ``game`` and where it comes from, or ``None`` and why
    not (the bot then falls back). A named ``weights`` file that cannot be used raises
    :class:`~sudoku_arena.core.errors.ArenaError`."""
    try:
        features = features_for(game)
    except NoFeaturesError as exc:
        if weights is not None:
            raise
        return None, str(exc)
    try:
        from sudoku_arena.ai.value import load_weights, package_weights, value_evaluator
    except ImportError as exc:  # NumPy missing or broken
        if weights is not None:
            raise ArenaError(
                f"{NAME}: learned weights need NumPy ({exc}); pip install numpy"
            ) from None
        return None, f"NumPy cannot be imported ({exc})"
    if weights is not None:
        return value_evaluator(load_weights(weights, features), features), str(weights)
    net = package_weights(game, features)
    if net is None:
        return (
            None,
            f"no weights are shipped for {game.spec.id} yet "
            f"(train some: sudoku-arena train {game.spec.id})",
        )
    return value_evaluator(net, features), "the weights shipped with the game"


class LearnedAgent(MCTSAgent):
    """The search bot with a learned evaluation (see the module docstring)."""

    name = NAME

    def __init__(
        self, game: AnyGame | None = None, seed: int | None = None, *, arg: str | None = None
    ) -> None:
        if game is None:
            raise ArenaError(f"a {NAME} agent needs the game to find its weights")
        level, weights = parse_spec(arg)
        try:
            parse_budget(level, game)
        except ArenaError:
            raise ArenaError(
                f"{NAME}:{arg}: say a level (easy, normal, hard), a number of simulations "
                f"({NAME}:2000) or seconds ({NAME}:1.5s), then @FILE for weights from a file"
            ) from None
        super().__init__(game, seed, arg=level)
        self.name = f"{NAME}:{self.label}"
        self.evaluate, self.source = learned_evaluate(game, weights)
        #: Whether this bot plays with the hand-written evaluation (no weights found).
        self.fallback = self.evaluate is None
        if self.fallback and game.spec.id not in _announced:
            _announced.add(game.spec.id)
            log.warning("%s: %s; playing with the hand-written evaluation", self.name, self.source)

    def hints(self, game: AnyGame) -> SearchHints:
        """The search hints this bot plays with: the game's, with the learned evaluation."""
        hints = hints_for(game)
        return hints if self.evaluate is None else with_learned(hints, self.evaluate)

    def act(self, game: AnyGame, state: object, player: int) -> object:
        # Build the search with this bot's hints; MCTSAgent.act reuses a search made for
        # the same game object and keeps its position memory and budget handling.
        if self._search is None or self._search.game is not game:
            if self._search is not None:
                self._seen = set()  # another game object: another game
            self._search = MCTS(game, hints=self.hints(game), rng=self._rng)
        return super().act(game, state, player)


def ships_weights(game: AnyGame) -> bool:
    """Whether ``game``'s package holds learned weights (without loading them) that
    this game can use: then its ``normal`` and ``hard`` play with them
    (:mod:`sudoku_arena.ai.agents`). A game whose features do not apply to it (three
    players in Sudoku Warriors: the weights are for two) ships none for this table."""
    package = features_module(game).rpartition(".")[0]
    try:
        shipped = (files(package) / PACKAGE_FILE).is_file()
    except (ModuleNotFoundError, TypeError):
        return False
    return shipped and has_features(game)


# Made by name everywhere, offered to players nowhere: where weights ship, the levels
# people choose already play with them (a second name for the same bot would confuse).
register_agent(NAME, LearnedAgent, listed=lambda game: False)
