"""Text and SVG drawings of a Tic-Tac-Sudoku view (never of a raw state)."""

from __future__ import annotations

from html import escape

from sudoku_arena.core.types import JsonDict
from sudoku_arena.games.drawing import panel_svg
from sudoku_arena.games.words import cell_words
from sudoku_arena.grids.sudoku import cell_name

_ANSI = {
    "circle": "\x1b[1;34m",
    "square": "\x1b[1;31m",
    "x": "\x1b[2m",
    "legal": "\x1b[1;32m",
    "dim": "\x1b[2m",
    "bold": "\x1b[1m",
    "reset": "\x1b[0m",
}
_MAP_CHAR = {-1: ".", 0: "O", 1: "S"}


def _cell_text(num: int, code: str, legal: bool) -> tuple[str, str]:
    """Three characters for one cell, and its colour key ('' for none)."""
    if code == "":
        return ((f"+{num} " if legal else f" {num} "), "legal" if legal else "")
    if code == "x":
        return (" X ", "x")
    symbol, state = code.split("-")
    if state == "open":
        return (f"({num})" if symbol == "circle" else f"[{num}]", symbol)
    return (" ● " if symbol == "circle" else " ■ ", symbol)


def render_text(view: JsonDict, *, color: bool = False) -> str:
    """The board, the Map and the scores as text; legal spaces marked ``+``."""

    def paint(text: str, key: str) -> str:
        return f"{_ANSI[key]}{text}{_ANSI['reset']}" if color and key else text

    legal = set(view["legal"])
    lines: list[str] = []
    header = "    " + "".join(f" {c} " + (" " if c in (3, 6) else "") for c in range(1, 10))
    lines.append(header)
    sep = "   +" + "+".join(["-" * 9] * 3) + "+"
    for r in range(9):
        if r % 3 == 0:
            lines.append(sep)
        row = f"r{r + 1} |"
        for c in range(9):
            i = 9 * r + c
            text, key = _cell_text(view["grid"][i], view["cells"][i], cell_name(i) in legal)
            row += paint(text, key)
            if c % 3 == 2:
                row += "|"
        lines.append(row)
    lines.append(sep)
    m = view["map"]
    map_rows = [" ".join(_MAP_CHAR[m[3 * r + c]] for c in range(3)) for r in range(3)]
    s0, s1 = view["scores"]
    lines.append("")
    lines.append(f"Map        Scores (target {view['target']})")
    lines.append(f"{map_rows[0]}      {paint('circle (O)', 'circle')}: {s0}")
    lines.append(f"{map_rows[1]}      {paint('square (S)', 'square')}: {s1}")
    lines.append(f"{map_rows[2]}")
    if view["outcome"] is not None:
        lines.append(paint(view["outcome"]["reason"], "bold"))
    elif view["to_move"]:
        seat = view["to_move"][0]
        lines.append(f"To move: {view['players'][seat]}   ({len(legal)} legal spaces, marked +)")
    return "\n".join(lines)


# -- SVG -------------------------------------------------------------------------------------

_CELL = 48
_PAD = 8
_COLORS = {"circle": "#1f5fbf", "square": "#c0392b"}


def render_svg(view: JsonDict) -> str:
    """The board as SVG; each legal space carries ``data-action`` with its cell name, every
    other space ``data-try`` (a click there asks the engine why it is not playable)."""
    board = 9 * _CELL
    width = _PAD * 2 + board
    height = _PAD * 2 + board
    legal = set(view["legal"])
    to_move = view["to_move"][0] if view["to_move"] else None
    mover_color = _COLORS[view["players"][to_move]] if to_move is not None else "#888"
    out: list[str] = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'class="board tic-tac-sudoku" font-family="sans-serif" role="img" '
        f'aria-label="Tic-Tac-Sudoku board">',
        f'<rect x="0" y="0" width="{width}" height="{height}" fill="#fdfcf7"/>',
    ]
    ox = oy = _PAD
    for i in range(81):
        r, c = divmod(i, 9)
        x, y = ox + c * _CELL, oy + r * _CELL
        name = cell_name(i)
        fill = "#fff6c2" if name in legal else "#ffffff"
        out.append(
            f'<rect x="{x}" y="{y}" width="{_CELL}" height="{_CELL}" fill="{fill}" '
            f'stroke="#999" stroke-width="1"/>'
        )
        code = view["cells"][i]
        num = view["grid"][i]
        cx, cy = x + _CELL / 2, y + _CELL / 2
        if code == "" or code.endswith("-open"):
            out.append(
                f'<text x="{cx}" y="{cy + 7}" text-anchor="middle" font-size="20" '
                f'fill="#222">{num}</text>'
            )
        if code == "x":
            out.append(
                f'<path d="M{x + 8} {y + 8} L{x + _CELL - 8} {y + _CELL - 8} M{x + _CELL - 8} '
                f'{y + 8} L{x + 8} {y + _CELL - 8}" stroke="#555" stroke-width="3"/>'
            )
        elif code:
            symbol, state = code.split("-")
            color = _COLORS[symbol]
            fill_attr = color if state == "filled" else "none"
            if symbol == "circle":
                out.append(
                    f'<circle cx="{cx}" cy="{cy}" r="{_CELL / 2 - 7}" fill="{fill_attr}" '
                    f'stroke="{color}" stroke-width="3"><title>{name} {escape(code)}</title>'
                    "</circle>"
                )
            else:
                s = _CELL - 14
                out.append(
                    f'<rect x="{x + 7}" y="{y + 7}" width="{s}" height="{s}" fill="{fill_attr}" '
                    f'stroke="{color}" stroke-width="3"><title>{name} {escape(code)}</title>'
                    "</rect>"
                )
        where = cell_words(r + 1, c + 1)
        if name in legal:
            out.append(
                f'<rect class="target" data-action="{name}" x="{x}" y="{y}" width="{_CELL}" '
                f'height="{_CELL}" fill="{mover_color}" fill-opacity="0.12" '
                f'stroke="{mover_color}" stroke-width="2" style="cursor:pointer">'
                f"<title>{where}: play here</title></rect>"
            )
        else:
            # Not playable now: a click asks the engine why (the page shows its reason).
            out.append(
                f'<rect class="try" data-try="{name}" x="{x}" y="{y}" width="{_CELL}" '
                f'height="{_CELL}" fill="#000" fill-opacity="0"><title>{where}</title></rect>'
            )
    for k in range(4):
        p = k * 3 * _CELL
        out.append(
            f'<line x1="{ox + p}" y1="{oy}" x2="{ox + p}" y2="{oy + board}" stroke="#222" '
            f'stroke-width="3"/>'
        )
        out.append(
            f'<line x1="{ox}" y1="{oy + p}" x2="{ox + board}" y2="{oy + p}" stroke="#222" '
            f'stroke-width="3"/>'
        )
    out.append("</svg>")
    return "".join(out)


def render_panel(view: JsonDict) -> str:
    """What goes beside the board (on a phone: below it): the map, scores, target."""
    body, bottom = _side_panel(view, _PAD, _PAD)
    width, height = 220, bottom + _PAD
    return panel_svg("tic-tac-sudoku", "map and scores", width, height, body)


def _side_panel(view: JsonDict, x0: int, y0: int) -> tuple[list[str], int]:
    out: list[str] = []
    m = 40
    out.append(f'<text x="{x0}" y="{y0 + 14}" font-size="16" font-weight="bold">Map</text>')
    for b in range(9):
        r, c = divmod(b, 3)
        x, y = x0 + c * m, y0 + 24 + r * m
        out.append(f'<rect x="{x}" y="{y}" width="{m}" height="{m}" fill="#fff" stroke="#222"/>')
        owner = view["map"][b]
        if owner == 0:
            out.append(
                f'<circle cx="{x + m / 2}" cy="{y + m / 2}" r="{m / 2 - 6}" fill="none" '
                f'stroke="{_COLORS["circle"]}" stroke-width="3"/>'
            )
        elif owner == 1:
            out.append(
                f'<rect x="{x + 6}" y="{y + 6}" width="{m - 12}" height="{m - 12}" fill="none" '
                f'stroke="{_COLORS["square"]}" stroke-width="3"/>'
            )
    y = y0 + 24 + 3 * m + 36
    out.append(f'<text x="{x0}" y="{y}" font-size="16" font-weight="bold">Scores</text>')
    for seat, name in enumerate(view["players"]):
        y += 24
        mark = "▶ " if seat in view["to_move"] else ""
        out.append(
            f'<text x="{x0}" y="{y}" font-size="16" fill="{_COLORS[name]}">'
            f"{mark}{name}: {view['scores'][seat]}</text>"
        )
    y += 24
    out.append(f'<text x="{x0}" y="{y}" font-size="13" fill="#555">target {view["target"]}</text>')
    if view["outcome"] is not None:
        y += 28
        out.append(
            f'<text x="{x0}" y="{y}" font-size="14" font-weight="bold">'
            f"{escape(view['outcome']['reason'].split(':')[0])}</text>"
        )
    return out, y + 10


#: What the board's symbols mean, for the legend beside the board: (the body of a
#: 24x24 SVG icon, words).
LEGEND: tuple[tuple[str, str], ...] = (
    (
        '<circle cx="12" cy="12" r="8" fill="none" stroke="#1f5fbf" stroke-width="3"/>',
        (
            "Circle's open symbol, the last he placed: his next goes on a number one below,"
            " the same or one above the number under it"
        ),
    ),
    (
        '<circle cx="12" cy="12" r="8" fill="#1f5fbf" stroke="#1f5fbf" stroke-width="3"/>',
        "Circle's earlier symbols, filled in: still his for scoring",
    ),
    (
        (
            '<rect x="4" y="4" width="16" height="16" fill="none" stroke="#c0392b"'
            ' stroke-width="3"/>'
        ),
        "Square's symbols, open and filled, the same way",
    ),
    (
        '<path d="M5 5 L19 19 M19 5 L5 19" stroke="#555" stroke-width="3"/>',
        "Crossed out by the centre rule: occupied, and nobody's",
    ),
    (
        '<rect x="2" y="2" width="20" height="20" fill="#fff6c2" stroke="#999"/>',
        "Where the player on turn may play",
    ),
)
