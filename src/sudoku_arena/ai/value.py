"""A learned value function at play time: weights in a ``.npz``, evaluated with NumPy.

The network is a small multi-layer perceptron: the game's value features
(:mod:`sudoku_arena.ai.features`), hidden layers with ReLU, one output through a
sigmoid: the chance that the seat to move wins. Training (``sudoku-arena train``,
:mod:`sudoku_arena.learn`) needs PyTorch; playing needs only NumPy, which the base
install has (through matplotlib).

The weights file (``.npz``, no pickles) holds ``w0, b0, w1, b1, ...`` (``w`` of shape
inputs x outputs, ``x @ w + b``) and ``meta``, a JSON text: ``format``
(:data:`FORMAT`), ``game``, ``features`` (the feature set's version), ``inputs``,
``hidden``, and whatever the trainer adds (settings, code version, the command that
made it, the losses). Files are written byte for byte the same from the same arrays.

A game's shipped weights live in its package as ``value.npz`` (:data:`PACKAGE_FILE`).
"""

from __future__ import annotations

import functools
import io
import json
import math
import os
import zipfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib.resources import as_file, files
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from sudoku_arena.ai.features import PACKAGE_FILE, FeatureSet, features_module
from sudoku_arena.core.errors import ArenaError
from sudoku_arena.core.protocol import AnyGame
from sudoku_arena.core.search import EvaluateFn
from sudoku_arena.core.types import JsonDict

#: The name of the weights format (kept in ``meta``); another format is refused.
FORMAT = "sudoku-arena-value/1"
#: A fixed time stamp for the archive's members, so equal arrays give equal files.
_EPOCH = (1980, 1, 1, 0, 0, 0)

Array = NDArray[np.float32]


class WeightsError(ArenaError):
    """A weights file that cannot be used: missing, malformed, or for another game."""


def write_npz(path: Path, arrays: Mapping[str, NDArray[np.generic]]) -> None:
    """Write ``arrays`` as a compressed ``.npz`` that ``np.load`` reads, atomically, and
    byte for byte the same whenever the arrays are (NumPy's own writer stamps the time)."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, array in arrays.items():
            member = io.BytesIO()
            np.lib.format.write_array(member, np.asarray(array, order="C"), allow_pickle=False)
            info = zipfile.ZipInfo(f"{name}.npy", date_time=_EPOCH)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            zf.writestr(info, member.getvalue())
    tmp = path.with_name(f".{path.name}.partial")
    tmp.write_bytes(buf.getvalue())
    os.replace(tmp, path)


@dataclass(frozen=True, eq=False)
class ValueNet:
    """The network: ``weights[i]`` (inputs x outputs) and ``biases[i]`` per layer, ReLU
    between layers, a sigmoid at the end; ``meta`` as stored."""

    weights: tuple[Array, ...]
    biases: tuple[Array, ...]
    meta: JsonDict

    @property
    def inputs(self) -> int:
        return int(self.weights[0].shape[0])

    def forward(self, x: Array) -> Array:
        """The mover's chance to win for each row of ``x`` (``n x inputs``), shape ``n``."""
        h = x.astype(np.float32, copy=False)
        for w, b in zip(self.weights[:-1], self.biases[:-1], strict=True):
            h = np.maximum(h @ w + b, np.float32(0.0))
        z = (h @ self.weights[-1] + self.biases[-1])[..., 0]
        # tanh form of the sigmoid: no overflow for large negative z.
        out: Array = (np.float32(0.5) * (np.float32(1.0) + np.tanh(np.float32(0.5) * z))).astype(
            np.float32
        )
        return out

    def value(self, features: Sequence[float]) -> float:
        """The mover's chance to win for one position's features (the search's hot path:
        one small matrix-vector product per layer), as :meth:`forward` gives it."""
        x = np.array(features, dtype=np.float32)
        # Features are mostly zeros (board planes): the first layer reads only the rows
        # of the inputs that are set. Faster, and small enough that BLAS never spreads
        # it over threads (a 4,098-input product did, four times slower on a busy box).
        set_ = x.nonzero()[0]
        h = x[set_] @ self.weights[0][set_]
        h += self.biases[0]
        for w, b in zip(self.weights[1:], self.biases[1:], strict=True):
            np.maximum(h, 0.0, out=h)
            h = h @ w
            h += b
        z = float(h[0])
        return 0.5 + 0.5 * math.tanh(0.5 * z)


def save_weights(
    path: Path, weights: Sequence[Array], biases: Sequence[Array], meta: JsonDict
) -> None:
    """Write a network in the weights format (``meta`` gets ``format``, ``inputs``,
    ``hidden``); see the module docstring."""
    full = {
        **meta,
        "format": FORMAT,
        "inputs": int(weights[0].shape[0]),
        "hidden": [int(w.shape[1]) for w in weights[:-1]],
    }
    arrays: dict[str, NDArray[np.generic]] = {}
    for i, (w, b) in enumerate(zip(weights, biases, strict=True)):
        arrays[f"w{i}"] = np.asarray(w, dtype=np.float32)
        arrays[f"b{i}"] = np.asarray(b, dtype=np.float32)
    arrays["meta"] = np.array(json.dumps(full, sort_keys=True))
    write_npz(path, arrays)


def load_weights(path: Path, features: FeatureSet | None = None) -> ValueNet:
    """Read and check a weights file; with ``features``, also that it was made for that
    game and feature set. Raises :class:`WeightsError` saying what is wrong."""
    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = {k: np.asarray(data[k]) for k in data.files}
    except FileNotFoundError:
        raise WeightsError(f"weights {path}: no such file") from None
    except (OSError, ValueError, zipfile.BadZipFile) as exc:
        raise WeightsError(f"weights {path}: not a weights file (.npz): {exc}") from None
    try:
        meta = json.loads(str(arrays.pop("meta")))
    except (KeyError, ValueError):
        raise WeightsError(
            f"weights {path}: no readable meta; not made by sudoku-arena train"
        ) from None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise WeightsError(f"weights {path}: format {meta.get('format')!r}, expected {FORMAT!r}")
    n = len(arrays) // 2
    if n < 1 or set(arrays) != {f"{k}{i}" for i in range(n) for k in "wb"}:
        raise WeightsError(f"weights {path}: expected arrays w0, b0, ..., got {sorted(arrays)}")
    ws = tuple(arrays[f"w{i}"].astype(np.float32) for i in range(n))
    bs = tuple(arrays[f"b{i}"].astype(np.float32) for i in range(n))
    width = ws[0].shape[0] if ws[0].ndim == 2 else -1
    for i, (w, b) in enumerate(zip(ws, bs, strict=True)):
        if w.ndim != 2 or b.shape != (w.shape[1],) or w.shape[0] != width:
            raise WeightsError(f"weights {path}: layer {i} has shapes {w.shape} and {b.shape}")
        if not (np.isfinite(w).all() and np.isfinite(b).all()):
            raise WeightsError(f"weights {path}: layer {i} holds values that are not finite")
        width = w.shape[1]
    if width != 1:
        raise WeightsError(f"weights {path}: the last layer has {width} outputs; expected 1")
    if features is not None:
        _check_made_for(path, meta, ws[0].shape[0], features)
    return ValueNet(ws, bs, meta)


def _check_made_for(path: Path, meta: JsonDict, inputs: int, features: FeatureSet) -> None:
    if meta.get("game") != features.game_id:
        raise WeightsError(f"weights {path}: made for {meta.get('game')!r}, not {features.game_id}")
    if meta.get("features") != features.version or inputs != features.size:
        raise WeightsError(
            f"weights {path}: made from the features {meta.get('features')!r} ({inputs} "
            f"inputs); {features.game_id} now has {features.version!r} ({features.size}); "
            "train them again"
        )


def package_weights(game: AnyGame, features: FeatureSet) -> ValueNet | None:
    """The weights shipped in ``game``'s package (``value.npz``), or ``None`` if none.
    Read once per process and feature set (the server makes a bot for every move)."""
    return _package_weights(features_module(game).rpartition(".")[0], features)


@functools.lru_cache(maxsize=32)
def _package_weights(package: str, features: FeatureSet) -> ValueNet | None:
    try:
        resource = files(package) / PACKAGE_FILE
    except (ModuleNotFoundError, TypeError):
        return None
    if not resource.is_file():
        return None
    with as_file(resource) as path:
        return load_weights(path, features)


def value_evaluator(net: ValueNet, features: FeatureSet) -> EvaluateFn:
    """An ``evaluate(game, state)`` for :class:`~sudoku_arena.core.search.SearchHints`:
    the network's chance for the seat to move (the first, in a simultaneous phase), the
    rest for the other seat; at the end the result (:func:`share`). Not for chance
    nodes, where nobody is to move: the search hints that use it set
    ``evaluate_chance`` off."""
    if net.inputs != features.size:
        raise WeightsError(
            f"the network takes {net.inputs} inputs; the features are {features.size}"
        )
    values, value = features.values, net.value

    def evaluate(game: AnyGame, s: object) -> tuple[float, float]:
        tm = game.to_move(s)
        if tm.is_terminal:
            won = share(game.returns(s), 0)
            return (won, 1.0 - won)
        v = value(values(game, s))
        return (v, 1.0 - v) if tm.players[0] == 0 else (1.0 - v, v)

    return evaluate


def share(returns: Sequence[float], seat: int) -> float:
    """``seat``'s share of the win, the value the network learns: 1 won alone, 0 lost,
    1/k for one of k seats tied for the best (a two-seat draw is 1/2 each, not the 0 the
    engines return to both: the evaluator gives the other seat ``1 - v``)."""
    best = max(returns)
    tied = sum(1 for r in returns if r == best)
    return 1.0 / tied if returns[seat] == best else 0.0
