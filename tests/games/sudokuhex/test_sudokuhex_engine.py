"""Notation, action indices, persistence, renderers and the greedy agent of SuDokuHex."""

from __future__ import annotations

import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from sudoku_arena.ai import make_agent
from sudoku_arena.ai.mcts import MCTSAgent
from sudoku_arena.core import Match, load
from sudoku_arena.core.errors import IllegalActionError, NotationError, StateFormatError
from sudoku_arena.games.sudokuhex.agents import AGENTS, GreedyAgent, threat_after
from sudoku_arena.games.sudokuhex.game import HexState, SuDokuHex
from sudoku_arena.games.sudokuhex.render import render_panel, render_text
from sudoku_arena.games.sudokuhex.render import render_svg as render_board
from sudoku_arena.games.sudokuhex.search import search_hints
from sudoku_arena.grids.hex import parse_hex, placement_points

sys.path.insert(0, str(Path(__file__).parent))
from sudokuhex_helpers import SETUP, full_board_state, play, random_states


def render_svg(view: dict) -> str:  # type: ignore[type-arg]
    """The board and the panel beside it (scores, hands, the pile), as the page shows them."""
    return render_board(view) + "\n" + render_panel(view)


def game(players: int = 2) -> SuDokuHex:
    g = load("sudokuhex", players=players)
    assert isinstance(g, SuDokuHex)
    return g


# -- notation ----------------------------------------------------------------------------


def test_every_action_index_round_trips_through_notation() -> None:
    g = game()
    assert g.spec.num_distinct_actions == 49 + 7 * 49 + 7
    texts = set()
    for i in range(g.spec.num_distinct_actions):
        a = g.decode_action(i)
        text = g.format_action(a)
        texts.add(text)
        assert g.parse_action(text) == a and g.encode_action(a) == i
    assert len(texts) == g.spec.num_distinct_actions
    assert g.format_action(g.parse_action("c4")) == "C4"
    assert g.format_action(g.parse_action("START 3 c 4")) == "start 3 C4"
    assert g.format_action(g.parse_action(" draw5 ")) == "draw 5"


@pytest.mark.parametrize("bad", ["", "H2", "C7", "draw 8", "draw", "start 0 A1", "start 3", "pass"])
def test_bad_notation_says_what_actions_look_like(bad: str) -> None:
    with pytest.raises(NotationError, match="such as C4"):
        game().parse_action(bad)


def test_out_of_range_indices_are_refused() -> None:
    g = game()
    for i in (-1, 399, 10**6):
        with pytest.raises(NotationError, match="out of range"):
            g.decode_action(i)


def test_wrong_seat_and_bad_values_are_refused_without_change() -> None:
    g = game()
    s = play(g, SETUP)
    before = g.dump_state(s)
    with pytest.raises(IllegalActionError, match="seat 1 may not act"):
        g.apply(s, parse_hex("A0"), 1)
    with pytest.raises(IllegalActionError, match="chance outcomes"):
        g.apply(s, g.parse_action("draw 3"), 0)
    with pytest.raises(IllegalActionError, match="not a hex"):
        g.apply(s, 999, 0)
    with pytest.raises(IllegalActionError, match="chance node; no player acts"):
        g.apply(play(g, [*SETUP, "A0"]), g.parse_action("draw 3"), 0)
    assert g.dump_state(s) == before


# -- persistence --------------------------------------------------------------------------


def test_states_round_trip_through_dump_and_load() -> None:
    g = game(3)
    for s in random_states(g, 2, stride=3):
        assert g.load_state(g.dump_state(s)) == s


def test_malformed_states_are_refused() -> None:
    g = game()
    good = g.dump_state(play(g, [*SETUP, "A0", "draw 5"]))
    for key, value, why in [
        ("board", "12", "49 digits"),
        ("hands", [4], "one entry per seat"),
        ("pile", [6, 6, 6, 6, 6, 6, 9], "the game has 7"),
        ("end", "bored", "end reason"),
        ("turn", 5, "out of range"),
        ("last", "Z9", "not a SuDokuHex state"),
    ]:
        bad = dict(good, **{key: value})
        with pytest.raises(StateFormatError, match=why):
            g.load_state(bad)
    # Two 1s on the line E3..B6 (taken from the pile so the counts stay right).
    board = list(good["board"])
    board[parse_hex("A4")] = "1"
    pile = list(good["pile"])
    pile[0] -= 1
    with pytest.raises(StateFormatError, match=r"A4 and E2 both hold 1 \(SH-4\)"):
        g.load_state(dict(good, board="".join(board), pile=pile))
    with pytest.raises(StateFormatError, match="board"):
        g.load_state({})


# -- renderers ------------------------------------------------------------------------------


def test_text_shows_board_hand_scores_and_pile() -> None:
    g = game()
    s = play(g, [*SETUP, "A0", "draw 5"])
    text = render_text(g.view(s, 1))
    assert "[1]" in text and "[7]" in text  # starting tiles in brackets
    assert "(4)" in text  # the last tile
    assert "B2+" in text and "F5+" not in text  # legal hexes marked
    assert "blue: 0   your tile: 2" in text
    assert "Tiles left in the pile: 39" in text
    assert "Your turn (blue): 23 legal hexes for your 2" in text
    assert "Last tile: A0 scored 4" in text
    red = render_text(g.view(s, 0))
    assert "+" not in red.split("\n\n")[0]  # nothing to click for red
    assert "your tile: 5" in red
    coloured = render_text(g.view(s, 1), color=True)
    assert "\x1b[" in coloured and "\x1b[" not in text


def test_svg_legal_hexes_are_clickable_with_their_names() -> None:
    g = game()
    s = play(g, [*SETUP, "A0", "draw 5"])
    view = g.view(s, 1)
    doc = render_svg(view)
    root = ET.fromstring(render_board(view))
    assert root.tag.endswith("svg") and root.get("viewBox")
    ns = "{http://www.w3.org/2000/svg}"
    targets = [el for el in root.iter() if el.get("data-action")]
    assert sorted(el.get("data-action") or "" for el in targets) == sorted(view["legal"])
    for el in targets:
        assert el.get("class") == "target"
        title = el.find(f"{ns}title")
        assert title is not None and title.text and title.text.startswith("put your 2 on")
    b2 = next(el for el in targets if el.get("data-action") == "B2")
    assert b2.find(f"{ns}title").text == "put your 2 on B2: 1 point"  # type: ignore[union-attr]
    assert "starting tile 7" in doc and "Your tile" in doc and "Tiles left in the pile: 39" in doc
    # Red's drawing has nothing to click.
    assert "data-action" not in render_svg(g.view(s, 0))


def test_svg_shows_stones_for_laps() -> None:
    g = game()
    s = full_board_state(g, "A0", hands=[4, 0], scores=[125, 3], turn=0)
    doc = render_svg(g.view(s, 1))
    assert doc.count("a stone: 60 points") == 2
    assert re.search(r"red: space 5, 2 stone", doc)


def test_end_is_drawn() -> None:
    g = game()
    s = full_board_state(g, "A0", hands=[4, 0], scores=[10, 20], turn=0)
    s = g.apply(s, parse_hex("A0"), 0)
    view = g.view(s, None)
    assert "red wins with 28 points" in render_text(view)
    assert "red wins with 28" in render_svg(view)


# -- greedy agent ---------------------------------------------------------------------------


def test_greedy_takes_the_best_immediate_score() -> None:
    g = game()
    for s in random_states(g, 8, stride=2):
        tm = g.to_move(s)
        if not tm.is_decision:
            continue
        p = tm.players[0]
        a = GreedyAgent(seed=1).act(g, s, p)
        best = max(g.apply(s, h, p).scores[p] for h in g.legal_actions(s, p))
        assert g.apply(s, a, p).scores[p] == best


def _greedy_placements(g: SuDokuHex, s: HexState, p: int) -> set[int]:
    """The placements greedy chooses among: the best points, then the least expected
    best score for the next tile (over the tiles ``p`` has not seen)."""
    v = s.hands[p]
    legal = list(g.legal_actions(s, p))
    top = max(placement_points(s.occupied, h) for h in legal)
    best = [h for h in legal if placement_points(s.occupied, h) == top]
    unseen = [7 - s.board.count(w) for w in range(1, 8)]
    unseen[v - 1] -= 1
    threats = {h: threat_after(s, v, h, unseen) for h in best}
    low = min(threats.values())
    return {h for h, t in threats.items() if t == low}


def test_two_or_three_players_normal_and_hard_play_greedys_placement_without_searching() -> None:
    """Measured stronger than the search with two and three players (docs/bots.md):
    ``normal`` and ``hard`` play greedy's rule there; ``easy`` searches, and so does
    every level alone or with four players."""
    two, three, four, solo = game(2), game(3), game(4), game(1)
    assert "no search" in search_hints(two).budget("normal").describe()
    seen = 0
    for g in (two, three):
        for s in random_states(g, 8) + random_states(g, 9):
            tm = g.to_move(s)
            if not tm.is_decision:
                continue
            p = tm.players[0]
            allowed = _greedy_placements(g, s, p)
            seen += len(allowed) < sum(1 for _ in g.legal_actions(s, p))
            for level in ("normal", "hard"):
                bot = make_agent(level, g, seed=5)
                assert bot.act(g, s, p) in allowed, level
                assert isinstance(bot, MCTSAgent) and bot.last is not None
                assert bot.last.simulations == 0
    assert seen > 10  # positions where greedy's choice is not the only legal one
    for g, level in ((two, "easy"), (four, "normal"), (solo, "hard")):
        s = next(s for s in random_states(g, 4) if g.to_move(s).is_decision)
        bot = make_agent(level, g, seed=5)
        bot.act(g, s, g.to_move(s).players[0])
        assert isinstance(bot, MCTSAgent) and bot.last is not None
        assert bot.last.simulations > 0, (g.num_players, level)


def test_greedy_is_offered_by_the_game_and_beats_random() -> None:
    g = game()
    assert "greedy" in AGENTS
    wins = 0
    for seed in range(12):
        m = Match(g, seed=seed)
        agents = [make_agent("greedy", g, seed=seed), make_agent("random", g, seed=seed)]
        if seed % 2:
            agents.reverse()
        out = m.run(agents)
        greedy_seat = 1 if seed % 2 else 0
        wins += greedy_seat in out.winners
    assert wins >= 9
