"""``analyze`` says every figure alike in the terminal and in report.html, and gives
the base rules a verdict in both."""

from __future__ import annotations

import html
import json
import re
from html.parser import HTMLParser

import pytest
from typer.testing import CliRunner

from sudoku_arena.cli.main import app

Table = list[list[str]]


class _Tables(HTMLParser):
    """Every table of a page: its rows (header row included), each a list of cell texts
    with the tags stripped and the spaces collapsed."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[Table] = []
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table":
            self.tables.append([])
        elif tag == "tr":
            self.tables[-1].append([])
        elif tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None:
            self.tables[-1][-1].append(" ".join("".join(self._cell).split()))
            self._cell = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def html_tables(page: str) -> list[Table]:
    parser = _Tables()
    parser.feed(page)
    return parser.tables


def terminal_tables(output: str) -> list[Table]:
    """Rich's tables in ``output``: a table starts at its top border ``┏``; header
    cells are split by ``┃``, body cells by ``│``."""
    tables: list[Table] = []
    for line in output.splitlines():
        text = line.strip()
        if text.startswith("┏"):
            tables.append([])
        elif text[:1] in ("┃", "│"):
            tables[-1].append([cell.strip() for cell in re.split("[┃│]", text)[1:-1]])
    return tables


def by_label(table: Table) -> dict[str, list[str]]:
    return {row[0]: row[1:] for row in table}


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str, dict[str, object]]:
    """One small run (a variant and a ladder, so every kind of figure is there): the
    terminal output, the page and the summary."""
    out = tmp_path_factory.mktemp("figures") / "run"
    args = [
        "analyze", "tic-tac-sudoku", "--players", "random,greedy", "--games", "20",
        "--workers", "1", "--variant", "t9:target=9", "--ladder", "random,greedy",
        "--ladder-games", "4", "--out", str(out),
    ]  # fmt: skip
    # The console takes its width when the command's module is first imported (COLUMNS
    # then, or 80), not per invocation: a narrow one would wrap the table's labels.
    from sudoku_arena.cli.app import console

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(console, "width", 200)
        result = CliRunner().invoke(app, args, env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    summary = json.loads((out / "summary.json").read_text())
    return result.output, (out / "report.html").read_text(), summary


def test_terminal_and_report_say_every_figure_alike(run: tuple[str, str, object]) -> None:
    output, page, _ = run
    report = html_tables(page)
    terminal = terminal_tables(output)
    for table in terminal:
        shown = by_label(table)
        # The report's table with the same header and first label, compared row by row.
        (twin,) = [t for t in report if t[:2] and t[0] == table[0] and t[1][0] == table[1][0]]
        written = by_label(twin)
        for label in (label for label in shown if label in written):
            assert shown[label] == written[label], label
        assert list(shown) == list(written)
    assert len(terminal) == 2, output  # the figures, then the ladder
    figures, ladder = terminal
    assert figures[0] == ["figure", "base", "t9"] and ladder[0] == ["figure", "value"]
    rows = by_label(figures)
    assert {"seat 1 advantage", "won by nobody", "decisiveness", "seat 1 wins"} <= set(rows)
    # A difference of two rates is in percentage points; a rate in percent.
    assert all(
        re.fullmatch(r"-?\d+\.\d pts \(-?\d+\.\d to -?\d+\.\d\)", c)
        for c in rows["seat 1 advantage"]
    )
    assert all(re.fullmatch(r"\d+\.\d% \(.*\)", c) for c in rows["won by nobody"])
    # The luck index keeps two decimals, so a small value is not read as 0.
    assert re.fullmatch(r"\d\.\d\d \(\d\.\d\d to \d\.\d\d\)", by_label(ladder)["luck index"][0])


def _terminal_sentences(output: str, head: str) -> list[str]:
    lines = output.splitlines()
    start = lines.index(head) + 1
    out = []
    for line in lines[start:]:
        if not re.match(r"  \S", line):  # a sentence, not the next heading or table
            break
        out.append(line.strip())
    return out


def test_the_base_rules_get_a_verdict_in_both(run: tuple[str, str, dict[str, object]]) -> None:
    output, page, summary = run
    verdicts = summary["base_verdicts"]
    assert isinstance(verdicts, dict) and set(verdicts) == {"seat_advantage", "draw", "luck_index"}
    sentences = list(verdicts.values())
    assert all("under the base rules" in s for s in sentences)
    assert _terminal_sentences(output, "the base rules:") == sentences
    section = page.split("<h2>The base rules</h2>")[1].split("</ul>")[0]
    assert [html.unescape(s) for s in re.findall(r"<li>([^<]*)</li>", section)] == sentences
    # The variants' verdicts read the same in both too.
    variant = _terminal_sentences(output, "t9 against the base rules (20 paired games):")
    assert variant and all(f"<li>{html.escape(s)}</li>" in page for s in variant)
