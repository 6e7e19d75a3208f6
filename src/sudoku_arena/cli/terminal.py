"""The prompt_toolkit side of the ``play`` prompt, imported only when a person sits at a
terminal (so other commands, and piped games, start without it)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

from prompt_toolkit import PromptSession
from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document
from prompt_toolkit.history import InMemoryHistory
from prompt_toolkit.shortcuts import CompleteStyle

from sudoku_arena.cli.prompt import completions


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


def new_session() -> PromptSession[str]:
    """A prompt with line editing and history; Tab (not typing) opens completion."""
    return PromptSession(
        history=InMemoryHistory(),
        complete_while_typing=False,
        complete_style=CompleteStyle.MULTI_COLUMN,
    )


def attach(session: PromptSession[str], candidates: Callable[[], Sequence[str]]) -> None:
    """Let ``session`` complete from ``candidates()``."""
    session.completer = ActionCompleter(candidates)
