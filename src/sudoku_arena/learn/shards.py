"""The self-play data: one ``.npz`` shard per block of games, in ``DIR/data``.

A shard ``shard-NNNN.npz`` holds, for every recorded position of its games, one row:

* ``x`` (float32, positions x features): the value features, the mover's view;
* ``y`` (float32): the mover's share of that game's win (1 won, 0 lost, 1/2 a draw);
* ``game`` (int32): the game's index in the run; ``ply`` (int32): plies before it;
  ``mover`` (int8): the seat to move;
* ``q`` (float32): the search's value of the position for the mover (the root's best
  mean return; NaN where there was one legal action and no search);
* ``base`` (float32): the hand-written evaluation's value for the mover (NaN for a game
  without one), the baseline a learned evaluation is measured against;

and per game ``plies`` (int32) and ``winner`` (int8, -1 for a draw). A shard is written
whole or not at all (atomic rename), byte for byte the same from the same games.
"""

from __future__ import annotations

import hashlib
import zipfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from sudoku_arena.ai.value import write_npz
from sudoku_arena.learn.run import LearnError

DATA = "data"
POSITION_KEYS = ("x", "y", "game", "ply", "mover", "q", "base")
GAME_KEYS = ("plies", "winner")


@dataclass(frozen=True, eq=False)
class Shard:
    """One shard's arrays (see the module docstring)."""

    index: int
    x: NDArray[np.float32]
    y: NDArray[np.float32]
    game: NDArray[np.int32]
    ply: NDArray[np.int32]
    mover: NDArray[np.int8]
    q: NDArray[np.float32]
    base: NDArray[np.float32]
    plies: NDArray[np.int32]
    winner: NDArray[np.int8]

    @property
    def positions(self) -> int:
        return int(self.y.shape[0])

    @property
    def games(self) -> int:
        return int(self.plies.shape[0])


def shard_path(folder: Path, index: int) -> Path:
    return folder / DATA / f"shard-{index:04d}.npz"


def missing(folder: Path, count: int) -> list[int]:
    """The indices among ``0..count-1`` of the shards ``folder`` lacks."""
    return [i for i in range(count) if not shard_path(folder, i).is_file()]


def write_shard(folder: Path, shard: Shard) -> Path:
    path = shard_path(folder, shard.index)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_npz(path, {k: getattr(shard, k) for k in (*POSITION_KEYS, *GAME_KEYS)})
    return path


def read_shard(folder: Path, index: int) -> Shard:
    """Read one shard; raises :class:`LearnError` saying how to make it again."""
    path = shard_path(folder, index)
    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = {k: np.asarray(data[k]) for k in (*POSITION_KEYS, *GAME_KEYS)}
    except (OSError, KeyError, ValueError, zipfile.BadZipFile) as exc:
        raise LearnError(
            f"{path}: cannot be read ({exc}); delete it and run again to make it anew"
        ) from None
    return Shard(
        index,
        arrays["x"].astype(np.float32),
        arrays["y"].astype(np.float32),
        arrays["game"].astype(np.int32),
        arrays["ply"].astype(np.int32),
        arrays["mover"].astype(np.int8),
        arrays["q"].astype(np.float32),
        arrays["base"].astype(np.float32),
        arrays["plies"].astype(np.int32),
        arrays["winner"].astype(np.int8),
    )


def read_all(folder: Path, count: int) -> Shard:
    """The shards ``0..count-1`` laid end to end (index -1)."""
    parts = [read_shard(folder, i) for i in range(count)]
    if not parts:
        raise LearnError(f"{folder / DATA}: no shards to train on")
    return Shard(
        -1,
        *(np.concatenate([getattr(p, k) for p in parts]) for k in (*POSITION_KEYS, *GAME_KEYS)),
    )


def digest(folder: Path, count: int) -> str:
    """A hash of the bytes of the shards ``0..count-1``: what a checkpoint was trained on."""
    h = hashlib.sha256()
    for i in range(count):
        h.update(shard_path(folder, i).read_bytes())
    return h.hexdigest()[:16]
