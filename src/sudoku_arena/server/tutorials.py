"""Learn to play: the tutorial's JSON API and its two pages.

The lessons are data beside each game (:mod:`sudoku_arena.core.lessons`) and
:class:`~sudoku_arena.core.tutorial.Tutorial` plays them through the engine. The server
keeps nothing per learner: the page sends the game, the lesson, the step's index and
the move, and the step is rebuilt from the lesson (a few milliseconds at most), so a
reload, a second tab or a restarted server changes nothing. Progress lives in the
browser (``web/learn.js``).

* ``GET /api/games/{game}/lessons``: the game's lessons, and its board's legend.
* ``GET /api/games/{game}/lessons/{lesson}/steps/{step}``: one step as the page shows
  it: text, the learner's view with the board and panel drawn as the play page draws
  them (the same click targets), the moves it asks for (the page marks them) and the
  one "Show me" plays.
* ``POST`` the same path with ``{"move": "r7c5"}``: the move judged. A move the engine
  refuses or the step does not ask for is an answer of the lesson (``refused`` with the
  engine's reason, ``wrong`` with the step's explanation), not an error; ``done`` comes
  with the position after it.
* ``/learn/{game}`` and ``/learn/{game}/{lesson}``: the pages (``web/lessons.html``,
  ``web/tutorial.html``; ``web/tutorial.js`` drives them).
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from typing import Annotated, Literal

from fastapi import FastAPI, Path
from fastapi.responses import HTMLResponse, Response
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from sudoku_arena.core.errors import UnknownGameError, split_rulings
from sudoku_arena.core.lessons import Lesson, lessons
from sudoku_arena.core.registry import entry, spec_of
from sudoku_arena.core.tutorial import Tutorial
from sudoku_arena.server.errors import ApiError
from sudoku_arena.server.models import MAX_ACTION, GameId, JsonObject, LogEntryOut
from sudoku_arena.server.openapi import documented
from sudoku_arena.server.pages import web_file

#: A lesson id as the files write them (``first-symbols``); longer text is no lesson.
LessonId = Annotated[str, Path(min_length=1, max_length=64, description="the lesson's id")]
StepIndex = Annotated[int, Path(ge=0, le=999, description="the step, counted from 0")]


# -- bodies -------------------------------------------------------------------------------


class LegendItem(BaseModel):
    icon: str = Field(description="SVG elements drawn in a 24x24 box")
    text: str


class LessonInfo(BaseModel):
    id: str
    title: str
    about: str
    covers: list[str] = Field(description="what it teaches: setup, turn, moves, ...")
    steps: int
    moves: int = Field(description="how many of its steps ask for a move")


class LessonList(BaseModel):
    game: str
    name: str
    lessons: list[LessonInfo] = Field(description="in the order they are meant to be taken")
    legend: list[LegendItem] = Field(description="what the board's symbols mean")


class TutorialStep(BaseModel):
    """One step of a lesson, at its start: what the page shows."""

    game: str
    lesson: str
    title: str = Field(description="the lesson's title")
    step: int = Field(description="this step, counted from 0")
    steps: int
    id: str
    text: str
    asks_move: bool = Field(description="false: a step to read, then go on")
    seat: int = Field(description="the learner's seat")
    asked: list[str] = Field(
        description="the moves the step accepts, in canonical notation, for the page to "
        "mark (empty for a step to read, or one that accepts any move meeting a condition)"
    )
    answer: str | None = Field(description="the move 'Show me' plays")
    view: JsonObject = Field(description="the position as the learner's seat sees it")
    buttons: dict[str, tuple[str, str]] = Field(
        description="words for the legal moves played by a button"
    )
    log: list[LogEntryOut]
    svg: str = Field(description="the board, drawn as the play page draws it")
    panel: str = Field(description="the drawing beside the board (empty if none)")
    next_lesson: str | None = Field(description="the id of the lesson after this one")


class MoveRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    move: str = Field(min_length=1, max_length=MAX_ACTION, description="in the game's notation")


class TutorialMove(BaseModel):
    """A move judged: ``refused`` (the engine's reason) and ``wrong`` (the step's
    explanation) change nothing; ``done`` carries the position after the move."""

    result: Literal["refused", "wrong", "done"]
    message: str = Field(description="the refusal, the explanation or the success text")
    action: str | None = Field(description="the move in canonical notation (null: no move)")
    rulings: list[str] = Field(
        default=[], description="the rulings a refusal cites (its message names none)"
    )
    view: JsonObject | None = None
    log: list[LogEntryOut] | None = None
    svg: str | None = None
    panel: str | None = None


# -- the lessons ------------------------------------------------------------------------------


def find_lesson(game: str, lesson_id: str) -> tuple[Lesson, Lesson | None]:
    """The lesson and the one after it; ``404 not_found`` naming the game's lessons."""
    found = lessons(game)
    for k, lesson in enumerate(found):
        if lesson.id == lesson_id:
            return lesson, found[k + 1] if k + 1 < len(found) else None
    names = ", ".join(x.id for x in found) or "none yet"
    raise ApiError(
        404, "not_found", f"{game} has no lesson {lesson_id[:64]!r}; its lessons: {names}"
    )


def tutorial_at(lesson: Lesson, index: int) -> Tutorial:
    """The lesson at step ``index``; ``404 not_found`` when it has no such step."""
    if index >= len(lesson.steps):
        last = len(lesson.steps) - 1
        raise ApiError(
            404,
            "not_found",
            f"lesson {lesson.id!r} has steps 0 to {last}; there is no step {index}",
        )
    return Tutorial(lesson, start=index)


def step_json(t: Tutorial, after: Lesson | None) -> TutorialStep:
    data = t.to_json()
    step = t.step
    game = t.game
    asked = [game.format_action(game.parse_action(a)) for a in step.accept]
    answer = None if step.answer is None else game.format_action(game.parse_action(step.answer))
    board, panel = t.svg()
    return TutorialStep(
        game=data["game"],
        lesson=data["lesson"],
        title=data["title"],
        step=data["step"],
        steps=data["steps"],
        id=data["id"],
        text=data["text"],
        asks_move=data["asks_move"],
        seat=data["seat"],
        asked=asked,
        answer=answer,
        view=data["view"],
        buttons={a: (w[0], w[1]) for a, w in data["buttons"].items()},
        log=[LogEntryOut.model_validate(e) for e in data["log"]],
        svg=board,
        panel=panel,
        next_lesson=None if after is None else after.id,
    )


def move_json(t: Tutorial, move: str) -> TutorialMove:
    out = t.try_move(move)
    if out.result == "refused":
        # As in play: the player reads the sentence, the ruling IDs travel apart.
        words, rulings = split_rulings(out.message)
        return TutorialMove(result="refused", message=words, action=out.action, rulings=[*rulings])
    if out.result == "wrong":
        return TutorialMove(result="wrong", message=out.message, action=out.action)
    board, panel = t.svg()
    return TutorialMove(
        result="done",
        message=out.message,
        action=out.action,
        view=out.view,
        log=[LogEntryOut.model_validate(e) for e in t.log()],
        svg=board,
        panel=panel,
    )


# -- the pages --------------------------------------------------------------------------------


def lessons_page(game: str) -> str:
    """The list of a game's lessons (progress is filled in by the browser)."""
    spec = spec_of(game)
    items = []
    for k, x in enumerate(lessons(game)):
        moves = sum(s.asks_move for s in x.steps)
        items.append(
            f'<li class="lesson-item" data-lesson="{html.escape(x.id)}" '
            f'data-steps="{len(x.steps)}"><a href="/learn/{html.escape(spec.id)}/'
            f'{html.escape(x.id)}">{k + 1}. {html.escape(x.title)}</a>'
            f'<span class="lesson-progress muted small"></span>'
            f"<p>{html.escape(x.about)}</p>"
            f'<p class="muted small">{_count(len(x.steps), "step")}, {moves} to play</p></li>'
        )
    body = (
        f'<ol class="lesson-list">{"".join(items)}</ol>'
        if items
        else "<p>This game has no lessons yet: its rules page explains it.</p>"
    )
    return _fill("lessons.html", spec.id, spec.name, lesson="", body=body)


def _count(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def lesson_page(game: str, lesson: Lesson) -> str:
    return _fill("tutorial.html", game, spec_of(game).name, lesson=lesson.id, title=lesson.title)


def _fill(name: str, game: str, game_name: str, **parts: str) -> str:
    text = web_file(name).replace("{{game_id}}", html.escape(game))
    text = text.replace("{{game_name}}", html.escape(game_name))
    for key, value in parts.items():
        # The body is HTML made above from escaped parts; the rest is text.
        text = text.replace("{{" + key + "}}", value if key == "body" else html.escape(value))
    return text


# -- the routes -------------------------------------------------------------------------------


def add_tutorials(app: FastAPI, headers: Mapping[str, str]) -> None:
    """Adds the tutorial's routes to ``app``; its pages answer with ``headers`` (the
    pages' security headers, which the app owns).

    The routes go on the app itself, not through an included router: a 405 names every
    method of a path from the app's own routes (``errors.allowed_methods``), and the
    steps' path takes two."""

    @app.get("/api/games/{game}/lessons", responses=documented(422))
    def game_lessons(game: GameId) -> LessonList:
        """The game's lessons, in order, with the legend of its board's symbols."""
        found = entry(game)
        return LessonList(
            game=game,
            name=found.spec.name,
            lessons=[
                LessonInfo(
                    id=x.id,
                    title=x.title,
                    about=x.about,
                    covers=list(x.covers),
                    steps=len(x.steps),
                    moves=sum(s.asks_move for s in x.steps),
                )
                for x in lessons(game)
            ],
            legend=[LegendItem(icon=i, text=t) for i, t in found.legend],
        )

    @app.get("/api/games/{game}/lessons/{lesson}/steps/{step}", responses=documented(400, 404, 422))
    def lesson_step(game: GameId, lesson: LessonId, step: StepIndex) -> TutorialStep:
        """A lesson's step at its start: its text, the learner's position drawn as the
        play page draws it, the moves it asks for and the one 'Show me' plays."""
        found, after = find_lesson(game, lesson)
        return step_json(tutorial_at(found, step), after)

    @app.post(
        "/api/games/{game}/lessons/{lesson}/steps/{step}",
        responses=documented(400, 404, 413, 422),
    )
    def lesson_move(
        game: GameId, lesson: LessonId, step: StepIndex, body: MoveRequest
    ) -> TutorialMove:
        """Judge the learner's move at the step's start: ``refused`` with the engine's
        reason, ``wrong`` with the step's explanation, or ``done`` with the success text
        and the position after it. A step to read takes no move (``refused``)."""
        found, _ = find_lesson(game, lesson)
        return move_json(tutorial_at(found, step), body.move)

    @app.get("/learn/{game}", include_in_schema=False)
    def learn(game: str) -> HTMLResponse:
        try:
            return HTMLResponse(lessons_page(game), headers=dict(headers))
        except UnknownGameError as exc:
            raise StarletteHTTPException(404, str(exc)) from None

    @app.get("/learn/{game}/{lesson}", include_in_schema=False)
    def learn_lesson(game: str, lesson: str) -> HTMLResponse:
        try:
            found, _ = find_lesson(game, lesson)
        except UnknownGameError as exc:
            raise StarletteHTTPException(404, str(exc)) from None
        except ApiError as exc:
            raise StarletteHTTPException(404, f"{exc.message[:200]}.") from None
        return HTMLResponse(lesson_page(game, found), headers=dict(headers))

    @app.get("/static/tutorial.css", include_in_schema=False)
    def style() -> Response:
        return Response(
            web_file("tutorial.css"),
            media_type="text/css",
            headers={"cache-control": "no-cache", **headers},
        )
