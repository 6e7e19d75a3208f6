"""The search loop: simulations from the root down the tree, one play-out, and backup.

See the package docstring for the method. The loop holds no per-game switches: what the
game told the search (its hints) was turned into strategy objects when the search was
built (:class:`~.keys.IndexKeys`, :class:`~.selection.Selector`,
:class:`~.selection.PhasePolicy`, :class:`~.playout.Playout`).
"""

from __future__ import annotations

import random
import time
from collections.abc import Collection, Hashable, Sequence

from sudoku_arena.ai.hints import hints_for
from sudoku_arena.ai.mcts.keys import IndexKeys, ObserverKeys
from sudoku_arena.ai.mcts.playout import Playout
from sudoku_arena.ai.mcts.root import root_rollouts
from sudoku_arena.ai.mcts.selection import (
    DecoupledUCB,
    Exploration,
    PhasePolicy,
    RegretMatching,
    Selector,
)
from sudoku_arena.ai.mcts.tree import CHANCE, TERMINAL, WIN, Node, SearchResult, sample
from sudoku_arena.core.errors import ArenaError
from sudoku_arena.core.protocol import AnyGame
from sudoku_arena.core.search import Budget, SearchHints


class MCTS:
    """A search for one game; reusable across decisions (the tree is not kept).

    ``rng`` drives every random choice (determinisation, chance, rollouts, tie order),
    so equal seeds and equal budgets in iterations give equal results. ``revealed``
    searches a hidden-information game as if nothing were hidden (the state given is
    the true one and may be used whole): for analysing a finished game, whose hands
    are public by then; chance still comes from ``chance_outcomes``, never from a
    known future.
    """

    def __init__(
        self,
        game: AnyGame,
        *,
        hints: SearchHints | None = None,
        rng: random.Random | None = None,
        exploration: float | None = None,
        revealed: bool = False,
    ) -> None:
        self.game = game
        self.hints = hints = hints if hints is not None else hints_for(game)
        self.rng = rng = rng if rng is not None else random.Random()
        self.hidden = bool(game.spec.hidden_information) and not revealed
        #: Perfect information: nodes keep their states (the tree is keyed by states).
        self.keep_states = not self.hidden
        self.solo = game.num_players == 1
        c = exploration if exploration is not None else hints.exploration
        self.explore = Exploration(c, self.solo and hints.adaptive_exploration)
        self.keys = (
            ObserverKeys(game, hints.action_key, hints.chance_key)
            if self.hidden
            else IndexKeys(game)
        )
        self.select = Selector(game, hints, rng, self.keys, self.explore)
        self.phase: PhasePolicy = (
            DecoupledUCB(self.select) if hints.simultaneous_ucb else RegretMatching(self.select)
        )
        self.playout = Playout(game, hints, rng)
        self._seen: Collection[Hashable] = ()
        self._repeat_value = [hints.repeat_value] * game.num_players
        #: The nodes a simulation passed through (one list, refilled every simulation).
        self._path: list[Node] = []
        #: Whether the current simulation went through a simultaneous phase.
        self._phased = False

    def _repeats(self, s: object) -> bool:
        """Whether ``s`` is a turn start the game has already been through."""
        key = self.hints.position_key
        assert key is not None
        k = key(self.game, s)
        return k is not None and k in self._seen

    def search(
        self, state: object, player: int, budget: Budget, seen: Collection[Hashable] = ()
    ) -> SearchResult:
        """Search from ``state`` for ``player`` within ``budget``; return the best action.

        ``seen`` holds the ``hints.position_key`` of positions the game has been through;
        lines of the tree that come back to one are scored ``hints.repeat_value``, so
        that two searching players do not go round in circles until the turn limit.
        """
        game = self.game
        self._seen = seen if self.keep_states and self.hints.position_key is not None else ()
        t0 = time.perf_counter()
        legal = list(game.legal_actions(state, player))
        if not legal:
            raise ArenaError(f"seat {player} has no legal action to search")
        if len(legal) == 1:
            return SearchResult(legal[0], 0, time.perf_counter() - t0, ((legal[0], 0, 0.0),))
        candidates = (
            budget.candidates if budget.candidates is not None else self.hints.root_candidates
        )
        if candidates is not None:
            return root_rollouts(
                self.select,
                self.playout,
                candidates,
                self.hidden,
                state,
                player,
                legal,
                budget,
                t0,
            )
        root = Node()
        if self.keep_states:
            root.state = state
            root.tm = game.to_move(state)
        deadline = None if budget.seconds is None else t0 + budget.seconds
        self.explore.reset()
        sims = 0
        while sims < budget.iterations:
            self._simulate(root, state, player)
            sims += 1
            if deadline is not None and sims & 15 == 0 and time.perf_counter() > deadline:
                break
        return self._result(root, state, player, legal, sims, time.perf_counter() - t0)

    def _result(
        self, root: Node, state: object, player: int, legal: list[object], sims: int, secs: float
    ) -> SearchResult:
        if self.keep_states and root.tm is not None and len(root.tm.players) == 1:
            kids = list(root.kids)
        else:
            tree = root.private.get(player, root) if root.private else root
            keys = {self.keys.decision(state, a, player) for a in legal}
            kids = [c for k, c in tree.index.items() if k in keys]
        if not kids:  # no simulation finished (a tiny time cap): any legal action
            return SearchResult(self.rng.choice(legal), sims, secs, ())
        kids.sort(key=lambda c: (c.n, c.w / c.n if c.n else 0.0), reverse=True)
        best = root.decisive if root.decisive is not None else kids[0]
        if root.private and self.phase.mixed:
            # A simultaneous phase: play the average strategy of regret matching.
            total = sum(c.strat for c in kids)
            r = self.rng.random() * total
            for c in kids:
                r -= c.strat
                if r < 0:
                    best = c
                    break
        stats = tuple((c.action, c.n, c.w / c.n if c.n else 0.0) for c in kids)
        return SearchResult(best.action, sims, secs, stats)

    def _simulate(self, root: Node, root_state: object, player: int) -> None:
        game = self.game
        keep_states = self.keep_states
        s = game.determinize(root_state, player, self.rng) if self.hidden else root_state
        node = root
        path = self._path
        path.clear()
        value: Sequence[float] | None = None
        while value is None:
            tm = node.tm if keep_states else game.to_move(s)
            assert tm is not None
            kind = tm.kind
            if kind is TERMINAL:
                value = game.returns(s)
                break
            if kind is CHANCE:
                s, node = self._chance(node, s, player)
                path.append(node)
                continue
            players = tm.players
            if len(players) > 1:
                s, node, value = self._phase(node, s, players, path)
            elif keep_states:
                s, node, value = self._descend(node, s, players[0], path)
            else:
                p = players[0]
                child, new = self.select.available(node, s, p)
                s = self.playout.step(game, s, child.action, p)
                path.append(child)
                node = child
                if new:
                    value = self.playout.run(s)
        self._backup(root, path, value)

    def _chance(self, node: Node, s: object, player: int) -> tuple[object, Node]:
        """Draw a chance outcome; each outcome (as the searching seat sees it) is a child."""
        game = self.game
        outcome = sample(game.chance_outcomes(s), self.rng)
        key = self.keys.chance(s, outcome, player)
        child = node.index.get(key)
        if child is None:
            child = Node(outcome)
            node.index[key] = child
            if self.keep_states:
                child.state = self.playout.chance(game, s, outcome, None)
                child.tm = game.to_move(child.state)
        s = child.state if self.keep_states else self.playout.chance(game, s, outcome, None)
        return s, child

    def _descend(
        self, node: Node, s: object, p: int, path: list[Node]
    ) -> tuple[object, Node, Sequence[float] | None]:
        """One step down a state-keyed tree at ``p``'s decision: a known child, or a new
        one that is expanded and valued (then the value ends the simulation)."""
        game = self.game
        select = self.select
        decisive = node.decisive
        if decisive is not None:
            child = decisive
        elif select.puct:
            if node.untried is None:
                node.untried = []
                legal = list(game.legal_actions(s, p))
                kids = node.kids
                for a, pr in zip(legal, select.priors(s, p, legal), strict=True):
                    c = Node(a, p)
                    c.prior = pr
                    kids.append(c)
            child = select.puct_pick(node.kids, node.n)
            if child.state is None:
                return self._expand(node, child, s, p, path)
        else:
            untried = node.untried
            if untried is None:
                untried = select.order(s, p, list(game.legal_actions(s, p)))
                node.untried = untried
            if untried and select.may_widen(len(node.kids), node.n):
                child = Node(untried.pop(), p)
                node.kids.append(child)
                return self._expand(node, child, s, p, path)
            child = select.ucb(node)
        path.append(child)
        if child.repeat:
            return s, child, self._repeat_value
        return child.state, child, None

    def _expand(
        self, node: Node, child: Node, s: object, p: int, path: list[Node]
    ) -> tuple[object, Node, Sequence[float]]:
        """Give ``child`` its state and value it: the end of the game, a repeated
        position, or a play-out."""
        game = self.game
        child.state = s = self.playout.step(game, s, child.action, p)
        child.tm = ctm = game.to_move(s)
        path.append(child)
        if ctm.kind is TERMINAL:
            value = game.returns(s)
            if value[p] >= WIN:
                node.decisive = child
            return s, child, value
        if self._seen and self._repeats(s):
            child.repeat = True
            return s, child, self._repeat_value
        return s, child, self.playout.run(s)

    def _phase(
        self, node: Node, s: object, players: tuple[int, ...], path: list[Node]
    ) -> tuple[object, Node, Sequence[float] | None]:
        """One pass through a simultaneous phase starting at ``node``: each seat of the
        phase chooses in a tree of its own, keyed only by its own actions (decoupled),
        and the node after the phase is keyed by all their choices together."""
        game = self.game
        step = self.playout.step
        self._phased = True
        ends: list[Node] = []
        for j in players:
            pn = node.private.get(j)
            if pn is None:
                pn = node.private[j] = Node()
            while True:
                tm = game.to_move(s)
                if not tm.is_decision or j not in tm.players:
                    break
                child, new = self.phase.select(pn, s, j)
                s = step(game, s, child.action, j)
                path.append(child)
                pn = child
                if new:
                    return s, node, self.playout.run(s)
            ends.append(pn)
        key = tuple(ends)
        after = node.joint.get(key)
        if after is None:
            after = node.joint[key] = Node()
            if self.keep_states:
                after.state = s
                after.tm = game.to_move(s)
        path.append(after)
        return s, after, None

    def _backup(self, root: Node, path: list[Node], value: Sequence[float]) -> None:
        if self._phased:
            self._phased = False
            self.phase.backup(value)
        root.n += 1
        for node in path:
            node.n += 1
            m = node.mover
            if m >= 0:
                node.w += value[m]
        if self.solo:
            self.explore.observe(value[0])
