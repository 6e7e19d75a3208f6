"""Print-and-play sheets: per game, what a table needs to play on paper.

Every board on a sheet is the game's own SVG drawing (its registered ``render_svg``) of
the public view of the starting position, with no legal actions in it (nobody clicks
on paper) and the print stylesheet of :mod:`sudoku_arena.paper.page`. Around it the
sheet adds only paper furniture: the sheet's id and the command that enters a paper
game afterwards, a rules box (the game's own summary), and boxes to write in.

=============== ==========================================================================
game            pages of one copy
=============== ==========================================================================
Tic-Tac-Sudoku  the grid with its numbers, a rules box, a score tally
Sudoku Warriors the hilltop map, a key per player, a battle tally
Cat Sudoku      one sheet per player (the cat shape, the Wild Counter), scoring boxes
SuDokuHex       the board and a score tally; a page of the tiles with cut lines
Citadel         the board at its size, a rules box
=============== ==========================================================================
"""

from __future__ import annotations

from collections.abc import Callable

from sudoku_arena.core.protocol import AnyGame
from sudoku_arena.core.registry import entry_of
from sudoku_arena.core.types import JsonDict
from sudoku_arena.grids.hex import hex_corners
from sudoku_arena.paper.page import Page, Paper, embed, svg_size

#: Builds the pages (SVG documents) of one copy of a game's sheet.
SheetMaker = Callable[[AnyGame, Paper], list[str]]

#: Params a command line never needs to repeat: filled in by the game itself.
_DERIVED = {"players", "sheet_sha256"}


def paper_view(game: AnyGame, state: object, observer: int | None) -> JsonDict:
    """``game.view(state, observer)`` with no legal actions: paper has nothing to click,
    so no renderer draws targets or highlights for them."""
    view = dict(game.view(state, observer))
    view["legal"] = []
    return view


def drawing(game: AnyGame, view: JsonDict) -> str:
    """The game's own SVG drawing of ``view``: its board, with its panel (scores, hands,
    dice) beside it as on a screen, in one drawing."""
    entry = entry_of(game)
    board = entry.render_svg(view)
    if entry.render_panel is None:
        return board
    panel = entry.render_panel(view)
    bw, bh = svg_size(board)
    pw, ph = svg_size(panel)
    gap = 12.0
    width, height = bw + gap + pw, max(bh, ph)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:.2f} {height:.2f}">'
        + embed(board, 0, 0, bw, bh)
        + embed(panel, bw + gap, 0, pw, ph)
        + "</svg>"
    )


def sheet_id(game: AnyGame) -> str:
    """What identifies this sheet's set-up, printed on it: the grid's 81 digits, the
    Cat Sudoku sheet by name (or its SHA-256 when it is not a shipped sheet)."""
    params = game.params
    parts = []
    if "grid" in params:
        parts.append(f"grid {params['grid']}")
    if "sheet" in params:
        sheet = str(params["sheet"])
        if "\n" in sheet:
            parts.append(f"sheet sha256 {params.get('sheet_sha256', '')}")
        else:
            parts.append(f"sheet {sheet}")
    return ", ".join(parts)


def play_command(game: AnyGame) -> str:
    """The ``sudoku-arena play`` command that sets up the same game for entering the
    moves of a game played on this sheet (people in every seat)."""
    params = game.params
    words = ["sudoku-arena play", game.spec.id, "--players", ",".join(["human"] * game.num_players)]
    for spec in game.spec.params:
        if spec.name in _DERIVED or spec.name not in params:
            continue
        value = params[spec.name]
        if spec.name == "grid":
            words += ["--grid", str(value)]
        elif spec.name == "sheet" and "\n" in str(value):
            words += ["--sheet", "SHEET_FILE"]
        elif value != spec.default or spec.name == "sheet":
            shown = str(value).lower() if isinstance(value, bool) else str(value)
            words += ["--param", f"{spec.name}={shown}"]
    return " ".join(words)


def _head(page: Page, game: AnyGame, title: str) -> None:
    page.text(f"{game.spec.name}: {title}", 16, bold=True, gap=2)
    ident = sheet_id(game)
    if ident:
        page.text(ident, 8, gap=1)
    page.text("To enter a game played on this sheet: " + play_command(game), 7, gap=8)


def _rules(page: Page, game: AnyGame, extra: list[str]) -> None:
    page.frame(
        [
            game.spec.summary,
            *extra,
            f"Full rules: the game's page /rules/{game.spec.id} of the Sudoku Arena server "
            "(sudoku-arena serve).",
        ]
    )


def _footer(game: AnyGame) -> str:
    ident = sheet_id(game)
    return f"Sudoku Arena · {game.spec.name} v{game.spec.version}" + (
        f" · {ident}" if ident else ""
    )


def tic_tac_sudoku(game: AnyGame, paper: Paper) -> list[str]:
    """The grid large enough to write in, the rules, a score tally."""
    page = Page(paper)
    _head(page, game, "sheet")
    view = paper_view(game, game.initial_state(), None)
    page.drawing(drawing(game, view), max_height=paper.height * 0.5)
    _rules(page, game, [f"Target: {game.params.get('target')} points win at once."])
    page.boxes(["player", "name", "points"], 2, first=list(view["players"]), row_height=26)
    return [page.svg(_footer(game))]


def sudoku_warriors(game: AnyGame, paper: Paper) -> list[str]:
    """The hilltop map (provinces, villages and their resources), a key per player,
    a battle tally."""
    page = Page(paper)
    _head(page, game, "map")
    view = paper_view(game, game.initial_state(), None)
    page.drawing(drawing(game, view), max_height=paper.height * 0.48)
    players = list(view["players"])
    page.text("Players: one symbol each (the symbol shows who holds a hilltop)", 9, bold=True)
    page.boxes(["symbol", "name", "provinces won"], len(players), first=players, row_height=20)
    page.text("Battles", 9, bold=True)
    page.boxes(
        ["province", *[f"{p} bid" for p in players], "winner"],
        9,
        first=[f"b{b}" for b in range(1, 10)],
        row_height=17,
    )
    return [page.svg(_footer(game))]


def cat_sudoku(game: AnyGame, paper: Paper) -> list[str]:
    """One sheet per player: the cat, the dice and the Wild Counter (shared by the
    table: keep it on one sheet), and scoring boxes."""
    pages = []
    state = game.initial_state()
    for seat in range(game.num_players):
        view = paper_view(game, state, seat)
        page = Page(paper)
        _head(page, game, f"{view['players'][seat]}'s sheet")
        # The sheet as large as the page allows below it: scoring boxes and rules.
        page.drawing(drawing(game, view), max_height=page.room - 165)
        page.text("Scoring (at the end)", 9, bold=True)
        name, start = view["players"][seat], view["scores"][seat]
        page.boxes(
            ["player", "circles (-)", "diagonal sets (-)", "score"],
            1,
            first=[f"{name} (starts at {start})"],
            row_height=28,
        )
        _rules(page, game, ["The Wild Counter is shared by the table: mark it on one sheet."])
        pages.append(page.svg(_footer(game)))
    return pages


def sudokuhex(game: AnyGame, paper: Paper) -> list[str]:
    """The board with a score tally, then the tiles to cut out."""
    state = game.initial_state()
    view = paper_view(game, state, None)
    page = Page(paper)
    _head(page, game, "board")
    page.drawing(drawing(game, view), max_height=paper.height * 0.5)
    _rules(page, game, ["Cut out the tiles of the next page; shuffle them face down."])
    page.boxes(["player", "name", "points"], len(view["players"]), first=list(view["players"]))
    return [page.svg(_footer(game)), _tiles(game, view, paper)]


def _tiles(game: AnyGame, view: JsonDict, paper: Paper) -> str:
    """Every tile of the pile (counts from the view's unseen tiles), as hexagons with
    dashed cut lines, the same shape as the board's hexes (``grids.hex``)."""
    page = Page(paper)
    _head(page, game, "tiles (cut along the dashed lines)")
    counts = [int(c) for c in view["unseen"]]
    radius = 30.0
    # A hexagon of the board's geometry, centred on the origin.
    corners = hex_corners(0, radius)
    cx = sum(x for x, _ in corners) / 6
    cy = sum(y for _, y in corners) / 6
    shape = [(x - cx, y - cy) for x, y in corners]
    w = max(x for x, _ in shape) - min(x for x, _ in shape)
    h = max(y for _, y in shape) - min(y for _, y in shape)
    per_row = max(1, int(page.width // (w + 6)))
    k = 0
    for number, count in enumerate(counts, start=1):
        for _ in range(count):
            r, c = divmod(k, per_row)
            x = page.left + w / 2 + c * (w + 6)
            y = page.y + h / 2 + r * (h + 6)
            points = " ".join(f"{x + dx:.1f},{y + dy:.1f}" for dx, dy in shape)
            page.parts.append(
                f'<polygon points="{points}" fill="none" stroke="#000" stroke-width="0.8" '
                'stroke-dasharray="4 3"/>'
                f'<text x="{x:.1f}" y="{y + 9:.1f}" text-anchor="middle" font-size="26" '
                f'font-weight="bold">{number}</text>'
            )
            k += 1
    return page.svg(_footer(game))


def citadel(game: AnyGame, paper: Paper) -> list[str]:
    """The board at its size (fits a Go board's proportions), with the rules."""
    page = Page(paper)
    _head(page, game, f"board {game.params.get('size')}x{game.params.get('size')}")
    view = paper_view(game, game.initial_state(), None)
    page.drawing(drawing(game, view), max_height=paper.height * 0.62)
    _rules(page, game, [])
    return [page.svg(_footer(game))]


#: The sheet of each game, by id (paper is made per game, as a table needs it).
SHEETS: dict[str, SheetMaker] = {
    "tic-tac-sudoku": tic_tac_sudoku,
    "sudoku-warriors": sudoku_warriors,
    "cat-sudoku": cat_sudoku,
    "sudokuhex": sudokuhex,
    "citadel": citadel,
}
