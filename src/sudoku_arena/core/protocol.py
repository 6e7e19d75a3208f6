"""The game protocol: the one contract every rules engine meets.

Generic code (the match runner, records, bots, the CLI, the web server, analysis and
the RL adapters) talks to games only through :class:`Game`. A game object is immutable
configuration (its resolved parameters); all play state lives in immutable state values
``S`` that the game's pure functions read and return. Actions ``A`` are small hashable
values with a canonical text notation and a stable integer index.

What the project needs besides the rules (renderers, bots, search knowledge) is not
part of this contract: a game registers it beside the rules in one
:class:`~sudoku_arena.core.entry.GameEntry`.

Conformance to this contract is checked for every registered game by
:mod:`sudoku_arena.testing`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction
from typing import Any, ClassVar, Protocol, TypeAlias, TypeVar, runtime_checkable

from sudoku_arena.core.params import ParamValue
from sudoku_arena.core.types import GameSpec, JsonDict, Outcome, ToMove

S = TypeVar("S")
A = TypeVar("A")


@runtime_checkable
class Game(Protocol[S, A]):
    """A rules engine.

    Invariants every implementation keeps:

    * Purity. No method mutates its arguments or the game; ``apply`` returns a new state.
      States are hashable, compare by value and survive ``load_state(dump_state(s))``.
    * Validation. ``apply`` checks every action against the rules and raises
      :class:`~sudoku_arena.core.errors.IllegalActionError` (input and reason) without
      changing anything; ``parse_action`` raises
      :class:`~sudoku_arena.core.errors.NotationError` for text that is not an action.
    * Chance. At a chance node ``chance_outcomes`` lists every outcome with its exact
      probability (they sum to 1); the rules never draw random numbers themselves.
    * Secrecy. ``view(s, observer)`` holds exactly what ``observer`` may see (``None``
      is a spectator who sees only public information). Two states that differ only in
      what ``observer`` cannot see give equal views.
    * Determinisation. ``determinize(s, observer, rng)`` returns a state that the
      observer cannot tell from ``s`` (equal view, equal legal actions for him) with
      every hidden part re-dealt at random, consistent with what he has seen. Games
      without hidden information return ``s``.
    """

    #: What the game is; generic code branches on these facts, never on ids.
    spec: ClassVar[GameSpec]

    @property
    def params(self) -> dict[str, ParamValue]:
        """The resolved parameters (JSON values) that rebuild this game via ``load``."""
        ...

    @property
    def num_players(self) -> int:
        """How many seats play (seats are numbered ``0 .. num_players - 1``)."""
        ...

    def initial_state(self) -> S:
        """The state before the first action; it may be a chance node (a setup roll)."""
        ...

    def to_move(self, s: S) -> ToMove:
        """Whether ``s`` is a decision, chance or terminal node, and who may act."""
        ...

    def legal_actions(self, s: S, player: int) -> Sequence[A]:
        """Every action ``player`` may take in ``s``, in a stable order.

        Empty when ``player`` may not act now. At a chance node use
        ``chance_outcomes`` instead.
        """
        ...

    def chance_outcomes(self, s: S) -> Sequence[tuple[A, Fraction]]:
        """At a chance node: each outcome with its exact probability, summing to 1."""
        ...

    def apply(self, s: S, a: A, player: int | None = None) -> S:
        """Return the state after ``player`` takes ``a`` in ``s``; validates fully.

        ``player`` is the acting seat (``None`` for chance; at a decision node with one
        seat to move it may be omitted). Raises ``IllegalActionError`` when ``a`` is not
        legal for that player now.
        """
        ...

    def returns(self, s: S) -> tuple[float, ...]:
        """One value per seat: at a terminal state 1 for a sole winner, ``1/k`` for each
        of ``k`` sharing winners, 0 for losers (all 0 on a draw); zeros before the end.
        Solo games return the final score scaled into ``[0, 1]``."""
        ...

    def outcome(self, s: S) -> Outcome | None:
        """How the game ended (winners, scores, reason), or ``None`` while it goes on."""
        ...

    def view(self, s: S, observer: int | None) -> JsonDict:
        """What ``observer`` sees of ``s`` as JSON values (``None``: a spectator).

        Renderers draw only from views. A view includes ``"to_move"`` and, for the seats
        the observer may act for, the legal actions in notation. In a game with neither
        hidden information nor simultaneous moves every observer's view is the public
        one apart from its ``"observer"`` field (the server builds one per position; the
        conformance suite checks it).
        """
        ...

    def determinize(self, s: S, observer: int, rng: random.Random) -> S:
        """A state ``observer`` cannot tell from ``s``, hidden parts re-dealt at random."""
        ...

    def format_action(self, a: A) -> str:
        """The canonical notation of ``a`` (``parse_action`` reads it back)."""
        ...

    def parse_action(self, text: str) -> A:
        """The action written as ``text``; tolerant of case and spacing, else raises."""
        ...

    def public_action(self, text: str) -> str:
        """How the logged action ``text`` reads to people who may not see everything.

        Move logs shown to seats and spectators pass every entry through this. Chance
        outcomes that deal a secret are redacted (``draw 5`` reads ``draw``); every
        other action is returned unchanged.
        """
        ...

    def encode_action(self, a: A) -> int:
        """A stable index in ``range(spec.num_distinct_actions)``."""
        ...

    def decode_action(self, index: int) -> A:
        """The action with index ``index``; raises ``NotationError`` out of range."""
        ...

    def dump_state(self, s: S) -> JsonDict:
        """``s`` as JSON values; ``load_state`` reads it back equal."""
        ...

    def load_state(self, data: JsonDict) -> S:
        """The state dumped as ``data``; raises ``StateFormatError`` when malformed."""
        ...


#: A game whose state and action types are chosen at run time (by id, from a record or
#: a request). Generic code (the match runner, the search, the server) holds games this
#: way: their methods are checked, their states and actions stay opaque and are only
#: handed back to the game that made them. ``Any`` rather than ``object`` for those:
#: each game's precisely typed functions must fit the generic slots.
AnyGame: TypeAlias = Game[Any, Any]
