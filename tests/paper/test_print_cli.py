"""``sudoku-arena print``: the printed id enters a paper game afterwards; bad input is
one line on stderr, a non-zero exit and no file."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest
from paper_helpers import pdfinfo, pdftext, played
from typer.testing import CliRunner

from sudoku_arena.cli.main import app
from sudoku_arena.core.registry import load
from sudoku_arena.paper import INSTALL_COMMAND, PAPERS, rules_pages

runner = CliRunner()
#: Pages of the rules that follow the sheets.
RULES = {
    "cat-sudoku": len(rules_pages(load("cat-sudoku"), PAPERS["a4"])),
    "sudoku-warriors-letter": len(rules_pages(load("sudoku-warriors"), PAPERS["letter"])),
}


def run(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args), input=stdin, env={"COLUMNS": "200"})
    return result.exit_code, result.stdout, result.stderr


def test_tic_tac_sudoku_sheet_carries_its_grid_and_the_grid_plays(tmp_path: Path) -> None:
    out = tmp_path / "tts.pdf"
    code, stdout, _ = run("print", "tic-tac-sudoku", "--seed", "9", "--out", str(out))
    assert code == 0 and f"{pdfinfo(out).pages} page(s) written" in stdout
    grids = re.findall(r"grid (\d{81})", pdftext(out))
    assert grids and set(grids) == {load("tic-tac-sudoku", seed=9).params["grid"]}
    # Entered afterwards with the printed grid: the same numbers on the board.
    code, stdout, _ = run(
        "play", "tic-tac-sudoku", "--players", "human,human", "--grid", grids[0], stdin="quit\n"
    )
    assert code == 0
    first_row = re.search(r"r1 \|(.*)", stdout)
    assert first_row and re.sub(r"\D", "", first_row.group(1)) == grids[0][:9]


def test_cat_sudoku_sheet_carries_its_sheet_name_and_it_plays(tmp_path: Path) -> None:
    out = tmp_path / "cat.pdf"
    code, _, _ = run(
        "print", "cat-sudoku", "--param", "sheet=winter", "--param", "players=2", "--out", str(out)
    )
    assert code == 0 and pdfinfo(out).pages == 2 + RULES["cat-sudoku"]
    text = pdftext(out)
    names = set(re.findall(r"^sheet ([a-z]+)$", text, re.M))  # each sheet's id line
    assert names == {"winter"}
    assert "--param sheet=winter" in " ".join(text.split())
    code, stdout, _ = run(
        "play", "cat-sudoku", "--players", "human,human", "--param", f"sheet={names.pop()}",
        stdin="quit\n",
    )  # fmt: skip
    assert code == 0 and "Winter" in stdout


def test_copies_have_new_grids_unless_one_is_given(tmp_path: Path) -> None:
    out = tmp_path / "copies.pdf"
    code, _, _ = run("print", "sudoku-warriors", "--copies", "3", "--paper", "letter",
                     "--out", str(out))  # fmt: skip
    assert code == 0
    info = pdfinfo(out)
    assert info.pages == 3 + RULES["sudoku-warriors-letter"] and round(info.width) == 612
    assert len(set(re.findall(r"grid (\d{81})", pdftext(out)))) == 3
    fixed = load("tic-tac-sudoku", seed=1).params["grid"]
    assert isinstance(fixed, str)
    code, _, _ = run("print", "tic-tac-sudoku", "--copies", "2", "--grid", fixed, "--out", str(out))
    assert code == 0 and set(re.findall(r"grid (\d{81})", pdftext(out))) == {fixed}


def test_print_record_picks_the_game_of_a_file(tmp_path: Path) -> None:
    records = tmp_path / "g.jsonl"
    records.write_text(played("citadel").dumps() + "\n" + played("sudokuhex").dumps() + "\n")
    out = tmp_path / "rec.pdf"
    code, _, err = run("print", "--record", str(records), "--game", "1", "--out", str(out))
    assert code == 0, err
    assert "SuDokuHex: game record" in pdftext(out)


def _bad_cases(tmp: Path) -> list[tuple[list[str], str]]:
    corrupt = tmp / "corrupt.json"
    corrupt.write_text('{"format": 2, "game": "tic-tac')
    wrong = tmp / "wrong.json"
    rec = played("tic-tac-sudoku", stop=3).to_json()
    rec["actions"][1]["action"] = "nowhere"
    wrong.write_text(json.dumps(rec))
    out = str(tmp / "out.pdf")
    return [
        (["print", "chess", "--out", out], "chess"),
        (["print", "tic-tac-sudoku", "--param", "target=lots", "--out", out], "target"),
        (["print", "citadel", "--param", "size=4", "--out", out], "size"),
        (["print", "tic-tac-sudoku", "--grid", "123", "--out", out], "grid"),
        (["print", "tic-tac-sudoku", "--paper", "a3", "--out", out], "a3"),
        (["print", "tic-tac-sudoku", "--copies", "0", "--out", out], "copies"),
        (["print", "tic-tac-sudoku", "--out", str(tmp / "no" / "x.pdf")], "does not exist"),
        (["print", "tic-tac-sudoku", "--out", str(tmp)], "is a folder"),
        (["print", "--record", str(corrupt), "--out", out], "corrupt.json"),
        (["print", "--record", str(wrong), "--out", out], "nowhere"),
        (["print", "--record", str(tmp / "absent.json"), "--out", out], "no such file"),
        (["print", "--record", str(wrong), "--game", "5", "--out", out], "no record 5"),
        (["print", "--out", out], "GAME"),
    ]


def test_bad_input_is_one_line_and_leaves_no_file(tmp_path: Path) -> None:
    for args, words in _bad_cases(tmp_path):
        code, _, err = run(*args)
        lines = [line for line in err.splitlines() if line.strip()]
        assert code != 0, args
        assert len(lines) == 1 and words in lines[0], (args, err)
        assert "Traceback" not in err
        assert sorted(p.name for p in tmp_path.iterdir()) == ["corrupt.json", "wrong.json"]


def test_without_the_print_extra_one_line_says_how_to_install_it_or_print_a_page(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "cairosvg", None)  # as if it were not installed
    out = tmp_path / "x.pdf"
    code, _, err = run("print", "citadel", "--out", str(out))
    assert code != 0 and not out.exists()
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and INSTALL_COMMAND in lines[0] and "FILE.html" in lines[0]
    # The same sheet and rules as a page a browser prints, without the extra.
    page = tmp_path / "x.html"
    code, stdout, err = run("print", "citadel", "--seed", "3", "--out", str(page))
    assert code == 0, err
    text = page.read_text()
    count = len(re.findall(r'<svg class="sheet"', text))
    assert count > 1 and f"{count} page(s) written" in stdout and "The goal" in text
