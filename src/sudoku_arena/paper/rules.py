"""The rules on paper: the game's RULES.md laid out on pages of their own, so a printout
teaches the game without a screen.

The text and the diagrams are those of the web's rules page: the same reading of
RULES.md (:mod:`sudoku_arena.core.markdown`) and the same inert diagrams
(:mod:`sudoku_arena.games.rulebook`), here drawn for paper (:mod:`.drawings`). Blocks
flow from page to page; a heading keeps some of what follows with it, and a diagram
keeps its caption.
"""

from __future__ import annotations

from collections.abc import Sequence

from sudoku_arena.core import markdown as md
from sudoku_arena.core.protocol import AnyGame
from sudoku_arena.games.rulebook import diagrams, player_rules_markdown, rules_markdown
from sudoku_arena.paper.drawings import beside
from sudoku_arena.paper.page import LEADING, Page, Paper, Run, svg_size, wrap

#: Font size of the text; headings by their number of ``#``.
_TEXT = 10.0
_HEADING = {1: 18.0, 2: 13.0, 3: 11.0}
#: Indent of a list's text per level (its bullet or number hangs before it).
_INDENT = 16.0
#: A diagram is at most this share of the page's height.
_FIGURE = 0.32
_CAPTION = 9.0
_CODE = 8.0


def rules_pages(game: AnyGame, paper: Paper) -> list[str]:
    """The pages of the game's rules for players (its README, the reference, for a game
    that has no RULES.md; none for a game with neither)."""
    game_id = game.spec.id
    text = player_rules_markdown(game_id) or rules_markdown(game_id)
    if text is None:
        return []
    flow = _Flow(paper, f"Sudoku Arena · {game.spec.name} v{game.spec.version} · rules")
    figures = {name: beside(d.board, d.panel) for name, d in diagrams(game_id).items()}
    flow.blocks(md.parse(text), figures)
    return flow.finish()


def runs(pieces: Sequence[md.Inline], *, bold: bool = False, italic: bool = False) -> list[Run]:
    """Pieces of a line as styled runs (a link as its words: paper does not follow it)."""
    out: list[Run] = []
    for p in pieces:
        if isinstance(p, md.Text):
            out.append(Run(p.text, bold, italic))
        elif isinstance(p, md.Code):
            out.append(Run(p.text, bold, italic, code=True))
        elif isinstance(p, md.Emphasis):
            out += runs(p.children, bold=bold or p.strong, italic=italic or not p.strong)
        else:
            out += runs(p.children, bold=bold, italic=italic)
    return out


class _Flow:
    """Pages filled one block after another."""

    def __init__(self, paper: Paper, footer: str) -> None:
        self.paper = paper
        self.footer = footer
        self.pages: list[str] = []
        self.page = Page(paper)

    def finish(self) -> list[str]:
        self.pages.append(self.page.svg(self.footer))
        return self.pages

    def room_for(self, height: float) -> None:
        """Go on to a new page unless ``height`` fits on this one (or it is still empty)."""
        if self.page.room < height and self.page.parts:
            self.pages.append(self.page.svg(self.footer))
            self.page = Page(self.paper)

    def text(
        self,
        pieces: Sequence[Run],
        size: float = _TEXT,
        *,
        indent: float = 0,
        label: str = "",
        gap: float = 5,
    ) -> None:
        """Wrapped text that may go on over a page break, two lines at least together."""
        lines = wrap(pieces, self.page.width - indent, size)
        self.room_for(min(2, len(lines)) * size * LEADING)
        for k, line in enumerate(lines):
            self.room_for(size * LEADING)
            self.page.line(line, size, indent=indent, label="" if k else label)
        self.page.y += gap

    def blocks(self, blocks: Sequence[md.Block], figures: dict[str, str]) -> None:
        for b in blocks:
            if isinstance(b, md.Heading):
                self.heading(b)
            elif isinstance(b, md.Paragraph):
                self.text(runs(b.text))
            elif isinstance(b, md.ListBlock):
                self.list(b, 1)
                self.page.y += 3
            elif isinstance(b, md.Table):
                self.table(b)
            elif isinstance(b, md.CodeBlock):
                for line in b.text.splitlines():
                    self.text([Run(line, code=True)], _CODE, gap=0)
                self.page.y += 5
            elif isinstance(b, md.Figure):
                self.figure(figures.get(b.name), b)
            elif isinstance(b, md.Summary):
                self.text(runs(b.text, bold=True))
            else:
                self.blocks(b.blocks, figures)

    def heading(self, b: md.Heading) -> None:
        size = _HEADING.get(b.level, _TEXT)
        space = 0 if b.level == 1 else size * 0.6
        # A heading does not end a page: it keeps a few lines (or a diagram's top) with it.
        self.room_for(space + size * LEADING + 4 * _TEXT * LEADING)
        if self.page.parts:
            self.page.y += space
        self.text(runs(b.text, bold=True), size, gap=3)

    def list(self, b: md.ListBlock, depth: int) -> None:
        for k, item in enumerate(b.items, start=1):
            label = f"{k}." if b.ordered else ("•" if depth == 1 else "–")
            self.text(runs(item.text), indent=_INDENT * depth, label=label, gap=2)
            for nested in item.lists:
                self.list(nested, depth + 1)

    def table(self, b: md.Table) -> None:
        """Cells wrapped in columns as wide as their text needs, the head in bold."""
        if not b.rows:
            return
        n = max(len(r) for r in b.rows)
        pad, size = 4.0, 9.0
        widths = _columns(b.rows, n, self.page.width, pad, size)
        for r, row in enumerate(b.rows):
            cells = [
                wrap(runs(row[c] if c < len(row) else (), bold=r == 0), widths[c] - 2 * pad, size)
                for c in range(n)
            ]
            height = max(len(c) for c in cells) * size * LEADING + 2 * pad
            self.room_for(height)
            top = self.page.y
            x = pad
            for c, lines in enumerate(cells):
                self.page.y = top + pad - size * 0.2
                for line in lines:
                    self.page.line(line, size, indent=x)
                x += widths[c]
            self.page.y = top + height
            self.page.parts.append(
                f'<line x1="{self.page.left:.2f}" y1="{self.page.y:.2f}" '
                f'x2="{self.page.left + self.page.width:.2f}" y2="{self.page.y:.2f}" '
                f'stroke="#000" stroke-width="{0.8 if r == 0 else 0.4}"/>'
            )
        self.page.y += 8

    def figure(self, svg: str | None, b: md.Figure) -> None:
        caption = runs(b.caption, italic=True)
        if svg is None:  # as the web page shows it; a test refuses it there
            self.text([Run(f"(diagram {b.name} is missing)", italic=True)])
            return
        w, h = svg_size(svg)
        high = min(self.page.width / w * h, self.paper.height * _FIGURE)
        lines = wrap(caption, self.page.width, _CAPTION)
        self.room_for(high + 6 + len(lines) * _CAPTION * LEADING)
        self.page.drawing(svg, max_height=high, gap=4)
        for line in lines:
            self.page.line(line, _CAPTION)
        self.page.y += 10


def _columns(
    rows: Sequence[Sequence[Sequence[md.Inline]]], n: int, width: float, pad: float, size: float
) -> list[float]:
    """Column widths: each column as wide as its widest cell unwrapped when that fits;
    otherwise the narrow columns keep their width and the wide ones share the rest."""

    def need(c: int) -> float:
        return (
            max(
                sum(r.width(size) for r in runs(row[c], bold=k == 0)) if c < len(row) else 0.0
                for k, row in enumerate(rows)
            )
            + 2 * pad
        )

    natural = [need(c) for c in range(n)]
    fixed: dict[int, float] = {}
    while True:
        left = width - sum(fixed.values())
        open_ = [c for c in range(n) if c not in fixed]
        share = left / max(1, len(open_))
        narrow = {c: natural[c] for c in open_ if natural[c] <= share}
        if not narrow or len(narrow) == len(open_):
            fixed.update(narrow)
            break
        fixed.update(narrow)
    left = width - sum(fixed.values())
    open_ = [c for c in range(n) if c not in fixed]
    if not open_:  # every column fits: the last one takes the rest of the line
        return [natural[c] + (left if c == n - 1 else 0.0) for c in range(n)]
    wide = sum(natural[c] for c in open_)
    return [fixed[c] if c in fixed else left * natural[c] / wide for c in range(n)]
