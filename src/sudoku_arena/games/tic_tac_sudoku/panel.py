"""Tic-Tac-Sudoku's exploit panel: scripted strategies, each probing one weak spot.

Played as ``panel:NAME`` (with the generic ``panel:lowest`` and ``panel:highest``; see
``sudoku_arena.ai.panel``). Each picks the legal cell with the lowest key of its rule;
equal keys are broken by its seeded generator. An action is a cell, ``9 * row + col``.
"""

from __future__ import annotations

from sudoku_arena.core.entry import AgentFactory
from sudoku_arena.core.scripted import Scripted
from sudoku_arena.games.tic_tac_sudoku.agents import best_gain, gain
from sudoku_arena.games.tic_tac_sudoku.game import TicTacSudoku, TTSState

#: The last cell of the board: the point-mirror of cell ``c`` is ``LAST - c``.
LAST = 80


def _rc(cell: int) -> tuple[int, int]:
    return divmod(cell, 9)


class Centre(Scripted):
    """The legal cell nearest the middle of the board (r5c5), by straight distance.

    Probes: the centre. It heads for the centre box b5 and the middle of every line of
    boxes, paying the centre rule's X-out (TTS-5) when it gets there; the bot must
    neither give up the middle of the big board nor fall for the X-out itself."""

    name = "panel:centre"

    def choose(self, game: TicTacSudoku, state: TTSState, player: int, legal: list[int]) -> int:
        def key(a: int) -> int:
            r, c = _rc(a)
            return (r - 4) ** 2 + (c - 4) ** 2

        return self.lowest(legal, key)


class Near(Scripted):
    """The legal cell nearest its own open symbol (king's steps), then the lowest index.

    Probes: compact play. Keeping every symbol next to the last one fills small lines
    and boxes (the Map) quickly; it is what ``panel:lowest`` does by accident, here on
    purpose and anywhere on the board."""

    name = "panel:near"

    def choose(self, game: TicTacSudoku, state: TTSState, player: int, legal: list[int]) -> int:
        o = state.open[player]
        if o < 0:
            return min(legal)
        orow, ocol = _rc(o)

        def key(a: int) -> tuple[int, int]:
            r, c = _rc(a)
            return max(abs(r - orow), abs(c - ocol)), a

        return self.lowest(legal, key)


class Mirror(Scripted):
    """The point-mirror (through r5c5) of the opponent's open symbol when that cell is
    legal, else the lowest legal index.

    Probes: symmetry. Answering every line with its mirror image on the far side keeps
    the position even; the bot has to break the symmetry to win."""

    name = "panel:mirror"

    def choose(self, game: TicTacSudoku, state: TTSState, player: int, legal: list[int]) -> int:
        theirs = state.open[1 - player]
        if theirs >= 0 and LAST - theirs in legal:
            return LAST - theirs
        return min(legal)


class Score(Scripted):
    """The cell with the best immediate gain for itself (points, +3 for a Map mark, a
    win above all), ignoring what it leaves the opponent.

    Probes: threats. ``greedy`` without its blocking tie-break: a bot that lets a
    score-only player complete his lines and Map marks loses races it should win."""

    name = "panel:score"

    def choose(self, game: TicTacSudoku, state: TTSState, player: int, legal: list[int]) -> int:
        return self.lowest(legal, lambda a: -gain(game, state, game.apply(state, a), player))


class Block(Scripted):
    """The cell that leaves the opponent the smallest best immediate gain, ignoring its
    own points.

    Probes: denial. It never scores on purpose; it takes the spaces the opponent's next
    symbol needs. The bot must still score against a player who only spoils."""

    name = "panel:block"

    def choose(self, game: TicTacSudoku, state: TTSState, player: int, legal: list[int]) -> int:
        opp = 1 - player

        def key(a: int) -> int:
            after = game.apply(state, a)
            return best_gain(game, after, opp) if after.current == opp else 0

        return self.lowest(legal, key)


#: The game's own panel strategies, by bare name (``GameEntry.panel``).
PANEL: dict[str, AgentFactory] = {
    "centre": Centre,
    "near": Near,
    "mirror": Mirror,
    "score": Score,
    "block": Block,
}
