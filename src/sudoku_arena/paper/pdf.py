"""SVG pages to one PDF file, written whole or not at all.

Each page is converted on its own by CairoSVG (one SVG document is one PDF page) and
the one-page PDFs are joined by pypdf. Both are maintained libraries made for exactly
this; the alternative, drawing every page on one cairo surface ourselves, would mean
walking CairoSVG's internals. The join copies the pages unchanged (vector text stays
text, so ``pdftotext`` reads the grid id back).

Both libraries belong to the optional ``print`` extra; :func:`require` says in one line
how to install it when they are missing (:mod:`.browser` prints without them).
"""

from __future__ import annotations

import io
import os
from collections.abc import Sequence
from pathlib import Path

#: The command that installs the ``print`` extra in a clone (the README's install).
INSTALL_COMMAND = "pip install -e '.[print]'"
INSTALL_HINT = (
    f"PDF files need the optional packages cairosvg and pypdf: {INSTALL_COMMAND} in the "
    "project's folder (and the cairo library, Debian: libcairo2)"
)


class PrintUnavailable(Exception):
    """The ``print`` extra (or the cairo library under it) is not installed."""


def require() -> None:
    """Raise :class:`PrintUnavailable` (with the install hint) unless PDFs can be made."""
    try:
        import cairosvg  # noqa: F401
        import pypdf  # noqa: F401
    except (ImportError, OSError):  # OSError: cairocffi finds no libcairo
        raise PrintUnavailable(INSTALL_HINT) from None


def pdf_bytes(pages: Sequence[str], title: str = "") -> bytes:
    """The PDF of ``pages`` (SVG documents, one per page), in order."""
    require()
    import cairosvg
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter()
    for svg in pages:
        one = cairosvg.svg2pdf(bytestring=svg.encode("utf-8"))
        for page in PdfReader(io.BytesIO(one)).pages:
            writer.add_page(page)
    if title:
        writer.add_metadata({"/Title": title, "/Creator": "sudoku-arena"})
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def write_pdf(path: Path, pages: Sequence[str], title: str = "") -> None:
    """Write the PDF of ``pages`` to ``path``, whole or not at all (:func:`write_whole`):
    a failure at any page leaves no partial file."""
    write_whole(path, pdf_bytes(pages, title))


def write_whole(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path``: beside it first, then renamed into place, so a failure
    leaves no partial file (and an existing file unchanged)."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        tmp.write_bytes(data)
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
