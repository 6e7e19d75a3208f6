"""``sudoku-arena train``: a tiny run end to end, resumed, refused with other settings;
reproducible from its seed; bad input and a missing PyTorch said in one line."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from sudoku_arena.ai.value import load_weights
from sudoku_arena.cli.main import app
from sudoku_arena.core.errors import ArenaError
from sudoku_arena.learn.run import Settings, open_run
from sudoku_arena.learn.selfplay import generate
from sudoku_arena.learn.shards import read_shard


def train_cli(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, ["train", *args], env={"COLUMNS": "200"})
    return result.exit_code, result.output


def test_a_tiny_run_then_resumes_and_refuses_other_settings(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    out = tmp_path / "run"
    tiny = ["tic-tac-sudoku", "--out", str(out), "--games", "4", "--sims", "20"]
    code, output = train_cli(*tiny, "--epochs", "2", "--workers", "1")
    assert code == 0, output
    assert "self-play: 4 games" in output and "epoch 2: train loss" in output
    assert "the hand-written evaluation on the same positions: validation loss" in output
    assert f"weights: {out / 'value.npz'}" in output
    assert f"--players learned:normal@{out / 'value.npz'},normal" in output
    run = json.loads((out / "run.json").read_text())
    assert run["settings"]["seed"] == 0 and run["code"]["sources"]
    assert run["sessions"][0]["command"].startswith("sudoku-arena train tic-tac-sudoku")
    assert run["sessions"][0]["games"] == 4 and run["sessions"][0]["epochs"] == 2
    net = load_weights(out / "value.npz")
    assert net.meta["settings"] == run["settings"] and len(net.meta["history"]) == 3
    files = {p: p.read_bytes() for p in out.rglob("*") if p.is_file() and p.name != "run.json"}

    code, output = train_cli(*tiny, "--epochs", "2")
    assert code == 0, output
    assert "4 games kept from before; 0 to play" in output
    assert "2 epochs trained before; 0 to train" in output and "epoch 1:" not in output
    assert {p: p.read_bytes() for p in files} == files  # nothing played or trained anew

    code, output = train_cli("tic-tac-sudoku", "--out", str(out), "--games", "4", "--sims", "30")
    assert code == 2
    assert "holds a run with other settings: sims 20 (now 30)" in output
    assert {p: p.read_bytes() for p in files} == files


def test_the_same_seed_gives_the_same_data_and_weights(tmp_path: Path) -> None:
    torch = pytest.importorskip("torch")
    from sudoku_arena.learn.train import train

    settings = Settings(game="tic-tac-sudoku", games=4, sims=12, seed=9, epochs=2, shard_games=2)
    weights = []
    for name, workers in (("a", 1), ("b", 2)):  # in this process, then in two workers
        open_run(tmp_path / name, settings, "test")
        generate(tmp_path / name, settings, workers=workers)
        weights.append(load_weights(train(tmp_path / name, settings).weights))
    for i in range(settings.shards):
        shard = f"data/shard-{i:04d}.npz"
        assert (tmp_path / "a" / shard).read_bytes() == (tmp_path / "b" / shard).read_bytes()
    for a, b in zip(weights[0].weights, weights[1].weights, strict=True):
        assert np.array_equal(a, b)
    other = Settings(game="tic-tac-sudoku", games=4, sims=12, seed=10, epochs=2, shard_games=2)
    open_run(tmp_path / "c", other, "test")
    generate(tmp_path / "c", other, workers=1)
    assert not np.array_equal(read_shard(tmp_path / "a", 0).x, read_shard(tmp_path / "c", 0).x)
    assert torch.get_num_threads() >= 1  # training gave the threads back


def test_bad_input_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = ["--out", str(tmp_path / "x")]
    code, output = train_cli("cat-sudoku", *out, "--param", "players=3")
    assert code == 2 and "learned evaluations are for two seats" in output
    code, output = train_cli("tic-tac-sudoku", *out, "--backend", "slurm")
    assert code == 2 and "allowed: local, ray" in output
    code, output = train_cli("nope", *out)
    assert code == 2 and "no game called 'nope'" in output
    if importlib.util.find_spec("torch") is not None:  # the folder is looked at after
        (tmp_path / "full").mkdir()
        (tmp_path / "full" / "notes.txt").write_text("mine")
        code, output = train_cli("tic-tac-sudoku", "--out", str(tmp_path / "full"))
        assert code == 2 and "not empty and holds no run" in output
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "torch" else real(name, *a)
    )
    code, output = train_cli("tic-tac-sudoku", *out)
    assert code == 2 and "training needs PyTorch: pip install -e '.[train]'" in output
    assert not (tmp_path / "x").exists()


def test_a_second_generation_plays_its_games_with_the_first_ones_weights(
    tmp_path: Path,
) -> None:
    pytest.importorskip("torch")
    first, second = tmp_path / "gen1", tmp_path / "gen2"
    tiny = ["tic-tac-sudoku", "--games", "4", "--sims", "20", "--epochs", "1", "--workers", "1"]
    assert train_cli(*tiny, "--out", str(first))[0] == 0
    weights = first / "value.npz"
    code, output = train_cli(*tiny, "--out", str(second), "--value", str(weights))
    assert code == 0, output
    run = json.loads((second / "run.json").read_text())
    assert run["settings"]["value"] == str(weights.resolve())
    assert len(run["settings"]["value_sha256"]) == 64
    assert f"--value {weights.resolve()}" in run["sessions"][0]["command"]
    # Leaves valued by the network, not the hand-written evaluation: other games.
    a, b = read_shard(first, 0), read_shard(second, 0)
    assert not np.array_equal(a.q, b.q, equal_nan=True)

    # Other weights under the same name: resuming would mix two networks' games.
    weights.write_bytes(weights.read_bytes() + b"\0")
    code, output = train_cli(*tiny, "--out", str(second), "--value", str(weights))
    assert code == 2 and "value_sha256" in output

    code, output = train_cli(*tiny, "--out", str(tmp_path / "x"), "--value", str(tmp_path))
    assert code == 2 and "--value" in output and "Traceback" not in output


def test_opponents_take_a_seat_in_a_share_of_the_games(tmp_path: Path) -> None:
    from sudoku_arena.learn.selfplay import play_game

    plain = Settings(game="tic-tac-sudoku", games=8, sims=8, seed=3, epochs=1)
    mixed = Settings(
        game="tic-tac-sudoku", games=8, sims=8, seed=3, epochs=1,
        opponents=("panel:lowest",), opponent_share=0.5,
    )  # fmt: skip
    with_outsider = 0
    for g in range(8):
        a, b = play_game(plain, g), play_game(mixed, g)
        if not any(np.isnan(q) for q in b.searched):
            assert a.features == b.features  # no opponent drawn: the very same game
        else:
            with_outsider += 1
            # The outsider's moves are not searched (NaN), and only after the random
            # opening plies, which stay the search's; the game went another way.
            assert not any(np.isnan(q) for q in b.searched[: plain.random_plies])
            assert a.features != b.features
    assert 0 < with_outsider < 8

    code, output = train_cli(
        "tic-tac-sudoku", "--out", str(tmp_path / "r"), "--games", "2", "--sims", "5",
        "--epochs", "1", "--workers", "1", "--opponents", "panel:*",
    )  # fmt: skip
    assert code == 0, output
    settings = json.loads((tmp_path / "r" / "run.json").read_text())["settings"]
    assert "panel:lowest" in settings["opponents"] and settings["opponent_share"] == 0.25
    code, output = train_cli(
        "tic-tac-sudoku", "--out", str(tmp_path / "x"), "--opponents", "panel:nobody"
    )
    assert code == 2 and "'nobody'" in output and "panel:lowest" in output
    assert "Traceback" not in output
    old = Settings.from_json({k: v for k, v in plain.to_json().items() if k != "opponents"})
    assert old == plain  # a run recorded before opponents existed reads as it was


def test_game_parameters_shape_the_self_play_games_and_the_features(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    from sudoku_arena.ai.features import features_for
    from sudoku_arena.core.registry import load
    from sudoku_arena.learn.selfplay import play_game

    small = (("size", "9"),)
    two, three = (
        Settings(game="citadel", games=1, sims=4, seed=0, epochs=1, params=(*small, turns))
        for turns in (("max_turns", "2"), ("max_turns", "3"))
    )
    # The same seed plays the same game until the shorter limit ends it.
    assert play_game(two, 0).plies < play_game(three, 0).plies

    out = tmp_path / "run"
    code, output = train_cli(
        "citadel", "--out", str(out), "--games", "1", "--sims", "4", "--epochs", "1",
        "--workers", "1", "--param", "size=9", "--param", "max_turns=2",
    )  # fmt: skip
    assert code == 0, output
    run = json.loads((out / "run.json").read_text())
    assert run["settings"]["params"] == {"max_turns": "2", "size": "9"}
    assert "--param max_turns=2 --param size=9" in run["sessions"][0]["command"]
    # The weights take the 9 x 9 board's features (they differ from the 19 x 19 one's).
    assert load_weights(out / "value.npz", features_for(load("citadel", size=9)))
    with pytest.raises(ArenaError, match="features"):
        load_weights(out / "value.npz", features_for(load("citadel")))

    code, output = train_cli("citadel", "--out", str(tmp_path / "x"), "--param", "max_turns=0")
    assert code == 2 and "max_turns" in output and "Traceback" not in output
    code, output = train_cli("citadel", "--out", str(tmp_path / "x"), "--param", "turns")
    assert code == 2 and "is not NAME=VALUE" in output
    assert not (tmp_path / "x").exists()
    old = {k: v for k, v in two.to_json().items() if k != "params"}
    assert Settings.from_json(old).params == ()  # a run recorded before params existed
