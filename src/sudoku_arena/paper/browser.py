"""A printout as one HTML page that a browser prints: no PDF library needed.

The pages are the same SVG documents the PDF is made of, one after another at their
paper size. ``@page`` gives the print dialog that size with no margin (each page keeps
its own), and every page ends a printed page. On screen a line above them says how to
print; it is not printed. The document holds no script, so it needs none allowed.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from pathlib import Path

from sudoku_arena.paper.page import Paper
from sudoku_arena.paper.pdf import INSTALL_COMMAND, write_whole


def html_document(pages: Sequence[str], paper: Paper, title: str, note: str = "") -> str:
    """``pages`` (SVG documents of ``paper``'s size) in an HTML document to print, with
    ``title`` and, on screen only, how to print it and ``note``."""
    w, h = f"{paper.width}pt", f"{paper.height}pt"
    style = (
        f"@page {{ size: {w} {h}; margin: 0 }}"
        " html, body { margin: 0; padding: 0 }"
        f" svg.sheet {{ display: block; width: {w}; height: {h}; break-after: page }}"
        " svg.sheet:last-of-type { break-after: auto }"
        " @media screen { body { background: #e6e3da; font: 16px/1.45 sans-serif }"
        f" .how {{ max-width: {w}; margin: 1rem auto; padding: 0 0.5rem }}"
        " svg.sheet { margin: 1rem auto; background: #fff; box-shadow: 0 1px 4px #0005 } }"
        " .how code { white-space: nowrap }"
        " @media print { .how { display: none } }"
    )
    how = (
        f'<div class="how"><h1>{escape(title)}</h1>'
        f"<p>{len(pages)} page{'s' if len(pages) != 1 else ''} to print on "
        f"{escape(paper.name.upper() if paper.name == 'a4' else paper.name.capitalize())} "
        "paper: print this page with your browser (Ctrl+P, on a Mac Cmd+P) at 100 % "
        "(scale: default), margins none or default. Each sheet is one page; this line is "
        "not printed.</p>" + (f"<p>{_with_command(note)}</p>" if note else "") + "</div>"
    )
    sheets = "\n".join(page.replace("<svg ", '<svg class="sheet" ', 1) for page in pages)
    return (
        '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{escape(title)}</title>\n<style>{style}</style>\n</head>\n<body>\n"
        f"{how}\n{sheets}\n</body>\n</html>\n"
    )


def _with_command(text: str) -> str:
    """``text`` as HTML, the install command in it kept on one line."""
    command = escape(INSTALL_COMMAND, quote=False)
    return escape(text, quote=False).replace(command, f"<code>{command}</code>")


def write_html(path: Path, pages: Sequence[str], paper: Paper, title: str, note: str = "") -> None:
    """Write :func:`html_document` of ``pages`` to ``path``, whole or not at all."""
    write_whole(path, html_document(pages, paper, title, note).encode("utf-8"))
