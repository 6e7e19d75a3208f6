"""A training run's checkpoint (``train/checkpoint.pt``), written after every epoch.

It holds the model, the optimiser's state, every epoch's figures so far, the best model
by validation loss, and a hash of the shards it was trained on: a checkpoint of other
data (shards made again) is set aside (``checkpoint-other-data.pt``) and training
starts over. Written atomically; read with ``weights_only`` (no pickled code).
"""

from __future__ import annotations

import os
from pathlib import Path

import torch
from torch import nn

from sudoku_arena.core.types import JsonDict
from sudoku_arena.learn.run import LearnError

CHECKPOINT = Path("train") / "checkpoint.pt"
#: One epoch's figures: ``epoch`` (0 is before training), ``train`` and ``val`` losses
#: (``val`` is None without a validation set), ``val_accuracy`` (the share of positions
#: whose winner the network calls right).
Epoch = dict[str, float | int | None]


def resume(
    folder: Path, made_from: str, model: nn.Module, optimiser: torch.optim.Optimizer
) -> JsonDict:
    """Load the last checkpoint into ``model`` and ``optimiser``; return its history and
    best model (empty for a fresh start, or for a checkpoint of other data)."""
    path = folder / CHECKPOINT
    if not path.is_file():
        return {"history": [], "best": None}
    try:
        saved = torch.load(path, weights_only=True)
        if saved["data"] != made_from:
            os.replace(path, path.with_name("checkpoint-other-data.pt"))
            return {"history": [], "best": None}
        model.load_state_dict(saved["model"])
        optimiser.load_state_dict(saved["optimiser"])
    except (OSError, RuntimeError, KeyError, ValueError) as exc:
        raise LearnError(
            f"{path}: cannot be read ({exc}); delete it to train from the start"
        ) from None
    return {"history": list(saved["history"]), "best": saved["best"]}


def save(
    folder: Path,
    made_from: str,
    model: nn.Module,
    optimiser: torch.optim.Optimizer,
    history: list[Epoch],
    best: JsonDict | None,
) -> None:
    path = folder / CHECKPOINT
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.partial")
    state = {"data": made_from, "model": model.state_dict(), "optimiser": optimiser.state_dict()}
    torch.save({**state, "history": history, "best": best}, tmp)
    os.replace(tmp, path)
