"""Views, drawings, the greedy agent and properties of random games of Sudoku Warriors."""

from __future__ import annotations

import random
import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sudoku_arena
from sudoku_arena.ai import make_agent
from sudoku_arena.core.errors import IllegalActionError, StateFormatError
from sudoku_arena.core.match import Match
from sudoku_arena.core.record import replay
from sudoku_arena.games.sudoku_warriors.agents import GreedyAgent
from sudoku_arena.games.sudoku_warriors.game import SudokuWarriors, SWState
from sudoku_arena.games.sudoku_warriors.render import render_svg, render_text
from sudoku_arena.games.sudoku_warriors.rules import NUM_ACTIONS, XD, YIELD

sys.path.insert(0, str(Path(__file__).parent))
from sw_helpers import B1_BATTLE, TWO_BATTLES, board, legal, mover, play

CIRCLE, SQUARE = 0, 1


@pytest.fixture
def game(fixed_grid: str) -> SudokuWarriors:
    g = sudoku_arena.load("sudoku-warriors", grid=fixed_grid)
    assert isinstance(g, SudokuWarriors)
    return g


@pytest.fixture
def b1_battle(game: SudokuWarriors) -> SWState:
    return play(game, game.position(B1_BATTLE, to_move=SQUARE, spent=["r1c1"]), ["h03"])


def svg_elements(svg: str) -> list[ET.Element]:
    root = ET.fromstring(svg)
    assert root.tag.endswith("svg") and root.get("viewBox")
    return list(root.iter())


# -- views and drawings ------------------------------------------------------------------------


def test_view_shows_the_battle_panel(game: SudokuWarriors, b1_battle: SWState) -> None:
    view = game.view(b1_battle, None)
    assert view["phase"] == "bid" and view["to_move"] == [SQUARE]
    battle = view["battle"]
    assert battle["participants"] == [SQUARE, CIRCLE] and battle["active"] == [SQUARE, CIRCLE]
    assert battle["scores"] == [7, 9] and battle["opening"] and battle["actor"] == SQUARE
    assert view["last"] == "h03" and view["spent"][0] is True
    assert view["hilltops"][3] == "square" and view["legal"][-1] == "yield"
    text = render_text(view)
    assert "Battle for b1 (capital r2c2): square 9, circle 7" in text
    assert "square to bid (opening bid: at most one village)" in text
    assert "circle may add: r1c5=7" in text
    assert "\x1b[" not in text and "\x1b[" in render_text(view, color=True)


def test_svg_places_on_hilltops(game: SudokuWarriors) -> None:
    s = play(game, game.initial_state(), ["h37", "h00"])
    view = game.view(s, None)
    elements = svg_elements(render_svg(view))
    actions = [e.get("data-action") for e in elements if e.get("data-action")]
    assert sorted(actions) == sorted(view["legal"]) and len(actions) == 98
    assert all(e.get("class") == "target" for e in elements if e.get("data-action"))
    titles = [e.find("{http://www.w3.org/2000/svg}title") for e in elements if e.get("data-action")]
    assert all(t is not None and t.text for t in titles)


def test_svg_bids_select_then_complete(game: SudokuWarriors, b1_battle: SWState) -> None:
    s = play(game, b1_battle, ["bid r2c3"])  # circle must reach 12
    view = game.view(s, None)
    elements = svg_elements(render_svg(view))
    selects = {e.get("data-select") for e in elements if e.get("data-select")}
    assert selects == set(view["battle"]["eligible"][CIRCLE])
    on_board = {}
    for e in elements:
        if e.get("data-action"):
            assert e.get("data-from") in selects
            on_board.setdefault(e.get("data-action"), set()).add(e.get("data-from"))
    bids = {a for a in view["legal"] if a.startswith("bid ")}
    assert set(on_board) == bids
    # Click r2c6 twice: bid r2c6. Click r3c1 then r5c1 (or the other way): the pair.
    assert on_board["bid r2c6"] == {"r2c6"}
    assert on_board["bid r3c1 r5c1"] == {"r3c1", "r5c1"}
    # r3c1 alone (1) is not enough, so clicking it twice does nothing.
    assert "bid r3c1" not in on_board


def test_svg_battle_choice_on_the_provinces(game: SudokuWarriors) -> None:
    s = play(game, game.position(board(TWO_BATTLES), to_move=CIRCLE), ["h13"])
    elements = svg_elements(render_svg(game.view(s, None)))
    actions = sorted(e.get("data-action") or "" for e in elements if e.get("data-action"))
    assert actions == ["battle b1", "battle b2"]


def test_drawings_after_a_claim(game: SudokuWarriors, b1_battle: SWState) -> None:
    s = play(game, b1_battle, ["bid r2c3", "bid r2c1", "bid r3c4", "yield"])
    view = game.view(s, None)
    text = render_text(view)
    assert "║o5/│s3 │s4 ║" not in text  # r1c1 lost circle's warriors
    assert "│S7 │" in text  # the won capital r2c2 in upper case
    assert "Provinces   circle 0, square 1 (target 5)" in text
    svg = render_svg(view)
    svg_elements(svg)
    assert svg.count("<title>h00: X'd</title>") == 1


def test_view_at_the_end(game: SudokuWarriors) -> None:
    s = game.position(
        board(TWO_BATTLES, fill="b6 b7 b8 b9"),
        owners={"b6": 0, "b7": 0, "b8": 0, "b9": 0},
        to_move=CIRCLE,
    )
    s = play(game, s, ["h13", "battle b1"])
    view = game.view(s, SQUARE)
    assert view["phase"] == "over" and view["to_move"] == [] and view["legal"] == []
    assert view["outcome"]["winners"] == [CIRCLE] and view["observer"] == SQUARE
    assert "circle wins" in render_text(view)
    svg_elements(render_svg(view))


def test_dump_and_load(game: SudokuWarriors, b1_battle: SWState) -> None:
    for s in (game.initial_state(), b1_battle, play(game, b1_battle, ["bid", "bid r2c1"])):
        assert game.load_state(game.dump_state(s)) == s
    bad = game.dump_state(b1_battle)
    bad["hill"] = bad["hill"][:-1]
    with pytest.raises(StateFormatError):
        game.load_state(bad)
    bad = game.dump_state(b1_battle)
    bad["hill"] = "t" + bad["hill"][1:]  # no triangle in a two-player game
    with pytest.raises(StateFormatError):
        game.load_state(bad)
    with pytest.raises(StateFormatError):
        game.load_state({"hill": 3})
    with pytest.raises(StateFormatError, match="full"):
        game.position("o" * 100)


def test_match_records_replay(fixed_grid: str) -> None:
    g = sudoku_arena.load("sudoku-warriors", grid=fixed_grid, players=3)
    m = Match(g, seed=5, players=["greedy", "random", "greedy"])
    agents = [make_agent(p, g, seed=i) for i, p in enumerate(m.players)]
    out = m.run(agents)
    rec = m.record()
    assert rec.params["target"] == 3
    replayed, states = replay(rec)
    assert replayed.outcome(states[-1]) == out


# -- the greedy agent ----------------------------------------------------------------------------


def test_greedy_yields_a_hopeless_battle(game: SudokuWarriors, b1_battle: SWState) -> None:
    # Square can reach 9 + 41 = 50, circle 7 + 48 = 55: square gives up at once.
    agent = GreedyAgent(seed=1)
    assert agent.act(game, b1_battle, SQUARE) == YIELD


def test_greedy_bids_only_what_it_needs(game: SudokuWarriors, b1_battle: SWState) -> None:
    s = play(game, b1_battle, ["bid r2c3"])  # circle must add 5
    a = GreedyAgent(seed=1).act(game, s, CIRCLE)
    assert game.format_action(a) == "bid r2c6"  # 5 exactly, one village
    s = play(game, game.position(board(TWO_BATTLES), to_move=CIRCLE), ["h13", "battle b2"])
    # Circle (6 + 33 in reserve) outlasts square (10 + 23): circle opens without spending,
    # square gives up.
    assert game.format_action(GreedyAgent(seed=1).act(game, s, CIRCLE)) == "bid"
    s = play(game, s, ["bid"])
    assert GreedyAgent(seed=1).act(game, s, SQUARE) == YIELD


def test_greedy_takes_the_winning_hilltop_and_battle(game: SudokuWarriors) -> None:
    layout = board(TWO_BATTLES, fill="b6 b7 b8 b9")
    s = game.position(layout, owners={"b6": 0, "b7": 0, "b8": 0, "b9": 0}, to_move=CIRCLE)
    agent = GreedyAgent(seed=3)
    assert game.format_action(agent.act(game, s, CIRCLE)) == "h13"
    s = play(game, s, ["h13"])
    assert game.format_action(agent.act(game, s, CIRCLE)) == "battle b1"


@pytest.mark.parametrize("players", [2, 3])
def test_greedy_beats_random(players: int) -> None:
    wins = 0
    games = 6
    for k in range(games):
        g = sudoku_arena.load("sudoku-warriors", seed=k, players=players)
        names = ["random"] * players
        names[k % players] = "greedy"
        m = Match(g, seed=k, players=names)
        agents = [make_agent(n, g, seed=10 * k + i) for i, n in enumerate(names)]
        out = m.run(agents)
        wins += (k % players) in out.winners
    assert wins >= games - 1


# -- properties of random games ------------------------------------------------------------------


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.sampled_from([2, 3]))
def test_random_games_keep_the_rules(seed: int, players: int) -> None:
    g = sudoku_arena.load("sudoku-warriors", seed=seed, players=players)
    assert isinstance(g, SudokuWarriors)
    rng = random.Random(seed)
    s = g.initial_state()
    plies = 0
    while not g.to_move(s).is_terminal:
        p = mover(g, s)
        acts = list(g.legal_actions(s, p))
        assert acts, "a seat to move always has an action"
        if g.phase(s) == "bid" and s.opened:
            # SW-10: every offered bid ends strictly above every other remaining one.
            for a in acts:
                if a != YIELD:
                    after = g._step(s, a, p)
                    if after.battle == s.battle:
                        assert all(after.bscore[p] > after.bscore[q] for q in s.active if q != p)
        a = rng.choice(acts)
        wrong = rng.randrange(NUM_ACTIONS)
        if wrong not in acts:
            with pytest.raises(IllegalActionError):
                g.apply(s, wrong, p)
        nxt = g.apply(s, a, p)
        # Provinces are held for good, X's stay, spent resources stay spent.
        assert all(o == n for o, n in zip(s.owner, nxt.owner, strict=True) if o >= 0)
        assert all(n == XD for o, n in zip(s.hill, nxt.hill, strict=True) if o == XD)
        assert all(n != 0 for o, n in zip(s.hill, nxt.hill, strict=True) if o != 0)
        assert nxt.spent & s.spent == s.spent
        s = nxt
        plies += 1
        assert plies < 2000
    out = g.outcome(s)
    assert out is not None and len(out.winners) >= 1
    assert sum(g.returns(s)) == pytest.approx(1.0)
    if s.end == "target":
        assert g.provinces(s)[out.winners[0]] == g.target


def test_every_legal_action_applies(game: SudokuWarriors, b1_battle: SWState) -> None:
    for s in (game.initial_state(), b1_battle):
        p = mover(game, s)
        for a in game.legal_actions(s, p):
            game.apply(s, a, p)
    assert re.fullmatch(r"h\d\d", legal(game, game.initial_state())[37])


# -- search knowledge ------------------------------------------------------------------------------


def test_search_hints_value_positions(game: SudokuWarriors, b1_battle: SWState) -> None:
    from sudoku_arena.ai.hints import hints_for
    from sudoku_arena.games.sudoku_warriors.search import evaluate, expected_provinces

    hints = hints_for(game)
    assert hints.evaluate is evaluate and hints.step is not None
    start = evaluate(game, game.initial_state())
    assert start == pytest.approx([0.5, 0.5])
    # In the b1 battle circle can add more than square: circle is the favourite for b1.
    exp = expected_provinces(game, b1_battle)
    assert exp[CIRCLE] > exp[SQUARE]
    values = evaluate(game, b1_battle)
    assert sum(values) == pytest.approx(1.0) and all(0 <= v <= 1 for v in values)
    after = hints.step(game, b1_battle, YIELD, SQUARE)
    assert after.owner[0] == CIRCLE


def test_mcts_plays_legal_actions(game: SudokuWarriors, b1_battle: SWState) -> None:
    agent = make_agent("mcts:30", game, seed=1)
    for s in (b1_battle, play(game, b1_battle, ["bid r2c3"])):
        p = mover(game, s)
        assert agent.act(game, s, p) in game.legal_actions(s, p)


def test_the_search_prior_is_greedys_placement_value(
    game: SudokuWarriors, b1_battle: SWState
) -> None:
    from sudoku_arena.ai.hints import hints_for
    from sudoku_arena.games.sudoku_warriors.agents import placement_values

    hints = hints_for(game)
    assert hints.prior is not None and hints.prior_temperature
    layout = board(TWO_BATTLES, fill="b6 b7 b8 b9")
    s = game.position(layout, owners={"b6": 0, "b7": 0, "b8": 0, "b9": 0}, to_move=CIRCLE)
    acts = list(game.legal_actions(s, CIRCLE))
    prior = list(hints.prior(game, s, CIRCLE, acts))
    assert prior == placement_values(game, s, CIRCLE, acts)
    # Greedy's choice here (h13 opens the winning battle) is the prior's favourite.
    assert game.format_action(acts[prior.index(max(prior))]) == "h13"
    assert len(set(prior)) > 2  # placements are told apart, not weighed alike
    # A battle's bids are weighed alike: the search tells them apart by their returns.
    p = mover(game, b1_battle)
    bids = list(game.legal_actions(b1_battle, p))
    assert len(bids) > 2 and set(hints.prior(game, b1_battle, p, bids)) == {0.0}
