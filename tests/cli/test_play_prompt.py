"""The ``play`` prompt: completion of the legal actions, the prompt_toolkit session,
forced moves, legends, battle announcements, wording, short echoes, exact scores."""

from __future__ import annotations

import io
import re
import threading
from contextlib import nullcontext

import pytest
from prompt_toolkit import PromptSession
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from rich.console import Console
from typer.testing import CliRunner

from sudoku_arena.ai import make_agent
from sudoku_arena.cli import prompt
from sudoku_arena.cli.announce import battle_results
from sudoku_arena.cli.guide import legend, notation
from sudoku_arena.cli.main import app
from sudoku_arena.cli.prompt import COMMANDS, LineReader, completions
from sudoku_arena.cli.terminal import ActionCompleter
from sudoku_arena.cli.words import clip, exact, reword_seats
from sudoku_arena.core.match import Match
from sudoku_arena.core.registry import load, registered_games
from sudoku_arena.core.types import JsonDict
from sudoku_arena.games.cat_sudoku.render import render_text as cat_text

runner = CliRunner()
GAMES = [spec.id for spec in registered_games()]


def _play(args: list[str], lines: list[str]) -> str:
    result = runner.invoke(app, ["play", *args], input="\n".join(lines) + "\n")
    assert result.exit_code == 0, result.output
    return result.output


def _started(game_id: str) -> Match:
    """A match of ``game_id`` at its first decision."""
    spec = next(s for s in registered_games() if s.id == game_id)
    return Match.new(game_id, seed=5, players=["a"] * max(2, spec.min_players))


@pytest.mark.parametrize("game_id", GAMES)
def test_tab_offers_exactly_the_legal_actions_and_the_commands(game_id: str) -> None:
    match = _started(game_id)
    seat = match.to_move().players[0]
    legal = match.legal(seat)
    completer = ActionCompleter(lambda: [*legal, *COMMANDS])
    offered = [
        c.text for c in completer.get_completions(Document(""), CompleteEvent(text_inserted=False))
    ]
    assert offered == [*legal, *COMMANDS]
    prefix = legal[-1][:2].upper()  # case does not matter
    narrowed = completions(prefix, legal)
    assert narrowed == [a for a in legal if a.lower().startswith(prefix.lower())]
    assert narrowed and all(a in legal for a in narrowed)


def test_completion_of_actions_with_spaces_goes_by_the_whole_line() -> None:
    legal = ["2 r1c2", "2 r11c2", "3 r1c2", "wild 1+ 3", "wild 1+ blank 3"]
    assert completions("2 r1", legal) == ["2 r1c2", "2 r11c2"]
    assert completions("wild  1+ b", legal) == ["wild 1+ blank 3"]
    assert completions("wild 1+ ", legal) == ["wild 1+ 3", "wild 1+ blank 3"]


def test_the_terminal_session_completes_with_tab_and_recalls_history() -> None:
    with create_pipe_input() as pipe:
        reader = LineReader(PromptSession(input=pipe, output=DummyOutput()))
        pipe.send_text("r1c5\r")
        assert reader.read("> ", ["r1c5", "r2c5"]) == "r1c5"
        # A unique completion: the command. Keys come one after another, as from a
        # person (completion runs as a task of the prompt's event loop).
        pipe.send_text("leg")
        threading.Timer(0.5, pipe.send_text, ["\t"]).start()
        threading.Timer(1.5, pipe.send_text, ["\r"]).start()
        assert reader.read("> ", ["r2c5"]) == "legend"
        pipe.send_text("\x1b[A\x1b[A\r")  # Up twice: the line before last
        assert reader.read("> ", []) == "r1c5"


def test_piped_input_is_read_plainly() -> None:
    assert not prompt.interactive()  # pytest's stdin is not a terminal
    assert LineReader()._session is None


def test_the_thinking_spinner_is_only_for_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    plain = Console(file=io.StringIO())
    assert isinstance(prompt.thinking(plain, "Blue is thinking"), nullcontext)
    monkeypatch.setattr(prompt, "interactive", lambda: True)
    tty = Console(file=io.StringIO(), force_terminal=True)
    assert not isinstance(prompt.thinking(tty, "Blue is thinking"), nullcontext)


def test_a_single_legal_action_is_played_on_enter(toy: object) -> None:
    # The toy game allows two "inc" a turn; then "end" is the only action.
    out = _play(["toy", "--players", "human,random", "--seed", "1"], ["inc", "inc", "", "quit"])
    assert "Your only legal action is end: press Enter to play it." in out
    assert "[Enter: end]>" in out
    assert "A (human): end" in out


def test_the_legend_is_shown_under_the_first_board_and_on_request(fixed_grid: str) -> None:
    args = ["tic-tac-sudoku", "--players", "human,greedy", "--grid", fixed_grid, "--seed", "3"]
    out = _play(args, ["board", "legend", "quit"])
    text = legend("tic-tac-sudoku")
    assert text is not None
    assert out.count(text.splitlines()[0]) == 2  # under the first board, then by 'legend'


@pytest.mark.parametrize("game_id", GAMES)
def test_every_game_has_a_legend_and_a_notation_note(game_id: str) -> None:
    text, note = legend(game_id), notation(game_id)
    assert text and note
    assert all(len(line) <= 80 for line in (text + "\n" + note).splitlines())


def test_help_explains_the_wild_choice() -> None:
    out = _play(["cat-sudoku", "--players", "human", "--seed", "3"], ["help", "quit"])
    assert "'wild 1+ 3'" in out and "'wild 2+ 3'" in out and "blank" in out
    assert "nowild" in out


def test_cat_sudoku_example_is_always_a_legal_action() -> None:
    match = Match.new("cat-sudoku", seed=8, players=["random", "random"])
    agents = [make_agent("random", match.game, seed=k) for k in (0, 1)]
    examples = 0
    while not match.is_over:
        for seat in match.to_move().players:
            view = match.game.view(match.state, seat)
            shown = re.search(r"\(e\.g\. ([^)]+)\)", cat_text(view))
            if shown:
                examples += 1
                assert shown.group(1) in view["legal"]
        seat = match.to_move().players[0]
        match.step_agent(agents[seat], seat)
    assert examples > 50


def _sw_view(**changes: object) -> JsonDict:
    view: JsonDict = {
        "players": ["circle", "square"],
        "owners": [-1] * 9,
        "battle": None,
        "scores": [0, 0],
        "target": 5,
    }
    view.update(changes)
    return view


def test_battle_results_name_the_winner_the_province_and_the_scores() -> None:
    battle = {"province": "b5", "participants": [1, 0], "scores": [9, 7]}
    before = _sw_view(battle=battle)
    after = _sw_view(owners=[-1, -1, -1, -1, 1, -1, -1, -1, -1], scores=[0, 1])
    assert battle_results(before, after) == [
        "Circle yielded: Square wins the battle for province b5 (battle scores Square 7, "
        "Circle 9).",
        "Provinces held: Circle 0, Square 1 (target 5).",
    ]
    bids = {0: [("r4c5", 3), ("r6c4", 4)], 1: [("r5c4", 2)]}
    assert battle_results(before, after, bids)[0].endswith(
        "(battle scores Square 7, Circle 9; Square added r5c4=2; Circle added r4c5=3 r6c4=4)."
    )
    unopposed = battle_results(_sw_view(), _sw_view(owners=[0] + [-1] * 8, scores=[1, 0]))
    assert unopposed[0].startswith("Circle wins province b1 without a battle")
    assert battle_results(before, before) == []


def test_a_whole_warriors_game_announces_its_battles_in_words() -> None:
    out = _play(["sudoku-warriors", "--players", "greedy,greedy", "--seed", "5"], [])
    won = re.findall(r"wins the battle for province (b\d)|wins province (b\d) without", out)
    assert len(won) >= 5
    assert "Provinces held: Circle 0, Square 5 (target 5)." in out
    end = "Game over: square wins: 5 provinces, the target (SW-13); scores: Circle 0, Square 5"
    assert end in " ".join(out.split())
    assert "seat " not in out and re.search(r"\d\.0\b", out) is None
    # Bids are named with the villages' resources, read from the board.
    bids = _play(["sudoku-warriors", "--players", "greedy,random", "--seed", "7"], [])
    added = re.findall(r"\b(r\d)(c\d)=(\d)\b", " ".join(bids.split()))
    assert len(added) > 5
    grid = str(load("sudoku-warriors", seed=7, players=2).params["grid"])
    for row, col, value in added:
        assert grid[9 * (int(row[1]) - 1) + int(col[1]) - 1] == value


def test_long_garbage_is_echoed_short_and_markup_literally(fixed_grid: str) -> None:
    args = ["tic-tac-sudoku", "--players", "human,greedy", "--grid", fixed_grid, "--seed", "3"]
    out = _play(args, ["z" * 300, "[bold]x", "quit"])
    assert "'" + "z" * 40 + "…'" in out and "z" * 41 not in out
    assert "'[bold]x' is not a cell" in out


def test_words() -> None:
    assert exact(3.0) == "3" and exact(2.5) == "5/2" and exact(1 / 3) == "1/3"
    assert clip("x" * 41) == "x" * 40 + "…" and clip("short") == "short"
    names = ["blue", "red"]
    assert reword_seats("cannot undo: seat 1 has acted since", names) == (
        "cannot undo: Red has acted since"
    )


@pytest.mark.parametrize("game_id", GAMES)
def test_a_whole_game_against_a_bot_through_the_prompt(game_id: str) -> None:
    """A person who always types the first legal action finishes every game."""
    match = _started(game_id)
    seats = match.game.num_players
    players = ",".join(["human"] + ["random"] * (seats - 1))
    # The same game as a script: the person plays the first legal action (Enter when
    # it is the only one), the bots as they will at the prompt.
    script = []
    bots = {k: make_agent("random", match.game, seed=match.bot_seed(k)) for k in range(1, seats)}
    while not match.is_over:
        seat = match.to_move().players[0]
        if seat in bots:
            match.step_agent(bots[seat], seat)
            continue
        legal = match.legal(seat)
        script.append("" if len(legal) == 1 else legal[0])
        match.play(legal[0], seat)
    out = _play([game_id, "--players", players, "--seed", "5"], script)
    outcome = match.outcome()
    assert outcome is not None
    assert f"Game over: {outcome.reason}; scores:" in " ".join(out.split())
