"""The ``play`` prompt: line editing, history and completion on a terminal.

On a terminal (stdin and stdout both TTYs) lines are read with prompt_toolkit
(``cli/terminal.py``): arrow keys edit, up/down recall earlier lines, Tab completes the
actions legal right now and the prompt's commands. Anywhere else (input piped from a
file or a test) lines are read plainly, one per ``input()``, so scripts drive the game
exactly as before.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Sequence
from contextlib import AbstractContextManager, nullcontext
from typing import TYPE_CHECKING

from rich.console import Console
from rich.text import Text

if TYPE_CHECKING:
    from prompt_toolkit import PromptSession

#: What the prompt understands besides actions (also offered by Tab).
COMMANDS = ("moves", "undo", "board", "legend", "help", "quit")


def completions(text: str, candidates: Iterable[str]) -> list[str]:
    """The candidates that complete ``text`` (case and leading spaces ignored).

    Whole-line matching: actions with spaces (``bid r4c5 r5c4``, ``2 r1c2``) complete as
    one piece, so ``bid r4`` offers every bid that starts with ``r4``.
    """
    typed = " ".join(text.lower().split()) + (" " if text.endswith(" ") and text.strip() else "")
    seen: set[str] = set()
    found: list[str] = []
    for c in candidates:
        if c.lower().startswith(typed) and c not in seen:
            seen.add(c)
            found.append(c)
    return found


def interactive() -> bool:
    """Whether a person sits at a terminal (not input piped from a file or a test)."""
    try:
        return sys.stdin.isatty() and sys.stdout.isatty()
    except (AttributeError, ValueError):  # a replaced or closed stream
        return False


class LineReader:
    """Reads one line at a time; ``None`` when the input ends (Ctrl-D, end of file)."""

    def __init__(self, session: PromptSession[str] | None = None) -> None:
        """Read through ``session`` (by default a new one on a terminal, else none)."""
        self._candidates: Sequence[str] = ()
        if session is None and interactive():
            from sudoku_arena.cli.terminal import new_session

            session = new_session()
        if session is not None:
            from sudoku_arena.cli.terminal import attach

            attach(session, lambda: self._candidates)
        self._session = session

    def read(self, prompt: str, candidates: Sequence[str] = ()) -> str | None:
        """One line after ``prompt``; Tab offers ``candidates`` and the commands."""
        if self._session is None:
            try:
                return input(prompt)
            except EOFError:
                return None
        self._candidates = [*candidates, *COMMANDS]
        try:
            return self._session.prompt(prompt)
        except EOFError:
            return None


def thinking(console: Console, message: str) -> AbstractContextManager[object]:
    """A spinner with ``message`` while a bot thinks (only on a terminal)."""
    if console.is_terminal and interactive():
        return console.status(Text(message), spinner="dots")  # names are not markup
    return nullcontext()
