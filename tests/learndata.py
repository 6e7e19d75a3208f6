"""Data for the learned-evaluation tests (tests/learn): seeded random games of
Tic-Tac-Sudoku, their positions' features and results, as a run folder's shards."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np

import sudoku_arena
from sudoku_arena.games.tic_tac_sudoku.features import value_features
from sudoku_arena.learn.run import Settings, open_run
from sudoku_arena.learn.shards import Shard, write_shard

GAME = "tic-tac-sudoku"


def random_shard(index: int, games: range) -> Shard:
    """The positions of seeded random games: features from the mover's view, target
    the mover's result (a fixed data set: no search, so it never changes with it)."""
    x, y, game_of, ply, mover, plies, winner = [], [], [], [], [], [], []
    for g in games:
        rng = random.Random(g)
        game = sudoku_arena.load(GAME, seed=g)
        s = game.initial_state()
        rows: list[tuple[list[float], int, int]] = []
        while s.current >= 0:
            rows.append((value_features(game, s), s.current, len(rows)))
            s = game.apply(s, rng.choice(list(game.legal_actions(s, s.current))))
        returns = game.returns(s)
        for f, p, k in rows:
            x.append(f)
            y.append(returns[p])
            game_of.append(g)
            ply.append(k)
            mover.append(p)
        plies.append(len(rows))
        winner.append(s.winner)
    return Shard(
        index,
        np.array(x, dtype=np.float32),
        np.array(y, dtype=np.float32),
        np.array(game_of, dtype=np.int32),
        np.array(ply, dtype=np.int32),
        np.array(mover, dtype=np.int8),
        np.full(len(y), np.nan, dtype=np.float32),
        np.full(len(y), np.nan, dtype=np.float32),
        np.array(plies, dtype=np.int32),
        np.array(winner, dtype=np.int8),
    )


def fixed_run(folder: Path, **changes: object) -> Settings:
    """A run folder holding 12 random games (about 450 positions) in 2 shards, with
    settings for a small, quick training (``changes`` override them)."""
    base: dict[str, object] = {
        "game": GAME, "games": 12, "sims": 1, "seed": 5, "epochs": 6, "shard_games": 6,
        "hidden": (32, 16), "batch": 32, "lr": 3e-3, "validation": 0.25,
    }  # fmt: skip
    settings = Settings(**{**base, **changes})
    open_run(folder, settings, "test")
    for i in range(settings.shards):
        first = i * settings.shard_games
        write_shard(folder, random_shard(i, range(first, first + settings.shard_games)))
    return settings


def tiny_run(game_id: str, out: Path, sims: int = 8, *extra: str) -> Path:
    """Train ``game_id`` for a moment (2 games, one epoch, one worker) with the command
    line into ``out``; the weights' path. The command must succeed."""
    from typer.testing import CliRunner

    from sudoku_arena.cli.main import app

    args = ["train", game_id, "--out", str(out), "--games", "2", "--sims", str(sims)]
    result = CliRunner().invoke(app, [*args, "--epochs", "1", "--workers", "1", *extra])
    assert result.exit_code == 0, result.output
    return out / "value.npz"
