"""Shared plumbing for game implementations (not part of the protocol itself).

:class:`BaseGame` stores the resolved parameters and supplies the defaults that most
games share: no chance, no hidden information, returns derived from the outcome, and
the check that the acting seat is one that may act.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction
from typing import ClassVar, Generic, TypeVar

from mypy_extensions import mypyc_attr

from sudoku_arena.core.errors import IllegalActionError, InvalidParameterError, NotationError
from sudoku_arena.core.params import ParamValue
from sudoku_arena.core.types import GameSpec, Outcome, ToMove

S = TypeVar("S")
A = TypeVar("A")


# Compiled with mypyc; games written elsewhere (plain Python) may still build on it.
@mypyc_attr(allow_interpreted_subclasses=True)
class BaseGame(Generic[S, A]):
    """Base class with the protocol's common defaults; subclasses set ``spec``."""

    spec: ClassVar[GameSpec]

    def __init__(self, params: dict[str, ParamValue]) -> None:
        self._params = dict(params)
        players = params.get("players", self.spec.min_players)
        assert isinstance(players, int)
        self._num_players = players

    @property
    def params(self) -> dict[str, ParamValue]:
        return dict(self._params)

    @property
    def num_players(self) -> int:
        return self._num_players

    def int_param(self, name: str, default: int) -> int:
        """The integer parameter ``name`` (``default`` when it was not given)."""
        value = self._params.get(name, default)
        if isinstance(value, bool) or not isinstance(value, int):
            raise InvalidParameterError(f"{name} must be a whole number, not {value!r}")
        return value

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._params!r})"

    # -- defaults ---------------------------------------------------------------------

    def chance_outcomes(self, s: S) -> Sequence[tuple[A, Fraction]]:
        return ()

    def determinize(self, s: S, observer: int, rng: random.Random) -> S:
        return s

    def public_action(self, text: str) -> str:
        return text

    def outcome(self, s: S) -> Outcome | None:  # pragma: no cover - every game overrides
        raise NotImplementedError

    def returns(self, s: S) -> tuple[float, ...]:
        out = self.outcome(s)
        n = self._num_players
        if out is None or not out.winners:
            return (0.0,) * n
        share = 1.0 / len(out.winners)
        return tuple(share if p in out.winners else 0.0 for p in range(n))

    # -- helpers for subclasses ---------------------------------------------------------

    def acting_player(self, to_move: ToMove, player: int | None, action: object) -> int:
        """Return the seat that acts, refusing chance/terminal nodes and wrong seats."""
        if to_move.is_terminal:
            raise IllegalActionError(action, "the game is over")
        if to_move.is_chance:
            if player is not None:
                raise IllegalActionError(action, "this is a chance node; no player acts")
            raise IllegalActionError(action, "this is a chance node; use a chance outcome")
        if player is None:
            if len(to_move.players) == 1:
                return to_move.players[0]
            raise IllegalActionError(action, "several players may act; say which one")
        if player not in to_move.players:
            allowed = ", ".join(f"seat {p}" for p in to_move.players)
            raise IllegalActionError(action, f"seat {player} may not act now (to move: {allowed})")
        return player

    def action_index(self, a: object) -> int:
        """``a`` if it is an action index (an ``int``; a ``bool`` is not one), else
        ``IllegalActionError``.

        ``apply`` takes its action as ``object`` and narrows it here: the compiled
        build checks argument types on entry, so an ``int`` parameter would meet a
        string with ``TypeError`` instead of the refusal the pure build gives.
        """
        if type(a) is int:
            return a
        raise IllegalActionError(
            repr(a),
            f"not an action index: give an int from 0 to {self.spec.num_distinct_actions - 1}"
            " (parse_action reads an action written in notation)",
        )

    def decode_range_check(self, index: int) -> None:
        """Raise ``NotationError`` when ``index`` is not a valid action index."""
        if not isinstance(index, int) or not 0 <= index < self.spec.num_distinct_actions:
            raise NotationError(
                f"action index {index!r} is out of range; allowed: 0 to "
                f"{self.spec.num_distinct_actions - 1}"
            )
