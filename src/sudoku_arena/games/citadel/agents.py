"""Citadel's greedy agent: one action at a time, scored by simple war-game sense.

Priorities, highest first: walk into a citadel it does not hold; take warriors by
siege; capture weaker enemies (equal trades only where a citadel is at stake); keep a
warrior on each of its citadels and guard the threatened ones; recruit; march toward
the nearest weakly held or neutral citadel (distances from a multi-source Dijkstra over
non-wall cells, where a defended citadel counts as farther away); avoid stepping next to
an enemy that could capture the warrior. It ends the turn when nothing scores above 0.
"""

from __future__ import annotations

import heapq
import random

from sudoku_arena.games.citadel.game import CLAIM, PLAY, SETUP, Citadel, CitadelState
from sudoku_arena.games.citadel.rules import (
    DIRS,
    EMPTY,
    K_ATTACK,
    K_MOVE,
    K_RAZE,
    K_RECRUIT,
    K_SIEGE,
    K_WALL,
    WALL_LL,
    split_action,
)

_FAR = 10_000


def target_distances(game: Citadel, s: CitadelState, p: int) -> list[int]:
    """Steps from every cell to the nearest citadel ``p`` does not control.

    Walls block; warriors do not (they move). A citadel held by an enemy warrior counts
    as 2 + 2 x that warrior's strength farther away, so weakly held and empty citadels
    draw the army first.
    """
    geo = game.geo
    board = s.board
    dist = [_FAR] * geo.cells
    heap: list[tuple[int, int]] = []
    for k, c in enumerate(s.citadels):
        if game.controller(s, k) == p:
            continue
        start = 0 if board[c] == EMPTY else 2 + 2 * game.strength(s, c)
        if start < dist[c]:
            dist[c] = start
            heap.append((start, c))
    heapq.heapify(heap)
    nbrs = geo.nbrs
    while heap:
        d, x = heapq.heappop(heap)
        if d > dist[x]:
            continue
        for y in nbrs[x]:
            if board[y] < WALL_LL and d + 1 < dist[y]:
                dist[y] = d + 1
                heapq.heappush(heap, (d + 1, y))
    return dist


class GreedyAgent:
    """Scores every legal action with the priorities above; ties broken at random."""

    name = "greedy"

    def __init__(self, game: Citadel | None = None, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def act(self, game: Citadel, state: CitadelState, player: int) -> int:
        legal = list(game.legal_actions(state, player))
        if state.phase == SETUP:
            return self._rng.choice(legal)
        if state.phase == CLAIM:
            return self._claim(game, state, player, legal)
        assert state.phase == PLAY
        scores = self.scores(game, state, player, legal)
        top = max(scores)
        return self._rng.choice([a for a, v in zip(legal, scores, strict=True) if v == top])

    def _claim(self, game: Citadel, s: CitadelState, p: int, legal: list[int]) -> int:
        """Claim near own citadels and neutral ones, away from the opponent's."""
        geo = game.geo
        n = game.size

        def dist(a: int, b: int) -> int:
            return abs(a // n - b // n) + abs(a % n - b % n)

        best: list[int] = []
        top = -_FAR
        for a in legal:
            c = geo.from_frame[split_action(a)[1]]
            v = 0
            for k, o in enumerate(s.owners):
                x = s.citadels[k]
                if x == c:
                    continue
                d = dist(c, x)
                if o == p or o < 0:
                    v -= d
                else:
                    v += d
            if v > top:
                top, best = v, [a]
            elif v == top:
                best.append(a)
        return self._rng.choice(best)

    def scores(
        self, game: Citadel, s: CitadelState, p: int, legal: list[int], *, jitter: bool = True
    ) -> list[float]:
        """The score of each action in ``legal`` (``end`` scores 0); with ``jitter`` a
        tiny random amount from the agent's generator, so that equal scores tie at random."""
        geo = game.geo
        board = s.board
        en = 2 - p
        cits = game.citadel_set(s)
        mine = set(game.controlled(s, p))
        dist = target_distances(game, s, p)
        # Own citadels with an enemy within three steps are threatened.
        threatened: set[int] = set()
        for c in mine:
            r, col = divmod(c, game.size)
            for dr in range(-3, 4):
                for dc in range(-3 + abs(dr), 4 - abs(dr)):
                    rr, cc = r + dr, col + dc
                    inside = 0 <= rr < game.size and 0 <= cc < game.size
                    if inside and board[rr * game.size + cc] == en:
                        threatened.add(c)
        out: list[float] = []
        for a in legal:
            kind, fcell, extra = split_action(a)
            cell = geo.from_frame[fcell] if a else -1
            v = 0.0
            if kind == K_SIEGE:
                v = 60.0
            elif kind == K_ATTACK:
                to = game._step(cell, *DIRS[extra])
                sa, sd = game.strength(s, cell), game.strength(s, to)
                near_mine = any(x in mine for x in geo.nbrs[to])
                if sd < sa:
                    v = 50.0 + 20 * (to in cits) + 10 * near_mine
                else:
                    v = 30.0 if to in cits or near_mine else -3.0
            elif kind == K_MOVE:
                to = game._step(cell, *DIRS[extra])
                v = self._move_score(game, s, p, cell, to, dist, mine, threatened)
            elif kind == K_RECRUIT:
                near = [c for c in geo.nbrs[cell] if c in mine]
                v = 12.0 + 8 * any(c in threatened for c in near)
                v -= 0.1 * min(dist[cell], 50)
            elif kind == K_RAZE:
                by = geo.perim[cell][extra]
                v = 1.0 if game.strength(s, by) > game.wall_strength(s, cell) else -10.0
            elif kind == K_WALL:
                v = -1.0
            if jitter:
                v += self._rng.random() * 0.01
            out.append(v)
        return out

    def _move_score(
        self,
        game: Citadel,
        s: CitadelState,
        p: int,
        frm: int,
        to: int,
        dist: list[int],
        mine: set[int],
        threatened: set[int],
    ) -> float:
        geo = game.geo
        board = s.board
        en = 2 - p
        cits = game.citadel_set(s)
        if to in cits:
            if to not in mine:
                k = s.citadels.index(to)
                return 100 + 20 * (s.owners[k] == 1 - p)
            return 40 if to in threatened else 5
        if frm in cits:
            return -50  # never leave a citadel empty to wander
        v = 4.0 * (min(dist[frm], 60) - min(dist[to], 60))
        arrive = geo.arrival_strength(board, frm, to, cits)
        for y in geo.nbrs[to]:
            if board[y] == en:
                sy = game.strength(s, y)
                if sy >= arrive:
                    v -= 15
                    break
        return v


__all__ = ["GreedyAgent", "target_distances"]


#: The agents this game adds to the generic ones, by name.
AGENTS = {"greedy": GreedyAgent}
