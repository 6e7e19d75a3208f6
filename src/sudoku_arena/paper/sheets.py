"""Print-and-play sheets: per game, what a table needs to play on paper.

Every board on a sheet is the game's own SVG drawing (its registered ``render_svg``) of
the public view of the starting position, made for paper (:mod:`.drawings`: nothing to
click, no screen prompts) under the print stylesheet of :mod:`.page`. Around it the
sheet adds only paper furniture: the sheet's id and the command that enters a paper
game afterwards, a rules box (the game's own summary), and boxes to write in. The
rules in full follow the sheets of a printout (:mod:`.rules`).

=============== ==========================================================================
game            pages of one copy
=============== ==========================================================================
Tic-Tac-Sudoku  the grid with its numbers, a rules box, a score tally
Sudoku Warriors the hilltop map, a key per player, a battle tally
Cat Sudoku      one sheet per player (the cat shape, the Wild Counter), scoring boxes
SuDokuHex       the board with the starting tiles, the set-up steps, a score tally; a
                page of the tiles with cut lines
Citadel         the board at its size, a rules box
=============== ==========================================================================
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from sudoku_arena.core.match import Match
from sudoku_arena.core.protocol import AnyGame
from sudoku_arena.core.types import JsonDict
from sudoku_arena.grids.hex import hex_corners
from sudoku_arena.paper.drawings import drawing, paper_view
from sudoku_arena.paper.page import Page, Paper, Run


class Copy(NamedTuple):
    """One copy of a sheet: the game as ``load(id, seed=seed, **params)`` set it up."""

    game: AnyGame
    seed: int


#: Builds the pages (SVG documents) of one copy of a game's sheet.
SheetMaker = Callable[[Copy, Paper], list[str]]

#: Params a command line never needs to repeat: filled in by the game itself.
_DERIVED = {"players", "sheet_sha256"}


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


def play_command(game: AnyGame, seed: int | None = None) -> str:
    """The ``sudoku-arena play`` command that sets up the same game for entering the
    moves of a game played on this sheet (people in every seat); with ``seed`` for a
    sheet whose set-up the engine draws from it (SuDokuHex's starting tiles)."""
    params = game.params
    words = ["sudoku-arena play", game.spec.id, "--players", ",".join(["human"] * game.num_players)]
    if seed is not None:
        words += ["--seed", str(seed)]
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


def _head(page: Page, game: AnyGame, title: str, seed: int | None = None) -> None:
    """The sheet's title and id, where its rules are, and the command that enters a game
    played on it."""
    page.text(f"{game.spec.name}: {title}", 16, bold=True, gap=2)
    ident = sheet_id(game)
    if ident:
        page.text(ident, 8, gap=1)
    page.text("The rules in full, with diagrams: the last pages of this printout.", 8, gap=1)
    page.text("To enter a game played on this sheet: " + play_command(game, seed), 7, gap=8)


def _rules(page: Page, game: AnyGame, extra: list[str]) -> None:
    """The game in brief, for a table that knows it already."""
    page.frame([game.spec.summary, *extra])


def _footer(game: AnyGame) -> str:
    ident = sheet_id(game)
    return f"Sudoku Arena · {game.spec.name} v{game.spec.version}" + (
        f" · {ident}" if ident else ""
    )


def tic_tac_sudoku(copy: Copy, paper: Paper) -> list[str]:
    """The grid large enough to write in, the rules, a score tally."""
    game = copy.game
    page = Page(paper)
    _head(page, game, "sheet")
    view = paper_view(game, game.initial_state(), None)
    page.drawing(drawing(game, view), max_height=paper.height * 0.5)
    _rules(page, game, [f"Target: {game.params.get('target')} points win at once."])
    page.boxes(["player", "name", "points"], 2, first=list(view["players"]), row_height=26)
    return [page.svg(_footer(game))]


def sudoku_warriors(copy: Copy, paper: Paper) -> list[str]:
    """The hilltop map (provinces, villages and their resources), a key per player,
    a battle tally."""
    game = copy.game
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


def cat_sudoku(copy: Copy, paper: Paper) -> list[str]:
    """One sheet per player: the cat, the dice and the Wild Counter (shared by the
    table: keep it on one sheet), and scoring boxes."""
    game = copy.game
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


def sudokuhex(copy: Copy, paper: Paper) -> list[str]:
    """The board with the starting tiles, the set-up step by step and a score tally;
    then the tiles of the pile to cut out.

    The starting tiles are where the engine puts them for this seed: the set-up a
    match from the seed plays (``sudoku-arena play sudokuhex --seed N``, the printed
    command). Only the public view is drawn: the hands dealt with it stay unseen."""
    game, seed = copy
    view = paper_view(game, Match(game, seed=seed).state, None)
    page = Page(paper)
    _head(page, game, "board", seed)
    page.drawing(drawing(game, view), max_height=paper.height * 0.42)
    page.text("Set-up", 10, bold=True, gap=2)
    for k, step in enumerate(hex_setup(view), start=1):
        page.rich([Run(step)], 9, indent=14, label=f"{k}.", gap=1)
    page.y += 6
    _rules(page, game, [])
    page.boxes(["player", "name", "points"], len(view["players"]), first=list(view["players"]))
    return [page.svg(_footer(game)), _tiles(game, seed, view, paper)]


def hex_setup(view: JsonDict) -> list[str]:
    """SuDokuHex's set-up at a table, step by step, for the public view of a game whose
    starting tiles are on the board: where they are, what to do with the rest."""
    starts = [f"{v} on {name}" for v, name in enumerate(view["start"], start=1)]
    pile = sum(int(c) for c in view["unseen"])  # the pile and the hands, all face down
    players = [str(p) for p in view["players"]]
    first = players[int(view["turn"])]
    who = "The player" if len(players) == 1 else f"Each player ({', '.join(players)})"
    return [
        f"Cut out the {pile} tiles of the next page along the dashed lines.",
        f"The {len(starts)} starting tiles are printed on the board, each in its own "
        f"honeycomb: {', '.join(starts)}.",
        f"Turn the {pile} tiles face down and shuffle them: they are the pile.",
        f"{who} draws one tile from the pile and keeps it secret.",
        f"{first.capitalize()} plays first"
        + ("." if len(players) == 1 else ", then the others in the order above."),
    ]


def _tiles(game: AnyGame, seed: int, view: JsonDict, paper: Paper) -> str:
    """Every tile of the pile (counts from the view's unseen tiles), as hexagons with
    dashed cut lines, the same shape as the board's hexes (``grids.hex``)."""
    page = Page(paper)
    _head(page, game, "tiles (cut along the dashed lines)", seed)
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


def citadel(copy: Copy, paper: Paper) -> list[str]:
    """The board at its size (fits a Go board's proportions), with the rules."""
    game = copy.game
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
