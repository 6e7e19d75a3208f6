"""Text and SVG drawings of a Cat Sudoku view (never of a raw state).

The view holds the sheet layout (``#`` blocked, ``.`` fillable, ``o`` starting square,
digits pre-printed, space background), every player's values, the dice, the Wild
Counter, each player's scoring explained, and the legal actions in notation for the
seat in ``legal_for``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from html import escape

from sudoku_arena.core.types import JsonDict
from sudoku_arena.games.cat_sudoku.guide import explain
from sudoku_arena.games.drawing import panel_svg

_ANSI = {
    "circle": "\x1b[1;31m",
    "set": "\x1b[1;35m",
    "printed": "\x1b[1;36m",
    "start": "\x1b[2m",
    "blocked": "\x1b[2m",
    "wild": "\x1b[1;33m",
    "bold": "\x1b[1m",
    "reset": "\x1b[0m",
}
_ANSI_RE = re.compile(r"\x1b\[[0-9;]*m")
_WRITE_RE = re.compile(r"^([1-6]) (r\d+c\d+)$")
_WILD_RE = re.compile(r"^wild ([12])\+ (blank )?([1-6])$")


def _name(i: int, cols: int) -> str:
    return f"r{i // cols + 1}c{i % cols + 1}"


def _marks(view: JsonDict, seat: int) -> tuple[dict[str, int], set[str]]:
    """Circled squares (with their circle count) and diagonal-set squares of ``seat``."""
    sc = view["scoring"][seat]
    circled = {c["square"]: c["circles"] for c in sc["circled"]}
    in_sets = {sq for st in sc["sets"] for sq in st["squares"]}
    return circled, in_sets


def _main_seat(view: JsonDict) -> int:
    if view["observer"] is not None:
        return int(view["observer"])
    if view["legal_for"] is not None:
        return int(view["legal_for"])
    return int(view["active"])


# -- text ------------------------------------------------------------------------------------


def _sheet_lines(view: JsonDict, seat: int, paint: Callable[[str, str], str]) -> list[str]:
    sheet = view["sheet"]
    rows, cols = sheet["rows"], sheet["cols"]
    layout = [row.ljust(cols) for row in sheet["layout"]]
    vals = view["values"][seat]
    circled, in_sets = _marks(view, seat)
    head = "     " + "".join(f"{c + 1:^3}" for c in range(cols))
    out = [head.rstrip()]
    for r in range(rows):
        line = f"r{r + 1:<3} "
        for c in range(cols):
            ch = layout[r][c]
            i = r * cols + c
            v = vals[i]
            name = _name(i, cols) if v else ""  # only a written square's marks are looked up
            if ch == " ":
                line += "   "
            elif ch == "#":
                line += paint(" # ", "blocked")
            elif not v:
                line += paint(" o ", "start") if ch == "o" else " . "
            elif name in circled:
                line += paint(f"({v}" + (">" if name in in_sets else ")"), "circle")
            elif name in in_sets:
                line += paint(f"<{v}>", "set")
            elif ch.isdigit():
                line += paint(f"[{v}]", "printed")
            else:
                line += f" {v} "
        out.append(line.rstrip())
    return out


def _scoring_lines(view: JsonDict, seat: int) -> list[str]:
    sc = view["scoring"][seat]
    out = []
    if sc["circled"]:
        parts = ", ".join(
            f"{c['square']}={c['value']}" + (" (x2)" if c["circles"] > 1 else "")
            for c in sc["circled"]
        )
        out.append(f"  circled: {parts}  -{sc['circle_penalty']}")
    for st in sc["sets"]:
        out.append(
            f"  diagonal set of {st['size']} x {st['value']}: {' '.join(st['squares'])}  "
            f"-{st['penalty']}"
        )
    if not out:
        out.append("  no penalties")
    return out


def render_text(view: JsonDict, *, color: bool = False) -> str:
    """Dice, Wild Counter, sheets (the observer's, or all for a spectator) and scores."""

    def paint(text: str, key: str) -> str:
        return f"{_ANSI[key]}{text}{_ANSI['reset']}" if color and key else text

    sheet = view["sheet"]
    names = view["players"]
    lines = [
        paint(f"Cat Sudoku - {sheet['name']}", "bold")
        + (f" (level {sheet['level']})" if sheet["level"] else "")
        + (" - setup roll" if view["turn"] == 0 else f" - turn {view['turn']}")
        + f" - active: {names[view['active']]}"
    ]
    if view["dice"]:
        dice = " ".join(
            paint(f"{d}*", "wild") if w else str(d)
            for d, w in zip(view["dice"], view["dice_wild"], strict=True)
        )
        extra = f"   (wild {view['wild']}: * may be written as any value)" if view["wild"] else ""
        lines.append(f"Dice: {dice}{extra}")
    header = "Wild Counter  " + " ".join(str(v) for v in range(1, 7)) + "  _ _ _"
    lines.append(header)
    for row in view["counter"]:
        cells = []
        for k, box in enumerate(row["boxes"]):
            if k == 6:
                cells.append("")
            if box["this_turn"]:
                mark = paint(str(box["written"] or "X"), "wild")
            elif box["written"]:
                mark = str(box["written"])
            else:
                mark = "x" if box["used"] else "."
            cells.append(mark)
        lines.append(f"  {row['label']:<11} " + " ".join(cells))
    seats = [_main_seat(view)] if view["observer"] is not None else list(range(len(names)))
    label = "final score" if view["outcome"] is not None else "score so far"
    # Sheets side by side, two to a band, each with its deductions below the band.
    per_band = 2 if 3 * sheet["cols"] + 5 <= 60 else 1
    for k in range(0, len(seats), per_band):
        band = seats[k : k + per_band]
        blocks = []
        for seat in band:
            sc = view["scoring"][seat]
            title = paint(f"{names[seat]}", "bold") + f": {label} {sc['score']}"
            blocks.append([title, *_sheet_lines(view, seat, paint)])
        lines.append("")
        width = 3 * sheet["cols"] + 8
        for row in zip(*blocks, strict=True):
            lines.append(
                "".join(
                    cell + " " * max(0, width - len(_ANSI_RE.sub("", cell))) for cell in row[:-1]
                )
                + row[-1]
            )
        for seat in band:
            if len(band) > 1 or len(seats) > 1:
                lines.append(f"{names[seat]} ({view['empty'][seat]} empty squares):")
            else:
                lines.append(f"({view['empty'][seat]} empty squares)")
            lines.extend(_scoring_lines(view, seat))
    if view["observer"] is not None and len(names) > 1:
        lines.append("")
        lines.append(
            "Scores: " + ", ".join(f"{n} {s}" for n, s in zip(names, view["scores"], strict=True))
        )
    lines.append("")
    if view["outcome"] is not None:
        lines.append(paint(view["outcome"]["reason"], "bold"))
    elif view["phase"] == "wild":
        wilds = [a for a in view["legal"] if _WILD_RE.match(a)]
        hint = f"  (e.g. {wilds[0]})" if wilds else ""
        lines.append(f"{names[view['active']]} chooses the wild (a Wild Counter box).{hint}")
    elif view["to_move"]:
        who = ", ".join(names[p] for p in view["to_move"])
        lines.append(f"Writing: {who}")
        seat = view["legal_for"]
        if seat is not None:
            left = view["left"][seat]
            todo = [str(v) for v in left["plain"]] + ["wild"] * left["wild"]
            # The example is a write legal right now, never a fixed square.
            example = next((a for a in view["legal"] if _WRITE_RE.match(a)), None)
            hint = f"  (e.g. {example})" if example else ""
            lines.append(f"{names[seat]} has to write: {' '.join(todo)}{hint}")
    return "\n".join(lines)


# -- SVG --------------------------------------------------------------------------------------

_CELL = 40
_PAD = 20
_FUR = "#8a6f55"
_RED = "#c0392b"
_PURPLE = "#7d3c98"
_WILD = "#e0a800"


def _svg_sheet(
    view: JsonDict,
    seat: int,
    x0: float,
    y0: float,
    cell: float,
    legal: list[str] | None,
) -> list[str]:
    sheet = view["sheet"]
    rows, cols = sheet["rows"], sheet["cols"]
    layout = [row.ljust(cols) for row in sheet["layout"]]
    vals = view["values"][seat]
    circled, in_sets = _marks(view, seat)
    out: list[str] = []
    font = cell * 0.55
    for r in range(rows):
        for c in range(cols):
            ch = layout[r][c]
            if ch == " ":
                continue
            x, y = x0 + c * cell, y0 + r * cell
            name = _name(r * cols + c, cols)
            if ch == "#":
                out.append(f'<rect x="{x}" y="{y}" width="{cell}" height="{cell}" fill="{_FUR}"/>')
                continue
            fill = "#e8e4da" if ch.isdigit() else "#ffffff"
            out.append(
                f'<rect x="{x}" y="{y}" width="{cell}" height="{cell}" fill="{fill}" '
                f'stroke="#555" stroke-width="1"><title>{name}</title></rect>'
            )
            cx, cy = x + cell / 2, y + cell / 2
            v = vals[r * cols + c]
            if legal is not None and not v:
                # A click with a value chosen asks the engine whether it may go here;
                # ``{sel}`` stands for the chosen value (the page fills it in).
                out.append(
                    f'<rect class="try" data-try="{{sel}} {name}" x="{x}" y="{y}" '
                    f'width="{cell}" height="{cell}" fill="#000" fill-opacity="0"/>'
                )
            if ch == "o":
                out.append(
                    f'<circle cx="{cx}" cy="{cy}" r="{cell * 0.38}" fill="none" stroke="#999" '
                    f'stroke-width="1.5" stroke-dasharray="3 2"/>'
                )
            if v:
                weight = ' font-weight="bold"' if ch.isdigit() else ""
                out.append(
                    f'<text x="{cx}" y="{cy + font * 0.36}" text-anchor="middle" '
                    f'font-size="{font}"{weight} fill="#222">{v}</text>'
                )
            if name in circled:
                out.append(
                    f'<circle cx="{cx}" cy="{cy}" r="{cell * 0.4}" fill="none" stroke="{_RED}" '
                    f'stroke-width="{max(1.5, cell / 16)}"><title>{name}: {v} repeats in its '
                    f"segment (-{2 * circled[name]})</title></circle>"
                )
            if name in in_sets:
                radius = cell * (0.47 if name in circled else 0.4)
                out.append(
                    f'<circle cx="{cx}" cy="{cy}" r="{radius}" fill="none" '
                    f'stroke="{_PURPLE}" stroke-width="{max(1.5, cell / 16)}"><title>{name}: '
                    f"part of a diagonal set</title></circle>"
                )
    # Diagonal sets: link their squares.
    for st in view["scoring"][seat]["sets"]:
        pos = []
        for sq in st["squares"]:
            rr, cc = (int(x) for x in sq[1:].split("c"))
            pos.append((x0 + (cc - 0.5) * cell, y0 + (rr - 0.5) * cell))
        for a in range(len(pos)):
            for b in range(a + 1, len(pos)):
                (xa, ya), (xb, yb) = pos[a], pos[b]
                if abs(xa - xb) == cell and abs(ya - yb) == cell:
                    out.append(
                        f'<line x1="{xa}" y1="{ya}" x2="{xb}" y2="{yb}" stroke="{_PURPLE}" '
                        f'stroke-width="{max(1, cell / 20)}" stroke-opacity="0.6"/>'
                    )
    if legal:
        for text in legal:
            m = _WRITE_RE.match(text)
            if not m:
                continue
            v, sq = m.group(1), m.group(2)
            rr, cc = (int(x) for x in sq[1:].split("c"))
            x, y = x0 + (cc - 1) * cell, y0 + (rr - 1) * cell
            out.append(
                f'<rect class="target" data-action="{text}" data-from="{v}" x="{x}" y="{y}" '
                f'width="{cell}" height="{cell}" fill="#2e86de" fill-opacity="0.18" '
                f'stroke="#2e86de" stroke-width="2" style="cursor:pointer">'
                f"<title>{explain(text)}</title></rect>"
            )
    return out


def _die(x: float, y: float, size: float, label: str, fill: str, extra: str = "") -> str:
    return (
        f'<g{extra}><rect x="{x}" y="{y}" width="{size}" height="{size}" rx="6" fill="{fill}" '
        f'stroke="#333" stroke-width="1.5"/><text x="{x + size / 2}" y="{y + size * 0.68}" '
        f'text-anchor="middle" font-size="{size * 0.55}" font-weight="bold">{label}</text>'
    )


def render_svg(view: JsonDict) -> str:
    """The main sheet (the observer's); dice, the Wild Counter, scores and the other
    sheets are in :func:`render_panel`.

    Writing takes two clicks: a value (a die, or a value of the palette when wild dice
    are left; ``data-select``, in the panel) and then a square (``data-action="5 r3c4"``
    with ``data-from="5"``). The wild is chosen by clicking a Wild Counter box (a blank
    box first selects its row, then a value, drawn over the die that shows it).
    """
    sheet = view["sheet"]
    rows, cols = sheet["rows"], sheet["cols"]
    main = _main_seat(view)
    legal: list[str] = list(view["legal"]) if view["legal_for"] == main else []
    board_w, board_h = cols * _CELL, rows * _CELL
    names = view["players"]
    body = _svg_sheet(view, main, _PAD, _PAD + 30, _CELL, legal)
    height = _PAD * 2 + 30 + board_h
    width = max(_PAD * 2 + board_w, 300)
    out: list[str] = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'class="board cat-sudoku" font-family="sans-serif" role="img" '
        f'aria-label="Cat Sudoku sheet {escape(sheet["name"])}">',
        f'<rect x="0" y="0" width="{width}" height="{height}" fill="#fdfcf7"/>',
        f'<text x="{_PAD}" y="{_PAD + 12}" font-size="16" font-weight="bold">'
        f"{escape(names[main])} - {escape(sheet['name'])}: "
        f"{view['scores'][main]} points</text>",
        *body,
    ]
    out.append("</svg>")
    return "".join(out)


def render_panel(view: JsonDict) -> str:
    """What goes beside the sheet (on a phone: below it): the dice to write, the Wild
    Counter, scores, and the other players' sheets in small."""
    sheet = view["sheet"]
    rows = sheet["rows"]
    main = _main_seat(view)
    legal: list[str] = list(view["legal"]) if view["legal_for"] == main else []
    names = view["players"]
    others = [p for p in range(len(names)) if p != main]
    panel_w = 340
    body, panel_end = _panel(view, _PAD, _PAD, legal)
    thumb = 10
    ty = panel_end + 30
    for k, p in enumerate(others):
        tx = _PAD + (k % 2) * (panel_w / 2)
        yy = ty + (k // 2) * (rows * thumb + 30)
        body.append(
            f'<text x="{tx}" y="{yy - 4}" font-size="12">{escape(names[p])}: '
            f"{view['scores'][p]}</text>"
        )
        # Drawn small; the page shows a sheet marked data-zoom larger when tapped.
        body.append(f'<g class="sheet" data-zoom="{escape(names[p])}: {view["scores"][p]} points">')
        body.extend(_svg_sheet(view, p, tx, yy, thumb, None))
        body.append("</g>")
    bottom = ty + ((len(others) + 1) // 2) * (rows * thumb + 30) if others else panel_end
    width, height = panel_w + _PAD, bottom + _PAD
    return panel_svg("cat-sudoku", "dice, Wild Counter and scores", width, height, body)


def _panel(view: JsonDict, x0: float, y0: float, legal: list[str]) -> tuple[list[str], float]:
    out: list[str] = []
    names = view["players"]
    y = y0 + 12
    turn = "setup roll" if view["turn"] == 0 else f"turn {view['turn']}"
    out.append(
        f'<text x="{x0}" y="{y}" font-size="14">{turn}, active: '
        f"{escape(names[view['active']])}</text>"
    )
    # Dice: plain dice select their value; wild dice are marked with a star.
    y += 14
    size = 40
    writing = any(_WRITE_RE.match(t) for t in legal)
    values = sorted({int(m.group(1)) for t in legal if (m := _WRITE_RE.match(t))})
    out.append('<g class="hand">')  # what this turn gives to write (the page keeps it in sight)
    die_at: dict[int, tuple[float, float]] = {}
    for k, (d, w) in enumerate(zip(view["dice"], view["dice_wild"], strict=True)):
        x = x0 + k * (size + 10)
        die_at.setdefault(d, (x, y))
        fill = "#fff3c4" if w else "#ffffff"
        label = f"{d}★" if w else str(d)
        extra = ""
        if writing and not w and d in values:
            extra = f' class="target" data-select="{d}" style="cursor:pointer"'
        out.append(
            _die(x, y, size, label, fill, extra)
            + f"<title>die {d}"
            + (" (wild)" if w else "")
            + "</title></g>"
        )
    out.append("</g>")
    y += size + 6
    if writing:
        left = view["left"][view["legal_for"]]
        if left["wild"]:
            out.append(
                f'<text x="{x0}" y="{y + 12}" font-size="12">wild dice left: {left["wild"]} '
                "- pick any value:</text>"
            )
            y += 18
            for v in range(1, 7):
                out.append(
                    _die(
                        x0 + (v - 1) * 44,
                        y,
                        40,
                        str(v),
                        "#fff3c4",
                        f' class="target" data-select="{v}" style="cursor:pointer"',
                    )
                    + f"<title>write {v} with a wild die</title></g>"
                )
            y += 46
        out.append(
            f'<text x="{x0}" y="{y + 12}" font-size="12">to write: '
            + " ".join([str(v) for v in left["plain"]] + ["★"] * left["wild"])
            + " - click a value, then a square</text>"
        )
        y += 20
    # Wild Counter.
    y += 6
    out.append(f'<text x="{x0}" y="{y + 12}" font-size="14" font-weight="bold">Wild Counter</text>')
    y += 20
    # Boxes a finger's size (40 px, the panel is drawn a unit a pixel): nine in a row do
    # not fit a phone's 390 px, so each row's six values have a line of their own and
    # the two rows' blank boxes share a third line.
    box = 40
    step = box + 2
    wild_legal = {}
    for t in legal:
        m = _WILD_RE.match(t)
        if m:
            wild_legal[(int(m.group(1)), bool(m.group(2)), int(m.group(3)))] = t
    blanks_y = y + len(view["counter"]) * (box + 3)
    for r, row in enumerate(view["counter"]):
        yy = y + r * (box + 3)
        out.append(f'<text x="{x0}" y="{yy + 25}" font-size="13">{row["label"]}</text>')
        # This row's blanks, on the blanks' line, labelled with the row again.
        blank_x = x0 + r * (28 + 3 * step + 8)
        out.append(f'<text x="{blank_x}" y="{blanks_y + 25}" font-size="13">{row["label"]}</text>')
        first_blank = next(
            (k for k, b in enumerate(row["boxes"]) if b["value"] is None and not b["used"]), None
        )
        for k, b in enumerate(row["boxes"]):
            bx, by = (
                (x0 + 28 + k * step, yy) if k < 6 else (blank_x + 28 + (k - 6) * step, blanks_y)
            )
            fill = "#fff3c4" if b["this_turn"] else ("#ddd" if b["used"] else "#fff")
            attrs = ""
            title = f"{row['label']} box " + (str(b["value"]) if b["value"] else "blank")
            key = (r + 1, False, b["value"]) if b["value"] else None
            if key in wild_legal:
                attrs = f' class="target" data-action="{wild_legal[key]}" style="cursor:pointer"'
                title = f"make {b['value']} wild ({wild_legal[key]})"
            elif (
                b["value"] is None
                and k == first_blank
                and any(bl and rr == r + 1 for (rr, bl, _) in wild_legal)
            ):
                attrs = f' class="target" data-select="blank {r + 1}+" style="cursor:pointer"'
                title = "write a rolled value into this blank box"
            out.append(
                f'<rect x="{bx}" y="{by}" width="{box}" height="{box}" fill="{fill}" '
                f'stroke="#333"{attrs}><title>{escape(title)}</title></rect>'
            )
            label = str(b["value"] or b["written"] or "")
            if label:
                out.append(
                    f'<text x="{bx + box / 2}" y="{by + 25}" text-anchor="middle" '
                    f'font-size="14">{label}</text>'
                )
            if b["used"]:
                out.append(
                    f'<path d="M{bx + 4} {by + 4} L{bx + box - 4} {by + box - 4}" '
                    f'stroke="{_RED}" stroke-width="2"/>'
                )
    y = blanks_y + box + 8
    # The values a selected blank box can take are rolled values: the dice showing them
    # are marked to be tapped (a die, not a line of its own, keeps the counter's lines
    # on a phone's first screen).
    for (rr, blank, v), t in sorted(wild_legal.items()):
        if blank and v in die_at:
            dx, dy = die_at[v]
            out.append(
                f'<g class="target" data-action="{t}" data-from="blank {rr}+" '
                f'style="cursor:pointer"><rect x="{dx}" y="{dy}" width="{size}" height="{size}" '
                f'rx="6" fill="#fff3c4" stroke="{_WILD}" stroke-width="3"/><text '
                f'x="{dx + size / 2}" y="{dy + size * 0.68}" text-anchor="middle" '
                f'font-size="{size * 0.55}" font-weight="bold">{v}</text><title>{t}</title></g>'
            )
    # Scores with their explanation.
    out.append(f'<text x="{x0}" y="{y + 12}" font-size="14" font-weight="bold">Scores</text>')
    y += 18
    for p, name in enumerate(names):
        sc = view["scoring"][p]
        mark = "▶ " if p in view["to_move"] else ""
        out.append(
            f'<text x="{x0}" y="{y + 12}" font-size="13">{mark}{escape(name)}: {sc["score"]} '
            f"(circles -{sc['circle_penalty']}, diagonals -{sc['set_penalty']})</text>"
        )
        y += 17
    if view["outcome"] is not None:
        out.append(
            f'<text x="{x0}" y="{y + 16}" font-size="13" font-weight="bold">'
            f"{escape(view['outcome']['reason'])}</text>"
        )
        y += 20
    return out, y


def button_words(action: str) -> tuple[str, str] | None:
    """Words for ``nowild``, the one action with no place in the drawings (see
    ``GameEntry``): with the option "Wild may be declined", the active player may play
    the turn without a wild number (CS-4)."""
    if action == "nowild":
        return "No wild", "Play this turn without a wild number"
    return None


#: What the board's symbols mean, for the legend beside the board: (the body of a
#: 24x24 SVG icon, words).
LEGEND: tuple[tuple[str, str], ...] = (
    (
        '<rect x="2" y="2" width="20" height="20" fill="#8a6f55"/>',
        "Fur: a blocked square, nothing is written there",
    ),
    (
        (
            '<rect x="2" y="2" width="20" height="20" fill="#fff" stroke="#555"/>'
            '<circle cx="12" cy="12" r="7" fill="none" stroke="#999" stroke-width="1.5"'
            ' stroke-dasharray="3 2"/>'
        ),
        "A starting square: the first roll is written into these",
    ),
    (
        (
            '<rect x="2" y="2" width="20" height="20" fill="#e8e4da" stroke="#555"/>'
            '<text x="12" y="17" text-anchor="middle" font-size="14" font-weight="bold"'
            ' font-family="sans-serif">5</text>'
        ),
        "A printed number: it counts like a written one",
    ),
    (
        (
            '<rect x="2" y="2" width="20" height="20" fill="#fff" stroke="#555"/>'
            '<text x="12" y="17" text-anchor="middle" font-size="14"'
            ' font-family="sans-serif">3</text>'
        ),
        (
            "A number you wrote. Repeats in a row or column segment are circled, and equal"
            " numbers touching diagonally are linked: both cost points"
        ),
    ),
)
