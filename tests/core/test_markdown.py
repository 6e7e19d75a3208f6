"""The rules reader (core.markdown): **strong** and *emphasis* wherever the rules write
them, so that no page or sheet shows the asterisks themselves."""

from __future__ import annotations

import pytest

from sudoku_arena.core import markdown as md


def _read(blocks: list[md.Block]) -> tuple[list[str], str]:
    """The words of every strong part of ``blocks`` in order, and all their words."""
    strong: list[str] = []
    words: list[str] = []

    def walk(pieces: tuple[md.Inline, ...] | list[md.Inline]) -> None:
        words.append(md.plain(tuple(pieces)))
        for p in pieces:
            if isinstance(p, md.Emphasis) and p.strong:
                strong.append(md.plain(p.children))
            if isinstance(p, md.Emphasis | md.Link):
                walk(p.children)

    def blocks_of(bs: list[md.Block]) -> None:
        for b in bs:
            if isinstance(b, md.Heading | md.Paragraph | md.Summary):
                walk(b.text)
            elif isinstance(b, md.ListBlock):
                for item in b.items:
                    walk(item.text)
                    blocks_of(list(item.lists))
            elif isinstance(b, md.Details):
                blocks_of(b.blocks)

    blocks_of(blocks)
    return strong, " ".join(words)


@pytest.mark.parametrize(
    "text, strong",
    [
        ("a **strong\nover lines** b", ["strong over lines"]),
        ("- item **strong\n  over** b", ["strong over"]),
        (
            "4. **Bidding.** end **higher than\n   every other**, by",
            ["Bidding.", "higher than every other"],
        ),
        # An indented line of one space carries on the item too.
        ("- item **strong\n over** b", ["strong over"]),
        ("- a\n  - nested **one\n   two**", ["one two"]),
        # A star inside a strong part: a wild die, an emphasis.
        ("**5* is wild**", ["5* is wild"]),
        ("**a *b* c** and *d*", ["a b c"]),
        (
            "<details>\n<summary>**Rulings** here</summary>\n\n- **x\n  y**\n</details>",
            ["Rulings", "x y"],
        ),
    ],
)
def test_strong_is_read_wherever_it_is_written(text: str, strong: list[str]) -> None:
    found, words = _read(md.parse(text))
    assert found == strong
    assert "**" not in words


def test_emphasis_inside_strong_stays_emphasis() -> None:
    (para,) = md.parse("**a *b* c**")
    assert isinstance(para, md.Paragraph)
    (strong,) = para.text
    assert isinstance(strong, md.Emphasis) and strong.strong
    assert [type(p).__name__ for p in strong.children] == ["Text", "Emphasis", "Text"]
    assert md.plain(para.text) == "a b c"


def test_a_lone_star_and_a_product_stay_text() -> None:
    (para,) = md.parse("5* is wild, 7 * 9 = 63, and **3 * 4** is strong")
    assert isinstance(para, md.Paragraph)
    assert md.plain(para.text) == "5* is wild, 7 * 9 = 63, and 3 * 4 is strong"
