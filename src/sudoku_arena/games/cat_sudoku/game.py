"""The Cat Sudoku rules engine (the rulings CS-1..8 are stated in README.md here).

A game is a setup turn (turn 0) and then numbered turns. Every turn has three phases:

* ``ROLL``: four chance nodes, one die each (``roll 1`` .. ``roll 6``, 1/6 each).
* ``WILD``: the active player picks one usable Wild Counter box (CS-4), or ``nowild``
  when the option ``wild_optional`` allows it. Skipped at the setup and when no box is
  usable (no wild this turn).
* ``WRITE``: a simultaneous phase (CS-6). Every player still writing is to move; each
  write is one action ``<value> r<row>c<col>``. When all have written the turn ends
  and the game ends if the sheets are full (CS-7).

Encodings. An action is its own index (an int):

* ``0..5``: chance ``roll 1`` .. ``roll 6``;
* ``6``: ``nowild``;
* ``7..30``: ``7 + 12 * row + 6 * blank + (value - 1)``, row 0 for "1+", 1 for "2+",
  ``blank`` 1 for a blank column box (``wild 1+ blank 3``), 0 for the numbered box
  (``wild 1+ 3``);
* ``31..1566``: writes, ``31 + 256 * (value - 1) + 16 * row + col`` (0-based row and
  column on a 16 x 16 frame, so an index means the same square on every sheet).

The Wild Counter ``counter`` holds 18 ints, ``9 * row + column``: columns 0-5 are the
numbered boxes of values 1-6 (0 unused, 1 crossed off), columns 6-8 the blank boxes (0
unused, else the value written into it). ``left[p]`` holds seat ``p``'s dice still to
write this turn: ``left[p][0]`` wild dice (any value, CS-5), ``left[p][v]`` plain dice
showing ``v``; a seat is done writing when they are all 0.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from fractions import Fraction
from typing import ClassVar, Final, cast, final

from sudoku_arena.core.base import BaseGame
from sudoku_arena.core.chance import probability
from sudoku_arena.core.errors import (
    IllegalActionError,
    InvalidParameterError,
    NotationError,
    StateFormatError,
)
from sudoku_arena.core.params import ParamSpec, ParamValue, players_param
from sudoku_arena.core.types import (
    TO_MOVE_CHANCE,
    TO_MOVE_TERMINAL,
    GameSpec,
    JsonDict,
    MoveKind,
    Outcome,
    ToMove,
)
from sudoku_arena.games.cat_sudoku.rules import Board, explain, set_penalty
from sudoku_arena.games.cat_sudoku.sheet import (
    MAX_SIDE,
    OPEN_KINDS,
    PRINTED,
    SHEET_NAMES,
    check_sheet_param,
    load_sheet,
    parse_cell,
    sheet_digest,
)

ROLL: Final = 0
WILD: Final = 1
WRITE: Final = 2
OVER: Final = 3
PHASES = ("roll", "wild", "write", "over")

NOWILD: Final = 6
WILD_BASE: Final = 7
WRITE_BASE: Final = 31
FRAME: Final = MAX_SIDE  # writes address squares on a 16 x 16 frame
NUM_ACTIONS: Final = WRITE_BASE + 6 * FRAME * FRAME

ROW_LABELS = ("1+", "2+")
COUNTER_COLS = 9
BLANK_COLS: Final = (6, 7, 8)
SIXTH = probability(1, 6)
_ROLLS: Final = tuple((v - 1, SIXTH) for v in range(1, 7))
_NO_DICE: Final = (0, 0, 0, 0, 0, 0, 0)

_NOTATION_HELP = (
    "write '<value> r<row>c<col>' (5 r3c4), 'wild 1+ 3', 'wild 2+ blank 5', 'nowild', "
    "or a chance outcome 'roll 4'"
)
_ROLL_RE = re.compile(r"^roll\s*([1-6])$")
_NOWILD_RE = re.compile(r"^no\s*-?\s*wild$")
_WILD_RE = re.compile(r"^wild\s*([12])\s*\+\s*(blank\s*)?([1-6])$")
_WRITE_RE = re.compile(r"^([1-6])\s*(r\s*\d+\s*c\s*\d+)$")


#: The fields of a state, in the order the constructor takes them.
STATE_FIELDS = ("phase", "turn", "active", "dice", "wild", "box", "counter", "sheets", "left")


@final
class CSState:
    """A Cat Sudoku position (see the module docstring for the encodings).

    A value: the engine never changes a state, it makes a new one; two states with
    equal fields are equal and hash alike. (A plain class rather than a frozen
    dataclass: play-outs make a state per move, and compiled it is a native class.)
    """

    __slots__ = (*STATE_FIELDS, "writers")

    phase: int
    turn: int
    active: int
    dice: tuple[int, ...]
    wild: int
    box: int
    counter: tuple[int, ...]
    sheets: tuple[tuple[int, ...], ...]
    left: tuple[tuple[int, ...], ...]
    #: Not a field: the bit mask of the seats still writing (:func:`_writing` of
    #: ``left``) once the engine has worked it out, else -1.
    writers: int

    def __init__(
        self,
        phase: int,
        turn: int,
        active: int,
        dice: tuple[int, ...],
        wild: int,
        box: int,
        counter: tuple[int, ...],
        sheets: tuple[tuple[int, ...], ...],
        left: tuple[tuple[int, ...], ...],
    ) -> None:
        self.phase = phase
        self.turn = turn
        self.active = active
        self.dice = dice
        self.wild = wild
        self.box = box
        self.counter = counter
        self.sheets = sheets
        self.left = left
        self.writers = -1

    def fields(
        self,
    ) -> tuple[
        int,
        int,
        int,
        tuple[int, ...],
        int,
        int,
        tuple[int, ...],
        tuple[tuple[int, ...], ...],
        tuple[tuple[int, ...], ...],
    ]:
        """The fields in :data:`STATE_FIELDS` order."""
        return (
            self.phase,
            self.turn,
            self.active,
            self.dice,
            self.wild,
            self.box,
            self.counter,
            self.sheets,
            self.left,
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, CSState):
            return NotImplemented
        return (
            self.phase == other.phase
            and self.turn == other.turn
            and self.active == other.active
            and self.wild == other.wild
            and self.box == other.box
            and self.dice == other.dice
            and self.left == other.left
            and self.counter == other.counter
            and self.sheets == other.sheets
        )

    def __ne__(self, other: object) -> bool:
        if not isinstance(other, CSState):
            return NotImplemented
        return not self == other

    def __hash__(self) -> int:
        return hash(self.fields())

    def __repr__(self) -> str:
        parts = ", ".join(f"{k}={v!r}" for k, v in zip(STATE_FIELDS, self.fields(), strict=True))
        return f"CSState({parts})"

    def __reduce__(self) -> tuple[type[CSState], tuple[object, ...]]:
        return CSState, self.fields()


def is_write(a: int) -> bool:
    return WRITE_BASE <= a < NUM_ACTIONS


def write_parts(a: int) -> tuple[int, int, int]:
    """``(value, row, col)`` of write action ``a`` (row and col 0-based)."""
    k = a - WRITE_BASE
    sq = k % (FRAME * FRAME)  # // and % rather than divmod: no tuple made when compiled
    return k // (FRAME * FRAME) + 1, sq // FRAME, sq % FRAME


def wild_parts(a: int) -> tuple[int, bool, int]:
    """``(row, blank, value)`` of wild action ``a``."""
    k = a - WILD_BASE
    row, k = divmod(k, 12)
    blank, v = divmod(k, 6)
    return row, bool(blank), v + 1


def wild_action(row: int, blank: bool, value: int) -> int:
    return WILD_BASE + 12 * row + 6 * int(blank) + value - 1


def _has_dice(d: tuple[int, ...]) -> bool:
    """Whether a seat's dice counts (``left[p]``) hold a die still to write."""
    return any(d)


def _touches(vals: tuple[int, ...], squares: tuple[int, ...]) -> bool:
    """Whether one of ``squares`` is filled in ``vals``."""
    return any(vals[j] for j in squares)


def _has_empty(vals: tuple[int, ...], fillable: tuple[int, ...]) -> bool:
    """Whether one of the ``fillable`` squares of ``vals`` is empty (stops at the first:
    cheaper than counting the zeros on every write while a sheet has room)."""
    return any(not vals[i] for i in fillable)


def _writing(left: tuple[tuple[int, ...], ...]) -> int:
    """Bit mask of the seats with dice still to write (bit ``p`` for seat ``p``)."""
    mask = 0
    bit = 1
    for d in left:
        if _has_dice(d):
            mask |= bit
        bit <<= 1
    return mask


class _Notation:
    """An action shown in notation only when an error message needs it."""

    __slots__ = ("a", "game")

    def __init__(self, game: CatSudoku, a: int) -> None:
        self.game, self.a = game, a

    def __str__(self) -> str:
        return self.game.format_action(self.a)


class CatSudoku(BaseGame[CSState, int]):
    """1-6 players roll four dice and write them into cat-shaped sheets."""

    spec: ClassVar[GameSpec] = GameSpec(
        id="cat-sudoku",
        name="Cat Sudoku",
        version="1.0.0",
        min_players=1,
        max_players=6,
        chance=True,
        hidden_information=False,
        simultaneous=True,
        num_distinct_actions=NUM_ACTIONS,
        summary=(
            "A roll-and-write for 1-6: every turn four dice are rolled, one number is made "
            "wild, and everybody writes the four values into a cat-shaped sheet, avoiding "
            "repeats in row and column segments and along diagonals."
        ),
        params=(
            players_param(1, 6, 1),
            ParamSpec(
                "sheet",
                str,
                "spring",
                "a shipped sheet (" + ", ".join(SHEET_NAMES) + ") or the text of a sheet",
                check=check_sheet_param,
                label="Sheet",
            ),
            ParamSpec(
                "sheet_sha256",
                str,
                "",
                "SHA-256 of the sheet's text; filled in by the game, so a record names the "
                "exact sheet it was played on (empty: do not check)",
                label="Sheet fingerprint",
            ),
            ParamSpec(
                "wild_optional",
                bool,
                False,
                "the active player may decline the wild (CS-4)",
                label="Wild may be declined",
            ),
            ParamSpec(
                "adjacent",
                bool,
                False,
                "each new number must touch a filled square (CS-6)",
                label="Write next to filled squares",
            ),
            ParamSpec(
                "circle_per_segment",
                bool,
                False,
                "a square repeated in both its segments gets two circles (CS-8)",
                label="One circle per segment",
            ),
        ),
    )

    def __init__(self, params: dict[str, ParamValue]) -> None:
        super().__init__(params)
        self.sheet = load_sheet(str(params["sheet"]))
        digest = sheet_digest(str(params["sheet"]))
        given = str(params.get("sheet_sha256") or "")
        if given and given != digest:
            raise InvalidParameterError(
                f"sheet_sha256: the sheet {str(params['sheet'])[:40]!r} here is not the one "
                f"given by its SHA-256 {given[:12]}... (it was changed since); allowed: "
                "the digest of this sheet, or empty"
            )
        self._params["sheet_sha256"] = digest
        self.board = Board(self.sheet)
        self.wild_optional = bool(params["wild_optional"])
        self.adjacent = bool(params["adjacent"])
        self.per_segment = bool(params["circle_per_segment"])
        b = self.board
        cols = self.sheet.cols
        #: frame index (16 x 16) of every square, and back (-1 off the sheet).
        self._frame = tuple((i // cols) * FRAME + i % cols for i in range(b.size))
        local = [-1] * (FRAME * FRAME)
        for i, f in enumerate(self._frame):
            local[f] = i
        self._local = tuple(local)
        self._code: tuple[tuple[int, ...], ...] = tuple(
            tuple(WRITE_BASE + (v - 1) * FRAME * FRAME + self._frame[i] for i in range(b.size))
            if v
            else ()
            for v in range(7)
        )
        #: The same actions typed as objects: compiled, listing them then copies
        #: references instead of making new int objects.
        self._code_objects: tuple[tuple[object, ...], ...] = self._code
        n = self.num_players
        #: Who is to move in a writing phase, by the bit mask of the seats still writing.
        self._writers = tuple(
            ToMove(MoveKind.DECISION, tuple([p for p in range(n) if mask >> p & 1]))
            for mask in range(1 << n)
        )
        #: Who is to move when seat ``p`` alone chooses (the wild).
        self._deciders = tuple(ToMove.decision(p) for p in range(n))

    # -- protocol -------------------------------------------------------------------------

    def initial_state(self) -> CSState:
        n = self.num_players
        return CSState(
            phase=ROLL,
            turn=0,
            active=0,
            dice=(),
            wild=0,
            box=-1,
            counter=(0,) * 18,
            sheets=(self.board.initial,) * n,
            left=(_NO_DICE,) * n,
        )

    def to_move(self, s: CSState) -> ToMove:
        ph = s.phase
        if ph == WRITE:
            w = s.writers
            if w < 0:
                w = s.writers = _writing(s.left)
            return self._writers[w]
        if ph == ROLL:
            return TO_MOVE_CHANCE
        if ph == WILD:
            return self._deciders[s.active]
        return TO_MOVE_TERMINAL

    def chance_outcomes(self, s: CSState) -> Sequence[tuple[int, Fraction]]:
        if s.phase != ROLL:
            return ()
        return _ROLLS

    def write_action(self, value: int, square: int) -> int:
        """The action writing ``value`` (1-6) into ``square`` (a sheet index)."""
        return self._code[value][square]

    def allowed_squares(self, s: CSState, player: int) -> list[int]:
        """The empty squares ``player`` may write into now (CS-3 setup, CS-6 adjacent)."""
        return self.open_squares(s.sheets[player], s.turn == 0)

    def every_empty_open(self, setup: bool) -> bool:
        """Whether :meth:`open_squares` is every empty fillable square (after the setup,
        without the option adjacent), so that a caller may keep that list itself."""
        return not setup and not self.adjacent

    def open_squares(self, vals: tuple[int, ...], setup: bool) -> list[int]:
        """The empty squares of the sheet ``vals`` that may be written into, in square
        order: starting squares at the ``setup`` (CS-3), else fillable squares that
        touch a filled one with the option adjacent, or all when none does (CS-6)."""
        b = self.board
        if setup:
            return [i for i in b.starting if not vals[i]]
        empty = [i for i in b.fillable if not vals[i]]
        if self.adjacent:
            orth = b.orth
            touching = [i for i in empty if _touches(vals, orth[i])]
            if touching:
                return touching
        return empty

    def usable_boxes(self, s: CSState) -> list[int]:
        """The wild actions the dice allow on the Wild Counter (CS-4), in index order."""
        counts = [0, 0, 0, 0, 0, 0, 0]
        for d in s.dice:
            counts[d] += 1
        counter = s.counter
        out: list[int] = []
        for row in (0, 1):
            base = 9 * row
            for v in range(1, 7):
                if counts[v] > row and not counter[base + v - 1]:
                    out.append(wild_action(row, False, v))
            if not (counter[base + 6] and counter[base + 7] and counter[base + 8]):
                for v in range(1, 7):
                    if counts[v] > row:
                        out.append(wild_action(row, True, v))
        return out

    def legal_actions(self, s: CSState, player: int) -> Sequence[int]:
        if s.phase == WRITE:
            if not 0 <= player < self.num_players:
                return ()
            d = s.left[player]
            if not _has_dice(d):
                return ()
            squares = self.allowed_squares(s, player)
            code = self._code_objects
            out: list[object] = []
            for v in range(1, 7):
                if d[0] or d[v]:
                    row = code[v]
                    for i in squares:  # appended one by one: no list per value
                        out.append(row[i])
            return cast(list[int], out)
        if s.phase == WILD and player == s.active:
            boxes = self.usable_boxes(s)
            return [NOWILD, *boxes] if self.wild_optional else boxes
        return ()

    def why_illegal(self, s: CSState, a: int, player: int) -> str | None:
        """The rule that refuses ``a`` for ``player`` in ``s`` (a decision node), or None."""
        if s.phase == WILD:
            if is_write(a):
                return "the active player first chooses the wild (CS-4); writing comes next"
            if a == NOWILD:
                if self.wild_optional:
                    return None
                return (
                    "the wild is not optional: pick a usable Wild Counter box (CS-4; "
                    "option wild_optional)"
                )
            if not WILD_BASE <= a < WRITE_BASE:
                return "not a choice of the wild"
            row, blank, v = wild_parts(a)
            shown = s.dice.count(v)
            if shown <= row:
                need = "at least one die" if row == 0 else "at least two dice"
                return (
                    f"a {ROW_LABELS[row]} box needs {v} on {need}; it shows on {shown} "
                    f"(dice {' '.join(map(str, s.dice))}) (CS-4)"
                )
            if blank:
                if all(s.counter[9 * row + k] for k in BLANK_COLS):
                    return f"the three blank boxes of row {ROW_LABELS[row]} are used up (CS-4)"
            elif s.counter[9 * row + v - 1]:
                return (
                    f"the {ROW_LABELS[row]} box of {v} is already crossed off; a blank box "
                    "may take it (CS-4)"
                )
            return None
        # WRITE
        if not is_write(a):
            return "now every player writes the dice (CS-6); write '<value> r<row>c<col>'"
        v, r, c = write_parts(a)
        d = s.left[player]
        if not d[v] and not d[0]:
            have = self.dice_text(d)
            return f"no die left for {v}: the dice left to write are {have} (CS-5, CS-6)"
        sheet = self.sheet
        if r >= sheet.rows or c >= sheet.cols:
            return f"r{r + 1}c{c + 1} is off the sheet ({sheet.rows} rows, {sheet.cols} columns)"
        i = r * sheet.cols + c
        b = self.board
        # The square's name is only worked out for a refusal: a legal write is checked
        # on every move of a play-out.
        if not b.is_fillable[i]:
            what = "pre-printed (CS-2)" if sheet.printed[i] else "blocked"
            return f"{b.name(i)} is {what}; write only into empty fillable squares (CS-6)"
        if s.sheets[player][i]:
            return (
                f"{b.name(i)} already holds {s.sheets[player][i]}; what is written is final (CS-6)"
            )
        if s.turn == 0:
            if not b.is_starting[i]:
                return (
                    f"{b.name(i)} is not a starting square; the setup roll goes on circles (CS-3)"
                )
        elif (
            self.adjacent
            and not any(s.sheets[player][j] for j in b.orth[i])
            and i not in self.allowed_squares(s, player)
        ):
            return (
                f"{b.name(i)} touches no filled square; with the option adjacent each new "
                "number touches a filled square orthogonally (CS-6)"
            )
        return None

    def apply(self, s: CSState, a: object, player: int | None = None) -> CSState:
        a = self.action_index(a)
        if not 0 <= a < NUM_ACTIONS:
            raise IllegalActionError(self._fmt(a), "not a Cat Sudoku action")
        tm = self.to_move(s)
        if tm.is_chance:
            if player is not None:
                raise IllegalActionError(self._fmt(a), "the dice are being rolled; no player acts")
            if a >= NOWILD:
                raise IllegalActionError(
                    self._fmt(a), "the dice are being rolled: 'roll 1' to 'roll 6'"
                )
            return self._roll(s, a + 1)
        p = self.acting_player(tm, player, _Notation(self, a))
        if a < NOWILD:
            raise IllegalActionError(
                self._fmt(a), "a die roll is a chance outcome, not a player's action"
            )
        reason = self.why_illegal(s, a, p)
        if reason is not None:
            raise IllegalActionError(self._fmt(a), reason)
        if s.phase == WILD:
            return self._choose_wild(s, a)
        v, r, c = write_parts(a)
        return self._write(s, p, v, r * self.sheet.cols + c)

    # -- transitions (unchecked; apply validates first) ---------------------------------

    def _roll(self, s: CSState, v: int) -> CSState:
        dice = tuple(sorted((*s.dice, v)))
        if len(dice) < 4:
            return CSState(
                s.phase, s.turn, s.active, dice, s.wild, s.box, s.counter, s.sheets, s.left
            )
        s = CSState(s.phase, s.turn, s.active, dice, s.wild, s.box, s.counter, s.sheets, s.left)
        if s.turn > 0 and self.usable_boxes(s):
            return CSState(WILD, s.turn, s.active, dice, s.wild, s.box, s.counter, s.sheets, s.left)
        return self._start_writing(s, 0, -1, s.counter)

    def _start_writing(self, s: CSState, wild: int, box: int, counter: tuple[int, ...]) -> CSState:
        counts = [0, 0, 0, 0, 0, 0, 0]
        for d in s.dice:
            if d == wild:
                counts[0] += 1
            else:
                counts[d] += 1
        left = (tuple(counts),) * self.num_players
        after = CSState(WRITE, s.turn, s.active, s.dice, wild, box, counter, s.sheets, left)
        after.writers = (1 << self.num_players) - 1  # four dice for every seat
        return after

    def _choose_wild(self, s: CSState, a: int) -> CSState:
        if a == NOWILD:
            return self._start_writing(s, 0, -1, s.counter)
        row, blank, v = wild_parts(a)
        counter = list(s.counter)
        if blank:
            k = next(9 * row + k for k in BLANK_COLS if not counter[9 * row + k])
            counter[k] = v
        else:
            k = 9 * row + v - 1
            counter[k] = 1
        return self._start_writing(s, v, k, tuple(counter))

    def _write(self, s: CSState, p: int, v: int, i: int) -> CSState:
        vals = list(s.sheets[p])
        vals[i] = v
        sheet = tuple(vals)
        d = list(s.left[p])
        if d[v]:
            d[v] -= 1  # a plain die showing v; wild dice stay free for other values
        else:
            d[0] -= 1
        if not _has_empty(sheet, self.board.fillable):
            d = [0, 0, 0, 0, 0, 0, 0]  # CS-6: a full sheet leaves the other dice unused
        sheets = list(s.sheets)
        sheets[p] = sheet
        left = list(s.left)
        left[p] = tuple(d)
        after = CSState(
            s.phase, s.turn, s.active, s.dice, s.wild, s.box, s.counter, tuple(sheets), tuple(left)
        )
        writers = s.writers
        if writers < 0:
            writers = _writing(s.left)
        if not any(d):
            writers &= ~(1 << p)
        after.writers = writers
        if writers:  # a seat still writes
            return after
        return self._end_turn(after)

    def _end_turn(self, s: CSState) -> CSState:
        fillable = self.board.fillable
        for vals in s.sheets:
            if _has_empty(vals, fillable):  # an empty square is left: next turn
                turn = s.turn + 1
                active = turn % self.num_players  # CS-3: from seat 1 after seat 0's setup
                return CSState(ROLL, turn, active, (), 0, -1, s.counter, s.sheets, s.left)
        return CSState(OVER, s.turn, s.active, (), 0, -1, s.counter, s.sheets, s.left)  # CS-7

    # -- scoring ----------------------------------------------------------------------------

    def penalty(self, s: CSState, player: int) -> int:
        return self.board.penalty(s.sheets[player], self.per_segment)

    def score(self, s: CSState, player: int) -> int:
        """100 minus the deductions of ``player``'s sheet as it stands (CS-8)."""
        return 100 - self.penalty(s, player)

    def outcome(self, s: CSState) -> Outcome | None:
        if s.phase != OVER:
            return None
        scores = tuple(self.score(s, p) for p in range(self.num_players))
        best = max(scores)
        winners = tuple(p for p, x in enumerate(scores) if x == best)
        if self.num_players == 1:
            reason = f"the sheet is complete: {best} points"
        elif len(winners) == 1:
            reason = f"the sheets are complete: player {winners[0] + 1} wins with {best}"
        else:
            who = ", ".join(f"player {p + 1}" for p in winners)
            reason = f"the sheets are complete: {who} share the win with {best}"
        return Outcome(
            winners=winners,
            scores=tuple(float(x) for x in scores),
            reason=reason,
            code="complete",
        )

    def returns(self, s: CSState) -> tuple[float, ...]:
        if s.phase != OVER:
            return (0.0,) * self.num_players
        if self.num_players == 1:
            return (max(0.0, min(100.0, float(self.score(s, 0)))) / 100.0,)
        return super().returns(s)

    # -- notation ---------------------------------------------------------------------------

    def _fmt(self, a: object) -> str:
        if isinstance(a, int) and not isinstance(a, bool) and 0 <= a < NUM_ACTIONS:
            return self.format_action(a)
        return repr(a)

    def format_action(self, a: int) -> str:
        if a < NOWILD:
            return f"roll {a + 1}"
        if a == NOWILD:
            return "nowild"
        if a < WRITE_BASE:
            row, blank, v = wild_parts(a)
            return f"wild {ROW_LABELS[row]} {'blank ' if blank else ''}{v}"
        v, r, c = write_parts(a)
        return f"{v} r{r + 1}c{c + 1}"

    def parse_action(self, text: str) -> int:
        if not isinstance(text, str):
            raise NotationError(f"{text!r} is not an action; {_NOTATION_HELP}")
        t = " ".join(text.strip().lower().split())
        m = _WRITE_RE.match(t)
        if m:
            r, c = parse_cell(m.group(2))
            return WRITE_BASE + (int(m.group(1)) - 1) * FRAME * FRAME + r * FRAME + c
        m = _WILD_RE.match(t)
        if m:
            return wild_action(int(m.group(1)) - 1, bool(m.group(2)), int(m.group(3)))
        if _NOWILD_RE.match(t):
            return NOWILD
        m = _ROLL_RE.match(t)
        if m:
            return int(m.group(1)) - 1
        raise NotationError(f"{text!r} is not a Cat Sudoku action; {_NOTATION_HELP}")

    def encode_action(self, a: int) -> int:
        return a

    def decode_action(self, index: int) -> int:
        self.decode_range_check(index)
        return index

    # -- views --------------------------------------------------------------------------------

    @staticmethod
    def dice_text(d: Sequence[int]) -> str:
        parts = [str(v) for v in range(1, 7) for _ in range(d[v])]
        parts += ["wild"] * d[0]
        return ", ".join(parts) if parts else "none"

    def counter_view(self, s: CSState) -> list[JsonDict]:
        rows = []
        for row in (0, 1):
            boxes = []
            for col in range(COUNTER_COLS):
                x = s.counter[9 * row + col]
                k = 9 * row + col
                if col < 6:
                    boxes.append(
                        {
                            "value": col + 1,
                            "used": bool(x),
                            "written": None,
                            "this_turn": k == s.box,
                        }
                    )
                else:
                    boxes.append(
                        {
                            "value": None,
                            "used": bool(x),
                            "written": x or None,
                            "this_turn": k == s.box,
                        }
                    )
            rows.append({"label": ROW_LABELS[row], "boxes": boxes})
        return rows

    def scoring_view(self, s: CSState, player: int) -> JsonDict:
        b = self.board
        vals = s.sheets[player]
        sc = explain(b, vals, self.per_segment)
        return {
            "circled": [
                {"square": b.name(i), "value": vals[i], "circles": k, "penalty": 2 * k}
                for i, k in sc.circled
            ],
            "sets": [
                {
                    "squares": [b.name(i) for i in st],
                    "value": vals[st[0]],
                    "size": len(st),
                    "penalty": set_penalty(len(st)),
                }
                for st in sc.sets
            ],
            "circle_penalty": 2 * sum(k for _, k in sc.circled),
            "set_penalty": sum(set_penalty(len(st)) for st in sc.sets),
            "total": sc.total,
            "score": 100 - sc.total,
        }

    def view(self, s: CSState, observer: int | None) -> JsonDict:
        tm = self.to_move(s)
        movers = list(tm.players)
        if observer is not None and observer in movers:
            legal_for: int | None = observer
        elif observer is None and len(movers) == 1:
            legal_for = movers[0]
        else:
            legal_for = None
        legal = (
            [self.format_action(a) for a in self.legal_actions(s, legal_for)]
            if legal_for is not None
            else []
        )
        out = self.outcome(s)
        sheet = self.sheet
        fill = self.board.fillable
        scoring = [self.scoring_view(s, p) for p in range(self.num_players)]
        return {
            "game": self.spec.id,
            "observer": observer,
            "players": [f"player {p + 1}" for p in range(self.num_players)],
            "sheet": {
                "name": sheet.name,
                "level": sheet.level,
                "rows": sheet.rows,
                "cols": sheet.cols,
                "layout": sheet.layout(),
            },
            "options": {
                "wild_optional": self.wild_optional,
                "adjacent": self.adjacent,
                "circle_per_segment": self.per_segment,
            },
            "values": [list(v) for v in s.sheets],
            "empty": [sum(1 for j in fill if not v[j]) for v in s.sheets],
            "turn": s.turn,
            "phase": PHASES[s.phase],
            "active": s.active,
            "dice": list(s.dice),
            "wild": s.wild or None,
            "dice_wild": [bool(s.wild) and d == s.wild for d in s.dice],
            "left": [
                {"wild": d[0], "plain": [v for v in range(1, 7) for _ in range(d[v])]}
                for d in s.left
            ],
            "counter": self.counter_view(s),
            "scoring": scoring,
            "scores": [x["score"] for x in scoring],
            "to_move": movers,
            "legal_for": legal_for,
            "legal": legal,
            "outcome": None if out is None else out.to_json(),
        }

    # -- persistence ----------------------------------------------------------------------

    def dump_state(self, s: CSState) -> JsonDict:
        return {
            "phase": PHASES[s.phase],
            "turn": s.turn,
            "active": s.active,
            "dice": list(s.dice),
            "wild": s.wild,
            "box": s.box,
            "counter": list(s.counter),
            "sheets": ["".join(map(str, v)) for v in s.sheets],
            "left": [list(d) for d in s.left],
        }

    def load_state(self, data: JsonDict) -> CSState:
        n = self.num_players
        try:
            s = CSState(
                phase=PHASES.index(data["phase"]),
                turn=int(data["turn"]),
                active=int(data["active"]),
                dice=tuple(int(d) for d in data["dice"]),
                wild=int(data["wild"]),
                box=int(data["box"]),
                counter=tuple(int(x) for x in data["counter"]),
                sheets=tuple(tuple(int(ch) for ch in str(v)) for v in data["sheets"]),
                left=tuple(tuple(int(x) for x in d) for d in data["left"]),
            )
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise StateFormatError(f"not a Cat Sudoku state: {exc!r}") from None
        problems = []
        if len(s.sheets) != n or any(len(v) != self.board.size for v in s.sheets):
            problems.append(f"sheets need {n} strings of {self.board.size} digits")
        elif any(x > 6 for v in s.sheets for x in v):
            problems.append("sheet values are 0-6")
        elif any(self._misprinted(v) for v in s.sheets):
            problems.append(
                "a blocked square holds a number or a pre-printed number was changed "
                "(blocked squares hold 0, pre-printed squares their printed number)"
            )
        if len(s.left) != n or any(len(d) != 7 or min(d) < 0 for d in s.left):
            problems.append(f"left needs {n} lists of 7 counts")
        if len(s.counter) != 18 or len(s.dice) > 4 or any(not 1 <= d <= 6 for d in s.dice):
            problems.append("counter needs 18 entries and dice at most four values 1-6")
        if not 0 <= s.active < n or s.turn < 0 or not 0 <= s.wild <= 6 or not -1 <= s.box < 18:
            problems.append("active, turn, wild or box out of range")
        if problems:
            raise StateFormatError("not a Cat Sudoku state: " + "; ".join(problems))
        return s

    def _misprinted(self, values: tuple[int, ...]) -> bool:
        """Whether a sheet's ``values`` break the sheet itself: a number in a blocked
        square, or a pre-printed square holding anything but its number (no write can
        reach either, so only a hand-made or damaged state has them)."""
        sheet = self.sheet
        return any(
            (k not in OPEN_KINDS and x) or (k == PRINTED and x != printed)
            for k, x, printed in zip(sheet.kinds, values, sheet.printed, strict=True)
        )


__all__ = ["NUM_ACTIONS", "CSState", "CatSudoku"]
