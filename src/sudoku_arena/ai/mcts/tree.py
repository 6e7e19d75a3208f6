"""The search tree's nodes, the result of a search, and small shared helpers."""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Final, final

from sudoku_arena.core.match import sample_outcome
from sudoku_arena.core.protocol import AnyGame
from sudoku_arena.core.types import MoveKind, ToMove

# Final: the compiled build reads these constants directly, not from the module's dict.
TERMINAL: Final = MoveKind.TERMINAL
CHANCE: Final = MoveKind.CHANCE
#: A return at least this high is a win outright (a child that wins at once is played).
WIN: Final = 1.0 - 1e-9
#: The ``mover`` of a node that no seat chose (root, chance outcome, after a phase).
NO_MOVER: Final = -1
#: The generator class whose draws :func:`randbelow` and :func:`shuffle` reproduce.


@final
class Node:
    """A tree node, reached from its parent by ``action`` taken by seat ``mover``.

    ``mover`` is :data:`NO_MOVER` for the root, chance outcomes and the node after a
    simultaneous phase. ``w`` is the sum of ``mover``'s returns over the ``n``
    simulations through this node; ``avail`` counts the simulations in which the node's
    action was legal when its parent was visited (IS-MCTS and simultaneous phases; a
    float, as it only feeds ``log``).

    ``state``/``tm`` are kept only when the tree is keyed by states (perfect
    information); ``untried``/``kids`` serve those nodes, ``index`` the nodes whose
    available actions change from one simulation to the next; ``private`` holds each
    seat's own tree of a simultaneous phase and ``joint`` the nodes after it.
    ``prior`` is the PUCT probability of the node's action and ``weight`` its raw prior
    weight; ``regret``/``strat`` are the cumulative regret and strategy of regret
    matching in simultaneous phases; ``decisive`` marks a child that wins at once;
    ``repeat`` a child whose state repeats a position of the game.

    The attributes are typed so that the compiled build stores numbers unboxed.
    """

    __slots__ = (
        "action",
        "avail",
        "decisive",
        "index",
        "joint",
        "kids",
        "mover",
        "n",
        "prior",
        "private",
        "regret",
        "repeat",
        "state",
        "strat",
        "tm",
        "untried",
        "w",
        "weight",
    )

    def __init__(self, action: object = None, mover: int = NO_MOVER) -> None:
        self.action: object = action
        self.mover: int = mover
        self.n: int = 0
        self.w: float = 0.0
        self.avail: float = 0.0
        self.state: object = None
        self.tm: ToMove | None = None
        self.untried: list[object] | None = None
        self.kids: list[Node] = []
        self.index: dict[int, Node] = {}
        self.decisive: Node | None = None
        self.private: dict[int, Node] = {}
        self.joint: dict[tuple[Node, ...], Node] = {}
        self.regret: float = 0.0
        self.strat: float = 0.0
        self.prior: float = 0.0
        self.weight: float = 0.0
        self.repeat: bool = False


@dataclass(frozen=True, slots=True)
class SearchResult:
    """What a search found: the chosen action and the root's statistics.

    ``stats`` lists ``(action, visits, mean return for the searching seat)`` for every
    root action that was tried, most visited first.
    """

    action: Hashable  # not ``object``: mypyc cannot compile a dataclass field of that type
    simulations: int
    seconds: float
    stats: tuple[tuple[object, int, float], ...]


def softmax(weights: Sequence[float], temperature: float) -> list[float]:
    top = max(weights)
    e = [math.exp((w - top) / temperature) for w in weights]
    total = sum(e)
    return [x / total for x in e]


def checked_step(game: AnyGame, s: object, a: object, p: int | None) -> object:
    """The default step: the game's own validating ``apply``."""
    return game.apply(s, a, p)


#: One chance outcome drawn with its probability: the match runner's own sampler.
sample: Final = sample_outcome
