"""The Tic-Tac-Sudoku rules engine (the rulings TTS-1..8 are stated in README.md here).

Encodings: an action is a cell index 0..80 (notation ``r5c3``). The board is kept as bit
masks over the 81 cells (bit i is cell i): ``marks[seat]`` holds a seat's symbols that
still count (open or filled), ``xs`` the X'd spaces, so a line check is one AND. The
``cells`` property gives one code per cell: 0 empty, 1 circle (seat 0), 2 square (seat 1),
3 X'd. Whether a symbol is open or filled follows from ``open``: each seat's open symbol
is the cell in ``open[seat]`` (-1 before his first placement); every other symbol of his
is filled.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, NamedTuple

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
    BOX_MASKS,
    CENTRE_BOX,
    COMMON_MASKS,
    MAP_LINES,
    SMALL_MASKS,
    near,
)
from sudoku_arena.grids.sudoku import CELL_NAMES, box_of, cell_name, grid_param, parse_cell

EMPTY, X = 0, 3
_TO_MOVE = (ToMove.decision(0), ToMove.decision(1))
_BOX_OF = tuple(box_of(i) for i in range(81))
SYMBOLS = ("circle", "square")

#: End reasons stored in the state (``end``) and their sentences.
END_REASONS = {
    "map": "three map marks in a row",
    "target": "reached the target score",
    "blocked": "neither player can move; higher score wins, ties to the last placer",
}


class TTSState(NamedTuple):
    """A Tic-Tac-Sudoku position. ``current`` is the seat to move, -1 when over.

    A named tuple rather than a frozen dataclass: equally immutable and hashable, and
    about four times cheaper to build, which is most of the cost of a move in search.
    """

    marks: tuple[int, int]
    xs: int
    open: tuple[int, int]
    scores: tuple[int, int]
    map: tuple[int, ...]
    centre_used: bool
    stuck: tuple[bool, bool]
    current: int
    last: int
    winner: int
    end: str

    @property
    def occupied(self) -> int:
        """Bit mask of every space holding a symbol of any kind."""
        return self.marks[0] | self.marks[1] | self.xs

    @property
    def cells(self) -> tuple[int, ...]:
        """One code per cell: 0 empty, 1 circle, 2 square, 3 X'd."""
        m0, m1, xs = self.marks[0], self.marks[1], self.xs
        return tuple(
            1 if m0 >> i & 1 else 2 if m1 >> i & 1 else X if xs >> i & 1 else EMPTY
            for i in range(81)
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
        # Cells by number, so legal moves from an open symbol are <= 27 look-ups.
        self._cells_by_value: tuple[tuple[int, ...], ...] = tuple(
            tuple(i for i in range(81) if self.grid[i] == v) for v in range(10)
        )
        self._reach: tuple[tuple[int, ...], ...] = tuple(
            tuple(sorted(i for v in near(self.grid[c]) for i in self._cells_by_value[v]))
            for c in range(81)
        )
        self._outside_centre = tuple(i for i in range(81) if box_of(i) != CENTRE_BOX)
        # Candidate spaces by open cell; index 81 (reached as open == -1) is the first
        # placement's. Also as bit masks, for O(1) legality checks.
        self._targets: tuple[tuple[int, ...], ...] = (*self._reach, self._outside_centre)
        self._reach_mask: tuple[int, ...] = tuple(
            sum(1 << i for i in cells) for cells in self._targets
        )

    # -- protocol -------------------------------------------------------------------------

    def initial_state(self) -> TTSState:
        return TTSState(
            marks=(0, 0),
            xs=0,
            open=(-1, -1),
            scores=(0, 0),
            map=(-1,) * 9,
            centre_used=False,
            stuck=(False, False),
            current=0,
            last=-1,
            winner=-1,
            end="",
        )

    def to_move(self, s: TTSState) -> ToMove:
        return TO_MOVE_TERMINAL if s.current < 0 else _TO_MOVE[s.current]

    def legal_actions(self, s: TTSState, player: int) -> Sequence[int]:
        if player != s.current:
            return ()
        occ = s.marks[0] | s.marks[1] | s.xs
        return [i for i in self._targets[s.open[player]] if not occ >> i & 1]

    def why_illegal(self, s: TTSState, a: int, player: int) -> str | None:
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

    def apply(self, s: TTSState, a: int, player: int | None = None) -> TTSState:
        p = s.current
        if p < 0 or (player is not None and player != p):
            p = self.acting_player(self.to_move(s), player, self._fmt(a))
        # Fast check first (search calls this a lot); the slow path explains refusals.
        if (
            type(a) is int
            and 0 <= a < 81
            and (self._reach_mask[s.open[p]] & ~(s.marks[0] | s.marks[1] | s.xs)) >> a & 1
        ):
            return self._place(s, a, p)
        reason = self.why_illegal(s, a, p) or "not a legal space"
        raise IllegalActionError(self._fmt(a), reason)

    def _place(self, s: TTSState, a: int, p: int) -> TTSState:
        """Apply a legal placement (unchecked; ``apply`` validates first)."""
        bit = 1 << a
        mine = s.marks[p] | bit
        xs = s.xs
        centre_used = s.centre_used
        b = _BOX_OF[a]
        if b == CENTRE_BOX and not centre_used:
            # TTS-5: the first symbol in b5 X's out the placer's previous symbol.
            prev = 1 << s.open[p]
            mine &= ~prev
            xs |= prev
            centre_used = True
        gained = 0
        for m in SMALL_MASKS[a]:
            if mine & m == m:
                gained += 1
        for m in COMMON_MASKS[a]:
            if mine & m == m:
                gained += 2
        if p == 0:
            marks = (mine, s.marks[1])
            scores = (s.scores[0] + gained, s.scores[1])
            opens = (a, s.open[1])
        else:
            marks = (s.marks[0], mine)
            scores = (s.scores[0], s.scores[1] + gained)
            opens = (s.open[0], a)
        map_ = s.map
        map_line = False
        if map_[b] < 0 and (mine & BOX_MASKS[b]).bit_count() >= 5:
            m_ = list(map_)
            m_[b] = p
            map_ = tuple(m_)
            map_line = any(
                map_[u] == p and map_[v] == p and map_[w] == p for u, v, w in MAP_LINES[b]
            )
        if map_line:
            current, winner, end, stuck = -1, p, "map", s.stuck
        elif scores[p] >= self.target:
            current, winner, end, stuck = -1, p, "target", s.stuck
        else:
            occ = marks[0] | marks[1] | xs
            current, winner, end, stuck = self._next_turn(occ, opens, scores, s.stuck, p)
        return TTSState(marks, xs, opens, scores, map_, centre_used, stuck, current, p, winner, end)

    def _has_move(self, occupied: int, open_cell: int) -> bool:
        return bool(self._reach_mask[open_cell] & ~occupied)  # open -1 indexes "first move"

    def _next_turn(
        self,
        occupied: int,
        opens: tuple[int, int],
        scores: tuple[int, int],
        stuck: tuple[bool, bool],
        p: int,
    ) -> tuple[int, int, str, tuple[bool, bool]]:
        """Who moves next as (current, winner, end, stuck).

        TTS-8: the opponent moves if he can, else he is skipped for good and the mover
        goes again; when neither can move the game ends (TTS-7).
        """
        q = 1 - p
        st = list(stuck)
        if not st[q] and not self._has_move(occupied, opens[q]):
            st[q] = True
        if not st[q]:
            return q, -1, "", (st[0], st[1])
        if not st[p] and not self._has_move(occupied, opens[p]):
            st[p] = True
        if not st[p]:
            return p, -1, "", (st[0], st[1])
        a, b = scores
        winner = 0 if a > b else 1 if b > a else p  # TTS-7: ties to the last placer
        return -1, winner, "blocked", (st[0], st[1])

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
        return cell_name(a) if isinstance(a, int) and 0 <= a < 81 else repr(a)

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
        kinds = (("x", s.xs), ("circle-filled", s.marks[0]), ("square-filled", s.marks[1]))
        for code, mask in kinds:
            while mask:
                low = mask & -mask
                cells[low.bit_length() - 1] = code
                mask ^= low
        for seat, i in enumerate(s.open):
            if i >= 0 and s.marks[seat] >> i & 1:
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
            s = TTSState(
                marks=(_bits(cells, 1), _bits(cells, 2)),
                xs=_bits(cells, X),
                open=(int(data["open"][0]), int(data["open"][1])),
                scores=(int(data["scores"][0]), int(data["scores"][1])),
                map=tuple(int(m) for m in data["map"]),
                centre_used=bool(data["centre_used"]),
                stuck=(bool(data["stuck"][0]), bool(data["stuck"][1])),
                current=int(data["current"]),
                last=int(data["last"]),
                winner=int(data["winner"]),
                end=str(data["end"]),
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
