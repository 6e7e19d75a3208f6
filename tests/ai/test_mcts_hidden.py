"""IS-MCTS on SuDokuHex: the bot's choice cannot depend on what its seat does not see."""

from __future__ import annotations

import random
from collections import Counter

from sudoku_arena.ai import make_agent
from sudoku_arena.ai.hints import Budget
from sudoku_arena.ai.mcts import MCTS
from sudoku_arena.core.match import Match
from sudoku_arena.core.registry import load
from sudoku_arena.games.sudokuhex.game import HexState, SuDokuHex


def midgame(seed: int, plies: int = 6) -> tuple[SuDokuHex, HexState, int]:
    game = load("sudokuhex", players=2, seed=seed)
    m = Match(game, seed=seed)
    rng = random.Random(seed)
    for _ in range(plies):
        p = m.to_move().players[0]
        m.play(rng.choice(list(game.legal_actions(m.state, p))), p)
    assert not m.is_over
    return game, m.state, m.to_move().players[0]


def other_hands(s: HexState, me: int) -> list[HexState]:
    """``s`` with the opponent's tile swapped for each other number still in the pile
    (what ``me`` sees is unchanged: the unseen tiles are the same multiset)."""
    opp = 1 - me
    v = s.hands[opp]
    out = []
    for w in range(1, 8):
        if w != v and s.pile[w - 1]:
            pile = list(s.pile)
            pile[w - 1] -= 1
            pile[v - 1] += 1
            hands = list(s.hands)
            hands[opp] = w
            out.append(s.but(hands=tuple(hands), pile=tuple(pile)))
    return out


def test_choice_does_not_depend_on_the_opponents_hidden_tile() -> None:
    game, s, me = midgame(4)
    variants = other_hands(s, me)
    assert len(variants) >= 2
    results = []
    for state in [s, *variants]:
        assert game.view(state, me) == game.view(s, me)
        r = MCTS(game, rng=random.Random(9)).search(state, me, Budget(300))
        results.append((r.action, r.stats))
    assert all(x == results[0] for x in results)


def test_move_distribution_is_the_same_for_any_hidden_tile() -> None:
    game, s, me = midgame(7, plies=8)
    variants = other_hands(s, me)[:2]
    dists = []
    for state in [s, *variants]:
        moves = Counter(
            make_agent("mcts:60", game, seed=seed).act(game, state, me) for seed in range(12)
        )
        dists.append(moves)
    assert dists[1:] == [dists[0]] * len(variants)


def test_opponent_replies_are_keyed_by_the_tile_they_reveal() -> None:
    from sudoku_arena.ai.hints import hints_for

    game, s, me = midgame(2)
    hints = hints_for(game)
    assert hints.action_key is not None and hints.chance_key is not None
    opp = 1 - me
    a = game.legal_actions(s, me)[0]
    # a placement's key carries the number it shows; another seat's draw is unseen
    assert hints.action_key(game, s, a, me) != a or s.hands[me] == 0
    t = game.apply(s, a, me)
    draw = game.chance_outcomes(t)[0][0]
    assert hints.chance_key(game, t, draw, me) is not None
    assert hints.chance_key(game, t, draw, opp) is None
