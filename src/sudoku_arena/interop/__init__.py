"""Doors for researchers: the games as PettingZoo environments and OpenSpiel games.

* :mod:`sudoku_arena.interop.pettingzoo`: ``env("sudokuhex", players=3)``, an AEC
  environment per game and player count (extra ``[rl]``: pettingzoo, gymnasium, numpy).
* :mod:`sudoku_arena.interop.openspiel`: importing it registers every game as the
  OpenSpiel game ``sudoku_arena_<id>`` (extra ``[openspiel]``).
* :mod:`sudoku_arena.interop.features`: the fixed-shape numbers both build from a
  seat's view (no extra needed).

Both adapters see a game only through its protocol and build everything a seat
receives from ``game.view(state, seat)``, so they cannot tell a seat a secret. Importing
this package imports neither library; see docs/interop.md.
"""

from __future__ import annotations

from importlib import import_module
from types import ModuleType


def require(module: str, extra: str) -> ModuleType:
    """Import ``module`` or raise ``ImportError`` naming the extra that installs it."""
    try:
        return import_module(module)
    except ImportError as exc:
        raise ImportError(
            f"{module} is not installed; it comes with the optional extra: "
            f"pip install 'sudoku-arena[{extra}]'"
        ) from exc


__all__ = ["require"]
