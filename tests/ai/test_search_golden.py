"""The search plays exactly what it played when the golden file was written.

``scripts/search_golden.py`` runs the MCTS with fixed seeds and budgets in simulations
on positions of every game, through every path of the search (its own hints per game,
the plain defaults, Cat Sudoku's tree search with decoupled UCT and with regret matching,
SuDokuHex solo and with hidden hands, Citadel with its repetition memory). A change that
moves code around in the search must leave every choice and every root statistic as
it was; a change meant to alter the search rewrites the file and says so.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = json.loads((Path(__file__).parent / "data" / "search_golden.json").read_text())


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "search_golden", ROOT / "scripts" / "search_golden.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


SCRIPT = _script()


def test_the_golden_file_covers_every_case() -> None:
    assert sorted(GOLDEN) == sorted(SCRIPT.case_name(c) for c in SCRIPT.CASES)


@pytest.mark.parametrize("case", SCRIPT.CASES, ids=SCRIPT.case_name)
def test_search_choices_are_unchanged(case: Any) -> None:
    assert SCRIPT.run_case(*case) == GOLDEN[SCRIPT.case_name(case)]
