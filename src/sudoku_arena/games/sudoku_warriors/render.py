"""Text and SVG drawings of a Sudoku Warriors view (never of a raw state).

The board is the Sudoku grid; warriors stand on the intersections (hilltops) between
the villages. Village control is shown by shading (SVG) or a lower-case letter before
the number (text); spent resources are crossed out; the capital of a won province is
ringed with the winner's symbol.
"""

from __future__ import annotations

from html import escape

from sudoku_arena.core.types import JsonDict
from sudoku_arena.games.drawing import panel_svg
from sudoku_arena.grids.sudoku import cell_name

_LETTER = {"circle": "o", "square": "s", "triangle": "t"}
_HILL_TEXT = {"": "·", "x": "X", "circle": "O", "square": "S", "triangle": "T"}
_ANSI = {
    "circle": "\x1b[1;34m",
    "square": "\x1b[1;31m",
    "triangle": "\x1b[1;32m",
    "x": "\x1b[2m",
    "dim": "\x1b[2m",
    "bold": "\x1b[1m",
    "reset": "\x1b[0m",
}
_COLORS = {"circle": "#1f5fbf", "square": "#c0392b", "triangle": "#1e8449"}


def _hill_index(name: str) -> int:
    return 10 * int(name[1]) + int(name[2])


def _cell_index(name: str) -> int:
    return 9 * (int(name[1]) - 1) + int(name[3]) - 1


def _capital(b: int) -> int:
    return 9 * (3 * (b // 3) + 1) + 3 * (b % 3) + 1


def _won_capitals(view: JsonDict) -> dict[int, str]:
    players = view["players"]
    return {_capital(b): players[o] for b, o in enumerate(view["owners"]) if o >= 0}


# -- text ---------------------------------------------------------------------------------


def render_text(view: JsonDict, *, color: bool = False) -> str:
    """The board as text: hilltops ``O S T X ·`` at the line crossings, villages as
    ``<controller><resource><spent>`` (``o7/``: circle controls a 7 that is spent), a
    won capital's controller in upper case; then provinces, the battle and who moves."""

    def paint(text: str, key: str) -> str:
        return f"{_ANSI[key]}{text}{_ANSI['reset']}" if color and key else text

    players: list[str] = view["players"]
    hills: list[str] = view["hilltops"]
    capitals = _won_capitals(view)
    last = view["last"]
    lines = ["     " + "   ".join(str(j) for j in range(10))]
    for i in range(10):
        row = f"h{i}   "
        for j in range(10):
            h = 10 * i + j
            code = hills[h]
            ch = _HILL_TEXT[code]
            key = "x" if code == "x" else code
            if color and last == f"h{i}{j}":
                # Underline the last placed warrior.
                row += f"\x1b[4m{paint(ch, key)}{_ANSI['reset']}"
            else:
                row += paint(ch, key)
            if j < 9:
                row += "═══" if i % 3 == 0 else "───"
        lines.append(row)
        if i == 9:
            break
        r = i
        row = f"r{r + 1}   "
        for c in range(9):
            cell = 9 * r + c
            bar = "║" if c % 3 == 0 else "│"
            ctrl = view["control"][cell]
            owner_name = players[ctrl] if ctrl >= 0 else ""
            letter = _LETTER[owner_name] if owner_name else " "
            if cell in capitals:
                letter = _LETTER[capitals[cell]].upper()
            mark = "/" if view["spent"][cell] else " "
            text = f"{letter}{view['grid'][cell]}{mark}"
            row += bar + paint(text, owner_name)
        row += "║"
        lines.append(row)
    lines.append("")
    lines.extend(_text_status(view, paint))
    return "\n".join(lines)


def _text_status(view: JsonDict, paint: object) -> list[str]:
    assert callable(paint)
    players: list[str] = view["players"]
    out: list[str] = []
    owners = view["owners"]
    held = [
        " ".join(
            (_LETTER[players[owners[3 * r + c]]].upper() if owners[3 * r + c] >= 0 else ".")
            for c in range(3)
        )
        for r in range(3)
    ]
    tally = [f"{paint(p, p)} {view['scores'][q]}" for q, p in enumerate(players)]
    out.append(f"Provinces   {', '.join(tally)} (target {view['target']})")
    out.extend(f"  {row}" for row in held)
    battle = view["battle"]
    if battle is not None:
        scores = []
        for q in battle["participants"]:
            tag = "" if q in battle["active"] else " (out)"
            scores.append(f"{players[q]} {battle['scores'][q]}{tag}")
        out.append(
            f"Battle for {battle['province']} (capital {battle['capital']}): " + ", ".join(scores)
        )
        actor = players[battle["actor"]]
        if battle["opening"]:
            rule = "opening bid: at most one village"
        elif battle["need"] > 0:
            rule = f"must add {battle['need']} or more with one or two villages, or yield"
        else:
            rule = "already ahead: may bid nothing, or add villages, or yield"
        out.append(f"  {paint(actor, actor)} to bid ({rule})")
        for q in battle["active"]:
            cells = battle["eligible"][q]
            grid = view["grid"]
            listed = " ".join(f"{c}={grid[_cell_index(c)]}" for c in cells) or "none"
            out.append(f"  {players[q]} may add: {listed}")
    if view["pending"]:
        out.append("Battles still due: " + ", ".join(view["pending"]))
    if view["outcome"] is not None:
        out.append(paint(view["outcome"]["reason"], "bold"))
    elif view["to_move"] and battle is None:
        seat = view["to_move"][0]
        name = players[seat]
        if view["phase"] == "choose":
            out.append(f"{paint(name, name)} picks the next battle: " + ", ".join(view["legal"]))
        else:
            out.append(f"{paint(name, name)} to place ({len(view['legal'])} empty hilltops)")
    return out


# -- SVG ------------------------------------------------------------------------------------

_CELL = 46
# The margin only holds the hilltop numbers: kept narrow so that on a phone's width a
# cell, and the tap target of a hilltop, stays about 40 pixels wide.
_PAD = 17
_PANEL = 250


def _symbol(
    kind: str, x: float, y: float, r: float, stroke: str, fill: str, width: float, extra: str = ""
) -> str:
    if kind == "circle":
        return (
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r:.1f}" fill="{fill}" stroke="{stroke}" '
            f'stroke-width="{width}"{extra}/>'
        )
    if kind == "square":
        return (
            f'<rect x="{x - r:.1f}" y="{y - r:.1f}" width="{2 * r:.1f}" height="{2 * r:.1f}" '
            f'fill="{fill}" stroke="{stroke}" stroke-width="{width}"{extra}/>'
        )
    pts = (
        f"{x:.1f},{y - 1.15 * r:.1f} {x + r:.1f},{y + 0.75 * r:.1f} {x - r:.1f},{y + 0.75 * r:.1f}"
    )
    return (
        f'<polygon points="{pts}" fill="{fill}" stroke="{stroke}" stroke-width="{width}"{extra}/>'
    )


def render_svg(view: JsonDict) -> str:
    """The board as SVG. Empty hilltops carry ``data-action="h37"``; during a choice of
    battles each due province carries ``data-action="battle b5"``; during a bid the
    bidder's usable villages carry ``data-select`` and the bids they complete carry
    ``data-action`` with ``data-from`` (click A then B for ``bid A B``, A twice for
    ``bid A``)."""
    players: list[str] = view["players"]
    board = 9 * _CELL
    width = 2 * _PAD + board
    height = 2 * _PAD + board
    ox = oy = _PAD
    legal: list[str] = view["legal"]
    mover = view["to_move"][0] if view["to_move"] else None
    mover_color = _COLORS[players[mover]] if mover is not None else "#888"
    out: list[str] = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        'class="board sudoku-warriors" font-family="sans-serif" role="img" '
        'aria-label="Sudoku Warriors board">',
        f'<rect x="0" y="0" width="{width}" height="{height}" fill="#fdfcf7"/>',
    ]
    capitals = _won_capitals(view)
    # Villages: control shading, resource, spent cross, won capitals.
    for cell in range(81):
        r, c = divmod(cell, 9)
        x, y = ox + c * _CELL, oy + r * _CELL
        ctrl = view["control"][cell]
        fill = _COLORS[players[ctrl]] if ctrl >= 0 else "#ffffff"
        opacity = "0.18" if ctrl >= 0 else "1"
        who = players[ctrl] if ctrl >= 0 else "nobody"
        out.append(
            f'<rect x="{x}" y="{y}" width="{_CELL}" height="{_CELL}" fill="{fill}" '
            f'fill-opacity="{opacity}" stroke="#aaa" stroke-width="1">'
            f"<title>{cell_name(cell)}: {view['grid'][cell]}, controlled by {who}"
            f"{', spent' if view['spent'][cell] else ''}</title></rect>"
        )
        cx, cy = x + _CELL / 2, y + _CELL / 2
        spent = view["spent"][cell]
        out.append(
            f'<text x="{cx}" y="{cy + 7}" text-anchor="middle" font-size="20" '
            f'fill="{"#999" if spent else "#222"}" pointer-events="none">'
            f"{view['grid'][cell]}</text>"
        )
        if spent:
            d = 9
            out.append(
                f'<path d="M{cx - d} {cy - d} L{cx + d} {cy + d} M{cx + d} {cy - d} '
                f'L{cx - d} {cy + d}" stroke="#444" stroke-width="2" pointer-events="none"/>'
            )
        if cell in capitals:
            kind = capitals[cell]
            out.append(
                _symbol(kind, cx, cy, 14, _COLORS[kind], "none", 2.5, ' pointer-events="none"')
            )
    # Grid lines, provinces thicker.
    for k in range(10):
        w = 3 if k % 3 == 0 else 1
        col = "#222" if k % 3 == 0 else "#888"
        p = k * _CELL
        out.append(
            f'<line x1="{ox + p}" y1="{oy}" x2="{ox + p}" y2="{oy + board}" '
            f'stroke="{col}" stroke-width="{w}"/>'
        )
        out.append(
            f'<line x1="{ox}" y1="{oy + p}" x2="{ox + board}" y2="{oy + p}" '
            f'stroke="{col}" stroke-width="{w}"/>'
        )
        out.append(
            f'<text x="{ox + p + 6}" y="{oy - 6}" text-anchor="start" font-size="9" '
            f'fill="#777">{k}</text>'
        )
        out.append(
            f'<text x="{ox - 6}" y="{oy + p - 5}" text-anchor="end" '
            f'font-size="9" fill="#777">{k}</text>'
        )
    out.extend(_battle_marks(view, ox, oy))
    out.extend(_hilltops(view, ox, oy, legal, mover_color))
    out.extend(_choice_targets(view, ox, oy, legal))
    out.extend(_bid_targets(view, ox, oy, legal, mover_color))
    out.append("</svg>")
    return "".join(out)


def render_panel(view: JsonDict) -> str:
    """What goes beside the board (on a phone: below it): provinces won, the battle
    being fought with its bids and reserves, and the battles due."""
    body, bottom = _panel(view, 12, 20)
    width, height = _PANEL, bottom + 12
    return panel_svg("sudoku-warriors", "provinces and battles", width, height, body)


def _hilltops(view: JsonDict, ox: int, oy: int, legal: list[str], mover_color: str) -> list[str]:
    out: list[str] = []
    placing = view["phase"] == "place"
    legal_set = set(legal) if placing else set()
    for h, code in enumerate(view["hilltops"]):
        i, j = divmod(h, 10)
        x, y = ox + j * _CELL, oy + i * _CELL
        name = f"h{i}{j}"
        if view["last"] == name:
            out.append(f'<circle cx="{x}" cy="{y}" r="13" fill="#ffe680" stroke="none"/>')
        if code == "x":
            d = 6
            out.append(
                f'<path d="M{x - d} {y - d} L{x + d} {y + d} M{x + d} {y - d} '
                f'L{x - d} {y + d}" stroke="#333" stroke-width="3">'
                f"<title>{name}: X'd</title></path>"
            )
        elif code:
            out.append(_titled_symbol(code, x, y, name))
        else:
            out.append(f'<circle cx="{x}" cy="{y}" r="2.5" fill="#777"/>')
        if placing and not code and name not in legal_set:
            out.append(
                f'<circle class="try" data-try="{name}" cx="{x}" cy="{y}" r="23" fill="#000" '
                f'fill-opacity="0"><title>hilltop {name}</title></circle>'
            )
        if name in legal_set:
            out.append(
                # A ring to see, inside a hit area as wide as a cell to tap.
                f'<g class="target" data-action="{name}" style="cursor:pointer">'
                f'<circle cx="{x}" cy="{y}" r="23" fill="#000" fill-opacity="0"/>'
                f'<circle cx="{x}" cy="{y}" r="10" fill="{mover_color}" fill-opacity="0.15" '
                f'stroke="{mover_color}" stroke-opacity="0.6" stroke-width="1.5"/>'
                f"<title>hilltop {name}: claim it</title></g>"
            )
    return out


def _tag(kind: str) -> str:
    return {"circle": "circle", "square": "rect"}.get(kind, "polygon")


def _titled_symbol(kind: str, x: float, y: float, name: str) -> str:
    body = _symbol(kind, x, y, 7, _COLORS[kind], "#ffffff", 2.5)
    return body[:-2] + f"><title>{name}: {kind}</title></{_tag(kind)}>"


def _province_box(b: int, ox: int, oy: int) -> tuple[int, int, int]:
    return ox + 3 * (b % 3) * _CELL, oy + 3 * (b // 3) * _CELL, 3 * _CELL


def _choice_targets(view: JsonDict, ox: int, oy: int, legal: list[str]) -> list[str]:
    if view["phase"] != "choose":
        return []
    out: list[str] = []
    for a in legal:
        b = int(a.split()[1][1]) - 1
        x, y, size = _province_box(b, ox, oy)
        out.append(
            f'<rect class="target" data-action="{a}" x="{x + 3}" y="{y + 3}" '
            f'width="{size - 6}" height="{size - 6}" fill="#f5c400" fill-opacity="0.25" '
            f'stroke="#b38f00" stroke-width="3" stroke-dasharray="8 4" '
            f'style="cursor:pointer"><title>fight the battle for b{b + 1} next</title></rect>'
        )
    return out


def _battle_marks(view: JsonDict, ox: int, oy: int) -> list[str]:
    battle = view["battle"]
    if battle is None:
        return []
    players: list[str] = view["players"]
    b = int(battle["province"][1]) - 1
    x, y, size = _province_box(b, ox, oy)
    color = _COLORS[players[battle["actor"]]]
    out = [
        f'<rect x="{x}" y="{y}" width="{size}" height="{size}" fill="none" '
        f'stroke="{color}" stroke-width="5" stroke-dasharray="10 5"/>'
    ]
    # Small corner dots: which remaining participant may add which village.
    for k, q in enumerate(battle["active"]):
        for name in battle["eligible"][q]:
            cell = _cell_index(name)
            r, c = divmod(cell, 9)
            cx = ox + c * _CELL + 7 + 8 * k
            cy = oy + r * _CELL + _CELL - 7
            out.append(
                f'<circle cx="{cx}" cy="{cy}" r="3" fill="{_COLORS[players[q]]}" '
                'pointer-events="none"/>'
            )
    return out


def _bid_targets(view: JsonDict, ox: int, oy: int, legal: list[str], mover_color: str) -> list[str]:
    if view["phase"] != "bid":
        return []
    singles: set[int] = set()
    pairs: dict[int, list[tuple[int, str]]] = {}
    for a in legal:
        words = a.split()
        if words[0] != "bid" or len(words) == 1:
            continue
        cells = [_cell_index(w) for w in words[1:]]
        if len(cells) == 1:
            singles.add(cells[0])
        else:
            u, v = cells
            pairs.setdefault(u, []).append((v, a))
            pairs.setdefault(v, []).append((u, a))
    selectable = sorted(singles | set(pairs))

    def cell_rect(cell: int, attrs: str, title: str, opacity: str) -> str:
        # Completing targets ("0") are outlines: several of them share a village (one
        # per first click), and only one shows at a time. Each target takes clicks on
        # its whole village (a transparent square under the mark drawn inset), 40 px
        # on a phone, a finger's size.
        r, c = divmod(cell, 9)
        x, y = ox + c * _CELL, oy + r * _CELL
        inset, width = (4, 2) if opacity != "0" else (7, 3)
        fill = f'fill="{mover_color}" fill-opacity="{opacity}"'
        if opacity == "0":
            fill = 'fill="none"'
        return (
            f'<g class="target" {attrs} style="cursor:pointer">'
            f'<rect x="{x}" y="{y}" width="{_CELL}" height="{_CELL}" fill="#000" '
            f'fill-opacity="0"/><rect x="{x + inset}" y="{y + inset}" '
            f'width="{_CELL - 2 * inset}" height="{_CELL - 2 * inset}" {fill} '
            f'stroke="{mover_color}" stroke-width="{width}"/><title>{title}</title></g>'
        )

    out: list[str] = []
    if legal:
        # Villages that take no part in a bid now: a click asks the engine why not.
        for cell in range(81):
            if cell in singles or cell in pairs:
                continue
            r, c = divmod(cell, 9)
            name = cell_name(cell)
            out.append(
                f'<rect class="try" data-try="bid {name}" x="{ox + c * _CELL}" '
                f'y="{oy + r * _CELL}" width="{_CELL}" height="{_CELL}" fill="#000" '
                f'fill-opacity="0"><title>village {name}</title></rect>'
            )
    for cell in selectable:
        name = cell_name(cell)
        out.append(cell_rect(cell, f'data-select="{name}"', f"choose {name} for a bid", "0.1"))
    for cell in selectable:
        name = cell_name(cell)
        if cell in singles:
            out.append(
                cell_rect(
                    cell,
                    f'data-action="bid {name}" data-from="{name}"',
                    f"bid {name} alone",
                    "0.35",
                )
            )
        for other, action in pairs.get(cell, []):
            out.append(
                cell_rect(other, f'data-action="{escape(action)}" data-from="{name}"', action, "0")
            )
    return out


def _panel(view: JsonDict, x0: int, y0: int) -> tuple[list[str], int]:
    players: list[str] = view["players"]
    out: list[str] = []
    y = y0 + 4
    out.append(f'<text x="{x0}" y="{y}" font-size="16" font-weight="bold">Provinces</text>')
    for q, name in enumerate(players):
        y += 24
        mark = "▶ " if q in view["to_move"] else ""
        out.append(_symbol(name, x0 + 8, y - 5, 6, _COLORS[name], "#fff", 2))
        out.append(
            f'<text x="{x0 + 22}" y="{y}" font-size="15" fill="{_COLORS[name]}">'
            f"{mark}{name}: {view['scores'][q]} / {view['target']}</text>"
        )
    y += 30
    battle = view["battle"]
    if battle is not None:
        out.append(
            f'<text x="{x0}" y="{y}" font-size="16" font-weight="bold">'
            f"Battle for {battle['province']}</text>"
        )
        y += 18
        out.append(
            f'<text x="{x0}" y="{y}" font-size="12" fill="#555">capital {battle["capital"]}</text>'
        )
        for q in battle["participants"]:
            y += 22
            name = players[q]
            active = q in battle["active"]
            mark = "▶ " if q == battle["actor"] else ""
            deco = "" if active else ' text-decoration="line-through" fill-opacity="0.5"'
            out.append(
                f'<text x="{x0}" y="{y}" font-size="15" fill="{_COLORS[name]}"{deco}>'
                f"{mark}{name}: {battle['scores'][q]}</text>"
            )
        y += 22
        if battle["opening"]:
            note = "opening bid: at most one village"
        elif battle["need"] > 0:
            note = f"needs +{battle['need']} (one or two villages)"
        else:
            note = "ahead: may bid nothing"
        out.append(f'<text x="{x0}" y="{y}" font-size="12" fill="#555">{note}</text>')
        grid = view["grid"]
        for q in battle["active"]:
            cells = battle["eligible"][q]
            total = sum(grid[_cell_index(c)] for c in cells)
            y += 18
            out.append(
                f'<text x="{x0}" y="{y}" font-size="12" fill="{_COLORS[players[q]]}">'
                f"{players[q]}: {len(cells)} villages, {total} in reserve</text>"
            )
        y += 26
    if view["pending"]:
        out.append(
            f'<text x="{x0}" y="{y}" font-size="13">Battles due: '
            f"{', '.join(view['pending'])}</text>"
        )
        y += 22
    if view["phase"] == "choose" and view["to_move"]:
        name = players[view["to_move"][0]]
        out.append(
            f'<text x="{x0}" y="{y}" font-size="13" fill="{_COLORS[name]}">'
            f"{name}: click the province to fight first</text>"
        )
        y += 22
    if view["outcome"] is not None:
        reason = view["outcome"]["reason"]
        head, _, tail = reason.partition(":")
        out.append(
            f'<text x="{x0}" y="{y}" font-size="15" font-weight="bold">{escape(head)}</text>'
        )
        y += 18
        out.append(
            f'<text x="{x0}" y="{y}" font-size="11" fill="#555">{escape(tail.strip()[:40])}</text>'
        )
    return out, y + 8


def button_words(action: str) -> tuple[str, str] | None:
    """Words for the bid actions that have no village to click (see ``GameEntry``)."""
    if action == "yield":
        return "Yield the province", "Withdraw from this battle; you cannot come back into it"
    if action == "bid":
        return "Add no village", "Stay in the battle with the bid you have"
    return None


#: What the board's symbols mean, for the legend beside the board: (the body of a
#: 24x24 SVG icon, words).
LEGEND: tuple[tuple[str, str], ...] = (
    (
        '<circle cx="12" cy="12" r="7" fill="#1f5fbf" stroke="#fff" stroke-width="2.5"/>',
        "A hilltop held by a warrior of Circle",
    ),
    (
        (
            '<rect x="5" y="5" width="14" height="14" fill="#c0392b" stroke="#fff"'
            ' stroke-width="2.5"/>'
        ),
        "A hilltop held by a warrior of Square (Triangle's are triangles)",
    ),
    (
        '<path d="M6 6 L18 18 M18 6 L6 18" stroke="#333" stroke-width="3"/>',
        "A crossed-out hilltop: dead for good, it counts for nobody",
    ),
    (
        (
            '<text x="12" y="17" text-anchor="middle" font-size="15"'
            ' font-family="sans-serif">7</text>'
        ),
        "A village; its number is the resources it adds to a bid",
    ),
    (
        ('<rect x="2" y="2" width="20" height="20" fill="none" stroke="#222" stroke-width="3"/>'),
        "A province (thick lines): its last free hilltop starts a battle for it",
    ),
)
