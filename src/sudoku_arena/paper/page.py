"""One printed page as an SVG document: paper sizes, margins, the print stylesheet.

A page is laid out top to bottom in points (1/72 inch) inside the paper's margins. The
drawings on it are the games' own SVG renderings, embedded unchanged as nested ``<svg>``
elements and scaled to fit; the page adds only what paper needs around them (titles,
text boxes, blank boxes to write in). :data:`PRINT_STYLE` turns screen-only parts off:
click targets and selection overlays are hidden, and page backgrounds print white.
"""

from __future__ import annotations

import re
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
    # Large areas of ink made light: Citadel's wooden board, the fur around a cat (not
    # in the rules' diagrams, whose words name the colours: "the brown squares").
    " svg.citadel > rect:nth-child(2) { fill: #ffffff }"
    " svg.cat-sudoku:not(.rules-board) rect[fill='#8a6f55'] { fill: #c4c4c4 }"
    # Citadel tells its sides apart by colour only, and its blue and red print as the
    # same grey: on a sheet red is hollow (white with a black ring), like Go's white
    # stones; the rules' diagrams keep the red their captions speak of.
    " svg.citadel:not(.rules-board) circle[fill='#d0392b']"
    " { fill: #ffffff; stroke: #000000; stroke-width: 2 }"
    " svg.citadel:not(.rules-board) circle[fill='#d0392b'] + text { fill: #000000 }"
    " svg.citadel:not(.rules-board) rect[fill='#f5c0b9'] { fill: #ffffff; stroke: #000000 }"
    # One font for every renderer of the page (PDF and browser alike), where installed.
    " svg, text { font-family: 'DejaVu Sans', sans-serif }"
)

_SVG_OPEN = re.compile(r"<svg\b([^>]*)>", re.DOTALL)
_PLACE = re.compile(r'\s(?:x|y|width|height)="[^"]*"')
_VIEWBOX = re.compile(r'viewBox="\s*([-\d.]+)[\s,]+([-\d.]+)[\s,]+([-\d.]+)[\s,]+([-\d.]+)\s*"')
#: Advance of each printable ASCII character (space to ``~``) in DejaVu Sans, the print
#: font, in thousandths of the font size: styled text is wrapped by measuring it.
_ADVANCE = (
    318, 401, 460, 838, 636, 950, 780, 275, 390, 390, 500, 838, 318, 361, 318, 337, 636,
    636, 636, 636, 636, 636, 636, 636, 636, 636, 337, 337, 838, 838, 838, 531, 1000, 684,
    686, 698, 770, 632, 575, 775, 752, 295, 295, 656, 557, 863, 748, 787, 603, 787, 695,
    635, 611, 732, 684, 989, 685, 611, 685, 390, 337, 390, 838, 500, 500, 613, 635, 550,
    635, 615, 352, 635, 634, 278, 278, 579, 278, 974, 634, 612, 635, 635, 411, 521, 392,
    634, 592, 818, 592, 592, 525, 636, 337, 636, 838,
)  # fmt: skip
#: Bold glyphs are wider (DejaVu Sans Bold: 10 % on average, here with room to spare);
#: monospaced ones (DejaVu Sans Mono) are 0.602 of the size each.
_BOLD = 1.14
_MONO = 0.602
#: The print font for code in the rules.
MONO_FONT = "'DejaVu Sans Mono', monospace"
#: Line height as a share of the font size.
LEADING = 1.3
#: Height kept for the footer line above the bottom margin.
_FOOTER = 14.0


@dataclass(frozen=True, slots=True)
class Run:
    """A piece of text in one style."""

    text: str
    bold: bool = False
    italic: bool = False
    code: bool = False

    def width(self, size: float) -> float:
        """The width of the text at font size ``size``, in points."""
        if self.code:
            return len(self.text) * _MONO * size
        em = sum(_ADVANCE[ord(c) - 32] if " " <= c <= "~" else 800 for c in self.text) / 1000
        return em * size * (_BOLD if self.bold else 1.0)

    def svg(self) -> str:
        """The run as SVG text (a ``tspan`` when it has a style)."""
        attrs = (
            (' font-weight="bold"' if self.bold else "")
            + (' font-style="italic"' if self.italic else "")
            + (f' font-family="{MONO_FONT}"' if self.code else "")
        )
        return f"<tspan{attrs}>{escape(self.text)}</tspan>" if attrs else escape(self.text)


#: A line of styled text.
Line = list[Run]


def wrap(runs: Sequence[Run], width: float, size: float) -> list[Line]:
    """``runs`` broken into lines no wider than ``width`` at font size ``size``: at
    spaces, a word kept whole (one longer than a line stands alone)."""
    words: list[Line] = [[]]
    for run in runs:
        for k, part in enumerate(re.split(r"\s+", run.text)):
            if k:
                words.append([])  # a space ends the word
            if part:
                words[-1].append(Run(part, run.bold, run.italic, run.code))
    space = Run(" ").width(size)
    lines: list[Line] = []
    line: Line = []
    used = 0.0
    for word in (w for w in words if w):
        w = sum(r.width(size) for r in word)
        if line and used + space + w > width:
            lines.append(line)
            line, used = [], 0.0
        if line:  # the space takes the style of the words around it, or none
            before, after = _style(line[-1]), _style(word[0])
            line.append(Run(" ", *(before if before == after else (False, False, False))))
            used += space
        line += word
        used += w
    if line:
        lines.append(line)
    return [_merged(ln) for ln in lines]


def _style(run: Run) -> tuple[bool, bool, bool]:
    return run.bold, run.italic, run.code


def _merged(line: Line) -> Line:
    """Neighbouring runs of one style as one run (fewer ``tspan``)."""
    out: Line = []
    for run in line:
        if out and _style(out[-1]) == _style(run):
            out[-1] = Run(out[-1].text + run.text, *_style(run))
        else:
            out.append(run)
    return out


def svg_size(svg: str) -> tuple[float, float]:
    """The width and height of ``svg``'s viewBox (every renderer gives one)."""
    head = _SVG_OPEN.search(svg)
    box = _VIEWBOX.search(head.group(1)) if head else None
    if box is None:
        raise ValueError("the drawing has no viewBox")
    return float(box.group(3)), float(box.group(4))


def embed(svg: str, x: float, y: float, width: float, height: float) -> str:
    """``svg`` placed in the box (x, y, width, height), scaled to fit, centred (a size
    the drawing gives itself is replaced)."""
    head = _SVG_OPEN.search(svg)
    if head is None:
        raise ValueError("not an SVG drawing")
    attrs = f' x="{x:.2f}" y="{y:.2f}" width="{width:.2f}" height="{height:.2f}"'
    own = _PLACE.sub("", head.group(1))
    return svg[: head.start()] + f"<svg{attrs}{own}>" + svg[head.end() :]


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
        self.rich([Run(text, bold=bold)], size, gap=gap)

    def rich(
        self,
        runs: Sequence[Run],
        size: float = 10,
        *,
        indent: float = 0,
        label: str = "",
        gap: float = 4,
    ) -> None:
        """Styled text wrapped to the page width less ``indent``; ``label`` (a bullet,
        an item's number) hangs in the indent before the first line."""
        for k, line in enumerate(wrap(runs, self.width - indent, size)):
            self.line(line, size, indent=indent, label="" if k else label)
        self.y += gap

    def line(self, line: Line, size: float, *, indent: float = 0, label: str = "") -> None:
        """One line of styled text (see :func:`wrap`), ``label`` hanging before it."""
        x = self.left + indent
        self.y += size
        if label:
            lx = x - Run(label).width(size) - size * 0.4
            self.parts.append(
                f'<text x="{lx:.2f}" y="{self.y:.2f}" font-size="{size}">{escape(label)}</text>'
            )
        self.parts.append(
            f'<text x="{x:.2f}" y="{self.y:.2f}" font-size="{size}">'
            + "".join(r.svg() for r in line)
            + "</text>"
        )
        self.y += size * (LEADING - 1)

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
