"""Paper that teaches: every game's printout carries its rules for players (RULES.md,
the web's rules page) with their diagrams, and nothing that only makes sense on a
screen."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from paper_helpers import GAMES, pdftext

from sudoku_arena.core import markdown as md
from sudoku_arena.core.registry import load
from sudoku_arena.games.rulebook import player_rules_markdown
from sudoku_arena.paper import PAPERS, rules_pages, sheet_pages, write_pdf
from sudoku_arena.paper.drawings import for_paper

#: What only a screen needs: the turn marker, and prompts for the person at it.
SCREEN_ONLY = re.compile(
    r"▶|click|place citadel|claim a neutral|active:|To move:|Setting up|draws a tile|pick any"
)


@pytest.fixture(scope="module")
def printed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Path]]:
    """Each game's printout (one sheet and the rules), A4, seed 7."""
    folder = tmp_path_factory.mktemp("teach")
    out = {}
    for game_id, params in GAMES.items():
        out[game_id] = folder / f"{game_id}.pdf"
        write_pdf(out[game_id], sheet_pages(game_id, params, 7, 1, PAPERS["a4"]))
    yield out


def words(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize("game_id", list(GAMES))
def test_the_printout_carries_the_rules_with_their_diagrams(
    game_id: str, printed: dict[str, Path]
) -> None:
    rules = player_rules_markdown(game_id)
    assert rules is not None
    text = words(pdftext(printed[game_id]))
    blocks = md.parse(rules)
    sections = [md.plain(b.text) for b in blocks if isinstance(b, md.Heading) and b.level == 2]
    assert len(sections) >= 4  # the goal, set-up, a turn, the end
    for heading in sections:
        assert heading in text, heading
    # Every diagram is drawn, with its caption, in the order RULES.md places them.
    captions = [md.plain(b.caption) for b in blocks if isinstance(b, md.Figure)]
    assert captions
    at = [text.find(words(c)) for c in captions]
    assert -1 not in at and at == sorted(at), captions
    pages = rules_pages(load(game_id, **GAMES[game_id]), PAPERS["a4"])
    assert sum(p.count('class="rules-board') for p in pages) == len(captions)
    # Strong words are strong on paper too, none left as Markdown (even across lines).
    assert "**" not in text and "{{" not in text
    assert any('font-weight="bold">' in p for p in pages)


@pytest.mark.parametrize("game_id", list(GAMES))
def test_the_paper_stands_alone(game_id: str, printed: dict[str, Path]) -> None:
    """No pointer to the web server as the way to learn the game, and nothing of the
    screen: no turn marker, no prompt to click or to place."""
    text = pdftext(printed[game_id])
    assert "/rules/" not in text and "sudoku-arena serve" not in text
    assert SCREEN_ONLY.findall(text) == []
    assert "The rules in full" in text  # the sheet says where the rules are


def test_screen_lines_are_taken_out_and_the_rest_kept() -> None:
    svg = (
        '<svg><text x="1">▶ circle: 0</text><text x="2">square: 0</text>'
        '<text x="3">place citadel 1 of 9</text><text x="4">turn 2, active: player 1</text>'
        '<text x="5">to write: 2 3 - click a value, then a square</text></svg>'
    )
    assert for_paper(svg) == '<svg><text x="1">circle: 0</text><text x="2">square: 0</text></svg>'
