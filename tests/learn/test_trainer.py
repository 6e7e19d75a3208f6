"""The trainer: it lowers its loss on a fixed data set, an interrupted training resumes
to the same weights, and the exported weights compute what PyTorch computes."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest

from learndata import fixed_run
from sudoku_arena.ai.value import load_weights
from sudoku_arena.learn.run import open_run

torch = pytest.importorskip("torch")

from sudoku_arena.learn.train import build_model, export_arrays, train  # noqa: E402


def test_training_lowers_the_loss_on_a_fixed_data_set(tmp_path: Path) -> None:
    settings = fixed_run(tmp_path / "run")
    result = train(tmp_path / "run", settings)
    losses = [e["train"] for e in result.history]
    assert len(losses) == settings.epochs + 1  # before training, then each epoch
    assert losses[-1] < losses[0] - 0.2, losses
    assert result.validation_positions > 0 and result.history[-1]["val"] is not None
    assert result.weights == tmp_path / "run" / "value.npz"
    net = load_weights(result.weights)
    assert net.meta["game"] == "tic-tac-sudoku" and net.meta["epoch"] == result.best_epoch
    assert net.meta["history"] == result.history and net.meta["hidden"] == [32, 16]


def test_exported_weights_compute_what_torch_computes(tmp_path: Path) -> None:
    torch.manual_seed(1)
    model = build_model(433, (128, 64))
    x = torch.rand(64, 433)
    x[x < 0.7] = 0.0  # sparse, as the board planes are
    with torch.no_grad():
        expected = torch.sigmoid(model(x).squeeze(1)).numpy()
    from sudoku_arena.ai.value import save_weights

    weights, biases = export_arrays(model)
    save_weights(tmp_path / "w.npz", weights, biases, {"game": "tic-tac-sudoku"})
    net = load_weights(tmp_path / "w.npz")
    assert np.abs(net.forward(x.numpy()) - expected).max() < 1e-5
    one = [net.value(list(map(float, row))) for row in x.numpy()]
    assert np.abs(np.array(one) - expected).max() < 1e-5


def test_an_interrupted_training_resumes_to_the_same_weights(tmp_path: Path) -> None:
    whole = fixed_run(tmp_path / "whole", epochs=4)
    train(tmp_path / "whole", whole)
    part = fixed_run(tmp_path / "part", epochs=2)
    first = train(tmp_path / "part", part)
    assert (first.done_before, first.trained) == (0, 2)
    again = train(tmp_path / "part", part)  # nothing left to do
    assert (again.done_before, again.trained) == (2, 0)
    longer = dataclasses.replace(part, epochs=4)  # what --epochs 4 asks of the same run
    open_run(tmp_path / "part", longer, "test")
    more = train(tmp_path / "part", longer)
    assert (more.done_before, more.trained) == (2, 2)
    a, b = (
        load_weights(tmp_path / "whole" / "value.npz"),
        load_weights(tmp_path / "part" / "value.npz"),
    )
    for wa, wb in zip(a.weights + a.biases, b.weights + b.biases, strict=True):
        assert np.array_equal(wa, wb)
