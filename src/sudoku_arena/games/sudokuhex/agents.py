"""SuDokuHex's greedy agent: best immediate score, then the least opened for the next
player.

It looks only at what its seat can see: the board, its own tile and the public count of
unseen tiles of each number. The runner hands it a determinised state, but it never
reads the other hands or the split between hands and pile in it, so a lucky
determinisation cannot tell it anything.
"""

from __future__ import annotations

import random

from sudoku_arena.games.sudokuhex.game import HexState, SuDokuHex
from sudoku_arena.grids.hex import (
    ALL_HEXES_MASK,
    PEERS_MASK,
    bits,
    placement_points,
)


def best_points(occupied: int, blocked: int) -> int:
    """The most a tile can score on a board with ``occupied`` hexes when ``blocked``
    masks the hexes where its number may not go (0 when it has no legal hex)."""
    best = 0
    for h in bits(~blocked & ALL_HEXES_MASK):
        pts = placement_points(occupied, h)
        if pts > best:
            best = pts
    return best


def expected_best(occupied: int, blocked: tuple[int, ...], unseen: list[int]) -> float:
    """The expected best score of a tile drawn from the ``unseen`` counts."""
    total = sum(unseen)
    if not total:
        return 0.0
    acc = 0
    for v, c in enumerate(unseen, start=1):
        if c:
            acc += c * best_points(occupied, blocked[v - 1])
    return acc / total


def threat_after(state: HexState, v: int, h: int, unseen: list[int]) -> float:
    """The expected best score of a tile drawn from the ``unseen`` counts once a tile
    numbered ``v`` is placed on hex ``h`` of ``state``'s board."""
    bit = 1 << h
    blocked = tuple(
        (b | bit | PEERS_MASK[h]) if w == v else (b | bit)
        for w, b in enumerate(state.blocked, start=1)
    )
    return expected_best(state.occupied | bit, blocked, unseen)


class GreedyAgent:
    """Takes the placement with the best immediate score. Among equal scores it takes the
    one that leaves the next player the smallest expected best score (over the tiles it
    has not seen; in a solo game the next tile is its own, so it takes the largest), then
    chooses at random (seeded)."""

    name = "greedy"

    def __init__(self, game: SuDokuHex | None = None, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def act(self, game: SuDokuHex, state: HexState, player: int) -> int:
        return greedy_choice(game, state, player, self._rng)


def greedy_choice(game: SuDokuHex, state: HexState, player: int, rng: random.Random) -> int:
    """The greedy agent's placement for ``player`` in ``state``, ties broken by ``rng``
    (the search's play-outs use it too)."""
    v = state.hands[player]
    occ = state.occupied
    top = -1
    best: list[int] = []
    for h in bits(~state.blocked[v - 1] & ALL_HEXES_MASK):
        pts = placement_points(occ, h)
        if pts > top:
            top = pts
            best = [h]
        elif pts == top:
            best.append(h)
    if len(best) == 1:
        return best[0]
    # Public knowledge only: 7 of each number minus the board minus our own tile.
    unseen = [7 - state.board.count(w) for w in range(1, 8)]
    unseen[v - 1] -= 1
    n = game.num_players
    solo = n == 1
    if not solo and not any(state.pile) and not state.hands[(player + 1) % n]:
        return rng.choice(best)  # the game ends after this placement
    keyed: list[tuple[float, int]] = []
    for h in best:
        threat = threat_after(state, v, h, unseen)
        keyed.append((-threat if solo else threat, h))
    low = min(k for k, _ in keyed)
    return rng.choice([h for k, h in keyed if k == low])


#: The agents this game adds to the generic ones, by name.
AGENTS = {"greedy": GreedyAgent}
