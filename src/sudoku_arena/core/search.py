"""Per-game search knowledge, as types: what a game may tell the generic search.

The types live in ``core`` so that a game declares its knowledge without importing the
AI layer above it. The MCTS (:mod:`sudoku_arena.ai.mcts`) works on every game through
the protocol alone; a game makes it faster and stronger by registering, in its
:class:`~sudoku_arena.core.entry.GameEntry`, a function::

    def search_hints(game) -> SearchHints: ...

(by convention in the game package's ``search.py``). Everything in :class:`SearchHints`
is optional; :data:`DEFAULT_HINTS` in :mod:`sudoku_arena.ai.hints` is what a game that
declares nothing gets. The search turns the hints into strategy objects once, when it
is built.

Contracts of the callables (``game`` is the game object, ``s`` a state, ``p`` a seat):

* ``step(game, s, a, p) -> state``: apply a legal decision action without validation
  (a private fast path). Only ever called with actions from ``legal_actions``; with
  ``step_chance`` set it also applies chance outcomes (then ``p`` is ``None``).
* ``rollout_action(game, s, p, rng) -> action``: the action ``p`` takes in a rollout;
  must be one of ``game.legal_actions(s, p)``; draws randomness from ``rng`` only.
* ``evaluate(game, s) -> sequence of floats``: one value per seat in ``[0, 1]``, an
  estimate of ``game.returns`` at the end of the game from the non-terminal ``s``. With
  an evaluator, rollouts stop after ``rollout_depth`` decisions (chance outcomes do not
  count) and take its value; with ``evaluate_chance`` off, never on a chance node.
* ``prior(game, s, p, actions) -> sequence of floats``: optional weights (> 0) for
  the order in which a node's untried actions are expanded (larger first, ties at
  random). Without it, untried actions are expanded in random order.
* ``position_key(game, s) -> hashable or None``: for games that can go round in circles
  (Citadel), what makes two turn starts the same position (the turn counter left out),
  and ``None`` for states that are not the start of a turn. A search agent remembers
  the keys of the positions of its game; the search scores a line that comes back to
  one of them as ``repeat_value`` for every seat (perfect-information games only).

Hidden-information games only (the tree is keyed by what the searching seat sees):

* ``action_key(game, s, a, p) -> int >= 0``: the tree key of decision ``a`` by ``p``.
  It must tell apart everything the searching seat learns when ``a`` is played (in
  SuDokuHex the hex *and* the number revealed on it), so that another seat's choice is
  scored separately for each hidden hand it may hold. Default: ``encode_action(a)``.
* ``chance_key(game, s, outcome, observer) -> int >= 0 or None``: the tree key of a
  chance outcome as ``observer`` (the searching seat) sees it; ``None`` when he does not
  see it (another seat's secret draw), so the search does not branch on it and later
  decisions of his cannot depend on it. Default: ``encode_action(outcome)``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

#: Names of the levels every game offers, weakest first.
LEVELS: tuple[str, ...] = ("easy", "normal", "hard")

StepFn = Callable[[Any, Any, Any, Any], Any]  # (game, state, action, seat or None)
RolloutFn = Callable[[Any, Any, int, random.Random], Any]
EvaluateFn = Callable[[Any, Any], Sequence[float]]
PriorFn = Callable[[Any, Any, int, Sequence[Any]], Sequence[float]]
ActionKeyFn = Callable[[Any, Any, Any, int], int]
ChanceKeyFn = Callable[[Any, Any, Any, int], "int | None"]
PositionKeyFn = Callable[[Any, Any], "Hashable | None"]


@dataclass(frozen=True, slots=True)
class Budget:
    """How much a search may spend on one decision.

    ``iterations`` is the number of MCTS simulations; ``seconds`` (optional) caps the
    wall-clock time as well. With only ``iterations`` a search is fully reproducible
    from its seed; a time cap that binds makes it depend on the machine's speed.
    """

    iterations: int
    seconds: float | None = None
    #: Decide at the root among the prior's best ``candidates`` actions by play-outs in
    #: common futures instead of growing a tree (for this level, over the hints'
    #: ``root_candidates``). 1 plays the prior's favourite without searching: for a
    #: level where the game's rule was measured stronger than its search.
    candidates: int | None = None

    def describe(self) -> str:
        if self.candidates == 1:
            return "the heuristic's choice, no search"
        cap = f", at most {self.seconds:g} s" if self.seconds is not None else ""
        return f"{self.iterations} simulations{cap}"


#: Budgets used when a game's hints do not name a level.
DEFAULT_LEVELS: Mapping[str, Budget] = {
    "easy": Budget(100, 0.25),
    "normal": Budget(1000, 0.8),
    "hard": Budget(4000, 3.0),
}


@dataclass(frozen=True, slots=True)
class SearchHints:
    """What a game tells the MCTS about itself (see the module docstring)."""

    #: Budgets per level (``easy``, ``normal``, ``hard``); missing levels use defaults.
    levels: Mapping[str, Budget] = field(default_factory=dict)
    #: UCT exploration constant for returns in ``[0, 1]``.
    exploration: float = 0.7
    #: Unchecked fast ``apply`` for decision actions (``None``: ``game.apply``).
    step: StepFn | None = None
    #: Whether ``step`` also applies chance outcomes (called with ``p=None``).
    step_chance: bool = False
    #: Rollout policy (``None``: uniformly random legal action).
    rollout_action: RolloutFn | None = None
    #: Heuristic value of a non-terminal state (``None``: roll out to the end).
    evaluate: EvaluateFn | None = None
    #: Rollout decisions before ``evaluate`` is used (ignored without an evaluator).
    rollout_depth: int = 0
    #: Whether ``evaluate`` takes chance nodes. A learned value's features describe
    #: a seat to move, so with ``False`` a play-out resolves the chance outcomes it
    #: reaches before it evaluates.
    evaluate_chance: bool = True
    #: Expansion order weights for untried actions (``None``: random order).
    prior: PriorFn | None = None
    #: With a temperature, the prior also steers selection (PUCT, as in AlphaZero):
    #: probabilities are a softmax of the prior weights at this temperature, and the
    #: search leaves the prior's favourite only when the returns clearly say so.
    prior_temperature: float | None = None
    #: Progressive widening: a node visited ``n`` times has at most
    #: ``ceil(widening * sqrt(n))`` children, the best by ``prior`` first (``None``: all
    #: legal actions are tried). For games with many actions and a good prior.
    widening: float | None = None
    #: Tree key of a decision action (hidden-information games; ``None``: its index).
    action_key: ActionKeyFn | None = None
    #: Tree key of a chance outcome for the searching seat (``None`` result: unseen).
    chance_key: ChanceKeyFn | None = None
    #: Decide at the root by rollout improvement with common random numbers instead
    #: of growing a tree: the prior's best ``root_candidates`` actions are compared by
    #: rollouts of ``rollout_action`` in the same sampled futures (see
    #: ``sudoku_arena.ai.mcts.root``). For games where the rollout policy is already strong
    #: and luck dwarfs the differences between moves (Cat Sudoku's dice).
    root_candidates: int | None = None
    #: Simultaneous phases: decoupled UCT instead of regret matching. Right when the
    #: seats of a phase do not interact within it (each writes his own sheet), so
    #: that no seat's best action depends on what the others choose meanwhile.
    simultaneous_ucb: bool = False
    #: Key of a turn start for spotting repeated positions (``None``: not looked for).
    position_key: PositionKeyFn | None = None
    #: Every seat's return for a line that repeats a position of the game: the value of
    #: the turn-limit draw that two players who keep repeating would reach.
    repeat_value: float = 0.0
    #: Longest rollout (plies) before the game is scored as it stands (safety net).
    max_rollout_plies: int = 10_000
    #: For solo games: scale exploration by the spread of the returns seen so far, so
    #: that small score differences (returns close together) still steer the search.
    adaptive_exploration: bool = True

    def budget(self, level: str) -> Budget:
        """The budget of ``level`` (``easy``, ``normal`` or ``hard``)."""
        if level in self.levels:
            return self.levels[level]
        return DEFAULT_LEVELS[level]
