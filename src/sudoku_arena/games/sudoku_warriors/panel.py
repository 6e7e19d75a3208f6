"""Sudoku Warriors' exploit panel: scripted strategies, each probing one weak spot.

Played as ``panel:NAME`` (with the generic ``panel:lowest``, which places from ``h00``
on and never yields while a bid is legal, and ``panel:highest``, which places from
``h99`` on and yields every battle; see ``sudoku_arena.ai.panel``).

Most of them script the placements only and fight their battles as ``greedy`` does
(the province it is likeliest to win first, the cheapest bid that stays ahead, a yield
when it cannot win); ``bid-min`` and ``bid-max`` place as ``greedy`` and script the
battles instead. Equal keys are broken by the strategy's seeded generator.
"""

from __future__ import annotations

from sudoku_arena.core.entry import AgentFactory
from sudoku_arena.core.scripted import Scripted
from sudoku_arena.games.sudoku_warriors.agents import GreedyAgent
from sudoku_arena.games.sudoku_warriors.game import SudokuWarriors, SWState
from sudoku_arena.games.sudoku_warriors.rules import YIELD, bid_cells

#: The last hilltop, ``h99``: the point-mirror of hilltop ``h`` is ``LAST - h``.
LAST = 99


def resources(game: SudokuWarriors, s: SWState, p: int) -> int:
    """The unspent resources of the villages ``p`` controls now (what he could add in
    battles, SW-11, before the province rule)."""
    grid = game.grid
    return sum(grid[c] for c in range(81) if s.ctrl[c] == p and not s.spent >> c & 1)


class _Placer(Scripted):
    """Scripts the placements (:meth:`place`); battles are fought as ``greedy`` does."""

    def __init__(self, game: SudokuWarriors | None = None, seed: int | None = None) -> None:
        super().__init__(game, seed)
        self._battles = GreedyAgent(game, seed)

    def choose(self, game: SudokuWarriors, state: SWState, player: int, legal: list[int]) -> int:
        if game.phase(state) != "place":
            return self._battles.act(game, state, player)
        return self.place(game, state, player, legal)

    def place(self, game: SudokuWarriors, state: SWState, player: int, legal: list[int]) -> int:
        """The hilltop to claim among ``legal``."""
        raise NotImplementedError


class Centre(_Placer):
    """The empty hilltop nearest the middle of the board.

    Probes: the centre. It takes b5's capital hilltops and the four crossings around
    them (each touching four provinces) first; the bot must not let one player sit
    in every central battle."""

    name = "panel:centre"

    def place(self, game: SudokuWarriors, state: SWState, player: int, legal: list[int]) -> int:
        def key(h: int) -> float:
            i, j = divmod(h, 10)
            return (i - 4.5) ** 2 + (j - 4.5) ** 2

        return self.lowest(legal, key)


class Mirror(_Placer):
    """The point-mirror of the last hilltop claimed (``h37`` answers ``h62``) when it
    is empty, else the lowest empty hilltop.

    Probes: symmetry. The board's provinces and capitals are symmetric; an opponent
    who mirrors every claim keeps the warriors even and the bot must win on the
    resources, which are not."""

    name = "panel:mirror"

    def place(self, game: SudokuWarriors, state: SWState, player: int, legal: list[int]) -> int:
        if state.last >= 0 and LAST - state.last in legal:
            return LAST - state.last
        return min(legal)


class Score(_Placer):
    """The hilltop after which it holds the most provinces, then controls the most
    unspent resources, ignoring the others.

    Probes: greed. It grabs village control (the points it can bid with) everywhere
    and never contests a rival's; the bot must turn a greedy opponent's scattered
    control into provinces of its own."""

    name = "panel:score"

    def place(self, game: SudokuWarriors, state: SWState, player: int, legal: list[int]) -> int:
        def key(h: int) -> tuple[int, int]:
            after = game.apply(state, h, player)
            return -after.owner.count(player), -resources(game, after, player)

        return self.lowest(legal, key)


class Block(_Placer):
    """The hilltop after which the best rival holds the fewest provinces, then the
    rivals control the fewest unspent resources, ignoring its own.

    Probes: denial. It stands on the rivals' villages to tie them (SW-5) and so strips
    their bids; the bot must still win provinces when its control is broken."""

    name = "panel:block"

    def place(self, game: SudokuWarriors, state: SWState, player: int, legal: list[int]) -> int:
        rivals = [q for q in range(game.num_players) if q != player]

        def key(h: int) -> tuple[int, int]:
            after = game.apply(state, h, player)
            held = max(after.owner.count(q) for q in rivals)
            return held, sum(resources(game, after, q) for q in rivals)

        return self.lowest(legal, key)


class _Bidder(Scripted):
    """Places as ``greedy`` does; scripts the battles: fights the due battles in
    province order and never yields while a bid is legal, choosing the bid by
    :meth:`bid_key`."""

    def __init__(self, game: SudokuWarriors | None = None, seed: int | None = None) -> None:
        super().__init__(game, seed)
        self._places = GreedyAgent(game, seed)

    def choose(self, game: SudokuWarriors, state: SWState, player: int, legal: list[int]) -> int:
        phase = game.phase(state)
        if phase == "place":
            return self._places.act(game, state, player)
        if phase == "choose":
            return min(legal)
        bids = [a for a in legal if a != YIELD]
        if not bids:
            return YIELD
        grid = game.grid
        return self.lowest(bids, lambda a: self.bid_key(sum(grid[c] for c in bid_cells(a))))

    def bid_key(self, points: int) -> int:
        """The key of a bid that adds ``points``."""
        raise NotImplementedError


class BidMin(_Bidder):
    """Places as ``greedy``; in every battle it adds the fewest points that keep it
    ahead and never yields while it can stay ahead.

    Probes: a stubborn bidder. It fights every battle to the end in the smallest steps,
    so the bot pays dearly for each province; a bot that raises too fast or yields
    too early loses the war of resources."""

    name = "panel:bid-min"

    def bid_key(self, points: int) -> int:
        return points


class BidMax(_Bidder):
    """Places as ``greedy``; in every battle it adds the most points it can (two
    villages when it may) and never yields while it can stay ahead.

    Probes: a spendthrift. It wins the early battles by overpaying and has little left
    for the later ones; the bot should let it overpay and take the rest."""

    name = "panel:bid-max"

    def bid_key(self, points: int) -> int:
        return -points


#: The game's own panel strategies, by bare name (``GameEntry.panel``).
PANEL: dict[str, AgentFactory] = {
    "centre": Centre,
    "mirror": Mirror,
    "score": Score,
    "block": Block,
    "bid-min": BidMin,
    "bid-max": BidMax,
}
