"""The conformance suite over every registered game, and the golden playthroughs."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from sudoku_arena.core.registry import registered_games
from sudoku_arena.testing import ConformanceError, check_game

GAME_IDS = [s.id for s in registered_games()]
ROOT = Path(__file__).resolve().parent.parent


def _regen_module() -> object:
    spec = importlib.util.spec_from_file_location(
        "regen_golden", ROOT / "scripts" / "regen_golden.py"
    )
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_conformance(game_id: str) -> None:
    report = check_game(game_id, games=4, seed=1, deep_plies=80)
    assert report.games >= 4
    assert report.counts.get("records replayed", 0) == report.games
    assert report.counts.get("legal actions applied", 0) > 0


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_golden_playthrough(game_id: str) -> None:
    regen = _regen_module()
    path: Path = regen.golden_path(game_id)  # type: ignore[attr-defined]
    assert path.exists(), f"no golden file; run: python scripts/regen_golden.py {game_id}"
    expected = path.read_text(encoding="utf-8")
    actual: str = regen.playthrough(game_id)  # type: ignore[attr-defined]
    assert actual == expected, f"{game_id} plays differently; if intended, regenerate {path}"


def test_conformance_catches_a_broken_game(monkeypatch: pytest.MonkeyPatch) -> None:
    # A game whose dump/load loses the scores must fail the suite.
    from sudoku_arena.games.tic_tac_sudoku.game import TicTacSudoku

    original = TicTacSudoku.load_state

    def lossy(self: TicTacSudoku, data: dict[str, object]) -> object:
        s = original(self, data)
        return s._replace(scores=(0, 0))

    monkeypatch.setattr(TicTacSudoku, "load_state", lossy)
    with pytest.raises(ConformanceError, match="load_state"):
        check_game("tic-tac-sudoku", games=3, seed=2)
