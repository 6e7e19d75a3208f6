"""Shared plumbing for game implementations (not part of the protocol itself).

:class:`BaseGame` stores the resolved parameters and supplies the defaults that most
games share: no chance, no hidden information, returns derived from the outcome, and
the check that the acting seat is one that may act.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Sequence
from fractions import Fraction
from types import ModuleType
from typing import Any, ClassVar, Generic, TypeVar

from sudoku_arena.core.errors import IllegalActionError, NotationError
from sudoku_arena.core.params import ParamValue
from sudoku_arena.core.types import GameSpec, JsonDict, Outcome, ToMove

S = TypeVar("S")
A = TypeVar("A")


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

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._params!r})"

    # -- defaults ---------------------------------------------------------------------

    def chance_outcomes(self, s: S) -> Sequence[tuple[A, Fraction]]:
        return ()

    def determinize(self, s: S, observer: int, rng: random.Random) -> S:
        return s

    # -- companions found by convention ------------------------------------------------
    # A game's package holds ``render.py`` (``render_text``, ``render_svg``) and may hold
    # ``agents.py`` (``AGENTS``: name -> factory) beside its engine. They are imported on
    # first use, so loading an engine stays cheap and free of drawing code.

    def _companion(self, name: str) -> ModuleType | None:
        package = type(self).__module__.rpartition(".")[0]
        try:
            return importlib.import_module(f"{package}.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"{package}.{name}":
                raise  # the module exists but an import inside it failed
            return None

    def render_text(self, view: JsonDict, *, color: bool = False) -> str:
        module = self._companion("render")
        if module is None:
            raise NotImplementedError(f"{self.spec.id} has no render.py")
        text: str = module.render_text(view, color=color)
        return text

    def render_svg(self, view: JsonDict) -> str:
        module = self._companion("render")
        if module is None:
            raise NotImplementedError(f"{self.spec.id} has no render.py")
        svg: str = module.render_svg(view)
        return svg

    def agent_factories(self) -> dict[str, Any]:
        module = self._companion("agents")
        return dict(getattr(module, "AGENTS", {})) if module is not None else {}

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

    def decode_range_check(self, index: int) -> None:
        """Raise ``NotationError`` when ``index`` is not a valid action index."""
        if not isinstance(index, int) or not 0 <= index < self.spec.num_distinct_actions:
            raise NotationError(
                f"action index {index!r} is out of range; allowed: 0 to "
                f"{self.spec.num_distinct_actions - 1}"
            )
