"""The lessons format and the tutorial driver, on the toy game (``tests/toygame.py``).

Each turn the toy player may ``inc`` (a point) up to twice, then ``end``; a coin
(``coin h`` or ``coin t``) follows every ``end``. These tests pin the driver's contract:
how a lesson file is read and refused, how positions are built, how a move is judged,
and that a rule change which breaks a lesson makes it fail loudly.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace

import pytest

from sudoku_arena.core import registry
from sudoku_arena.core.errors import IllegalActionError
from sudoku_arena.core.lessons import LessonError, lessons, packaged, parse_lessons
from sudoku_arena.core.tutorial import Tutorial, positions
from toygame import TOY_ENTRY, ToyGame, ToyState

STEP_SCORE = {
    "id": "score",
    "text": "Take a point.",
    "accept": ["inc"],
    "wrong": "That ends your turn; this step asks for a point.",
    "success": "One point.",
}


def _file(*lesson_list: dict[str, object]) -> str:
    return json.dumps({"format": 1, "game": "toy", "lessons": list(lesson_list)})


def _lesson(*steps: dict[str, object], **extra: object) -> dict[str, object]:
    return {
        "id": "basics",
        "title": "Basics",
        "about": "Points and turns.",
        "covers": ["turn"],
        "steps": list(steps),
        **extra,
    }


@pytest.fixture
def toy_lessons(toy: ToyGame) -> Iterator[str]:
    """The toy game registered with a lessons file of three steps."""
    text = _file(
        _lesson(
            {"id": "read", "text": "Each turn: up to two points, then end."},
            STEP_SCORE,
            {
                "id": "end",
                "text": "End your turn.",
                "accept": ["end"],
                "wrong": "This step asks you to end.",
            },
            {"id": "coin", "text": "The coin fell.", "moves": ["coin h"]},
        )
    )
    registry.register(replace(TOY_ENTRY, lessons=lambda: text))
    yield text


def test_lessons_come_from_the_registered_entry(toy_lessons: str) -> None:
    (lesson,) = lessons("toy")
    assert (lesson.game, lesson.id, lesson.title, lesson.seat, lesson.seed) == (
        "toy",
        "basics",
        "Basics",
        0,
        0,
    )
    assert [s.id for s in lesson.steps] == ["read", "score", "end", "coin"]
    assert [s.asks_move for s in lesson.steps] == [False, True, True, False]
    assert lesson.steps[1].answer == "inc"  # the first accepted action by default


def test_a_game_without_lessons_has_none(toy: ToyGame) -> None:
    assert lessons("toy") == ()


def test_packaged_reads_a_file_shipped_in_a_package() -> None:
    text = packaged("sudoku_arena.games.tic_tac_sudoku", "RULES.md")()
    assert text.startswith("# Tic-Tac-Sudoku\n")


def test_a_lesson_plays_through_in_order(toy_lessons: str) -> None:
    (lesson,) = lessons("toy")
    t = Tutorial(lesson)
    assert t.done and not t.finished  # a reading step is done once read
    assert t.try_move("inc").result == "refused"  # ... and takes no move
    assert t.next()
    assert not t.done and not t.next()  # a move step waits for its move
    out = t.try_move("INC")  # the game's tolerant notation
    assert (out.result, out.message, out.action) == ("done", "One point.", "inc")
    assert out.view is not None and out.view["scores"] == [1, 0]
    assert t.view() == out.view  # the position after the move is shown until next()
    assert t.to_json()["success"] == "One point."
    assert t.try_move("inc").result == "refused"  # the step is done
    assert t.next()
    # The next step continues from the answer: the learner's point is on the board.
    assert t.view()["scores"] == [1, 0]
    assert t.try_move("end").result == "done"
    assert t.next() and t.finished and not t.next()
    assert t.view()["to_move"] == [1]  # the coin fell and the other seat moves


def test_a_wrong_move_and_a_refused_move_change_nothing(toy_lessons: str) -> None:
    (lesson,) = lessons("toy")
    t = Tutorial(lesson, start=1)
    before = t.position
    wrong = t.try_move("end")
    assert (wrong.result, wrong.message, wrong.action) == (
        "wrong",
        "That ends your turn; this step asks for a point.",
        "end",
    )
    refused = t.try_move("jump")
    assert refused.result == "refused"
    assert refused.message == "'jump' is not an action; allowed: inc, end, coin h, coin t"
    assert refused.action is None and refused.view is None
    assert t.position is before and t.after is None and not t.done


def test_an_illegal_move_gets_the_engines_own_refusal(toy: ToyGame) -> None:
    text = _file(_lesson({**STEP_SCORE, "moves": ["inc", "inc"], "accept": ["end"]}))
    (lesson,) = parse_lessons("toy", text)
    t = Tutorial(lesson)
    game = t.game
    with pytest.raises(IllegalActionError) as exc:
        game.apply(t.position.state, game.parse_action("inc"), 0)
    assert t.try_move("inc").message == str(exc.value) == "inc is not allowed: not legal now"


@pytest.mark.parametrize(
    ("condition", "answer", "wrong"),
    [
        ("scores", "inc", "end"),
        ("keeps-score", "end", None),  # neither move lowers the score
        ("any", "inc", None),
    ],
)
def test_named_conditions(toy: ToyGame, condition: str, answer: str, wrong: str | None) -> None:
    step = {
        "id": "s",
        "text": "Move.",
        "accept_if": condition,
        "answer": answer,
        "wrong": "Not that.",
    }
    (lesson,) = parse_lessons("toy", _file(_lesson(step)))
    for move in ("inc", "end"):
        result = Tutorial(lesson).try_move(move).result
        assert result == ("wrong" if move == wrong else "done")


def test_ends_and_wins_judge_the_position_right_after_the_move(toy: ToyGame) -> None:
    # Three turns played; seat 1 ends the last one, but a coin is still due after it,
    # so the move itself does not end the game.
    moves = ["inc", "inc", "end", "coin t", "end", "coin t", "end", "coin t"]
    step = {
        "id": "s",
        "text": "End the game.",
        "moves": moves,
        "accept_if": "ends",
        "answer": "inc",
        "wrong": "Not that.",
    }
    with pytest.raises(LessonError, match="answer 'inc' is not a move the step accepts"):
        Tutorial(parse_lessons("toy", _file(_lesson(step, seat=1)))[0])


def test_a_seat_may_be_named_for_a_setup_move(toy: ToyGame) -> None:
    step = {"id": "s", "text": "Read.", "moves": ["0: inc", "0: end", "coin h"]}
    (lesson,) = parse_lessons("toy", _file(_lesson(step)))
    t = Tutorial(lesson)
    assert t.view()["scores"] == [2, 0]
    assert [e["actor"] for e in t.log()] == [0, 0, None]


def test_positions_are_built_by_the_engine(toy: ToyGame) -> None:
    (lesson,) = parse_lessons(
        "toy", _file(_lesson({"id": "s", "text": "Read.", "moves": ["inc", "end", "coin h"]}))
    )
    built = positions(Tutorial(lesson).game, lesson)[0]
    # inc, end, then heads (seat 0's second point): seat 1 to move.
    assert built.state == ToyState(1, 0, False, 1, (2, 0))
    assert [e.action for e in built.log] == ["inc", "end", "coin h"]


def test_a_bad_setup_action_names_game_lesson_step_and_action(toy: ToyGame) -> None:
    text = _file(
        _lesson(
            STEP_SCORE,
            {"id": "later", "text": "Read.", "moves": ["end", "inc"]},
        )
    )
    (lesson,) = parse_lessons("toy", text)
    with pytest.raises(LessonError) as exc:
        Tutorial(lesson)
    assert str(exc.value) == (
        "toy lesson 'basics', step 2 ('later'): set-up move 2, 'inc': "
        "inc is not allowed: a coin is due"
    )


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            {"accept": ["jump"]},
            "toy lesson 'basics', step 1 ('score'): accepted move 'jump': "
            "'jump' is not an action; allowed: inc, end, coin h, coin t",
        ),
        (
            {"moves": ["inc", "inc"]},
            "toy lesson 'basics', step 1 ('score'): accepted move 'inc': "
            "inc is not allowed: not legal now",
        ),
        (
            {"accept_if": "scores", "accept": [], "answer": "end"},
            "toy lesson 'basics', step 1 ('score'): answer 'end' is not a move the step accepts",
        ),
        (
            {"moves": ["end"]},
            "toy lesson 'basics', step 1 ('score'): asks seat 0 for a move, but to move is nobody",
        ),
    ],
)
def test_a_lesson_the_engine_refuses_is_named(
    toy: ToyGame, change: dict[str, object], message: str
) -> None:
    (lesson,) = parse_lessons("toy", _file(_lesson({**STEP_SCORE, **change})))
    with pytest.raises(LessonError) as exc:
        Tutorial(lesson)
    assert str(exc.value) == message


class OneIncToy(ToyGame):
    """The toy game with a changed rule: one point per turn, not two."""

    def legal_actions(self, s: ToyState, player: int) -> tuple[str, ...]:
        legal = tuple(super().legal_actions(s, player))
        return tuple(a for a in legal if a != "inc" or s.incs < 1)


def test_a_rule_change_that_breaks_a_lesson_fails_it(toy: ToyGame) -> None:
    text = _file(_lesson({**STEP_SCORE, "moves": ["inc"]}))
    (lesson,) = parse_lessons("toy", text)
    Tutorial(lesson)  # two points a turn: the second is legal
    registry.register(replace(TOY_ENTRY, rules=OneIncToy))
    with pytest.raises(LessonError, match="accepted move 'inc': inc is not allowed"):
        Tutorial(lesson)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{", "toy lessons: not JSON"),
        ('{"format": 2, "game": "toy", "lessons": []}', "toy lessons: format 2 is not 1"),
        ('{"format": 1, "game": "citadel", "lessons": []}', "the file is for 'citadel'"),
        ('{"format": 1, "game": "toy"}', "lacks 'lessons'"),
        (_file(_lesson(STEP_SCORE, covers=["fun"])), "covers 'fun'; topics are setup"),
        (_file(_lesson()), "toy lesson 'basics': has no steps"),
        (_file(_lesson(STEP_SCORE, STEP_SCORE)), "two steps are called 'score'"),
        (_file(_lesson(STEP_SCORE), _lesson(STEP_SCORE)), "two lessons are called 'basics'"),
        (
            _file(_lesson({**STEP_SCORE, "accept_if": "any"})),
            "step 1 ('score'): give accept or accept_if, not both",
        ),
        (
            _file(_lesson({**STEP_SCORE, "accept": [], "accept_if": "luck"})),
            "accept_if 'luck'; conditions are any, scores",
        ),
        (
            _file(_lesson({**STEP_SCORE, "accept": [], "accept_if": "scores"})),
            "accept_if needs an answer",
        ),
        (
            _file(_lesson({**STEP_SCORE, "wrong": ""})),
            "a step asking for a move says what is wrong",
        ),
        (
            _file(_lesson({"id": "r", "text": "Read.", "wrong": "No."})),
            "a reading step (no accept) takes no answer or wrong",
        ),
        (_file(_lesson({**STEP_SCORE, "moves": "inc"})), "'moves' must be a list"),
        (_file(_lesson({**STEP_SCORE, "text": 3})), "step 1 ('score'): 'text' must be text"),
        (_file(_lesson(STEP_SCORE, seat="0")), "'seat' must be a whole number"),
        (_file(_lesson(STEP_SCORE, params={"grid": [1]})), "parameter 'grid' must be"),
        (
            _file(_lesson({**STEP_SCORE, "accept": ["inc", "end"]}, STEP_SCORE | {"id": "b"})),
            "step 2 ('b') continues from step 1, which accepts several moves",
        ),
    ],
)
def test_a_malformed_file_is_refused_by_name(toy: ToyGame, text: str, message: str) -> None:
    with pytest.raises(LessonError) as exc:
        parse_lessons("toy", text)
    assert message in str(exc.value)


def test_a_step_restarting_from_the_lesson_start(toy: ToyGame) -> None:
    several = {**STEP_SCORE, "accept": ["inc", "end"]}
    text = _file(_lesson(several, {**STEP_SCORE, "id": "again", "restart": True}))
    (lesson,) = parse_lessons("toy", text)
    t = Tutorial(lesson)
    assert t.try_move("end").result == "done"
    assert t.next() and t.view()["scores"] == [0, 0] and t.view()["to_move"] == [0]


def test_the_page_gets_what_a_player_gets(toy_lessons: str) -> None:
    (lesson,) = lessons("toy")
    t = Tutorial(lesson, start=1)
    data = t.to_json()
    assert data["view"] == t.game.view(t.position.state, 0)
    assert (data["game"], data["lesson"], data["step"], data["steps"]) == ("toy", "basics", 1, 4)
    assert (data["id"], data["asks_move"], data["done"], data["success"]) == (
        "score",
        True,
        False,
        None,
    )
    assert data["buttons"] == {} and data["log"] == []
    board, panel = t.svg()
    assert board.startswith("<svg") and panel == ""
    json.dumps(data)  # JSON values only


def test_every_answer_is_checked_even_before_a_restart(toy: ToyGame) -> None:
    wrong_answer = {**STEP_SCORE, "accept": [], "accept_if": "scores", "answer": "end"}
    text = _file(_lesson(wrong_answer, {**STEP_SCORE, "id": "again", "restart": True}))
    with pytest.raises(LessonError, match=r"step 1 \('score'\): answer 'end' is not a move"):
        Tutorial(parse_lessons("toy", text)[0])
