"""Scenario tests written in notation, views, renderers and the greedy agent."""

from __future__ import annotations

import json
import pickle
import random
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sudoku_arena
from sudoku_arena.ai import make_agent
from sudoku_arena.core.errors import IllegalActionError, NotationError, StateFormatError
from sudoku_arena.games.tic_tac_sudoku.game import TicTacSudoku
from sudoku_arena.games.tic_tac_sudoku.render import render_svg, render_text

sys.path.insert(0, str(Path(__file__).parent))
from helpers import play, position


@pytest.fixture
def game(fixed_grid: str) -> TicTacSudoku:
    g = sudoku_arena.load("tic-tac-sudoku", grid=fixed_grid)
    assert isinstance(g, TicTacSudoku)
    return g


def test_opening_sequence(game: TicTacSudoku) -> None:
    # circle 5, square 9, circle 4 (5-1), square 1 (wrap from 9), circle 5 in b5: X on r1c3
    s = play(game, ["r1c1", "r9c9", "r1c3", "r1c8", "r5c5"])
    v = game.view(s, None)
    assert v["cells"][0] == "circle-filled"
    assert v["cells"][2] == "x"
    assert v["cells"][7] == "square-open" and v["cells"][80] == "square-filled"
    assert v["to_move"] == [1] and v["scores"] == [0, 0]
    assert v["legal"] == [game.format_action(a) for a in game.legal_actions(s, 1)]


def test_notation_is_tolerant_and_strict(game: TicTacSudoku) -> None:
    assert game.parse_action(" R1C1 ") == 0
    for bad in ("r10c1", "a1", "", "r1c0"):
        with pytest.raises(NotationError, match="r<row>c<column>"):
            game.parse_action(bad)
    with pytest.raises(NotationError, match="out of range"):
        game.decode_action(81)


def test_illegal_move_leaves_state_unchanged(game: TicTacSudoku) -> None:
    s = play(game, ["r1c1"])
    before = game.dump_state(s)
    with pytest.raises(IllegalActionError):
        game.apply(s, game.parse_action("r1c1"))
    with pytest.raises(IllegalActionError, match="not a cell"):
        game.apply(s, 99)
    # Not an int at all: refused by the rules, compiled or not (never a TypeError).
    for bad in ("r2c2", 1.0, None, True):
        with pytest.raises(IllegalActionError, match="not a cell"):
            game.apply(s, bad)  # type: ignore[arg-type]
    assert game.dump_state(s) == before


def test_states_compare_hash_pickle_and_replace_by_value(game: TicTacSudoku) -> None:
    s = play(game, ["r1c1", "r9c9", "r1c3", "r1c8", "r5c5"])
    again = play(game, ["r1c1", "r9c9", "r1c3", "r1c8", "r5c5"])
    assert s == again and hash(s) == hash(again) and s is not again
    assert pickle.loads(pickle.dumps(s)) == s
    assert s != play(game, ["r1c1", "r9c9", "r1c3", "r1c8"])
    # The named-tuple fields read and replace as 81-bit masks and pairs.
    assert s.xs == 1 << 2 and s.marks[0] == 1 | 1 << 40 and s.open == (40, 7)
    changed = s._replace(scores=(3, 4), xs=0)
    assert changed.scores == (3, 4) and changed.xs == 0 and changed.marks == s.marks
    assert changed != s and s.scores == (0, 0)


def test_game_over_refuses_moves(game: TicTacSudoku) -> None:
    s = position(game, circles="r1c1 r1c2", open_=("r1c2", None), squares="r9c9", scores=(12, 0))
    s = game.apply(s, game.parse_action("r1c3"))
    with pytest.raises(IllegalActionError, match="game is over"):
        game.apply(s, game.parse_action("r2c2"))
    assert game.legal_actions(s, 0) == () and game.legal_actions(s, 1) == ()


def test_load_state_refuses_garbage(game: TicTacSudoku) -> None:
    with pytest.raises(StateFormatError):
        game.load_state({"cells": "12"})
    with pytest.raises(StateFormatError):
        game.load_state({})


def test_text_render_shows_symbols_map_and_scores(game: TicTacSudoku) -> None:
    s = play(game, ["r1c1", "r9c9", "r1c3"])
    text = render_text(game.view(s, None))
    assert "(4)" in text and "●" in text and "[9]" in text
    assert "circle (O): 0" in text and "To move: square" in text
    assert "\x1b[" not in text and "\x1b[" in render_text(game.view(s, None), color=True)


def test_svg_marks_every_legal_space_clickable(game: TicTacSudoku) -> None:
    s = play(game, ["r1c1", "r9c9"])
    v = game.view(s, 0)
    root = ET.fromstring(render_svg(v))
    actions = sorted(el.get("data-action") or "" for el in root.iter() if el.get("data-action"))
    assert actions == sorted(v["legal"]) and actions


def test_greedy_takes_a_scoring_move(game: TicTacSudoku) -> None:
    s = position(game, circles="r1c1 r1c2", open_=("r1c2", None), squares="r9c9")
    agent = make_agent("greedy", game, seed=0)
    assert game.format_action(agent.act(game, s, 0)) == "r1c3"


def test_greedy_blocks_when_it_cannot_gain(game: TicTacSudoku) -> None:
    # Square holds r1c1 r1c2 with its open symbol on r1c2 (3), threatening r1c3 (4).
    # Circle, open on r9c8 (7), cannot score: greedy must leave square the least.
    s = position(
        game,
        squares="r1c1 r1c2",
        circles="r9c8",
        open_=("r9c8", "r1c2"),  # circle open on 7 reaches 6, 7, 8
    )
    agent = make_agent("greedy", game, seed=0)
    choice = agent.act(game, s, 0)
    after = game.apply(s, choice)
    # whatever it picks, square's best reply is as small as it can be made
    from sudoku_arena.games.tic_tac_sudoku.agents import best_gain

    best_possible = min(best_gain(game, game.apply(s, a), 1) for a in game.legal_actions(s, 0))
    assert best_gain(game, after, 1) == best_possible


def test_greedy_beats_random_clearly(fixed_grid: str) -> None:
    wins = 0
    for seed in range(40):
        m = sudoku_arena.Match.new("tic-tac-sudoku", seed=seed)
        seats = (make_agent("greedy", m.game, seed=seed), make_agent("random", m.game, seed=seed))
        order = seats if seed % 2 == 0 else seats[::-1]
        out = m.run(list(order))
        greedy_seat = 0 if seed % 2 == 0 else 1
        wins += greedy_seat in out.winners
    assert wins >= 34


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=0, max_value=10**6))
def test_random_games_keep_the_invariants(seed: int) -> None:
    g = sudoku_arena.load("tic-tac-sudoku", seed=seed)
    rng = random.Random(seed)
    s = g.initial_state()
    plies = 0
    while not g.to_move(s).is_terminal:
        p = g.to_move(s).players[0]
        nxt = g.apply(s, rng.choice(list(g.legal_actions(s, p))), p)
        # scores never fall, map marks never vanish, one more symbol per ply
        assert all(b >= a for a, b in zip(s.scores, nxt.scores, strict=True))
        assert all(a == -1 or a == b for a, b in zip(s.map, nxt.map, strict=True))
        assert sum(c != 0 for c in nxt.cells) == sum(c != 0 for c in s.cells) + 1
        assert sum(c == 3 for c in nxt.cells) <= 1
        assert g.load_state(json.loads(json.dumps(g.dump_state(nxt)))) == nxt
        s, plies = nxt, plies + 1
    out = g.outcome(s)
    assert out is not None and len(out.winners) == 1
    w = out.winners[0]
    assert (
        s.scores[w] >= g.target
        or s.map.count(w) >= 3
        or (s.scores[w] >= s.scores[1 - w] and all(s.stuck))
    )
    assert plies <= 81
