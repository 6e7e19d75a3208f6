"""SH-6: hands are secret until played, the pile order is secret to all.

The leak test re-deals everything an observer cannot see with a re-dealer written here
(independent of the engine's ``determinize``) and requires identical views.
"""

from __future__ import annotations

import random
import sys
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudoku_arena.core import Match, load
from sudoku_arena.games.sudokuhex.agents import GreedyAgent
from sudoku_arena.games.sudokuhex.game import HexState, SuDokuHex
from sudoku_arena.games.sudokuhex.render import render_panel, render_text
from sudoku_arena.games.sudokuhex.render import render_svg as render_board

sys.path.insert(0, str(Path(__file__).parent))
from sudokuhex_helpers import SETUP, SEVENS, play, random_states


def render_svg(view: dict) -> str:  # type: ignore[type-arg]
    """The board and the panel beside it (scores, hands, the pile), as the page shows them."""
    return render_board(view) + "\n" + render_panel(view)


def game(players: int) -> SuDokuHex:
    g = load("sudokuhex", players=players)
    assert isinstance(g, SuDokuHex)
    return g


def redeal(s: HexState, observer: int | None, rng: random.Random) -> HexState:
    """Shuffle the tiles ``observer`` has not seen among the other hands and the pile."""
    holders = [p for p, v in enumerate(s.hands) if v and p != observer]
    tiles = [v for v, c in enumerate(s.pile, start=1) for _ in range(c)]
    tiles += [s.hands[p] for p in holders]
    rng.shuffle(tiles)
    hands = list(s.hands)
    for p in holders:
        hands[p] = tiles.pop()
    pile = [0] * 7
    for v in tiles:
        pile[v - 1] += 1
    return s.but(hands=tuple(hands), pile=tuple(pile))


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(1, 4))
def test_sh_6_leak_views_ignore_other_hands_and_the_pile(seed: int, players: int) -> None:
    g = game(players)
    rng = random.Random(seed)
    for s in random_states(g, seed, stride=2):
        for obs in [None, *range(players)]:
            view = g.view(s, obs)
            for _ in range(3):
                other = redeal(s, obs, rng)
                assert g.view(other, obs) == view
                if obs is not None:
                    assert g.legal_actions(other, obs) == g.legal_actions(s, obs)


@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_sh_6_leak_drawings_ignore_other_hands_and_the_pile(seed: int) -> None:
    g = game(3)
    rng = random.Random(seed)
    for s in random_states(g, seed, stride=9):
        for obs in (None, 0, 1, 2):
            other = redeal(s, obs, rng)
            assert render_svg(g.view(other, obs)) == render_svg(g.view(s, obs))
            assert render_text(g.view(other, obs)) == render_text(g.view(s, obs))


def test_sh_6_views_really_differ_where_the_observer_may_see() -> None:
    # Sanity for the leak test: one's own hand does show.
    g = game(2)
    s = play(g, SETUP)
    other = s.but(
        hands=(3, 2), pile=tuple(c + (v == 4) - (v == 3) for v, c in enumerate(s.pile, start=1))
    )
    assert g.view(other, 0) != g.view(s, 0)
    assert g.view(other, 1) == g.view(s, 1)
    assert g.view(other, None) == g.view(s, None)


@pytest.mark.parametrize("players", [2, 4])
def test_sh_6_determinize_keeps_what_the_observer_sees(players: int) -> None:
    g = game(players)
    rng = random.Random(1)
    for seed in range(3):
        for s in random_states(g, seed, stride=5):
            for obs in range(players):
                d = g.determinize(s, obs, rng)
                assert g.view(d, obs) == g.view(s, obs)
                assert g.legal_actions(d, obs) == g.legal_actions(s, obs)
                assert d.hands[obs] == s.hands[obs] and d.board == s.board
                assert g.load_state(g.dump_state(d)) == d  # a possible position


def test_sh_6_determinize_redeals_other_hands_at_random() -> None:
    # Blue's real tile is a 2; red sees 6 tiles of every number but 4 (5 left) unseen.
    g = game(2)
    s = play(g, [*SETUP, "A0", "draw 5"])  # blue to move; red holds 5 and sees A0
    rng = random.Random(7)
    seen = Counter(g.determinize(s, 0, rng).hands[1] for _ in range(3000))
    # Blue's tile has a legal hex whatever it is here, so all 7 numbers appear in
    # proportion to the unseen counts; the true 2 is not favoured.
    unseen = g.view(s, 0)["unseen"]
    total = sum(unseen)
    for v in range(1, 8):
        expected = 3000 * unseen[v - 1] / total
        assert abs(seen[v] - expected) < 5 * expected**0.5 + 1


def test_sh_6_determinize_gives_the_mover_a_tile_that_fits() -> None:
    # Six 7s are down and no hex takes a 7 (SEVENS), but here blue holds a 2 and the
    # last 7 is still in the pile. Red knows blue's tile fits somewhere (the game goes
    # on), so a re-deal for red never hands blue the 7.
    g = game(2)
    data = g.dump_state(play(g, SEVENS))
    data["hands"] = [0, 2]
    data["pile"] = [6, 5, 6, 6, 6, 6, 1]
    s = play(g, ["draw 1"], g.load_state(data))
    assert g.to_move(s).players == (1,) and s.hands == (1, 2)
    assert g.legal_mask(s, 7) == 0 and s.pile[6] == 1
    rng = random.Random(3)
    dealt = Counter(g.determinize(s, 0, rng).hands[1] for _ in range(300))
    assert 7 not in dealt and len(dealt) == 6


def test_sh_6_determinize_at_a_no_hex_end_deals_the_stuck_tile() -> None:
    g = game(2)
    s = play(g, [*SEVENS, "draw 1"])
    assert s.end == "no-hex" and s.hands == (1, 7)
    rng = random.Random(5)
    assert {g.determinize(s, 0, rng).hands[1] for _ in range(50)} == {7}


def test_sh_6_greedy_agent_acts_the_same_whatever_the_hidden_deal() -> None:
    g = game(3)
    rng = random.Random(11)
    for s in random_states(g, 4, stride=4):
        tm = g.to_move(s)
        if not tm.is_decision:
            continue
        p = tm.players[0]
        first = GreedyAgent(seed=9).act(g, s, p)
        for _ in range(3):
            other = redeal(s, p, rng)
            assert GreedyAgent(seed=9).act(g, other, p) == first


def test_sh_6_match_gives_agents_determinised_states() -> None:
    # The opponent's tile an agent is shown is re-dealt, not the true one: over many
    # matches it varies and often differs from the tile really held.
    pairs = []
    for seed in range(40):
        m = Match(game(2), seed=seed)
        pairs.append((m.state.hands[1], m.agent_state(0).hands[1]))
    assert all(true in range(1, 8) for true, _ in pairs)
    assert len({shown for _, shown in pairs}) > 1
    assert sum(true != shown for true, shown in pairs) >= 10
