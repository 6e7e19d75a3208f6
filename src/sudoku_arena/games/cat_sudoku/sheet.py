"""Cat Sudoku sheets: the plain-text format, its loader and the sheet's geometry (CS-1).

A sheet file looks like this (the full description is in README.md)::

    ; comment lines start with a semicolon
    name: Spring
    level: 1
    grid:
    ##..#..##
    #o.....o#
    ...

Header lines are ``key: value`` (``name`` required; ``level``, ``author`` and
``description`` optional). The line ``grid:`` starts the grid, one line per row and one
character per square: ``#`` blocked, ``.`` fillable, ``o`` circled starting square,
``1``-``6`` pre-printed number, and a space for the background outside the cat (blocked
too, but not drawn). Rows shorter than the longest are padded with background.

The loader refuses anything else with a :class:`SheetError` naming the line and column
(both 1-based, as an editor shows them). What it enforces for every sheet: the format,
2 to 16 rows and columns, row and column segments (maximal runs of non-blocked squares)
of 2 to 6 squares, pre-printed numbers that do not already repeat in a segment or on a
diagonal, and at least 4 starting squares (the setup roll needs them). The shipped
sheets also meet the CS-1 standard checked by :func:`standard_problems`: a fillable
count that is a multiple of 4 and at least 8 starting squares. User sheets may miss it;
the engine then plays a final partial turn (CS-6).
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources
from typing import Final

from sudoku_arena.core.errors import InvalidParameterError, NotationError

#: Square kinds: blocked (drawn as part of the cat), fillable, circled starting square,
#: pre-printed number, and background outside the cat (blocked, not drawn).
BLOCKED, FILL, START, PRINTED, OUTSIDE = 0, 1, 2, 3, 4
#: The kinds that hold numbers (all others are blocked).
OPEN_KINDS = frozenset((FILL, START, PRINTED))

#: Shipped sheets, easiest first (CS-1).
SHEET_NAMES = ("spring", "summer", "autumn", "winter")

MAX_SIDE: Final = 16
MIN_SIDE = 2
MIN_SEGMENT, MAX_SEGMENT = 2, 6
MIN_START = 4

_HEADER_KEYS = ("name", "level", "author", "description")
_LEGEND = "# blocked, . fillable, o starting square, 1-6 pre-printed number, space background"


class SheetError(InvalidParameterError):
    """A sheet text that cannot be played; ``line`` and ``column`` are 1-based
    (0 when the problem has no single place)."""

    def __init__(self, message: str, line: int = 0, column: int = 0) -> None:
        where = (
            f"line {line}, column {column}: "
            if line and column
            else (f"line {line}: " if line else "")
        )
        super().__init__(f"sheet {where}{message}")
        self.line = line
        self.column = column


def cell_name(row: int, col: int) -> str:
    """``r<row>c<col>``, 1-based, from 0-based ``row`` and ``col``."""
    return f"r{row + 1}c{col + 1}"


_CELL_RE = re.compile(r"^\s*r\s*(\d{1,2})\s*c\s*(\d{1,2})\s*$", re.IGNORECASE)


def parse_cell(text: str) -> tuple[int, int]:
    """0-based ``(row, col)`` of ``r<row>c<col>``; raises ``NotationError``."""
    m = _CELL_RE.match(text)
    if not m or not (1 <= int(m.group(1)) <= MAX_SIDE and 1 <= int(m.group(2)) <= MAX_SIDE):
        raise NotationError(
            f"{text!r} is not a square; write r<row>c<column> with row and column "
            f"1-{MAX_SIDE}, for example r3c4"
        )
    return int(m.group(1)) - 1, int(m.group(2)) - 1


@dataclass(frozen=True, slots=True)
class Sheet:
    """A parsed sheet. Squares are indexed ``row * cols + col`` (0-based)."""

    name: str
    level: int
    author: str
    description: str
    rows: int
    cols: int
    kinds: tuple[int, ...]
    printed: tuple[int, ...]

    @property
    def size(self) -> int:
        return self.rows * self.cols

    def name_of(self, i: int) -> str:
        return cell_name(*divmod(i, self.cols))

    @property
    def fillable(self) -> tuple[int, ...]:
        """Squares players write into (fillable and starting squares)."""
        return tuple(i for i, k in enumerate(self.kinds) if k in (FILL, START))

    @property
    def starting(self) -> tuple[int, ...]:
        return tuple(i for i, k in enumerate(self.kinds) if k == START)

    def segments(self) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
        """Row segments and column segments: maximal runs of non-blocked squares."""
        return _runs(self, horizontal=True), _runs(self, horizontal=False)

    def layout(self) -> list[str]:
        """The grid as the file writes it, one string per row."""
        chars = {BLOCKED: "#", FILL: ".", START: "o", OUTSIDE: " "}
        return [
            "".join(
                str(self.printed[r * self.cols + c])
                if self.kinds[r * self.cols + c] == PRINTED
                else chars[self.kinds[r * self.cols + c]]
                for c in range(self.cols)
            )
            for r in range(self.rows)
        ]


def _runs(sheet: Sheet, *, horizontal: bool) -> tuple[tuple[int, ...], ...]:
    out: list[tuple[int, ...]] = []
    outer, inner = (sheet.rows, sheet.cols) if horizontal else (sheet.cols, sheet.rows)
    for a in range(outer):
        run: list[int] = []
        for b in range(inner + 1):
            i = -1
            if b < inner:
                i = a * sheet.cols + b if horizontal else b * sheet.cols + a
            if i >= 0 and sheet.kinds[i] in OPEN_KINDS:
                run.append(i)
            elif run:
                out.append(tuple(run))
                run = []
    return tuple(out)


def parse_sheet(text: str) -> Sheet:
    """Read a sheet; raise :class:`SheetError` naming the line and column of a problem."""
    if not isinstance(text, str):
        raise SheetError("a sheet is text")
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    header: dict[str, str] = {}
    grid_line = 0
    for n, raw in enumerate(lines, start=1):
        line = raw.strip()
        if not line or line.startswith(";"):
            continue
        key, sep, value = line.partition(":")
        key = key.strip().lower()
        if not sep:
            raise SheetError(
                f"expected 'key: value' or 'grid:', got {line[:30]!r}", n, raw.index(line[0]) + 1
            )
        if key == "grid":
            if value.strip():
                raise SheetError(
                    "'grid:' stands alone; the rows follow on the next lines", n, raw.index(":") + 2
                )
            grid_line = n
            break
        if key not in _HEADER_KEYS:
            raise SheetError(f"unknown key {key!r}; allowed: {', '.join(_HEADER_KEYS)}, grid", n, 1)
        if key in header:
            raise SheetError(f"{key!r} is given twice", n, 1)
        header[key] = value.strip()
    if not grid_line:
        raise SheetError("no 'grid:' line; the grid of squares follows a line 'grid:'", len(lines))
    name = header.get("name", "")
    if not name:
        raise SheetError("the sheet needs a name (a line 'name: ...' before 'grid:')", 1)
    level = 0
    if "level" in header:
        if not header["level"].isdigit() or not 1 <= int(header["level"]) <= 9:
            raise SheetError(f"level {header['level']!r} is not a whole number 1-9", 1)
        level = int(header["level"])
    # The grid: every following line up to trailing blank lines.
    body = lines[grid_line:]
    while body and not body[-1].strip():
        body.pop()
    if not body:
        raise SheetError("the grid has no rows", grid_line)
    rows: list[str] = []
    for k, raw in enumerate(body):
        n = grid_line + 1 + k
        row = raw.rstrip()
        if not row:
            raise SheetError("blank line inside the grid", n)
        if "\t" in row:
            raise SheetError(
                "tabs are not squares; use spaces for the background", n, row.index("\t") + 1
            )
        rows.append(row)
    width = max(len(r) for r in rows)
    first = grid_line + 1
    if not MIN_SIDE <= len(rows) <= MAX_SIDE:
        raise SheetError(f"the grid has {len(rows)} rows; allowed: {MIN_SIDE}-{MAX_SIDE}", first)
    if not MIN_SIDE <= width <= MAX_SIDE:
        widest = first + next(k for k, r in enumerate(rows) if len(r) == width)
        raise SheetError(f"a row has {width} squares; allowed: {MIN_SIDE}-{MAX_SIDE}", widest)
    kinds: list[int] = []
    printed: list[int] = []
    for r, row in enumerate(rows):
        n = first + r
        for c, ch in enumerate(row.ljust(width)):
            if ch == "#":
                kinds.append(BLOCKED)
                printed.append(0)
            elif ch == " ":
                kinds.append(OUTSIDE)
                printed.append(0)
            elif ch == ".":
                kinds.append(FILL)
                printed.append(0)
            elif ch in "oO":
                kinds.append(START)
                printed.append(0)
            elif ch in "123456":
                kinds.append(PRINTED)
                printed.append(int(ch))
            else:
                raise SheetError(f"unknown square {ch!r}; allowed: {_LEGEND}", n, c + 1)
    sheet = Sheet(
        name=name,
        level=level,
        author=header.get("author", ""),
        description=header.get("description", ""),
        rows=len(rows),
        cols=width,
        kinds=tuple(kinds),
        printed=tuple(printed),
    )

    def at(i: int) -> tuple[int, int]:
        return first + i // width, i % width + 1

    row_segs, col_segs = sheet.segments()
    for segs, what in ((row_segs, "row"), (col_segs, "column")):
        for seg in segs:
            if not MIN_SEGMENT <= len(seg) <= MAX_SEGMENT:
                span = sheet.name_of(seg[0]) + (
                    f"-{sheet.name_of(seg[-1])}" if len(seg) > 1 else ""
                )
                raise SheetError(
                    f"{what} segment {span} has {len(seg)} square"
                    f"{'s' if len(seg) != 1 else ''}; segments (runs of non-blocked squares) "
                    f"need {MIN_SEGMENT} to {MAX_SEGMENT} (CS-1)",
                    *at(seg[0]),
                )
            seen: dict[int, int] = {}
            for i in seg:
                v = sheet.printed[i]
                if v and v in seen:
                    raise SheetError(
                        f"pre-printed {v} repeats in its {what} segment "
                        f"({sheet.name_of(seen[v])} and {sheet.name_of(i)})",
                        *at(i),
                    )
                seen[v] = i
    for i, v in enumerate(sheet.printed):
        if not v:
            continue
        r, c = divmod(i, width)
        for dr, dc in ((1, -1), (1, 1)):
            rr, cc = r + dr, c + dc
            if 0 <= rr < sheet.rows and 0 <= cc < width and sheet.printed[rr * width + cc] == v:
                raise SheetError(
                    f"pre-printed {v} repeats on a diagonal ({sheet.name_of(i)} and "
                    f"{cell_name(rr, cc)})",
                    *at(rr * width + cc),
                )
    if len(sheet.starting) < MIN_START:
        raise SheetError(
            f"{len(sheet.starting)} starting squares (o); at least {MIN_START} are needed "
            "for the setup roll (CS-3)",
            grid_line,
        )
    return sheet


def standard_problems(sheet: Sheet) -> list[str]:
    """How ``sheet`` misses the CS-1 standard for shipped sheets (empty when it meets it)."""
    out: list[str] = []
    n = len(sheet.fillable)
    if n % 4:
        out.append(f"{n} fillable squares, not a multiple of 4")
    if len(sheet.starting) < 8:
        out.append(f"{len(sheet.starting)} starting squares, fewer than 8")
    return out


@cache
def shipped_text(name: str) -> str:
    """The text of the shipped sheet ``name``."""
    return (resources.files(__package__) / "sheets" / f"{name}.sheet").read_text("utf-8")


@lru_cache(maxsize=64)
def load_sheet(value: str) -> Sheet:
    """The sheet named ``value`` (shipped) or written as ``value`` (text with a newline)."""
    if "\n" in value:
        return parse_sheet(value)
    name = value.strip().lower()
    if name not in SHEET_NAMES:
        raise InvalidParameterError(
            f"sheet={value!r}: no shipped sheet of that name; allowed: "
            f"{', '.join(SHEET_NAMES)}, or the text of a sheet (see the Cat Sudoku README)"
        )
    return parse_sheet(shipped_text(name))


def sheet_digest(value: str) -> str:
    """SHA-256 (hex) of the text of the sheet named or written as ``value``."""
    text = value if "\n" in value else shipped_text(value.strip().lower())
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def check_sheet_param(value: object) -> str:
    """Validate the ``sheet`` parameter; names are normalised, texts kept as given."""
    if not isinstance(value, str):
        raise InvalidParameterError(f"sheet={value!r} is not text")
    if "\n" in value:
        load_sheet(value)
        return value
    name = value.strip().lower()
    load_sheet(name)
    return name
