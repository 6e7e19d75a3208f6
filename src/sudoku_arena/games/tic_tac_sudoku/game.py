"""The Tic-Tac-Sudoku rules engine (the rulings TTS-1..8 are stated in README.md here).

Encodings: an action is a cell index 0..80 (notation ``r5c3``). The board is kept as bit
masks over the cells, each split into a low and a high word that fit a machine integer
(``rules.split``): the occupied spaces and each seat's symbols that still count (open or
filled), so a line check is an AND or two. The state's ``cells`` property gives one code
per cell: 0 empty, 1 circle (seat 0), 2 square (seat 1), 3 X'd. Whether a symbol is open
or filled follows from ``open``: each seat's open symbol is the cell in ``open[seat]``
(-1 before his first placement); every other symbol of his is filled.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Final, final

from sudoku_arena.core.base import BaseGame
from sudoku_arena.core.errors import IllegalActionError, NotationError, StateFormatError
from sudoku_arena.core.params import ParamSpec, ParamValue, players_param
from sudoku_arena.core.types import (
    TO_MOVE_TERMINAL,
    GameSpec,
    JsonDict,
    Outcome,
    ToMove,
)
from sudoku_arena.games.tic_tac_sudoku.rules import (
    BOX_SHIFT,
    CENTRE_BOX,
    COMMON_POINTS,
    COMMON_WORDS,
    LOCAL,
    MAP_LINES,
    MARK_SYMBOLS,
    PATTERN_COUNT,
    SMALL_LINES_FILLED,
    SPLIT,
    box_pattern,
    cells_of,
    join,
    near,
    split,
)
from sudoku_arena.grids.sudoku import CELL_NAMES, box_of, cell_name, grid_param, parse_cell

EMPTY, X = 0, 3
_TO_MOVE: Final[tuple[ToMove, ...]] = (ToMove.decision(0), ToMove.decision(1))
_OVER: Final = TO_MOVE_TERMINAL
_BOX_OF: Final[tuple[int, ...]] = tuple(box_of(i) for i in range(81))
_NO_MAP: Final[tuple[int, ...]] = (-1,) * 9
SYMBOLS = ("circle", "square")

#: End reasons stored in the state (``end``) and their sentences.
END_REASONS = {
    "map": "three map marks in a row",
    "target": "reached the target score",
    "blocked": "neither player can move; higher score wins, ties to the last placer",
}


def _marked(map_: tuple[int, ...], box: int, p: int) -> tuple[int, ...]:
    """The Map with ``box`` marked for seat ``p``."""
    marked = list(map_)
    marked[box] = p
    return tuple(marked)


def _map_line(map_: tuple[int, ...], box: int, p: int) -> bool:
    """Whether seat ``p`` holds a Map line through ``box`` (TTS-7)."""
    return any(map_[u] == p and map_[v] == p and map_[w] == p for u, v, w in MAP_LINES[box])


@final
class TTSState:
    """A Tic-Tac-Sudoku position. ``current`` is the seat to move, -1 when over.

    Treat it as immutable: moves build new states. It compares and hashes by value.
    The board is bit masks over the cells, each as a low and a high word (see
    ``rules.split``): ``occ_*`` every space holding a symbol of any kind (X'd ones too),
    ``m0_*`` and ``m1_*`` each seat's symbols that still count (open or filled). Each
    seat's open symbol is ``open0``/``open1`` (-1 before his first placement); every
    other symbol of his is filled. ``map`` holds each box's Map mark (seat or -1).

    A plain class with typed attributes, not a named tuple: compiled, it is a native
    object with unboxed fields, several times cheaper to build (most of the cost of a
    move in search). The named-tuple views (``marks``, ``xs``, ``open``, ``scores``,
    ``stuck``, ``cells``) and ``_replace`` remain for readers of single positions.
    """

    __slots__ = (
        "centre_used", "current", "end", "last", "m0_hi", "m0_lo", "m1_hi", "m1_lo", "map",
        "occ_hi", "occ_lo", "open0", "open1", "score0", "score1", "stuck0", "stuck1",
        "winner",
    )  # fmt: skip

    def __init__(
        self,
        occ_lo: int,
        occ_hi: int,
        m0_lo: int,
        m0_hi: int,
        m1_lo: int,
        m1_hi: int,
        open0: int,
        open1: int,
        score0: int,
        score1: int,
        map: tuple[int, ...],
        centre_used: bool,
        stuck0: bool,
        stuck1: bool,
        current: int,
        last: int,
        winner: int,
        end: str,
    ) -> None:
        self.occ_lo = occ_lo
        self.occ_hi = occ_hi
        self.m0_lo = m0_lo
        self.m0_hi = m0_hi
        self.m1_lo = m1_lo
        self.m1_hi = m1_hi
        self.open0 = open0
        self.open1 = open1
        self.score0 = score0
        self.score1 = score1
        self.map = map
        self.centre_used = centre_used
        self.stuck0 = stuck0
        self.stuck1 = stuck1
        self.current = current
        self.last = last
        self.winner = winner
        self.end = end

    def _fields(
        self,
    ) -> tuple[
        int,
        int,
        int,
        int,
        int,
        int,
        int,
        int,
        int,
        int,
        tuple[int, ...],
        bool,
        bool,
        bool,
        int,
        int,
        int,
        str,
    ]:
        return (
            self.occ_lo, self.occ_hi, self.m0_lo, self.m0_hi, self.m1_lo, self.m1_hi,
            self.open0, self.open1, self.score0, self.score1, self.map, self.centre_used,
            self.stuck0, self.stuck1, self.current, self.last, self.winner, self.end,
        )  # fmt: skip

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TTSState) and self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __reduce__(self) -> tuple[type[TTSState], tuple[object, ...]]:
        return TTSState, self._fields()

    def __repr__(self) -> str:
        return (
            f"TTSState(marks={self.marks!r}, xs={self.xs!r}, open={self.open!r}, "
            f"scores={self.scores!r}, map={self.map!r}, centre_used={self.centre_used!r}, "
            f"stuck={self.stuck!r}, current={self.current!r}, last={self.last!r}, "
            f"winner={self.winner!r}, end={self.end!r})"
        )

    # -- the named-tuple views ------------------------------------------------------------

    @property
    def marks(self) -> tuple[int, int]:
        """Each seat's symbols that count, as 81-bit masks (bit i is cell i)."""
        return join(self.m0_lo, self.m0_hi), join(self.m1_lo, self.m1_hi)

    @property
    def occupied(self) -> int:
        """81-bit mask of every space holding a symbol of any kind."""
        return join(self.occ_lo, self.occ_hi)

    @property
    def xs(self) -> int:
        """81-bit mask of the X'd spaces."""
        m0, m1 = self.marks
        return self.occupied & ~(m0 | m1)

    @property
    def open(self) -> tuple[int, int]:
        """Each seat's open symbol (-1 before his first placement)."""
        return self.open0, self.open1

    @property
    def scores(self) -> tuple[int, int]:
        return self.score0, self.score1

    @property
    def stuck(self) -> tuple[bool, bool]:
        """Whether each seat is stuck for good (TTS-8)."""
        return self.stuck0, self.stuck1

    @property
    def cells(self) -> tuple[int, ...]:
        """One code per cell: 0 empty, 1 circle, 2 square, 3 X'd."""
        (m0, m1), occ = self.marks, self.occupied
        return tuple(
            1 if m0 >> i & 1 else 2 if m1 >> i & 1 else X if occ >> i & 1 else EMPTY
            for i in range(81)
        )

    def _replace(
        self,
        *,
        marks: tuple[int, int] | None = None,
        xs: int | None = None,
        open: tuple[int, int] | None = None,
        scores: tuple[int, int] | None = None,
        map: tuple[int, ...] | None = None,
        centre_used: bool | None = None,
        stuck: tuple[bool, bool] | None = None,
        current: int | None = None,
        last: int | None = None,
        winner: int | None = None,
        end: str | None = None,
    ) -> TTSState:
        """A copy with the given named-tuple fields changed (positions built by hand)."""
        m0, m1 = self.marks if marks is None else marks
        occ = m0 | m1 | (self.xs if xs is None else xs)
        o = self.open if open is None else open
        sc = self.scores if scores is None else scores
        st = self.stuck if stuck is None else stuck
        return TTSState(
            *split(occ),
            *split(m0),
            *split(m1),
            o[0],
            o[1],
            sc[0],
            sc[1],
            self.map if map is None else map,
            self.centre_used if centre_used is None else centre_used,
            st[0],
            st[1],
            self.current if current is None else current,
            self.last if last is None else last,
            self.winner if winner is None else winner,
            self.end if end is None else end,
        )


class TicTacSudoku(BaseGame[TTSState, int]):
    """Two players place circles and squares on a completed Sudoku."""

    spec: ClassVar[GameSpec] = GameSpec(
        id="tic-tac-sudoku",
        name="Tic-Tac-Sudoku",
        version="1.0.0",
        min_players=2,
        max_players=2,
        chance=False,
        hidden_information=False,
        simultaneous=False,
        num_distinct_actions=81,
        summary=(
            "Nine tic-tac-toe boards on a Sudoku. Each symbol must go on a number next to "
            "your last one; score lines in a box and across boxes, or claim three boxes "
            "in a row on the Map."
        ),
        params=(
            players_param(2, 2, 2),
            grid_param(),
            ParamSpec(
                "target",
                int,
                13,
                "points that win at once (TTS-7)",
                minimum=1,
                label="Points to win",
            ),
        ),
    )

    def __init__(self, params: dict[str, ParamValue]) -> None:
        super().__init__(params)
        self.grid: tuple[int, ...] = tuple(int(ch) for ch in str(params["grid"]))
        self.target = self.int_param("target", 13)
        # Where a seat may place, by his open cell; index 81 (reached as open == -1) is
        # the first placement's (TTS-3). As (low, high) word masks, see rules.split.
        targets = [
            sum(1 << i for i in range(81) if self.grid[i] in near(self.grid[c])) for c in range(81)
        ]
        targets.append(sum(1 << i for i in range(81) if box_of(i) != CENTRE_BOX))
        self._reach_lo: tuple[int, ...] = tuple(split(m)[0] for m in targets)
        self._reach_hi: tuple[int, ...] = tuple(split(m)[1] for m in targets)

    # -- protocol -------------------------------------------------------------------------

    def initial_state(self) -> TTSState:
        return TTSState(0, 0, 0, 0, 0, 0, -1, -1, 0, 0, _NO_MAP, False, False, False, 0, -1, -1, "")

    def to_move(self, s: TTSState) -> ToMove:
        return _OVER if s.current < 0 else _TO_MOVE[s.current]

    def legal_actions(self, s: TTSState, player: int) -> Sequence[int]:
        if player != s.current:
            return ()
        o = s.open0 if player == 0 else s.open1
        return cells_of(self._reach_lo[o] & ~s.occ_lo, self._reach_hi[o] & ~s.occ_hi)

    def why_illegal(self, s: TTSState, a: object, player: int) -> str | None:
        """The rule that refuses ``a`` for ``player`` in ``s``, or ``None`` if legal."""
        if not isinstance(a, int) or isinstance(a, bool) or not 0 <= a < 81:
            return "not a cell of the board"
        if s.occupied >> a & 1:
            return f"{cell_name(a)} is already taken (TTS-3: only empty spaces)"
        o = s.open[player]
        if o < 0:
            if box_of(a) == CENTRE_BOX:
                return "a first symbol may not go in the centre box b5 (TTS-3)"
            return None
        allowed = near(self.grid[o])
        if self.grid[a] not in allowed:
            nums = ", ".join(str(v) for v in allowed)
            return (
                f"{cell_name(a)} holds {self.grid[a]}; from your open symbol on "
                f"{cell_name(o)} ({self.grid[o]}) you may place on {nums} (TTS-3)"
            )
        return None

    def apply(self, s: TTSState, a: object, player: int | None = None) -> TTSState:
        p = s.current
        if p < 0 or (player is not None and player != p):
            p = self.acting_player(self.to_move(s), player, self._fmt(a))
        # One mask test (search calls this a lot); the slow path explains refusals.
        if type(a) is int and 0 <= a < 81:
            o = s.open0 if p == 0 else s.open1
            if a < SPLIT:
                free = self._reach_lo[o] & ~s.occ_lo
                if free >> a & 1:
                    return self._place(s, a, p)
            elif (self._reach_hi[o] & ~s.occ_hi) >> (a - SPLIT) & 1:
                return self._place(s, a, p)
        reason = self.why_illegal(s, a, p) or "not a legal space"
        raise IllegalActionError(self._fmt(a), reason)

    def _place(self, s: TTSState, a: int, p: int) -> TTSState:
        """Apply a legal placement (unchecked; ``apply`` validates first)."""
        occ_lo, occ_hi = s.occ_lo, s.occ_hi
        if p == 0:
            lo, hi, prev = s.m0_lo, s.m0_hi, s.open0
        else:
            lo, hi, prev = s.m1_lo, s.m1_hi, s.open1
        if a < SPLIT:
            lo |= 1 << a
            occ_lo |= 1 << a
        else:
            hi |= 1 << (a - SPLIT)
            occ_hi |= 1 << (a - SPLIT)
        centre_used = s.centre_used
        b = _BOX_OF[a]
        if b == CENTRE_BOX and not centre_used:
            # TTS-5: the first symbol in b5 X's out the placer's previous symbol (it
            # stays occupied, and no longer counts as his).
            if prev < SPLIT:
                lo &= ~(1 << prev)
            else:
                hi &= ~(1 << (prev - SPLIT))
            centre_used = True
        # TTS-6: the new symbol's lines in its box (+1 each) and across boxes (+2 each).
        pattern = box_pattern(lo if b < 6 else hi, BOX_SHIFT[b])
        gained = SMALL_LINES_FILLED[LOCAL[a] << 9 | pattern]
        for line_lo, line_hi in COMMON_WORDS[a]:
            if lo & line_lo == line_lo and hi & line_hi == line_hi:
                gained += COMMON_POINTS
        if p == 0:
            m0_lo, m0_hi, m1_lo, m1_hi = lo, hi, s.m1_lo, s.m1_hi
            open0, open1 = a, s.open1
            score0, score1 = s.score0 + gained, s.score1
        else:
            m0_lo, m0_hi, m1_lo, m1_hi = s.m0_lo, s.m0_hi, lo, hi
            open0, open1 = s.open0, a
            score0, score1 = s.score0, s.score1 + gained
        map_ = s.map
        map_line = False
        if map_[b] < 0 and PATTERN_COUNT[pattern] >= MARK_SYMBOLS:  # TTS-6: the box's Map mark
            map_ = _marked(map_, b, p)
            map_line = _map_line(map_, b, p)
        stuck0, stuck1 = s.stuck0, s.stuck1
        winner, end = -1, ""
        if map_line:
            current, winner, end = -1, p, "map"
        elif (score0 if p == 0 else score1) >= self.target:
            current, winner, end = -1, p, "target"
        elif p == 0:
            current, stuck0, stuck1 = self._next_turn(occ_lo, occ_hi, 0, a, open1, stuck0, stuck1)
        else:
            current, stuck1, stuck0 = self._next_turn(occ_lo, occ_hi, 1, a, open0, stuck1, stuck0)
        if current < 0 and not end:  # TTS-7: higher score wins, ties to the last placer
            winner = 0 if score0 > score1 else 1 if score1 > score0 else p
            end = "blocked"
        return TTSState(
            occ_lo, occ_hi, m0_lo, m0_hi, m1_lo, m1_hi, open0, open1, score0, score1,
            map_, centre_used, stuck0, stuck1, current, p, winner, end,
        )  # fmt: skip

    def _can_move(self, occ_lo: int, occ_hi: int, open_cell: int) -> bool:
        """Whether a seat whose open symbol is on ``open_cell`` has an empty space to go
        (-1: before his first placement)."""
        return bool(self._reach_lo[open_cell] & ~occ_lo or self._reach_hi[open_cell] & ~occ_hi)

    def _next_turn(
        self,
        occ_lo: int,
        occ_hi: int,
        p: int,
        open_p: int,
        open_q: int,
        stuck_p: bool,
        stuck_q: bool,
    ) -> tuple[int, bool, bool]:
        """Who moves after ``p`` placed (-1: nobody), and whether ``p`` and his opponent
        are now stuck, as (current, stuck_p, stuck_q).

        TTS-8: the opponent moves if he can, else he is skipped for good and the mover
        goes again; when neither can move the game ends (TTS-7).
        """
        if not stuck_q and not self._can_move(occ_lo, occ_hi, open_q):
            stuck_q = True
        if not stuck_q:
            return 1 - p, stuck_p, stuck_q
        if not stuck_p and not self._can_move(occ_lo, occ_hi, open_p):
            stuck_p = True
        return (-1 if stuck_p else p), stuck_p, stuck_q

    def outcome(self, s: TTSState) -> Outcome | None:
        if s.current >= 0:
            return None
        return Outcome(
            winners=(s.winner,),
            scores=(float(s.scores[0]), float(s.scores[1])),
            reason=f"{SYMBOLS[s.winner]} wins: {END_REASONS[s.end]}",
            code=s.end,
        )

    def returns(self, s: TTSState) -> tuple[float, ...]:
        if s.current >= 0:
            return (0.0, 0.0)
        return (1.0, 0.0) if s.winner == 0 else (0.0, 1.0)

    # -- notation ---------------------------------------------------------------------------

    def _fmt(self, a: object) -> str:
        return cell_name(a) if type(a) is int and 0 <= a < 81 else repr(a)

    def format_action(self, a: int) -> str:
        return cell_name(a)

    def parse_action(self, text: str) -> int:
        return parse_cell(text)

    def encode_action(self, a: int) -> int:
        return a

    def decode_action(self, index: int) -> int:
        self.decode_range_check(index)
        return index

    # -- views and persistence ----------------------------------------------------------------

    def cell_codes(self, s: TTSState) -> list[str]:
        """How each cell looks: '', 'x', or '<symbol>-open' / '<symbol>-filled'.

        Visits only the occupied cells (the server builds this for every position).
        """
        cells = [""] * 81
        m0, m1 = s.marks
        kinds = (("x", s.xs), ("circle-filled", m0), ("square-filled", m1))
        for code, mask in kinds:
            while mask:
                low = mask & -mask
                cells[low.bit_length() - 1] = code
                mask ^= low
        for seat, i in enumerate(s.open):
            if i >= 0 and (m0, m1)[seat] >> i & 1:
                cells[i] = f"{SYMBOLS[seat]}-open"
        return cells

    def view(self, s: TTSState, observer: int | None) -> JsonDict:
        out = self.outcome(s)
        return {
            "game": self.spec.id,
            "observer": observer,
            "grid": list(self.grid),
            "cells": self.cell_codes(s),
            "scores": list(s.scores),
            "target": self.target,
            "map": list(s.map),
            "centre_used": s.centre_used,
            "stuck": list(s.stuck),
            "players": list(SYMBOLS),
            "to_move": [] if s.current < 0 else [s.current],
            "legal": [CELL_NAMES[i] for i in self.legal_actions(s, s.current)]
            if s.current >= 0
            else [],
            "last": cell_name(s.open[s.last]) if s.last >= 0 else None,
            "outcome": None if out is None else out.to_json(),
        }

    def dump_state(self, s: TTSState) -> JsonDict:
        return {
            "cells": "".join(str(c) for c in s.cells),  # codes 0-3, one per cell
            "open": list(s.open),
            "scores": list(s.scores),
            "map": list(s.map),
            "centre_used": s.centre_used,
            "stuck": list(s.stuck),
            "current": s.current,
            "last": s.last,
            "winner": s.winner,
            "end": s.end,
        }

    def load_state(self, data: JsonDict) -> TTSState:
        try:
            cells = tuple(int(ch) for ch in data["cells"])
            m0, m1 = _bits(cells, 1), _bits(cells, 2)
            s = TTSState(
                *split(m0 | m1 | _bits(cells, X)),
                *split(m0),
                *split(m1),
                int(data["open"][0]),
                int(data["open"][1]),
                int(data["scores"][0]),
                int(data["scores"][1]),
                tuple(int(m) for m in data["map"]),
                bool(data["centre_used"]),
                bool(data["stuck"][0]),
                bool(data["stuck"][1]),
                int(data["current"]),
                int(data["last"]),
                int(data["winner"]),
                str(data["end"]),
            )
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise StateFormatError(f"not a Tic-Tac-Sudoku state: {exc!r}") from None
        if len(cells) != 81 or any(c not in (0, 1, 2, 3) for c in cells) or len(s.map) != 9:
            raise StateFormatError("not a Tic-Tac-Sudoku state: cells need 81 codes 0-3, map 9")
        if s.end and s.end not in END_REASONS:
            raise StateFormatError(f"unknown end reason {s.end!r}")
        return s


def _bits(cells: tuple[int, ...], code: int) -> int:
    return sum(1 << i for i, c in enumerate(cells) if c == code)


__all__ = ["END_REASONS", "NotationError", "TTSState", "TicTacSudoku"]
