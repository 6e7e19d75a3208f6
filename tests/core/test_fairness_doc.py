"""The by-hand check in docs/fairness.md works as written on a real online record."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from sudoku_arena.core.record import Record, replay

ROOT = Path(__file__).resolve().parents[2]


def test_the_documented_python_check_recomputes_every_draw(tmp_path: Path) -> None:
    doc = (ROOT / "docs" / "fairness.md").read_text(encoding="utf-8")
    code = re.search(r"```python\n(.*?)```", doc, re.S)
    assert code is not None
    fixture = ROOT / "tests" / "server" / "data" / "online-sudokuhex.json"
    (tmp_path / "game.json").write_text(fixture.read_text())
    here = Path.cwd()
    os.chdir(tmp_path)
    try:
        scope: dict[str, Any] = {}
        exec(code.group(1), scope)  # the commitment assert runs here
    finally:
        os.chdir(here)
    rec = Record.loads(fixture.read_text())
    game, states = replay(rec)
    checked = 0
    for e in rec.actions:
        if e.actor is None:
            outcomes = [(game.format_action(a), p) for a, p in game.chance_outcomes(states[e.ply])]
            assert scope["draw"](e.ply, outcomes) == e.action
            checked += 1
    assert checked > 10
