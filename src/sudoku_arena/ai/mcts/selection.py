"""Choosing a child: UCB, PUCT, expansion order, and selection among available actions.

A :class:`Selector` is built once per search from the game's hints; the search loop
calls it without looking at the hints again. Simultaneous phases choose through a
:class:`PhasePolicy` (regret matching, or decoupled UCB when the seats of a phase do not
interact).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from math import log, sqrt
from typing import Protocol, final

from sudoku_arena.ai.mcts.keys import IndexKeys
from sudoku_arena.ai.mcts.tree import Node, softmax
from sudoku_arena.core.draws import randbelow, shuffle
from sudoku_arena.core.protocol import AnyGame
from sudoku_arena.core.search import PriorFn, SearchHints

#: Uniform exploration mixed into regret matching at simultaneous phases.
GAMMA = 0.1


@final
class Exploration:
    """The UCT exploration constant; in solo games optionally scaled by the spread of
    the returns seen so far, so that small score differences still steer the search."""

    def __init__(self, c: float, adaptive: bool) -> None:
        self.c = c
        self.adaptive = adaptive
        self.lo = math.inf
        self.hi = -math.inf

    def reset(self) -> None:
        self.lo, self.hi = math.inf, -math.inf

    def observe(self, v: float) -> None:
        if v < self.lo:
            self.lo = v
        if v > self.hi:
            self.hi = v

    def value(self) -> float:
        """The constant to use now."""
        if self.adaptive and self.hi > self.lo:
            return self.c * (self.hi - self.lo)
        return self.c


@final
class Selector:
    """Selection and expansion for one search (see the module docstring)."""

    def __init__(
        self,
        game: AnyGame,
        hints: SearchHints,
        rng: random.Random,
        keys: IndexKeys,
        explore: Exploration,
    ) -> None:
        self.game = game
        self.rng = rng
        self.keys = keys
        self.explore = explore
        self.prior: PriorFn | None = hints.prior
        self.temperature = hints.prior_temperature
        self.widening = hints.widening
        #: PUCT: the prior steers selection, not only the expansion order.
        self.puct = self.prior is not None and self.temperature is not None

    def order(self, s: object, p: int, actions: list[object]) -> list[object]:
        """Untried actions in expansion order (the last is expanded first)."""
        shuffle(self.rng, actions)
        prior = self.prior
        if prior is not None and actions:
            weights = prior(self.game, s, p, actions)
            ranked = sorted(range(len(actions)), key=lambda i: weights[i])
            actions = [actions[i] for i in ranked]
        return actions

    def priors(self, s: object, p: int, actions: list[object]) -> list[float]:
        """PUCT probabilities: a softmax of the prior weights at the hints' temperature."""
        assert self.prior is not None and self.temperature
        if not actions:
            return []
        return softmax(list(self.prior(self.game, s, p, actions)), self.temperature)

    def may_widen(self, children: int, visits: int) -> bool:
        """Progressive widening: whether a node may get another child now."""
        widening = self.widening
        return widening is None or children < widening * sqrt(visits + 1.0)

    def ucb(self, node: Node) -> Node:
        """UCB1 among ``node``'s children (all visited): the first best on ties."""
        c = self.explore.value()
        visits = node.n
        lg = c * c * log(float(visits)) if visits > 1 else 0.0
        kids = node.kids
        best = kids[0]
        bv = -math.inf
        for k in kids:
            n = k.n
            v = k.w / n + sqrt(lg / n)
            if v > bv:
                bv = v
                best = k
        return best

    def puct_pick(self, kids: Sequence[Node], visits: int) -> Node:
        """PUCT: mean return plus exploration weighted by the prior; unvisited children
        count at the visited ones' mean (first-play urgency)."""
        c = self.explore.value()
        sq = sqrt(visits + 1.0)
        tot_n = 0
        tot_w = 0.0
        for k in kids:
            tot_n += k.n
            tot_w += k.w
        fpu = tot_w / tot_n if tot_n else 0.5
        best = kids[0]
        bv = -math.inf
        for k in kids:
            n = k.n
            q = k.w / n if n else fpu
            v = q + c * k.prior * sq / (1 + n)
            if v > bv:
                bv = v
                best = k
        return best

    def available(self, node: Node, s: object, p: int) -> tuple[Node, bool]:
        """UCB among the children legal in ``s`` (counting availability); expands one
        untried legal action first when there is one (and widening allows it). With a
        PUCT prior, every legal action gets a child at once and PUCT picks among the
        available ones; a child never simulated counts as new."""
        legal = self.game.legal_actions(s, p)
        keys = self.keys.decisions(s, legal, p)
        if self.puct:
            return self._available_puct(node, s, p, legal, keys)
        index = node.index
        kids: list[Node] = []  # the legal actions' children, in legal order
        fresh: list[int] = []  # positions in ``legal`` of the actions without one
        for i, k in enumerate(keys):
            c = index.get(k)
            if c is None:
                fresh.append(i)
            else:
                c.avail += 1.0
                kids.append(c)
        if fresh and (not kids or self.may_widen(len(kids), node.n)):
            if self.prior is not None:
                a = self.order(s, p, [legal[i] for i in fresh])[-1]
                k = self.keys.decision(s, a, p)
            else:
                i = fresh[randbelow(self.rng, len(fresh))]
                k = keys[i]
                a = legal[i]
            child = index[k] = Node(a, p)
            child.avail = 1.0
            return child, True
        c_ = self.explore.value()
        best: Node | None = None
        bv = -math.inf
        for ch in kids:
            n = ch.n
            if n == 0:
                return ch, False
            v = ch.w / n + c_ * sqrt(log(ch.avail) / n)
            if v > bv:
                bv = v
                best = ch
        assert best is not None
        return best, False

    def _available_puct(
        self, node: Node, s: object, p: int, legal: Sequence[object], keys: list[int]
    ) -> tuple[Node, bool]:
        assert self.prior is not None
        index = node.index
        fresh = [i for i, k in enumerate(keys) if k not in index]
        if fresh:
            fresh_actions = [legal[i] for i in fresh]
            raw = self.prior(self.game, s, p, fresh_actions)
            for i, w in zip(fresh, raw, strict=True):
                fresh_node = index[keys[i]] = Node(legal[i], p)
                fresh_node.weight = float(w)
        kids = [index[k] for k in keys]
        probs = softmax([k.weight for k in kids], self.temperature or 1.0)
        for kid, pr in zip(kids, probs, strict=True):
            kid.prior = pr
            kid.avail += 1.0
        child = self.puct_pick(kids, node.n)
        return child, child.n == 0


class PhasePolicy(Protocol):
    """How a seat chooses at its own node of a simultaneous phase."""

    #: Whether the result plays the average strategy (rather than the most visited).
    mixed: bool

    def select(self, node: Node, s: object, p: int) -> tuple[Node, bool]: ...

    def backup(self, value: Sequence[float]) -> None: ...


class DecoupledUCB:
    """Each seat of the phase picks by UCB among its available actions."""

    mixed = False

    def __init__(self, selector: Selector) -> None:
        self.select = selector.available

    def backup(self, value: Sequence[float]) -> None:
        return None


class RegretMatching:
    """Regret matching at a seat's own node in a simultaneous phase.

    The seat plays each available action with probability proportional to its positive
    cumulative regret (uniformly while none is positive), mixed with ``GAMMA`` uniform
    exploration; the regrets are updated in :meth:`backup` from the sampled return,
    importance-weighted (outcome sampling). The average strategy (``strat``) approaches
    an equilibrium of the phase, which is what a seat that cannot see the others'
    choices should play (Lanctot, Lisy and Winands 2013).
    """

    mixed = True

    def __init__(self, selector: Selector) -> None:
        self.game = selector.game
        self.rng = selector.rng
        self.keys = selector.keys
        self._updates: list[tuple[int, list[Node], list[float], int]] = []

    def select(self, node: Node, s: object, p: int) -> tuple[Node, bool]:
        """The child to play, and whether the node was new (then the simulation rolls out)."""
        legal = self.game.legal_actions(s, p)
        index = node.index
        new = not index
        kids = []
        for a, k in zip(legal, self.keys.decisions(s, legal, p), strict=True):
            c = index.get(k)
            if c is None:
                c = index[k] = Node(a, p)
            c.avail += 1.0
            kids.append(c)
        pos = [c.regret if c.regret > 0.0 else 0.0 for c in kids]
        total = sum(pos)
        m = len(kids)
        sigma = [x / total for x in pos] if total > 0.0 else [1.0 / m] * m
        probs = [GAMMA / m + (1.0 - GAMMA) * x for x in sigma]
        for c, x in zip(kids, sigma, strict=True):
            c.strat += x
        r = self.rng.random()
        acc = 0.0
        pick = m - 1
        for i, x in enumerate(probs):
            acc += x
            if r < acc:
                pick = i
                break
        self._updates.append((p, kids, probs, pick))
        return kids[pick], new

    def backup(self, value: Sequence[float]) -> None:
        for p, kids, probs, pick in self._updates:
            v = value[p]
            for c in kids:
                c.regret -= v
            kids[pick].regret += v / probs[pick]
        self._updates.clear()
