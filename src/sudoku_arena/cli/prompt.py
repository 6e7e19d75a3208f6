"""The ``play`` prompt: line editing, history and completion on a terminal.

On a terminal (stdin and stdout both TTYs) lines are read with prompt_toolkit: arrow
keys edit, up/down recall earlier lines, Tab completes the actions legal right now and
the prompt's commands. Anywhere else (input piped from a file or a test) lines are read
plainly, one per ``input()``, so scripts drive the game exactly as before.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager, nullcontext

from prompt_toolkit import PromptSession
from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document
from prompt_toolkit.history import InMemoryHistory
from prompt_toolkit.shortcuts import CompleteStyle
from rich.console import Console

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


class ActionCompleter(Completer):
    """Completes the whole line from ``candidates()``, asked afresh at each Tab."""

    def __init__(self, candidates: Callable[[], Sequence[str]]) -> None:
        self.candidates = candidates

    def get_completions(
        self, document: Document, complete_event: CompleteEvent
    ) -> Iterator[Completion]:
        text = document.text_before_cursor
        for c in completions(text, self.candidates()):
            yield Completion(c, start_position=-len(text))


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
            session = PromptSession(
                history=InMemoryHistory(),
                complete_while_typing=False,
                complete_style=CompleteStyle.MULTI_COLUMN,
            )
        if session is not None:
            session.completer = ActionCompleter(lambda: self._candidates)
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
        return console.status(message, spinner="dots")
    return nullcontext()
