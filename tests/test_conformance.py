"""The conformance suite over every registered game, and the golden playthroughs."""

from __future__ import annotations

import importlib.util
from dataclasses import replace
from pathlib import Path

import pytest

from sudoku_arena.core.protocol import AnyGame
from sudoku_arena.core.registry import registered_games
from sudoku_arena.testing import ConformanceError, check_game, check_one
from sudoku_arena.testing.conformance import DEEP_PLIES, _check_svg, player_counts
from sudoku_arena.testing.runner import FULL_GAMES, WHOLE_GAME, depth_for, plan, run_batch

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


#: Random games per player count that CI checks for every game (in worker processes).
CI_GAMES = 50


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_conformance(game_id: str) -> None:
    report = check_game(game_id, games=CI_GAMES, seed=1, deep_plies=80, jobs=2)
    assert report.games == CI_GAMES * len(player_counts(game_id))
    assert report.counts.get("records replayed", 0) == report.games
    assert report.counts.get("legal actions applied", 0) > 0
    assert report.counts.get("SVG drawings checked", 0) >= report.games


def test_workers_give_the_same_report() -> None:
    # Where and in which order the games run changes nothing.
    alone = check_game("sudokuhex", games=7, seed=5, deep_plies=30, jobs=1)
    shared = check_game("sudokuhex", games=7, seed=5, deep_plies=30, jobs=2)
    assert shared == alone
    assert alone.games == 14


def test_batches_cover_every_seed_once() -> None:
    batches = plan("cat-sudoku", games=37, seed=100, jobs=2)
    assert {b.players for b in batches} == {1, 6}
    for n in (1, 6):
        seeds = [s for b in batches if b.players == n for s in b.seeds]
        assert seeds == list(range(100, 137))
    assert plan("cat-sudoku", games=5, params={"players": 3})[0].players == 3


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
    with pytest.raises(ConformanceError, match="load_state") as caught:
        check_game("tic-tac-sudoku", games=3, seed=2)
    # The failure is the first game's, and that game alone reproduces it.
    assert "players=2 seed=2 " in str(caught.value)
    with pytest.raises(ConformanceError) as again:
        check_one("tic-tac-sudoku", 2, 2)
    assert str(again.value) == str(caught.value)


def test_a_crash_is_a_failure_of_its_game(monkeypatch: pytest.MonkeyPatch) -> None:
    from sudoku_arena.games.sudokuhex.game import SuDokuHex

    def broken(self: SuDokuHex, s: object, observer: int | None = None) -> dict[str, object]:
        raise KeyError("tiles")

    monkeypatch.setattr(SuDokuHex, "view", broken)
    results = [run_batch(b) for b in plan("sudokuhex", games=3, seed=7, params={"players": 2})]
    failures = [f for r in results for f in r.failures]
    assert [f.seed for f in failures] == [7, 8, 9]
    assert sum(r.report.games for r in results) == 3
    first = failures[0]
    assert first.message.startswith("sudokuhex players=2 seed=7: raised KeyError: 'tiles'")
    assert first.command() == "sudoku-arena check sudokuhex --games 1 --seed 7 --param players=2"
    deeper = replace(first, deep_plies=40, every=3)
    assert deeper.command().endswith("--param players=2 --deep-plies 40 --every 3")


def test_every_shares_the_deep_plies_out_among_seeds() -> None:
    def deep(seed: int, every: int) -> int:
        report = check_one("tic-tac-sudoku", 2, seed, deep_plies=30, every=every)
        assert report.plies >= 30  # these games last longer than the window
        return report.counts["dump/load round-trips"] - 1  # the end is always checked

    assert deep(4, 1) == 30
    assert deep(4, 3) == deep(5, 3) == 10
    with pytest.raises(ValueError, match="every=0"):
        check_one("tic-tac-sudoku", 2, 4, every=0)


def test_small_runs_keep_the_first_plies_and_large_runs_spread_a_budget() -> None:
    # Up to twice FULL_GAMES games (CI's 50, the test suite's few): every game's first
    # DEEP_PLIES plies, as before the policy existed.
    for games in (1, 50, FULL_GAMES, 2 * FULL_GAMES - 1):
        assert depth_for(games) == (DEEP_PLIES, 1)
    # Above: one ply in games // FULL_GAMES of whole games, so the plies checked stay
    # about those of FULL_GAMES whole games and never fall below FULL_GAMES games'
    # worth of the first depth.
    assert depth_for(2 * FULL_GAMES) == (WHOLE_GAME, 2)
    assert depth_for(10_000) == (WHOLE_GAME, 10_000 // FULL_GAMES)
    for games in (2 * FULL_GAMES, 3 * FULL_GAMES - 1, 10_000, 10_001):
        deep, every = depth_for(games)
        assert games / every >= FULL_GAMES and deep >= DEEP_PLIES


def test_spread_checks_reach_late_plies() -> None:
    # Consecutive seeds share out the plies of whole games: together they check plies
    # past the first window's end.
    deep, every = WHOLE_GAME, 5
    checked = sum(
        check_one("citadel", 2, seed, deep_plies=deep, every=every).counts["dump/load round-trips"]
        for seed in range(3)
    )
    plies = sum(check_one("citadel", 2, seed, deep_plies=0).plies for seed in range(3))
    assert plies > 3 * DEEP_PLIES  # these games are long
    assert checked >= plies // every


def test_drawings_must_not_depend_on_the_observer(monkeypatch: pytest.MonkeyPatch) -> None:
    # Tic-Tac-Sudoku's views are the public one for every seat: the suite draws the
    # spectator's and one seat's, and they must be the same (the server draws one).
    import sudoku_arena.testing.conformance as conformance

    original = conformance.entry_of

    def leaky(game: AnyGame) -> object:
        entry = original(game)

        def text(view: dict[str, object], *, color: bool = False) -> str:
            return f"{entry.render_text(view, color=color)}\nseen by {view['observer']}"

        return replace(entry, render_text=text)

    monkeypatch.setattr(conformance, "entry_of", leaky)
    with pytest.raises(ConformanceError, match="differs from the spectator's"):
        check_one("tic-tac-sudoku", 2, 3, deep_plies=4)


def test_svg_check_finds_bad_actions_and_bad_documents() -> None:
    from sudoku_arena.core.registry import load

    game = load("tic-tac-sudoku", seed=1)
    ok = '<svg xmlns="http://www.w3.org/2000/svg"><rect data-action="r1c1"/></svg>'
    _check_svg(game, ok, "here")
    for doc, message in [
        ("<svg><rect data-action='r1c1'/><rect data-action = 'r0c9'/></svg>", "'r0c9'"),
        ('<svg><rect data-action="r1c1 &amp; r2c2"/></svg>', "'r1c1 & r2c2'"),
        ('<svg><rect data-action="r1c1"></svg>', "not well-formed"),
        ('<svg><x:rect data-action="r1c1"/></svg>', "not well-formed"),  # unbound prefix
        ('<g data-action="r1c1"/>', "did not return an <svg>"),
    ]:
        with pytest.raises(ConformanceError, match=message):
            _check_svg(game, doc, "here")
