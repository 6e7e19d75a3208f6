"""The small Markdown the rules are written in, read into blocks.

One reader for every place that shows a game's rules: the web writes the blocks as HTML
(``server.pages``), paper lays them out on pages (``paper.rules``). What it reads:
headings, paragraphs, lists (nested by two spaces), tables, fenced code, and inside the
text ```code```, ``**strong**``, ``*emphasis*`` and ``[links](https://...)``. Beyond
plain Markdown, a line ``{{diagram: NAME | caption}}`` places a named diagram, and the
lines ``<details>``, ``<summary>text</summary>`` and ``</details>`` fold a part away.
No other HTML is recognised: writers escape every text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

# -- inside a line ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Text:
    text: str


@dataclass(frozen=True, slots=True)
class Code:
    text: str


@dataclass(frozen=True, slots=True)
class Emphasis:
    """``**strong**`` (``strong``) or ``*emphasis*``."""

    strong: bool
    children: tuple[Inline, ...]


@dataclass(frozen=True, slots=True)
class Link:
    href: str
    children: tuple[Inline, ...]


Inline = Text | Code | Emphasis | Link

#: The leftmost of these starts the next piece of a line; code is taken literally, the
#: others are read again inside. A strong part may hold single stars (``**5* is wild**``,
#: ``**a *b* c**``): it ends at the first ``**``.
_TOKEN = re.compile(
    r"`(?P<code>[^`]+)`"
    r"|\[(?P<label>[^\]]+)\]\((?P<href>https?://[^)\s]+)\)"
    r"|\*\*(?P<strong>[^*](?:[^*]|\*(?!\*))*?)\*\*"
    r"|(?<![*\w])\*(?P<em>[^*]+)\*(?!\*)"
)


def inline(text: str) -> tuple[Inline, ...]:
    """The pieces of one line of text."""
    out: list[Inline] = []
    pos = 0
    for m in _TOKEN.finditer(text):
        if m.start() > pos:
            out.append(Text(text[pos : m.start()]))
        if m.group("code") is not None:
            out.append(Code(m.group("code")))
        elif m.group("label") is not None:
            out.append(Link(m.group("href"), inline(m.group("label"))))
        elif m.group("strong") is not None:
            out.append(Emphasis(True, inline(m.group("strong"))))
        else:
            out.append(Emphasis(False, inline(m.group("em"))))
        pos = m.end()
    if pos < len(text):
        out.append(Text(text[pos:]))
    return tuple(out)


def plain(pieces: tuple[Inline, ...]) -> str:
    """The words of ``pieces`` without their marks."""
    return "".join(p.text if isinstance(p, Text | Code) else plain(p.children) for p in pieces)


# -- blocks ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Heading:
    """``level`` is the number of ``#`` (1 to 6)."""

    level: int
    text: tuple[Inline, ...]


@dataclass(frozen=True, slots=True)
class Paragraph:
    text: tuple[Inline, ...]


@dataclass(slots=True)
class Item:
    """A list item: its text and the lists nested in it."""

    text: list[Inline]
    lists: list[ListBlock] = field(default_factory=list)


@dataclass(slots=True)
class ListBlock:
    """A list; its first item decides whether it is ``ordered``."""

    ordered: bool
    items: list[Item] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Table:
    """Rows of cells; the first row is the head."""

    rows: tuple[tuple[tuple[Inline, ...], ...], ...]


@dataclass(frozen=True, slots=True)
class CodeBlock:
    text: str


@dataclass(frozen=True, slots=True)
class Figure:
    """The diagram called ``name``, with its caption."""

    name: str
    caption: tuple[Inline, ...]


@dataclass(frozen=True, slots=True)
class Summary:
    """The line that stays in view of a folded part."""

    text: tuple[Inline, ...]


@dataclass(slots=True)
class Details:
    """A folded part: a :class:`Summary` first, as written, then the rest."""

    blocks: list[Block] = field(default_factory=list)


Block = Heading | Paragraph | ListBlock | Table | CodeBlock | Figure | Summary | Details

_FIGURE = re.compile(r"^\{\{diagram:\s*([\w-]+)\s*(?:\|\s*(.*?))?\s*\}\}$")
_SUMMARY = re.compile(r"^<summary>(.*)</summary>$")
_HEADING = re.compile(r"^(#{1,6})\s+(.*)$")
_ITEM = re.compile(r"^(\s*)([-*+]|\d+[.)])\s+(.*)$")
_RULE_ROW = re.compile(r":?-{2,}:?")


def parse(text: str) -> list[Block]:
    """The blocks of ``text``, in order."""
    lines = text.splitlines()
    parts: list[list[Block]] = [[]]  # the document, then each open <details> inside it
    para: list[str] = []
    lists: list[ListBlock] = []  # the open lists, innermost last
    item_words: list[str] = []  # the lines of the last list item
    i = 0

    def flush_para() -> None:
        if para:
            parts[-1].append(Paragraph(inline(" ".join(para))))
            para.clear()

    def end_blocks() -> None:
        flush_para()
        lists.clear()

    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        if stripped.startswith("```"):
            end_blocks()
            block: list[str] = []
            i += 1
            while i < len(lines) and not lines[i].strip().startswith("```"):
                block.append(lines[i])
                i += 1
            parts[-1].append(CodeBlock("\n".join(block)))
            i += 1
            continue
        if not stripped:
            end_blocks()
            i += 1
            continue
        figure = _FIGURE.match(stripped)
        summary = _SUMMARY.match(stripped)
        heading = _HEADING.match(stripped)
        if figure or summary or heading or stripped in ("<details>", "</details>"):
            end_blocks()
            if figure:
                parts[-1].append(Figure(figure.group(1), inline(figure.group(2) or "")))
            elif summary:
                parts[-1].append(Summary(inline(summary.group(1))))
            elif heading:
                parts[-1].append(Heading(len(heading.group(1)), inline(heading.group(2))))
            elif stripped == "<details>":
                details = Details()
                parts[-1].append(details)
                parts.append(details.blocks)
            elif len(parts) > 1:  # a </details> that closes nothing is left out
                parts.pop()
            i += 1
            continue
        if stripped.startswith("|"):
            end_blocks()
            rows: list[tuple[tuple[Inline, ...], ...]] = []
            while i < len(lines) and lines[i].strip().startswith("|"):
                cells = [c.strip() for c in lines[i].strip().strip("|").split("|")]
                if not all(_RULE_ROW.fullmatch(c) for c in cells):
                    rows.append(tuple(inline(c) for c in cells))
                i += 1
            parts[-1].append(Table(tuple(rows)))
            continue
        item = _ITEM.match(line)
        if item:
            flush_para()
            depth = len(item.group(1).expandtabs(4)) // 2
            del lists[depth + 1 :]
            if len(lists) < depth + 1:
                new = ListBlock(ordered=item.group(2)[0].isdigit())
                if lists:  # a nested list goes inside the item before it
                    lists[-1].items[-1].lists.append(new)
                else:
                    parts[-1].append(new)
                lists.append(new)
            words = [item.group(3)]
            item_words = words
            i += 1
            # Lines indented under the item carry on its text (read as one line, so a
            # **strong** part may go over a line break).
            while (
                i < len(lines)
                and lines[i].strip()
                and lines[i].startswith("  ")
                and not _ITEM.match(lines[i])
            ):
                words.append(lines[i].strip())
                i += 1
            lists[-1].items.append(Item(list(inline(" ".join(words)))))
            continue
        if lists and line.startswith(" "):
            # A line indented less than an item's own lines still carries on the last
            # item: read again with it, as one line.
            item_words.append(stripped)
            lists[-1].items[-1].text = list(inline(" ".join(item_words)))
            i += 1
            continue
        lists.clear()
        para.append(stripped)
        i += 1
    flush_para()
    return parts[0]
