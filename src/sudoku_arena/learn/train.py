"""Training the value network with PyTorch on CPU, and exporting it for NumPy.

The network (:func:`build_model`): the features, ``hidden`` layers with ReLU, one
logit; the loss is binary cross-entropy against the mover's share of the win (so its sigmoid is
the mover's chance to win), Adam with a little weight decay. Each training position is
shown in a random one of the game's symmetries (``augment``). Whole games are held out
for validation (a seeded share), so positions of one game never sit on both sides; the
hand-written evaluation's loss on them is reported beside (:func:`baseline`).

Reproducible from the seed: the initial weights come from ``torch.manual_seed``, each
epoch's order from a generator seeded by the seed and the epoch, and training runs on
one thread (the order of floating-point sums would otherwise depend on the thread
count; the operations used, linear layers, ReLU, cross-entropy and Adam, are
deterministic on CPU; ``torch.use_deterministic_algorithms`` is not called: it
imports PyTorch's compiler, two seconds for nothing here). A checkpoint after every
epoch (:mod:`.checkpoint`) holds the model, the optimiser, the losses and the best
model so far; an interrupted run goes on from the last one, to the same weights as one
that was never stopped.

The exported weights (``DIR/value.npz``, :mod:`sudoku_arena.ai.value`) are those of
the epoch with the lowest validation loss (the last epoch without a validation set).
Importing this module imports PyTorch: callers check for it first
(:func:`sudoku_arena.learn.run.check_torch`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch
from torch import nn

from sudoku_arena.ai.features import features_for
from sudoku_arena.ai.value import save_weights
from sudoku_arena.core.types import JsonDict
from sudoku_arena.learn.checkpoint import Epoch, resume, save
from sudoku_arena.learn.run import LearnError, Settings, read_run
from sudoku_arena.learn.shards import digest, read_all

WEIGHTS = "value.npz"


@dataclass(frozen=True, slots=True)
class TrainResult:
    """What :func:`train` did: epochs done before and now, the losses, the epoch
    exported, the baseline, the data's size and where the weights are."""

    done_before: int
    trained: int
    history: list[Epoch]
    best_epoch: int
    #: The hand-written evaluation on the validation positions (None: the game has none).
    baseline: Epoch | None
    positions: int
    validation_positions: int
    weights: Path
    seconds: float


def build_model(inputs: int, hidden: tuple[int, ...]) -> nn.Sequential:
    """The value network: ``inputs`` -> ``hidden`` (ReLU) -> one logit."""
    layers: list[nn.Module] = []
    width = inputs
    for h in hidden:
        layers += [nn.Linear(width, h), nn.ReLU()]
        width = h
    layers.append(nn.Linear(width, 1))
    return nn.Sequential(*layers)


def export_arrays(model: nn.Sequential) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """The model's weights (inputs x outputs) and biases as float32 NumPy arrays."""
    linears = [m for m in model if isinstance(m, nn.Linear)]
    weights = [m.weight.detach().numpy().T.astype(np.float32) for m in linears]
    biases = [m.bias.detach().numpy().astype(np.float32) for m in linears]
    return weights, biases


def split_games(games: np.ndarray, share: float, seed: int) -> np.ndarray:
    """A mask of the rows whose game is held out for validation: ``share`` of the
    games (at least one when there are two or more), drawn from ``seed``."""
    ids = np.unique(games)
    n = round(len(ids) * share)
    if share > 0 and len(ids) >= 2:
        n = min(max(n, 1), len(ids) - 1)
    held = np.random.default_rng(seed).permutation(ids)[:n]
    return np.isin(games, held)


def _loss(model: nn.Sequential, x: torch.Tensor, y: torch.Tensor) -> tuple[float, float]:
    """Mean cross-entropy and the share of positions whose winner is called right."""
    model.eval()
    with torch.no_grad():
        logits = model(x).squeeze(1)
        loss = nn.functional.binary_cross_entropy_with_logits(logits, y)
        right = ((logits > 0).float() == (y > 0.5).float()).float().mean()
    return float(loss), float(right)


def baseline(base: np.ndarray, y: np.ndarray) -> Epoch | None:
    """The hand-written evaluation's loss and accuracy on the same positions (``base``,
    the mover's value; NaN where the game has none): what learning must beat."""
    known = np.isfinite(base)
    if not known.any():
        return None
    p = np.clip(base[known].astype(np.float64), 1e-7, 1 - 1e-7)
    t = y[known].astype(np.float64)
    loss = float(-(t * np.log(p) + (1 - t) * np.log(1 - p)).mean())
    right = float(((p > 0.5) == (t > 0.5)).mean())
    return {"epoch": None, "train": None, "val": _round(loss), "val_accuracy": _round(right)}


def train(
    folder: Path,
    settings: Settings,
    *,
    on_start: Callable[[int, int], None] | None = None,
    on_epoch: Callable[[Epoch], None] | None = None,
) -> TrainResult:
    """Train on the run's shards (from its last checkpoint) and export the weights.

    ``on_start(epochs_done, epochs_to_train)`` is called first, ``on_epoch(figures)``
    after each epoch's checkpoint. A checkpoint made from other data (shards made again)
    is set aside and training starts over."""
    t0 = time.perf_counter()
    features = features_for(settings.load_game())
    data = read_all(folder, settings.shards)
    if data.x.shape[1] != features.size:
        raise LearnError(
            f"{folder / 'data'}: positions of {data.x.shape[1]} features; {settings.game} now "
            f"has {features.size} ({features.version}): make the data again in a new --out"
        )
    made_from = digest(folder, settings.shards)
    held = split_games(data.game, settings.validation, settings.seed)
    x_train, y_train = torch.from_numpy(data.x[~held]), torch.from_numpy(data.y[~held])
    x_val, y_val = torch.from_numpy(data.x[held]), torch.from_numpy(data.y[held])
    if len(y_train) == 0:
        raise LearnError(f"{folder}: no positions to train on; play more games (--games)")
    symmetries = torch.tensor(features.symmetries if settings.augment else features.symmetries[:1])
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        torch.manual_seed(settings.seed)
        model = build_model(features.size, settings.hidden)
        optimiser = torch.optim.Adam(
            model.parameters(), lr=settings.lr, weight_decay=settings.weight_decay
        )
        state = resume(folder, made_from, model, optimiser)
        history: list[Epoch] = state["history"]
        done = len(history) - 1 if history else 0
        if on_start is not None:
            on_start(done, max(settings.epochs - done, 0))
        if not history:
            history.append(_figures(0, model, x_train, y_train, x_val, y_val, None))
        for epoch in range(done + 1, settings.epochs + 1):
            running = _epoch(model, optimiser, x_train, y_train, symmetries, settings, epoch)
            history.append(_figures(epoch, model, x_train, y_train, x_val, y_val, running))
            if _better(history[-1], state["best"]):
                state["best"] = {"epoch": epoch, "val": history[-1]["val"], "model": _copy(model)}
            save(folder, made_from, model, optimiser, history, state["best"])
            if on_epoch is not None:
                on_epoch(history[-1])
        best = state["best"]
        if best is not None and len(y_val):
            model.load_state_dict(best["model"])
            chosen = int(best["epoch"])
        else:
            chosen = len(history) - 1
    finally:
        torch.set_num_threads(threads)
    base = baseline(data.base[held], data.y[held])
    weights = _export(folder, settings, model, history, chosen, base, len(data.y), made_from)
    return TrainResult(
        done, max(settings.epochs - done, 0), history, chosen, base, len(data.y), len(y_val),
        weights, time.perf_counter() - t0,
    )  # fmt: skip


def _epoch(
    model: nn.Sequential,
    optimiser: torch.optim.Optimizer,
    x: torch.Tensor,
    y: torch.Tensor,
    symmetries: torch.Tensor,
    settings: Settings,
    epoch: int,
) -> float:
    """One pass over the training rows in a seeded order, each row in a random one of
    ``symmetries`` (feature permutations); the mean loss during it."""
    seed = settings.seed * 1_000_003 + epoch
    generator = torch.Generator().manual_seed(seed)
    order = torch.randperm(len(y), generator=generator)
    model.train()
    total = 0.0
    for start in range(0, len(y), settings.batch):
        rows = order[start : start + settings.batch]
        xb = x[rows]
        if len(symmetries) > 1:
            pick = torch.randint(len(symmetries), (len(rows),), generator=generator)
            xb = torch.gather(xb, 1, symmetries[pick])
        loss = nn.functional.binary_cross_entropy_with_logits(model(xb).squeeze(1), y[rows])
        optimiser.zero_grad()
        loss.backward()  # type: ignore[no-untyped-call]
        optimiser.step()
        total += loss.item() * len(rows)
    return total / len(y)


def _figures(
    epoch: int,
    model: nn.Sequential,
    x: torch.Tensor,
    y: torch.Tensor,
    x_val: torch.Tensor,
    y_val: torch.Tensor,
    running: float | None,
) -> Epoch:
    """An epoch's figures: the training loss during it (before training: the loss of the
    initial network), and the validation loss and accuracy after it."""
    train = running if running is not None else _loss(model, x, y)[0]
    val, accuracy = _loss(model, x_val, y_val) if len(y_val) else (None, None)
    return {
        "epoch": epoch,
        "train": round(train, 6),
        "val": _round(val),
        "val_accuracy": _round(accuracy),
    }


def _round(v: float | None) -> float | None:
    return None if v is None else round(v, 6)


def _better(figures: Epoch, best: JsonDict | None) -> bool:
    val = figures["val"]
    return best is None or (val is not None and best["val"] is not None and val < best["val"])


def _copy(model: nn.Module) -> dict[str, torch.Tensor]:
    return {k: v.detach().clone() for k, v in model.state_dict().items()}


def _export(
    folder: Path,
    settings: Settings,
    model: nn.Sequential,
    history: list[Epoch],
    epoch: int,
    base: Epoch | None,
    positions: int,
    made_from: str,
) -> Path:
    run = read_run(folder)
    features = features_for(settings.load_game())
    weights, biases = export_arrays(model)
    meta: JsonDict = {
        "game": settings.game,
        "features": features.version,
        "settings": settings.to_json(),
        "code": run["code"],
        "command": run["sessions"][0]["command"],
        "epoch": epoch,
        "history": history,
        "baseline": base,
        "positions": positions,
        "data": made_from,
    }
    path = folder / WEIGHTS
    save_weights(path, weights, biases, meta)
    return path
