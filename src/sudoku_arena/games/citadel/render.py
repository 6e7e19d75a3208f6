"""Text and SVG drawings of a Citadel view (never of a raw state).

The SVG follows the project's click convention: the mover's warriors that can act carry
``data-select="<cell>"``; their moves, attacks and razes carry ``data-action`` and
``data-from="<cell>"`` (shown once the warrior is selected). Recruits, siege captures,
citadel placements and claims are direct ``data-action`` targets; wall sites appear
after clicking the "build a wall" button (``data-select="walls"``). ``end`` has no
element: the page shows it as a button.
"""

from __future__ import annotations

from html import escape

from sudoku_arena.core.types import JsonDict
from sudoku_arena.games.citadel.rules import COLUMNS, parse_cell
from sudoku_arena.games.drawing import panel_svg

_ANSI = {
    0: "\x1b[1;34m",
    1: "\x1b[1;31m",
    "wall": "\x1b[2;37m",
    "neutral": "\x1b[33m",
    "legal": "\x1b[1;32m",
    "bold": "\x1b[1m",
    "reset": "\x1b[0m",
}
_LETTER = ("B", "R")


def _rc(name: str) -> tuple[int, int]:
    return parse_cell(name)


def _index(view: JsonDict) -> tuple[dict[str, JsonDict], dict[str, JsonDict], dict[str, JsonDict]]:
    warriors = {w["cell"]: w for w in view["warriors"]}
    citadels = {c["cell"]: c for c in view["citadels"]}
    walls: dict[str, JsonDict] = {}
    for w in view["walls"]:
        for cell in w["cells"]:
            walls[cell] = w
    return warriors, citadels, walls


def _legal_citadel_spots(view: JsonDict) -> set[str]:
    return {a.split()[1] for a in view["legal"] if a.startswith("citadel ")}


def render_text(view: JsonDict, *, color: bool = False) -> str:
    """The board (4 characters a cell), then credits, citadels, walls and sieges.

    ``B2`` / ``R1``: a blue / red warrior of strength 2 / 1 (``'`` once it has attacked
    this turn, ``!`` when its group has no liberties); ``[..]`` a citadel, ``[b ]`` one
    held by blue with nobody on it; ``####`` wall cells; ``+`` a legal citadel site.
    """

    def paint(text: str, key: object) -> str:
        return f"{_ANSI[key]}{text}{_ANSI['reset']}" if color and key in _ANSI else text

    n = view["size"]
    warriors, citadels, walls = _index(view)
    spots = _legal_citadel_spots(view)
    cols = view["columns"]
    # What each cell that is not empty shows, by cell name: a warrior over a citadel over
    # a wall over a legal site (later entries replace earlier ones). Most cells are
    # empty, so the board's loop only looks its cells up.
    shown: dict[str, str] = {}
    for name in spots:
        shown[name] = paint(" +  ", "legal")
    for name in walls:
        shown[name] = paint("####", "wall")
    for name, cit in citadels.items():
        owner = cit["owner"]
        inner = ("br"[owner] if owner >= 0 else " ") + ("!" if cit["besieged"] else " ")
        shown[name] = paint(f"[{inner}]", owner if owner >= 0 else "neutral")
    for name, w in warriors.items():
        mark = "!" if w["besieged"] else "'" if w["spent"] else " "
        body = f"{_LETTER[w['player']]}{w['strength']}"
        text = f"[{body}]" if name in citadels else f" {body}{mark}"
        shown[name] = paint(text, w["player"])
    letters = [cols[c] for c in range(n)]
    lines = [("   " + "".join(f"  {c} " for c in cols)).rstrip()]
    for r in range(n - 1, -1, -1):
        number = r + 1
        cells = "".join(shown.get(f"{letter}{number}", " .  ") for letter in letters)
        lines.append(f"{number:>2} {cells}".rstrip())
    lines.append("")
    lines.extend(_status_lines(view, paint))
    return "\n".join(lines)


def _status_lines(view: JsonDict, paint: object) -> list[str]:
    assert callable(paint)
    players = view["players"]
    out: list[str] = []
    held: dict[int, list[str]] = {-1: [], 0: [], 1: []}
    for c in view["citadels"]:
        held[c["owner"]].append(c["cell"] + ("(besieged)" if c["besieged"] else ""))
    if view["citadels"]:
        parts = [
            paint(f"{players[p]} {view['scores'][p]}", p) + f" ({' '.join(held[p]) or '-'})"
            for p in (0, 1)
        ]
        if held[-1]:
            parts.append(f"neutral ({' '.join(held[-1])})")
        out.append("Citadels held: " + ", ".join(parts))
    wc = view["warrior_counts"]
    out.append(
        f"Warriors: {players[0]} {wc[0]}, {players[1]} {wc[1]} "
        f"(cap {view['warrior_cap']} {view['cap_mode'].replace('_', ' ')})"
    )
    if view["walls"]:
        out.append("Walls: " + ", ".join(f"{w['square']}({w['strength']})" for w in view["walls"]))
    for g in view["besieged_groups"]:
        out.append(f"Besieged {players[g['player']]} group: {' '.join(g['cells'])}")
    if view["outcome"] is not None:
        out.append(paint(view["outcome"]["reason"], "bold"))
        return out
    seat = view["to_move"][0]
    who = paint(players[seat], seat)
    phase = view["phase"]
    if phase == "setup":
        out.append(f"Setup: {who} places citadel {len(view['citadels']) + 1} of 9 (+ marks sites)")
    elif phase == "claim":
        out.append(f"Claiming: {who} claims a neutral citadel")
    else:
        out.append(
            f"Turn {view['turn']}/{view['max_turns']}: {who} to act, "
            f"{view['credits']} credits, {view['sieges_left']} siege captures left, "
            f"{len(view['legal'])} legal actions"
        )
    return out


# -- SVG -------------------------------------------------------------------------------------

_U = 32
_M = 36
_PANEL = 230
_FILL = {0: "#2f6fd6", 1: "#d0392b"}
_LIGHT = {0: "#b9d0f7", 1: "#f5c0b9", -1: "#e3e0d6"}


def render_svg(view: JsonDict) -> str:
    """The Go board with citadels, walls and warriors; legal actions as click targets."""
    n = view["size"]
    board = (n - 1) * _U + 2 * _M
    width, height = board, board
    warriors, citadels, _ = _index(view)

    def xy(name: str) -> tuple[float, float]:
        r, c = _rc(name)
        return _M + c * _U, _M + (n - 1 - r) * _U

    out: list[str] = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'class="board citadel" font-family="sans-serif" role="img" '
        f'aria-label="Citadel board">',
        f'<rect x="0" y="0" width="{width}" height="{height}" fill="#fbf8ef"/>',
        f'<rect x="{_M - _U / 2}" y="{_M - _U / 2}" width="{board - 2 * _M + _U}" '
        f'height="{board - 2 * _M + _U}" fill="#e2bf73" stroke="#8a6a2a"/>',
    ]
    last = _M + (n - 1) * _U
    for k in range(n):
        p = _M + k * _U
        out.append(f'<line x1="{p}" y1="{_M}" x2="{p}" y2="{last}" stroke="#5a4520"/>')
        out.append(f'<line x1="{_M}" y1="{p}" x2="{last}" y2="{p}" stroke="#5a4520"/>')
        out.append(
            f'<text x="{p}" y="{_M - _U / 2 - 4}" text-anchor="middle" font-size="11" '
            f'fill="#555">{COLUMNS[k]}</text>'
        )
        out.append(
            f'<text x="{_M - _U / 2 - 4}" y="{p + 4}" text-anchor="end" font-size="11" '
            f'fill="#555">{n - k}</text>'
        )
    # Citadels.
    h = _U * 0.42
    for cell, cit in citadels.items():
        x, y = xy(cell)
        owner = cit["owner"]
        stroke = _FILL.get(owner, "#777")
        dash = ' stroke-dasharray="4 3"' if cit["besieged"] else ""
        who = view["players"][owner] if owner >= 0 else "neutral"
        state = ", besieged" if cit["besieged"] else ""
        out.append(
            f'<rect x="{x - h}" y="{y - h}" width="{2 * h}" height="{2 * h}" rx="4" '
            f'fill="{_LIGHT[owner]}" stroke="{stroke}" stroke-width="3"{dash}>'
            f"<title>citadel {cell} ({who}{state})</title></rect>"
        )
        if owner >= 0:  # the owner's shape in the corner, for eyes that mix the hues
            out.append(_token(owner, x + h - 5, y - h + 5, 4.5, 'stroke="#fff" stroke-width="1"'))
    # Walls: the 2x2 block of cells around one square.
    for w in view["walls"]:
        x0, y1 = xy(w["cells"][0])  # lower-left cell
        x1, y0 = xy(w["cells"][3])  # upper-right cell
        e = _U * 0.4
        out.append(
            f'<rect x="{x0 - e}" y="{y0 - e}" width="{x1 - x0 + 2 * e}" '
            f'height="{y1 - y0 + 2 * e}" rx="3" fill="#6b6259" stroke="#2e2a26" '
            f'stroke-width="2"><title>wall {w["square"]}, strength {w["strength"]}</title>'
            "</rect>"
        )
        out.append(
            f'<text x="{(x0 + x1) / 2}" y="{(y0 + y1) / 2 + 5}" text-anchor="middle" '
            f'font-size="14" fill="#f3efe8">{w["strength"]}</text>'
        )
    # Warriors.
    rad = _U * 0.36
    for cell, w in warriors.items():
        x, y = xy(cell)
        p = w["player"]
        extra = ""
        if w["besieged"]:
            extra = ' stroke="#111" stroke-width="3" stroke-dasharray="3 2"'
        else:
            extra = ' stroke="#fff" stroke-width="1.5"'
        opacity = ' fill-opacity="0.65"' if w["spent"] else ""
        notes = (", has attacked" if w["spent"] else "") + (", besieged" if w["besieged"] else "")
        title = f"{view['players'][p]} warrior {cell}, strength {w['strength']}{notes}"
        out.append(_token(p, x, y, rad, f"{opacity.strip()}{extra}", title))
        out.append(
            f'<text x="{x}" y="{y + 5}" text-anchor="middle" font-size="14" '
            f'font-weight="bold" fill="#fff" pointer-events="none">{w["strength"]}</text>'
        )
    out.extend(_targets(view, xy))
    out.append("</svg>")
    return "".join(out)


def _token(player: int, x: float, y: float, r: float, attrs: str, title: str = "") -> str:
    """A player's piece: blue a circle, red a diamond, so the two sides differ in shape
    as well as in hue (for colour-blind players)."""
    tip = f"<title>{escape(title)}</title>" if title else ""
    if player == 0:
        return f'<circle cx="{x}" cy="{y}" r="{r}" fill="{_FILL[0]}" {attrs}>{tip}</circle>'
    d = r * 1.2
    points = f"{x},{y - d} {x + d},{y} {x},{y + d} {x - d},{y}"
    return f'<polygon points="{points}" fill="{_FILL[player]}" {attrs}>{tip}</polygon>'


def render_panel(view: JsonDict) -> str:
    """What goes beside the board (on a phone: below it): turn, citadels and warriors,
    credits, sieges, and the button that shows where walls can be built."""
    body, bottom = _panel(view, 10, 24)
    width, height = _PANEL, bottom + 10
    return panel_svg("citadel", "citadels, warriors and credits", width, height, body)


def _target(shape: str, attrs: str, title: str) -> str:
    return (
        f'<{shape} class="target" {attrs} style="cursor:pointer">'
        f"<title>{escape(title)}</title></{shape}>"
    )


def _tapped(data: str, x: float, y: float, mark: str, title: str) -> str:
    """A target whose mark is drawn small (a recruit, a step, a wall), in a group with a
    transparent circle as wide as a citadel's: a finger hits it as easily, and it stays
    inside its point, clear of the neighbours' targets."""
    return (
        f'<g class="target" {data} style="cursor:pointer">'
        f'<circle cx="{x}" cy="{y}" r="{_U * 0.45}" fill="#000" fill-opacity="0"/>'
        f"{mark}<title>{escape(title)}</title></g>"
    )


def _tries(view: JsonDict, xy: object) -> list[str]:
    """Empty points that take no placement or recruit now carry ``data-try`` with that
    action, so a click there asks the engine why not (drawn first: legal targets on top)."""
    assert callable(xy)
    n = view["size"]
    warriors, citadels, walls = _index(view)
    legal = set(view["legal"])
    verb = "citadel " if view["phase"] == "setup" else "+"
    out: list[str] = []
    for row in range(1, n + 1):
        for col in COLUMNS[:n]:
            cell = f"{col}{row}"
            action = verb + cell
            if cell in warriors or cell in citadels or cell in walls or action in legal:
                continue
            x, y = xy(cell)
            out.append(
                f'<circle class="try" data-try="{action}" cx="{x}" cy="{y}" r="{_U * 0.45}" '
                f'fill="#000" fill-opacity="0"><title>{cell}</title></circle>'
            )
    return out


def _targets(view: JsonDict, xy: object) -> list[str]:
    assert callable(xy)
    to_move = view["to_move"][0] if view["to_move"] else None
    if to_move is None:
        return []
    color = _FILL[to_move]
    out: list[str] = _tries(view, xy)
    later: list[str] = []
    selectable: dict[str, list[str]] = {}
    for act in view["legal"]:
        a = escape(act)
        if act.startswith(("citadel ", "claim ")):
            word, cell = act.split()
            x, y = xy(cell)
            verb = "place a citadel on" if word == "citadel" else "claim the citadel"
            out.append(
                _target(
                    "circle",
                    f'data-action="{a}" cx="{x}" cy="{y}" r="{_U * 0.45}" fill="{color}" '
                    f'fill-opacity="0.25" stroke="{color}"',
                    f"{verb} {cell}",
                )
            )
        elif act.startswith("+"):
            cell = act[1:]
            x, y = xy(cell)
            out.append(
                _tapped(
                    f'data-action="{a}"',
                    x,
                    y,
                    f'<circle cx="{x}" cy="{y}" r="{_U * 0.3}" fill="{color}" '
                    f'fill-opacity="0.3" stroke="{color}" stroke-dasharray="3 2"/>',
                    f"recruit a warrior on {cell} (2 credits)",
                )
            )
        elif act.startswith("siege "):
            cell = act.split()[1]
            x, y = xy(cell)
            out.append(
                _target(
                    "circle",
                    f'data-action="{a}" cx="{x}" cy="{y}" r="{_U * 0.46}" fill="#000" '
                    f'fill-opacity="0.15" stroke="#000" stroke-width="3"',
                    f"take {cell} by siege",
                )
            )
        elif act.startswith("wall "):
            cell = act.split()[1]
            x, y = xy(cell)
            later.append(
                _tapped(
                    f'data-action="{a}" data-from="walls"',
                    x + _U / 2,
                    y - _U / 2,
                    f'<rect x="{x + _U / 2 - 7}" y="{y - _U / 2 - 7}" width="14" height="14" '
                    f'fill="#6b6259" fill-opacity="0.6" stroke="#2e2a26"/>',
                    f"build a wall on square {cell} (1 credit)",
                )
            )
            selectable.setdefault("walls", [])
        elif act.startswith("raze "):
            _, square, by = act.split()
            x, y = xy(square)
            later.append(
                _target(
                    "rect",
                    f'data-action="{a}" data-from="{by}" x="{x - _U * 0.4}" '
                    f'y="{y - _U * 1.4}" width="{_U * 1.8}" height="{_U * 1.8}" '
                    f'fill="{color}" fill-opacity="0.3" stroke="{color}" stroke-width="3"',
                    f"raze the wall on {square} with {by} (1 credit)",
                )
            )
            selectable.setdefault(by, []).append(act)
        elif "-" in act or "x" in act:
            sep = "-" if "-" in act else "x"
            frm, to = act.split(sep)
            x, y = xy(to)
            if sep == "-":
                later.append(
                    _tapped(
                        f'data-action="{a}" data-from="{frm}"',
                        x,
                        y,
                        f'<circle cx="{x}" cy="{y}" r="{_U * 0.22}" fill="{color}" '
                        f'fill-opacity="0.45" stroke="{color}"/>',
                        f"move {frm} to {to} (1 credit)",
                    )
                )
            else:
                later.append(
                    _target(
                        "circle",
                        f'data-action="{a}" data-from="{frm}" cx="{x}" cy="{y}" '
                        f'r="{_U * 0.44}" fill="#ffd21f" fill-opacity="0.35" '
                        f'stroke="#b8860b" stroke-width="3"',
                        f"attack {to} from {frm}",
                    )
                )
            selectable.setdefault(frm, []).append(act)
    for cell in selectable:
        if cell == "walls":
            continue
        x, y = xy(cell)
        out.append(
            _target(
                "circle",
                f'data-select="{cell}" cx="{x}" cy="{y}" r="{_U * 0.4}" fill="#fff" '
                f'fill-opacity="0.01" stroke="{color}" stroke-width="1" stroke-opacity="0.6"',
                f"select {cell} ({len(selectable[cell])} actions)",
            )
        )
    return out + later


def _panel(view: JsonDict, x0: float, y0: float) -> tuple[list[str], float]:
    players = view["players"]
    out: list[str] = []
    y = y0
    out.append(f'<text x="{x0}" y="{y}" font-size="17" font-weight="bold">Citadel</text>')
    y += 24
    phase = view["phase"]
    if phase == "play" or phase == "over":
        out.append(
            f'<text x="{x0}" y="{y}" font-size="13" fill="#555">turn {view["turn"]} of '
            f"{view['max_turns']}</text>"
        )
        y += 22
    for p in (0, 1):
        mark = "▶ " if p in view["to_move"] else ""
        out.append(
            f'<text x="{x0}" y="{y}" font-size="15" fill="{_FILL[p]}">{mark}{players[p]}: '
            f"{view['scores'][p]} citadels, {view['warrior_counts'][p]} warriors</text>"
        )
        y += 22
    if view["outcome"] is not None:
        y += 6
        out.append(
            f'<text x="{x0}" y="{y}" font-size="14" font-weight="bold">'
            f"{escape(view['outcome']['reason'].split(':')[0])}</text>"
        )
        return out, y
    y += 6
    if phase == "setup":
        text = f"place citadel {len(view['citadels']) + 1} of 9"
    elif phase == "claim":
        text = "claim a neutral citadel"
    else:
        text = f"credits {view['credits']} · siege captures left {view['sieges_left']}"
    out.append(f'<text x="{x0}" y="{y}" font-size="15">{escape(text)}</text>')
    y += 24
    if any(a.startswith("wall ") for a in view["legal"]):
        out.append(
            _target(
                "rect",
                # 40 high: a finger's size on a phone, where the panel is drawn 1:1.
                f'data-select="walls" x="{x0}" y="{y}" width="130" height="40" rx="5" '
                f'fill="#6b6259" fill-opacity="0.15" stroke="#2e2a26"',
                "show where a wall can be built",
            )
        )
        out.append(
            f'<text x="{x0 + 65}" y="{y + 25}" text-anchor="middle" font-size="13" '
            f'pointer-events="none">build a wall…</text>'
        )
        y += 50
    sieged = [c["cell"] for c in view["citadels"] if c["besieged"]]
    if sieged:
        out.append(
            f'<text x="{x0}" y="{y}" font-size="13">besieged citadels: {" ".join(sieged)}</text>'
        )
        y += 20
    for g in view["besieged_groups"]:
        cells = " ".join(g["cells"][:6]) + (" …" if len(g["cells"]) > 6 else "")
        out.append(
            f'<text x="{x0}" y="{y}" font-size="12" fill="{_FILL[g["player"]]}">'
            f"no liberties: {cells}</text>"
        )
        y += 18
    return out, y


def button_words(action: str) -> tuple[str, str] | None:
    """Words for ``end``, the one action with no place on the board (see ``GameEntry``)."""
    if action == "end":
        return "End turn", "Finish your turn; your opponent moves next"
    return None


#: What the board's symbols mean, for the legend beside the board: (the body of a
#: 24x24 SVG icon, words).
LEGEND: tuple[tuple[str, str], ...] = (
    (
        (
            '<circle cx="12" cy="12" r="9" fill="#2f6fd6" stroke="#fff" stroke-width="1.5"/>'
            '<text x="12" y="16" text-anchor="middle" font-size="11" font-weight="bold"'
            ' fill="#fff" font-family="sans-serif">2</text>'
        ),
        "A blue warrior (a circle) and its strength",
    ),
    (
        (
            '<polygon points="12,1 23,12 12,23 1,12" fill="#d0392b" stroke="#fff"'
            ' stroke-width="1.5"/>'
            '<text x="12" y="16" text-anchor="middle" font-size="11" font-weight="bold"'
            ' fill="#fff" font-family="sans-serif">1</text>'
        ),
        "A red warrior (a diamond) and its strength",
    ),
    (
        (
            '<rect x="3" y="3" width="18" height="18" rx="3" fill="#e6e2d8" stroke="#777"'
            ' stroke-width="3"/>'
        ),
        "A citadel; held ones take their owner's colour and carry his shape in a corner",
    ),
    (
        (
            '<rect x="2" y="2" width="20" height="20" rx="3" fill="#6b6259" stroke="#2e2a26"'
            ' stroke-width="2"/>'
            '<text x="12" y="16" text-anchor="middle" font-size="11" fill="#f3efe8"'
            ' font-family="sans-serif">2</text>'
        ),
        "A wall over four points, and its strength",
    ),
    (
        (
            '<circle cx="12" cy="12" r="9" fill="#2f6fd6" stroke="#111" stroke-width="3"'
            ' stroke-dasharray="3 2"/>'
        ),
        "A dashed outline: besieged (no way out to a free point)",
    ),
)
