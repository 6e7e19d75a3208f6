"""Search knowledge for Citadel, read by the generic MCTS (types in ``core/search.py``).

Games run to hundreds of small actions, so random rollouts mean nothing; simulations
stop at the node they add and score it with a heuristic:

* citadels controlled (CI-7, CI-9: two more than the opponent wins) weigh most;
* warriors on the board, and warriors standing on own citadels, counted by how close
  the nearest enemy warrior is: a guard matters only where a citadel is threatened (a
  flat bonus kept warriors at home and left both sides deadlocked until the turn
  limit, a third of hard's games against greedy drawn);
* reach: for every citadel a player does not control, how close his nearest warrior
  is (a warrior next to an empty enemy citadel takes it next turn); walls are ignored
  for speed;
* material as a share (the warrior difference over the warriors on the board), so
  that even trades help the side ahead and an army is worth building;
* pressure: around every citadel a player does not control, his warriors within
  three steps against the enemy's, so that an army masses where it can take one
  rather than idling behind its lead;
* a projection (``_project``) of what the next three half-turns take without a
  search: the mover walks into empty citadels his remaining credits reach and takes
  held ones he can win by one attack and a step, then the opponent with his next
  turn, then the mover again; a lead of two at a turn start is scored as the win it
  is (CI-9). The searched tree covers only a few of a turn's many small actions, and
  without this the search did not see the opponent's reply: it lost races for the
  neutral citadels and did not see its own capture one turn away.

Expansion follows the greedy agent's action scores (``agents.GreedyAgent.scores``) with
progressive widening, so the search spends its simulations on sensible actions among
the hundreds that are legal.

Two searching players used to go round in circles: each turn one recruited a warrior,
killed the other's warrior on the same cell and stepped onto it, and the other did the
same back, until the turn limit (13 of the first 18 games of hard against normal drawn
after 300 turns). ``position_key`` names a turn start without its turn counter, so the
search scores a line that comes back to a position of the game as the draw it leads to
(``repeat_value`` 0, as CI-9's draw scores) and looks for progress instead.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from sudoku_arena.core.search import Budget, SearchHints
from sudoku_arena.games.citadel.agents import GreedyAgent
from sudoku_arena.games.citadel.game import PLAY, RECRUIT_COST, Citadel, CitadelState
from sudoku_arena.games.citadel.rules import EMPTY, positions

#: Weights of the features (per unit of difference between the players).
W_CITADEL = 1.0
W_MATERIAL = 3.5
W_GUARD = 0.2
W_REACH = 1.0
W_PRESS = 0.6
#: Weight of the citadels the projection (``_project``) sees change hands.
W_PROJECT = 0.4
#: Value of a win or loss the projection sees coming at the next turn start.
W_PROJECT_WIN = 1.0
#: Extra warriors the material share counts on each side (damps it early on).
MATERIAL_DAMP = 4
#: Weight of a warrior near a citadel, by its distance (1, 2, 3 steps).
PRESS_NEAR = (0.0, 1.0, 0.6, 0.3)
#: Local superiority (weighted warriors) at which the pressure term is worth ~3/4.
PRESS_SCALE = 3.0
#: How sharply the weighted difference becomes a chance to win.
SCALE = 1.2

#: Scores actions for the prior, without jitter: it keeps no state between calls, so a
#: search depends on its own seed only (the search breaks ties with its own generator).
_scorer = GreedyAgent(seed=0)


def _step(game: Citadel, s: CitadelState, a: int, p: int | None) -> CitadelState:
    assert p is not None
    return game._do(s, a, p)


def _presence(r: int, col: int, warriors: list[tuple[int, int]]) -> float:
    """Warriors near cell (r, col), weighted by ``PRESS_NEAR``."""
    near = PRESS_NEAR
    total = 0.0
    for x, y in warriors:
        d = abs(r - x) + abs(col - y)
        if d <= 3:
            total += near[d]
    return total


def _side(
    game: Citadel,
    s: CitadelState,
    p: int,
    coords: list[tuple[int, int]],
    enemies: list[tuple[int, int]],
) -> float:
    n = game.size
    board = s.board
    code = p + 1
    held = 0
    guard = 0.0
    reach = 0.0
    press = 0.0
    for k, c in enumerate(s.citadels):
        ctl = game.controller(s, k)
        r, col = divmod(c, n)
        if ctl == p:
            held += 1
            if board[c] == code:
                near = min((abs(r - x) + abs(col - y) for x, y in enemies), default=n * 2)
                guard += math.exp(-(max(near, 1) - 1) / 2.0)
            continue
        if not coords:
            continue
        d = min(abs(r - x) + abs(col - y) for x, y in coords)
        # An enemy warrior standing on it must be fought first: count it farther.
        if board[c] and board[c] != code:
            d += 3
        reach += math.exp(-d / 3.0) * (1.5 if ctl >= 0 else 1.0)
        local = _presence(r, col, coords) - _presence(r, col, enemies)
        press += math.tanh(local / PRESS_SCALE) * (1.0 if ctl >= 0 else 0.5)
    return W_CITADEL * held + W_GUARD * guard + W_REACH * reach + W_PRESS * press


def _walk(
    nbrs: tuple[tuple[int, ...], ...],
    board: tuple[int, ...],
    starts: list[int],
    limit: int,
    targets: dict[int, int],
    found: dict[int, int],
    offset: int,
) -> None:
    """Breadth first over empty points from ``starts`` for ``limit`` steps; record in
    ``found`` (target index -> cost) the cheapest ``offset + steps`` to each target."""
    seen = set(starts)
    frontier = starts
    for d in range(1, limit + 1):
        nxt: list[int] = []
        for x in frontier:
            for y in nbrs[x]:
                if board[y] == EMPTY and y not in seen:
                    seen.add(y)
                    nxt.append(y)
                    k = targets.get(y)
                    if k is not None and found.get(k, limit + offset + 1) > d + offset:
                        found[k] = d + offset
        if not nxt:
            return
        frontier = nxt


def _assaults(
    game: Citadel, s: CitadelState, p: int, taken: set[int], found: dict[int, int]
) -> None:
    """Enemy citadels ``p`` can take by a fight and a step (1 credit): a warrior of his
    next to it stronger than the one standing on it, or as strong with a second warrior
    of his next to it to step in after the trade (CI-5, CI-6)."""
    board = s.board
    code = p + 1
    geo = game.geo
    cits = game.citadel_set(s)
    # The mover's warriors that attacked this turn may not attack again (CI-6).
    spent = s.spent if p == s.current else frozenset()
    for k, c in enumerate(s.citadels):
        if k in taken or k in found or board[c] != 2 - p:
            continue
        mine = [y for y in geo.nbrs[c] if board[y] == code and y not in spent]
        if not mine:
            continue
        sd = geo.strength(board, c, cits)
        best = max(geo.strength(board, y, cits) for y in mine)
        if best > sd or (best == sd and len(mine) >= 2):
            found[k] = 1


def _walks(
    game: Citadel,
    s: CitadelState,
    p: int,
    credits: int,
    targets: dict[int, int],
    found: dict[int, int],
) -> None:
    """The cheapest walk (or recruit and walk) of ``p`` to each empty target."""
    board = s.board
    nbrs = game.geo.nbrs
    _walk(nbrs, board, positions(board, p + 1), credits, targets, found, 0)
    if credits >= RECRUIT_COST:
        spots: list[int] = []
        for k, c in enumerate(s.citadels):
            if s.owners[k] == p:
                for y in nbrs[c]:
                    if board[y] == EMPTY:
                        spots.append(y)
                        t = targets.get(y)
                        if t is not None and found.get(t, credits + 1) > RECRUIT_COST:
                            found[t] = RECRUIT_COST
        _walk(nbrs, board, spots, credits - RECRUIT_COST, targets, found, RECRUIT_COST)


def _entries(game: Citadel, s: CitadelState, p: int, credits: int, taken: set[int]) -> list[int]:
    """Citadels ``p`` can take with ``credits`` (not his, not in ``taken``).

    Empty ones by walking: steps go through empty points from his warriors (a recruit
    next to one of his citadels costs 2 and starts there). Held ones by
    :func:`_assaults`. Nearest first, each one's cost paid from the credits: a cheap
    look at what one turn can take.
    """
    if credits <= 0:
        return []
    board = s.board
    targets: dict[int, int] = {}
    for k, c in enumerate(s.citadels):
        if board[c] == EMPTY and s.owners[k] != p and k not in taken:
            targets[c] = k
    found: dict[int, int] = {}
    if targets:
        _walks(game, s, p, credits, targets, found)
    _assaults(game, s, p, taken, found)
    out: list[int] = []
    left = credits
    for k, cost in sorted(found.items(), key=lambda kv: kv[1]):
        if cost <= left:
            out.append(k)
            left -= cost
    return out


def _project(game: Citadel, s: CitadelState) -> tuple[float, float]:
    """Seat 0's projected gain in citadel difference over three half-turns, and a win
    (+1), loss (-1) or nothing (0) seen coming at a turn start (CI-9).

    The mover walks into what his remaining credits reach (:func:`_entries`), then the
    opponent with his whole next turn, then the mover with his next turn. The third
    half-turn matters: with two, a mover who spends a credit on anything but a walk
    loses the walk from the projection, while ending his turn at once brings it back
    (his next turn then counts), and the bots passed turn after turn.
    """
    m = s.current
    cnt = list(game.control_counts(s))
    base = cnt[0] - cnt[1]
    owner = [game.controller(s, k) for k in range(len(s.citadels))]
    taken: set[int] = set()
    p = m
    credits = s.credits
    for _half in range(3):
        for k in _entries(game, s, p, credits, taken):
            if owner[k] >= 0:
                cnt[owner[k]] -= 1
            owner[k] = p
            cnt[p] += 1
            taken.add(k)
        p = 1 - p
        credits = cnt[p]
        if cnt[p] - cnt[1 - p] >= 2:
            return float(cnt[0] - cnt[1] - base), (1.0 if p == 0 else -1.0)
    return float(cnt[0] - cnt[1] - base), 0.0


def evaluate(game: Citadel, s: CitadelState) -> tuple[float, float]:
    """Each seat's estimated chance to win the non-terminal ``s``."""
    if s.phase != PLAY:
        return (0.5, 0.5)
    n = game.size
    w0 = [divmod(i, n) for i in positions(s.board, 1)]
    w1 = [divmod(i, n) for i in positions(s.board, 2)]
    n0, n1 = len(w0), len(w1)
    d = _side(game, s, 0, w0, w1) - _side(game, s, 1, w1, w0)
    d += W_MATERIAL * (n0 - n1) / (n0 + n1 + 2 * MATERIAL_DAMP)
    gain, win = _project(game, s)
    d += W_PROJECT * gain + W_PROJECT_WIN * win
    v = 1.0 / (1.0 + math.exp(-SCALE * d))
    return (v, 1.0 - v)


def _prior(game: Citadel, s: CitadelState, p: int, actions: Sequence[int]) -> Sequence[float]:
    if s.phase != PLAY:
        return [0.0] * len(actions)
    return _scorer.scores(game, s, p, list(actions), jitter=False)


def position_key(game: Citadel, s: CitadelState) -> bytes | None:
    """The position at the start of a turn (board, control, mover); ``None`` mid-turn.

    Every action but ``end`` spends a credit, marks its warriors spent (attacks) or
    counts a siege capture, so a turn is untouched while none of these has happened.
    Bytes, because the server hands a game's keys to its bot workers every move.
    """
    if s.phase != PLAY or s.spent or s.sieges:
        return None
    if s.credits != game.control_counts(s)[s.current]:
        return None
    return bytes(s.board) + bytes(o + 1 for o in s.owners) + bytes((s.current,))


def _rollout(game: Citadel, s: CitadelState, p: int, rng: random.Random) -> int:
    legal = game.legal_actions(s, p)
    return legal[rng.randrange(len(legal))]


def search_hints(game: Citadel) -> SearchHints:
    return SearchHints(
        levels={
            "easy": Budget(60, 0.3),
            "normal": Budget(300, 0.8),
            "hard": Budget(1200, 2.5),
        },
        exploration=0.4,
        step=_step,
        evaluate=evaluate,
        rollout_depth=0,
        prior=_prior,
        widening=1.5,
        position_key=position_key,
        repeat_value=0.0,
    )
