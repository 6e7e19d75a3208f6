"""Whole games, properties on random play, drawings, diagrams, the agent and the CLI."""

from __future__ import annotations

import random
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from sudoku_arena.ai.agents import make_agent
from sudoku_arena.cli.main import app
from sudoku_arena.core.errors import IllegalActionError, StateFormatError
from sudoku_arena.core.match import Match
from sudoku_arena.games.citadel import Citadel, CitadelState, from_diagram, to_diagram
from sudoku_arena.games.citadel.agents import GreedyAgent
from sudoku_arena.games.citadel.game import PLAY
from sudoku_arena.games.citadel.render import render_panel, render_svg, render_text
from sudoku_arena.games.citadel.rules import END, NUM_ACTIONS

sys.path.insert(0, str(Path(__file__).parent))
from citadel_helpers import SEED_EXAMPLE, game, play, position, setup_9x9, warrior


def test_a_whole_9x9_game_in_notation() -> None:
    g = game(size=9)
    s = setup_9x9(g)  # blue: c7 e7 g7, red: c3 e3 g3, neutral: c5 e5 g5
    v = g.view(s, None)
    assert sorted(c["cell"] for c in v["citadels"] if c["owner"] == 0) == ["c7", "e7", "g7"]
    s = play(g, s, ["+e6", "e6-e5", "end"])
    assert g.view(s, None)["scores"] == [4, 3]
    s = play(g, s, ["end", "+g6", "g6-g5"])
    assert g.view(s, None)["scores"] == [5, 3] and g.outcome(s) is None
    s = play(g, s, ["end"])
    assert g.outcome(s) is None
    s = play(g, s, ["end"])
    out = g.outcome(s)
    assert out is not None and out.winners == (0,) and out.scores == (5.0, 3.0)
    with pytest.raises(IllegalActionError, match="over"):
        g.apply(s, END)


def _random_states(g: Citadel, seed: int, plies: int, every: int) -> list[CitadelState]:
    rng = random.Random(seed)
    s = g.initial_state()
    out = []
    for ply in range(plies):
        if s.current < 0:
            break
        if ply % every == 0:
            out.append(s)
        s = g.apply(s, rng.choice(list(g.legal_actions(s, s.current))), s.current)
    out.append(s)
    return out


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10_000), size=st.sampled_from([9, 10, 11, 13, 19]))
def test_legal_actions_are_exactly_the_actions_the_rules_accept(seed: int, size: int) -> None:
    g = game(size=size)
    for s in _random_states(g, seed, 400, 8):
        if s.current < 0:
            continue
        p = s.current
        gen = list(g.legal_actions(s, p))
        assert len(set(gen)) == len(gen)
        brute = [a for a in range(NUM_ACTIONS) if g.why_illegal(s, a, p) is None]
        assert sorted(gen) == brute
        if s.phase == PLAY:
            assert END in gen  # the turn can always end
        assert g.legal_actions(s, 1 - p) == []


_CITADEL_TOKENS = ("o", "b", "r", "B*", "R*")


@settings(max_examples=40, deadline=None)
@given(
    cells=st.lists(st.sampled_from([".", ".", ".", "B", "B", "R", "R"]), min_size=81, max_size=81),
    citadels=st.lists(st.sampled_from(_CITADEL_TOKENS), min_size=3, max_size=3),
    walls=st.lists(st.booleans(), min_size=2, max_size=2),
    to_move=st.integers(0, 1),
    credits=st.integers(0, 4),
    sieges=st.integers(0, 2),
)
def test_crowded_positions_legal_actions_match_the_rules(
    cells: list[str],
    citadels: list[str],
    walls: list[bool],
    to_move: int,
    credits: int,
    sieges: int,
) -> None:
    """Dense random positions (many sieges, attacks, razes): generator == checker."""
    g = game(size=9)
    for name, tok in zip(("c3", "g7", "e5"), citadels, strict=True):
        r, c = divmod(g.geo.cell(name), 9)
        cells[(8 - r) * 9 + c] = tok
    for square, on in zip(((0, 0), (6, 7)), walls, strict=True):
        if on:  # walls on squares a1 and h7 (row, column from a1)
            for dr, dc in ((0, 0), (0, 1), (1, 0), (1, 1)):
                cells[(8 - square[0] - dr) * 9 + square[1] + dc] = "#"
    text = "\n".join(" ".join(cells[9 * k : 9 * k + 9]) for k in range(9))
    s = from_diagram(g, text, to_move=to_move, credits=credits, sieges=sieges)
    gen = list(g.legal_actions(s, to_move))
    brute = [a for a in range(NUM_ACTIONS) if g.why_illegal(s, a, to_move) is None]
    assert sorted(gen) == brute
    for a in gen:
        after = g.apply(s, a, to_move)
        assert after.credits >= 0 and g.load_state(g.dump_state(after)) == after


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_random_play_ends_and_state_invariants_hold(seed: int) -> None:
    g = game(size=11, max_turns=60)
    rng = random.Random(seed)
    s = g.initial_state()
    plies = 0
    while s.current >= 0:
        p = s.current
        s = g.apply(s, rng.choice(list(g.legal_actions(s, p))), p)
        plies += 1
        assert s.credits >= 0 and 0 <= s.sieges <= 2
        for c, o in zip(s.citadels, s.owners, strict=True):
            assert s.board[c] in (0, o + 1)  # only the owner ever stands on a citadel
        assert g.load_state(g.dump_state(s)) == s
    assert plies < 60 * 40 and g.outcome(s) is not None


def test_bad_states_are_refused() -> None:
    g = game(size=9)
    good = g.dump_state(g.initial_state())
    for change in ({"board": "7" * 81}, {"size": 13}, {"phase": "lunch"}, {"owners": "x"}):
        with pytest.raises(StateFormatError):
            g.load_state({**good, **change})
    with pytest.raises(StateFormatError):
        g.load_state({"board": ""})


# -- diagrams ---------------------------------------------------------------------------------


def test_diagram_round_trip_and_errors() -> None:
    g = game()
    s = position(g, SEED_EXAMPLE, credits=3)
    again = from_diagram(g, to_diagram(g, s), credits=3)
    assert again == s
    assert to_diagram(g, s).splitlines()[7].startswith("13  .  B  .  R  r")
    with pytest.raises(StateFormatError, match="2x2"):
        from_diagram(game(size=9), "# . .\n# . .\n. . .")
    with pytest.raises(StateFormatError, match="unknown token"):
        from_diagram(game(size=9), "Q")


# -- drawings -------------------------------------------------------------------------------


def test_svg_selects_a_warrior_then_shows_its_targets() -> None:
    g = game()
    s = position(g, SEED_EXAMPLE, credits=3)
    view = g.view(s, None)
    root = ET.fromstring(render_svg(view))
    panel = ET.fromstring(render_panel(view))  # the "build a wall" button is beside the board
    selects = {
        el.get("data-select") for el in [*root.iter(), *panel.iter()] if el.get("data-select")
    }
    assert {"b13", "c12", "walls"} <= selects
    targets = {
        (el.get("data-from"), el.get("data-action")) for el in root.iter() if el.get("data-action")
    }
    assert ("b13", "b13-c13") in targets and ("b13", "b13-b14") in targets
    assert ("walls", "wall a14") in targets
    assert not any((a or "").startswith("+") for _, a in targets)  # no citadel of blue here
    for _, a in targets:
        g.parse_action(a or "")
    s = play(g, s, ["b13-c13"])
    root = ET.fromstring(render_svg(g.view(s, None)))
    targets = {
        (el.get("data-from"), el.get("data-action")) for el in root.iter() if el.get("data-action")
    }
    assert ("c13", "c13xd13") in targets
    assert all(el.get("class") == "target" for el in root.iter() if el.get("data-action"))


def test_svg_raze_targets_hang_on_the_razing_warrior() -> None:
    g = game(size=9)
    empty = ". . . . . . . . .\n"
    s = position(g, empty * 5 + ". . B # # . . . .\n. . B # # . . . .\n" + empty * 2, credits=1)
    root = ET.fromstring(render_svg(g.view(s, None)))
    razes = {
        (el.get("data-from"), el.get("data-action"))
        for el in root.iter()
        if (el.get("data-action") or "").startswith("raze")
    }
    assert razes == {("c3", "raze d3 c3"), ("c4", "raze d3 c4")}


def test_svg_offers_recruits_sieges_claims_and_citadel_sites() -> None:
    g = game(size=9)
    s = g.initial_state()
    svg = render_svg(g.view(s, None))
    assert svg.count('data-action="citadel ') == 9
    s = play(g, s, [f"citadel {c}" for c in ("c3", "e3", "g3", "c5", "e5", "g5", "c7", "e7", "g7")])
    assert render_svg(g.view(s, None)).count('data-action="claim ') == 9
    s = setup_9x9(g)
    svg = render_svg(g.view(s, None))
    assert 'data-action="+e6"' in svg
    siege = position(g, "R B . . . . . . .\nB . . . . . . . .\n" + ". . . . . . . . .\n" * 7)
    svg = render_svg(g.view(siege, None))
    assert 'data-action="siege a9"' in svg and "stroke-dasharray" in svg


def test_text_shows_strengths_citadels_walls_and_status() -> None:
    g = game()
    s = position(g, SEED_EXAMPLE, credits=3)
    text = render_text(g.view(s, None))
    row13 = next(line for line in text.splitlines() if line.startswith("13 "))
    assert "B1" in row13 and "R1" in row13 and "[r ]" in row13
    assert "####" in text and "Walls: e11(1)" in text
    assert "3 credits" in text and "2 siege captures left" in text
    colored = render_text(g.view(s, None), color=True)
    assert "\x1b[" in colored and "\x1b[" not in text


def test_view_reports_owners_strengths_walls_credits_and_sieges() -> None:
    g = game(size=9)
    rows = ["R B . . . . . . .", "B . . . . . . . .", *[". . . . . . . . ."] * 7]
    rows[6] = ". . . r . . . . ."
    s = position(g, "\n".join(rows))
    v = g.view(s, 1)
    assert v["observer"] == 1 and v["players"] == ["blue", "red"] and v["to_move"] == [0]
    assert v["besieged_groups"] == [{"player": 1, "cells": ["a9"]}]
    assert warrior(g, s, "a9") == {
        "cell": "a9",
        "player": 1,
        "strength": 1,
        "spent": False,
        "besieged": True,
    }
    assert {"credits", "sieges_left", "citadels", "walls", "scores", "outcome", "legal"} <= set(v)
    assert v["legal"] == [g.format_action(a) for a in g.legal_actions(s, 0)]


# -- the greedy agent --------------------------------------------------------------------------


def test_greedy_takes_a_favourable_capture_and_walks_into_citadels() -> None:
    g = game(size=9)
    agent = GreedyAgent(seed=1)
    capture = position(
        g, ". . . . . . . . .\n" * 5 + ". B B R . . . . .\n" + ". . . . . . . . .\n" * 3, credits=0
    )
    assert g.format_action(agent.act(g, capture, 0)) == "c4xd4"
    walk = position(
        g, ". . . . . . . . .\n" * 4 + ". . . B o . . . .\n" + ". . . . . . . . .\n" * 4, credits=1
    )
    assert g.format_action(agent.act(g, walk, 0)) == "d5-e5"
    stay = position(
        g, ". . . . . . . . .\n" * 4 + ". . . B* . . R . .\n" + ". . . . . . . . .\n" * 4, credits=1
    )
    assert not g.format_action(agent.act(g, stay, 0)).startswith("d5-")


def test_greedy_beats_random_clearly() -> None:
    g = game(size=13)
    wins = 0
    for i in range(10):
        names = ["greedy", "random"] if i % 2 == 0 else ["random", "greedy"]
        m = Match(g, seed=i, players=names)
        out = m.run([make_agent(n, g, seed=100 + i + k) for k, n in enumerate(names)])
        wins += names.index("greedy") in out.winners
    assert wins >= 9


# -- records through the command line ---------------------------------------------------------


def test_selfplay_records_replay_exactly(tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "citadel.jsonl"
    result = runner.invoke(
        app,
        [
            "selfplay",
            "citadel",
            "--players",
            "greedy,random",
            "--games",
            "3",
            "--param",
            "size=13",
            "--out",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    assert len(out.read_text().splitlines()) == 3
    result = runner.invoke(app, ["replay", "--verify", str(out)])
    assert result.exit_code == 0 and "3 record(s): 3 verified, 0 failed" in result.output
