"""Finding a game's value features: the ``features.py`` module of its package.

A game offers a learned evaluation by providing ``sudoku_arena.games.<pkg>.features``
with ``VERSION``, ``feature_size(game)`` and ``value_features(game, state)``, and
optionally ``symmetries(game)`` (the contract is in
:mod:`sudoku_arena.games.tic_tac_sudoku.features`, the first). The module
is found by name, next to the game's rules class, so the game's registration
(``entry.py``) needs no new field. Pure Python: no NumPy here.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass

from sudoku_arena.core.errors import ArenaError, UnknownGameError
from sudoku_arena.core.protocol import AnyGame
from sudoku_arena.core.registry import entry, registered_games

#: The module name, inside a game's package, that holds its value features.
MODULE = "features"


class NoFeaturesError(ArenaError):
    """A game that declares no value features (so no learned evaluation)."""


@dataclass(frozen=True, slots=True)
class FeatureSet:
    """A game's value features: ``values(game, state)`` gives ``size`` floats from the
    point of view of the seat to move; ``version`` names the feature set;
    ``symmetries`` the feature permutations of the game's symmetries (the identity
    alone for a game that declares none)."""

    game_id: str
    module: str
    version: str
    size: int
    values: Callable[..., list[float]]
    symmetries: tuple[tuple[int, ...], ...]


#: The file name of a game's shipped weights, in the package beside its features.
PACKAGE_FILE = "value.npz"


def features_module(rules: object) -> str:
    """The module where the game whose rules class (or game object) is ``rules`` keeps
    its features: ``features`` next to the module that defines it."""
    module = str(getattr(rules, "__module__", None) or type(rules).__module__)
    package = module.rpartition(".")[0] or module
    return f"{package}.{MODULE}"


def _import(name: str) -> object | None:
    """The module ``name``, or ``None`` if it (or its package) does not exist; an error
    raised inside an existing module is not hidden."""
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        missing = exc.name or ""
        if name == missing or name.startswith(missing + "."):
            return None
        raise


def games_with_features() -> list[str]:
    """The ids of the registered games that declare value features."""
    found = []
    for spec in registered_games():
        try:
            rules = entry(spec.id).rules
        except (ArenaError, ImportError):
            continue
        if _import(features_module(rules)) is not None:
            found.append(spec.id)
    return found


def features_for(game: AnyGame) -> FeatureSet:
    """The value features of ``game``; raises :class:`NoFeaturesError` (saying which
    games have them) for a game without, or with a broken ``features.py``."""
    name = features_module(game)
    module = _import(name)
    if module is None:
        have = ", ".join(games_with_features()) or "none"
        raise NoFeaturesError(
            f"{game.spec.id} has no value features ({name} does not exist), so no learned "
            f"evaluation; games that have them: {have}"
        )
    version = getattr(module, "VERSION", None)
    size_of = getattr(module, "feature_size", None)
    values = getattr(module, "value_features", None)
    if not isinstance(version, str) or not callable(size_of) or not callable(values):
        raise NoFeaturesError(
            f"{name} must define VERSION (a string), feature_size(game) and "
            "value_features(game, state)"
        )
    size = size_of(game)
    if not isinstance(size, int) or size < 1:
        raise NoFeaturesError(f"{name}.feature_size gave {size!r}; it must be an int >= 1")
    if game.num_players != 2:
        raise NoFeaturesError(
            f"learned evaluations are for two seats; this {game.spec.id} has "
            f"{game.num_players} (build it with players=2)"
        )
    identity = tuple(range(size))
    perms = getattr(module, "symmetries", None)
    found = [tuple(p) for p in perms(game)] if callable(perms) else [identity]
    if not found or found[0] != identity or any(sorted(p) != list(identity) for p in found):
        raise NoFeaturesError(
            f"{name}.symmetries must give permutations of the {size} features, the identity first"
        )
    return FeatureSet(game.spec.id, name, version, size, values, tuple(found))


def has_features(game: AnyGame) -> bool:
    """Whether ``game`` declares value features (without saying why not)."""
    try:
        features_for(game)
    except (NoFeaturesError, UnknownGameError):
        return False
    return True
