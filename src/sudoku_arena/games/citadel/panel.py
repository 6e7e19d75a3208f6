"""Citadel's exploit panel: scripted armies, each probing one weak spot.

Played as ``panel:NAME`` (with the generic ``panel:lowest``, which places and claims
the lowest cells and then ends every turn at once, a player who never acts, and
``panel:highest``, which razes, attacks and moves by the highest index first; see
``sudoku_arena.ai.panel``). A turn is a run of small actions closed by ``end``; each
strategy takes one action at a time by the lowest key of its rule and ends the turn
when its rule has nothing left to do. A draw at the turn limit (CI-9) is not a win: a
bot that cannot break a passive or walled-in player in time is exploited too. Equal
keys are broken by the strategy's seeded generator.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection

from sudoku_arena.core.entry import AgentFactory
from sudoku_arena.core.scripted import Scripted
from sudoku_arena.games.citadel.agents import target_distances
from sudoku_arena.games.citadel.game import CLAIM, PLAY, SETUP, Citadel, CitadelState
from sudoku_arena.games.citadel.rules import (
    END,
    K_ATTACK,
    K_CITADEL,
    K_CLAIM,
    K_MOVE,
    K_RAZE,
    K_RECRUIT,
    K_SIEGE,
    K_WALL,
    split_action,
)

#: The key of an action a rule does not want (it ends the turn instead when that is all).
_NO: tuple[float, ...] = (math.inf,)


def cells_of(game: Citadel, a: int) -> tuple[int, int, int]:
    """``(kind, from, to)`` of action ``a`` in board cells: a move's or an attack's
    warrior and its target cell; a raze's warrior and the wall's square (by its
    lower-left cell); otherwise ``from == to``, the action's cell (-1 for ``end``)."""
    if a == END:
        return split_action(a)[0], -1, -1
    kind, frame, extra = split_action(a)
    geo = game.geo
    cell = geo.from_frame[frame]
    if kind in (K_MOVE, K_ATTACK):
        return kind, cell, geo.dir_step[4 * cell + extra]
    if kind == K_RAZE:
        return kind, geo.perim[cell][extra], cell
    return kind, cell, cell


def distance(game: Citadel, a: int, b: int) -> int:
    """Orthogonal steps between cells ``a`` and ``b`` (walls and warriors ignored)."""
    n = game.size
    return abs(a // n - b // n) + abs(a % n - b % n)


def mirror(game: Citadel, cell: int) -> int:
    """The point-mirror of ``cell`` through the middle of the board."""
    return game.geo.cells - 1 - cell


def _nearest(game: Citadel, cell: int, targets: Collection[int]) -> float:
    """Steps from ``cell`` to the nearest of ``targets`` (infinite when there is none)."""
    return min((float(distance(game, cell, t)) for t in targets), default=math.inf)


def _pick(agent: Scripted, legal: list[int], key: Callable[[int], tuple[float, ...]]) -> int | None:
    """The action of ``legal`` with the lowest ``key`` (ties at random, seeded), or
    ``None`` when the rule wants none of them (every key is ``_NO``)."""
    keys = {a: k for a in legal if (k := key(a)) != _NO}
    if not keys:
        return None
    return agent.lowest(list(keys), keys.__getitem__)


def _or_end(agent: Scripted, legal: list[int], key: Callable[[int], tuple[float, ...]]) -> int:
    """The action with the lowest ``key``, or ``end`` when the rule wants none."""
    a = _pick(agent, legal, key)
    return END if a is None else a


class Centre(Scripted):
    """Every action as near the middle of the board as it goes: the citadels placed
    and claimed there, recruits, walls and marches toward it; ``end`` only when
    nothing else is legal.

    Probes: the middle. Its army gathers where every citadel is a few steps away and
    it spends every credit; the bot must defend the citadels this army reaches and
    use the turns it spends walking."""

    name = "panel:centre"

    def choose(self, game: Citadel, state: CitadelState, player: int, legal: list[int]) -> int:
        mid = (game.size - 1) / 2
        n = game.size

        def key(a: int) -> float:
            if a == END:
                return math.inf
            to = cells_of(game, a)[2]
            return abs(to // n - mid) + abs(to % n - mid)

        return self.lowest(legal, key)


class Mirror(Scripted):
    """The point-mirror of the opponent's position: citadels placed on the mirror of
    those standing, the mirror of the opponent's claims claimed, and its warriors
    recruited and marched (a step only when it gets closer) onto the mirror cells of
    the opponent's warriors; ``end`` when no action gets closer (before any target,
    the lowest index).

    Probes: symmetry. The set-up and the army mirror the bot's, so the position stays
    even unless the bot breaks the symmetry and the turn order's edge."""

    name = "panel:mirror"

    def choose(self, game: Citadel, state: CitadelState, player: int, legal: list[int]) -> int:
        targets = self._targets(game, state, player)
        wanted = (K_CITADEL, K_CLAIM, K_RECRUIT, K_MOVE)

        def key(a: int) -> tuple[float, ...]:
            kind, frm, to = cells_of(game, a)
            if kind not in wanted:
                return _NO
            d = _nearest(game, to, targets)
            if kind == K_MOVE and d >= _nearest(game, frm, targets):
                return _NO  # only steps that get closer
            return (d,)

        a = _pick(self, legal, key) if targets else None
        if a is not None:
            return a
        return END if END in legal else min(legal)

    def _targets(self, game: Citadel, s: CitadelState, p: int) -> set[int]:
        """The cells the mirror still lacks."""
        if s.phase == SETUP:
            cits = set(s.citadels)
            return {mirror(game, c) for c in cits} - cits
        if s.phase == CLAIM:
            return {
                mirror(game, c) for c, o in zip(s.citadels, s.owners, strict=True) if o == 1 - p
            }
        mine, theirs = p + 1, 2 - p
        board = s.board
        return {mirror(game, c) for c in range(game.geo.cells) if board[c] == theirs} - {
            c for c in range(game.geo.cells) if board[c] == mine
        }


class Rush(Scripted):
    """All-out attack: sieges and attacks whenever legal, walks into any citadel it
    does not hold, recruits, and marches every warrior toward the nearest citadel it
    does not hold; never builds a wall. Claims the citadels nearest the opponent's.

    Probes: defence. The bot's citadels are under attack from the first turn; a bot
    that marches out and leaves them empty loses them."""

    name = "panel:rush"

    def choose(self, game: Citadel, state: CitadelState, player: int, legal: list[int]) -> int:
        if state.phase == SETUP:
            return min(legal)
        if state.phase == CLAIM:
            theirs = [
                c for c, o in zip(state.citadels, state.owners, strict=True) if o == 1 - player
            ]
            return self.lowest(legal, lambda a: _nearest(game, cells_of(game, a)[2], theirs))
        dist = target_distances(game, state, player)
        cits = game.citadel_set(state)
        mine = set(game.controlled(state, player))

        def key(a: int) -> tuple[float, ...]:
            kind, frm, to = cells_of(game, a)
            if kind in (K_SIEGE, K_ATTACK):
                return (0,)
            if kind == K_MOVE and to in cits and to not in mine:
                return (1,)
            if kind == K_RECRUIT:
                return (2, dist[to])
            if kind == K_MOVE and dist[to] < dist[frm] and frm not in cits:
                return (3, dist[to])
            return _NO

        return _or_end(self, legal, key)


class Score(Scripted):
    """Only its own score: an action that gains it a citadel, else one that gains a
    warrior (a recruit), else ``end``; never an attack that could cost a warrior.
    Places and claims by the lowest index.

    Probes: a passive collector. It sits on its citadels and grows; the bot must turn
    its own army into two more citadels before the turn limit (a draw is no win)."""

    name = "panel:score"

    def choose(self, game: Citadel, state: CitadelState, player: int, legal: list[int]) -> int:
        if state.phase != PLAY:
            return min(legal)
        cits = game.citadel_set(state)
        mine = set(game.controlled(state, player))

        def key(a: int) -> tuple[float, ...]:
            kind, _, to = cells_of(game, a)
            if kind == K_MOVE and to in cits and to not in mine:
                return (0,)
            if kind == K_RECRUIT:
                return (1,)
            return _NO

        return _or_end(self, legal, key)


class Block(Scripted):
    """Denial: takes enemy warriors whenever it can (sieges, then attacks that do not
    cost the attacker), keeps a warrior on each of its citadels, walls the ground next
    to them, recruits, and never marches out. Claims citadels near its own.

    Probes: a fortress. It only ever spoils the bot's attacks; a bot that cannot
    break walls and a defended citadel draws at the turn limit."""

    name = "panel:block"

    def choose(self, game: Citadel, state: CitadelState, player: int, legal: list[int]) -> int:
        if state.phase == SETUP:
            return min(legal)
        if state.phase == CLAIM:
            own = [c for c, o in zip(state.citadels, state.owners, strict=True) if o == player]
            return self.lowest(legal, lambda a: _nearest(game, cells_of(game, a)[2], own))
        mine = game.controlled(state, player)
        board = state.board

        def key(a: int) -> tuple[float, ...]:
            kind, frm, to = cells_of(game, a)
            if kind == K_SIEGE:
                return (0,)
            if kind == K_ATTACK:
                return (1, game.strength(state, to) >= game.strength(state, frm))
            if kind == K_MOVE and to in mine and board[to] == 0:
                return (2,)
            if kind == K_WALL and _nearest(game, to, mine) <= 2:
                return (3, _nearest(game, to, mine))
            if kind == K_RECRUIT:
                return (4,)
            return _NO

        return _or_end(self, legal, key)


#: The game's own panel strategies, by bare name (``GameEntry.panel``).
PANEL: dict[str, AgentFactory] = {
    "centre": Centre,
    "mirror": Mirror,
    "rush": Rush,
    "score": Score,
    "block": Block,
}
