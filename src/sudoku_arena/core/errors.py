"""Errors raised by Sudoku Arena.

Every error subclasses :class:`ValueError` (bad input is a value problem) through
:class:`ArenaError`, and its message says what was given, why it is refused and, where
it can, what is allowed instead. Callers show ``str(error)`` to people as it is.
"""

from __future__ import annotations

import re


class ArenaError(ValueError):
    """Base class of every error Sudoku Arena raises on purpose."""


class UnknownGameError(ArenaError):
    """A game id that is not registered."""


class InvalidParameterError(ArenaError):
    """A game parameter that is unknown, of the wrong type or out of range."""


class InvalidGridError(InvalidParameterError):
    """A Sudoku grid that is malformed or breaks the Sudoku rule.

    ``where`` names the first bad unit (``"row 3"``, ``"column 7"``, ``"box 5"``) or
    ``"input"`` when the text itself is malformed.
    """

    def __init__(self, message: str, where: str = "input") -> None:
        super().__init__(message)
        self.where = where


class NotationError(ArenaError):
    """Text that is not an action in the game's notation."""


class IllegalActionError(ArenaError):
    """A well-formed action that the rules do not allow in the current state.

    ``action`` is the action as given (text or value) and ``reason`` the rule that
    refuses it; the state the action was tried on is never changed.
    """

    def __init__(self, action: object, reason: str) -> None:
        super().__init__(f"{action!s} is not allowed: {reason}")
        self.action = action
        self.reason = reason


class StateFormatError(ArenaError):
    """A dumped state that cannot be loaded back."""


class RecordError(ArenaError):
    """A game record that is malformed (missing keys, wrong types, unknown version)."""


class ReplayMismatchError(RecordError):
    """Replaying a record did not reproduce it; ``ply`` is the first ply that differs."""

    def __init__(self, ply: int, message: str) -> None:
        super().__init__(f"ply {ply}: {message}")
        self.ply = ply


class UndoError(ArenaError):
    """An undo that the match does not allow (nothing to undo, or a reveal since)."""


class WorkerDiedError(ArenaError):
    """A worker process ended without its result (killed, or out of memory)."""


#: A ruling's ID as the engines cite it in their reasons (TTS-3, SW-13, CS-2, SH-4, CI-7).
_ID = r"(?:TTS|SW|CS|SH|CI)-\d+"
_IDS = rf"{_ID}(?:\s*(?:,|and)\s*{_ID})*"
#: "(SW-4)" or "(SW-3, SW-13)": a parenthesis that only cites.
_ONLY_IDS = re.compile(rf"\s*\(({_IDS})\)")
#: "(SH-4: only empty hexes)": the citation opens an explanation, which stays.
_LEADING_IDS = re.compile(rf"\(({_IDS}):\s*")
#: Any other citation ("SW-10 allows ..."): the rules it names stay named.
_OTHER_IDS = re.compile(rf"\b({_IDS})\b")


def split_rulings(text: str) -> tuple[str, tuple[str, ...]]:
    """``text`` as a player reads it, without the ruling IDs it cites, and those IDs in
    the order cited (once each). The engines cite their rulings in every reason, for
    the library's users and the tests; people get the sentence, and the IDs apart (the
    rules page lists every ruling by its ID)."""
    found: list[str] = []

    def keep(m: re.Match[str], replacement: str) -> str:
        found.extend(re.findall(_ID, m.group(1)))
        return replacement

    plain = _ONLY_IDS.sub(lambda m: keep(m, ""), text)
    plain = _LEADING_IDS.sub(lambda m: keep(m, "("), plain)
    plain = _OTHER_IDS.sub(lambda m: keep(m, "the rules"), plain)
    plain = re.sub(r"\(\s*\)|\s+(?=[,.;:)])", "", plain)
    return plain.strip(), tuple(dict.fromkeys(found))
