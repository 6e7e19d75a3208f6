"""The Typer application and the helpers every command shares."""

from __future__ import annotations

import importlib.metadata
import os
from pathlib import Path
from typing import Annotated, NoReturn

import typer
from rich.console import Console
from rich.text import Text

from sudoku_arena._build import build_description
from sudoku_arena.cli.words import clip_quotes
from sudoku_arena.core.errors import ArenaError, InvalidParameterError
from sudoku_arena.core.params import parse_param_text
from sudoku_arena.core.protocol import AnyGame
from sudoku_arena.core.registry import load
from sudoku_arena.core.types import JsonDict

app = typer.Typer(
    name="sudoku-arena",
    help="Play, replay, simulate and check the five Sudoku Arena games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)
console = Console(highlight=False)
err_console = Console(stderr=True, highlight=False)


def version_line() -> str:
    """``sudoku-arena 0.1.0, compiled with mypyc (28 modules)``: version and build."""
    return f"sudoku-arena {importlib.metadata.version('sudoku-arena')}, {build_description()}"


def _version(show: bool) -> None:
    if show:
        console.print(version_line())
        raise typer.Exit()


@app.callback()
def _main(
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            callback=_version,
            is_eager=True,
            help="show the version and whether the compiled engines run, and exit",
        ),
    ] = False,
) -> None:
    """Play, replay, simulate and check the five Sudoku Arena games."""


def fail(message: str, code: int = 2) -> NoReturn:
    """Print ``message`` as an error and exit with ``code``."""
    # The message often quotes the user's own text: never read it as Rich markup, and
    # cut a long quoted echo short.
    err_console.print(Text.assemble(("error: ", "bold red"), clip_quotes(message)), soft_wrap=True)
    raise typer.Exit(code)


def check_output(path: Path, option: str) -> None:
    """Refuse, before any game is played, an output path that cannot be written."""
    if path.is_dir():
        fail(f"{option} {path}: is a folder; give a file name such as games.jsonl")
    folder = path.parent
    if not folder.is_dir():
        fail(f"{option} {path}: the folder {folder} does not exist; create it first")
    if not os.access(folder, os.W_OK):
        fail(f"{option} {path}: the folder {folder} is not writable")


def game_params(items: list[str] | None, extra: JsonDict | None = None) -> JsonDict:
    """``--param NAME=VALUE`` items as a dict; ``NAME=@FILE`` reads the file's text."""
    params: JsonDict = dict(parse_param_text(items or []))
    for name, value in list(params.items()):
        if isinstance(value, str) and value.startswith("@"):
            params[name] = read_text_param(name, value[1:])
    for name, value in (extra or {}).items():
        if value is not None:
            params[name] = value
    return params


def read_text_param(name: str, path: str) -> str:
    try:
        return Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise InvalidParameterError(f"{name}: {path} is not a UTF-8 text file") from None
    except OSError as exc:
        raise InvalidParameterError(f"{name}: cannot read {path}: {exc.strerror}") from None


def load_game(game_id: str, params: JsonDict, seed: int) -> AnyGame:
    """Load a game to be played from ``seed`` (generated parameters from its public
    part, see ``core.registry.load``) or exit with the error's message."""
    try:
        return load(game_id, seed=seed, **params)
    except ArenaError as exc:
        fail(str(exc))


def parse_players(text: str) -> list[str]:
    """``"human,greedy"`` as a list of names; refuses empty names."""
    names = [p.strip() for p in text.split(",")]
    if not names or any(not n for n in names):
        fail(f"--players {text!r}: give a comma-separated list such as human,greedy")
    return names
