"""Cat Sudoku's exploit panel: scripted wild and writing policies, each probing one
weak spot.

Played as ``panel:NAME`` (with the generic ``panel:lowest``, which writes the smallest
value into the first square in reading order and takes the "1+" box of the smallest
value, and ``panel:highest``; see ``sudoku_arena.ai.panel``). Players touch each other
only through the active player's wild (CS-4) and the shared Wild Counter, so most
strategies differ in the wild; they write their numbers as :class:`Score` does, the
least penalty first, unless their rule is about writing. Equal keys are broken by the
strategy's seeded generator. Solo they play too (the copy and the spite then write and
choose as :class:`Score`), but there is nobody to probe: the exploit preset plays them
with two players or more.
"""

from __future__ import annotations

from sudoku_arena.core.entry import AgentFactory
from sudoku_arena.core.scripted import Scripted
from sudoku_arena.games.cat_sudoku.game import NOWILD, WILD, CatSudoku, CSState, wild_parts
from sudoku_arena.games.cat_sudoku.game import write_parts as _parts


def write_parts(game: CatSudoku, a: int) -> tuple[int, int]:
    """``(value, square)`` of write action ``a`` (the square as a sheet index)."""
    v, r, c = _parts(a)
    return v, r * game.board.cols + c


def write_key(game: CatSudoku, s: CSState, p: int, a: int) -> tuple[int, bool]:
    """What write ``a`` costs ``p``: the growth of his deduction (CS-8, exact), then
    whether it spends a wild die (plain dice first keep the wild ones free)."""
    v, i = write_parts(game, a)
    return game.board.write_delta(s.sheets[p], i, v, game.per_segment), not s.left[p][v]


def wild_dice(s: CSState, a: int) -> int:
    """How many of the rolled dice wild action ``a`` makes wild (0 for ``nowild``)."""
    return 0 if a == NOWILD else s.dice.count(wild_parts(a)[2])


def writes_cost(game: CatSudoku, s: CSState, p: int) -> int:
    """What ``p``'s dice of this turn cost him when he writes each the least penalty
    first (ties: lowest index), the others' writes left out."""
    total = 0
    while True:
        legal = game.legal_actions(s, p)
        if not legal:
            return total
        a = min(legal, key=lambda a: (*write_key(game, s, p, a), a))
        total += write_key(game, s, p, a)[0]
        s = game.apply(s, a, p)


class _CatScripted(Scripted):
    """The wild (active player) by :meth:`wild`, every write by :meth:`write`; both
    default to :class:`Score`'s rule."""

    def choose(self, game: CatSudoku, state: CSState, player: int, legal: list[int]) -> int:
        if state.phase == WILD:
            return self.wild(game, state, player, legal)
        return self.write(game, state, player, legal)

    def wild(self, game: CatSudoku, state: CSState, player: int, legal: list[int]) -> int:
        """The most dice wild (for itself, and so for everybody); a numbered box before
        a blank one."""
        return self.lowest(
            legal, lambda a: (-wild_dice(state, a), a != NOWILD and wild_parts(a)[1])
        )

    def write(self, game: CatSudoku, state: CSState, player: int, legal: list[int]) -> int:
        """The write that adds the least to its deduction, plain dice first."""
        return self.lowest(legal, lambda a: write_key(game, state, player, a))


class Score(_CatScripted):
    """Every write the least penalty now (plain dice first); as active player the wild
    that makes the most dice wild. Nothing else: no look at the squares a write
    narrows, nor at the others.

    Probes: short-sighted play on its own sheet. It is ``greedy`` without the
    tie-breaks that keep squares open; the bot must beat it on its own sheet, where
    the wild it hands out helps both alike."""

    name = "panel:score"


class Reading(_CatScripted):
    """A fixed writing order: the first square it may write into in reading order, with
    the value that adds least there; the wild as :class:`Score`.

    Probes: a predictable writer. Its sheet fills row by row whatever the dice, so the
    squares it leaves are known in advance; the bot's wilds should serve its own sheet
    rather than this one."""

    name = "panel:reading"

    def write(self, game: CatSudoku, state: CSState, player: int, legal: list[int]) -> int:
        first = min(write_parts(game, a)[1] for a in legal)
        here = [a for a in legal if write_parts(game, a)[1] == first]
        return self.lowest(here, lambda a: write_key(game, state, player, a))


class Copy(_CatScripted):
    """Copies the leading other player's sheet: a value he has written into a square
    it may still write the same value into (the cheapest such write), else the
    :class:`Score` write; the wild as :class:`Score`.

    Probes: a shadow. When the copied sheet is the bot's, only the wild and the order
    of the writes separate the two sheets; a bot that cannot pull ahead of its own
    shadow draws where it should win."""

    name = "panel:copy"

    def write(self, game: CatSudoku, state: CSState, player: int, legal: list[int]) -> int:
        others = [q for q in range(game.num_players) if q != player]
        if not others:  # solo: nobody to copy
            return super().write(game, state, player, legal)
        leader = max(others, key=lambda q: (game.score(state, q), -q))
        theirs = state.sheets[leader]
        same = [a for a in legal if theirs[write_parts(game, a)[1]] == write_parts(game, a)[0]]
        return self.lowest(same or legal, lambda a: write_key(game, state, player, a))


class Spite(_CatScripted):
    """As active player the wild after which the others' dice cost them most (each
    writing the least penalty first), ignoring its own sheet; writes as :class:`Score`.

    Probes: denial through the one choice that reaches the other sheets. The bot must
    keep its sheet clean with the dice a spoiler leaves it."""

    name = "panel:spite"

    def wild(self, game: CatSudoku, state: CSState, player: int, legal: list[int]) -> int:
        others = [q for q in range(game.num_players) if q != player]
        # The writes depend only on the value made wild: one play-out per value.
        cost: dict[int, int] = {}
        for a in legal:
            v = 0 if a == NOWILD else wild_parts(a)[2]
            if v not in cost:
                after = game.apply(state, a, player)
                cost[v] = sum(writes_cost(game, after, q) for q in others)
        return self.lowest(legal, lambda a: -cost[0 if a == NOWILD else wild_parts(a)[2]])


class NoWild(_CatScripted):
    """Declines the wild where the rules allow it (option ``wild_optional``), else
    takes the box that makes the fewest dice wild, a numbered box first; writes as
    :class:`Score`.

    Probes: stinginess. It hands nobody a wild die it can avoid; the bot must write
    well with plain dice on the turns that are not its own."""

    name = "panel:nowild"

    def wild(self, game: CatSudoku, state: CSState, player: int, legal: list[int]) -> int:
        if NOWILD in legal:
            return NOWILD
        return self.lowest(legal, lambda a: (wild_dice(state, a), wild_parts(a)[1]))


#: The game's own panel strategies, by bare name (``GameEntry.panel``).
PANEL: dict[str, AgentFactory] = {
    "score": Score,
    "reading": Reading,
    "copy": Copy,
    "spite": Spite,
    "nowild": NoWild,
}
