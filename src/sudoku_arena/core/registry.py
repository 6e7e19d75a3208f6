"""The registry of games: ids to their entries, loaded on first use.

Built-in games are listed by import path so that importing the package stays cheap and
so that a game's modules are only imported when somebody plays it. ``register`` adds
games from outside the package (plugins, tests). Each game registers one
:class:`~sudoku_arena.core.entry.GameEntry`: its rules and their companions.

``load`` returns the game as :data:`~sudoku_arena.core.entry.AnyGame`, since the id is a
run-time value; ``sudoku_arena.games.load`` returns the precise class for a literal id.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Mapping

from sudoku_arena.core.entry import GameEntry
from sudoku_arena.core.errors import UnknownGameError
from sudoku_arena.core.fairness import public_seed
from sudoku_arena.core.params import resolve_params
from sudoku_arena.core.protocol import AnyGame
from sudoku_arena.core.types import GameSpec, JsonDict

_BUILTIN: dict[str, str] = {
    "citadel": "sudoku_arena.games.citadel.entry",
    "tic-tac-sudoku": "sudoku_arena.games.tic_tac_sudoku.entry",
    "cat-sudoku": "sudoku_arena.games.cat_sudoku.entry",
    "sudokuhex": "sudoku_arena.games.sudokuhex.entry",
    "sudoku-warriors": "sudoku_arena.games.sudoku_warriors.entry",
}

_entries: dict[str, GameEntry[AnyGame]] = {}


def register(entry: GameEntry[AnyGame]) -> GameEntry[AnyGame]:
    """Register a game's entry; its ``spec.id`` is the key (an earlier one is replaced)."""
    _entries[entry.spec.id] = entry
    return entry


def unregister(game_id: str) -> None:
    """Forget a game registered with :func:`register` (built-in games come back)."""
    _entries.pop(game_id, None)


def entry(game_id: str) -> GameEntry[AnyGame]:
    """The entry registered under ``game_id``; raises ``UnknownGameError``."""
    if game_id in _entries:
        return _entries[game_id]
    if game_id in _BUILTIN:
        found: GameEntry[AnyGame] = importlib.import_module(_BUILTIN[game_id]).ENTRY
        _entries[game_id] = found
        return found
    known = ", ".join(sorted(set(_BUILTIN) | set(_entries)))
    raise UnknownGameError(f"no game called {game_id!r}; known games: {known}")


def entry_of(game: AnyGame) -> GameEntry[AnyGame]:
    """The entry of a game object (its renderers, bots and search knowledge)."""
    return entry(game.spec.id)


def registered_games() -> tuple[GameSpec, ...]:
    """The spec of every registered game, sorted by id."""
    ids = sorted(set(_BUILTIN) | set(_entries))
    return tuple(entry(i).spec for i in ids)


def spec_of(game_id: str) -> GameSpec:
    """The spec of one game."""
    return entry(game_id).spec


def load(game_id: str, *, seed: int | None = None, **params: object) -> AnyGame:
    """Build the game ``game_id`` with ``params``.

    Parameters not given take their defaults; generated ones (a Sudoku grid, a Cat
    Sudoku sheet) are drawn from ``seed`` (0 when ``None``), so ``load(id)`` is
    reproducible. This is the one derivation from a seed to a game's public set-up:
    the command line, the lab, print and play and the PettingZoo and OpenSpiel adapters
    all build their games here, so the same seed shows the same board everywhere (and a
    :class:`~sudoku_arena.core.match.Match` with that seed the same chance). Strings are
    accepted for every parameter (command-line input) and converted. Raises
    ``UnknownGameError`` or ``InvalidParameterError`` with what is allowed.
    """
    return build(game_id, params, seed)


def build(game_id: str, params: Mapping[str, object], seed: int | None = None) -> AnyGame:
    """Like :func:`load`, with the parameters as a mapping."""
    found = entry(game_id)
    # The set-up draws from public_seed(seed), a value unrelated to the chance secret a
    # Match derives from the same seed (secret_from_seed): the board says nothing of the
    # dice.
    rng = random.Random(public_seed(seed or 0))
    return found.rules(resolve_params(found.spec.params, params, rng))


def render_text(game: AnyGame, view: JsonDict, *, color: bool = False) -> str:
    """``view`` of ``game`` drawn as text by the game's registered renderer."""
    return entry_of(game).render_text(view, color=color)


def render_svg(game: AnyGame, view: JsonDict) -> str:
    """``view`` of ``game`` drawn as an SVG document by the game's registered renderer."""
    return entry_of(game).render_svg(view)
