"""Cat Sudoku: notation, persistence, drawings, the greedy agent, random games, CLI."""

from __future__ import annotations

import copy
import json
import pickle
import random
import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from sudoku_arena.cli.main import app
from sudoku_arena.core.errors import IllegalActionError, NotationError, StateFormatError
from sudoku_arena.core.match import Match
from sudoku_arena.games.cat_sudoku.agents import GreedyAgent
from sudoku_arena.games.cat_sudoku.game import NUM_ACTIONS, WILD, WRITE
from sudoku_arena.games.cat_sudoku.render import render_panel, render_svg, render_text
from sudoku_arena.games.cat_sudoku.sheet import OPEN_KINDS, PRINTED
from sudoku_arena.testing import check_game

sys.path.insert(0, str(Path(__file__).parent))
from cs_helpers import SQUARE4, legal, new, play, rolls

runner = CliRunner()


# -- notation ---------------------------------------------------------------------------------


def test_notation_round_trips_every_index() -> None:
    game = new()
    for a in range(NUM_ACTIONS):
        text = game.format_action(a)
        assert game.parse_action(text) == a
        assert game.decode_action(game.encode_action(a)) == a


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("5r3c4", "5 r3c4"),
        ("  5  R3 C4 ", "5 r3c4"),
        ("WILD 2+ BLANK 6", "wild 2+ blank 6"),
        ("wild 1 + 3", "wild 1+ 3"),
        ("No Wild", "nowild"),
        ("roll6", "roll 6"),
        ("6 r16c16", "6 r16c16"),
    ],
)
def test_notation_is_tolerant(text: str, canonical: str) -> None:
    game = new()
    assert game.format_action(game.parse_action(text)) == canonical


@pytest.mark.parametrize("text", ["7 r1c1", "5 r17c1", "5 r0c1", "wild 3+ 1", "roll 7", "", "x"])
def test_bad_notation_says_what_it_looks_like(text: str) -> None:
    game = new()
    with pytest.raises(NotationError, match=r"r<row>c<col|r<row>c<column>|5 r3c4"):
        game.parse_action(text)


def test_decode_out_of_range() -> None:
    game = new()
    with pytest.raises(NotationError, match="out of range"):
        game.decode_action(NUM_ACTIONS)


def test_bad_input_never_changes_the_state() -> None:
    game = new(SQUARE4)
    s = play(game, rolls(1, 2, 3, 4))
    before = game.dump_state(s)
    for a in (-1, NUM_ACTIONS, True, "5 r1c1", 0):
        with pytest.raises(IllegalActionError):
            game.apply(s, a, 0)  # type: ignore[arg-type]
    with pytest.raises(IllegalActionError, match="off the sheet"):
        play(game, ["1 r9c9"], s)
    with pytest.raises(IllegalActionError, match=r"chance node|rolled"):
        game.apply(game.initial_state(), game.parse_action("1 r1c1"), 0)
    assert game.dump_state(s) == before


def test_dump_and_load() -> None:
    game = new("winter", players=3)
    m = Match(game, seed=4)
    agents = [GreedyAgent(seed=i) for i in range(3)]
    for _ in range(60):
        p = m.to_move().players[0]
        m.step_agent(agents[p], p)
        s = m.state
        assert game.load_state(json.loads(json.dumps(game.dump_state(s)))) == s
    with pytest.raises(StateFormatError):
        game.load_state({"phase": "write"})
    bad = game.dump_state(m.state)
    bad["sheets"] = bad["sheets"][:2]
    with pytest.raises(StateFormatError, match="sheets need 3"):
        game.load_state(bad)


def test_load_state_refuses_numbers_the_sheet_forbids() -> None:
    """A blocked square holding a number, or a pre-printed square changed, is refused with
    what is allowed (such a sheet once read as full)."""
    game = new("winter", players=2)
    s = game.initial_state()
    kinds, printed = game.sheet.kinds, game.sheet.printed
    blocked = next(i for i, k in enumerate(kinds) if k not in OPEN_KINDS)
    pre = next(i for i, k in enumerate(kinds) if k == PRINTED)
    for square, value in ((blocked, 3), (pre, printed[pre] % 6 + 1)):
        data = game.dump_state(s)
        sheet = list(data["sheets"][1])
        sheet[square] = str(value)
        data["sheets"][1] = "".join(sheet)
        with pytest.raises(StateFormatError, match="blocked squares hold 0"):
            game.load_state(data)
    assert game.load_state(game.dump_state(s)) == s


# -- drawings -----------------------------------------------------------------------------------


def _writing_state() -> tuple:
    game = new(SQUARE4, players=2)
    s = play(game, rolls(1, 1, 1, 4))
    setup = ("1 r1c1", "1 r1c2", "1 r2c1", "4 r3c3")
    s = play(game, [f"{p}: {w}" for p in (0, 1) for w in setup], s)
    s = play(game, [*rolls(2, 2, 5, 6), "1: wild 2+ 2"], s)
    return game, s


def test_svg_offers_two_click_writing() -> None:
    game, s = _writing_state()
    view = game.view(s, 0)
    root = ET.fromstring(render_svg(view))
    panel = ET.fromstring(render_panel(view))  # the dice to choose from sit beside the sheet
    assert root.tag.endswith("svg") and root.get("viewBox") and panel.get("viewBox")
    selects = {el.get("data-select") for el in panel.iter() if el.get("data-select")}
    assert selects == {"1", "2", "3", "4", "5", "6"}  # two wild dice: every value
    actions = {
        el.get("data-action"): el.get("data-from") for el in root.iter() if el.get("data-action")
    }
    assert actions["5 r4c4"] == "5" and actions["6 r1c3"] == "6"
    assert set(actions) == set(legal(game, s, 0))
    for el in root.iter():
        if el.get("data-action") or el.get("data-select"):
            assert "target" in (el.get("class") or "") and el.find("{*}title") is not None
    # Penalised squares are circled: r1c1, r1c2, r2c1 repeat a 1 in a segment, and
    # r1c2-r2c1 are a diagonal set (on the large sheet and on seat 1's small one).
    svg = render_svg(view) + render_panel(view)  # seat 1's small sheet is in the panel
    assert svg.count("repeats in its segment") == 6
    assert svg.count("part of a diagonal set") == 4
    # A spectator has nothing to click while two seats write.
    assert "data-action" not in render_svg(game.view(s, None))


def test_svg_offers_the_wild_counter() -> None:
    game = new(SQUARE4)
    s = play(game, [*rolls(1, 2, 3, 4), "1 r1c1", "2 r1c2", "3 r1c4", "4 r2c1"])
    s = play(game, rolls(1, 1, 2, 3), s)
    assert s.phase == WILD
    root = ET.fromstring(render_panel(game.view(s, 0)))  # the Wild Counter is in the panel
    actions = {el.get("data-action") for el in root.iter() if el.get("data-action")}
    assert actions == set(legal(game, s, 0))
    selects = {el.get("data-select") for el in root.iter() if el.get("data-select")}
    assert selects == {"blank 1+", "blank 2+"}
    froms = {el.get("data-from") for el in root.iter() if el.get("data-from")}
    assert froms == {"blank 1+", "blank 2+"}


def test_text_drawing_explains_the_score() -> None:
    game, s = _writing_state()
    text = render_text(game.view(s, 0))
    assert "(1)" in text and "(1>" in text
    assert "circled: r1c1=1, r1c2=1, r2c1=1  -6" in text
    assert "diagonal set of 2 x 1: r1c2 r2c1  -2" in text
    assert "Dice: 2* 2* 5 6" in text
    assert "player 1 has to write: 5 6 wild wild" in text
    assert "\x1b[" not in text and "\x1b[" in render_text(game.view(s, 0), color=True)
    spectator = render_text(game.view(s, None))
    assert spectator.count("score so far") == 2


def test_view_lists_legal_actions_for_the_observer_only() -> None:
    game, s = _writing_state()
    assert game.view(s, 0)["legal"] == legal(game, s, 0)
    assert game.view(s, None)["legal"] == []  # two seats writing: no single mover
    s = play(game, [f"0: {w}" for w in ("5 r1c3", "6 r1c4", "2 r2c2", "3 r2c3")], s)
    assert game.view(s, 0)["legal"] == []
    assert game.view(s, None)["legal"] == legal(game, s, 1)


# -- agent ----------------------------------------------------------------------------------------


def test_greedy_avoids_penalties_when_it_can() -> None:
    game = new(SQUARE4)
    s = play(game, [*rolls(1, 2, 3, 4), "1 r1c1", "2 r1c2", "3 r1c4", "4 r2c1"])
    s = play(game, [*rolls(1, 1, 2, 3), "wild 1+ 2"], s)
    agent = GreedyAgent(seed=1)
    while s.phase == WRITE:
        a = agent.act(game, s, 0)
        v, sq = game.format_action(a).split()
        before = game.score(s, 0)
        s = game.apply(s, a, 0)
        assert game.score(s, 0) == before, f"{v} {sq} cost points"


def test_greedy_beats_random() -> None:
    from sudoku_arena.ai import make_agent

    game = new("summer")
    greedy = [Match(game, seed=k).run([GreedyAgent(seed=k)]).scores[0] for k in range(4)]
    rand = [
        Match(game, seed=k).run([make_agent("random", game, seed=k)]).scores[0] for k in range(4)
    ]
    assert min(greedy) > max(rand)


def test_greedy_chooses_a_wild_that_helps() -> None:
    game = new(SQUARE4, wild_optional=True)
    s = play(game, [*rolls(1, 2, 3, 4), "1 r1c1", "2 r1c2", "3 r1c4", "4 r2c1"])
    s = play(game, rolls(1, 1, 1, 1), s)
    a = GreedyAgent(seed=0).act(game, s, 0)
    # Four 1s without a wild would cost points; with 1 wild they cost nothing.
    assert game.format_action(a) == "wild 2+ 1"


# -- random games -------------------------------------------------------------------------------


@settings(max_examples=12, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    players=st.integers(1, 6),
    sheet=st.sampled_from(["spring", "winter", SQUARE4]),
    adjacent=st.booleans(),
    per_segment=st.booleans(),
)
def test_random_games_keep_the_invariants(
    seed: int, players: int, sheet: str, adjacent: bool, per_segment: bool
) -> None:
    game = new(
        sheet,
        players=players,
        adjacent=adjacent,
        circle_per_segment=per_segment,
        wild_optional=bool(seed % 2),
    )
    rng = random.Random(seed)
    m = Match(game, seed=seed)
    b = game.board
    while not m.is_over:
        s = m.state
        tm = m.to_move()
        p = tm.players[rng.randrange(len(tm.players))]
        acts = list(game.legal_actions(s, p))
        a = acts[rng.randrange(len(acts))]
        m.play(a, p)
        if s.phase == WRITE:
            v, sq = game.format_action(a).split()
            r, c = (int(x) - 1 for x in sq[1:].split("c"))
            delta = b.write_delta(s.sheets[p], r * game.sheet.cols + c, int(v), per_segment)
            assert delta == game.penalty(m.state, p) - game.penalty(s, p)
        if m.state.phase != WRITE:  # between turns every sheet has as many empty squares
            assert len(set(game.view(m.state, None)["empty"])) == 1
    out = m.outcome()
    assert out is not None
    assert out.scores == tuple(float(game.score(m.state, p)) for p in range(players))
    assert all(e == 0 for e in game.view(m.state, None)["empty"])


def test_conformance() -> None:
    report = check_game("cat-sudoku", games=2, seed=3, deep_plies=60)
    assert report.counts["records replayed"] == report.games
    report = check_game(
        "cat-sudoku",
        games=1,
        seed=4,
        deep_plies=40,
        params={"sheet": "winter", "players": 3, "adjacent": True, "wild_optional": True},
    )
    assert report.counts["records replayed"] == 1


# -- command line ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "players", ["greedy", "greedy,random", "greedy,greedy,random,random,greedy,random"]
)
def test_selfplay_records_replay(tmp_path: Path, players: str) -> None:
    out = tmp_path / "g.jsonl"
    result = runner.invoke(
        app,
        ["selfplay", "cat-sudoku", "--players", players, "--games", "2", "--out", str(out)],
    )
    assert result.exit_code == 0, result.output
    result = runner.invoke(app, ["replay", "--verify", str(out)])
    assert result.exit_code == 0 and "2 record(s): 2 verified, 0 failed" in result.output


def test_selfplay_with_a_sheet_file(tmp_path: Path) -> None:
    sheet = tmp_path / "mine.sheet"
    sheet.write_text(SQUARE4, encoding="utf-8")
    out = tmp_path / "g.jsonl"
    result = runner.invoke(
        app,
        ["selfplay", "cat-sudoku", "--players", "greedy,greedy", "--games", "1",
         "--sheet", str(sheet), "--out", str(out)],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    record = json.loads(out.read_text().splitlines()[0])
    assert record["params"]["sheet"] == SQUARE4
    assert runner.invoke(app, ["replay", "--verify", str(out)]).exit_code == 0


def test_malformed_sheet_file_is_refused(tmp_path: Path) -> None:
    sheet = tmp_path / "bad.sheet"
    sheet.write_text("name: Bad\ngrid:\noooo\noo?o\n", encoding="utf-8")
    result = runner.invoke(
        app,
        ["selfplay", "cat-sudoku", "--players", "greedy", "--games", "1", "--sheet", str(sheet)],
    )
    assert result.exit_code != 0
    message = re.sub(r"\s+", " ", result.output)
    assert "line 4, column 3" in message and "unknown square '?'" in message


@pytest.mark.parametrize("bad", ["5 r1c1", 2.0, True, None, -1, NUM_ACTIONS, 10**30])
def test_actions_of_the_wrong_kind_are_refused_plainly(bad: object) -> None:
    """Compiled or not, anything but an action index is an illegal action."""
    game = new(players=2)
    s = game.initial_state()
    with pytest.raises(IllegalActionError, match=r"not a Cat Sudoku action|not an action index"):
        game.apply(s, bad, None)
    assert s == game.initial_state()


def test_states_are_values_that_pickle_and_copy() -> None:
    game = new(players=3)
    rng = random.Random(7)
    s = game.initial_state()
    seen = 0
    while not game.to_move(s).is_terminal and seen < 40:
        tm = game.to_move(s)
        if tm.is_chance:
            s = game.apply(s, rng.randrange(6), None)
            continue
        p = tm.players[0]
        s = game.apply(s, rng.choice(list(game.legal_actions(s, p))), p)
        twin = game.load_state(game.dump_state(s))
        assert twin == s and hash(twin) == hash(s) and twin is not s
        if s.phase == WRITE:  # the seats to move are those with dice left, however built
            writing = tuple(q for q, d in enumerate(s.left) if any(d))
            assert game.to_move(s).players == game.to_move(twin).players == writing
        assert pickle.loads(pickle.dumps(s)) == s == copy.deepcopy(s)
        assert s != game.initial_state()
        seen += 1
    assert seen == 40
