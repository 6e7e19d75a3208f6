"""One printed page as an SVG document: paper sizes, margins, the print stylesheet.

A page is laid out top to bottom in points (1/72 inch) inside the paper's margins. The
drawings on it are the games' own SVG renderings, embedded unchanged as nested ``<svg>``
elements and scaled to fit; the page adds only what paper needs around them (titles,
text boxes, blank boxes to write in). :data:`PRINT_STYLE` turns screen-only parts off:
click targets and selection overlays are hidden, and page backgrounds print white.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass, field
from html import escape

#: Page margin on every side, in points (half an inch, about 12.7 mm).
MARGIN = 36.0


@dataclass(frozen=True, slots=True)
class Paper:
    """A paper size in points, portrait."""

    name: str
    width: float
    height: float


PAPERS: dict[str, Paper] = {
    "a4": Paper("a4", 595.28, 841.89),
    "letter": Paper("letter", 612.0, 792.0),
}

#: Screen-only parts off, whatever a renderer draws: every clickable or selectable
#: element (the two click conventions, see docs/architecture.md) and the tinted
#: background each board lays under its drawing. Black text and lines stay as drawn;
#: most games tell players apart by shape (circle, square) as well as colour.
PRINT_STYLE = (
    ".target, [data-action], [data-select], [data-from] { display: none }"
    " svg.board > rect:first-child { fill: #ffffff }"
    # Large areas of ink made light: Citadel's wooden board, the fur around a cat.
    " svg.citadel > rect:nth-child(2) { fill: #ffffff }"
    " svg.cat-sudoku rect[fill='#8a6f55'] { fill: #c4c4c4 }"
    # Citadel tells its sides apart by colour only, and its blue and red print as the
    # same grey: on paper red is hollow (white with a black ring), like Go's white stones.
    " svg.citadel circle[fill='#d0392b'] { fill: #ffffff; stroke: #000000; stroke-width: 2 }"
    " svg.citadel circle[fill='#d0392b'] + text { fill: #000000 }"
    " svg.citadel rect[fill='#f5c0b9'] { fill: #ffffff; stroke: #000000 }"
    # One font for every renderer of the page (PDF and browser alike), where installed.
    " svg, text { font-family: 'DejaVu Sans', sans-serif }"
)

_SVG_OPEN = re.compile(r"<svg\b([^>]*)>", re.DOTALL)
_VIEWBOX = re.compile(r'viewBox="\s*([-\d.]+)[\s,]+([-\d.]+)[\s,]+([-\d.]+)[\s,]+([-\d.]+)\s*"')
#: Average advance of a DejaVu/Liberation sans glyph, as a share of the font size;
#: used to wrap text before it reaches the right margin.
_CHAR_WIDTH = 0.52
#: Height kept for the footer line above the bottom margin.
_FOOTER = 14.0


def svg_size(svg: str) -> tuple[float, float]:
    """The width and height of ``svg``'s viewBox (every renderer gives one)."""
    head = _SVG_OPEN.search(svg)
    box = _VIEWBOX.search(head.group(1)) if head else None
    if box is None:
        raise ValueError("the drawing has no viewBox")
    return float(box.group(3)), float(box.group(4))


def embed(svg: str, x: float, y: float, width: float, height: float) -> str:
    """``svg`` placed in the box (x, y, width, height), scaled to fit, centred."""
    head = _SVG_OPEN.search(svg)
    if head is None:
        raise ValueError("not an SVG drawing")
    attrs = f' x="{x:.2f}" y="{y:.2f}" width="{width:.2f}" height="{height:.2f}"'
    return svg[: head.start()] + f"<svg{attrs}{head.group(1)}>" + svg[head.end() :]


@dataclass
class Page:
    """A page being laid out; ``y`` is where the next block goes."""

    paper: Paper
    parts: list[str] = field(default_factory=list)
    y: float = MARGIN
    inset: float = 0.0  # extra indent on both sides (text inside a frame)

    @property
    def left(self) -> float:
        return MARGIN + self.inset

    @property
    def width(self) -> float:
        """The width between the margins."""
        return self.paper.width - 2 * (MARGIN + self.inset)

    @property
    def bottom(self) -> float:
        """Where blocks end: above the footer line, which sits on the bottom margin."""
        return self.paper.height - MARGIN - _FOOTER

    @property
    def room(self) -> float:
        """The height left above the bottom margin."""
        return self.bottom - self.y

    def text(self, text: str, size: float = 10, *, bold: bool = False, gap: float = 4) -> None:
        """One block of text, wrapped to the page width."""
        weight = ' font-weight="bold"' if bold else ""
        chars = max(10, int(self.width / (size * _CHAR_WIDTH)))
        for line in textwrap.wrap(text, chars, break_on_hyphens=False) or [""]:
            self.y += size
            self.parts.append(
                f'<text x="{self.left:.2f}" y="{self.y:.2f}" font-size="{size}"{weight}>'
                f"{escape(line)}</text>"
            )
            self.y += size * 0.3
        self.y += gap

    def drawing(self, svg: str, max_height: float | None = None, gap: float = 10) -> None:
        """A game's drawing, as wide as the page allows (and at most ``max_height``)."""
        w, h = svg_size(svg)
        room = self.room if max_height is None else min(max_height, self.room)
        scale = min(self.width / w, room / h)
        dw, dh = w * scale, h * scale
        self.parts.append(embed(svg, self.left + (self.width - dw) / 2, self.y, dw, dh))
        self.y += dh + gap

    def boxes(
        self, heads: list[str], rows: int, *, row_height: float = 22, first: Sequence[str] = ()
    ) -> None:
        """A table of empty boxes to write in: ``heads`` across, ``rows`` down; the first
        column may carry a label per row (``first``)."""
        n = len(heads)
        cw = self.width / n
        out = self.parts
        top = self.y
        for c, head in enumerate(heads):
            out.append(
                f'<text x="{self.left + c * cw + 4:.2f}" y="{top + 11:.2f}" font-size="9" '
                f'font-weight="bold">{escape(head)}</text>'
            )
        top += 15
        for r in range(rows):
            yy = top + r * row_height
            for c in range(n):
                out.append(
                    f'<rect x="{self.left + c * cw:.2f}" y="{yy:.2f}" width="{cw:.2f}" '
                    f'height="{row_height}" fill="none" stroke="#000" stroke-width="0.6"/>'
                )
            if r < len(first):
                out.append(
                    f'<text x="{self.left + 4:.2f}" y="{yy + row_height - 7:.2f}" '
                    f'font-size="9">{escape(first[r])}</text>'
                )
        self.y = top + rows * row_height + 10

    def frame(self, lines: list[str], size: float = 9) -> None:
        """Text in a thin frame (a rules box)."""
        start = len(self.parts)
        top = self.y
        self.y += 6
        inner = Page(self.paper, self.parts, self.y, inset=self.inset + 8)
        for line in lines:
            inner.text(line, size, gap=2)
        self.y = inner.y + 4
        self.parts.insert(
            start,
            f'<rect x="{self.left:.2f}" y="{top:.2f}" width="{self.width:.2f}" '
            f'height="{self.y - top:.2f}" fill="none" stroke="#000" stroke-width="0.8"/>',
        )
        self.y += 10

    def svg(self, footer: str = "") -> str:
        """The finished page as one SVG document sized to its paper."""
        p = self.paper
        foot = (
            f'<text x="{MARGIN:.2f}" y="{p.height - MARGIN - 3:.2f}" font-size="7" '
            f'fill="#444">{escape(footer)}</text>'
            if footer
            else ""
        )
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{p.width}pt" height="{p.height}pt" '
            f'viewBox="0 0 {p.width} {p.height}" font-family="sans-serif">'
            f"<style>{PRINT_STYLE}</style>"
            f'<rect x="0" y="0" width="{p.width}" height="{p.height}" fill="#ffffff"/>'
            + "".join(self.parts)
            + foot
            + "</svg>"
        )
