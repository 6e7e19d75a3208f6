"""A game's one registration: its rules and the companions that sit on top of them.

The rules engine (:class:`~sudoku_arena.core.protocol.Game`) knows only the rules. What
the rest of the project needs besides (how to draw a view, which bots the game brings,
what the search should know about it) is registered beside the rules in one typed
:class:`GameEntry` per game, defined in the game package's ``entry.py``. Generic code
asks the registry for the entry (``registry.entry_of(game)``) instead of asking the
rules for drawings or bots, so a rules module never imports its renderer or its bots.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Generic, Protocol, TypeVar

from sudoku_arena.core.agent import Agent
from sudoku_arena.core.params import ParamValue
from sudoku_arena.core.protocol import AnyGame
from sudoku_arena.core.search import SearchHints
from sudoku_arena.core.types import GameSpec, JsonDict

G = TypeVar("G", bound=AnyGame)

#: Builds the rules engine from resolved parameters (the game's class).
RulesFactory = Callable[[dict[str, ParamValue]], G]


class TextRenderer(Protocol):
    """Draws a view as text for a terminal (ANSI colours when ``color``)."""

    def __call__(self, view: JsonDict, *, color: bool = False) -> str: ...


#: Draws a view as an SVG document; every element a person can click to act carries
#: ``data-action`` with the action's notation, so one generic script plays every game.
SvgRenderer = Callable[[JsonDict], str]

#: The named positions a game's rules page draws (``{{diagram: NAME}}`` in its RULES.md):
#: name -> a view (``game.view(state, None)`` of a position reached by playing actions
#: through the engine), drawn by the entry's ``render_svg`` with its click targets removed.
FigureSource = Callable[[], Mapping[str, JsonDict]]

#: Words for an action that has no place on the board, for the button that plays it:
#: ``"end"`` -> ``("End turn", "Finish your turn; your opponent moves next")`` (label,
#: one-line tooltip); ``None`` for actions the board shows.
ButtonWords = Callable[[str], "tuple[str, str] | None"]

#: Returns the text of the game's tutorial lessons file (the format of
#: :mod:`sudoku_arena.core.lessons`; ``sudoku_arena.core.lessons.packaged`` reads one
#: shipped in the game's package).
LessonSource = Callable[[], str]

#: What the seat to move is to do now, in one sentence, from that seat's own view
#: (``game.view(state, seat)``): the kind of decision, the numbers and places it is
#: about, what the board lights for it, and the second click of a two-step move. It
#: reads nothing but the view, so it can tell nothing the seat may not know; ``""``
#: when the view gives the seat nothing to do.
Guide = Callable[[JsonDict], str]

#: An action's notation in words, for a person reading a button or the move log:
#: ``"h37"`` -> ``"hilltop below row 3, right of column 7"``. Given the text as the
#: reader sees it (a log entry another seat may not read in full is explained as
#: shown: ``"draw"``), so it reveals nothing; ``""`` for text it cannot read.
Explain = Callable[[str], str]

#: Builds an agent: ``(game, seed)`` or ``(game, seed, arg=TEXT)`` for ``name:TEXT``.
AgentFactory = Callable[..., Agent]


@dataclass(frozen=True)
class GameEntry(Generic[G]):
    """Everything registered for one game.

    ``spec`` says what the game is (the rules class's ``spec``); ``rules`` builds the
    engine from resolved parameters; ``render_svg`` draws the board only and
    ``render_panel`` what goes beside it (scores, hands, dice: the sidebar on a wide
    screen, below the board on a phone), both from a view; ``render_text`` draws a view
    for a terminal;
    ``button_words`` names in words the actions played by a button beside the board;
    ``legend`` says what the board's symbols mean (an icon as SVG, and words);
    ``agents`` are the game's own bots by name (``"greedy"``); ``panel`` its scripted
    strategies for the exploit panel by bare name (``"centre"``, played as
    ``panel:centre``; see ``sudoku_arena.ai.panel``), which are not offered as bots;
    ``search_hints`` gives the search its knowledge of the game (``None``: the search's
    defaults); ``figures`` the positions its rules page shows (``None``: none);
    ``lessons`` its tutorial (``None``: none; see :mod:`sudoku_arena.core.lessons`);
    ``guide`` says what the seat to move is to do now and ``explain`` reads an action's
    notation in words (``None``: the game has none; see :data:`Guide`, :data:`Explain`).
    """

    spec: GameSpec
    rules: RulesFactory[G]
    render_text: TextRenderer
    render_svg: SvgRenderer
    render_panel: SvgRenderer | None = None
    button_words: ButtonWords | None = None
    legend: tuple[tuple[str, str], ...] = ()
    agents: Mapping[str, AgentFactory] = field(default_factory=dict)
    panel: Mapping[str, AgentFactory] = field(default_factory=dict)
    search_hints: Callable[[G], SearchHints] | None = None
    figures: FigureSource | None = None
    lessons: LessonSource | None = None
    guide: Guide | None = None
    explain: Explain | None = None

    def buttons(self, view: JsonDict) -> dict[str, tuple[str, str]]:
        """Words for the legal actions in ``view`` that are played by a button."""
        words = self.button_words
        if words is None:
            return {}
        out: dict[str, tuple[str, str]] = {}
        for action in view.get("legal", ()):
            said = words(action)
            if said is not None:
                out[action] = said
        return out
