"""A recorded game on paper: the final position, the outcome, the moves in notation.

What is printed is what a spectator may know, built from views only:

* the final position is drawn from the public view (``game.view(state, None)``);
* an unfinished game's moves pass through ``game.public_action`` (a secret draw reads
  ``draw``), exactly as the move log of the web page shows them;
* only once the game is over (its secret revealed in the record) are the moves printed
  as recorded and, for games with hidden information or simultaneous sheets, each
  seat's own view of the end drawn as well (SuDokuHex: the hands, Cat Sudoku: every
  player's sheet).
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from sudoku_arena.core.match import LogEntry
from sudoku_arena.core.protocol import AnyGame
from sudoku_arena.core.record import Record, replay
from sudoku_arena.core.types import Outcome
from sudoku_arena.paper.drawings import drawing, paper_view
from sudoku_arena.paper.page import Page, Paper
from sudoku_arena.paper.sheets import sheet_id

_MOVE_SIZE = 8.0
_MOVE_LINE = 10.5
_COLUMNS = 4


def record_pages(record: Record, paper: Paper) -> list[str]:
    """The pages of ``record`` (replayed first: a record that does not replay raises
    ``RecordError``/``ReplayMismatchError`` and nothing is printed)."""
    game, states = replay(record)
    return game_pages(game, states[-1], record.actions, record.players, record.outcome, paper)


def game_pages(
    game: AnyGame,
    final: object,
    log: Sequence[LogEntry],
    players: Sequence[str],
    outcome: Outcome | None,
    paper: Paper,
) -> list[str]:
    """The pages of a game that reached ``final`` through ``log``. ``outcome`` is the
    recorded one (``None`` while the game goes on); it decides what may be shown."""
    finished = outcome is not None
    public = paper_view(game, final, None)
    names = [str(n) for n in public.get("players") or []]
    footer = f"Sudoku Arena · {game.spec.name} v{game.spec.version} · game record"
    pages: list[str] = []
    page = Page(paper)
    page.text(f"{game.spec.name}: game record", 16, bold=True, gap=2)
    seats = ", ".join(
        f"{names[k] if k < len(names) else f'seat {k + 1}'} = {p}" for k, p in enumerate(players)
    )
    page.text(f"Seats: {seats}", 9, gap=1)
    ident = sheet_id(game)
    if ident:
        page.text(ident, 8, gap=1)
    page.text(_result(outcome, names, len(log)), 10, bold=True, gap=8)
    page.drawing(drawing(game, public), max_height=paper.height * 0.5)
    if finished and (game.spec.hidden_information or game.spec.simultaneous):
        pages.append(page.svg(footer))
        page = _seat_views(game, final, names, paper, pages, footer)
    moves = [_move_text(game, e, names, finished) for e in log]
    if page.room < 8 * _MOVE_LINE:  # a list does not start in the last lines of a page
        pages.append(page.svg(footer))
        page = Page(paper)
    page.text(f"Moves ({len(moves)})", 10, bold=True, gap=2)
    while True:
        moves = _move_columns(page, moves)
        pages.append(page.svg(footer))
        if not moves:
            break
        page = Page(paper)
        page.text(f"{game.spec.name}: moves (continued)", 10, bold=True, gap=2)
    return pages


def _result(outcome: Outcome | None, names: list[str], plies: int) -> str:
    if outcome is None:
        return f"Not over: {plies} moves so far (hidden information stays hidden)."
    scores = ", ".join(
        f"{names[k] if k < len(names) else k + 1} {s:g}" for k, s in enumerate(outcome.scores)
    )
    return f"{outcome.reason} (scores: {scores})"


def _seat_views(
    game: AnyGame, final: object, names: list[str], paper: Paper, pages: list[str], footer: str
) -> Page:
    """Each seat's own view of the end, two to a page; returns the last page, unfinished."""
    page = Page(paper)
    for seat in range(game.num_players):
        if seat and seat % 2 == 0:
            pages.append(page.svg(footer))
            page = Page(paper)
        who = names[seat] if seat < len(names) else f"seat {seat + 1}"
        page.text(f"At the end, as {who} saw it", 10, bold=True, gap=2)
        view = paper_view(game, final, seat)
        page.drawing(drawing(game, view), max_height=(paper.height - 120) / 2)
    return page


def _move_text(game: AnyGame, entry: LogEntry, names: list[str], finished: bool) -> str:
    action = entry.action if finished else game.public_action(entry.action)
    if entry.actor is None:
        who = "chance"
    else:
        who = names[entry.actor] if entry.actor < len(names) else f"seat {entry.actor + 1}"
    return f"{entry.ply + 1}. {who} {action}"


def _move_columns(page: Page, moves: list[str]) -> list[str]:
    """Put as many moves as fit on ``page`` in columns; return the rest.

    When the rest would be a few lines on a page of their own, the lines close up a
    little (down to 85 %) so that the list ends on this page instead."""
    line = _MOVE_LINE
    rows = max(1, int(page.room // line))
    needed = -(-len(moves) // _COLUMNS)
    if rows < needed <= int(page.room // (_MOVE_LINE * 0.85)):
        rows, line = needed, page.room / needed
    col_w = page.width / _COLUMNS
    fit = moves[: rows * _COLUMNS]
    for k, text in enumerate(fit):
        c, r = divmod(k, rows)
        x = page.left + c * col_w
        y = page.y + (r + 1) * line
        page.parts.append(
            f'<text x="{x:.2f}" y="{y:.2f}" font-size="{_MOVE_SIZE}">{escape(text)}</text>'
        )
    page.y += min(rows, len(fit)) * line
    return moves[len(fit) :]
