"""Text and SVG drawings of a SuDokuHex view (never of a raw state).

Only the view's contents are drawn; the board's geometry comes from ``grids.hex``.
"""

from __future__ import annotations

import math
from html import escape

from sudoku_arena.core.types import JsonDict
from sudoku_arena.games.drawing import panel_svg
from sudoku_arena.grids.hex import (
    COORD_INDEX,
    HEX_COORDS,
    HEX_NAMES,
    HONEYCOMB_OF,
    NUM_HEXES,
    POSITION_OFFSETS,
    hex_center,
    hex_corners,
    placement_points,
)

_ANSI = {
    "start": "\x1b[1;37;100m",  # grey: starting tiles belong to nobody
    "last": "\x1b[1;33m",
    "legal": "\x1b[1;32m",
    "dim": "\x1b[2m",
    "bold": "\x1b[1m",
    "reset": "\x1b[0m",
    "red": "\x1b[1;31m",
    "blue": "\x1b[1;34m",
    "green": "\x1b[1;32m",
    "yellow": "\x1b[1;33m",
}
_COLORS = {"red": "#c0392b", "blue": "#1f5fbf", "green": "#1e8449", "yellow": "#d4a017"}

_X_MIN = min(2 * q + r for q, r in HEX_COORDS)
_X_MAX = max(2 * q + r for q, r in HEX_COORDS)
_R_MIN = min(r for _, r in HEX_COORDS)
_R_MAX = max(r for _, r in HEX_COORDS)


def points_at(board: list[int], hex_index: int) -> int:
    """What a tile put on ``hex_index`` would score now (SH-4), from a view's board."""
    occupied = 0
    for h, v in enumerate(board):
        if v:
            occupied |= 1 << h
    return placement_points(occupied, hex_index)


def _score_text(score: int, lap: int) -> str:
    laps, pos = divmod(score, lap)
    if not laps:
        return f"{score}"
    return f"{score} ({laps} lap{'s' if laps > 1 else ''} + {pos})"


def _status(view: JsonDict) -> str:
    players = view["players"]
    if view["outcome"] is not None:
        return str(view["outcome"]["reason"])
    if view["setup"]:
        return "Setting up: placing the starting tiles"
    if view["drawing"] is not None:
        return f"{players[view['drawing']]} draws a tile"
    if view["to_move"]:
        who = players[view["to_move"][0]]
        if view["legal"]:
            return f"Your turn ({who}): {len(view['legal'])} legal hexes for your {view['hand']}"
        return f"To move: {who}"
    return ""


def render_text(view: JsonDict, *, color: bool = False) -> str:
    """The board (hex names on empty hexes, ``+`` on legal ones, starting tiles in
    brackets, the last tile in parentheses), scores with laps, tile and pile."""

    def paint(text: str, key: str) -> str:
        return f"{_ANSI[key]}{text}{_ANSI['reset']}" if color and key else text

    board = view["board"]
    starts = set(view["start"])
    legal = set(view["legal"])
    last = view["last"]
    rows: dict[int, list[tuple[int, str, str]]] = {}
    for i, (q, r) in enumerate(HEX_COORDS):
        name = HEX_NAMES[i]
        v = board[i]
        if v:
            if name in starts:
                text, key = f"[{v}]", "start"
            elif name == last:
                text, key = f"({v})", "last"
            else:
                text, key = f" {v}", ""
        elif name in legal:
            text, key = f"{name}+", "legal"
        else:
            text, key = name, "dim"
        rows.setdefault(r, []).append(((2 * q + r - _X_MIN) * 2, text, key))
    lines: list[str] = []
    for r in range(_R_MIN, _R_MAX + 1):
        line = ""
        col = 0
        for x, text, key in sorted(rows[r]):
            line += " " * (x - col) + paint(text, key)
            col = x + len(text)
        lines.append(line.rstrip())
    lines.append("")
    lap = int(view["lap_length"])
    for seat, name in enumerate(view["players"]):
        mark = ">" if seat in view["to_move"] else " "
        tile = ""
        if seat == view["observer"]:
            tile = f"   your tile: {view['hand'] if view['hand'] else '-'}"
        elif not view["holding"][seat]:
            tile = "   (no tile)"
        lines.append(f"{mark} {paint(name, name)}: {_score_text(view['scores'][seat], lap)}{tile}")
    unseen = " ".join(f"{v}x{c}" for v, c in enumerate(view["unseen"], start=1) if c)
    lines.append(f"Tiles left in the pile: {view['tiles_left']}   unseen: {unseen or 'none'}")
    if view["last"] is not None:
        lines.append(f"Last tile: {view['last']} scored {view['last_points']}")
    status = _status(view)
    if status:
        lines.append(paint(status, "bold") if view["outcome"] is not None else status)
    return "\n".join(lines)


# -- SVG -------------------------------------------------------------------------------------

_R = 30.0  # hex radius
_PAD = 16.0
_PANEL = 250.0
_HC_FILLS = ("#f6e7b0", "#e4eef7", "#e8f3e1", "#f3e3ec", "#e4eef7", "#e8f3e1", "#f3e3ec")


def _poly(points: tuple[tuple[float, float], ...]) -> str:
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in points)


def _shrink(
    corners: tuple[tuple[float, float], ...], cx: float, cy: float, f: float
) -> tuple[tuple[float, float], ...]:
    return tuple((cx + (x - cx) * f, cy + (y - cy) * f) for x, y in corners)


def render_svg(view: JsonDict) -> str:
    """The board as SVG; every legal hex carries ``data-action`` with its name, every
    other empty hex ``data-try`` (a click there asks the engine why not)."""
    half_w = math.sqrt(3) / 2 * _R
    ox = _PAD + half_w + (-_X_MIN) * half_w
    oy = _PAD + _R + (-_R_MIN) * 1.5 * _R
    board_w = (_X_MAX - _X_MIN) * half_w + 2 * half_w
    board_h = (_R_MAX - _R_MIN) * 1.5 * _R + 2 * _R
    width = _PAD * 2 + board_w
    height = _PAD * 2 + board_h
    board = view["board"]
    starts = set(view["start"])
    legal = set(view["legal"])
    players = view["players"]
    mover = view["to_move"][0] if view["to_move"] else None
    mover_color = _COLORS.get(players[mover], "#888") if mover is not None else "#888"
    out: list[str] = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:.0f} {height:.0f}" '
        'class="board sudokuhex" font-family="sans-serif" role="img" '
        'aria-label="SuDokuHex board">',
        f'<rect x="0" y="0" width="{width:.0f}" height="{height:.0f}" fill="#fdfcf7"/>',
    ]
    centres: list[tuple[float, float]] = []
    for i in range(NUM_HEXES):
        cx, cy = hex_center(i, _R)
        cx, cy = cx + ox, cy + oy
        centres.append((cx, cy))
        corners = tuple((x + ox, y + oy) for x, y in hex_corners(i, _R))
        out.append(
            f'<polygon points="{_poly(corners)}" fill="{_HC_FILLS[HONEYCOMB_OF[i]]}" '
            'stroke="#b9b2a0" stroke-width="1"/>'
        )
    # Honeycomb borders: every hex edge not shared with a hex of the same honeycomb.
    for i, (q, r) in enumerate(HEX_COORDS):
        corners = tuple((x + ox, y + oy) for x, y in hex_corners(i, _R))
        for d in range(1, 7):
            dq, dr = POSITION_OFFSETS[d]
            j = COORD_INDEX.get((q + dq, r + dr))
            if j is None or HONEYCOMB_OF[j] != HONEYCOMB_OF[i]:
                (x1, y1), (x2, y2) = corners[d % 6], corners[(d + 1) % 6]
                out.append(
                    f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" '
                    'stroke="#5a5245" stroke-width="3" stroke-linecap="round"/>'
                )
    for i in range(NUM_HEXES):
        cx, cy = centres[i]
        name = HEX_NAMES[i]
        v = board[i]
        corners = tuple((x + ox, y + oy) for x, y in hex_corners(i, _R))
        if v:
            start = name in starts
            # Starting tiles belong to nobody: dark slate, apart from every seat colour.
            fill = "#4a4a4a" if start else "#fffaf0"
            ink = "#ffffff" if start else "#222222"
            stroke = "#c0392b" if name == view["last"] else "#6b6354"
            sw = 3 if name == view["last"] else 1.5
            kind = "starting tile" if start else "tile"
            out.append(
                f'<polygon points="{_poly(_shrink(corners, cx, cy, 0.8))}" fill="{fill}" '
                f'stroke="{stroke}" stroke-width="{sw}"><title>{name}: {kind} {v}</title>'
                "</polygon>"
            )
            out.append(
                f'<text x="{cx:.1f}" y="{cy + 8:.1f}" text-anchor="middle" font-size="22" '
                f'font-weight="bold" fill="{ink}" pointer-events="none">{v}</text>'
            )
        else:
            out.append(
                f'<text x="{cx:.1f}" y="{cy + 4:.1f}" text-anchor="middle" font-size="11" '
                f'fill="#8a8270" pointer-events="none">{name}</text>'
            )
        if name not in legal and not v:
            out.append(
                f'<polygon class="try" data-try="{name}" '
                f'points="{_poly(_shrink(corners, cx, cy, 0.92))}" fill="#000" '
                f'fill-opacity="0"><title>{name}</title></polygon>'
            )
        if name in legal:
            pts = points_at(board, i)
            out.append(
                f'<polygon class="target" data-action="{name}" '
                f'points="{_poly(_shrink(corners, cx, cy, 0.92))}" fill="{mover_color}" '
                f'fill-opacity="0.18" stroke="{mover_color}" stroke-width="2" '
                f'style="cursor:pointer"><title>put your {view["hand"]} on {name}: '
                f"{pts} point{'s' if pts != 1 else ''}</title></polygon>"
            )
    out.append("</svg>")
    return "".join(out)


def render_panel(view: JsonDict) -> str:
    """What goes beside the board (on a phone: below it): the scoring track, hands,
    the pile and whose turn it is."""
    body, bottom = _panel(view, _PAD, _PAD)
    width, height = _PANEL + _PAD, bottom + _PAD
    return panel_svg("sudokuhex", "scores, hands and the pile", width, height, body)


def _panel(view: JsonDict, x0: float, y0: float) -> tuple[list[str], float]:
    """The side panel's elements and the lowest y it draws at."""
    out: list[str] = []
    players = view["players"]
    lap = int(view["lap_length"])
    # The 60-space scoring track as a ring; space 0 at the top, counters on it.
    cx, cy, rad = x0 + 90, y0 + 112, 66.0
    out.append(
        f'<text x="{x0:.1f}" y="{y0 + 10:.1f}" font-size="14" font-weight="bold">'
        f"Scoring track ({lap} spaces)</text>"
    )
    for k in range(lap):
        a = math.radians(360 * k / lap - 90)
        r1 = rad - (8 if k % 10 == 0 else 4)
        out.append(
            f'<line x1="{cx + r1 * math.cos(a):.1f}" y1="{cy + r1 * math.sin(a):.1f}" '
            f'x2="{cx + rad * math.cos(a):.1f}" y2="{cy + rad * math.sin(a):.1f}" '
            f'stroke="{"#222" if k == 0 else "#999"}" stroke-width="{2 if k == 0 else 1}"/>'
        )
    out.append(
        f'<text x="{cx:.1f}" y="{cy - rad + 20:.1f}" text-anchor="middle" font-size="10" '
        'fill="#555">0</text>'
    )
    for seat, name in enumerate(players):
        pos = view["track"][seat]
        a = math.radians(360 * pos / lap - 90)
        rr = rad + 7 + 7 * seat
        color = _COLORS.get(name, "#888")
        out.append(
            f'<circle cx="{cx + rr * math.cos(a):.1f}" cy="{cy + rr * math.sin(a):.1f}" r="5" '
            f'fill="{color}" stroke="#222" stroke-width="1"><title>{escape(name)}: space '
            f"{pos}, {view['laps'][seat]} stone(s)</title></circle>"
        )
    # The tile in hand beside the ring, at the top: the one thing a player decides
    # with, in sight on a phone where the panel starts below the board.
    hand = view["hand"]
    if view["observer"] is not None:
        tx, ty = x0 + 215, y0 + 62
        out.append(
            f'<g class="hand"><text x="{tx:.1f}" y="{y0 + 32:.1f}" text-anchor="middle" '
            'font-size="14">Your tile</text>'
        )
        if hand:
            corners = tuple(
                (
                    tx + 20 * math.cos(math.radians(60 * k - 90)),
                    ty + 20 * math.sin(math.radians(60 * k - 90)),
                )
                for k in range(6)
            )
            out.append(
                f'<polygon points="{_poly(corners)}" fill="#fffaf0" stroke="#6b6354" '
                f'stroke-width="1.5"/><text x="{tx:.1f}" y="{ty + 7:.1f}" '
                f'text-anchor="middle" font-size="20" font-weight="bold">{hand}</text>'
            )
        else:
            out.append(
                f'<text x="{tx:.1f}" y="{ty + 6:.1f}" text-anchor="middle" font-size="14">'
                "none</text>"
            )
        out.append("</g>")
    y = cy + rad + 48
    for seat, name in enumerate(players):
        color = _COLORS.get(name, "#888")
        mark = "▶ " if seat in view["to_move"] else ""
        score = view["scores"][seat]
        laps = view["laps"][seat]
        extra = "" if view["holding"][seat] else "  (no tile)"
        out.append(
            f'<text x="{x0:.1f}" y="{y:.1f}" font-size="15" fill="{color}">'
            f"{mark}{escape(name)}: {score}{extra}</text>"
        )
        for k in range(laps):
            out.append(
                f'<circle cx="{x0 + 150 + 12 * k:.1f}" cy="{y - 5:.1f}" r="4.5" fill="#333">'
                f"<title>a stone: {lap} points</title></circle>"
            )
        y += 22
    y += 8
    out.append(
        f'<text x="{x0:.1f}" y="{y + 16:.1f}" font-size="13">Tiles left in the pile: '
        f"{view['tiles_left']}</text>"
    )
    unseen = "  ".join(f"{v}×{c}" for v, c in enumerate(view["unseen"], start=1) if c)
    out.append(
        f'<text x="{x0:.1f}" y="{y + 34:.1f}" font-size="11" fill="#555">unseen: '
        f"{escape(unseen) or 'none'}</text>"
    )
    y += 40
    if view["last"] is not None:
        y += 18
        out.append(
            f'<text x="{x0:.1f}" y="{y:.1f}" font-size="12" fill="#555">last: '
            f"{view['last']} scored {view['last_points']}</text>"
        )
    status = _status(view)
    weight = "bold" if view["outcome"] is not None else "normal"
    for k, part in enumerate(_wrap(status, 38)):
        y += 22 if k == 0 else 16
        out.append(
            f'<text x="{x0:.1f}" y="{y:.1f}" font-size="12" font-weight="{weight}">'
            f"{escape(part)}</text>"
        )
    return out, y + 6


def _wrap(text: str, width: int) -> list[str]:
    """``text`` cut at spaces into lines of at most ``width`` characters."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    if line:
        lines.append(line)
    return lines


#: What the board's symbols mean, for the legend beside the board: (the body of a
#: 24x24 SVG icon, words).
LEGEND: tuple[tuple[str, str], ...] = (
    (
        (
            '<polygon points="12,2 21,7 21,17 12,22 3,17 3,7" fill="#4a4a4a"/>'
            '<text x="12" y="16" text-anchor="middle" font-size="11" font-weight="bold"'
            ' fill="#fff" font-family="sans-serif">4</text>'
        ),
        "A starting tile: it belongs to nobody",
    ),
    (
        (
            '<polygon points="12,2 21,7 21,17 12,22 3,17 3,7" fill="#fffaf0"'
            ' stroke="#6b6354" stroke-width="1.5"/>'
            '<text x="12" y="16" text-anchor="middle" font-size="11" font-weight="bold"'
            ' font-family="sans-serif">6</text>'
        ),
        "A placed tile",
    ),
    (
        (
            '<polygon points="12,2 21,7 21,17 12,22 3,17 3,7" fill="#fffaf0"'
            ' stroke="#c0392b" stroke-width="3"/>'
        ),
        "The tile placed last",
    ),
    (
        (
            '<polygon points="12,2 21,7 21,17 12,22 3,17 3,7" fill="#f6e3c6"'
            ' stroke="#5a5245" stroke-width="3"/>'
        ),
        "A honeycomb: hexes of one colour inside a thick border",
    ),
)
