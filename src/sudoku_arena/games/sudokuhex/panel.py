"""SuDokuHex's exploit panel: scripted tile policies, each probing one weak spot.

Played as ``panel:NAME`` (with the generic ``panel:lowest``, which puts the tile in
hand on the lowest legal hex, ``A0`` first, and ``panel:highest``; see
``sudoku_arena.ai.panel``). The only decision is where the tile in hand goes; a tile
cannot be kept back. Like ``greedy``, they read only what their seat sees: the board,
the scores, their own tile and the public counts of unseen tiles. Equal keys are broken
by the strategy's seeded generator.
"""

from __future__ import annotations

from sudoku_arena.core.entry import AgentFactory
from sudoku_arena.core.scripted import Scripted
from sudoku_arena.games.sudokuhex.agents import expected_best
from sudoku_arena.games.sudokuhex.game import HexState, SuDokuHex
from sudoku_arena.grids.hex import COORD_INDEX, HEX_COORDS, PEERS_MASK, placement_points


def _distance(h: int) -> int:
    """Steps from hex ``h`` to the middle of the board (``A0``)."""
    q, r = HEX_COORDS[h]
    return max(abs(q), abs(r), abs(q + r))


def mirror_hex(h: int) -> int:
    """The point-mirror of hex ``h`` through ``A0`` (the board is symmetric)."""
    q, r = HEX_COORDS[h]
    return COORD_INDEX[(-q, -r)]


class Centre(Scripted):
    """The legal hex nearest the middle of the board (``A0``).

    Probes: the long lines. Every line through the middle holds 7 hexes, so a player
    who fills the middle first sets up the big scores for whoever comes after; the bot
    must take those lines rather than hand them over."""

    name = "panel:centre"

    def choose(self, game: SuDokuHex, state: HexState, player: int, legal: list[int]) -> int:
        return self.lowest(legal, _distance)


class Mirror(Scripted):
    """The point-mirror of the last tile placed when that hex is legal, else the lowest
    legal hex.

    Probes: symmetry. Mirrored tiles score on mirrored lines; the bot has to find the
    placements a mirror cannot answer (a number the honeycomb or a line refuses)."""

    name = "panel:mirror"

    def choose(self, game: SuDokuHex, state: HexState, player: int, legal: list[int]) -> int:
        if state.last >= 0:
            m = mirror_hex(state.last)
            if m in legal:
                return m
        return min(legal)


class Score(Scripted):
    """The hex where the tile scores most now, ignoring what it opens for the next
    player.

    Probes: greed. ``greedy`` without its look at the next player: a bot that cannot
    punish the lines such a player leaves open is no better than greedy."""

    name = "panel:score"

    def choose(self, game: SuDokuHex, state: HexState, player: int, legal: list[int]) -> int:
        occ = state.occupied
        return self.lowest(legal, lambda h: -placement_points(occ, h))


class Block(Scripted):
    """The hex that leaves the next player the smallest expected best score (over the
    tiles it has not seen), ignoring its own points.

    Probes: denial. It never scores on purpose and closes lines before they pay; the
    bot must still score against a spoiler, where its own play-outs expect points."""

    name = "panel:block"

    def choose(self, game: SuDokuHex, state: HexState, player: int, legal: list[int]) -> int:
        v = state.hands[player]
        occ = state.occupied
        # Public knowledge only: 7 of each number minus the board minus its own tile.
        unseen = [7 - state.board.count(w) for w in range(1, 8)]
        unseen[v - 1] -= 1

        def key(h: int) -> float:
            bit = 1 << h
            blocked = tuple(
                (b | bit | PEERS_MASK[h]) if w == v else (b | bit)
                for w, b in enumerate(state.blocked, start=1)
            )
            return expected_best(occ | bit, blocked, unseen)

        return self.lowest(legal, key)


class Hoard(Scripted):
    """The hex where the tile scores least now.

    Probes: sandbagging. It keeps the full lines for later and plays into empty
    corners; the bot must take the lines it leaves instead of waiting for them too."""

    name = "panel:hoard"

    def choose(self, game: SuDokuHex, state: HexState, player: int, legal: list[int]) -> int:
        occ = state.occupied
        return self.lowest(legal, lambda h: placement_points(occ, h))


#: The game's own panel strategies, by bare name (``GameEntry.panel``).
PANEL: dict[str, AgentFactory] = {
    "centre": Centre,
    "mirror": Mirror,
    "score": Score,
    "block": Block,
    "hoard": Hoard,
}
