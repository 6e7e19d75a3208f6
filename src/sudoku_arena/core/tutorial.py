"""Playing a tutorial lesson: positions built by the engine, the learner's moves judged.

A :class:`Tutorial` walks through one :class:`~sudoku_arena.core.lessons.Lesson` of any
registered game through the game protocol alone. Each step's position is rebuilt from
the lesson's data (``load(game, seed, **params)``, then the listed actions, each checked
by ``apply``), so a board is never drawn by hand and a rule change that breaks a lesson
breaks it loudly, with a :class:`~sudoku_arena.core.lessons.LessonError` naming the
game, lesson, step and action.

The learner's move is judged by :meth:`Tutorial.try_move`:

* not an action, or not allowed: ``"refused"`` with the engine's own refusal text;
* legal, but not what the step asks: ``"wrong"`` with the step's explanation;
* what the step asks: ``"done"``, the step's success text and the position after it.

Only ``"done"`` changes anything; :meth:`Tutorial.next` then moves to the next step.
What a page draws is what the server sends a player: the game's view of the position
for the learner's seat (:meth:`Tutorial.view`), the words of its buttons and the log as
that seat may read it, so a lesson in a game with secrets shows no more than play does.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal, TypedDict

from sudoku_arena.core.errors import ArenaError
from sudoku_arena.core.lessons import Lesson, LessonError, Step
from sudoku_arena.core.match import LogEntry
from sudoku_arena.core.protocol import AnyGame
from sudoku_arena.core.registry import build, entry_of
from sudoku_arena.core.types import JsonDict

#: ``"1: 5 r3c4"``: a set-up move that names the seat playing it.
_SEATED = re.compile(r"^\s*(\d+)\s*:\s*(.+)$")

Result = Literal["refused", "wrong", "done"]


class LogJson(TypedDict):
    """One action of the position's log, as the learner's seat may read it."""

    ply: int
    actor: int | None
    action: str


class StepJson(TypedDict):
    """What a page needs to show the current step (see :meth:`Tutorial.to_json`)."""

    game: str
    lesson: str
    title: str
    step: int
    steps: int
    id: str
    text: str
    asks_move: bool
    done: bool
    success: str | None
    seat: int
    view: JsonDict
    buttons: dict[str, list[str]]
    log: list[LogJson]


class MoveJson(TypedDict):
    """The judgement of one move (see :class:`MoveOutcome`)."""

    result: Result
    message: str
    action: str | None
    view: JsonDict | None


@dataclass(frozen=True, slots=True)
class MoveOutcome:
    """How a move was judged: ``result``, the words to show (``message``), the move in
    canonical notation (``action``, ``None`` when the text was no action) and, when
    ``done``, the learner's view of the position after it (``view``)."""

    result: Result
    message: str
    action: str | None = None
    view: JsonDict | None = None

    def to_json(self) -> MoveJson:
        return {
            "result": self.result,
            "message": self.message,
            "action": self.action,
            "view": self.view,
        }


@dataclass(frozen=True, slots=True)
class Position:
    """A step's position: the state and the log of every action that built it."""

    state: object
    log: tuple[LogEntry, ...]


def lesson_game(lesson: Lesson) -> AnyGame:
    """The game a lesson is played on: its parameters, generated ones from its seed."""
    try:
        return build(lesson.game, lesson.params, lesson.seed)
    except ArenaError as exc:
        raise LessonError(f"{lesson.where()}: the game cannot be set up: {exc}") from None


def positions(game: AnyGame, lesson: Lesson) -> tuple[Position, ...]:
    """Every step's starting position, in order, each built and checked by the engine.

    A step continues from where the previous one ended (after its ``answer``) unless it
    restarts (the first step starts from the initial state).
    Raises :class:`LessonError` naming the step and the action when a set-up move is
    not legal, when the learner is not to move at a step that asks for a move, when an
    accepted move is not legal there, or when the answer is not accepted there."""
    start = Position(game.initial_state(), ())
    out: list[Position] = []
    end = start  # where the previous step ended
    for k, step in enumerate(lesson.steps):
        at = lesson.where(k)
        here = start if step.restart else end
        for i, text in enumerate(step.moves):
            try:
                here = _play(game, here, text)
            except ArenaError as exc:
                raise LessonError(f"{at}: set-up move {i + 1}, {text!r}: {exc}") from None
        if step.asks_move:
            players = game.to_move(here.state).players
            if lesson.seat not in players:
                raise LessonError(
                    f"{at}: asks seat {lesson.seat} for a move, but to move is "
                    f"{list(players) or 'nobody'}"
                )
        for text in step.accept:
            try:
                _play(game, here, f"{lesson.seat}: {text}")
            except ArenaError as exc:
                raise LessonError(f"{at}: accepted move {text!r}: {exc}") from None
        out.append(here)
        end = _answered(game, lesson, k, here)
    return tuple(out)


def _answered(game: AnyGame, lesson: Lesson, k: int, here: Position) -> Position:
    """Step ``k``'s position ``here`` after its answer (unchanged for a reading step);
    raises :class:`LessonError` when the answer is not legal or not accepted."""
    answer = lesson.steps[k].answer
    if answer is None:
        return here
    at = f"{lesson.where(k)}: answer {answer!r}"
    try:
        after = _play(game, here, f"{lesson.seat}: {answer}")
    except ArenaError as exc:
        raise LessonError(f"{at}: {exc}") from None
    step = lesson.steps[k]
    if not accepts(game, step, lesson.seat, here.state, after.state, after.log[-1].action):
        raise LessonError(f"{at} is not a move the step accepts")
    return after


def _play(game: AnyGame, here: Position, text: str) -> Position:
    """``here`` after ``text``: chance at a chance node, else the seat named or the one
    seat to move. Raises the engine's error when the move is not legal."""
    seated = _SEATED.match(text)
    tm = game.to_move(here.state)
    if tm.is_terminal:
        raise LessonError("the game is already over")
    if tm.is_chance:
        if seated is not None:
            raise LessonError("chance is to move, not a seat")
        actor: int | None = None
    elif seated is not None:
        actor, text = int(seated.group(1)), seated.group(2)
    elif len(tm.players) == 1:
        actor = tm.players[0]
    else:
        raise LessonError(f"seats {list(tm.players)} may act: write the seat, as '1: {text}'")
    action = game.parse_action(text)
    state = game.apply(here.state, action, actor)
    entry = LogEntry(len(here.log), actor, game.format_action(action))
    return Position(state, (*here.log, entry))


def accepts(
    game: AnyGame, step: Step, seat: int, before: object, after: object, action: str
) -> bool:
    """Whether ``seat``'s legal move ``action`` (canonical notation), which took
    ``before`` to ``after``, is what ``step`` asks for."""
    if step.accept_if is None:
        return action in {game.format_action(game.parse_action(a)) for a in step.accept}
    if step.accept_if == "any":
        return True
    if step.accept_if in ("scores", "keeps-score"):
        gained = _score(game, after, seat) - _score(game, before, seat)
        return gained > 0 if step.accept_if == "scores" else gained >= 0
    out = game.outcome(after)
    if step.accept_if == "ends":
        return out is not None
    return out is not None and seat in out.winners  # "wins"


def _score(game: AnyGame, state: object, seat: int) -> float:
    """``seat``'s score as his view shows it (every game's view lists ``scores``)."""
    shown = game.view(state, seat).get("scores")
    if not isinstance(shown, list) or not 0 <= seat < len(shown):
        raise LessonError(f"{game.spec.id}: the view shows no scores to judge a move by")
    return float(shown[seat])


class Tutorial:
    """One lesson being played, from step ``start`` (0-based) on.

    Raises :class:`LessonError` at once when any of the lesson's positions cannot be
    built (every step is built, so a broken lesson never starts)."""

    def __init__(self, lesson: Lesson, start: int = 0) -> None:
        if not 0 <= start < len(lesson.steps):
            raise LessonError(f"{lesson.where()}: has no step {start + 1}")
        self.lesson = lesson
        self.game = lesson_game(lesson)
        self.positions = positions(self.game, lesson)
        self.index = start
        #: The position after the learner's accepted move (``None`` until then).
        self.after: Position | None = None

    # -- reading ------------------------------------------------------------------------

    @property
    def step(self) -> Step:
        return self.lesson.steps[self.index]

    @property
    def seat(self) -> int:
        """The learner's seat: every view is his."""
        return self.lesson.seat

    @property
    def done(self) -> bool:
        """Whether the current step is done (a reading step is done once read)."""
        return not self.step.asks_move or self.after is not None

    @property
    def finished(self) -> bool:
        """Whether the last step is done."""
        return self.index == len(self.lesson.steps) - 1 and self.done

    @property
    def position(self) -> Position:
        """The position shown now: the step's, or the one after the learner's move."""
        return self.after if self.after is not None else self.positions[self.index]

    def view(self) -> JsonDict:
        """The game's view of :attr:`position` for the learner's seat (as a player gets it)."""
        return self.game.view(self.position.state, self.seat)

    def svg(self) -> tuple[str, str]:
        """The board and the panel beside it (empty when the game has none), drawn from
        :meth:`view` by the game's registered renderers."""
        found = entry_of(self.game)
        view = self.view()
        panel = found.render_panel(view) if found.render_panel is not None else ""
        return found.render_svg(view), panel

    def log(self) -> list[LogJson]:
        """The position's log as the learner's seat may read it: his own actions as they
        are, every other one as the game shows it to all (a secret draw reads ``draw``)."""
        return [
            {
                "ply": e.ply,
                "actor": e.actor,
                "action": e.action if e.actor == self.seat else self.game.public_action(e.action),
            }
            for e in self.position.log
        ]

    def to_json(self) -> StepJson:
        """Everything a page needs to show the current step."""
        view = self.view()
        step = self.step
        return {
            "game": self.lesson.game,
            "lesson": self.lesson.id,
            "title": self.lesson.title,
            "step": self.index,
            "steps": len(self.lesson.steps),
            "id": step.id,
            "text": step.text,
            "asks_move": step.asks_move,
            "done": self.done,
            "success": step.success if self.after is not None else None,
            "seat": self.seat,
            "view": view,
            "buttons": {a: list(w) for a, w in entry_of(self.game).buttons(view).items()},
            "log": self.log(),
        }

    # -- acting -------------------------------------------------------------------------

    def try_move(self, text: str) -> MoveOutcome:
        """Judge the learner's move ``text`` (the game's notation) at the current step.

        ``refused`` (the engine's refusal, or why the step takes no move now) and
        ``wrong`` (the step's explanation) change nothing; ``done`` moves the shown
        position to the one after the move, until :meth:`next`."""
        step = self.step
        if not step.asks_move:
            return MoveOutcome("refused", "This step asks for no move: read it, then go on.")
        if self.after is not None:
            return MoveOutcome("refused", "This step is done: go on to the next one.")
        here = self.positions[self.index]
        try:
            after = _play(self.game, here, f"{self.seat}: {text}")
        except ArenaError as exc:
            return MoveOutcome("refused", str(exc))
        action = after.log[-1].action
        if not accepts(self.game, step, self.seat, here.state, after.state, action):
            return MoveOutcome("wrong", step.wrong, action)
        self.after = after
        return MoveOutcome("done", step.success, action, self.view())

    def next(self) -> bool:
        """Go on to the next step; ``False`` (and nothing changes) while the current step
        waits for its move or when it is the last."""
        if not self.done or self.index + 1 >= len(self.lesson.steps):
            return False
        self.index += 1
        self.after = None
        return True
