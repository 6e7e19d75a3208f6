"""Monte Carlo tree search over the game protocol, for every game.

One search serves all five games; it branches on the facts in ``GameSpec`` and on what
``to_move`` says, never on game ids.

Returns are vectors
    Every tree edge stores the total return of the seat that chose it (``mover``), so
    selection at a node maximises the return of whoever acts there: no negamax, any
    number of seats from 1 to 6, shared wins and solo scores included.

Chance
    At a chance node one outcome is drawn with its exact probability from
    ``chance_outcomes``; each outcome drawn gets its own child.

Hidden information (information-set MCTS)
    When ``spec.hidden_information`` is set, every simulation starts from a fresh
    ``determinize(state, player, rng)`` of the state the search was given, for the seat
    it acts for: everything that seat cannot see is dealt anew each time, so the search
    cannot use what it was not shown (the runner hands agents a determinised state too,
    and the search does not trust it beyond the seat's own view). Tree nodes are then
    keyed by the sequence of actions and outcomes rather than by states, and a child is
    scored with the number of simulations in which it was *available* (single-observer
    IS-MCTS, Cowling, Powley and Whitehouse 2012).

Simultaneous phases
    When several seats are to move at once (Cat Sudoku's writing), each seat of the
    phase chooses its actions in a tree of its own, rooted at the node where the phase
    starts and keyed only by that seat's own actions in the phase (decoupled UCT). The
    seats still act one after another on the simulated state, but no seat's statistics
    are split by the choices another seat makes in the same phase, so none of them can
    learn to answer a choice it would not see at the table. When every seat of the
    phase is done, the node that follows is keyed by all their choices together.

Priors and the root
    A game's prior (``hints.prior``) orders the expansion of untried actions, with
    progressive widening if asked, or steers selection as PUCT probabilities. With
    ``hints.root_candidates`` the search does not grow a tree: it compares the prior's
    best few actions by play-outs of the rollout policy in common sampled futures
    (rollout improvement, see ``MCTS._root_rollouts``).

Repetitions
    A game whose turns can come back to an earlier position names its turn starts
    (``hints.position_key``). The agent remembers those its game has been through and
    the search scores a line that returns to one as ``hints.repeat_value`` (the draw
    that endless repetition leads to), so two bots do not trade the same moves until
    the turn limit (perfect-information games; the tree must hold states).

Perfect-information games keep each node's state in the tree, so a simulation applies
only the actions below the tree (that is most of the speed in Tic-Tac-Sudoku).

Per-game knowledge (fast unchecked apply, rollout policy, heuristic evaluation with
early cut-off, expansion order, level budgets) comes from the game's ``search.py``
through :func:`sudoku_arena.ai.hints.hints_for`.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Collection, Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from sudoku_arena.ai.hints import LEVELS, Budget, SearchHints, hints_for
from sudoku_arena.core.errors import ArenaError
from sudoku_arena.core.types import MoveKind, ToMove

#: Uniform exploration mixed into regret matching at simultaneous phases.
GAMMA = 0.1
_TERMINAL = MoveKind.TERMINAL
_CHANCE = MoveKind.CHANCE
_WIN = 1.0 - 1e-9


class _Node:
    """A tree node, reached from its parent by ``action`` taken by seat ``mover``.

    ``mover`` is ``None`` for the root, chance outcomes and the node after a
    simultaneous phase. ``w`` is the sum of ``mover``'s returns over the ``n``
    simulations through this node; ``avail`` counts the simulations in which the node's
    action was legal when its parent was visited (IS-MCTS and simultaneous phases).

    ``state``/``tm`` are kept only when the tree is keyed by states (perfect
    information); ``untried``/``kids`` serve those nodes, ``index`` the nodes whose
    available actions change from one simulation to the next; ``private`` holds each
    seat's own tree of a simultaneous phase and ``joint`` the nodes after it.
    ``prior`` is the PUCT probability of the node's action and ``weight`` its raw prior
    weight; ``regret``/``strat`` are the cumulative regret and strategy of regret
    matching in simultaneous phases; ``decisive`` marks a child that wins at once;
    ``repeat`` a child whose state repeats a position of the game (``hints.position_key``).
    """

    __slots__ = (
        "action",
        "avail",
        "decisive",
        "index",
        "joint",
        "kids",
        "mover",
        "n",
        "prior",
        "private",
        "regret",
        "repeat",
        "state",
        "strat",
        "tm",
        "untried",
        "w",
        "weight",
    )

    def __init__(self, action: Any = None, mover: int | None = None) -> None:
        self.action = action
        self.mover = mover
        self.n = 0
        self.w = 0.0
        self.avail = 0
        self.state: Any = None
        self.tm: ToMove | None = None
        self.untried: list[Any] | None = None
        self.kids: list[_Node] = []
        self.index: dict[Any, _Node] = {}
        self.decisive: _Node | None = None
        self.private: dict[int, _Node] = {}
        self.joint: dict[tuple[_Node, ...], _Node] = {}
        self.regret = 0.0
        self.strat = 0.0
        self.prior = 0.0
        self.weight = 0.0
        self.repeat = False


@dataclass(frozen=True, slots=True)
class SearchResult:
    """What a search found: the chosen action and the root's statistics.

    ``stats`` lists ``(action, visits, mean return for the searching seat)`` for every
    root action that was tried, most visited first.
    """

    action: Any
    simulations: int
    seconds: float
    stats: tuple[tuple[Any, int, float], ...]


class MCTS:
    """A search for one game; reusable across decisions (the tree is not kept).

    ``rng`` drives every random choice (determinisation, chance, rollouts, tie order),
    so equal seeds and equal budgets in iterations give equal results.
    """

    def __init__(
        self,
        game: Any,
        *,
        hints: SearchHints | None = None,
        rng: random.Random | None = None,
        exploration: float | None = None,
    ) -> None:
        self.game = game
        self.hints = hints if hints is not None else hints_for(game)
        self.rng = rng if rng is not None else random.Random()
        self.c = exploration if exploration is not None else self.hints.exploration
        self.hidden = bool(game.spec.hidden_information)
        self.keep_states = not self.hidden
        self.solo = game.num_players == 1
        step = self.hints.step
        self._step = step if step is not None else _checked_step
        self._chance = step if step is not None and self.hints.step_chance else _checked_step
        self._lo = math.inf
        self._hi = -math.inf
        self.regret_matching = not self.hints.simultaneous_ucb
        self.puct = self.hints.prior is not None and self.hints.prior_temperature is not None
        self._regret_updates: list[tuple[int, list[_Node], list[float], int]] = []
        self._seen: Collection[Hashable] = ()
        self._repeat_value = [self.hints.repeat_value] * game.num_players

    def _repeats(self, s: Any) -> bool:
        """Whether ``s`` is a turn start the game has already been through."""
        key = self.hints.position_key
        assert key is not None
        k = key(self.game, s)
        return k is not None and k in self._seen

    # -- the search ------------------------------------------------------------------------

    def search(
        self, state: Any, player: int, budget: Budget, seen: Collection[Hashable] = ()
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
        if self.hints.root_candidates is not None:
            return self._root_rollouts(state, player, legal, budget, t0)
        root = _Node()
        if self.keep_states:
            root.state = state
            root.tm = game.to_move(state)
        deadline = None if budget.seconds is None else t0 + budget.seconds
        self._lo, self._hi = math.inf, -math.inf
        sims = 0
        while sims < budget.iterations:
            self._simulate(root, state, player)
            sims += 1
            if deadline is not None and sims & 15 == 0 and time.perf_counter() > deadline:
                break
        return self._result(root, state, player, legal, sims, time.perf_counter() - t0)

    def _root_rollouts(
        self, state: Any, player: int, legal: list[Any], budget: Budget, t0: float
    ) -> SearchResult:
        """Rollout improvement with common random numbers (``hints.root_candidates``).

        The prior's best ``root_candidates`` actions are each followed by a rollout of
        the rollout policy in the same sampled futures: one determinisation, one
        stream of chance outcomes and one policy seed per future, shared by all
        candidates, so that the candidates are compared on equal luck and small
        differences show with few samples. The budget's iterations count rollouts;
        the time cap is checked before every play-out, and a round cut short is
        dropped, so every candidate keeps the same futures (the first round always
        completes, so there is a move to play).
        Playing the best candidate improves on the rollout policy itself (policy
        iteration, Bertsekas' rollout algorithm).
        """
        game = self.game
        hints = self.hints
        rng = self.rng
        k = hints.root_candidates
        assert k is not None
        order = self._order(state, player, list(legal))  # best last
        cands = order[::-1][: max(1, k)]
        if len(cands) == 1:
            return SearchResult(cands[0], 0, time.perf_counter() - t0, ((cands[0], 0, 0.0),))
        rounds = max(1, budget.iterations // len(cands))
        deadline = None if budget.seconds is None else t0 + budget.seconds
        totals = [0.0] * len(cands)
        done = 0
        for _ in range(rounds):
            z = rng.randrange(1 << 62)
            got: list[float] = []
            for a in cands:
                if done and deadline is not None and time.perf_counter() > deadline:
                    break  # out of time mid-round: drop the round, keep luck equal
                det = game.determinize(state, player, random.Random(z)) if self.hidden else state
                s = self._step(game, det, a, player)
                got.append(self._rollout(s, random.Random(z + 1), random.Random(z + 2))[player])
            if len(got) < len(cands):
                break
            for j, v in enumerate(got):
                totals[j] += v
            done += 1
            if deadline is not None and time.perf_counter() > deadline:
                break
        means = [x / done for x in totals]
        best = max(range(len(cands)), key=lambda j: (means[j], -j))
        ranked = sorted(range(len(cands)), key=lambda j: (-means[j], j))
        stats = tuple((cands[j], done, means[j]) for j in ranked)
        return SearchResult(cands[best], done * len(cands), time.perf_counter() - t0, stats)

    def _result(
        self, root: _Node, state: Any, player: int, legal: list[Any], sims: int, secs: float
    ) -> SearchResult:
        if self.keep_states and root.tm is not None and len(root.tm.players) == 1:
            kids = list(root.kids)
        else:
            tree = root.private.get(player, root) if root.private else root
            keys = {self._key(state, a, player) for a in legal}
            kids = [c for k, c in tree.index.items() if k in keys]
        if not kids:  # no simulation finished (a tiny time cap): any legal action
            return SearchResult(self.rng.choice(legal), sims, secs, ())
        kids.sort(key=lambda c: (c.n, c.w / c.n if c.n else 0.0), reverse=True)
        best = root.decisive if root.decisive is not None else kids[0]
        if root.private and self.regret_matching:
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

    def _key(self, s: Any, action: Any, seat: int) -> int:
        """The tree key of a decision (seat in the low 3 bits; chance keys end in 7)."""
        akey = self.hints.action_key
        if akey is not None and self.hidden:
            return int(akey(self.game, s, action, seat)) * 8 + seat
        return int(self.game.encode_action(action)) * 8 + seat

    def _chance_key(self, s: Any, outcome: Any, observer: int) -> int:
        """The tree key of a chance outcome; -1 for outcomes the observer does not see."""
        ckey = self.hints.chance_key
        if ckey is not None and self.hidden:
            k = ckey(self.game, s, outcome, observer)
            return -1 if k is None else int(k) * 8 + 7
        return int(self.game.encode_action(outcome)) * 8 + 7

    def _simulate(self, root: _Node, root_state: Any, player: int) -> None:
        game = self.game
        rng = self.rng
        keep = self.keep_states
        step = self._step
        widen = self.hints.widening
        sqrt = math.sqrt
        s = game.determinize(root_state, player, rng) if self.hidden else root_state
        node = root
        path: list[_Node] = []
        value: Sequence[float] | None = None
        while value is None:
            tm = node.tm if keep else game.to_move(s)
            assert tm is not None
            kind = tm.kind
            if kind is _TERMINAL:
                value = game.returns(s)
                break
            if kind is _CHANCE:
                outcome = _sample(game.chance_outcomes(s), rng)
                key = self._chance_key(s, outcome, player)
                child = node.index.get(key)
                if child is None:
                    child = _Node(outcome)
                    node.index[key] = child
                    if keep:
                        child.state = self._chance(game, s, outcome, None)
                        child.tm = game.to_move(child.state)
                s = child.state if keep else self._chance(game, s, outcome, None)
                path.append(child)
                node = child
                continue
            players = tm.players
            if len(players) > 1:
                s, node, value = self._phase(node, s, players, path)
                continue
            p = players[0]
            if keep:
                if node.decisive is not None:
                    child = node.decisive
                elif self.puct:
                    if node.untried is None:
                        node.untried = []
                        legal = list(game.legal_actions(s, p))
                        probs = self._priors(s, p, legal)
                        for a, pr in zip(legal, probs, strict=True):
                            c = _Node(a, p)
                            c.prior = pr
                            node.kids.append(c)
                    child = self._puct(node, node.kids, node.n)
                    if child.state is None:
                        child.state = s = step(game, s, child.action, p)
                        child.tm = ctm = game.to_move(s)
                        path.append(child)
                        if ctm.kind is _TERMINAL:
                            value = game.returns(s)
                            if value[p] >= _WIN:
                                node.decisive = child
                        elif self._seen and self._repeats(s):
                            child.repeat = True
                            value = self._repeat_value
                        else:
                            value = self._rollout(s)
                        break
                else:
                    untried = node.untried
                    if untried is None:
                        untried = self._order(s, p, list(game.legal_actions(s, p)))
                        node.untried = untried
                    if untried and (widen is None or len(node.kids) < widen * sqrt(node.n + 1)):
                        a = untried.pop()
                        child = _Node(a, p)
                        child.state = s = step(game, s, a, p)
                        child.tm = ctm = game.to_move(s)
                        node.kids.append(child)
                        path.append(child)
                        if ctm.kind is _TERMINAL:
                            value = game.returns(s)
                            if value[p] >= _WIN:
                                node.decisive = child
                        elif self._seen and self._repeats(s):
                            child.repeat = True
                            value = self._repeat_value
                        else:
                            value = self._rollout(s)
                        break
                    child = self._ucb(node)
                if child.repeat:
                    path.append(child)
                    value = self._repeat_value
                    break
                s = child.state
                path.append(child)
                node = child
            else:
                child, new = self._select_available(node, s, p)
                s = step(game, s, child.action, p)
                path.append(child)
                node = child
                if new:
                    value = self._rollout(s)
        self._backup(root, path, value)

    def _phase(
        self, node: _Node, s: Any, players: tuple[int, ...], path: list[_Node]
    ) -> tuple[Any, _Node, Sequence[float] | None]:
        """One pass through a simultaneous phase starting at ``node`` (see module doc)."""
        game = self.game
        step = self._step
        ends: list[_Node] = []
        for j in players:
            pn = node.private.get(j)
            if pn is None:
                pn = node.private[j] = _Node()
            while True:
                tm = game.to_move(s)
                if not tm.is_decision or j not in tm.players:
                    break
                if self.regret_matching:
                    child, new = self._select_regret(pn, s, j)
                else:
                    child, new = self._select_available(pn, s, j)
                s = step(game, s, child.action, j)
                path.append(child)
                pn = child
                if new:
                    return s, node, self._rollout(s)
            ends.append(pn)
        key = tuple(ends)
        after = node.joint.get(key)
        if after is None:
            after = node.joint[key] = _Node()
            if self.keep_states:
                after.state = s
                after.tm = game.to_move(s)
        path.append(after)
        return s, after, None

    # -- selection --------------------------------------------------------------------------

    def _select_regret(self, node: _Node, s: Any, p: int) -> tuple[_Node, bool]:
        """Regret matching at a seat's own node in a simultaneous phase.

        The seat plays each available action with probability proportional to its
        positive cumulative regret (uniformly while none is positive), mixed with
        ``GAMMA`` uniform exploration; the regrets are updated in ``_backup`` from the
        sampled return, importance-weighted (outcome sampling). The average strategy
        (``strat``) approaches an equilibrium of the phase, which is what a seat that
        cannot see the others' choices should play (Lanctot, Lisy and Winands 2013).
        Returns the child and whether the node was new (then the simulation rolls out).
        """
        legal = self.game.legal_actions(s, p)
        index = node.index
        new = not index
        kids = []
        for a in legal:
            k = self._key(s, a, p)
            c = index.get(k)
            if c is None:
                c = index[k] = _Node(a, p)
            c.avail += 1
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
        self._regret_updates.append((p, kids, probs, pick))
        return kids[pick], new

    def _explore(self) -> float:
        c = self.c
        if self.solo and self.hints.adaptive_exploration and self._hi > self._lo:
            c *= self._hi - self._lo
        return c

    def _ucb(self, node: _Node) -> _Node:
        c = self._explore()
        lg = c * c * math.log(node.n) if node.n > 1 else 0.0
        sqrt = math.sqrt
        best = node.kids[0]
        bv = -math.inf
        for k in node.kids:
            n = k.n
            v = k.w / n + sqrt(lg / n)
            if v > bv:
                bv = v
                best = k
        return best

    def _priors(self, s: Any, p: int, actions: list[Any]) -> list[float]:
        """PUCT probabilities: a softmax of the prior weights at the hints' temperature."""
        assert self.hints.prior is not None and self.hints.prior_temperature
        if not actions:
            return []
        w = list(self.hints.prior(self.game, s, p, actions))
        return _softmax(w, self.hints.prior_temperature)

    def _puct(self, node: _Node, kids: Sequence[_Node], visits: int) -> _Node:
        """PUCT: mean return plus exploration weighted by the prior; unvisited children
        count at the visited ones' mean (first-play urgency)."""
        c = self._explore()
        sq = math.sqrt(visits + 1)
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

    def _select_available(self, node: _Node, s: Any, p: int) -> tuple[_Node, bool]:
        """UCB among the children legal in ``s`` (counting availability); expands one
        untried legal action first when there is one (and widening allows it). With a
        PUCT prior, every legal action gets a child at once and PUCT picks among the
        available ones; a child never simulated counts as new."""
        game = self.game
        legal = game.legal_actions(s, p)
        index = node.index
        key = self._key
        keyed = [(key(s, a, p), a) for a in legal]
        if self.puct:
            fresh_actions = [a for k, a in keyed if k not in index]
            if fresh_actions:
                raw = self.hints.prior(game, s, p, fresh_actions)  # type: ignore[misc]
                for a, w in zip(fresh_actions, raw, strict=True):
                    fresh_node = index[key(s, a, p)] = _Node(a, p)
                    fresh_node.weight = float(w)
            kids = [index[k] for k, _ in keyed]
            probs = _softmax([k.weight for k in kids], self.hints.prior_temperature or 1.0)
            for kid, pr in zip(kids, probs, strict=True):
                kid.prior = pr
                kid.avail += 1
            child = self._puct(node, kids, node.n)
            return child, child.n == 0
        fresh = [(k, a) for k, a in keyed if k not in index]
        for k, _ in keyed:
            c = index.get(k)
            if c is not None:
                c.avail += 1
        widen = self.hints.widening
        grown = len(keyed) - len(fresh)
        if fresh and (widen is None or not grown or grown < widen * math.sqrt(node.n + 1)):
            if self.hints.prior is not None:
                order = self._order(s, p, [a for _, a in fresh])
                a = order[-1]
                k = key(s, a, p)
            else:
                k, a = fresh[self.rng.randrange(len(fresh))]
            child = index[k] = _Node(a, p)
            child.avail = 1
            return child, True
        c_ = self._explore()
        sqrt = math.sqrt
        log = math.log
        best: _Node | None = None
        bv = -math.inf
        for k, _ in keyed:
            ch = index.get(k)
            if ch is None:
                continue
            n = ch.n
            if n == 0:
                return ch, False
            v = ch.w / n + c_ * sqrt(log(ch.avail) / n)
            if v > bv:
                bv = v
                best = ch
        assert best is not None
        return best, False

    def _order(self, s: Any, p: int, actions: list[Any]) -> list[Any]:
        """Untried actions in expansion order (the last is expanded first)."""
        self.rng.shuffle(actions)
        prior = self.hints.prior
        if prior is not None and actions:
            weights = prior(self.game, s, p, actions)
            ranked = sorted(range(len(actions)), key=lambda i: weights[i])
            actions = [actions[i] for i in ranked]
        return actions

    # -- evaluation -------------------------------------------------------------------------

    def _rollout(
        self, s: Any, rng: random.Random | None = None, chance_rng: random.Random | None = None
    ) -> Sequence[float]:
        """Play on from ``s`` with the rollout policy; ``rng`` drives the policy and
        ``chance_rng`` the chance outcomes (both the search's generator by default)."""
        game = self.game
        hints = self.hints
        if rng is None:
            rng = self.rng
        crng = chance_rng if chance_rng is not None else rng
        step = self._step
        chance = self._chance
        evaluate = hints.evaluate
        policy = hints.rollout_action
        limit = hints.rollout_depth if evaluate is not None else hints.max_rollout_plies
        depth = 0
        while True:
            tm = game.to_move(s)
            kind = tm.kind
            if kind is _TERMINAL or depth >= limit:
                value: Sequence[float] = (
                    game.returns(s) if kind is _TERMINAL or evaluate is None else evaluate(game, s)
                )
                return value
            if kind is _CHANCE:
                s = chance(game, s, _sample(game.chance_outcomes(s), crng), None)
                continue
            p = tm.players[0]
            if policy is not None:
                a = policy(game, s, p, rng)
            else:
                legal = game.legal_actions(s, p)
                a = legal[rng.randrange(len(legal))]
            s = step(game, s, a, p)
            depth += 1

    def _backup(self, root: _Node, path: list[_Node], value: Sequence[float]) -> None:
        if self._regret_updates:
            for p, kids, probs, pick in self._regret_updates:
                v = value[p]
                for c in kids:
                    c.regret -= v
                kids[pick].regret += v / probs[pick]
            self._regret_updates.clear()
        root.n += 1
        for node in path:
            node.n += 1
            m = node.mover
            if m is not None:
                node.w += value[m]
        if self.solo:
            v = value[0]
            if v < self._lo:
                self._lo = v
            if v > self._hi:
                self._hi = v


def _softmax(weights: Sequence[float], temperature: float) -> list[float]:
    top = max(weights)
    e = [math.exp((w - top) / temperature) for w in weights]
    total = sum(e)
    return [x / total for x in e]


def _checked_step(game: Any, s: Any, a: Any, p: int | None) -> Any:
    return game.apply(s, a, p)


def _sample(outcomes: Sequence[tuple[Any, Any]], rng: random.Random) -> Any:
    r = rng.random()
    acc = 0.0
    for action, prob in outcomes:
        acc += float(prob)
        if r < acc:
            return action
    return outcomes[-1][0]


# -- the agent ----------------------------------------------------------------------------------


def parse_budget(arg: str | None, game: Any) -> tuple[str, Budget]:
    """Read an ``mcts`` argument: a level name, ``N`` simulations or ``Ts`` seconds.

    Returns a label (``normal``, ``500``, ``2s``) and the budget. Raises ``ArenaError``
    with what is allowed.
    """
    text = (arg or "normal").strip().lower()
    if text in LEVELS:
        return text, hints_for(game).budget(text)
    try:
        if text.endswith("s"):
            secs = float(text[:-1])
            if secs > 0 and math.isfinite(secs):
                return text, Budget(10**12, secs)
        else:
            n = int(text)
            if n >= 1:
                return text, Budget(n)
    except ValueError:
        pass
    raise ArenaError(
        f"mcts:{arg}: say a level ({', '.join(LEVELS)}), a number of simulations "
        "(mcts:2000) or seconds per move (mcts:1.5s)"
    )


class MCTSAgent:
    """An MCTS player for any game: ``mcts:hard``, ``mcts:2000``, ``mcts:1.5s``."""

    name = "mcts"

    def __init__(
        self,
        game: Any = None,
        seed: int | None = None,
        *,
        arg: str | None = None,
        budget: Budget | None = None,
    ) -> None:
        self._rng = random.Random(seed)
        if budget is None:
            if game is None:
                raise ArenaError("an mcts agent needs the game to find its level's budget")
            label, budget = parse_budget(arg, game)
        else:
            label = arg or "custom"
        self.label = label
        self.budget = budget
        self.name = f"mcts:{label}"
        self._search: MCTS | None = None
        self._seen: set[Hashable] = set()
        self.last: SearchResult | None = None

    def act(self, game: Any, state: Any, player: int) -> Any:
        """Search for ``player``; also remember the game's turn starts (``position_key``):
        the one it acts in and the one its action hands to the next player. One agent
        plays one game: a new game needs a new agent (or a new game object)."""
        if self._search is None or self._search.game is not game:
            if self._search is not None:
                self._seen = set()  # another game object: another game
            self._search = MCTS(game, rng=self._rng)
        key = self._search.hints.position_key
        if key is not None:
            self._remember(key(game, state))
        self.last = self._search.search(state, player, self.budget, self._seen)
        if key is not None:
            self._remember(key(game, game.apply(state, self.last.action, player)))
        return self.last.action

    def remember(self, keys: Iterable[Hashable]) -> None:
        """Add turn starts the game went through before this agent was made (see
        :func:`position_keys`): a caller that builds a new agent for every move (the
        server) hands it the game's history this way."""
        self._seen.update(keys)

    def _remember(self, k: Hashable | None) -> None:
        if k is not None:
            self._seen.add(k)


def position_keys(game: Any, states: Iterable[Any]) -> list[Hashable]:
    """The ``position_key`` of every turn start among ``states`` (a game's history), for
    :meth:`MCTSAgent.remember`; empty for games that do not name their positions or that
    hide information (the search ignores repetitions there)."""
    key = hints_for(game).position_key
    if key is None or game.spec.hidden_information:
        return []
    out: list[Hashable] = []
    for s in states:
        k = key(game, s)
        if k is not None:
            out.append(k)
    return out


def level_factory(level: str) -> Any:
    """A factory for the plain level names (``easy``, ``normal``, ``hard``)."""

    def make(game: Any = None, seed: int | None = None, arg: str | None = None) -> MCTSAgent:
        if arg:
            raise ArenaError(f"{level} takes no argument; say mcts:{arg} for a custom budget")
        return MCTSAgent(game, seed, arg=level)

    return make
