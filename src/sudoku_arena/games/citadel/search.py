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
  for speed.

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
from collections.abc import Sequence

from sudoku_arena.core.search import Budget, SearchHints
from sudoku_arena.games.citadel.agents import GreedyAgent
from sudoku_arena.games.citadel.game import PLAY, Citadel, CitadelState
from sudoku_arena.games.citadel.rules import positions

#: Weights of the features (per unit of difference between the players).
W_CITADEL = 1.0
W_WARRIOR = 0.25
W_GUARD = 0.2
W_REACH = 1.0
#: How sharply the weighted difference becomes a chance to win.
SCALE = 1.2

#: Scores actions for the prior, without jitter: it keeps no state between calls, so a
#: search depends on its own seed only (the search breaks ties with its own generator).
_scorer = GreedyAgent(seed=0)


def _step(game: Citadel, s: CitadelState, a: int, p: int | None) -> CitadelState:
    assert p is not None
    return game._do(s, a, p)


def _side(game: Citadel, s: CitadelState, p: int, mine: list[int], theirs: list[int]) -> float:
    n = game.size
    board = s.board
    code = p + 1
    value = 0.0
    held = 0
    guard = 0.0
    reach = 0.0
    coords = [divmod(i, n) for i in mine]
    enemies = [divmod(i, n) for i in theirs]
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
    value += W_CITADEL * held + W_WARRIOR * len(mine) + W_GUARD * guard + W_REACH * reach
    return value


def evaluate(game: Citadel, s: CitadelState) -> tuple[float, float]:
    """Each seat's estimated chance to win the non-terminal ``s``."""
    if s.phase != PLAY:
        return (0.5, 0.5)
    w0 = positions(s.board, 1)
    w1 = positions(s.board, 2)
    d = _side(game, s, 0, w0, w1) - _side(game, s, 1, w1, w0)
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
