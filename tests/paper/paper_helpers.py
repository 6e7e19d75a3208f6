"""Helpers for the paper tests: poppler's tools (``pdfinfo``, ``pdftoppm``, ``pdftotext``,
Debian ``poppler-utils``, installed by ``.ci/run``) and finished games of every game."""

from __future__ import annotations

import io
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from PIL import Image

from services import require
from sudoku_arena.ai import make_agent
from sudoku_arena.core.match import Match
from sudoku_arena.core.record import Record
from sudoku_arena.core.registry import load
from sudoku_arena.paper.page import MARGIN

#: One set-up per game, small where the game allows (quick games to play out).
GAMES: dict[str, dict[str, object]] = {
    "tic-tac-sudoku": {},
    "sudoku-warriors": {},
    "cat-sudoku": {"players": 2},
    "sudokuhex": {"players": 2},
    "citadel": {"size": 9, "max_turns": 30},
}


def _require_poppler() -> None:
    require("poppler-utils", shutil.which("pdftoppm") is not None, "apt-get install poppler-utils")


@dataclass(frozen=True)
class PdfInfo:
    pages: int
    width: float  # points
    height: float


def pdfinfo(path: Path) -> PdfInfo:
    """Page count and (first) page size, as poppler reads them."""
    _require_poppler()
    out = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True, check=True)
    fields = dict(line.split(":", 1) for line in out.stdout.splitlines() if ":" in line)
    w, _, h = fields["Page size"].split()[:3]
    return PdfInfo(int(fields["Pages"]), float(w), float(h))


def raster(path: Path, page: int = 1, dpi: int = 30) -> Image.Image:
    """Page ``page`` of ``path`` rasterised by pdftoppm, in grey levels."""
    _require_poppler()
    png = subprocess.run(
        ["pdftoppm", "-f", str(page), "-l", str(page), "-r", str(dpi), "-gray", "-png", str(path)],
        capture_output=True,
        check=True,
    ).stdout
    return Image.open(io.BytesIO(png)).convert("L")


def pdftext(path: Path) -> str:
    _require_poppler()
    return subprocess.run(
        ["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True
    ).stdout


def played(game_id: str, seed: int = 3, stop: int | None = None) -> Record:
    """A game of random bots played to the end (or stopped after ``stop`` plies)."""
    game = load(game_id, seed=seed, **GAMES[game_id])
    match = Match(game, seed=seed, players=["random"] * game.num_players)
    agents = [make_agent("random", game, seed=match.bot_seed(k)) for k in range(game.num_players)]
    while not match.is_over and (stop is None or match.ply < stop):
        seat = match.to_move().players[0]
        match.step_agent(agents[seat], seat)
    return match.record()


def ink(img: Image.Image, box: tuple[int, int, int, int] | None = None) -> float:
    """The share of pixels in ``box`` that are not white."""
    part = img.crop(box) if box else img
    hist = part.histogram()
    return 1 - sum(hist[250:]) / max(1, sum(hist))


def check_page(img: Image.Image, dpi: int = 30) -> None:
    """Drawn (not blank), and nothing printed in the margins."""
    w, h = img.size
    m = int((MARGIN - 4) / 72 * dpi)  # the margin less a rounding pixel or two
    assert ink(img) > 0.02, "the page is blank"
    for band in ((0, 0, w, m), (0, h - m, w, h), (0, 0, m, h), (w - m, 0, w, h)):
        assert ink(img, band) == 0, f"ink in the margin {band}"
