"""Every game's tutorial lessons, checked step by step against its rules.

For every step of every lesson: its position builds through the engine (every set-up
action legal), every accepted move is legal there and completes the step, every other
legal move (the step's own ``wrong_tries`` among them) gets the step's explanation and
changes nothing, and its ``illegal_tries`` get the engine's own refusal. Every lesson
can be played to its end in order, the lessons of each game cover every topic and ask
for every kind of move the game has, the learner sees only what a player would, and
each game's README lists the lessons. A rule change that breaks a lesson fails here.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from sudoku_arena.core.errors import ArenaError
from sudoku_arena.core.lessons import TOPICS, Lesson, LessonError, lessons, parse_lessons
from sudoku_arena.core.registry import registered_games, spec_of
from sudoku_arena.core.tutorial import Tutorial

GAMES_DIR = Path(__file__).resolve().parents[2] / "src" / "sudoku_arena" / "games"
BUILT_IN = ("tic-tac-sudoku", "sudoku-warriors", "cat-sudoku", "sudokuhex", "citadel")

#: Every kind of move each game has, as a pattern of its notation: some step of the
#: game's lessons must ask for each (one of its accepted moves matches).
MOVE_KINDS: dict[str, dict[str, str]] = {
    "tic-tac-sudoku": {
        "a symbol outside the centre box": r"r[1-9]c[1-9]",
        "the first symbol in the centre box": r"r[4-6]c[4-6]",
    },
    "sudoku-warriors": {
        "a warrior on a hilltop": r"h\d\d",
        "choosing the next battle": r"battle b\d",
        "a bid of no village": r"bid",
        "a bid of one village": r"bid r\dc\d",
        "a bid of two villages": r"bid r\dc\d r\dc\d",
        "yielding": r"yield",
    },
    "cat-sudoku": {
        "a write": r"\d r\d+c\d+",
        "the wild from a 1+ box": r"wild 1\+ \d",
        "the wild from a 2+ box": r"wild 2\+ \d",
        "the wild from a blank box": r"wild [12]\+ blank \d",
    },
    "sudokuhex": {"a tile on a hex": r"[A-G][0-6]"},
    "citadel": {
        "placing a citadel": r"citadel [a-j]\d",
        "claiming a citadel": r"claim [a-j]\d",
        "a move": r"[a-j]\d-[a-j]\d",
        "an attack": r"[a-j]\dx[a-j]\d",
        "a recruit": r"\+[a-j]\d",
        "building a wall": r"wall [a-j]\d",
        "razing a wall": r"raze [a-j]\d [a-j]\d",
        "a siege capture": r"siege [a-j]\d",
        "ending the turn": r"end",
    },
}


def _lesson(game_id: str, lesson_id: str) -> Lesson:
    (found,) = [x for x in lessons(game_id) if x.id == lesson_id]
    return found


STEPS = [
    pytest.param(g, x.id, k, id=f"{g}/{x.id}/{k + 1}-{s.id}")
    for g in BUILT_IN
    for x in lessons(g)
    for k, s in enumerate(x.steps)
]
HIDDEN_STEPS = [
    pytest.param(g, x.id, k, id=f"{g}/{x.id}/{k + 1}-{s.id}")
    for g in BUILT_IN
    if spec_of(g).hidden_information
    for x in lessons(g)
    for k, s in enumerate(x.steps)
]
LESSONS = [pytest.param(g, x.id, id=f"{g}/{x.id}") for g in BUILT_IN for x in lessons(g)]


def test_every_registered_game_is_checked_here() -> None:
    assert {s.id for s in registered_games()} == set(BUILT_IN) == set(MOVE_KINDS)


@pytest.mark.parametrize("game_id", BUILT_IN)
def test_every_topic_is_covered(game_id: str) -> None:
    covered = {t for x in lessons(game_id) for t in x.covers}
    assert covered == set(TOPICS)
    for x in lessons(game_id):
        assert sum(s.asks_move for s in x.steps) >= 1, f"{x.id} asks for no move"
    steps = [s for x in lessons(game_id) for s in x.steps]
    assert sum(s.asks_move for s in steps) > len(steps) / 2  # most steps ask for a move


@pytest.mark.parametrize("game_id", BUILT_IN)
def test_every_kind_of_move_is_asked_for(game_id: str) -> None:
    asked = [a for x in lessons(game_id) for s in x.steps for a in s.accept]
    for kind, pattern in MOVE_KINDS[game_id].items():
        assert any(re.fullmatch(pattern, a) for a in asked), f"no step asks for {kind}"


@pytest.mark.parametrize(("game_id", "lesson_id", "index"), STEPS)
def test_step(game_id: str, lesson_id: str, index: int) -> None:
    lesson = _lesson(game_id, lesson_id)
    step = lesson.steps[index]
    t = Tutorial(lesson, start=index)  # builds every position: each set-up move is legal
    game, seat, state = t.game, lesson.seat, t.position.state
    assert t.view() == game.view(state, seat)
    if not step.asks_move:
        assert t.done and t.try_move("x").result == "refused"
        return
    assert seat in game.to_move(state).players
    legal = [game.format_action(a) for a in game.legal_actions(state, seat)]
    accepted = [a for a in legal if _completes(lesson, index, a)]
    assert step.answer in accepted
    for a in step.accept:
        assert game.format_action(game.parse_action(a)) in accepted, f"{a} is not accepted"
    others = [a for a in legal if a not in accepted]
    if others:
        assert step.wrong_tries, "name a plausible wrong move in wrong_tries"
    for a in step.wrong_tries:
        assert game.format_action(game.parse_action(a)) in others, f"{a} is no wrong move"
    for a in others:  # every legal move the step does not ask for: explained, no change
        out = t.try_move(a)
        assert (out.result, out.message, out.view) == ("wrong", step.wrong, None), a
        assert t.position.state == state and not t.done
    assert step.illegal_tries, "name a move the engine refuses in illegal_tries"
    for text in step.illegal_tries:
        with pytest.raises(ArenaError) as refusal:
            game.apply(state, game.parse_action(text), seat)
        out = t.try_move(text)
        assert (out.result, out.message) == ("refused", str(refusal.value)), text
        assert t.position.state == state and not t.done


def _completes(lesson: Lesson, index: int, action: str) -> bool:
    """Whether ``action`` completes the step, in a fresh tutorial; when it does, the
    position shown after it is the engine's."""
    t = Tutorial(lesson, start=index)
    before = t.position.state
    out = t.try_move(action)
    if out.result != "done":
        assert out.result == "wrong" and t.position.state == before
        return False
    game = t.game
    after = game.apply(before, game.parse_action(action), lesson.seat)
    assert out.message == lesson.steps[index].success
    assert out.view == game.view(after, lesson.seat) == t.view()
    return True


@pytest.mark.parametrize(("game_id", "lesson_id"), LESSONS)
def test_lesson_plays_to_its_end_in_order(game_id: str, lesson_id: str) -> None:
    lesson = _lesson(game_id, lesson_id)
    t = Tutorial(lesson)
    for k, step in enumerate(lesson.steps):
        assert t.index == k
        if step.asks_move:
            assert not t.next()  # the lesson goes on only when the step is done
            assert step.answer is not None
            assert t.try_move(step.answer).result == "done"
        if k + 1 < len(lesson.steps):
            assert t.next()
    assert t.finished and not t.next()


@pytest.mark.parametrize(("game_id", "lesson_id", "index"), HIDDEN_STEPS)
def test_the_learner_sees_only_what_a_player_sees(game_id: str, lesson_id: str, index: int) -> None:
    lesson = _lesson(game_id, lesson_id)
    t = Tutorial(lesson, start=index)
    game, seat, state = t.game, lesson.seat, t.position.state
    shown = t.to_json()
    # The view cannot tell the position from any with the hidden parts dealt otherwise.
    for k in range(5):
        other = game.determinize(state, seat, random.Random(k))
        assert game.view(other, seat) == shown["view"]
    # Other seats' actions and chance read as the game shows them to everybody.
    for entry in shown["log"]:
        if entry["actor"] != seat:
            assert entry["action"] == game.public_action(entry["action"])
    assert any(e["action"] == "draw" for e in shown["log"])  # secret draws are redacted


@pytest.mark.parametrize("game_id", BUILT_IN)
def test_the_readme_lists_the_lessons(game_id: str) -> None:
    readme = (GAMES_DIR / game_id.replace("-", "_") / "README.md").read_text()
    assert "## Learn to play" in readme
    section = readme.split("## Learn to play", 1)[1].split("\n## ", 1)[0]
    for x in lessons(game_id):
        assert x.title in section, f"README lacks the lesson {x.title!r}"


@pytest.mark.parametrize("condition", ["ends", "wins"])
def test_ending_conditions_in_a_real_game(condition: str) -> None:
    """``ends`` and ``wins`` on the shipped ending of Tic-Tac-Sudoku: square's r1c7 reaches
    13 points and wins at once; r1c8 is legal and ends nothing."""
    shipped = _lesson("tic-tac-sudoku", "ending")
    step = {
        "id": "win",
        "text": "Win.",
        "moves": list(shipped.steps[0].moves),
        "accept_if": condition,
        "answer": "r1c7",
        "wrong": "That does not end the game.",
    }
    lesson_data = {"id": "x", "title": "X", "about": "X.", "covers": [], "steps": [step]}
    lesson_data |= {"seat": 1, "params": shipped.params}
    text = json.dumps({"format": 1, "game": "tic-tac-sudoku", "lessons": [lesson_data]})
    (lesson,) = parse_lessons("tic-tac-sudoku", text)
    assert Tutorial(lesson).try_move("r1c7").result == "done"
    assert Tutorial(lesson).try_move("r1c8").result == "wrong"


def test_a_shipped_lesson_with_a_bad_action_is_named() -> None:
    data = json.loads((GAMES_DIR / "tic_tac_sudoku" / "lessons.json").read_text())
    data["lessons"][0]["steps"][2]["moves"] = ["r7c5"]  # circle's own space, taken
    (lesson, *_) = parse_lessons("tic-tac-sudoku", json.dumps(data))
    with pytest.raises(LessonError) as exc:
        Tutorial(lesson)
    assert str(exc.value) == (
        "tic-tac-sudoku lesson 'first-symbols', step 3 ('follow'): set-up move 1, 'r7c5': "
        "r7c5 is not allowed: r7c5 is already taken (TTS-3: only empty spaces)"
    )
