"""Render the gallery of docs/print.md: the first page of every game's sheet as a PNG.

Each sheet is made exactly as ``sudoku-arena print GAME --seed 1`` makes it, then
rasterised by poppler's ``pdftoppm`` (Debian ``poppler-utils``) at 100 dpi and kept in
sixteen grey levels, which keeps the files small. Run from the repository root:

    .venv/bin/python scripts/print_gallery.py
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

from PIL import Image

from sudoku_arena.paper import PAPERS, sheet_pages, write_pdf

OUT = Path(__file__).resolve().parent.parent / "docs" / "print"
#: Each game's sheet as a table would print it (Cat Sudoku: the first player's sheet).
GAMES: dict[str, dict[str, object]] = {
    "tic-tac-sudoku": {},
    "sudoku-warriors": {},
    "cat-sudoku": {"players": 2},
    "sudokuhex": {"players": 2},
    "citadel": {"size": 13},
}


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        for game_id, params in GAMES.items():
            pdf = Path(tmp) / f"{game_id}.pdf"
            write_pdf(pdf, sheet_pages(game_id, params, 1, 1, PAPERS["a4"]))
            root = OUT / game_id
            subprocess.run(
                ["pdftoppm", "-f", "1", "-l", "1", "-r", "100", "-gray", "-png", "-singlefile",
                 str(pdf), str(root)],
                check=True,
            )  # fmt: skip
            png = root.with_suffix(".png")
            # Sixteen grey levels are plenty for lines and text and halve the file.
            Image.open(png).quantize(16).save(png, optimize=True)
            print(png)
    return 0


if __name__ == "__main__":
    sys.exit(main())
