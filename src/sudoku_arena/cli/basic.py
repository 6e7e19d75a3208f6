"""``list`` and ``check``: what games there are, and whether they keep the contract."""

from __future__ import annotations

from functools import partial
from typing import Annotated

import typer
from rich.progress import Progress, TaskID
from rich.table import Table
from rich.text import Text

from sudoku_arena.cli.app import app, console, fail, game_params, version_line
from sudoku_arena.core.errors import ArenaError
from sudoku_arena.core.registry import registered_games, spec_of
from sudoku_arena.core.types import GameSpec
from sudoku_arena.testing import ConformanceError, check_game


def _kind(spec: GameSpec) -> str:
    facts = (
        ("dice/draws", spec.chance),
        ("hidden hands", spec.hidden_information),
        ("simultaneous", spec.simultaneous),
    )
    return ", ".join(k for k, on in facts if on) or "-"


def _players(spec: GameSpec) -> str:
    if spec.min_players == spec.max_players:
        return str(spec.min_players)
    return f"{spec.min_players}-{spec.max_players}"


@app.command("version")
def version() -> None:
    """Show the version and whether the compiled engines or pure Python run."""
    console.print(version_line())


@app.command("list")
def list_games(
    game: Annotated[
        str | None, typer.Argument(help="a game id: show its options and what it is")
    ] = None,
) -> None:
    """List the games (one line each), or show one game's options."""
    if game is not None:
        _show_game(game)
        return
    table = Table(box=None, pad_edge=False, header_style="bold")
    width = max(len(spec.id) for spec in registered_games())
    table.add_column("game", no_wrap=True, min_width=width)
    table.add_column("players", no_wrap=True, min_width=7)
    table.add_column("what it is", no_wrap=True, overflow="ellipsis", ratio=1)
    for spec in registered_games():
        table.add_row(spec.id, _players(spec), spec.summary)
    console.print(table)
    console.print("Options and details of one game: sudoku-arena list GAME", style="dim")


def _show_game(game_id: str) -> None:
    try:
        spec = spec_of(game_id)
    except ArenaError as exc:
        fail(str(exc))
    console.print(Text(f"{spec.name} ({spec.id}), version {spec.version}", style="bold"))
    console.print(Text(f"players {_players(spec)}; {_kind(spec)}"))
    console.print(Text(spec.summary))
    table = Table(box=None, pad_edge=False, header_style="bold", title_justify="left")
    table.add_column("option", no_wrap=True)
    table.add_column("default", no_wrap=True, overflow="ellipsis", max_width=12)
    table.add_column("meaning")
    for p in spec.params:
        default = "generated" if p.generate is not None else str(p.default)
        table.add_row(p.name, default, p.help)
    console.print()
    console.print(table)
    console.print(
        Text(
            f"Set options with --param NAME=VALUE; rules: sudoku-arena serve, then /rules/{spec.id}"
        )
    )


def _advance(progress: Progress, task: TaskID, done: int) -> None:
    progress.update(task, completed=done)


@app.command("check")
def check(
    game: Annotated[str, typer.Argument(help="game id, or 'all'")] = "all",
    games: Annotated[int, typer.Option(min=1, help="random games per player count")] = 10,
    seed: Annotated[int, typer.Option(help="first seed")] = 0,
    param: Annotated[list[str] | None, typer.Option("--param", help="NAME=VALUE")] = None,
) -> None:
    """Run the conformance suite (random games against the protocol's promises)."""
    ids = [s.id for s in registered_games()] if game == "all" else [game]
    try:
        params = game_params(param)
        for gid in ids:
            spec_of(gid)
    except ArenaError as exc:
        fail(str(exc))
    failed = False
    for gid in ids:
        spec = spec_of(gid)
        counts = {spec.min_players, spec.max_players}
        total = games * (1 if "players" in params else len(counts))
        with Progress(console=console, transient=True) as progress:
            task = progress.add_task(f"checking {gid}", total=total)
            try:
                report = check_game(
                    gid,
                    games=games,
                    seed=seed,
                    params=params or None,
                    progress=partial(_advance, progress, task),
                )
            except (ConformanceError, ArenaError) as exc:
                console.print(f"[bold red]FAIL[/] {gid}: {exc}")
                failed = True
                continue
        table = Table(title=f"{gid}: {report.games} games, {report.plies} plies — all passed")
        table.add_column("check")
        table.add_column("times", justify="right")
        for name, n in sorted(report.counts.items()):
            table.add_row(name, str(n))
        console.print(table)
    if failed:
        raise typer.Exit(1)
