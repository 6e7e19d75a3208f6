"""Weights at play time (NumPy, no PyTorch): the file round trip, the learned bot with
them, bad files refused, and the fallback to the hand-written evaluation."""

from __future__ import annotations

import itertools
import logging
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
import pytest

import sudoku_arena
from sudoku_arena.ai import learned as learned_module
from sudoku_arena.ai import make_agent
from sudoku_arena.ai import value as value_module
from sudoku_arena.ai.features import NoFeaturesError, features_for
from sudoku_arena.ai.hints import hints_for
from sudoku_arena.ai.mcts import MCTSAgent
from sudoku_arena.ai.value import WeightsError, load_weights, save_weights, value_evaluator
from sudoku_arena.core.errors import ArenaError
from sudoku_arena.core.match import Match
from sudoku_arena.games.tic_tac_sudoku.features import SIZE, VERSION, value_features

GAME = "tic-tac-sudoku"


def _weights(path: Path, inputs: int = SIZE, **meta: object) -> Path:
    """Seeded random weights of a SIZE -> 16 -> 8 -> 1 network."""
    rng = np.random.default_rng(0)
    sizes = [inputs, 16, 8, 1]
    ws = [rng.normal(0, 0.3, (a, b)).astype(np.float32) for a, b in itertools.pairwise(sizes)]
    bs = [rng.normal(0, 0.1, b).astype(np.float32) for b in sizes[1:]]
    save_weights(path, ws, bs, {"game": GAME, "features": VERSION, **meta})
    return path


@pytest.fixture
def ship(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[bool], None]]:
    """``ship(True)``: the game's package holds (seeded random) weights; ``ship(False)``:
    none, whatever the real package holds."""
    folder = tmp_path / "package"
    folder.mkdir()

    def make(weights: bool) -> None:
        (folder / value_module.PACKAGE_FILE).unlink(missing_ok=True)
        if weights:
            _weights(folder / value_module.PACKAGE_FILE)
        monkeypatch.setattr(value_module, "files", lambda package: folder)
        monkeypatch.setattr(learned_module, "files", lambda package: folder)
        value_module._package_weights.cache_clear()

    yield make
    value_module._package_weights.cache_clear()


def _positions(n: int = 30) -> tuple[sudoku_arena.core.protocol.AnyGame, list[object]]:
    game = sudoku_arena.load(GAME, seed=4)
    rng = np.random.default_rng(4)
    s, out = game.initial_state(), []
    while s.current >= 0 and len(out) < n:
        out.append(s)
        legal = list(game.legal_actions(s, s.current))
        s = game.apply(s, legal[int(rng.integers(len(legal)))])
    return game, out


def test_weights_round_trip_through_npz(tmp_path: Path) -> None:
    path = _weights(tmp_path / "w.npz", command="by hand")
    first = path.read_bytes()
    _weights(tmp_path / "w.npz", command="by hand")
    assert path.read_bytes() == first  # no time stamps: the same arrays, the same file
    game, states = _positions()
    net = load_weights(path, features_for(game))
    assert net.inputs == SIZE and net.meta["command"] == "by hand" and net.meta["hidden"] == [16, 8]
    x = np.array([value_features(game, s) for s in states], dtype=np.float32)
    batch = net.forward(x)
    one = np.array([net.value(row) for row in x.tolist()])
    assert np.abs(batch - one).max() < 1e-6 and ((batch > 0) & (batch < 1)).all()
    evaluate = value_evaluator(net, features_for(game))
    for s, v in zip(states, one, strict=True):
        values = evaluate(game, s)
        assert values[s.current] == pytest.approx(v) and sum(values) == pytest.approx(1.0)


def test_the_learned_bot_plays_legal_moves_with_weights(tmp_path: Path) -> None:
    path = _weights(tmp_path / "w.npz")
    game = sudoku_arena.load(GAME, seed=2)
    bots = [make_agent(f"learned:40@{path}", game, seed=1), make_agent("mcts:40", game, seed=2)]
    assert not bots[0].fallback and bots[0].name == "learned:40"
    assert bots[0].hints(game).evaluate is not hints_for(game).evaluate
    match = Match(game, seed=2)
    match.run(bots)  # the runner checks every action against the rules
    assert game.outcome(match.state) is not None


def test_bad_weights_are_refused_with_the_reason(tmp_path: Path) -> None:
    game = sudoku_arena.load(GAME)
    cases = {
        "no such file": tmp_path / "none.npz",
        "not a weights file": tmp_path / "junk.npz",
        "made for 'citadel'": _weights(tmp_path / "citadel.npz", game="citadel"),
        "made from the features": _weights(tmp_path / "narrow.npz", inputs=12),
    }
    (tmp_path / "junk.npz").write_bytes(b"not a zip")
    for reason, path in cases.items():
        with pytest.raises(WeightsError, match=reason):
            make_agent(f"learned:normal@{path}", game, seed=0)
    for spec, reason in [("learned:fast", "say a level"), ("learned:hard@", "weights file")]:
        with pytest.raises(ArenaError, match=reason):
            make_agent(spec, game, seed=0)
    cat = sudoku_arena.load("cat-sudoku")  # one seat by default
    with pytest.raises(NoFeaturesError, match=r"for two seats; this cat-sudoku has 1"):
        make_agent(f"learned:normal@{tmp_path / 'citadel.npz'}", cat, seed=0)
    pair = sudoku_arena.load("cat-sudoku", players=2)
    with pytest.raises(WeightsError, match="made for 'citadel', not cat-sudoku"):
        make_agent(f"learned:normal@{tmp_path / 'citadel.npz'}", pair, seed=0)


def _first_moves(spec: str, game: sudoku_arena.core.protocol.AnyGame, plies: int) -> list[object]:
    bots = [make_agent(spec, game, seed=s) for s in (7, 8)]
    s, moves = game.initial_state(), []
    for _ in range(plies):
        p = game.to_move(s).players[0]
        moves.append(bots[p].act(game, s, p))
        s = game.apply(s, moves[-1], p)
    return moves


def test_without_weights_the_bot_falls_back_and_says_so_once(
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
    ship: Callable[[bool], None],
) -> None:
    ship(False)
    monkeypatch.setattr(learned_module, "_announced", set())
    game = sudoku_arena.load(GAME, seed=6)
    with caplog.at_level(logging.WARNING, logger="sudoku_arena.ai.learned"):
        moves = _first_moves("learned:60", game, 8)
    said = [r.getMessage() for r in caplog.records]
    assert len(said) == 1 and "no weights are shipped for tic-tac-sudoku" in said[0]
    assert "hand-written evaluation" in said[0]
    assert moves == _first_moves("mcts:60", game, 8)  # the plain search, move for move
    cat = sudoku_arena.load("cat-sudoku")
    assert make_agent("learned:easy", cat, seed=0).fallback  # no features: no weights


def test_without_numpy_the_bot_falls_back(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(learned_module, "_announced", set())
    monkeypatch.setitem(sys.modules, "sudoku_arena.ai.value", None)  # import fails
    bot = make_agent("learned:20", sudoku_arena.load(GAME), seed=0)
    assert bot.fallback and "NumPy cannot be imported" in bot.source


def test_weights_shipped_in_the_package_are_found(ship: Callable[[bool], None]) -> None:
    ship(True)
    bot = make_agent("learned:hard", sudoku_arena.load(GAME), seed=0)
    assert not bot.fallback and bot.source == "the weights shipped with the game"


def test_learned_is_made_by_name_but_never_offered(ship: Callable[[bool], None]) -> None:
    from sudoku_arena.ai import agent_names

    game = sudoku_arena.load(GAME, seed=1)
    for weights in (False, True):  # with weights, normal and hard are the learned bot
        ship(weights)
        assert "learned" not in agent_names(game) and "normal" in agent_names(game)
        assert make_agent("learned:20", game, seed=1) is not None


def test_normal_and_hard_play_with_shipped_weights_and_mcts_names_the_hand_written(
    ship: Callable[[bool], None],
) -> None:
    game = sudoku_arena.load(GAME, seed=1)
    ship(True)
    for level in ("normal", "hard"):
        bot = make_agent(level, game, seed=3)
        assert isinstance(bot, learned_module.LearnedAgent) and not bot.fallback
        assert type(make_agent(f"mcts:{level}", game, seed=3)) is MCTSAgent
    assert type(make_agent("easy", game, seed=3)) is MCTSAgent  # a learner's first opponent
    with pytest.raises(ArenaError, match="takes no argument"):
        make_agent("normal:5", game)
    ship(False)
    assert type(make_agent("normal", game, seed=3)) is MCTSAgent
