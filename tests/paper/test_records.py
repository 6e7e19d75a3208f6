"""A finished game of every game on paper, and what an unfinished one may show."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest
from paper_helpers import GAMES, check_page, pdfinfo, pdftext, played, raster

from sudoku_arena.core.errors import ReplayMismatchError
from sudoku_arena.core.match import LogEntry
from sudoku_arena.paper import PAPERS, record_pages, write_pdf


@pytest.mark.parametrize("game_id", list(GAMES))
def test_finished_game_prints_position_moves_and_outcome(game_id: str, tmp_path: Path) -> None:
    rec = played(game_id)
    assert rec.outcome is not None
    out = tmp_path / "game.pdf"
    write_pdf(out, record_pages(rec, PAPERS["letter"]))
    info = pdfinfo(out)
    assert info.pages >= 1 and (round(info.width), round(info.height)) == (612, 792)
    for page in range(1, info.pages + 1):
        check_page(raster(out, page))  # drawn, and inside the margins
    text = " ".join(pdftext(out).split())
    assert "game record" in text
    assert " ".join(rec.outcome.reason.split()) in text
    # Every move is listed, numbered, as recorded (chance outcomes revealed at the end).
    last = rec.actions[-1]
    assert f"{last.ply + 1}. " in text and last.action in text
    assert f"Moves ({len(rec.actions)})" in text


def test_hands_show_only_once_the_game_is_over(tmp_path: Path) -> None:
    """SuDokuHex: each hand is secret while the game goes on. An unfinished record
    (even one saved with its draws) prints the public view and redacted draws; the
    finished game shows what each player held and every draw."""
    whole = played("sudokuhex", seed=5)
    mid = played("sudokuhex", seed=5, stop=20)
    assert mid.outcome is None and any(e.action.startswith("draw ") for e in mid.actions)
    out = tmp_path / "mid.pdf"
    write_pdf(out, record_pages(mid, PAPERS["a4"]))
    text = pdftext(out)
    assert "Not over" in text
    assert not re.search(r"draw \d", text), "a secret draw is printed"
    assert "Your tile" not in text and "as red saw it" not in text
    write_pdf(out, record_pages(whole, PAPERS["a4"]))
    text = pdftext(out)
    assert re.search(r"draw \d", text) and "as red saw it" in text and "Your tile" in text


def test_a_record_that_does_not_replay_prints_nothing() -> None:
    rec = played("tic-tac-sudoku", stop=4)
    bad = replace(rec, actions=(*rec.actions[:3], LogEntry(3, 1, "nowhere")))
    with pytest.raises(ReplayMismatchError):
        record_pages(bad, PAPERS["a4"])
