"""The HTML report opens in chromium (Debian's, driven by Playwright) without errors and
without the network; a screenshot is saved (``ARENA_SCREENSHOTS`` names the folder)."""

from __future__ import annotations

import os
from pathlib import Path

from services import chromium
from sudoku_arena.lab.plan import Plan, Variant
from sudoku_arena.lab.report import write_report
from sudoku_arena.lab.runner import run


def test_report_opens_in_chromium_without_errors(tmp_path: Path) -> None:
    out = tmp_path / "run"
    plan = Plan(
        "tic-tac-sudoku",
        {},
        ("random", "greedy"),
        6,
        variants=(Variant("t9", {"target": "9"}),),
        ladder=("random", "greedy"),
        ladder_games=4,
    )
    run(out, plan, workers=2)
    write_report(out)
    shots = Path(os.environ.get("ARENA_SCREENSHOTS") or tmp_path / "screenshots")
    shots.mkdir(parents=True, exist_ok=True)
    with chromium() as browser:
        page = browser.new_page(viewport={"width": 1100, "height": 900})
        problems: list[str] = []
        page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
        page.on(
            "console",
            lambda m: (
                problems.append(f"console {m.type}: {m.text}")
                if m.type in ("error", "warning")
                else None
            ),
        )
        page.on(
            "request",
            lambda r: None if r.url.startswith("file:") else problems.append(f"fetch {r.url}"),
        )
        page.goto((out / "report.html").as_uri())
        page.wait_for_selector("h1")
        assert page.text_content("h1") == "Balance of tic-tac-sudoku"
        assert page.locator("figure svg").count() >= 4  # length, branching, wins, ladder
        assert page.locator("text=Skill ladder").count() == 1
        assert page.locator("li", has_text="under t9").count() >= 1
        box = page.locator("figure svg").first.bounding_box()
        assert box is not None and box["width"] > 100 and box["height"] > 50
        page.screenshot(path=str(shots / "lab-report.png"), full_page=True)
        assert problems == []
    assert (shots / "lab-report.png").stat().st_size > 10_000
