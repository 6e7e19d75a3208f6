"""Tutorial lessons as data: the format of a game's lessons file, and its loader.

A game teaches itself with short lessons on real positions. They are data beside the
game (``lessons.json`` in its package, registered as the entry's ``lessons``), never
hand-drawn boards: every position is rebuilt by the engine from the game's parameters,
its seed and a list of actions in the game's own notation. :mod:`~sudoku_arena.core.tutorial`
plays them; this module reads and checks the file without playing anything.

The file, one JSON object::

    {"format": 1, "game": "tic-tac-sudoku",
     "lessons": [
       {"id": "first-symbols", "title": "The board and your first symbols",
        "about": "The board, where your first symbol may go, and how ...",
        "covers": ["setup", "turn"],
        "params": {"grid": "534678912672195348..."}, "seed": 0, "seat": 0,
        "steps": [
          {"id": "board", "text": "The board is a completed Sudoku. ..."},
          {"id": "first",
           "text": "Your first symbol may go on any empty space outside the centre
                    box. Place it on the 3 in row 7, column 5 (r7c5): ...",
           "accept": ["r7c5"],
           "wrong": "That space is allowed for a first symbol, but this step asks
                     for the 3 on r7c5, ...",
           "success": "Your circle is drawn hollow: it is your open symbol, ...",
           "wrong_tries": ["r1c1", "r9c9"], "illegal_tries": ["r5c5", "r10c1"]},
          {"id": "follow", "text": "Square placed its first symbol on ...",
           "moves": ["r3c1"], "accept": ["r9c2"], ...}]}]}

A lesson's position starts from ``load(game, seed=seed, **params)``. The first step
plays its ``moves`` from the initial state; every later step continues from where the
previous one ended (after its ``answer`` when it asked for a move) unless it says
``"restart": true``. A move in ``moves`` is played by the one seat to move, or by
chance at a chance node (``roll 4``, ``draw 5``: chance is written out, so a lesson
never depends on a random generator); in a simultaneous phase it names its seat as
``"1: 5 r3c4"``.

A step asks for a move (``accept``: the accepted actions, or ``accept_if``: one of
:data:`CONDITIONS`) or only for reading (neither). ``answer`` is the move that the
page's "show me" plays and that the next step continues from (default: the first
accepted action; required with ``accept_if``). ``wrong`` is said after a legal move the
step does not ask for; illegal moves are explained by the engine's own refusal.
``wrong_tries`` and ``illegal_tries`` are moves a learner might try, kept for the tests:
the first must get ``wrong``, the second the engine's refusal. ``covers`` names what
the lesson teaches, from :data:`TOPICS`.

The line a step continues must be the one the learner played, so a step that the
next step continues from accepts exactly one action.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from sudoku_arena.core.entry import LessonSource
from sudoku_arena.core.errors import ArenaError
from sudoku_arena.core.params import ParamValue
from sudoku_arena.core.registry import entry

#: The version of the lessons file format this code reads.
LESSONS_FORMAT = 1

#: What a lesson may cover; each game's lessons cover every one of them.
TOPICS = ("setup", "turn", "moves", "scoring", "ending", "strategy")

#: Named conditions a step may accept instead of a list of actions. Each is judged on
#: the learner's legal move and the position right after it: ``any`` every one;
#: ``scores`` one after which the learner's score in his view is higher; ``keeps-score``
#: one after which it is not lower; ``ends`` one that ends the game; ``wins`` one that
#: ends it with him among the winners. (A chance node right after the move, a roll or a
#: draw, is not an end.)
CONDITIONS = ("any", "scores", "keeps-score", "ends", "wins")


class LessonError(ArenaError):
    """A lessons file that is malformed, or a lesson the engine cannot play as written.

    The message names the game, and where it can the lesson, the step and the action."""


@dataclass(frozen=True, slots=True)
class Step:
    """One step of a lesson (see the module docstring for each field)."""

    id: str
    text: str
    moves: tuple[str, ...] = ()
    restart: bool = False
    accept: tuple[str, ...] = ()
    accept_if: str | None = None
    answer: str | None = None
    wrong: str = ""
    success: str = ""
    wrong_tries: tuple[str, ...] = ()
    illegal_tries: tuple[str, ...] = ()

    @property
    def asks_move(self) -> bool:
        """Whether the step waits for a move (else the learner only reads it)."""
        return self.answer is not None


@dataclass(frozen=True, slots=True)
class Lesson:
    """One lesson: its game, the set-up every position starts from, and its steps."""

    game: str
    id: str
    title: str
    about: str
    covers: tuple[str, ...]
    params: dict[str, ParamValue]
    seed: int
    seat: int
    steps: tuple[Step, ...]

    def where(self, index: int | None = None) -> str:
        """``sudoku-warriors lesson 'battles', step 2 ('bid')``: for error messages."""
        at = f"{self.game} lesson {self.id!r}"
        if index is None:
            return at
        return f"{at}, step {index + 1} ({self.steps[index].id!r})"


def packaged(package: str, name: str = "lessons.json") -> LessonSource:
    """A :data:`LessonSource` reading the file ``name`` shipped in ``package``."""

    def read() -> str:
        return resources.files(package).joinpath(name).read_text(encoding="utf-8")

    return read


def lessons(game_id: str) -> tuple[Lesson, ...]:
    """The lessons registered for ``game_id`` (empty when it has none).

    Raises ``UnknownGameError`` for an unknown game and :class:`LessonError` for a
    malformed file. Nothing is played here: :mod:`~sudoku_arena.core.tutorial` builds
    the positions and reports a lesson the engine refuses."""
    source = entry(game_id).lessons
    if source is None:
        return ()
    return parse_lessons(game_id, source())


@lru_cache(maxsize=16)
def parse_lessons(game_id: str, text: str) -> tuple[Lesson, ...]:
    """Read the text of ``game_id``'s lessons file; raises :class:`LessonError`."""
    try:
        data: object = json.loads(text)
    except json.JSONDecodeError as exc:
        raise LessonError(f"{game_id} lessons: not JSON: {exc}") from None
    top = _Reader(f"{game_id} lessons", data)
    fmt = top.integer("format")
    if fmt != LESSONS_FORMAT:
        raise LessonError(f"{game_id} lessons: format {fmt} is not {LESSONS_FORMAT}")
    named = top.text("game")
    if named != game_id:
        raise LessonError(f"{game_id} lessons: the file is for {named!r}")
    found = tuple(_lesson(game_id, item) for item in top.items("lessons", required=True))
    _unique(f"{game_id} lessons", [lesson.id for lesson in found], "lesson")
    return found


def _lesson(game_id: str, data: object) -> Lesson:
    at = f"{game_id} lesson {_Reader(f'{game_id} lessons', data).text('id')!r}"
    r = _Reader(at, data)
    covers = r.texts("covers")
    for topic in covers:
        if topic not in TOPICS:
            raise LessonError(f"{at}: covers {topic!r}; topics are {', '.join(TOPICS)}")
    steps = tuple(_step(f"{at}, step {k + 1}", item) for k, item in enumerate(r.items("steps")))
    if not steps:
        raise LessonError(f"{at}: has no steps")
    _unique(at, [s.id for s in steps], "step")
    for k in range(1, len(steps)):
        before, step = steps[k - 1], steps[k]
        if not step.restart and (before.accept_if is not None or len(before.accept) > 1):
            raise LessonError(
                f"{at}, step {k + 1} ({step.id!r}) continues from step {k}, which accepts "
                "several moves: accept one there, or restart here"
            )
    return Lesson(
        game=game_id,
        id=r.text("id"),
        title=r.text("title"),
        about=r.text("about"),
        covers=covers,
        params=r.params("params"),
        seed=r.integer("seed", 0),
        seat=r.integer("seat", 0),
        steps=steps,
    )


def _step(at: str, data: object) -> Step:
    at = f"{at} ({_Reader(at, data).text('id')!r})"
    r = _Reader(at, data)
    accept = r.texts("accept")
    accept_if = r.optional_text("accept_if")
    answer = r.optional_text("answer")
    if accept and accept_if is not None:
        raise LessonError(f"{at}: give accept or accept_if, not both")
    if accept_if is not None and accept_if not in CONDITIONS:
        raise LessonError(f"{at}: accept_if {accept_if!r}; conditions are {', '.join(CONDITIONS)}")
    if accept_if is not None and answer is None:
        raise LessonError(f"{at}: accept_if needs an answer (the move 'show me' plays)")
    if accept and answer is None:
        answer = accept[0]
    if answer is None and (r.has("answer") or r.has("wrong")):
        raise LessonError(f"{at}: a reading step (no accept) takes no answer or wrong")
    wrong = r.text("wrong", "")
    if answer is not None and not wrong and accept_if != "any":
        raise LessonError(f"{at}: a step asking for a move says what is wrong ('wrong')")
    return Step(
        id=r.text("id"),
        text=r.text("text"),
        moves=r.texts("moves"),
        restart=r.flag("restart"),
        accept=accept,
        accept_if=accept_if,
        answer=answer,
        wrong=wrong,
        success=r.text("success", ""),
        wrong_tries=r.texts("wrong_tries"),
        illegal_tries=r.texts("illegal_tries"),
    )


def _unique(at: str, ids: list[str], what: str) -> None:
    seen: set[str] = set()
    for i in ids:
        if i in seen:
            raise LessonError(f"{at}: two {what}s are called {i!r}")
        seen.add(i)


_MISSING = object()


class _Reader:
    """Typed access to one JSON object of the file, refusing wrong types by name."""

    def __init__(self, at: str, data: object) -> None:
        if not isinstance(data, dict):
            raise LessonError(f"{at}: expected an object, got {type(data).__name__}")
        self.at = at
        self.data: dict[str, object] = data

    def has(self, key: str) -> bool:
        return key in self.data

    def _get(self, key: str, default: object) -> object:
        value = self.data.get(key, default)
        if value is _MISSING:
            raise LessonError(f"{self.at}: lacks {key!r}")
        return value

    def text(self, key: str, default: str | None = None) -> str:
        """The text under ``key``; required unless a ``default`` is given."""
        value = self._get(key, _MISSING if default is None else default)
        if not isinstance(value, str):
            raise LessonError(f"{self.at}: {key!r} must be text")
        return value

    def optional_text(self, key: str) -> str | None:
        return self.text(key) if key in self.data else None

    def integer(self, key: str, default: int | None = None) -> int:
        value = self._get(key, _MISSING if default is None else default)
        if isinstance(value, bool) or not isinstance(value, int):
            raise LessonError(f"{self.at}: {key!r} must be a whole number")
        return value

    def flag(self, key: str) -> bool:
        value = self.data.get(key, False)
        if not isinstance(value, bool):
            raise LessonError(f"{self.at}: {key!r} must be true or false")
        return value

    def items(self, key: str, required: bool = False) -> list[object]:
        value = self._get(key, _MISSING if required else [])
        if not isinstance(value, list):
            raise LessonError(f"{self.at}: {key!r} must be a list")
        return value

    def texts(self, key: str) -> tuple[str, ...]:
        value = self.items(key)
        if not all(isinstance(v, str) for v in value):
            raise LessonError(f"{self.at}: {key!r} must be a list of text")
        return tuple(str(v) for v in value)

    def params(self, key: str) -> dict[str, ParamValue]:
        value = self._get(key, {})
        if not isinstance(value, dict):
            raise LessonError(f"{self.at}: {key!r} must be an object")
        out: dict[str, ParamValue] = {}
        for name, v in value.items():
            if v is not None and not isinstance(v, int | str | bool):
                raise LessonError(f"{self.at}: parameter {name!r} must be a JSON scalar")
            out[str(name)] = v
        return out
