"""Self-play data: Tic-Tac-Sudoku's features say what they claim, games are recorded
from the mover's view, and Ray makes the same shards as local processes."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import sudoku_arena
from sudoku_arena.ai.features import features_for
from sudoku_arena.games.tic_tac_sudoku.features import (
    FIELDS,
    SIZE,
    feature_size,
    map_need,
    value_features,
)
from sudoku_arena.games.tic_tac_sudoku.rules import short_points, split
from sudoku_arena.learn.run import Settings, open_run
from sudoku_arena.learn.selfplay import generate, play_game
from sudoku_arena.learn.shards import read_shard


def _field(features: list[float], name: str) -> list[float]:
    start = 0
    for field, size in FIELDS:
        if field == name:
            return features[start : start + size]
        start += size
    raise KeyError(name)


def test_features_follow_the_mover() -> None:
    game = sudoku_arena.load("tic-tac-sudoku", seed=1)
    assert feature_size(game) == SIZE == 437
    rng = random.Random(1)
    s = game.initial_state()
    while s.current >= 0:
        f = value_features(game, s)
        assert len(f) == SIZE and all(0.0 <= v <= 1.0 for v in f)
        legal = set(game.legal_actions(s, s.current))
        assert {i for i, v in enumerate(_field(f, "reach_mine")) if v} == legal
        cells = s.cells  # 1 circle, 2 square, 3 X'd
        mine, theirs = (1, 2) if s.current == 0 else (2, 1)
        assert [float(c == mine) for c in cells] == _field(f, "mine")
        assert [float(c == theirs) for c in cells] == _field(f, "theirs")
        assert [float(c == 3) for c in cells] == _field(f, "crossed")
        assert _field(f, "mover_is_circle") == [float(s.current == 0)]
        free_lo, free_hi = split(sum(1 << i for i, c in enumerate(cells) if not c))
        short = [
            short_points(
                *split(sum(1 << i for i, c in enumerate(cells) if c == who)), free_lo, free_hi
            )
            for who in (mine, theirs)
        ]
        assert _field(f, "short") == [min(x / 20, 1.0) for x in short]
        assert _field(f, "map_need") == [
            min(map_need(s, p) / 15, 1.0) for p in (s.current, 1 - s.current)
        ]
        s = game.apply(s, rng.choice(sorted(legal)))
    with pytest.raises(ValueError, match="game is over"):
        value_features(game, s)


def test_map_need_counts_the_symbols_to_a_map_line() -> None:
    # Circle places in index order, so in the top band (boxes b1..b3): each symbol there
    # brings the top Map line one symbol closer (15 at the start).
    game = sudoku_arena.load("tic-tac-sudoku", seed=1)
    s = game.initial_state()
    assert (map_need(s, 0), map_need(s, 1)) == (15, 15)
    placed = 0
    while s.current >= 0 and placed < 6:
        if s.current == 0:
            a = min(game.legal_actions(s, 0))
            placed += a < 27  # a space of the top band
        else:
            a = max(game.legal_actions(s, 1))
        s = game.apply(s, a)
    assert placed == 6 and map_need(s, 0) == 15 - placed


def _square(n: int, k: int) -> list[int]:
    """Where each index of an ``n x n`` square goes under symmetry ``k`` (turns, mirror)."""
    out = []
    for i in range(n * n):
        r, c = divmod(i, n)
        if k % 2:
            c = n - 1 - c
        for _ in range(k // 2):
            r, c = c, n - 1 - r
        out.append(r * n + c)
    return out


def test_the_symmetries_are_those_of_the_rules() -> None:
    # The same game played on the turned or mirrored grid, move for move: its features
    # are the permuted features, its scores and its winner the same.
    game = sudoku_arena.load("tic-tac-sudoku", seed=11)
    perms = features_for(game).symmetries
    assert len(perms) == 8 and perms[0] == tuple(range(SIZE))
    for k, perm in enumerate(perms):
        cells = _square(9, k)
        grid = [0] * 81
        for i, j in enumerate(cells):
            grid[j] = game.grid[i]
        twin = sudoku_arena.load("tic-tac-sudoku", grid="".join(map(str, grid)))
        rng = random.Random(k)
        s, t = game.initial_state(), twin.initial_state()
        while s.current >= 0:
            f = value_features(game, s)
            assert [f[i] for i in perm] == value_features(twin, t)
            a = rng.choice(list(game.legal_actions(s, s.current)))
            s, t = game.apply(s, a), twin.apply(t, cells[a])
        assert (s.winner, s.scores, s.end) == (t.winner, t.scores, t.end)


def test_a_game_is_recorded_from_each_movers_view() -> None:
    settings = Settings(game="tic-tac-sudoku", games=1, sims=10, seed=3, epochs=1)
    record = play_game(settings, 0)
    assert len(record.features) == len(record.movers) == record.plies
    assert record.plies_at == list(range(record.plies))
    assert sorted(record.returns) == [0.0, 1.0]
    assert all(0.0 <= v <= 1.0 for v in record.searched + record.handwritten)
    assert play_game(settings, 0) == record  # the game depends on the seed and index only


def test_ray_makes_the_same_shards_as_local_processes(tmp_path: Path) -> None:
    pytest.importorskip("ray")
    settings = Settings(game="tic-tac-sudoku", games=4, sims=8, seed=2, epochs=1, shard_games=2)
    for name, backend in (("local", "local"), ("ray", "ray")):
        open_run(tmp_path / name, settings, "test")
        result = generate(tmp_path / name, settings, workers=2, backend=backend)
        assert (result.made, result.games) == (2, 4)
    for i in range(2):
        a, b = read_shard(tmp_path / "local", i), read_shard(tmp_path / "ray", i)
        assert (a.x == b.x).all() and (a.y == b.y).all() and (a.game == b.game).all()


def test_a_draw_is_learned_as_half_a_win_for_each_seat() -> None:
    from sudoku_arena.learn.selfplay import share

    assert [share((1.0, 0.0), p) for p in (0, 1)] == [1.0, 0.0]
    assert [share((0.0, 0.0), p) for p in (0, 1)] == [0.5, 0.5]  # the engines' draw
    assert [share((3.0, 3.0, 1.0), p) for p in (0, 1, 2)] == [0.5, 0.5, 0.0]
