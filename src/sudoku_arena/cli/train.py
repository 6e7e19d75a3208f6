"""``train``: a learned evaluation by self-play (games, then a value network, then weights).

See :mod:`sudoku_arena.learn`: the run folder records the data (``data/``), the
settings, seed and code version (``run.json``), the checkpoints (``train/``) and the
weights (``value.npz``). Running the same command again resumes; other settings are
refused. PyTorch is needed here only (``pip install -e '.[train]'``), never to play.
"""

from __future__ import annotations

import importlib.machinery
import pkgutil
import shlex
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.progress import TextColumn

import sudoku_arena.games as games_package
from sudoku_arena.ai.agents import make_agent
from sudoku_arena.ai.features import MODULE
from sudoku_arena.ai.panel import PREFIX as PANEL
from sudoku_arena.ai.panel import panel_names
from sudoku_arena.cli.app import app, console, fail
from sudoku_arena.cli.progress import COLUMNS, Bar, SpeedColumn
from sudoku_arena.core.errors import ArenaError
from sudoku_arena.core.params import parse_param_text
from sudoku_arena.core.registry import load
from sudoku_arena.learn.backends import BACKENDS
from sudoku_arena.learn.run import Settings, check_torch, file_sha256, note_session, open_run

if TYPE_CHECKING:
    from sudoku_arena.learn.checkpoint import Epoch
    from sudoku_arena.learn.shards import Shard


def _command(game: str, out: Path, settings: Settings) -> str:
    """The command that makes this run (the options its results depend on)."""
    words = ["sudoku-arena", "train", game, "--out", str(out)]
    words += ["--games", str(settings.games), "--sims", str(settings.sims)]
    words += ["--epochs", str(settings.epochs), "--seed", str(settings.seed)]
    if settings.value:
        words += ["--value", settings.value]
    if settings.opponents:
        words += ["--opponents", ",".join(settings.opponents)]
        words += ["--opponent-share", str(settings.opponent_share)]
    for name, value in settings.params:
        words += ["--param", f"{name}={value}"]
    return shlex.join(words)


def built_in_games_with_features() -> list[str]:
    """The ids of the built-in games whose package has a ``features`` module, found
    without importing the games (the help is built at every start of the command
    line; :func:`sudoku_arena.ai.features.games_with_features` imports every game)."""
    found = []
    for info in pkgutil.iter_modules(games_package.__path__):
        finder = info.module_finder
        if info.ispkg and isinstance(finder, importlib.machinery.FileFinder):
            where = [str(Path(finder.path) / info.name)]
            if importlib.machinery.PathFinder.find_spec(MODULE, where) is not None:
                found.append(info.name.replace("_", "-"))  # the package of game id a-b is a_b
    return sorted(found)


@app.command()
def train(
    game: Annotated[
        str,
        typer.Argument(
            help=f"game id (games with value features: {', '.join(built_in_games_with_features())})"
        ),
    ],
    out: Annotated[
        Path | None, typer.Option(help="run folder, resumable (default: train-GAME)")
    ] = None,
    games: Annotated[int, typer.Option(min=1, help="self-play games")] = 2000,
    sims: Annotated[int, typer.Option(min=1, help="search simulations per self-play move")] = 300,
    epochs: Annotated[int, typer.Option(min=1, help="training epochs (raise it to train on)")] = 20,
    seed: Annotated[int, typer.Option(help="seed of the run: games, split and weights")] = 0,
    workers: Annotated[
        int | None, typer.Option(min=1, help="self-play processes (default: every core)")
    ] = None,
    value: Annotated[
        Path | None,
        typer.Option(help="weights an earlier run made: self-play evaluates with them"),
    ] = None,
    opponents: Annotated[
        str | None,
        typer.Option(
            help="agents that take one seat in a share of the games, comma-separated "
            "(panel:lowest,panel:highest; 'panel:*' for the game's whole exploit panel)"
        ),
    ] = None,
    opponent_share: Annotated[
        float, typer.Option(min=0.0, max=1.0, help="share of the games with an opponent")
    ] = 0.25,
    param: Annotated[
        list[str] | None,
        typer.Option(
            "--param", help="NAME=VALUE: a game parameter for the self-play games (repeatable)"
        ),
    ] = None,
    backend: Annotated[str, typer.Option(help="local or ray")] = "local",
    address: Annotated[
        str | None, typer.Option(help="address of a running Ray cluster (with --backend ray)")
    ] = None,
) -> None:
    """Learn an evaluation by self-play: games with the search, a value network, weights.

    Plays GAME by self-play with the search, trains a value network on the games
    (PyTorch, CPU) and exports weights the search plays with
    (learned:normal@DIR/value.npz). Run again with the same --out to resume. With
    --value DIR/value.npz the self-play search evaluates with those weights: the next
    generation learns from the games of the previous one."""
    if backend not in BACKENDS:
        fail(f"--backend {backend!r}: allowed: {', '.join(BACKENDS)}")
    if address is not None and backend != "ray":
        fail("--address names a Ray cluster: give it with --backend ray")
    from sudoku_arena.ai.value import load_weights  # NumPy: only when training
    from sudoku_arena.learn.selfplay import check_game

    folder = out if out is not None else Path(f"train-{game}")
    try:
        digest = "" if value is None else file_sha256(value)
        outsiders, share = _opponents(game, opponents, opponent_share)
        settings = Settings(
            game=game,
            games=games,
            sims=sims,
            seed=seed,
            epochs=epochs,
            value="" if value is None else str(value.resolve()),
            value_sha256=digest,
            opponents=outsiders,
            opponent_share=share,
            params=_params(game, param),
        )
        features = check_game(settings.load_game(seed=seed))
        if value is not None:
            load_weights(value, features)  # refused here, before any game is played
        check_torch()
        notes = open_run(folder, settings, _command(game, folder, settings))
    except ArenaError as exc:
        fail(str(exc))
    for note in notes:
        _say(f"note: {note}")
    _selfplay(folder, settings, workers, backend, address)
    _train(folder, settings)


def _params(game_id: str, items: list[str] | None) -> tuple[tuple[str, str], ...]:
    """``--param NAME=VALUE`` items, sorted by name; the game checks the values when
    it is built with them (``Settings.load_game``). Learned evaluations are for two
    seats, so a game that seats another number by default (Cat Sudoku: one) is played
    by two unless ``players`` is given."""
    found = parse_param_text(items or [])
    default = load(game_id)
    if "players" not in found and default.num_players != 2 and default.spec.min_players <= 2:
        found["players"] = "2"
    return tuple(sorted(found.items()))


def _opponents(game_id: str, names: str | None, share: float) -> tuple[tuple[str, ...], float]:
    """The ``opponents`` and ``opponent_share`` settings from the options, each name
    checked by making the agent (``panel:*``: the game's whole exploit panel)."""
    if not names:
        return (), 0.0
    game = load(game_id, seed=0)
    found: list[str] = []
    for name in (n.strip() for n in names.split(",")):
        if name == f"{PANEL}:*":
            found += panel_names(game)
        elif name:
            make_agent(name, game, seed=0)  # an unknown name is refused here, saying why
            found.append(name)
    return tuple(dict.fromkeys(found)), share


def _selfplay(
    folder: Path, settings: Settings, workers: int | None, backend: str, address: str | None
) -> None:
    from sudoku_arena.learn.selfplay import generate

    with Bar(*COLUMNS[:3], SpeedColumn(), *COLUMNS[3:], console=console) as bar:
        task = bar.add_task("self-play", total=settings.games)

        def start(kept: int, todo: int) -> None:
            if kept:
                _say(f"{kept} games kept from before; {todo} to play")
            bar.update(task, completed=0, total=todo)

        def shard(s: Shard) -> None:
            bar.advance(task, s.games)

        try:
            result = generate(
                folder,
                settings,
                workers=workers,
                backend=backend,
                address=address,
                on_start=start,
                on_shard=shard,
            )
        except ArenaError as exc:
            fail(str(exc))
    if result.interrupted:
        _say(
            f"interrupted: {result.kept + result.made} shards kept in {folder}; "
            "run the same command again to resume"
        )
        raise typer.Exit(130)
    if result.games:
        rate = result.games / result.seconds if result.seconds > 0 else 0.0
        _say(
            f"self-play: {result.games} games, {result.positions} positions in "
            f"{result.seconds:.1f} s ({rate:.2f} games/s)"
        )
        note_session(
            folder,
            games=result.games,
            positions=result.positions,
            selfplay_seconds=round(result.seconds, 2),
        )


def _train(folder: Path, settings: Settings) -> None:
    from sudoku_arena.learn.train import train  # PyTorch: only now

    with Bar(*COLUMNS, TextColumn("{task.fields[loss]}"), console=console) as bar:
        task = bar.add_task("training", total=settings.epochs, loss="")

        def start(done: int, todo: int) -> None:
            if done:
                _say(f"{done} epochs trained before; {todo} to train")
            bar.update(task, completed=done)

        def epoch(figures: Epoch) -> None:
            bar.update(task, advance=1, loss=_losses(figures))
            _say(f"epoch {figures['epoch']}: {_losses(figures)}")

        try:
            result = train(folder, settings, on_start=start, on_epoch=epoch)
        except KeyboardInterrupt:
            _say(
                f"interrupted: the last epoch's checkpoint is kept in {folder}; "
                "run the same command again to resume"
            )
            raise typer.Exit(130) from None
        except ArenaError as exc:
            fail(str(exc))
    best = result.history[result.best_epoch]
    _say(
        f"trained on {result.positions - result.validation_positions} positions, validated on "
        f"{result.validation_positions}; exported epoch {result.best_epoch}: {_losses(best)}"
    )
    if result.baseline is not None:
        _say(f"the hand-written evaluation on the same positions: {_val(result.baseline)}")
    if result.trained:
        note_session(
            folder,
            epochs=result.trained,
            train_seconds=round(result.seconds, 2),
            exported_epoch=result.best_epoch,
        )
    _say(f"weights: {result.weights}")
    players = shlex.quote(f"learned:normal@{result.weights},normal")
    _say(f"play with them: sudoku-arena tournament {settings.game} --players {players} --games 20")


def _losses(figures: Epoch) -> str:
    text = f"train loss {figures['train']:.4f}"
    return text if figures["val"] is None else f"{text}, {_val(figures)}"


def _val(figures: Epoch) -> str:
    return f"validation loss {figures['val']:.4f} (winner right {figures['val_accuracy']:.1%})"


def _say(text: str) -> None:
    # One line to copy: not wrapped by Rich (the terminal wraps it for the eye).
    console.print(text, markup=False, highlight=False, soft_wrap=True)
